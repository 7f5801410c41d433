/**
 * /administrador/contacto/:id: one query or claim (docs/decisions/018) seen from the distributor's
 * side: where it stands (step, whose turn, deadline and its rule, overdue), the case's data, the
 * documents to send with the next step (answer or other, uploaded with their progress), one panel
 * per action the step allows (answer, extend an RGPD deadline, close a query; accept, reject, ask for
 * information, close a claim with its result of table 80 and the written answer), checked in the
 * browser as the server will and confirmed first when they end the case; the thread of both sides
 * and the documents of both sides. After an action the case shown is the server's answer, the result
 * is announced and focus returns to the case's header.
 */
import { useCallback, useEffect, useId, useRef, useState, type SubmitEvent } from 'react';
import { formatearFecha, hoyMadrid } from '../../../lib/administracion/fechas.ts';
import { apiFetch } from '../../../lib/api/cliente.ts';
import {
  accionesDeGestion,
  apiAccionAdmin,
  apiCasoAdmin,
  CLASES_GESTION,
  comprobarGestion,
  filasConsulta,
  filasReclamacion,
  MAX_MENSAJE,
  mensajeGestion,
  nombreProcedimiento,
  OPCIONES_RESULTADO,
  pendientesDe,
  textoPlazoCaso,
  textosGestion,
  turnoFrase,
  type AccionGestion,
} from '../../../lib/contacto/pantalla.ts';
import type { AccionContacto, CasoContactoDetalle } from '../../../lib/contacto/respuestas.ts';
import { Dato } from '../../comunes/Dato.tsx';
import { alertasDe, ListaAlertas } from '../../comunes/ListaAlertas.tsx';
import { ResumenErrores } from '../../comunes/formulario/ResumenErrores.tsx';
import { useErrores } from '../../comunes/formulario/usar-errores.ts';
import type { PropsPantalla } from '../AppPrivada.tsx';
import { Hilo } from '../contacto/comun.tsx';
import { ListaDocumentos, SubidaDocumento } from '../expedientes/documentos.tsx';
import { urlColaContactoRecordada } from './ContactosAdmin.tsx';
import { AnuncioDePaso, AvisoPlazoVencido, CampoArea, CampoSelect, Cargando, type AnuncioPaso } from './comun.tsx';
import { ConfirmarAccion, PieDeAccion, useEnvioDeAccion } from './accion-de-caso.tsx';
import '../../sesion/sesion.css';
import './administracion.css';
import './accesos.css';

type Carga =
  | { fase: 'cargando' }
  | { fase: 'lista'; datos: CasoContactoDetalle }
  | { fase: 'no-existe'; mensaje: string }
  | { fase: 'error'; mensaje: string };

/** Props of `PanelGestion`. */
interface PanelGestionProps {
  accion: AccionGestion;
  c: CasoContactoDetalle;
  alHacer: (accion: AccionGestion, d: CasoContactoDetalle) => void;
  /** Shows the case as it is now after a refusal because it had moved on (a 409). */
  alActualizar: () => void;
}

