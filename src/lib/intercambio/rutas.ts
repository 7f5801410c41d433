/**
 * Paths of the supply companies' file exchange (docs/decisions/019), the same over SFTP and on the
 * FTP screen: `/<distribuidora>/entrada`, `/<distribuidora>/salida` and the folders a company
 * makes under them. A path is absolute, `/`-separated, without `.`, `..`, empty parts or a trailing
 * `/`; names carry no control characters, `/` or `\`, and are at most 255 bytes.
 */

import { numero } from '../formato/numeros.ts';

/** The folder where a company leaves what it sends, and the one where the distributor leaves what it sends the company. */
export const ENTRADA = 'entrada';
export const SALIDA = 'salida';
/** Where a file the exchange could not read is moved, with a `.txt` beside it that says why. */
export const RECHAZADOS = 'rechazados';

/** Largest file, and most bytes of its own files a company may keep (the distributor's answers do not count). */
export const MAX_FICHERO_INTERCAMBIO_BYTES = 200 * 1024 * 1024;
export const CUOTA_INTERCAMBIO_BYTES = 2 * 1024 * 1024 * 1024;

const megas = (bytes: number) => `${numero(Math.round(bytes / 1024 / 1024))} MB`;

/** The refusal of a file over the size limit, and of one that would pass the quota. */
export const MENSAJE_FICHERO_GRANDE = `El fichero pasa del tamaño máximo de ${megas(MAX_FICHERO_INTERCAMBIO_BYTES)}.`;
export const MENSAJE_CUOTA = `Sus ficheros pasarían de los ${megas(CUOTA_INTERCAMBIO_BYTES)} que puede guardar: borre los que ya no necesite.`;

/** Longest name, in bytes of UTF-8 (what common file systems allow), and longest path. */
export const MAX_NOMBRE_BYTES = 255;
export const MAX_RUTA_BYTES = 1024;

/** Why a path was refused, in Spanish, for the user. */
export const MENSAJES_RUTA = {
  vacia: 'Indique un nombre.',
  larga: 'El nombre o la ruta son demasiado largos.',
  caracteres: 'El nombre no puede llevar barras, caracteres de control ni ser «.» o «..».',
  fuera: 'La ruta sale de sus carpetas.',
} as const;

/** A path that cannot be used, and why. */
export class RutaNoValida extends Error {
  readonly motivo: keyof typeof MENSAJES_RUTA;
  constructor(motivo: keyof typeof MENSAJES_RUTA) {
    super(MENSAJES_RUTA[motivo]);
    this.motivo = motivo;
  }
}

const bytesUtf8 = (s: string) => new TextEncoder().encode(s).byteLength;

/** Whether a single name (of a file or folder) can be used; the reason when not. */
export function errorNombre(nombre: string): keyof typeof MENSAJES_RUTA | null {
  if (nombre === '') return 'vacia';
  if (nombre === '.' || nombre === '..' || /[/\\\p{Cc}]/u.test(nombre)) return 'caracteres';
  if (bytesUtf8(nombre) > MAX_NOMBRE_BYTES) return 'larga';
  return null;
}

/**
 * The absolute path `ruta` names, read from folder `desde` when it is relative (as an SFTP client
 * may send it). `.` and `..` are resolved; a `..` above the root is refused, never clamped, so a
 * path that tries to leave the tree is an error the client sees.
 */
export function normalizarRuta(ruta: string, desde = '/'): string {
  const partes: string[] = [];
  const todo = ruta.startsWith('/') ? ruta : `${desde}/${ruta}`;
  for (const parte of todo.split('/')) {
    if (parte === '' || parte === '.') continue;
    if (parte === '..') {
      if (partes.length === 0) throw new RutaNoValida('fuera');
      partes.pop();
      continue;
    }
    const error = errorNombre(parte);
    if (error) throw new RutaNoValida(error);
    partes.push(parte);
  }
  const normal = `/${partes.join('/')}`;
  if (bytesUtf8(normal) > MAX_RUTA_BYTES) throw new RutaNoValida('larga');
  return normal;
}

/** The parts of a normalised path (`/epd/entrada/x.xml` → `['epd', 'entrada', 'x.xml']`). */
export function partesDe(ruta: string): string[] {
  return ruta === '/' ? [] : ruta.slice(1).split('/');
}

/** The folder a normalised path is in (`/` for the root itself). */
export function padreDe(ruta: string): string {
  const i = ruta.lastIndexOf('/');
  return i <= 0 ? '/' : ruta.slice(0, i);
}

/** The last name of a normalised path (empty for the root). */
export function nombreDe(ruta: string): string {
  return ruta.slice(ruta.lastIndexOf('/') + 1);
}

/** A name inside a folder. */
export function unir(carpeta: string, nombre: string): string {
  return carpeta === '/' ? `/${nombre}` : `${carpeta}/${nombre}`;
}

/** Whether `ruta` is `carpeta` itself or inside it. */
export function estaDentro(ruta: string, carpeta: string): boolean {
  return carpeta === '/' || ruta === carpeta || ruta.startsWith(`${carpeta}/`);
}
