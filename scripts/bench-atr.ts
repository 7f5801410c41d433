/**
 * The ATR requests section of `npm run bench` (`--only atr`): the requests as cases of the procedure
 * `atr` on the case core (docs/decisions/053), BENCH_ATR_COLA_N of them (100,000 unless told) from
 * ten supply companies, a third per distributor, on an in-memory PGlite and, when BENCH_DATABASE_URL
 * or TEST_DATABASE_URL is set, on PostgreSQL. Timed as the API runs them: the staff queue and one
 * request (src/server/atr/gestion.ts) and a company's list (src/server/atr/vista.ts). The rows are
 * inserted with SQL in the shape the reader and the staff's steps leave them: each request with its
 * arrival and its step 02, the later ones with their field step.
 */
import { sql } from 'drizzle-orm';
import { colaAtr, detalleGestionAtr, solicitudDeGestion } from '../src/server/atr/gestion.ts';
import { solicitudesDeEmpresa } from '../src/server/atr/vista.ts';
import { queryRows, type Db } from '../src/server/db/client.ts';
import { bloquesDeCola, medirConsultas, type FilaCola } from './bench-colas.ts';

const N = Number(process.env.BENCH_ATR_COLA_N ?? 100_000);
const EMPRESAS = 10;
const HOY = new Date('2026-11-25T09:00:00Z');

/** Inserts the companies and N requests: one in twenty still waiting for the field work (a fifth of those overdue), the rest closed. */
async function cargar(db: Db): Promise<void> {
  await db.execute(sql`
    insert into users (email, nombre, apellido1, razon_social, codigo_ree, password_hash, estado)
    select 'empresa' || i || '@comercializadora.example', 'Comercializadora', 'Bench', 'Energía ' || i || ' S.L.',
      lpad((900 + i)::text, 4, '0'), 'x', 'activo'
    from generate_series(1, ${EMPRESAS}) as i`);
  // Each request's state, process and planned activation are drawn from a multiplicative hash of
  // its number, so that none of them follows the distributor or the company it falls to.
  await db.execute(sql`
    insert into expedientes (procedimiento, distribuidora, user_id, paso, turno, vence, plazo_regla, tipo, datos, presentado_en, cerrado_en, created_at, updated_at)
    select 'atr', (array['epd','eod','ecd'])[1 + k % 3], u.id, q.paso,
      case when q.abierta then 'distribuidora' end,
      case when q.abierta then date '2026-11-25' + (q.h / 600 % 25)::int - 5 end,
      case when q.abierta then 'activación prevista' end,
      q.proceso,
      jsonb_build_object('proceso', q.proceso, 'codigoSolicitud', '2026' || lpad(k::text, 8, '0'), 'secuencial', '01',
        'cups', 'ES' || (array['9901','9902','9903'])[1 + k % 3] || lpad(k::text, 12, '0') || 'XX',
        'pasoCnmc', case q.paso when 'activada' then '05' when 'rechazada_campo' then '04' when 'incidencia' then '03' else '02' end,
        'mensajes', jsonb_build_array(jsonb_build_object('paso', '01', 'ruta', '/x/' || q.proceso || '01_' || k || '.xml'))),
      q.creada, case when not q.abierta then q.creada + interval '3 days' end, q.creada, q.creada
    from generate_series(1, ${N}) as k
    join users u on u.codigo_ree = lpad((900 + 1 + k % ${EMPRESAS})::text, 4, '0')
    cross join lateral (select (k::bigint * 2654435761) % 4294967296 as h) x
    cross join lateral (select x.h,
      x.h / 30 % 20 = 0 as abierta,
      case when x.h / 30 % 20 = 0 then (array['aceptada','aceptada','aceptada','incidencia'])[1 + (x.h / 7 % 4)::int]
        else (array['activada','activada','rechazada','rechazada_campo','anulada','activada'])[1 + (x.h / 5 % 6)::int] end as paso,
      (array['C1','C2','M1','A3','B1'])[1 + (x.h % 5)::int] as proceso,
      timestamptz '2025-11-25' + (k::double precision / ${N}) * interval '365 days' as creada) q`);
  await db.execute(sql`
    insert into expediente_eventos (expediente_id, accion, paso, lado, momento, datos)
    select id, 'recibir', 'recibida', 'solicitante', created_at, '{"mensajes":[]}'::jsonb from expedientes where procedimiento = 'atr'
    union all
    select id, case when paso = 'rechazada' then 'rechazar' else 'aceptar' end, case when paso = 'rechazada' then 'rechazada' else 'aceptada' end,
      'distribuidora', created_at + interval '1 minute', '{"mensajes":[]}'::jsonb from expedientes where procedimiento = 'atr'`);
  // As autovacuum leaves a table after a load of inserts: statistics and the visibility map.
  await db.execute(sql`vacuum analyze`);
}

