import { describe, expect, it } from 'vitest';
import { etiquetaDia, fechasEntre, horasDelDia, iniciosEntre, rangoDias, type MinutosIntervalo } from '../../src/lib/medidas/horas.ts';
import { leyendaPeriodos, type CodigoTarifa } from '../../src/lib/medidas/periodos.ts';
import { totalesPorPeriodo } from '../../src/lib/medidas/totales.ts';
import { disponibilidad } from '../../src/lib/medidas/pantalla/disponibilidad.ts';
import { modeloTabla } from '../../src/lib/medidas/pantalla/tabla.ts';
import { cifrasCurva, factorPotencia, filasTotales } from '../../src/lib/medidas/pantalla/resumen.ts';
import { kwhTotal } from '../../src/lib/medidas/pantalla/formato.ts';
import {
  bandasDiasEspeciales,
  CLAVE_TOTAL,
  colorDeClave,
  COLOR_TOTAL,
  cuandoPunto,
  etiquetaEje,
  hayEstimadas,
  hayVertida,
  indiceEn,
  leerClave,
  periodosPresentes,
  prepararCurva,
  textoPunto,
  tituloEjeY,
  type Curva,
} from '../../src/lib/medidas/pantalla/serie.ts';

/** A curve answer as the API gives it, built from the same time and period modules the server uses. */
function curvaDe(
  desde: string,
  hasta: string,
  o: {
    tarifa?: CodigoTarifa;
    minutos?: MinutosIntervalo;
    estimadas?: number[];
    vertida?: boolean;
    resolucion?: Curva['resolucion'];
    huecos?: number[];
  } = {},
): Curva {
  const tarifa = o.tarifa ?? '2.0TD';
  const minutos = o.minutos ?? 60;
  const r = rangoDias(desde, hasta);
  const todos = [...iniciosEntre(r.inicio, r.fin, minutos)].map((d) => d.getTime());
  const presente = todos.map((_, i) => !(o.huecos ?? []).includes(i));
  const inicios = todos.filter((_, i) => presente[i]);
  const importadaWh = inicios.map((_, i) => 100 + (i % 7) * 10);
  const exportadaWh = inicios.map((_, i) => (o.vertida ? (i % 24 >= 10 && i % 24 < 16 ? 500 : 0) : null));
  const real = inicios.map((_, i) => !(o.estimadas ?? []).includes(i));
  // The API's dense columns: one slot per interval of the range, the gaps null.
  const densa = <T>(v: T[]): (T | null)[] => {
    let k = 0;
    return todos.map((_, i) => (presente[i] ? v[k++]! : null));
  };
  const medidas = inicios.map((t, i) => ({
    inicio: new Date(t),
    minutos,
    importadaWh: importadaWh[i]!,
    exportadaWh: exportadaWh[i]!,
    metodo: real[i] ? ('real' as const) : ('estimada' as const),
  }));
  const tot = totalesPorPeriodo(medidas, tarifa);
  return {
    cups: 'ES9902000000000001KL',
    tarifa,
    zona: 'peninsula',
    resolucion: o.resolucion ?? (minutos === 15 ? 'cuartohora' : 'hora'),
    desde,
    hasta,
    inicioUtc: r.inicio.toISOString(),
    finUtc: r.fin.toISOString(),
    curva: {
      minutos,
      desde: r.inicio.getTime(),
      inicio: null,
      importadaWh: densa(importadaWh),
      exportadaWh: o.vertida ? densa(exportadaWh) : null,
      calidad: densa(real.map((x) => (x ? 'R' : 'e')))
        .map((l) => l ?? '-')
        .join(''),
    },
    totales: {
      importadaWh: tot.total.importadaWh,
      exportadaWh: o.vertida ? tot.total.exportadaWh : null,
      porPeriodo: leyendaPeriodos(tarifa).map((p, i) => ({
        ...p,
        importadaWh: tot.periodos[i]!.importadaWh,
        reactivaInductivaVarh: null,
        reactivaCapacitivaVarh: null,
      })),
      reactivaInductivaVarh: null,
      reactivaCapacitivaVarh: null,
      horasConDatos: tot.total.intervalos,
      horasEstimadas: tot.total.estimadas,
      horasDelRango: Math.round((r.fin.getTime() - r.inicio.getTime()) / 3_600_000),
    },
    diasEspeciales: fechasEntre(desde, hasta)
      .map((fecha) => ({ fecha, horas: horasDelDia(fecha), etiqueta: etiquetaDia(fecha) }))
      .filter((d): d is { fecha: string; horas: number; etiqueta: string } => d.etiqueta !== null),
  };
}

