/**
 * The query string of a private screen's address as state (docs/diseno.md "The private area"): a
 * list's filters or a chart's range live there, so back and forward, a reload or a shared link show
 * the same thing. A change of query is a new history entry on the app's router, but not a change
 * of screen: focus and scroll stay where the user is.
 */
import { useStore } from '@nanostores/react';
import { useCallback, useRef } from 'react';
import { $router } from '../../lib/privado/navegacion.ts';

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
