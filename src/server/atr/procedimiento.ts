/**
 * ATR requests declared on the case core (docs/decisions/053; the CNMC's exchange formats,
 * docs/sector.md §4). The steps and transitions are `ATR` (src/lib/atr/estados.ts); here are what
 * each action checks and writes, every answer being a CNMC message left in the company's `salida`,
 * valid against its schema:
 *
 * - the reader's answers (`respuesta`): the step 02 that accepts or rejects a request, and the
 *   acceptance of an anulación, written by the reader from the message it read (src/server/atr/lector.ts);
 * - the staff's field steps: **05, activation** on the day the change took effect (the supply point's
 *   retailer, powers, tariff, holder or end date change through `guardarSuministros`, and for C1 and
 *   C2 the outgoing company, when it uses the portal's exchange, gets its step 06); the **rejection
 *   after the field work** (04; B1's 07) with a table 27 reason found on site; and an **incidence**
 *   (table 28; 03, B1's 06) that delays the field work and keeps the request open. A C1 has none
 *   (`PROCESO` in lib/atr/procesos.ts says which step each process uses).
 *
 * The core takes the step (lock, 409, timeline, audit, the company's mail) in one transaction. The
 * case's `paso` is its state; its data keeps the CNMC step of its last message (`pasoCnmc`).
 */
import { and, eq } from 'drizzle-orm';
import { ATR, EN_CAMPO, type AccionAtr } from '../../lib/atr/estados.ts';
import type { EstadoAtr } from '../../lib/atr/pantalla.ts';
import {
  INCIDENCIAS_ATR,
  MOTIVOS_ATR,
  MOTIVOS_CAMPO,
  PROCESO,
  RAIZ_INCIDENCIA,
  RAIZ_SALIENTE,
  type IncidenciaAtr,
  type MotivoAtr,
  type ProcesoAtr,
} from '../../lib/atr/procesos.ts';
import { urlSolicitudAtrAdmin } from '../../lib/atr/gestion.ts';
import { RUTA_SOLICITUDES_ATR } from '../../lib/atr/pantalla.ts';
import { diaDe } from '../../lib/expedientes/plazos.ts';
import { errorFechaActivacion } from '../../lib/modificaciones/esquemas.ts';
import { normalizarNif } from '../../lib/nif.ts';
import type { Db } from '../db/client.ts';
import { distribuidoras, suministros, userPermissions, users } from '../db/schema.ts';
import type { FilaExpediente } from '../expedientes/acceso.ts';
import type { Procedimiento, Siguiente } from '../expedientes/procedimiento.ts';
import { nombreCuentaSql, type FilaEvento } from '../expedientes/service.ts';
import { conflict, ValidationError } from '../http/errors.ts';
import { depositar } from '../intercambio/almacen.ts';
import { guardarSuministros, type Suministro, type SuministroEntrada } from '../suministros/service.ts';
import { MOTIVO_BAJA_SUSPENSION } from './procesos/b1.ts';
import { MODULO } from './procesos/index.ts';
import { cabeceraRespuesta, idContrato, mensaje, puntosDeMedida, rechazo, type Cabecera, type MensajeAtr } from './respuestas.ts';
import { filaAtr, referenciaAtr, suministroDelCaso, vencidaAtr, type DatosAtr } from './vista.ts';
import { escribirMensaje, leerMensaje, valor } from './xml.ts';

/** The procedure's name on the core. */
export const PROCEDIMIENTO_ATR = 'atr';

/** A message of a step, as the exchange keeps it. */
export interface MensajeDelPaso {
  paso: string;
  ruta: string;
  xml: string;
}

/**
 * An answer of the reader to a company's message: its step 02, or the acceptance of an anulación.
 * The reader writes it from the message it read; the step leaves it in the company's `salida`.
 */
