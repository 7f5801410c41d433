/** Helpers for the private-area API tests: accounts, sessions, registrations, calls with a bearer or a cookie, mail, the audit log. */
import { and, eq } from 'drizzle-orm';
import { beforeAll, beforeEach, expect } from 'vitest';
import { todosLosPermisos, type Permiso } from '../../src/lib/permisos.ts';
import { auditLog } from '../../src/server/db/schema.ts';
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

/** A fresh e-mail address, unique in the run: `<prefijo><n>-<time>@correo.example`. */
export function nuevoCorreo(prefijo = 'persona'): string {
  return `${prefijo}${++seq}-${Date.now()}@correo.example`;
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
  const email = nuevoCorreo(opts.prefijo);
  const nif = opts.empresa ? nuevoCif() : nuevoDni();
  const datos = opts.empresa
    ? { razonSocial: 'Talleres Prueba, S.L.' }
    : { nombre: opts.nombre ?? 'Lucía', apellido1: opts.apellido1 ?? 'Martín', apellido2: 'Ortega' };
  const estado = opts.estado ?? 'activo';
  const { id } = await createUser(server.database.db, { nif, email, ...datos, password: PASSWORD, estado });
  if (estado === 'activo') await grantPermissions(server.database.db, id, [...permisosAlActivar(), ...(opts.extra ?? [])]);
  return { id, email, nif };
}

/** Ana Gestora, an administrator of every distributor (the options of `cuenta`). */
export const GESTORA = { nombre: 'Ana', apellido1: 'Gestora', extra: todosLosPermisos(), prefijo: 'admin' } as const;

/** A new account (see `cuenta`), logged in: the account and its access token. */
export async function cuentaConSesion(
  server: TestServer,
  opts: Parameters<typeof cuenta>[1] = {},
): Promise<{ u: CuentaPrueba; token: string }> {
  const u = await cuenta(server, opts);
  return { u, token: (await sesion(server, u.email)).jwtToken };
}

/** An administrator named Ana Gestora holding `permisos` (e.g. `epd-administrador`), logged in. */
export async function administrador(server: TestServer, permisos: Permiso[]): Promise<{ a: CuentaPrueba; token: string }> {
  const { u, token } = await cuentaConSesion(server, { ...GESTORA, extra: permisos });
  return { a: u, token };
}

/** A valid registration of a person (the body of POST /api/altaUsuario), with a fresh DNI and address; `cambios` overrides fields. */
export function datosAlta<T extends Record<string, unknown>>(cambios: T = {} as T) {
  return {
    nif: nuevoDni(),
    razonSocial: '',
    nombre: 'Lucía',
    apellido1: 'Martín',
    apellido2: 'Ortega',
    password: PASSWORD,
    correoElectronico: nuevoCorreo('alta'),
    host: '',
    ...cambios,
  };
}

/** Registers through the API, expecting 200; answers the body it sent. */
export async function registrar<T extends Record<string, unknown>>(server: TestServer, cambios: T = {} as T) {
  const datos = datosAlta(cambios);
  const res = await llamar(server, 'POST', '/api/altaUsuario', { body: datos });
  expect(res.status, await res.clone().text()).toBe(200);
  return datos;
}

/**
 * Ana Gestora (see GESTORA), an administrator of every distributor unless `permisos` says otherwise,
 * for the whole test file: created once, logged in again before each test. Read `gestora.a` and
 * `gestora.token` inside tests and hooks.
 */
export function gestoraDelFichero(server: TestServer, permisos: Permiso[] = GESTORA.extra): { a: CuentaPrueba; token: string } {
  const gestora = {} as { a: CuentaPrueba; token: string };
  beforeAll(async () => {
    gestora.a = await cuenta(server, { ...GESTORA, extra: permisos });
  });
  beforeEach(async () => {
    gestora.token = (await sesion(server, gestora.a.email)).jwtToken;
  });
  return gestora;
}

/** The session body of the API. */
export interface CuerpoSesion {
  jwtToken: string;
  Permisos: string[];
  username: string;
  nombre: string;
  suplantadoPor: { username: string; nombre: string } | null;
  datosAutorizados: string[] | null;
}

/** The refresh cookie a response sets; null when it sets none. */
export function cookieDe(res: Response): string | null {
  const line = res.headers.getSetCookie().find((c) => c.startsWith('portal_refresh='));
  if (!line) return null;
  const value = line.split(';')[0]!.slice('portal_refresh='.length);
  return value || null;
}

