/**
 * Plausible hourly (or quarter-hourly) consumption for the demo data, as the same
 * `RegistroMedida` the file readers produce, so the demo goes through the import code like real data.
 *
 * Profiles (household, small business, 3.0TD/6.1TD industrial):
 * - hogar (and hogar_solar): 2.0TD, 2,500–4,000 kWh a year; night base load, breakfast, lunch and a 20–22 h evening
 *   peak; later and flatter on weekends and holidays; more in winter (heating, light) and July–August (cooling).
 * - negocio: a shop or workshop, 2.0TD or 3.0TD; open 9–14 and 17–21 Monday–Friday, Saturday mornings,
 *   closed on Sundays and national holidays; cooling in summer.
 * - industria: 3.0TD or 6.1TD; two shifts 06–22 on working days, a short Saturday, a continuous
 *   base load, the August shutdown.
 * Each hour is the profile's shape for its LOCAL hour and day type, times the month's factor, a
 * day factor and an hour factor (seeded noise), scaled to the yearly consumption asked for.
 *
 * Optional solar self-consumption: generation from the sun's elevation at the supply point
 * (latitude 40.4°, longitude −3.7°), a random sky per day, about 1,550 kWh per kWp and year;
 * the meter sees the net: imported = max(0, load − solar), exported = max(0, solar − load).
 *
 * Gaps (runs of missing hours) and estimated runs (smooth values, `metodo: 'estimada'`) appear on a
 * share of days. Hours before `firmeHasta` are firm (billed). Days are walked in civil time, so the
 * March day has 23 hours and the October day 25, and every shape follows the clock.
 */
import { construirCups } from '../../lib/cups.ts';
import { esFestivoNacional } from '../../lib/medidas/festivos.ts';
import { diaSemana, fechasEntre, leerFechaLocal, type FechaLocal } from '../../lib/calendario/fechas.ts';
import { desfaseMinutos, rangoDia } from '../../lib/calendario/hora-civil.ts';
import type { MinutosIntervalo } from '../../lib/medidas/horas.ts';
import type { CodigoTarifa } from '../../lib/medidas/periodos.ts';
import type { RegistroMedida } from '../../lib/medidas/tipos.ts';
import { createRandom, type Random } from '../demo/random.ts';

/**
 * Kinds of consumer the demo generates; the same names as src/server/suministros/demo.ts.
 * `hogar_solar` is a household with solar self-consumption (3 kWp unless `solarKwp` says otherwise).
 */
export type PerfilDemo = 'hogar' | 'hogar_solar' | 'negocio' | 'industria';

/** The load shape each profile uses. */
type FormaCarga = 'hogar' | 'negocio' | 'industria';
const FORMA_DE: Record<PerfilDemo, FormaCarga> = { hogar: 'hogar', hogar_solar: 'hogar', negocio: 'negocio', industria: 'industria' };

/** Day types of the shapes. */
type TipoDia = 'laborable' | 'sabado' | 'festivo';

interface Forma {
  /** Relative load per local hour (0–23) per day type. */
  horas: Record<TipoDia, readonly number[]>;
  /** Factor per month (January first). */
  meses: readonly number[];
  /** Standard deviation of the day and hour noise. */
  ruidoDia: number;
  ruidoHora: number;
}

const HOGAR_LABORABLE = [
  0.35, 0.3, 0.28, 0.27, 0.27, 0.3, 0.45, 0.8, 0.9, 0.6, 0.5, 0.5, 0.55, 0.75, 0.9, 0.7, 0.55, 0.6, 0.75, 0.95, 1.15, 1.25, 1.05, 0.65,
];
const HOGAR_FESTIVO = [
  0.4, 0.35, 0.3, 0.28, 0.27, 0.28, 0.32, 0.4, 0.6, 0.85, 0.9, 0.85, 0.9, 1.0, 1.05, 0.8, 0.65, 0.65, 0.75, 0.95, 1.1, 1.15, 1.0, 0.6,
];
const TIENDA_LABORABLE = [0.15, 0.15, 0.15, 0.15, 0.15, 0.15, 0.15, 0.2, 0.5, 1, 1, 1, 1, 1, 0.35, 0.35, 0.35, 1, 1, 1, 1, 0.4, 0.15, 0.15];
const TIENDA_SABADO = [
  0.15, 0.15, 0.15, 0.15, 0.15, 0.15, 0.15, 0.2, 0.5, 1, 1, 1, 1, 1, 0.35, 0.15, 0.15, 0.15, 0.15, 0.15, 0.15, 0.15, 0.15, 0.15,
];
const FABRICA_LABORABLE = [0.35, 0.35, 0.35, 0.35, 0.35, 0.4, 0.95, 1, 1, 1, 1, 1, 1, 1, 0.9, 1, 1, 1, 1, 1, 1, 0.95, 0.5, 0.4];
const FABRICA_SABADO = [
  0.35, 0.35, 0.35, 0.35, 0.35, 0.4, 0.6, 0.65, 0.65, 0.65, 0.65, 0.65, 0.65, 0.6, 0.4, 0.35, 0.35, 0.35, 0.35, 0.35, 0.35, 0.35, 0.35,
  0.35,
];

