/**
 * The web form of a supply company's ATR requests (docs/decisions/020): the portal writes the same
 * step 01 XML a company's own system would drop by SFTP (solicitudes.ts), checks it as the ATR
 * reader will (parsed by `leerMensaje`, validated against the CNMC's XSD, and the reader's own table
 * 27 reasons, `motivosDe`), and only then leaves it in the company's `/<d>/entrada` as the company's
 * file, where the reader answers it like any other. A request the distributor would refuse is not
 * written: the company gets the reasons at once. The anulación of a request still open is written
 * the same way (C1/C2 step 08, A3/M1 step 06, B1 step 03).
 */
import { createHash, randomInt } from 'node:crypto';
import { and, eq, like, sql } from 'drizzle-orm';
import {
  cambiaTitular,
  erroresSolicitudAtr,
  titularEsEmpresa,
  type MotivoFormularioAtr,
  type SolicitudAtrEntrada,
  type SolicitudAtrEnviada,
} from '../../lib/atr/formulario.ts';
import { MOTIVOS_ATR, PROCESO, PROCESOS_ATR, type ProcesoAtr } from '../../lib/atr/procesos.ts';
import { cupsBase, normalizarCups } from '../../lib/cups.ts';
import { nombreDistribuidora, type CodigoDistribuidora } from '../../lib/distribuidoras.ts';
import { diaDe } from '../../lib/expedientes/plazos.ts';
import { normalizarNif } from '../../lib/nif.ts';
import { audit } from '../auditoria/service.ts';
import type { Db } from '../db/client.ts';
import { distribuidoras, expedientes, ficherosIntercambio, suministros, users } from '../db/schema.ts';
import type { AuthContext, Clock } from '../http/context.ts';
import { ApiError, conflict, forbidden, notFound, ValidationError } from '../http/errors.ts';
import type { InfoPeticion } from '../http/peticion.ts';
import { cuentaIntercambio, guardar, type CuentaIntercambio } from '../intercambio/almacen.ts';
import { motivosDe, pedidoDe } from './lector.ts';
import { cabeceraDe, fechaHoraMadrid } from './respuestas.ts';
import { xmlAnulacion, xmlSolicitud, type CabeceraSolicitud, type DatosSolicitud } from './solicitudes.ts';
import { leerMensaje, validar, type MensajeLeido } from './xml.ts';
import { cortaElSuministro } from './procesos/b1.ts';
import { suministroDelCaso, type DatosAtr } from './vista.ts';

/** What the form's calls need. */
export interface DepsFormularioAtr {
  db: Db;
  clock: Clock;
}

/** The texts of the form's refusals. */
export const MENSAJES_FORMULARIO_ATR = {
  sinPermiso: 'Solo las comercializadoras envían solicitudes ATR.',
  sinCodigoRee:
    'Su empresa no tiene código REE (tabla 1 de la CNMC) registrado en el portal, y sin él la distribuidora no puede identificar sus solicitudes. Pida a la distribuidora que lo registre.',
  rechazaria: 'La distribuidora rechazaría esta solicitud por los motivos indicados (tabla 27 de la CNMC). No se ha enviado.',
  noExiste: 'No existe esa solicitud.',
} as const;

/** The distributors the account is a supply company of, with its exchange account; 403 when none. */
function cuentaDe(auth: AuthContext): CuentaIntercambio {
  const cuenta = cuentaIntercambio(auth.userId, auth.permisos);
  if (cuenta.distribuidoras.length === 0) throw forbidden(MENSAJES_FORMULARIO_ATR.sinPermiso);
  return cuenta;
}

/** The company's REE code (CNMC table 1): the issuer its messages must carry; 422 while it has none. */
async function codigoReeDe(db: Db, userId: string): Promise<string> {
  const [u] = await db.select({ ree: users.codigoRee }).from(users).where(eq(users.id, userId));
  if (!u?.ree) throw new ApiError(422, MENSAJES_FORMULARIO_ATR.sinCodigoRee);
  return u.ree;
}

