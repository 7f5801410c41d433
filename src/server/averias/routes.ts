/**
 * "No tengo luz" (docs/decisions/023-no-tengo-luz.md):
 *   POST /api/averias/consulta — public: a CUPS, and why it has no power or a fault report's reference;
 *   POST /api/averias/suministros/consulta — the same for one of the caller's supply points;
 *   GET /api/administrador/averias — the pending reports grouped by area, for `<d>-administrador`;
 *   POST /api/administrador/averias/confirmacion — an area's reports become a network incident;
 *   POST /api/administrador/averias/{id}/descarte — dismisses one report.
 * Queries are rate limited per address (LIMITES.consultaAveria, decision 004).
 */
import { createRoute, z } from '@hono/zod-openapi';
import { errorCups, MENSAJES_CUPS } from '../../lib/cups.ts';
import { CODIGOS_DISTRIBUIDORA } from '../../lib/distribuidoras.ts';
import { authOf, requireAdministracion, requireArea, requireAuth } from '../auth/middleware.ts';
import { addressKey, clientAddress } from '../http/cliente.ts';
import type { AppEnv } from '../http/context.ts';
import {
  baseAdministracion,
  errorResponse,
  featureApp,
  jsonBody,
  jsonResponse,
  respuestasAdministracion,
  uuidParams,
  validationResponse,
} from '../http/openapi.ts';
import { infoDe, soloJson } from '../http/peticion.ts';
import type { Context } from 'hono';
import { consumir, LIMITES } from '../rate-limit/service.ts';
import { lectorDe, suministroPropio } from '../suministros/acceso.ts';
import { suministrosDe } from '../suministros/service.ts';
import { colaAvisos, confirmarGrupo, consultarAveria, descartarAviso, MENSAJES_AVERIAS, misAvisos } from './service.ts';

const cupsCampo = z
  .string({ error: MENSAJES_CUPS.vacio })
  .superRefine((value, ctx) => {
    // The same rules and messages as the form (src/lib/cups.ts).
    const error = errorCups(value);
    if (error) ctx.addIssue({ code: 'custom', message: MENSAJES_CUPS[error] });
  })
  .openapi({
    example: 'ES9901000000000001QY',
    description: 'CUPS del punto de suministro, de 20 o 22 caracteres, como figura en la factura (se admiten espacios y guiones).',
  });

const ConsultaSchema = z
  .object({
    cups: cupsCampo,
    telefono: z
      .string()
      .trim()
      .regex(/^\+?\d{9,15}$/, 'El teléfono debe tener de 9 a 15 cifras, con prefijo si no es español.')
      .optional()
      .openapi({ example: '600000000', description: 'Teléfono de contacto, opcional: de 9 a 15 cifras; solo se usa para este aviso.' }),
    email: z
      .email('El correo electrónico no es válido.')
      .max(254, 'El correo electrónico no puede superar 254 caracteres.')
      .optional()
      .openapi({
        example: 'persona@correo.example',
        description: 'Correo electrónico de contacto, opcional; solo se usa para este aviso.',
      }),
    avisar: z.boolean().optional().openapi({
      description:
        'true: registrar el aviso aunque el contador explique la falta de luz (ya siguió los pasos y sigue sin luz). No lo registra si hay una incidencia de red en vigor o un corte.',
    }),
  })
  .openapi('ConsultaAveria');

const TelefonoSchema = z.object({
  texto: z.string().openapi({ example: '900 000 001', description: 'Teléfono tal como se lee.' }),
  e164: z.string().openapi({ example: '+34900000001', description: 'Teléfono en formato E.164, para enlaces tel:.' }),
});

