/**
 * Normalised contracted powers in low voltage (docs/decisions/011): a power controlled by a power
 * control switch (ICP, or the smart meter's own limiter) can only be one the standard ICP ratings
 * give at the supply's voltage, P = V × I single-phase and P = √3 × V × I three-phase (V between
 * phases). Most supplies are 230 V or 3 × 400 V (REBT, RD 842/2002, ITC-BT-10), but older networks
 * still serve 1 × 127 V, 1 × 220 V, 3 × 220 V and 3 × 380 V: their normalised values differ (5,5 kW
 * and 4,4 kW at 220 V, 13,164 kW at 3 × 380 V).
 * Supplies with a maximeter (3.0TD over 15 kW, every 6.xTD) contract any whole number of watts.
 */
import { kw } from '../medidas/pantalla/formato.ts';

/** Standard rated currents of power control switches (ICP), amperes. */
export const INTENSIDADES_ICP_A = [1.5, 3, 3.5, 5, 7.5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 63] as const;

/** Single-phase supply voltages in use, V: today's 230 and the older 127 and 220. */
export const TENSIONES_MONOFASICAS_V = [127, 220, 230] as const;

/** Three-phase supply voltages between phases in use, V: today's 400 and the older 220 and 380. */
export const TENSIONES_TRIFASICAS_V = [220, 380, 400] as const;

/** The normalised powers at a voltage, W: V × I, or √3 × V × I three-phase, rounded to the watt. */
function normalizadasA(fases: string, tensionV: number): readonly number[] {
  const factor = fases === 'monofasico' ? tensionV : Math.sqrt(3) * tensionV;
  return INTENSIDADES_ICP_A.map((i) => Math.round(factor * i));
}

/** Normalised single-phase powers at 230 V, W (345 … 14,490). */
export const POTENCIAS_MONOFASICAS_W: readonly number[] = normalizadasA('monofasico', 230);

/** Normalised three-phase powers at 400 V between phases, W (1,039 … 43,648). */
export const POTENCIAS_TRIFASICAS_W: readonly number[] = normalizadasA('trifasico', 400);

/**
 * The voltage a supply's powers are normalised at: its own when it is one of those in use for its
 * phases, else today's (230 V single-phase, 400 V three-phase).
 */
export function tensionNormalizacion(fases: string, tensionV: number): number {
  const enUso: readonly number[] = fases === 'monofasico' ? TENSIONES_MONOFASICAS_V : TENSIONES_TRIFASICAS_V;
  return enUso.includes(tensionV) ? tensionV : fases === 'monofasico' ? 230 : 400;
}

/** Highest power of a 2.0TD supply in any period (Circular 3/2020: low voltage up to 15 kW). */
export const LIMITE_2_0TD_W = 15_000;

/** Below this voltage a supply is low voltage (REBT: up to 1 kV). */
export const LIMITE_BAJA_TENSION_V = 1_000;

/** Phases of the meter, as the supply point stores them. */
export type Fases = 'monofasico' | 'trifasico';

/** What decides whether a supply's powers must be normalised. */
export interface ControlPotencia {
  /** Supply voltage, V. */
  tensionV: number;
  /** icp, maximetro, telegestion or sin_control. */
  modoControlPotencia: string;
}

/** Whether a supply is low voltage. */
export function esBajaTension(tensionV: number): boolean {
  return tensionV < LIMITE_BAJA_TENSION_V;
}

/**
 * Whether the powers must be normalised values: low voltage with a switch that cuts at the contracted
 * power (ICP, the smart meter's limiter, or none yet: a future ICP must match). A maximeter registers
 * the demand instead of cutting it, so any power can be contracted.
 */
export function exigeNormalizadas(s: ControlPotencia): boolean {
  return esBajaTension(s.tensionV) && s.modoControlPotencia !== 'maximetro';
}

/** The normalised powers of a supply's phases and voltage, W, ascending. */
export function potenciasNormalizadas(fases: string, tensionV: number): readonly number[] {
  return normalizadasA(fases, tensionNormalizacion(fases, tensionV));
}

/** The normalised powers just below and just above `w` (null past either end). */
export function normalizadasCercanas(w: number, fases: string, tensionV: number): { abajo: number | null; arriba: number | null } {
  const lista = potenciasNormalizadas(fases, tensionV);
  let abajo: number | null = null;
  let arriba: number | null = null;
  for (const p of lista) {
    if (p < w) abajo = p;
    else if (p > w && arriba === null) arriba = p;
  }
  return { abajo, arriba };
}

/** Watts of a power in kW; null unless it is a finite positive number with at most three decimals (whole watts). */
export function wDesdeKw(valorKw: number): number | null {
  if (!Number.isFinite(valorKw) || valorKw <= 0) return null;
  const w = Math.round(valorKw * 1000);
  return Math.abs(w - valorKw * 1000) < 1e-6 ? w : null;
}

/** Watts of a power typed in kW ("4,6", "4.6", "5,750"); null when it is not one. */
export function leerKw(texto: string): number | null {
  const limpio = texto.trim().replace(/\s/g, '').replace(',', '.');
  if (!/^\d{1,6}(\.\d+)?$/.test(limpio)) return null;
  return wDesdeKw(Number(limpio));
}

/** A power in W written in kW as people in Spain read it ("4,6", "10,392"). */
export function textoKw(w: number): string {
  return kw(w / 1000);
}

/** kW of a power in W, exact to the watt. */
export function kwDesdeW(w: number): number {
  return Math.round(w) / 1000;
}
