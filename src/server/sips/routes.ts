/**
 * SIPS for supply companies (docs/sector.md §3; docs/producto.md "comercializadoras"): the monthly
 * files of a distributor and the query by CUPS. Each route names its distributor and needs
 * `<d>-comercializadora` for it: a company of EPD never reaches EOD's files (403). Access to SIPS
 * is regulated (RD 1074/2015, RD 88/2026), so every download and every query is written to the
 * audit log with who, when and which file or which CUPS.
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { VERSIONES_SIPS } from '../../lib/sips/columnas.ts';
import { columnasSips } from '../../lib/sips/columnas.ts';
import {
  ConsultaSipsSchema,
  FicheroSipsSchema,
  ResultadoConsultaSipsSchema,
  type FicheroSipsRespuesta,
} from '../../lib/sips/respuestas.ts';
import { createMiddleware } from 'hono/factory';
import { authOf, requireAuth, requirePermiso, tienePermiso } from '../auth/middleware.ts';
import type { AuthEnv } from '../http/context.ts';
import { respuestaJson } from '../http/compresion.ts';
import { forbidden, notFound } from '../http/errors.ts';
import { flujoDeTrozos } from '../http/flujos.ts';
import { errorResponse, featureApp, jsonBody, jsonResponse, validationResponse } from '../http/openapi.ts';
import { soloJson } from '../http/peticion.ts';
import { auditarSips, DistribuidoraParams, distribuidoraDe } from './comun.ts';
import { cabeceraSips } from './escritor.ts';
import { consultarSips } from './consulta.ts';
import { ficheroPorNombre, ficherosDe, trozosDe, type FicheroSips } from './ficheros.ts';

const seguridad = [{ Bearer: [] }];
const errores = {
  401: errorResponse('Sin sesión'),
  403: errorResponse('Sin permiso «-comercializadora» (ni «-administrador») de esa distribuidora'),
};

/** 403 unless the caller is a supply company of the distributor the route names, or administers it. */
const requireLectorSips = () =>
  createMiddleware<AuthEnv>(async (c, next) => {
    const auth = authOf(c);
    const d = distribuidoraDe(c);
    if (!d || !(tienePermiso(auth, d, 'comercializadora') || (tienePermiso(auth, d, 'administrador') && !auth.impersonatorUserId))) {
      throw forbidden();
    }
    await next();
  });

const listar = createRoute({
  method: 'get',
  path: '/sips/{distribuidora}',
  tags: ['Comercializadoras'],
  summary: 'Ficheros SIPS de una distribuidora',
  description:
    'Los ficheros mensuales SIPS de la distribuidora (PS_ELECTRICIDAD y CONSUMOS_ELECTRICIDAD, en formato v2 y SIPS2026), del mes más reciente al más antiguo, con su número de filas, tamaño y huella SHA-256. Se conservan doce meses.',
  security: seguridad,
  middleware: [requireAuth(), requireLectorSips()] as const,
  request: { params: DistribuidoraParams },
  responses: { 200: jsonResponse(z.array(FicheroSipsSchema), 'Los ficheros'), ...errores },
});

const descargar = createRoute({
  method: 'get',
  path: '/sips/{distribuidora}/{fichero}',
  tags: ['Comercializadoras'],
  summary: 'Descargar un fichero SIPS',
  description:
    'El fichero con el nombre que le da la CNMC (p. ej. 202611_SIPS2026_PS_ELECTRICIDAD_epd.csv), comprimido con gzip (se descarga como .csv.gz). `Content-Length` es el tamaño comprimido; la huella SHA-256 de la lista es la del CSV descomprimido. Cada descarga queda registrada en la auditoría.',
  security: seguridad,
  middleware: [requireAuth(), requireLectorSips()] as const,
  request: {
    params: DistribuidoraParams.extend({
      fichero: z
        .string()
        .max(80)
        .openapi({
          param: { name: 'fichero', in: 'path' },
          example: '202611_SIPS2026_PS_ELECTRICIDAD_epd.csv',
          description: 'Nombre del fichero, el campo `nombre` de la lista.',
        }),
    }),
  },
  responses: {
    200: {
      description: 'El fichero CSV comprimido con gzip',
      content: { 'application/gzip': { schema: z.string().openapi({ format: 'binary' }) } },
    },
    ...errores,
    404: errorResponse('La distribuidora no tiene ese fichero'),
  },
});

