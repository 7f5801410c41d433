import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  LETRAS_DNI,
  esCifValido,
  esDniValido,
  esNieValido,
  esNifPersonaEspecialValido,
  esNifValido,
  normalizarNif,
  tipoNif,
} from '../../src/lib/nif.ts';
import { tipoNifPerfil } from '../../src/lib/perfil/reglas.ts';

describe('DNI', () => {
  it('accepts the published vectors and rejects a wrong letter', () => {
    // docs/sector.md §2.1 (python-stdnum): 54362315K valid; 12345678 → Z.
    expect(esDniValido('54362315K')).toBe(true);
    expect(esDniValido('12345678Z')).toBe(true);
    expect(esDniValido('54362315A')).toBe(false);
    expect(esDniValido('5436231K')).toBe(false);
  });

  it('accepts exactly one letter for every number', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 99_999_999 }), (n) => {
        const digits = String(n).padStart(8, '0');
        const valid = [...LETRAS_DNI].filter((l) => esDniValido(digits + l));
        return valid.length === 1 && valid[0] === LETRAS_DNI[n % 23];
      }),
    );
  });
});

describe('NIE', () => {
  it('maps X, Y, Z to 0, 1, 2 (docs/sector.md §2.2 and §2.4 vectors)', () => {
    expect(esNieValido('X2482300W')).toBe(true);
    expect(esNieValido('X5253868R')).toBe(true);
    expect(esNieValido('X2482300A')).toBe(false);
    expect(esNieValido('Y2482300W')).toBe(false);
  });
});

describe('NIF K, L and M (people without DNI or NIE, Orden EHA/451/2008)', () => {
  it('accepts the vectors python-stdnum and other validators publish, and refuses a wrong letter', () => {
    for (const nif of ['K0867756N', 'L3453453A', 'M5566542J']) {
      expect(esNifPersonaEspecialValido(nif), nif).toBe(true);
      expect(esNifValido(nif), nif).toBe(true);
    }
    expect(esNifValido('K0867756J')).toBe(false);
    expect(esNifValido('N0867756N')).toBe(false);
  });

  it('takes the mod-23 letter of the 7 digits, for every number (against BigInt arithmetic)', () => {
    fc.assert(
      fc.property(fc.constantFrom('K', 'L', 'M'), fc.integer({ min: 0, max: 9_999_999 }), (letra, n) => {
        const siete = String(n).padStart(7, '0');
        const control = 'TRWAGMYFPDXBNJZSQVHLCKE'.charAt(Number(BigInt(siete) % 23n));
        return [...LETRAS_DNI].filter((l) => esNifValido(`${letra}${siete}${l}`)).join('') === control;
      }),
    );
  });

  it('are people: the form enables the name fields and the profile shows them as a DNI', () => {
    expect(tipoNif('k0867756n')).toBe('DNI');
    expect(tipoNifPerfil('M5566542J')).toBe('DNI');
  });
});

describe('CIF', () => {
  it('accepts the published vectors', () => {
    expect(esCifValido('B64717838')).toBe(true);
    expect(esCifValido('B64717839')).toBe(false);
    expect(esCifValido('Q2816003D')).toBe(true);
  });

  it('needs a digit after A, B, E, H and a letter after N, P, Q, R, S, W', () => {
    expect(esCifValido('B00001016')).toBe(true);
    expect(esCifValido('B0000101F')).toBe(false); // F is the letter of 6: a B needs the digit
    expect(esCifValido('Q2816003D')).toBe(true);
    expect(esCifValido('Q28160034')).toBe(false); // a Q needs the letter
    expect(esCifValido('G00001016')).toBe(true); // others accept either form
    expect(esCifValido('G0000101F')).toBe(true);
  });

  it('rejects first letters that name no entity type', () => {
    expect(esCifValido('I00001016')).toBe(false);
    expect(esCifValido('X00001016')).toBe(false);
  });
});

describe('classification while typing (docs/producto.md §4)', () => {
  it('says DNI for a valid DNI or NIE, CIF for a valid CIF, INCOMPLETO otherwise', () => {
    expect(tipoNif('54362315k')).toBe('DNI');
    expect(tipoNif('x2482300w')).toBe('DNI');
    expect(tipoNif('b64717838')).toBe('CIF');
    expect(tipoNif('5436231')).toBe('INCOMPLETO');
    expect(tipoNif('')).toBe('INCOMPLETO');
    expect(tipoNif('54362315A')).toBe('INCOMPLETO');
  });

  it('normalises case, spaces, dots and dashes', () => {
    expect(normalizarNif(' b-64.717.838 ')).toBe('B64717838');
    expect(esNifValido(normalizarNif('54.362.315-k'))).toBe(true);
  });
});
