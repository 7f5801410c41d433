/**
 * The hourly curve packed by supply point and UTC month (docs/decisions/008): `medidas_horarias_mes`
 * holds, per month, one JSON array of imported Wh, one of exported Wh, one of inductive and one of
 * capacitive reactive VArh (docs/decisions/054) and one letter of quality per hour. It is a read
 * model of `medidas_horarias`, rewritten by the importer inside its transaction for every month it
 * touches, so the two never disagree; the curve screen reads 12–13 rows for a year instead of 8,760.
 */
import { and, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import { pgArray } from '../db/arrays.ts';
import { queryRows, type Db } from '../db/client.ts';
import { medidasHorariasMes } from '../db/schema.ts';
import { letraCalidad } from '../../lib/medidas/calidad.ts';
import {
  esCodigoTarifa,
  numeroPeriodos,
  periodosEnergiaDeHoras,
  type CodigoTarifa,
  type ZonaElectrica,
} from '../../lib/medidas/periodos.ts';
import { serieVacia, type SerieDensa } from '../../lib/medidas/serie.ts';
import {
  curvaHorariaDeMeses,
  reactivaDelRango,
  sumasPorPeriodo,
  totalesDeMes,
  type CurvaHorariaTexto,
  type MesTexto,
} from './curva-texto.ts';
import { zonaElectricaDeIne } from './potencias.ts';
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
  // Each month's rows become a jsonb object keyed by hour slot, read out slot by slot in order, as
  // compact JSON text (no spaces: the curve answer sends slices of it as they are, migration 0006).
  await tx.execute(sql`
    with filas as (
      select h.suministro_id, date_trunc('month', h.inicio, 'UTC') as mes,
        (extract(epoch from h.inicio - date_trunc('month', h.inicio, 'UTC')) / 3600)::int as i,
        h.importada_wh, h.exportada_wh, h.reactiva_r1_varh as r1, h.reactiva_r4_varh as r4,
        case when h.real then case when h.firme then 'F' when not h.firme then 'N' else 'R' end
          else case when h.firme then 'f' when not h.firme then 'n' else 'e' end end as letra
      from medidas_horarias h
      where h.suministro_id = any(${pgArray([...suministroIds])}::int[])
        and h.inicio >= ${inicio}::timestamptz and h.inicio < ${fin}::timestamptz
    ), meses as (
      select suministro_id, mes,
        jsonb_object_agg(i::text, importada_wh) as imp,
        jsonb_object_agg(i::text, exportada_wh) filter (where exportada_wh is not null) as exp,
        jsonb_object_agg(i::text, r1) filter (where r1 is not null) as ind,
        jsonb_object_agg(i::text, r4) filter (where r4 is not null) as cap,
        jsonb_object_agg(i::text, letra) as cal,
        (extract(epoch from ((mes at time zone 'UTC' + interval '1 month') at time zone 'UTC') - mes) / 3600)::int as horas
      from filas group by suministro_id, mes
    )
    insert into medidas_horarias_mes (suministro_id, mes, importada_wh, exportada_wh, inductiva_varh, capacitiva_varh, calidad)
    select m.suministro_id, m.mes,
      (select ('[' || string_agg(coalesce(m.imp ->> g.i::text, 'null'), ',' order by g.i) || ']')::json from generate_series(0, m.horas - 1) g(i)),
      case when m.exp is not null then (select ('[' || string_agg(coalesce(m.exp ->> g.i::text, 'null'), ',' order by g.i) || ']')::json from generate_series(0, m.horas - 1) g(i)) end,
      case when m.ind is not null then (select ('[' || string_agg(coalesce(m.ind ->> g.i::text, 'null'), ',' order by g.i) || ']')::json from generate_series(0, m.horas - 1) g(i)) end,
      case when m.cap is not null then (select ('[' || string_agg(coalesce(m.cap ->> g.i::text, 'null'), ',' order by g.i) || ']')::json from generate_series(0, m.horas - 1) g(i)) end,
      (select string_agg(coalesce(m.cal ->> g.i::text, '-'), '' order by g.i) from generate_series(0, m.horas - 1) g(i))
    from meses m
    on conflict (suministro_id, mes) do update set
      importada_wh = excluded.importada_wh, exportada_wh = excluded.exportada_wh,
      inductiva_varh = excluded.inductiva_varh, capacitiva_varh = excluded.capacitiva_varh,
      calidad = excluded.calidad, totales = null, actualizado_en = now()`);
  // Then their sums per period, a hundred supply points at a time so a big file's months never sit in memory at once.
  for (let i = 0; i < suministroIds.length; i += 100) {
    const ids = pgArray(suministroIds.slice(i, i + 100));
    await totalizar(tx, sql`m.suministro_id = any(${ids}::int[]) and m.mes >= ${inicio}::timestamptz and m.mes < ${fin}::timestamptz`);
  }
}

