/**
 * The hourly curve packed by supply point and UTC month (docs/decisions/008): `medidas_horarias_mes`
 * holds, per month, one JSON array of imported Wh, one of exported Wh and one letter of quality per
 * hour. It is a read model of `medidas_horarias`, rewritten by the importer inside its transaction
 * for every month it touches, so the two never disagree; the curve screen reads 12–13 rows for a
 * year instead of 8,760.
 */
import { sql } from 'drizzle-orm';
import { pgArray } from '../db/arrays.ts';
import { queryRows, type Db } from '../db/client.ts';
import { letraCalidad, SIN_MEDIDA } from '../../lib/medidas/calidad.ts';
import { serieVacia, type SerieDensa } from '../../lib/medidas/serie.ts';
import { mesesUtc } from './particiones.ts';
import type { Curva } from './service.ts';

const MS_HORA = 3_600_000;

/**
 * Rewrites the packed months of these supply points for every UTC month of [desde, hasta) in which
 * they have hourly rows. Runs in the caller's transaction, after the rows are written.
 */
export async function empaquetarMeses(tx: Db, suministroIds: readonly number[], desde: Date, hasta: Date): Promise<void> {
  const meses = mesesUtc(desde, hasta);
  if (suministroIds.length === 0 || meses.length === 0) return;
  const inicio = meses[0]!.toISOString();
  const fin = new Date(Date.UTC(meses.at(-1)!.getUTCFullYear(), meses.at(-1)!.getUTCMonth() + 1, 1)).toISOString();
  // The same statement as the backfill at the end of migration 0005, limited to these supply points
  // and months. No join: the rows just written have no statistics yet, and a join planned on a
  // one-row estimate compares every hour slot with every row (seconds per month on PostgreSQL).
  // Each month's rows become a jsonb object keyed by hour slot, read out slot by slot in order.
  await tx.execute(sql`
    with filas as (
      select h.suministro_id, date_trunc('month', h.inicio, 'UTC') as mes,
        (extract(epoch from h.inicio - date_trunc('month', h.inicio, 'UTC')) / 3600)::int as i,
        h.importada_wh, h.exportada_wh,
        case when h.real then case when h.firme then 'F' when not h.firme then 'N' else 'R' end
          else case when h.firme then 'f' when not h.firme then 'n' else 'e' end end as letra
      from medidas_horarias h
      where h.suministro_id = any(${pgArray([...suministroIds])}::int[])
        and h.inicio >= ${inicio}::timestamptz and h.inicio < ${fin}::timestamptz
    ), meses as (
      select suministro_id, mes,
        jsonb_object_agg(i::text, importada_wh) as imp,
        jsonb_object_agg(i::text, exportada_wh) filter (where exportada_wh is not null) as exp,
        jsonb_object_agg(i::text, letra) as cal,
        (extract(epoch from ((mes at time zone 'UTC' + interval '1 month') at time zone 'UTC') - mes) / 3600)::int as horas
      from filas group by suministro_id, mes
    )
    insert into medidas_horarias_mes (suministro_id, mes, importada_wh, exportada_wh, calidad)
    select m.suministro_id, m.mes,
      (select json_agg(m.imp -> g.i::text order by g.i) from generate_series(0, m.horas - 1) g(i)),
      case when m.exp is not null then (select json_agg(m.exp -> g.i::text order by g.i) from generate_series(0, m.horas - 1) g(i)) end,
      (select string_agg(coalesce(m.cal ->> g.i::text, '-'), '' order by g.i) from generate_series(0, m.horas - 1) g(i))
    from meses m
    on conflict (suministro_id, mes) do update set
      importada_wh = excluded.importada_wh, exportada_wh = excluded.exportada_wh,
      calidad = excluded.calidad, actualizado_en = now()`);
}

