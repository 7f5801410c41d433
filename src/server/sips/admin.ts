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
import { CODIGOS_DISTRIBUIDORA } from '../../lib/distribuidoras.ts';
import { FicheroSipsSchema } from '../../lib/sips/respuestas.ts';
import { audit } from '../auditoria/service.ts';
import { authOf, requireAuth, requireNoSuplantado, requirePermiso } from '../auth/middleware.ts';
import { ApiError, ValidationError } from '../http/errors.ts';
import { errorResponse, featureApp, jsonBody, jsonResponse, validationResponse } from '../http/openapi.ts';
import { infoDe, soloJson } from '../http/peticion.ts';
import { FicheroEnCurso, generarMesSips, mesMas, primerDiaDelMes } from './ficheros.ts';
import { comprobarRegistroSips, importarRegistroSips } from './importar.ts';
import { ficheroApi } from './routes.ts';

const base = { tags: ['Administración'], security: [{ Bearer: [] }] };
const comunes = {
  401: errorResponse('Sin sesión'),
  403: errorResponse('Sin el permiso de administración de esa distribuidora, o sesión suplantada'),
};

const distribuidoraParam = z.object({
  distribuidora: z.enum(CODIGOS_DISTRIBUIDORA as [string, ...string[]]).openapi({
    param: { name: 'distribuidora', in: 'path' },
    example: 'epd',
    description: 'Código de la distribuidora: epd, eod o ecd.',
  }),
});

const distribuidoraDe = (c: { req: { param(n: 'distribuidora'): string | undefined } }) => c.req.param('distribuidora');

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
  })
  .openapi('RegistroSipsImportado');

/** Largest register file an administrator may upload (a million supply points in SIPS2026 are about 600 MB). */
export const MAX_REGISTRO_BYTES = 1024 * 1024 * 1024;

const registro = createRoute({
  ...base,
  method: 'post',
  path: '/administrador/sips/{distribuidora}/registro',
  summary: 'Cargar el registro de suministros',
  description:
    'Carga el registro de puntos de suministro de la distribuidora desde su fichero SIPS2026 PS_ELECTRICIDAD (CSV UTF-8 con cabecera, sin comprimir, .csv.gz o .zip), enviado tal cual en el cuerpo. Todo o nada: si alguna línea tiene errores responde 422 con cada error (línea, columna y motivo) y no cambia nada. Cada fila crea o actualiza un suministro; las filas iguales a lo que ya hay no se escriben. Hasta 1 GB.',
  middleware: [requireAuth(), requireNoSuplantado(), requirePermiso(distribuidoraDe, 'administrador')] as const,
  request: {
    params: distribuidoraParam,
    body: { content: { 'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) } }, required: true },
  },
  responses: {
    200: jsonResponse(ResultadoRegistroSchema, 'Registro cargado'),
    400: validationResponse('Cuerpo vacío'),
    ...comunes,
    413: errorResponse('Fichero de más de 1 GB'),
    422: jsonResponse(RegistroRechazadoSchema, 'El fichero tiene errores: no se ha cargado nada'),
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
    params: distribuidoraParam,
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

/** The SIPS administration sub-app. */
export function sipsAdminRoutes() {
  return featureApp()
    .openapi(registro, async (c) => {
      const { distribuidora } = c.req.valid('param');
      const body = c.req.raw.body;
      if (!body) throw new ValidationError(['Envíe el fichero del registro en el cuerpo de la petición.']);
      // Two passes read the file (check, then load): it is kept in a private temporary folder meanwhile.
      const carpeta = await mkdtemp(join(tmpdir(), 'registro-sips-'));
      const ruta = join(carpeta, 'registro');
      try {
        await pipeline(Readable.fromWeb(body as WebReadableStream<Uint8Array>), createWriteStream(ruta));
        const comprobacion = await comprobarRegistroSips({ ruta }, { distribuidora });
        const auth = authOf(c);
        const info = infoDe(c);
        const { db } = c.get('deps');
        if (comprobacion.fallas.length > 0) {
          return c.json({ message: 'El fichero tiene errores: no se ha cargado nada.', ...comprobacion }, 422);
        }
        const r = await db.transaction(async (tx) => {
          const hecho = await importarRegistroSips(tx, { ruta }, { distribuidora });
          await audit(tx, {
            action: 'sips.registro',
            actorUserId: auth.userId,
            ip: info.ip,
            requestId: info.requestId,
            distribuidoras: [distribuidora],
            details: { ...hecho },
          });
          return hecho;
        });
        return c.json(r, 200);
      } finally {
        await rm(carpeta, { recursive: true, force: true });
      }
    })
    .openapi(generar, async (c) => {
      const { distribuidora } = c.req.valid('param');
      const { mes: pedido } = c.req.valid('json');
      const { db, clock } = c.get('deps');
      const actual = primerDiaDelMes(clock.now());
      const mes = pedido ? `${pedido}-01` : actual;
      if (mes > actual || mes < mesMas(actual, -11))
        throw new ValidationError(['Solo se generan los ficheros del mes en curso y de los once anteriores.']);
      const auth = authOf(c);
      try {
        const hechos = await generarMesSips(db, distribuidora, mes, { generadoPor: auth.userId });
        const info = infoDe(c);
        await audit(db, {
          action: 'sips.generacion',
          actorUserId: auth.userId,
          ip: info.ip,
          requestId: info.requestId,
          distribuidoras: [distribuidora],
          details: { mes: mes.slice(0, 7), ficheros: hechos.map((h) => ({ nombre: h.nombre, filas: h.filas, sha256: h.sha256 })) },
        });
        return c.json(hechos.map(ficheroApi), 200);
      } catch (err) {
        if (err instanceof FicheroEnCurso) throw new ApiError(409, err.message);
        throw err;
      }
    });
}