describe('chart series from the API columns', () => {
  it('draws the 25 hours of the October change day, all valle (a Sunday) for 2.0TD', () => {
    const p = prepararCurva(curvaDe('2025-10-26', '2025-10-26'));
    expect(p.x).toHaveLength(25);
    expect(new Set(p.periodos)).toEqual(new Set(['P3']));
    expect(p.importadaKwh[0]).toBeCloseTo(0.1, 10);
    expect(p.xMax - p.xMin).toBe(25 * 3_600_000);
  });

  it('draws the 23 hours of the March change day', () => {
    expect(prepararCurva(curvaDe('2026-03-29', '2026-03-29')).x).toHaveLength(23);
  });

  it('colours a working day by the 2.0TD bands of local time, not UTC', () => {
    // Monday 3 November 2025 (winter, UTC+1): local 10:00 is punta, 08:00 llano, 07:00 valle.
    const p = prepararCurva(curvaDe('2025-11-03', '2025-11-03'));
    expect(p.periodos[7]).toBe('P3');
    expect(p.periodos[8]).toBe('P2');
    expect(p.periodos[10]).toBe('P1');
    expect(p.periodos[22]).toBe('P2');
    expect(periodosPresentes(p).map((x) => x.periodo)).toEqual(['P1', 'P2', 'P3']);
  });

  it('colours a national holiday as valle all day (12 October 2026 is a Monday)', () => {
    const p = prepararCurva(curvaDe('2026-10-12', '2026-10-12'));
    expect(new Set(p.periodos)).toEqual(new Set(['P3']));
  });

  it('uses the six periods of 3.0TD by season: a January working day has P1, a weekend P6 only', () => {
    const laborable = prepararCurva(curvaDe('2026-01-14', '2026-01-14', { tarifa: '3.0TD' }));
    expect(laborable.periodos[9]).toBe('P1');
    expect(laborable.periodos[8]).toBe('P2');
    expect(laborable.periodos[3]).toBe('P6');
    const sabado = prepararCurva(curvaDe('2026-01-17', '2026-01-17', { tarifa: '3.0TD' }));
    expect(new Set(sabado.periodos)).toEqual(new Set(['P6']));
  });

  it('marks estimated bars with their own fill key and keeps the period colour', () => {
    const p = prepararCurva(curvaDe('2025-11-03', '2025-11-03', { estimadas: [10] }));
    expect(p.claves[10]).toBe('P1~e');
    expect(p.claves[11]).toBe('P1');
    expect(leerClave('P1~e')).toEqual({ base: 'P1', estimada: true });
    expect(colorDeClave('P1~e', p.leyenda)).toBe(colorDeClave('P1', p.leyenda));
    expect(hayEstimadas(p)).toBe(true);
  });

  it('draws surplus below zero, zeros included, and only when the supply has generation', () => {
    const con = prepararCurva(curvaDe('2025-06-02', '2025-06-02', { vertida: true }));
    expect(con.vertidaKwh?.[12]).toBe(-0.5);
    expect(con.vertidaKwh?.[2]).toBe(0);
    expect(hayVertida(con)).toBe(true);
    const sin = prepararCurva(curvaDe('2025-06-02', '2025-06-02'));
    expect(sin.vertidaKwh).toBeNull();
    expect(hayVertida(sin)).toBe(false);
  });

  it('gives day sums one colour and no period', () => {
    const c = curvaDe('2025-10-01', '2025-10-03', { resolucion: 'dia' });
    const inicio = [0, 1, 2].map((i) => rangoDias(`2025-10-0${i + 1}`, `2025-10-0${i + 1}`).inicio.getTime());
    c.curva = { minutos: null, desde: inicio[0]!, inicio, importadaWh: [1000, 2000, 3000], exportadaWh: null, calidad: 'FeF' };
    const p = prepararCurva(c);
    expect(p.minutos).toBeNull();
    expect(p.claves).toEqual([CLAVE_TOTAL, `${CLAVE_TOTAL}~e`, CLAVE_TOTAL]);
    expect(colorDeClave(p.claves[1]!, p.leyenda)).toBe(COLOR_TOTAL);
    expect(cuandoPunto(p, 0)).toBe('Miércoles, 1 de octubre de 2025');
    expect(tituloEjeY('dia')).toBe('kWh por día');
  });

  it('shades the clock-change days over their real UTC span', () => {
    const bandas = bandasDiasEspeciales(curvaDe('2025-10-20', '2025-10-26'));
    expect(bandas).toHaveLength(1);
    expect(bandas[0]).toMatchObject({
      fecha: '2025-10-26',
      horas: 25,
      inicio: Date.parse('2025-10-25T22:00:00Z'),
      fin: Date.parse('2025-10-26T23:00:00Z'),
    });
  });
});

