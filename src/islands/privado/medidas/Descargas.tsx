/**
 * Download buttons for files the API streams (CSV and Excel of the curve). The file is
 * fetched with the session's token (src/lib/medidas/pantalla/descarga.ts), with a spinner and the
 * size received while it arrives, and saved under the name the server gives.
 */
import { useEffect, useRef, useState } from 'react';
import { descargarDeApi, guardarBlob, tamanoLegible, type DependenciasDescarga } from '../../../lib/medidas/pantalla/descarga.ts';
import { $session, logout } from '../../../lib/sesion/index.ts';

const DEPENDENCIAS: DependenciasDescarga = {
  fetch: (entrada, init) => globalThis.fetch(entrada, init),
  token: () => $session.get()?.jwtToken ?? null,
  cerrarSesion: () => logout(),
};

/** One file the user can download. */
export interface Fichero {
  /** Button text, e.g. "Descargar CSV". */
  texto: string;
  /** API path with its query. */
  ruta: string;
  /** Name when the server gives none. */
  nombre: string;
}

type Estado =
  | { fase: 'libre' }
  | { fase: 'bajando'; cual: number; bytes: number }
  | { fase: 'hecho'; nombre: string }
  | { fase: 'error'; mensaje: string };

/** The buttons and the status line under them. */
export function Descargas({ ficheros, nota }: { ficheros: Fichero[]; nota?: string }) {
  const [estado, setEstado] = useState<Estado>({ fase: 'libre' });
  const peticion = useRef<AbortController | null>(null);

  useEffect(() => () => peticion.current?.abort(), []);

  const bajar = async (i: number) => {
    const f = ficheros[i]!;
    peticion.current?.abort();
    const control = new AbortController();
    peticion.current = control;
    setEstado({ fase: 'bajando', cual: i, bytes: 0 });
    const r = await descargarDeApi(DEPENDENCIAS, f.ruta, f.nombre, {
      signal: control.signal,
      alProgresar: (bytes) => setEstado({ fase: 'bajando', cual: i, bytes }),
    });
    if (control.signal.aborted) return;
    if (r.ok) {
      guardarBlob(r.blob, r.nombre);
      setEstado({ fase: 'hecho', nombre: r.nombre });
    } else setEstado({ fase: 'error', mensaje: r.mensaje });
  };

  const bajando = estado.fase === 'bajando';
  return (
    <div className="med-descargas">
      <div className="med-descargas__botones">
        {ficheros.map((f, i) => (
          <button
            key={f.texto}
            type="button"
            className="priv-boton priv-boton--secundario med-boton-descarga"
            onClick={() => {
              // aria-disabled rather than disabled: the focused button keeps focus while the file arrives.
              if (!bajando) void bajar(i);
            }}
            aria-disabled={bajando || undefined}
            aria-describedby={nota ? 'med-descargas-nota' : undefined}
          >
            {bajando && estado.cual === i ? (
              <span className="priv-cargando__giro med-giro-boton" aria-hidden="true"></span>
            ) : (
              <span className="med-icono-descarga" aria-hidden="true"></span>
            )}
            {f.texto}
          </button>
        ))}
      </div>
      {nota && (
        <p id="med-descargas-nota" className="med-nota-linea">
          {nota}
        </p>
      )}
      <p className={`med-descargas__estado${estado.fase === 'error' ? ' med-descargas__estado--error' : ''}`} role="status">
        {estado.fase === 'bajando' && `Preparando el fichero… ${estado.bytes > 0 ? `${tamanoLegible(estado.bytes)} recibidos` : ''}`}
        {estado.fase === 'hecho' && `Fichero descargado: ${estado.nombre}`}
        {estado.fase === 'error' && `No se ha podido descargar: ${estado.mensaje}`}
      </p>
    </div>
  );
}
