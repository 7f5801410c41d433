/**
 * Writes the REE/CNMC hourly curve files a distributor sends to each retailer (docs/sector.md §5.1),
 * line by line, so a file of any size is written with flat memory. The portal reads the same files
 * back with src/server/medidas/formatos/ree.ts; a test writes every hour of several years and reads
 * each line back with that reader.
 *
 * - P5D, validated hourly curve ("cchval"): `cups;timestamp;season;ai;ae`
 * - F5D, billed hourly curve ("cchfact"): `cups;timestamp;season;ai;ae;r1;r2;r3;r4;method;firmeza;factura`
 *
 * Layout as the REE variant of these files is written (gisce/cchloader's `F5D(REE) parser fits file
 * format` sample line `ES0237000000130940CT0F;2021/06/01 01:00;1;189;;;;;;1;0;TA/202100018520;\r\n`;
 * gisce/mesures `p5d.py`/`f5d.py` end lines with `;` too): no header, `;` between fields, each line
 * ended by `;` and CRLF, energies in whole Wh, empty where there is no value. The text is ASCII, so it
 * is the same bytes in ISO-8859-15, the files' encoding.
 *
 * `timestamp` is `YYYY/MM/DD HH:MM`, the END of the hour in the civil time of the peninsula (the
 * reader reads REE files that way): a day's first hour is `01:00`, its last `00:00` of the next day
 * (as in the sample file). It is the wall clock AT the end instant, and `season` is the offset in
 * force at that instant (1 summer time, UTC+2; 0 winter time, UTC+1; docs/sector.md §5.1), the pair
 * the sector's readers turn back into an instant: gisce/cchloader localizes the naive timestamp in
 * Europe/Madrid with `is_dst = season == 1` (backends `get_as_utc_timestamp`), gisce/mesures derives
 * the flag from the local end timestamp (`season = int(timestamp.dst().seconds > 0)`). So the October
 * change day has 25 lines, the repeated clock hour ending `02:00` twice (flag 1, the summer one, then
 * 0), then `03:00;0`; the March day has 23 lines and no `02:00` (`01:00;0`, then `03:00;1`): the clocks
 * of Real Decreto 236/2002 skip from 02:00 to 03:00 in March and turn back from 03:00 to 02:00 in
 * October (docs/decisions/038).
 *
 * F5D columns the portal's measure store does not hold are left empty: the four reactive energies
 * (none is stored) and `factura` (the portal issues no access invoices). `method` is 1 ("medida real
 * válida") for a real hour and 5 ("estimación por consumo histórico") for an estimated one unless the
 * record carries its own code; `firmeza` is the hour's firmness, and where it is not known, 1 for a
 * real hour and 0 for an estimated one (gisce/mesures `f5d.py`: `firmeza = 1 if method in (1, 3)
 * else 0`). The daily F5D (src/server/intercambio/medidas-diarias.ts) passes every real billed hour as
 * firm and completes the curve first (src/lib/medidas/curva-facturada.ts, docs/decisions/038).
 */
import { leerFechaLocal, type FechaLocal } from '../calendario/fechas.ts';
import { desfaseMinutos, ZONA_MADRID } from '../calendario/hora-civil.ts';
import { temporadaDe, type Temporada } from './horas.ts';
import type { MetodoMedida, ReactivasMedida } from './tipos.ts';

/** The two curve files the portal writes. */
export type TipoCurvaRee = 'P5D' | 'F5D';

/** Columns of a P5D, in order (docs/sector.md §5.1; names as gisce/mesures' P5D_HEADER). */
export const COLUMNAS_P5D = ['cups', 'timestamp', 'season', 'ai', 'ae'] as const;

/** Columns of an F5D, in order (docs/sector.md §5.1; names as gisce/mesures' F5D_HEADER). */
export const COLUMNAS_F5D = [...COLUMNAS_P5D, 'r1', 'r2', 'r3', 'r4', 'method', 'firmeza', 'factura'] as const;

/** What ends every line: the last field's `;` and CRLF. */
export const FIN_LINEA_REE = ';\r\n';

/** F5D `method` of a real hour: 1, "medida real válida". */
export const METODO_F5D_REAL = 1;
/** F5D `method` of an estimated hour whose own code is unknown: 5, "estimación por consumo histórico". */
export const METODO_F5D_ESTIMADA = 5;

/** One hour of a supply point's curve as the files need it (a `RegistroMedida` is one). */
export interface HoraCurvaRee {
  /** CUPS, 20 or 22 characters, upper case. */
  cups: string;
  /** UTC start of the hour (ms or Date); on the hour. */
  inicio: Date | number;
  /** Active energy imported, whole Wh. */
  importadaWh: number;
  /** Active energy exported, whole Wh; null (written empty) without generation. */
  exportadaWh: number | null;
  metodo: MetodoMedida;
  /** The source's own F5D method code (1–6), written as it came. */
  codigoMetodo?: number;
  /** Firm or not; null when the source did not say. */
  firme: boolean | null;
  /** Reactive energies per quadrant, VArh, when known. */
  reactivas?: ReactivasMedida;
}

