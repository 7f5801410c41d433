/**
 * Text encodings of the files the portal imports. Sector files are ISO-8859-15 (REE measure files,
 * docs/sector.md §5.1) or UTF-8 (what current tools write); spreadsheets exported on Windows add the
 * Windows-1252 characters at 0x80–0x9F (€, “ ”, …), which ISO-8859-15 leaves as control codes.
 *
 * The rule, whole file or stream: UTF-8 (BOM removed) when every byte sequence is valid UTF-8,
 * otherwise ISO-8859-15 with those Windows-1252 characters.
 */
import { ErrorFichero } from './errores.ts';

/** Encodings the readers recognise. */
export type CodificacionCsv = 'utf-8' | 'iso-8859-15';

/** Windows-1252 characters at 0x80–0x9F, where ISO-8859-15 has unused control codes. */
const CP1252_C1: Readonly<Record<number, string>> = {
  0x80: '€',
  0x82: '‚',
  0x83: 'ƒ',
  0x84: '„',
  0x85: '…',
  0x86: '†',
  0x87: '‡',
  0x88: 'ˆ',
  0x89: '‰',
  0x8a: 'Š',
  0x8b: '‹',
  0x8c: 'Œ',
  0x8e: 'Ž',
  0x91: '‘',
  0x92: '’',
  0x93: '“',
  0x94: '”',
  0x95: '•',
  0x96: '–',
  0x97: '—',
  0x98: '˜',
  0x99: '™',
  0x9a: 'š',
  0x9b: '›',
  0x9c: 'œ',
  0x9e: 'ž',
  0x9f: 'Ÿ',
};

const conCp1252 = (texto: string) => texto.replace(/[\u0080-\u009f]/g, (c) => CP1252_C1[c.charCodeAt(0)] ?? c);

/** Decodes the bytes of a whole file: UTF-8 (BOM removed) when valid, otherwise ISO-8859-15. */
export function decodificarCsv(bytes: Uint8Array): { texto: string; codificacion: CodificacionCsv } {
  try {
    // fatal: a byte sequence that is not UTF-8 throws, which is how latin9 files are recognised.
    return { texto: new TextDecoder('utf-8', { fatal: true }).decode(bytes), codificacion: 'utf-8' };
  } catch {
    // A UTF-8 BOM on a file that is not UTF-8 (edited by two programs) is still not text.
    const sinBom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
    return { texto: conCp1252(new TextDecoder('iso-8859-15').decode(sinBom)), codificacion: 'iso-8859-15' };
  }
}

/** Where the streaming decoder says which encoding it found (final once the stream has ended). */
export interface EstadoCodificacion {
  codificacion: CodificacionCsv;
}

/**
 * Decodes a stream of bytes chunk by chunk with the same rule as `decodificarCsv`, holding no more
 * than one chunk. The text is taken as UTF-8 until a sequence that is not UTF-8 appears; if
 * everything before it was ASCII (which both encodings read alike) the rest is ISO-8859-15.
 * A file whose valid non-ASCII UTF-8 is followed by bytes that are not is refused rather than
 * half read in each encoding.
 */
export async function* decodificarFlujo(trozos: AsyncIterable<Uint8Array>, estado: EstadoCodificacion): AsyncGenerator<string> {
  estado.codificacion = 'utf-8';
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  let latin9: TextDecoder | null = null;
  let soloAscii = true;
  let bytesLeidos = 0;
  // Trailing bytes of the last chunk that UTF-8 left pending (the start of a multi-byte sequence).
  let pendientes = new Uint8Array(0);

  const pasarALatin9 = (trozo: Uint8Array): string => {
    if (!soloAscii) {
      throw new ErrorFichero(
        `El fichero mezcla codificaciones: hasta el byte ${bytesLeidos - pendientes.length} es UTF-8 y después no. Guárdelo entero en UTF-8 o en ISO-8859-15.`,
      );
    }
    latin9 = new TextDecoder('iso-8859-15');
    estado.codificacion = 'iso-8859-15';
    const todo = new Uint8Array(pendientes.length + trozo.length);
    todo.set(pendientes);
    todo.set(trozo, pendientes.length);
    return conCp1252(latin9.decode(todo, { stream: true }));
  };

  for await (const trozo of trozos) {
    if (latin9) {
      yield conCp1252((latin9 as TextDecoder).decode(trozo, { stream: true }));
      continue;
    }
    let texto: string;
    try {
      texto = utf8.decode(trozo, { stream: true });
    } catch {
      yield pasarALatin9(trozo);
      continue;
    }
    // eslint-disable-next-line no-control-regex -- "outside ASCII" is exactly the range to test
    if (soloAscii && /[^\x00-\x7f]/.test(texto)) soloAscii = false;
    // What UTF-8 holds back is the non-ASCII tail of this chunk (at most three bytes).
    let i = trozo.length;
    while (i > 0 && trozo.length - i < 3 && trozo[i - 1]! >= 0x80) i--;
    pendientes = trozo.slice(i);
    bytesLeidos += trozo.length;
    if (texto) yield texto;
  }
  if (latin9) {
    const resto = (latin9 as TextDecoder).decode();
    if (resto) yield conCp1252(resto);
    return;
  }
  try {
    const resto = utf8.decode();
    if (resto) yield resto;
  } catch {
    // The file ends inside a multi-byte sequence: not UTF-8 after all.
    const resto = pasarALatin9(new Uint8Array(0)) + conCp1252((latin9 as TextDecoder | null)?.decode() ?? '');
    if (resto) yield resto;
  }
}
