/**
 * Helpers of the consumer screens' browser tests: the API's own answers, asked with a
 * token of the same demo account, so each test checks the screen against the server's numbers.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { request, type Page } from '@playwright/test';
import { E2E_PORT } from '../../playwright.config.ts';
import { DEMO_PASSWORD } from './support.ts';

/** The demo household with two 2.0TD supply points (one with solar surplus). */
export const CONSUMIDOR = 'consumidor@electra.example';
/** The demo company with a 3.0TD and a 6.1TD supply, quarter-hourly meters. */
export const EMPRESA = 'empresa@electra.example';

/** Where the tests leave screenshots for a person to look at. */
export const SHOTS = process.env.SHOTS_DIR ?? '/tmp/shots-u';
mkdirSync(SHOTS, { recursive: true });

/** Saves a full-page screenshot under SHOTS. */
export async function foto(page: Page, nombre: string): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${nombre}.png`), fullPage: true });
}

const basic = (u: string, p: string) => `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}`;

/**
 * A client of the API as a demo account, in a request context of its own: the page's context would
 * receive the session cookie, and the login page would then skip to /inicio.
 */
export async function clienteApi(email: string) {
  const ctx = await request.newContext({ baseURL: `http://127.0.0.1:${E2E_PORT}` });
  const login = await ctx.post('/api/accesoUsuario', { headers: { Authorization: basic(email, DEMO_PASSWORD) } });
  if (!login.ok()) throw new Error(`login ${email}: ${login.status()}`);
  const { jwtToken } = (await login.json()) as { jwtToken: string };
  return async <T>(path: string): Promise<T> => {
    const r = await ctx.get(path, { headers: { Authorization: `Bearer ${jwtToken}` } });
    if (!r.ok()) throw new Error(`${path}: ${r.status()} ${await r.text()}`);
    return (await r.json()) as T;
  };
}

/** The fields of the supply point answers the tests read. */
export interface SuministroApi {
  cups: string;
  direccion: string;
  tarifa: string;
  autoconsumo: string;
  potenciasKw: number[];
  contador: { resolucionMinutos: number };
  medidas?: { desde: string; hasta: string; horas: number } | null;
}

/** The fields of the curve answer the tests read. */
export interface CurvaApi {
  desde: string;
  hasta: string;
  /** Dense columns: one slot per interval of the range, null where no measure arrived. */
  curva: { importadaWh: (number | null)[]; calidad: string };
  totales: {
    importadaWh: number;
    exportadaWh: number | null;
    porPeriodo: { periodo: string; nombre: string; importadaWh: number; reactivaInductivaVarh: number | null }[];
    reactivaInductivaVarh: number | null;
    horasConDatos: number;
    horasEstimadas: number;
    horasDelRango: number;
  };
  diasEspeciales: { fecha: string; horas: number; etiqueta: string }[];
}

/** Intervals of a curve answer that have a measure (what the chart draws and the table lists). */
export function conMedida(c: CurvaApi): number {
  return c.curva.importadaWh.filter((v) => v !== null).length;
}

const madrid = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Madrid', year: 'numeric', month: '2-digit', day: '2-digit' });

/** The civil date in Madrid of an instant. */
export function fechaMadrid(ms: number): string {
  return madrid.format(ms);
}

/** A civil date plus n days. */
export function masDias(fecha: string, n: number): string {
  const d = new Date(`${fecha}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** The last Sunday of a month (the clock-change days are the last Sundays of March and October). */
export function ultimoDomingo(anio: number, mes: number): string {
  const d = new Date(Date.UTC(anio, mes, 0, 12));
  d.setUTCDate(d.getUTCDate() - d.getUTCDay());
  return d.toISOString().slice(0, 10);
}

/** The latest last Sunday of `mes` between two civil dates, or null. */
export function ultimoCambioEntre(mes: 3 | 10, primero: string, ultimo: string): string | null {
  for (let anio = Number(ultimo.slice(0, 4)); anio >= Number(primero.slice(0, 4)); anio--) {
    const d = ultimoDomingo(anio, mes);
    if (d >= primero && d <= ultimo) return d;
  }
  return null;
}

/** kWh as the screen writes a total, computed here from Wh independently of the screen's code. */
export function kwhTexto(wh: number): string {
  const decimales = Math.abs(wh) < 100_000 ? 3 : 1;
  return new Intl.NumberFormat('es-ES', {
    minimumFractionDigits: decimales,
    maximumFractionDigits: decimales,
    useGrouping: 'always',
  }).format(wh / 1000);
}
