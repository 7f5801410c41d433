/**
 * The ATR reader of the file exchange (docs/decisions/020): every file a supply company drops
 * directly into `/<distribuidora>/entrada` is read, and answered in `/<distribuidora>/salida`.
 *
 * - A file that is no message, or a hostile one, or one whose header is not this company to this
 *   distributor, or a request already received, is moved to `entrada/rechazados` with a `.txt`
 *   beside it that says why, in Spanish. Nothing else is lost, and the reader goes on.
 * - A request (step 01 of C1, C2, A3, M1, B1) opens an ATR case (the case core of
 *   docs/decisions/017, procedure `atr`) and is answered at once with its step 02: the acceptance
 *   of that process, or a `MensajeRechazo` with every table 27 reason found. Each answer is valid
 *   against the CNMC schema of its message.
 * - An anulación of a request not yet activated closes it and is accepted; of one activated, it is
 *   rejected (table 27 code 43).
 *
 * Files are taken with `FOR UPDATE SKIP LOCKED`, in batches, inside one transaction per batch:
 * every process of the portal can run the reader, none reads a file twice, and a reader that dies
 * leaves its batch for another. Memory holds one batch of messages (each at most 1 MB).
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import {
  HABILES_RESPUESTA,
  MENSAJES_PROCESO,
  MOTIVO_EN_CURSO,
  MOTIVOS_ATR,
  procesoDeSolicitud,
  RAIZ_ANULACION,
  PROCESOS_ATR,
  type MotivoAtr,
  type ProcesoAtr,
} from '../../lib/atr/procesos.ts';
import { CODIGO_TARIFA } from '../../lib/sips/columnas.ts';
import { errorCups } from '../../lib/cups.ts';
import { RECHAZADOS, nombreDe } from '../../lib/intercambio/rutas.ts';
import { diaDe, venceEnHabiles } from '../../lib/expedientes/plazos.ts';
import { comprobarPotencias } from '../../lib/modificaciones/reglas.ts';
import { errorTarifaTension } from '../../lib/atr/formulario.ts';
import { normalizarNif } from '../../lib/nif.ts';
import type { Db } from '../db/client.ts';
import {
  distribuidoras,
  expedienteEventos,
  expedientes,
  ficherosIntercambio,
  ficherosIntercambioTrozos,
  suministros,
  users,
} from '../db/schema.ts';
import { crearExpediente, registrarPaso, SISTEMA } from '../expedientes/service.ts';
import type { FilaExpediente } from '../expedientes/acceso.ts';
import type { Clock } from '../http/context.ts';
import { depositar, mover, type CuentaIntercambio } from '../intercambio/almacen.ts';
import { contratoDe } from '../modificaciones/comun.ts';
import {
  cabeceraDe,
  cabeceraRespuesta,
  condiciones,
  CUERPO,
  fechaHoraMadrid,
  mensaje,
  rechazo,
  type Cabecera,
  type MensajeAtr,
} from './respuestas.ts';
import { escribirMensaje, leerMensaje, lista, MensajeIlegible, validar, valor, type MensajeLeido, type Nodo } from './xml.ts';

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

/** The activation a request asks for (table 8: A as soon as possible, F on a date, L with the next reading), and its date. */
function activacionPrevista(m: MensajeLeido, cuerpo: string, hoy: string): { tipo: string; fecha: string } {
  const ind = valor(m.arbol, cuerpo, 'DatosSolicitud', 'IndActivacion');
  const fecha = valor(m.arbol, cuerpo, 'DatosSolicitud', 'FechaPrevistaAccion');
  if (ind === 'F' && fecha && fecha > hoy) return { tipo: 'F0', fecha };
  if (ind === 'L') return { tipo: 'L0', fecha: venceEnHabiles(hoy, 5) };
  return { tipo: 'A0', fecha: venceEnHabiles(hoy, 1) };
}

