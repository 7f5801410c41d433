/**
 * Writes measures (hourly or quarter-hourly) for known supply points: the one path every source takes
 * (P5D/F5D/CSV files through the CLI, the demo generator, the benchmark). All or nothing: records
 * arrive as a stream (a REE file of any size, read by ../medidas/formatos), are checked and written
 * in batches inside one transaction, and the transaction is rolled back if any record, or the
 * source itself, fails. Memory holds one batch, not the file.
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
  | {
      ok: true;
      suministros: number;
      horas: { nuevas: number; actualizadas: number; conservadas: number };
      cuartos: { nuevos: number; actualizados: number };
    }
  | { ok: false; errores: FalloImportacion[] };

/** Rows per INSERT … SELECT FROM unnest(…): few parameters, one round trip per batch. */
const LOTE = 5_000;

/** Fila lista para escribir. */
interface Fila {
  suministroId: number;
  inicio: Date;
  importadaWh: number;
  exportadaWh: number | null;
  /** Reactive energy per quadrant, VArh (R1…R4); null where the source has none. */
  reactivas: readonly [number | null, number | null, number | null, number | null];
  real: boolean;
  firme: boolean | null;
  origen: string;
}

/** The reactive energy of a source that has none. */
const SIN_REACTIVA: Fila['reactivas'] = [null, null, null, null];

/** Whole VArh, or null. */
const redondo = (v: number | null) => (v === null ? null : Math.round(v));

/** How many faults are listed; beyond it they are counted. */
const MAX_ERRORES = 100;

/** Checks one batch; `primero` is the number of its first record in the whole import (from 1). */
function revisar(
  lote: readonly RegistroMedida[],
  primero: number,
  ids: ReadonlyMap<string, number>,
  desconocidos: Map<string, number>,
  errores: FalloImportacion[],
): number {
  let omitidos = 0;
  const falta = (f: FalloImportacion) => (errores.length < MAX_ERRORES ? errores.push(f) : omitidos++);
  lote.forEach((r, i) => {
    const linea = primero + i;
    if (!ids.has(cupsBase(r.cups))) desconocidos.set(r.cups, (desconocidos.get(r.cups) ?? 0) + 1);
    if (r.minutos !== 60 && r.minutos !== 15) falta({ linea, motivo: `Intervalo de ${r.minutos} minutos no admitido (solo 60 o 15).` });
    if (!Number.isFinite(r.importadaWh) || r.importadaWh < 0)
      falta({ linea, motivo: 'La energía importada debe ser un número de Wh no negativo.' });
    if (r.exportadaWh !== null && (!Number.isFinite(r.exportadaWh) || r.exportadaWh < 0)) {
      falta({ linea, motivo: 'La energía exportada debe ser un número de Wh no negativo.' });
    }
    if (r.reactivas && Object.values(r.reactivas).some((v) => v !== null && (!Number.isFinite(v) || v < 0))) {
      falta({ linea, motivo: 'La energía reactiva debe ser un número de VArh no negativo.' });
    }
    if (Number.isNaN(r.inicio.getTime()) || r.inicio.getTime() % (r.minutos * 60_000) !== 0) {
      falta({ linea, motivo: 'El instante de la medida no cae al inicio de una hora o de un cuarto de hora.' });
    }
  });
  return omitidos;
}

/** A reactive quadrant's hour: the sum of its four quarters, when all four have it. */
const cuadrante = (grupo: readonly Fila[], k: 0 | 1 | 2 | 3) =>
  grupo.every((q) => q.reactivas[k] !== null) ? grupo.reduce((suma, q) => suma + q.reactivas[k]!, 0) : null;

/**
 * Hourly sums of complete hours from quarter-hours (an hour with a missing quarter is not summed).
 * `pendientes` carries the quarters of hours not yet complete from one batch to the next: a
 * file's quarters of one hour may straddle two batches.
 */
