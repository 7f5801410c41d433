/**
 * The FTP screen of supply companies (/comercializadora/ftp): the plain part, no React. The rules
 * of the second login (docs/producto.md §5: e-mail and password, the form submits only when both are
 * valid), how sizes, dates and the breadcrumb are written, which actions a folder allows, the
 * checks of a new name, and the client of the file exchange's API: its own token (`jwTokenFtp`,
 * kept in the tab's sessionStorage), never the portal's, so a 401 here ends the FTP session only.
 */
import { urlApi } from '../api/rutas.ts';
import { nombreDistribuidora } from '../distribuidoras.ts';
import { numero, numeroHasta } from '../formato/numeros.ts';
import { ENTRADA, errorNombre, estaDentro, MENSAJES_RUTA, nombreDe, padreDe, partesDe, RECHAZADOS, SALIDA, unir } from './rutas.ts';

/** Where the FTP token is kept for the tab's life (the specification's name for it). */
export const CLAVE_TOKEN_FTP = 'jwTokenFtp';
/** The portal user the kept token was obtained by: another user in the same tab does not inherit it. */
export const CLAVE_USUARIO_FTP = 'jwTokenFtpUsuario';

/** docs/producto.md §8: the FTP login's failure, word for word. */
export const MENSAJE_LOGIN_FTP_FALLIDO = 'No se pudo acceder, por favor compruebe los datos y vuelva a intentarlo.';
/** Shown on the login after the exchange refused a kept token (expired, or revoked). */
export const MENSAJE_SESION_FTP_TERMINADA = 'Su sesión del FTP ha terminado. Vuelva a entrar para seguir.';
/** Shown when no answer came at all. */
export const MENSAJE_SIN_CONEXION_FTP = 'No se ha podido conectar con el portal. Compruebe su conexión e inténtelo de nuevo.';

/** Largest file the exchange takes (the server answers 413 above it). */
export const MAX_SUBIDA_BYTES = 200 * 1024 * 1024;

/** One file or folder of a listing, as `GET /api/ftp` answers it. */
export interface ElementoFtp {
  /** Absolute path: `/epd/entrada/x.xml`. */
  id: string;
  name: string;
  isFolder: boolean;
  /** The folder it is in (`/` for a distributor's folder). */
  parent: string;
  /** Bytes (0 for a folder). */
  size: number;
  /** ISO date of the last change. */
  modified: string;
  /** One of the folders that always exist: cannot be deleted, renamed or moved. */
  fixed: boolean;
  /** Written by the distributor. */
  fromDistributor: boolean;
}

/** A folder's listing. */
export interface ListadoFtp {
  carpeta: string;
  elementos: ElementoFtp[];
}

// ---------------------------------------------------------------------------------------------
// Login

/** A plausible e-mail address: something@something.tld, no spaces (the server decides the rest). */
export function esCorreoValido(valor: string): boolean {
  const v = valor.trim();
  return v.length <= 254 && /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/.test(v);
}

/** docs/producto.md §5: the FTP login submits only when the e-mail looks right and the password is not empty. */
export function loginFtpValido(email: string, password: string): boolean {
  return esCorreoValido(email) && password.length > 0;
}

/** The message under a field of the FTP login once the user left it wrong; null when fine. */
export function errorCampoLogin(campo: 'email' | 'password', valor: string): string | null {
  if (campo === 'password') return valor ? null : 'Introduzca su contraseña.';
  if (!valor.trim()) return 'Introduzca su correo electrónico.';
  return esCorreoValido(valor) ? null : 'Escriba un correo electrónico válido, como nombre@empresa.es.';
}

// ---------------------------------------------------------------------------------------------
// How things are written

/** A size as the listing writes it: "512 bytes", "12,5 KB", "3,4 MB", "1,25 GB" (binary units). */
export function tamanoFtp(bytes: number): string {
  if (bytes < 1024) return `${numero(bytes)} ${bytes === 1 ? 'byte' : 'bytes'}`;
  if (bytes < 1024 * 1024) return `${numeroHasta(bytes / 1024, 1)} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${numeroHasta(bytes / (1024 * 1024), 1)} MB`;
  return `${numeroHasta(bytes / (1024 * 1024 * 1024), 2)} GB`;
}