/** The acceptance (step 02) of a request. */
function aceptacion(
  proceso: ProcesoAtr,
  c: Cabecera,
  m: MensajeLeido,
  s: Suministro,
  pedido: Pedido,
  ahora: Date,
): { xml: string; activacion: string } {
  const hoy = diaDe(ahora);
  const act = activacionPrevista(m, CUERPO[proceso], hoy);
  const cond = condiciones(pedido.tarifa ?? s.tarifa, pedido.potenciasW ?? s.potenciasW);
  const ultimaLectura = venceEnHabiles(hoy, 0);
  const raiz = MENSAJES_PROCESO[proceso].aceptacion;
  const cuerpo = raiz.replace(/^Mensaje/, '');
  const datos: Record<ProcesoAtr, Nodo[]> = {
    C1: [
      {
        n: 'DatosAceptacion',
        h: [
          { n: 'FechaAceptacion', t: hoy },
          { n: 'ActuacionCampo', t: 'N' },
          { n: 'FechaUltimaLecturaFirme', t: ultimaLectura },
        ],
      },
      {
        n: 'Contrato',
        h: [
          { n: 'TipoContratoATR', t: '01' },
          cond,
          { n: 'TipoActivacionPrevista', t: act.tipo },
          { n: 'FechaActivacionPrevista', t: act.fecha },
        ],
      },
    ],
    C2: [
      {
        n: 'DatosAceptacion',
        h: [
          { n: 'FechaAceptacion', t: hoy },
          { n: 'PotenciaActual', t: String(Math.max(...s.potenciasW)) },
          { n: 'ActuacionCampo', t: 'N' },
          { n: 'FechaUltimaLecturaFirme', t: ultimaLectura },
        ],
      },
      {
        n: 'Contrato',
        h: [
          { n: 'TipoContratoATR', t: '01' },
          cond,
          { n: 'TipoActivacionPrevista', t: act.tipo },
          { n: 'FechaActivacionPrevista', t: act.fecha },
        ],
      },
    ],
    A3: [
      {
        n: 'DatosAceptacion',
        h: [
          { n: 'FechaAceptacion', t: hoy },
          { n: 'ActuacionCampo', t: 'N' },
        ],
      },
      { n: 'Contrato', h: [cond, { n: 'TipoActivacionPrevista', t: act.tipo }, { n: 'FechaActivacionPrevista', t: act.fecha }] },
    ],
    M1: [
      {
        n: 'DatosAceptacion',
        h: [
          { n: 'FechaAceptacion', t: hoy },
          { n: 'ActuacionCampo', t: 'N' },
        ],
      },
      {
        n: 'Contrato',
        h: [
          { n: 'TipoContratoATR', t: '01' },
          cond,
          { n: 'TipoActivacionPrevista', t: act.tipo },
          { n: 'FechaActivacionPrevista', t: act.fecha },
        ],
      },
    ],
    B1: [
      {
        n: 'DatosAceptacion',
        h: [
          { n: 'FechaAceptacion', t: hoy },
          { n: 'ActuacionCampo', t: 'N' },
          { n: 'FechaUltimaLecturaFirme', t: ultimaLectura },
          { n: 'TipoActivacionPrevista', t: act.tipo },
          { n: 'FechaActivacionPrevista', t: act.fecha },
        ],
      },
    ],
  };
  return {
    xml: escribirMensaje({ n: raiz, h: [cabeceraRespuesta(c, '02', ahora), { n: cuerpo, h: datos[proceso] }] }),
    activacion: act.fecha,
  };
}

/** What a request asks to change: a tariff (table 17 code read back) and powers, when it carries them. */
interface Pedido {
  tarifa: string | null;
  potenciasW: number[] | null;
}

