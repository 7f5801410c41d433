/**
 * E-mail alerts of network interruptions (docs/decisions/025-avisos-de-corte.md): a holder asks, per
 * supply point, to be told when a scheduled interruption concerning it is published, changed or
 * cancelled, and when an interruption concerning it starts and ends. Whether an interruption
 * concerns a supply point is decided by `puntosAfectados` (src/server/incidencias/service.ts), the
 * rule of «Mis interrupciones».
 *
 * - The alerts are queued in the outbox inside the transaction that changes the incident, and each
 *   (incident, event, version, address) is recorded in `avisos_corte_enviados` first: a retried or
 *   repeated action finds the key taken and mails nobody again.
 * - Every mail carries, per supply point, a stop link whose token is the subscription id signed with
 *   a key derived from the server secret (HMAC-SHA256): nothing secret is stored, a forged token
 *   fails the signature, and a new subscription (a new row) is never stopped by an older link.
 * - The recipients are read when the event happens: an account that is no longer active, or no
 *   longer holds the supply point or its `-distribucion` permission, is told nothing.
 */
import { timingSafeEqual, type KeyObject } from 'node:crypto';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import { audit } from '../auditoria/service.ts';
import { deriveKey, hmacHex } from '../auth/tokens.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { avisosCorteEnviados, avisosCorteSuscripciones, suministros, userPermissions, users, type incidenciasRed } from '../db/schema.ts';
import type { InfoPeticion } from '../http/peticion.ts';
import { puntosAfectados } from '../incidencias/service.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { correoAvisoCorte, type EventoAvisoCorte, type SuministroAvisado } from '../mail/plantillas.ts';
import { consumir, LIMITES, type RateLimitDeps } from '../rate-limit/service.ts';
import { nombreVisible } from '../usuarios/service.ts';

export type { EventoAvisoCorte };

/** What the alerts need from the configuration: the portal's origin for links and the signing secret. */
export type ConfigAvisos = Pick<Config, 'publicUrl' | 'jwtSecret'>;

/** The public page that asks for the click that stops the alerts; the token goes in the fragment. */
export const RUTA_BAJA = '/avisos-corte/baja';

/** The private screen the alerts point to. */
export const RUTA_INTERRUPCIONES = '/medidas/interrupciones';

/** Spanish answers of the alerts. */
export const MENSAJES_AVISOS = {
  enlaceDesconocido:
    'Este enlace para dejar de recibir avisos no es válido. Compruebe que lo ha copiado completo desde el correo, o desactive los avisos en «Mis interrupciones» del área privada.',
} as const;

/** A token: the subscription id (32 hex digits, no dashes), a dot and the signature (base64url of 32 bytes). */
const TOKEN = /^([0-9a-f]{32})\.([A-Za-z0-9_-]{43})$/;

const claves = new WeakMap<Uint8Array, KeyObject>();

/** The HMAC key of the stop links, derived once per secret. */
function claveBaja(secret: Uint8Array): KeyObject {
  let k = claves.get(secret);
  if (!k) claves.set(secret, (k = deriveKey(secret, 'avisos-corte-baja')));
  return k;
}

const firma = (secret: Uint8Array, id: string) => Buffer.from(hmacHex(claveBaja(secret), id), 'hex').toString('base64url');

/** The stop token of a subscription. */
export function tokenBaja(secret: Uint8Array, suscripcionId: string): string {
  const id = suscripcionId.replace(/-/g, '').toLowerCase();
  return `${id}.${firma(secret, id)}`;
}

/** The subscription id a token was signed for, or null when it is malformed or its signature fails. */
export function suscripcionDeToken(secret: Uint8Array, token: string): string | null {
  const m = TOKEN.exec(token.trim());
  if (!m) return null;
  const esperada = Buffer.from(firma(secret, m[1]!));
  const dada = Buffer.from(m[2]!);
  if (esperada.length !== dada.length || !timingSafeEqual(esperada, dada)) return null;
  return m[1]!.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5');
}