const PARTES_MADRID = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Europe/Madrid',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** "dd/mm/aaaa hh:mm" in peninsular time; "—" when there is no date (the fixed folders are dated at the epoch). */
export function fechaHoraFtp(iso: string): string {
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms) || ms <= 0) return '—';
  const p: Record<string, string> = {};
  for (const parte of PARTES_MADRID.formatToParts(new Date(ms))) p[parte.type] = parte.value;
  return `${p['day']}/${p['month']}/${p['year']} ${p['hour']}:${p['minute']}`;
}

/** The distributor code a path belongs to (`/epd/entrada` → `epd`), or null for the root. */
export function distribuidoraDe(ruta: string): string | null {
  return partesDe(ruta)[0] ?? null;
}

/** The legal name of the distributor a top folder is named after, or the folder's name in capitals when it is none. */
export function nombreCarpetaDistribuidora(carpeta: string): string {
  return nombreDistribuidora(carpeta, (c) => c.toUpperCase());
}

/** One step of the breadcrumb. */
export interface Miga {
  /** Visible text. */
  texto: string;
  /** Folder it opens. */
  ruta: string;
}

/** Text of the top of the tree in the breadcrumb. */
export const TEXTO_RAIZ = 'Mis carpetas';

/** The breadcrumb of a folder: the top, then each folder down to it (`/epd/entrada` → Mis carpetas › epd › entrada). */
export function migasDe(carpeta: string): Miga[] {
  const migas: Miga[] = [{ texto: TEXTO_RAIZ, ruta: '/' }];
  let ruta = '/';
  for (const parte of partesDe(carpeta)) {
    ruta = unir(ruta, parte);
    migas.push({ texto: parte, ruta });
  }
  return migas;
}

/** What a fixed folder is for, in one sentence; null for any other path. */
export function descripcionCarpeta(ruta: string): string | null {
  const partes = partesDe(ruta);
  if (partes.length === 1) return `Ficheros que intercambia con ${nombreCarpetaDistribuidora(partes[0]!).replace(/\.?$/, '.')}`;
  const resto = partes.slice(1).join('/');
  if (resto === ENTRADA) return 'Lo que usted envía a la distribuidora. Los ficheros que deje aquí se procesan automáticamente.';
  if (resto === `${ENTRADA}/${RECHAZADOS}`) return 'Ficheros que no se pudieron procesar, cada uno con un .txt que explica el motivo.';
  if (resto === SALIDA) return 'Lo que la distribuidora le envía. Aquí no se pueden subir ficheros.';
  return null;
}

/** The distributor's `salida` folder of a path, or null for the root. */
function salidaDe(ruta: string): string | null {
  const d = distribuidoraDe(ruta);
  return d ? `/${d}/${SALIDA}` : null;
}

/** Why files cannot be uploaded into a folder, or null when they can. */
export function motivoSinSubida(carpeta: string): string | null {
  if (carpeta === '/') return 'Entre en la carpeta de una distribuidora para subir ficheros.';
  const salida = salidaDe(carpeta)!;
  if (estaDentro(carpeta, salida)) return 'La carpeta salida es donde la distribuidora le deja sus ficheros: deje los suyos en entrada.';
  return null;
}

/** Why no folder can be made here, or null when it can. */
export function motivoSinCarpeta(carpeta: string): string | null {
  return carpeta === '/' ? 'Aquí solo están las carpetas de cada distribuidora: cree la suya dentro de una de ellas.' : null;
}

/** Whether an upload of this name here goes straight to the distributor's exchange (a file directly in `entrada`). */
export function seProcesaAlSubir(carpeta: string): boolean {
  const partes = partesDe(carpeta);
  return partes.length === 2 && partes[1] === ENTRADA;
}

// ---------------------------------------------------------------------------------------------
// Names and destinations

/**
 * Why a name typed for a new folder or a rename cannot be used, or null. `existentes` are the names
 * already in the folder; `actual` is the element's own name on a rename (keeping it is no clash).
 */
export function errorNuevoNombre(nombre: string, existentes: readonly string[] = [], actual?: string): string | null {
  const motivo = errorNombre(nombre);
  if (motivo) return MENSAJES_RUTA[motivo];
  if (nombre !== actual && existentes.includes(nombre)) return 'Ya existe un fichero o carpeta con ese nombre.';
  return null;
}

/** Where a rename's field puts the selection: the name without its extension ("informe" of "informe.xml"). */
export function seleccionInicial(nombre: string, esCarpeta: boolean): [number, number] {
  const punto = nombre.lastIndexOf('.');
  return [0, esCarpeta || punto <= 0 ? nombre.length : punto];
}