/** The refresh cookie a response sets, with its attributes; null when it sets none. */
export function cookieConAtributos(res: Response): { value: string; attrs: string } | null {
  const line = res.headers.getSetCookie().find((c) => c.startsWith('portal_refresh='));
  if (!line) return null;
  const [pair, ...attrs] = line.split(';');
  return { value: pair!.slice('portal_refresh='.length), attrs: attrs.map((a) => a.trim()).join('; ') };
}

/** The value of an Authorization header with Basic credentials. */
export function basic(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}`;
}

/** POST /api/accesoUsuario with Basic credentials (and other headers), whatever it answers. */
export function acceder(server: TestServer, user: string, password = PASSWORD, headers: Record<string, string> = {}): Promise<Response> {
  return server.fetch('/api/accesoUsuario', { method: 'POST', headers: { Authorization: basic(user, password), ...headers } });
}

/** Logs in and answers the session body and its refresh cookie. */
export async function sesion(server: TestServer, user: string, password = PASSWORD): Promise<CuerpoSesion & { cookie: string }> {
  const res = await acceder(server, user, password);
  expect(res.status, `login de ${user}`).toBe(200);
  const body = (await res.json()) as CuerpoSesion;
  return { ...body, cookie: cookieDe(res)! };
}

/** Calls the API with an optional bearer token, JSON body and refresh cookie. */
export function llamar(
  server: TestServer,
  method: string,
  path: string,
  opts: { token?: string | undefined; body?: unknown; cookie?: string | null | undefined; headers?: Record<string, string> } = {},
): Promise<Response> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.Authorization = `Bearer ${opts.token}`;
  // An empty cookie is still sent: a client may send one.
  if (typeof opts.cookie === 'string') headers.Cookie = `portal_refresh=${opts.cookie}`;
  if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
  return server.fetch(path, { method, headers, ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}) });
}

/** A value of a table (a path, a body) with every `{name}` in its strings replaced by `valores[name]`. */
export function conValores<T>(plantilla: T, valores: Record<string, string>): T {
  if (plantilla === undefined) return plantilla;
  const texto = Object.entries(valores).reduce((t, [clave, valor]) => t.replaceAll(`{${clave}}`, valor), JSON.stringify(plantilla));
  return JSON.parse(texto) as T;
}

/** POST /api/users/refresh-token with a cookie (none when null) and other headers. */
export function refrescar(server: TestServer, cookie: string | null, headers: Record<string, string> = {}): Promise<Response> {
  return llamar(server, 'POST', '/api/users/refresh-token', { cookie, headers });
}

/** POST /api/users/revoke-token with a cookie (none when null). */
export function revocar(server: TestServer, cookie: string | null): Promise<Response> {
  return llamar(server, 'POST', '/api/users/revoke-token', { cookie });
}

/** Sends the outbox now, through the capturing mailer, as the running worker would. */
export async function enviarCorreos(server: TestServer): Promise<void> {
  const worker = createMailWorker({ db: server.database.db, mailer: server.mailer, clock: server.clock, logger: createLogger('silent') });
  await worker.runOnce();
}

/** Sends the outbox through the capturing mailer and answers the last mail to `to`. */
export async function ultimoCorreo(server: TestServer, to: string) {
  await enviarCorreos(server);
  return server.mailer.sent.filter((m) => m.to === to).at(-1);
}

/** The id at the end of a link `<PUBLIC_URL>/sesion/<pagina>/<id>` in a mail's text. */
export function idDelEnlace(texto: string, pagina: string): string {
  const m = new RegExp(`http://portal\\.test/sesion/${pagina}/([A-Za-z0-9_-]+)`).exec(texto);
  expect(m, `enlace ${pagina} en el correo`).not.toBeNull();
  return m![1]!;
}

/** The audit entries of an action, oldest first: those of an actor, on a target or by an impersonating administrator, if told. */
export function auditadas(server: TestServer, accion: string, de: { actor?: string; objetivo?: string; suplantador?: string } = {}) {
  const condiciones = [eq(auditLog.action, accion)];
  if (de.actor) condiciones.push(eq(auditLog.actorUserId, de.actor));
  if (de.objetivo) condiciones.push(eq(auditLog.targetId, de.objetivo));
  if (de.suplantador) condiciones.push(eq(auditLog.impersonatorUserId, de.suplantador));
  return server.database.db
    .select()
    .from(auditLog)
    .where(and(...condiciones))
    .orderBy(auditLog.id);
}
