/**
 * The administration screens' calls. Every call goes through the portal's client (`apiFetch`'s
 * factory, src/lib/api/cliente.ts): bearer token, no-cache headers, logout on 401/403 (docs/producto.md §8)
 * and Spanish error messages. The paginated lists also need the `X-Total-Count` header, which
 * `apiFetch` does not hand back, so `pedirPagina` builds the same client around a fetch that keeps
 * the answer's headers.
 */
import { apiFetch, crearApiFetch, type OpcionesApi, type RespuestaApi } from '../api/cliente.ts';
import { $session, logout } from '../sesion/index.ts';
import { leerTotal } from './consulta.ts';

export { apiFetch };

/** A page of a list and the total of all pages. */
export interface Pagina<T> {
  /** The rows of this page. */
  filas: T[];
  /** Rows of every page (X-Total-Count); the page's own length when the header is missing. */
  total: number;
}

/** GETs a paginated list that answers a JSON array with `X-Total-Count` (docs/api.md, decision 006). */
export async function pedirPagina<T>(path: string, init: OpcionesApi = {}): Promise<RespuestaApi<Pagina<T>>> {
  let cabeceras: Headers | null = null;
  const pedir = crearApiFetch({
    fetch: async (entrada, opciones) => {
      const res = await globalThis.fetch(entrada, opciones);
      cabeceras = res.headers;
      return res;
    },
    token: () => $session.get()?.jwtToken ?? null,
    cerrarSesion: () => logout(),
  });
  const r = await pedir<T[]>(path, init);
  if (!r.ok) return r;
  const filas = Array.isArray(r.datos) ? r.datos : [];
  const total = leerTotal((cabeceras as Headers | null)?.get('X-Total-Count') ?? null) ?? filas.length;
  return { ok: true, status: r.status, datos: { filas, total } };
}
