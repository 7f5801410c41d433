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
  // docs/sector.md §2.1 (python-stdnum): 54362315K valid; 12345678 → Z.
  it.each([
    ['54362315K', true],
    ['12345678Z', true],
    ['54362315A', false],
    ['5436231K', false],
  ])('takes %s for a valid DNI: %s', (dni, valido) => {
    expect(esDniValido(dni)).toBe(valido);
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
  // X, Y, Z stand for 0, 1, 2 (docs/sector.md §2.2 and §2.4 vectors).
  it.each([
    ['X2482300W', true],
    ['X5253868R', true],
    ['X2482300A', false],
    ['Y2482300W', false],
  ])('takes %s for a valid NIE: %s', (nie, valido) => {
    expect(esNieValido(nie)).toBe(valido);
  });
});

describe('NIF K, L and M (people without DNI or NIE, Orden EHA/451/2008)', () => {
  it.each(['K0867756N', 'L3453453A', 'M5566542J'])('accepts %s, a vector python-stdnum and other validators publish', (nif) => {
    expect(esNifPersonaEspecialValido(nif), nif).toBe(true);
    expect(esNifValido(nif), nif).toBe(true);
  });

  it.each([
    ['K0867756J', 'a wrong letter'],
    ['N0867756N', 'a first letter that is not K, L or M'],
  ])('refuses %s, with %s', (nif) => {
    expect(esNifValido(nif)).toBe(false);
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
  it.each([
    ['B64717838', true],
    ['B64717839', false],
    ['Q2816003D', true],
  ])('takes the published vector %s for a valid CIF: %s', (cif, valido) => {
    expect(esCifValido(cif)).toBe(valido);
  });

  it.each([
    ['B00001016', true, 'a B with its digit'],
    ['B0000101F', false, 'a B with the letter of 6: a B needs the digit'],
    ['Q2816003D', true, 'a Q with its letter'],
    ['Q28160034', false, 'a Q with the digit: a Q needs the letter'],
    ['G00001016', true, 'a G with the digit: the others accept either form'],
    ['G0000101F', true, 'a G with the letter'],
  ])('takes %s for a valid CIF: %s (%s)', (cif, valido) => {
    expect(esCifValido(cif)).toBe(valido);
  });

  it.each(['I00001016', 'X00001016'])('rejects %s, whose first letter names no entity type', (cif) => {
    expect(esCifValido(cif)).toBe(false);
  });
});

describe('classification while typing (docs/producto.md §4)', () => {
  it.each([
    ['54362315k', 'DNI'],
    ['x2482300w', 'DNI'],
    ['b64717838', 'CIF'],
    ['5436231', 'INCOMPLETO'],
    ['', 'INCOMPLETO'],
    ['54362315A', 'INCOMPLETO'],
  ])('says «%s» is %s: DNI for a valid DNI or NIE, CIF for a valid CIF, INCOMPLETO otherwise', (nif, tipo) => {
    expect(tipoNif(nif)).toBe(tipo);
  });

  it('normalises case, spaces, dots and dashes', () => {
    expect(normalizarNif(' b-64.717.838 ')).toBe('B64717838');
    expect(esNifValido(normalizarNif('54.362.315-k'))).toBe(true);
  });
});
