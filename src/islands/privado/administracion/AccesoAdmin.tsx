/**
 * /administrador/accesoyconexion/:id: one access and connection request (RD 1183/2020) seen from
 * the distributor's side: where it stands (step, whose turn, deadline and its rule, overdue), the
 * applicant's data by section, the timeline of both sides, the documents of both sides, and one
 * panel per action the step allows, each with its own fields, the server's checks run first in the
 * browser, the PDF the action sends uploaded first (with its progress), and a confirmation for the
 * actions that end the procedure. The server's Spanish errors stay beside the panel; after an action
 * the request shown is the server's answer, the result is announced and focus returns to its header.
 */
import { useEffect, useId, useRef, useState, type ReactNode, type RefObject, type SubmitEvent } from 'react';
import {
  ACCIONES_FINALES,
  accionesDeGestion,
  agruparDocumentos,
  CAMPOS_ACCION,
  comprobarAccion,
  detallesEvento,
  DOCUMENTO_ACCION,
  errorFicheroPdf,
  ETIQUETAS_CAMPO,
  eventosEnOrden,
  LADO_DOCUMENTO,
  LADO_EVENTO,
  MAX_CONDICIONES,
  MAX_MENSAJE,
  MAX_PUNTO_CONEXION,
  MENSAJE_OBLIGATORIO,
  mensajeHecho,
  seccionesDatos,
  textoClase,
  textoConfirmacion,
  textoPlazo,
  textoPresentada,
  TEXTOS_ACCION,
  turnoFrase,
  urlApiAccion,
  urlApiSolicitud,
  urlDocumento,
  urlSubidaDocumento,
  VALORES_VACIOS,
  type CampoAccion,
  type ValoresAccion,
} from '../../../lib/accesoyconexion/gestion.ts';
import { apiJustificante } from '../../../lib/accesoyconexion/pantalla.ts';
import { esFinal, MAX_SUBSANACIONES, MOTIVOS_DENEGACION, type AccionDistribuidora } from '../../../lib/accesoyconexion/procedimiento.ts';
import type { AccionBody, SolicitudDetalle } from '../../../lib/accesoyconexion/respuestas.ts';
import { formatearFechaHora, hoyMadrid } from '../../../lib/administracion/fechas.ts';
import { apiFetch, MENSAJE_SIN_CONEXION, textoDelCuerpo } from '../../../lib/api/cliente.ts';
import type { ClaseDocumento } from '../../../lib/expedientes/documentos.ts';
import { fechaSinDia } from '../../../lib/formato/fechas.ts';
import { descargarDeApi, guardarBlob, tamanoLegible, type DependenciasDescarga } from '../../../lib/medidas/pantalla/descarga.ts';
import { $session, logout } from '../../../lib/sesion/index.ts';
import { Dato } from '../../comunes/Dato.tsx';
import { Descargas } from '../medidas/Descargas.tsx';
import { CabeceraCampo } from '../../comunes/formulario/CabeceraCampo.tsx';
import { atributosControl, claseCampo, textosCampo, type PropsCampoBase } from '../../comunes/formulario/campo.ts';
import { ResumenErrores } from '../../comunes/formulario/ResumenErrores.tsx';
import { useErrores } from '../../comunes/formulario/usar-errores.ts';
import '../../sesion/sesion.css';
import type { PropsPantalla } from '../AppPrivada.tsx';
import { urlColaRecordada } from './AccesosAdmin.tsx';
import { AnuncioDePaso, Campo, CampoArea, CampoSelect, DetalleSinCargar } from './comun.tsx';
import { CabeceraCasoPersonal, ConfirmarAccion, PieDeAccion, useCasoDelPersonal, useEnvioDeAccion } from './accion-de-caso.tsx';
import './administracion.css';
import './accesos.css';

type Documento = SolicitudDetalle['documentos'][number];

const DESCARGAS: DependenciasDescarga = {
  fetch: (entrada, init) => globalThis.fetch(entrada, init),
  token: () => $session.get()?.jwtToken ?? null,
  cerrarSesion: () => logout(),
};

/* ------------------------------------------------------------------ Upload */

