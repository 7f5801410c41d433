/**
 * A filed access and connection request from the applicant's side: where it stands (step, whose
 * turn, deadline and its rule), what to do now, the forms of the actions open to the applicant
 * (send the corrections asked for, accept or reject the propuesta previa, withdraw), the timeline,
 * the documents of both sides by the step they came with, and the data as submitted.
 */
import { useEffect, useRef, useState } from 'react';
import { apiFetch, mensajesDeError } from '../../../lib/api/cliente.ts';
import {
  apiJustificante,
  documentosPorEvento,
  eventosEnOrden,
  EXPLICACION_PASO,
  motivoDenegacion,
  queHacerAhora,
  seccionesDatos,
  textoEuros,
  textoKw,
  textoMeses,
  textoPlazo,
  textoQuien,
  textoTurno,
  ultimaPropuesta,
} from '../../../lib/accesoyconexion/pantalla.ts';
import type { AccionSolicitante } from '../../../lib/accesoyconexion/procedimiento.ts';
import type { AccionBody, SolicitudDetalle } from '../../../lib/accesoyconexion/respuestas.ts';
import { NOMBRE_TIPO } from '../../../lib/accesoyconexion/solicitud.ts';
import { formatearFechaHora } from '../../../lib/administracion/fechas.ts';
import { diaDe } from '../../../lib/expedientes/plazos.ts';
import { fechaSinDia } from '../../../lib/formato/fechas.ts';
import { alertasDe, ListaAlertas, type Alerta } from '../../comunes/ListaAlertas.tsx';
import { Dato } from '../../comunes/Dato.tsx';
import { Confirmacion } from '../administracion/comun.tsx';
import { AreaTexto } from '../expedientes/campos.tsx';
import { CajaMensaje } from '../expedientes/CajaMensaje.tsx';
import { CajaQueHacer } from '../expedientes/CajaQueHacer.tsx';
import { ListaDocumentos } from '../expedientes/documentos.tsx';
import { EtiquetaTurno, Plazo } from '../expedientes/etiquetas.tsx';
import { Descargas } from '../medidas/Descargas.tsx';
import './accesoyconexion.css';
import { urlApi } from '../../../lib/api/rutas.ts';

/** Props of `Detalle`. */
export interface DetalleProps {
  detalle: SolicitudDetalle;
  /** Replaces the request with an answer of the API. */
  poner: (d: SolicitudDetalle) => void;
  /** Reloads the request without a loading state. */
  refrescar: () => Promise<void>;
  /** A result to announce on arrival (the filing just done). */
  avisoInicial: string | null;
}

/** What each action's success says. */
const EXITO: Readonly<Record<AccionSolicitante, string>> = {
  presentar: 'Hemos presentado su solicitud.',
  responder_subsanacion:
    'Hemos enviado su subsanación a la distribuidora. Ahora tiene 20 días hábiles para admitir la solicitud o pedirle otra subsanación.',
  aceptar_propuesta: 'Ha aceptado la propuesta previa. La distribuidora debe emitir los permisos de acceso y conexión en 20 días hábiles.',
  rechazar_propuesta: 'Ha rechazado la propuesta previa. El procedimiento ha terminado.',
  desistir: 'Ha desistido de la solicitud. El procedimiento ha terminado y la distribuidora ya no la tramitará.',
};

const MAX_MENSAJE = 4000;

