/**
 * The distributor staff's half of ATR requests (docs/decisions/020; the CNMC's exchange formats,
 * docs/sector.md §4): the queue of the requests it accepted, deadline first and overdue flagged,
 * and the steps that carry each one on. Each step writes its CNMC message into the company's
 * `salida`, valid against its schema:
 *
 * - **05, activation** on the day the change took effect: the supply point's retailer, powers,
 *   tariff, holder or end date change through `guardarSuministros`, the code imports and contractual
 *   modifications use, so the consumer's screens and permissions follow. For C1 and C2 the outgoing
 *   company, when it uses the portal's exchange, gets its step 06 in its own `salida`.
 * - **rejection after the field work** (04; B1's 07), with a table 27 reason found on site; it closes the request.
 * - **incidence** (table 28; 03, B1's 06) that delays the field work; the request stays open, with a
 *   new date. A C1 has none (`PROCESO` in lib/atr/procesos.ts says which step each process uses).
 */
import { and, asc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
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
import { busquedaCups } from '../../lib/cups.ts';
import { diaDe } from '../../lib/expedientes/plazos.ts';
import { fechaLocalDe } from '../../lib/calendario/hora-civil.ts';
import { errorFechaActivacion } from '../../lib/modificaciones/esquemas.ts';
import { normalizarNif } from '../../lib/nif.ts';
import type { Db } from '../db/client.ts';
import { distribuidoras, expedienteEventos, expedientes, suministros, userPermissions, users } from '../db/schema.ts';
import type { FilaExpediente } from '../expedientes/acceso.ts';
import { avisarOtraParte, bloquearExpediente, nombreCuentaSql, registrarPaso, type ActorExpediente } from '../expedientes/service.ts';
import type { Clock } from '../http/context.ts';
import { conflict, notFound, ValidationError } from '../http/errors.ts';
import { depositar } from '../intercambio/almacen.ts';
import { guardarSuministros, type Suministro, type SuministroEntrada } from '../suministros/service.ts';
import { cabeceraRespuesta, idContrato, mensaje, puntosDeMedida, rechazo, type Cabecera, type MensajeAtr } from './respuestas.ts';
import { MODULO } from './procesos/index.ts';
import { MOTIVO_BAJA_SUSPENSION } from './procesos/b1.ts';
import { detalleAtr, filaAtr, referenciaAtr, suministroDelCaso, vencidaAtr, type DatosAtr, type EstadoSolicitudAtr } from './vista.ts';
import { escribirMensaje, leerMensaje, valor } from './xml.ts';
import { empiezaPor } from '../db/busqueda.ts';

/** What the staff's steps need; `publicUrl` null sends no mail (the demo data). */
export interface DepsGestionAtr {
  db: Db;
  clock: Clock;
  publicUrl: string | null;
}

/** The states in which a request waits for the distributor's field work. */
const EN_CAMPO: readonly EstadoSolicitudAtr[] = ['aceptada', 'incidencia'];

/** Filters and page of the queue. */
export interface FiltroColaAtr {
  distribuidora: string;
  proceso?: ProcesoAtr | undefined;
  estado?: EstadoSolicitudAtr | undefined;
  q?: string | undefined;
  vencidas?: boolean | undefined;
  page: number;
  pageSize: number;
}

/**
 * The queue of a distributor: without a state, the requests waiting for its field work; the overdue
 * first, then by planned activation, then by arrival. With a state, every request in it.
 */
export async function colaAtr(db: Db, f: FiltroColaAtr, hoy: string) {
  const condiciones: SQL[] = [eq(expedientes.procedimiento, 'atr'), eq(expedientes.distribuidora, f.distribuidora)];
  if (f.estado) condiciones.push(sql`coalesce(${expedientes.datos}->>'estado', 'recibida') = ${f.estado}`);
  else condiciones.push(sql`${expedientes.cerradoEn} is null and ${expedientes.turno} = 'distribuidora'`);
  if (f.proceso) condiciones.push(eq(expedientes.tipo, f.proceso));
  if (f.vencidas) condiciones.push(sql`${expedientes.cerradoEn} is null and ${expedientes.vence} < ${hoy}::date`);
  const q = f.q?.trim().toUpperCase();
  if (q) {
    condiciones.push(
      or(empiezaPor(sql`${expedientes.datos}->>'cups'`, busquedaCups(q)), empiezaPor(sql`${expedientes.datos}->>'codigoSolicitud'`, q))!,
    );
  }
  const donde = and(...condiciones);
  const [{ total } = { total: 0 }] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(expedientes)
    .where(donde);
  const filas = await db
    .select({ e: expedientes, empresa: nombreCuentaSql, ree: users.codigoRee })
    .from(expedientes)
    .innerJoin(users, eq(users.id, expedientes.userId))
    .where(donde)
    .orderBy(
      sql`case when ${expedientes.cerradoEn} is null and ${expedientes.vence} < ${hoy}::date then 0 else 1 end`,
      sql`${expedientes.vence} asc nulls last`,
      asc(expedientes.presentadoEn),
      asc(expedientes.id),
    )
    .limit(f.pageSize)
    .offset((f.page - 1) * f.pageSize);
  return {
    total,
    filas: filas.map((x) => ({ ...filaAtr(x.e), empresa: x.empresa, codigoRee: x.ree, vencida: vencidaAtr(x.e, hoy) })),
  };
}

/** The steps the staff can take on a request now. */
const accionesDe = (e: FilaExpediente): readonly AccionGestionAtr['accion'][] => {
  if (e.cerradoEn || !EN_CAMPO.includes(((e.datos as DatosAtr).estado ?? 'recibida') as EstadoSolicitudAtr)) return [];
  // A C1 has no incidence step: it changes no installation, so no field work can be delayed.
  return PROCESO[procesoDe(e)].campo.incidencia ? ['activar', 'rechazar', 'incidencia'] : ['activar', 'rechazar'];
};

/** A request's process. */
const procesoDe = (e: FilaExpediente) => ((e.datos as DatosAtr).proceso ?? e.tipo) as ProcesoAtr;

/** A request for the staff: its messages, the company, the supply point's contract now, and the steps it admits. */
export async function detalleGestionAtr(db: Db, e: FilaExpediente, hoy: string) {
  const [empresa] = await db.select({ nombre: nombreCuentaSql, ree: users.codigoRee }).from(users).where(eq(users.id, e.userId));
  const s = await suministroDelCaso(db, e);
  return {
    ...(await detalleAtr(db, e)),
    vencida: vencidaAtr(e, hoy),
    empresa: empresa?.nombre ?? '',
    codigoRee: empresa?.ree ?? null,
    pedido: (e.datos as DatosAtr).pedido ?? null,
    suministro: s
      ? {
          titular: s.titularNombre,
          tarifa: s.tarifa,
          potenciasW: s.potenciasW,
          comercializadora: s.comercializadoraNombre ?? s.comercializadoraCodigo,
          baja: s.fechaBaja,
          suspendidoDesde: s.suspendidoDesde,
        }
      : null,
    acciones: [...accionesDe(e)],
  };
}

/** An ATR request of one of `propias`, or 404 (another distributor's requests do not exist for this caller). */
export async function solicitudDeGestion(db: Db, id: string, propias: readonly string[]): Promise<FilaExpediente> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) throw notFound('No existe esa solicitud.');
  const [e] = await db
    .select()
    .from(expedientes)
    .where(and(eq(expedientes.id, id), eq(expedientes.procedimiento, 'atr'), inArray(expedientes.distribuidora, [...propias])));
  if (!e) throw notFound('No existe esa solicitud.');
  return e;
}

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

