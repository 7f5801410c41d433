/**
 * The SSH public keys a supply company logs in to the SFTP exchange with (docs/decisions/019): each
 * registered in its profile as an OpenSSH `authorized_keys` line, kept with its SHA-256 fingerprint
 * as `ssh-keygen -lf` prints it. A login by key names the account (e-mail or NIF) and proves the
 * private key; the key must be one of that account's.
 */
import { createHash } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import ssh2 from 'ssh2';
import type { Db } from '../db/client.ts';
import { clavesSsh } from '../db/schema.ts';
import { ApiError } from '../http/errors.ts';
import { findAccountForLogin } from '../usuarios/service.ts';
import { esClavePrivada, MAX_CLAVES_SSH, MENSAJES_CLAVE } from '../../lib/intercambio/claves.ts';

const { utils } = ssh2;

/** Kinds of key accepted: those OpenSSH makes today (RSA of at least 2048 bits). */
const TIPOS = ['ssh-ed25519', 'ecdsa-sha2-nistp256', 'ecdsa-sha2-nistp384', 'ecdsa-sha2-nistp521', 'ssh-rsa'] as const;

/** A key as the profile lists it. */
export interface ClaveSsh {
  id: string;
  tipo: string;
  huella: string;
  comentario: string;
  creadaEn: string;
  usadaEn: string | null;
}

/** `SHA256:` and the base64 of the key blob's SHA-256 without padding, as `ssh-keygen -lf` prints it. */
export function huellaDe(blob: Buffer): string {
  return `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
}

/** Reads an `authorized_keys` line: its kind, blob (base64) and comment, or the 422 that says what is wrong. */
export function leerClavePublica(texto: string): { tipo: string; clave: string; huella: string; comentario: string } {
  const linea = texto.trim();
  if (esClavePrivada(linea)) throw new ApiError(422, MENSAJES_CLAVE.privada);
  const m = /^(\S+)\s+([A-Za-z0-9+/]+={0,2})(?:\s+(.*))?$/.exec(linea);
  if (!m || linea.includes('\n')) throw new ApiError(422, MENSAJES_CLAVE.formato);
  const [, tipo, base64, comentario = ''] = m;
  if (!(TIPOS as readonly string[]).includes(tipo!)) throw new ApiError(422, MENSAJES_CLAVE.tipo);
  const clave = utils.parseKey(`${tipo} ${base64}`);
  if (clave instanceof Error || clave.isPrivateKey() || clave.type !== tipo) throw new ApiError(422, MENSAJES_CLAVE.formato);
  const blob = clave.getPublicSSH();
  if (tipo === 'ssh-rsa' && bitsRsa(blob) < 2048) throw new ApiError(422, MENSAJES_CLAVE.tipo);
  return { tipo: tipo!, clave: blob.toString('base64'), huella: huellaDe(blob), comentario: comentario.slice(0, 200) };
}

/** Bits of an RSA key's modulus, from its blob: the strings "ssh-rsa", e and n (RFC 4253 §6.6). */
function bitsRsa(blob: Buffer): number {
  let p = 0;
  const cadena = () => {
    const largo = blob.readUInt32BE(p);
    const datos = blob.subarray(p + 4, p + 4 + largo);
    p += 4 + largo;
    return datos;
  };
  cadena();
  cadena();
  const n = cadena();
  let i = 0;
  while (i < n.length && n[i] === 0) i++;
  return n.length === i ? 0 : (n.length - i - 1) * 8 + Math.floor(Math.log2(n[i]!)) + 1;
}

const api = (c: typeof clavesSsh.$inferSelect): ClaveSsh => ({
  id: c.id,
  tipo: c.tipo,
  huella: c.huella,
  comentario: c.comentario,
  creadaEn: c.creadaEn.toISOString(),
  usadaEn: c.usadaEn?.toISOString() ?? null,
});

/** The keys of an account, oldest first. */
export async function clavesDe(db: Db, usuarioId: string): Promise<ClaveSsh[]> {
  const filas = await db.select().from(clavesSsh).where(eq(clavesSsh.usuarioId, usuarioId)).orderBy(asc(clavesSsh.creadaEn));
  return filas.map(api);
}

/** Registers a key for an account. */
export async function registrarClave(db: Db, usuarioId: string, texto: string, ahora: Date): Promise<ClaveSsh> {
  const k = leerClavePublica(texto);
  return db.transaction(async (tx) => {
    const ya = await tx.select({ huella: clavesSsh.huella }).from(clavesSsh).where(eq(clavesSsh.usuarioId, usuarioId));
    if (ya.some((x) => x.huella === k.huella)) throw new ApiError(409, MENSAJES_CLAVE.repetida);
    if (ya.length >= MAX_CLAVES_SSH) throw new ApiError(409, MENSAJES_CLAVE.muchas);
    const [fila] = await tx
      .insert(clavesSsh)
      .values({ usuarioId, ...k, creadaEn: ahora })
      .returning();
    return api(fila!);
  });
}

/** Removes a key of an account; false when it has none with that id. */
export async function borrarClave(db: Db, usuarioId: string, id: string): Promise<boolean> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return false;
  const borradas = await db
    .delete(clavesSsh)
    .where(and(eq(clavesSsh.id, id), eq(clavesSsh.usuarioId, usuarioId)))
    .returning({ id: clavesSsh.id });
  return borradas.length > 0;
}

/**
 * The registered key an SFTP login offers, for the account its user name names: its owner and its
 * `authorized_keys` form (to verify the signature with); null when that account has no such key.
 * Nothing is written: anyone may offer a public key; only a verified signature counts as a use.
 */
export async function claveDe(
  db: Db,
  username: string,
  blob: Buffer,
): Promise<{ usuarioId: string; huella: string; linea: string } | null> {
  const cuenta = await findAccountForLogin(db, username);
  if (!cuenta) return null;
  const huella = huellaDe(blob);
  const [k] = await db
    .select()
    .from(clavesSsh)
    .where(and(eq(clavesSsh.usuarioId, cuenta.id), eq(clavesSsh.huella, huella)));
  if (!k || k.clave !== blob.toString('base64')) return null;
  return { usuarioId: cuenta.id, huella, linea: `${k.tipo} ${k.clave}` };
}

/** Records a login with a key, once its signature was verified. */
export async function marcarUso(db: Db, usuarioId: string, huella: string, ahora: Date): Promise<void> {
  await db
    .update(clavesSsh)
    .set({ usadaEn: ahora })
    .where(and(eq(clavesSsh.usuarioId, usuarioId), eq(clavesSsh.huella, huella)));
}