const RespuestaSchema = z
  .object({
    resultado: z.enum(['incidencia', 'contador', 'aviso', 'desconocido']).openapi({
      description:
        'incidencia: una interrupción de la red en vigor lo explica; contador: el estado del contador lo explica; aviso: se ha registrado un aviso de avería; desconocido: el CUPS no es de un punto de suministro de nuestras distribuidoras.',
    }),
    distribuidora: z
      .object({
        codigo: z.enum(CODIGOS_DISTRIBUIDORA).openapi({ description: 'Código de la distribuidora: epd, eod o ecd.' }),
        nombre: z.string().openapi({ description: 'Razón social de la distribuidora.' }),
        telefonoAverias: TelefonoSchema.openapi({ description: 'Teléfono de averías de la distribuidora, gratuito, 24 horas.' }),
      })
      .nullable()
      .openapi({ description: 'Distribuidora del punto de suministro; null si es desconocido.' }),
    municipio: z
      .string()
      .nullable()
      .openapi({ description: 'Municipio del punto de suministro (nunca la dirección); null si es desconocido.' }),
    incidencia: z
      .object({
        id: z.uuid().openapi({ description: 'Identificador de la incidencia, el de GET /api/incidenciasRed.' }),
        estadoIncidenciaRed: z.enum(['Programada', 'En curso', 'Activa']).openapi({ description: 'Programada, En curso o Activa.' }),
        descripcion: z.string().openapi({ description: 'Qué ocurre, tal como se publica.' }),
        municipio: z.string().openapi({ description: 'Municipio de la incidencia.' }),
        inicio: z.iso.datetime().openapi({ description: 'Inicio, instante UTC ISO 8601.' }),
        finPrevisto: z.iso.datetime().nullable().openapi({ description: 'Fin previsto, instante UTC ISO 8601; null si aún no se conoce.' }),
        afecta: z.enum(['suministro', 'zona']).openapi({
          description: 'suministro: la incidencia incluye este punto; zona: ocurre en su código postal o su municipio.',
        }),
      })
      .nullable()
      .openapi({ description: 'La interrupción que lo explica, con resultado incidencia; null en otro caso.' }),
    situacionContador: z.enum(['cortado', 'icp', 'abierto_remoto', 'sin_suministro']).nullable().openapi({
      description:
        'Con resultado contador: cortado (corte a petición de la comercializadora o de la administración), icp (ha saltado el interruptor de control de potencia), abierto_remoto (abierto a distancia por la distribuidora) o sin_suministro (avería ya conocida); null en otro caso. Nunca se indica el motivo.',
    }),
    aviso: z
      .object({
        referencia: z.string().openapi({ example: 'AV-2026-000123', description: 'Referencia del aviso: AV-año-número.' }),
        nuevo: z.boolean().openapi({ description: 'false si ya había un aviso pendiente de este punto: se responde su referencia.' }),
      })
      .nullable()
      .openapi({ description: 'El aviso registrado, con resultado aviso; null en otro caso.' }),
    proximas: z
      .array(
        z.object({
          inicio: z.iso.datetime().openapi({ description: 'Inicio previsto, instante UTC ISO 8601.' }),
          finPrevisto: z.iso.datetime().nullable().openapi({ description: 'Fin previsto, instante UTC ISO 8601; null si no se conoce.' }),
          descripcion: z.string().openapi({ description: 'Los trabajos, tal como se publican.' }),
        }),
      )
      .openapi({ description: 'Trabajos programados en su zona que aún no han empezado (información); lista vacía si no hay.' }),
  })
  .openapi('RespuestaAveria');

/** The answer with every field present, so every case has the same shape. */
function completa(r: Awaited<ReturnType<typeof consultarAveria>>): z.infer<typeof RespuestaSchema> {
  if (r.resultado === 'desconocido') {
    return {
      resultado: 'desconocido',
      distribuidora: null,
      municipio: null,
      incidencia: null,
      situacionContador: null,
      aviso: null,
      proximas: [],
    };
  }
  return r;
}

const respuestas = {
  200: jsonResponse(RespuestaSchema, 'Por qué no tiene luz, o la referencia del aviso registrado'),
  400: validationResponse('CUPS ausente, mal formado o con letras de control erróneas, o contacto no válido'),
  413: errorResponse('Cuerpo de la petición demasiado grande'),
  415: errorResponse('El cuerpo no es JSON'),
  429: errorResponse('Demasiadas consultas desde esta dirección: espere y vuelva a intentarlo'),
};

const consultaPublica = createRoute({
  method: 'post',
  path: '/averias/consulta',
  tags: ['Público'],
  summary: 'No tengo luz: consulta por CUPS',
  description:
    'Pública. Dice si una interrupción de la red en vigor o el estado del contador explican la falta de luz y, si no, registra un aviso de avería y responde su referencia y el teléfono de averías. Nunca responde el titular ni la dirección. Limitada por dirección IP.',
  middleware: [soloJson] as const,
  request: jsonBody(ConsultaSchema),
  responses: respuestas,
});

const consultaPropia = createRoute({
  method: 'post',
  path: '/averias/suministros/consulta',
  tags: ['Consumidores'],
  summary: 'No tengo luz: consulta de uno de mis suministros',
  description:
    'Como POST /api/averias/consulta para un suministro del titular; el aviso queda a nombre de su cuenta. Otro CUPS responde 404.',
  security: [{ Bearer: [] }],
  middleware: [soloJson, requireAuth(), requireArea('distribucion')] as const,
  request: jsonBody(ConsultaSchema),
  responses: {
    ...respuestas,
    401: errorResponse('Sin sesión'),
    403: errorResponse('Sin permiso «-distribucion»'),
    404: errorResponse('El CUPS no es de un suministro del titular'),
  },
});