/** A packed month with what its sums need: the supply point's tariff and INE code, and its version. */
interface MesParaTotalizar {
  id: number;
  mes: string | number;
  importada: string;
  exportada: string | null;
  inductiva: string | null;
  capacitiva: string | null;
  calidad: string;
  tarifa: string;
  codigo_ine: string;
  version: string;
}

/**
 * Writes the sums per period (curva-texto.ts) of the packed months that `donde` selects (over `m`),
 * each with the periods of its supply point's tariff and zone; a month rewritten meanwhile (another
 * version) keeps its null. Answers how many months it read.
 */
async function totalizar(db: Db, donde: SQL): Promise<number> {
  const meses = await queryRows<MesParaTotalizar>(
    db,
    sql`select m.suministro_id as id, (extract(epoch from m.mes) * 1000)::bigint as mes, m.importada_wh::text as importada,
          m.exportada_wh::text as exportada, m.inductiva_varh::text as inductiva, m.capacitiva_varh::text as capacitiva,
          m.calidad, s.tarifa, s.codigo_ine, m.actualizado_en::text as version
        from medidas_horarias_mes m join suministros s on s.id = m.suministro_id
        where ${donde} order by m.suministro_id, m.mes`,
  );
  const ids: number[] = [];
  const inicios: string[] = [];
  const totales: string[] = [];
  const versiones: string[] = [];
  for (const f of meses) {
    if (!esCodigoTarifa(f.tarifa)) continue;
    const mes = Number(f.mes);
    const periodos = periodosEnergiaDeHoras(mes, f.calidad.length, f.tarifa, zonaElectricaDeIne(f.codigo_ine));
    ids.push(f.id);
    inicios.push(new Date(mes).toISOString());
    const n = numeroPeriodos(f.tarifa);
    totales.push(
      JSON.stringify({
        ...totalesDeMes({ mes, importada: f.importada, exportada: f.exportada, calidad: f.calidad }, periodos, n),
        ...(f.inductiva !== null ? { inductivaVarh: sumasPorPeriodo(f.inductiva, periodos, n) } : {}),
        ...(f.capacitiva !== null ? { capacitivaVarh: sumasPorPeriodo(f.capacitiva, periodos, n) } : {}),
      }),
    );
    versiones.push(f.version);
  }
  if (ids.length > 0) {
    await db.execute(sql`
      update medidas_horarias_mes m set totales = v.t::jsonb
      from unnest(${pgArray(ids)}::int[], ${pgArray(inicios)}::timestamptz[], ${pgArray(totales)}::text[], ${pgArray(versiones)}::text[]) as v(id, mes, t, version)
      where m.suministro_id = v.id and m.mes = v.mes and m.actualizado_en::text = v.version`);
  }
  return meses.length;
}

/**
 * Sums the packed months that have no sums yet (those of a database upgraded through migration
 * 0007), `lote` months at a time, until none is left or `seguir()` says stop; the months stay
 * readable meanwhile (the curve sums them as it reads them). Answers how many it summed.
 */
