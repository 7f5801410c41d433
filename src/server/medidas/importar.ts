/**
 * Writes measures (hourly or quarter-hourly) for known supply points: the one path every source takes
 * (P5D/F5D/CSV files through the CLI, the demo generator, the benchmark). All or nothing: the caller's
 * records are checked first, and written in one transaction.
 *
 * Idempotent and quality-aware: a record replaces the stored one for the same supply point and
 * interval unless the stored one is better (real beats estimated, firm beats not firm), so importing a
 * corrected or billed file turns estimated hours into real, firm ones, and a late estimate never
 * overwrites a real measure.
 */
import { sql } from 'drizzle-orm';
import { cupsBase } from '../../lib/cups.ts';
import { pgArray } from '../db/arrays.ts';
import { queryRows, type Db } from '../db/client.ts';
import type { RegistroMedida } from '../../lib/medidas/tipos.ts';
import { empaquetarMeses } from './meses.ts';
import { asegurarParticiones } from './particiones.ts';
import { recalcularPotenciasMaximas } from './potencias.ts';

export type { RegistroMedida };

/** A fault that rejects the whole import. */
export interface FalloImportacion {
  /** Line of the source, when known. */
  linea?: number;
  motivo: string;
}

/** What an import did. */
export type ResultadoImportacion =
  | { ok: true; suministros: number; horas: { nuevas: number; actualizadas: number; conservadas: number }; cuartos: { nuevos: number; actualizados: number } }
  | { ok: false; errores: FalloImportacion[] };

/** Rows per INSERT … SELECT FROM unnest(…): few parameters, one round trip per batch. */
const LOTE = 5_000;

/** Fila lista para escribir. */
interface Fila {
  suministroId: number;
  inicio: Date;
  importadaWh: number;
  exportadaWh: number | null;
  real: boolean;
  firme: boolean | null;
  origen: string;
}

/** Checks records before anything is written; every fault is listed (capped by the caller). */
function revisar(registros: readonly RegistroMedida[], ids: Map<string, number>): FalloImportacion[] {
  const errores: FalloImportacion[] = [];
  const desconocidos = new Map<string, number>();
  registros.forEach((r, i) => {
    if (!ids.has(cupsBase(r.cups))) desconocidos.set(r.cups, (desconocidos.get(r.cups) ?? 0) + 1);
    if (r.minutos !== 60 && r.minutos !== 15) errores.push({ linea: i + 1, motivo: `Intervalo de ${r.minutos} minutos no admitido (solo 60 o 15).` });
    if (!Number.isFinite(r.importadaWh) || r.importadaWh < 0) errores.push({ linea: i + 1, motivo: 'La energía importada debe ser un número de Wh no negativo.' });
    if (r.exportadaWh !== null && (!Number.isFinite(r.exportadaWh) || r.exportadaWh < 0)) {
      errores.push({ linea: i + 1, motivo: 'La energía exportada debe ser un número de Wh no negativo.' });
    }
    if (Number.isNaN(r.inicio.getTime()) || r.inicio.getTime() % (r.minutos * 60_000) !== 0) {
      errores.push({ linea: i + 1, motivo: 'El instante de la medida no cae al inicio de una hora o de un cuarto de hora.' });
    }
  });
  for (const [cups, n] of desconocidos) {
    errores.unshift({ motivo: `El CUPS ${cups} (${n} medidas) no corresponde a ningún suministro de las distribuidoras del portal.` });
  }
  return errores;
}

/** Hourly sums of complete hours from quarter-hours (an hour with a missing quarter is not summed). */
export function horasDeCuartos(cuartos: readonly Fila[]): Fila[] {
  const grupos = new Map<string, Fila[]>();
  for (const c of cuartos) {
    const hora = Math.floor(c.inicio.getTime() / 3_600_000) * 3_600_000;
    const clave = `${c.suministroId}:${hora}`;
    const g = grupos.get(clave);
    if (g) g.push(c);
    else grupos.set(clave, [c]);
  }
  const horas: Fila[] = [];
  for (const g of grupos.values()) {
    if (g.length !== 4) continue;
    const exportadas = g.map((c) => c.exportadaWh);
    horas.push({
      suministroId: g[0]!.suministroId,
      inicio: new Date(Math.floor(g[0]!.inicio.getTime() / 3_600_000) * 3_600_000),
      importadaWh: g.reduce((s, c) => s + c.importadaWh, 0),
      exportadaWh: exportadas.every((e) => e === null) ? null : exportadas.reduce<number>((s, e) => s + (e ?? 0), 0),
      real: g.every((c) => c.real),
      firme: g.every((c) => c.firme === true) ? true : g.some((c) => c.firme === false) ? false : null,
      origen: g[0]!.origen,
    });
  }
  return horas;
}

