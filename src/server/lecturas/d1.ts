/**
 * D1 through the file exchange (docs/decisions/050): when a telemanaged meter starts or stops
 * communicating, the distributor tells the point's supply company with a D1 01 in the company's
 * salida (CNMC table 109 reason 01 or 02, `src/lib/lecturas/d1.ts`), valid against the CNMC schema;
 * the company may answer with its D1 02 (acceptance or `MensajeRechazoD1`) in its entrada, which the
 * ATR reader routes here and the staff then read beside the notice. A company without an exchange
 * account at that distributor gets nothing: there is no salida to write to.
 */
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { fechaLocalDe } from '../../lib/calendario/hora-civil.ts';
import { motivoD1, RAIZ_D101, RAIZ_D102_ACEPTACION, type MotivoD1 } from '../../lib/lecturas/d1.ts';
import { DISTRIBUIDORAS } from '../../lib/distribuidoras.ts';
import { audit } from '../auditoria/service.ts';
import { queryRows, type Db } from '../db/client.ts';
import { notificacionesD1, suministros } from '../db/schema.ts';
import { depositar } from '../intercambio/almacen.ts';
import { fechaHoraMadrid, type Cabecera } from '../atr/respuestas.ts';
import { escribirMensaje, lista, valor, type MensajeLeido } from '../atr/xml.ts';

/** A company's D1 02 that answers no notice it may answer: set aside with this reason. */
export class D1Apartado extends Error {}

/** A telemanaged meter whose communication changed. */
export interface CambioTelegestion {
  suministroId: number;
  comunica: boolean;
}

/** The CUPS a D1 names: with the border point's suffix, as the portal's other messages write it. */
const cupsMensaje = (cups: string) => (cups.length === 22 ? cups : `${cups.slice(0, 20)}0F`);

/**
 * Sends a D1 01 for each change to the supply company of the point, in the caller's transaction:
 * only telemanaged points in force, and only when the company has an exchange account there.
 */
export async function notificarTelegestion(tx: Db, cambios: readonly CambioTelegestion[], ahora: Date): Promise<number> {
  if (cambios.length === 0) return 0;
  const puntos = await tx
    .select()
    .from(suministros)
    .where(
      and(
        inArray(
          suministros.id,
          cambios.map((c) => c.suministroId),
        ),
        eq(suministros.telegestionado, true),
        sql`${suministros.fechaBaja} is null`,
      ),
    );
  if (puntos.length === 0) return 0;
  const cuentas = await queryRows<{ id: string; ree: string; distribuidora: string }>(
    tx,
    sql`select u.id, u.codigo_ree as ree, p.distribuidora from users u
        join user_permissions p on p.user_id = u.id and p.area = 'comercializadora'
        where u.estado = 'activo' and u.codigo_ree in ${[...new Set(puntos.map((s) => s.comercializadoraCodigo))]}`,
  );
  let enviadas = 0;
  for (const s of puntos) {
    const cuenta = cuentas.find((c) => c.ree === s.comercializadoraCodigo && c.distribuidora === s.distribuidora);
    if (!cuenta) continue;
    const motivo: MotivoD1 = motivoD1(cambios.find((c) => c.suministroId === s.id)!.comunica);
    const hoy = fechaLocalDe(ahora);
    const [{ id } = { id: 0 }] = await queryRows<{ id: number }>(
      tx,
      sql`select nextval(pg_get_serial_sequence('notificaciones_d1', 'id'))::int as id`,
    );
    // The year and the row's number: unique per distributor as CodigoDeSolicitud must be for the company.
    const codigoSolicitud = `${hoy.slice(0, 4)}${String(Number(id) % 100_000_000).padStart(8, '0')}`;
    const ruta = `/${s.distribuidora}/salida/D101_${codigoSolicitud}_01.xml`;
    await tx.insert(notificacionesD1).values({
      id: Number(id),
      suministroId: s.id,
      distribuidora: s.distribuidora,
      usuarioId: cuenta.id,
      comercializadora: cuenta.ree,
      codigoSolicitud,
      motivo,
      fechaAplicacion: hoy,
      ruta,
      enviadaEn: ahora,
    });
    const reeDistribuidora = DISTRIBUIDORAS.find((d) => d.codigo === s.distribuidora)!.codigoREE;
    const xml = escribirMensaje({
      n: RAIZ_D101,
      h: [
        {
          n: 'Cabecera',
          h: [
            { n: 'CodigoREEEmpresaEmisora', t: reeDistribuidora },
            { n: 'CodigoREEEmpresaDestino', t: cuenta.ree },
            { n: 'CodigoDelProceso', t: 'D1' },
            { n: 'CodigoDePaso', t: '01' },
            { n: 'CodigoDeSolicitud', t: codigoSolicitud },
            { n: 'SecuencialDeSolicitud', t: '01' },
            { n: 'FechaSolicitud', t: fechaHoraMadrid(ahora) },
            { n: 'CUPS', t: cupsMensaje(s.cups) },
          ],
        },
        {
          n: 'NotificacionCambiosATRDesdeDistribuidor',
          h: [
            { n: 'MotivoCambioATRDesdeDistribuidora', t: motivo },
            { n: 'FechaPrevistaAplicacionCambioATR', t: hoy },
          ],
        },
      ],
    });
    await depositar(tx, { id: cuenta.id, distribuidoras: [s.distribuidora] }, ruta, Buffer.from(xml), ahora);
    await audit(tx, {
      action: 'lecturas.d1_enviada',
      actorUserId: null,
      targetType: 'suministro',
      targetId: String(s.id),
      distribuidoras: [s.distribuidora],
      details: { cups: s.cups, motivo, comercializadora: cuenta.ree, codigoSolicitud, ruta },
    });
    enviadas++;
  }
  return enviadas;
}

