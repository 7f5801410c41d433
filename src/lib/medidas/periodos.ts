/**
 * Access tariff periods (peajes, CNMC Circular 3/2020, in force since 2021-06-01) of an hour or
 * quarter-hour, for the chart colours, the totals per period and the exports (docs/sector.md §6).
 *
 * - 2.0TD (docs/sector.md §6.2): energy in 3 periods — P1 punta, P2 llano, P3 valle — and power in 2
 *   (P1 08–24 on working days, P2 the rest).
 * - 3.0TD, 6.1TD…6.4TD and their VE variants (docs/sector.md §6.3): 6 periods; the month gives the
 *   electrical season (alta, media alta, media, baja) and the season which two periods the high
 *   and mid bands take; 00–08 is P6.
 * - Saturdays, Sundays and the national holidays of `festivos.ts` (docs/sector.md §6.5) are the lowest
 *   period all day: P3 (2.0TD energy), P2 (2.0TD power), P6 (six-period tariffs).
 * - Hours are the local civil time of the interval START (docs/sector.md §6.2 "show the interval start").
 *
 * Zones: the peninsula (the portal's three distributors) is docs/sector.md §6.2–6.3 verbatim; Ceuta and
 * Melilla's 2.0TD bands are docs/sector.md §6.2. The six-period tables of the Balearic Islands, the
 * Canary Islands, Ceuta and Melilla are not spelled out in docs/sector.md, which points to their source:
 * gisce/enerdata `enerdata/contracts/electrical_seasons.py` (`DAYTYPE_BY_ELECTRIC_ZONE_CIR03_2020`,
 * `PERIODS_6x_BY_ELECTRIC_ZONE_CIR03_2020`, read at commit 65e89e07); they are transcribed from it
 * and have not been checked against the Circular's own table. The Canary Islands read the bands in
 * Canary civil time (an inference: the Circular speaks of local hours).
 */
import { esFestivoNacional } from './festivos.ts';
import { fechaLocal } from '../calendario/fechas.ts';
import { desfaseMinutos, ZONA_CANARIAS, ZONA_MADRID, type ZonaHoraria } from '../calendario/hora-civil.ts';

/** Access tariffs of Circular 3/2020 the portal knows (docs/sector.md §6.1, §6.4). */
export const TARIFAS = ['2.0TD', '3.0TD', '3.0TDVE', '6.1TD', '6.2TD', '6.3TD', '6.4TD', '6.1TDVE', '6.2TDVE'] as const;

/** One access tariff code, as contracts and screens write it. */
export type CodigoTarifa = (typeof TARIFAS)[number];

/** A tariff period. */
export type Periodo = 'P1' | 'P2' | 'P3' | 'P4' | 'P5' | 'P6';

/** Electrical zones of Circular 3/2020 (enerdata ELECTRIC_ZONES 1–5). */
export type ZonaElectrica = 'peninsula' | 'baleares' | 'canarias' | 'ceuta' | 'melilla';

/** Electrical season of a month for the six-period tariffs. */
export type TemporadaElectrica = 'alta' | 'media-alta' | 'media' | 'baja';

/** Whether a text is a tariff code the portal knows. */
export function esCodigoTarifa(texto: string): texto is CodigoTarifa {
  return (TARIFAS as readonly string[]).includes(texto);
}

/** Energy periods of a tariff: 3 for 2.0TD, 6 for the others. */
export function numeroPeriodos(tarifa: CodigoTarifa): 3 | 6 {
  return tarifa === '2.0TD' ? 3 : 6;
}

/** Power periods of a tariff: 2 for 2.0TD, 6 for the others. */
export function numeroPeriodosPotencia(tarifa: CodigoTarifa): 2 | 6 {
  return tarifa === '2.0TD' ? 2 : 6;
}

/** Civil time in which a zone's hour bands are read. */
export function zonaHorariaDe(zona: ZonaElectrica): ZonaHoraria {
  return zona === 'canarias' ? ZONA_CANARIAS : ZONA_MADRID;
}

// Local hour ranges [from, to) of a working day.
type Tramos = readonly (readonly [number, number])[];

const en = (hora: number, tramos: Tramos) => tramos.some(([a, b]) => hora >= a && hora < b);

/** 2.0TD energy bands (docs/sector.md §6.2): punta and llano; the rest of a working day is valle. */
const BANDAS_20TD: Record<'general' | 'ceutaMelilla', { punta: Tramos; llano: Tramos }> = {
  // Peninsula; the Balearic and Canary Islands use the same table (enerdata PERIODS_3x zones 1–3).
  general: {
    punta: [
      [10, 14],
      [18, 22],
    ],
    llano: [
      [8, 10],
      [14, 18],
      [22, 24],
    ],
  },
  // Ceuta and Melilla (zones 4 and 5).
  ceutaMelilla: {
    punta: [
      [11, 15],
      [19, 23],
    ],
    llano: [
      [8, 11],
      [15, 19],
      [23, 24],
    ],
  },
};

