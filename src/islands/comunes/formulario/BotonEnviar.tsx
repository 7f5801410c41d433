/** A form's submit button (docs/diseno.md "Forms"). */

/** Props of `BotonEnviar`. */
export interface BotonEnviarProps {
  /** Its text, also its accessible name. */
  texto: string;
  /** Its classes (`sesion__enviar`, `priv-boton`, `admin-boton`). */
  clase: string;
  /** A send is under way: the button says `textoEnviando` and is marked busy. */
  enviando?: boolean | undefined;
  /** What it says while sending ("Guardando…"); `texto` when absent. */
  textoEnviando?: string | undefined;
}

/**
 * Accessibility contract: a real `type="submit"` button, so Enter in any field sends the form; while
 * a send is under way it keeps the focus and is marked `aria-busy` rather than disabled (a disabled
 * button would drop the focus), and the form ignores a second submit.
 */
export function BotonEnviar({ texto, clase, enviando, textoEnviando }: BotonEnviarProps) {
  return (
    <button type="submit" className={clase} aria-busy={enviando || undefined}>
      {enviando && textoEnviando ? textoEnviando : texto}
    </button>
  );
}