const MiAvisoSchema = z
  .object({
    referencia: z.string().openapi({ example: 'AV-2026-000123', description: 'Referencia del aviso: AV-año-número.' }),
    cups: z.string().openapi({ example: 'ES0031000000000001BJ', description: 'CUPS del punto de suministro, 20 caracteres.' }),
    distribuidora: z.enum(CODIGOS_DISTRIBUIDORA).openapi({ description: 'Código de la distribuidora: epd, eod o ecd.' }),
    municipio: z.string().openapi({ description: 'Municipio del punto de suministro.' }),
    creado: z.iso.datetime().openapi({ description: 'Momento del aviso, instante UTC ISO 8601.' }),
    estado: z.enum(['pendiente', 'incidencia', 'descartada']).openapi({
      description:
        'pendiente: la distribuidora lo revisa; incidencia: confirmado como avería de la red (se publica como interrupción); descartada: revisado sin avería en la red.',
    }),
    resuelto: z.iso
      .datetime()
      .nullable()
      .openapi({ description: 'Momento en que se confirmó o descartó, instante UTC ISO 8601; null si está pendiente.' }),
  })
  .openapi('MiAvisoAveria');

const misAvisosRuta = createRoute({
  method: 'get',
  path: '/averias/avisos',
  tags: ['Consumidores'],
  summary: 'Mis avisos de avería',
  description:
    'Los avisos de avería de los suministros del titular (también los registrados en la página pública sin sesión) y los que registró con su cuenta, el más reciente primero; como mucho 200. Nunca los datos de contacto.',
  security: [{ Bearer: [] }],
  middleware: [requireAuth(), requireArea('distribucion')] as const,
  responses: {
    200: jsonResponse(z.array(MiAvisoSchema), 'Avisos de avería de la cuenta'),
    401: errorResponse('Sin sesión'),
    403: errorResponse('Sin permiso «-distribucion»'),
  },
});

const AvisoSchema = z.object({
  id: z.uuid().openapi({ description: 'Identificador (uuid) del aviso.' }),
  referencia: z.string().openapi({ example: 'AV-2026-000123', description: 'Referencia del aviso.' }),
  cups: z.string().openapi({ description: 'CUPS del punto de suministro, 20 caracteres.' }),
  creado: z.iso.datetime().openapi({ description: 'Momento del aviso, instante UTC ISO 8601.' }),
  telefono: z.string().nullable().openapi({ description: 'Teléfono de contacto que dejó, o null.' }),
  email: z.string().nullable().openapi({ description: 'Correo de contacto que dejó, o null.' }),
  origen: z.enum(['publico', 'area_privada']).openapi({ description: 'publico (página pública) o area_privada (titular con sesión).' }),
});

const GrupoSchema = z
  .object({
    clave: z
      .string()
      .openapi({ example: 'epd|28801|28005', description: 'Zona: distribuidora|código postal|código INE; la confirmación la nombra.' }),
    distribuidora: z.enum(CODIGOS_DISTRIBUIDORA).openapi({ description: 'Código de la distribuidora: epd, eod o ecd.' }),
    codigoPostal: z.string().openapi({ description: 'Código postal de la zona.' }),
    municipio: z.string().openapi({ description: 'Municipio de la zona.' }),
    codigoIne: z.string().openapi({ description: 'Código INE del municipio.' }),
    provincia: z.string().openapi({ description: 'Provincia del municipio.' }),
    total: z.number().int().openapi({ description: 'Avisos pendientes de la zona.' }),
    ultimo: z.iso.datetime().openapi({ description: 'Momento del aviso más reciente, instante UTC ISO 8601.' }),
    avisos: z.array(AvisoSchema).openapi({ description: 'Los avisos pendientes de la zona, el más reciente primero.' }),
  })
  .openapi('GrupoAvisosAveria');

const base = baseAdministracion;
const comunes = respuestasAdministracion('permiso de administración');

const cola = createRoute({
  ...base,
  method: 'get',
  path: '/administrador/averias',
  summary: 'Avisos de avería pendientes, por zona',
  description:
    'Los avisos pendientes de las distribuidoras que administra el usuario, agrupados por zona (código postal y municipio), con su número; primero la zona con el aviso más reciente.',
  middleware: [requireAuth(), requireAdministracion()] as const,
  request: {
    query: z.object({
      distribuidora: z.enum(CODIGOS_DISTRIBUIDORA, { error: 'La distribuidora debe ser epd, eod o ecd.' }).optional().openapi({
        description: 'Solo los de esta distribuidora (epd, eod o ecd); sin ella, los de todas las que administra.',
      }),
    }),
  },
  responses: {
    200: jsonResponse(z.array(GrupoSchema), 'Zonas con avisos pendientes'),
    400: validationResponse('Filtro no válido'),
    ...comunes,
  },
});

