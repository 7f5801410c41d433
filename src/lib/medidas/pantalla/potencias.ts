/**
 * The maximum powers screen (/medidas/potencia): the range of months (by default the last
 * twelve complete ones, at most 24), the month × period table with the contracted power and the
 * exceedances, the grouped bars of the chart, and the rows of its downloads, which the API writes
 * (GET /api/medidas/potencias/csv and /xlsx): the CSV through src/lib/csv.ts (BOM, `;`, decimal comma,
 * cells safe from formula injection), the workbook with real date cells in civil local time.
 */
import { CSV_BOM, csvLine } from '../../csv.ts';
import type { CeldaExcel, ColumnaExcel } from '../exportacion.ts';
import { isoConDesfase, partesLocales, ZONA_MADRID, type ZonaHoraria } from '../../calendario/hora-civil.ts';
import { fechaBreve, nombreMes } from './formato.ts';

/** The body of GET /api/medidas/potencias (mirrors `PotenciasSchema` of src/server/medidas/routes.ts). */
export interface PotenciasRespuesta {
  cups: string;
  tarifa: string;
  contratadasKw: number[];
  periodos: { periodo: string; nombre: string; color: string }[];
  meses: {
    mes: string;
    periodos: { periodo: string; potenciaKw: number; contratadaKw: number; momento: string; metodo: string; excedida: boolean }[];
  }[];
}

/** Most months one query may span (the API refuses more). */
export const MAX_MESES = 24;

const MES = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** Whether a text is a month `YYYY-MM`. */
export function esMes(texto: string): boolean {
  return MES.test(texto);
}

