/**
 * GET /api/suministros (the caller's supply points) and GET /api/suministros/{cups} (one of them,
 * with its whole contract information). Only for `-distribucion` holders, and only their own supply
 * points: anyone else's CUPS answers 404, never the data (CONTRACT.md).
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { sql } from 'drizzle-orm';
import { DISTRIBUIDORAS } from '../../lib/distribuidoras.ts';
import { authOf, requireArea, requireAuth } from '../auth/middleware.ts';
import { queryRows } from '../db/client.ts';
import type { AuthEnv } from '../http/context.ts';
import { notFound } from '../http/errors.ts';
import { errorResponse, featureApp } from '../http/openapi.ts';
import { lectorDeCuenta, suministroDe, suministrosDe, type Lector, type Suministro } from './service.ts';

const SuministroSchema = z
  .object({
    /** CUPS, 20 or 22 characters. */
    cups: z.string().openapi({ example: 'ES9901000000000001QY' }),
    /** Distributor code and legal name. */
    distribuidora: z.string().openapi({ example: 'epd' }),
    distribuidoraNombre: z.string(),
    /** Holder as the contract states it. */
    titular: z.object({ nif: z.string(), nombre: z.string() }),
    /** Address of the supply. */
    direccion: z.string(),
    codigoPostal: z.string(),
    municipio: z.string(),
    codigoIne: z.string(),
    provincia: z.string(),
    /** Access tariff (2.0TD, 3.0TD, 6.1TD…). */
    tarifa: z.string().openapi({ example: '2.0TD' }),
    /** Contracted power per period, kW, P1 first. */
    potenciasKw: z.array(z.number()).openapi({ example: [4.6, 4.6] }),
    /** Highest power the installation admits (BIE/APM), kW. */
    potenciaMaximaKw: z.number(),
    /** Supply voltage, V. */
    tensionV: z.number(),
    contador: z.object({
      inteligente: z.boolean(),
      telegestionado: z.boolean(),
      /** distribuidora, cliente, comercializadora or otros (tabla 32). */
      propiedad: z.string(),
      numero: z.string(),
      /** monofasico or trifasico. */
      fases: z.string(),
      /** Measure interval the meter provides, minutes: 60 or 15. */
      resolucionMinutos: z.number(),
    }),
    /** icp, maximetro, telegestion or sin_control. */
    modoControlPotencia: z.string(),
    /** ninguno, sin_excedentes, con_excedentes_compensacion or con_excedentes_sin_compensacion. */
    autoconsumo: z.string(),
    comercializadora: z.object({ codigo: z.string(), nombre: z.string() }),
    /** mensual or bimestral. */
    periodicidadFacturacion: z.string(),
    /** Contract start and end (null while in force), YYYY-MM-DD. */
    fechaAlta: z.string(),
    fechaBaja: z.string().nullable(),
  })
  .openapi('Suministro');

const DetalleSchema = SuministroSchema.extend({
  /** First and last hour with measures (UTC instants), or null when none has arrived yet. */
  medidas: z.object({ desde: z.string(), hasta: z.string(), horas: z.number() }).nullable(),
}).openapi('SuministroDetalle');

/** The body of GET /api/suministros/{cups}. */
export type SuministroRespuesta = z.infer<typeof DetalleSchema>;

const listar = createRoute({
  method: 'get',
  path: '/suministros',
  tags: ['Consumidores'],
  summary: 'Los suministros del usuario',
  description:
    'Los puntos de suministro cuyo titular es el NIF de la cuenta, en las distribuidoras de sus permisos «-distribucion».',
  security: [{ Bearer: [] }],
  responses: {
    200: { description: 'Suministros, por distribuidora y CUPS', content: { 'application/json': { schema: z.array(SuministroSchema) } } },
    401: errorResponse('Sin sesión'),
    403: errorResponse('Sin permiso «-distribucion»'),
  },
});

