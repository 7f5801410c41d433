/**
 * A procedure declared on the case core (docs/decisions/051). A procedure gives its definition (steps,
 * turns, transitions, names: src/lib/expedientes/procedimiento.ts) and a few small functions: the
 * checks and the deadline of each action, what the mail tells the other side, its links and
 * reference, its list row, the queue's own filters, and the deadlines the scheduled jobs apply. The
 * core does the rest the same way for every procedure: which actions a side has now, taking one
 * (lock, 409, 422, the step, documents, mail, audit, in one transaction), the applicant's list, the
 * staff queue, the timeline and the scheduled deadlines.
 */
import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import { accionesDesde, type DefinicionProcedimiento, type LadoExpediente } from '../../lib/expedientes/procedimiento.ts';
import { diaDe } from '../../lib/expedientes/plazos.ts';
import type { Db } from '../db/client.ts';
import { expedientes, users } from '../db/schema.ts';
import type { Clock } from '../http/context.ts';
import { ApiError, conflict } from '../http/errors.ts';
import type { FilaExpediente, Lado } from './acceso.ts';
import {
  avisarOtraParte,
  bloquearExpediente,
  documentoApi,
  documentosDelExpediente,
  eventosDe,
  nombreCuentaSql,
  pendienteDe,
  registrarPaso,
  SISTEMA,
  vencidos,
  type ActorExpediente,
  type FilaDocumento,
  type FilaEvento,
} from './service.ts';

/** What the core needs; `publicUrl` null sends no mail (the demo data tells no one). */
export interface DepsExpediente {
  db: Db;
  clock: Clock;
  publicUrl: string | null;
}

/** 422 with the list of what is missing before a case can be filed (the body's `faltan`). */
export class FaltanDatos<F> extends ApiError {
  readonly faltan: F[];
  constructor(mensaje: string, faltan: F[]) {
    super(422, mensaje, {}, { faltan });
    this.faltan = faltan;
  }
}

/** What an action leads to, once the procedure's own checks passed. */
export interface Siguiente {
  vence: string | null;
  /** The deadline's rule in words, as both sides see it. */
  regla: string | null;
  /** What the step records in the timeline. */
  datos?: Record<string, unknown>;
  /** Fields merged into the case's own data. */
  cambios?: Record<string, unknown>;
  /** What the step's audit entry records besides the step (never personal data). */
  auditoria?: Record<string, unknown>;
  /**
   * The other side's mail, when its words depend on the action's body (a date, a reason): what
   * happened, and the note under it (instead of the body's message). `hecho` is asked otherwise.
   */
  aviso?: { hecho: string; nota: string | null };
}

/** What an action's checks may look at. */
export interface ContextoAccion {
  eventos: readonly FilaEvento[];
  /** The case's documents, read only by the actions that look at them. */
  documentos: () => Promise<readonly FilaDocumento[]>;
  hoy: string;
  /** The step's moment (the injected clock). */
  ahora: Date;
}

/** Any body of an action: the message is the one field every procedure shares. */
export interface CuerpoAccion {
  mensaje?: string | null | undefined;
}

/** A procedure (or a family of them sharing screens, as queries and claims do) declared on the core. */
export interface Procedimiento<B extends CuerpoAccion, R> {
  /** The definition of each procedure this declaration serves, by its name on the core's `procedimiento` column. */
  definiciones: Readonly<Record<string, DefinicionProcedimiento<string, string>>>;
  /** How errors name a case: «la solicitud», «el expediente». */
  llamado: string;
  referencia(e: FilaExpediente): string;
  /** The screen of a case for a side (the mails link to it). */
  enlace(publicUrl: string, e: FilaExpediente, lado: Lado): string;
  /** The 409's sentence when an action does not suit the case's step, if the procedure words it itself (a code of its table). */
  conflicto?(e: FilaExpediente, accion: string): string;
  /** A further rule on whether an action is open now (a count of corrections, an extension given once). */
  admite?(e: FilaExpediente, accion: string, ctx: Omit<ContextoAccion, 'documentos' | 'ahora'>): boolean;
  /** The action's own checks (422) and the deadline and data of the step it leads to. */
  siguiente(tx: Db, e: FilaExpediente, accion: string, body: B, ctx: ContextoAccion): Promise<Siguiente>;
  /** What the mail tells the other side of a step; null sends none. */
  hecho(e: FilaExpediente, accion: string): string | null;
  /** What else a step does in its transaction (an answer through the exchange, a mail of the procedure's own). */
  despues?(tx: Db, e: FilaExpediente, accion: string, body: B, sig: Siguiente, ahora: Date, publicUrl: string | null): Promise<void>;
  /** The list row of a case; `codigoRee` is the filing account's REE code (the supply companies' identity). */
  resumen(e: FilaExpediente, solicitante: string, hoy: string, codigoRee: string | null): R;
  /** The deadlines the scheduled jobs apply: a case left in one of `pasos` past its deadline takes `accion`. */
  plazos?: readonly { pasos: readonly string[]; accion: string }[];
}

