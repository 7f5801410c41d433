/**
 * The meter states file of `npm run import -- contadores FICHERO.csv` (docs/decisions/010):
 *
 * ```
 * CUPS;comunica;ultima_comunicacion;interruptor;estado_suministro;motivo
 * ES9901000000000001QY;S;2026-11-02T09:15:00+01:00;cerrado;con_suministro;
 * ES9901000000000002QF;N;2026-10-28 18:40;cerrado;con_suministro;
 * ES9902000000000003KK;S;;abierto_remoto;cortado;Corte por impago solicitado por la comercializadora
 * ```
 *
 * - `;` separated, a header line first (names without case, accents, `_` or spaces mattering; any
 *   order); fields may be quoted with `"`. UTF-8 (with or without BOM) or ISO-8859-15.
 * - comunica: S or N (also sí/no, 1/0, true/false).
 * - ultima_comunicacion: ISO 8601 with zone (`…Z`, `…+01:00`), or `AAAA-MM-DD HH:MM[:SS]` read as
 *   peninsular time; empty: the time of the import when it communicates, unknown when it does not.
 *   Never later than the import.
 * - interruptor: cerrado, abierto_exceso, abierto_remoto, sin_elemento.
 * - estado_suministro: con_suministro, sin_suministro, cortado.
 * - motivo: free text, up to 300 characters; required for a cut, a supply without power or a switch
 *   opened by the distributor (the holder reads it).
 * Each line replaces the state of its supply point. Every fault of every line is reported with the
 * line's physical number (the header is line 1); one fault and nothing is imported.
 */
import {
  cambioEstadoSchema,
  ultimaComunicacionDe,
  MENSAJES_ESTADO,
  motivoDe,
  type EstadoSuministro,
  type Interruptor,
} from '../../lib/lecturas/estado-contador.ts';
import { cupsBase } from '../../lib/cups.ts';
import { instantesDesdeReloj } from '../../lib/calendario/hora-civil.ts';
import type { FallaCsv } from '../capacidad-nodal/csv.ts';
import { decodificarCsv } from '../ficheros/codificacion.ts';
import { filasCsvTexto, type FilaCsv } from '../ficheros/csv.ts';
import { ErrorFichero } from '../ficheros/errores.ts';
import { leerCups } from '../medidas/formatos/comun.ts';
import { normalizarNombreColumna } from '../medidas/formatos/csv-consumidor.ts';

/** The columns of the file, as the header names them. */
export const COLUMNAS_CONTADORES = ['CUPS', 'comunica', 'ultima_comunicacion', 'interruptor', 'estado_suministro', 'motivo'] as const;
type Columna = (typeof COLUMNAS_CONTADORES)[number];

/** One valid line: the supply point's CUPS and its new state. */
export interface FilaContador {
  /** Physical line of the file. */
  linea: number;
  cups: string;
  comunica: boolean;
  ultimaComunicacion: Date | null;
  interruptor: Interruptor;
  estadoSuministro: EstadoSuministro;
  motivo: string | null;
}

const SI = new Set(['s', 'si', 'sí', '1', 'true', 'verdadero']);
const NO = new Set(['n', 'no', '0', 'false', 'falso']);

/** An instant from the file: ISO 8601 with zone, or a peninsular wall-clock time; an error text otherwise. */
function leerInstante(texto: string): { iso: string } | { error: string } {
  if (/[zZ]$|[+-]\d{2}:?\d{2}$/.test(texto)) {
    const ms = Date.parse(texto);
    return Number.isNaN(ms) ? { error: MENSAJES_ESTADO.ultimaComunicacion } : { iso: new Date(ms).toISOString() };
  }
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(texto);
  if (!m) return { error: `${MENSAJES_ESTADO.ultimaComunicacion} También vale «AAAA-MM-DD HH:MM» en hora peninsular.` };
  if (Number(m[2]) > 23 || Number(m[3]) > 59 || Number(m[4] ?? 0) > 59)
    return { error: `La hora «${texto}» de la última comunicación no existe.` };
  let instantes: Date[];
  try {
    instantes = instantesDesdeReloj(m[1]!, Number(m[2]), Number(m[3]));
  } catch {
    return { error: `La fecha «${m[1]}» de la última comunicación no existe.` };
  }
  // The repeated autumn hour takes its first (summer time) occurrence; the spring gap does not exist.
  const t = instantes[0];
  if (!t) return { error: `La hora «${texto}» no existe en la hora peninsular (es la hora que se salta al cambiar al horario de verano).` };
  return { iso: new Date(t.getTime() + Number(m[4] ?? 0) * 1000).toISOString() };
}

