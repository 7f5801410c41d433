/**
 * A supply point's reactive energy summed by civil month and tariff energy period (docs/decisions/054):
 * inductive (quadrant R1) and capacitive (R4) VArh, as the REE F5D gives them hour by hour and as the
 * CNMC's SIPS v3 consumption file and Datadis's `get-reactive-data-v2` report them per month and
 * period. Only the hours that carry reactive energy count; a month with none is left out.
 */
import { sql } from 'drizzle-orm';
import { fechaLocalDe } from '../../lib/calendario/hora-civil.ts';
import { esCodigoTarifa, numeroPeriodos, periodoEnergia, zonaHorariaDe, type ZonaElectrica } from '../../lib/medidas/periodos.ts';
import { queryRows, type Db } from '../db/client.ts';
import type { ReactivasMedida } from '../../lib/medidas/tipos.ts';

/** One month's reactive energy, VArh per energy period of the tariff (P1 first). */
export interface ReactivaMes {
  /** Civil month, `AAAA-MM`. */
  mes: string;
  inductivaVarh: number[];
  capacitivaVarh: number[];
}

/** The reactive energy of [desde, hasta) by civil month of the supply point's zone and by energy period of its tariff. */
export async function reactivaPorMes(
  db: Db,
  s: { id: number; tarifa: string },
  zona: ZonaElectrica,
  desde: Date,
  hasta: Date,
): Promise<ReactivaMes[]> {
  if (!esCodigoTarifa(s.tarifa)) throw new Error(`Tarifa sin tabla de periodos: ${s.tarifa}`);
  const tarifa = s.tarifa;
  const filas = await queryRows<{ t: string | number; r1: number | null; r4: number | null }>(
    db,
    sql`select (extract(epoch from inicio) * 1000)::bigint as t, reactiva_r1_varh as r1, reactiva_r4_varh as r4
        from medidas_horarias where suministro_id = ${s.id}
        and inicio >= ${desde.toISOString()}::timestamptz and inicio < ${hasta.toISOString()}::timestamptz
        and (reactiva_r1_varh is not null or reactiva_r4_varh is not null)
        order by inicio`,
  );
  const horaria = zonaHorariaDe(zona);
  const n = numeroPeriodos(tarifa);
  const meses = new Map<string, ReactivaMes>();
  for (const f of filas) {
    const ms = Number(f.t);
    const clave = fechaLocalDe(ms, horaria).slice(0, 7);
    let m = meses.get(clave);
    if (!m)
      meses.set(clave, (m = { mes: clave, inductivaVarh: new Array<number>(n).fill(0), capacitivaVarh: new Array<number>(n).fill(0) }));
    const p = Number(periodoEnergia(ms, tarifa, zona).slice(1)) - 1;
    m.inductivaVarh[p]! += Number(f.r1 ?? 0);
    m.capacitivaVarh[p]! += Number(f.r4 ?? 0);
  }
  return [...meses.values()];
}

/** The four reactive columns of a measure row, as a query selects them (`r1` … `r4`). */
export const COLUMNAS_REACTIVA = sql.raw('reactiva_r1_varh as r1, reactiva_r2_varh as r2, reactiva_r3_varh as r3, reactiva_r4_varh as r4');

/** A stored row's reactive VArh per quadrant, as a record carries it; nothing when the hour has none. */
export function reactivasDeFila(f: { r1: number | null; r2: number | null; r3: number | null; r4: number | null }): {
  reactivas?: ReactivasMedida;
} {
  if (f.r1 === null && f.r2 === null && f.r3 === null && f.r4 === null) return {};
  const n = (v: number | null) => (v === null ? null : Number(v));
  return { reactivas: { r1: n(f.r1), r2: n(f.r2), r3: n(f.r3), r4: n(f.r4) } };
}
