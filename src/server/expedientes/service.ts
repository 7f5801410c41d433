/**
 * The case core (docs/decisions/017): what every procedure does with its cases the same way.
 * A procedure (access requests today; queries, claims and ATR requests on the same tables) decides
 * which step follows which and with what deadline; this module creates the case, writes each step
 * as an event of its timeline, attaches the documents the acting side had uploaded, moves the case's
 * step, turn and deadline, and leaves the audit entry, all in the caller's transaction.
 */
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { DocumentoExpedienteSchema } from '../../lib/expedientes/documentos.ts';
import type { z } from '../../lib/validacion/z.ts';
import { audit } from '../auditoria/service.ts';
import { pgArray } from '../db/arrays.ts';
import type { Db } from '../db/client.ts';
import { documentos, expedienteEventos, expedientes, userPermissions, users } from '../db/schema.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { correoExpediente } from '../mail/plantillas.ts';
import type { FilaExpediente, Lado } from './acceso.ts';

/** Who acts: the account (null for the scheduled jobs) and the administrator behind an impersonated session. */
export interface ActorExpediente {
  userId: string | null;
  impersonatorUserId: string | null;
  ip: string | null;
  requestId: string | null;
}

/** The scheduled jobs acting on a case. */
export const SISTEMA: ActorExpediente = { userId: null, impersonatorUserId: null, ip: null, requestId: null };

/** A stored timeline event. */
export type FilaEvento = typeof expedienteEventos.$inferSelect;
/** A stored document row. */
export type FilaDocumento = typeof documentos.$inferSelect;

/** Opens a case in its first step (the applicant's turn unless the procedure says whose), made `creado` (now by default). */
export async function crearExpediente(
  tx: Db,
  e: {
    procedimiento: string;
    distribuidora: string;
    userId: string;
    paso: string;
    turno?: Lado;
    tipo?: string | null;
    datos?: Record<string, unknown>;
    creado?: Date;
  },
): Promise<FilaExpediente> {
  const [fila] = await tx
    .insert(expedientes)
    .values({
      procedimiento: e.procedimiento,
      distribuidora: e.distribuidora,
      userId: e.userId,
      paso: e.paso,
      turno: e.turno ?? 'solicitante',
      tipo: e.tipo ?? null,
      datos: e.datos ?? {},
      ...(e.creado ? { createdAt: e.creado, updatedAt: e.creado } : {}),
    })
    .returning();
  return fila!;
}

/**
 * A new draft, the applicant's to fill: the case in step `borrador` with its first event («crear»),
 * locked for the rest of the caller's transaction. Every procedure with drafts starts so.
 */
export async function crearBorradorExpediente(
  tx: Db,
  e: { procedimiento: string; distribuidora: string; userId: string; tipo?: string | null; datos?: Record<string, unknown> },
  momento: Date,
  actor: ActorExpediente,
): Promise<FilaExpediente> {
  const creado = await crearExpediente(tx, { ...e, paso: 'borrador' });
  await registrarPaso(
    tx,
    creado,
    { accion: 'crear', paso: 'borrador', lado: 'solicitante', turno: 'solicitante', vence: null, plazoRegla: null, momento },
    actor,
  );
  return (await bloquearExpediente(tx, creado.id))!;
}

/** A step taken: what the procedure decided. */
export interface Paso {
  accion: string;
  /** The step the case is left in. */
  paso: string;
  lado: Lado | 'sistema';
  /** Whose turn it is now; null closes the case. */
  turno: Lado | null;
  vence: string | null;
  plazoRegla: string | null;
  mensaje?: string | null;
  datos?: Record<string, unknown> | null;
  /** The moment of the step (the injected clock). */
  momento: Date;
  /** Filing: the case becomes visible to the distributor's staff. */
  presentar?: boolean;
  /** Fields of the case that change with the step (the procedure's own data). */
  cambios?: Partial<Pick<FilaExpediente, 'datos' | 'tipo'>>;
  /** What the audit entry records besides the step (never personal data). */
  auditoria?: Record<string, unknown>;
}

/**
 * Writes a step: the timeline event, the acting side's pending documents attached to it, the case
 * moved to its new step, turn and deadline, and the audit entry `<procedimiento>.<accion>`.
 */