/** One action's panel: its fields, the checks, the confirmation and the server's answer. */
function PanelGestion({ accion, c, alHacer, alActualizar }: PanelGestionProps) {
  const id = useId();
  const t = textosGestion(c.procedimiento, accion, c.referencia);
  const [valores, setValores] = useState({ mensaje: '', resultado: '' });
  const envio = useEnvioDeAccion<AccionContacto, CasoContactoDetalle>(apiAccionAdmin(c.id, accion), (d) => alHacer(accion, d));
  const e = useErrores();
  const idDe = (campo: 'mensaje' | 'resultado') => `${id}-${campo}`;

  const alEnviar = (ev: SubmitEvent<HTMLFormElement>) => {
    ev.preventDefault();
    if (envio.enviando) return;
    envio.limpiar();
    const r = comprobarGestion(c.procedimiento, accion, valores);
    if (!e.comprobar(r.ok ? [] : r.errores.map((x) => ({ campo: idDe(x.campo), mensaje: x.mensaje })))) return;
    if (!r.ok) return;
    envio.pedir(r.cuerpo, !!t.confirmacion);
  };

  const peligrosa = accion === 'rechazar';
  return (
    <section className={`adm-acc-panel${t.confirmacion ? ' adm-acc-panel--final' : ''}`} aria-labelledby={`${id}-titulo`}>
      <h3 id={`${id}-titulo`}>{t.titulo}</h3>
      <p>{t.descripcion}</p>
      <ResumenErrores titulo="Revise estos datos:" errores={e.errores} intento={e.intento} />
      <form noValidate onSubmit={alEnviar} aria-labelledby={`${id}-titulo`}>
        {t.conResultado && (
          <CampoSelect
            id={idDe('resultado')}
            etiqueta="Resultado"
            ayuda="Tabla 80 de la CNMC."
            valor={valores.resultado}
            opciones={[{ valor: '', texto: 'Elija el resultado' }, ...OPCIONES_RESULTADO]}
            alCambiar={e.alCambiar(idDe('resultado'), (v) => setValores((x) => ({ ...x, resultado: v })))}
            error={e.errorDe(idDe('resultado'))}
            requerido
          />
        )}
        <CampoArea
          id={idDe('mensaje')}
          etiqueta={t.etiquetaMensaje}
          ayuda={t.ayudaMensaje}
          valor={valores.mensaje}
          alCambiar={e.alCambiar(idDe('mensaje'), (v) => setValores((x) => ({ ...x, mensaje: v })))}
          error={e.errorDe(idDe('mensaje'))}
          requerido={t.faltaMensaje !== null}
          max={MAX_MENSAJE}
          filas={t.faltaMensaje ? 5 : 3}
        />
        <PieDeAccion
          envio={envio}
          encabezado={`No se ha podido completar «${t.titulo.toLowerCase()}»:`}
          textoActualizar="Ver el expediente actualizado"
          alActualizar={alActualizar}
          boton={t.boton}
          peligrosa={peligrosa}
        />
      </form>
      {t.confirmacion && <ConfirmarAccion envio={envio} textos={t.confirmacion} peligrosa={peligrosa} />}
    </section>
  );
}

/** Why there is nothing to do on a case now. */
function textoSinAcciones(c: CasoContactoDetalle): string {
  if (c.turno === null) return `El expediente está en «${c.pasoNombre}»: ha terminado y no admite más pasos.`;
  if (c.turno === 'solicitante')
    return 'Ahora le toca al solicitante. Cuando responda, aquí aparecerán los pasos que puede dar la distribuidora.';
  return 'No hay ningún paso que la distribuidora pueda dar ahora en este expediente.';
}

/** The documents of both sides that are part of the case, with their downloads. */
function DocumentosEnviados({ c }: { c: CasoContactoDetalle }) {
  const id = useId();
  const enviados = c.documentos.filter((d) => !d.pendiente);
  return (
    <section className="admin-seccion" aria-labelledby={`${id}-titulo`}>
      <h2 id={`${id}-titulo`}>Documentos</h2>
      {(['solicitante', 'distribuidora'] as const).map((lado) => {
        const suyos = enviados.filter((d) => d.lado === lado);
        const titulo = lado === 'solicitante' ? 'Del solicitante' : 'De la distribuidora';
        return (
          <div key={lado}>
            <h3 className="adm-acc-subtitulo">{titulo}</h3>
            {suyos.length === 0 ? (
              <p className="admin-nota">
                {lado === 'solicitante' ? 'El solicitante no ha aportado documentos.' : 'La distribuidora aún no ha enviado documentos.'}
              </p>
            ) : (
              <ListaDocumentos expediente={c.id} documentos={suyos} etiqueta={titulo} lado="distribuidora" />
            )}
          </div>
        );
      })}
    </section>
  );
}