/** An upload under way, or its end. */
type EstadoSubida =
  | { fase: 'libre' }
  | { fase: 'subiendo'; enviados: number; total: number }
  | { fase: 'hecho'; nombre: string }
  | { fase: 'error'; mensaje: string };

/**
 * Sends a document's bytes with XMLHttpRequest, the only browser API that reports an upload's
 * progress (as the SIPS register upload does). Answers the server's Spanish message on failure.
 */
function subirDocumento(
  id: string,
  clase: ClaseDocumento,
  fichero: File,
  alProgresar: (enviados: number) => void,
): Promise<{ ok: true } | { ok: false; mensaje: string }> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', urlSubidaDocumento(id, clase, fichero.name));
    const token = $session.get()?.jwtToken;
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.setRequestHeader('Content-Type', 'application/octet-stream');
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (e) => alProgresar(e.loaded);
    xhr.onerror = () => resolve({ ok: false, mensaje: MENSAJE_SIN_CONEXION });
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) return resolve({ ok: true });
      if ((xhr.status === 401 || xhr.status === 403) && token) logout();
      let cuerpo: unknown = null;
      try {
        cuerpo = JSON.parse(xhr.responseText);
      } catch {
        // A proxy's page: the status says enough.
      }
      resolve({ ok: false, mensaje: textoDelCuerpo(cuerpo) ?? `El servidor ha respondido ${xhr.status}.` });
    };
    xhr.send(fichero);
  });
}

/** Props of `CampoFichero`. */
interface CampoFicheroProps extends PropsCampoBase {
  /** The input, so the owner reads and clears the file. */
  refInput: RefObject<HTMLInputElement | null>;
  /** A file was chosen (or the choice cleared). */
  alCambiar: () => void;
}

/** A labelled file input with hint and error, on the form components' accessibility contract. */
function CampoFichero(p: CampoFicheroProps) {
  const t = textosCampo(p);
  return (
    <div className={claseCampo('admin-campo', { ...p, clase: 'adm-acc-fichero' })}>
      <CabeceraCampo id={p.id} etiqueta={p.etiqueta} error={p.error} textos={t} bloque="admin-campo" obligatorio={p.requerido} />
      <input ref={p.refInput} {...atributosControl(p, t)} type="file" accept=".pdf,application/pdf" onChange={p.alCambiar} />
    </div>
  );
}

/* ------------------------------------------------------------------ Documents */

/** A document's download button, named by the file; the result goes to the section's status line. */
function BotonDescarga({ id, doc, alEstado }: { id: string; doc: Documento; alEstado: (texto: string) => void }) {
  const [bajando, setBajando] = useState(false);
  const bajar = async () => {
    if (bajando) return;
    setBajando(true);
    alEstado(`Descargando ${doc.nombre}…`);
    const r = await descargarDeApi(DESCARGAS, urlDocumento(id, doc.id), doc.nombre);
    setBajando(false);
    if (r.ok) {
      guardarBlob(r.blob, r.nombre);
      alEstado(`Descargado: ${r.nombre}.`);
    } else alEstado(`No se ha podido descargar ${doc.nombre}: ${r.mensaje}`);
  };
  return (
    <button
      type="button"
      className="admin-boton admin-boton--secundario admin-boton--pequeno"
      aria-busy={bajando || undefined}
      onClick={() => void bajar()}
    >
      Descargar<span className="visually-hidden"> {doc.nombre}</span>
    </button>
  );
}

/** One document: its class, name, size and date, and what the caller may do with it. */
function FilaDocumento({ doc, aportado, children }: { doc: Documento; aportado?: string | undefined; children: ReactNode }) {
  return (
    <li className="adm-acc-doc">
      <span className="adm-acc-doc__texto">
        <span className="adm-acc-doc__clase">{textoClase(doc.clase)}</span>
        {doc.nombre}
        <span className="adm-acc-doc__meta">
          {tamanoLegible(doc.bytes)} · subido el {formatearFechaHora(doc.subidoEn)}
          {aportado ? ` · ${aportado}` : ''}
        </span>
      </span>
      <span className="admin-acciones">{children}</span>
    </li>
  );
}