/** A company's D1 02: its acceptance or rejection of a notice it received, recorded on the notice. */
export async function recibirD102(
  tx: Db,
  p: { usuarioId: string; distribuidora: string; ruta: string },
  m: MensajeLeido,
  c: Cabecera,
  ahora: Date,
): Promise<void> {
  if (c.proceso !== 'D1' || c.paso !== '02')
    throw new D1Apartado(`Una respuesta a una notificación D1 es el proceso D1, paso 02, no ${c.proceso} ${c.paso}.`);
  const [n] = await tx
    .select()
    .from(notificacionesD1)
    .where(
      and(
        eq(notificacionesD1.distribuidora, p.distribuidora),
        eq(notificacionesD1.codigoSolicitud, c.solicitud),
        eq(notificacionesD1.usuarioId, p.usuarioId),
      ),
    )
    .for('update');
  if (!n) throw new D1Apartado(`No le hemos enviado ninguna notificación D1 con el código ${c.solicitud} en esta distribuidora.`);
  if (n.respuesta) {
    throw new D1Apartado(
      `La notificación D1 ${c.solicitud} ya se respondió el ${fechaLocalDe(n.respondidaEn!)}: cada notificación se responde una vez.`,
    );
  }
  const aceptada = m.raiz === RAIZ_D102_ACEPTACION;
  const motivosRechazo = aceptada
    ? null
    : lista(m.arbol, 'Rechazos', 'Rechazo').map((r) => ({
        codigo: valor(r, 'CodigoMotivo') ?? '',
        comentario: valor(r, 'Comentarios') ?? '',
      }));
  await tx
    .update(notificacionesD1)
    .set({ respuesta: aceptada ? 'aceptada' : 'rechazada', respondidaEn: ahora, motivosRechazo })
    .where(eq(notificacionesD1.id, n.id));
  await audit(tx, {
    action: aceptada ? 'lecturas.d1_aceptada' : 'lecturas.d1_rechazada',
    actorUserId: p.usuarioId,
    targetType: 'suministro',
    targetId: String(n.suministroId),
    distribuidoras: [p.distribuidora],
    details: { codigoSolicitud: c.solicitud, fichero: p.ruta, ...(motivosRechazo ? { motivos: motivosRechazo.map((x) => x.codigo) } : {}) },
  });
}

/** The latest D1 notices about a supply point, newest first. */
export async function notificacionesDe(db: Db, suministroId: number, n = 10) {
  return db
    .select()
    .from(notificacionesD1)
    .where(eq(notificacionesD1.suministroId, suministroId))
    .orderBy(desc(notificacionesD1.enviadaEn), desc(notificacionesD1.id))
    .limit(n);
}