/** Six-period tables per zone: month → season, the high and mid bands, and their periods by season. */
interface Tabla6P {
  /** Season of each month, January first. */
  meses: readonly TemporadaElectrica[];
  alta: Tramos;
  media: Tramos;
  /** Periods of the high band and of the mid band in each season. */
  periodos: Record<TemporadaElectrica, readonly [Periodo, Periodo]>;
}

const A = 'alta';
const B = 'media-alta';
const B1 = 'media';
const C = 'baja';

const PERIODOS_COMUNES: Tabla6P['periodos'] = { alta: ['P1', 'P2'], 'media-alta': ['P2', 'P3'], media: ['P3', 'P4'], baja: ['P4', 'P5'] };
const BANDAS_ISLAS = {
  alta: [
    [10, 15],
    [18, 22],
  ],
  media: [
    [8, 10],
    [15, 18],
    [22, 24],
  ],
} as const;
const BANDAS_CEUTA_MELILLA = {
  alta: [
    [10, 15],
    [19, 23],
  ],
  media: [
    [8, 10],
    [15, 19],
    [23, 24],
  ],
} as const;

const TABLAS_6P: Record<ZonaElectrica, Tabla6P> = {
  // docs/sector.md §6.3: alta Jan Feb Jul Dec, media alta Mar Nov, media Jun Aug Sep, baja Apr May Oct.
  peninsula: {
    meses: [A, A, B, C, C, B1, A, B1, B1, C, B, A],
    alta: [
      [9, 14],
      [18, 22],
    ],
    media: [
      [8, 9],
      [14, 18],
      [22, 24],
    ],
    periodos: PERIODOS_COMUNES,
  },
  // enerdata zone 2.
  baleares: { meses: [B1, B1, C, C, B, A, A, A, A, B, C, B1], ...BANDAS_ISLAS, periodos: PERIODOS_COMUNES },
  // enerdata zone 3: alta takes P1 and P3, media P2 and P4.
  canarias: {
    meses: [B1, B1, B1, C, C, C, A, A, A, A, B, B],
    ...BANDAS_ISLAS,
    periodos: { alta: ['P1', 'P3'], 'media-alta': ['P2', 'P3'], media: ['P2', 'P4'], baja: ['P4', 'P5'] },
  },
  // enerdata zone 4.
  ceuta: {
    meses: [A, A, B1, C, C, C, B, A, A, B, B1, B1],
    ...BANDAS_CEUTA_MELILLA,
    periodos: { alta: ['P1', 'P4'], 'media-alta': ['P2', 'P3'], media: ['P2', 'P4'], baja: ['P3', 'P5'] },
  },
  // enerdata zone 5.
  melilla: { meses: [A, B, C, C, C, B1, A, A, A, B1, B1, B], ...BANDAS_CEUTA_MELILLA, periodos: PERIODOS_COMUNES },
};

/** Electrical season of a month (1–12) in a zone, for the six-period tariffs. */
export function temporadaElectrica(mes: number, zona: ZonaElectrica = 'peninsula'): TemporadaElectrica {
  const t = TABLAS_6P[zona].meses[mes - 1];
  if (!t) throw new RangeError(`Mes no válido: ${mes}`);
  return t;
}

/** How the tariff treats a day: working day, or weekend / national holiday (lowest period all day). */
export type TipoDiaTarifario = 'laborable' | 'fin-de-semana' | 'festivo';

interface Momento {
  hora: number;
  mes: number;
  tipo: TipoDiaTarifario;
}

const MS_HORA = 3_600_000;
const TIPOS_DIA: readonly TipoDiaTarifario[] = ['laborable', 'fin-de-semana', 'festivo'];

/** Local hour, month and day type of every UTC hour of one UTC year in one zone. */
interface MomentosDelAnio {
  /** First instant of the UTC year. */
  desde: number;
  hora: Uint8Array;
  mes: Uint8Array;
  /** Index into TIPOS_DIA. */
  tipo: Uint8Array;
}

const momentosPorAnio = new Map<string, MomentosDelAnio>();

/**
 * The civil facts the periods read, for each hour of a UTC year: worked out once per zone and year,
 * so the periods of a year of hours cost a lookup each. Local offsets are whole hours in every
 * Spanish zone, so every instant of a UTC hour has the same local hour.
 */
