/**
 * Navigation of the administration screens inside the private app (src/lib/privado/navegacion.ts).
 * A list's filters live in the query string of its address: a change of filters or page is a new
 * history entry opened on the app's router, so back and forward and a reload show the same list,
 * but it is not a navigation to another screen, so focus and scroll stay where the user is.
 */
import { useStore } from '@nanostores/react';
import { useCallback, useRef } from 'react';
import { $router, navegar as navegarApp } from '../../../lib/privado/navegacion.ts';

/** Opens another screen of the private app (focus moves to its heading, as for any link). */
export function navegar(url: string, reemplazar = false): void {
  navegarApp(url, { reemplazar });
}

/**
 * The query string of the current address (without '?'), following back and forward, and a
 * function that puts a new one in the address (a new history entry, unless `reemplazar`).
 */
export function useConsultaUrl(): [string, (consulta: string, reemplazar?: boolean) => void] {
  const pagina = useStore($router);
  // The screen's own path: while the app moves to another screen, this one keeps its last query.
  const propia = useRef(pagina?.path ?? '');
  const ultima = useRef('');
  if (pagina && pagina.path === propia.current) ultima.current = new URLSearchParams(pagina.search).toString();
  const consulta = ultima.current;
  const cambiar = useCallback((nueva: string, reemplazar = false) => {
    const limpia = nueva.replace(/^\?/, '');
    const destino = `${window.location.pathname}${limpia ? `?${limpia}` : ''}`;
    if (destino !== `${window.location.pathname}${window.location.search}`) $router.open(destino, reemplazar);
  }, []);
  return [consulta, cambiar];
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
