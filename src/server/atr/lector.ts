/**
 * The ATR reader of the file exchange (docs/decisions/020): every file a supply company drops
 * directly into `/<distribuidora>/entrada` is read, and answered in `/<distribuidora>/salida`.
 *
 * - A file that is no message, or a hostile one, or one whose header is not this company to this
 *   distributor, or a request already received, is moved to `entrada/rechazados` with a `.txt`
 *   beside it that says why, in Spanish. Nothing else is lost, and the reader goes on.
 * - A customer's self-reading (W1 01) goes to the readings feature, which stores it and answers
 *   W1 02 (docs/decisions/049), and so does a company's answer to its D1 notice (decision 050);
 *   a claim (R1) to the contact feature's claim cases (decision 046).
 * - A request (step 01 of C1, C2, A3, M1, B1) opens an ATR case (the case core of
 *   docs/decisions/017, procedure `atr`) and is answered at once with its step 02: the acceptance
 *   of that process, or a `MensajeRechazo` with every table 27 reason found. Each answer is valid
 *   against the CNMC schema of its message.
 * - An anulación of a request not yet activated closes it and is accepted; of one activated, it is
 *   rejected (table 27 code 43), except a B1 that keeps its supply cut: its anulación asks for the
 *   reposición, and the supply is put back in service (docs/decisions/048).
 *
 * Files are taken with `FOR UPDATE SKIP LOCKED`, in batches, inside one transaction per batch:
 * every process of the portal can run the reader, none reads a file twice, and a reader that dies
 * leaves its batch for another. Memory holds one batch of messages (each at most 1 MB).
 */
import { randomUUID } from 'node:crypto';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import {
  MOTIVOS_ATR,
  PROCESO,
  procesoDeSolicitud,
  RAIZ_ANULACION,
  PROCESOS_ATR,
  type MotivoAtr,
  type ProcesoAtr,
} from '../../lib/atr/procesos.ts';
import { CODIGO_TARIFA } from '../../lib/sips/columnas.ts';
import { cupsBase, errorCups } from '../../lib/cups.ts';
import { MAX_NOMBRE_BYTES, RECHAZADOS, nombreDe } from '../../lib/intercambio/rutas.ts';
import { calendarioDe } from '../../lib/expedientes/calendarios.ts';
import { diaDe, venceEnHabiles, type Calendario } from '../../lib/expedientes/plazos.ts';
import { comprobarPotencias } from '../../lib/modificaciones/reglas.ts';
import { errorTarifaTension } from '../../lib/atr/formulario.ts';
import { fechaLocalDe } from '../../lib/calendario/hora-civil.ts';
import { normalizarNif } from '../../lib/nif.ts';
import type { Db } from '../db/client.ts';
import { audit } from '../auditoria/service.ts';
import {
  auditLog,
  distribuidoras,
  expedienteEventos,
  expedientes,
  ficherosIntercambio,
  ficherosIntercambioTrozos,
  lecturasContador,
  suministros,
  users,
} from '../db/schema.ts';
import { crearExpediente, registrarPaso, SISTEMA } from '../expedientes/service.ts';
import { actuar } from '../expedientes/procedimiento.ts';
import { PROCEDIMIENTO_ATR, SOLICITUDES_ATR } from './procedimiento.ts';
import type { FilaExpediente } from '../expedientes/acceso.ts';
import type { Clock } from '../http/context.ts';
import { depositar, mover, type CuentaIntercambio } from '../intercambio/almacen.ts';
import { contratoDe } from '../suministros/contrato.ts';
import {
  cabeceraDe,
  cabeceraRespuesta,
  condiciones,
  fechaHoraMadrid,
  mensaje,
  rechazo,
  type Cabecera,
  type MensajeAtr,
} from './respuestas.ts';
import { RAIZ_R101 } from '../contacto/r1.ts';
import { R1Ilegible, recibirR101, recibirR104, recibirR108 } from '../contacto/r1-entrada.ts';
import { RAIZ_R104, RAIZ_R108 } from '../contacto/r1-intercambio.ts';
import { RAIZ_W101 } from '../../lib/lecturas/w1.ts';
import { recibirW101, W1Apartado } from '../lecturas/w1.ts';
import { RAIZ_D102_ACEPTACION, RAIZ_D102_RECHAZO } from '../../lib/lecturas/d1.ts';
import { D1Apartado, recibirD102 } from '../lecturas/d1.ts';
import { MODULO } from './procesos/index.ts';
import { suministroDelCaso, type DatosAtr } from './vista.ts';
import { cortaElSuministro, esSuspension } from './procesos/b1.ts';
import { escribirMensaje, leerMensaje, lista, MensajeIlegible, validar, valor, type MensajeLeido } from './xml.ts';

