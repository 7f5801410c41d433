/** Measure records for the tests, and what the database keeps of them. */
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { expect } from 'vitest';
import { inicioHora, rangoDias } from '../../src/lib/medidas/horas.ts';
import type { RegistroMedida } from '../../src/lib/medidas/tipos.ts';
import { queryRows, type Db } from '../../src/server/db/client.ts';
import { importarMedidas } from '../../src/server/medidas/importar.ts';
import type { SuministroEntrada } from '../../src/server/suministros/service.ts';
import type { TestServer } from './server.ts';
import { puntoNuevo, titularConSuministros } from './suministros.ts';

/**
 * A record every `minutos` of the Madrid civil days [desde, hasta]: 100 + (i % 37) Wh, real and
 * firm, read from a CSV (hours) or an F5D (quarter-hours). `forma(i, inicio)` changes the i-th
 * record (counted from 0 over every slot) or leaves it out with null.
 */
export function registrosDeDias(
  cups: string,
  desde: string,
  hasta: string,
  forma: (i: number, inicio: number) => Partial<RegistroMedida> | null = () => ({}),
  minutos: 15 | 60 = 60,
): RegistroMedida[] {
  const out: RegistroMedida[] = [];
  const { inicio, fin } = rangoDias(desde, hasta);
  for (let t = inicio.getTime(), i = 0; t < fin.getTime(); t += minutos * 60_000, i++) {
    const cambios = forma(i, t);
    if (cambios === null) continue;
    out.push({
      cups,
      inicio: new Date(t),
      minutos,
      importadaWh: 100 + (i % 37),
      exportadaWh: null,
      metodo: 'real',
      firme: true,
      origen: minutos === 15 ? 'F5D' : 'CSV',
      ...cambios,
    });
  }
  return out;
}

/** The hourly rows stored for a CUPS: how many, their Wh, and how many are real. */
export async function horasGuardadas(db: Db, cups: string): Promise<{ horas: number; wh: number; reales: number }> {
  const [fila] = await queryRows<{ horas: number; wh: number; reales: number }>(
    db,
    sql`select count(*)::int as horas, coalesce(sum(importada_wh), 0)::int as wh, (count(*) filter (where real))::int as reales
        from medidas_horarias m join suministros s on s.id = m.suministro_id where s.cups = ${cups}`,
  );
  return fila!;
}

/** The lines of a CSV answer, without its BOM. */
export async function lineasCsv(res: Response): Promise<string[]> {
  return (await res.text())
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\r\n');
}

/** A sheet of an Excel answer, by name. */
export async function hojaExcel(res: Response, nombre: string): Promise<ExcelJS.Worksheet> {
  const libro = new ExcelJS.Workbook();
  await libro.xlsx.load(Buffer.from(await res.arrayBuffer()) as unknown as ArrayBuffer);
  return libro.getWorksheet(nombre)!;
}

/** A holder of one EPD supply point (`extra` overrides its fields), logged in, with the measures `registros` makes imported. */
export async function titularConMedidas(
  server: TestServer,
  registros?: (cups: string) => RegistroMedida[],
  extra: Partial<SuministroEntrada> = {},
) {
  const t = await titularConSuministros(server, [(nif) => puntoNuevo(nif, 'epd', extra)]);
  const cups = t.cups[0]!;
  if (registros) expect((await importarMedidas(server.database.db, registros(cups))).ok).toBe(true);
  return { u: t.u, token: t.token, cups, id: t.ids[0]! };
}

/** Tuesday 15 July 2025, 11:00–11:15 Madrid (P1 in July): the quarter-hour of the peak in `julioConPico`. */
export const PICO_DE_JULIO = inicioHora('2025-07-15', 12)!.getTime();

/** Every quarter-hour of July 2025 at 2.5 kWh (10 kW), but 5 kWh (20 kW) at PICO_DE_JULIO. */
export function julioConPico(cups: string): RegistroMedida[] {
  return registrosDeDias(cups, '2025-07-01', '2025-07-31', (_, t) => ({ importadaWh: t === PICO_DE_JULIO ? 5000 : 2500 }), 15);
}