describe('axis labels and the readout in Madrid time', () => {
  it('labels hours, days and months in the civil time of the supply', () => {
    expect(etiquetaEje(Date.parse('2025-11-03T09:00:00Z'), 3 * 3_600_000)).toBe('10:00');
    expect(etiquetaEje(Date.parse('2025-11-02T23:00:00Z'), 3 * 3_600_000)).toBe('3 nov\n00:00');
    expect(etiquetaEje(Date.parse('2025-11-02T23:00:00Z'), 86_400_000)).toBe('3 nov');
    expect(etiquetaEje(Date.parse('2025-10-31T23:00:00Z'), 30 * 86_400_000)).toBe('nov 2025');
  });

  it('tells the two 02:00–03:00 hours of the October day apart', () => {
    const p = prepararCurva(curvaDe('2025-10-26', '2025-10-26'));
    expect(textoPunto(p, 2)).toBe('Domingo, 26 de octubre de 2025, 02:00–03:00 (horario de verano) · 0,120 kWh consumidos · Valle (P3)');
    expect(cuandoPunto(p, 3)).toBe('Domingo, 26 de octubre de 2025, 02:00–03:00 (horario de invierno)');
    expect(cuandoPunto(p, 24)).toBe('Domingo, 26 de octubre de 2025, 23:00–24:00');
  });

  it('says when a bar is estimated or has surplus', () => {
    const p = prepararCurva(curvaDe('2025-06-02', '2025-06-02', { vertida: true, estimadas: [12] }));
    expect(textoPunto(p, 12)).toMatch(/0,500 kWh vertidos · estimada$/);
  });

  it('finds the bar under the pointer, and none in a gap', () => {
    const p = prepararCurva(curvaDe('2025-11-03', '2025-11-03', { huecos: [5] }));
    expect(indiceEn(p, p.xMin)).toBe(0);
    expect(indiceEn(p, p.xMin + 4.5 * 3_600_000)).toBe(4);
    expect(indiceEn(p, p.xMin + 5.5 * 3_600_000)).toBeNull();
    expect(indiceEn(p, p.xMin + 6.2 * 3_600_000)).toBe(5);
    expect(indiceEn(p, p.xMin - 1)).toBeNull();
  });
});

describe('totals and figures', () => {
  it('lists every period of the tariff with its share, and the total', () => {
    const c = curvaDe('2025-11-03', '2025-11-03');
    const { filas, total } = filasTotales(c);
    expect(filas.map((f) => f.periodo)).toEqual(['P1', 'P2', 'P3']);
    expect(filas.map((f) => f.nombre)).toEqual(['Punta', 'Llano', 'Valle']);
    const suma = c.totales.porPeriodo.reduce((s, p) => s + p.importadaWh, 0);
    expect(suma).toBe(c.totales.importadaWh);
    expect(total).toBe((c.totales.importadaWh / 1000).toFixed(3).replace('.', ','));
    expect(filas[0]!.cuota).toMatch(/^\d{1,3},\d\s%$/);
  });

  it('counts the hours of a 25-hour day as 25 and shows no daily average for one day', () => {
    const cifras = cifrasCurva(curvaDe('2025-10-26', '2025-10-26', { estimadas: [1, 2] }));
    expect(cifras.find((c) => c.etiqueta === 'Horas con medida')).toMatchObject({ valor: '25 de 25', detalle: '2 estimadas' });
    expect(cifras.some((c) => c.etiqueta === 'Media por día')).toBe(false);
    expect(cifras.some((c) => c.etiqueta === 'Energía vertida a la red')).toBe(false);
  });

  it('adds the reactive energy with the power factor, and its columns to the totals, where the meter measures it', () => {
    const c = curvaDe('2025-06-02', '2025-06-08');
    const activa = c.totales.importadaWh;
    // An inductive energy of a third of the active: cos φ = 1 / √(1 + 1/9) = 0.95.
    const conReactiva = {
      ...c,
      totales: {
        ...c.totales,
        reactivaInductivaVarh: activa / 3,
        reactivaCapacitivaVarh: 1500,
        porPeriodo: c.totales.porPeriodo.map((p, i) => ({
          ...p,
          reactivaInductivaVarh: i === 0 ? activa / 3 : 0,
          reactivaCapacitivaVarh: i === 0 ? 1500 : 0,
        })),
      },
    };
    const reactiva = cifrasCurva(conReactiva).find((x) => x.etiqueta === 'Energía reactiva inductiva')!;
    expect(reactiva).toMatchObject({ unidad: 'kVArh', detalle: `factor de potencia 0,95 · capacitiva: ${kwhTotal(1500)} kVArh` });
    const tabla = filasTotales(conReactiva);
    expect(tabla.reactiva).toEqual({ inductiva: kwhTotal(activa / 3), capacitiva: kwhTotal(1500) });
    expect(tabla.filas[0]).toMatchObject({ inductiva: kwhTotal(activa / 3), capacitiva: kwhTotal(1500) });
    // A household's meter measures none: no figure, no columns.
    expect(cifrasCurva(c).some((x) => x.unidad === 'kVArh')).toBe(false);
    expect(filasTotales(c).reactiva).toBeNull();
    expect(factorPotencia(0, 0)).toBe('sin consumo');
  });

  it('adds the surplus and the daily average for longer ranges', () => {
    const cifras = cifrasCurva(curvaDe('2025-06-02', '2025-06-08', { vertida: true }));
    expect(cifras.map((c) => c.etiqueta)).toEqual(['Consumo del periodo', 'Energía vertida a la red', 'Horas con medida', 'Media por día']);
  });
});