/** The full stop link of a subscription, on this portal. */
export function enlaceBaja(config: ConfigAvisos, suscripcionId: string): string {
  return `${config.publicUrl.replace(/\/+$/, '')}${RUTA_BAJA}#${tokenBaja(config.jwtSecret, suscripcionId)}`;
}

/** Which of `cups` (the caller's supply points) have alerts in force for the account. */
export async function cupsSuscritos(db: Db, userId: string, cups: readonly string[]): Promise<string[]> {
  if (cups.length === 0) return [];
  const filas = await db
    .select({ cups: avisosCorteSuscripciones.cups })
    .from(avisosCorteSuscripciones)
    .where(
      and(
        eq(avisosCorteSuscripciones.userId, userId),
        inArray(avisosCorteSuscripciones.cups, [...cups]),
        isNull(avisosCorteSuscripciones.bajaEn),
      ),
    );
  return filas.map((f) => f.cups).sort();
}

/**
 * Turns the alerts of one supply point on or off for the account (the caller checked that the
 * account holds it), auditing a real change; answers whether anything changed. Turning on twice, or
 * off twice, changes nothing.
 */
export async function cambiarSuscripcion(
  db: Db,
  now: Date,
  info: Pick<InfoPeticion, 'ip' | 'requestId'> | null,
  cuenta: { userId: string },
  s: { cups: string; distribuidora: string },
  activa: boolean,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    let id: string | undefined;
    if (activa) {
      // The partial unique index keeps one subscription in force per account and CUPS.
      const [fila] = await tx
        .insert(avisosCorteSuscripciones)
        .values({ userId: cuenta.userId, cups: s.cups, creadaEn: now })
        .onConflictDoNothing()
        .returning({ id: avisosCorteSuscripciones.id });
      id = fila?.id;
    } else {
      const [fila] = await tx
        .update(avisosCorteSuscripciones)
        .set({ bajaEn: now, bajaPor: 'cuenta' })
        .where(
          and(
            eq(avisosCorteSuscripciones.userId, cuenta.userId),
            eq(avisosCorteSuscripciones.cups, s.cups),
            isNull(avisosCorteSuscripciones.bajaEn),
          ),
        )
        .returning({ id: avisosCorteSuscripciones.id });
      id = fila?.id;
    }
    if (!id) return false;
    await audit(tx, {
      action: activa ? 'avisos_corte.alta' : 'avisos_corte.baja',
      actorUserId: cuenta.userId,
      targetType: 'suministro',
      targetId: s.cups,
      ip: info?.ip ?? null,
      requestId: info?.requestId ?? null,
      details: { via: 'cuenta' },
      distribuidoras: [s.distribuidora],
    });
    return true;
  });
}

/** What the public stop answers: stopped now, or already stopped before. */
export type ResultadoBaja = { estado: 'anulada' | 'ya_anulada'; municipio: string | null };

/**
 * Stops the alerts a token was signed for, without a session. Every call takes a unit of the
 * per-address limit first (429 past it), so tokens cannot be tried fast. Answers null for a token
 * that is malformed, forged or names no subscription.
 */
export async function bajaPorEnlace(
  deps: RateLimitDeps,
  direccion: string,
  token: string,
  info: InfoPeticion,
): Promise<ResultadoBaja | null> {
  await consumir(deps, [{ limite: LIMITES.bajaAvisosCorte, sujeto: direccion }]);
  const id = suscripcionDeToken(deps.config.jwtSecret, token);
  if (!id) return null;
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const [anulada] = await tx
      .update(avisosCorteSuscripciones)
      .set({ bajaEn: now, bajaPor: 'enlace' })
      .where(and(eq(avisosCorteSuscripciones.id, id), isNull(avisosCorteSuscripciones.bajaEn)))
      .returning();
    const fila = anulada ?? (await tx.select().from(avisosCorteSuscripciones).where(eq(avisosCorteSuscripciones.id, id)))[0];
    if (!fila) return null;
    const [s] = await tx
      .select({ municipio: suministros.municipio, distribuidora: suministros.distribuidora })
      .from(suministros)
      .where(eq(suministros.cups, fila.cups));
    if (anulada) {
      await audit(tx, {
        action: 'avisos_corte.baja',
        actorUserId: fila.userId,
        targetType: 'suministro',
        targetId: fila.cups,
        ip: info.ip,
        requestId: info.requestId,
        details: { via: 'enlace' },
        ...(s ? { distribuidoras: [s.distribuidora] } : {}),
      });
    }
    return { estado: anulada ? 'anulada' : 'ya_anulada', municipio: s?.municipio ?? null };
  });
}

