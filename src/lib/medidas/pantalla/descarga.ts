/**
 * Downloads of files the API streams (CSV and Excel of a curve): a plain link cannot carry the
 * bearer token, so the file is fetched with the same headers `apiFetch` adds (src/lib/api/cliente.ts),
 * read with progress, and handed to the browser as a Blob with the name the server gave it
 * (Content-Disposition). Errors come back as the Spanish message the API sent.
 */
import { mensajeDeError, MENSAJE_SIN_CONEXION, rutaApi } from '../../api/cliente.ts';
import { numero, numeroHasta } from '../../formato/numeros.ts';

/** Reads the file name of a Content-Disposition header (`filename*=UTF-8''…` first, then `filename="…"`). */
export function nombreDeDisposicion(cabecera: string | null, porDefecto: string): string {
  if (!cabecera) return porDefecto;
  const extendido = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(cabecera);
  if (extendido) {
    try {
      return limpiarNombre(decodeURIComponent(extendido[1]!.trim())) || porDefecto;
    } catch {
      // A malformed escape: fall through to the plain parameter.
    }
  }
  const simple = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]+))/.exec(cabecera);
  const nombre = simple ? (simple[1] ?? simple[2] ?? '').replace(/\\(.)/g, '$1') : '';
  return limpiarNombre(nombre) || porDefecto;
}

/** No folders and no control characters in a name the browser saves. */
function limpiarNombre(nombre: string): string {
  // eslint-disable-next-line no-control-regex
  return nombre.replace(/[/\\\u0000-\u001f]/g, '_').trim();
}

/** What a download needs from the session (tests pass their own). */
export interface DependenciasDescarga {
  fetch: typeof fetch;
  token: () => string | null;
  /** Ends the session on a 401/403 while logged in (as `apiFetch` does). */
  cerrarSesion: () => void;
}

/** The file, or why there is none. */
export type ResultadoDescarga = { ok: true; blob: Blob; nombre: string } | { ok: false; mensaje: string };

/**
 * Fetches a file of the API as the logged-in user. `alProgresar` gets the bytes received so far
 * (the size is unknown beforehand: the server streams). Aborts with `signal`.
 */
export async function descargarDeApi(
  deps: DependenciasDescarga,
  ruta: string,
  nombrePorDefecto: string,
  opciones: { signal?: AbortSignal; alProgresar?: (bytes: number) => void } = {},
): Promise<ResultadoDescarga> {
  const headers = new Headers({ Accept: '*/*', 'Cache-Control': 'no-cache', Pragma: 'no-cache' });
  const token = deps.token();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  let res: Response;
  try {
    res = await deps.fetch(rutaApi(ruta), { headers, credentials: 'same-origin', signal: opciones.signal ?? null });
  } catch (e) {
    if ((e as Error).name === 'AbortError') return { ok: false, mensaje: 'Descarga cancelada.' };
    return { ok: false, mensaje: MENSAJE_SIN_CONEXION };
  }
  if (!res.ok) {
    if ((res.status === 401 || res.status === 403) && token) deps.cerrarSesion();
    let cuerpo: unknown;
    try {
      const texto = await res.text();
      cuerpo = /json/i.test(res.headers.get('content-type') ?? '') ? JSON.parse(texto) : texto;
    } catch {
      cuerpo = null;
    }
    return { ok: false, mensaje: mensajeDeError(res.status, res.statusText, cuerpo) };
  }
  const nombre = nombreDeDisposicion(res.headers.get('content-disposition'), nombrePorDefecto);
  const tipo = res.headers.get('content-type') ?? 'application/octet-stream';
  try {
    if (!res.body) return { ok: true, blob: new Blob([await res.arrayBuffer()], { type: tipo }), nombre };
    const lector = res.body.getReader();
    const trozos: Uint8Array[] = [];
    let bytes = 0;
    for (;;) {
      const { done, value } = await lector.read();
      if (done) break;
      trozos.push(value);
      bytes += value.byteLength;
      opciones.alProgresar?.(bytes);
    }
    return { ok: true, blob: new Blob(trozos as BlobPart[], { type: tipo }), nombre };
  } catch (e) {
    if ((e as Error).name === 'AbortError') return { ok: false, mensaje: 'Descarga cancelada.' };
    return { ok: false, mensaje: 'La descarga se ha interrumpido. Inténtelo de nuevo.' };
  }
}

/** Hands a Blob to the browser as a download with a name (an object URL on a temporary `<a download>`). */
export function guardarBlob(blob: Blob, nombre: string, doc: Document = document): void {
  const url = URL.createObjectURL(blob);
  const a = doc.createElement('a');
  a.href = url;
  a.download = nombre;
  a.rel = 'noopener';
  a.style.display = 'none';
  doc.body.appendChild(a);
  a.click();
  a.remove();
  // Revoked later: some browsers read the URL after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

/** Bytes in words for the progress text: "850 KB", "1,2 MB". */
export function tamanoLegible(bytes: number): string {
  if (bytes < 1024 * 1024) return `${numero(Math.max(1, Math.round(bytes / 1024)))} KB`;
  return `${numeroHasta(bytes / (1024 * 1024), 1)} MB`;
}