export type { MensajeAtr };

/** Files read per batch (and per xmllint run of each schema). */
export const LOTE_LECTOR = 200;

interface Pendiente {
  id: number;
  usuarioId: string;
  distribuidora: string;
  ruta: string;
  bytes: number;
}

/** A file refused as a whole, with the reason for its `.txt`. */
class FicheroRechazado extends Error {}

type Suministro = typeof suministros.$inferSelect;

/**
 * The activation a request asks for (table 8: A as soon as possible, F on a date, L with the next
 * reading), and its date, counted in business days of the supply point's calendar (decision 040).
 */
function activacionPrevista(m: MensajeLeido, cuerpo: string, hoy: string, cal: Calendario): { tipo: string; fecha: string } {
  const ind = valor(m.arbol, cuerpo, 'DatosSolicitud', 'IndActivacion');
  const fecha = valor(m.arbol, cuerpo, 'DatosSolicitud', 'FechaPrevistaAccion');
  if (ind === 'F' && fecha && fecha > hoy) return { tipo: 'F0', fecha };
  if (ind === 'L') return { tipo: 'L0', fecha: venceEnHabiles(hoy, 5, cal) };
  return { tipo: 'A0', fecha: venceEnHabiles(hoy, 1, cal) };
}

/** The acceptance (step 02) of a request. */
function aceptacion(
  proceso: ProcesoAtr,
  c: Cabecera,
  m: MensajeLeido,
  s: Suministro,
  pedido: Pedido,
  ultimaLectura: string,
  ahora: Date,
  cal: Calendario,
): { xml: string; activacion: string } {
  const hoy = diaDe(ahora);
  const act = activacionPrevista(m, PROCESO[proceso].solicitud.cuerpo, hoy, cal);
  const condicionesPedidas = condiciones(pedido.tarifa ?? s.tarifa, pedido.potenciasW ?? s.potenciasW);
  const raiz = PROCESO[proceso].aceptacion;
  const cuerpo = raiz.replace(/^Mensaje/, '');
  const datos = MODULO[proceso].aceptacion({ hoy, s, condiciones: condicionesPedidas, activacion: act, ultimaLectura });
  return {
    xml: escribirMensaje({ n: raiz, h: [cabeceraRespuesta(c, '02', ahora), { n: cuerpo, h: datos }] }),
    activacion: act.fecha,
  };
}

/**
 * The day of the supply point's last firm reading (FechaUltimaLecturaFirme of the C1, C2 and B1
 * acceptances): its last real reading of the registers (remote or by a reader; an estimate or the
 * customer's own reading is not firm) up to now, in Madrid's calendar. A point never read since its
 * contract began has the reading taken when it began: its start date.
 */
export async function ultimaLecturaFirme(tx: Db, s: Suministro, ahora: Date): Promise<string> {
  const [l] = await tx
    .select({ momento: lecturasContador.momento })
    .from(lecturasContador)
    .where(and(eq(lecturasContador.suministroId, s.id), eq(lecturasContador.origen, 'real'), sql`${lecturasContador.momento} <= ${ahora}`))
    .orderBy(desc(lecturasContador.momento))
    .limit(1);
  return l ? fechaLocalDe(l.momento) : s.fechaAlta;
}

/** What a request asks to change: a tariff (table 17 code read back) and powers, when it carries them. */
interface Pedido {
  tarifa: string | null;
  potenciasW: number[] | null;
}

export function pedidoDe(proceso: ProcesoAtr, m: MensajeLeido): Pedido {
  const cond = ['Contrato', 'CondicionesContractuales'];
  const cuerpo = PROCESO[proceso].solicitud.cuerpo;
  const codigo = valor(m.arbol, cuerpo, ...cond, 'TarifaATR');
  const tarifa = codigo ? (Object.entries(CODIGO_TARIFA).find(([, c]) => c === codigo)?.[0] ?? null) : null;
  const potencias = lista(m.arbol, cuerpo, ...cond, 'PotenciasContratadas', 'Potencia')
    .map((p) => ({ periodo: Number(valor(p, '@Periodo') ?? NaN), w: Number(valor(p) ?? NaN) }))
    .filter((p) => Number.isInteger(p.periodo) && Number.isFinite(p.w))
    .sort((a, b) => a.periodo - b.periodo)
    .map((p) => p.w);
  return { tarifa, potenciasW: potencias.length ? potencias : null };
}