export interface RespuestaLector {
  /** The company's message the step answers, when it is not the request itself (an anulación). */
  entrada?: MensajeDelPaso;
  salida: MensajeDelPaso;
  vence: string | null;
  regla: string | null;
  /** What the timeline records besides the messages (a rejection's reasons, the planned activation). */
  datos?: Record<string, unknown>;
  /** What changes in the case's data besides its messages. */
  cambios?: Partial<DatosAtr>;
}

/** What an action takes: a staff step's body, or the reader's answer. */
export type CuerpoAtr = { mensaje?: undefined } & (AccionGestionAtr | { accion: 'respuesta'; respuesta: RespuestaLector });

/** The core's action each staff step is: the API's `rechazar` is the rejection after the field work. */
export const ACCION_DEL_PERSONAL: Readonly<Record<AccionGestionAtr['accion'], AccionAtr>> = {
  activar: 'activar',
  rechazar: 'rechazar_campo',
  incidencia: 'incidencia',
};

/** A request's process. */
export const procesoDe = (e: FilaExpediente) => ((e.datos as DatosAtr).proceso ?? e.tipo) as ProcesoAtr;

/** The messages a step leaves in the company's `salida`, and what the case's data keeps of them. */
function mensajesDelPaso(tx: Db, e: FilaExpediente, ahora: Date) {
  const cuenta = { id: e.userId, distribuidoras: [e.distribuidora] };
  const rutas = [...((e.datos as DatosAtr).mensajes ?? [])];
  const mensajes: MensajeAtr[] = [];
  return {
    recibido(m: MensajeDelPaso) {
      rutas.push({ paso: m.paso, ruta: m.ruta });
      mensajes.push(mensaje(m.paso, m.ruta, 'empresa', m.xml));
    },
    async escribir(m: MensajeDelPaso) {
      await depositar(tx, cuenta, m.ruta, Buffer.from(m.xml), ahora);
      rutas.push({ paso: m.paso, ruta: m.ruta });
      mensajes.push(mensaje(m.paso, m.ruta, 'distribuidora', m.xml));
    },
    /** The step's outcome: its timeline entry carries the messages, the case keeps their paths and the last CNMC step. */
    siguiente(
      pasoCnmc: string,
      s: {
        vence: string | null;
        regla: string | null;
        datos?: Record<string, unknown>;
        cambios?: Partial<DatosAtr>;
        aviso?: Siguiente['aviso'];
      },
    ): Siguiente {
      return {
        vence: s.vence,
        regla: s.regla,
        datos: { ...s.datos, mensajes },
        cambios: { ...s.cambios, pasoCnmc, mensajes: rutas },
        auditoria: { pasoCnmc },
        ...(s.aviso ? { aviso: s.aviso } : {}),
      };
    },
  };
}

/** The header of the distributor's answers on a request: the company and the distributor by their REE codes. */
async function cabeceraDelCaso(tx: Db, e: FilaExpediente): Promise<{ c: Cabecera; empresa: string }> {
  const d = e.datos as DatosAtr;
  const [empresa] = await tx.select({ ree: users.codigoRee, nombre: nombreCuentaSql }).from(users).where(eq(users.id, e.userId));
  const [dist] = await tx.select({ ree: distribuidoras.codigoRee }).from(distribuidoras).where(eq(distribuidoras.codigo, e.distribuidora));
  return {
    c: {
      emisora: empresa?.ree ?? '',
      destino: dist!.ree,
      proceso: procesoDe(e),
      paso: '',
      solicitud: d.codigoSolicitud ?? '',
      secuencial: d.secuencial ?? '01',
      cups: d.cups ?? '',
    },
    empresa: empresa?.nombre ?? '',
  };
}

/** The path of a distributor's answer in the company's `salida`. */
const rutaSalida = (e: FilaExpediente, c: Cabecera, paso: string, sufijo = '') =>
  `/${e.distribuidora}/salida/${c.proceso}${paso}_${c.solicitud}_${c.secuencial}${sufijo}.xml`;