/** A subscription in force whose account may still be told: active, holding the supply point and its distributor's `-distribucion`. */
interface Destinatario {
  suscripcionId: string;
  userId: string;
  email: string;
  nombre: string;
  cups: string;
  direccion: string;
  codigoPostal: string;
  municipio: string;
  codigoIne: string;
  distribuidora: string;
}

/** The subscriptions in force of supply points of `distribuidoras`, with what their mail needs. */
async function destinatarios(db: Db, distribuidoras: readonly string[]): Promise<Destinatario[]> {
  const filas = await db
    .select({
      suscripcionId: avisosCorteSuscripciones.id,
      userId: users.id,
      email: users.email,
      nombre: users.nombre,
      apellido1: users.apellido1,
      razonSocial: users.razonSocial,
      cups: suministros.cups,
      direccion: suministros.direccion,
      codigoPostal: suministros.codigoPostal,
      municipio: suministros.municipio,
      codigoIne: suministros.codigoIne,
      distribuidora: suministros.distribuidora,
    })
    .from(avisosCorteSuscripciones)
    .innerJoin(users, and(eq(users.id, avisosCorteSuscripciones.userId), eq(users.estado, 'activo')))
    .innerJoin(
      suministros,
      and(
        eq(suministros.cups, avisosCorteSuscripciones.cups),
        eq(suministros.titularNif, users.nif),
        inArray(suministros.distribuidora, [...distribuidoras]),
      ),
    )
    // The same reach as every consumer route (src/server/suministros/service.ts `suministroDe`).
    .innerJoin(
      userPermissions,
      and(
        eq(userPermissions.userId, users.id),
        eq(userPermissions.distribuidora, suministros.distribuidora),
        eq(userPermissions.area, 'distribucion'),
      ),
    )
    .where(isNull(avisosCorteSuscripciones.bajaEn));
  return filas.map(({ nombre, apellido1, razonSocial, ...f }) => ({ ...f, nombre: nombreVisible({ nombre, apellido1, razonSocial }) }));
}

/** The area of an incident: what decides whom it concerns. */
export type Zona = { distribuidora: string; codigoIne: string; codigosPostales: readonly string[]; cups: readonly string[] };

/** How many supply points and holders with alerts in force an incident of this area would mail. */
export async function previsionAvisos(db: Db, zona: Zona): Promise<{ suministros: number; titulares: number }> {
  const afectados = puntosAfectados(zona, await destinatarios(db, [zona.distribuidora]));
  return { suministros: new Set(afectados.map((a) => a.cups)).size, titulares: new Set(afectados.map((a) => a.userId)).size };
}

type Incidencia = typeof incidenciasRed.$inferSelect;

/** How many supply points and holders an event mailed. */
export interface Avisados {
  suministros: number;
  titulares: number;
}

/** Rows of `avisos_corte_enviados` per statement: well under PostgreSQL's 65,535 parameters. */
const TROZO = 1000;

/**
 * Queues the alert of `evento` about incident `i` for every subscription it concerns, inside the
 * caller's transaction, at most once per (incident, event, version, address). For `cambiada`,
 * `antes` is the incident before the change: supply points it concerned and the new one does not are
 * told it no longer concerns them. `config` null (demo data) mails no one. Answers what it queued.
 */
