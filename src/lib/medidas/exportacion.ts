/**
 * The CSV download of hourly (or quarter-hourly) measures (issue 6), written row by row so the
 * server can stream years of data with flat memory.
 *
 * Columns: the five of the consumer format that distributors and the CNMC's tools use (DOMAIN.md
 * §5.2: `CUPS;Fecha;Hora;Consumo_kWh;Metodo_obtencion`, `Hora` 1–25 hour-ending, decimal comma,
 * R/E), then what that format cannot say (DOMAIN.md §9: "explicit timezone and interval
 * start/end", "mark DST days clearly", real/estimated/firm flag):
 * `Energia_vertida_kWh` (surplus), `Firme` (S/N, empty when unknown), `Periodo` (tariff period),
 * `Franja_horaria` (local interval, the repeated October hour labelled summer/winter time),
 * `Inicio` and `Fin` (ISO 8601 with offset).
 * `;` separator, CRLF, UTF-8 with BOM, cells protected by src/lib/csv.ts. The portal's own
 * reader (src/server/medidas/formatos) reads these files back.
 */
import { CSV_BOM, csvLine } from '../csv.ts';
import { etiquetaIntervalo, isoConDesfase, posicionIntervalo } from './horas.ts';
import { periodoEnergia, zonaHorariaDe, type CodigoTarifa, type ZonaElectrica } from './periodos.ts';
import type { RegistroMedida } from './tipos.ts';

/** The fields of a measure the export needs (a stored row does not have to be a whole `RegistroMedida`). */
export type MedidaExportable = Pick<RegistroMedida, 'cups' | 'inicio' | 'minutos' | 'importadaWh' | 'exportadaWh' | 'metodo' | 'firme'>;

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

/** The header line, with the BOM Excel needs to read UTF-8. */
export function cabeceraCsvMedidas(): string {
  return CSV_BOM + csvLine(COLUMNAS_CSV_MEDIDAS);
}

/** One CRLF-terminated line of a measure. */
export function filaCsvMedidas(m: MedidaExportable, opciones: OpcionesCsvMedidas): string {
  const zona = opciones.zona ?? 'peninsula';
  const horaria = zonaHorariaDe(zona);
  const p = posicionIntervalo(m.inicio, m.minutos, horaria);
  const fin = new Date(m.inicio.getTime() + m.minutos * 60_000);
  return csvLine([
    m.cups,
    `${p.fecha.slice(8, 10)}/${p.fecha.slice(5, 7)}/${p.fecha.slice(0, 4)}`,
    String(p.numero),
    kwhTexto(m.importadaWh),
    m.metodo === 'real' ? 'R' : 'E',
    m.exportadaWh === null ? '' : kwhTexto(m.exportadaWh),
    m.firme === null ? '' : m.firme ? 'S' : 'N',
    periodoEnergia(m.inicio, opciones.tarifa, zona),
    etiquetaIntervalo(m.inicio, m.minutos, 'larga', horaria),
    isoConDesfase(m.inicio, horaria),
    isoConDesfase(fin, horaria),
  ]);
}

/** The whole file as a sequence of lines (header first), for a synchronous source. */
export function* lineasCsvMedidas(medidas: Iterable<MedidaExportable>, opciones: OpcionesCsvMedidas): Generator<string> {
  yield cabeceraCsvMedidas();
  for (const m of medidas) yield filaCsvMedidas(m, opciones);
}

/** The whole file as a sequence of lines (header first), for a database cursor or any async source. */
export async function* lineasCsvMedidasAsync(medidas: AsyncIterable<MedidaExportable>, opciones: OpcionesCsvMedidas): AsyncGenerator<string> {
  yield cabeceraCsvMedidas();
  for await (const m of medidas) yield filaCsvMedidas(m, opciones);
}

/** File name of a download: `consumos_<CUPS>_<desde>_<hasta>.csv` with civil dates. */
export function nombreCsvMedidas(cups: string, desde: string, hasta: string): string {
  return `consumos_${cups.replace(/[^A-Z0-9]/gi, '')}_${desde}_${hasta}.csv`;
}
