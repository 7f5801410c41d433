/**
 * Authorisations to third parties (docs/decisions/028-autorizaciones.md), as Datadis gives them: a
 * holder lets a NIF read chosen data of chosen supply points until an end date at most two years
 * ahead, and may revoke it at any time. Giving one mails the holder (through the outbox, in the same
 * transaction) and every step is audited; so is every read through one (`auditarLectura`).
 */
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import {
  DATOS_AUTORIZACION,
  errorFin,
  errorNifAutorizado,
  estadoAutorizacion,
  NOMBRE_DATO,
  type AutorizacionDadaRespuesta,
  type AutorizacionRespuesta,
  type DatoAutorizacion,
  type DatoLeido,
} from '../../lib/autorizaciones.ts';
import { fechaSinDia } from '../../lib/formato/fechas.ts';
import { normalizarNif } from '../../lib/nif.ts';
import { audit } from '../auditoria/service.ts';
import { queryRows, type Db } from '../db/client.ts';
import { autorizaciones, autorizacionesSuministros, suministros, users } from '../db/schema.ts';
import type { Clock } from '../http/context.ts';
import { notFound, ValidationError } from '../http/errors.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { correoAutorizacionDada } from '../mail/plantillas.ts';
import type { Lector, Suministro } from '../suministros/service.ts';
import { hoyEnEspana, vigenteSql } from './vigencia.ts';

/** What the service needs from the app's dependencies. */
export interface DepsAutorizaciones {
  db: Db;
  clock: Clock;
  config: { publicUrl: string };
}

/** The holder giving or revoking: their account, reader scope, name and address for the mail. */
export interface Titular {
  userId: string;
  lector: Lector;
  nombre: string;
  email: string;
  impersonatorUserId: string | null;
  ip: string | null;
  requestId: string | null;
}

/** What the holder asks for (already shaped by CrearAutorizacionSchema). */
export interface EntradaAutorizacion {
  nif: string;
  nombre: string;
  cups: string[];
  datos: DatoAutorizacion[];
  fin: string;
}

/** A supply point read through an authorisation in force: the supply point and the authorisation that opens it. */
export interface AccesoAutorizado {
  suministro: Suministro;
  autorizacionId: string;
  titularNombre: string;
  /** Last day in force of the latest-ending authorisation that opens this data. */
  fin: string;
  /** Every data kind the authorisations in force open on this supply point. */
  datos: DatoAutorizacion[];
}

const direccionDe = (s: Pick<Suministro, 'direccion' | 'codigoPostal' | 'municipio'>) => `${s.direccion}, ${s.codigoPostal} ${s.municipio}`;

/**
 * Gives an authorisation: checks the NIF, the end date and that every CUPS is the holder's, then
 * stores, audits and mails the holder in one transaction (`correo: false` only for demo data, which
 * mails no one).
 */
