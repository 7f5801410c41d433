/**
 * Uploads and downloads of the FTP screen in progress, each with its bar (`role="progressbar"` with
 * `aria-valuenow` while the total is known) and a line that says how it ended. The bars are not
 * announced as they move; a polite live region says when each transfer ends.
 */
import { porcentaje, resultadoSubida, textoProgreso, type ElementoFtp, type ResultadoFtp } from '../../../lib/intercambio/pantalla.ts';

/** One upload or download. */
export interface Transferencia {
  id: number;
  tipo: 'subida' | 'descarga';
  nombre: string;
  /** Bytes done, and the total when known. */
  hechos: number;
  total: number | null;
  estado: 'esperando' | 'en-curso' | 'hecha' | 'error' | 'cancelada';
  /** How it ended, in words. */
  mensaje?: string;
  /** Stops it while it runs. */
  cancelar?: (() => void) | undefined;
}

const VERBO = { subida: 'Subida', descarga: 'Descarga' } as const;

/** The line under a transfer's name. */
function textoEstado(t: Transferencia): string {
  switch (t.estado) {
    case 'esperando':
      return 'En espera.';
    case 'en-curso':
      return textoProgreso(t.hechos, t.total);
    case 'hecha':
      return t.mensaje ?? `${VERBO[t.tipo]} completada.`;
    case 'cancelada':
      return t.mensaje ?? `${VERBO[t.tipo]} cancelada.`;
    case 'error':
      return t.mensaje ?? 'No se ha podido completar.';
  }
}

/** One transfer's bar: determinate while the total is known, else it only says the bytes so far. */
export function BarraProgreso({ t }: { t: Transferencia }) {
  const p = t.estado === 'hecha' ? 100 : porcentaje(t.hechos, t.total);
  const etiqueta = `${VERBO[t.tipo]} de ${t.nombre}`;
  return (
    <div
      className="ftp-barra"
      role="progressbar"
      aria-label={etiqueta}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={p ?? undefined}
      aria-valuetext={p === null ? textoProgreso(t.hechos, null) : `${p} %`}
    >
      <span className={`ftp-barra__relleno${p === null ? ' ftp-barra__relleno--indefinida' : ''}`} style={{ width: `${p ?? 100}%` }} />
    </div>
  );
}

/** Props of `Transferencias`. */
export interface TransferenciasProps {
  lista: readonly Transferencia[];
  /** Removes the finished ones. */
  alLimpiar: () => void;
}

/** The list of transfers of this visit; nothing when empty. */
export function Transferencias({ lista, alLimpiar }: TransferenciasProps) {
  const terminadas = lista.filter((t) => t.estado !== 'esperando' && t.estado !== 'en-curso');
  const ultima = terminadas.at(-1);
  return (
    <>
      {/* Announces each transfer that ends; always in the page so the first one is read too. */}
      <p className="visually-hidden" role="status">
        {ultima ? `${ultima.nombre}: ${textoEstado(ultima)}` : ''}
      </p>
      {lista.length > 0 && (
        <section className="ftp-transferencias" aria-labelledby="ftp-transferencias-titulo">
          <div className="ftp-transferencias__cabecera">
            <h3 id="ftp-transferencias-titulo">Subidas y descargas</h3>
            {terminadas.length > 0 && (
              <button type="button" className="priv-boton priv-boton--secundario ftp-boton-pequeno" onClick={alLimpiar}>
                Quitar las terminadas
              </button>
            )}
          </div>
          <ul>
            {lista.map((t) => (
              <li key={t.id} className={`ftp-transferencia ftp-transferencia--${t.estado}`}>
                <div className="ftp-transferencia__linea">
                  <span className="ftp-transferencia__nombre">
                    <span className="visually-hidden">{VERBO[t.tipo]}: </span>
                    <span aria-hidden="true" className="ftp-transferencia__sentido">
                      {t.tipo === 'subida' ? '↑' : '↓'}
                    </span>{' '}
                    {t.nombre}
                  </span>
                  {t.cancelar && (t.estado === 'en-curso' || t.estado === 'esperando') && (
                    <button type="button" className="priv-boton priv-boton--secundario ftp-boton-pequeno" onClick={t.cancelar}>
                      Cancelar<span className="visually-hidden"> {t.nombre}</span>
                    </button>
                  )}
                </div>
                {(t.estado === 'en-curso' || t.estado === 'hecha') && <BarraProgreso t={t} />}
                <p className="ftp-transferencia__estado">{textoEstado(t)}</p>
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}

/** How an upload ended: the exchange's answer, or cancelled by the user. */
export type FinSubida = ResultadoFtp<ElementoFtp> | 'cancelada';

/**
 * Uploads one file with PUT through XMLHttpRequest, the only browser API that reports upload
 * progress. Returns a function that aborts it.
 */
export function subirFichero(
  url: string,
  token: string | null,
  fichero: File,
  alProgresar: (hechos: number, total: number) => void,
  alTerminar: (r: FinSubida) => void,
): () => void {
  const xhr = new XMLHttpRequest();
  xhr.open('PUT', url);
  if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
  xhr.setRequestHeader('Content-Type', 'application/octet-stream');
  xhr.setRequestHeader('Accept', 'application/json');
  xhr.upload.onprogress = (e) => alProgresar(e.loaded, e.lengthComputable ? e.total : fichero.size);
  xhr.onload = () => alTerminar(resultadoSubida(xhr.status, xhr.responseText));
  xhr.onerror = () => alTerminar(resultadoSubida(0, ''));
  xhr.onabort = () => alTerminar('cancelada');
  xhr.send(fichero);
  return () => xhr.abort();
}
