/**
 * Reads a distributor's nodal access capacity file (docs/sector.md §7.1, e-distribución's generation
 * layout) into nodes, and says what is wrong with EVERY faulty line rather than stopping at the
 * first, so the person preparing the file can fix it in one pass.
 *
 * What it accepts:
 * - Encoding: UTF-8 with or without BOM; anything that is not valid UTF-8 is read as ISO-8859-15
 *   (latin9), with the Windows-1252 characters at 0x80–0x9F (€, “ ”, …) that Excel writes.
 * - Separator `;` or `,`, detected from the header line (the one with more of them wins).
 * - Fields quoted with `"` (doubled `""` inside), line breaks inside quotes; CRLF, LF or CR.
 * - Numbers with decimal comma or point. A single `.` or `,` is always the decimal mark; when both
 *   appear, or one appears several times, the other one (or the repeated one) groups thousands.
 * - Title lines before the header are skipped: the header is the first of the first 10 lines that
 *   names at least three of the required columns. Blank lines and lines of empty fields are skipped.
 * - Header names are matched without case, accents, extra spaces or a trailing "(MW)" or ":",
 *   against the names in COLUMNAS_CAPACIDAD. Columns with other names (the per-position or
 *   per-technology breakdowns of the PDF) are ignored.
 * Line numbers are physical lines of the file, the header's included, starting at 1.
 */
import { decodificarCsv, type CodificacionCsv } from '../ficheros/codificacion.ts';

export type { CodificacionCsv };

/** One connection point (busbar) as published: docs/sector.md §7.1 columns plus its identifier. */
export interface NudoCapacidad {
  /** Autonomous community, as the distributor writes it. */
  comunidadAutonoma: string;
  /** Province name. */
  provincia: string;
  /** Municipality where the substation is. */
  municipio: string;
  /** Substation name. */
  subestacion: string;
  /** Identifier of the connection point, unique within a publication. */
  nudo: string;
  /** Voltage level in kV, above 1 kV. */
  tensionKv: number;
  /** Latitude, ETRS89 decimal degrees. */
  latitud: number;
  /** Longitude, ETRS89 decimal degrees (negative west of Greenwich). */
  longitud: number;
  /** Available capacity in MW. */
  disponibleMw: number;
  /** Occupied capacity in MW. */
  ocupadaMw: number;
  /** Capacity admitted and not yet resolved, in MW. */
  admitidaNoResueltaMw: number;
  /** Transmission node most affected, when given. */
  nudoAfeccionRdt: string | null;
  /** Distributor's comment, when given. */
  comentario: string | null;
}

/** A fault found in the file: its physical line and a Spanish sentence saying what to fix. */
export interface FallaCsv {
  /** Line of the file, starting at 1 (the header's included). */
  line: number;
  /** What is wrong, in Spanish. */
  message: string;
}

/** What reading a file gives: nodes of the valid lines, and every fault found. */
export interface ResultadoCsv {
  /** Nodes read from valid lines; only to be imported when `errores` is empty. */
  nudos: NudoCapacidad[];
  /** Every fault, ordered by line. */
  errores: FallaCsv[];
  /** Separator found in the header, or null when there was no header. */
  separador: ';' | ',' | null;
  /** Encoding the bytes were read with. */
  codificacion: CodificacionCsv;
}

type Campo = keyof NudoCapacidad;
type CampoNumerico = 'tensionKv' | 'latitud' | 'longitud' | 'disponibleMw' | 'ocupadaMw' | 'admitidaNoResueltaMw';

/** One column of the layout. */
export interface ColumnaCapacidad {
  /** Field of NudoCapacidad it fills. */
  campo: Campo;
  /** Header the portal writes when it exports, and the first name it accepts. */
  cabecera: string;
  /** Other accepted header names, in normalised form (see normalizarCabecera). */
  alias: readonly string[];
  /** Whether the column must be present and every line must have a value in it. */
  obligatoria: boolean;
  /** What the field is, with its article, for messages ("la tensión"). */
  nombre: string;
}

