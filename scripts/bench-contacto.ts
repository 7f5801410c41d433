/**
 * The queries and claims section of `npm run bench` (`--only contacto`): the staff queue
 * (`colaContacto`, src/server/contacto/service.ts, as `GET /api/administrador/contacto` runs it: one
 * page of 25 plus the total) over BENCH_CONTACTO_N cases (100,000 unless told: half queries, half
 * claims, a third per distributor) on an in-memory PGlite and, when BENCH_DATABASE_URL or
 * TEST_DATABASE_URL is set, on PostgreSQL; and the closing answer's PDF (`pdfRespuesta`). The cases
 * are inserted with SQL (generate_series) in the shape the service writes them.
 */
import { eq, sql } from 'drizzle-orm';
import { SUBTIPOS_RECLAMACION } from '../src/lib/contacto/tablas-r1.ts';
import { colaContacto, detalle, type FiltrosColaContacto } from '../src/server/contacto/service.ts';
import { pdfRespuesta } from '../src/server/contacto/pdf.ts';
import { pgArray } from '../src/server/db/arrays.ts';
import { queryRows, type Db } from '../src/server/db/client.ts';
import { expedientes } from '../src/server/db/schema.ts';
import { createUser } from '../src/server/usuarios/service.ts';
import { percentil } from './bench-bases.ts';
import { bloquesDeCola, medirConsultas, unaPagina, RUNS, WARMUP, type FilaCola } from './bench-colas.ts';

const N = Number(process.env.BENCH_CONTACTO_N ?? 100_000);
/** The bench's "today": deadlines are spread around it. */
const HOY = new Date('2026-11-25T09:00:00Z');

/** Inserts N sent cases: even numbers are queries, odd ones claims of every subtype; a third per distributor. */
async function cargar(db: Db): Promise<void> {
  const { id } = await createUser(db, {
    nif: '12345678Z',
    email: 'bench-contacto@correo.example',
    nombre: 'Lucía',
    apellido1: 'Bench',
    password: 'Bench1234',
    estado: 'activo',
  });
  const subtipos = SUBTIPOS_RECLAMACION.map((s) => `${s.tipo}${s.codigo}`);
  await db.execute(sql`
    insert into expedientes (procedimiento, distribuidora, user_id, paso, turno, vence, plazo_regla, tipo, datos, presentado_en, cerrado_en, created_at, updated_at)
    select p.procedimiento,
      (array['epd','eod','ecd'])[1 + i % 3],
      ${id}::uuid,
      p.paso,
      p.turno,
      case when p.turno is null or (p.procedimiento = 'consulta' and p.turno = 'solicitante') then null
        else date '2026-11-25' + ((i * 7919) % 60 - 20) end,
      case when p.turno is null then null else 'regla' end,
      case when p.procedimiento = 'consulta' then (array['suministro','medidas','conexion','calidad','proteccion_datos','otro'])[1 + (i / 6) % 6]
        else left(s.c, 2) end,
      case when p.procedimiento = 'consulta' then jsonb_build_object('tema', 'medidas', 'asunto', 'Consulta ' || i, 'mensaje', 'Texto')
        else jsonb_build_object('rol', '01', 'tipo', left(s.c, 2), 'subtipo', substr(s.c, 3), 'mensaje', 'Texto', 'campos', jsonb_build_object('cups', 'ES9901000000000001AA'),
          'resultado', case when p.paso = 'cerrada' then '02' end) end,
      timestamptz '2026-01-01' + (i % 300) * interval '1 day',
      case when p.turno is null then timestamptz '2026-10-01' else null end,
      timestamptz '2026-01-01' + (i % 300) * interval '1 day',
      now()
    from generate_series(1, ${N}) as i
    cross join lateral (select (${pgArray(subtipos)}::text[])[1 + (i / 2) % ${subtipos.length}] as c) s
    cross join lateral (
      select case when i % 2 = 0 then 'consulta' else 'reclamacion' end as procedimiento,
        case when i % 2 = 0 then (array['abierta','respondida','cerrada'])[1 + (i / 7) % 3]
          else (array['presentada','aceptada','informacion_pedida','informacion_enviada','cerrada','rechazada'])[1 + (i / 7) % 6] end as paso
    ) q
    cross join lateral (
      select q.procedimiento, q.paso,
        case when q.paso in ('cerrada','rechazada') then null
          when q.paso in ('respondida','informacion_pedida') then 'solicitante' else 'distribuidora' end as turno
    ) p`);
  await db.execute(sql`analyze expedientes`);
}

