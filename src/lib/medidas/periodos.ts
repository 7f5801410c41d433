/**
 * Access tariff periods (peajes, CNMC Circular 3/2020, in force since 2021-06-01) of an hour or
 * quarter-hour, for the chart colours, the totals per period and the exports (DOMAIN.md §6).
 *
 * - 2.0TD (DOMAIN.md §6.2): energy in 3 periods — P1 punta, P2 llano, P3 valle — and power in 2
 *   (P1 08–24 on working days, P2 the rest).
 * - 3.0TD, 6.1TD…6.4TD and their VE variants (DOMAIN.md §6.3): 6 periods; the month gives the
 *   electrical season (alta, media alta, media, baja) and the season which two periods the high
 *   and mid bands take; 00–08 is P6.
 * - Saturdays, Sundays and the national holidays of `festivos.ts` (DOMAIN.md §6.5) are the lowest
 *   period all day: P3 (2.0TD energy), P2 (2.0TD power), P6 (six-period tariffs).
 * - Hours are the local civil time of the interval START (DOMAIN.md §6.2 "show the interval start").
 *
 * Zones: the peninsula (the portal's three distributors) is DOMAIN.md §6.2–6.3 verbatim; Ceuta and
 * Melilla's 2.0TD bands are DOMAIN.md §6.2. The six-period tables of the Balearic Islands, the
 * Canary Islands, Ceuta and Melilla are not spelled out in DOMAIN.md, which points to their source:
 * gisce/enerdata `enerdata/contracts/electrical_seasons.py` (`DAYTYPE_BY_ELECTRIC_ZONE_CIR03_2020`,
 * `PERIODS_6x_BY_ELECTRIC_ZONE_CIR03_2020`, read at commit 65e89e07); they are transcribed from it
 * and have not been checked against the Circular's own table. The Canary Islands read the bands in
 * Canary civil time (an inference: the Circular speaks of local hours).
 */
import { esFestivoNacional } from './festivos.ts';
import { partesLocales, ZONA_CANARIAS, ZONA_MADRID, type ZonaHoraria } from './horas.ts';

/** Access tariffs of Circular 3/2020 the portal knows (DOMAIN.md §6.1, §6.4). */
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

/** 2.0TD energy bands (DOMAIN.md §6.2): punta and llano; the rest of a working day is valle. */
const BANDAS_20TD: Record<'general' | 'ceutaMelilla', { punta: Tramos; llano: Tramos }> = {
  // Peninsula; the Balearic and Canary Islands use the same table (enerdata PERIODS_3x zones 1–3).
  general: {
    punta: [[10, 14], [18, 22]],
    llano: [[8, 10], [14, 18], [22, 24]],
  },
  // Ceuta and Melilla (zones 4 and 5).
  ceutaMelilla: {
    punta: [[11, 15], [19, 23]],
    llano: [[8, 11], [15, 19], [23, 24]],
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
const BANDAS_ISLAS = { alta: [[10, 15], [18, 22]], media: [[8, 10], [15, 18], [22, 24]] } as const;
const BANDAS_CEUTA_MELILLA = { alta: [[10, 15], [19, 23]], media: [[8, 10], [15, 19], [23, 24]] } as const;

const TABLAS_6P: Record<ZonaElectrica, Tabla6P> = {
  // DOMAIN.md §6.3: alta Jan Feb Jul Dec, media alta Mar Nov, media Jun Aug Sep, baja Apr May Oct.
  peninsula: {
    meses: [A, A, B, C, C, B1, A, B1, B1, C, B, A],
    alta: [[9, 14], [18, 22]],
    media: [[8, 9], [14, 18], [22, 24]],
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

function momento(instante: Date | number, zona: ZonaElectrica): Momento {
  const p = partesLocales(instante, zonaHorariaDe(zona));
  const tipo: TipoDiaTarifario = p.diaSemana >= 6 ? 'fin-de-semana' : esFestivoNacional(p.fecha) ? 'festivo' : 'laborable';
  return { hora: p.hora, mes: p.mes, tipo };
}

/** Whether the tariff treats the local day of an instant as a working day, a weekend or a holiday. */
export function tipoDiaTarifario(instante: Date | number, zona: ZonaElectrica = 'peninsula'): TipoDiaTarifario {
  return momento(instante, zona).tipo;
}

/** Energy period of the hour or quarter-hour that starts at `inicio`. */
export function periodoEnergia(inicio: Date | number, tarifa: CodigoTarifa, zona: ZonaElectrica = 'peninsula'): Periodo {
  const m = momento(inicio, zona);
  if (tarifa === '2.0TD') {
    if (m.tipo !== 'laborable') return 'P3';
    const b = zona === 'ceuta' || zona === 'melilla' ? BANDAS_20TD.ceutaMelilla : BANDAS_20TD.general;
    return en(m.hora, b.punta) ? 'P1' : en(m.hora, b.llano) ? 'P2' : 'P3';
  }
  if (m.tipo !== 'laborable') return 'P6';
  const t = TABLAS_6P[zona];
  const [alta, media] = t.periodos[t.meses[m.mes - 1]!];
  return en(m.hora, t.alta) ? alta : en(m.hora, t.media) ? media : 'P6';
}

/**
 * Power period of the interval that starts at `inicio`: for 2.0TD P1 08–24 on working days and P2
 * otherwise, in every zone (DOMAIN.md §6.2); for the six-period tariffs the power periods are the
 * energy periods (Circular 3/2020; not stated in DOMAIN.md).
 */
export function periodoPotencia(inicio: Date | number, tarifa: CodigoTarifa, zona: ZonaElectrica = 'peninsula'): Periodo {
  if (tarifa !== '2.0TD') return periodoEnergia(inicio, tarifa, zona);
  const m = momento(inicio, zona);
  return m.tipo === 'laborable' && m.hora >= 8 ? 'P1' : 'P2';
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
