/**
 * Reading measures: one supply point's curve over a range, and its monthly maximum powers. Each query reads one supply point through
 * the primary key of the month partitions it touches (docs/decisions/007-almacen-de-medidas.md).
 */
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client.ts';
import type { ReactivasMedida } from '../../lib/medidas/tipos.ts';
import { COLUMNAS_REACTIVA, reactivasDeFila } from './reactiva.ts';

/** A curve in columns (compact JSON, and what the chart draws directly). */
export interface Curva {
  /** Interval starts, ms since the epoch (UTC). */
  inicio: number[];
  importadaWh: number[];
  /** Null where there is no generation. */
  exportadaWh: (number | null)[];
  /** Whether every measure in the interval is real (false: estimated or profiled). */
  real: boolean[];
  /** Whether every measure in the interval is firm; null when the source did not say. */
  firme: (boolean | null)[];
}

/** One supply point's stored curve in [desde, hasta) (UTC instants): hours, or quarter-hours. */
export async function leerCurva(db: Db, suministroId: number, desde: Date, hasta: Date, resolucion: 'hora' | 'cuartohora'): Promise<Curva> {
  const rows = await queryRows<{ t: string | number; imp: number; exp: number | null; real: boolean; firme: boolean | null }>(
    db,
    sql`select (extract(epoch from inicio) * 1000)::bigint as t, importada_wh as imp, exportada_wh as exp, real, firme
        from ${sql.raw(resolucion === 'hora' ? 'medidas_horarias' : 'medidas_cuartohorarias')}
        where suministro_id = ${suministroId} and inicio >= ${desde.toISOString()}::timestamptz and inicio < ${hasta.toISOString()}::timestamptz
        order by inicio`,
  );
  const curva: Curva = { inicio: [], importadaWh: [], exportadaWh: [], real: [], firme: [] };
  for (const r of rows) {
    curva.inicio.push(Number(r.t));
    curva.importadaWh.push(Number(r.imp));
    curva.exportadaWh.push(r.exp === null ? null : Number(r.exp));
    curva.real.push(r.real);
    curva.firme.push(r.firme);
  }
  return curva;
}

/** Hourly rows of one supply point, a month at a time, for exports that must not hold years in memory. */
export async function* recorrerHoras(
  db: Db,
  suministroId: number,
  desde: Date,
  hasta: Date,
  tabla: 'medidas_horarias' | 'medidas_cuartohorarias' = 'medidas_horarias',
): AsyncGenerator<{
  inicio: Date;
  importadaWh: number;
  exportadaWh: number | null;
  real: boolean;
  firme: boolean | null;
  /** Reactive VArh per quadrant, when the hour was stored with it (docs/decisions/054). */
  reactivas?: ReactivasMedida;
}> {
  let cursor = desde;
  while (cursor < hasta) {
    const fin = new Date(Math.min(Date.UTC(cursor.getUTCFullYear(), cursor.getUTCMonth() + 1, 1), hasta.getTime()));
    const rows = await queryRows<{
      t: string | number;
      imp: number;
      exp: number | null;
      real: boolean;
      firme: boolean | null;
      r1: number | null;
      r2: number | null;
      r3: number | null;
      r4: number | null;
    }>(
      db,
      sql`select (extract(epoch from inicio) * 1000)::bigint as t, importada_wh as imp, exportada_wh as exp, real, firme,
            ${COLUMNAS_REACTIVA}
          from ${sql.raw(tabla)} where suministro_id = ${suministroId}
          and inicio >= ${cursor.toISOString()}::timestamptz and inicio < ${fin.toISOString()}::timestamptz order by inicio`,
    );
    for (const r of rows) {
      yield {
        inicio: new Date(Number(r.t)),
        importadaWh: Number(r.imp),
        exportadaWh: r.exp === null ? null : Number(r.exp),
        real: r.real,
        firme: r.firme,
        ...reactivasDeFila(r),
      };
    }
    cursor = fin;
  }
}

/** One month's maximum demanded power in one period. */
export interface PotenciaMaxima {
  /** YYYY-MM. */
  mes: string;
  periodo: number;
  potenciaW: number;
  /** When it was reached (UTC ISO). */
  momento: string;
  metodo: string;
}

/** Monthly maximum powers of one supply point for the months [desdeMes, hastaMes] (YYYY-MM-01 dates). */
export async function leerPotenciasMaximas(db: Db, suministroId: number, desdeMes: string, hastaMes: string): Promise<PotenciaMaxima[]> {
  const rows = await queryRows<{ mes: string; periodo: number; potencia_w: number; momento: Date | string; metodo: string }>(
    db,
    sql`select to_char(mes, 'YYYY-MM') as mes, periodo, potencia_w, momento, metodo from potencias_maximas
        where suministro_id = ${suministroId} and mes between ${desdeMes}::date and ${hastaMes}::date order by mes, periodo`,
  );
  return rows.map((r) => ({
    mes: r.mes,
    periodo: Number(r.periodo),
    potenciaW: Number(r.potencia_w),
    momento: new Date(r.momento).toISOString(),
    metodo: r.metodo,
  }));
}

/** The intervals of a columnar curve one by one, as the shared sums (src/lib/medidas/totales.ts) read them. */
export function* medidasDeCurva(
  c: Curva,
  minutos: 15 | 60,
): Generator<{ inicio: number; minutos: 15 | 60; importadaWh: number; exportadaWh: number | null; metodo: 'real' | 'estimada' }> {
  for (let i = 0; i < c.inicio.length; i++) {
    yield {
      inicio: c.inicio[i]!,
      minutos,
      importadaWh: c.importadaWh[i]!,
      exportadaWh: c.exportadaWh[i] ?? null,
      metodo: c.real[i] ? 'real' : 'estimada',
    };
  }
}