const FORMAS: Record<FormaCarga, Forma> = {
  hogar: {
    horas: { laborable: HOGAR_LABORABLE, sabado: HOGAR_FESTIVO, festivo: HOGAR_FESTIVO },
    meses: [1.3, 1.2, 1.0, 0.85, 0.8, 0.9, 1.15, 1.15, 0.95, 0.85, 1.0, 1.25],
    ruidoDia: 0.1,
    ruidoHora: 0.18,
  },
  negocio: {
    horas: { laborable: TIENDA_LABORABLE, sabado: TIENDA_SABADO, festivo: Array<number>(24).fill(0.15) },
    meses: [1.1, 1.05, 0.95, 0.9, 0.95, 1.1, 1.25, 1.2, 1.05, 0.9, 0.95, 1.1],
    ruidoDia: 0.07,
    ruidoHora: 0.08,
  },
  industria: {
    horas: { laborable: FABRICA_LABORABLE, sabado: FABRICA_SABADO, festivo: Array<number>(24).fill(0.3) },
    meses: [1, 1, 1, 1, 1, 1, 1, 0.55, 1, 1, 1, 0.9],
    ruidoDia: 0.05,
    ruidoHora: 0.04,
  },
};

/** What a demo supply point needs to generate its curve and its contract. */
export interface ConfiguracionDemo {
  perfil: PerfilDemo;
  tarifa: CodigoTarifa;
  /** Contracted power per period, kW (2 values for 2.0TD, 6 for the others, non-decreasing as the rules require). */
  potenciasKw: number[];
  /** Yearly consumption the curve is scaled to, kWh (before self-consumption). */
  consumoAnualKwh: number;
  /** Installed solar power, kWp; 0 without self-consumption. */
  solarKwp: number;
}

const redondear = (x: number, paso: number) => Math.round(x / paso) * paso;

/** A random but plausible configuration for a profile (or a random profile, mostly households). */
export function configuracionDemoAleatoria(random: Random, perfil?: PerfilDemo): ConfiguracionDemo {
  const p = perfil ?? (random.chance(0.8) ? (random.chance(0.2) ? 'hogar_solar' : 'hogar') : random.chance(0.75) ? 'negocio' : 'industria');
  if (p === 'hogar' || p === 'hogar_solar') {
    const kw = random.pick([3.45, 4.6, 5.75, 6.9]);
    return {
      perfil: p,
      tarifa: '2.0TD',
      potenciasKw: [kw, kw],
      consumoAnualKwh: random.int(2500, 4000),
      solarKwp: p === 'hogar_solar' ? redondear(2 + random.next() * 3, 0.5) : 0,
    };
  }
  if (p === 'negocio') {
    if (random.chance(0.6)) {
      const kw = random.pick([6.9, 9.2, 10.392, 13.856, 15]);
      return {
        perfil: p,
        tarifa: '2.0TD',
        potenciasKw: [kw, kw],
        consumoAnualKwh: random.int(6000, 25000),
        solarKwp: random.chance(0.25) ? random.int(5, 15) : 0,
      };
    }
    const base = random.int(20, 40);
    return {
      perfil: p,
      tarifa: '3.0TD',
      potenciasKw: [base, base, base, base, base, base + 10],
      consumoAnualKwh: random.int(30000, 90000),
      solarKwp: random.chance(0.25) ? random.int(10, 40) : 0,
    };
  }
  if (random.chance(0.6)) {
    const base = random.int(60, 150);
    return {
      perfil: p,
      tarifa: '3.0TD',
      potenciasKw: [base, base, base, base, base, base + 20],
      consumoAnualKwh: random.int(150_000, 600_000),
      solarKwp: random.chance(0.3) ? random.int(50, 150) : 0,
    };
  }
  const base = random.int(300, 1200);
  return {
    perfil: p,
    tarifa: '6.1TD',
    potenciasKw: [base, base, base, base, base, redondear(base * 1.2, 10)],
    consumoAnualKwh: random.int(1_000_000, 4_000_000),
    solarKwp: random.chance(0.3) ? random.int(100, 500) : 0,
  };
}