/** Upserts a batch into one of the two tables; answers how many rows were new and how many changed. */
async function escribir(tx: Db, tabla: 'medidas_horarias' | 'medidas_cuartohorarias', filas: readonly Fila[]) {
  let nuevas = 0;
  let actualizadas = 0;
  const t = sql.raw(`"${tabla}"`);
  for (let i = 0; i < filas.length; i += LOTE) {
    const lote = filas.slice(i, i + LOTE);
    const columnas = sql`${pgArray(lote.map((f) => f.suministroId))}::int[],
            ${pgArray(lote.map((f) => f.inicio.toISOString()))}::timestamptz[]`;
    // Partitioned tables cannot return xmax, so rows already there are counted first.
    const [existentes] = await queryRows<{ n: number }>(
      tx,
      sql`select count(*)::int as n from ${t} where (suministro_id, inicio) in (select * from unnest(${columnas}))`,
    );
    const escritas = await queryRows<{ uno: number }>(
      tx,
      sql`insert into ${t} (suministro_id, inicio, importada_wh, exportada_wh, real, firme, origen)
          select * from unnest(
            ${columnas},
            ${pgArray(lote.map((f) => f.importadaWh))}::int[],
            ${pgArray(lote.map((f) => f.exportadaWh))}::int[],
            ${pgArray(lote.map((f) => f.real))}::boolean[],
            ${pgArray(lote.map((f) => f.firme))}::boolean[],
            ${pgArray(lote.map((f) => f.origen))}::text[])
          on conflict (suministro_id, inicio) do update set
            importada_wh = excluded.importada_wh, exportada_wh = excluded.exportada_wh, real = excluded.real,
            firme = excluded.firme, origen = excluded.origen, importado_en = now()
          where (excluded.real::int * 2 + coalesce(excluded.firme, false)::int)
                >= (${t}.real::int * 2 + coalesce(${t}.firme, false)::int)
            and (${t}.importada_wh, ${t}.exportada_wh, ${t}.real, ${t}.firme)
                is distinct from (excluded.importada_wh, excluded.exportada_wh, excluded.real, excluded.firme)
          returning 1 as uno`,
    );
    const nuevasLote = lote.length - (existentes?.n ?? 0);
    nuevas += nuevasLote;
    actualizadas += escritas.length - nuevasLote;
  }
  return { nuevas, actualizadas };
}

/** Imports measures for supply points already loaded; nothing is written when any record is faulty. */
export async function importarMedidas(db: Db, registros: readonly RegistroMedida[]): Promise<ResultadoImportacion> {
  if (registros.length === 0) return { ok: false, errores: [{ motivo: 'El fichero no contiene medidas.' }] };
  const bases = [...new Set(registros.map((r) => cupsBase(r.cups)))];
  const conocidos = await queryRows<{ id: number; cups: string }>(
    db,
    sql`select id, left(cups, 20) as cups from suministros where left(cups, 20) = any(${pgArray(bases)}::text[])`,
  );
  const ids = new Map(conocidos.map((c) => [c.cups, c.id]));
  const errores = revisar(registros, ids);
  if (errores.length) return { ok: false, errores };

  const aFila = (r: RegistroMedida): Fila => ({
    suministroId: ids.get(cupsBase(r.cups))!,
    inicio: r.inicio,
    // Stored as whole Wh: a kWh file with more than three decimals is rounded to the Wh.
    importadaWh: Math.round(r.importadaWh),
    exportadaWh: r.exportadaWh === null ? null : Math.round(r.exportadaWh),
    real: r.metodo === 'real',
    firme: r.firme,
    origen: r.origen,
  });
  const horas = registros.filter((r) => r.minutos === 60).map(aFila);
  const cuartos = registros.filter((r) => r.minutos === 15).map(aFila);
  horas.push(...horasDeCuartos(cuartos));
  // A repeated interval in one import would make one INSERT touch a row twice (an error in PostgreSQL).
  const duplicado = primerDuplicado(horas) ?? primerDuplicado(cuartos);
  if (duplicado) return { ok: false, errores: [{ motivo: duplicado }] };

  let desde = Infinity;
  let hasta = -Infinity;
  for (const r of registros) {
    desde = Math.min(desde, r.inicio.getTime());
    hasta = Math.max(hasta, r.inicio.getTime() + r.minutos * 60_000);
  }
  return db.transaction(async (tx) => {
    await asegurarParticiones(tx, new Date(desde), new Date(hasta));
    const h = await escribir(tx, 'medidas_horarias', horas);
    const c = await escribir(tx, 'medidas_cuartohorarias', cuartos);
    const tocados = [...new Set(horas.map((f) => f.suministroId))];
    await empaquetarMeses(tx, tocados, new Date(desde), new Date(hasta));
    await recalcularPotenciasMaximas(tx, tocados, new Date(desde), new Date(hasta));
    return {
      ok: true as const,
      suministros: new Set(horas.map((f) => f.suministroId)).size,
      horas: { nuevas: h.nuevas, actualizadas: h.actualizadas, conservadas: horas.length - h.nuevas - h.actualizadas },
      cuartos: { nuevos: c.nuevas, actualizados: c.actualizadas },
    };
  });
}

/** A message naming the first interval that appears twice, or null. */
function primerDuplicado(filas: readonly Fila[]): string | null {
  const vistos = new Set<string>();
  for (const f of filas) {
    const clave = `${f.suministroId}:${f.inicio.getTime()}`;
    if (vistos.has(clave)) return `El intervalo que empieza a las ${f.inicio.toISOString()} aparece dos veces para el mismo suministro.`;
    vistos.add(clave);
  }
  return null;
}
