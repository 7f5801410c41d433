/**
 * The documents of a case (docs/decisions/017), shared by access and connection requests, queries
 * and claims: the upload of a file as the raw body with its progress, the upload of one class of
 * document with its pending files, and a list of documents with download and removal. A document
 * uploaded is pending: it joins the next action its side takes, and until then it can be removed.
 */
import { useRef, useState, type ReactNode } from 'react';
import { apiFetch, MENSAJE_SIN_CONEXION, textoDelCuerpo } from '../../../lib/api/cliente.ts';
import {
  ACEPTA_DOCUMENTO,
  apiDocumento,
  apiSubida,
  etiquetaClase,
  problemaFichero,
  textoFichero,
} from '../../../lib/accesoyconexion/pantalla.ts';
import type { ClaseDocumento } from '../../../lib/expedientes/documentos.ts';
import { MAX_DOCUMENTOS_EXPEDIENTE } from '../../../lib/expedientes/limites.ts';
import { descargarDeApi, guardarBlob, tamanoLegible, type DependenciasDescarga } from '../../../lib/medidas/pantalla/descarga.ts';
import { $session, logout } from '../../../lib/sesion/index.ts';
import { CabeceraCampo } from '../../comunes/formulario/CabeceraCampo.tsx';
import { atributosControl, claseCampo, describedBy, textosCampo } from '../../comunes/formulario/campo.ts';
import './expedientes.css';

type Lado = 'solicitante' | 'distribuidora';

/** A document of a case as a detail lists it (the same shape for every procedure). */
export interface Documento {
  id: string;
  clase: string;
  nombre: string;
  tipoMime: string;
  bytes: number;
  lado: Lado;
  subidoEn: string;
  pendiente: boolean;
  eventoId: number | null;
}

const DESCARGA: DependenciasDescarga = {
  fetch: (entrada, init) => globalThis.fetch(entrada, init),
  token: () => $session.get()?.jwtToken ?? null,
  cerrarSesion: () => logout(),
};

/** What an upload answers: the document's id, or the API's Spanish message. */
export type ResultadoSubida = { ok: true; id: string | null } | { ok: false; mensaje: string };

/**
 * Sends a file as the raw body (POST /api/expedientes/{id}/documentos?clase=…&nombre=…) with
 * XMLHttpRequest, the only browser API that reports an upload's progress (as the SIPS register
 * upload does), with the session's token.
 */
export function subirDocumento(
  expediente: string,
  clase: ClaseDocumento,
  fichero: File,
  alProgresar: (enviados: number) => void,
): Promise<ResultadoSubida> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', apiSubida(expediente, clase, fichero.name));
    const token = $session.get()?.jwtToken;
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.setRequestHeader('Content-Type', 'application/octet-stream');
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (e) => alProgresar(e.loaded);
    xhr.onerror = () => resolve({ ok: false, mensaje: MENSAJE_SIN_CONEXION });
    xhr.onload = () => {
      let cuerpo: unknown = null;
      try {
        cuerpo = JSON.parse(xhr.responseText);
      } catch {
        // A proxy's page, or no body: the status says enough.
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        const id = (cuerpo as { id?: unknown } | null)?.id;
        resolve({ ok: true, id: typeof id === 'string' ? id : null });
        return;
      }
      if ((xhr.status === 401 || xhr.status === 403) && token) logout();
      // `{message}`, or the list of messages of a validation 400 (the file's name).
      let mensaje = textoDelCuerpo(cuerpo) ?? `El portal ha respondido ${xhr.status}.`;
      if (xhr.status === 413) mensaje = 'El fichero pasa de 20 MB. Redúzcalo o divídalo en varios.';
      resolve({ ok: false, mensaje });
    };
    xhr.send(fichero);
  });
}

type EstadoSubida =
  { fase: 'libre' } | { fase: 'subiendo'; nombre: string; enviados: number; total: number } | { fase: 'hecho'; texto: string };