/** Reads and checks the whole file; `filas` is only to be imported when `errores` is empty. */
export function leerCsvContadores(contenido: Uint8Array | string, ahora: Date): { filas: FilaContador[]; errores: FallaCsv[] } {
  const texto = typeof contenido === 'string' ? contenido.replace(/^\uFEFF/, '') : decodificarCsv(contenido).texto;
  const filas: FilaContador[] = [];
  const errores: FallaCsv[] = [];
  let lineas: FilaCsv[];
  try {
    lineas = filasCsvTexto(texto, ';');
  } catch (err) {
    if (!(err instanceof ErrorFichero)) throw err;
    return { filas: [], errores: [{ line: err.linea, message: err.motivo }] };
  }
  let indices: Map<Columna, number> | null = null;
  let columnas = 0;
  const vistos = new Map<string, number>();
  for (const { numero, campos } of lineas) {
    if (campos.every((c) => c === '')) continue;
    if (!indices) {
      const r = leerCabecera(campos);
      if ('error' in r) {
        errores.push({ line: numero, message: r.error });
        return { filas: [], errores };
      }
      indices = r.indices;
      columnas = campos.length;
      continue;
    }
    if (campos.length > columnas) {
      errores.push({
        line: numero,
        message: `La línea tiene ${campos.length} campos y la cabecera ${columnas}: revise los «;» de más (un motivo con «;» debe ir entre comillas).`,
      });
      continue;
    }
    const campo = (c: Columna) => campos[indices!.get(c)!] ?? '';
    const fallos: string[] = [];
    // The supply point is the CUPS's first 20 characters: a 22-character CUPS (with its border point) is the same one.
    const leido = leerCups(campo('CUPS'));
    const cups = 'cups' in leido ? { cups: cupsBase(leido.cups) } : leido;
    if ('error' in cups) fallos.push(cups.error);
    const comunicaTexto = campo('comunica').toLowerCase();
    const comunica = SI.has(comunicaTexto) ? true : NO.has(comunicaTexto) ? false : null;
    if (comunica === null) fallos.push(`comunica debe ser S o N${comunicaTexto ? `, no «${campo('comunica')}»` : ''}.`);
    let ultimaComunicacion: string | null = null;
    if (campo('ultima_comunicacion')) {
      const r = leerInstante(campo('ultima_comunicacion'));
      if ('error' in r) fallos.push(r.error);
      else ultimaComunicacion = r.iso;
    }
    const v = cambioEstadoSchema.safeParse({
      comunica: comunica ?? false,
      ultimaComunicacion,
      interruptor: campo('interruptor').toLowerCase(),
      estadoSuministro: campo('estado_suministro').toLowerCase(),
      motivo: campo('motivo'),
    });
    if (!v.success) fallos.push(...v.error.issues.filter((i) => i.path[0] !== 'comunica').map((i) => i.message));
    if (ultimaComunicacion && Date.parse(ultimaComunicacion) > ahora.getTime()) fallos.push(MENSAJES_ESTADO.ultimaComunicacionFutura);
    if ('cups' in cups) {
      const antes = vistos.get(cups.cups);
      if (antes !== undefined) fallos.push(`El CUPS ${cups.cups} ya aparece en la línea ${antes}: deje una sola línea por suministro.`);
      else vistos.set(cups.cups, numero);
    }
    if (fallos.length || !v.success || !('cups' in cups) || comunica === null) {
      for (const message of fallos) errores.push({ line: numero, message });
      continue;
    }
    filas.push({
      linea: numero,
      cups: cups.cups,
      comunica,
      ultimaComunicacion: ultimaComunicacionDe(v.data, ahora),
      interruptor: v.data.interruptor,
      estadoSuministro: v.data.estadoSuministro,
      motivo: motivoDe(v.data),
    });
  }
  if (!indices)
    errores.push({ line: 0, message: `El fichero está vacío: la primera línea debe ser la cabecera ${COLUMNAS_CONTADORES.join(';')}.` });
  else if (filas.length === 0 && errores.length === 0)
    errores.push({ line: 0, message: 'El fichero no tiene ninguna línea de datos tras la cabecera.' });
  return { filas, errores };
}

/** The position of every column in the header, or what is wrong with it. */
function leerCabecera(campos: string[]): { indices: Map<Columna, number> } | { error: string } {
  const porNombre = new Map(COLUMNAS_CONTADORES.map((c) => [normalizarNombreColumna(c), c] as const));
  const indices = new Map<Columna, number>();
  const desconocidas: string[] = [];
  campos.forEach((texto, i) => {
    const c = porNombre.get(normalizarNombreColumna(texto));
    if (!c) desconocidas.push(texto);
    else if (!indices.has(c)) indices.set(c, i);
  });
  const faltan = COLUMNAS_CONTADORES.filter((c) => !indices.has(c));
  if (faltan.length || desconocidas.length) {
    const partes = [
      faltan.length ? `faltan las columnas ${faltan.join(', ')}` : '',
      desconocidas.length ? `sobran las columnas ${desconocidas.map((d) => `«${d}»`).join(', ')}` : '',
    ].filter(Boolean);
    return { error: `La cabecera no es válida: ${partes.join(' y ')}. Debe ser ${COLUMNAS_CONTADORES.join(';')} (separada por «;»).` };
  }
  return { indices };
}