/** The reasons a request is refused for, in table 27 codes, from the supply point and the cases open on it. */
export async function motivosDe(
  tx: Db,
  proceso: ProcesoAtr,
  m: MensajeLeido,
  c: Cabecera,
  s: Suministro | undefined,
  empresaRee: string,
  pedido: Pedido,
) {
  const motivos: { codigo: MotivoAtr; comentario: string }[] = [];
  const con = (codigo: MotivoAtr, comentario: string = MOTIVOS_ATR[codigo]) => motivos.push({ codigo, comentario });
  if (!s) {
    con('01', `${MOTIVOS_ATR['01']}: la distribuidora no tiene el CUPS ${c.cups}.`);
    return motivos;
  }
  const decl = PROCESO[proceso];
  if (!decl.sobrePuntoDeBaja && s.fechaBaja) con('72', `${MOTIVOS_ATR['72']} desde el ${s.fechaBaja}.`);
  if (decl.sobrePuntoDeBaja && !s.fechaBaja) con('21');
  const nif = normalizarNif(valor(m.arbol, decl.solicitud.cuerpo, 'Cliente', 'IdCliente', 'Identificador') ?? '');
  const cambiaTitular =
    proceso === 'M1' && ['S', 'T'].includes(valor(m.arbol, decl.solicitud.cuerpo, 'DatosSolicitud', 'TipoSolicitudAdministrativa') ?? '');
  if (decl.delTitular && !cambiaTitular && nif !== s.titularNif) con('03');
  // Only the retailer of the supply point may change its contract or end it.
  if (decl.deSuComercializadora && s.comercializadoraCodigo !== empresaRee)
    con('11', `${MOTIVOS_ATR['11']}: el suministro no es de su comercializadora.`);
  // A change of retailer (C1, C2) asks for a retailer other than the one that supplies the point:
  // the retailer it already has changes the contract with an M1 instead (CNMC table 27 code 11).
  // A point whose contract ended has no retailer any more (72 says why it is refused).
  if (decl.cambioDeComercializador && !s.fechaBaja && s.comercializadoraCodigo === empresaRee)
    con('11', `${MOTIVOS_ATR['11']}: su comercializadora ya suministra este punto; para cambiar su contrato envíe un M1.`);
  // A supply already cut is not cut again (table 27 code 12); its reposición is the anulación of the B1 that cut it.
  if (s.suspendidoDesde && esSuspension(proceso, m)) {
    con('12', `${MOTIVOS_ATR['12']} desde el ${s.suspendidoDesde}: para reponerlo, anule el B1 que lo cortó.`);
  }
  const abiertos = await tx
    .select({ tipo: expedientes.tipo })
    .from(expedientes)
    .where(
      and(
        eq(expedientes.procedimiento, 'atr'),
        sql`${expedientes.cerradoEn} is null`,
        // A request may write the CUPS with its border-point suffix or without: the supply point is its first 20.
        sql`left(${expedientes.datos}->>'cups', 20) = ${cupsBase(c.cups)}`,
      ),
    );
  for (const p of PROCESOS_ATR) {
    const codigo = PROCESO[p].motivoEnCurso;
    if (codigo && abiertos.some((a) => a.tipo === p)) con(codigo);
  }
  // The tariff must be one the supply's voltage admits (table 27 code 17; Circular 3/2020 voltage bands).
  const error17 = decl.conContrato && pedido.tarifa ? errorTarifaTension(pedido.tarifa, s.tensionV) : null;
  if (error17) con('17', error17);
  if (decl.conContrato && pedido.potenciasW) {
    for (const e of comprobarPotencias(contratoDe(s), pedido.tarifa ?? s.tarifa, pedido.potenciasW)) {
      if (e.codigo && e.codigo in MOTIVOS_ATR && !motivos.some((x) => x.codigo === e.codigo)) con(e.codigo as MotivoAtr, e.mensaje);
    }
  }
  return motivos;
}

