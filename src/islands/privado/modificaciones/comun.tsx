/**
 * Pieces shared by the holder's and the administrator's screens of contractual modifications
 *: the state as a badge, the before/after table, the status timeline, and the loading of
 * one request by its API address.
 */
import { useCallback, useEffect, useState } from 'react';
import { formatearFechaHora } from '../../../lib/administracion/fechas.ts';
import { apiFetch } from '../../../lib/api/cliente.ts';
import { fechaSinDia } from '../../../lib/medidas/pantalla/formato.ts';
import { TEXTO_ESTADO, type EstadoSolicitud } from '../../../lib/modificaciones/estados.ts';
import { filasCambio } from '../../../lib/modificaciones/presentacion.ts';
import type { EventoApi, SolicitudApi } from '../../../lib/modificaciones/tipos.ts';
import { Dato } from '../../comunes/Dato.tsx';
import { Cups } from '../medidas/comun.tsx';
import './modificaciones.css';

/** A request's state as a coloured badge; the colour only repeats the word. */
export function EtiquetaEstado({ estado }: { estado: EstadoSolicitud }) {
  return <span className={`mod-estado mod-estado--${estado}`}>{TEXTO_ESTADO[estado]}</span>;
}

/** The supply point of a request, as rows of a data list. */
export function DatosSuministro({ s }: { s: Pick<SolicitudApi, 'direccion' | 'cups'> }) {
  return (
    <>
      <Dato t="Suministro">{s.direccion}</Dato>
      <Dato t="CUPS">
        <Cups cups={s.cups} />
      </Dato>
    </>
  );
}

/** When a request was made and activated, and why it was rejected, as rows of a data list. */
export function DatosResolucion({ s }: { s: Pick<SolicitudApi, 'creada' | 'fechaActivacion' | 'motivoRechazo'> }) {
  return (
    <>
      <Dato t="Presentada">{formatearFechaHora(s.creada)}</Dato>
      {s.fechaActivacion && <Dato t="Activada con fecha">{fechaSinDia(s.fechaActivacion)}</Dato>}
      {s.motivoRechazo && (
        <Dato t="Motivo del rechazo">
          {s.motivoRechazo.codigo} · {s.motivoRechazo.texto}
        </Dato>
      )}
    </>
  );
}

/** What a request changes: the contract before and what is asked, row by row. */
export function TablaCambio({ s, id }: { s: Pick<SolicitudApi, 'anterior' | 'solicitado'>; id: string }) {
  const filas = filasCambio(s.anterior, s.solicitado);
  return (
    <div className="med-tabla" role="region" aria-labelledby={id} tabIndex={0}>
      <table className="med-tabla__tabla mod-tabla-cambio">
        <caption id={id}>Qué cambia</caption>
        <thead>
          <tr>
            <th scope="col">Dato</th>
            <th scope="col">Antes</th>
            <th scope="col">Después</th>
          </tr>
        </thead>
        <tbody>
          {filas.map((f) => (
            <tr key={f.etiqueta} className={f.cambia ? 'mod-cambia' : undefined}>
              <th scope="row">{f.etiqueta}</th>
              <td>{f.antes}</td>
              <td>
                {f.despues}
                {f.cambia ? <span className="visually-hidden"> (cambia)</span> : <span className="mod-sin-cambio"> (sin cambio)</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The status timeline, oldest first: each state with its time in Madrid and its note. */
export function Historial({ eventos, etiqueta }: { eventos: readonly EventoApi[]; etiqueta: string }) {
  return (
    <ol className="mod-historial" aria-label={etiqueta}>
      {eventos.map((e, i) => (
        <li key={`${e.estado}-${i}`} className={`mod-historial__paso mod-historial__paso--${e.estado}`}>
          <span className="mod-historial__estado">{TEXTO_ESTADO[e.estado]}</span>{' '}
          <time dateTime={e.momento}>{formatearFechaHora(e.momento)}</time>
          {e.nota && <span className="mod-historial__nota">{e.nota}</span>}
        </li>
      ))}
    </ol>
  );
}

/** A request loading, shown, missing (404) or failed. */
export type CargaSolicitud<T> =
  { fase: 'cargando' } | { fase: 'lista'; datos: T } | { fase: 'no-existe'; mensaje: string } | { fase: 'error'; mensaje: string };

/** Loads one request from `url`, with a retry and a way to replace it with an action's answer. */
export function useSolicitud<T>(url: string): [CargaSolicitud<T>, () => void, (datos: T) => void] {
  const [carga, setCarga] = useState<CargaSolicitud<T>>({ fase: 'cargando' });
  const [intento, setIntento] = useState(0);
  useEffect(() => {
    const peticion = new AbortController();
    setCarga({ fase: 'cargando' });
    void apiFetch<T>(url, { signal: peticion.signal }).then((r) => {
      if (peticion.signal.aborted) return;
      if (r.ok) setCarga({ fase: 'lista', datos: r.datos });
      else setCarga({ fase: r.status === 404 ? 'no-existe' : 'error', mensaje: r.error.mensaje });
    });
    return () => peticion.abort();
  }, [url, intento]);
  return [carga, useCallback(() => setIntento((n) => n + 1), []), useCallback((datos: T) => setCarga({ fase: 'lista', datos }), [])];
}
