/**
 * The CSV download of hourly (or quarter-hourly) measures, written row by row so the
 * server can stream years of data with flat memory.
 *
 * Columns: the five of the consumer format that distributors and the CNMC's tools use (docs/sector.md
 * §5.2: `CUPS;Fecha;Hora;Consumo_kWh;Metodo_obtencion`, `Hora` 1–25 hour-ending, decimal comma,
 * R/E), then what that format cannot say (docs/sector.md §9: "explicit timezone and interval
 * start/end", "mark DST days clearly", real/estimated/firm flag):
 * `Energia_vertida_kWh` (surplus), `Firme` (S/N, empty when unknown), `Periodo` (tariff period),
 * `Franja_horaria` (local interval, the repeated October hour labelled summer/winter time),
 * `Inicio` and `Fin` (ISO 8601 with offset), `Hora_fin`, the clock time `HH:MM` at which the
 * interval ends (hour-ending like `Hora`: `01:00`…`24:00`, `00:15`… for quarter-hours), and the
 * reactive energy, `Reactiva_inductiva_kVArh` and `Reactiva_capacitiva_kVArh` (quadrants R1 and R4,
 * docs/decisions/054), empty where the interval has none.
 * Every interval of the range that has ended gets a row: one without a measure has an empty
 * `Consumo_kWh` and `sin dato` as its method, so the gap shows (docs/sector.md §9, "missing days").
 * `;` separator, CRLF, UTF-8 with BOM, cells protected by src/lib/csv.ts. The portal's own
 * reader (src/server/medidas/formatos) reads these files back; a `sin dato` row carries no measure,
 * so a reader has to pass over it rather than import it.
 *
 * The same rows feed the Excel workbook (real date cells in civil local time) and the
 * Datadis-compatible variant (`cups;fecha;hora;consumo_kWh;metodoObtencion;energiaVertida_kWh`).
 */
import { CSV_BOM, csvLine } from '../csv.ts';
import type { FechaLocal } from '../calendario/fechas.ts';
import { isoConDesfase } from '../calendario/hora-civil.ts';
import { etiquetaIntervalo, posicionIntervalo, type MinutosIntervalo } from './horas.ts';
import { periodoEnergia, zonaHorariaDe, type CodigoTarifa, type ZonaElectrica } from './periodos.ts';
import type { RegistroMedida } from './tipos.ts';

/** The fields of a measure the export needs (a stored row does not have to be a whole `RegistroMedida`). */
export type MedidaExportable = Pick<
  RegistroMedida,
  'cups' | 'inicio' | 'minutos' | 'importadaWh' | 'exportadaWh' | 'metodo' | 'firme' | 'reactivas'
>;

/** The method written for an interval of the range that has no measure. */
export const METODO_SIN_DATO = 'sin dato';

/** An interval of the range without a measure: it still gets a row, so the user sees the gap. */
export interface HuecoExportable {
  cups: string;
  inicio: Date;
  minutos: MinutosIntervalo;
  importadaWh: null;
  exportadaWh: null;
  metodo: typeof METODO_SIN_DATO;
  firme: null;
}

/** What a row is made from: a measure or a gap. */
export type IntervaloExportable = MedidaExportable | HuecoExportable;

/** Column names of the download, in order. */
export const COLUMNAS_CSV_MEDIDAS = [
  'CUPS',
  'Fecha',
  'Hora',
  'Consumo_kWh',
  'Metodo_obtencion',
  'Energia_vertida_kWh',
  'Firme',
  'Periodo',
  'Franja_horaria',
  'Inicio',
  'Fin',
  // Last, so the columns before keep the positions tools already read.
  'Hora_fin',
  // Reactive energy (docs/decisions/054): inductive (R1) and capacitive (R4), empty where the meter
  // measures none (a household's) or the hour came without it.
  'Reactiva_inductiva_kVArh',
  'Reactiva_capacitiva_kVArh',
] as const;

/** What the rows depend on: the supply point's tariff (for the period) and its electrical zone. */
export interface OpcionesCsvMedidas {
  tarifa: CodigoTarifa;
  /** Electrical zone of the supply point; the peninsula when not given. */
  zona?: ZonaElectrica;
}

/**
 * kWh with a decimal comma from Wh, exact: three decimals as the consumer format writes them
 * (`0,300`), more only when the Wh have decimals themselves.
 */
export function kwhTexto(wh: number): string {
  if (Number.isInteger(wh)) {
    const abs = Math.abs(wh);
    return `${wh < 0 ? '-' : ''}${Math.floor(abs / 1000)},${String(abs % 1000).padStart(3, '0')}`;
  }
  // Wh with decimals (quarter-hours in kWh with 6 decimals): move the point in the text.
  const [entero, decimales = ''] = Math.abs(wh).toFixed(3).replace(/0+$/, '').split('.') as [string, string?];
  const cifras = entero.padStart(4, '0');
  return `${wh < 0 ? '-' : ''}${Number(cifras.slice(0, -3))},${cifras.slice(-3)}${decimales}`;
}

