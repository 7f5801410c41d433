/**
 * The box at the top of a case's detail (every procedure): what the applicant has to do now, with
 * the deadline and what the distributor wrote; or, when the turn is not theirs, where the case stands.
 */
import type { TextoPlazo } from '../../../lib/accesoyconexion/pantalla.ts';
import type { QueHacer } from '../../../lib/expedientes/pantalla.ts';
import { Plazo } from './etiquetas.tsx';

/** Props of `CajaQueHacer`. */
interface CajaQueHacerProps {
  q: QueHacer | null;
  /** The deadline of the applicant's turn; null without one. */
  plazo: TextoPlazo | null;
  /** The turn is the applicant's: «Qué tiene que hacer ahora»; otherwise «En qué punto está». */
  suTurno: boolean;
  /** The heading's id, unique on the page. */
  idTitulo: string;
  /** The caption of the distributor's words: «Lo que le pide la distribuidora:». */
  cita: string;
}

export function CajaQueHacer({ q, plazo, suTurno, idTitulo, cita }: CajaQueHacerProps) {
  if (!q) return null;
  return (
    <section className={`med-panel ac-quehacer${suTurno ? '' : ' ct-quehacer--info'}`} aria-labelledby={idTitulo}>
      <h2 id={idTitulo}>{suTurno ? 'Qué tiene que hacer ahora' : 'En qué punto está'}</h2>
      <p>
        <strong>{q.titulo}.</strong> {q.texto}
      </p>
      {plazo && (
        <p>
          <strong>Plazo: </strong>
          <Plazo plazo={plazo} />
        </p>
      )}
      {q.mensajeDistribuidora && (
        <figure className="ac-cita">
          <figcaption>{cita}</figcaption>
          <blockquote>
            <p>{q.mensajeDistribuidora}</p>
          </blockquote>
        </figure>
      )}
    </section>
  );
}