/** The reader's work on one batch of pending files. */
export async function leerEntradas(
  deps: { db: Db; clock: Clock; logger: Logger; publicUrl?: string | null },
  limite = LOTE_LECTOR,
): Promise<number> {
  return deps.db.transaction(async (tx) => {
    const pendientes = await tx
      .select({
        id: ficherosIntercambio.id,
        usuarioId: ficherosIntercambio.usuarioId,
        distribuidora: ficherosIntercambio.distribuidora,
        ruta: ficherosIntercambio.ruta,
        bytes: ficherosIntercambio.bytes,
      })
      .from(ficherosIntercambio)
      .where(and(sql`${ficherosIntercambio.procesadoEn} is null`, eq(ficherosIntercambio.carpeta, false)))
      .orderBy(ficherosIntercambio.modificadoEn, ficherosIntercambio.id)
      .limit(limite)
      .for('update', { skipLocked: true });
    if (pendientes.length === 0) return 0;
    const ahora = deps.clock.now();
    const leidos: { p: Pendiente; m: MensajeLeido | null; error: string | null }[] = [];
    for (const p of pendientes) {
      if (p.bytes > 1024 * 1024) {
        leidos.push({ p, m: null, error: `El fichero ocupa ${p.bytes.toLocaleString('es-ES')} bytes: un mensaje ATR no pasa de 1 MB.` });
        continue;
      }
      try {
        leidos.push({ p, m: leerMensaje(await bytesDe(tx, p.id)), error: null });
      } catch (err) {
        if (!(err instanceof MensajeIlegible)) throw err;
        leidos.push({ p, m: null, error: err.message });
      }
    }
    const validos = leidos.filter((l) => l.m);
    const errores = await validar(validos.map((l) => l.m!));
    validos.forEach((l, i) => {
      if (errores[i]!.length)
        l.error = `El mensaje no cumple el esquema de la CNMC (${l.m!.raiz}):\n${errores[i]!.map((e) => `- ${e}`).join('\n')}`;
    });
    const codigosRee = new Map(
      (
        await tx
          .select({ id: users.id, ree: users.codigoRee })
          .from(users)
          .where(inArray(users.id, [...new Set(pendientes.map((p) => p.usuarioId))]))
      ).map((u) => [u.id, u.ree]),
    );
    const reeDistribuidora = new Map(
      (await tx.select({ c: distribuidoras.codigo, r: distribuidoras.codigoRee }).from(distribuidoras)).map((d) => [d.c, d.r]),
    );
    let terminados = 0;
    for (const l of leidos) {
      const cuenta: CuentaIntercambio = { id: l.p.usuarioId, distribuidoras: [l.p.distribuidora] };
      try {
        // A savepoint per file, setting it aside included: a file that can be neither answered nor
        // set aside leaves nothing behind, and never holds back the other files of the batch.
        await tx.transaction(async (fichero) => {
          await tramitar(
            fichero,
            deps.logger,
            l,
            cuenta,
            codigosRee.get(l.p.usuarioId) ?? null,
            reeDistribuidora.get(l.p.distribuidora)!,
            ahora,
            deps.publicUrl ?? null,
          );
          await fichero.update(ficherosIntercambio).set({ procesadoEn: ahora }).where(eq(ficherosIntercambio.id, l.p.id));
        });
        terminados++;
      } catch (err) {
        if (await fallido(tx, deps.logger, l.p, err, ahora)) terminados++;
      }
    }
    deps.logger.info({ ficheros: pendientes.length, terminados }, 'mensajes ATR leídos');
    return terminados;
  });
}

async function bytesDe(tx: Db, id: number): Promise<Uint8Array> {
  const trozos = await tx
    .select({ hex: sql<string>`encode(${ficherosIntercambioTrozos.datos}, 'hex')` })
    .from(ficherosIntercambioTrozos)
    .where(eq(ficherosIntercambioTrozos.ficheroId, id))
    .orderBy(ficherosIntercambioTrozos.n);
  return Buffer.concat(trozos.map((t) => Buffer.from(t.hex, 'hex')));
}

/** One file read: answered, or set aside with its reason. Throws when it cannot even be set aside. */
async function tramitar(
  tx: Db,
  logger: Logger,
  l: { p: Pendiente; m: MensajeLeido | null; error: string | null },
  cuenta: CuentaIntercambio,
  empresaRee: string | null,
  distribuidoraRee: string,
  ahora: Date,
  publicUrl: string | null,
) {
  try {
    if (l.error) throw new FicheroRechazado(l.error);
    // Its own savepoint: a request that fails half-way leaves nothing behind before it is set aside.
    await tx.transaction((sp) => atender(sp, l.p, l.m!, cuenta, empresaRee, distribuidoraRee, ahora, publicUrl));
  } catch (err) {
    if (err instanceof FicheroRechazado) await apartar(tx, cuenta, l.p, err.message, ahora);
    else {
      // Never a file that stops the exchange: it is set aside, said so, and the error logged for the staff.
      logger.error({ err, fichero: l.p.ruta }, 'error al tramitar un mensaje ATR');
      await apartar(
        tx,
        cuenta,
        l.p,
        'No se pudo tramitar por un error de la distribuidora. Vuelva a enviarlo más tarde; si se repite, avísenos.',
        ahora,
      );
    }
  }
}

