/**
 * The billed hourly curve of a billing period (F5D, docs/sector.md §5.1) is complete: every hour of the
 * period has a value, the ones the meter did not deliver estimated and marked so (Reglamento unificado
 * de puntos de medida, RD 1110/2007, and REE's operating procedures P.O. 10.5/10.12 have the reading
 * party estimate the hourly values it lacks; the F5D method codes 2–6 name the estimation used). The
 * method is decided in docs/decisions/038: an hour without a measure takes the mean of the same clock
 * hour on the same weekday in the SEMANAS_REFERENCIA weeks before and after, from the supply point's
 * own real measures, an estimation from its own consumption history (F5D method 5, "estimación por
 * consumo histórico"). Without any such hour it takes the mean of the same clock hour over the
 * period's real hours, and without that the mean of every stored hour of the period.
 */
import { sumarDias } from '../calendario/fechas.ts';
import type { ReactivasMedida } from './tipos.ts';
import { instantesDesdeReloj, partesLocales, ZONA_MADRID, type ZonaHoraria } from '../calendario/hora-civil.ts';

/** Weeks looked at on each side of a missing hour. */
export const SEMANAS_REFERENCIA = 4;

const MS_HORA = 3_600_000;

/** A stored hour: its UTC start (ms), energies in Wh, real or estimated, firmness as stored. */
export interface HoraGuardada {
  t: number;
  importadaWh: number;
  exportadaWh: number | null;
  real: boolean;
  firme: boolean | null;
  /** Reactive energy per quadrant, VArh, when the hour was stored with it (an estimated hour has none). */
  reactivas?: ReactivasMedida;
}

/** An hour of the billed curve: a stored one, or one estimated here (`estimada`). */
export interface HoraFacturada extends HoraGuardada {
  estimada: boolean;
}

/** The instants (UTC ms) of the same clock hour on the same weekday, nearest weeks first. */
export function horasDeReferencia(t: number, zona: ZonaHoraria = ZONA_MADRID, semanas = SEMANAS_REFERENCIA): number[] {
  const p = partesLocales(t, zona);
  const out: number[] = [];
  for (let k = 1; k <= semanas; k++) {
    for (const signo of [-1, 1]) {
      // The October day repeats the clock hour: both are the same hour of that day.
      for (const d of instantesDesdeReloj(sumarDias(p.fecha, signo * 7 * k), p.hora, 0, zona)) out.push(d.getTime());
    }
  }
  return out;
}

const media = (valores: readonly number[]) => Math.round(valores.reduce((a, b) => a + b, 0) / valores.length);

/**
 * Every hour of [desde, hasta) (UTC ms, on the hour): the stored ones as they are, the missing ones
 * estimated. `guardadas` are the period's stored hours; `referencia` the supply point's real hours
 * around it (the period's own included), by UTC start. Empty when nothing is stored in the period:
 * a period without a single measure is not billed from the curve.
 */
export function completarCurvaFacturada(
  desde: number,
  hasta: number,
  guardadas: readonly HoraGuardada[],
  referencia: ReadonlyMap<number, Pick<HoraGuardada, 'importadaWh' | 'exportadaWh'>>,
  zona: ZonaHoraria = ZONA_MADRID,
): HoraFacturada[] {
  if (guardadas.length === 0) return [];
  const porHora = new Map(guardadas.map((h) => [h.t, h]));
  const conExcedentes = guardadas.some((h) => h.exportadaWh !== null);
  // Fallbacks: the period's real hours by clock hour, then every stored hour of the period.
  const porReloj = new Map<number, HoraGuardada[]>();
  for (const h of guardadas) {
    if (!h.real) continue;
    const hora = partesLocales(h.t, zona).hora;
    const lista = porReloj.get(hora);
    if (lista) lista.push(h);
    else porReloj.set(hora, [h]);
  }
  const out: HoraFacturada[] = [];
  for (let t = desde; t < hasta; t += MS_HORA) {
    const guardada = porHora.get(t);
    if (guardada) {
      out.push({ ...guardada, estimada: false });
      continue;
    }
    let base: readonly Pick<HoraGuardada, 'importadaWh' | 'exportadaWh'>[] = horasDeReferencia(t, zona)
      .map((r) => referencia.get(r))
      .filter((r) => r !== undefined);
    if (base.length === 0) base = porReloj.get(partesLocales(t, zona).hora) ?? [];
    if (base.length === 0) base = guardadas;
    const exportadas = base.map((b) => b.exportadaWh ?? 0);
    out.push({
      t,
      importadaWh: media(base.map((b) => b.importadaWh)),
      exportadaWh: conExcedentes ? media(exportadas) : null,
      real: false,
      firme: false,
      estimada: true,
    });
  }
  return out;
}
