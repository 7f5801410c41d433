/**
 * The contractual modifications section of `npm run bench` (`--only modificaciones`): the requests as
 * cases of the procedure `modificacion` on the case core (docs/decisions/052), BENCH_MODIFICACIONES_N
 * of them (100,000 unless told) over half as many supply points of a fifth as many holders, a third
 * per distributor, on an in-memory PGlite and, when BENCH_DATABASE_URL or TEST_DATABASE_URL is set,
 * on PostgreSQL. Timed as the API runs them: a holder's list and the form's rules context
 * (src/server/modificaciones/service.ts), and the staff list and one request
 * (src/server/modificaciones/gestion.ts). The rows are inserted with SQL in the shape the service
 * writes them: each request with its first timeline event.
 */
import { sql } from 'drizzle-orm';
import { todosLosPermisos } from '../src/lib/permisos.ts';
import type { Db } from '../src/server/db/client.ts';
import type { AuthContext } from '../src/server/http/context.ts';
import { listarSolicitudesAdmin, solicitudAdmin, type FiltroSolicitudes } from '../src/server/modificaciones/gestion.ts';
import { contextoParaFormulario, solicitudesDelLector } from '../src/server/modificaciones/service.ts';
import type { Lector } from '../src/server/suministros/service.ts';
import { bloquesDeCola, medirConsultas, type FilaCola } from './bench-colas.ts';

const N = Number(process.env.BENCH_MODIFICACIONES_N ?? 100_000);
const PUNTOS = Math.max(3, Math.floor(N / 2));
const TITULARES = Math.max(1, Math.floor(PUNTOS / 5));
const HOY = new Date('2026-11-25T09:00:00Z');
/** The NIF of holder `i` (1-based): eight digits and the DNI letter. */
const nifSql = (i: string) => sql.raw(`lpad((${i})::text, 8, '0') || substr('TRWAGMYFPDXBNJZSQVHLCKE', (${i}) % 23 + 1, 1)`);

/** Inserts the holders, their supply points (supply point j belongs to holder 1 + j % TITULARES) and N requests, two per supply point. */
async function cargar(db: Db): Promise<void> {
  await db.execute(sql`
    insert into users (nif, email, nombre, apellido1, password_hash, estado)
    select ${nifSql('i')}, 'titular' || i || '@correo.example', 'Lucía', 'Bench', 'x', 'activo'
    from generate_series(1, ${TITULARES}) as i`);
  await db.execute(sql`
    insert into suministros (cups, distribuidora, titular_nif, titular_nombre, direccion, codigo_postal, municipio, codigo_ine, provincia,
      tarifa, potencias_w, potencia_maxima_w, tension_v, contador_inteligente, telegestionado, propiedad_contador, numero_contador,
      fases_contador, modo_control_potencia, comercializadora_codigo, comercializadora_nombre, fecha_alta)
    select 'ES' || (array['9901','9902','9903'])[1 + j % 3] || lpad(j::text, 12, '0') || 'XX', (array['epd','eod','ecd'])[1 + j % 3],
      ${nifSql('1 + j % ' + TITULARES)}, 'Titular', 'Calle Mayor, 1', '28801', 'Alcalá de Henares', '28005', 'Madrid',
      '2.0TD', '{4600,4600}', 9200, 230, true, true, 'distribuidora', '0', 'monofasico', 'telegestion', '0901', 'Comercializadora', '2020-01-01'
    from generate_series(1, ${PUNTOS}) as j`);
  await db.execute(sql`
    insert into expedientes (procedimiento, distribuidora, user_id, paso, turno, tipo, datos, presentado_en, cerrado_en, created_at, updated_at)
    select 'modificacion', s.distribuidora, u.id, q.paso, case when q.paso in ('enviada', 'aceptada') then 'distribuidora' end, q.tipo,
      jsonb_build_object('suministroId', s.id,
        'solicitado', case q.tipo when 'titular' then jsonb_build_object('tipo', 'titular', 'modo', 'correccion', 'nif', s.titular_nif, 'nombre', 'Titular Corregido')
          else jsonb_build_object('tipo', q.tipo, 'tarifa', '2.0TD', 'potenciasW', jsonb_build_array(5750, 5750)) end,
        'anterior', jsonb_build_object('tarifa', '2.0TD', 'potenciasW', jsonb_build_array(4600, 4600), 'potenciaMaximaW', 9200, 'tensionV', 230,
          'fases', 'monofasico', 'modoControlPotencia', 'telegestion', 'titularNif', s.titular_nif, 'titularNombre', 'Titular'),
        'fechaActivacion', case when q.paso = 'activada' then (date '2026-01-01' + (k % 300))::text end),
      q.creada, case when q.paso not in ('enviada', 'aceptada') then q.creada + interval '2 days' end, q.creada, q.creada
    from generate_series(1, ${N}) as k
    join suministros s on s.id = 1 + (k - 1) % ${PUNTOS}
    join users u on u.nif = s.titular_nif
    cross join lateral (select
      -- One supply point's two requests: an older one decided and, for one in five, a later one in progress.
      case when k > ${PUNTOS} and k % 5 = 0 then (array['enviada','aceptada'])[1 + k % 2]
        else (array['rechazada','activada','anulada','activada'])[1 + k % 4] end as paso,
      (array['potencia','potencia','tarifa','titular'])[1 + (k / 3) % 4] as tipo,
      timestamptz '2025-01-01' + (k % 600) * interval '1 day' + (case when k > ${PUNTOS} then interval '700 days' else interval '0' end) as creada) q`);
  await db.execute(sql`
    insert into expediente_eventos (expediente_id, accion, paso, lado, actor_user_id, momento)
    select id, 'solicitud', 'enviada', 'solicitante', user_id, created_at from expedientes where procedimiento = 'modificacion'`);
  // As autovacuum leaves a table after a load of inserts: statistics and the visibility map, so the
  // list's total is counted from its index alone.
  await db.execute(sql`vacuum analyze`);
}