/** Tries a file gets (one per reading, about LECTOR_CADA_MS apart) before the reader gives up on it. */
export const INTENTOS_LECTOR = 3;
/** The audit entries of a file the reader could not finish, and of one it gave up on (the staff's audit view shows both). */
export const AUDITORIA_FALLO = 'intercambio.fichero_fallido';
export const AUDITORIA_ABANDONO = 'intercambio.fichero_abandonado';

/**
 * A file that could be neither answered nor set aside: each try is written to the audit log, where
 * the distributor's staff see it; after INTENTOS_LECTOR the reader gives up on it (it stays in
 * entrada, read no more) and says so there. Answers whether the reader is done with the file.
 */
async function fallido(tx: Db, logger: Logger, p: Pendiente, err: unknown, ahora: Date): Promise<boolean> {
  logger.error({ err, fichero: p.ruta }, 'no se pudo tramitar ni apartar un mensaje ATR');
  const [{ previos } = { previos: 0 }] = await tx
    .select({ previos: sql<number>`count(*)::int` })
    .from(auditLog)
    .where(and(eq(auditLog.action, AUDITORIA_FALLO), eq(auditLog.targetType, 'fichero_intercambio'), eq(auditLog.targetId, String(p.id))));
  const intento = Number(previos) + 1;
  const abandonado = intento >= INTENTOS_LECTOR;
  const entrada = (action: string) =>
    audit(tx, {
      action,
      actorUserId: p.usuarioId,
      targetType: 'fichero_intercambio',
      targetId: String(p.id),
      distribuidoras: [p.distribuidora],
      details: {
        ruta: p.ruta,
        intento,
        de: INTENTOS_LECTOR,
        error: err instanceof Error ? err.message : String(err),
        ...(abandonado ? { motivo: 'El lector ATR no pudo tramitar ni apartar el fichero: se deja en entrada sin leer.' } : {}),
      },
    });
  await entrada(AUDITORIA_FALLO);
  if (!abandonado) return false;
  await entrada(AUDITORIA_ABANDONO);
  await tx.update(ficherosIntercambio).set({ procesadoEn: ahora }).where(eq(ficherosIntercambio.id, p.id));
  return true;
}

const bytesUtf8 = (s: string) => Buffer.byteLength(s, 'utf8');

/**
 * Where a file is set aside in entrada/rechazados: its own name (over an older rejected file of
 * that name, as a re-sent file replaces it), unless that name or its `.txt` is a folder there or
 * would be too long; then the name with the file's id, then a random one. A company's folders can
 * never make a file impossible to set aside.
 */
async function destinoApartado(tx: Db, p: Pendiente): Promise<string> {
  const carpeta = `/${p.distribuidora}/entrada/${RECHAZADOS}`;
  const nombre = nombreDe(p.ruta);
  const puntoExt = nombre.lastIndexOf('.');
  const ext = puntoExt > 0 && nombre.length - puntoExt <= 10 ? nombre.slice(puntoExt) : '';
  const base = ext ? nombre.slice(0, puntoExt) : nombre;
  const candidatos = [nombre, `${base}-${p.id}${ext}`, `rechazado-${p.id}-${randomUUID()}${ext}`].filter(
    (n) => bytesUtf8(`${n}.txt`) <= MAX_NOMBRE_BYTES,
  );
  for (const n of candidatos) {
    const destino = `${carpeta}/${n}`;
    const [carpetaYa] = await tx
      .select({ id: ficherosIntercambio.id })
      .from(ficherosIntercambio)
      .where(
        and(
          eq(ficherosIntercambio.usuarioId, p.usuarioId),
          inArray(ficherosIntercambio.ruta, [destino, `${destino}.txt`]),
          eq(ficherosIntercambio.carpeta, true),
        ),
      )
      .limit(1);
    if (!carpetaYa) return destino;
  }
  throw new Error(`No hay un nombre libre en ${carpeta} para ${nombre}.`);
}

/** Moves a file to entrada/rechazados with the reason beside it. */
async function apartar(tx: Db, cuenta: CuentaIntercambio, p: Pendiente, motivo: string, ahora: Date) {
  const destino = await destinoApartado(tx, p);
  await mover(tx, cuenta, p.ruta, destino, ahora, { reemplazar: true });
  const otroNombre = nombreDe(destino) !== nombreDe(p.ruta) ? `Apartado como: ${nombreDe(destino)}\n` : '';
  const texto = `Fichero: ${nombreDe(p.ruta)}\n${otroNombre}Recibido y leído: ${fechaHoraMadrid(ahora)} (hora de Madrid)\n\nNo se ha tramitado:\n${motivo}\n`;
  await depositar(tx, cuenta, `${destino}.txt`, Buffer.from(texto.replace(/\n/g, '\r\n'), 'utf8'), ahora);
}