/** One interval as every format writes it (CSV, Datadis CSV, Excel). */
export interface FilaExportacion {
  cups: string;
  /** Civil date the interval belongs to. */
  fecha: FechaLocal;
  /** Hour-ending number in the day: 1–23/24/25, or 1–92/96/100 for quarter-hours. */
  numero: number;
  /**
   * Clock time at which the interval ends, hour-ending like `numero`: `01:00`…`24:00` (`00:15`… for
   * quarter-hours), read in the interval's own offset: the repeated October hour ends at `03:00`
   * twice and the March day has no `03:00`.
   */
  horaFin: string;
  importadaWh: number | null;
  exportadaWh: number | null;
  metodo: MedidaExportable['metodo'] | typeof METODO_SIN_DATO;
  firme: boolean | null;
  /** Tariff period of energy (P1…). */
  periodo: string;
  /** Local interval, the repeated October hour labelled summer/winter time. */
  franja: string;
  /** Start and end, ISO 8601 with the offset in force at each. */
  inicioIso: string;
  finIso: string;
  /**
   * Start and end as the zone's clocks read them (the end in the interval's own offset), written as
   * if they were UTC milliseconds: what a spreadsheet, which has no time zones, must show.
   */
  inicioCivil: number;
  finCivil: number;
  /** Offset in force during the interval, e.g. `+02:00`: tells the two repeated October hours apart. */
  desfase: string;
  minutos: MinutosIntervalo;
  /** Inductive (R1) and capacitive (R4) reactive VArh; null where the interval has none. */
  inductivaVarh: number | null;
  capacitivaVarh: number | null;
}

/** The row of an interval. */
export function filaExportacion(m: IntervaloExportable, opciones: OpcionesCsvMedidas): FilaExportacion {
  const zona = opciones.zona ?? 'peninsula';
  const horaria = zonaHorariaDe(zona);
  const p = posicionIntervalo(m.inicio, m.minutos, horaria);
  const inicioIso = isoConDesfase(m.inicio, horaria);
  const inicioCivil = Date.parse(`${inicioIso.slice(0, 19)}Z`);
  return {
    cups: m.cups,
    fecha: p.fecha,
    numero: p.numero,
    horaFin: p.hasta,
    importadaWh: m.importadaWh,
    exportadaWh: m.exportadaWh,
    metodo: m.metodo,
    firme: m.firme,
    periodo: periodoEnergia(m.inicio, opciones.tarifa, zona),
    franja: etiquetaIntervalo(m.inicio, m.minutos, 'larga', horaria),
    inicioIso,
    finIso: isoConDesfase(new Date(m.inicio.getTime() + m.minutos * 60_000), horaria),
    inicioCivil,
    finCivil: inicioCivil + m.minutos * 60_000,
    desfase: inicioIso.slice(19),
    minutos: m.minutos,
    inductivaVarh: 'reactivas' in m ? (m.reactivas?.r1 ?? null) : null,
    capacitivaVarh: 'reactivas' in m ? (m.reactivas?.r4 ?? null) : null,
  };
}

const letraMetodo = (m: FilaExportacion['metodo']) => (m === 'real' ? 'R' : m === 'estimada' ? 'E' : METODO_SIN_DATO);
const fechaEs = (f: FechaLocal) => `${f.slice(8, 10)}/${f.slice(5, 7)}/${f.slice(0, 4)}`;

/** The header line, with the BOM Excel needs to read UTF-8. */
export function cabeceraCsvMedidas(): string {
  return CSV_BOM + csvLine(COLUMNAS_CSV_MEDIDAS);
}

/** One CRLF-terminated line of the portal's CSV. */
export function lineaCsvMedidas(f: FilaExportacion): string {
  return csvLine([
    f.cups,
    fechaEs(f.fecha),
    String(f.numero),
    f.importadaWh === null ? '' : kwhTexto(f.importadaWh),
    letraMetodo(f.metodo),
    f.exportadaWh === null ? '' : kwhTexto(f.exportadaWh),
    f.firme === null ? '' : f.firme ? 'S' : 'N',
    f.periodo,
    f.franja,
    f.inicioIso,
    f.finIso,
    f.horaFin,
    // kVArh from VArh, written as kWh from Wh: three decimals, decimal comma.
    f.inductivaVarh === null ? '' : kwhTexto(f.inductivaVarh),
    f.capacitivaVarh === null ? '' : kwhTexto(f.capacitivaVarh),
  ]);
}

/** One CRLF-terminated line of a measure (or a gap). */
export function filaCsvMedidas(m: IntervaloExportable, opciones: OpcionesCsvMedidas): string {
  return lineaCsvMedidas(filaExportacion(m, opciones));
}

