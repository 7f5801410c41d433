/**
 * Navigation of the administration screens inside the private app (src/lib/privado/navegacion.ts):
 * opening another screen, and the users list's address remembered for a detail's "back" link. A
 * list's filters live in the query string of its address (`useConsultaUrl`, ../usar-consulta.ts).
 */
import { navegar as navegarApp } from '../../../lib/privado/navegacion.ts';

/** Opens another screen of the private app (focus moves to its heading, as for any link). */
export function navegar(url: string, reemplazar = false): void {
  navegarApp(url, { reemplazar });
}

/** The path of the users list. */
export const RUTA_USUARIOS = '/administrador/administrador-usuarios';

let consultaListado = '';

/** Remembers the users list's query, so a detail's "back" link returns to the same filtered page. */
export function recordarConsultaUsuarios(consulta: string): void {
  consultaListado = consulta;
}

/** The users list with the filters it had when last shown in this page. */
export function urlListadoUsuariosRecordada(): string {
  return consultaListado ? `${RUTA_USUARIOS}?${consultaListado}` : RUTA_USUARIOS;
}

/** The path of a user's detail. */
export function urlDetalleUsuario(id: string): string {
  return `${RUTA_USUARIOS}/${encodeURIComponent(id)}`;
}
