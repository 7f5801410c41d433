/**
 * SIPS for a distributor's administrators (docs/decisions/016): load the supply-point register
 * from the distributor's SIPS2026 PS_ELECTRICIDAD file while the portal runs, and write a month's
 * SIPS files again on demand. Needs `<d>-administrador` of the distributor the route names, never
 * through an impersonated session; both actions are audited.
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { FicheroSipsSchema } from '../../lib/sips/respuestas.ts';
import { authOf, requireAuth, requireNoSuplantado, requirePermiso } from '../auth/middleware.ts';
import type { Db } from '../db/client.ts';
import type { AuthEnv } from '../http/context.ts';
import { ApiError, ValidationError } from '../http/errors.ts';
import {
  baseAdministracion,
  errorResponse,
  featureApp,
  jsonBody,
  jsonResponse,
  respuestasAdministracion,
  validationResponse,
} from '../http/openapi.ts';
import { soloJson } from '../http/peticion.ts';
import { auditarSips, DistribuidoraParams, distribuidoraDe } from './comun.ts';
import { FicheroEnCurso, generarMesSips, mesMas, primerDiaDelMes } from './ficheros.ts';
import {
  comprobarRegistroSips,
  importarRegistroSips,
  previsualizarRegistroSips,
  RegistroRechazado,
  type PreviaRegistro,
  type ComprobacionRegistro,
  type ResultadoRegistro,
} from './importar.ts';
import { ficheroApi } from './routes.ts';

const base = baseAdministracion;
const comunes = respuestasAdministracion('el permiso de administración de esa distribuidora');

const FallaRegistroSchema = z.object({
  linea: z.number().int().openapi({ description: 'Línea del fichero (1 es la cabecera; 0, el fichero en conjunto).' }),
  columna: z.string().openapi({ description: 'Nombre CNMC de la columna; vacío si la falta es de la línea o del fichero.' }),
  motivo: z.string().openapi({ description: 'Qué está mal, en español.' }),
});

const RegistroRechazadoSchema = z
  .object({
    message: z.string().openapi({ description: 'Resumen: el fichero tiene errores y no se ha importado nada.' }),
    filas: z.number().int().openapi({ description: 'Filas de datos leídas.' }),
    fallas: z.array(FallaRegistroSchema).openapi({ description: 'Cada error, por línea (hasta 1.000).' }),
    fallasOmitidas: z.number().int().openapi({ description: 'Errores que hay además de los listados.' }),
  })
  .openapi('RegistroSipsRechazado');

const ResultadoRegistroSchema = z
  .object({
    filas: z.number().int().openapi({ description: 'Suministros que trae el fichero.' }),
    nuevos: z.number().int().openapi({ description: 'Suministros que no estaban en el registro.' }),
    actualizados: z.number().int().openapi({ description: 'Suministros que han cambiado.' }),
    sinCambios: z.number().int().openapi({ description: 'Suministros iguales a lo que ya había: no se han escrito.' }),
    conservados: z.number().int().openapi({
      description:
        'Suministros en que el fichero es anterior a una modificación contractual o solicitud ATR activada después: se conservan los valores activados (decisión 037).',
    }),
  })
  .openapi('RegistroSipsImportado');

const CampoConservadoSchema = z.object({
  cups: z.string().openapi({ description: 'CUPS del suministro.' }),
  campo: z.string().openapi({ description: 'Columna del registro (tarifa, potencias_w, titular_nif…).' }),
  actual: z.string().nullable().openapi({ description: 'Valor que hay y se conserva.' }),
  fichero: z.string().nullable().openapi({ description: 'Valor que trae el fichero y no se aplica.' }),
  motivo: z.string().openapi({ description: 'La activación posterior que lo decide, en español.' }),
});

const PreviaRegistroSchema = ResultadoRegistroSchema.extend({
  cambios: z
    .array(
      z.object({
        cups: z.string().openapi({ description: 'CUPS del suministro.' }),
        nuevo: z.boolean().openapi({ description: 'El suministro no está en el registro: se crea.' }),
        campos: z
          .array(
            z.object({
              campo: z.string().openapi({ description: 'Columna del registro, o nombre CNMC de una columna SIPS que guarda tal cual.' }),
              antes: z.string().nullable().openapi({ description: 'Valor que hay ahora.' }),
              despues: z.string().nullable().openapi({ description: 'Valor que tendrá tras la carga.' }),
            }),
          )
          .openapi({ description: 'Cada campo que cambia, con su valor antes y después (vacío si es nuevo).' }),
      }),
    )
    .openapi({ description: 'Los suministros que se crean o cambian, por orden del fichero (hasta 500).' }),
  camposConservados: z.array(CampoConservadoSchema).openapi({ description: 'Los valores que se conservan (hasta 1.000).' }),
}).openapi('RegistroSipsPrevia');

/** Largest register file an administrator may upload (a million supply points in SIPS2026 are about 600 MB). */
export const MAX_REGISTRO_BYTES = 1024 * 1024 * 1024;

