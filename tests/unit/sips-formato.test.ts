/**
 * The CNMC SIPS layouts and the writing of their fields (docs/sector.md §3.2–§3.4): the number and
 * order of columns of each layout, RFC 4180 quoting, and the checks of each kind of value.
 */
import { describe, expect, it } from 'vitest';
import { columnasSips, CONSUMOS_SIPS2026, CONSUMOS_V2, nombreFicheroSips, PS_SIPS2026, PS_V2 } from '../../src/lib/sips/columnas.ts';
import { rangoMes } from '../../src/lib/medidas/horas.ts';
import { numeroPeriodos, periodosEnergiaDeHoras, zonaHorariaDe, type ZonaElectrica } from '../../src/lib/medidas/periodos.ts';
import { campoSips, errorCabeceraSips, errorValorSips, esFechaSips, fallasFilaSips, lineaSips } from '../../src/lib/sips/fila.ts';

describe('formatos SIPS de la CNMC', () => {
  it.each([
    [PS_V2, 57, 'codigoEmpresaDistribuidora', 'aplicacionBonoSocial'],
    [PS_SIPS2026, 103, 'codigoEmpresaDistribuidora', 'codigoTipoSuministro'],
    [CONSUMOS_V2, 24, 'cups', 'codigoTipoLectura'],
    [CONSUMOS_SIPS2026, 30, 'cups', 'codigoTipoLectura'],
  ])('el formato de %# columnas tiene %i, de %s a %s', (columnas, n, primera, ultima) => {
    expect(columnas).toHaveLength(n);
    expect(columnas[0]!.nombre).toBe(primera);
    expect(columnas.at(-1)!.nombre).toBe(ultima);
    expect(new Set(columnas.map((c) => c.nombre)).size).toBe(n);
  });

  it('en SIPS2026 el nombre de la distribuidora va antes del CUPS, y en v2 después', () => {
    expect(PS_SIPS2026.slice(0, 3).map((c) => c.nombre)).toEqual(['codigoEmpresaDistribuidora', 'nombreEmpresaDistribuidora', 'cups']);
    expect(PS_V2.slice(0, 3).map((c) => c.nombre)).toEqual(['codigoEmpresaDistribuidora', 'cups', 'nombreEmpresaDistribuidora']);
  });

  it('v2 no lleva el nombre ni la dirección del titular (RD 1074/2015)', () => {
    const nombres = PS_V2.map((c) => c.nombre);
    for (const n of ['nombreTitular', 'apellido1Titular', 'viaPS', 'viaTitular']) expect(nombres).not.toContain(n);
  });

  it('la energía reactiva se divide en inductiva y capacitiva en SIPS2026', () => {
    expect(columnasSips('CONSUMOS_ELECTRICIDAD', 'sips2026').map((c) => c.nombre)).toContain('consumoEnergíaReactivaCapacitivaEnVArhP6');
    expect(columnasSips('CONSUMOS_ELECTRICIDAD', 'v2').map((c) => c.nombre)).toContain('consumoEnergiaReactivaEnVArhP6');
  });

  it('nombra los ficheros como la CNMC', () => {
    expect(nombreFicheroSips('2026-11-01', 'PS_ELECTRICIDAD', 'sips2026', 'epd')).toBe('202611_SIPS2026_PS_ELECTRICIDAD_epd.csv');
    expect(nombreFicheroSips('2026-01-01', 'CONSUMOS_ELECTRICIDAD', 'v2', 'EOD')).toBe('202601_SIPS2_CONSUMOS_ELECTRICIDAD_eod.csv');
  });
});

describe('campos de un fichero SIPS', () => {
  it.each([
    ['Mayor', 'Mayor'],
    ['Mayor, 3', '"Mayor, 3"'],
    ['La "Granja"', '"La ""Granja"""'],
    ['dos\nlíneas', '"dos\nlíneas"'],
    ['', ''],
  ])('«%s» se escribe %s', (valor, escrito) => {
    expect(campoSips(valor)).toBe(escrito);
  });

  it('null se escribe vacío, nunca como cero', () => {
    expect(lineaSips(['a', null, undefined, 0])).toBe('a,,,0\r\n');
  });

  it.each(['2024-02-29', '2026-12-31'])('%s es una fecha', (f) => expect(esFechaSips(f)).toBe(true));
  it.each(['2026-02-29', '2026-13-01', '26-01-01', '2026/01/01'])('%s no es una fecha', (f) => expect(esFechaSips(f)).toBe(false));

  it('una columna obligatoria vacía es un error y una opcional vacía no', () => {
    const cups = PS_SIPS2026.find((c) => c.nombre === 'cups')!;
    const catastro = PS_SIPS2026.find((c) => c.nombre === 'referenciaCatastralPS')!;
    expect(errorValorSips(cups, '')).toBe('es obligatoria y viene vacía.');
    expect(errorValorSips(catastro, '')).toBeNull();
  });

  it('un texto más largo que su columna es un error', () => {
    const cp = PS_SIPS2026.find((c) => c.nombre === 'codigoPostalPS')!;
    expect(errorValorSips(cp, '280011')).toBe('admite 5 caracteres y trae 6.');
  });

  it('una línea con otro número de campos es un error de la línea', () => {
    expect(fallasFilaSips(CONSUMOS_V2, ['a', 'b'])).toEqual([{ columna: '', motivo: 'La línea tiene 2 campos y el formato tiene 24.' }]);
  });

  it('la cabecera admite la errata de sippers en suministroEsencial', () => {
    const nombres = PS_SIPS2026.map((c) => (c.nombre === 'suministroEsencial' ? 'fiesuministroEsencialld82' : c.nombre));
    expect(errorCabeceraSips(PS_SIPS2026, nombres)).toBeNull();
  });
});

describe('meses civiles del fichero de consumos', () => {
  // consultaConsumos corrects only the last period at a civil month's ends: it holds because
  // 00:00–02:00 local time is valle (2.0TD) or P6 (six periods) every day, in every zone.
  it.each(['peninsula', 'baleares', 'canarias', 'ceuta', 'melilla'] as ZonaElectrica[])(
    'las dos primeras horas de cada mes civil están en el último periodo de la tarifa (%s)',
    (zona) => {
      for (const tarifa of ['2.0TD', '3.0TD', '6.1TD'] as const) {
        for (let anio = 2024; anio <= 2028; anio++) {
          for (let mes = 1; mes <= 12; mes++) {
            const inicio = rangoMes(anio, mes, zonaHorariaDe(zona)).inicio.getTime();
            expect([...periodosEnergiaDeHoras(inicio, 2, tarifa, zona)]).toEqual([numeroPeriodos(tarifa) - 1, numeroPeriodos(tarifa) - 1]);
          }
        }
      }
    },
  );
});