/** The month n months after (or before) `mes`. */
export function sumarMeses(mes: string, n: number): string {
  const anio = Number(mes.slice(0, 4));
  const m = Number(mes.slice(5, 7)) - 1 + n;
  const d = new Date(Date.UTC(anio, m, 1));
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** Months from `desde` to `hasta`, both included. */
export function mesesEntre(desde: string, hasta: string): string[] {
  const r: string[] = [];
  for (let m = desde; m <= hasta && r.length <= 1200; m = sumarMeses(m, 1)) r.push(m);
  return r;
}

/** The last twelve complete months before the one of `hoy` (`YYYY-MM-DD`). */
export function mesesPorDefecto(hoy: string): { desde: string; hasta: string } {
  const hasta = sumarMeses(hoy.slice(0, 7), -1);
  return { desde: sumarMeses(hasta, -11), hasta };
}

/** A months error with its field. */
export interface ErrorMeses {
  campo: 'desde' | 'hasta';
  mensaje: string;
}

/** Why two texts are not an ordered range of months since 2000, in Spanish (empty when they are). */
export function erroresFormatoMeses(desde: string, hasta: string): ErrorMeses[] {
  const e: ErrorMeses[] = [];
  if (!esMes(desde))
    e.push({ campo: 'desde', mensaje: desde ? 'El mes de inicio no es válido: elija un mes y un año.' : 'Indique el mes de inicio.' });
  if (!esMes(hasta))
    e.push({ campo: 'hasta', mensaje: hasta ? 'El mes de fin no es válido: elija un mes y un año.' : 'Indique el mes de fin.' });
  if (e.length) return e;
  if (desde < '2000-01') return [{ campo: 'desde', mensaje: 'No hay medidas anteriores al año 2000.' }];
  if (hasta < desde) return [{ campo: 'hasta', mensaje: 'El mes de fin es anterior al de inicio.' }];
  return [];
}

/** Why a range of months cannot be asked for, in Spanish (the API applies the same rules). */
export function erroresMeses(desde: string, hasta: string, hoy: string): ErrorMeses[] {
  const formato = erroresFormatoMeses(desde, hasta);
  if (formato.length) return formato;
  if (mesesEntre(desde, hasta).length > MAX_MESES)
    return [{ campo: 'hasta', mensaje: `Consulte como máximo ${MAX_MESES} meses de potencias.` }];
  if (desde > hoy.slice(0, 7)) return [{ campo: 'desde', mensaje: 'El mes de inicio es posterior al actual: todavía no hay medidas.' }];
  return [];
}

/** One cell of the table: the month's maximum in one period. */
export interface CeldaPotencia {
  potenciaKw: number;
  contratadaKw: number;
  excedida: boolean;
  /** "mar, 11 nov, 20:00" in the supply's civil time. */
  cuando: string;
  /** UTC instant. */
  momento: string;
  /** real (quarter-hour meter) or estimada (hourly average). */
  metodo: string;
}

/** One month row: a cell per period of the tariff, null where the period has no hour that month or no data arrived. */
export interface FilaPotencias {
  mes: string;
  nombre: string;
  celdas: (CeldaPotencia | null)[];
  excesos: number;
}

/** The table of the answer. */
export interface ModeloPotencias {
  periodos: PotenciasRespuesta['periodos'];
  contratadasKw: number[];
  filas: FilaPotencias[];
  /** Cells above the contracted power in the whole range. */
  excesos: number;
  /** Whether any cell has data. */
  hayDatos: boolean;
}

const dos = (n: number) => String(n).padStart(2, '0');

/** When a maximum happened, in the supply's local time: "mié, 26 nov, 11:15" (the row says the year). */
export function cuandoMaximo(momento: string, zona: ZonaHoraria = ZONA_MADRID): string {
  const p = partesLocales(Date.parse(momento), zona);
  return `${fechaBreve(p.fecha)}, ${dos(p.hora)}:${dos(p.minuto)}`;
}

/** The table of every month of the range, months without data included (their cells empty). */
export function modeloPotencias(r: PotenciasRespuesta, desde: string, hasta: string, zona: ZonaHoraria = ZONA_MADRID): ModeloPotencias {
  const porMes = new Map(r.meses.map((m) => [m.mes, m]));
  let excesos = 0;
  let hayDatos = false;
  const filas = mesesEntre(desde, hasta).map((mes) => {
    const datos = porMes.get(mes);
    const celdas = r.periodos.map((p) => {
      const d = datos?.periodos.find((x) => x.periodo === p.periodo);
      if (!d) return null;
      hayDatos = true;
      return {
        potenciaKw: d.potenciaKw,
        contratadaKw: d.contratadaKw,
        excedida: d.excedida,
        cuando: cuandoMaximo(d.momento, zona),
        momento: d.momento,
        metodo: d.metodo,
      };
    });
    const n = celdas.filter((c) => c?.excedida).length;
    excesos += n;
    return { mes, nombre: nombreMes(mes, true), celdas, excesos: n };
  });
  return { periodos: r.periodos, contratadasKw: r.contratadasKw, filas, excesos, hayDatos };
}

/** Column names of the maximum powers CSV. */
export const COLUMNAS_CSV_POTENCIAS = [
  'CUPS',
  'Mes',
  'Periodo',
  'Potencia_maxima_kW',
  'Potencia_contratada_kW',
  'Excedida',
  'Momento',
  'Metodo',
] as const;

/** One month and period with data, as both downloads write it. */
export interface FilaDescargaPotencias {
  cups: string;
  mes: string;
  periodo: string;
  potenciaKw: number;
  contratadaKw: number;
  excedida: boolean;
  /** Start of the interval of the maximum, ISO 8601 with the offset in force. */
  momentoIso: string;
  /** The same instant as the zone's clocks read it, written as UTC milliseconds (for a spreadsheet). */
  momentoCivil: number;
  metodo: 'Real' | 'Estimada';
}

/** The rows of the downloads: one per month and period with data, in the table's order. */
export function filasDescargaPotencias(
  r: PotenciasRespuesta,
  modelo: ModeloPotencias,
  zona: ZonaHoraria = ZONA_MADRID,
): FilaDescargaPotencias[] {
  const filas: FilaDescargaPotencias[] = [];
  for (const f of modelo.filas) {
    f.celdas.forEach((c, i) => {
      if (!c) return;
      const momentoIso = isoConDesfase(Date.parse(c.momento), zona);
      filas.push({
        cups: r.cups,
        mes: f.mes,
        periodo: modelo.periodos[i]!.periodo,
        potenciaKw: c.potenciaKw,
        contratadaKw: c.contratadaKw,
        excedida: c.excedida,
        momentoIso,
        momentoCivil: Date.parse(`${momentoIso.slice(0, 19)}Z`),
        metodo: c.metodo === 'real' ? 'Real' : 'Estimada',
      });
    });
  }
  return filas;
}

/** The CSV of the table: one line per month and period with data; `Momento` ISO 8601 with offset. */
export function csvPotencias(r: PotenciasRespuesta, modelo: ModeloPotencias, zona: ZonaHoraria = ZONA_MADRID): string {
  let texto = CSV_BOM + csvLine(COLUMNAS_CSV_POTENCIAS);
  for (const f of filasDescargaPotencias(r, modelo, zona)) {
    texto += csvLine([f.cups, f.mes, f.periodo, f.potenciaKw, f.contratadaKw, f.excedida ? 'S' : 'N', f.momentoIso, f.metodo]);
  }
  return texto;
}

/**
 * The workbook's columns: the month and the moment as real date cells. Excel has no time zones, so
 * the moment is the civil time of the supply point's clocks, as the header says, with its offset
 * beside it.
 */
export function columnasExcelPotencias(zona: ZonaHoraria = ZONA_MADRID): ColumnaExcel[] {
  const lugar = zona === 'Atlantic/Canary' ? 'Canarias' : 'Madrid';
  return [
    { cabecera: 'CUPS', ancho: 24 },
    { cabecera: 'Mes', ancho: 10, formato: 'mm/yyyy' },
    { cabecera: 'Periodo', ancho: 9 },
    { cabecera: 'Potencia_maxima_kW', ancho: 19, formato: '0.000' },
    { cabecera: 'Potencia_contratada_kW', ancho: 23, formato: '0.000' },
    { cabecera: 'Excedida', ancho: 9 },
    { cabecera: `Momento (hora local de ${lugar})`, ancho: 30, formato: 'dd/mm/yyyy hh:mm' },
    { cabecera: 'Desfase_UTC', ancho: 12 },
    { cabecera: 'Metodo', ancho: 10 },
  ];
}

/** The cells of one row, in the order of `columnasExcelPotencias`. */
export function celdasExcelPotencias(f: FilaDescargaPotencias): CeldaExcel[] {
  return [
    f.cups,
    new Date(`${f.mes}-01T00:00:00Z`),
    f.periodo,
    f.potenciaKw,
    f.contratadaKw,
    f.excedida ? 'S' : 'N',
    new Date(f.momentoCivil),
    f.momentoIso.slice(19),
    f.metodo,
  ];
}

/** File name of the maximum powers CSV (`.xlsx` for the workbook). */
export function nombreCsvPotencias(cups: string, desde: string, hasta: string): string {
  return `potencias-maximas_${cups.replace(/[^A-Z0-9]/gi, '')}_${desde}_${hasta}.csv`;
}

/** The chart's data: x = month index, one series of maxima per period (null where none). */
export interface SeriesPotencias {
  meses: string[];
  x: number[];
  porPeriodo: (number | null)[][];
  /** Highest value to show: the greatest of maxima and contracted powers, for the y scale. */
  maximo: number;
}

/** Builds the grouped bars from the table. */
export function seriesPotencias(m: ModeloPotencias): SeriesPotencias {
  const porPeriodo = m.periodos.map((_, i) => m.filas.map((f) => f.celdas[i]?.potenciaKw ?? null));
  let maximo = 0;
  for (const s of porPeriodo) for (const v of s) if (v !== null && v > maximo) maximo = v;
  for (const c of m.contratadasKw) if (c > maximo) maximo = c;
  return { meses: m.filas.map((f) => f.mes), x: m.filas.map((_, i) => i), porPeriodo, maximo };
}
