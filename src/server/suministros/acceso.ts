/**
 * How every feature reaches the caller's supply points: who is reading (NIF and distributors of
 * their `-distribucion` permissions), a supply point of theirs or the 404 any other CUPS gets, the
 * `{cups}` path parameter that names one, and the API shape of a supply point. Kept out of the routes
 * so features import no other feature's routes.
 */
import type { Context } from 'hono';
import { z } from '@hono/zod-openapi';
import type { SuministroSchema } from '../../lib/suministros/respuestas.ts';
import { authOf } from '../auth/middleware.ts';
import { nombreDistribuidora } from '../distribuidoras/service.ts';
import type { AuthEnv } from '../http/context.ts';
import { notFound } from '../http/errors.ts';
import { lectorDeCuenta, suministroDe, type Lector, type Suministro } from './service.ts';

/** The caller as a reader of supply points: their NIF and the distributors of their `-distribucion`. */
export function lectorDe<E extends AuthEnv>(c: Context<E>): Lector {
  return lectorDeCuenta(authOf(c));
}

/** A supply point of the caller's, or the 404 every other CUPS gets. */
export async function suministroDelLector<E extends AuthEnv>(c: Context<E>, cups: string): Promise<Suministro> {
  const s = await suministroDe(c.get('deps').db, lectorDe(c), cups);
  if (!s) throw notFound('No encontramos ese suministro entre los suyos. Compruebe el CUPS.');
  return s;
}

/** The `{cups}` path parameter of a route on one of the caller's supply points; `description` says what else answers 404. */
export function cupsParams(description: string) {
  return z.object({
    cups: z
      .string()
      .min(1)
      .max(30)
      .openapi({ param: { name: 'cups', in: 'path' }, example: 'ES9901000000000001QY', description }),
  });
}

const kw = (w: number) => Math.round(w) / 1000;

/** The API shape of a supply point. */
export function suministroApi(s: Suministro): z.infer<typeof SuministroSchema> {
  return {
    cups: s.cups,
    distribuidora: s.distribuidora,
    distribuidoraNombre: nombreDistribuidora(s.distribuidora),
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