const registro = createRoute({
  ...base,
  method: 'post',
  path: '/administrador/sips/{distribuidora}/registro',
  summary: 'Cargar el registro de suministros',
  description:
    'Carga el registro de puntos de suministro de la distribuidora desde su fichero SIPS2026 PS_ELECTRICIDAD (CSV UTF-8 con cabecera, sin comprimir, .csv.gz o .zip), enviado tal cual en el cuerpo. Todo o nada: si alguna línea tiene errores responde 422 con cada error (línea, columna y motivo) y no cambia nada. Cada fila crea o actualiza un suministro; las filas iguales a lo que ya hay no se escriben. Hasta 1 GB.\n\nCon `Accept: application/x-ndjson` responde 200 en cuanto recibe el fichero y va enviando el avance, un objeto JSON por línea: `{"fase":"comprobando","filas":N}` y `{"fase":"cargando","filas":N,"total":M}` cada pocos miles de filas, y al final `{"fase":"hecho",…}` (el resultado), `{"fase":"rechazado",…}` (los errores, como en el 422) o `{"fase":"error","message":…}`.',
  middleware: [requireAuth(), requireNoSuplantado(), requirePermiso(distribuidoraDe, 'administrador')] as const,
  request: {
    params: DistribuidoraParams,
    body: { content: { 'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) } }, required: true },
  },
  responses: {
    200: {
      description: 'Registro cargado (JSON), o el avance y el resultado línea a línea (NDJSON)',
      content: {
        'application/json': { schema: ResultadoRegistroSchema },
        'application/x-ndjson': {
          schema: z.string().openapi({ description: 'Un objeto JSON por línea: el avance y, al final, el resultado.' }),
        },
      },
    },
    400: validationResponse('Cuerpo vacío'),
    ...comunes,
    413: errorResponse('Fichero de más de 1 GB'),
    422: jsonResponse(RegistroRechazadoSchema, 'El fichero tiene errores: no se ha cargado nada'),
  },
});

const previa = createRoute({
  ...base,
  method: 'post',
  path: '/administrador/sips/{distribuidora}/registro/previa',
  summary: 'Ver qué cambiaría al cargar el registro',
  description:
    'Comprueba el fichero como la carga y responde, sin cambiar nada, qué haría: los suministros nuevos, los que cambian (cada campo, antes y después), los que no cambian y los valores que se conservan porque una modificación contractual o una solicitud ATR se activó después de la fecha de los datos del fichero (`fechaUltimoMovimientoContrato`; decisión 037). Con errores responde 422 como la carga. Admite `Accept: application/x-ndjson` como la carga; la última línea es `{"fase":"previa",…}`.',
  middleware: [requireAuth(), requireNoSuplantado(), requirePermiso(distribuidoraDe, 'administrador')] as const,
  request: {
    params: DistribuidoraParams,
    body: { content: { 'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) } }, required: true },
  },
  responses: {
    200: {
      description: 'Lo que cambiaría (JSON), o el avance y el resultado línea a línea (NDJSON)',
      content: {
        'application/json': { schema: PreviaRegistroSchema },
        'application/x-ndjson': { schema: z.string().openapi({ description: 'Un objeto JSON por línea.' }) },
      },
    },
    400: validationResponse('Cuerpo vacío'),
    ...comunes,
    413: errorResponse('Fichero de más de 1 GB'),
    422: jsonResponse(RegistroRechazadoSchema, 'El fichero tiene errores'),
  },
});

const MES = /^\d{4}-(0[1-9]|1[0-2])$/;

const generar = createRoute({
  ...base,
  method: 'post',
  path: '/administrador/sips/{distribuidora}/ficheros',
  summary: 'Generar los ficheros SIPS de un mes',
  description:
    'Escribe de nuevo los cuatro ficheros SIPS del mes indicado (PS y CONSUMOS, en v2 y SIPS2026) con el registro y las medidas de ahora, y responde cuando están listos. Sin mes, el mes en curso. Solo los doce últimos meses.',
  middleware: [soloJson, requireAuth(), requireNoSuplantado(), requirePermiso(distribuidoraDe, 'administrador')] as const,
  request: {
    params: DistribuidoraParams,
    ...jsonBody(
      z.object({
        mes: z
          .string()
          .regex(MES, 'Indique el mes como AAAA-MM.')
          .optional()
          .openapi({ example: '2026-11', description: 'Mes de los ficheros, AAAA-MM; sin él, el mes en curso.' }),
      }),
    ),
  },
  responses: {
    200: jsonResponse(z.array(FicheroSipsSchema), 'Los cuatro ficheros escritos'),
    400: validationResponse('Mes no válido, futuro o de hace más de un año'),
    ...comunes,
    409: errorResponse('Otro proceso está generando ya esos ficheros'),
  },
});

/** How far a register load has gone: rows checked, then rows loaded of the total. */
export type AvanceRegistro = { fase: 'comprobando'; filas: number } | { fase: 'cargando'; filas: number; total: number };

/** What a register load (or its preview) answers: the result, or every fault found (nothing loaded). */
type ResultadoCarga<R = ResultadoRegistro> =
  { estado: 200; cuerpo: R } | { estado: 422; cuerpo: ComprobacionRegistro & { message: string } };

/** Carries a preview out of its transaction, which is rolled back: a preview never writes. */
class Previa extends Error {
  readonly previa: PreviaRegistro;
  constructor(previa: PreviaRegistro) {
    super('previa');
    this.previa = previa;
  }
}

/** Checks the file, then tells what loading it would change, inside a transaction rolled back. */
async function previaRegistro(
  db: Db,
  ruta: string,
  distribuidora: string,
  progreso: (a: AvanceRegistro) => void,
): Promise<ResultadoCarga<PreviaRegistro>> {
  const comprobacion = await comprobarRegistroSips(
    { ruta },
    { distribuidora, progreso: (filas) => progreso({ fase: 'comprobando', filas }) },
  );
  if (comprobacion.fallas.length > 0) return { estado: 422, cuerpo: { message: RECHAZADO, ...comprobacion } };
  try {
    await db.transaction(async (tx) => {
      throw new Previa(await previsualizarRegistroSips(tx, { ruta }, { distribuidora }));
    });
    throw new Error('La previa del registro no ha respondido.');
  } catch (err) {
    if (err instanceof Previa) return { estado: 200, cuerpo: err.previa };
    if (!(err instanceof RegistroRechazado)) throw err;
    return { estado: 422, cuerpo: { message: RECHAZADO, filas: comprobacion.filas, fallas: err.fallas, fallasOmitidas: 0 } };
  }
}

const RECHAZADO = 'El fichero tiene errores: no se ha cargado nada.';

/**
 * Checks the file, then loads it in one transaction with its audit entry; a file with faults, or
 * one that repeats a CUPS (found only when loading), changes nothing.
 */
async function cargarRegistro(
  db: Db,
  ruta: string,
  distribuidora: string,
  progreso: (a: AvanceRegistro) => void,
  auditar: (tx: Db, hecho: ResultadoRegistro) => Promise<void>,
): Promise<ResultadoCarga> {
  const comprobacion = await comprobarRegistroSips(
    { ruta },
    { distribuidora, progreso: (filas) => progreso({ fase: 'comprobando', filas }) },
  );
  if (comprobacion.fallas.length > 0) return { estado: 422, cuerpo: { message: RECHAZADO, ...comprobacion } };
  const total = comprobacion.filas;
  progreso({ fase: 'cargando', filas: 0, total });
  try {
    const hecho = await db.transaction(async (tx) => {
      const r = await importarRegistroSips(
        tx,
        { ruta },
        { distribuidora, progreso: (filas) => progreso({ fase: 'cargando', filas, total }) },
      );
      await auditar(tx, r);
      return r;
    });
    return { estado: 200, cuerpo: hecho };
  } catch (err) {
    if (!(err instanceof RegistroRechazado)) throw err;
    return { estado: 422, cuerpo: { message: RECHAZADO, filas: total, fallas: err.fallas, fallasOmitidas: 0 } };
  }
}

/**
 * Receives a register file in the body, keeps it in a private temporary folder while `tarea` reads
 * it (two passes), and answers its result: JSON, or NDJSON telling the progress as it goes.
 */
async function recibirRegistro<R extends object>(
  c: Context<AuthEnv>,
  tarea: (db: Db, ruta: string, distribuidora: string, progreso: (a: AvanceRegistro) => void) => Promise<ResultadoCarga<R>>,
  fin: 'hecho' | 'previa' = 'hecho',
): Promise<Response> {
  const distribuidora = c.req.param('distribuidora')!;
  const body = c.req.raw.body;
  if (!body) throw new ValidationError(['Envíe el fichero del registro en el cuerpo de la petición.']);
  const { db } = c.get('deps');
  const carpeta = await mkdtemp(join(tmpdir(), 'registro-sips-'));
  const ruta = join(carpeta, 'registro');
  const borrar = () => rm(carpeta, { recursive: true, force: true });
  let carga: (progreso: (a: AvanceRegistro) => void) => Promise<ResultadoCarga<R>>;
  try {
    await pipeline(Readable.fromWeb(body as WebReadableStream<Uint8Array>), createWriteStream(ruta));
    carga = (progreso) => tarea(db, ruta, distribuidora, progreso).finally(borrar);
  } catch (err) {
    await borrar();
    throw err;
  }
  if (/\bapplication\/x-ndjson\b/.test(c.req.header('accept') ?? '')) {
    // The answer starts now and tells the progress as it goes: a large register takes minutes.
    const codificador = new TextEncoder();
    const cuerpo = new ReadableStream<Uint8Array>({
      async start(controller) {
        let abierto = true;
        const linea = (o: object) => {
          // A client that went away stops hearing; the load still ends (and commits or not) as it would.
          if (!abierto) return;
          try {
            controller.enqueue(codificador.encode(`${JSON.stringify(o)}\n`));
          } catch {
            abierto = false;
          }
        };
        try {
          const r = await carga(linea);
          linea(r.estado === 200 ? { fase: fin, ...r.cuerpo } : { fase: 'rechazado', ...r.cuerpo });
        } catch (err) {
          c.get('deps').logger.error({ err, requestId: c.get('requestId') }, 'registro SIPS: error al cargar');
          linea({ fase: 'error', message: 'Error interno: no se ha cargado nada. Inténtelo de nuevo más tarde.' });
        }
        if (abierto) controller.close();
      },
    });
    return c.body(cuerpo, 200, { 'Content-Type': 'application/x-ndjson; charset=utf-8', 'Cache-Control': 'no-store' });
  }
  const r = await carga(() => undefined);
  return r.estado === 200 ? c.json(r.cuerpo, 200) : c.json(r.cuerpo, 422);
}

/** The SIPS administration sub-app. */
export function sipsAdminRoutes() {
  return featureApp()
    .openapi(
      registro,
      (c) =>
        recibirRegistro(c, (db, ruta, distribuidora, progreso) =>
          cargarRegistro(db, ruta, distribuidora, progreso, (tx, hecho) =>
            auditarSips(c, tx, distribuidora, { action: 'sips.registro', details: { ...hecho } }),
          ),
        ) as never,
    )
    .openapi(previa, (c) => recibirRegistro(c, previaRegistro, 'previa') as never)
    .openapi(generar, async (c) => {
      const { distribuidora } = c.req.valid('param');
      const { mes: pedido } = c.req.valid('json');
      const { db, clock } = c.get('deps');
      const actual = primerDiaDelMes(clock.now());
      const mes = pedido ? `${pedido}-01` : actual;
      if (mes > actual || mes < mesMas(actual, -11))
        throw new ValidationError(['Solo se generan los ficheros del mes en curso y de los once anteriores.']);
      try {
        const hechos = await generarMesSips(db, distribuidora, mes, { generadoPor: authOf(c).userId });
        await auditarSips(c, db, distribuidora, {
          action: 'sips.generacion',
          details: { mes: mes.slice(0, 7), ficheros: hechos.map((h) => ({ nombre: h.nombre, filas: h.filas, sha256: h.sha256 })) },
        });
        return c.json(hechos.map(ficheroApi), 200);
      } catch (err) {
        if (err instanceof FicheroEnCurso) throw new ApiError(409, err.message);
        throw err;
      }
    });
}
