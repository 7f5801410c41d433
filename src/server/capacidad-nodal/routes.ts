/**
 * GET /api/capacidadNodal/{id} (the latest published generation capacity of a distributor's nodes,
 * JSON) and GET /api/capacidadNodal/{id}/csv (the same as a spreadsheet download); and their demand
 * counterparts GET /api/capacidadNodal/{id}/demanda and …/demanda/csv. All public (docs/api.md):
 * the figures are published by law (RD 1183/2020 art. 5, Circular 1/2021 art. 12 for generation;
 * Circular 1/2024 art. 16 and the CNMC resolution of 30-04-2025 on formats for demand).
 */
import { createRoute, z } from '@hono/zod-openapi';
import { CSV_BOM, csvLine } from '../../lib/csv.ts';
import { DISTRIBUIDORAS, type Distribuidora } from '../../lib/distribuidoras.ts';
import type { Context } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { respuestaPublica } from '../http/cache-publica.ts';
import { notFound } from '../http/errors.ts';
import { errorResponse, featureApp } from '../http/openapi.ts';
import { COLUMNAS_CAPACIDAD, type NudoCapacidad } from './csv.ts';
import { distribuidoraQuePublica, listCapacidad } from './service.ts';
import { CapacidadDemandaSchema, CapacidadNodalSchema } from '../../lib/capacidad-nodal/respuestas.ts';
import { listCapacidadDemanda } from './demanda.ts';
import { COLUMNAS_DEMANDA, type NudoDemanda } from './demanda-csv.ts';

const IdParams = z.object({
  /** Distributor code: epd or eod (ecd publishes none). */
  id: z.string().openapi({
    param: {
      name: 'id',
      in: 'path',
      description: 'Código de la distribuidora: epd o eod (ecd no publica capacidad en el portal y responde 404, como cualquier otro).',
    },
    example: 'epd',
  }),
});

const obtener = createRoute({
  method: 'get',
  path: '/capacidadNodal/{id}',
  tags: ['Público'],
  summary: 'Capacidad de acceso de los nudos de una distribuidora',
  description:
    'La última publicación mensual de capacidad de acceso para generación de la distribuidora (RD 1183/2020 art. 5, Circular 1/2021 art. 12): capacidad disponible, ocupada y admitida y no resuelta de cada nudo de más de 1 kV. Valores orientativos, no simultáneos ni sumables. Se puede guardar en caché 5 minutos.',
  request: { params: IdParams },
  responses: {
    200: { description: 'La publicación más reciente', content: { 'application/json': { schema: CapacidadNodalSchema } } },
    404: errorResponse('Distribuidora desconocida, que no publica capacidad (ecd) o sin ninguna publicación todavía'),
  },
});

const descargar = createRoute({
  method: 'get',
  path: '/capacidadNodal/{id}/csv',
  tags: ['Público'],
  summary: 'Capacidad de acceso de los nudos de una distribuidora, en CSV',
  description:
    'La misma publicación como fichero CSV para hojas de cálculo: separador «;», coma decimal, UTF-8 con BOM y cabeceras en español (las mismas que admite la importación). Las celdas de texto que empiezan por = + - @ llevan delante un apóstrofo para que ninguna hoja de cálculo las ejecute como fórmulas.',
  request: { params: IdParams },
  responses: {
    200: {
      description: 'Fichero capacidad-nodal-<id>-<AAAA-MM>.csv',
      content: { 'text/csv': { schema: z.string().openapi({ example: 'Comunidad Autónoma;Provincia;…' }) } },
    },
    404: errorResponse('Distribuidora desconocida, que no publica capacidad (ecd) o sin ninguna publicación todavía'),
  },
});

const obtenerDemanda = createRoute({
  method: 'get',
  path: '/capacidadNodal/{id}/demanda',
  tags: ['Público'],
  summary: 'Capacidad de acceso de demanda de los nudos de una distribuidora',
  description:
    'La publicación vigente de capacidad de acceso firme para demanda (consumo) de la distribuidora (Circular 1/2024 art. 16), con las columnas del formato armonizado de la Resolución de la CNMC de 30 de abril de 2025: capacidad firme disponible, ocupada y admitida y no evaluada, posiciones, marcas de nudo 0*, limitado por Scc y capacidad comprometida por cuestiones regulatorias. Coordenadas UTM ETRS89 tal como se publican y, además, en grados. Valores orientativos, no simultáneos ni sumables. Se puede guardar en caché 5 minutos.',
  request: { params: IdParams },
  responses: {
    200: { description: 'La publicación vigente', content: { 'application/json': { schema: CapacidadDemandaSchema } } },
    404: errorResponse('Distribuidora desconocida, que no publica capacidad (ecd) o sin publicación de demanda todavía'),
  },
});

const descargarDemanda = createRoute({
  method: 'get',
  path: '/capacidadNodal/{id}/demanda/csv',
  tags: ['Público'],
  summary: 'Capacidad de acceso de demanda de los nudos de una distribuidora, en CSV',
  description:
    'La misma publicación de demanda como fichero CSV con las columnas y los nombres del formato armonizado (los mismos que admite la importación): separador «;», coma decimal, marcas 1/0, UTF-8 con BOM. Las celdas de texto que empiezan por = + - @ llevan delante un apóstrofo para que ninguna hoja de cálculo las ejecute como fórmulas.',
  request: { params: IdParams },
  responses: {
    200: {
      description: 'Fichero capacidad-demanda-<id>-<AAAA-MM>.csv',
      content: { 'text/csv': { schema: z.string().openapi({ example: 'Gestor de Red;Provincia;Municipio;…' }) } },
    },
    404: errorResponse('Distribuidora desconocida, que no publica capacidad (ecd) o sin publicación de demanda todavía'),
  },
});