/** Options of one supply point's series. */
export interface OpcionesSerieDemo {
  /** CUPS of the records. */
  cups: string;
  perfil: PerfilDemo;
  /** First and last civil day (Madrid), inclusive. */
  desde: FechaLocal;
  hasta: FechaLocal;
  /** Seed: the same options and seed give the same series. */
  semilla: number;
  /** Yearly consumption to scale to, kWh; the middle of the profile's range when not given. */
  consumoAnualKwh?: number;
  /** Installed solar power, kWp; absent: 3 for `hogar_solar`, none for the others. */
  solarKwp?: number;
  /** 60 (default) or 15. */
  minutos?: MinutosIntervalo;
  /** Share of days with a run of 1–6 missing hours (default 0.01). */
  probabilidadHueco?: number;
  /** Share of days with a run of 2–12 estimated hours (default 0.03). */
  probabilidadEstimada?: number;
  /** Hours before this instant are firm; later ones are not (default: the start of the month two months before `hasta`). */
  firmeHasta?: Date;
}

const CONSUMO_TIPICO: Record<PerfilDemo, number> = { hogar: 3200, hogar_solar: 3200, negocio: 20_000, industria: 400_000 };

/** Sum of the shape over a reference year (2025), to scale a profile to a yearly consumption. */
const sumasAnuales = new Map<FormaCarga, number>();

function tipoDia(fecha: FechaLocal): TipoDia {
  const d = diaSemana(fecha);
  if (d === 7 || esFestivoNacional(fecha)) return 'festivo';
  return d === 6 ? 'sabado' : 'laborable';
}

function sumaAnual(perfil: FormaCarga): number {
  let s = sumasAnuales.get(perfil);
  if (s === undefined) {
    s = 0;
    const forma = FORMAS[perfil];
    for (const f of fechasEntre('2025-01-01', '2025-12-31')) {
      const mes = Number(f.slice(5, 7));
      for (const v of forma.horas[tipoDia(f)]) s += v * forma.meses[mes - 1]!;
    }
    sumasAnuales.set(perfil, s);
  }
  return s;
}

const LATITUD = (40.4 * Math.PI) / 180;
const LONGITUD_HORAS = -3.7 / 15;
/** Yearly yield the solar model is scaled to, kWh per kWp (typical of central Spain). */
const RENDIMIENTO_ANUAL = 1550;
/** Mean of the daily sky factor below. */
const CIELO_MEDIO = 0.7 * 0.95 + 0.3 * 0.45;

/** Sine of the sun's elevation at an instant (negative at night). */
function senoElevacion(ms: number): number {
  const dia = Math.floor((ms - Date.UTC(new Date(ms).getUTCFullYear(), 0, 1)) / 86_400_000) + 1;
  const declinacion = ((23.44 * Math.PI) / 180) * Math.sin((2 * Math.PI * (284 + dia)) / 365);
  const horaSolar = ((ms / 3_600_000) % 24) + LONGITUD_HORAS;
  const angulo = ((horaSolar - 12) * 15 * Math.PI) / 180;
  return Math.sin(LATITUD) * Math.sin(declinacion) + Math.cos(LATITUD) * Math.cos(declinacion) * Math.cos(angulo);
}

let sumaSolar: number | null = null;

/** kWh per kWp of clear sky in one hour starting at `ms`, scaled to the yearly yield. */
function solarPorKwp(msMedio: number): number {
  if (sumaSolar === null) {
    sumaSolar = 0;
    for (let t = Date.UTC(2025, 0, 1) + 1_800_000; t < Date.UTC(2026, 0, 1); t += 3_600_000) sumaSolar += Math.max(0, senoElevacion(t));
  }
  return (Math.max(0, senoElevacion(msMedio)) * RENDIMIENTO_ANUAL) / (sumaSolar * CIELO_MEDIO);
}

/** A normal deviate (Box–Muller) from the seeded stream. */
function normal(random: Random): number {
  const u = 1 - random.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random.next());
}

