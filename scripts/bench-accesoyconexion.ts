/**
 * The access and connection section of `npm run bench` (`--only accesoyconexion`): the staff queue
 * (`cola`, src/server/accesoyconexion/service.ts, as `GET /api/administrador/accesoyconexion` runs
 * it: one page of 25 plus the total) over BENCH_ACCESO_N requests (100,000 unless told) spread over
 * the three distributors, on an in-memory PGlite and, when BENCH_DATABASE_URL or TEST_DATABASE_URL
 * is set, on PostgreSQL. The requests are inserted with SQL (generate_series) in the shape the
 * service writes them: every step, kind and node, deadlines from 30 days ago to 60 days ahead.
 */
import { sql } from 'drizzle-orm';
import { cola, type FiltrosCola } from '../src/server/accesoyconexion/service.ts';
import type { Db } from '../src/server/db/client.ts';
import { createUser } from '../src/server/usuarios/service.ts';
import { bloquesDeCola, medirConsultas, unaPagina, type FilaCola } from './bench-colas.ts';

const N = Number(process.env.BENCH_ACCESO_N ?? 100_000);
/** The bench's "today": deadlines are spread around it. */
const HOY = new Date('2026-11-25T09:00:00Z');

/** Inserts N filed requests, a third per distributor. */
async function cargar(db: Db): Promise<void> {
  const { id } = await createUser(db, {
    nif: 'B00006031',
    email: 'bench-promotor@correo.example',
    razonSocial: 'Bench, S.L.',
    password: 'Bench1234',
    estado: 'activo',
  });
  await db.execute(sql`
    insert into expedientes (procedimiento, distribuidora, user_id, paso, turno, vence, plazo_regla, tipo, datos, presentado_en, cerrado_en, created_at, updated_at)
    select 'acceso',
      (array['epd','eod','ecd'])[1 + i % 3],
      ${id}::uuid,
      p.paso,
      p.turno,
      case when p.turno is null then null else date '2026-11-25' + ((i * 7919) % 90 - 30) end,
      case when p.turno is null then null else 'regla' end,
      (array['demanda','generacion','autoconsumo','almacenamiento','hibrida'])[1 + (i / 3) % 5],
      jsonb_build_object('nudo', 'EPD-S' || lpad((1 + i % 20)::text, 2, '0') || '-20', 'potenciaKw', 10 + i % 5000, 'municipio', 'Getafe', 'direccion', 'Calle ' || i),
      timestamptz '2026-01-01' + (i % 300) * interval '1 day',
      case when p.turno is null then timestamptz '2026-10-01' else null end,
      timestamptz '2026-01-01' + (i % 300) * interval '1 day',
      now()
    from generate_series(1, ${N}) as i
    cross join lateral (
      select (array['presentada','subsanacion','subsanada','admitida','propuesta','aceptada','permisos','denegada'])[1 + (i / 7) % 8] as paso
    ) q
    cross join lateral (
      select q.paso as paso, case when q.paso in ('permisos','denegada') then null
        when q.paso in ('subsanacion','propuesta') then 'solicitante' else 'distribuidora' end as turno
    ) p`);
  await db.execute(sql`analyze expedientes`);
}

/** Times the queue's queries. */
function medir(db: Db): Promise<FilaCola[]> {
  const deps = { db, clock: { now: () => HOY }, publicUrl: null };
  const base: FiltrosCola = { distribuidora: 'epd', page: 1, pageSize: 25 };
  return medirConsultas<FiltrosCola>(
    [
      ['EPD, first page', base],
      ['EPD, page 200', { ...base, page: 200 }],
      ['EPD, step admitida', { ...base, paso: 'admitida' }],
      ['EPD, kind generacion', { ...base, tipo: 'generacion' }],
      ['EPD, one node', { ...base, nudo: 'EPD-S07-20' }],
      ['EPD, overdue only', { ...base, vencidas: true }],
      ['EPD, closed step permisos', { ...base, paso: 'permisos' }],
    ],
    (f) => cola(deps, f),
  );
}

/** The section. */
export async function accesoyconexionSection(): Promise<string> {
  const bloques = await bloquesDeCola({ etiqueta: 'acceso', que: 'requests', medida: unaPagina('cola'), cargar, medir });
  return [
    '## Access and connection: the staff queue',
    '',
    `The staff queue of access and connection requests with ${N.toLocaleString('en')} requests (a third per distributor) in a throw-away database, in this process (no HTTP). The queue lists the open requests by deadline (overdue ones have the earliest, so they come first), then by filing date; closed ones only when their step is asked for. Index: \`expedientes_cola_idx\` (distribuidora, procedimiento, vence, presentado_en, id) over the open filed cases (migration 0011): the page walks it and stops; the total counts the matching entries.`,
    '',
    ...bloques,
    `Command: \`npm run bench -- --only accesoyconexion\` (N from BENCH_ACCESO_N).`,
    '',
  ].join('\n');
}