export function horasDeCuartos(cuartos: readonly Fila[], pendientes = new Map<string, Fila[]>()): Fila[] {
  const horas: Fila[] = [];
  for (const c of cuartos) {
    const hora = Math.floor(c.inicio.getTime() / 3_600_000) * 3_600_000;
    const clave = `${c.suministroId}:${hora}`;
    const g = pendientes.get(clave);
    if (g) g.push(c);
    else pendientes.set(clave, [c]);
    const grupo = pendientes.get(clave)!;
    if (grupo.length < 4) continue;
    pendientes.delete(clave);
    const exportadas = grupo.map((q) => q.exportadaWh);
    horas.push({
      suministroId: c.suministroId,
      inicio: new Date(hora),
      importadaWh: grupo.reduce((suma, q) => suma + q.importadaWh, 0),
      exportadaWh: exportadas.every((e) => e === null) ? null : exportadas.reduce<number>((suma, e) => suma + (e ?? 0), 0),
      reactivas: [cuadrante(grupo, 0), cuadrante(grupo, 1), cuadrante(grupo, 2), cuadrante(grupo, 3)],
      real: grupo.every((q) => q.real),
      firme: grupo.every((q) => q.firme === true) ? true : grupo.some((q) => q.firme === false) ? false : null,
      origen: grupo[0]!.origen,
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
      sql`insert into ${t} (suministro_id, inicio, importada_wh, exportada_wh, reactiva_r1_varh, reactiva_r2_varh, reactiva_r3_varh,
            reactiva_r4_varh, real, firme, origen)
          select * from unnest(
            ${columnas},
            ${pgArray(lote.map((f) => f.importadaWh))}::int[],
            ${pgArray(lote.map((f) => f.exportadaWh))}::int[],
            ${pgArray(lote.map((f) => f.reactivas[0]))}::int[],
            ${pgArray(lote.map((f) => f.reactivas[1]))}::int[],
            ${pgArray(lote.map((f) => f.reactivas[2]))}::int[],
            ${pgArray(lote.map((f) => f.reactivas[3]))}::int[],
            ${pgArray(lote.map((f) => f.real))}::boolean[],
            ${pgArray(lote.map((f) => f.firme))}::boolean[],
            ${pgArray(lote.map((f) => f.origen))}::text[])
          on conflict (suministro_id, inicio) do update set
            importada_wh = excluded.importada_wh, exportada_wh = excluded.exportada_wh,
            reactiva_r1_varh = excluded.reactiva_r1_varh, reactiva_r2_varh = excluded.reactiva_r2_varh,
            reactiva_r3_varh = excluded.reactiva_r3_varh, reactiva_r4_varh = excluded.reactiva_r4_varh,
            real = excluded.real, firme = excluded.firme, origen = excluded.origen, importado_en = now()
          where (excluded.real::int * 2 + coalesce(excluded.firme, false)::int)
                >= (${t}.real::int * 2 + coalesce(${t}.firme, false)::int)
            and (${t}.importada_wh, ${t}.exportada_wh, ${t}.reactiva_r1_varh, ${t}.reactiva_r2_varh, ${t}.reactiva_r3_varh,
                 ${t}.reactiva_r4_varh, ${t}.real, ${t}.firme)
                is distinct from (excluded.importada_wh, excluded.exportada_wh, excluded.reactiva_r1_varh, excluded.reactiva_r2_varh,
                 excluded.reactiva_r3_varh, excluded.reactiva_r4_varh, excluded.real, excluded.firme)
          returning 1 as uno`,
    );
    const nuevasLote = lote.length - (existentes?.n ?? 0);
    nuevas += nuevasLote;
    actualizadas += escritas.length - nuevasLote;
  }
  return { nuevas, actualizadas };
}

/** Thrown inside the transaction to roll it back when a fault was found. */
class Rechazo extends Error {}

/**
 * Imports measures for supply points already loaded, from an array or a stream of records; nothing
 * is written when any record is faulty or the stream throws (its error is rethrown after the
 * rollback). A stream is consumed to its end even after a fault, so every fault is listed.
 */
export async function importarMedidas(
  db: Db,
  fuente: Iterable<RegistroMedida> | AsyncIterable<RegistroMedida>,
): Promise<ResultadoImportacion> {
  const errores: FalloImportacion[] = [];
  let omitidos = 0;
  const desconocidos = new Map<string, number>();
  const ids = new Map<string, number>();
  const buscados = new Set<string>();
  const tocados = new Set<number>();
  const pendientes = new Map<string, Fila[]>();
  const horasCuenta = { nuevas: 0, actualizadas: 0, total: 0 };
  const cuartosCuenta = { nuevos: 0, actualizados: 0 };
  let leidos = 0;
  let desde = Infinity;
  let hasta = -Infinity;

  const aFila = (r: RegistroMedida): Fila => ({
    suministroId: ids.get(cupsBase(r.cups))!,
    inicio: r.inicio,
    // Stored as whole Wh: a kWh file with more than three decimals is rounded to the Wh.
    importadaWh: Math.round(r.importadaWh),
    exportadaWh: r.exportadaWh === null ? null : Math.round(r.exportadaWh),
    reactivas: r.reactivas
      ? [redondo(r.reactivas.r1), redondo(r.reactivas.r2), redondo(r.reactivas.r3), redondo(r.reactivas.r4)]
      : SIN_REACTIVA,
    real: r.metodo === 'real',
    firme: r.firme,
    origen: r.origen,
  });

  async function vaciar(tx: Db, lote: RegistroMedida[]): Promise<void> {
    if (lote.length === 0) return;
    const nuevas = [...new Set(lote.map((r) => cupsBase(r.cups)))].filter((b) => !buscados.has(b));
    if (nuevas.length) {
      for (const b of nuevas) buscados.add(b);
      const conocidos = await queryRows<{ id: number; cups: string }>(
        tx,
        sql`select id, left(cups, 20) as cups from suministros where left(cups, 20) = any(${pgArray(nuevas)}::text[])`,
      );
      for (const c of conocidos) ids.set(c.cups, c.id);
    }
    omitidos += revisar(lote, leidos - lote.length + 1, ids, desconocidos, errores);
    if (errores.length || desconocidos.size) return;

    const horas = lote.filter((r) => r.minutos === 60).map(aFila);
    const cuartos = lote.filter((r) => r.minutos === 15).map(aFila);
    horas.push(...horasDeCuartos(cuartos, pendientes));
    // A repeated interval in one batch would make one INSERT touch a row twice (an error in PostgreSQL).
    const duplicado = primerDuplicado(horas) ?? primerDuplicado(cuartos);
    if (duplicado) {
      errores.push({ motivo: duplicado });
      return;
    }
    let min = Infinity;
    let max = -Infinity;
    for (const r of lote) {
      min = Math.min(min, r.inicio.getTime());
      max = Math.max(max, r.inicio.getTime() + r.minutos * 60_000);
    }
    desde = Math.min(desde, min);
    hasta = Math.max(hasta, max);
    await asegurarParticiones(tx, new Date(min), new Date(max));
    const h = await escribir(tx, 'medidas_horarias', horas);
    const c = await escribir(tx, 'medidas_cuartohorarias', cuartos);
    horasCuenta.nuevas += h.nuevas;
    horasCuenta.actualizadas += h.actualizadas;
    horasCuenta.total += horas.length;
    cuartosCuenta.nuevos += c.nuevas;
    cuartosCuenta.actualizados += c.actualizadas;
    for (const f of horas) tocados.add(f.suministroId);
  }

  try {
    return await db.transaction(async (tx) => {
      let lote: RegistroMedida[] = [];
      for await (const r of fuente) {
        leidos++;
        lote.push(r);
        if (lote.length >= LOTE) {
          await vaciar(tx, lote);
          lote = [];
        }
      }
      await vaciar(tx, lote);
      if (leidos === 0) errores.push({ motivo: 'El fichero no contiene medidas.' });
      for (const [cups, n] of [...desconocidos].reverse()) {
        errores.unshift({ motivo: `El CUPS ${cups} (${n} medidas) no corresponde a ningún suministro de las distribuidoras del portal.` });
      }
      if (omitidos) errores.push({ motivo: `Y ${omitidos} errores más.` });
      if (errores.length) throw new Rechazo();

      const lista = [...tocados];
      await empaquetarMeses(tx, lista, new Date(desde), new Date(hasta));
      await recalcularPotenciasMaximas(tx, lista, new Date(desde), new Date(hasta));
      return {
        ok: true as const,
        suministros: tocados.size,
        horas: {
          nuevas: horasCuenta.nuevas,
          actualizadas: horasCuenta.actualizadas,
          conservadas: horasCuenta.total - horasCuenta.nuevas - horasCuenta.actualizadas,
        },
        cuartos: cuartosCuenta,
      };
    });
  } catch (err) {
    if (err instanceof Rechazo) return { ok: false, errores };
    throw err;
  }
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
