/**
 * The range of the hourly consumption screen: the Día / Semana / Mes presets and a
 * custom range, previous/next, the resolution offered for each length, and the screen's state in
 * the address (so a reload, back and forward, or a shared link show the same thing).
 *
 * Dates are civil dates of the supply point's zone (`YYYY-MM-DD`), both ends included, as the API
 * takes them. A week runs Monday to Sunday; a month is the calendar month. No range runs past
 * today: measures of the future do not exist, and a month in progress ends today.
 */
import { diasEntre, errorRango, esFechaValida, MAX_DIAS_CONSULTA } from '../../consulta-medidas.ts';
import { diasDelMes, diaSemana, fechaLocal, sumarDias, type FechaLocal } from '../../calendario/fechas.ts';
import { fechaLocalDe, ZONA_MADRID, type ZonaHoraria } from '../../calendario/hora-civil.ts';
import { capitalizar, fechaEnPalabras, nombreMes, rangoEnPalabras } from './formato.ts';

/** Kinds of range the screen offers. */
export const TIPOS_RANGO = ['dia', 'semana', 'mes', 'personalizado'] as const;

/** One kind of range. */
export type TipoRango = (typeof TIPOS_RANGO)[number];

/** Spanish names of the kinds, as the selector shows them. */
export const NOMBRE_TIPO_RANGO: Readonly<Record<TipoRango, string>> = {
  dia: 'Día',
  semana: 'Semana',
  mes: 'Mes',
  personalizado: 'Personalizado',
};

/** A range of civil dates, both included, and how it was chosen. */
export interface Rango {
  tipo: TipoRango;
  desde: FechaLocal;
  hasta: FechaLocal;
}

/** Today's civil date in a zone. */
export function hoyEn(ahora: number = Date.now(), zona: ZonaHoraria = ZONA_MADRID): FechaLocal {
  return fechaLocalDe(ahora, zona);
}

/** The earlier of two civil dates. */
const minimo = (a: FechaLocal, b: FechaLocal) => (a < b ? a : b);

/** The day, week (Monday–Sunday) or calendar month that contains `ancla`, cut at `hoy`. */
export function rangoDePreset(tipo: Exclude<TipoRango, 'personalizado'>, ancla: FechaLocal, hoy: FechaLocal): Rango {
  const a = minimo(ancla, hoy);
  if (tipo === 'dia') return { tipo, desde: a, hasta: a };
  if (tipo === 'semana') {
    const lunes = sumarDias(a, 1 - diaSemana(a));
    return { tipo, desde: lunes, hasta: minimo(sumarDias(lunes, 6), hoy) };
  }
  const anio = Number(a.slice(0, 4));
  const mes = Number(a.slice(5, 7));
  return { tipo, desde: fechaLocal(anio, mes, 1), hasta: minimo(fechaLocal(anio, mes, diasDelMes(anio, mes)), hoy) };
}

/** Days a range spans, both ends counted. */
export function diasDelRango(r: Pick<Rango, 'desde' | 'hasta'>): number {
  return diasEntre(r.desde, r.hasta) + 1;
}

