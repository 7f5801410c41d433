/**
 * Pieces of the access and connection screens alone: the message the list shows after a draft is
 * deleted, and the error summary grouped by the form's sections. The fields, badges and documents
 * every case screen shares are in ../expedientes/.
 */
import { useEffect, useId, useRef } from 'react';
import { atom } from 'nanostores';
import type { SeccionFaltas } from '../../../lib/accesoyconexion/pantalla.ts';
import { EnlaceCampo } from '../../comunes/formulario/EnlaceCampo.tsx';
import '../expedientes/expedientes.css';
import './accesoyconexion.css';

/** A message for the list screen, left by a screen that navigates there (a draft deleted). */
export const $avisoSolicitudes = atom<string | null>(null);

/** Props of `ResumenFaltas`. */
export interface ResumenFaltasProps {
  titulo: string;
  secciones: readonly SeccionFaltas[];
  /** Grows on every failed attempt: focus moves to the summary each time (not while the user fixes things). */
  intento: number;
}

/**
 * The error summary of `ResumenErrores` (src/islands/comunes/formulario), grouped by the form's
 * sections: a `group` named by its heading that takes focus after each failed attempt, one list per
 * section under the section's name, each entry a link that focuses its field (`EnlaceCampo`).
 */
export function ResumenFaltas({ titulo, secciones, intento }: ResumenFaltasProps) {
  const idTitulo = useId();
  const caja = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (intento > 0) caja.current?.focus();
    // Only `intento`: focus moves on an attempt, not while the list shrinks as the user fixes things.
  }, [intento]);
  if (secciones.length === 0) return null;
  return (
    <div ref={caja} className="resumen-errores ac-resumen" tabIndex={-1} role="group" aria-labelledby={idTitulo}>
      <h2 id={idTitulo} className="resumen-errores__titulo">
        {titulo}
      </h2>
      {secciones.map((s) => (
        <div key={s.seccion} className="ac-resumen__seccion">
          <h3 id={`${idTitulo}-${s.seccion}`}>{s.titulo}</h3>
          <ul aria-labelledby={`${idTitulo}-${s.seccion}`}>
            {s.errores.map((e, i) => (
              <li key={`${e.campo}-${i}`}>
                <EnlaceCampo campo={e.campo}>{e.mensaje}</EnlaceCampo>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </div>
  );
}
