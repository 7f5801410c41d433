/** A link to a form's control, as the error summary lists them (docs/diseno.md "Forms"). */
import type { ReactNode } from 'react';

/** Props of `EnlaceCampo`. */
export interface EnlaceCampoProps {
  /** id of the control. */
  campo: string;
  /** The link's text: the field's message. */
  children: ReactNode;
}

/**
 * Accessibility contract: a real link to `#campo` (it works without JavaScript and reads as a link)
 * that also moves focus into the control and scrolls it to the middle of the screen, because
 * following a fragment alone does not focus an input in every browser.
 */
export function EnlaceCampo({ campo, children }: EnlaceCampoProps) {
  return (
    <a
      href={`#${campo}`}
      onClick={(ev) => {
        const control = document.getElementById(campo);
        if (!control) return;
        ev.preventDefault();
        control.focus();
        control.scrollIntoView({ block: 'center' });
      }}
    >
      {children}
    </a>
  );
}