/** The accepted columns, in the order the portal exports them. */
export const COLUMNAS_CAPACIDAD: readonly ColumnaCapacidad[] = [
  {
    campo: 'comunidadAutonoma',
    cabecera: 'Comunidad Autónoma',
    alias: ['ccaa', 'comunidad'],
    obligatoria: true,
    nombre: 'la comunidad autónoma',
  },
  { campo: 'provincia', cabecera: 'Provincia', alias: [], obligatoria: true, nombre: 'la provincia' },
  { campo: 'municipio', cabecera: 'Municipio', alias: [], obligatoria: true, nombre: 'el municipio' },
  {
    campo: 'subestacion',
    cabecera: 'Subestación',
    alias: ['nombre subestacion', 'nombre de la subestacion'],
    obligatoria: true,
    nombre: 'la subestación',
  },
  {
    campo: 'nudo',
    cabecera: 'Identificador del Punto de Conexión',
    alias: ['id punto de conexion', 'nudo', 'identificador del nudo', 'id nudo', 'codigo del nudo'],
    obligatoria: true,
    nombre: 'el identificador del punto de conexión',
  },
  { campo: 'latitud', cabecera: 'Ubicación (Latitud)', alias: ['latitud'], obligatoria: true, nombre: 'la latitud' },
  { campo: 'longitud', cabecera: 'Ubicación (Longitud)', alias: ['longitud'], obligatoria: true, nombre: 'la longitud' },
  {
    campo: 'tensionKv',
    cabecera: 'Tensión (kV)',
    alias: ['tension', 'nivel de tension (kv)', 'nivel de tension'],
    obligatoria: true,
    nombre: 'la tensión',
  },
  {
    campo: 'disponibleMw',
    cabecera: 'Disponible (MW)',
    alias: ['capacidad disponible', 'capacidad de acceso disponible'],
    obligatoria: true,
    nombre: 'la capacidad disponible',
  },
  {
    campo: 'ocupadaMw',
    cabecera: 'Ocupada (MW)',
    alias: ['ocupada total', 'capacidad ocupada', 'capacidad de acceso ocupada'],
    obligatoria: true,
    nombre: 'la capacidad ocupada',
  },
  {
    campo: 'admitidaNoResueltaMw',
    cabecera: 'Admitida y no resuelta (MW)',
    alias: ['admitida y no resuelta total', 'capacidad admitida y no resuelta'],
    obligatoria: true,
    nombre: 'la capacidad admitida y no resuelta',
  },
  {
    campo: 'nudoAfeccionRdt',
    cabecera: 'Nudo de afección mayoritaria en la Red de Transporte',
    alias: ['nudo de afeccion mayoritaria en la rdt', 'nudo afeccion rdt', 'nudo de afeccion rdt'],
    obligatoria: false,
    nombre: 'el nudo de afección de la red de transporte',
  },
  { campo: 'comentario', cabecera: 'Comentarios', alias: ['comentario', 'observaciones'], obligatoria: false, nombre: 'el comentario' },
];

const NUMERICOS: ReadonlySet<Campo> = new Set<CampoNumerico>([
  'tensionKv',
  'latitud',
  'longitud',
  'disponibleMw',
  'ocupadaMw',
  'admitidaNoResueltaMw',
]);

/** Longest text accepted in a field: longer means a misplaced column or a pasted paragraph. */
const MAX_TEXTO = 300;
/** Highest plausible voltage of a node (the transmission grid's 400 kV). */
const MAX_TENSION_KV = 400;
/** Highest plausible capacity of a node, in MW; also keeps values within the database columns. */
const MAX_MW = 100_000;
/** How many lines may come before the header (titles, notes). */
const MAX_LINEAS_ANTES_DE_CABECERA = 10;

/** Header text in the form it is compared: no case, accents, extra spaces, "(MW)" suffix or colon. */
export function normalizarCabecera(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[\s_]+/g, ' ')
    .replace(/\s*\(\s*/g, ' (')
    .replace(/\s*\)\s*/g, ')')
    .trim()
    .replace(/:$/, '')
    .replace(/\s*\(mw\)$/, '')
    .trim();
}

/**
 * Reads a number written with decimal comma or point (see the file comment for thousands); null
 * when the text is not a number.
 */
export function leerNumero(raw: string): number | null {
  const text = raw
    .trim()
    .replace(/\s/g, '')
    .replace(/^\u2212/, '-');
  if (!/^[-+]?[0-9.,]*[0-9][0-9.,]*$/.test(text)) return null;
  const sign = text.startsWith('-') ? -1 : 1;
  const body = text.replace(/^[-+]/, '');
  const dots = body.split('.').length - 1;
  const commas = body.split(',').length - 1;
  let normal: string;
  if (dots && commas) {
    const decimal = body.lastIndexOf('.') > body.lastIndexOf(',') ? '.' : ',';
    const group = decimal === '.' ? ',' : '.';
    const [entero = '', decimales = '', ...resto] = body.split(decimal);
    if (resto.length || !validGrouping(entero, group)) return null;
    normal = `${entero.replaceAll(group, '')}.${decimales}`;
  } else if (dots > 1 || commas > 1) {
    const group = dots > 1 ? '.' : ',';
    if (!validGrouping(body, group)) return null;
    normal = body.replaceAll(group, '');
  } else {
    normal = body.replace(',', '.');
  }
  if (!/^\d*\.?\d+$|^\d+\.$/.test(normal)) return null;
  const value = sign * Number(normal);
  return Number.isFinite(value) ? value : null;
}

