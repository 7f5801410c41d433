/** The back link at the top of a screen, with its arrow (the `volver` block of sesion.css). */

/** Props of `EnlaceVolver`. */
export interface EnlaceVolverProps {
  /** Where it goes. */
  href: string;
  /** Its text, also its accessible name. */
  texto: string;
}

/** Accessibility contract: a plain link named by its text alone; the arrow is drawn by CSS and hidden from assistive technology. */
export function EnlaceVolver({ href, texto }: EnlaceVolverProps) {
  return (
    <a className="volver" href={href}>
      <span className="volver__flecha" aria-hidden="true"></span>
      {texto}
    </a>
  );
}