/** The documents of both sides that are part of the request, with their downloads. */
function Documentos({ s }: { s: SolicitudDetalle }) {
  const id = useId();
  const [estado, setEstado] = useState('');
  const { porLado } = agruparDocumentos(s.documentos);
  const eventos = new Map(s.eventos.map((e) => [e.id, e]));
  const aportado = (d: Documento) => {
    const e = d.eventoId !== null ? eventos.get(d.eventoId) : undefined;
    return e ? `con «${e.accionNombre}», ${formatearFechaHora(e.momento)}` : undefined;
  };
  return (
    <section className="admin-seccion" aria-labelledby={`${id}-titulo`}>
      <h2 id={`${id}-titulo`}>Documentos</h2>
      {(['solicitante', 'distribuidora'] as const).map((lado) => (
        <div key={lado}>
          <h3 id={`${id}-${lado}`} className="adm-acc-subtitulo">
            {LADO_DOCUMENTO[lado]}
          </h3>
          {porLado[lado].length === 0 ? (
            <p className="admin-nota">
              {lado === 'solicitante' ? 'El solicitante no ha aportado documentos.' : 'La distribuidora aún no ha enviado documentos.'}
            </p>
          ) : (
            <ul className="adm-acc-docs" aria-labelledby={`${id}-${lado}`}>
              {porLado[lado].map((d) => (
                <FilaDocumento key={d.id} doc={d} aportado={aportado(d)}>
                  <BotonDescarga id={s.id} doc={d} alEstado={setEstado} />
                </FilaDocumento>
              ))}
            </ul>
          )}
        </div>
      ))}
      <p role="status" className="admin-nota">
        {estado}
      </p>
    </section>
  );
}

/* ------------------------------------------------------------------ Timeline and data */

