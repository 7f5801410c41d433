import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  analizarCups,
  construirCups,
  cupsBase,
  cupsComoPedido,
  errorCups,
  esCupsValido,
  letrasControlCups,
  MENSAJES_CUPS,
} from '../../src/lib/cups.ts';

describe('CUPS (docs/sector.md §1)', () => {
  it('computes the control letters of the published example', () => {
    // docs/sector.md §1.2: ES1234123456789012 → JY.
    expect(letrasControlCups('1234123456789012')).toBe('JY');
    expect(esCupsValido('ES1234123456789012JY')).toBe(true);
  });

  it('accepts the real F5D fixture CUPS with its border-point suffix', () => {
    expect(esCupsValido('ES0237000000130940CT0F')).toBe(true);
    expect(cupsBase('es0237 0000 0013 0940 ct 0f')).toBe('ES0237000000130940CT');
  });

  it.each([
    ['', 'vacio'],
    ['ES123', 'longitud'],
    ['FR1234123456789012JY', 'pais'],
    ['ES12341234567890A2JY', 'digitos'],
    ['ES1234123456789012JZ', 'control'],
    // stdnum's own doctest: T is not a border type.
    ['ES1234123456789012JY1T', 'frontera'],
    ['ES1234123456789012JY1F', null],
  ])('names the mistake of «%s»: %s', (cups, error) => {
    expect(errorCups(cups)).toBe(error);
  });

  it.each(Object.keys(MENSAJES_CUPS))('explains the mistake %s in words that name the CUPS', (kind) => {
    expect(MENSAJES_CUPS[kind as keyof typeof MENSAJES_CUPS]).toMatch(/CUPS/);
  });

  it('builds valid CUPS for any distributor and id, and any other letter pair fails', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9999 }), fc.bigInt({ min: 0n, max: 999_999_999_999n }), (d, id) => {
        const cups = construirCups(String(d), id);
        if (!esCupsValido(cups)) return false;
        const wrong = cups.slice(0, 18) + (cups[18] === 'T' ? 'R' : 'T') + cups[19];
        return errorCups(wrong) === 'control';
      }),
    );
  });
});

describe('analizarCups: la forma de 20 y la de 22 caracteres', () => {
  const base = construirCups('9901', 1);

  it('la forma de 20 da su clave sin sufijo', () => {
    expect(analizarCups(base)).toEqual({ cups: { clave: base, sufijo: null, escrito: base } });
  });

  it('la forma de 22 (con el punto frontera, 0F) da la misma clave y su sufijo', () => {
    expect(analizarCups(`${base}0F`)).toEqual({ cups: { clave: base, sufijo: '0F', escrito: `${base}0F` } });
  });

  it('normaliza espacios, guiones y minúsculas antes de leerla', () => {
    const escrito = `${base.slice(0, 6)} ${base.slice(6, 18)}-${base.slice(18).toLowerCase()} 1p`;
    expect(analizarCups(escrito)).toEqual({ cups: { clave: base, sufijo: '1P', escrito: `${base}1P` } });
  });

  it.each([
    [`${base}0T`, 'frontera'],
    [`${base}0`, 'longitud'],
    [`${base.slice(0, 18)}AA0F`, 'control'],
  ])('%s no es válido (%s)', (cups, error) => {
    expect(analizarCups(cups)).toEqual({ error });
  });

  it('responde en la forma de la petición', () => {
    expect(cupsComoPedido(base, { sufijo: '0F' })).toBe(`${base}0F`);
    expect(cupsComoPedido(`${base}1P`, { sufijo: null })).toBe(base);
  });
});
