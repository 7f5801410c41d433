import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CSV_BOM, csvCell, csvDecimal, csvLine, neutralizeFormula, quoteCsvCell } from '../../src/lib/csv.ts';

describe('neutralizeFormula', () => {
  it.each(['=SUMA(A1:A9)', '+34 600 000 000', '-2+3', '@HYPERLINK("http://x")', '\tTAB', '\rCR'])(
    'puts an apostrophe before %j, which a spreadsheet would run',
    (text) => {
      expect(neutralizeFormula(text)).toBe(`'${text}`);
    },
  );

  it.each(['Getafe Norte', '', ' =no empieza por igual', "'ya protegido", '12,5', 'Ávila'])('leaves %j as it is', (text) => {
    expect(neutralizeFormula(text)).toBe(text);
  });

  it('never lets a cell start with a formula character, and only ever adds one apostrophe', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const safe = neutralizeFormula(text);
        expect(safe).toMatch(/^(?![=+\-@\t\r])/);
        expect([text, `'${text}`]).toContain(safe);
      }),
    );
  });
});

describe('CSV cells and lines', () => {
  it.each<[string, string | undefined, string]>([
    ['a;b', undefined, '"a;b"'],
    ['dice "hola"', undefined, '"dice ""hola"""'],
    ['dos\nlíneas', undefined, '"dos\nlíneas"'],
    ['a,b', undefined, 'a,b'],
    ['a,b', ',', '"a,b"'],
  ])(
    'writes %j (separator %j) as %j: quoted when it holds the separator, quotes or line breaks, quotes doubled',
    (texto, separador, celda) => {
      expect(quoteCsvCell(texto, separador)).toBe(celda);
    },
  );

  it.each<[number | null, number | undefined, string]>([
    [12.5, undefined, '12,5'],
    [-3.6736, undefined, '-3,6736'],
    [100, undefined, '100'],
    [0.1 + 0.2, undefined, '0,3'],
    [1e-7, undefined, '0'],
    [1234567.891, undefined, '1234567,891'],
    [100, 0, '100'],
    [null, undefined, ''],
    [Number.NaN, undefined, ''],
  ])('writes %s (decimals %s) as «%s»: a decimal comma, no exponent, no binary noise', (numero, decimales, texto) => {
    expect(csvDecimal(numero, decimales)).toBe(texto);
  });

  it('neutralises text but never numbers, so a negative longitude stays a number', () => {
    expect(csvCell(-3.67)).toBe('-3,67');
    expect(csvCell('-3,67')).toBe("'-3,67");
    expect(csvCell('=1+1;2')).toBe(`"'=1+1;2"`);
    expect(csvCell(null)).toBe('');
  });

  it('ends each line in CRLF and exposes the BOM Excel needs', () => {
    expect(csvLine(['Provincia', 'Disponible (MW)'])).toBe('Provincia;Disponible (MW)\r\n');
    expect(csvLine(['Ávila', 6.8, null, '@x'])).toBe("Ávila;6,8;;'@x\r\n");
    expect(CSV_BOM).toBe('\uFEFF');
  });
});