/** The steps of both sides, oldest first, with their messages, what they recorded and their documents. */
function Historial({ s }: { s: SolicitudDetalle }) {
  const id = useId();
  const { porEvento } = agruparDocumentos(s.documentos);
  const eventos = eventosEnOrden(s.eventos);
  return (
    <section className="admin-seccion" aria-labelledby={`${id}-titulo`}>
      <h2 id={`${id}-titulo`}>Historial</h2>
      {eventos.length === 0 ? (
        <p>Todavía no hay pasos.</p>
      ) : (
        <ol className="adm-acc-historial" aria-labelledby={`${id}-titulo`}>
          {eventos.map((e) => {
            const detalles = detallesEvento(e);
            const docs = porEvento.get(e.id) ?? [];
            return (
              <li key={e.id} className={`adm-acc-historial--${e.lado}`}>
                <h3>{e.accionNombre}</h3>
                <p className="adm-acc-historial__meta">
                  <time dateTime={e.momento}>{formatearFechaHora(e.momento)}</time> · {LADO_EVENTO[e.lado]}
                  {e.vence ? ` · plazo fijado hasta el ${fechaSinDia(e.vence)}` : ''}
                </p>
                {e.mensaje && (
                  <p className="adm-acc-historial__mensaje">
                    <span className="visually-hidden">Mensaje: </span>
                    {e.mensaje}
                  </p>
                )}
                {detalles.length > 0 && (
                  <dl className="admin-datos">
                    {detalles.map(([t, v]) => (
                      <Dato key={t} t={t}>
                        {v}
                      </Dato>
                    ))}
                  </dl>
                )}
                {docs.length > 0 && (
                  <p className="adm-acc-historial__meta">
                    {docs.length === 1 ? 'Documento: ' : 'Documentos: '}
                    {docs.map((d) => `${textoClase(d.clase)} (${d.nombre})`).join('; ')}.
                  </p>
                )}
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}

/** The applicant's data, read-only, by the form's sections. */
function DatosSolicitante({ s }: { s: SolicitudDetalle }) {
  const id = useId();
  return (
    <section className="admin-seccion" aria-labelledby={`${id}-titulo`}>
      <h2 id={`${id}-titulo`}>Datos del solicitante</h2>
      <div className="adm-acc-secciones">
        {seccionesDatos(s).map((sec) => (
          <div key={sec.clave}>
            <h3>{sec.titulo}</h3>
            <dl className="admin-datos">
              {sec.filas.map(([t, v]) => (
                <Dato key={t} t={t}>
                  {v}
                </Dato>
              ))}
            </dl>
            {sec.aviso && (
              <p className="adm-acc-aviso adm-acc-aviso--aviso">
                <strong>Capacidad del nudo: </strong>
                {sec.aviso}
              </p>
            )}
          </div>
        ))}
        {s.sinPermiso && <p className="admin-nota">{s.sinPermiso}</p>}
      </div>
    </section>
  );
}

/* ------------------------------------------------------------------ Actions */

/** Props of `PanelAccion`. */
interface PanelAccionProps {
  accion: AccionDistribuidora;
  s: SolicitudDetalle;
  /** The action was taken: the server's answer. */
  alHacer: (accion: AccionDistribuidora, detalle: SolicitudDetalle) => void;
  /** Shows the request as it is now after a refusal because it had moved on (a 409). */
  alActualizar: () => void;
  /** Loads the request again without leaving the screen (after an upload or a removal). */
  refrescar: () => Promise<boolean>;
}

/** One action's panel: its fields, its PDF when it sends one, the checks, the confirmation and the server's answer. */
function PanelAccion({ accion, s, alHacer, alActualizar, refrescar }: PanelAccionProps) {
  const id = useId();
  const textos = TEXTOS_ACCION[accion];
  const campos = CAMPOS_ACCION[accion];
  const clase = DOCUMENTO_ACCION[accion];
  const final = ACCIONES_FINALES.includes(accion);
  const confirmacion = textoConfirmacion(accion, s.referencia);
  const [valores, setValores] = useState<ValoresAccion>(VALORES_VACIOS);
  const envio = useEnvioDeAccion<AccionBody, SolicitudDetalle>(urlApiAccion(s.id, accion), (d) => alHacer(accion, d));
  // A control to focus once the request shown has been loaded again (after an upload or a removal).
  const [enfocar, setEnfocar] = useState<string | null>(null);
  const [subida, setSubida] = useState<EstadoSubida>({ fase: 'libre' });
  const [quitando, setQuitando] = useState(false);
  const fichero = useRef<HTMLInputElement>(null);
  const e = useErrores();
  const idDe = (c: CampoAccion) => `${id}-${c}`;
  const pendientes = clase ? agruparDocumentos(s.documentos).pendientes.filter((d) => d.clase === clase) : [];
  const error = (c: CampoAccion) => e.errorDe(idDe(c));
  const poner = (c: keyof ValoresAccion) => e.alCambiar(idDe(c), (v: string) => setValores((x) => ({ ...x, [c]: v })));

  const alEnviar = (ev: SubmitEvent<HTMLFormElement>) => {
    ev.preventDefault();
    if (envio.enviando) return;
    envio.limpiar();
    const r = comprobarAccion(accion, valores, { subsanaciones: s.subsanaciones, documentosPendientes: pendientes.length });
    if (!e.comprobar(r.ok ? [] : r.errores.map((x) => ({ campo: idDe(x.campo), mensaje: x.mensaje })))) return;
    if (!r.ok) return;
    envio.pedir(r.cuerpo, final);
  };

  const subir = async () => {
    if (!clase || subida.fase === 'subiendo') return;
    const f = fichero.current?.files?.[0] ?? null;
    const problema = errorFicheroPdf(f);
    if (problema || !f) {
      e.comprobar([{ campo: idDe('documento'), mensaje: problema ?? 'Elija el fichero PDF.' }]);
      return;
    }
    e.limpiar(idDe('documento'));
    setSubida({ fase: 'subiendo', enviados: 0, total: f.size });
    const r = await subirDocumento(s.id, clase, f, (enviados) => setSubida({ fase: 'subiendo', enviados, total: f.size }));
    if (!r.ok) {
      setSubida({ fase: 'error', mensaje: r.mensaje });
      return;
    }
    if (fichero.current) fichero.current.value = '';
    setSubida({ fase: 'hecho', nombre: f.name });
    await refrescar();
    // The input gives way to the uploaded file: the next field is where the user goes on.
    const siguiente = campos[campos.indexOf('documento') + 1];
    if (siguiente) setEnfocar(idDe(siguiente));
  };

  const quitar = async (doc: Documento) => {
    if (quitando) return;
    setQuitando(true);
    const r = await apiFetch(urlDocumento(s.id, doc.id), { method: 'DELETE' });
    setQuitando(false);
    if (!r.ok) {
      setSubida({ fase: 'error', mensaje: r.error.mensaje });
      return;
    }
    setSubida({ fase: 'libre' });
    await refrescar();
    setEnfocar(idDe('documento'));
  };

  useEffect(() => {
    if (!enfocar) return;
    document.getElementById(enfocar)?.focus();
    setEnfocar(null);
  }, [enfocar, s]);

  const requerido = MENSAJE_OBLIGATORIO.includes(accion);
  return (
    <section className={`adm-acc-panel${final ? ' adm-acc-panel--final' : ''}`} aria-labelledby={`${id}-titulo`}>
      <h3 id={`${id}-titulo`}>{textos.titulo}</h3>
      <p>{textos.descripcion}</p>
      {accion === 'pedir_subsanacion' && (
        <p className="admin-nota">
          Subsanaciones pedidas hasta ahora: {s.subsanaciones} de {MAX_SUBSANACIONES}.
        </p>
      )}
      <ResumenErrores titulo="Revise estos datos:" errores={e.errores} intento={e.intento} />
      <form noValidate onSubmit={alEnviar} aria-labelledby={`${id}-titulo`}>
        {campos.map((c) => {
          switch (c) {
            case 'documento':
              return (
                <div key={c} className="adm-acc-subida">
                  {pendientes.length > 0 ? (
                    <>
                      <p>
                        <strong>PDF listo para enviar</strong> con {textos.titulo.toLowerCase()}:
                      </p>
                      <ul className="adm-acc-docs" aria-label="PDF subido, pendiente de enviar">
                        {pendientes.map((d) => (
                          <FilaDocumento key={d.id} doc={d}>
                            <button
                              type="button"
                              className="admin-boton admin-boton--secundario admin-boton--pequeno"
                              aria-busy={quitando || undefined}
                              onClick={() => void quitar(d)}
                            >
                              Quitar<span className="visually-hidden"> {d.nombre}</span>
                            </button>
                          </FilaDocumento>
                        ))}
                      </ul>
                    </>
                  ) : (
                    <>
                      <CampoFichero
                        id={idDe('documento')}
                        etiqueta={`${ETIQUETAS_CAMPO.documento}: ${clase ? textoClase(clase).toLowerCase() : ''}`}
                        ayuda="Primero súbalo; se enviará al solicitante con este paso. Solo PDF, de hasta 20 MB."
                        error={error('documento')}
                        requerido
                        refInput={fichero}
                        alCambiar={() => {
                          e.limpiar(idDe('documento'));
                          if (subida.fase !== 'subiendo') setSubida({ fase: 'libre' });
                        }}
                      />
                      <p>
                        <button
                          type="button"
                          className="admin-boton admin-boton--secundario"
                          aria-busy={subida.fase === 'subiendo' || undefined}
                          onClick={() => void subir()}
                        >
                          Subir el PDF
                        </button>
                      </p>
                    </>
                  )}
                  <div role="status">
                    {subida.fase === 'subiendo' && (
                      <>
                        <p>
                          Subiendo el PDF: {tamanoLegible(subida.enviados)} de {tamanoLegible(subida.total)}.
                        </p>
                        <progress value={subida.enviados} max={subida.total || 1} aria-label="PDF enviado" />
                      </>
                    )}
                    {subida.fase === 'hecho' && pendientes.length > 0 && (
                      <p>PDF subido: {subida.nombre}. Se enviará al solicitante con este paso.</p>
                    )}
                  </div>
                  {subida.fase === 'error' && (
                    <p className="admin-campo__error" role="alert">
                      <span className="visually-hidden">Error: </span>No se ha subido el PDF: {subida.mensaje}
                    </p>
                  )}
                </div>
              );
            case 'mensaje':
              return (
                <CampoArea
                  key={c}
                  id={idDe(c)}
                  etiqueta={textos.etiquetaMensaje}
                  ayuda={textos.ayudaMensaje}
                  valor={valores.mensaje}
                  alCambiar={poner('mensaje')}
                  error={error(c)}
                  requerido={requerido}
                  max={MAX_MENSAJE}
                  filas={requerido ? 5 : 3}
                />
              );
            case 'motivo':
              return (
                <CampoSelect
                  key={c}
                  id={idDe(c)}
                  etiqueta={ETIQUETAS_CAMPO.motivo}
                  ayuda="Los motivos del art. 9 del RD 1183/2020."
                  valor={valores.motivo}
                  opciones={[
                    { valor: '', texto: 'Elija el motivo' },
                    ...Object.entries(MOTIVOS_DENEGACION).map(([valor, texto]) => ({ valor, texto })),
                  ]}
                  alCambiar={poner('motivo')}
                  error={error(c)}
                  requerido
                />
              );
            case 'tensionFronteraKv':
              return (
                <Campo
                  key={c}
                  id={idDe(c)}
                  etiqueta={ETIQUETAS_CAMPO.tensionFronteraKv}
                  ayuda="La tensión del punto frontera con la red del gestor aguas arriba, por ejemplo 66 o 13,2. Fija los días que ese gestor tiene para su informe."
                  valor={valores.tensionFronteraKv}
                  alCambiar={poner('tensionFronteraKv')}
                  error={error(c)}
                  requerido
                  inputMode="decimal"
                  max={12}
                />
              );
            case 'puntoConexion':
              return (
                <Campo
                  key={c}
                  id={idDe(c)}
                  etiqueta={ETIQUETAS_CAMPO.puntoConexion}
                  ayuda="La línea, el centro de transformación o la subestación donde se conectará la instalación."
                  valor={valores.puntoConexion}
                  alCambiar={poner('puntoConexion')}
                  error={error(c)}
                  requerido
                  max={MAX_PUNTO_CONEXION}
                />
              );
            case 'condicionesTecnicas':
              return (
                <CampoArea
                  key={c}
                  id={idDe(c)}
                  etiqueta={ETIQUETAS_CAMPO.condicionesTecnicas}
                  ayuda="Un resumen de las condiciones del PDF: tensión, potencia admitida, protecciones, refuerzos de red."
                  valor={valores.condicionesTecnicas}
                  alCambiar={poner('condicionesTecnicas')}
                  error={error(c)}
                  requerido
                  max={MAX_CONDICIONES}
                  filas={5}
                />
              );
            case 'importeEuros':
              return (
                <Campo
                  key={c}
                  id={idDe(c)}
                  etiqueta={ETIQUETAS_CAMPO.importeEuros}
                  ayuda="El coste de las obras de extensión y refuerzo para el solicitante, IVA aparte; 0 si no hay coste. Por ejemplo, 12.500,00."
                  valor={valores.importeEuros}
                  alCambiar={poner('importeEuros')}
                  error={error(c)}
                  requerido
                  inputMode="decimal"
                  max={20}
                />
              );
            case 'plazoObrasMeses':
              return (
                <Campo
                  key={c}
                  id={idDe(c)}
                  etiqueta={ETIQUETAS_CAMPO.plazoObrasMeses}
                  ayuda="Opcional. Meses enteros, de 1 a 120."
                  valor={valores.plazoObrasMeses}
                  alCambiar={poner('plazoObrasMeses')}
                  error={error(c)}
                  inputMode="numeric"
                  max={3}
                />
              );
            default:
              return null;
          }
        })}
        <PieDeAccion
          envio={envio}
          encabezado={`No se ha podido ${textos.titulo.charAt(0).toLowerCase() + textos.titulo.slice(1)}:`}
          textoActualizar="Ver la solicitud actualizada"
          alActualizar={alActualizar}
          boton={textos.boton}
          peligrosa={accion === 'inadmitir' || accion === 'denegar'}
        />
      </form>
      {confirmacion && <ConfirmarAccion envio={envio} textos={confirmacion} peligrosa={accion !== 'emitir_permisos'} />}
    </section>
  );
}

/** Why there is nothing to do on a request now. */
function textoSinAcciones(s: SolicitudDetalle): string {
  if (s.lado === 'solicitante')
    return 'Usted presentó esta solicitud: la ve como solicitante y la tramitan otros administradores de la distribuidora.';
  if (esFinal(s.paso)) return `La solicitud está en «${s.pasoNombre}»: el procedimiento ha terminado y no admite más pasos.`;
  if (s.turno === 'solicitante')
    return 'Ahora le toca al solicitante. Cuando responda, aquí aparecerán los pasos que puede dar la distribuidora.';
  return 'No hay ningún paso que la distribuidora pueda dar ahora en esta solicitud.';
}

/* ------------------------------------------------------------------ The screen */

/** The staff's screen of one access and connection request. */
export default function AccesoAdmin({ params, ruta }: PropsPantalla) {
  const idSolicitud = params['id'] ?? '';
  const url = urlApiSolicitud(idSolicitud);
  const { carga, reintentar, anuncio, cabecera, id, refrescar, alActualizar, alHacer } = useCasoDelPersonal<
    SolicitudDetalle,
    AccionDistribuidora
  >(url, {
    actualizado: (d) => ({ prefijo: 'Actualizada:', texto: `la solicitud está ahora en «${d.pasoNombre}». ${turnoFrase(d.turno)}` }),
    hecho: mensajeHecho,
  });

  const volver = (
    <a className="admin-volver" href={urlColaRecordada()}>
      <span aria-hidden="true">‹</span> Volver a las solicitudes
    </a>
  );

  if (carga.fase !== 'lista') {
    return (
      <DetalleSinCargar
        carga={carga}
        titulo={ruta.titulo}
        volver={volver}
        que="la solicitud"
        reintentar={reintentar}
        ayudaNoExiste="Puede que la referencia no sea correcta o que la solicitud sea de una distribuidora que usted no administra."
      />
    );
  }

  const s = carga.datos;
  const plazo = textoPlazo(s.turno ? s.vence : null, s.vencido, hoyMadrid(), s.distribuidora);
  const acciones = s.lado === 'distribuidora' ? accionesDeGestion(s.acciones) : [];
  const cerrado = esFinal(s.paso);

  return (
    <section className="admin">
      {volver}
      <h1 tabIndex={-1}>{ruta.titulo}</h1>

      <CabeceraCasoPersonal
        id={id}
        cabecera={cabecera}
        titulo={`Solicitud ${s.referencia}`}
        pasoNombre={s.pasoNombre}
        cerrado={cerrado}
        turno={s.turno}
        frase={turnoFrase(s.turno)}
        solicitante={s.solicitante}
        distribuidoraNombre={s.distribuidoraNombre}
        presentada={{ t: 'Presentada', v: textoPresentada(s.presentadoEn) }}
        plazo={s.turno && s.vence ? { fecha: plazo.fechaLarga, vencido: plazo.vencido, resto: plazo.estado } : null}
        vencido="Vencida"
        reglaPlazo={s.reglaPlazo}
        datos={
          <Dato t="Subsanaciones pedidas">
            {s.subsanaciones} de {MAX_SUBSANACIONES}
          </Dato>
        }
      >
        {s.presentadoEn && (
          <Descargas
            ficheros={[{ texto: 'Descargar justificante (PDF)', ruta: apiJustificante(s.id), nombre: `justificante-${s.referencia}.pdf` }]}
            nota="El mismo justificante que recibió el solicitante: fecha y hora exactas de la presentación, que fijan el orden de prelación, y la huella de cada documento presentado."
          />
        )}
      </CabeceraCasoPersonal>

      <AnuncioDePaso anuncio={anuncio} />

      <section className="admin-seccion" aria-labelledby={`${id}-tramitar`}>
        <h2 id={`${id}-tramitar`}>Tramitar</h2>
        {acciones.length === 0 ? (
          <p>{textoSinAcciones(s)}</p>
        ) : (
          <div className={`adm-acc-acciones${acciones.length > 1 ? ' adm-acc-acciones--varias' : ''}`}>
            {acciones.map((a) => (
              <PanelAccion
                key={`${a}-${s.paso}-${s.eventos.length}`}
                accion={a}
                s={s}
                alHacer={alHacer}
                alActualizar={alActualizar}
                refrescar={refrescar}
              />
            ))}
          </div>
        )}
      </section>

      <DatosSolicitante s={s} />
      <Historial s={s} />
      <Documentos s={s} />
    </section>
  );
}