/** The note of the company's mail: where the step's message is. */
const notaSalida = (e: FilaExpediente, paso: string) =>
  `El mensaje ${procesoDe(e)}${paso} está en su carpeta ${e.distribuidora}/salida del intercambio de ficheros.`;

/** Activation (05): the supply point's contract changes on the day, and a C1 or C2's outgoing company gets its 06. */
async function activar(tx: Db, e: FilaExpediente, fecha: string, eventos: readonly FilaEvento[], hoy: string, ahora: Date) {
  const error = errorFechaActivacion(fecha, diaDe(e.presentadoEn ?? e.createdAt), hoy);
  if (error) throw new ValidationError([error]);
  const { c, empresa } = await cabeceraDelCaso(tx, e);
  const proceso = procesoDe(e);
  const decl = PROCESO[proceso];
  const s = await suministroDelCaso(tx, e, true);
  if (!s) throw conflict(`El CUPS ${c.cups} ya no es de esta distribuidora.`);
  if (!decl.sobrePuntoDeBaja && s.fechaBaja)
    throw conflict(`El suministro ${c.cups} está de baja desde el ${s.fechaBaja}: no se puede activar.`);
  const recibido = eventos.find((ev) => ev.accion === 'recibir');
  const xml01 = ((recibido?.datos as { mensajes?: MensajeAtr[] } | null)?.mensajes ?? [])[0]?.xml;
  const { cliente, cambiaTitular, motivoBaja } = solicitanteDe(xml01, proceso);
  const saliente = s.comercializadoraCodigo;
  await guardarSuministros(tx, [
    activado(s, proceso, fecha, e.datos as DatosAtr, { ree: c.emisora, nombre: empresa }, cliente, cambiaTitular, motivoBaja),
  ]);
  const [nuevo] = await tx.select().from(suministros).where(eq(suministros.id, s.id));
  const m = mensajesDelPaso(tx, e, ahora);
  await m.escribir({ paso: '05', ruta: rutaSalida(e, c, '05'), xml: activacion(proceso, { ...c, paso: '05' }, nuevo!, fecha, ahora) });
  const avisado =
    decl.cambioDeComercializador && saliente !== c.emisora
      ? { saliente: await avisarSaliente(tx, e, { ...c, emisora: saliente }, nuevo!, fecha, ahora) }
      : {};
  return m.siguiente('05', {
    vence: null,
    regla: null,
    datos: { ...avisado, activacion: fecha },
    cambios: { activacion: fecha },
    aviso: { hecho: `La distribuidora ha activado la solicitud ATR ${c.solicitud} (${proceso}) el ${fecha}.`, nota: notaSalida(e, '05') },
  });
}

/** Rejection after the field work (04; B1's 07), with a table 27 reason found on site. */
async function rechazarEnCampo(tx: Db, e: FilaExpediente, codigo: string, comentario: string, ahora: Date) {
  if (!(MOTIVOS_CAMPO as readonly string[]).includes(codigo)) {
    throw new ValidationError([`El motivo ${codigo} no es de los que se dan tras la visita a campo.`]);
  }
  const { c } = await cabeceraDelCaso(tx, e);
  const motivo = { codigo: codigo as MotivoAtr, comentario: `${MOTIVOS_ATR[codigo as MotivoAtr]}: ${comentario}` };
  const paso = PROCESO[procesoDe(e)].campo.rechazo;
  const m = mensajesDelPaso(tx, e, ahora);
  await m.escribir({ paso, ruta: rutaSalida(e, c, paso), xml: rechazo({ ...c, paso }, paso, [motivo], ahora) });
  return m.siguiente(paso, {
    vence: null,
    regla: null,
    datos: { motivos: [motivo] },
    aviso: {
      hecho: `La distribuidora ha rechazado tras la visita a campo la solicitud ATR ${c.solicitud} (${c.proceso}): ${motivo.comentario}`,
      nota: notaSalida(e, paso),
    },
  });
}

