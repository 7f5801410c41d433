/**
 * /avisos-corte/baja#<token>: stops the e-mail alerts of network interruptions of one supply point
 * (docs/decisions/025-avisos-de-corte.md). Opening the page changes nothing; one press of the button
 * POSTs the token from the address's fragment to /api/avisosCorte/baja and the answer is said here.
 */
import { useEffect, useRef, useState } from 'react';
import { apiFetch } from '../lib/api/cliente.ts';
import './BajaAvisosCorte.css';
import { urlApi } from '../lib/api/rutas.ts';

type Fase =
  | { tipo: 'leyendo' }
  | { tipo: 'sin-codigo' }
  | { tipo: 'pregunta'; token: string }
  | { tipo: 'enviando'; token: string }
  | { tipo: 'anulada' | 'ya_anulada'; municipio: string | null }
  | { tipo: 'error'; token: string; status: number; mensaje: string };

/** The token in the address's fragment (`#<token>`), or null. */
export function tokenDeBaja(hash: string): string | null {
  const t = hash.replace(/^#/, '').trim();
  return t ? t : null;
}

/** The page's island. */
export default function BajaAvisosCorte() {
  const [fase, setFase] = useState<Fase>({ tipo: 'leyendo' });
  const resultado = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const leer = () => {
      const token = tokenDeBaja(window.location.hash);
      setFase(token ? { tipo: 'pregunta', token } : { tipo: 'sin-codigo' });
    };
    leer();
    // A link pasted over this page's address only changes the fragment: read it again.
    window.addEventListener('hashchange', leer);
    return () => window.removeEventListener('hashchange', leer);
  }, []);

  useEffect(() => {
    if (fase.tipo === 'anulada' || fase.tipo === 'ya_anulada' || fase.tipo === 'error') resultado.current?.focus();
  }, [fase.tipo]);

  const confirmar = async () => {
    if (fase.tipo !== 'pregunta' && fase.tipo !== 'error') return;
    const { token } = fase;
    setFase({ tipo: 'enviando', token });
    const r = await apiFetch<{ estado: 'anulada' | 'ya_anulada'; municipio: string | null }>(urlApi('/avisosCorte/baja'), {
      method: 'POST',
      json: { token },
    });
    setFase(
      r.ok ? { tipo: r.datos.estado, municipio: r.datos.municipio } : { tipo: 'error', token, status: r.status, mensaje: r.error.mensaje },
    );
  };

  const deSuministro = (municipio: string | null) => (municipio ? `de su suministro de ${municipio}` : 'de ese suministro');

  return (
    <div className="baja-avisos">
      {fase.tipo === 'leyendo' && <p>Leyendo el enlace…</p>}
      {fase.tipo === 'sin-codigo' && (
        <div className="baja-avisos__caja alerta--warning">
          <p>
            <strong>El enlace está incompleto.</strong> Ábralo desde el botón o el enlace «dejar de recibir estos avisos» del correo, o
            copie la dirección completa, con lo que va detrás de #.
          </p>
          <p>
            También puede desactivar los avisos en <a href="/medidas/interrupciones">Mis interrupciones</a>, en el área privada.
          </p>
        </div>
      )}
      {(fase.tipo === 'pregunta' || fase.tipo === 'enviando' || fase.tipo === 'error') && (
        <div className="baja-avisos__pregunta">
          <p>Al confirmar, dejaremos de avisarle por correo de los cortes de luz programados y de las averías de ese suministro.</p>
          <button type="button" className="boton" aria-disabled={fase.tipo === 'enviando' || undefined} onClick={() => void confirmar()}>
            {fase.tipo === 'enviando' ? 'Desactivando…' : 'Dejar de recibir estos avisos'}
          </button>
        </div>
      )}
      <div ref={resultado} tabIndex={-1} aria-live="polite" className="baja-avisos__resultado">
        {fase.tipo === 'anulada' && (
          <div className="baja-avisos__caja alerta--success">
            <p>
              <strong>Hecho. Ya no recibirá avisos por correo de los cortes {deSuministro(fase.municipio)}.</strong>
            </p>
            <p>
              Si cambia de opinión, vuelva a activarlos en <a href="/medidas/interrupciones">Mis interrupciones</a>, en el área privada.
            </p>
          </div>
        )}
        {fase.tipo === 'ya_anulada' && (
          <div className="baja-avisos__caja alerta--info">
            <p>
              <strong>Estos avisos ya estaban desactivados:</strong> no recibirá más correos de cortes {deSuministro(fase.municipio)} por
              este enlace.
            </p>
            <p>
              Puede comprobarlo o activarlos de nuevo en <a href="/medidas/interrupciones">Mis interrupciones</a>, en el área privada.
            </p>
          </div>
        )}
        {fase.tipo === 'error' && (
          <div className="baja-avisos__caja alerta--error">
            <p>
              <strong>{fase.status === 404 ? 'No reconocemos este enlace.' : 'No se han podido desactivar los avisos.'}</strong>{' '}
              {fase.mensaje}
            </p>
          </div>
        )}
      </div>
    </div>
  );
}