export function pedidoDe(proceso: ProcesoAtr, m: MensajeLeido): Pedido {
  const cond = ['Contrato', 'CondicionesContractuales'];
  const codigo = valor(m.arbol, CUERPO[proceso], ...cond, 'TarifaATR');
  const tarifa = codigo ? (Object.entries(CODIGO_TARIFA).find(([, c]) => c === codigo)?.[0] ?? null) : null;
  const potencias = lista(m.arbol, CUERPO[proceso], ...cond, 'PotenciasContratadas', 'Potencia')
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
  if (proceso !== 'A3' && s.fechaBaja) con('72', `${MOTIVOS_ATR['72']} desde el ${s.fechaBaja}.`);
  if (proceso === 'A3' && !s.fechaBaja) con('21');
  const nif = normalizarNif(valor(m.arbol, CUERPO[proceso], 'Cliente', 'IdCliente', 'Identificador') ?? '');
  const cambiaTitular =
    proceso === 'M1' && ['S', 'T'].includes(valor(m.arbol, CUERPO[proceso], 'DatosSolicitud', 'TipoSolicitudAdministrativa') ?? '');
  if (['C1', 'C2', 'M1', 'B1'].includes(proceso) && !cambiaTitular && nif !== s.titularNif) con('03');
  // Only the retailer of the supply point may change its contract or end it.
  if ((proceso === 'M1' || proceso === 'B1') && s.comercializadoraCodigo !== empresaRee)
    con('11', `${MOTIVOS_ATR['11']}: el suministro no es de su comercializadora.`);
  const abiertos = await tx
    .select({ tipo: expedientes.tipo })
    .from(expedientes)
    .where(
      and(eq(expedientes.procedimiento, 'atr'), sql`${expedientes.cerradoEn} is null`, sql`${expedientes.datos}->>'cups' = ${c.cups}`),
    );
  for (const p of PROCESOS_ATR) {
    const codigo = MOTIVO_EN_CURSO[p];
    if (codigo && abiertos.some((a) => a.tipo === p)) con(codigo);
  }
  // The tariff must be one the supply's voltage admits (table 27 code 17; Circular 3/2020 voltage bands).
  const error17 =
    (proceso === 'M1' || proceso === 'C2' || proceso === 'A3') && pedido.tarifa ? errorTarifaTension(pedido.tarifa, s.tensionV) : null;
  if (error17) con('17', error17);
  if ((proceso === 'M1' || proceso === 'C2' || proceso === 'A3') && pedido.potenciasW) {
    for (const e of comprobarPotencias(contratoDe(s), pedido.tarifa ?? s.tarifa, pedido.potenciasW)) {
      if (e.codigo && e.codigo in MOTIVOS_ATR && !motivos.some((x) => x.codigo === e.codigo)) con(e.codigo as MotivoAtr, e.mensaje);
    }
  }
  return motivos;
}