export async function avisarCorte(
  tx: Db,
  config: ConfigAvisos | null,
  now: Date,
  evento: EventoAvisoCorte,
  i: Incidencia,
  opciones: { version?: string; antes?: Incidencia } = {},
): Promise<Avisados> {
  if (!config) return { suministros: 0, titulares: 0 };
  const antes = opciones.antes;
  const candidatos = await destinatarios(tx, [...new Set([i.distribuidora, ...(antes ? [antes.distribuidora] : [])])]);
  const ahora = puntosAfectados(i, candidatos);
  const porClave = new Map<string, { d: Destinatario; afecta: SuministroAvisado['afecta'] }>(
    ahora.map((d) => [d.suscripcionId, { d, afecta: d.afecta }]),
  );
  if (antes) {
    for (const d of puntosAfectados(antes, candidatos))
      if (!porClave.has(d.suscripcionId)) porClave.set(d.suscripcionId, { d, afecta: null });
  }
  const porEmail = new Map<string, { d: Destinatario; afecta: SuministroAvisado['afecta'] }[]>();
  for (const x of porClave.values()) porEmail.set(x.d.email, [...(porEmail.get(x.d.email) ?? []), x]);
  if (porEmail.size === 0) return { suministros: 0, titulares: 0 };

  const version = opciones.version ?? '';
  const filas = [...porEmail].map(([email, l]) => ({ incidenciaId: i.id, evento, version, email, suministros: l.length, creadoEn: now }));
  const nuevas = new Set<string>();
  for (let k = 0; k < filas.length; k += TROZO) {
    const hechas = await tx
      .insert(avisosCorteEnviados)
      .values(filas.slice(k, k + TROZO))
      .onConflictDoNothing()
      .returning({ email: avisosCorteEnviados.email });
    for (const h of hechas) nuevas.add(h.email);
  }

  const enlaceInterrupciones = `${config.publicUrl.replace(/\/+$/, '')}${RUTA_INTERRUPCIONES}`;
  let puntos = 0;
  for (const email of nuevas) {
    const lista = porEmail.get(email)!.sort((a, b) => (a.d.cups < b.d.cups ? -1 : 1));
    puntos += lista.length;
    const correo = correoAvisoCorte({
      nombre: lista[0]!.d.nombre,
      evento,
      municipio: i.municipio,
      provincia: i.provincia,
      descripcion: i.descripcion,
      inicio: i.inicio,
      finPrevisto: i.finPrevisto,
      fin: i.fin,
      suministros: lista.map(({ d, afecta }) => ({
        cups: d.cups,
        direccion: d.direccion,
        codigoPostal: d.codigoPostal,
        municipio: d.municipio,
        afecta,
        enlaceBaja: enlaceBaja(config, d.suscripcionId),
      })),
      enlaceInterrupciones,
    });
    await enqueueMail(tx, { to: email, ...correo }, now);
  }
  return { suministros: puntos, titulares: nuevas.size };
}

/** Whether an edit of a scheduled interruption changed what its alert tells or whom it concerns. */
export function cambioAvisable(antes: Incidencia, despues: Incidencia): boolean {
  const conjunto = (l: readonly string[]) => [...l].sort().join(',');
  return (
    antes.distribuidora !== despues.distribuidora ||
    antes.descripcion !== despues.descripcion ||
    antes.municipio !== despues.municipio ||
    antes.codigoIne !== despues.codigoIne ||
    antes.provincia !== despues.provincia ||
    conjunto(antes.codigosPostales) !== conjunto(despues.codigosPostales) ||
    conjunto(antes.cups) !== conjunto(despues.cups) ||
    antes.inicio.getTime() !== despues.inicio.getTime() ||
    (antes.finPrevisto?.getTime() ?? null) !== (despues.finPrevisto?.getTime() ?? null)
  );
}