export async function completarTotalesMeses(db: Db, lote = 2_000, seguir: () => boolean = () => true): Promise<number> {
  let hechos = 0;
  let desdeId = 0;
  while (seguir()) {
    // By supply point, so each batch is a range of the primary key and nothing is read twice.
    const [siguiente] = await queryRows<{ hasta: number | null }>(
      db,
      sql`select max(suministro_id) as hasta from (select suministro_id from medidas_horarias_mes
          where totales is null and suministro_id > ${desdeId} order by suministro_id limit ${lote}) x`,
    );
    const hasta = siguiente?.hasta;
    if (hasta === null || hasta === undefined) break;
    hechos += await totalizar(db, sql`m.totales is null and m.suministro_id > ${desdeId} and m.suministro_id <= ${hasta}`);
    desdeId = Number(hasta);
  }
  return hechos;
}

/** The statement that reads packed months as text, prepared once per database (or transaction). */
const preparadas = new WeakMap<Db, ReturnType<typeof prepararMeses>>();

function prepararMeses(db: Db) {
  const t = medidasHorariasMes;
  return db
    .select({
      mes: sql<string | number>`(extract(epoch from ${t.mes}) * 1000)::bigint`,
      // As text: the driver would parse the arrays only for them to be written out again.
      importada: sql<string>`${t.importadaWh}::text`,
      exportada: sql<string | null>`${t.exportadaWh}::text`,
      inductiva: sql<string | null>`${t.inductivaVarh}::text`,
      capacitiva: sql<string | null>`${t.capacitivaVarh}::text`,
      calidad: t.calidad,
      totales: t.totales,
    })
    .from(t)
    .where(
      and(
        eq(t.suministroId, sql.placeholder('suministro')),
        gte(t.mes, sql`${sql.placeholder('desde')}::timestamptz`),
        lt(t.mes, sql`${sql.placeholder('hasta')}::timestamptz`),
      ),
    )
    .orderBy(t.mes)
    .prepare('medidas_meses_texto');
}

/**
 * The packed months of one supply point that [desde, hasta) touches (UTC instants on whole hours),
 * in order, with their arrays as JSON text: a year is 12–13 rows.
 */
export async function leerMesesTexto(db: Db, suministroId: number, desde: Date, hasta: Date): Promise<MesTexto[]> {
  let consulta = preparadas.get(db);
  if (!consulta) preparadas.set(db, (consulta = prepararMeses(db)));
  const primero = new Date(Date.UTC(desde.getUTCFullYear(), desde.getUTCMonth(), 1));
  const filas = await consulta.execute({ suministro: suministroId, desde: primero.toISOString(), hasta: hasta.toISOString() });
  return filas.map((f) => ({
    mes: Number(f.mes),
    importada: f.importada,
    exportada: f.exportada,
    inductiva: f.inductiva,
    capacitiva: f.capacitiva,
    calidad: f.calidad,
    totales: f.totales,
  }));
}

/**
 * One supply point's hourly range [desde, hasta) from its packed months, as JSON text with its totals
 * per energy period of the tariff (curva-texto.ts).
 */
export async function leerCurvaHorariaTexto(
  db: Db,
  suministroId: number,
  desde: Date,
  hasta: Date,
  tarifa: CodigoTarifa,
  zona: ZonaElectrica,
): Promise<CurvaHorariaTexto> {
  const meses = await leerMesesTexto(db, suministroId, desde, hasta);
  const horas = Math.max(0, Math.round((hasta.getTime() - desde.getTime()) / MS_HORA));
  const periodos = periodosEnergiaDeHoras(desde.getTime(), horas, tarifa, zona);
  const n = numeroPeriodos(tarifa);
  return {
    ...curvaHorariaDeMeses(meses, desde.getTime(), hasta.getTime(), periodos, n),
    reactiva: reactivaDelRango(meses, desde.getTime(), hasta.getTime(), periodos, n),
  };
}

/** An hourly range as the dense series the sums per day or month and the quarter-hour totals read. */
export function serieDeTexto(c: CurvaHorariaTexto, desde: Date): SerieDensa {
  return {
    minutos: 60,
    desde: desde.getTime(),
    inicio: null,
    importadaWh: JSON.parse(c.importadaJson) as (number | null)[],
    exportadaWh: c.exportadaJson === null ? null : (JSON.parse(c.exportadaJson) as (number | null)[]),
    calidad: c.calidad,
  };
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
