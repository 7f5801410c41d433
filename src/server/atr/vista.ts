/**
 * An ATR request as both sides read it (docs/decisions/020): the supply company on its screen and
 * the distributor's staff in their queue see the same row, the same rejection reasons and the same
 * messages, each with its XML as the case's timeline keeps it.
 */
import { z } from '@hono/zod-openapi';
import { and, asc, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import { ESTADOS_ATR, MOTIVOS_ATR, type EstadoAtr, type ProcesoAtr } from '../../lib/atr/procesos.ts';
import { busquedaCups, cupsBase } from '../../lib/cups.ts';
import type { CodigoDistribuidora } from '../../lib/distribuidoras.ts';
import { diaDe } from '../../lib/expedientes/plazos.ts';
import type { Db } from '../db/client.ts';
import { empiezaPor } from '../db/busqueda.ts';
import { expedienteEventos, expedientes, suministros, users } from '../db/schema.ts';
import type { FilaExpediente } from '../expedientes/acceso.ts';
import type { Suministro } from '../suministros/service.ts';
import type { MensajeAtr } from './respuestas.ts';
import { cortaElSuministro } from './procesos/b1.ts';

/** A rejection reason as both screens' answers carry it (CNMC table 27). */
export const MotivoAtrSchema = z.object({
  codigo: z.string().openapi({ description: 'Código de la tabla 27 de la CNMC' }),
  texto: z.string().openapi({ description: 'Su título' }),
});

/** A message of a request's timeline, with its XML, as both screens' answers carry it. */
export const MensajeAtrSchema = z.object({
  paso: z.string().openapi({ description: 'Paso del mensaje (tabla 3)' }),
  nombre: z.string().openapi({ description: 'Nombre del fichero' }),
  lado: z.enum(['empresa', 'distribuidora']).openapi({ description: 'Quién lo envió' }),
  fecha: z.string().openapi({ description: 'Cuándo (ISO 8601)' }),
  xml: z.string().openapi({ description: 'El mensaje XML' }),
});

/** A request's states: `recibida` until its step 02 is written, then those of its steps. */
export const ESTADOS_SOLICITUD_ATR = ['recibida', ...ESTADOS_ATR] as const;
export type EstadoSolicitudAtr = 'recibida' | EstadoAtr;

/** What an ATR case keeps in `datos`. */
export interface DatosAtr {
  proceso?: string;
  codigoSolicitud?: string;
  secuencial?: string;
  cups?: string;
  /** The CNMC step (table 3) of the request's last message; its state is the case's step. */
  pasoCnmc?: string;
  activacionPrevista?: string;
  activacion?: string;
  /** Day the supply cut by this B1 (table 10 reason 03) was put back in service, at its anulación. */
  repuesto?: string;
  pedido?: { tarifa: string | null; potenciasW: number[] | null };
  mensajes?: { paso: string; ruta: string }[];
}

/** The supply point of a request at its distributor (none when its CUPS is not one of the distributor's). */
export async function suministroDelCaso(db: Db, e: FilaExpediente, bloquear = false): Promise<Suministro | undefined> {
  const consulta = db
    .select()
    .from(suministros)
    .where(and(eq(suministros.cups, cupsBase((e.datos as DatosAtr).cups ?? '')), eq(suministros.distribuidora, e.distribuidora)));
  const [s] = bloquear ? await consulta.for('update') : await consulta;
  return s;
}

/** The public reference of a request: ATR-<year>-<number>. */
export const referenciaAtr = (e: FilaExpediente) => `ATR-${e.createdAt.toISOString().slice(0, 4)}-${String(e.numero).padStart(6, '0')}`;

/** A request as a list row. */
export function filaAtr(e: FilaExpediente) {
  const d = e.datos as DatosAtr;
  return {
    id: e.id,
    referencia: referenciaAtr(e),
    distribuidora: e.distribuidora as CodigoDistribuidora,
    proceso: (d.proceso ?? e.tipo) as ProcesoAtr,
    codigoSolicitud: d.codigoSolicitud ?? '',
    cups: d.cups ?? '',
    estado: e.paso as EstadoSolicitudAtr,
    paso: d.pasoCnmc ?? '01',
    recibida: (e.presentadoEn ?? e.createdAt).toISOString(),
    vence: e.cerradoEn ? null : e.vence,
    actualizada: e.updatedAt.toISOString(),
  };
}

/** Whether an open request's deadline has passed (`hoy` in Madrid). */
export const vencidaAtr = (e: FilaExpediente, hoy: string) => !e.cerradoEn && e.turno === 'distribuidora' && !!e.vence && e.vence < hoy;

/** The timeline's actions that refuse a request, with their reasons (step 02 or the field's 04). */
const RECHAZOS = new Set(['rechazar', 'rechazar_campo']);

/** A request's messages in order, the reasons of its last rejection, and its planned and actual activation. */
export async function detalleAtr(db: Db, e: FilaExpediente) {
  const eventos = await db
    .select()
    .from(expedienteEventos)
    .where(eq(expedienteEventos.expedienteId, e.id))
    .orderBy(asc(expedienteEventos.momento), asc(expedienteEventos.id));
  const mensajes = eventos.flatMap((ev) =>
    (((ev.datos as { mensajes?: MensajeAtr[] } | null)?.mensajes ?? []) as MensajeAtr[]).map((m) => ({
      ...m,
      fecha: ev.momento.toISOString(),
    })),
  );
  const rechazo = eventos.filter((ev) => RECHAZOS.has(ev.accion)).at(-1);
  const motivos = (
    ((rechazo?.datos as { motivos?: { codigo: string; comentario?: string }[] } | null)?.motivos ?? []) as {
      codigo: string;
      comentario?: string;
    }[]
  ).map((m) => ({
    codigo: m.codigo,
    texto: MOTIVOS_ATR[m.codigo as keyof typeof MOTIVOS_ATR] ?? m.comentario ?? m.codigo,
  }));
  const d = e.datos as DatosAtr;
  return {
    ...filaAtr(e),
    reponible: await reponible(db, e),
    activacionPrevista: d.activacionPrevista ?? null,
    activacion: d.activacion ?? null,
    repuesto: d.repuesto ?? null,
    cerrada: e.cerradoEn ? diaDe(e.cerradoEn) : null,
    motivos,
    mensajes,
  };
}

/** Whether an activated B1 still keeps its supply cut, so that its anulación asks for the reposición (docs/decisions/048). */
async function reponible(db: Db, e: FilaExpediente): Promise<boolean> {
  const d = e.datos as DatosAtr;
  if ((d.proceso ?? e.tipo) !== 'B1' || e.paso !== 'activada') return false;
  const [empresa] = await db.select({ ree: users.codigoRee }).from(users).where(eq(users.id, e.userId));
  return cortaElSuministro({ paso: e.paso, datos: d }, await suministroDelCaso(db, e), empresa?.ree ?? '');
}

/** The filters both lists of requests have: a process, and the beginning of a CUPS or of a request code. */
export function filtrosAtr(f: { proceso?: ProcesoAtr | undefined; q?: string | undefined }): SQL[] {
  const condiciones: SQL[] = [];
  if (f.proceso) condiciones.push(eq(expedientes.tipo, f.proceso));
  const q = f.q?.trim().toUpperCase();
  if (q) {
    condiciones.push(
      or(empiezaPor(sql`${expedientes.datos}->>'cups'`, busquedaCups(q)), empiezaPor(sql`${expedientes.datos}->>'codigoSolicitud'`, q))!,
    );
  }
  return condiciones;
}

/** A company's requests to some of its distributors, newest first, a page of them and the total. */
export async function solicitudesDeEmpresa(
  db: Db,
  userId: string,
  distribuidoras: readonly string[],
  f: { proceso?: ProcesoAtr | undefined; estado?: EstadoSolicitudAtr | undefined; q?: string | undefined; page: number; pageSize: number },
) {
  const donde = and(
    eq(expedientes.procedimiento, 'atr'),
    eq(expedientes.userId, userId),
    inArray(expedientes.distribuidora, [...distribuidoras]),
    ...(f.estado ? [eq(expedientes.paso, f.estado)] : []),
    ...filtrosAtr(f),
  );
  const [[cuenta], filas] = await Promise.all([
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(expedientes)
      .where(donde),
    db
      .select()
      .from(expedientes)
      .where(donde)
      .orderBy(desc(expedientes.createdAt), desc(expedientes.numero))
      .limit(f.pageSize)
      .offset((f.page - 1) * f.pageSize),
  ]);
  return { total: cuenta?.total ?? 0, filas: filas.map(filaAtr) };
}
