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
  it('quotes cells holding the separator, quotes or line breaks, doubling the quotes', () => {
    expect(quoteCsvCell('a;b')).toBe('"a;b"');
    expect(quoteCsvCell('dice "hola"')).toBe('"dice ""hola"""');
    expect(quoteCsvCell('dos\nlíneas')).toBe('"dos\nlíneas"');
    expect(quoteCsvCell('a,b')).toBe('a,b');
    expect(quoteCsvCell('a,b', ',')).toBe('"a,b"');
  });

  it('writes numbers with a decimal comma, without exponents or binary noise', () => {
    expect(csvDecimal(12.5)).toBe('12,5');
    expect(csvDecimal(-3.6736)).toBe('-3,6736');
    expect(csvDecimal(100)).toBe('100');
    expect(csvDecimal(0.1 + 0.2)).toBe('0,3');
    expect(csvDecimal(1e-7)).toBe('0');
    expect(csvDecimal(1234567.891)).toBe('1234567,891');
    expect(csvDecimal(100, 0)).toBe('100');
    expect(csvDecimal(null)).toBe('');
    expect(csvDecimal(Number.NaN)).toBe('');
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
