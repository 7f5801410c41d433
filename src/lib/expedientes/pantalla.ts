/**
 * What the case screens of every procedure share, as plain data (the islands draw it): the box that
 * tells the applicant what to do now, and the check of a message to the other side.
 */
import { numero } from '../formato/numeros.ts';

/** Longest message between the sides of a case (the answer schemas' limit). */
export const MAX_MENSAJE = 4000;

/** A message checked before sending: trimmed; `obligatorio` is the error when empty (null: it may be empty). */
export function comprobarMensaje(texto: string, obligatorio: string | null): { ok: true; mensaje: string } | { ok: false; error: string } {
  const t = texto.trim();
  if (!t && obligatorio) return { ok: false, error: obligatorio };
  if (t.length > MAX_MENSAJE)
    return { ok: false, error: `El mensaje tiene ${numero(t.length)} caracteres y el máximo es ${numero(MAX_MENSAJE)}.` };
  return { ok: true, mensaje: t };
}

/** What the applicant has to do now (or where the case stands), for the box at the top of a case's detail. */
export interface QueHacer {
  titulo: string;
  texto: string;
  /** What the distributor wrote when it asked (the corrections or the information it wants). */
  mensajeDistribuidora: string | null;
}