export async function crearAutorizacion(
  deps: DepsAutorizaciones,
  titular: Titular,
  entrada: EntradaAutorizacion,
  opciones: { correo?: boolean } = {},
): Promise<AutorizacionDadaRespuesta> {
  const ahora = deps.clock.now();
  const hoy = hoyEnEspana(ahora);
  const errores = [errorNifAutorizado(entrada.nif, titular.lector.nif), errorFin(entrada.fin, hoy)].filter((e): e is string => e !== null);
  if (errores.length) throw new ValidationError(errores);
  const nif = normalizarNif(entrada.nif);
  const datos = [...new Set(entrada.datos)];
  const pedidos = [...new Set(entrada.cups.map((c) => c.trim().toUpperCase()))];
  const { nif: titularNif, distribuidoras } = titular.lector;
  const propios =
    titularNif && distribuidoras.length > 0
      ? await deps.db
          .select()
          .from(suministros)
          .where(
            and(
              inArray(suministros.cups, pedidos),
              eq(suministros.titularNif, titularNif),
              inArray(suministros.distribuidora, [...distribuidoras]),
            ),
          )
          .orderBy(suministros.cups)
      : [];
  const ajeno = pedidos.find((c) => !propios.some((s) => s.cups === c));
  // The same 404 as any route on someone else's CUPS: nothing tells whether it exists.
  if (ajeno !== undefined || !titularNif) throw notFound(`No encontramos el suministro ${ajeno ?? ''} entre los suyos. Compruebe el CUPS.`);

  const nombre = entrada.nombre.trim();
  const id = await deps.db.transaction(async (tx) => {
    const [fila] = await tx
      .insert(autorizaciones)
      .values({
        titularNif,
        titularNombre: titular.nombre,
        titularUserId: titular.userId,
        autorizadoNif: nif,
        autorizadoNombre: nombre,
        datos,
        inicio: hoy,
        fin: entrada.fin,
        creadaEn: ahora,
      })
      .returning({ id: autorizaciones.id });
    const autorizacionId = fila!.id;
    await tx.insert(autorizacionesSuministros).values(propios.map((s) => ({ autorizacionId, suministroId: s.id })));
    await audit(tx, {
      action: 'autorizacion.creada',
      actorUserId: titular.userId,
      impersonatorUserId: titular.impersonatorUserId,
      targetType: 'autorizacion',
      targetId: autorizacionId,
      ip: titular.ip,
      requestId: titular.requestId,
      details: { autorizadoNif: nif, cups: propios.map((s) => s.cups), datos, fin: entrada.fin },
      distribuidoras: propios.map((s) => s.distribuidora),
    });
    const correo = correoAutorizacionDada({
      nombre: titular.nombre,
      autorizado: `${nombre} (${nif})`,
      suministros: propios.map((s) => `${s.cups}, ${direccionDe(s)}`),
      datos: datos.map((d) => NOMBRE_DATO[d]),
      fin: fechaSinDia(entrada.fin),
      enlace: `${deps.config.publicUrl.replace(/\/$/, '')}/medidas/autorizaciones`,
    });
    if (opciones.correo !== false) await enqueueMail(tx, { to: titular.email, ...correo }, ahora);
    return autorizacionId;
  });
  const [creada] = await leer(deps.db, sql`a.id = ${id}`, hoy);
  // Told to the holder who just gave it, so an authorisation for a NIF nobody reads yet does not pass
  // unnoticed; giving one is limited and audited, so this is no free lookup of who has an account.
  const [conCuenta] = await deps.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.nif, nif), eq(users.estado, 'activo')))
    .limit(1);
  return { ...creada!, autorizadoConCuenta: conCuenta !== undefined };
}