/** Reads one valid message: a request, or an anulación. */
async function atender(
  tx: Db,
  p: Pendiente,
  m: MensajeLeido,
  cuenta: CuentaIntercambio,
  empresaRee: string | null,
  distribuidoraRee: string,
  ahora: Date,
  publicUrl: string | null,
): Promise<void> {
  if (!empresaRee) {
    throw new FicheroRechazado(
      'Su empresa no tiene código REE (tabla 1 de la CNMC) registrado en el portal: pida a la distribuidora que lo registre.',
    );
  }
  // A claim (R1 01) joins the claim cases of the contact feature, which answers it (docs/decisions/046).
  if (m.raiz === RAIZ_R101 || m.raiz === RAIZ_R104 || m.raiz === RAIZ_R108) {
    const entorno = { clock: { now: () => ahora }, publicUrl };
    try {
      if (m.raiz === RAIZ_R104) return await recibirR104(tx, p, m, empresaRee, distribuidoraRee, entorno);
      if (m.raiz === RAIZ_R108) return await recibirR108(tx, p, m, cuenta, empresaRee, distribuidoraRee, entorno);
      return await recibirR101(tx, p, m, cuenta, empresaRee, distribuidoraRee, entorno);
    } catch (err) {
      if (err instanceof R1Ilegible) throw new FicheroRechazado(err.message);
      throw err;
    }
  }
  const c = cabeceraDe(m);
  if (c.emisora !== empresaRee)
    throw new FicheroRechazado(`CodigoREEEmpresaEmisora es ${c.emisora}, pero el código de su empresa es ${empresaRee}.`);
  if (c.destino !== distribuidoraRee) {
    throw new FicheroRechazado(`CodigoREEEmpresaDestino es ${c.destino}, pero esta carpeta es de la distribuidora ${distribuidoraRee}.`);
  }
  if (errorCups(c.cups)) throw new FicheroRechazado(`El CUPS ${c.cups} no es válido (letras de control o formato).`);
  // A company's answer to the distributor's D1 notice is the readings feature's too (docs/decisions/050).
  if (m.raiz === RAIZ_D102_ACEPTACION || m.raiz === RAIZ_D102_RECHAZO) {
    try {
      return await recibirD102(tx, p, m, c, ahora);
    } catch (err) {
      if (err instanceof D1Apartado) throw new FicheroRechazado(err.message);
      throw err;
    }
  }
  // A self-reading (W1 01) is the readings feature's: it stores it and answers (docs/decisions/049).
  if (m.raiz === RAIZ_W101) {
    try {
      await recibirW101(tx, p, m, c, cuenta, ahora);
      return;
    } catch (err) {
      if (err instanceof W1Apartado) throw new FicheroRechazado(err.message);
      throw err;
    }
  }
  const proceso =
    m.raiz === RAIZ_ANULACION
      ? (PROCESOS_ATR as readonly string[]).includes(c.proceso)
        ? (c.proceso as ProcesoAtr)
        : null
      : procesoDeSolicitud(m.raiz);
  if (!proceso || c.proceso !== proceso) throw new FicheroRechazado(`CodigoDelProceso ${c.proceso} no corresponde al mensaje ${m.raiz}.`);
  const previo = await casoDe(tx, p.usuarioId, c.solicitud);
  if (m.raiz === RAIZ_ANULACION) {
    if (c.paso !== PROCESO[proceso].anulacion.paso) {
      throw new FicheroRechazado(`Una anulación de ${proceso} es el paso ${PROCESO[proceso].anulacion.paso}, no el ${c.paso}.`);
    }
    return anular(tx, p, m, c, proceso, previo, cuenta, ahora);
  }
  if (c.paso !== '01') throw new FicheroRechazado(`Una solicitud ${proceso} es el paso 01, no el ${c.paso}.`);
  if (previo)
    throw new FicheroRechazado(
      `La solicitud ${c.solicitud} ya se recibió el ${diaDe(previo.createdAt)}: cada solicitud lleva su propio CodigoDeSolicitud.`,
    );

  const [s] = await tx
    .select()
    .from(suministros)
    .where(and(eq(suministros.cups, cupsBase(c.cups)), eq(suministros.distribuidora, p.distribuidora)));
  const pedido = pedidoDe(proceso, m);
  const motivos = await motivosDe(tx, proceso, m, c, s, empresaRee, pedido);
  const caso = await crearExpediente(tx, {
    procedimiento: PROCEDIMIENTO_ATR,
    distribuidora: p.distribuidora,
    userId: p.usuarioId,
    paso: 'recibida',
    tipo: proceso,
    datos: {
      proceso,
      codigoSolicitud: c.solicitud,
      secuencial: c.secuencial,
      cups: c.cups,
      pedido,
      pasoCnmc: '01',
      mensajes: [{ paso: '01', ruta: p.ruta }],
    } satisfies DatosAtr,
  });
  const hoy = diaDe(ahora);
  const calendario = calendarioDe({ distribuidora: p.distribuidora, provincia: s?.provincia, municipio: s?.municipio });
  await registrarPaso(
    tx,
    caso,
    {
      accion: 'recibir',
      paso: 'recibida',
      lado: 'solicitante',
      turno: 'distribuidora',
      // Business days of the supply point's region and municipality (Ley 39/2015 art. 30.6, decision 040).
      vence: venceEnHabiles(hoy, PROCESO[proceso].habilesRespuesta, calendario),
      plazoRegla: `${PROCESO[proceso].habilesRespuesta} días hábiles`,
      momento: ahora,
      presentar: true,
      datos: { mensajes: [mensaje('01', p.ruta, 'empresa', m.texto)] },
      auditoria: { pasoCnmc: '01' },
    },
    { ...SISTEMA, userId: p.usuarioId },
  );
  // The answer, step 02, is the distributor's: taken on the core as the procedure declares it.
  const ruta = `/${p.distribuidora}/salida/${proceso}02_${c.solicitud}_${c.secuencial}.xml`;
  const deps = { db: tx, clock: { now: () => ahora }, publicUrl: null };
  if (motivos.length) {
    const respuesta = { salida: { paso: '02', ruta, xml: rechazo(c, '02', motivos, ahora) }, vence: null, regla: null, datos: { motivos } };
    await actuar(SOLICITUDES_ATR, deps, caso.id, 'distribuidora', 'rechazar', { accion: 'respuesta', respuesta }, SISTEMA);
    return;
  }
  const { xml, activacion } = aceptacion(proceso, c, m, s!, pedido, await ultimaLecturaFirme(tx, s!, ahora), ahora, calendario);
  const respuesta = {
    salida: { paso: '02', ruta, xml },
    vence: activacion,
    regla: 'activación prevista',
    datos: { activacionPrevista: activacion },
    cambios: { activacionPrevista: activacion },
  };
  await actuar(SOLICITUDES_ATR, deps, caso.id, 'distribuidora', 'aceptar', { accion: 'respuesta', respuesta }, SISTEMA);
}