/**
 * The folders an element can be moved into, sorted: inside its own distributor, not where it
 * already is, not inside itself, and not into `salida` from outside it (the distributor writes there).
 */
export function destinosMover(elemento: Pick<ElementoFtp, 'id' | 'parent' | 'isFolder'>, carpetas: Iterable<string>): string[] {
  const d = distribuidoraDe(elemento.id);
  if (!d) return [];
  const raiz = `/${d}`;
  const salida = `${raiz}/${SALIDA}`;
  const desdeSalida = estaDentro(elemento.id, salida);
  const fuera = new Set<string>();
  for (const c of carpetas) {
    if (!estaDentro(c, raiz) || c === elemento.parent) continue;
    if (elemento.isFolder && estaDentro(c, elemento.id)) continue;
    if (!desdeSalida && estaDentro(c, salida)) continue;
    fuera.add(c);
  }
  return [...fuera].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** A path of folders shown in a select ("/epd/entrada" → "epd › entrada"). */
export function textoCarpeta(ruta: string): string {
  return ruta === '/' ? TEXTO_RAIZ : partesDe(ruta).join(' › ');
}

/** The new path of a rename: the same folder, the new name. */
export function rutaRenombrada(id: string, nombre: string): string {
  return unir(padreDe(id), nombre);
}

/** The new path of a move: the destination folder, the same name. */
export function rutaMovida(id: string, carpeta: string): string {
  return unir(carpeta, nombreDe(id));
}

// ---------------------------------------------------------------------------------------------
// Progress

/** Whole percent done, 0 to 100; null when the total is unknown. */
export function porcentaje(hechos: number, total: number | null): number | null {
  if (total === null || !Number.isFinite(total) || total <= 0) return null;
  return Math.min(100, Math.max(0, Math.floor((hechos / total) * 100)));
}

/** "1,2 MB de 5 MB (24 %)", or "1,2 MB" when the total is unknown. */
export function textoProgreso(hechos: number, total: number | null): string {
  const p = porcentaje(hechos, total);
  return p === null ? tamanoFtp(hechos) : `${tamanoFtp(hechos)} de ${tamanoFtp(total!)} (${p} %)`;
}

// ---------------------------------------------------------------------------------------------
// The API client

/** What a call of the FTP API ended with. `sesion`: the exchange refused the token (401), the FTP login must show again. */
export type ResultadoFtp<T> = { ok: true; datos: T } | { ok: false; status: number; mensaje: string; sesion: boolean };

/** Where the token lives (sessionStorage in the browser; a Map in tests). */
export interface AlmacenToken {
  getItem(clave: string): string | null;
  setItem(clave: string, valor: string): void;
  removeItem(clave: string): void;
}

/** What the client needs from the page. */
export interface DependenciasFtp {
  fetch: typeof fetch;
  almacen: AlmacenToken;
  /** The portal session's access token, sent with the FTP login: the FTP token then ends with that session. */
  sesionPortal?: () => string | null;
}

/** The kept token, if it was obtained by this portal user; a token of someone else is dropped. */
export function tokenGuardado(almacen: AlmacenToken, usuario: string | null): string | null {
  const token = almacen.getItem(CLAVE_TOKEN_FTP);
  if (!token) return null;
  const de = almacen.getItem(CLAVE_USUARIO_FTP);
  if (usuario !== null && de !== null && de !== usuario) {
    borrarToken(almacen);
    return null;
  }
  return token;
}

/** Forgets the FTP session. */
export function borrarToken(almacen: AlmacenToken): void {
  almacen.removeItem(CLAVE_TOKEN_FTP);
  almacen.removeItem(CLAVE_USUARIO_FTP);
}

/** The text of an error body: its `message`, or null. */
function mensajeDe(cuerpo: unknown): string | null {
  if (typeof cuerpo === 'object' && cuerpo !== null) {
    const m = (cuerpo as { message?: unknown }).message;
    if (typeof m === 'string' && m.trim()) return m;
  }
  return null;
}

/** A general sentence for a status without a message of the server's. */
function mensajePorEstado(status: number): string {
  if (status === 401) return MENSAJE_SESION_FTP_TERMINADA;
  if (status === 403) return 'No puede hacer eso en esta carpeta.';
  if (status === 404) return 'No existe ese fichero o carpeta. Puede que otra persona lo haya cambiado: recargue la carpeta.';
  if (status === 409) return 'Ya existe un fichero o carpeta con ese nombre.';
  if (status === 413) return 'El fichero es demasiado grande.';
  if (status === 429) return 'Ha hecho demasiadas peticiones seguidas. Espere un momento y vuelva a intentarlo.';
  return `No se ha podido completar la operación (error ${status}). Inténtelo de nuevo más tarde.`;
}

/** The failure of an answer with this status and body. */
export function fallo(status: number, cuerpo: unknown): { ok: false; status: number; mensaje: string; sesion: boolean } {
  const sesion = status === 401;
  return { ok: false, status, mensaje: sesion ? MENSAJE_SESION_FTP_TERMINADA : (mensajeDe(cuerpo) ?? mensajePorEstado(status)), sesion };
}

async function leerJson(res: Response): Promise<unknown> {
  try {
    const texto = await res.text();
    return texto ? JSON.parse(texto) : null;
  } catch {
    return null;
  }
}

/** The URL of a folder's listing. */
export const urlListado = (carpeta: string) => urlApi('/ftp', { query: { carpeta } });
/** The URL of a file (download with GET, upload with PUT). */
export const urlFichero = (ruta: string) => urlApi('/ftp/fichero', { query: { ruta } });
/** The URL that deletes an element (a folder with everything in it). */
export const urlBorrar = (ruta: string) => urlApi('/ftp', { query: { ruta, recursivo: 1 } });

/** A downloaded file. */
export type DescargaFtp = { ok: true; blob: Blob } | { ok: false; status: number; mensaje: string; sesion: boolean };

/** The client of the file exchange's API, around a fetch and the token's storage. */
export function crearClienteFtp(deps: DependenciasFtp) {
  const cabeceras = (extra: Record<string, string> = {}): Headers => {
    const h = new Headers({ Accept: 'application/json', 'Cache-Control': 'no-cache', Pragma: 'no-cache', ...extra });
    const token = deps.almacen.getItem(CLAVE_TOKEN_FTP);
    if (token) h.set('Authorization', `Bearer ${token}`);
    return h;
  };

  /** A call with the token; a 401 drops it. */
  async function llamar<T>(metodo: string, url: string, json?: unknown, signal?: AbortSignal): Promise<ResultadoFtp<T>> {
    let res: Response;
    try {
      res = await deps.fetch(url, {
        method: metodo,
        headers: cabeceras(json === undefined ? {} : { 'Content-Type': 'application/json' }),
        body: json === undefined ? null : JSON.stringify(json),
        credentials: 'same-origin',
        signal: signal ?? null,
      });
    } catch (e) {
      if ((e as Error).name === 'AbortError') throw e;
      return { ok: false, status: 0, mensaje: MENSAJE_SIN_CONEXION_FTP, sesion: false };
    }
    const cuerpo = res.status === 204 ? null : await leerJson(res);
    if (res.ok) return { ok: true, datos: cuerpo as T };
    if (res.status === 401) borrarToken(deps.almacen);
    return fallo(res.status, cuerpo);
  }

  return {
    /** The token, when there is one. */
    token: () => deps.almacen.getItem(CLAVE_TOKEN_FTP),

    /** The second login: keeps the token on success. `usuario` is the portal user it belongs to. */
    async conectar(username: string, password: string, usuario: string | null): Promise<ResultadoFtp<{ token: string }>> {
      let res: Response;
      try {
        res = await deps.fetch(urlApi('/ftpConnect'), {
          method: 'POST',
          headers: {
            Accept: 'application/json',
            'Content-Type': 'application/json',
            'Cache-Control': 'no-cache',
            ...(deps.sesionPortal?.() ? { Authorization: `Bearer ${deps.sesionPortal()}` } : {}),
          },
          body: JSON.stringify({ username, password }),
          credentials: 'same-origin',
        });
      } catch {
        return { ok: false, status: 0, mensaje: MENSAJE_SIN_CONEXION_FTP, sesion: false };
      }
      const cuerpo = await leerJson(res);
      const token = (cuerpo as { token?: unknown } | null)?.token;
      if (res.ok && typeof token === 'string' && token) {
        deps.almacen.setItem(CLAVE_TOKEN_FTP, token);
        if (usuario) deps.almacen.setItem(CLAVE_USUARIO_FTP, usuario);
        else deps.almacen.removeItem(CLAVE_USUARIO_FTP);
        return { ok: true, datos: { token } };
      }
      const f = fallo(res.ok ? 500 : res.status, cuerpo);
      // A refused login is no ended session.
      return { ...f, sesion: false, mensaje: mensajeDe(cuerpo) ?? mensajePorEstado(res.status) };
    },

    /** Forgets the token ("Cerrar sesión FTP"). */
    desconectar: () => borrarToken(deps.almacen),

    listar: (carpeta: string, signal?: AbortSignal) => llamar<ListadoFtp>('GET', urlListado(carpeta), undefined, signal),
    crearCarpeta: (ruta: string) => llamar<ElementoFtp>('POST', urlApi('/ftp/carpeta'), { ruta }),
    mover: (origen: string, destino: string) => llamar<ElementoFtp>('POST', urlApi('/ftpMove'), { origen, destino }),
    borrar: (ruta: string) => llamar<null>('DELETE', urlBorrar(ruta)),

    /**
     * Downloads a file, reading it piece by piece: `alProgresar` gets the bytes so far and the
     * total (Content-Length), or null when the server does not say it.
     */
    async descargar(
      ruta: string,
      opciones: { signal?: AbortSignal; alProgresar?: (hechos: number, total: number | null) => void } = {},
    ): Promise<DescargaFtp> {
      let res: Response;
      try {
        res = await deps.fetch(urlFichero(ruta), {
          headers: cabeceras({ Accept: '*/*' }),
          credentials: 'same-origin',
          signal: opciones.signal ?? null,
        });
      } catch (e) {
        if ((e as Error).name === 'AbortError') return { ok: false, status: 0, mensaje: 'Descarga cancelada.', sesion: false };
        return { ok: false, status: 0, mensaje: MENSAJE_SIN_CONEXION_FTP, sesion: false };
      }
      if (!res.ok) {
        if (res.status === 401) borrarToken(deps.almacen);
        return fallo(res.status, await leerJson(res));
      }
      const tipo = res.headers.get('content-type') ?? 'application/octet-stream';
      const longitud = Number(res.headers.get('content-length'));
      const total = Number.isFinite(longitud) && longitud > 0 ? longitud : null;
      try {
        if (!res.body) return { ok: true, blob: new Blob([await res.arrayBuffer()], { type: tipo }) };
        const lector = res.body.getReader();
        const trozos: Uint8Array[] = [];
        let hechos = 0;
        opciones.alProgresar?.(0, total);
        for (;;) {
          const { done, value } = await lector.read();
          if (done) break;
          trozos.push(value);
          hechos += value.byteLength;
          opciones.alProgresar?.(hechos, total);
        }
        return { ok: true, blob: new Blob(trozos as BlobPart[], { type: tipo }) };
      } catch (e) {
        if ((e as Error).name === 'AbortError') return { ok: false, status: 0, mensaje: 'Descarga cancelada.', sesion: false };
        return { ok: false, status: 0, mensaje: 'La descarga se ha interrumpido. Inténtelo de nuevo.', sesion: false };
      }
    },
  };
}

/** The client's type, for the components. */
export type ClienteFtp = ReturnType<typeof crearClienteFtp>;

/** The upload's answer read from an XMLHttpRequest: status and response text. */
export function resultadoSubida(status: number, texto: string): ResultadoFtp<ElementoFtp> {
  let cuerpo: unknown;
  try {
    cuerpo = texto ? JSON.parse(texto) : null;
  } catch {
    cuerpo = null;
  }
  if (status >= 200 && status < 300) return { ok: true, datos: cuerpo as ElementoFtp };
  if (status === 0) return { ok: false, status: 0, mensaje: MENSAJE_SIN_CONEXION_FTP, sesion: false };
  return fallo(status, cuerpo);
}

/** Why a chosen file will not be uploaded before even trying, or null. */
export function errorAntesDeSubir(f: { name: string; size: number }, elementos: readonly ElementoFtp[]): string | null {
  const motivo = errorNombre(f.name);
  if (motivo) return MENSAJES_RUTA[motivo];
  if (f.size > MAX_SUBIDA_BYTES) return `Pasa del tamaño máximo de ${tamanoFtp(MAX_SUBIDA_BYTES)} por fichero.`;
  if (elementos.some((e) => e.name === f.name && e.isFolder)) return `Ya hay una carpeta llamada «${f.name}».`;
  return null;
}

/** Whether a chosen file would replace one already in the folder. */
export function reemplazaria(nombre: string, elementos: readonly ElementoFtp[]): boolean {
  return elementos.some((e) => e.name === nombre && !e.isFolder);
}