/** The staff's screen of one query or claim. */
export default function ContactoAdmin({ params, ruta }: PropsPantalla) {
  const idCaso = params['id'] ?? '';
  const url = apiCasoAdmin(idCaso);
  const [carga, setCarga] = useState<Carga>({ fase: 'cargando' });
  const [intento, setIntento] = useState(0);
  const [anuncio, setAnuncio] = useState<AnuncioPaso | null>(null);
  const cabecera = useRef<HTMLHeadingElement>(null);
  const id = useId();

  useEffect(() => {
    const peticion = new AbortController();
    setCarga({ fase: 'cargando' });
    setAnuncio(null);
    void apiFetch<CasoContactoDetalle>(url, { signal: peticion.signal }).then((r) => {
      if (peticion.signal.aborted) return;
      if (r.ok) setCarga({ fase: 'lista', datos: r.datos });
      else setCarga({ fase: r.status === 404 || r.status === 400 ? 'no-existe' : 'error', mensaje: r.error.mensaje });
    });
    return () => peticion.abort();
  }, [url, intento]);

  /** Loads the case again in place (after an upload or a removal). */
  const refrescar = useCallback(async () => {
    const r = await apiFetch<CasoContactoDetalle>(url);
    if (r.ok) setCarga({ fase: 'lista', datos: r.datos });
  }, [url]);

  const alActualizar = useCallback(() => {
    void apiFetch<CasoContactoDetalle>(url).then((r) => {
      if (!r.ok) return;
      setCarga({ fase: 'lista', datos: r.datos });
      setAnuncio({ prefijo: 'Actualizado:', texto: `el expediente está ahora en «${r.datos.pasoNombre}». ${turnoFrase(r.datos.turno)}` });
      requestAnimationFrame(() => cabecera.current?.focus());
    });
  }, [url]);

  const alHacer = useCallback((accion: AccionGestion, d: CasoContactoDetalle) => {
    setCarga({ fase: 'lista', datos: d });
    setAnuncio({ prefijo: 'Hecho:', texto: mensajeGestion(d.procedimiento, accion, d) });
    requestAnimationFrame(() => cabecera.current?.focus());
  }, []);

  const volver = (
    <a className="admin-volver" href={urlColaContactoRecordada()}>
      <span aria-hidden="true">‹</span> Volver a la cola
    </a>
  );

  if (carga.fase !== 'lista') {
    return (
      <section className="admin">
        {volver}
        <h1 tabIndex={-1}>{ruta.titulo}</h1>
        {carga.fase === 'cargando' && <Cargando texto="Cargando el expediente…" />}
        {carga.fase === 'no-existe' && (
          <div className="admin-vacio">
            <p>{carga.mensaje}</p>
            <p>Puede que la dirección no sea correcta o que el expediente sea de una distribuidora que usted no administra.</p>
          </div>
        )}
        {carga.fase === 'error' && (
          <>
            <ListaAlertas alertas={alertasDe([carga.mensaje])} alCerrar={() => undefined} />
            <p>
              <button type="button" className="admin-boton admin-boton--secundario" onClick={() => setIntento((n) => n + 1)}>
                Reintentar
              </button>
            </p>
          </>
        )}
      </section>
    );
  }

  const c = carga.datos;
  const plazo = textoPlazoCaso(c, hoyMadrid());
  const acciones = accionesDeGestion(c);
  const cerrado = c.turno === null;
  const datos = c.procedimiento === 'consulta' ? filasConsulta(c.consulta) : filasReclamacion(c.reclamacion);
  const pendientes = pendientesDe(c.documentos, 'distribuidora');

  return (
    <section className="admin">
      {volver}
      <h1 tabIndex={-1}>{ruta.titulo}</h1>

      <section className="admin-seccion adm-acc-cabecera" aria-labelledby={`${id}-cabecera`}>
        <h2 id={`${id}-cabecera`} ref={cabecera} tabIndex={-1}>
          {nombreProcedimiento(c.procedimiento)} {c.referencia}
        </h2>
        <p>
          <span className={`adm-acc-paso${cerrado ? ' adm-acc-paso--cerrado' : ''}`}>
            <span className="visually-hidden">Paso: </span>
            {c.pasoNombre}
          </span>{' '}
          {turnoFrase(c.turno)}
        </p>
        <dl className="admin-datos">
          <Dato t="Solicitante">{c.solicitante || '—'}</Dato>
          <Dato t="Distribuidora">{c.distribuidoraNombre}</Dato>
          <Dato t="Enviada">{formatearFecha(c.presentadoEn)}</Dato>
          <Dato t="Plazo del paso actual">
            {plazo ? (
              <>
                Hasta el {plazo.fecha}
                {plazo.vencido ? (
                  <>
                    {' '}
                    <span className="admin-estado adm-acc-vencida">Vencido</span>
                  </>
                ) : (
                  plazo.resto && ` (${plazo.resto.charAt(0).toLowerCase()}${plazo.resto.slice(1)})`
                )}
              </>
            ) : (
              'Sin plazo'
            )}
          </Dato>
          {c.resultado && <Dato t="Resultado">{c.resultado.nombre}</Dato>}
          {c.intercambio && (
            <Dato t="Llegó por el intercambio">
              R1 01 de la comercializadora {c.intercambio.codigoRee}, solicitud {c.intercambio.codigoSolicitud}. Aceptarla o rechazarla le
              deja el R1 02, y cerrarla el R1 05, en su carpeta salida.
            </Dato>
          )}
        </dl>
        {c.reglaPlazo && <p className="admin-nota">{c.reglaPlazo}</p>}
        {plazo?.vencido && <AvisoPlazoVencido turno={c.turno} />}
      </section>

      <AnuncioDePaso anuncio={anuncio} />

      <section className="admin-seccion" aria-labelledby={`${id}-datos`}>
        <h2 id={`${id}-datos`}>{c.procedimiento === 'consulta' ? 'La consulta' : 'La reclamación'}</h2>
        <dl className="admin-datos">
          {c.procedimiento === 'consulta' && <Dato t="Asunto">{c.consulta?.asunto ?? '—'}</Dato>}
          {datos.map((f) => (
            <Dato key={f.t} t={f.t}>
              {f.v}
            </Dato>
          ))}
        </dl>
        {c.respuesta && (
          <>
            <h3 className="adm-acc-subtitulo">Respuesta de cierre</h3>
            <p className="adm-acc-historial__mensaje">{c.respuesta}</p>
          </>
        )}
      </section>

      <section className="admin-seccion" aria-labelledby={`${id}-tramitar`}>
        <h2 id={`${id}-tramitar`}>Tramitar</h2>
        {acciones.length === 0 ? (
          <p>{textoSinAcciones(c)}</p>
        ) : (
          <>
            <div className="ct-adjuntar">
              <h3 className="adm-acc-subtitulo">Documentos para el solicitante</h3>
              <p className="admin-nota">Los documentos que suba se enviarán con el próximo paso que dé, sea cual sea.</p>
              {CLASES_GESTION.map((clase) => (
                <SubidaDocumento
                  key={clase}
                  id={`${id}-doc-${clase}`}
                  expediente={c.id}
                  clase={clase}
                  opcional
                  documentos={pendientes.filter((d) => d.clase === clase)}
                  lado="distribuidora"
                  alCambiar={refrescar}
                />
              ))}
            </div>
            <div className={`adm-acc-acciones${acciones.length > 1 ? ' adm-acc-acciones--varias' : ''}`}>
              {acciones.map((a) => (
                <PanelGestion key={`${a}-${c.paso}-${c.eventos.length}`} accion={a} c={c} alHacer={alHacer} alActualizar={alActualizar} />
              ))}
            </div>
          </>
        )}
      </section>

      <Hilo c={c} titulo="Historial y mensajes" id={`${id}-hilo`} clase="admin-seccion" />
      <DocumentosEnviados c={c} />
    </section>
  );
}