/** The reader's work on one batch of pending files. */
export async function leerEntradas(deps: { db: Db; clock: Clock; logger: Logger }, limite = LOTE_LECTOR): Promise<number> {
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
    for (const l of leidos) {
      const cuenta: CuentaIntercambio = { id: l.p.usuarioId, distribuidoras: [l.p.distribuidora] };
      try {
        if (l.error) throw new FicheroRechazado(l.error);
        // A savepoint per file: a file that fails half-way leaves nothing behind, and the batch goes on.
        await tx.transaction((sp) =>
          atender(sp, l.p, l.m!, cuenta, codigosRee.get(l.p.usuarioId) ?? null, reeDistribuidora.get(l.p.distribuidora)!, ahora),
        );
      } catch (err) {
        if (err instanceof FicheroRechazado) await apartar(tx, cuenta, l.p, err.message, ahora);
        else {
          // Never a file that stops the exchange: it is set aside, said so, and the error logged for the staff.
          deps.logger.error({ err, fichero: l.p.ruta }, 'error al tramitar un mensaje ATR');
          await apartar(
            tx,
            cuenta,
            l.p,
            'No se pudo tramitar por un error de la distribuidora. Vuelva a enviarlo más tarde; si se repite, avísenos.',
            ahora,
          );
        }
      }
      await tx.update(ficherosIntercambio).set({ procesadoEn: ahora }).where(eq(ficherosIntercambio.id, l.p.id));
    }
    deps.logger.info({ ficheros: pendientes.length }, 'mensajes ATR leídos');
    return pendientes.length;
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

/** Moves a file to entrada/rechazados with the reason beside it. */
async function apartar(tx: Db, cuenta: CuentaIntercambio, p: Pendiente, motivo: string, ahora: Date) {
  const carpeta = `/${p.distribuidora}/entrada/${RECHAZADOS}`;
  const destino = `${carpeta}/${nombreDe(p.ruta)}`;
  await mover(tx, cuenta, p.ruta, destino, ahora, { reemplazar: true });
  const texto = `Fichero: ${nombreDe(p.ruta)}\nRecibido y leído: ${fechaHoraMadrid(ahora)} (hora de Madrid)\n\nNo se ha tramitado:\n${motivo}\n`;
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
): Promise<void> {
  const c = cabeceraDe(m);
  if (!empresaRee) {
    throw new FicheroRechazado(
      'Su empresa no tiene código REE (tabla 1 de la CNMC) registrado en el portal: pida a la distribuidora que lo registre.',
    );
  }
  if (c.emisora !== empresaRee)
    throw new FicheroRechazado(`CodigoREEEmpresaEmisora es ${c.emisora}, pero el código de su empresa es ${empresaRee}.`);
  if (c.destino !== distribuidoraRee) {
    throw new FicheroRechazado(`CodigoREEEmpresaDestino es ${c.destino}, pero esta carpeta es de la distribuidora ${distribuidoraRee}.`);
  }
  if (errorCups(c.cups)) throw new FicheroRechazado(`El CUPS ${c.cups} no es válido (letras de control o formato).`);
  const proceso =
    m.raiz === RAIZ_ANULACION
      ? (PROCESOS_ATR as readonly string[]).includes(c.proceso)
        ? (c.proceso as ProcesoAtr)
        : null
      : procesoDeSolicitud(m.raiz);
  if (!proceso || c.proceso !== proceso) throw new FicheroRechazado(`CodigoDelProceso ${c.proceso} no corresponde al mensaje ${m.raiz}.`);
  const previo = await casoDe(tx, p.usuarioId, c.solicitud);
  if (m.raiz === RAIZ_ANULACION) {
    if (c.paso !== MENSAJES_PROCESO[proceso].pasoAnulacion) {
      throw new FicheroRechazado(`Una anulación de ${proceso} es el paso ${MENSAJES_PROCESO[proceso].pasoAnulacion}, no el ${c.paso}.`);
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
    .where(and(eq(suministros.cups, c.cups), eq(suministros.distribuidora, p.distribuidora)));
  const pedido = pedidoDe(proceso, m);
  const motivos = await motivosDe(tx, proceso, m, c, s, empresaRee, pedido);
  const caso = await crearExpediente(tx, {
    procedimiento: 'atr',
    distribuidora: p.distribuidora,
    userId: p.usuarioId,
    paso: '01',
    tipo: proceso,
    datos: {
      proceso,
      codigoSolicitud: c.solicitud,
      secuencial: c.secuencial,
      cups: c.cups,
      pedido,
      mensajes: [{ paso: '01', ruta: p.ruta }],
    },
  });
  const hoy = diaDe(ahora);
  await registrarPaso(
    tx,
    caso,
    {
      accion: 'recibir',
      paso: '01',
      lado: 'solicitante',
      turno: 'distribuidora',
      vence: venceEnHabiles(hoy, HABILES_RESPUESTA[proceso]),
      plazoRegla: `${HABILES_RESPUESTA[proceso]} días hábiles`,
      momento: ahora,
      presentar: true,
      datos: { mensajes: [mensaje('01', p.ruta, 'empresa', m.texto)] },
    },
    { ...SISTEMA, userId: p.usuarioId },
  );
  const nombre = `${proceso}02_${c.solicitud}_${c.secuencial}.xml`;
  const ruta = `/${p.distribuidora}/salida/${nombre}`;
  if (motivos.length) {
    const xmlRechazo = rechazo(c, '02', motivos, ahora);
    await depositar(tx, cuenta, ruta, Buffer.from(xmlRechazo), ahora);
    await registrarPaso(
      tx,
      { ...caso, paso: '01' },
      {
        accion: 'rechazar',
        paso: '02',
        lado: 'distribuidora',
        turno: null,
        vence: null,
        plazoRegla: null,
        momento: ahora,
        datos: { estado: 'rechazada', motivos, mensajes: [mensaje('02', ruta, 'distribuidora', xmlRechazo)] },
        cambios: {
          datos: {
            ...caso.datos,
            estado: 'rechazada',
            mensajes: [
              { paso: '01', ruta: p.ruta },
              { paso: '02', ruta },
            ],
          },
        },
      },
      SISTEMA,
    );
    return;
  }
  const { xml, activacion } = aceptacion(proceso, c, m, s!, pedido, ahora);
  await depositar(tx, cuenta, ruta, Buffer.from(xml), ahora);
  await registrarPaso(
    tx,
    { ...caso, paso: '01' },
    {
      accion: 'aceptar',
      paso: '02',
      lado: 'distribuidora',
      turno: 'distribuidora',
      vence: activacion,
      plazoRegla: 'activación prevista',
      momento: ahora,
      datos: { estado: 'aceptada', activacionPrevista: activacion, mensajes: [mensaje('02', ruta, 'distribuidora', xml)] },
      cambios: {
        datos: {
          ...caso.datos,
          estado: 'aceptada',
          activacionPrevista: activacion,
          mensajes: [
            { paso: '01', ruta: p.ruta },
            { paso: '02', ruta },
          ],
        },
      },
    },
    SISTEMA,
  );
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
  if (!caso || caso.tipo !== proceso || caso.distribuidora !== p.distribuidora) {
    throw new FicheroRechazado(`No hay ninguna solicitud ${proceso} con el código ${c.solicitud} de su empresa en esta distribuidora.`);
  }
  const paso = MENSAJES_PROCESO[proceso].pasoRespuestaAnulacion;
  const ruta = `/${p.distribuidora}/salida/${proceso}${paso}_${c.solicitud}_${c.secuencial}.xml`;
  const mensajes = [
    ...(((caso.datos as { mensajes?: unknown[] }).mensajes ?? []) as unknown[]),
    { paso: c.paso, ruta: p.ruta },
    { paso, ruta },
  ];
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
  const raiz = MENSAJES_PROCESO[proceso].aceptacionAnulacion;
  const xml = escribirMensaje({
    n: raiz,
    // Both acceptances (MensajeAceptacionAnulacion and B1's MensajeAceptacionAnulacionBaja) carry an AceptacionAnulacion.
    h: [cabeceraRespuesta(c, paso, ahora), { n: 'AceptacionAnulacion', h: [{ n: 'FechaAceptacion', t: diaDe(ahora) }] }],
  });
  await depositar(tx, cuenta, ruta, Buffer.from(xml), ahora);
  await registrarPaso(
    tx,
    caso,
    {
      accion: 'anular',
      paso,
      lado: 'solicitante',
      turno: null,
      vence: null,
      plazoRegla: null,
      momento: ahora,
      datos: { estado: 'anulada', mensajes: [mensaje(c.paso, p.ruta, 'empresa', m.texto), mensaje(paso, ruta, 'distribuidora', xml)] },
      cambios: { datos: { ...caso.datos, estado: 'anulada', mensajes } },
    },
    { ...SISTEMA, userId: p.usuarioId },
  );
}