const confirmar = createRoute({
  ...base,
  method: 'post',
  path: '/administrador/averias/confirmacion',
  summary: 'Confirmar una zona como incidencia de red',
  description:
    'Crea una incidencia Activa de la zona (se publica en GET /api/incidenciasRed y en el aviso de la portada) con los CUPS de sus avisos, y los marca como confirmados. Una zona de otra distribuidora, o sin avisos pendientes, responde 404.',
  middleware: [soloJson, requireAuth(), requireAdministracion()] as const,
  request: jsonBody(
    z.object({
      clave: z
        .string({ error: 'Indique la zona.' })
        .max(40, 'La zona no es válida.')
        .openapi({ example: 'epd|28801|28005', description: 'La clave de la zona, tal como la da GET /api/administrador/averias.' }),
      descripcion: z
        .string()
        .trim()
        .max(500, 'La descripción no puede superar 500 caracteres.')
        .optional()
        .openapi({ description: 'Qué ocurre, para el público; sin ella, un texto con el municipio y el número de avisos.' }),
      finPrevisto: z.iso
        .datetime({ offset: true, error: 'El fin previsto debe ser una fecha y hora ISO 8601.' })
        .optional()
        .openapi({ description: 'Fin previsto, instante ISO 8601; sin él, desconocido.' }),
    }),
  ),
  responses: {
    201: jsonResponse(
      z.object({
        incidenciaId: z.uuid().openapi({ description: 'Identificador de la incidencia creada.' }),
        avisos: z.number().int().openapi({ description: 'Avisos confirmados.' }),
      }),
      'Incidencia creada',
    ),
    400: validationResponse('Datos no válidos'),
    ...comunes,
    404: errorResponse(MENSAJES_AVERIAS.grupoNoExiste),
  },
});

const descartar = createRoute({
  ...base,
  method: 'post',
  path: '/administrador/averias/{id}/descarte',
  summary: 'Descartar un aviso de avería',
  description:
    'El aviso deja la cola (por ejemplo, la avería estaba en la instalación interior). Uno de otra distribuidora o ya resuelto: 404.',
  middleware: [requireAuth(), requireAdministracion()] as const,
  request: { params: uuidParams('Identificador (uuid) del aviso; uno de otra distribuidora, o que no existe, responde 404.') },
  responses: { 204: { description: 'Aviso descartado' }, ...comunes, 404: errorResponse(MENSAJES_AVERIAS.avisoNoExiste) },
});

/** Counts the query against the address's limit (429 over it). */
async function limitar<E extends AppEnv>(c: Context<E>): Promise<void> {
  await consumir(c.get('deps'), [{ limite: LIMITES.consultaAveria, sujeto: addressKey(clientAddress(c)) }]);
}

/** The "No tengo luz" sub-app. */
export function averiasRoutes() {
  return featureApp()
    .openapi(consultaPublica, async (c) => {
      await limitar(c);
      const { cups, ...opciones } = c.req.valid('json');
      const { db, clock } = c.get('deps');
      return c.json(completa(await consultarAveria(db, clock.now(), cups, opciones, { origen: 'publico', userId: null })), 200);
    })
    .openapi(consultaPropia, async (c) => {
      await limitar(c);
      const { cups, ...opciones } = c.req.valid('json');
      const s = await suministroPropio(c, cups);
      const { db, clock } = c.get('deps');
      const r = await consultarAveria(db, clock.now(), cups, opciones, { origen: 'area_privada', userId: authOf(c).userId }, s);
      return c.json(completa(r), 200);
    })
    .openapi(misAvisosRuta, async (c) => {
      const db = c.get('deps').db;
      return c.json(await misAvisos(db, authOf(c).userId, await suministrosDe(db, lectorDe(c))), 200);
    })
    .openapi(cola, async (c) => {
      return c.json((await colaAvisos(c.get('deps').db, authOf(c), c.req.valid('query').distribuidora)) as never, 200);
    })
    .openapi(confirmar, async (c) => {
      const { db, clock } = c.get('deps');
      const { clave, ...datos } = c.req.valid('json');
      const r = await confirmarGrupo(db, clock, infoDe(c), authOf(c), clave, datos, c.get('deps').config);
      return c.json({ incidenciaId: r.incidencia.id, avisos: r.avisos }, 201);
    })
    .openapi(descartar, async (c) => {
      const { db, clock } = c.get('deps');
      await descartarAviso(db, clock, infoDe(c), authOf(c), c.req.valid('param').id);
      return c.body(null, 204);
    });
}
