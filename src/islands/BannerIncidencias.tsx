/**
 * The home page's network interruptions banner (docs/producto.md §1, §4, §9): one coloured sentence and a link
 * to the detail page. Hydrated with `client:idle`; the box is sized for its longest sentence from the
 * first paint, so loading, answer and failure never shift the page.
 */
import { useEffect, useState } from 'react';
import { resumenBannerIncidencias, type NivelBanner } from '../lib/incidencias/banner.ts';
import './BannerIncidencias.css';
import { urlApi } from '../lib/api/rutas.ts';

/** What the box shows: the question in flight, the answer, or the failure. */
type Estado = { fase: 'cargando' } | { fase: 'error' } | { fase: 'listo'; nivel: NivelBanner; texto: string };

/** A word before the sentence, so the three colours can be told apart without seeing colour. */
const PREFIJO: Record<NivelBanner, string> = { azul: 'Información:', amarillo: 'Aviso:', rojo: 'Atención:' };

const TEXTO_CARGANDO = 'Consultando el estado de la red…';
const TEXTO_ERROR = 'No se ha podido consultar el estado de la red. Inténtelo más tarde.';

/** Fetches the open incidents and shows their summary; the state tells the banner its colour. */
export default function BannerIncidencias() {
  const [estado, setEstado] = useState<Estado>({ fase: 'cargando' });

  useEffect(() => {
    const peticion = new AbortController();
    fetch(urlApi('/incidenciasRed'), { headers: { Accept: 'application/json' }, signal: peticion.signal })
      .then(async (res) => {
        // docs/producto.md §7: the list is read only from a 200.
        if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
        const lista: unknown = await res.json();
        if (!Array.isArray(lista)) throw new Error('respuesta inesperada');
        setEstado({ fase: 'listo', ...resumenBannerIncidencias(lista as { estadoIncidenciaRed: string }[]) });
      })
      .catch(() => {
        if (!peticion.signal.aborted) setEstado({ fase: 'error' });
      });
    return () => peticion.abort();
  }, []);

  const nivel = estado.fase === 'listo' ? estado.nivel : estado.fase;
  return (
    <div className="banner-incidencias" data-nivel={nivel}>
      <div className="banner-incidencias__mensaje">
        <Icono nivel={nivel} />
        <div className="banner-incidencias__texto" role="status" aria-live="polite">
          {estado.fase === 'cargando' && TEXTO_CARGANDO}
          {estado.fase === 'error' && TEXTO_ERROR}
          {estado.fase === 'listo' && (
            <>
              <strong>{PREFIJO[estado.nivel]}</strong> {estado.texto}
            </>
          )}
        </div>
        {/* The longest sentences, invisible in the same cell: the box is as tall as the tallest state at any width. */}
        <div className="banner-incidencias__reserva" aria-hidden="true">
          <strong>{PREFIJO.azul}</strong> {resumenBannerIncidencias([]).texto}
        </div>
        <div className="banner-incidencias__reserva" aria-hidden="true">
          {TEXTO_ERROR}
        </div>
      </div>
      {/* On a blackout day the visitor's first question is "why have I no power?": the answer page sits next to the detail. */}
      <p className="banner-incidencias__enlaces">
        <a className="banner-incidencias__enlace" href="/incidencias-red">
          Ver detalle<span className="visually-hidden"> de las interrupciones de la red</span>
          <span aria-hidden="true"> →</span>
        </a>
        <a className="banner-incidencias__enlace" href="/no-tengo-luz">
          ¿No tiene luz?<span className="visually-hidden"> Consulte la causa o avise de una avería</span>
          <span aria-hidden="true"> →</span>
        </a>
      </p>
    </div>
  );
}

/** A shape per state (check, clock, warning), drawn in the text colour; decorative. */
function Icono({ nivel }: { nivel: NivelBanner | 'cargando' | 'error' }) {
  return (
    <svg className="banner-incidencias__icono" viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
      {nivel === 'azul' && (
        <>
          <circle cx="12" cy="12" r="10" fill="none" stroke="currentColor" strokeWidth="2" />
          <path d="m7.5 12.5 3 3 6-7" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round" />
        </>
      )}
      {nivel === 'amarillo' && (
        <>
          <circle cx="12" cy="12" r="10" fill="none" stroke="currentColor" strokeWidth="2" />
          <path d="M12 6.5V12l3.5 2.5" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round" />
        </>
      )}
      {nivel === 'rojo' && (
        <>
          <path d="M12 2.8 22 20.5H2Z" fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round" />
          <path d="M12 9v5.5" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
          <circle cx="12" cy="17.6" r="1.3" fill="currentColor" />
        </>
      )}
      {nivel === 'cargando' && <circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" strokeWidth="2" strokeDasharray="3 3" />}
      {nivel === 'error' && (
        <>
          <circle cx="12" cy="12" r="10" fill="none" stroke="currentColor" strokeWidth="2" />
          <path d="M12 7v6" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
          <circle cx="12" cy="16.6" r="1.3" fill="currentColor" />
        </>
      )}
    </svg>
  );
}