/** A company's ATR case by the request code it gave. */
async function casoDe(tx: Db, usuarioId: string, codigo: string): Promise<FilaExpediente | undefined> {
  const [e] = await tx
    .select()
    .from(expedientes)
    .where(
      and(
        eq(expedientes.procedimiento, 'atr'),
        eq(expedientes.userId, usuarioId),
        sql`${expedientes.datos}->>'codigoSolicitud' = ${codigo}`,
      ),
    )
    .for('update');
  return e;
}

/** An anulación: accepted while the request is not activated nor closed, rejected (43) once it is. */
async function anular(
  tx: Db,
  p: Pendiente,
  m: MensajeLeido,
  c: Cabecera,
  proceso: ProcesoAtr,
  caso: FilaExpediente | undefined,
  cuenta: CuentaIntercambio,
  ahora: Date,
) {
  const paso = PROCESO[proceso].anulacion.respuesta;
  const ruta = `/${p.distribuidora}/salida/${proceso}${paso}_${c.solicitud}_${c.secuencial}.xml`;
  if (!caso || caso.tipo !== proceso || caso.distribuidora !== p.distribuidora) {
    // A well-formed anulación is answered, never set aside: its step rejects it with the table 27
    // reason D2 (no previous request), as the CNMC's anulación steps (08/09, 06/07, 03/04) provide.
    const motivo = {
      codigo: 'D2' as const,
      comentario: `${MOTIVOS_ATR.D2}: no hay ninguna solicitud ${proceso} con el código ${c.solicitud} de su empresa en esta distribuidora.`,
    };
    await depositar(tx, cuenta, ruta, Buffer.from(rechazo(c, paso, [motivo], ahora)), ahora);
    return;
  }
  const mensajes = [
    ...(((caso.datos as { mensajes?: unknown[] }).mensajes ?? []) as unknown[]),
    { paso: c.paso, ruta: p.ruta },
    { paso, ruta },
  ];
  if (caso.cerradoEn && proceso === 'B1') {
    const s = await suministroDelCaso(tx, caso, true);
    if (cortaElSuministro({ paso: caso.paso, datos: caso.datos as DatosAtr }, s, c.emisora))
      return reponer(tx, p, m, c, caso, s!, cuenta, mensajes, ahora);
  }
  if (caso.cerradoEn) {
    const motivo = { codigo: '43' as const, comentario: `${MOTIVOS_ATR['43']} o cerrada.` };
    const xmlRechazo = rechazo(c, paso, [motivo], ahora);
    await depositar(tx, cuenta, ruta, Buffer.from(xmlRechazo), ahora);
    await tx
      .update(expedientes)
      .set({ datos: { ...caso.datos, mensajes } })
      .where(eq(expedientes.id, caso.id));
    // The closed case's timeline keeps both messages; its step, turn and closing stay as they were.
    await tx.insert(expedienteEventos).values({
      expedienteId: caso.id,
      accion: 'anulacion_rechazada',
      paso: caso.paso,
      lado: 'distribuidora',
      momento: ahora,
      datos: {
        motivos: [motivo],
        mensajes: [mensaje(c.paso, p.ruta, 'empresa', m.texto), mensaje(paso, ruta, 'distribuidora', xmlRechazo)],
      },
    });
    return;
  }
  const raiz = PROCESO[proceso].anulacion.aceptacion;
  const xml = escribirMensaje({
    n: raiz,
    // Both acceptances (MensajeAceptacionAnulacion and B1's MensajeAceptacionAnulacionBaja) carry an AceptacionAnulacion.
    h: [cabeceraRespuesta(c, paso, ahora), { n: 'AceptacionAnulacion', h: [{ n: 'FechaAceptacion', t: diaDe(ahora) }] }],
  });
  const respuesta = {
    entrada: { paso: c.paso, ruta: p.ruta, xml: m.texto },
    salida: { paso, ruta, xml },
    vence: null,
    regla: null,
  };
  await actuar(
    SOLICITUDES_ATR,
    { db: tx, clock: { now: () => ahora }, publicUrl: null },
    caso.id,
    'solicitante',
    'anular',
    { accion: 'respuesta', respuesta },
    { ...SISTEMA, userId: p.usuarioId },
  );
}

