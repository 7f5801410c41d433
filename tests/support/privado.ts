/** Helpers for the private-area API tests: accounts, sessions, calls with a bearer or a cookie, mail. */
import { expect } from 'vitest';
import type { Permiso } from '../../src/lib/permisos.ts';
import { createLogger } from '../../src/server/logger.ts';
import { createMailWorker } from '../../src/server/mail/worker.ts';
import { createUser, grantPermissions, permisosAlActivar } from '../../src/server/usuarios/service.ts';
import type { TestServer } from './server.ts';

/** Password of every account these helpers create. */
export const PASSWORD = 'Clave123';

let seq = 0;

/** A random DNI with its right letter. */
export function nuevoDni(): string {
  const n = 10_000_000 + Math.floor(Math.random() * 80_000_000);
  return `${n}${'TRWAGMYFPDXBNJZSQVHLCKE'[n % 23]}`;
}

/** A random valid CIF: B, 7 digits and the control digit. */
export function nuevoCif(): string {
  const siete = String(1_000_000 + Math.floor(Math.random() * 8_999_999));
  let sum = 0;
  for (let i = 0; i < 7; i++) {
    const d = Number(siete[i]);
    sum += i % 2 === 0 ? Math.floor((d * 2) / 10) + ((d * 2) % 10) : d;
  }
  return `B${siete}${(10 - (sum % 10)) % 10}`;
}

/** An account created in the database; active with the activation permissions (plus `extra`) unless told otherwise. */
export interface CuentaPrueba {
  id: string;
  email: string;
  nif: string;
}

/** Creates an account directly through the users service. */
export async function cuenta(
  server: TestServer,
  opts: {
    estado?: 'activo' | 'pendiente';
    empresa?: boolean;
    nombre?: string;
    apellido1?: string;
    extra?: Permiso[];
    prefijo?: string;
  } = {},
): Promise<CuentaPrueba> {
  const email = `${opts.prefijo ?? 'persona'}${++seq}-${Date.now()}@correo.example`;
  const nif = opts.empresa ? nuevoCif() : nuevoDni();
  const datos = opts.empresa
    ? { razonSocial: 'Talleres Prueba, S.L.' }
    : { nombre: opts.nombre ?? 'Lucía', apellido1: opts.apellido1 ?? 'Martín', apellido2: 'Ortega' };
  const estado = opts.estado ?? 'activo';
  const { id } = await createUser(server.database.db, { nif, email, ...datos, password: PASSWORD, estado });
  if (estado === 'activo') await grantPermissions(server.database.db, id, [...permisosAlActivar(), ...(opts.extra ?? [])]);
  return { id, email, nif };
}

/** The session body of the API. */
export interface CuerpoSesion {
  jwtToken: string;
  Permisos: string[];
  username: string;
  nombre: string;
  suplantadoPor: { username: string; nombre: string } | null;
}

/** The refresh cookie a response sets; null when it sets none. */
export function cookieDe(res: Response): string | null {
  const line = res.headers.getSetCookie().find((c) => c.startsWith('portal_refresh='));
  if (!line) return null;
  const value = line.split(';')[0]!.slice('portal_refresh='.length);
  return value || null;
}

/** Logs in and answers the session body and its refresh cookie. */
export async function sesion(server: TestServer, user: string, password = PASSWORD): Promise<CuerpoSesion & { cookie: string }> {
  const res = await server.fetch('/api/accesoUsuario', {
    method: 'POST',
    headers: { Authorization: `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}` },
  });
  expect(res.status, `login de ${user}`).toBe(200);
  const body = (await res.json()) as CuerpoSesion;
  return { ...body, cookie: cookieDe(res)! };
}

/** Calls the API with an optional bearer token, JSON body and refresh cookie. */
export function llamar(
  server: TestServer,
  method: string,
  path: string,
  opts: { token?: string | undefined; body?: unknown; cookie?: string | undefined; headers?: Record<string, string> } = {},
): Promise<Response> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.Authorization = `Bearer ${opts.token}`;
  if (opts.cookie) headers.Cookie = `portal_refresh=${opts.cookie}`;
  if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
  return server.fetch(path, { method, headers, ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}) });
}

/** POST /api/users/refresh-token with a cookie. */
export function refrescar(server: TestServer, cookie: string): Promise<Response> {
  return llamar(server, 'POST', '/api/users/refresh-token', { cookie });
}

/** Sends the outbox through the capturing mailer and answers the last mail to `to`. */
export async function ultimoCorreo(server: TestServer, to: string) {
  const worker = createMailWorker({ db: server.database.db, mailer: server.mailer, clock: server.clock, logger: createLogger('silent') });
  await worker.runOnce();
  return server.mailer.sent.filter((m) => m.to === to).at(-1);
}

/** The id at the end of a link `<PUBLIC_URL>/sesion/<pagina>/<id>` in a mail's text. */
export function idDelEnlace(texto: string, pagina: string): string {
  const m = new RegExp(`http://portal\\.test/sesion/${pagina}/([A-Za-z0-9_-]+)`).exec(texto);
  expect(m, `enlace ${pagina} en el correo`).not.toBeNull();
  return m![1]!;
}