/** Times the holder's and the staff's reads. */
async function medir(db: Db): Promise<FilaCola[]> {
  const clock = { now: () => HOY };
  // Holder 7 holds supply points 6, 6 + T, 6 + 2T… (as many as PUNTOS allows), at the distributors they fall in.
  const nif = `${String(7).padStart(8, '0')}${'TRWAGMYFPDXBNJZSQVHLCKE'[7 % 23]}`;
  const lector: Lector = { nif, distribuidoras: ['epd', 'eod', 'ecd'] };
  const cups = `ES9901${String(6).padStart(12, '0')}XX`;
  const gestor: AuthContext = {
    userId: '00000000-0000-4000-8000-000000000000',
    email: 'bench@correo.example',
    nif: null,
    permisos: todosLosPermisos(),
    impersonatorUserId: null,
    sesionId: null,
  };
  const base: FiltroSolicitudes = { distribuidora: 'epd', pagina: 1, porPagina: 25 };
  const lista = (f: FiltroSolicitudes) => async () => ({ total: (await listarSolicitudesAdmin(db, gestor, f)).total });
  const primera = (await listarSolicitudesAdmin(db, gestor, base)).solicitudes[0]!;
  const consultas: [string, () => Promise<{ total: number }>][] = [
    ['holder: their requests', async () => ({ total: (await solicitudesDelLector(db, lector)).length })],
    [
      'holder: the form\u2019s rules context',
      async () => ({
        total: (await contextoParaFormulario(db, clock, lector, cups)).solicitudEnCurso ? 1 : 0,
      }),
    ],
    ['staff: EPD, first page', lista(base)],
    ['staff: EPD, page 100', lista({ ...base, pagina: 100 })],
    ['staff: EPD, state enviada', lista({ ...base, estado: 'enviada' })],
    ['staff: EPD, kind titular', lista({ ...base, tipo: 'titular' })],
    ['staff: by number (MC-…)', lista({ ...base, q: primera.referencia })],
    ['staff: by CUPS prefix', lista({ ...base, q: 'ES99010000000001' })],
    ['staff: one request', async () => ({ total: (await solicitudAdmin(db, gestor, primera.numero)) ? 1 : 0 })],
  ];
  return medirConsultas(consultas, (f) => f());
}

/** The section. */
export async function modificacionesSection(): Promise<string> {
  const bloques = await bloquesDeCola({
    etiqueta: 'modificaciones',
    que: 'cases (all of them modification requests)',
    medida:
      'one call of the service function the route runs (a list answers its page of 25 with each request\u2019s supply point, requester and timeline, and the total)',
    cargar,
    medir,
  });
  return [
    '## Contractual modifications on the case core',
    '',
    `${N.toLocaleString('en')} modification requests over ${PUNTOS.toLocaleString('en')} supply points of ${TITULARES.toLocaleString('en')} holders, a third per distributor, in a throw-away database, in this process (no HTTP). Since docs/decisions/052 a request is a case of the procedure \`modificacion\`: its supply point is \`datos->>'suministroId'\`, found through \`expedientes_modificacion_suministro_idx\`; the staff list walks \`expedientes_modificacion_idx\` ((cerrado_en is null), created_at, numero, distribuidora) backwards, in progress first and then newest, and counts its total from the same index (the load ends with \`vacuum analyze\`, as autovacuum would leave the table); an old number is found through \`expedientes_modificacion_numero_anterior_idx\` (migration 0025).`,
    '',
    ...bloques,
    'Command: `npm run bench -- --only modificaciones` (N from BENCH_MODIFICACIONES_N).',
    '',
  ].join('\n');
}