/** Revokes one of the holder's authorisations at once; revoking one already revoked changes nothing. 404 for anyone else's. */
export async function revocarAutorizacion(deps: DepsAutorizaciones, titular: Titular, id: string): Promise<AutorizacionRespuesta> {
  const hoy = hoyEnEspana(deps.clock.now());
  const [actual] =
    UUID.test(id) && titular.lector.nif ? await leer(deps.db, sql`a.id = ${id} and a.titular_nif = ${titular.lector.nif}`, hoy) : [];
  if (!actual) throw notFound('No encontramos esa autorización entre las que ha dado.');
  if (actual.revocadaEn) return actual;
  await deps.db.transaction(async (tx) => {
    const hechas = await tx
      .update(autorizaciones)
      .set({ revocadaEn: deps.clock.now() })
      .where(and(eq(autorizaciones.id, id), isNull(autorizaciones.revocadaEn)))
      .returning({ id: autorizaciones.id });
    if (hechas.length === 0) return;
    await audit(tx, {
      action: 'autorizacion.revocada',
      actorUserId: titular.userId,
      impersonatorUserId: titular.impersonatorUserId,
      targetType: 'autorizacion',
      targetId: id,
      ip: titular.ip,
      requestId: titular.requestId,
      details: { autorizadoNif: actual.autorizado.nif, cups: actual.suministros.map((s) => s.cups) },
    });
  });
  const [revocada] = await leer(deps.db, sql`a.id = ${id}`, hoy);
  return revocada!;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The authorisations a holder NIF gave, newest first, in any state. */
export async function autorizacionesDadas(db: Db, nif: string | null, now: Date): Promise<AutorizacionRespuesta[]> {
  if (!nif) return [];
  return leer(db, sql`a.titular_nif = ${nif}`, hoyEnEspana(now));
}

/** The authorisations in force that others gave to a NIF, newest first. */
export async function autorizacionesRecibidas(db: Db, nif: string | null, now: Date): Promise<AutorizacionRespuesta[]> {
  if (!nif) return [];
  const hoy = hoyEnEspana(now);
  const vigentes = await leer(
    db,
    sql`a.autorizado_nif = ${nif} and a.revocada_en is null and a.inicio <= ${hoy}::date and a.fin >= ${hoy}::date`,
    hoy,
  );
  // Only the supply points the giver still holds: a change of holder ends the authorisation for that one.
  return vigentes.filter((a) => a.suministros.length > 0);
}

/** Reads authorisations matching `donde` with their supply points (those still held by the giver, unless revoked or expired). */
async function leer(db: Db, donde: ReturnType<typeof sql>, hoy: string): Promise<AutorizacionRespuesta[]> {
  const filas = await queryRows<{
    id: string;
    titular_nif: string;
    titular_nombre: string;
    autorizado_nif: string;
    autorizado_nombre: string;
    datos: DatoAutorizacion[];
    inicio: string | Date;
    fin: string | Date;
    creada_en: string | Date;
    revocada_en: string | Date | null;
    suministros: { cups: string; direccion: string; codigoPostal: string; municipio: string; deTitular: boolean }[] | string;
  }>(
    db,
    sql`select a.id, a.titular_nif, a.titular_nombre, a.autorizado_nif, a.autorizado_nombre, a.datos,
          a.inicio::text as inicio, a.fin::text as fin, a.creada_en, a.revocada_en,
          coalesce((select json_agg(json_build_object('cups', s.cups, 'direccion', s.direccion, 'codigoPostal', s.codigo_postal,
                      'municipio', s.municipio, 'deTitular', s.titular_nif = a.titular_nif) order by s.cups)
                    from autorizaciones_suministros x join suministros s on s.id = x.suministro_id
                    where x.autorizacion_id = a.id), '[]'::json) as suministros
        from autorizaciones a where ${donde}
        order by a.creada_en desc, a.id limit 500`,
  );
  return filas.map((f) => {
    const revocadaEn = f.revocada_en ? new Date(f.revocada_en).toISOString() : null;
    const fin = String(f.fin).slice(0, 10);
    const estado = estadoAutorizacion({ fin, revocadaEn }, hoy);
    const lista = typeof f.suministros === 'string' ? (JSON.parse(f.suministros) as Exclude<typeof f.suministros, string>) : f.suministros;
    return {
      id: f.id,
      titular: { nif: f.titular_nif, nombre: f.titular_nombre },
      autorizado: { nif: f.autorizado_nif, nombre: f.autorizado_nombre },
      // In force, a supply point another holder now holds is no longer open (vigenteSql); the history keeps every one.
      suministros: lista.filter((s) => estado !== 'vigente' || s.deTitular).map((s) => ({ cups: s.cups, direccion: direccionDe(s) })),
      datos: f.datos,
      inicio: String(f.inicio).slice(0, 10),
      fin,
      estado,
      creadaEn: new Date(f.creada_en).toISOString(),
      revocadaEn,
    };
  });
}

/**
 * The supply points a NIF may read today through authorisations in force, with what each opens
 * (the union of the data kinds, the latest end date), ordered like the holder's own list.
 */
export async function accesosAutorizados(db: Db, nif: string | null, now: Date, cups?: string): Promise<AccesoAutorizado[]> {
  if (!nif) return [];
  const hoy = hoyEnEspana(now);
  const filas = await queryRows<{
    suministro_id: number;
    autorizacion_id: string;
    titular_nombre: string;
    fin: string | Date;
    datos: DatoAutorizacion[];
  }>(
    db,
    sql`select s.id as suministro_id, a.id as autorizacion_id, a.titular_nombre, a.fin::text as fin, a.datos
        from autorizaciones a
        join autorizaciones_suministros x on x.autorizacion_id = a.id
        join suministros s on s.id = x.suministro_id
        where a.autorizado_nif = ${nif} and ${vigenteSql(hoy)} ${cups ? sql`and s.cups = ${cups.trim().toUpperCase()}` : sql``}
        order by a.fin desc, a.creada_en desc`,
  );
  if (filas.length === 0) return [];
  const puntos = await db
    .select()
    .from(suministros)
    .where(
      inArray(
        suministros.id,
        filas.map((f) => f.suministro_id),
      ),
    )
    .orderBy(suministros.distribuidora, suministros.cups);
  return puntos.map((s) => {
    const suyas = filas.filter((f) => f.suministro_id === s.id);
    // Rows come latest-ending first: the first names the authorisation that lasts longest.
    const primera = suyas[0]!;
    return {
      suministro: s,
      autorizacionId: primera.autorizacion_id,
      titularNombre: primera.titular_nombre,
      fin: String(primera.fin).slice(0, 10),
      datos: [...new Set(suyas.flatMap((f) => f.datos))],
    };
  });
}

/**
 * The data kinds the authorisations in force received by `nif` grant together today, in the order
 * of `DATOS_AUTORIZACION`: what the consumer area of an account opened only by authorisations offers.
 */
export async function datosDeAutorizaciones(db: Db, nif: string | null, now: Date): Promise<DatoAutorizacion[]> {
  if (!nif) return [];
  const filas = await queryRows<{ dato: string }>(
    db,
    sql`select distinct unnest(a.datos) as dato
        from autorizaciones a
        join autorizaciones_suministros x on x.autorizacion_id = a.id
        join suministros s on s.id = x.suministro_id
        where a.autorizado_nif = ${nif} and ${vigenteSql(hoyEnEspana(now))}`,
  );
  const datos = new Set(filas.map((f) => f.dato));
  return DATOS_AUTORIZACION.filter((d) => datos.has(d));
}

/**
 * The authorisation in force that lets `nif` read `dato` of `cups` today; undefined otherwise (the
 * caller answers 404). The contract data comes with every authorisation in force.
 */
export async function accesoAutorizado(
  db: Db,
  nif: string | null,
  cups: string,
  dato: DatoLeido,
  now: Date,
): Promise<AccesoAutorizado | undefined> {
  const [acceso] = await accesosAutorizados(db, nif, now, cups);
  if (!acceso || (dato !== 'contrato' && !acceso.datos.includes(dato))) return undefined;
  return acceso;
}

/** Who reads through an authorisation, for the audit entry. */
export interface LectorAutorizado {
  userId: string;
  impersonatorUserId: string | null;
  ip: string | null;
  requestId: string | null;
}

/** One audit entry per read of a supply point's data through an authorisation: who, which CUPS, which data, which authorisation. */
export async function auditarLectura(db: Db, quien: LectorAutorizado, acceso: AccesoAutorizado, dato: DatoLeido): Promise<void> {
  await audit(db, {
    action: 'autorizacion.lectura',
    actorUserId: quien.userId,
    impersonatorUserId: quien.impersonatorUserId,
    targetType: 'autorizacion',
    targetId: acceso.autorizacionId,
    ip: quien.ip,
    requestId: quien.requestId,
    details: { cups: acceso.suministro.cups, dato, titularNif: acceso.suministro.titularNif },
    distribuidoras: [acceso.suministro.distribuidora],
  });
}