/** Whether thousands groups are well formed: 1 to 3 digits, then groups of exactly 3. */
function validGrouping(integer: string, group: string): boolean {
  const parts = integer.split(group);
  return parts.length === 1 || (/^\d{1,3}$/.test(parts[0] ?? '') && parts.slice(1).every((p) => /^\d{3}$/.test(p)));
}

const numeroEs = new Intl.NumberFormat('es-ES', { maximumFractionDigits: 6 });
const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const nombreDe = (campo: Campo) => COLUMNAS_CAPACIDAD.find((c) => c.campo === campo)!.nombre;

/** A broken rule and the field it is about, so faults can be listed in column order. */
interface FaltaDeCampo {
  campo: Campo;
  message: string;
}

/** The value rules of one node, each fault tagged with its field. */
function faltasDeNudo(nudo: NudoCapacidad): FaltaDeCampo[] {
  const faults: FaltaDeCampo[] = [];
  const fault = (campo: Campo, message: string) => faults.push({ campo, message });
  for (const c of COLUMNAS_CAPACIDAD) {
    const value = nudo[c.campo];
    if (NUMERICOS.has(c.campo)) {
      if (typeof value !== 'number' || !Number.isFinite(value)) fault(c.campo, `${capitalize(c.nombre)} no es un número.`);
    } else if (typeof value === 'string') {
      if (c.obligatoria && value.trim() === '') fault(c.campo, `Falta ${c.nombre}.`);
      else if (value.length > MAX_TEXTO) fault(c.campo, `${capitalize(c.nombre)} es demasiado largo (más de ${MAX_TEXTO} caracteres).`);
    } else if (c.obligatoria || value !== null) {
      fault(c.campo, `Falta ${c.nombre}.`);
    }
  }
  const { latitud, longitud, tensionKv } = nudo;
  if (Number.isFinite(latitud) && (latitud < 27 || latitud > 44)) {
    fault(
      'latitud',
      `La latitud (${numeroEs.format(latitud)}) está fuera de España: debe estar entre 27 y 44 grados (coordenadas geográficas ETRS89 en grados decimales, no UTM).`,
    );
  }
  if (Number.isFinite(longitud) && (longitud < -19 || longitud > 5)) {
    fault(
      'longitud',
      `La longitud (${numeroEs.format(longitud)}) está fuera de España: debe estar entre -19 y 5 grados (coordenadas geográficas ETRS89 en grados decimales, no UTM).`,
    );
  }
  if (Number.isFinite(tensionKv) && tensionKv <= 1) {
    fault('tensionKv', `La tensión (${numeroEs.format(tensionKv)} kV) debe ser mayor de 1 kV: solo se publican los nudos de más de 1 kV.`);
  } else if (Number.isFinite(tensionKv) && tensionKv > MAX_TENSION_KV) {
    fault(
      'tensionKv',
      `La tensión (${numeroEs.format(tensionKv)} kV) no es posible: el máximo es ${MAX_TENSION_KV} kV. Compruebe que está en kV.`,
    );
  }
  for (const campo of ['disponibleMw', 'ocupadaMw', 'admitidaNoResueltaMw'] as const) {
    const value = nudo[campo];
    if (!Number.isFinite(value)) continue;
    if (value < 0) fault(campo, `${capitalize(nombreDe(campo))} (${numeroEs.format(value)} MW) no puede ser negativa.`);
    else if (value > MAX_MW)
      fault(campo, `${capitalize(nombreDe(campo))} (${numeroEs.format(value)} MW) es demasiado alta. Compruebe que está en MW.`);
  }
  return ordenarPorColumna(faults);
}

/** Orders faults as the columns are, so a line's faults read left to right. */
function ordenarPorColumna(faults: FaltaDeCampo[]): FaltaDeCampo[] {
  const index = (campo: Campo) => COLUMNAS_CAPACIDAD.findIndex((c) => c.campo === campo);
  return faults
    .map((f, i) => ({ f, i }))
    .sort((a, b) => index(a.f.campo) - index(b.f.campo) || a.i - b.i)
    .map(({ f }) => f);
}