const consultar = createRoute({
  method: 'post',
  path: '/sips/{distribuidora}/consulta',
  tags: ['Comercializadoras'],
  summary: 'Consultar el SIPS de una lista de CUPS',
  description:
    'Responde, para hasta 1.000 CUPS de la distribuidora, las filas del fichero indicado en `tipo` (PS_ELECTRICIDAD, por defecto, o CONSUMOS_ELECTRICIDAD de los 24 meses completos anteriores) en el formato pedido, tal como van en los ficheros mensuales: en JSON, o en CSV con `Accept: text/csv`. Los CUPS mal formados, de otra distribuidora o sin suministro en vigor se devuelven en `rechazados` con el motivo y la línea en que venían. Cada consulta queda registrada en la auditoría con los CUPS consultados.',
  security: seguridad,
  middleware: [soloJson, requireAuth(), requirePermiso(distribuidoraDe, 'comercializadora')] as const,
  request: { params: DistribuidoraParams, ...jsonBody(ConsultaSipsSchema) },
  responses: {
    200: {
      description: 'Las filas encontradas y los CUPS rechazados (JSON), o el CSV pedido',
      content: {
        'application/json': { schema: ResultadoConsultaSipsSchema },
        'text/csv': { schema: z.string().openapi({ format: 'binary' }) },
      },
    },
    400: validationResponse('Lista vacía o de más de 1.000 CUPS, o formato desconocido'),
    401: errorResponse('Sin sesión'),
    403: errorResponse('Sin permiso «-comercializadora» de esa distribuidora'),
  },
});

/** A file as the list shows it. */
export function ficheroApi(f: FicheroSips): FicheroSipsRespuesta {
  return {
    nombre: f.nombre,
    mes: f.mes.slice(0, 7),
    tipo: f.tipo as 'PS_ELECTRICIDAD' | 'CONSUMOS_ELECTRICIDAD',
    version: f.version as (typeof VERSIONES_SIPS)[number],
    filas: f.filas ?? 0,
    bytes: f.bytes ?? 0,
    bytesGzip: f.bytesGzip ?? 0,
    sha256: f.sha256 ?? '',
    generadoEn: (f.generadoEn ?? f.iniciadoEn).toISOString(),
  };
}

/** The SIPS sub-app for supply companies. */
export function sipsRoutes() {
  return featureApp()
    .openapi(listar, async (c) => {
      const { distribuidora } = c.req.valid('param');
      const lista = await ficherosDe(c.get('deps').db, distribuidora);
      return c.json(lista.map(ficheroApi), 200);
    })
    .openapi(descargar, async (c) => {
      const { distribuidora, fichero } = c.req.valid('param');
      const { db } = c.get('deps');
      const f = await ficheroPorNombre(db, distribuidora, fichero);
      if (!f) throw notFound('La distribuidora no tiene ese fichero. Consulte la lista de ficheros disponibles.');
      await auditarSips(c, db, distribuidora, {
        action: 'sips.descarga',
        targetType: 'sips_fichero',
        targetId: f.nombre,
        details: { fichero: f.nombre, filas: f.filas, sha256: f.sha256 },
      });
      const body = flujoDeTrozos(trozosDe(db, f.id));
      return c.body(body, 200, {
        'Content-Type': 'application/gzip',
        'Content-Length': String(f.bytesGzip ?? 0),
        'Content-Disposition': `attachment; filename="${f.nombre}.gz"`,
        // Already compressed: the response compression must leave it alone.
        'Cache-Control': 'private, no-store',
        'X-Content-SHA256': f.sha256 ?? '',
      }) as never;
    })
    .openapi(consultar, async (c) => {
      const { distribuidora } = c.req.valid('param');
      const { cups, formato, tipo } = c.req.valid('json');
      const { db, clock } = c.get('deps');
      const csv = /\btext\/csv\b/.test(c.req.header('accept') ?? '');
      const r = await consultarSips(db, distribuidora, cups, { version: formato, tipo, forma: csv ? 'csv' : 'json' }, clock.now());
      await auditarSips(c, db, distribuidora, {
        action: 'sips.consulta',
        targetType: 'sips_consulta',
        details: { formato, tipo, cups: r.cups, rechazados: r.rechazados.length },
      });
      if (csv) {
        const nombre = `consulta_SIPS${formato === 'v2' ? '2' : '2026'}_${tipo}_${distribuidora}.csv`;
        return c.body(cabeceraSips(tipo, formato) + r.lineas.join(''), 200, {
          'Content-Type': 'text/csv; charset=utf-8',
          'Content-Disposition': `attachment; filename="${nombre}"`,
          'Cache-Control': 'private, no-store',
        }) as never;
      }
      // The rows come from the database as JSON arrays already: the answer is put together as text.
      const cabecera = JSON.stringify({ formato, tipo, columnas: columnasSips(tipo, formato).map((x) => x.nombre) });
      return respuestaJson(
        c,
        `${cabecera.slice(0, -1)},"filas":[${r.lineas.join(',')}],"rechazados":${JSON.stringify(r.rechazados)}}`,
      ) as never;
    });
}