const MS_HORA = 3_600_000;
const dos = (n: number) => (n < 10 ? `0${n}` : String(n));

/** Timestamps already written, by UTC hour: every supply point of a file repeats the same hours. */
const marcas = new Map<number, string>();

/**
 * The `timestamp;season` of the hour that starts at `inicio` (UTC ms): the peninsula's wall clock at
 * its end, and the season in force at that instant (so the hour that ends at the October change,
 * 01:00 UTC, is `02:00;0`, not `03:00;1`, which cchloader would read as 02:00 UTC).
 */
export function marcaRee(inicio: Date | number): string {
  const ms = typeof inicio === 'number' ? inicio : inicio.getTime();
  const hecha = marcas.get(ms);
  if (hecha !== undefined) return hecha;
  if (!Number.isFinite(ms) || ms % MS_HORA !== 0) throw new RangeError(`La hora ${String(inicio)} no empieza en punto.`);
  const fin = ms + MS_HORA;
  const reloj = new Date(fin + desfaseMinutos(fin, ZONA_MADRID) * 60_000);
  const temporada: Temporada = temporadaDe(fin, ZONA_MADRID);
  const marca = `${reloj.getUTCFullYear()}/${dos(reloj.getUTCMonth() + 1)}/${dos(reloj.getUTCDate())} ${dos(reloj.getUTCHours())}:00;${temporada}`;
  if (marcas.size > 100_000) marcas.clear();
  marcas.set(ms, marca);
  return marca;
}

/** A whole non-negative number of Wh as the files write it; anything else is a fault of the caller. */
function wh(valor: number, campo: string): string {
  if (!Number.isSafeInteger(valor) || valor < 0) throw new RangeError(`${campo} debe ser un número entero de Wh no negativo: ${valor}.`);
  return String(valor);
}

const opcional = (valor: number | null | undefined, campo: string) => (valor === null || valor === undefined ? '' : wh(valor, campo));

/** One P5D line, CRLF included. */
export function lineaP5D(h: HoraCurvaRee): string {
  return `${h.cups};${marcaRee(h.inicio)};${wh(h.importadaWh, 'ai')};${opcional(h.exportadaWh, 'ae')}${FIN_LINEA_REE}`;
}

/** The F5D `method` of an hour. */
export function metodoF5D(h: Pick<HoraCurvaRee, 'metodo' | 'codigoMetodo'>): number {
  return h.codigoMetodo ?? (h.metodo === 'real' ? METODO_F5D_REAL : METODO_F5D_ESTIMADA);
}

/** The F5D `firmeza` of an hour: the stored firmness, or 1 for real and 0 for estimated when unknown. */
export function firmezaF5D(h: Pick<HoraCurvaRee, 'metodo' | 'firme'>): 0 | 1 {
  return (h.firme ?? h.metodo === 'real') ? 1 : 0;
}

/** One F5D line, CRLF included; `factura` is the invoice code, empty when there is none. */
export function lineaF5D(h: HoraCurvaRee, factura = ''): string {
  if (/[;\r\n]/.test(factura)) throw new RangeError(`El código de factura «${factura}» no puede llevar «;» ni saltos de línea.`);
  const r = h.reactivas;
  return (
    [
      h.cups,
      marcaRee(h.inicio),
      wh(h.importadaWh, 'ai'),
      opcional(h.exportadaWh, 'ae'),
      opcional(r?.r1, 'r1'),
      opcional(r?.r2, 'r2'),
      opcional(r?.r3, 'r3'),
      opcional(r?.r4, 'r4'),
      String(metodoF5D(h)),
      String(firmezaF5D(h)),
      factura,
    ].join(';') + FIN_LINEA_REE
  );
}

/** One line of either file. */
export function lineaRee(tipo: TipoCurvaRee, h: HoraCurvaRee): string {
  return tipo === 'P5D' ? lineaP5D(h) : lineaF5D(h);
}

/**
 * The file name `<tipo>_<distributor REE code>_<retailer REE code>_<YYYYMMDD>.<version>` (docs/sector.md
 * §5.1). gisce/mesures puts in it the day the file is generated (`generation_date`), not the days it
 * carries: its sample `F5D_0238_0762_20211008` holds June and July 2021.
 */
export function nombreFicheroRee(
  tipo: TipoCurvaRee,
  distribuidora: string,
  comercializadora: string,
  fecha: FechaLocal,
  version = 0,
): string {
  if (!/^\d+$/.test(distribuidora)) throw new RangeError(`Código REE de distribuidora no válido: ${distribuidora}`);
  if (!/^\d{4}$/.test(comercializadora)) throw new RangeError(`Código REE de comercializadora no válido: ${comercializadora}`);
  if (!leerFechaLocal(fecha)) throw new RangeError(`Fecha no válida: ${fecha}`);
  if (!Number.isSafeInteger(version) || version < 0) throw new RangeError(`Versión no válida: ${version}`);
  return `${tipo}_${distribuidora}_${comercializadora}_${fecha.replaceAll('-', '')}.${version}`;
}