/** Public figures that change monthly: browsers and CDNs may keep them five minutes. */
const CACHE_PUBLICO = 'public, max-age=300';

/** The distributor of the path, or the 404 that explains why there is nothing. */
function distribuidoraDe(id: string): Distribuidora {
  const d = distribuidoraQuePublica(id);
  if (d) return d;
  const conocida = DISTRIBUIDORAS.find((x) => x.codigo === id);
  const publican = DISTRIBUIDORAS.filter((x) => x.paginaCapacidadNodal)
    .map((x) => `${x.nombre} (${x.codigo})`)
    .join(' y ');
  throw notFound(
    conocida
      ? `${conocida.nombre} no publica su capacidad de acceso en este portal. La publican ${publican}.`
      : `No existe la distribuidora «${id.slice(0, 40)}». Publican su capacidad de acceso ${publican}.`,
  );
}

/** Reads the latest publication or answers 404 when there is none yet. */
async function publicacionDe(c: Context<AppEnv>, d: Distribuidora) {
  const publicada = await listCapacidad(c.get('deps').db, d.codigo);
  if (!publicada) throw notFound(`${d.nombre} todavía no ha publicado su capacidad de acceso. Vuelva a consultarla más adelante.`);
  return publicada;
}

/** The row of the CSV for one node, in the order of COLUMNAS_CAPACIDAD. */
function filaCsv(n: NudoCapacidad): string {
  return csvLine(COLUMNAS_CAPACIDAD.map((c) => n[c.campo]));
}

/** The row of the demand CSV for one node, in the order of COLUMNAS_DEMANDA; flags as the format's 1/0. */
function filaCsvDemanda(n: NudoDemanda): string {
  return csvLine(
    COLUMNAS_DEMANDA.map((c) => {
      const value = n[c.campo];
      return typeof value === 'boolean' ? (value ? 1 : 0) : value;
    }),
  );
}

/** A CSV body streamed a few hundred rows at a time, so a large publication never sits whole in memory as text. */
function csvEnTrozos<T>(cabecera: readonly string[], filas: readonly T[], fila: (f: T) => string): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let next = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (next === 0) controller.enqueue(encoder.encode(CSV_BOM + csvLine(cabecera)));
      const end = Math.min(next + 500, filas.length);
      let text = '';
      for (; next < end; next++) text += fila(filas[next]!);
      if (text) controller.enqueue(encoder.encode(text));
      if (next >= filas.length) controller.close();
    },
  });
}

/** Reads the current demand publication or answers 404 when there is none yet. */
async function demandaDe(c: Context<AppEnv>, d: Distribuidora) {
  const publicada = await listCapacidadDemanda(c.get('deps').db, d.codigo);
  if (!publicada)
    throw notFound(`${d.nombre} todavía no ha publicado su capacidad de acceso de demanda. Vuelva a consultarla más adelante.`);
  return publicada;
}

/** The nodal capacity sub-app. */
export function capacidadNodalRoutes() {
  return featureApp()
    .openapi(obtener, async (c) => {
      const d = distribuidoraDe(c.req.valid('param').id);
      // The same for everyone: built once per publication (docs/decisions/027).
      const respuesta = respuestaPublica(
        c,
        c.get('deps').db,
        'capacidad',
        `generacion/${d.codigo}`,
        async () => {
          const { publicacion, tipo, nudos } = await publicacionDe(c, d);
          return { distribuidora: d.codigo as 'epd' | 'eod', nombre: d.nombre, publicacion, tipo, nudos };
        },
        CACHE_PUBLICO,
      );
      return respuesta as never;
    })
    .openapi(descargar, async (c) => {
      const d = distribuidoraDe(c.req.valid('param').id);
      const { publicacion, nudos } = await publicacionDe(c, d);
      const body = csvEnTrozos(
        COLUMNAS_CAPACIDAD.map((col) => col.cabecera),
        nudos,
        filaCsv,
      );
      return c.body(body, 200, {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="capacidad-nodal-${d.codigo}-${publicacion}.csv"`,
        'Cache-Control': CACHE_PUBLICO,
      });
    })
    .openapi(obtenerDemanda, async (c) => {
      const d = distribuidoraDe(c.req.valid('param').id);
      const respuesta = respuestaPublica(
        c,
        c.get('deps').db,
        'capacidad',
        `demanda/${d.codigo}`,
        async () => {
          const { publicacion, nudos } = await demandaDe(c, d);
          return { distribuidora: d.codigo as 'epd' | 'eod', nombre: d.nombre, publicacion, tipo: 'demanda' as const, nudos };
        },
        CACHE_PUBLICO,
      );
      return respuesta as never;
    })
    .openapi(descargarDemanda, async (c) => {
      const d = distribuidoraDe(c.req.valid('param').id);
      const { publicacion, nudos } = await demandaDe(c, d);
      const body = csvEnTrozos(
        COLUMNAS_DEMANDA.map((col) => col.cabecera),
        nudos,
        filaCsvDemanda,
      );
      return c.body(body, 200, {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="capacidad-demanda-${d.codigo}-${publicacion}.csv"`,
        'Cache-Control': CACHE_PUBLICO,
      });
    });
}
