/**
 * The one normalised measure record every source produces (the P5D, F5D and consumer CSV parsers
 * and the demo generator) and the importer, API and exports consume.
 */
import type { MinutosIntervalo } from './horas.ts';

/** Where a record came from. */
export type OrigenMedida = 'P5D' | 'F5D' | 'CSV' | 'DEMO';

/** How the value was obtained: measured, or estimated/profiled by the distributor. */
export type MetodoMedida = 'real' | 'estimada';

/** Reactive energy per quadrant, VArh (F5D `r1..r4`); null where the file leaves it empty. */
export interface ReactivasMedida {
  r1: number | null;
  r2: number | null;
  r3: number | null;
  r4: number | null;
}

/** One hourly or quarter-hourly measure of a supply point. */
export interface RegistroMedida {
  /**
   * CUPS as the file gives it, upper-cased without spaces: 20 characters, or 22 with the
   * border-point suffix (docs/sector.md §1.1); check letters verified. `cupsBase()` gives the 20.
   */
  cups: string;
  /** UTC start of the interval. */
  inicio: Date;
  /** Length of the interval. */
  minutos: MinutosIntervalo;
  /** Energy taken from the grid, Wh (may have decimals when the file gives kWh with more than 3). */
  importadaWh: number;
  /** Energy fed into the grid (self-consumption surplus), Wh; null when the source does not give it. */
  exportadaWh: number | null;
  /** Reactive energy, only where the source has it (F5D). */
  reactivas?: ReactivasMedida;
  /** Real or estimated. */
  metodo: MetodoMedida;
  /**
   * The source's own method code when it has one: F5D 1–6 (docs/sector.md §5.1: 1 real, 2 profiled
   * from a real reading, 3 real adjusted to a real reading, 4 profiled from a self-reading,
   * 5 estimated from last year's consumption, 6 estimated from a utilisation factor).
   */
  codigoMetodo?: number;
  /** Whether the value is firm (billed and final); null when the source does not say. */
  firme: boolean | null;
  /** Source of the record. */
  origen: OrigenMedida;
}