/** A packed month as the drivers answer it (both parse `json` columns). */
interface FilaMes {
  mes: string | number;
  importada_wh: (number | null)[];
  exportada_wh: (number | null)[] | null;
  calidad: string;
}

/**
 * One supply point's hourly curve over [desde, hasta) (UTC instants on whole hours), one slot per
 * hour, read from the packed months: a year is 12–13 rows.
 */
export async function leerSerieHoraria(db: Db, suministroId: number, desde: Date, hasta: Date): Promise<SerieDensa> {
  const primero = new Date(Date.UTC(desde.getUTCFullYear(), desde.getUTCMonth(), 1));
  const filas = await queryRows<FilaMes>(
    db,
    sql`select (extract(epoch from mes) * 1000)::bigint as mes, importada_wh, exportada_wh, calidad
        from medidas_horarias_mes
        where suministro_id = ${suministroId} and mes >= ${primero.toISOString()}::timestamptz and mes < ${hasta.toISOString()}::timestamptz
        order by mes`,
  );
  const d = desde.getTime();
  const n = Math.round((hasta.getTime() - d) / MS_HORA);
  // The range is the months' slices in order, with empty slots where a month has no row: built by
  // slices, not hour by hour, since a year is 8,760 slots.
  const importadaWh: (number | null)[] = [];
  const exportadaWh: (number | null)[] = [];
  let calidad = '';
  let hayExportada = false;
  const rellenar = (hasta: number) => {
    const faltan = hasta - importadaWh.length;
    if (faltan <= 0) return;
    for (let k = 0; k < faltan; k++) {
      importadaWh.push(null);
      exportadaWh.push(null);
    }
    calidad += SIN_MEDIDA.repeat(faltan);
  };
  for (const f of filas) {
    // Slot j of the month is slot j + desplazamiento of the range; a range starts and ends on civil midnights, not on month starts.
    const desplazamiento = Math.round((Number(f.mes) - d) / MS_HORA);
    const desdeJ = Math.max(0, -desplazamiento);
    const hastaJ = Math.min(f.calidad.length, n - desplazamiento);
    if (hastaJ <= desdeJ) continue;
    rellenar(desdeJ + desplazamiento);
    for (let j = desdeJ; j < hastaJ; j++) importadaWh.push(f.importada_wh[j] ?? null);
    if (f.exportada_wh) {
      for (let j = desdeJ; j < hastaJ; j++) {
        const e = f.exportada_wh[j] ?? null;
        if (e !== null) hayExportada = true;
        exportadaWh.push(e);
      }
    } else {
      for (let j = desdeJ; j < hastaJ; j++) exportadaWh.push(null);
    }
    calidad += f.calidad.slice(desdeJ, hastaJ);
  }
  rellenar(n);
  // A month with surplus elsewhere may have none in the range: then there is no surplus column.
  return { minutos: 60, desde: d, inicio: null, importadaWh, exportadaWh: hayExportada ? exportadaWh : null, calidad };
}

/** A sparse curve of rows (quarter-hours, say) as a dense series over [desde, hasta). */
export function densificar(c: Curva, desde: Date, hasta: Date, minutos: 15 | 60): SerieDensa {
  const serie = serieVacia(desde.getTime(), hasta.getTime(), minutos);
  const calidad = serie.calidad.split('');
  if (c.exportadaWh.some((e) => e !== null)) serie.exportadaWh = new Array<number | null>(serie.importadaWh.length).fill(null);
  for (let k = 0; k < c.inicio.length; k++) {
    const i = Math.round((c.inicio[k]! - serie.desde) / (minutos * 60_000));
    if (i < 0 || i >= calidad.length) continue;
    serie.importadaWh[i] = c.importadaWh[k]!;
    if (serie.exportadaWh) serie.exportadaWh[i] = c.exportadaWh[k] ?? null;
    calidad[i] = letraCalidad(c.real[k]!, c.firme[k] ?? null);
  }
  serie.calidad = calidad.join('');
  return serie;
}
