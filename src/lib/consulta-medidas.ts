/**
 * The range a consumer asks measures for: civil dates in Madrid, both included, at most
 * two years. One zod schema, used by the screens before they call and by the API, which never trusts
 * them.
 */
import { z } from './validacion/z.ts';

/** The longest range a query or an export may span: two years (a leap year included). */
export const MAX_DIAS_CONSULTA = 731;

/** Resolutions the curve can be asked in. */
export const RESOLUCIONES = ['cuartohora', 'hora', 'dia', 'mes'] as const;

const FECHA = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Days from the civil date `a` to `b` (b − a). */
export function diasEntre(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);
}

/** Whether a `YYYY-MM-DD` text is a real calendar date. */
export function esFechaValida(texto: string): boolean {
  const m = FECHA.exec(texto);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

/** Why a range cannot be asked for, in Spanish; null when it can. */
export function errorRango(desde: string, hasta: string): string | null {
  if (!esFechaValida(desde)) return 'La fecha de inicio no es una fecha válida (AAAA-MM-DD).';
  if (!esFechaValida(hasta)) return 'La fecha de fin no es una fecha válida (AAAA-MM-DD).';
  if (desde < '2000-01-01') return 'No hay medidas anteriores al año 2000.';
  const dias = diasEntre(desde, hasta);
  if (dias < 0) return 'La fecha de fin es anterior a la de inicio.';
  if (dias + 1 > MAX_DIAS_CONSULTA) return 'El periodo consultado no puede superar los dos años.';
  return null;
}

/** Query of a curve: supply point, range and resolution. */
export const consultaCurvaSchema = /* @__PURE__ */ z
  .object({
    cups: z
      .string()
      .trim()
      .min(20, 'Indique el CUPS del suministro.')
      .max(22, 'El CUPS tiene 20 o 22 caracteres.')
      .meta({ description: 'CUPS de uno de los suministros del usuario.' }),
    desde: z.string().meta({ description: 'Primer día, AAAA-MM-DD, en la hora local del suministro.' }),
    hasta: z.string().meta({ description: 'Último día, incluido, AAAA-MM-DD; como máximo dos años.' }),
    resolucion: z
      .enum(RESOLUCIONES, { error: 'Resolución no admitida: use hora, cuartohora, dia o mes.' })
      .default('hora')
      .meta({ description: 'hora (por defecto), cuartohora (solo contadores cuartohorarios), dia o mes.' }),
  })
  .superRefine((v, ctx) => {
    const e = errorRango(v.desde, v.hasta);
    if (e) ctx.addIssue({ code: 'custom', message: e, path: ['desde'] });
  });

/** A validated curve query. */
export type ConsultaCurva = z.infer<typeof consultaCurvaSchema>;
