/**
 * A form's field errors as its error summary lists them (docs/diseno.md "Forms"): one message per
 * field, in the form's order, each naming the id of the control its link focuses. No React.
 */

/** One entry of the error summary: the field's id and its message. */
export interface ErrorCampo {
  /** id of the control the summary's link focuses. */
  campo: string;
  /** The message shown beside the field and in the summary. */
  mensaje: string;
}

/** What zod (and any schema shaped like it) reports: the path of the value and its message. */
export interface IncidenciaValidacion {
  /** Where the value is; `path[0]` is the field's name. */
  path: readonly PropertyKey[];
  /** The Spanish message. */
  message: string;
}

/** First error message of each field, from zod-like issues (`path[0]` is the field name). */
export function erroresPorCampo(issues: readonly IncidenciaValidacion[]): Record<string, string> {
  const r: Record<string, string> = {};
  for (const i of issues) {
    const campo = String(i.path[0] ?? '');
    if (campo && !(campo in r)) r[campo] = i.message;
  }
  return r;
}

/** The messages of `porCampo` as summary entries, in the form's `orden`; fields outside `orden` are left out. */
export function erroresEnOrden(orden: readonly string[], porCampo: Readonly<Record<string, string | undefined>>): ErrorCampo[] {
  return orden.filter((c) => porCampo[c]).map((c) => ({ campo: c, mensaje: porCampo[c]! }));
}

/** The message of one field, for the text beside it; undefined when it has none. */
export function mensajeDe(errores: readonly ErrorCampo[], campo: string): string | undefined {
  return errores.find((e) => e.campo === campo)?.mensaje;
}

/** The list without the entry of `campo`; the same list when it had none (so React keeps its state). */
export function sinError<T extends ErrorCampo>(errores: T[], campo: string): T[] {
  return errores.some((e) => e.campo === campo) ? errores.filter((e) => e.campo !== campo) : errores;
}

/** What a zod-like `safeParse` answers, as far as the error summary reads it. */
export type ResultadoValidacion = { success: true } | { success: false; error: { issues: readonly IncidenciaValidacion[] } };

/** The summary entries of a `safeParse` result, first message of each field in the form's `orden`; none when it passed. */
export function erroresDeResultado(orden: readonly string[], r: ResultadoValidacion): ErrorCampo[] {
  return r.success ? [] : erroresEnOrden(orden, erroresPorCampo(r.error.issues));
}