const mayuscula = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The definition that rules a case. */
export const definicionDe = <B extends CuerpoAccion, R>(p: Procedimiento<B, R>, e: Pick<FilaExpediente, 'procedimiento'>) => {
  const def = p.definiciones[e.procedimiento];
  if (!def) throw new Error(`Procedimiento no declarado: ${e.procedimiento}`);
  return def;
};

/** The names on the core of the procedures a declaration serves. */
export const nombresDe = <B extends CuerpoAccion, R>(p: Procedimiento<B, R>) => Object.keys(p.definiciones);

/** The actions a side may take now on a case. */
export function accionesPosibles<B extends CuerpoAccion, R>(
  p: Procedimiento<B, R>,
  e: FilaExpediente,
  lado: LadoExpediente,
  eventos: readonly FilaEvento[],
  hoy: string,
): string[] {
  return accionesDesde(definicionDe(p, e), lado, e.paso).filter((a) => !p.admite || p.admite(e, a, { eventos, hoy }));
}

/** The timeline as the detail screens show it: every step but the draft's creation, with its name. */
export function lineaDeTiempo(def: DefinicionProcedimiento<string, string>, eventos: readonly FilaEvento[]) {
  return eventos
    .filter((x) => x.accion !== 'crear')
    .map((x) => ({
      id: x.id,
      accion: x.accion,
      accionNombre: def.nombreAccion[x.accion] ?? x.accion,
      paso: x.paso,
      lado: x.lado as Lado | 'sistema',
      momento: x.momento.toISOString(),
      mensaje: x.mensaje,
      datos: x.datos ?? null,
      vence: x.vence,
    }));
}

/** The documents a side sees: the other side's once sent (attached to a step), its own always. */
export const documentosVisibles = (docs: readonly FilaDocumento[], lado: Lado) =>
  docs.filter((x) => x.eventoId !== null || x.lado === lado).map(documentoApi);

/**
 * Takes an action on a case from a side: checks it is that side's to take in the current step (409
 * otherwise; the scheduled jobs act as `sistema` on the deadlines the procedure declares) and the
 * action's own rules (422), then writes the step, attaches the side's pending documents, mails the
 * other side, does what the procedure adds, and audits, in one transaction.
 */
export async function actuar<B extends CuerpoAccion, R>(
  p: Procedimiento<B, R>,
  deps: DepsExpediente,
  id: string,
  lado: Lado | 'sistema',
  accion: string,
  body: B,
  actor: ActorExpediente,
): Promise<FilaExpediente> {
  return deps.db.transaction(async (tx) => {
    const e = await bloquearExpediente(tx, id);
    if (!e) throw conflict(`${mayuscula(p.llamado)} ya no existe.`);
    const def = definicionDe(p, e);
    const ahora = deps.clock.now();
    const hoy = diaDe(ahora);
    const eventos = await eventosDe(tx, e.id);
    if (lado !== 'sistema' && !accionesPosibles(p, e, lado, eventos, hoy).includes(accion)) {
      if (p.conflicto) throw conflict(p.conflicto(e, accion));
      const nombre = (def.nombreAccion[accion] ?? accion).toLowerCase();
      throw conflict(`No se puede «${nombre}» ahora: ${p.llamado} está en «${(def.nombrePaso[e.paso] ?? e.paso).toLowerCase()}».`);
    }
    const documentos = () => documentosDelExpediente(tx, e.id);
    const sig = await p.siguiente(tx, e, accion, body, { eventos, documentos, hoy, ahora });
    const hacia = def.transiciones[accion]!.hacia;
    const turno = def.turno[hacia] ?? null;
    await registrarPaso(
      tx,
      e,
      {
        accion,
        paso: hacia,
        lado,
        turno,
        vence: sig.vence,
        plazoRegla: sig.regla,
        mensaje: body.mensaje || null,
        datos: sig.datos ?? null,
        momento: ahora,
        presentar: accion === 'presentar',
        ...(sig.auditoria ? { auditoria: sig.auditoria } : {}),
        ...(sig.cambios ? { cambios: { datos: { ...(e.datos as Record<string, unknown>), ...sig.cambios } } } : {}),
      },
      actor,
    );
    const hecho = sig.aviso?.hecho ?? p.hecho(e, accion);
    if (deps.publicUrl && hecho) {
      const destino: Lado = lado === 'solicitante' ? 'distribuidora' : 'solicitante';
      await avisarOtraParte(tx, e, {
        destino,
        referencia: p.referencia(e),
        hecho,
        mensaje: sig.aviso ? sig.aviso.nota : body.mensaje || null,
        pendiente: pendienteDe(turno, destino, sig.vence),
        enlace: p.enlace(deps.publicUrl, e, destino),
        ahora,
      });
    }
    await p.despues?.(tx, e, accion, body, sig, ahora, deps.publicUrl);
    return (await bloquearExpediente(tx, e.id))!;
  });
}

