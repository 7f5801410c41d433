/**
 * The Spanish number reader every numeric field shares: points for thousands, comma for decimals,
 * and what could be read two ways refused with a message saying how to write it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { equivalencia, leerNumeroEspanol, type ReglaNumero } from '../../src/lib/formato/leer-numero.ts';
import { numero } from '../../src/lib/formato/numeros.ts';

const ENTERO: ReglaNumero = { decimales: 0, unidad: 'kWh' };
const LECTURA: ReglaNumero = { decimales: 2, unidad: 'kWh' };
const EUROS: ReglaNumero = { decimales: 2, unidad: '€' };
const valor = (t: string, r: ReglaNumero) => {
  const x = leerNumeroEspanol(t, r);
  return x.estado === 'ok' ? x.valor : x.estado;
};

describe('leerNumeroEspanol', () => {
  it('lee el punto seguido de grupos de tres cifras como separador de miles', () => {
    expect(valor('12.345', LECTURA)).toBe(12345);
    expect(valor('1.234.567', ENTERO)).toBe(1234567);
    expect(valor('12 345', ENTERO)).toBe(12345);
  });

  it('lee la coma como separador decimal, con o sin miles', () => {
    expect(valor('120,50', EUROS)).toBe(120.5);
    expect(valor('1.234,5', LECTURA)).toBe(1234.5);
    expect(valor('0,5', LECTURA)).toBe(0.5);
  });

  it('rechaza el punto decimal inglés diciendo cómo escribirlo', () => {
    const r = leerNumeroEspanol('12.34', EUROS);
    expect(r).toEqual({ estado: 'error', mensaje: expect.stringContaining('12,34') });
  });

  it('rechaza «1,234» donde no hay decimales: puede ser una coma de miles inglesa', () => {
    const r = leerNumeroEspanol('1,234', ENTERO);
    expect(r.estado).toBe('error');
    expect(r.estado === 'error' && r.mensaje).toContain('1.234');
  });

  it('rechaza el orden inglés, los signos, más decimales de los admitidos y lo que pasa del máximo', () => {
    expect(valor('1,234.5', LECTURA)).toBe('error');
    expect(valor('-3', LECTURA)).toBe('error');
    expect(valor('12,345', EUROS)).toBe('error');
    expect(valor('12a', LECTURA)).toBe('error');
    expect(valor('1.23.456', LECTURA)).toBe('error');
    expect(valor('100', { decimales: 0, max: 99 })).toBe('error');
  });

  it('nada escrito no es un error', () => {
    expect(leerNumeroEspanol('  ', LECTURA)).toEqual({ estado: 'vacio' });
  });

  it('devuelve lo leído como lo escribe la pantalla', () => {
    expect(equivalencia('12.345', LECTURA)).toBe('Equivale a 12.345 kWh.');
    expect(equivalencia('120,5', EUROS)).toBe('Equivale a 120,50 €.');
    expect(equivalencia('12.34', EUROS)).toBeNull();
  });

  // Properties: whatever the portal writes (numeros.ts, es-ES always grouped) reads back as the same value.
  it('lee cualquier entero escrito por el portal como ese entero', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9_999_999_999 }), (n) => {
        expect(valor(numero(n), ENTERO)).toBe(n);
      }),
    );
  });

  it('lee cualquier importe con dos decimales escrito por el portal como ese importe', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 999_999_999_999 }), (centimos) => {
        expect(valor(numero(centimos / 100, 2), EUROS)).toBeCloseTo(centimos / 100, 6);
      }),
    );
  });

  it('lee las cifras sin separadores como el número que forman', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[1-9]\d{0,11}$/), (t) => {
        expect(valor(t, ENTERO)).toBe(Number(t));
      }),
    );
  });

  it('rechaza siempre un punto seguido de una, dos o más de tres cifras (nunca lo lee como decimal)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[1-9]\d{0,5}$/), fc.stringMatching(/^(\d{1,2}|\d{4,6})$/), (entera, fraccion) => {
        expect(valor(`${entera}.${fraccion}`, LECTURA)).toBe('error');
      }),
    );
  });

  it('un texto que no es un número no se lee nunca como número', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 12 }), (t) => {
        fc.pre(/[^\d., \u00a0\u202f]/.test(t.trim()));
        expect(['error', 'vacio']).toContain(leerNumeroEspanol(t, LECTURA).estado);
      }),
    );
  });
});