describe('why a range has no data', () => {
  const medidas = { desde: '2024-11-21T23:00:00.000Z', hasta: '2026-11-21T22:00:00.000Z', horas: 17_499 };
  const sinHoras = { horasConDatos: 0, horasEstimadas: 0, horasDelRango: 24 };

  it('says no measure has arrived for a supply without any', () => {
    expect(disponibilidad({ desde: '2026-11-01', hasta: '2026-11-01' }, sinHoras, null).tipo).toBe('sin-medidas');
  });

  it('says the days after the last received are still to come, naming that day', () => {
    const d = disponibilidad({ desde: '2026-11-22', hasta: '2026-11-22' }, sinHoras, medidas);
    expect(d).toMatchObject({ tipo: 'pendientes', titulo: 'Aún no hemos recibido las medidas de estos días' });
    expect(d.tipo === 'pendientes' && d.texto).toMatch(/sábado, 21 de noviembre de 2026/);
  });

  it('says when the measures of the supply start for a range before them', () => {
    const d = disponibilidad({ desde: '2024-01-01', hasta: '2024-01-07' }, sinHoras, medidas);
    expect(d.tipo).toBe('anteriores');
    expect(d.tipo === 'anteriores' && d.texto).toMatch(/viernes, 22 de noviembre de 2024/);
  });

  it('calls a range inside the received span without data a gap', () => {
    expect(disponibilidad({ desde: '2025-05-05', hasta: '2025-05-05' }, sinHoras, medidas).tipo).toBe('hueco');
  });

  it('notes missing, pending and estimated hours when there is data', () => {
    const parcial = disponibilidad(
      { desde: '2026-11-16', hasta: '2026-11-22' },
      { horasConDatos: 144, horasEstimadas: 1, horasDelRango: 168 },
      medidas,
    );
    expect(parcial.tipo === 'con-datos' && parcial.notas).toEqual([
      'Las medidas llegan hasta el sábado, 21 de noviembre de 2026; las de los días siguientes aún no se han recibido.',
      '1 hora es una estimación de la distribuidora (rayada en el gráfico): se sustituirá por la lectura real cuando llegue.',
    ]);
    const hueco = disponibilidad(
      { desde: '2025-10-01', hasta: '2025-10-31' },
      { horasConDatos: 741, horasEstimadas: 0, horasDelRango: 745 },
      medidas,
    );
    expect(hueco.tipo === 'con-datos' && hueco.notas).toEqual(['Faltan 4 horas sin medida en este periodo (el contador no las envió).']);
  });
});