/** Times the staff's queue and detail and a company's list. */
async function medir(db: Db): Promise<FilaCola[]> {
  const deps = { db, clock: { now: () => HOY }, publicUrl: null };
  const base = { distribuidora: 'epd', page: 1, pageSize: 25 };
  const [empresa] = await queryRows<{ id: string }>(db, sql`select id from users where codigo_ree = '0901'`);
  const primera = (await colaAtr(deps, base)).filas[0]!;
  const cola = (f: Partial<Parameters<typeof colaAtr>[1]>) => () => colaAtr(deps, { ...base, ...f });
  const deEmpresa = (f: Partial<Parameters<typeof solicitudesDeEmpresa>[3]>) => () =>
    solicitudesDeEmpresa(db, empresa!.id, ['epd', 'eod', 'ecd'], { page: 1, pageSize: 25, ...f });
  const consultas: [string, () => Promise<{ total: number }>][] = [
    ['staff: EPD queue, first page', cola({})],
    ['staff: EPD queue, overdue only', cola({ vencidas: true })],
    ['staff: EPD queue, process C2', cola({ proceso: 'C2' })],
    ['staff: EPD, state activada (closed)', cola({ estado: 'activada' })],
    ['staff: EPD, state activada, page 100', cola({ estado: 'activada', page: 100 })],
    ['staff: EPD queue, by CUPS prefix', cola({ q: 'ES99010000000' })],
    ['staff: EPD queue, by request code', cola({ q: primera.codigoSolicitud })],
    [
      'staff: one request',
      async () => {
        const e = await solicitudDeGestion(db, primera.id, ['epd']);
        return { total: (await detalleGestionAtr(db, e, '2026-11-25')).id === e.id ? 1 : 0 };
      },
    ],
    ['company: its requests, first page', deEmpresa({})],
    ['company: state rechazada', deEmpresa({ estado: 'rechazada' })],
    ['company: by CUPS prefix', deEmpresa({ q: 'ES99020000000' })],
  ];
  return medirConsultas(consultas, (f) => f());
}

/** The section. */
export async function atrSection(): Promise<string> {
  const bloques = await bloquesDeCola({
    etiqueta: 'atr',
    que: 'cases (all of them ATR requests)',
    medida: 'one call of the service function the route runs (a page of 25 with the company\u2019s name and REE code, and the total)',
    cargar,
    medir,
  });
  return [
    '## ATR requests on the case core',
    '',
    `${N.toLocaleString('en')} ATR requests (C1, C2, M1, A3, B1) from ${EMPRESAS} supply companies, a third per distributor, over a year, in a throw-away database, in this process (no HTTP). One in twenty waits for the field work (accepted or with an incidence, a fifth of them overdue); the rest are closed. Since docs/decisions/053 a request's state is the case's step: the staff queue is the core's \`cola\`, which walks \`expedientes_cola_idx\` (distribuidora, procedimiento, vence, presentado_en, id) over the open cases; a closed state is found by its step; the company's list walks \`expedientes_usuario_idx\` newest first.`,
    '',
    ...bloques,
    'Command: `npm run bench -- --only atr` (N from BENCH_ATR_COLA_N).',
    '',
  ].join('\n');
}