/** An incidence (table 28; 03, B1's 06) that delays the field work: the request stays open, with the new planned date. */
async function anotarIncidencia(
  tx: Db,
  e: FilaExpediente,
  a: { codigo: string; comentario: string; fechaPrevista?: string | undefined },
  eventos: readonly FilaEvento[],
  hoy: string,
  ahora: Date,
) {
  const paso = PROCESO[procesoDe(e)].campo.incidencia!;
  if (!(a.codigo in INCIDENCIAS_ATR)) throw new ValidationError([`El código ${a.codigo} no es una incidencia de la tabla 28.`]);
  if (a.fechaPrevista && !(a.fechaPrevista >= hoy)) throw new ValidationError(['La nueva fecha prevista no puede ser anterior a hoy.']);
  const { c } = await cabeceraDelCaso(tx, e);
  const n = eventos.filter((ev) => ev.accion === 'incidencia').length;
  const texto = INCIDENCIAS_ATR[a.codigo as IncidenciaAtr];
  const m = mensajesDelPaso(tx, e, ahora);
  await m.escribir({
    paso,
    ruta: rutaSalida(e, c, paso, n ? `_${n + 1}` : ''),
    xml: incidencia({ ...c, paso }, a.codigo, a.comentario, a.fechaPrevista, ahora),
  });
  const vence = a.fechaPrevista ?? e.vence;
  return m.siguiente(paso, {
    vence,
    regla: vence ? 'activación prevista' : null,
    datos: { incidencia: { codigo: a.codigo, texto, comentario: a.comentario }, ...(vence ? { activacionPrevista: vence } : {}) },
    cambios: vence ? { activacionPrevista: vence } : {},
    aviso: { hecho: `Incidencia en la solicitud ATR ${c.solicitud} (${c.proceso}): ${texto}. ${a.comentario}`, nota: notaSalida(e, paso) },
  });
}

/** The reader's answer: the company's message it answers, if not the request, and its own in the company's `salida`. */
async function responder(tx: Db, e: FilaExpediente, r: RespuestaLector, ahora: Date) {
  const m = mensajesDelPaso(tx, e, ahora);
  if (r.entrada) m.recibido(r.entrada);
  await m.escribir(r.salida);
  return m.siguiente(r.salida.paso, {
    vence: r.vence,
    regla: r.regla,
    ...(r.datos ? { datos: r.datos } : {}),
    ...(r.cambios ? { cambios: r.cambios } : {}),
  });
}

/** A row of the staff queue: the request, the company that sent it, and whether its planned activation has passed. */
export type FilaColaAtr = ReturnType<typeof filaAtr> & { empresa: string; codigoRee: string | null; vencida: boolean };

/** ATR requests on the case core. */
export const SOLICITUDES_ATR: Procedimiento<CuerpoAtr, FilaColaAtr> = {
  definiciones: { [PROCEDIMIENTO_ATR]: ATR },
  llamado: 'la solicitud',
  referencia: referenciaAtr,
  enlace: (publicUrl, e, lado) => `${publicUrl}${lado === 'solicitante' ? `${RUTA_SOLICITUDES_ATR}/${e.id}` : urlSolicitudAtrAdmin(e.id)}`,
  conflicto: (e, accion) =>
    accion === 'incidencia' && EN_CAMPO.includes(e.paso as EstadoAtr) && !PROCESO[procesoDe(e)].campo.incidencia
      ? `Un ${procesoDe(e)} no tiene paso de incidencias: se activa o se rechaza tras las actuaciones en campo.`
      : `La solicitud ${referenciaAtr(e)} ya no espera a la distribuidora: está ${e.paso}.`,
  // A C1 has no incidence step: it changes no installation, so no field work can be delayed.
  admite: (e, accion) => accion !== 'incidencia' || !!PROCESO[procesoDe(e)].campo.incidencia,
  async siguiente(tx, e, accion, body, ctx) {
    if (body.accion === 'respuesta') return responder(tx, e, body.respuesta, ctx.ahora);
    if (ACCION_DEL_PERSONAL[body.accion] !== accion) throw new Error(`Paso ${body.accion} pedido como ${accion}`);
    switch (body.accion) {
      case 'activar':
        return activar(tx, e, body.fecha, ctx.eventos, ctx.hoy, ctx.ahora);
      case 'rechazar':
        return rechazarEnCampo(tx, e, body.codigo, body.comentario, ctx.ahora);
      case 'incidencia':
        return anotarIncidencia(tx, e, body, ctx.eventos, ctx.hoy, ctx.ahora);
    }
  },
  hecho: () => null,
  resumen: (e, empresa, hoy, codigoRee) => ({ ...filaAtr(e), empresa, codigoRee, vencida: vencidaAtr(e, hoy) }),
};