describe('the table view', () => {
  it('shows the 25 hours of the October day as rows, the repeated hour told apart', () => {
    const c = curvaDe('2025-10-26', '2025-10-26', { estimadas: [3] });
    const m = modeloTabla(c, prepararCurva(c));
    expect(m.tipo).toBe('intervalos');
    if (m.tipo !== 'intervalos') return;
    expect(m.filas).toHaveLength(25);
    expect(m.filas.slice(1, 5).map((f) => f.franja)).toEqual([
      '01:00–02:00',
      '02:00–03:00 (horario de verano)',
      '02:00–03:00 (horario de invierno)',
      '03:00–04:00',
    ]);
    expect(m.filas[3]).toMatchObject({ estimada: true, periodo: 'Valle (P3)' });
    expect(m.especial).toMatch(/25 horas/);
  });

  it('shows a zero surplus as 0, never as -0, and sums the surplus of a day as a positive figure', () => {
    const c = curvaDe('2025-06-02', '2025-06-03', { vertida: true });
    const m = modeloTabla(c, prepararCurva(c));
    if (m.tipo !== 'dias') throw new Error(m.tipo);
    const noche = m.dias[0]!.intervalosDelDia![2]!;
    expect(Object.is(noche.vertidaKwh, 0)).toBe(true);
    expect(m.dias[0]!.intervalosDelDia![12]!.vertidaKwh).toBe(0.5);
    expect(m.dias[0]!.vertidaKwh).toBeCloseTo(3, 10);
  });

  it('groups a week in days, each with its own hours: 23 on the March day', () => {
    const c = curvaDe('2026-03-23', '2026-03-29');
    const m = modeloTabla(c, prepararCurva(c));
    expect(m.tipo).toBe('dias');
    if (m.tipo !== 'dias') return;
    expect(m.dias.map((d) => d.fecha)).toEqual([
      '2026-03-23',
      '2026-03-24',
      '2026-03-25',
      '2026-03-26',
      '2026-03-27',
      '2026-03-28',
      '2026-03-29',
    ]);
    expect(m.dias.map((d) => d.intervalos)).toEqual([24, 24, 24, 24, 24, 24, 23]);
    expect(m.dias[6]!.intervalosDelDia).toHaveLength(23);
    expect(m.dias[6]!.especial).toMatch(/23 horas/);
    expect(m.dias[6]!.larga).toBe('Domingo, 29 de marzo de 2026');
    const suma = m.dias.reduce((s, d) => s + d.importadaKwh, 0);
    expect(suma * 1000).toBeCloseTo(c.totales.importadaWh, 6);
  });

  it('groups quarter-hours by day: 100 on the October day', () => {
    const c = curvaDe('2025-10-25', '2025-10-26', { minutos: 15, tarifa: '3.0TD' });
    const m = modeloTabla(c, prepararCurva(c));
    if (m.tipo !== 'dias') throw new Error(m.tipo);
    expect(m.dias.map((d) => d.intervalos)).toEqual([96, 100]);
    expect(m.dias[1]!.intervalosDelDia![8]!.franja).toBe('02:00–02:15 (horario de verano)');
    expect(m.dias[1]!.intervalosDelDia![12]!.franja).toBe('02:00–02:15 (horario de invierno)');
  });

  it('leaves the hours of day sums to be asked for', () => {
    const c = curvaDe('2025-10-01', '2025-10-31', { resolucion: 'dia' });
    const dias = Array.from({ length: 31 }, (_, i) => `2025-10-${String(i + 1).padStart(2, '0')}`);
    const inicio = dias.map((d) => rangoDias(d, d).inicio.getTime());
    c.curva = {
      minutos: null,
      desde: inicio[0]!,
      inicio,
      importadaWh: dias.map(() => 5000),
      exportadaWh: null,
      calidad: dias.map((_, i) => (i !== 3 ? 'F' : 'e')).join(''),
    };
    const m = modeloTabla(c, prepararCurva(c));
    if (m.tipo !== 'dias') throw new Error(m.tipo);
    expect(m.dias).toHaveLength(31);
    expect(m.dias.every((d) => d.intervalosDelDia === null && d.intervalos === null)).toBe(true);
    expect(m.dias[3]!.estimadas).toBe(1);
    expect(m.dias[25]!.especial).toMatch(/25 horas/);
  });

  it('shows month sums as one row per month', () => {
    const c = curvaDe('2025-01-01', '2025-03-31', { resolucion: 'mes' });
    const inicio = ['2025-01-01', '2025-02-01', '2025-03-01'].map((d) => rangoDias(d, d).inicio.getTime());
    c.curva = {
      minutos: null,
      desde: inicio[0]!,
      inicio,
      importadaWh: [1, 2, 3].map((n) => n * 100_000),
      exportadaWh: null,
      calidad: 'FFe',
    };
    const m = modeloTabla(c, prepararCurva(c));
    if (m.tipo !== 'meses') throw new Error(m.tipo);
    expect(m.meses.map((x) => [x.nombre, x.importadaKwh, x.conEstimadas])).toEqual([
      ['Enero de 2025', 100, false],
      ['Febrero de 2025', 200, false],
      ['Marzo de 2025', 300, true],
    ]);
  });
});
