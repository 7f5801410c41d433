/**
 * The regional and local holidays that make a day non-business for the deadlines of a case
 * (Ley 39/2015 art. 30.6: a day that is a holiday in the interested party's municipality or region,
 * or in the office's, counts as non-business), kept as data, each with its source (docs/decisions/040).
 *
 * The national non-business days (Saturdays, Sundays, the fixed national holidays and Good Friday)
 * are counted by rule in `plazos.ts`. This file adds, per year, what each region's decree and each
 * municipality's local holidays declare, as the calendar of non-business days of the Administración
 * General del Estado gathers them for the counting of deadlines (Resolución de 18 de noviembre de
 * 2025, de la Secretaría de Estado de Función Pública, BOE 24-11-2025, for 2026).
 *
 * Yearly procedure (docs/operations.md, «Calendarios de días inhábiles»): when each region publishes
 * its decree for the next year (Comunidad de Madrid, BOCM, by October; Junta de Extremadura, DOE,
 * usually in spring; Gobierno de Cantabria, BOC, by December) and the local holidays are published
 * (DOE/BOC/BOCM), add one entry per day to `FESTIVOS` with its citation, run
 * `npx vitest run tests/unit/expedientes-calendarios.test.ts` (it checks every year has its three
 * regions and every entry its source), and deploy. A year without its regional entries is counted
 * with the national calendar only, and `anioSinCalendario` says so to the staff screens.
 */
import type { CodigoDistribuidora } from '../distribuidoras.ts';
import type { FechaLocal } from '../calendario/fechas.ts';

/** The regions where the group's distributors work. */
export type Region = 'madrid' | 'extremadura' | 'cantabria';
export const REGIONES: readonly Region[] = ['madrid', 'extremadura', 'cantabria'];

/** One holiday of a region, or of a municipality of it, with the official text that declares it. */
export interface FestivoCalendario {
  fecha: FechaLocal;
  nombre: string;
  region: Region;
  /** The municipality's name as the INE writes it, for a local holiday; absent for a regional one. */
  municipio?: string;
  /** The citation of the official text (BOE, BOCM, DOE, BOC). */
  fuente: string;
}

const AGE_2026 =
  'Resolución de 18 de noviembre de 2025, de la Secretaría de Estado de Función Pública, calendario de días inhábiles de la AGE para 2026 (BOE 24-11-2025)';
const MADRID_2026 = `Decreto del Consejo de Gobierno de la Comunidad de Madrid de 24-09-2025, fiestas laborales para 2026 (BOCM); ${AGE_2026}`;
const EXTREMADURA_2026 = `Decreto de la Junta de Extremadura, aprobado el 13-05-2025, calendario de días festivos de la Comunidad Autónoma para 2026 (DOE); ${AGE_2026}`;
const CANTABRIA_2026 = `Calendario de fiestas nacionales, autonómicas y locales de Cantabria para 2026 (BOC 11-12-2025); ${AGE_2026}`;
const EXTREMADURA_LOCALES_2026 =
  'Resolución de 15 de octubre de 2025, de la Dirección General de Trabajo, calendario de fiestas locales de Extremadura para 2026 (DOE nº 204, 23-10-2025)';
const CANTABRIA_LOCALES_2026 = 'Calendario de fiestas nacionales, autonómicas y locales de Cantabria para 2026 (BOC 11-12-2025)';

