/** What stands above a form control: its label, its hint and its error (docs/diseno.md "Forms"). */
import type { TextosCampo } from './campo.ts';

/** Props of `CabeceraCampo`. */
export interface CabeceraCampoProps {
  /** id of the control the label names. */
  id: string;
  /** Visible label. */
  etiqueta: string;
  /** The field's message, when it is wrong. */
  error?: string | undefined;
  /** The hint and the ids, from `textosCampo`. */
  textos: TextosCampo;
  /** Class block of the field (`campo`, `admin-campo`, `med-campo`): the hint is `<bloque>__ayuda`, the error `<bloque>__error`. */
  bloque: string;
  /** Says "(obligatorio)" after the label. */
  obligatorio?: boolean | undefined;
}

/**
 * Accessibility contract: the `<label>` names the control through `htmlFor`; the hint and the error
 * carry the ids of `textos`, which the control lists in `aria-describedby`, so both are read with it;
 * the error begins with a visually hidden "Error: ", so it is not told by its colour alone.
 */
export function CabeceraCampo(p: CabeceraCampoProps) {
  return (
    <>
      <label htmlFor={p.id}>
        {p.etiqueta}
        {p.obligatorio && <span className={`${p.bloque}__obligatorio`}> (obligatorio)</span>}
      </label>
      {p.textos.ayuda && (
        <p id={p.textos.idAyuda} className={`${p.bloque}__ayuda`}>
          {p.textos.ayuda}
        </p>
      )}
      {p.error && (
        <p id={p.textos.idError} className={`${p.bloque}__error`}>
          <span className="visually-hidden">Error: </span>
          {p.error}
        </p>
      )}
    </>
  );
}
