/**
 * Pieces of the access and connection screens: the form's fields (built on the shared form pieces of
 * src/islands/comunes/formulario: label, hint, error and the ids that tie them), the error summary
 * grouped by section, the turn and deadline badges, and the documents of a case: upload with
 * progress, list with download and removal.
 */
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { atom } from 'nanostores';
import { apiFetch, MENSAJE_SIN_CONEXION, textoDelCuerpo } from '../../../lib/api/cliente.ts';
import {
  ACEPTA_DOCUMENTO,
  apiDocumento,
  apiSubida,
  etiquetaClase,
  problemaFichero,
  textoFichero,
  textoTurno,
  type SeccionFaltas,
  type TextoPlazo,
} from '../../../lib/accesoyconexion/pantalla.ts';
import type { SolicitudDetalle } from '../../../lib/accesoyconexion/respuestas.ts';
import type { ClaseDocumento } from '../../../lib/expedientes/documentos.ts';
import { descargarDeApi, guardarBlob, tamanoLegible, type DependenciasDescarga } from '../../../lib/medidas/pantalla/descarga.ts';
import { $session, logout } from '../../../lib/sesion/index.ts';
import { CabeceraCampo } from '../../comunes/formulario/CabeceraCampo.tsx';
import { atributosControl, claseCampo, describedBy, idError, textosCampo, type PropsCampoBase } from '../../comunes/formulario/campo.ts';
import { EnlaceCampo } from '../../comunes/formulario/EnlaceCampo.tsx';
import './accesoyconexion.css';

/** A message for the list screen, left by a screen that navigates there (a draft deleted). */
export const $avisoSolicitudes = atom<string | null>(null);

/** What a document of a case looks like in a detail. */
export type Documento = SolicitudDetalle['documentos'][number];

// ---------------------------------------------------------------------------------------------
// Fields
// ---------------------------------------------------------------------------------------------

/** Props of `Entrada`. */
export interface EntradaProps extends PropsCampoBase {
  valor: string;
  alCambiar: (valor: string) => void;
  tipo?: 'text' | 'tel' | 'date';
  inputMode?: 'text' | 'numeric' | 'decimal' | 'tel';
  /** autocomplete token; off unless told (most of the form is about a site, not about the user). */
  autoComplete?: string;
  max?: number;
  /** Width of the input: short (a postal code, a power) or the column's. */
  corto?: boolean;
  /** Upper-case letters on phones (NIF, cadastral reference). */
  mayusculas?: boolean;
}

/**
 * A labelled input (the `admin-campo` block): the label names it, the hint and the error are read
 * with it, `aria-invalid` while wrong. "(opcional)" goes in the label of the few optional fields.
 */
export function Entrada(p: EntradaProps) {
  const t = textosCampo(p);
  return (
    <div className={claseCampo('admin-campo', { error: p.error, clase: p.corto ? 'ac-campo--corto' : undefined })}>
      <CabeceraCampo id={p.id} etiqueta={p.etiqueta} error={p.error} textos={t} bloque="admin-campo" />
      <input
        {...atributosControl(p, t)}
        type={p.tipo ?? 'text'}
        value={p.valor}
        onChange={(e) => p.alCambiar(e.target.value)}
        inputMode={p.inputMode}
        autoComplete={p.autoComplete ?? 'off'}
        autoCapitalize={p.mayusculas ? 'characters' : undefined}
        spellCheck={false}
        maxLength={p.max}
      />
    </div>
  );
}

/** Props of `Seleccion`. */
export interface SeleccionProps extends PropsCampoBase {
  valor: string;
  alCambiar: (valor: string) => void;
  /** The text of the empty first option ("Elija…"). */
  vacio: string;
  /** Plain options, or groups of options (`optgroup`). */
  opciones:
    readonly { valor: string; texto: string }[] | readonly { grupo: string; opciones: readonly { valor: string; texto: string }[] }[];
}

/** A labelled select with an empty first option. */
export function Seleccion(p: SeleccionProps) {
  const t = textosCampo(p);
  return (
    <div className={claseCampo('admin-campo', { error: p.error })}>
      <CabeceraCampo id={p.id} etiqueta={p.etiqueta} error={p.error} textos={t} bloque="admin-campo" />
      <select {...atributosControl(p, t)} value={p.valor} onChange={(e) => p.alCambiar(e.target.value)}>
        <option value="">{p.vacio}</option>
        {p.opciones.map((o) =>
          'grupo' in o ? (
            <optgroup key={o.grupo} label={o.grupo}>
              {o.opciones.map((x) => (
                <option key={x.valor} value={x.valor}>
                  {x.texto}
                </option>
              ))}
            </optgroup>
          ) : (
            <option key={o.valor} value={o.valor}>
              {o.texto}
            </option>
          ),
        )}
      </select>
    </div>
  );
}

