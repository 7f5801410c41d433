/** The error summary at the top of a form (docs/diseno.md "Forms"). */
import { useEffect, useId, useRef } from 'react';
import { EnlaceCampo } from './EnlaceCampo.tsx';
import type { ErrorCampo } from './errores.ts';

/** Props of `ResumenErrores`. */
export interface ResumenErroresProps {
  /** Heading of the summary. */
  titulo: string;
  /** One link per field in error, in the form's order. */
  errores: readonly ErrorCampo[];
  /** Increments on every failed submit, so focus moves to the summary each time. */
  intento: number;
}

/**
 * Accessibility contract: nothing is rendered while the form has no errors; after a failed submit
 * the summary, a `group` named by its heading, takes focus so a screen reader announces it, and
 * each entry is a link that focuses its field (`EnlaceCampo`). Focus moves on submit only, never
 * while the errors change as the user types.
 */
export function ResumenErrores({ titulo, errores, intento }: ResumenErroresProps) {
  const caja = useRef<HTMLDivElement>(null);
  const idTitulo = useId();
  useEffect(() => {
    if (intento > 0 && errores.length > 0) caja.current?.focus();
    // Only `intento`: focus moves when the user submits again, not while the errors change as they type.
  }, [intento]);
  if (errores.length === 0) return null;
  return (
    <div ref={caja} className="resumen-errores" tabIndex={-1} role="group" aria-labelledby={idTitulo}>
      <h2 id={idTitulo} className="resumen-errores__titulo">
        {titulo}
      </h2>
      <ul>
        {errores.map((e) => (
          <li key={e.campo}>
            <EnlaceCampo campo={e.campo}>{e.mensaje}</EnlaceCampo>
          </li>
        ))}
      </ul>
    </div>
  );
}