/**
 * The value rules of one node, shared by the CSV reader and the import service (which also takes
 * nodes generated by code): ranges, positivity, required text. Returns one Spanish message per
 * broken rule, in column order; duplicates across nodes are checked by the callers.
 */
export function validarNudo(nudo: NudoCapacidad): string[] {
  return faltasDeNudo(nudo).map((f) => f.message);
}

/** One record of the file: its fields and the physical line it starts on. */
interface Registro {
  line: number;
  fields: string[];
}

/** Splits text into records (RFC 4180 with a given separator); reports an unclosed quote. */
function tokenize(text: string, separator: string): { registros: Registro[]; falla: FallaCsv | null } {
  const registros: Registro[] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let inQuotes = false;
  let line = 1;
  let recordLine = 1;
  const endField = () => {
    // Spaces around a value never mean anything in these columns, quoted or not.
    fields.push(field.trim());
    field = '';
    quoted = false;
  };
  const endRecord = () => {
    endField();
    registros.push({ line: recordLine, fields });
    fields = [];
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (inQuotes) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else {
          inQuotes = false;
        }
      } else if (ch === '\r' || ch === '\n') {
        if (ch === '\r' && text[i + 1] === '\n') i++;
        field += '\n';
        line++;
      } else {
        field += ch;
      }
    } else if (ch === '"' && field.trim() === '' && !quoted) {
      // A quote opens a quoted field only at its start; elsewhere it is an ordinary character.
      inQuotes = true;
      quoted = true;
      field = '';
    } else if (ch === separator) {
      endField();
    } else if (ch === '\r' || ch === '\n') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      endRecord();
      line++;
      recordLine = line;
    } else if (!(quoted && /\s/.test(ch))) {
      // Spaces after a closing quote are padding; anything else is kept.
      field += ch;
    }
  }
  if (inQuotes) {
    return {
      registros,
      falla: {
        line: recordLine,
        message: 'Hay unas comillas sin cerrar: el campo que empieza en esta línea no termina. Revise las comillas (") de esta línea.',
      },
    };
  }
  if (field !== '' || fields.length > 0 || quoted) endRecord();
  return { registros, falla: null };
}

/** Counts a character outside quoted parts of a line. */
function countOutsideQuotes(line: string, ch: string): number {
  let n = 0;
  let inQuotes = false;
  for (const c of line) {
    if (c === '"') inQuotes = !inQuotes;
    else if (c === ch && !inQuotes) n++;
  }
  return n;
}

/** What a column of any capacity layout declares, for the generic reader. */
export interface ColumnaCsv<Campo extends string = string> {
  /** Field it fills. */
  campo: Campo;
  /** Header the portal writes when it exports, and the first name it accepts. */
  cabecera: string;
  /** Other accepted header names, in normalised form (see normalizarCabecera). */
  alias: readonly string[];
  /** Whether the column must be present. */
  obligatoria: boolean;
}

/** Normalised header name → column, for a layout. */
function porCabecera<C extends ColumnaCsv>(columnas: readonly C[]): ReadonlyMap<string, C> {
  return new Map(columnas.flatMap((c) => [normalizarCabecera(c.cabecera), ...c.alias].map((name) => [name, c] as const)));
}

/** Finds the header among the first lines: its line, separator, the column of each field and its raw names. */
function findHeader<C extends ColumnaCsv>(
  text: string,
  nombres: ReadonlyMap<string, C>,
): { line: number; separador: ';' | ','; columnas: (C | null)[]; nombres: string[] } | null {
  const lines = text.split(/\r\n|\r|\n/);
  let seen = 0;
  for (let index = 0; index < lines.length && seen < MAX_LINEAS_ANTES_DE_CABECERA; index++) {
    const raw = lines[index]!;
    if (raw.trim() === '') continue;
    seen++;
    const semicolons = countOutsideQuotes(raw, ';');
    const commas = countOutsideQuotes(raw, ',');
    if (semicolons === 0 && commas === 0) continue;
    const separador = semicolons >= commas ? ';' : ',';
    const { registros } = tokenize(raw, separador);
    const fields = registros[0]?.fields ?? [];
    const columnas = fields.map((name) => nombres.get(normalizarCabecera(name)) ?? null);
    if (new Set(columnas.filter((c) => c?.obligatoria)).size >= 3) return { line: index + 1, separador, columnas, nombres: fields };
  }
  return null;
}

