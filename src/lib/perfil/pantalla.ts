/**
 * The profile screen's rules (decision 006), as pure functions the island renders
 * and the unit tests check: which name fields an account edits by the kind of its NIF (docs/producto.md §4),
 * the forms' errors from the schemas the API shares (src/lib/perfil/reglas.ts), renamed to the form's
 * fields, and how dates and sessions are shown.
 */
import { reglasRegistro, type CampoDependiente } from '../cuentas/formulario-registro.ts';
import { cambioClaveSchema, cambioEmailSchema, datosPerfilPara } from './reglas.ts';

/** The profile as `GET /api/perfil` answers it. */
export interface Perfil {
  id: string;
  /** null for the administrator created from the environment. */
  nif: string | null;
  tipoNif: 'DNI' | 'NIE' | 'CIF' | null;
  nombre: string;
  apellido1: string;
  apellido2: string;
  razonSocial: string;
  /** The login name. */
  email: string;
  /** A new address waiting for its link to be confirmed. */
  emailPendiente: string | null;
  /** ISO instant the account was created. */
  creado: string;
  /** Whether the session reading it is an impersonation. */
  suplantado: boolean;
}

/** One live session of the account (`GET /api/perfil/sesiones`). */
export interface SesionActiva {
  /** Refresh family id. */
  id: string;
  creada: string;
  ultimoUso: string;
  navegador: string | null;
  ip: string | null;
  /** The session this page runs in. */
  actual: boolean;
  /** Opened by an administrator acting as the user. */
  suplantacion: boolean;
}

/** The editable identity fields (`PUT /api/perfil`). */
export interface DatosPerfil {
  nombre: string;
  apellido1: string;
  apellido2: string;
  razonSocial: string;
}

/** Which identity fields the account edits: a person's names, a company's name, or both (no NIF). */
export type ClaseCuenta = 'persona' | 'empresa' | 'libre';

/** The kind of account from its NIF kind (docs/producto.md §4: CIF → company; DNI or NIE → person). */
export function claseCuenta(tipoNif: Perfil['tipoNif']): ClaseCuenta {
  if (tipoNif === 'CIF') return 'empresa';
  if (tipoNif === 'DNI' || tipoNif === 'NIE') return 'persona';
  return 'libre';
}

/** The fields shown for each kind of account. */
export function camposVisibles(clase: ClaseCuenta): readonly CampoDependiente[] {
  if (clase === 'empresa') return ['razonSocial'];
  if (clase === 'persona') return ['nombre', 'apellido1', 'apellido2'];
  return ['nombre', 'apellido1', 'apellido2', 'razonSocial'];
}

/**
 * Which fields are enabled for an account without NIF: the registration rule for an incomplete NIF
 * (docs/producto.md §4: a person-name value disables the company name and the reverse).
 */
export function camposHabilitados(clase: ClaseCuenta, datos: DatosPerfil): Record<CampoDependiente, boolean> {
  if (clase !== 'libre') return { nombre: true, apellido1: true, apellido2: true, razonSocial: true };
  return reglasRegistro({ nif: '', ...datos }).habilitados;
}

/** Spanish labels of the identity fields, as the registration form has them. */
export const ETIQUETAS: Readonly<Record<CampoDependiente, string>> = {
  nombre: 'Nombre',
  apellido1: 'Primer apellido',
  apellido2: 'Segundo apellido',
  razonSocial: 'Razón social',
};

/** An error of one field, in the form's order. */
export interface ErrorDeCampo {
  campo: string;
  mensaje: string;
}

/** The first message of each field from zod issues, renamed to the form's field ids and in the form's order. */
function erroresDe(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
  ids: Readonly<Record<string, string>>,
  orden: readonly string[],
): ErrorDeCampo[] {
  const primero = new Map<string, string>();
  for (const i of issues) {
    const campo = ids[String(i.path[0] ?? '')];
    if (campo && !primero.has(campo)) primero.set(campo, i.message);
  }
  return orden.filter((c) => primero.has(c)).map((campo) => ({ campo, mensaje: primero.get(campo)! }));
}

/**
 * The identity fields' errors under the shared profile rules (src/lib/perfil/reglas.ts, which the API
 * applies too): a person needs the three names, a company its name; lengths of docs/producto.md §5.
 */