function momentosDelAnio(anio: number, zona: ZonaElectrica): MomentosDelAnio {
  const clave = `${zona}|${anio}`;
  const hecha = momentosPorAnio.get(clave);
  if (hecha) return hecha;
  const desde = Date.UTC(anio, 0, 1);
  const horas = (Date.UTC(anio + 1, 0, 1) - desde) / MS_HORA;
  const t: MomentosDelAnio = { desde, hora: new Uint8Array(horas), mes: new Uint8Array(horas), tipo: new Uint8Array(horas) };
  const horaria = zonaHorariaDe(zona);
  let dia = -1;
  let tipo = 0;
  for (let i = 0; i < horas; i++) {
    const ms = desde + i * MS_HORA;
    const local = new Date(ms + desfaseMinutos(ms, horaria) * 60_000);
    t.hora[i] = local.getUTCHours();
    t.mes[i] = local.getUTCMonth() + 1;
    // The day type is worked out once per local day (a holiday needs the date as text).
    if (local.getUTCDate() !== dia) {
      dia = local.getUTCDate();
      const semana = local.getUTCDay();
      tipo = semana === 0 || semana === 6 ? 1 : esFestivoNacional(fechaLocal(local.getUTCFullYear(), t.mes[i]!, dia)) ? 2 : 0;
    }
    t.tipo[i] = tipo;
  }
  momentosPorAnio.set(clave, t);
  return t;
}

function momento(instante: Date | number, zona: ZonaElectrica): Momento {
  const ms = typeof instante === 'number' ? instante : instante.getTime();
  const t = momentosDelAnio(new Date(ms).getUTCFullYear(), zona);
  const i = Math.floor((ms - t.desde) / MS_HORA);
  return { hora: t.hora[i]!, mes: t.mes[i]!, tipo: TIPOS_DIA[t.tipo[i]!]! };
}

/** Whether the tariff treats the local day of an instant as a working day, a weekend or a holiday. */
export function tipoDiaTarifario(instante: Date | number, zona: ZonaElectrica = 'peninsula'): TipoDiaTarifario {
  return momento(instante, zona).tipo;
}

/** The three ways periods are assigned: 2.0TD energy (3), six-period energy and power (6), 2.0TD power (2). */
type ClasePeriodos = 'energia3' | 'seis' | 'potencia2';

/** The period of a moment in one class of periods (docs/sector.md §6.2, §6.3). */
function calcularPeriodo(m: Momento, clase: ClasePeriodos, zona: ZonaElectrica): Periodo {
  if (clase === 'potencia2') return m.tipo === 'laborable' && m.hora >= 8 ? 'P1' : 'P2';
  if (clase === 'energia3') {
    if (m.tipo !== 'laborable') return 'P3';
    const b = zona === 'ceuta' || zona === 'melilla' ? BANDAS_20TD.ceutaMelilla : BANDAS_20TD.general;
    return en(m.hora, b.punta) ? 'P1' : en(m.hora, b.llano) ? 'P2' : 'P3';
  }
  if (m.tipo !== 'laborable') return 'P6';
  const t = TABLAS_6P[zona];
  const [alta, media] = t.periodos[t.meses[m.mes - 1]!];
  return en(m.hora, t.alta) ? alta : en(m.hora, t.media) ? media : 'P6';
}

const PERIODOS: readonly Periodo[] = ['P1', 'P2', 'P3', 'P4', 'P5', 'P6'];

/** Period index (0 = P1) of every UTC hour of a year, per class and zone. */
interface PeriodosDelAnio {
  desde: number;
  hasta: number;
  indice: Uint8Array;
}

const periodosPorAnio = new Map<string, PeriodosDelAnio>();
/** The table each class and zone used last: calls come in time order, so most land in it (no string key per call). */
const ultimaTabla: Record<ClasePeriodos, Partial<Record<ZonaElectrica, PeriodosDelAnio>>> = { energia3: {}, seis: {}, potencia2: {} };

function periodosDelAnio(anio: number, clase: ClasePeriodos, zona: ZonaElectrica): PeriodosDelAnio {
  const clave = `${clase}|${zona}|${anio}`;
  let t = periodosPorAnio.get(clave);
  if (!t) {
    const m = momentosDelAnio(anio, zona);
    const indice = new Uint8Array(m.hora.length);
    for (let i = 0; i < indice.length; i++) {
      indice[i] = Number(calcularPeriodo({ hora: m.hora[i]!, mes: m.mes[i]!, tipo: TIPOS_DIA[m.tipo[i]!]! }, clase, zona).slice(1)) - 1;
    }
    t = { desde: m.desde, hasta: m.desde + indice.length * MS_HORA, indice };
    periodosPorAnio.set(clave, t);
  }
  return t;
}

/** Period index (0 = P1) of the interval starting at `ms`. */
function indicePeriodo(ms: number, clase: ClasePeriodos, zona: ZonaElectrica): number {
  let t = ultimaTabla[clase][zona];
  if (!t || ms < t.desde || ms >= t.hasta) {
    t = periodosDelAnio(new Date(ms).getUTCFullYear(), clase, zona);
    ultimaTabla[clase][zona] = t;
  }
  return t.indice[Math.floor((ms - t.desde) / MS_HORA)]!;
}

