/**
 * The checks on a case's document that need no input or output: its type, told by its first bytes
 * (the file signatures of ISO 32000-1 §7.5.2 for PDF, ITU-T T.81 Annex B for JPEG's SOI marker
 * followed by another marker, and PNG's eight-byte signature, ISO/IEC 15948 §5.2), never by its name
 * or the Content-Type a client sends; the name it is stored and served under; and the Spanish
 * messages of a refused file. A name is only ever shown and sent back as `Content-Disposition`
 * (RFC 6266): it never becomes a path, but it is checked as if it could.
 */
import { MAX_DOCUMENTO_BYTES, MENSAJE_DOCUMENTO_GRANDE, type TipoDocumento } from '../../lib/expedientes/documentos.ts';

/** Largest document a case takes (20 MiB), and the message of one over it: shared with the screens and the body limit. */
export { MAX_DOCUMENTO_BYTES, MENSAJE_DOCUMENTO_GRANDE };

/** Longest name a document may have, in characters. */
export const MAX_NOMBRE_DOCUMENTO = 200;

/** Bytes the type is told from: the longest signature (PNG's). */
export const BYTES_FIRMA = 8;

const PDF = [0x25, 0x50, 0x44, 0x46, 0x2d]; // %PDF-
const JPEG = [0xff, 0xd8, 0xff];
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const empiezaPor = (bytes: Uint8Array, firma: readonly number[]) => bytes.length >= firma.length && firma.every((b, i) => bytes[i] === b);

/** The type of a file from its first bytes (at least BYTES_FIRMA when the file has them), or null when it is none of the three. */
export function tipoPorBytes(primeros: Uint8Array): TipoDocumento | null {
  if (empiezaPor(primeros, PDF)) return 'application/pdf';
  if (empiezaPor(primeros, JPEG)) return 'image/jpeg';
  if (empiezaPor(primeros, PNG)) return 'image/png';
  return null;
}

/** An empty file. */
export const MENSAJE_DOCUMENTO_VACIO = 'El fichero está vacío.';

/** A file that is no PDF, JPEG or PNG. */
export const MENSAJE_DOCUMENTO_TIPO =
  'El fichero no es un PDF, JPEG ni PNG: se comprueba por su contenido, no por su nombre. Guárdelo en uno de esos formatos y súbalo de nuevo.';

/**
 * Characters no name may hold: the C0 and C1 controls and DEL (Unicode category Cc, tab and line
 * breaks included), and the bidirectional controls (Unicode TR #9), which make «fdp.exe» read as
 * «exe.pdf» on screen.
 */
const CONTROL = /[\p{Cc}\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;

/**
 * What is wrong with a document's name, in Spanish, or null when it is fine: required, at most
 * MAX_NOMBRE_DOCUMENTO characters, no folder (no `/` or `\`), no `..`, no control characters, and
 * not only dots and spaces.
 */
export function errorNombreDocumento(nombre: string): string | null {
  if (nombre.trim() === '') return 'Indique el nombre del fichero.';
  if ([...nombre].length > MAX_NOMBRE_DOCUMENTO) return `El nombre del fichero no puede superar ${MAX_NOMBRE_DOCUMENTO} caracteres.`;
  if (CONTROL.test(nombre)) return 'El nombre del fichero no puede llevar caracteres de control.';
  if (/[/\\]/.test(nombre)) return 'El nombre del fichero no puede llevar barras (/ ni \\): indique solo el nombre, sin carpetas.';
  if (nombre.includes('..')) return 'El nombre del fichero no puede llevar dos puntos seguidos (..).';
  if (/^[.\s]+$/u.test(nombre)) return 'El nombre del fichero no puede ser solo puntos y espacios.';
  return null;
}

/** Characters of RFC 5987's attr-char that encodeURIComponent leaves as they are, but for these. */
const FUERA_DE_ATTR_CHAR = /['()*]/g;

/**
 * The `Content-Disposition` of a download (RFC 6266 §4.1): `attachment` and the name. A name of
 * printable ASCII goes as it is; any other also goes as `filename*` in UTF-8 (RFC 5987 §3.2, RFC 6266
 * §4.3), after an ASCII `filename` for clients that do not read it (accents dropped, anything else
 * an underscore). Quotes and `%` always take the second form: some clients read `%` in `filename`
 * as an escape.
 */
export function disposicionAdjunto(nombre: string): string {
  if (/^[\x20-\x7e]*$/.test(nombre) && !/["%\\]/.test(nombre)) return `attachment; filename="${nombre}"`;
  const ascii = nombre
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\x20-\x7e]|["%\\]/gu, '_');
  const codificado = encodeURIComponent(nombre).replace(FUERA_DE_ATTR_CHAR, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${codificado}`;
}