/** The holidays known, by year. Staff add each year's when it is published (see the procedure above). */
export const FESTIVOS: readonly FestivoCalendario[] = [
  // Comunidad de Madrid, 2026.
  { fecha: '2026-04-02', nombre: 'Jueves Santo', region: 'madrid', fuente: MADRID_2026 },
  { fecha: '2026-05-02', nombre: 'Fiesta de la Comunidad de Madrid', region: 'madrid', fuente: MADRID_2026 },
  { fecha: '2026-11-02', nombre: 'Lunes siguiente a Todos los Santos', region: 'madrid', fuente: MADRID_2026 },
  { fecha: '2026-12-07', nombre: 'Lunes siguiente al Día de la Constitución', region: 'madrid', fuente: MADRID_2026 },
  // Extremadura, 2026.
  { fecha: '2026-04-02', nombre: 'Jueves Santo', region: 'extremadura', fuente: EXTREMADURA_2026 },
  { fecha: '2026-09-08', nombre: 'Día de Extremadura', region: 'extremadura', fuente: EXTREMADURA_2026 },
  { fecha: '2026-11-02', nombre: 'Lunes siguiente a Todos los Santos', region: 'extremadura', fuente: EXTREMADURA_2026 },
  { fecha: '2026-12-07', nombre: 'Lunes siguiente al Día de la Constitución', region: 'extremadura', fuente: EXTREMADURA_2026 },
  { fecha: '2026-02-17', nombre: 'Martes de Carnaval', region: 'extremadura', municipio: 'Badajoz', fuente: EXTREMADURA_LOCALES_2026 },
  { fecha: '2026-06-24', nombre: 'San Juan', region: 'extremadura', municipio: 'Badajoz', fuente: EXTREMADURA_LOCALES_2026 },
  // Cantabria, 2026.
  { fecha: '2026-04-02', nombre: 'Jueves Santo', region: 'cantabria', fuente: CANTABRIA_2026 },
  { fecha: '2026-07-28', nombre: 'Día de las Instituciones de Cantabria', region: 'cantabria', fuente: CANTABRIA_2026 },
  { fecha: '2026-09-15', nombre: 'La Bien Aparecida', region: 'cantabria', fuente: CANTABRIA_2026 },
  { fecha: '2026-12-07', nombre: 'Lunes siguiente al Día de la Constitución', region: 'cantabria', fuente: CANTABRIA_2026 },
  { fecha: '2026-05-25', nombre: 'Virgen del Mar', region: 'cantabria', municipio: 'Santander', fuente: CANTABRIA_LOCALES_2026 },
  { fecha: '2026-07-25', nombre: 'Santiago Apóstol', region: 'cantabria', municipio: 'Santander', fuente: CANTABRIA_LOCALES_2026 },
];

/**
 * The calendar a deadline is counted with: the regions and municipalities whose holidays are
 * non-business days for it. Empty: the national calendar only.
 */
export interface Calendario {
  regiones: readonly Region[];
  /** Municipalities as `region/name` keys (`clave`). */
  municipios: readonly string[];
}

export const CALENDARIO_NACIONAL: Calendario = { regiones: [], municipios: [] };

/** Each distributor's region: where its offices are (docs/decisions/040). */
export const REGION_DISTRIBUIDORA: Readonly<Record<CodigoDistribuidora, Region>> = {
  epd: 'madrid',
  eod: 'extremadura',
  ecd: 'cantabria',
};

const normal = (texto: string) => texto.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();

const clave = (region: Region, municipio: string) => `${region}/${normal(municipio)}`;

const PROVINCIAS: Readonly<Record<string, Region>> = {
  madrid: 'madrid',
  badajoz: 'extremadura',
  caceres: 'extremadura',
  cantabria: 'cantabria',
};

/** The region of a province's name, when it is one of the group's regions. */
export function regionDeProvincia(provincia: string | null | undefined): Region | null {
  return provincia ? (PROVINCIAS[normal(provincia)] ?? null) : null;
}

/**
 * The calendar of a case: the distributor's region (its office) and the place of the supply point
 * or installation (the interested party's side), its municipality included where known. A
 * municipality with no province is taken to be in the distributor's region.
 */
export function calendarioDe(donde: {
  distribuidora: string;
  provincia?: string | null | undefined;
  municipio?: string | null | undefined;
}): Calendario {
  const oficina = REGION_DISTRIBUIDORA[donde.distribuidora as CodigoDistribuidora] as Region | undefined;
  const lugar = regionDeProvincia(donde.provincia) ?? oficina ?? null;
  const regiones = [...new Set([oficina, lugar].filter((r): r is Region => !!r))];
  const municipios = lugar && donde.municipio ? [clave(lugar, donde.municipio)] : [];
  return { regiones, municipios };
}

const indice = new Map<FechaLocal, FestivoCalendario[]>();
for (const f of FESTIVOS) indice.set(f.fecha, [...(indice.get(f.fecha) ?? []), f]);

/** The regional or local holiday of a calendar on a date, or null. */
export function festivoDelCalendario(fecha: FechaLocal, cal: Calendario): FestivoCalendario | null {
  if (cal.regiones.length === 0 && cal.municipios.length === 0) return null;
  for (const f of indice.get(fecha) ?? []) {
    if (f.municipio === undefined ? cal.regiones.includes(f.region) : cal.municipios.includes(clave(f.region, f.municipio))) return f;
  }
  return null;
}

/** Whether a region's holidays of a year are not in the data yet (its deadlines then count national days only). */
export function anioSinCalendario(anio: number, region: Region): boolean {
  const prefijo = `${anio}-`;
  return !FESTIVOS.some((f) => f.region === region && f.municipio === undefined && f.fecha.startsWith(prefijo));
}
