/** Permissions are strings `<distributor>-<area>` (CONTRACT.md "Permissions"). */
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

/** Whether a list of permissions holds any permission of an area (SPEC.md §6 tests the suffix). */
export function tieneArea(permisos: readonly string[], area: Area): boolean {
  return permisos.some((p) => p.endsWith(`-${area}`));
}
