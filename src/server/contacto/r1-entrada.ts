/**
 * The exchange's reader hands an R1 01 here (src/server/atr/lector.ts routes by root element): the
 * claim is read into the portal's claim model, checked with the form's rules, and filed in the
 * company's name as a claim case (docs/decisions/046). A request that cannot become a claim is
 * answered at once with an R1 02 rejection and its table 27 reasons, as an ATR request is.
 */
import { DatosReclamacionSchema, faltanReclamacion } from '../../lib/contacto/datos.ts';
import { DISTRIBUIDORAS } from '../../lib/distribuidoras.ts';
import type { Db } from '../db/client.ts';
import { expedientes } from '../db/schema.ts';
import { eq } from 'drizzle-orm';
import type { Clock } from '../http/context.ts';
import type { CuentaIntercambio } from '../intercambio/almacen.ts';
import type { MensajeLeido } from '../atr/xml.ts';
import { RECLAMACION } from '../../lib/contacto/procedimientos.ts';
import { MOTIVOS_ATR } from '../../lib/atr/procesos.ts';
import {
  aceptacionAnulacionR1,
  cabeceraR1,
  cupsSuministrados,
  informacionDeR104,
  dejarRespuestaR1,
  mismoPunto,
  reclamacionDeR101,
  reclamacionDeSolicitud,
  rechazoR1,
  type OrigenIntercambio,
} from './r1-intercambio.ts';
import { actuar, crearBorrador } from './service.ts';

/** A file that is no request the reader can answer: set aside with this reason. */
export class R1Ilegible extends Error {}

/**
 * Reads an R1 04, the company's answer to the staff's request for information (R1 03): it is the
 * claimant's «send the information» step of the claim, with the message's words; a claim not waiting
 * for information cannot take it, and the file is set aside with the reason.
 */
export async function recibirR104(
  tx: Db,
  p: { usuarioId: string; distribuidora: string },
  m: MensajeLeido,
  empresaRee: string,
  distribuidoraRee: string,
  deps: { clock: Clock; publicUrl: string | null },
): Promise<void> {
  const c = cabeceraR1(m);
  if (c.emisora !== empresaRee || c.destino !== distribuidoraRee || c.proceso !== 'R1' || c.paso !== '04') {
    throw new R1Ilegible(
      `Un envío de información es el paso 04 del R1 de su empresa (${empresaRee}) a esta distribuidora (${distribuidoraRee}).`,
    );
  }
  const e = await reclamacionDeSolicitud(tx, p.usuarioId, c.codigoSolicitud);
  if (!e || e.distribuidora !== p.distribuidora)
    throw new R1Ilegible(`No hay ninguna reclamación con el código de solicitud ${c.codigoSolicitud} de su empresa en esta distribuidora.`);
  if (e.paso !== 'informacion_pedida')
    throw new R1Ilegible(`La reclamación ${c.codigoSolicitud} no espera información: no se le ha pedido o ya se envió.`);
  const actor = { userId: p.usuarioId, impersonatorUserId: null, ip: null, requestId: null };
  const texto = informacionDeR104(m) || 'Información enviada por el intercambio de ficheros (R1 04).';
  await actuar(
    { db: tx, clock: deps.clock, publicUrl: deps.publicUrl },
    e.id,
    'solicitante',
    'enviar_informacion',
    { mensaje: texto.slice(0, 4000) },
    actor,
  );
}