/** Props of `SubidaDocumento`. */
export interface SubidaDocumentoProps {
  expediente: string;
  clase: ClaseDocumento;
  /** id of the file input (an error summary's link focuses it); `exp-doc-<clase>` unless told. */
  id?: string;
  /** Label of the file input; the class's name unless told. */
  etiqueta?: string;
  ayuda?: ReactNode;
  /** "(opcional)" after the label. */
  opcional?: boolean;
  /** The documents of this class not sent yet. */
  documentos: readonly Documento[];
  /** What the form's check says of this class (missing). */
  error?: string | undefined;
  /** The side uploading (the applicant unless told): its pending documents can be removed. */
  lado?: Lado;
  /** A document was added or removed: reload the case. */
  alCambiar: () => Promise<unknown> | void;
}

/**
 * The upload of one class of document: a file input that sends the file as soon as it is chosen,
 * with the bytes sent in a progress bar and a polite status line, the API's message beside the field
 * when it refuses the file, and the pending documents of the class with their removal.
 */
export function SubidaDocumento(p: SubidaDocumentoProps) {
  const id = p.id ?? `exp-doc-${p.clase}`;
  const entrada = useRef<HTMLInputElement>(null);
  const [estado, setEstado] = useState<EstadoSubida>({ fase: 'libre' });
  const [problema, setProblema] = useState<string | null>(null);
  const etiqueta = `${p.etiqueta ?? etiquetaClase(p.clase)}${p.opcional ? ' (opcional)' : ''}`;
  const ayuda = (
    <>
      {p.ayuda}
      {p.ayuda ? ' ' : ''}PDF, JPEG o PNG de hasta 20 MB; como mucho {MAX_DOCUMENTOS_EXPEDIENTE} documentos por expediente. El fichero se
      adjunta en cuanto lo elige.
    </>
  );
  const error = problema ?? (p.documentos.length === 0 ? p.error : undefined);
  const t = textosCampo({ id, ayuda, error });
  const idEstado = `${id}-estado`;

  const alElegir = async () => {
    const fichero = entrada.current?.files?.[0];
    if (!fichero || estado.fase === 'subiendo') return;
    const mal = problemaFichero(fichero);
    if (mal) {
      setProblema(`No se ha adjuntado «${fichero.name}»: ${mal}`);
      setEstado({ fase: 'libre' });
      if (entrada.current) entrada.current.value = '';
      return;
    }
    setProblema(null);
    setEstado({ fase: 'subiendo', nombre: fichero.name, enviados: 0, total: fichero.size });
    const r = await subirDocumento(p.expediente, p.clase, fichero, (enviados) =>
      setEstado({ fase: 'subiendo', nombre: fichero.name, enviados, total: fichero.size }),
    );
    if (entrada.current) entrada.current.value = '';
    if (!r.ok) {
      setProblema(`No se ha adjuntado «${fichero.name}»: ${r.mensaje}`);
      setEstado({ fase: 'libre' });
      return;
    }
    await p.alCambiar();
    setEstado({ fase: 'hecho', texto: `Adjuntado: ${fichero.name}.` });
  };

  return (
    <div className="exp-subida">
      <div className={claseCampo('admin-campo', { error })}>
        <CabeceraCampo id={id} etiqueta={etiqueta} error={error} textos={t} bloque="admin-campo" />
        <input
          ref={entrada}
          {...atributosControl({ id, error }, { describedBy: describedBy(t.describedBy, idEstado) })}
          type="file"
          accept={ACEPTA_DOCUMENTO}
          onChange={() => void alElegir()}
        />
      </div>
      <div id={idEstado} className="exp-subida__estado" role="status">
        {estado.fase === 'subiendo' && (
          <>
            <p>
              Enviando «{estado.nombre}»: {tamanoLegible(estado.enviados)} de {tamanoLegible(estado.total)}.
            </p>
            <progress value={estado.enviados} max={estado.total} aria-label={`Enviado de ${estado.nombre}`} />
          </>
        )}
        {estado.fase === 'hecho' && <p>{estado.texto}</p>}
      </div>
      {p.documentos.length > 0 && (
        <ListaDocumentos
          expediente={p.expediente}
          documentos={p.documentos}
          etiqueta={`${etiquetaClase(p.clase)}: documentos adjuntos`}
          conClase={false}
          lado={p.lado}
          alQuitar={async (d) => {
            await p.alCambiar();
            setEstado({ fase: 'hecho', texto: `Quitado: ${d.nombre}.` });
            entrada.current?.focus();
          }}
        />
      )}
    </div>
  );
}