/** The whole file as a sequence of lines (header first), for a synchronous source. */
export function* lineasCsvMedidas(medidas: Iterable<IntervaloExportable>, opciones: OpcionesCsvMedidas): Generator<string> {
  yield cabeceraCsvMedidas();
  for (const m of medidas) yield filaCsvMedidas(m, opciones);
}

/** The whole file as a sequence of lines (header first), for a database cursor or any async source. */
export async function* lineasCsvMedidasAsync(
  medidas: AsyncIterable<IntervaloExportable>,
  opciones: OpcionesCsvMedidas,
): AsyncGenerator<string> {
  yield cabeceraCsvMedidas();
  for await (const m of medidas) yield filaCsvMedidas(m, opciones);
}

// ---------------------------------------------------------------------------------------------
// Gaps
// ---------------------------------------------------------------------------------------------

/** The range whose intervals every export lists. */
export interface RangoExportacion {
  cups: string;
  /** UTC bounds [inicio, fin) of the civil days asked for. */
  inicio: Date;
  fin: Date;
  minutos: MinutosIntervalo;
  /**
   * Gaps are written only for intervals that have ended by this instant (now): an hour still to
   * come is not missing. Measures are written whenever they are.
   */
  hasta: Date;
}

/** Walks the intervals of a range, giving the gaps before each measure and after the last. */
class Recorrido {
  private cursor: number;
  private readonly paso: number;
  private readonly r: RangoExportacion;
  constructor(r: RangoExportacion) {
    this.r = r;
    this.cursor = r.inicio.getTime();
    this.paso = r.minutos * 60_000;
  }
  private hueco(t: number): HuecoExportable {
    return {
      cups: this.r.cups,
      inicio: new Date(t),
      minutos: this.r.minutos,
      importadaWh: null,
      exportadaWh: null,
      metodo: METODO_SIN_DATO,
      firme: null,
    };
  }
  /** The gaps before a measure (every one of them: a later measure exists), then the measure. */
  *hasta(m: MedidaExportable): Generator<IntervaloExportable> {
    const t = m.inicio.getTime();
    for (; this.cursor < t; this.cursor += this.paso) yield this.hueco(this.cursor);
    yield m;
    this.cursor = Math.max(this.cursor, t + this.paso);
  }
  /** The gaps after the last measure, up to the end of the range or the last interval that ended. */
  *final(): Generator<HuecoExportable> {
    const fin = this.r.fin.getTime();
    const ahora = this.r.hasta.getTime();
    for (; this.cursor < fin && this.cursor + this.paso <= ahora; this.cursor += this.paso) yield this.hueco(this.cursor);
  }
}

/** Every interval of the range in order: the measures (ordered by start) and a gap where one is missing. */
export function* conHuecos(medidas: Iterable<MedidaExportable>, rango: RangoExportacion): Generator<IntervaloExportable> {
  const r = new Recorrido(rango);
  for (const m of medidas) yield* r.hasta(m);
  yield* r.final();
}

/** `conHuecos` for a database cursor or any async source. */
export async function* conHuecosAsync(
  medidas: AsyncIterable<MedidaExportable>,
  rango: RangoExportacion,
): AsyncGenerator<IntervaloExportable> {
  const r = new Recorrido(rango);
  for await (const m of medidas) yield* r.hasta(m);
  yield* r.final();
}

// ---------------------------------------------------------------------------------------------
// Datadis-compatible CSV
// ---------------------------------------------------------------------------------------------

/**
 * Columns of the CSV that datadis.es lets consumers download (docs/sector.md §5.2, §9 "Export / CSV":
 * `consumo_kWh`, `energiaVertida_kWh`), so tools built on those files read ours.
 */
export const COLUMNAS_CSV_DATADIS = ['cups', 'fecha', 'hora', 'consumo_kWh', 'metodoObtencion', 'energiaVertida_kWh'] as const;

/**
 * The Datadis header. No BOM: Datadis's files are plain ASCII and a BOM would glue itself to `cups`
 * in readers that open them as UTF-8 without stripping it (Python's csv module, for one).
 */
export function cabeceraCsvDatadis(): string {
  return csvLine(COLUMNAS_CSV_DATADIS);
}

/**
 * One line as Datadis writes it: date `AAAA/MM/DD`, `hora` hour-ending `01:00`…`24:00` (docs/sector.md
 * §5.3: "1 represents consumption from 00h to 01h"), the clock-change days by the clock (October
 * repeats `03:00`, first summer then winter time; March has no `03:00`), `Real`/`Estimada`, kWh with
 * a decimal comma and three decimals, and `energiaVertida_kWh` empty without surplus. docs/sector.md does
 * not say the decimal mark: the comma is what datadis.es downloads carry (e.g. `'consumo_kWh':
 * '0,007'` quoted from a downloaded file in a public Datadis reader, and the Datadis fixtures of the
 * luzfija.es importer tests, `0,500`). Datadis files list only the hours it has, so a gap gives no
 * line here (an empty line, which the caller skips): tools built on them expect a number in every row.
 */
