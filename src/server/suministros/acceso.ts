/**
 * How every feature reaches the caller's supply points: who is reading (NIF and distributors of
 * their `-distribucion` permissions), the two acceptance checks — `suministroPropio` (the holder
 * only: every write) and `suministroLegible` (the holder, or an authorisation in force for that data
 * kind: the reads of contract, curves, maximum powers and certificates, docs/decisions/028) — with
 * the 404 any other CUPS gets, the `{cups}` path parameter that names one, and the API shape of a
 * supply point. Kept out of the routes so features import no other feature's routes.
 */
import type { Context } from 'hono';
import { z } from '@hono/zod-openapi';
import type { SuministroSchema } from '../../lib/suministros/respuestas.ts';
import type { DatoLeido } from '../../lib/autorizaciones.ts';
import {
  accesoAutorizado,
  accesosAutorizados,
  auditarLectura,
  type AccesoAutorizado,
  type LectorAutorizado,
} from '../autorizaciones/service.ts';
import { authOf } from '../auth/middleware.ts';
import { clientAddress } from '../http/cliente.ts';
import { nombreDistribuidora } from '../../lib/distribuidoras.ts';
import type { AuthEnv } from '../http/context.ts';
import { forbidden, notFound } from '../http/errors.ts';
import { lectorDeCuenta, suministroDe, type Lector, type Suministro } from './service.ts';

/** The caller as a reader of their own supply points: their NIF and the distributors of their own `-distribucion`. */
export function lectorDe<E extends AuthEnv>(c: Context<E>): Lector {
  return lectorDeCuenta(authOf(c));
}

const NO_ENCONTRADO = 'No encontramos ese suministro entre los suyos. Compruebe el CUPS.';

/**
 * A supply point the caller holds, or the 404 every other CUPS gets: what every route that writes
 * about a supply point (modifications, alerts, fault reports, readings) accepts. An authorisation
 * never opens these (docs/decisions/028).
 */
export async function suministroPropio<E extends AuthEnv>(c: Context<E>, cups: string): Promise<Suministro> {
  const s = await suministroDe(c.get('deps').db, lectorDe(c), cups);
  if (!s) {
    await rechazarSiSoloAutorizado(c, cups);
    throw notFound(NO_ENCONTRADO);
  }
  return s;
}

/** What an authorised reader is told when it tries to act on the holder's supply point. */
export const SOLO_LECTURA_AUTORIZADA =
  'Su autorización sobre este suministro solo le permite consultar sus datos. Las modificaciones del contrato, los avisos y las demás gestiones solo puede hacerlas la persona titular.';

/**
 * For a CUPS the caller does not hold: when an authorisation in force opens it to the caller, a
 * 403 that says why it cannot act on it, instead of the 404 that would suggest a mistyped CUPS. The
 * authorised party already knows the supply point exists, so naming it discloses nothing (decision
 * 028: authorisations read, never write).
 */
export async function rechazarSiSoloAutorizado<E extends AuthEnv>(c: Context<E>, cups: string): Promise<void> {
  const auth = authOf(c);
  if (auth.autorizadas?.length === 0) return;
  const { db, clock } = c.get('deps');
  if (await accesoAutorizado(db, auth.nif, cups, 'contrato', clock.now())) throw forbidden(SOLO_LECTURA_AUTORIZADA);
}

/** The holder-only check under its former name, for the routes that have not moved to `suministroPropio`. */
export const suministroDelLector = suministroPropio;

/**
 * A supply point whose `dato` the caller may read: one they hold, or one an authorisation in force
 * opens to their NIF for that data kind (docs/decisions/028). A read through an authorisation writes
 * one audit entry (who, which CUPS, which data). Anything else answers the same 404 as any CUPS.
 */
export async function suministroLegible<E extends AuthEnv>(c: Context<E>, cups: string, dato: DatoLeido): Promise<Suministro> {
  return (await lecturaLegible(c, cups, dato)).suministro;
}

/** `suministroLegible` with the authorisation that opened it (null for the holder's own). */
export async function lecturaLegible<E extends AuthEnv>(
  c: Context<E>,
  cups: string,
  dato: DatoLeido,
): Promise<{ suministro: Suministro; acceso: AccesoAutorizado | null }> {
  const { db, clock } = c.get('deps');
  const propio = await suministroDe(db, lectorDe(c), cups);
  if (propio) return { suministro: propio, acceso: null };
  const auth = authOf(c);
  const acceso = auth.autorizadas?.length === 0 ? undefined : await accesoAutorizado(db, auth.nif, cups, dato, clock.now());
  if (!acceso) throw notFound(NO_ENCONTRADO);
  await auditarLectura(db, lectorAutorizadoDe(c), acceso, dato);
  return { suministro: acceso.suministro, acceso };
}

/**
 * The supply points authorisations in force open to the caller today, with what each opens. When
 * the query `requireAuth` made for the account found no authorisation in force, none are asked for:
 * most accounts hold none, and this list is read on every visit to the supply points.
 */
export async function accesosDelLector<E extends AuthEnv>(c: Context<E>): Promise<AccesoAutorizado[]> {
  const { db, clock } = c.get('deps');
  const auth = authOf(c);
  return auth.autorizadas?.length === 0 ? [] : accesosAutorizados(db, auth.nif, clock.now());
}

/** What a supply point of the list says about the authorisation that opens it. */
export function autorizacionApi(acceso: AccesoAutorizado | null): z.infer<typeof SuministroSchema>['autorizacion'] {
  return acceso ? { titular: acceso.titularNombre, hasta: acceso.fin, datos: acceso.datos } : null;
}

/** The caller as a reader through authorisations, for the audit entry. */
export function lectorAutorizadoDe<E extends AuthEnv>(c: Context<E>): LectorAutorizado {
  const auth = authOf(c);
  return {
    userId: auth.userId,
    impersonatorUserId: auth.impersonatorUserId,
    ip: clientAddress(c),
    requestId: c.get('requestId') ?? null,
  };
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

/** The API shape of a supply point; `autorizacion` when the caller reads it through an authorisation. */
export function suministroApi(
  s: Suministro,
  autorizacion: z.infer<typeof SuministroSchema>['autorizacion'] = null,
): z.infer<typeof SuministroSchema> {
  return {
    autorizacion,
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
    suspendidoDesde: s.suspendidoDesde,
  };
}