const CupsParams = z.object({
  cups: z.string().min(1).max(30).openapi({ param: { name: 'cups', in: 'path' }, example: 'ES9901000000000001QY' }),
});

const detalle = createRoute({
  method: 'get',
  path: '/suministros/{cups}',
  tags: ['Consumidores'],
  summary: 'Información del contrato de un suministro',
  security: [{ Bearer: [] }],
  request: { params: CupsParams },
  responses: {
    200: { description: 'El suministro', content: { 'application/json': { schema: DetalleSchema } } },
    401: errorResponse('Sin sesión'),
    403: errorResponse('Sin permiso «-distribucion»'),
    404: errorResponse('No es un suministro del usuario'),
  },
});

/** The caller as a reader of supply points: their NIF and the distributors of their `-distribucion`. */
export function lectorDe(c: Context<AuthEnv>): Lector {
  return lectorDeCuenta(authOf(c));
}

/** A supply point of the caller's, or the 404 every other CUPS gets. */
export async function suministroDelLector(c: Context<AuthEnv>, cups: string): Promise<Suministro> {
  const s = await suministroDe(c.get('deps').db, lectorDe(c), cups);
  if (!s) throw notFound('No encontramos ese suministro entre los suyos. Compruebe el CUPS.');
  return s;
}

const kw = (w: number) => Math.round(w) / 1000;

/** The API shape of a supply point. */
export function suministroApi(s: Suministro): z.infer<typeof SuministroSchema> {
  return {
    cups: s.cups,
    distribuidora: s.distribuidora,
    distribuidoraNombre: DISTRIBUIDORAS.find((d) => d.codigo === s.distribuidora)?.nombre ?? s.distribuidora,
    titular: { nif: s.titularNif, nombre: s.titularNombre },
    direccion: s.direccion,
    codigoPostal: s.codigoPostal,
    municipio: s.municipio,
    codigoIne: s.codigoIne,
    provincia: s.provincia,
    tarifa: s.tarifa,
    potenciasKw: s.potenciasW.map(kw),
    potenciaMaximaKw: kw(s.potenciaMaximaW),
    tensionV: s.tensionV,
    contador: {
      inteligente: s.contadorInteligente,
      telegestionado: s.telegestionado,
      propiedad: s.propiedadContador,
      numero: s.numeroContador,
      fases: s.fasesContador,
      resolucionMinutos: s.resolucionMinutos,
    },
    modoControlPotencia: s.modoControlPotencia,
    autoconsumo: s.autoconsumo,
    comercializadora: { codigo: s.comercializadoraCodigo, nombre: s.comercializadoraNombre },
    periodicidadFacturacion: s.periodicidadFacturacion,
    fechaAlta: s.fechaAlta,
    fechaBaja: s.fechaBaja,
  };
}

/** The supply points sub-app. */
export function suministrosRoutes() {
  const app = featureApp();
  app.use('/suministros', requireAuth(), requireArea('distribucion'));
  app.use('/suministros/*', requireAuth(), requireArea('distribucion'));
  return app
    .openapi(listar, async (c) => {
      const lista = await suministrosDe(c.get('deps').db, lectorDe(c as unknown as Context<AuthEnv>));
      return c.json(lista.map(suministroApi), 200);
    })
    .openapi(detalle, async (c) => {
      const s = await suministroDelLector(c as unknown as Context<AuthEnv>, c.req.valid('param').cups);
      const [rango] = await queryRows<{ desde: Date | string | null; hasta: Date | string | null; horas: number }>(
        c.get('deps').db,
        sql`select min(inicio) as desde, max(inicio) as hasta, count(*)::int as horas from medidas_horarias where suministro_id = ${s.id}`,
      );
      const iso = (v: Date | string) => new Date(v).toISOString();
      const medidas = rango?.desde && rango.hasta ? { desde: iso(rango.desde), hasta: iso(rango.hasta), horas: rango.horas } : null;
      return c.json({ ...suministroApi(s), medidas }, 200);
    });
}