/** Takes a step on a request (the route has checked the caller administers its distributor). */
export async function actuarAtr(deps: DepsGestionAtr, id: string, a: AccionGestionAtr, actor: ActorExpediente): Promise<FilaExpediente> {
  return deps.db.transaction(async (tx) => {
    const e = await bloquearExpediente(tx, id);
    if (!e || e.procedimiento !== 'atr') throw notFound('No existe esa solicitud.');
    const d = e.datos as DatosAtr;
    const proceso = procesoDe(e);
    const decl = PROCESO[proceso];
    if (!accionesDe(e).length) {
      throw conflict(`La solicitud ${referenciaAtr(e)} ya no espera a la distribuidora: está ${d.estado ?? 'recibida'}.`);
    }
    const ahora = deps.clock.now();
    const hoy = fechaLocalDe(ahora);
    const [empresa] = await tx.select({ ree: users.codigoRee, nombre: nombreCuentaSql }).from(users).where(eq(users.id, e.userId));
    const [dist] = await tx
      .select({ ree: distribuidoras.codigoRee })
      .from(distribuidoras)
      .where(eq(distribuidoras.codigo, e.distribuidora));
    const c: Cabecera = {
      emisora: empresa?.ree ?? '',
      destino: dist!.ree,
      proceso,
      paso: '',
      solicitud: d.codigoSolicitud ?? '',
      secuencial: d.secuencial ?? '01',
      cups: d.cups ?? '',
    };
    const cuenta = { id: e.userId, distribuidoras: [e.distribuidora] };
    const salida = (paso: string, sufijo = '') =>
      `/${e.distribuidora}/salida/${proceso}${paso}_${c.solicitud}_${c.secuencial}${sufijo}.xml`;
    const rutas = [...(d.mensajes ?? [])];
    const mensajes: MensajeAtr[] = [];
    const escribir = async (paso: string, xml: string, sufijo = '') => {
      const ruta = salida(paso, sufijo);
      await depositar(tx, cuenta, ruta, Buffer.from(xml), ahora);
      rutas.push({ paso, ruta });
      mensajes.push(mensaje(paso, ruta, 'distribuidora', xml));
    };
    let paso: { accion: string; paso: string; turno: 'distribuidora' | null; vence: string | null; estado: EstadoSolicitudAtr };
    let extra: Record<string, unknown> = {};
    let hecho: string;

    if (a.accion === 'activar') {
      const error = errorFechaActivacion(a.fecha, diaDe(e.presentadoEn ?? e.createdAt), hoy);
      if (error) throw new ValidationError([error]);
      const s = await suministroDelCaso(tx, e, true);
      if (!s) throw conflict(`El CUPS ${c.cups} ya no es de esta distribuidora.`);
      if (!decl.sobrePuntoDeBaja && s.fechaBaja)
        throw conflict(`El suministro ${c.cups} está de baja desde el ${s.fechaBaja}: no se puede activar.`);
      const [primero] = await tx
        .select({ datos: expedienteEventos.datos })
        .from(expedienteEventos)
        .where(and(eq(expedienteEventos.expedienteId, e.id), eq(expedienteEventos.paso, '01')))
        .limit(1);
      const xml01 = ((primero?.datos as { mensajes?: MensajeAtr[] } | null)?.mensajes ?? [])[0]?.xml;
      const { cliente, cambiaTitular, motivoBaja } = solicitanteDe(xml01, proceso);
      const saliente = s.comercializadoraCodigo;
      await guardarSuministros(tx, [
        activado(s, proceso, a.fecha, d, { ree: c.emisora, nombre: empresa?.nombre ?? '' }, cliente, cambiaTitular, motivoBaja),
      ]);
      const [nuevo] = await tx.select().from(suministros).where(eq(suministros.id, s.id));
      await escribir('05', activacion(proceso, { ...c, paso: '05' }, nuevo!, a.fecha, ahora));
      if (decl.cambioDeComercializador && saliente !== c.emisora) {
        extra = { saliente: await avisarSaliente(tx, e, { ...c, emisora: saliente }, nuevo!, a.fecha, ahora) };
      }
      paso = { accion: 'activar', paso: '05', turno: null, vence: null, estado: 'activada' };
      extra = { ...extra, activacion: a.fecha };
      hecho = `La distribuidora ha activado la solicitud ATR ${c.solicitud} (${proceso}) el ${a.fecha}.`;
    } else if (a.accion === 'rechazar') {
      if (!(MOTIVOS_CAMPO as readonly string[]).includes(a.codigo)) {
        throw new ValidationError([`El motivo ${a.codigo} no es de los que se dan tras la visita a campo.`]);
      }
      const motivo = { codigo: a.codigo as MotivoAtr, comentario: `${MOTIVOS_ATR[a.codigo as MotivoAtr]}: ${a.comentario}` };
      const p = decl.campo.rechazo;
      await escribir(p, rechazo({ ...c, paso: p }, p, [motivo], ahora));
      paso = { accion: 'rechazar_campo', paso: p, turno: null, vence: null, estado: 'rechazada_campo' };
      extra = { motivos: [motivo] };
      hecho = `La distribuidora ha rechazado tras la visita a campo la solicitud ATR ${c.solicitud} (${proceso}): ${motivo.comentario}`;
    } else {
      const p = decl.campo.incidencia;
      if (!p) throw conflict(`Un ${proceso} no tiene paso de incidencias: se activa o se rechaza tras las actuaciones en campo.`);
      if (!(a.codigo in INCIDENCIAS_ATR)) throw new ValidationError([`El código ${a.codigo} no es una incidencia de la tabla 28.`]);
      if (a.fechaPrevista && !(a.fechaPrevista >= hoy)) {
        throw new ValidationError(['La nueva fecha prevista no puede ser anterior a hoy.']);
      }
      const [{ n } = { n: 0 }] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(expedienteEventos)
        .where(and(eq(expedienteEventos.expedienteId, e.id), eq(expedienteEventos.accion, 'incidencia')));
      const texto = INCIDENCIAS_ATR[a.codigo as IncidenciaAtr];
      await escribir(p, incidencia({ ...c, paso: p }, a.codigo, a.comentario, a.fechaPrevista, ahora), n ? `_${n + 1}` : '');
      const vence = a.fechaPrevista ?? e.vence;
      paso = { accion: 'incidencia', paso: p, turno: 'distribuidora', vence, estado: 'incidencia' };
      extra = { incidencia: { codigo: a.codigo, texto, comentario: a.comentario }, ...(vence ? { activacionPrevista: vence } : {}) };
      hecho = `Incidencia en la solicitud ATR ${c.solicitud} (${proceso}): ${texto}. ${a.comentario}`;
    }

    await registrarPaso(
      tx,
      e,
      {
        accion: paso.accion,
        paso: paso.paso,
        lado: 'distribuidora',
        turno: paso.turno,
        vence: paso.vence,
        plazoRegla: paso.vence ? 'activación prevista' : null,
        momento: ahora,
        datos: { estado: paso.estado, ...extra, mensajes },
        cambios: {
          datos: {
            ...d,
            estado: paso.estado,
            ...(extra.activacion ? { activacion: extra.activacion } : {}),
            ...(extra.activacionPrevista ? { activacionPrevista: extra.activacionPrevista } : {}),
            mensajes: rutas,
          },
        },
      },
      actor,
    );
    if (deps.publicUrl) {
      await avisarOtraParte(tx, e, {
        destino: 'solicitante',
        referencia: referenciaAtr(e),
        hecho,
        mensaje: `El mensaje ${proceso}${paso.paso} está en su carpeta ${e.distribuidora}/salida del intercambio de ficheros.`,
        pendiente: null,
        enlace: `${deps.publicUrl}/comercializadora/solicitud-atr/${e.id}`,
        ahora,
      });
    }
    return (await bloquearExpediente(tx, e.id))!;
  });
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