/** Props of `Opciones`. */
export interface OpcionesProps<T extends string> {
  /** id of the first radio button (the error summary's link focuses it); the others add `-<valor>`. */
  id: string;
  leyenda: string;
  ayuda?: ReactNode;
  opciones: readonly { valor: T; texto: string }[];
  valor: T | '';
  alCambiar: (v: T) => void;
  error?: string | undefined;
}

/**
 * A group of radio buttons: a fieldset named by its legend and described by its hint and error,
 * each button labelled by its text (the `mod-grupo` block of the contractual modifications form).
 */
export function Opciones<T extends string>(p: OpcionesProps<T>) {
  const idAyuda = p.ayuda ? `${p.id}-grupo-ayuda` : undefined;
  const err = p.error ? idError(`${p.id}-grupo`) : undefined;
  return (
    <fieldset className={`mod-grupo${p.error ? ' admin-campo--error' : ''}`} aria-describedby={describedBy(idAyuda, err)}>
      <legend>{p.leyenda}</legend>
      {p.ayuda && (
        <p id={idAyuda} className="admin-campo__ayuda">
          {p.ayuda}
        </p>
      )}
      {p.error && (
        <p id={err} className="admin-campo__error">
          <span className="visually-hidden">Error: </span>
          {p.error}
        </p>
      )}
      <div className="mod-opciones">
        {p.opciones.map((o, i) => (
          <label key={o.valor} className="mod-opcion">
            <input
              id={i === 0 ? p.id : `${p.id}-${o.valor}`}
              type="radio"
              name={p.id}
              value={o.valor}
              checked={p.valor === o.valor}
              onChange={() => p.alCambiar(o.valor)}
              aria-invalid={p.error ? true : undefined}
            />
            {o.texto}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** Props of `AreaTexto`. */
export interface AreaTextoProps extends PropsCampoBase {
  valor: string;
  alCambiar: (valor: string) => void;
  max: number;
  filas?: number;
}

/** A labelled textarea with a character counter. */
export function AreaTexto(p: AreaTextoProps) {
  const t = textosCampo(p);
  const usados = p.valor.length;
  return (
    <div className={claseCampo('admin-campo', { error: p.error })}>
      <CabeceraCampo id={p.id} etiqueta={p.etiqueta} error={p.error} textos={t} bloque="admin-campo" />
      <textarea {...atributosControl(p, t)} value={p.valor} rows={p.filas ?? 4} onChange={(e) => p.alCambiar(e.target.value)} />
      <p className={`admin-campo__contador${usados > p.max ? ' admin-campo__contador--excedido' : ''}`}>
        {usados} de {p.max} caracteres
      </p>
    </div>
  );
}

/** Props of `ResumenFaltas`. */
export interface ResumenFaltasProps {
  titulo: string;
  secciones: readonly SeccionFaltas[];
  /** Grows on every failed attempt: focus moves to the summary each time (not while the user fixes things). */
  intento: number;
}

/**
 * The error summary of `ResumenErrores` (src/islands/comunes/formulario), grouped by the form's
 * sections: a `group` named by its heading that takes focus after each failed attempt, one list per
 * section under the section's name, each entry a link that focuses its field (`EnlaceCampo`).
 */
export function ResumenFaltas({ titulo, secciones, intento }: ResumenFaltasProps) {
  const idTitulo = useId();
  const caja = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (intento > 0) caja.current?.focus();
    // Only `intento`: focus moves on an attempt, not while the list shrinks as the user fixes things.
  }, [intento]);
  if (secciones.length === 0) return null;
  return (
    <div ref={caja} className="resumen-errores ac-resumen" tabIndex={-1} role="group" aria-labelledby={idTitulo}>
      <h2 id={idTitulo} className="resumen-errores__titulo">
        {titulo}
      </h2>
      {secciones.map((s) => (
        <div key={s.seccion} className="ac-resumen__seccion">
          <h3 id={`${idTitulo}-${s.seccion}`}>{s.titulo}</h3>
          <ul aria-labelledby={`${idTitulo}-${s.seccion}`}>
            {s.errores.map((e, i) => (
              <li key={`${e.campo}-${i}`}>
                <EnlaceCampo campo={e.campo}>{e.mensaje}</EnlaceCampo>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </div>
  );
}

// ---------------------------------------------------------------------------------------------
// Badges
// ---------------------------------------------------------------------------------------------

/** Whose turn it is, as a badge; the words say it, the colour only repeats them. */
export function EtiquetaTurno({ turno }: { turno: SolicitudDetalle['turno'] }) {
  const clase = turno === null ? 'cerrada' : turno === 'solicitante' ? 'usted' : 'distribuidora';
  return <span className={`ac-etiqueta ac-etiqueta--${clase}`}>{textoTurno(turno)}</span>;
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
            <span className="ac-etiqueta ac-etiqueta--vencido">
              <span aria-hidden="true">! </span>Vencido
            </span>
          </>
        )}
      </>
    );
  }
  return (
    <span className={plazo.vencido ? 'ac-plazo ac-plazo--vencido' : 'ac-plazo'}>
      {plazo.vencido && (
        <span className="ac-etiqueta ac-etiqueta--vencido">
          <span aria-hidden="true">! </span>Vencido
        </span>
      )}{' '}
      {plazo.texto}
    </span>
  );
}

// ---------------------------------------------------------------------------------------------
// Documents
// ---------------------------------------------------------------------------------------------

const DESCARGA: DependenciasDescarga = {
  fetch: (entrada, init) => globalThis.fetch(entrada, init),
  token: () => $session.get()?.jwtToken ?? null,
  cerrarSesion: () => logout(),
};

/** What an upload answers: the document, or the API's Spanish message. */
type ResultadoSubida = { ok: true } | { ok: false; mensaje: string };

/**
 * Sends a file as the raw body with XMLHttpRequest, the only browser API that reports an upload's
 * progress (as the SIPS register upload does), with the session's token.
 */
function subir(
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
      if (xhr.status >= 200 && xhr.status < 300) {
        resolve({ ok: true });
        return;
      }
      if ((xhr.status === 401 || xhr.status === 403) && token) logout();
      let mensaje = `El portal ha respondido ${xhr.status}.`;
      try {
        // `{message}`, or the list of messages of a validation 400 (the file's name).
        mensaje = textoDelCuerpo(JSON.parse(xhr.responseText)) ?? mensaje;
      } catch {
        // A proxy's page: the status says enough.
      }
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
  /** Label of the file input; the class's name unless told. */
  etiqueta?: string;
  ayuda?: ReactNode;
  /** "(opcional)" after the label. */
  opcional?: boolean;
  /** The documents of this class not sent yet. */
  documentos: readonly Documento[];
  /** What the form's check says of this class (missing). */
  error?: string | undefined;
  /** A document was added or removed: reload the case. */
  alCambiar: () => Promise<void> | void;
}

/**
 * The upload of one class of document: a file input that sends the file as soon as it is chosen,
 * with the bytes sent in a progress bar and a polite status line, the API's message beside the field
 * when it refuses the file, and the pending documents of the class with their removal.
 */
export function SubidaDocumento(p: SubidaDocumentoProps) {
  const id = `ac-doc-${p.clase}`;
  const entrada = useRef<HTMLInputElement>(null);
  const [estado, setEstado] = useState<EstadoSubida>({ fase: 'libre' });
  const [problema, setProblema] = useState<string | null>(null);
  const etiqueta = `${p.etiqueta ?? etiquetaClase(p.clase)}${p.opcional ? ' (opcional)' : ''}`;
  const ayuda = (
    <>
      {p.ayuda}
      {p.ayuda ? ' ' : ''}PDF, JPEG o PNG de hasta 20 MB. El fichero se adjunta en cuanto lo elige.
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
    const r = await subir(p.expediente, p.clase, fichero, (enviados) =>
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
    <div className="ac-subida">
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
      <div id={idEstado} className="ac-subida__estado" role="status">
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
  /** Offers "Quitar" on the pending documents of the applicant, and what to do once one is removed. */
  alQuitar?: (d: Documento) => Promise<void> | void;
}

/**
 * Documents with their download (fetched with the session's token and handed to the browser as a
 * Blob, since a plain link cannot carry the token) and, for pending ones, their removal; one polite
 * status line says how each ended.
 */
export function ListaDocumentos({ expediente, documentos, etiqueta, conClase = true, alQuitar }: ListaDocumentosProps) {
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
    <div className="ac-documentos">
      <ul className="ac-documentos__lista" aria-label={etiqueta}>
        {documentos.map((d) => (
          <li key={d.id} className="ac-documento">
            <button
              type="button"
              className="ac-enlace-boton"
              aria-disabled={ocupado !== null || undefined}
              aria-busy={ocupado === d.id || undefined}
              onClick={() => void bajar(d)}
            >
              <span className="ac-icono-documento" aria-hidden="true"></span>
              {conClase && <span className="ac-documento__clase">{etiquetaClase(d.clase)}: </span>}
              <span className="ac-documento__nombre">{d.nombre}</span>
              <span className="visually-hidden"> (descargar)</span>
            </button>{' '}
            <span className="ac-documento__tamano">({textoFichero(d)})</span>
            {alQuitar && d.pendiente && d.lado === 'solicitante' && (
              <button
                type="button"
                className="med-boton-fila ac-documento__quitar"
                aria-disabled={ocupado !== null || undefined}
                onClick={() => void quitar(d)}
              >
                Quitar<span className="visually-hidden"> {d.nombre}</span>
              </button>
            )}
          </li>
        ))}
      </ul>
      <p className={`ac-documentos__estado${estado?.error ? ' med-error-linea' : ''}`} role="status">
        {estado?.texto}
      </p>
    </div>
  );
}
