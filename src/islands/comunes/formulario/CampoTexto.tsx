/**
 * A labelled text input with its hint and error (docs/diseno.md "Forms"), as the session and
 * profile forms draw them (the `campo` block of src/islands/sesion/sesion.css).
 *
 * Inputs have no `name` on purpose: a form submitted before React hydrates falls back to a native
 * GET of the same page, and without names nothing typed ends up in the address, the history or a log.
 */
import type { RefObject } from 'react';
import { CabeceraCampo } from './CabeceraCampo.tsx';
import { atributosControl, claseCampo, textosCampo, type PropsCampoBase } from './campo.ts';
import { useEntrada } from './usar-entrada.ts';

/** Props shared by the text and password inputs. */
export interface PropsEntrada extends PropsCampoBase {
  /** Current value. */
  valor: string;
  /** New value on every keystroke. */
  alCambiar: (valor: string) => void;
  /** autocomplete token (username, current-password, new-password, email…). */
  autoComplete: string;
  /** Disabled by the form's rules. */
  deshabilitado?: boolean;
  /** Focus target for the owner. */
  refInput?: RefObject<HTMLInputElement | null>;
}

/** Props of `CampoTexto`. */
export interface CampoTextoProps extends PropsEntrada {
  /** Input type; text by default. */
  tipo?: 'text' | 'email';
  /** Mobile keyboard hint. */
  inputMode?: 'text' | 'email';
  /** Upper-case letters on mobile keyboards (the NIF). */
  autoCapitalize?: 'characters' | 'none' | 'words';
}

/**
 * Accessibility contract: the label names the input; the hint and the error are read with it
 * (`aria-describedby`); a wrong value sets `aria-invalid`; `requerido` sets `required` for assistive
 * technology while the form keeps its own checks (`noValidate`); spelling is not checked.
 */
export function CampoTexto(p: CampoTextoProps) {
  const ref = useEntrada(p);
  const t = textosCampo(p);
  return (
    <div className={claseCampo('campo', p)}>
      <CabeceraCampo id={p.id} etiqueta={p.etiqueta} error={p.error} textos={t} bloque="campo" />
      <input
        ref={ref}
        {...atributosControl(p, t)}
        type={p.tipo ?? 'text'}
        value={p.valor}
        onChange={(e) => p.alCambiar(e.target.value)}
        autoComplete={p.autoComplete}
        inputMode={p.inputMode}
        autoCapitalize={p.autoCapitalize}
        spellCheck={false}
        disabled={p.deshabilitado}
      />
    </div>
  );
}