/** One data line of a file: its physical line and the text of each field of the layout ('' when absent). */
export interface FilaCsv<Campo extends string> {
  /** Line of the file, starting at 1. */
  line: number;
  /** The trimmed text of a field; '' when the column is absent or the cell empty. */
  texto(campo: Campo): string;
}

/** What the generic reader gives: data lines that have the right shape, and the faults of the rest. */
export interface LecturaCsv<Campo extends string> {
  /** Lines with the right number of fields, in file order. */
  filas: FilaCsv<Campo>[];
  /** Faults of the file, its header and the lines' shape, ordered by line. */
  errores: FallaCsv[];
  /** Separator found in the header, or null when there was no header. */
  separador: ';' | ',' | null;
  /** Encoding the bytes were read with. */
  codificacion: CodificacionCsv;
}

/** How a layout is read. */
export interface OpcionesLectura {
  /**
   * Columns the layout does not name: ignored (the generation PDF's per-position breakdowns), or
   * refused at the header line (a harmonised format, whose columns are fixed).
   */
  desconocidas: 'ignorar' | 'rechazar';
  /** Name of the layout for the refusal of an unknown column ("del formato de capacidad de demanda"). */
  formato?: string;
}

/**
 * Reads any capacity layout: encoding, separator, header among the first lines, quoting, and the
 * shape of each line. Value rules (numbers, ranges, duplicates) are the caller's: it gets each
 * line's fields by name. Generation and demand capacity share this reader.
 */
export function leerTablaCsv<Campo extends string>(
  input: Uint8Array | string,
  columnasLayout: readonly ColumnaCsv<Campo>[],
  opciones: OpcionesLectura,
): LecturaCsv<Campo> {
  const decoded = typeof input === 'string' ? { texto: input, codificacion: 'utf-8' as const } : decodificarCsv(input);
  const texto = decoded.texto.replace(/^\uFEFF/, '');
  const empty = (errores: FallaCsv[]): LecturaCsv<Campo> => ({ filas: [], errores, separador: null, codificacion: decoded.codificacion });

  if (
    typeof input !== 'string' &&
    input.length >= 2 &&
    ((input[0] === 0xff && input[1] === 0xfe) || (input[0] === 0xfe && input[1] === 0xff))
  ) {
    return empty([
      { line: 1, message: 'El fichero está en UTF-16. Guárdelo como «CSV UTF-8 (delimitado por comas)» o como CSV en ISO-8859-15.' },
    ]);
  }
  if (texto.includes('\u0000')) {
    return empty([
      { line: 1, message: 'El fichero no es un CSV de texto (contiene datos binarios). ¿Es un Excel (.xlsx) sin exportar a CSV?' },
    ]);
  }
  if (texto.trim() === '') return empty([{ line: 1, message: 'El fichero está vacío.' }]);

  const header = findHeader(texto, porCabecera(columnasLayout));
  if (!header) {
    const expected = columnasLayout
      .filter((c) => c.obligatoria)
      .map((c) => c.cabecera)
      .join('; ');
    return empty([
      {
        line: 1,
        message: `No se encuentra la cabecera: una de las primeras líneas debe nombrar las columnas, separadas por «;» o «,»: ${expected}.`,
      },
    ]);
  }

  const errores: FallaCsv[] = [];
  const { separador, columnas } = header;
  const posicion = new Map<Campo, number>();
  columnas.forEach((c, i) => {
    if (!c) {
      const nombre = header.nombres[i] ?? '';
      if (opciones.desconocidas === 'rechazar' && nombre !== '') {
        errores.push({
          line: header.line,
          message: `La columna «${nombre}» (columna ${i + 1}) no es ${opciones.formato ?? 'del formato'}: quítela o corrija su nombre.`,
        });
      }
      return;
    }
    const previous = posicion.get(c.campo);
    if (previous !== undefined) {
      errores.push({ line: header.line, message: `La columna «${c.cabecera}» aparece dos veces (columnas ${previous + 1} y ${i + 1}).` });
    } else {
      posicion.set(c.campo, i);
    }
  });
  const missing = columnasLayout.filter((c) => c.obligatoria && !posicion.has(c.campo));
  if (missing.length) {
    errores.push({
      line: header.line,
      message: `Faltan columnas obligatorias en la cabecera: ${missing.map((c) => `«${c.cabecera}»`).join(', ')}.`,
    });
  }
  if (errores.length) return { filas: [], errores, separador, codificacion: decoded.codificacion };

  const ultimaObligatoria = Math.max(...columnasLayout.filter((c) => c.obligatoria).map((c) => posicion.get(c.campo)!));
  const { registros, falla } = tokenize(texto, separador);
  const filas: FilaCsv<Campo>[] = [];
  for (const { line, fields } of registros) {
    if (line <= header.line || fields.every((f) => f === '')) continue;
    const lastUsed = fields.findLastIndex((f) => f !== '');
    // Trailing optional columns may be left out; a required one may not.
    if (fields.length <= ultimaObligatoria) {
      errores.push({
        line,
        message: `Tiene ${fields.length} campos y la cabecera ${columnas.length}: compruebe que el separador es «${separador}» y que los textos con «${separador}» van entre comillas.`,
      });
      continue;
    }
    if (lastUsed >= columnas.length) {
      errores.push({
        line,
        message: `Tiene ${lastUsed + 1} campos y la cabecera ${columnas.length}: compruebe que los textos con «${separador}» van entre comillas.`,
      });
      continue;
    }
    filas.push({
      line,
      texto: (campo) => {
        const i = posicion.get(campo);
        return i === undefined ? '' : (fields[i] ?? '');
      },
    });
  }
  if (falla) errores.push(falla);
  if (!errores.length && !filas.length) {
    errores.push({ line: header.line, message: 'El fichero no tiene ninguna línea de datos después de la cabecera.' });
  }
  errores.sort((a, b) => a.line - b.line);
  return { filas, errores, separador, codificacion: decoded.codificacion };
}