/** The filed request's screen. */
export function Detalle({ detalle: s, poner, refrescar, avisoInicial }: DetalleProps) {
  const [anuncio, setAnuncio] = useState<{ texto: string; n: number } | null>(avisoInicial ? { texto: avisoInicial, n: 1 } : null);
  const [alertas, setAlertas] = useState<Alerta[]>([]);
  const [actuando, setActuando] = useState<AccionSolicitante | null>(null);
  const [preguntar, setPreguntar] = useState<'aceptar_propuesta' | 'rechazar_propuesta' | 'desistir' | null>(null);
  const [mensajeDialogo, setMensajeDialogo] = useState('');
  const caja = useRef<HTMLDivElement>(null);

  // The result of an action takes focus, so it is heard and seen at the top of the screen.
  useEffect(() => {
    if (anuncio) caja.current?.focus();
  }, [anuncio?.n]);

  const actuar = async (accion: AccionSolicitante, body: AccionBody): Promise<boolean> => {
    if (actuando) return false;
    setActuando(accion);
    setAlertas([]);
    const r = await apiFetch<SolicitudDetalle>(urlApi('/accesoyconexion/solicitudes/{id}/{accion}', { path: { id: s.id, accion } }), {
      method: 'POST',
      json: body,
    });
    setActuando(null);
    if (r.ok) {
      poner(r.datos);
      setAnuncio((a) => ({ texto: EXITO[accion], n: (a?.n ?? 0) + 1 }));
      return true;
    }
    setAlertas(alertasDe(mensajesDeError(r.error)));
    void refrescar();
    return false;
  };

  const confirmar = async () => {
    const accion = preguntar;
    if (!accion) return;
    setPreguntar(null);
    const mensaje = mensajeDialogo.trim();
    if (await actuar(accion, mensaje ? { mensaje } : {})) setMensajeDialogo('');
  };

  const hoy = diaDe(Date.now());
  const plazo = textoPlazo(s.vence, s.vencido, hoy, s.distribuidora);
  const queHacer = queHacerAhora(s);
  const propuesta = ultimaPropuesta(s.eventos);
  const motivo = s.paso === 'denegada' ? motivoDenegacion(s.eventos) : null;
  const puede = (a: AccionSolicitante) => (s.acciones as readonly string[]).includes(a);
  const grupos = documentosPorEvento(s.eventos, s.documentos, s.lado);

  return (
    <>
      {anuncio && (
        <div ref={caja} tabIndex={-1} className="priv-aviso priv-aviso--info ac-anuncio" role="status">
          <p>
            <strong>Hecho. </strong>
            {anuncio.texto}
          </p>
        </div>
      )}
      <ListaAlertas alertas={alertas} alCerrar={(a) => setAlertas((l) => l.filter((x) => x.id !== a))} etiqueta="Avisos de la solicitud" />

      <section className="med-panel ac-cabecera" aria-labelledby="ac-detalle-titulo">
        <div className="mod-tarjeta__cabeza">
          <h2 id="ac-detalle-titulo" className="med-detalle__titulo">
            {s.referencia}
          </h2>
          <EtiquetaTurno turno={s.turno} />
        </div>
        <p>
          {EXPLICACION_PASO[s.paso]}
          {motivo && <> Motivo: {motivo}.</>}
        </p>
        <dl className="med-datos">
          <Dato t="Distribuidora">{s.distribuidoraNombre}</Dato>
          <Dato t="Tipo">{s.tipo ? NOMBRE_TIPO[s.tipo] : '—'}</Dato>
          <Dato t="Potencia">{textoKw(s.potenciaKw)}</Dato>
          {s.emplazamiento && <Dato t="Emplazamiento">{s.emplazamiento}</Dato>}
          <Dato t="Paso">{s.pasoNombre}</Dato>
          <Dato t="A quién le toca">{textoTurno(s.turno, s.lado)}</Dato>
          <Dato t="Plazo">
            <Plazo plazo={plazo} />
            {s.reglaPlazo && <span className="ac-regla">{s.reglaPlazo}</span>}
          </Dato>
          {s.presentadoEn && <Dato t="Presentada">{formatearFechaHora(s.presentadoEn)}</Dato>}
        </dl>
        {s.presentadoEn && (
          <Descargas
            ficheros={[{ texto: 'Descargar justificante (PDF)', ruta: apiJustificante(s.id), nombre: `justificante-${s.referencia}.pdf` }]}
            nota="El justificante dice la fecha y hora exactas de la presentación, que fijan el orden de prelación de la solicitud, y los documentos presentados."
          />
        )}
      </section>

      <CajaQueHacer q={queHacer} plazo={plazo} suTurno idTitulo="ac-quehacer-titulo" cita="Lo que le pide la distribuidora:" />

      {puede('responder_subsanacion') && (
        // The answer to a request for corrections: a message (required) and the documents of class «subsanacion».
        <CajaMensaje
          caso={s}
          id="ac-subsanacion"
          titulo="Enviar la subsanación"
          tituloErrores="Revise esto antes de enviar la subsanación:"
          etiqueta="Mensaje para la distribuidora"
          ayuda="Explique qué ha corregido o qué documentos añade."
          boton="Enviar la subsanación"
          falta="Escriba qué ha corregido o añadido para la distribuidora."
          clase="subsanacion"
          etiquetaDocumento="Documentación de la subsanación"
          ayudaDocumento="Los documentos que le pide la distribuidora. Se envían con su mensaje."
          enviando={actuando === 'responder_subsanacion'}
          enviar={(mensaje) => actuar('responder_subsanacion', { mensaje })}
          refrescar={refrescar}
        />
      )}

      {propuesta && (
        <section className="med-panel ac-propuesta" aria-labelledby="ac-propuesta-titulo">
          <h2 id="ac-propuesta-titulo">Propuesta previa</h2>
          <p className="med-nota-linea">Enviada por la distribuidora el {formatearFechaHora(propuesta.evento.momento)}.</p>
          <dl className="med-datos">
            <Dato t="Punto de conexión">{propuesta.propuesta.puntoConexion}</Dato>
            <Dato t="Condiciones técnicas">
              <span className="ac-texto-largo">{propuesta.propuesta.condicionesTecnicas}</span>
            </Dato>
            <Dato t="Importe de las condiciones económicas">{textoEuros(propuesta.propuesta.importeEuros)}</Dato>
            {propuesta.propuesta.plazoObrasMeses !== null && (
              <Dato t="Plazo de las obras">{textoMeses(propuesta.propuesta.plazoObrasMeses)}</Dato>
            )}
          </dl>
          {s.documentos.some((x) => x.eventoId === propuesta.evento.id) && (
            <>
              <h3>Documento de la propuesta</h3>
              <ListaDocumentos
                expediente={s.id}
                documentos={s.documentos.filter((x) => x.eventoId === propuesta.evento.id)}
                etiqueta="Documentos de la propuesta previa"
              />
            </>
          )}
          {(puede('aceptar_propuesta') || puede('rechazar_propuesta')) && (
            <div className="admin-acciones">
              {puede('aceptar_propuesta') && (
                <button
                  type="button"
                  className="priv-boton"
                  aria-busy={actuando === 'aceptar_propuesta' || undefined}
                  onClick={() => setPreguntar('aceptar_propuesta')}
                >
                  Aceptar la propuesta previa
                </button>
              )}
              {puede('rechazar_propuesta') && (
                <button
                  type="button"
                  className="priv-boton priv-boton--secundario ac-boton-peligro"
                  aria-busy={actuando === 'rechazar_propuesta' || undefined}
                  onClick={() => setPreguntar('rechazar_propuesta')}
                >
                  Rechazar la propuesta previa
                </button>
              )}
            </div>
          )}
        </section>
      )}

      <section className="med-panel" aria-labelledby="ac-historial-titulo">
        <h2 id="ac-historial-titulo">Historial</h2>
        {s.eventos.length === 0 ? (
          <p>Todavía no hay pasos.</p>
        ) : (
          <ol className="mod-historial ac-historial" aria-label={`Historial de ${s.referencia}, del más antiguo al más reciente`}>
            {eventosEnOrden(s.eventos).map((e) => (
              <li key={e.id} className={`mod-historial__paso ac-historial__paso--${e.lado}`}>
                <span className="mod-historial__estado">{e.accionNombre}</span>{' '}
                <time dateTime={e.momento}>{formatearFechaHora(e.momento)}</time>
                <span className="ac-historial__quien"> · {textoQuien(e.lado, s.lado)}</span>
                {e.mensaje && <span className="mod-historial__nota ac-texto-largo">«{e.mensaje}»</span>}
                {e.vence && <span className="ac-historial__plazo">Plazo: hasta el {fechaSinDia(e.vence)}</span>}
              </li>
            ))}
          </ol>
        )}
      </section>

      <section className="med-panel" aria-labelledby="ac-documentos-titulo">
        <h2 id="ac-documentos-titulo">Documentos</h2>
        {grupos.length === 0 ? (
          <p>La solicitud no tiene documentos.</p>
        ) : (
          grupos.map((g) => (
            <div key={g.clave} className="ac-grupo-documentos">
              <h3 id={`ac-docs-${g.clave}`}>{g.titulo}</h3>
              <p className="med-nota-linea">{g.detalle}</p>
              <ListaDocumentos
                expediente={s.id}
                documentos={g.documentos}
                etiqueta={`Documentos: ${g.titulo}`}
                {...(g.clave === 'pendientes' ? { alQuitar: () => refrescar() } : {})}
              />
            </div>
          ))
        )}
      </section>

      <section className="med-panel" aria-labelledby="ac-datos-titulo">
        <h2 id="ac-datos-titulo">Lo que solicitó</h2>
        <div className="med-grupos">
          {seccionesDatos(s.datos, s.nudoElegido).map((sec) => (
            <div key={sec.titulo}>
              <h3>{sec.titulo}</h3>
              <dl className="med-datos">
                {sec.filas.map((f) => (
                  <Dato key={f.t} t={f.t}>
                    {f.v}
                  </Dato>
                ))}
              </dl>
            </div>
          ))}
        </div>
      </section>

      {puede('desistir') && (
        <section className="med-panel" aria-labelledby="ac-desistir-titulo">
          <h2 id="ac-desistir-titulo">Desistir de la solicitud</h2>
          <p>
            Si ya no necesita la conexión, puede retirar la solicitud. El procedimiento termina y, si más adelante la necesita, tendrá que
            presentar una nueva, que ocupará su propio lugar en el orden de prelación.
          </p>
          <p>
            <button
              type="button"
              className="priv-boton priv-boton--secundario ac-boton-peligro"
              aria-busy={actuando === 'desistir' || undefined}
              onClick={() => setPreguntar('desistir')}
            >
              Desistir de la solicitud
            </button>
          </p>
        </section>
      )}

      <Confirmacion
        abierta={preguntar === 'aceptar_propuesta'}
        titulo="Aceptar la propuesta previa"
        textoConfirmar="Aceptar la propuesta"
        alConfirmar={() => void confirmar()}
        alCancelar={() => setPreguntar(null)}
      >
        <p>
          Acepta el punto de conexión y las condiciones técnicas y económicas de la propuesta
          {propuesta ? `, con un importe de ${textoEuros(propuesta.propuesta.importeEuros)}` : ''}. La distribuidora emitirá después los
          permisos de acceso y conexión.
        </p>
      </Confirmacion>
      <Confirmacion
        abierta={preguntar === 'rechazar_propuesta' || preguntar === 'desistir'}
        titulo={preguntar === 'desistir' ? `Desistir de la solicitud ${s.referencia}` : 'Rechazar la propuesta previa'}
        textoConfirmar={preguntar === 'desistir' ? 'Desistir de la solicitud' : 'Rechazar la propuesta'}
        peligrosa
        alConfirmar={() => void confirmar()}
        alCancelar={() => setPreguntar(null)}
      >
        <p>
          {preguntar === 'desistir'
            ? 'La distribuidora dejará de tramitar la solicitud. No se puede deshacer.'
            : 'Si rechaza la propuesta, el procedimiento termina y la distribuidora no emitirá los permisos. No se puede deshacer.'}
        </p>
        <AreaTexto
          id="ac-dialogo-mensaje"
          etiqueta="Mensaje para la distribuidora (opcional)"
          ayuda={preguntar === 'desistir' ? 'Por ejemplo, por qué desiste.' : 'Por ejemplo, por qué la rechaza.'}
          valor={mensajeDialogo}
          alCambiar={setMensajeDialogo}
          max={MAX_MENSAJE}
          filas={3}
        />
      </Confirmacion>
    </>
  );
}