/** The demo series of one supply point, in time order; days with gaps skip those intervals. */
export function* generarSerieDemo(opciones: OpcionesSerieDemo): Generator<RegistroMedida> {
  const { cups, perfil } = opciones;
  if (!leerFechaLocal(opciones.desde) || !leerFechaLocal(opciones.hasta)) throw new RangeError('Fechas no válidas');
  const random = createRandom(opciones.semilla);
  const forma = FORMAS[FORMA_DE[perfil]];
  const minutos = opciones.minutos ?? 60;
  const porHora = 60 / minutos;
  const whPorUnidad = ((opciones.consumoAnualKwh ?? CONSUMO_TIPICO[perfil]) * 1000) / sumaAnual(FORMA_DE[perfil]);
  const kwp = opciones.solarKwp ?? (perfil === 'hogar_solar' ? 3 : 0);
  const pHueco = opciones.probabilidadHueco ?? 0.01;
  const pEstimada = opciones.probabilidadEstimada ?? 0.03;
  const firmeHasta = (opciones.firmeHasta ?? inicioMesAnterior(opciones.hasta, 2)).getTime();

  for (const fecha of fechasEntre(opciones.desde, opciones.hasta)) {
    const { inicio, fin } = rangoDia(fecha);
    const horas = forma.horas[tipoDia(fecha)];
    const factorMes = forma.meses[Number(fecha.slice(5, 7)) - 1]!;
    const factorDia = Math.max(0.3, 1 + forma.ruidoDia * normal(random));
    const cielo = random.chance(0.7) ? 0.9 + 0.1 * random.next() : 0.2 + 0.5 * random.next();
    const intervalos = ((fin.getTime() - inicio.getTime()) / 3_600_000) * porHora;
    const hueco = random.chance(pHueco) ? tramo(random, intervalos, 1 * porHora, 6 * porHora) : null;
    const estimado = random.chance(pEstimada) ? tramo(random, intervalos, 2 * porHora, 12 * porHora) : null;

    for (let i = 0; i < intervalos; i++) {
      const ms = inicio.getTime() + i * minutos * 60_000;
      // The local hour from the offset in force: the shape follows the clock across the changes.
      const horaLocal = Math.floor((ms + desfaseMinutos(ms) * 60_000) / 3_600_000) % 24;
      const enEstimado = estimado !== null && i >= estimado[0] && i < estimado[1];
      const ruido = enEstimado ? 1 : Math.max(0.05, 1 + forma.ruidoHora * normal(random));
      const carga = (horas[horaLocal]! * factorMes * (enEstimado ? 1 : factorDia) * ruido * whPorUnidad) / porHora;
      const solar = kwp > 0 ? (kwp * 1000 * solarPorKwp(ms + (minutos / 2) * 60_000) * cielo) / porHora : 0;
      if (hueco !== null && i >= hueco[0] && i < hueco[1]) continue;
      const neto = carga - solar;
      const reactiva = REACTIVA[FORMA_DE[perfil]];
      yield {
        cups,
        inicio: new Date(ms),
        minutos,
        importadaWh: Math.max(0, Math.round(neto)),
        exportadaWh: kwp > 0 ? Math.max(0, Math.round(-neto)) : null,
        ...(reactiva ? { reactivas: reactivaDemo(reactiva, carga, ms, horaLocal) } : {}),
        metodo: enEstimado ? 'estimada' : 'real',
        firme: ms < firmeHasta,
        origen: 'DEMO',
      };
    }
  }
}

/**
 * The reactive energy of a business or an industry (a 3.0TD or 6.xTD meter measures it; a
 * household's 2.0TD file carries none): inductive (R1) from its motors at a power factor that drops
 * as the load does, and, in the night hours, a little capacitive (R4) where the capacitor bank
 * over-compensates a light load. `cosPhi` is the factor at full load; the `noche` hours are local.
 */
const REACTIVA: Record<FormaCarga, { cosPhi: number; noche: readonly [number, number] } | null> = {
  hogar: null,
  negocio: { cosPhi: 0.94, noche: [22, 7] },
  industria: { cosPhi: 0.91, noche: [0, 6] },
};

/**
 * An interval's reactive energy, VArh per quadrant. Its variation comes from the instant (a hash of
 * it), not from the seeded stream, so adding it left every active figure of the demo as it was.
 */
function reactivaDemo(r: { cosPhi: number; noche: readonly [number, number] }, carga: number, ms: number, horaLocal: number) {
  const ruido = ((Math.imul(ms / 60_000, 2_654_435_761) >>> 0) % 1000) / 1000;
  const noche =
    r.noche[0] < r.noche[1] ? horaLocal >= r.noche[0] && horaLocal < r.noche[1] : horaLocal >= r.noche[0] || horaLocal < r.noche[1];
  const cos = Math.max(0.7, r.cosPhi - 0.06 * ruido - (noche ? 0.08 : 0));
  const tan = Math.sqrt(1 - cos * cos) / cos;
  return {
    r1: Math.round(carga * tan * (noche ? 0.4 : 1)),
    r2: 0,
    r3: 0,
    r4: noche ? Math.round(carga * (0.05 + 0.1 * ruido)) : 0,
  };
}

/** A run [from, to) of `min`–`max` intervals inside a day of `n`. */
function tramo(random: Random, n: number, min: number, max: number): [number, number] {
  const largo = random.int(min, max);
  const desde = random.int(0, n - largo);
  return [desde, desde + largo];
}

/** UTC start of the civil month `meses` months before the month of a date. */
function inicioMesAnterior(fecha: FechaLocal, meses: number): Date {
  const { anio, mes } = leerFechaLocal(fecha)!;
  const d = new Date(Date.UTC(anio, mes - 1 - meses, 1));
  return rangoDia(`${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}-01`).inicio;
}

/** A demo CUPS of a distributor (REE code, 4 digits) for the n-th demo supply point. */
export function cupsDemo(codigoDistribuidora: string, n: number): string {
  return construirCups(codigoDistribuidora, 500_000_000 + n);
}