/** Props of `ListaDocumentos`. */
export interface ListaDocumentosProps {
  expediente: string;
  documentos: readonly Documento[];
  /** Accessible name of the list. */
  etiqueta: string;
  /** Says each document's class before its name. */
  conClase?: boolean;
  /** The side looking (the applicant unless told): "Quitar" is offered on its pending documents. */
  lado?: Lado | undefined;
  /** Offers "Quitar" on the pending documents of the side looking, and what to do once one is removed. */
  alQuitar?: ((d: Documento) => Promise<void> | void) | undefined;
}

/**
 * Documents with their download (fetched with the session's token and handed to the browser as a
 * Blob, since a plain link cannot carry the token) and, for pending ones, their removal; one polite
 * status line says how each ended.
 */
export function ListaDocumentos({
  expediente,
  documentos,
  etiqueta,
  conClase = true,
  lado = 'solicitante',
  alQuitar,
}: ListaDocumentosProps) {
  const [estado, setEstado] = useState<{ texto: string; error: boolean } | null>(null);
  const [ocupado, setOcupado] = useState<string | null>(null);

  const bajar = async (d: Documento) => {
    if (ocupado) return;
    setOcupado(d.id);
    setEstado({ texto: `Descargando «${d.nombre}»…`, error: false });
    const r = await descargarDeApi(DESCARGA, apiDocumento(expediente, d.id), d.nombre);
    setOcupado(null);
    if (r.ok) {
      guardarBlob(r.blob, r.nombre);
      setEstado({ texto: `Descargado: ${r.nombre}.`, error: false });
    } else setEstado({ texto: `No se ha podido descargar «${d.nombre}»: ${r.mensaje}`, error: true });
  };

  const quitar = async (d: Documento) => {
    if (ocupado || !alQuitar) return;
    setOcupado(d.id);
    const r = await apiFetch(apiDocumento(expediente, d.id), { method: 'DELETE' });
    setOcupado(null);
    if (r.ok) await alQuitar(d);
    else setEstado({ texto: `No se ha podido quitar «${d.nombre}»: ${r.error.mensaje}`, error: true });
  };

  return (
    <div className="exp-documentos">
      <ul className="exp-documentos__lista" aria-label={etiqueta}>
        {documentos.map((d) => (
          <li key={d.id} className="exp-documento">
            <button
              type="button"
              className="exp-enlace-boton"
              aria-disabled={ocupado !== null || undefined}
              aria-busy={ocupado === d.id || undefined}
              onClick={() => void bajar(d)}
            >
              <span className="exp-icono-documento" aria-hidden="true"></span>
              {conClase && <span className="exp-documento__clase">{etiquetaClase(d.clase)}: </span>}
              <span className="exp-documento__nombre">{d.nombre}</span>
              <span className="visually-hidden"> (descargar)</span>
            </button>{' '}
            <span className="exp-documento__tamano">({textoFichero(d)})</span>
            {alQuitar && d.pendiente && d.lado === lado && (
              <button
                type="button"
                className="med-boton-fila exp-documento__quitar"
                aria-disabled={ocupado !== null || undefined}
                onClick={() => void quitar(d)}
              >
                Quitar<span className="visually-hidden"> {d.nombre}</span>
              </button>
            )}
          </li>
        ))}
      </ul>
      <p className={`exp-documentos__estado${estado?.error ? ' med-error-linea' : ''}`} role="status">
        {estado?.texto}
      </p>
    </div>
  );
}