/**
 * The deadlines the scheduled jobs apply: each open case whose turn ran out in one of the declared
 * steps takes the declared action as `sistema`. Answers how many cases moved.
 */
export async function vencerPlazos<B extends CuerpoAccion, R>(p: Procedimiento<B, R>, deps: DepsExpediente): Promise<number> {
  const hoy = diaDe(deps.clock.now());
  let n = 0;
  for (const nombre of nombresDe(p)) {
    for (const { pasos, accion } of p.plazos ?? []) {
      for (const e of await vencidos(deps.db, nombre, pasos, hoy)) {
        await actuar(p, deps, e.id, 'sistema', accion, {} as B, SISTEMA);
        n++;
      }
    }
  }
  return n;
}

/** The condition on the procedure column, written as constants so the planner matches the queues' partial indexes. */
function deProcedimientos(nombres: readonly string[]): SQL {
  for (const n of nombres) if (!/^[a-z_]+$/.test(n)) throw new Error(`Nombre de procedimiento no válido: ${n}`);
  return nombres.length === 1
    ? eq(expedientes.procedimiento, nombres[0]!)
    : sql`${expedientes.procedimiento} in (${sql.raw(nombres.map((n) => `'${n}'`).join(', '))})`;
}

/** An account's own cases of some of a declaration's procedures, newest first. */
export async function propios<B extends CuerpoAccion, R>(
  p: Procedimiento<B, R>,
  deps: DepsExpediente,
  userId: string,
  nombres: readonly string[] = nombresDe(p),
): Promise<R[]> {
  const hoy = diaDe(deps.clock.now());
  const filas = await deps.db
    .select({ e: expedientes, solicitante: nombreCuentaSql, ree: users.codigoRee })
    .from(expedientes)
    .innerJoin(users, eq(users.id, expedientes.userId))
    .where(and(eq(expedientes.userId, userId), deProcedimientos(nombres)))
    .orderBy(desc(expedientes.createdAt));
  return filas.map((f) => p.resumen(f.e, f.solicitante, hoy, f.ree));
}

/** The filters every staff queue has; a procedure adds its own as conditions. */
export interface FiltrosCola {
  distribuidora: string;
  /** Some of the declaration's procedures; all of them without it. */
  nombres?: readonly string[] | undefined;
  paso?: string | undefined;
  vencidas?: boolean | undefined;
  /** The procedure's own filters (a kind, a node, a claim subtype). */
  condiciones?: readonly SQL[];
  page: number;
  pageSize: number;
}

/**
 * The staff queue of a distributor: its open filed cases by deadline (the overdue ones have the
 * earliest, so they come first; those without a deadline after them), then by filing date. Closed
 * cases are found by asking for their step.
 */
export async function cola<B extends CuerpoAccion, R>(
  p: Procedimiento<B, R>,
  deps: DepsExpediente,
  f: FiltrosCola,
): Promise<{ total: number; filas: R[] }> {
  const hoy = diaDe(deps.clock.now());
  const nombres = f.nombres ?? nombresDe(p);
  const finales = new Set<string>();
  for (const procedimiento of nombres) for (const x of definicionDe(p, { procedimiento }).finales) finales.add(x);
  const condiciones: SQL[] = [
    eq(expedientes.distribuidora, f.distribuidora),
    deProcedimientos(nombres),
    sql`${expedientes.presentadoEn} is not null`,
    ...(f.condiciones ?? []),
  ];
  if (f.paso) condiciones.push(eq(expedientes.paso, f.paso));
  if (!f.paso || !finales.has(f.paso)) condiciones.push(sql`${expedientes.cerradoEn} is null`);
  if (f.vencidas) condiciones.push(sql`${expedientes.turno} is not null and ${expedientes.vence} < ${hoy}::date`);
  const donde = and(...condiciones);
  const [filas, [cuenta]] = await Promise.all([
    deps.db
      .select({ e: expedientes, solicitante: nombreCuentaSql, ree: users.codigoRee })
      .from(expedientes)
      .innerJoin(users, eq(users.id, expedientes.userId))
      .where(donde)
      .orderBy(sql`${expedientes.vence} asc nulls last`, asc(expedientes.presentadoEn), asc(expedientes.id))
      .limit(f.pageSize)
      .offset((f.page - 1) * f.pageSize),
    deps.db
      .select({ n: sql<number>`count(*)::int` })
      .from(expedientes)
      .where(donde),
  ]);
  return { total: cuenta?.n ?? 0, filas: filas.map((x) => p.resumen(x.e, x.solicitante, hoy, x.ree)) };
}

/** What a case's detail is built from: its timeline, its documents and the name of the account that filed it. */
export async function partesDelCaso(db: Db, e: FilaExpediente) {
  const [eventos, docs, [u]] = await Promise.all([
    eventosDe(db, e.id),
    documentosDelExpediente(db, e.id),
    db.select({ nombre: nombreCuentaSql }).from(users).where(eq(users.id, e.userId)),
  ]);
  return { eventos, docs, solicitante: u?.nombre ?? '' };
}