/** Times the queue's queries. */
function medir(db: Db): Promise<FilaCola[]> {
  const deps = { db, clock: { now: () => HOY }, publicUrl: null };
  const base: FiltrosColaContacto = { distribuidora: 'epd', page: 1, pageSize: 25 };
  return medirConsultas<FiltrosColaContacto>(
    [
      ['EPD, first page (queries and claims)', base],
      ['EPD, page 200', { ...base, page: 200 }],
      ['EPD, claims only', { ...base, procedimiento: 'reclamacion' }],
      ['EPD, claim type 05', { ...base, procedimiento: 'reclamacion', tipo: '05' }],
      ['EPD, claim subtype 022', { ...base, procedimiento: 'reclamacion', subtipo: '022' }],
      ['EPD, overdue only', { ...base, vencidas: true }],
      ['EPD, closed claims', { ...base, procedimiento: 'reclamacion', paso: 'cerrada' }],
    ],
    (f) => colaContacto(deps, f),
  );
}

/** Times the closing answer's PDF of one closed claim (the detail read, then the PDF). */
async function medirPdf(db: Db): Promise<{ p50: number; p95: number; bytes: number }> {
  const deps = { db, clock: { now: () => HOY }, publicUrl: null };
  const [fila] = await queryRows<{ id: string }>(
    db,
    sql`select id from expedientes where procedimiento = 'reclamacion' and paso = 'cerrada' limit 1`,
  );
  // A closed claim written by the service needs its closing event: add one with an answer of a few paragraphs.
  await db.execute(sql`
    insert into expediente_eventos (expediente_id, accion, paso, lado, momento, mensaje, datos)
    values (${fila!.id}::uuid, 'cerrar', 'cerrada', 'distribuidora', ${HOY.toISOString()}::timestamptz,
      ${'Hemos revisado las lecturas del contador y la facturación del periodo reclamado. '.repeat(12)}, '{"resultado":"02"}'::jsonb)`);
  const [caso] = await db.select().from(expedientes).where(eq(expedientes.id, fila!.id));
  let bytes = 0;
  const ms: number[] = [];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const t = performance.now();
    const pdf = await pdfRespuesta(await detalle(deps, caso!, 'solicitante'));
    if (i >= WARMUP) ms.push(performance.now() - t);
    bytes = pdf.length;
  }
  ms.sort((a, b) => a - b);
  return { p50: percentil(ms, 50), p95: percentil(ms, 95), bytes };
}

/** The section. */
export async function contactoSection(): Promise<string> {
  const bloques = await bloquesDeCola({
    etiqueta: 'contacto',
    que: 'cases',
    medida: unaPagina('colaContacto'),
    cargar,
    medir,
    despues: async (db) => {
      const pdf = await medirPdf(db);
      return [
        `Closing answer PDF (the claim's detail read, then \`pdfRespuesta\`, an answer of 12 sentences): p50 ${pdf.p50.toFixed(1)} ms, p95 ${pdf.p95.toFixed(1)} ms, ${(pdf.bytes / 1024).toFixed(1)} KB.`,
        '',
      ];
    },
  });
  return [
    '## Queries and claims: the staff queue and the closing answer',
    '',
    `The staff queue of queries and claims with ${N.toLocaleString('en')} cases (half queries, half claims of every subtype offered, a third per distributor) in a throw-away database, in this process (no HTTP). The queue lists the open cases by deadline (overdue ones have the earliest, so they come first; those without a deadline last), then by sending date. Indexes (migrations 0011 and 0012): both procedures together walk \`expedientes_cola_contacto_idx\` (distribuidora, vence, presentado_en, id) over the open sent queries and claims; one procedure walks \`expedientes_cola_idx\` (distribuidora, procedimiento, vence, presentado_en, id); a page stops early, the total counts the matching entries. Closed cases (a final step asked for) are outside both partial indexes and are sorted.`,
    '',
    ...bloques,
    `Command: \`npm run bench -- --only contacto\` (N from BENCH_CONTACTO_N).`,
    '',
  ].join('\n');
}