/** Energy period index (0 = P1) of the hour or quarter-hour starting at `ms`: for sums over many intervals. */
function indicePeriodoEnergia(ms: number, tarifa: CodigoTarifa, zona: ZonaElectrica = 'peninsula'): number {
  return indicePeriodo(ms, tarifa === '2.0TD' ? 'energia3' : 'seis', zona);
}

/**
 * Energy period indices (0 = P1) of `n` consecutive hours from `desde` (the start of an hour, ms UTC): whole slices of the yearly
 * tables.
 */
export function periodosEnergiaDeHoras(desde: number, n: number, tarifa: CodigoTarifa, zona: ZonaElectrica = 'peninsula'): Uint8Array {
  const indices = new Uint8Array(n);
  const clase: ClasePeriodos = tarifa === '2.0TD' ? 'energia3' : 'seis';
  for (let i = 0; i < n;) {
    const t = desde + i * MS_HORA;
    const tabla = periodosDelAnio(new Date(t).getUTCFullYear(), clase, zona);
    const k = Math.floor((t - tabla.desde) / MS_HORA);
    const cuantas = Math.min(n - i, tabla.indice.length - k);
    indices.set(tabla.indice.subarray(k, k + cuantas), i);
    i += cuantas;
  }
  return indices;
}

/** Energy period of the hour or quarter-hour that starts at `inicio`. */
export function periodoEnergia(inicio: Date | number, tarifa: CodigoTarifa, zona: ZonaElectrica = 'peninsula'): Periodo {
  return PERIODOS[indicePeriodoEnergia(typeof inicio === 'number' ? inicio : inicio.getTime(), tarifa, zona)]!;
}

/**
 * Power period of the interval that starts at `inicio`: for 2.0TD P1 08–24 on working days and P2
 * otherwise, in every zone (docs/sector.md §6.2); for the six-period tariffs the power periods are the
 * energy periods (Circular 3/2020; not stated in docs/sector.md).
 */
export function periodoPotencia(inicio: Date | number, tarifa: CodigoTarifa, zona: ZonaElectrica = 'peninsula'): Periodo {
  const ms = typeof inicio === 'number' ? inicio : inicio.getTime();
  return PERIODOS[indicePeriodo(ms, tarifa === '2.0TD' ? 'potencia2' : 'seis', zona)]!;
}

/** A period as the chart legend and the totals table show it. */
export interface DescripcionPeriodo {
  periodo: Periodo;
  /** Spanish name: Punta / Llano / Valle for 2.0TD, "Periodo n" for the others. */
  nombre: string;
  /** Fill colour; each has at least 3:1 contrast on white (WCAG 1.4.11) and they stay apart for colour-blind people. */
  color: string;
}

/** Colours from hot (dearest) to cool (cheapest): the order of the periods. */
const COLORES_6P: Record<Periodo, string> = {
  P1: '#a1221b',
  P2: '#b85000',
  P3: '#806400',
  P4: '#2e7532',
  P5: '#1d6aa5',
  P6: '#5b4b9a',
};

const LEYENDA_20TD: readonly DescripcionPeriodo[] = [
  { periodo: 'P1', nombre: 'Punta', color: COLORES_6P.P1 },
  { periodo: 'P2', nombre: 'Llano', color: COLORES_6P.P2 },
  { periodo: 'P3', nombre: 'Valle', color: COLORES_6P.P5 },
];

const LEYENDA_POTENCIA_20TD: readonly DescripcionPeriodo[] = [
  { periodo: 'P1', nombre: 'Punta', color: COLORES_6P.P1 },
  { periodo: 'P2', nombre: 'Valle', color: COLORES_6P.P5 },
];

const LEYENDA_6P: readonly DescripcionPeriodo[] = (Object.keys(COLORES_6P) as Periodo[]).map((periodo) => ({
  periodo,
  nombre: `Periodo ${periodo.slice(1)}`,
  color: COLORES_6P[periodo],
}));

/** The energy periods of a tariff with their names and colours, P1 first. */
export function leyendaPeriodos(tarifa: CodigoTarifa): readonly DescripcionPeriodo[] {
  return tarifa === '2.0TD' ? LEYENDA_20TD : LEYENDA_6P;
}

/** The power periods of a tariff with their names and colours, P1 first. */
export function leyendaPeriodosPotencia(tarifa: CodigoTarifa): readonly DescripcionPeriodo[] {
  return tarifa === '2.0TD' ? LEYENDA_POTENCIA_20TD : LEYENDA_6P;
}