/** The first day of the month after (sentido 1) or before (−1) the one of `fecha`. */
function primerDiaMesVecino(fecha: FechaLocal, sentido: -1 | 1): FechaLocal {
  const anio = Number(fecha.slice(0, 4));
  const mes = Number(fecha.slice(5, 7)) + sentido;
  const d = new Date(Date.UTC(anio, mes - 1, 1));
  return fechaLocal(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

/**
 * The range before (−1) or after (1): the previous or next day, week or whole month; a custom
 * range moves by its own length. Cut at `hoy` like the presets.
 */
export function desplazarRango(r: Rango, sentido: -1 | 1, hoy: FechaLocal): Rango {
  if (r.tipo === 'dia') return rangoDePreset('dia', sumarDias(r.desde, sentido), hoy);
  if (r.tipo === 'semana') return rangoDePreset('semana', sumarDias(r.desde, 7 * sentido), hoy);
  if (r.tipo === 'mes') return rangoDePreset('mes', primerDiaMesVecino(r.desde, sentido), hoy);
  const n = diasDelRango(r);
  const desde = sumarDias(r.desde, n * sentido);
  return { tipo: 'personalizado', desde, hasta: minimo(sumarDias(r.hasta, n * sentido), hoy) };
}

/** Whether "next" leads anywhere: the next range would start after today. */
export function haySiguiente(r: Rango, hoy: FechaLocal): boolean {
  const siguienteDesde = r.tipo === 'mes' ? primerDiaMesVecino(r.desde, 1) : sumarDias(r.hasta, 1);
  return siguienteDesde <= hoy;
}

/** Whether "previous" leads anywhere: nothing is measured before 2000 (consulta-medidas.ts). */
export function hayAnterior(r: Rango): boolean {
  return r.desde > '2000-01-01';
}

/**
 * A range of another kind from the current one: a preset takes the range's last day as its anchor
 * (so Día after Mes shows the month's last day); Personalizado keeps the dates as they are.
 */
export function cambiarTipo(r: Rango, tipo: TipoRango, hoy: FechaLocal): Rango {
  if (tipo === 'personalizado') return { ...r, tipo };
  return rangoDePreset(tipo, r.hasta, hoy);
}

/** The date field a range error belongs to. */
export type CampoRango = 'desde' | 'hasta';

/** A range error with the field it points at. */
export interface ErrorRango {
  campo: CampoRango;
  mensaje: string;
}

/**
 * The errors of a custom range as the form shows them (Spanish texts of consulta-medidas.ts, the
 * same rules the API applies), plus one the API cannot know: a start after today.
 */
export function erroresRango(desde: string, hasta: string, hoy: FechaLocal): ErrorRango[] {
  const errores: ErrorRango[] = [];
  if (!desde) errores.push({ campo: 'desde', mensaje: 'Indique la fecha de inicio.' });
  else if (!esFechaValida(desde)) errores.push({ campo: 'desde', mensaje: 'La fecha de inicio no es una fecha válida (AAAA-MM-DD).' });
  if (!hasta) errores.push({ campo: 'hasta', mensaje: 'Indique la fecha de fin.' });
  else if (!esFechaValida(hasta)) errores.push({ campo: 'hasta', mensaje: 'La fecha de fin no es una fecha válida (AAAA-MM-DD).' });
  if (errores.length) return errores;
  const e = errorRango(desde, hasta);
  if (e) return [{ campo: /^La fecha de inicio|2000/.test(e) ? 'desde' : 'hasta', mensaje: e }];
  if (desde > hoy) return [{ campo: 'desde', mensaje: 'La fecha de inicio es posterior a hoy: todavía no hay medidas de esos días.' }];
  return [];
}

// -------------------------------------------------------------------------------------------------
// Resolution
// -------------------------------------------------------------------------------------------------

/** How the curve is drawn: quarter-hours, hours, or sums per day or month. */
export type Resolucion = 'cuartohora' | 'hora' | 'dia' | 'mes';

/** Spanish names of the resolutions, for the switch and the captions. */
export const NOMBRE_RESOLUCION: Readonly<Record<Resolucion, string>> = {
  cuartohora: 'Cuartos de hora',
  hora: 'Horas',
  dia: 'Días',
  mes: 'Meses',
};

/** Longest range drawn in quarter-hours: a month is ~3,000 bars; more says nothing hours do not. */
export const MAX_DIAS_CUARTOS = 31;

/** From how many days the range is drawn as daily sums unless the user asks for hours. */
export const DIAS_SUMA_DIARIA = 28;

/** The resolutions a range can be drawn in, finest first; quarter-hours only when the meter gives them. */
export function resolucionesPosibles(dias: number, minutosContador: number): Resolucion[] {
  const r: Resolucion[] = [];
  if (minutosContador === 15 && dias <= MAX_DIAS_CUARTOS) r.push('cuartohora');
  r.push('hora');
  if (dias >= 2) r.push('dia');
  if (dias >= 60) r.push('mes');
  return r;
}

/** The resolution a range opens in: daily sums from about a month on, hours below. */
export function resolucionPorDefecto(dias: number): Resolucion {
  return dias >= DIAS_SUMA_DIARIA ? 'dia' : 'hora';
}

/** The resolution to use: the one asked for when the range admits it, else the default. */
export function resolucionEfectiva(pedida: Resolucion | null, dias: number, minutosContador: number): Resolucion {
  return pedida && resolucionesPosibles(dias, minutosContador).includes(pedida) ? pedida : resolucionPorDefecto(dias);
}

// -------------------------------------------------------------------------------------------------
// State in the address
// -------------------------------------------------------------------------------------------------

/** Chart or table. */
export type Vista = 'grafico' | 'tabla';

/** What the address says about the screen; null where it says nothing (or nonsense). */
export interface EstadoCurvas {
  cups: string | null;
  tipo: TipoRango | null;
  desde: FechaLocal | null;
  hasta: FechaLocal | null;
  resolucion: Resolucion | null;
  vista: Vista;
}

const RESOLUCIONES: readonly Resolucion[] = ['cuartohora', 'hora', 'dia', 'mes'];

/** Reads the screen's state from a query string (with or without '?'). */
export function estadoDesdeConsulta(consulta: string): EstadoCurvas {
  const q = new URLSearchParams(consulta);
  const cups = q.get('cups')?.trim().toUpperCase() ?? '';
  const tipo = q.get('rango');
  const desde = q.get('desde') ?? '';
  const hasta = q.get('hasta') ?? '';
  const resolucion = q.get('resolucion');
  const fechasBien = esFechaValida(desde) && esFechaValida(hasta) && desde <= hasta && diasEntre(desde, hasta) + 1 <= MAX_DIAS_CONSULTA;
  return {
    cups: /^[A-Z0-9]{20,22}$/.test(cups) ? cups : null,
    tipo: (TIPOS_RANGO as readonly string[]).includes(tipo ?? '') ? (tipo as TipoRango) : null,
    desde: fechasBien ? desde : null,
    hasta: fechasBien ? hasta : null,
    resolucion: (RESOLUCIONES as readonly string[]).includes(resolucion ?? '') ? (resolucion as Resolucion) : null,
    vista: q.get('vista') === 'tabla' ? 'tabla' : 'grafico',
  };
}

/**
 * Why the range of an address cannot be shown (too long, reversed, not a date…), in Spanish; null
 * when the address names none or a valid one. The screen says it instead of falling back in silence.
 */
export function motivoRangoDescartado(consulta: string): string | null {
  const q = new URLSearchParams(consulta);
  const desde = q.get('desde');
  const hasta = q.get('hasta');
  if (desde === null && hasta === null) return null;
  return errorRango(desde ?? '', hasta ?? '');
}

/** The query string (without '?') of a state; the chart view and an unset resolution are left out. */
export function consultaDeEstado(e: EstadoCurvas): string {
  const q = new URLSearchParams();
  if (e.cups) q.set('cups', e.cups);
  if (e.tipo) q.set('rango', e.tipo);
  if (e.desde && e.hasta) {
    q.set('desde', e.desde);
    q.set('hasta', e.hasta);
  }
  if (e.resolucion) q.set('resolucion', e.resolucion);
  if (e.vista === 'tabla') q.set('vista', 'tabla');
  return q.toString();
}

/** Days the screen opens on: a week's worth, all of them complete. */
export const DIAS_INICIALES = 7;

/**
 * The range the screen shows: the address's when it has a valid one; a preset named without dates
 * around the last day with measures; else the last seven complete days: up to the last day with
 * measures, and never today, which has no complete data yet (so the chart never opens half empty).
 */
export function rangoInicial(
  e: Pick<EstadoCurvas, 'tipo' | 'desde' | 'hasta'>,
  ultimoDiaConDatos: FechaLocal | null,
  hoy: FechaLocal,
): Rango {
  if (e.desde && e.hasta) {
    const tipo = e.tipo ?? 'personalizado';
    // A preset in the address is rebuilt from its start, so a hand-edited address still shows a whole week or month.
    return tipo === 'personalizado' ? { tipo, desde: e.desde, hasta: e.hasta } : rangoDePreset(tipo, e.desde, hoy);
  }
  const ayer = sumarDias(hoy, -1);
  if (e.tipo && e.tipo !== 'personalizado') return rangoDePreset(e.tipo, ultimoDiaConDatos ?? ayer, hoy);
  const hasta = minimo(ultimoDiaConDatos ?? ayer, ayer);
  return { tipo: 'personalizado', desde: sumarDias(hasta, 1 - DIAS_INICIALES), hasta };
}

/**
 * The heading of a range: "Lunes, 3 de noviembre de 2025", "Semana del 3 al 9 de noviembre de
 * 2025", "Noviembre de 2025" (with "hasta el día 21" for a month in progress), or "Del … al …".
 */
export function tituloRango(r: Rango): string {
  if (r.tipo === 'dia' || r.desde === r.hasta) return capitalizar(fechaEnPalabras(r.desde));
  if (r.tipo === 'semana') return `Semana ${rangoEnPalabras(r.desde, r.hasta)}`;
  if (r.tipo === 'mes') {
    const anio = Number(r.desde.slice(0, 4));
    const mes = Number(r.desde.slice(5, 7));
    const completo = r.hasta === fechaLocal(anio, mes, diasDelMes(anio, mes));
    return completo ? nombreMes(r.desde, true) : `${nombreMes(r.desde, true)} (hasta el día ${Number(r.hasta.slice(8, 10))})`;
  }
  return capitalizar(rangoEnPalabras(r.desde, r.hasta));
}

/** The name of the previous/next buttons for a kind of range ("Semana anterior", "Mes siguiente"). */
export function nombreDesplazamiento(tipo: TipoRango, sentido: -1 | 1): string {
  const base = tipo === 'dia' ? 'Día' : tipo === 'semana' ? 'Semana' : tipo === 'mes' ? 'Mes' : 'Periodo';
  return `${base} ${sentido < 0 ? 'anterior' : 'siguiente'}`;
}

/** Why the date of a Día / Semana / Mes preset cannot be used, in Spanish; null when it can. */
export function errorFecha(fecha: string, hoy: FechaLocal): string | null {
  if (!fecha) return 'Indique una fecha.';
  if (!esFechaValida(fecha)) return 'La fecha no es una fecha válida (AAAA-MM-DD).';
  if (fecha < '2000-01-01') return 'No hay medidas anteriores al año 2000.';
  if (fecha > hoy) return 'La fecha es posterior a hoy: todavía no hay medidas de ese día.';
  return null;
}