/**
 * A number field of a line: its value, or NaN and a fault saying it is missing or not a number
 * (with the text as written). Shared by the layouts so both word the faults alike.
 */
export function numeroDeCampo(raw: string, nombre: string): { value: number; message: string | null } {
  const value = raw === '' ? null : leerNumero(raw);
  if (value !== null) return { value, message: null };
  return { value: Number.NaN, message: raw === '' ? `Falta ${nombre}.` : `${capitalize(nombre)} «${raw}» no es un número.` };
}

/** Reads a generation capacity file (bytes as uploaded, or text already decoded) into nodes and faults. */
export function parseCapacidadCsv(input: Uint8Array | string): ResultadoCsv {
  const { filas, errores, separador, codificacion } = leerTablaCsv(input, COLUMNAS_CAPACIDAD, { desconocidas: 'ignorar' });
  const nudos: NudoCapacidad[] = [];
  const lineaDeNudo = new Map<string, number>();
  for (const { line, texto: text } of filas) {
    const lineFaults: string[] = [];
    const fault = (message: string) => lineFaults.push(message);
    /** Numbers that did not parse, by field: reported in column order with the value rules. */
    const parseFaults: FaltaDeCampo[] = [];
    const number = (campo: CampoNumerico): number => {
      const { value, message } = numeroDeCampo(text(campo), nombreDe(campo));
      if (message) parseFaults.push({ campo, message });
      return value;
    };
    const nudo: NudoCapacidad = {
      comunidadAutonoma: text('comunidadAutonoma'),
      provincia: text('provincia'),
      municipio: text('municipio'),
      subestacion: text('subestacion'),
      nudo: text('nudo'),
      latitud: number('latitud'),
      longitud: number('longitud'),
      tensionKv: number('tensionKv'),
      disponibleMw: number('disponibleMw'),
      ocupadaMw: number('ocupadaMw'),
      admitidaNoResueltaMw: number('admitidaNoResueltaMw'),
      nudoAfeccionRdt: text('nudoAfeccionRdt') || null,
      comentario: text('comentario') || null,
    };
    // A number that did not parse is reported with its text, instead of the rules' "no es un número".
    const unparsed = new Set(parseFaults.map((f) => f.campo));
    const ruleFaults = faltasDeNudo(nudo).filter((f) => !unparsed.has(f.campo));
    for (const f of ordenarPorColumna([...parseFaults, ...ruleFaults])) fault(f.message);
    if (nudo.nudo) {
      const first = lineaDeNudo.get(nudo.nudo);
      if (first !== undefined)
        fault(`El punto de conexión «${nudo.nudo}» ya aparece en la línea ${first}: cada nudo debe aparecer una sola vez.`);
      else lineaDeNudo.set(nudo.nudo, line);
    }
    if (lineFaults.length) for (const message of lineFaults) errores.push({ line, message });
    else nudos.push(nudo);
  }
  errores.sort((a, b) => a.line - b.line);
  return { nudos, errores, separador, codificacion };
}
