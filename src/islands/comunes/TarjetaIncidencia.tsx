/**
 * An interruption as a card (where, state, what, when, how many customers), shared by the public
 * interruptions page and the private "Interrupciones en mis suministros" screen, so both show an
 * incident the same way. The state is a word with its own icon, never colour alone.
 */
import type { ReactNode } from 'react';
import type { EstadoIncidenciaRed, IncidenciaRedPublica } from '../../lib/incidencias/banner.ts';
import { Dato } from './Dato.tsx';
import './tarjeta-incidencia.css';
import { numero } from '../../lib/formato/numeros.ts';

/** Dates as people in Spain read them, in peninsular time whatever the visitor's zone. */
const FECHA = new Intl.DateTimeFormat('es-ES', { timeZone: 'Europe/Madrid', dateStyle: 'medium', timeStyle: 'short' });

/** Cards of incidents; `nivel` is the heading level that fits where the list sits. */
export function ListaTarjetas({
  incidencias,
  nivel,
  conDistribuidora = false,
  nota,
}: {
  incidencias: readonly IncidenciaRedPublica[];
  nivel: 3 | 4;
  conDistribuidora?: boolean;
  /** Extra lines under a card's data (why it concerns the reader, say). */
  nota?: (i: IncidenciaRedPublica) => ReactNode;
}) {
  return (
    <ul className="tarjetas-incidencia" role="list">
      {incidencias.map((i) => (
        <li key={i.id}>
          <Tarjeta incidencia={i} nivel={nivel} conDistribuidora={conDistribuidora} nota={nota?.(i)} />
        </li>
      ))}
    </ul>
  );
}

/** One interruption: where, state, what, when and how many customers. */
function Tarjeta({
  incidencia: i,
  nivel,
  conDistribuidora,
  nota,
}: {
  incidencia: IncidenciaRedPublica;
  nivel: 3 | 4;
  conDistribuidora: boolean;
  nota?: ReactNode;
}) {
  const Titulo = nivel === 3 ? 'h3' : 'h4';
  return (
    <article className="tarjeta" data-estado={i.estadoIncidenciaRed}>
      <div className="tarjeta__cabecera">
        <Titulo className="tarjeta__lugar">
          {i.municipio} <span className="tarjeta__provincia">({i.provincia})</span>
        </Titulo>
        <EstadoIncidencia estado={i.estadoIncidenciaRed} />
      </div>
      <p className="tarjeta__descripcion">{i.descripcion}</p>
      <dl className="tarjeta__datos">
        {conDistribuidora && <Dato t="Distribuidora">{i.distribuidoraNombre}</Dato>}
        <Dato t="Inicio">
          <time dateTime={i.inicio}>{FECHA.format(new Date(i.inicio))}</time>
        </Dato>
        <Dato t="Fin previsto">
          {i.finPrevisto ? <time dateTime={i.finPrevisto}>{FECHA.format(new Date(i.finPrevisto))}</time> : 'Pendiente de determinar'}
        </Dato>
        <Dato t="Clientes afectados">{i.clientesAfectados === null ? 'Sin estimar' : numero(i.clientesAfectados)}</Dato>
        {i.codigosPostales.length > 0 && <Dato t="Códigos postales">{i.codigosPostales.join(', ')}</Dato>}
      </dl>
      {nota}
    </article>
  );
}

/** The state as a label with its own icon, so it never depends on colour alone. */
function EstadoIncidencia({ estado }: { estado: EstadoIncidenciaRed }) {
  return (
    <p className="estado" data-estado={estado}>
      <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
        {estado === 'Programada' && (
          <>
            <rect x="1.5" y="2.5" width="13" height="12" rx="1.5" fill="none" stroke="currentColor" strokeWidth="1.5" />
            <path d="M1.5 6.5h13M5 1v3M11 1v3" stroke="currentColor" strokeWidth="1.5" />
          </>
        )}
        {estado === 'En curso' && (
          <path
            d="M10.5 1.5a4 4 0 0 0-3.8 5.3L1.5 12a1.8 1.8 0 0 0 2.5 2.5l5.2-5.2a4 4 0 0 0 5.3-3.8l-2.3 2.3-2.2-.5-.5-2.2Z"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.4"
            strokeLinejoin="round"
          />
        )}
        {estado === 'Activa' && <path d="M9.5 1 3 9h4.5L6.5 15 13 7H8.5Z" fill="currentColor" />}
      </svg>
      <span className="visually-hidden">Estado: </span>
      {estado}
    </p>
  );
}