/** Reads one R1 01 of `cuenta` (a company with REE code `empresaRee`) at a distributor. */
export async function recibirR101(
  tx: Db,
  p: { usuarioId: string; distribuidora: string; ruta: string },
  m: MensajeLeido,
  cuenta: CuentaIntercambio,
  empresaRee: string,
  distribuidoraRee: string,
  deps: { clock: Clock; publicUrl: string | null },
): Promise<void> {
  const c = cabeceraR1(m);
  if (c.emisora !== empresaRee)
    throw new R1Ilegible(`CodigoREEEmpresaEmisora es ${c.emisora}, pero el código de su empresa es ${empresaRee}.`);
  if (c.destino !== distribuidoraRee) {
    throw new R1Ilegible(`CodigoREEEmpresaDestino es ${c.destino}, pero esta carpeta es de la distribuidora ${distribuidoraRee}.`);
  }
  if (c.proceso !== 'R1' || c.paso !== '01') throw new R1Ilegible(`Una reclamación es el proceso R1, paso 01, no ${c.proceso} ${c.paso}.`);
  const ahora = deps.clock.now();
  if (await reclamacionDeSolicitud(tx, p.usuarioId, c.codigoSolicitud)) {
    throw new R1Ilegible(`La reclamación ${c.codigoSolicitud} ya se recibió: cada solicitud lleva su propio CodigoDeSolicitud.`);
  }
  const origen: OrigenIntercambio = { ...c, ruta: p.ruta };
  const rechazar = async (codigo: string, comentario: string) =>
    dejarRespuestaR1(tx, cuenta, p.distribuidora, origen, '02', rechazoR1(origen, [{ codigo, comentario }], ahora), ahora);

  const leida = DatosReclamacionSchema.safeParse(reclamacionDeR101(m));
  if (!leida.success) {
    await rechazar(
      '85',
      `Falta un campo obligatorio o un valor no es de las tablas de la CNMC: ${leida.error.issues[0]?.path.join('.') ?? ''}.`,
    );
    return;
  }
  const datos = leida.data;
  // The company claims for the points it supplies: for the form's check, those are «its own».
  const propios = await cupsSuministrados(tx, p.distribuidora, empresaRee);
  const cups = typeof datos.campos?.cups === 'string' ? datos.campos.cups : '';
  if (cups && !propios.some((x) => mismoPunto(x, cups))) {
    await rechazar('11', 'Comercializadora incorrecta: el suministro no es de su comercializadora en esta distribuidora.');
    return;
  }
  const prefijo = DISTRIBUIDORAS.find((d) => d.codigo === p.distribuidora)?.prefijoCups ?? 'ES';
  const faltan = faltanReclamacion(datos, prefijo, propios);
  if (faltan.length) {
    await rechazar('85', `Falta un campo obligatorio: ${faltan.map((f) => `${f.campo}: ${f.mensaje}`).join(' ')}`);
    return;
  }
  const actor = { userId: p.usuarioId, impersonatorUserId: null, ip: null, requestId: null };
  const servicio = { db: tx, clock: deps.clock, publicUrl: deps.publicUrl };
  const borrador = await crearBorrador(servicio, 'reclamacion', p.usuarioId, p.distribuidora, datos, actor);
  await tx
    .update(expedientes)
    .set({ datos: { ...(borrador.datos as Record<string, unknown>), intercambio: origen } })
    .where(eq(expedientes.id, borrador.id));
  await actuar(servicio, borrador.id, 'solicitante', 'presentar', { mensaje: '' }, actor);
}

/**
 * Reads an R1 08, the company's anulación of a claim it filed: while the claim is still being
 * worked (filed, accepted, waiting for or with the information asked), it is the claimant's
 * «desistir» step, and the R1 09 acceptance goes back; a claim already resolved, rejected or
 * anulled cannot be anulled (table 27 code 42), and a request code the company never used has
 * nothing to anul (D2). Either refusal is an R1 09 rejection, as the CNMC's steps 08 and 09 provide.
 */
export async function recibirR108(
  tx: Db,
  p: { usuarioId: string; distribuidora: string; ruta: string },
  m: MensajeLeido,
  cuenta: CuentaIntercambio,
  empresaRee: string,
  distribuidoraRee: string,
  deps: { clock: Clock; publicUrl: string | null },
): Promise<void> {
  const c = cabeceraR1(m);
  if (c.emisora !== empresaRee || c.destino !== distribuidoraRee || c.proceso !== 'R1' || c.paso !== '08') {
    throw new R1Ilegible(
      `Una anulación de reclamación es el paso 08 del R1 de su empresa (${empresaRee}) a esta distribuidora (${distribuidoraRee}).`,
    );
  }
  const ahora = deps.clock.now();
  const origen: OrigenIntercambio = { ...c, ruta: p.ruta };
  const rechazar = (codigo: string, comentario: string) =>
    dejarRespuestaR1(tx, cuenta, p.distribuidora, origen, '09', rechazoR1(origen, [{ codigo, comentario }], ahora, '09'), ahora);
  const e = await reclamacionDeSolicitud(tx, p.usuarioId, c.codigoSolicitud);
  if (!e || e.distribuidora !== p.distribuidora) {
    await rechazar(
      'D2',
      `${MOTIVOS_ATR.D2}: no hay ninguna reclamación con el código ${c.codigoSolicitud} de su empresa en esta distribuidora.`,
    );
    return;
  }
  if (!(RECLAMACION.transiciones.desistir.desde as readonly string[]).includes(e.paso)) {
    const paso = RECLAMACION.nombrePaso[e.paso as keyof typeof RECLAMACION.nombrePaso].toLowerCase();
    await rechazar('42', `${MOTIVOS_ATR['42']}: la reclamación ya está ${paso}.`);
    return;
  }
  const actor = { userId: p.usuarioId, impersonatorUserId: null, ip: null, requestId: null };
  await actuar(
    { db: tx, clock: deps.clock, publicUrl: deps.publicUrl },
    e.id,
    'solicitante',
    'desistir',
    { mensaje: 'La comercializadora ha anulado la reclamación por el intercambio de ficheros (R1 08).' },
    actor,
  );
  await dejarRespuestaR1(tx, cuenta, p.distribuidora, origen, '09', aceptacionAnulacionR1(origen, ahora), ahora);
}
