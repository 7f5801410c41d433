/**
 * The dashboard's "Lo que le espera" (docs/decisions/024-panel-de-inicio.md): GET /api/inicio/resumen
 * laid out as each supply point's consumption and one notice per thing that awaits the user, each
 * with a link to its screen. What to show and every text come from src/lib/inicio/resumen.ts. Loaded
 * apart from the dashboard (React.lazy), so the private area's first load stays within its budget;
 * a failed call leaves the rest of the dashboard as it is and offers a retry.
 */
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { apiFetch } from '../../../lib/api/cliente.ts';
import { FECHAS } from '../../../lib/inicio/fechas.ts';
import type { ResumenInicio as Resumen } from '../../../lib/inicio/respuestas.ts';
import { avisosDe, hayAlgo, NADA_PENDIENTE, PALABRA_NIVEL, tarjetasConsumo, type NivelAviso } from '../../../lib/inicio/resumen.ts';
import { numero } from '../../../lib/formato/numeros.ts';
import { ruta } from '../../../lib/privado/rutas-app.ts';
import { ErrorCarga } from '../medidas/comun.tsx';
import './inicio.css';
import { urlApi } from '../../../lib/api/rutas.ts';

type Carga = { fase: 'cargando' } | { fase: 'lista'; datos: Resumen } | { fase: 'error'; mensaje: string };

/** The box tone of each level (src/styles/bloques.css); the level's word is always written too. */
const TONO: Readonly<Record<NivelAviso, string>> = {
  importante: 'priv-aviso--error',
  pendiente: 'priv-aviso--warning',
  novedad: 'priv-aviso--info',
  info: 'priv-aviso--info',
};

/** The summary of the signed-in user; `espera` is the dashboard's loading line, shown until the answer. */
export default function ResumenInicio({ espera }: { espera: ReactNode }) {
  const [carga, setCarga] = useState<Carga>({ fase: 'cargando' });
  const [intento, setIntento] = useState(0);
  useEffect(() => {
    const peticion = new AbortController();
    setCarga({ fase: 'cargando' });
    void apiFetch<Resumen>(urlApi('/inicio/resumen'), { signal: peticion.signal }).then((r) => {
      if (peticion.signal.aborted) return;
      setCarga(r.ok ? { fase: 'lista', datos: r.datos } : { fase: 'error', mensaje: r.error.mensaje });
    });
    return () => peticion.abort();
  }, [intento]);
  const reintentar = useCallback(() => setIntento((n) => n + 1), []);
  const datos = carga.fase === 'lista' ? carga.datos : null;
  const avisos = useMemo(() => (datos ? avisosDe(datos, FECHAS) : []), [datos]);
  const tarjetas = useMemo(() => (datos ? tarjetasConsumo(datos, FECHAS) : []), [datos]);

  if (carga.fase === 'cargando') return espera;
  if (carga.fase === 'error') return <ErrorCarga que="su resumen" mensaje={carga.mensaje} reintentar={reintentar} />;
  const r = carga.datos;
  if (!hayAlgo(r, avisos)) return <p className="ini-nada">{NADA_PENDIENTE}</p>;
  const resto = (r.consumidor?.totalSuministros ?? 0) - tarjetas.length;
  return (
    <>
      {avisos.length > 0 && (
        <>
          <h3 className="ini-subtitulo" id="ini-avisos">
            {avisos.length === 1 ? 'Un aviso para usted' : `${numero(avisos.length)} avisos para usted`}
          </h3>
          <ul className="ini-avisos" aria-labelledby="ini-avisos">
            {avisos.map((a) => (
              <li key={a.clave} className={`priv-aviso ${TONO[a.nivel]} ini-aviso`}>
                <h4>
                  <span className="ini-nivel">{PALABRA_NIVEL[a.nivel]}:</span> {a.titulo}
                </h4>
                {a.detalle && <p>{a.detalle}</p>}
                <p>
                  <a href={a.enlace.href}>{a.enlace.texto}</a>
                </p>
              </li>
            ))}
          </ul>
        </>
      )}
      {tarjetas.length > 0 && (
        <>
          <h3 className="ini-subtitulo" id="ini-consumos">
            Consumo de sus suministros
          </h3>
          <ul className="ini-consumos" aria-labelledby="ini-consumos">
            {tarjetas.map((t) => (
              <li key={t.cups} className="ini-consumo">
                <h4>{t.direccion}</h4>
                <p className="ini-cups">CUPS {t.cups}</p>
                <dl>
                  <div>
                    <dt>{t.etiquetaAyer}</dt>
                    <dd>{t.ayer}</dd>
                  </div>
                  <div>
                    <dt>{t.etiquetaMes}</dt>
                    <dd>
                      {t.mes}
                      {t.comparacion && <span className="ini-comparacion">{t.comparacion}</span>}
                    </dd>
                  </div>
                  {t.lectura && (
                    <div>
                      <dt>Próxima lectura</dt>
                      <dd>{t.lectura}</dd>
                    </div>
                  )}
                </dl>
                <p>
                  <a href={t.enlace.href}>{t.enlace.texto}</a>
                </p>
              </li>
            ))}
          </ul>
          {resto > 0 && (
            <p>
              Tiene {numero(resto)} {resto === 1 ? 'suministro más' : 'suministros más'}:{' '}
              <a href={ruta('suministros').patron}>ver todos sus suministros</a>.
            </p>
          )}
        </>
      )}
    </>
  );
}
