/**
 * GET /api/capacidadNodal/{id} (the latest published capacity of a distributor's nodes, JSON) and
 * GET /api/capacidadNodal/{id}/csv (the same as a spreadsheet download). Both public (CONTRACT.md):
 * the figures are published by law (RD 1183/2020 art. 5, Circular 1/2021 art. 12).
 */
import { createRoute, z } from '@hono/zod-openapi';
import { CSV_BOM, csvLine } from '../../lib/csv.ts';
import { DISTRIBUIDORAS, type Distribuidora } from '../../lib/distribuidoras.ts';
import type { Context } from 'hono';
import type { AppEnv } from '../http/context.ts';
import { notFound } from '../http/errors.ts';
import { errorResponse, featureApp } from '../http/openapi.ts';
import { COLUMNAS_CAPACIDAD, type NudoCapacidad } from './csv.ts';
import { distribuidoraQuePublica, listCapacidad } from './service.ts';

const NudoCapacidadSchema = z
  .object({
    /** Autonomous community. */
    comunidadAutonoma: z.string().openapi({ example: 'Comunidad de Madrid' }),
    /** Province name. */
    provincia: z.string().openapi({ example: 'Madrid' }),
    /** Municipality where the substation is. */
    municipio: z.string().openapi({ example: 'Getafe' }),
    /** Substation name. */
    subestacion: z.string().openapi({ example: 'Getafe Norte' }),
    /** Identifier of the connection point (busbar), unique within the publication. */
    nudo: z.string().openapi({ example: 'EPD-S012-66' }),
    /** Voltage level in kV (always above 1 kV). */
    tensionKv: z.number().openapi({ example: 66 }),
    /** Latitude, ETRS89 decimal degrees. */
    latitud: z.number().openapi({ example: 40.3052 }),
    /** Longitude, ETRS89 decimal degrees. */
    longitud: z.number().openapi({ example: -3.6712 }),
    /** Available capacity in MW: the most extra power the node admits without reinforcements. */
    disponibleMw: z.number().nonnegative().openapi({ example: 0 }),
    /** Occupied capacity in MW: generators connected or with access granted at this node. */
    ocupadaMw: z.number().nonnegative().openapi({ example: 48.2 }),
    /** Capacity admitted and not yet resolved, in MW: requests under study at this node. */
    admitidaNoResueltaMw: z.number().nonnegative().openapi({ example: 6.5 }),
    /** Transmission grid node most affected (Nudo de afección mayoritaria en la Red de Transporte). */
    nudoAfeccionRdt: z.string().nullable().openapi({ example: 'Villaverde 220' }),
    /** Distributor's comment on the node. */
    comentario: z.string().nullable().openapi({ example: 'Sin capacidad por criterio de seguridad N-1.' }),
  })
  .openapi('NudoCapacidad');

const CapacidadNodalSchema = z
  .object({
    /** Distributor code. */
    distribuidora: z.enum(['epd', 'eod']).openapi({ example: 'epd' }),
    /** Distributor's legal name. */
    nombre: z.string().openapi({ example: 'Electra Peninsular Distribución, S.L.' }),
    /** Month of the publication, YYYY-MM (the figures are updated monthly). */
    publicacion: z.string().regex(/^\d{4}-\d{2}$/).openapi({ example: '2026-11' }),
    /** Kind of capacity: access for generation (Circular 1/2021). */
    tipo: z.literal('generacion').openapi({ example: 'generacion' }),
    /** The nodes, by province, municipality, substation and voltage. */
    nudos: z.array(NudoCapacidadSchema),
  })
  .openapi('CapacidadNodal');

/** The body of GET /api/capacidadNodal/{id}, as the page's island reads it. */
export type CapacidadNodalRespuesta = z.infer<typeof CapacidadNodalSchema>;
/** One node of that body. */
export type NudoCapacidadRespuesta = z.infer<typeof NudoCapacidadSchema>;

const IdParams = z.object({
  /** Distributor code: epd or eod (ecd publishes none). */
  id: z.string().openapi({ param: { name: 'id', in: 'path' }, example: 'epd' }),
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

/** Public figures that change monthly: browsers and CDNs may keep them five minutes. */
const CACHE_PUBLICO = 'public, max-age=300';

/** The distributor of the path, or the 404 that explains why there is nothing. */
function distribuidoraDe(id: string): Distribuidora {
  const d = distribuidoraQuePublica(id);
  if (d) return d;
  const conocida = DISTRIBUIDORAS.find((x) => x.codigo === id);
  const publican = DISTRIBUIDORAS.filter((x) => x.paginaCapacidadNodal).map((x) => `${x.nombre} (${x.codigo})`).join(' y ');
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

/** The nodal capacity sub-app. */
export function capacidadNodalRoutes() {
  return featureApp()
    .openapi(obtener, async (c) => {
      const d = distribuidoraDe(c.req.valid('param').id);
      const { publicacion, tipo, nudos } = await publicacionDe(c, d);
      c.header('Cache-Control', CACHE_PUBLICO);
      return c.json({ distribuidora: d.codigo as 'epd' | 'eod', nombre: d.nombre, publicacion, tipo, nudos }, 200);
    })
    .openapi(descargar, async (c) => {
      const d = distribuidoraDe(c.req.valid('param').id);
      const { publicacion, nudos } = await publicacionDe(c, d);
      const encoder = new TextEncoder();
      let next = 0;
      // Streamed a few hundred rows at a time, so a large publication never sits whole in memory as text.
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (next === 0) controller.enqueue(encoder.encode(CSV_BOM + csvLine(COLUMNAS_CAPACIDAD.map((col) => col.cabecera))));
          const end = Math.min(next + 500, nudos.length);
          let text = '';
          for (; next < end; next++) text += filaCsv(nudos[next]!);
          if (text) controller.enqueue(encoder.encode(text));
          if (next >= nudos.length) controller.close();
        },
      });
      return c.body(body, 200, {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="capacidad-nodal-${d.codigo}-${publicacion}.csv"`,
        'Cache-Control': CACHE_PUBLICO,
      });
    });
}
