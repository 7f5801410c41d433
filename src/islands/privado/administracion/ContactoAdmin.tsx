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
import { useId, useState, type SubmitEvent } from 'react';
import { formatearFecha, hoyMadrid } from '../../../lib/administracion/fechas.ts';
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
import { ResumenErrores } from '../../comunes/formulario/ResumenErrores.tsx';
import { useErrores } from '../../comunes/formulario/usar-errores.ts';
import type { PropsPantalla } from '../AppPrivada.tsx';
import { Hilo } from '../contacto/comun.tsx';
import { ListaDocumentos, SubidaDocumento } from '../expedientes/documentos.tsx';
import { urlColaContactoRecordada } from './ContactosAdmin.tsx';
import { AnuncioDePaso, CampoArea, CampoSelect, DetalleSinCargar } from './comun.tsx';
import { CabeceraCasoPersonal, ConfirmarAccion, PieDeAccion, useCasoDelPersonal, useEnvioDeAccion } from './accion-de-caso.tsx';
import '../../sesion/sesion.css';
import './administracion.css';
import './accesos.css';

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
  const { carga, reintentar, anuncio, cabecera, id, refrescar, alActualizar, alHacer } = useCasoDelPersonal<
    CasoContactoDetalle,
    AccionGestion
  >(url, {
    actualizado: (d) => ({ prefijo: 'Actualizado:', texto: `el expediente está ahora en «${d.pasoNombre}». ${turnoFrase(d.turno)}` }),
    hecho: (accion, d) => mensajeGestion(d.procedimiento, accion, d),
  });

  const volver = (
    <a className="admin-volver" href={urlColaContactoRecordada()}>
      <span aria-hidden="true">‹</span> Volver a la cola
    </a>
  );

  if (carga.fase !== 'lista') {
    return (
      <DetalleSinCargar
        carga={carga}
        titulo={ruta.titulo}
        volver={volver}
        que="el expediente"
        reintentar={reintentar}
        ayudaNoExiste="Puede que la dirección no sea correcta o que el expediente sea de una distribuidora que usted no administra."
      />
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

      <CabeceraCasoPersonal
        id={id}
        cabecera={cabecera}
        titulo={`${nombreProcedimiento(c.procedimiento)} ${c.referencia}`}
        pasoNombre={c.pasoNombre}
        cerrado={cerrado}
        turno={c.turno}
        frase={turnoFrase(c.turno)}
        solicitante={c.solicitante}
        distribuidoraNombre={c.distribuidoraNombre}
        presentada={{ t: 'Enviada', v: formatearFecha(c.presentadoEn) }}
        plazo={plazo}
        vencido="Vencido"
        reglaPlazo={c.reglaPlazo}
        datos={
          <>
            {c.resultado && <Dato t="Resultado">{c.resultado.nombre}</Dato>}
            {c.intercambio && (
              <Dato t="Llegó por el intercambio">
                R1 01 de la comercializadora {c.intercambio.codigoRee}, solicitud {c.intercambio.codigoSolicitud}. Aceptarla o rechazarla le
                deja el R1 02, y cerrarla el R1 05, en su carpeta salida.
              </Dato>
            )}
          </>
        }
      />

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