/** The distributor's REE code, as the reader reads it for the header's destination. */
async function reeDistribuidora(db: Db, d: string): Promise<string> {
  const [r] = await db.select({ ree: distribuidoras.codigoRee }).from(distribuidoras).where(eq(distribuidoras.codigo, d));
  if (!r) throw notFound(`No existe la distribuidora ${d}.`);
  return r.ree;
}

/**
 * A CodigoDeSolicitud the company has not used (the CNMC's header: twelve digits): the year and
 * eight random digits, none that a case of the company or a file it left names already, so the
 * reader never takes it for a request received twice.
 */
export async function codigoSolicitudNuevo(db: Db, usuarioId: string, ahora: Date): Promise<string> {
  const anio = diaDe(ahora).slice(0, 4);
  for (let intento = 0; intento < 20; intento++) {
    const codigo = `${anio}${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;
    const [caso] = await db
      .select({ id: expedientes.id })
      .from(expedientes)
      .where(
        and(
          eq(expedientes.procedimiento, 'atr'),
          eq(expedientes.userId, usuarioId),
          sql`${expedientes.datos}->>'codigoSolicitud' = ${codigo}`,
        ),
      )
      .limit(1);
    if (caso) continue;
    const [fichero] = await db
      .select({ id: ficherosIntercambio.id })
      .from(ficherosIntercambio)
      .where(and(eq(ficherosIntercambio.usuarioId, usuarioId), like(ficherosIntercambio.ruta, `%${codigo}%`)))
      .limit(1);
    if (!fichero) return codigo;
  }
  throw new Error('No se encontró un código de solicitud libre.');
}

/** What a request carries, from the form's body. */
function datosDe(e: SolicitudAtrEntrada): DatosSolicitud {
  const t = e.titular;
  const nif = normalizarNif(t.nif);
  const d: DatosSolicitud = {
    activacion: e.activacion,
    ...(e.activacion === 'F' && e.fechaActivacion ? { fechaActivacion: e.fechaActivacion } : {}),
    // A CIF names a company (RazonSocial); any other NIF a person (NombreDePila and surnames).
    titular: titularEsEmpresa(nif)
      ? { nif, nombre: '', razonSocial: t.razonSocial ?? '' }
      : { nif, nombre: t.nombre ?? '', apellido1: t.apellido1 ?? '', ...(t.apellido2 ? { apellido2: t.apellido2 } : {}) },
  };
  switch (e.proceso) {
    case 'C2':
      return { ...d, contrato: { tarifa: e.tarifa, potenciasW: e.potenciasW } };
    case 'A3':
      return { ...d, contrato: { tarifa: e.tarifa, potenciasW: e.potenciasW }, cnae: e.cnae, telefono: e.telefono };
    case 'M1':
      return {
        ...d,
        ...(e.tipoModificacion !== 'S' && e.tarifa && e.potenciasW ? { contrato: { tarifa: e.tarifa, potenciasW: e.potenciasW } } : {}),
        ...(e.tipoModificacion !== 'N' && e.solicitudAdministrativa ? { solicitudAdministrativa: e.solicitudAdministrativa } : {}),
      };
    case 'B1':
      return { ...d, motivoBaja: e.motivoBaja };
    default:
      return d;
  }
}

/**
 * Reads a message the portal wrote as the reader reads a file (`leerMensaje`) and validates it
 * against its CNMC schema; answers it read, or the schema's complaints.
 */
async function comoLoLeeElLector(xml: string): Promise<{ m: MensajeLeido; errores: string[] }> {
  const m = leerMensaje(Buffer.from(xml, 'utf8'));
  const [errores = []] = await validar([m]);
  return { m, errores };
}

/** Stores a message in the company's entrada folder as its own file: the reader takes it as any other. */
async function dejarEnEntrada(db: Db, cuenta: CuentaIntercambio, ruta: string, xml: string, ahora: Date) {
  const datos = Buffer.from(xml, 'utf8');
  await guardar(db, cuenta, ruta, { datos, bytes: datos.byteLength, sha256: createHash('sha256').update(datos).digest('hex') }, ahora);
}

/** The audit entry of a message the form wrote (the exchange's upload, through the form). */
async function auditar(db: Db, auth: AuthContext, info: InfoPeticion, ruta: string, detalles: Record<string, unknown>) {
  await audit(db, {
    action: 'intercambio.subida',
    actorUserId: auth.userId,
    impersonatorUserId: auth.impersonatorUserId,
    targetType: 'fichero_intercambio',
    targetId: ruta,
    ip: info.ip,
    requestId: info.requestId,
    details: { canal: 'formulario', ...detalles },
    distribuidoras: [ruta.split('/')[1]!],
  });
}

/**
 * POST /api/atr/solicitudes: writes the step 01 of the request, checks it as the reader will, and
 * leaves it in entrada. Throws 403 (not a supply company of that distributor), 422 (no REE code; a
 * message the schema refuses; the table 27 reasons the distributor would refuse it for) or 400
 * (the form's own rules).
 */
export async function enviarSolicitudAtr(
  deps: DepsFormularioAtr,
  auth: AuthContext,
  e: SolicitudAtrEntrada,
  info: InfoPeticion,
): Promise<SolicitudAtrEnviada> {
  const { db, clock } = deps;
  const cuenta = cuentaDe(auth);
  if (!cuenta.distribuidoras.includes(e.distribuidora)) {
    throw forbidden(`Su empresa no es comercializadora de ${nombreDistribuidora(e.distribuidora)}: no puede enviarle solicitudes.`);
  }
  const ree = await codigoReeDe(db, auth.userId);
  const ahora = clock.now();
  const reglas = erroresSolicitudAtr(e, diaDe(ahora));
  if (reglas.length) throw new ValidationError(reglas.map((r) => r.mensaje));

  const proceso = e.proceso;
  const codigo = await codigoSolicitudNuevo(db, auth.userId, ahora);
  const cabecera: CabeceraSolicitud = {
    emisora: ree,
    destino: await reeDistribuidora(db, e.distribuidora),
    codigoSolicitud: codigo,
    secuencial: '01',
    fecha: fechaHoraMadrid(ahora),
    cups: normalizarCups(e.cups),
  };
  const xml = xmlSolicitud(proceso, cabecera, datosDe(e));
  const { m, errores } = await comoLoLeeElLector(xml);
  if (errores.length) {
    throw new ApiError(422, `El mensaje no cumple el esquema de la CNMC (${m.raiz}): ${errores.join(' ')}`, {}, { motivos: [] });
  }

  // The reader's own checks, on the message as it will read it.
  const c = cabeceraDe(m);
  const [s] = await db
    .select()
    .from(suministros)
    .where(and(eq(suministros.cups, cupsBase(c.cups)), eq(suministros.distribuidora, e.distribuidora)));
  const pedido = pedidoDe(proceso, m);
  const motivos: MotivoFormularioAtr[] = (await motivosDe(db, proceso, m, c, s, ree, pedido)).map((x) => ({
    codigo: x.codigo,
    texto: MOTIVOS_ATR[x.codigo],
    comentario: x.comentario,
  }));
  if (motivos.length) throw new ApiError(422, MENSAJES_FORMULARIO_ATR.rechazaria, {}, { motivos });

  const fichero = `${proceso}01_${codigo}_01.xml`;
  const ruta = `/${e.distribuidora}/entrada/${fichero}`;
  await dejarEnEntrada(db, cuenta, ruta, xml, ahora);
  await auditar(db, auth, info, ruta, {
    proceso,
    codigoSolicitud: codigo,
    bytes: Buffer.byteLength(xml),
    ...(e.proceso === 'M1' && cambiaTitular(e.solicitudAdministrativa) ? { cambioTitular: true } : {}),
  });
  return { proceso, distribuidora: e.distribuidora, codigoSolicitud: codigo, fichero, ruta };
}

/**
 * POST /api/atr/solicitudes/{id}/anulacion: writes the anulación of one of the company's requests
 * still open into entrada. 404 for another company's request or one that does not exist; 409 for
 * one already closed, or whose anulación is waiting to be read. An activated B1 that keeps its
 * supply cut (table 10 reason 03) is anulled to ask for the reposición (docs/decisions/048).
 */
export async function anularSolicitudAtr(deps: DepsFormularioAtr, auth: AuthContext, id: string, info: InfoPeticion) {
  const { db, clock } = deps;
  const cuenta = cuentaDe(auth);
  if (!/^[0-9a-f-]{36}$/i.test(id)) throw notFound(MENSAJES_FORMULARIO_ATR.noExiste);
  const [caso] = await db
    .select()
    .from(expedientes)
    .where(and(eq(expedientes.id, id), eq(expedientes.procedimiento, 'atr'), eq(expedientes.userId, auth.userId)));
  if (!caso || !cuenta.distribuidoras.includes(caso.distribuidora)) throw notFound(MENSAJES_FORMULARIO_ATR.noExiste);
  const d = caso.datos as DatosAtr;
  const proceso = (d.proceso ?? caso.tipo) as ProcesoAtr;
  if (!(PROCESOS_ATR as readonly string[]).includes(proceso) || !d.codigoSolicitud || !d.cups) {
    throw conflict('Esta solicitud no se puede anular desde el portal.');
  }
  const ree = await codigoReeDe(db, auth.userId);
  // An activated B1 that keeps its supply cut is anulled to ask for the reposición (docs/decisions/048).
  if (caso.cerradoEn && !(proceso === 'B1' && cortaElSuministro({ paso: caso.paso, datos: d }, await suministroDelCaso(db, caso), ree))) {
    throw conflict(`La solicitud ${d.codigoSolicitud} ya está cerrada (${caso.paso}): no se puede anular.`);
  }
  const paso = PROCESO[proceso].anulacion.paso;
  const secuencial = d.secuencial ?? '01';
  const fichero = `${proceso}${paso}_${d.codigoSolicitud}_${secuencial}.xml`;
  const ruta = `/${caso.distribuidora}/entrada/${fichero}`;
  const [pendiente] = await db
    .select({ id: ficherosIntercambio.id })
    .from(ficherosIntercambio)
    .where(
      and(
        eq(ficherosIntercambio.usuarioId, auth.userId),
        eq(ficherosIntercambio.ruta, ruta),
        sql`${ficherosIntercambio.procesadoEn} is null`,
      ),
    );
  if (pendiente) throw conflict('La anulación de esta solicitud ya está enviada: la distribuidora la contestará en unos segundos.');

  const ahora = clock.now();
  const xml = xmlAnulacion(proceso, {
    emisora: ree,
    destino: await reeDistribuidora(db, caso.distribuidora),
    codigoSolicitud: d.codigoSolicitud,
    secuencial,
    fecha: fechaHoraMadrid(ahora),
    cups: d.cups,
  });
  const { m, errores } = await comoLoLeeElLector(xml);
  // Written from the case's own data: a message its schema refuses is the portal's fault, not the company's.
  if (errores.length) throw new Error(`Anulación no válida según el esquema de la CNMC (${m.raiz}): ${errores.join(' ')}`);
  await dejarEnEntrada(db, cuenta, ruta, xml, ahora);
  await auditar(db, auth, info, ruta, { proceso, codigoSolicitud: d.codigoSolicitud, anulacion: true, bytes: Buffer.byteLength(xml) });
  const enviada: SolicitudAtrEnviada = {
    proceso,
    distribuidora: caso.distribuidora as CodigoDistribuidora,
    codigoSolicitud: d.codigoSolicitud,
    fichero,
    ruta,
  };
  return enviada;
}
