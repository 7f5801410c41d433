/**
 * The plain part of a labelled field (docs/diseno.md "Forms"), shared by the session, profile,
 * administration and measures forms: the ids of a field's hint and error, the `aria-describedby`
 * that ties them to the control, and the classes of the field's wrapper. No React: unit tests read it.
 */
import type { ReactNode } from 'react';

/** Props every labelled field takes. */
export interface PropsCampoBase {
  /** id of the control (the error summary links to it). */
  id: string;
  /** Visible label, also the control's accessible name. */
  etiqueta: string;
  /** Message beside the field; absent when valid. */
  error?: string | undefined;
  /** Help under the label. */
  ayuda?: ReactNode;
  /** Marks the control required for assistive technology; the form itself validates on submit. */
  requerido?: boolean;
}

/** id of a field's hint paragraph. */
export const idAyuda = (id: string): string => `${id}-ayuda`;

/** id of a field's error paragraph. */
export const idError = (id: string): string => `${id}-error`;

/** The ids given, in order and without the empty ones, as one `aria-describedby` value; undefined when none. */
export function describedBy(...ids: (string | false | null | undefined)[]): string | undefined {
  const v = ids.filter(Boolean).join(' ');
  return v || undefined;
}

/** What a field shows under its label, and the ids that describe its control. */
export interface TextosCampo {
  /** The hint to show; undefined when there is none or the error says the same. */
  ayuda: ReactNode;
  /** id of the hint, when shown. */
  idAyuda: string | undefined;
  /** id of the error, when there is one. */
  idError: string | undefined;
  /** The control's `aria-describedby`: the hint, then the error. */
  describedBy: string | undefined;
}

/** The hint to show (not when the error repeats it, as the password rule does) and the ids that describe the control. */
export function textosCampo(p: Pick<PropsCampoBase, 'id' | 'ayuda' | 'error'>): TextosCampo {
  const ayuda = p.ayuda !== p.error ? p.ayuda : undefined;
  const a = ayuda ? idAyuda(p.id) : undefined;
  const e = p.error ? idError(p.id) : undefined;
  return { ayuda, idAyuda: a, idError: e, describedBy: describedBy(a, e) };
}

/** The attributes that tie a control to its field: its id, `required`, `aria-invalid` while wrong, and `aria-describedby`. */
export function atributosControl(p: Pick<PropsCampoBase, 'id' | 'requerido' | 'error'>, t: Pick<TextosCampo, 'describedBy'>) {
  return { id: p.id, required: p.requerido, 'aria-invalid': p.error ? true : undefined, 'aria-describedby': t.describedBy };
}

/** The state a wrapper's classes follow. */
export interface EstadoCampo {
  /** The field's message, when it is wrong. */
  error?: string | undefined;
  /** Disabled by the form's rules. */
  deshabilitado?: boolean | undefined;
  /** Extra class of the wrapper (a layout hook such as a filter form's wide column). */
  clase?: string | undefined;
}

/** The wrapper's classes: the block (`campo`, `admin-campo`, `med-campo`), `--error` and `--deshabilitado` modifiers, the extra class. */
export function claseCampo(bloque: string, estado: EstadoCampo): string {
  return [bloque, estado.error && `${bloque}--error`, estado.deshabilitado && `${bloque}--deshabilitado`, estado.clase]
    .filter(Boolean)
    .join(' ');
}