export function lineaCsvDatadis(f: FilaExportacion): string {
  if (f.importadaWh === null || f.metodo === METODO_SIN_DATO) return '';
  return csvLine([
    f.cups,
    f.fecha.replaceAll('-', '/'),
    f.horaFin,
    kwhTexto(f.importadaWh),
    f.metodo === 'real' ? 'Real' : 'Estimada',
    f.exportadaWh === null ? '' : kwhTexto(f.exportadaWh),
  ]);
}

// ---------------------------------------------------------------------------------------------
// Excel
// ---------------------------------------------------------------------------------------------

/** One column of a workbook: header, width and the number format of its cells. */
export interface ColumnaExcel {
  cabecera: string;
  ancho: number;
  /** Excel number format code (locale-free: Spanish Excel shows `0.000` with a comma). */
  formato?: string;
}

/** A cell value: text, number, a date (civil time written as UTC) or empty. */
export type CeldaExcel = string | number | Date | null;

/** Where the civil time of a zone is read, for the headers. */
const lugarHora = (zona: ZonaElectrica) => (zonaHorariaDe(zona) === 'Atlantic/Canary' ? 'Canarias' : 'Madrid');

/**
 * The workbook's columns: those of the CSV, with the date and the start and end as real date cells.
 * Excel has no time zones, so they hold the civil time of the supply point's clocks, which the
 * headers say, and `Desfase_UTC` gives the offset that tells the two repeated October hours apart.
 */
export function columnasExcelMedidas(zona: ZonaElectrica = 'peninsula'): ColumnaExcel[] {
  const lugar = lugarHora(zona);
  return [
    { cabecera: 'CUPS', ancho: 24 },
    { cabecera: 'Fecha', ancho: 12, formato: 'dd/mm/yyyy' },
    { cabecera: 'Hora', ancho: 7 },
    { cabecera: 'Consumo_kWh', ancho: 13, formato: '0.000' },
    { cabecera: 'Metodo_obtencion', ancho: 17 },
    { cabecera: 'Energia_vertida_kWh', ancho: 19, formato: '0.000' },
    { cabecera: 'Firme', ancho: 7 },
    { cabecera: 'Periodo', ancho: 8 },
    { cabecera: 'Franja_horaria', ancho: 34 },
    { cabecera: `Inicio (hora local de ${lugar})`, ancho: 27, formato: 'dd/mm/yyyy hh:mm' },
    { cabecera: `Fin (hora local de ${lugar})`, ancho: 27, formato: 'dd/mm/yyyy hh:mm' },
    // [hh] so the day's last hour ends at 24:00, as in the CSV, not at 00:00.
    { cabecera: `Hora_fin (hora local de ${lugar})`, ancho: 12, formato: '[hh]:mm' },
    { cabecera: 'Desfase_UTC', ancho: 12 },
    { cabecera: 'Reactiva_inductiva_kVArh', ancho: 24, formato: '0.000' },
    { cabecera: 'Reactiva_capacitiva_kVArh', ancho: 25, formato: '0.000' },
  ];
}

/** The cells of one row, in the order of `columnasExcelMedidas`. */
export function celdasExcelMedidas(f: FilaExportacion): CeldaExcel[] {
  const [h, min] = f.horaFin.split(':').map(Number) as [number, number];
  return [
    f.cups,
    new Date(`${f.fecha}T00:00:00Z`),
    f.numero,
    f.importadaWh === null ? null : f.importadaWh / 1000,
    letraMetodo(f.metodo),
    f.exportadaWh === null ? null : f.exportadaWh / 1000,
    f.firme === null ? null : f.firme ? 'S' : 'N',
    f.periodo,
    f.franja,
    new Date(f.inicioCivil),
    new Date(f.finCivil),
    (h * 60 + min) / 1440,
    f.desfase,
    f.inductivaVarh === null ? null : f.inductivaVarh / 1000,
    f.capacitivaVarh === null ? null : f.capacitivaVarh / 1000,
  ];
}

/** File name of a download: `consumos_<CUPS>_<desde>_<hasta>.csv` with civil dates. */
export function nombreCsvMedidas(cups: string, desde: string, hasta: string): string {
  return `consumos_${cups.replace(/[^A-Z0-9]/gi, '')}_${desde}_${hasta}.csv`;
}

/** File name of the Datadis-compatible download. */
export function nombreCsvDatadis(cups: string, desde: string, hasta: string): string {
  return nombreCsvMedidas(cups, desde, hasta).replace(/\.csv$/, '_datadis.csv');
}