export function validarDatos(tipoNif: Perfil['tipoNif'], datos: DatosPerfil): ErrorDeCampo[] {
  const r = datosPerfilPara(tipoNif).safeParse(cuerpoDatos(claseCuenta(tipoNif), datos));
  const ids = { nombre: 'nombre', apellido1: 'apellido1', apellido2: 'apellido2', razonSocial: 'razonSocial' };
  return r.success ? [] : erroresDe(r.error.issues, ids, camposVisibles(claseCuenta(tipoNif)));
}

/** Trims every field. */
function recortar(d: DatosPerfil): DatosPerfil {
  return { nombre: d.nombre.trim(), apellido1: d.apellido1.trim(), apellido2: d.apellido2.trim(), razonSocial: d.razonSocial.trim() };
}

/** The `PUT /api/perfil` body: trimmed, with the fields the account does not use sent empty (docs/producto.md §5). */
export function cuerpoDatos(clase: ClaseCuenta, datos: DatosPerfil): DatosPerfil {
  const d = recortar(datos);
  if (clase === 'empresa') return { nombre: '', apellido1: '', apellido2: '', razonSocial: d.razonSocial };
  if (clase === 'persona') return { ...d, razonSocial: '' };
  // Without NIF only one side can be kept; the form disables the other (docs/producto.md §4).
  return d.razonSocial && !(d.nombre || d.apellido1 || d.apellido2)
    ? { nombre: '', apellido1: '', apellido2: '', razonSocial: d.razonSocial }
    : d;
}

/** Errors of the e-mail change form: the shared schema, and the address must be a new one. */
export function validarCambioEmail(nuevoEmail: string, password: string, emailActual: string): ErrorDeCampo[] {
  const r = cambioEmailSchema.safeParse({ nuevoEmail, password });
  const errores = r.success
    ? []
    : erroresDe(r.error.issues, { nuevoEmail: 'nuevoEmail', password: 'passwordEmail' }, ['nuevoEmail', 'passwordEmail']);
  if (r.success && r.data.nuevoEmail === emailActual.trim().toLowerCase()) {
    errores.unshift({ campo: 'nuevoEmail', mensaje: 'El correo electrónico nuevo es el que ya usa.' });
  }
  return errores;
}

/** Errors of the password change form: the shared schema (docs/producto.md §5 rule; both new fields equal). */
export function validarCambioClave(actual: string, nueva: string, copia: string): ErrorDeCampo[] {
  const r = cambioClaveSchema.safeParse({ passwordActual: actual, password: nueva, passwordCopy: copia });
  if (r.success) return [];
  return erroresDe(r.error.issues, { passwordActual: 'passwordActual', password: 'passwordNueva', passwordCopy: 'passwordCopia' }, [
    'passwordActual',
    'passwordNueva',
    'passwordCopia',
  ]);
}

const FECHA_HORA = new Intl.DateTimeFormat('es-ES', { timeZone: 'Europe/Madrid', dateStyle: 'long', timeStyle: 'short' });

/** An ISO instant as Madrid wall-clock time ("3 de marzo de 2026, 10:15"); the text itself when it is no date. */
export function fechaHora(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : FECHA_HORA.format(d);
}

/** A short name for a browser's user-agent string, so the list says "Firefox en Windows" rather than the raw text. */
export function nombreNavegador(ua: string | null): string {
  if (!ua) return 'Navegador desconocido';
  const navegador = /Edg\//.test(ua)
    ? 'Edge'
    : /OPR\//.test(ua)
      ? 'Opera'
      : /Firefox\//.test(ua)
        ? 'Firefox'
        : /Chrom(e|ium)\//.test(ua)
          ? 'Chrome'
          : /Safari\//.test(ua)
            ? 'Safari'
            : null;
  const sistema = /Android/.test(ua)
    ? 'Android'
    : /iPhone|iPad|iPod/.test(ua)
      ? 'iOS'
      : /Windows/.test(ua)
        ? 'Windows'
        : /Mac OS X|Macintosh/.test(ua)
          ? 'macOS'
          : /Linux/.test(ua)
            ? 'Linux'
            : null;
  if (navegador && sistema) return `${navegador} en ${sistema}`;
  if (navegador) return navegador;
  // Not a browser we know (a script, an old device): its own words, shortened.
  return ua.length > 60 ? `${ua.slice(0, 57)}…` : ua;
}
