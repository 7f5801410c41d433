/** Permissions are strings `<distributor>-<area>` (docs/api.md "Permissions"). */
import { CODIGOS_DISTRIBUIDORA, type CodigoDistribuidora } from './distribuidoras.ts';

/** The areas a permission can open. */
export const AREAS = ['distribucion', 'comercializadora', 'accesoyconexion', 'contacto', 'administrador'] as const;

/** One area of the private area. */
export type Area = (typeof AREAS)[number];

/** A permission string such as `epd-distribucion`. */
export type Permiso = `${CodigoDistribuidora}-${Area}`;

/** Builds the permission string of a distributor and an area. */
export function permiso(distribuidora: CodigoDistribuidora, area: Area): Permiso {
  return `${distribuidora}-${area}`;
}

/** Splits a permission string, or returns null when it is not one. */
export function parsePermiso(value: string): { distribuidora: CodigoDistribuidora; area: Area } | null {
  const dash = value.indexOf('-');
  if (dash < 0) return null;
  const distribuidora = value.slice(0, dash);
  const area = value.slice(dash + 1);
  if (!(CODIGOS_DISTRIBUIDORA as readonly string[]).includes(distribuidora)) return null;
  if (!(AREAS as readonly string[]).includes(area)) return null;
  return { distribuidora: distribuidora as CodigoDistribuidora, area: area as Area };
}

/** Every permission of every distributor: what an administrator created at start receives. */
export function todosLosPermisos(): Permiso[] {
  return CODIGOS_DISTRIBUIDORA.flatMap((d) => AREAS.map((a) => permiso(d, a)));
}

/** Whether a list of permissions holds any permission of an area (docs/producto.md §6 tests the suffix). */
export function tieneArea(permisos: readonly string[], area: Area): boolean {
  return permisos.some((p) => p.endsWith(`-${area}`));
}

/** The distributors where a list of permissions holds an area, in the contract's order. */
export function distribuidorasConArea(permisos: readonly string[], area: Area): CodigoDistribuidora[] {
  return CODIGOS_DISTRIBUIDORA.filter((d) => permisos.includes(permiso(d, area)));
}

/**
 * The distributors an administrator administers (`<d>-administrador`): the scope of every
 * administrative list, detail, action and impersonation (docs/decisions/014).
 */
export function distribuidorasAdministradas(permisos: readonly string[]): CodigoDistribuidora[] {
  return distribuidorasConArea(permisos, 'administrador');
}

/** Whether the permissions administer every distributor: only such an administrator acts on other administrators. */
export function administraTodas(permisos: readonly string[]): boolean {
  return distribuidorasAdministradas(permisos).length === CODIGOS_DISTRIBUIDORA.length;
}

/**
 * Areas every active account holds for every distributor (docs/api.md "Who gets what"): they place
 * an account in no particular distributor, so they do not count in its footprint.
 */
export const AREAS_UNIVERSALES: readonly Area[] = ['contacto', 'accesoyconexion'];

/**
 * The permissions an impersonated session carries: the user's, cut to the distributors the
 * impersonating administrator administers, so the session can never reach another distributor's
 * data whatever the account gains while it lasts (docs/decisions/014).
 */
export function permisosSuplantados(permisosUsuario: readonly Permiso[], permisosAdministrador: readonly string[]): Permiso[] {
  const propias = new Set<string>(distribuidorasAdministradas(permisosAdministrador));
  return permisosUsuario.filter((p) => propias.has(p.slice(0, p.indexOf('-'))));
}