/**
 * The reposición of a supply cut by this B1 (table 10 reason 03), asked by its anulación once
 * activated (docs/decisions/048): the point is back in service today, the anulación is accepted
 * in its step (B1 04, MensajeAceptacionAnulacionBaja), and the closed case records the day.
 */
async function reponer(
  tx: Db,
  p: Pendiente,
  m: MensajeLeido,
  c: Cabecera,
  caso: FilaExpediente,
  s: Suministro,
  cuenta: CuentaIntercambio,
  mensajes: unknown[],
  ahora: Date,
) {
  const paso = PROCESO.B1.anulacion.respuesta;
  const ruta = `/${p.distribuidora}/salida/B1${paso}_${c.solicitud}_${c.secuencial}.xml`;
  const hoy = diaDe(ahora);
  const xml = escribirMensaje({
    n: PROCESO.B1.anulacion.aceptacion,
    h: [cabeceraRespuesta(c, paso, ahora), { n: 'AceptacionAnulacion', h: [{ n: 'FechaAceptacion', t: hoy }] }],
  });
  await depositar(tx, cuenta, ruta, Buffer.from(xml), ahora);
  await tx.update(suministros).set({ suspendidoDesde: null, updatedAt: ahora }).where(eq(suministros.id, s.id));
  await tx
    .update(expedientes)
    .set({ datos: { ...caso.datos, repuesto: hoy, mensajes }, updatedAt: ahora })
    .where(eq(expedientes.id, caso.id));
  await tx.insert(expedienteEventos).values({
    expedienteId: caso.id,
    accion: 'reponer',
    paso: caso.paso,
    lado: 'distribuidora',
    momento: ahora,
    datos: {
      repuesto: hoy,
      suspendidoDesde: s.suspendidoDesde,
      mensajes: [mensaje(c.paso, p.ruta, 'empresa', m.texto), mensaje(paso, ruta, 'distribuidora', xml)],
    },
  });
  await audit(tx, {
    action: 'atr.reponer',
    actorUserId: p.usuarioId,
    targetType: 'expediente',
    targetId: caso.id,
    distribuidoras: [p.distribuidora],
    details: { cups: s.cups, suspendidoDesde: s.suspendidoDesde, repuesto: hoy },
  });
}
