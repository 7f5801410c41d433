/**
 * The measure tables, for typed queries only: they are partitioned by month, which drizzle-kit does
 * not model, so their DDL lives in the hand-written part of migration 0003 and these definitions are
 * kept out of drizzle.config.ts's schema (docs/decisions/007-almacen-de-medidas.md).
 */
import { boolean, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/** Columns shared by the hourly and the quarter-hourly table. */
const columnas = () => ({
  /** `suministros.id`. */
  suministroId: integer('suministro_id').notNull(),
  /** UTC start of the interval (an hour or a quarter-hour). */
  inicio: timestamp('inicio', { withTimezone: true }).notNull(),
  /** Active energy taken from the grid, Wh. */
  importadaWh: integer('importada_wh').notNull(),
  /** Active energy poured into the grid (self-consumption surplus), Wh; null without generation. */
  exportadaWh: integer('exportada_wh'),
  /** Reactive energy per quadrant, VArh (REE F5D `r1..r4`); null where the source has none (migration 0028). */
  reactivaR1Varh: integer('reactiva_r1_varh'),
  reactivaR2Varh: integer('reactiva_r2_varh'),
  reactivaR3Varh: integer('reactiva_r3_varh'),
  reactivaR4Varh: integer('reactiva_r4_varh'),
  /** Real measure (true) or estimated/profiled (false). */
  real: boolean('real').notNull(),
  /** Firm (billed, closed) or not; null when the source does not say. */
  firme: boolean('firme'),
  /** Where it came from: P5D, F5D, CSV, demo… */
  origen: text('origen').notNull(),
  importadoEn: timestamp('importado_en', { withTimezone: true }).notNull().defaultNow(),
});

/** Hourly curve: one row per supply point and UTC hour. */
export const medidasHorarias = pgTable('medidas_horarias', columnas(), (t) => [primaryKey({ columns: [t.suministroId, t.inicio] })]);

/** Quarter-hourly curve, for meters that provide it; its hourly sums are also in `medidas_horarias`. */
export const medidasCuartohorarias = pgTable('medidas_cuartohorarias', columnas(), (t) => [
  primaryKey({ columns: [t.suministroId, t.inicio] }),
]);