/** What each step takes. */
export type AccionGestionAtr =
  | { accion: 'activar'; fecha: string }
  | { accion: 'rechazar'; codigo: string; comentario: string }
  | { accion: 'incidencia'; codigo: string; comentario: string; fechaPrevista?: string | undefined };

/**
 * What activation takes from the step 01 message, read once: the holder it names (Cliente: NIF and
 * name), whether an M1 changes the holder (TipoSolicitudAdministrativa S or T, CNMC table 53), and
 * a B1's reason (Motivo, CNMC table 10).
 */
function solicitanteDe(
  xml: string | undefined,
  proceso: ProcesoAtr,
): { cliente: { nif: string; nombre: string } | null; cambiaTitular: boolean; motivoBaja: string | null } {
  if (!xml) return { cliente: null, cambiaTitular: false, motivoBaja: null };
  const arbol = leerMensaje(Buffer.from(xml, 'utf8')).arbol;
  const c = (...r: string[]) => valor(arbol, PROCESO[proceso].solicitud.cuerpo, 'Cliente', ...r);
  const nif = normalizarNif(c('IdCliente', 'Identificador') ?? '');
  const nombre = c('Nombre', 'RazonSocial') ?? [c('Nombre', 'NombreDePila'), c('Nombre', 'PrimerApellido')].filter(Boolean).join(' ');
  const cambiaTitular =
    proceso === 'M1' &&
    ['S', 'T'].includes(valor(arbol, PROCESO.M1.solicitud.cuerpo, 'DatosSolicitud', 'TipoSolicitudAdministrativa') ?? '');
  const motivoBaja = proceso === 'B1' ? (valor(arbol, PROCESO.B1.solicitud.cuerpo, 'DatosSolicitud', 'Motivo') ?? null) : null;
  return { cliente: nif ? { nif, nombre: nombre.trim() } : null, cambiaTitular, motivoBaja };
}

/** The supply point once the request is activated on `fecha`. */
function activado(
  s: Suministro,
  proceso: ProcesoAtr,
  fecha: string,
  d: DatosAtr,
  empresa: { ree: string; nombre: string },
  cliente: { nif: string; nombre: string } | null,
  cambiaTitular: boolean,
  motivoBaja: string | null,
): SuministroEntrada {
  const { id: _id, createdAt: _c, updatedAt: _u, ...actual } = s;
  // CNMC table 10: 01 cese de actividad, 02 fin de contrato de energía and 04 baja por impago end the
  // access contract; 03 corte de suministro only suspends the supply, and the contract stays in
  // force with its retailer, so later requests on the point are not refused as «contrato en baja».
  // The point is suspended from the activation day until its reposición (docs/decisions/048).
  if (proceso === 'B1') {
    return motivoBaja === MOTIVO_BAJA_SUSPENSION
      ? { ...actual, suspendidoDesde: actual.suspendidoDesde ?? fecha }
      : { ...actual, fechaBaja: fecha, suspendidoDesde: null };
  }
  const nuevo: SuministroEntrada = { ...actual };
  const decl = PROCESO[proceso];
  if (decl.cambioDeComercializador || decl.sobrePuntoDeBaja) {
    // A suspension is the outgoing retailer's, for its own contract: the incoming one starts in service.
    Object.assign(nuevo, { comercializadoraCodigo: empresa.ree, comercializadoraNombre: empresa.nombre, suspendidoDesde: null });
  }
  if (decl.sobrePuntoDeBaja) Object.assign(nuevo, { fechaBaja: null, fechaAlta: fecha });
  if ((decl.sobrePuntoDeBaja || cambiaTitular) && cliente) Object.assign(nuevo, { titularNif: cliente.nif, titularNombre: cliente.nombre });
  const p = d.pedido;
  if (p?.tarifa) nuevo.tarifa = p.tarifa;
  if (p?.potenciasW && p.potenciasW.join() !== s.potenciasW.join()) {
    Object.assign(nuevo, { potenciasW: p.potenciasW, fechaUltimoCambioPotencia: fecha });
  }
  return nuevo;
}

