/**
 * The badges of a case (access and connection requests, queries, claims): whose turn it is, and a
 * deadline with "Vencido" said in words when it passed. The words say the state; the colour only
 * repeats it.
 */
import { textoTurno, type TextoPlazo } from '../../../lib/accesoyconexion/pantalla.ts';
import './expedientes.css';

type Lado = 'solicitante' | 'distribuidora';

/** Whose turn it is, as a badge, from the side of the person looking (the applicant unless told). */
export function EtiquetaTurno({ turno, lado = 'solicitante' }: { turno: Lado | null; lado?: Lado }) {
  const clase = turno === null ? 'cerrada' : turno === lado ? 'usted' : 'otro';
  return <span className={`exp-etiqueta exp-etiqueta--${clase}`}>{textoTurno(turno, lado)}</span>;
}

/** The "Vencido" badge. */
export function EtiquetaVencido() {
  return (
    <span className="exp-etiqueta exp-etiqueta--vencido">
      <span aria-hidden="true">! </span>Vencido
    </span>
  );
}

/** A deadline: its date, and "Vencido" in words and with a mark when it passed. */
export function Plazo({ plazo, corto = false }: { plazo: TextoPlazo | null; corto?: boolean }) {
  if (!plazo) return <>Sin plazo</>;
  if (corto) {
    return (
      <>
        <span className="med-nowrap">{plazo.fechaCorta}</span>
        {plazo.vencido && (
          <>
            {' '}
            <EtiquetaVencido />
          </>
        )}
      </>
    );
  }
  return (
    <span className={plazo.vencido ? 'exp-plazo exp-plazo--vencido' : 'exp-plazo'}>
      {plazo.vencido && <EtiquetaVencido />} {plazo.texto}
    </span>
  );
}