export async function registrarPaso(tx: Db, expediente: FilaExpediente, p: Paso, actor: ActorExpediente): Promise<FilaEvento> {
  const [evento] = await tx
    .insert(expedienteEventos)
    .values({
      expedienteId: expediente.id,
      accion: p.accion,
      paso: p.paso,
      lado: p.lado,
      actorUserId: actor.userId,
      suplantadoPor: actor.impersonatorUserId,
      momento: p.momento,
      mensaje: p.mensaje ?? null,
      datos: p.datos ?? null,
      vence: p.vence,
    })
    .returning();
  if (p.lado !== 'sistema') {
    await tx
      .update(documentos)
      .set({ eventoId: evento!.id })
      .where(and(eq(documentos.expedienteId, expediente.id), eq(documentos.lado, p.lado), isNull(documentos.eventoId)));
  }
  await tx
    .update(expedientes)
    .set({
      paso: p.paso,
      turno: p.turno,
      vence: p.turno ? p.vence : null,
      plazoRegla: p.turno ? p.plazoRegla : null,
      cerradoEn: p.turno ? null : p.momento,
      updatedAt: p.momento,
      ...(p.presentar ? { presentadoEn: p.momento } : {}),
      ...p.cambios,
    })
    .where(eq(expedientes.id, expediente.id));
  await audit(tx, {
    action: `${expediente.procedimiento}.${p.accion}`,
    actorUserId: actor.userId,
    impersonatorUserId: actor.impersonatorUserId,
    targetType: 'expediente',
    targetId: expediente.id,
    ip: actor.ip,
    requestId: actor.requestId,
    distribuidoras: [expediente.distribuidora],
    details: { paso: p.paso, ...(p.vence ? { vence: p.vence } : {}), ...p.auditoria },
  });
  return evento!;
}

/** The timeline of a case, oldest first. */
export function eventosDe(db: Db, expedienteId: string): Promise<FilaEvento[]> {
  return db
    .select()
    .from(expedienteEventos)
    .where(eq(expedienteEventos.expedienteId, expedienteId))
    .orderBy(asc(expedienteEventos.momento), asc(expedienteEventos.id));
}

/** The documents of a case, in upload order. */
export function documentosDelExpediente(db: Db, expedienteId: string): Promise<FilaDocumento[]> {
  return db
    .select()
    .from(documentos)
    .where(eq(documentos.expedienteId, expedienteId))
    .orderBy(asc(documentos.subidoEn), asc(documentos.clase), asc(documentos.nombre));
}

/** Re-reads a case inside a transaction, locked, so two steps never cross. */
export async function bloquearExpediente(tx: Db, id: string): Promise<FilaExpediente | undefined> {
  const [fila] = await tx.select().from(expedientes).where(eq(expedientes.id, id)).for('update');
  return fila;
}

/** The open cases of a procedure whose deadline passed before `hoy` in one of `pasos` (for the scheduled jobs). */
export function vencidos(db: Db, procedimiento: string, pasos: readonly string[], hoy: string): Promise<FilaExpediente[]> {
  return db
    .select()
    .from(expedientes)
    .where(
      and(
        eq(expedientes.procedimiento, procedimiento),
        isNull(expedientes.cerradoEn),
        sql`${expedientes.paso} = any(${pgArray(pasos)}::text[])`,
        sql`${expedientes.vence} < ${hoy}::date`,
      ),
    )
    .limit(500);
}

/** A document as a case's detail lists it (both sides; the pending ones only to their own side). */
export const documentoApi = (x: FilaDocumento): z.infer<typeof DocumentoExpedienteSchema> => ({
  id: x.id,
  clase: x.clase,
  nombre: x.nombre,
  tipoMime: x.tipoMime,
  bytes: x.bytes,
  lado: x.lado as Lado,
  subidoEn: x.subidoEn.toISOString(),
  pendiente: x.eventoId === null,
  eventoId: x.eventoId,
});

/** The name an account shows on a case: its company name, or its name and first surname. */
export const nombreCuentaSql = sql<string>`coalesce(nullif(trim(${users.razonSocial}), ''), trim(${users.nombre} || ' ' || ${users.apellido1}))`;

/**
 * Mails the side that must know of a step, through the outbox in the caller's transaction: the
 * account that sent the case, or every active administrator of its distributor.
 */
export async function avisarOtraParte(
  tx: Db,
  e: FilaExpediente,
  aviso: {
    destino: Lado;
    referencia: string;
    hecho: string;
    mensaje: string | null;
    pendiente: string | null;
    enlace: string;
    ahora: Date;
  },
): Promise<void> {
  const destinatarios =
    aviso.destino === 'solicitante'
      ? await tx.select({ email: users.email, nombre: nombreCuentaSql }).from(users).where(eq(users.id, e.userId))
      : await tx
          .select({ email: users.email, nombre: nombreCuentaSql })
          .from(userPermissions)
          .innerJoin(users, eq(users.id, userPermissions.userId))
          .where(
            and(eq(userPermissions.distribuidora, e.distribuidora), eq(userPermissions.area, 'administrador'), eq(users.estado, 'activo')),
          );
  for (const u of destinatarios) {
    const correo = correoExpediente({
      nombre: u.nombre,
      referencia: aviso.referencia,
      hecho: aviso.hecho,
      mensaje: aviso.mensaje,
      pendiente: aviso.pendiente,
      enlace: aviso.enlace,
    });
    await enqueueMail(tx, { to: u.email, ...correo }, aviso.ahora);
  }
}

/** What the mail tells the reader to do: act by the deadline, when the turn is theirs. */
export function pendienteDe(turnoNuevo: Lado | null | undefined, destino: Lado, vence: string | null): string | null {
  if (turnoNuevo !== destino) return null;
  return vence ? `Tiene hasta el ${vence.split('-').reverse().join('/')} para actuar.` : 'Entre en el portal para continuar.';
}