/** The activation message (step 05) of a process, with the contract as it now is. */
function activacion(proceso: ProcesoAtr, c: Cabecera, s: Suministro, fecha: string, ahora: Date): string {
  const { raiz, cuerpo } = PROCESO[proceso].activacion;
  return escribirMensaje({ n: raiz, h: [cabeceraRespuesta(c, '05', ahora), { n: cuerpo, h: MODULO[proceso].activacion({ s, fecha }) }] });
}

/** The incidence message (the process's `campo.incidencia` step): table 28 code, what happened, and the new planned date. */
function incidencia(c: Cabecera, codigo: string, comentario: string, fechaPrevista: string | undefined, ahora: Date): string {
  return escribirMensaje({
    n: RAIZ_INCIDENCIA,
    h: [
      cabeceraRespuesta(c, c.paso, ahora),
      {
        n: 'IncidenciasATRDistribuidor',
        h: [
          { n: 'FechaIncidencia', t: diaDe(ahora) },
          fechaPrevista ? { n: 'FechaPrevistaAccion', t: fechaPrevista } : null,
          {
            n: 'Incidencia',
            h: [
              { n: 'Secuencial', t: '1' },
              { n: 'CodigoMotivo', t: codigo },
              { n: 'Comentarios', t: comentario.slice(0, 4000) },
            ],
          },
        ],
      },
    ],
  });
}

/**
 * The outgoing company's step 06 of a C1 or C2: written into its own `salida` when an active account
 * holds that REE code and `-comercializadora` at the distributor. Answers the file's path, or null
 * when the outgoing company does not use the portal's exchange (it is then told by its usual channel).
 */
async function avisarSaliente(tx: Db, e: FilaExpediente, c: Cabecera, s: Suministro, fecha: string, ahora: Date): Promise<string | null> {
  const [cuenta] = await tx
    .select({ id: users.id })
    .from(users)
    .innerJoin(userPermissions, eq(userPermissions.userId, users.id))
    .where(
      and(
        eq(users.codigoRee, c.emisora),
        eq(users.estado, 'activo'),
        eq(userPermissions.distribuidora, e.distribuidora),
        eq(userPermissions.area, 'comercializadora'),
      ),
    )
    .limit(1);
  if (!cuenta) return null;
  const xml = escribirMensaje({
    n: RAIZ_SALIENTE,
    h: [
      cabeceraRespuesta({ ...c, paso: '06' }, '06', ahora),
      {
        n: 'NotificacionComercializadorSaliente',
        h: [
          {
            n: 'DatosNotificacion',
            h: [
              { n: 'FechaActivacion', t: fecha },
              { n: 'IndBonoSocial', t: 'N' },
            ],
          },
          { n: 'Contrato', h: [idContrato(s)] },
          puntosDeMedida(s, 'B', fecha),
        ],
      },
    ],
  });
  const ruta = `/${e.distribuidora}/salida/${c.proceso}06_${c.solicitud}_${c.secuencial}.xml`;
  await depositar(tx, { id: cuenta.id, distribuidoras: [e.distribuidora] }, ruta, Buffer.from(xml), ahora);
  return ruta;
}
