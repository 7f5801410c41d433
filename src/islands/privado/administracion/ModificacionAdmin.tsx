/**
 * /administrador/modificaciones/:id: one contractual modification request for an
 * administrator of its distributor: the holder and who asked, the contract before and what is asked,
 * the timeline, and the actions its state allows: accept, reject with a tabla 27 reason that applies,
 * activate on a date (which applies the change to the supply point). Each action mails the holder.
 */
import { useId, useState } from 'react';
import { hoyMadrid } from '../../../lib/administracion/fechas.ts';
import { apiFetch } from '../../../lib/api/cliente.ts';
import { fechaLocalDe } from '../../../lib/calendario/hora-civil.ts';
import { fechaSinDia, kw } from '../../../lib/medidas/pantalla/formato.ts';
import { TEXTO_CONTROL_POTENCIA, TEXTO_FASES, textoTension } from '../../../lib/suministros/pantalla.ts';
import { errorFechaActivacion } from '../../../lib/modificaciones/esquemas.ts';
import { accionesAdministrador, TEXTO_ESTADO } from '../../../lib/modificaciones/estados.ts';
import { motivosAplicables, textoMotivo, type CodigoMotivo } from '../../../lib/modificaciones/motivos.ts';
import { textoTipo } from '../../../lib/modificaciones/presentacion.ts';
import type { SolicitudAdminApi } from '../../../lib/modificaciones/tipos.ts';
import { ListaAlertas } from '../../comunes/ListaAlertas.tsx';
import { Modal } from '../../comunes/Modal.tsx';
import type { PropsPantalla } from '../AppPrivada.tsx';
import { Dato } from '../../comunes/Dato.tsx';
import { DatosResolucion, DatosSuministro, EtiquetaEstado, Historial, TablaCambio, useSolicitud } from '../modificaciones/comun.tsx';
import { useAccionDelPersonal } from './accion.ts';
import { Campo, CampoSelect, Confirmacion, Correo, DetalleSinCargar } from './comun.tsx';
import { urlListaRecordada } from './ModificacionesAdmin.tsx';
import '../medidas/medidas.css';
import './administracion.css';
import { urlApi } from '../../../lib/api/rutas.ts';

/** The open confirmation, with what it edits. */
type Dialogo =
  { tipo: 'aceptar' } | { tipo: 'rechazar'; codigo: string; error?: string } | { tipo: 'activar'; fecha: string; error?: string } | null;

/** Success messages of each action. */
const HECHO = {
  aceptar: (ref: string) => `Solicitud ${ref} aceptada. Hemos avisado al titular por correo.`,
  rechazar: (ref: string) => `Solicitud ${ref} rechazada. Hemos enviado el motivo al titular por correo.`,
  activar: (ref: string) => `Solicitud ${ref} activada: el cambio ya está aplicado al suministro y el titular ha recibido el aviso.`,
};

/** The administrator's detail of a request. */
export default function ModificacionAdmin({ params, ruta }: PropsPantalla) {
  const idSolicitud = params['id'] ?? '';
  const [carga, reintentar, poner] = useSolicitud<SolicitudAdminApi>(
    urlApi('/administrador/modificaciones/{id}', { path: { id: idSolicitud } }),
  );
  const [dialogo, setDialogo] = useState<Dialogo>(null);
  const tramite = useAccionDelPersonal(poner, reintentar);
  const id = useId();

  const volver = (
    <a className="admin-volver" href={urlListaRecordada()}>
      <span aria-hidden="true">‹</span> Volver a las solicitudes
    </a>
  );

  if (carga.fase !== 'lista') {
    return <DetalleSinCargar carga={carga} titulo={ruta.titulo} volver={volver} que="la solicitud" reintentar={reintentar} />;
  }

  const s = carga.datos;
  const diaSolicitud = fechaLocalDe(new Date(s.creada));
  const motivos = motivosAplicables(s.tipo, s.anterior);

  /** Runs an action on the server and shows its answer. */
  const ejecutar = async (accion: 'aceptar' | 'rechazar' | 'activar', paso: 'aceptacion' | 'rechazo' | 'activacion', cuerpo?: unknown) => {
    setDialogo(null);
    await tramite.enviar(
      () =>
        apiFetch<SolicitudAdminApi>(urlApi(`/administrador/modificaciones/{id}/${paso}`, { path: { id: s.numero } }), {
          method: 'POST',
          ...(cuerpo !== undefined ? { json: cuerpo } : {}),
        }),
      HECHO[accion](s.referencia),
    );
  };

  const confirmar = () => {
    if (!dialogo) return;
    if (dialogo.tipo === 'aceptar') return void ejecutar('aceptar', 'aceptacion');
    if (dialogo.tipo === 'rechazar') {
      if (!dialogo.codigo) {
        setDialogo({ ...dialogo, error: 'Elija el motivo del rechazo.' });
        document.getElementById(`${id}-motivo`)?.focus();
        return;
      }
      return void ejecutar('rechazar', 'rechazo', { codigo: dialogo.codigo });
    }
    const error = errorFechaActivacion(dialogo.fecha, diaSolicitud, hoyMadrid());
    if (error) {
      setDialogo({ ...dialogo, error });
      document.getElementById(`${id}-fecha`)?.focus();
      return;
    }
    void ejecutar('activar', 'activacion', { fecha: dialogo.fecha });
  };

  const acciones = accionesAdministrador(s.estado);

  return (
    <section className="admin">
      {volver}
      <h1 tabIndex={-1}>{ruta.titulo}</h1>
      <div className="mod-tarjeta__cabeza">
        <h2 className="admin__subtitulo">
          {s.referencia} · {textoTipo(s.solicitado)}
        </h2>
        <EtiquetaEstado estado={s.estado} />
      </div>
      <ListaAlertas alertas={tramite.alertas} alCerrar={tramite.cerrarAlerta} etiqueta="Resultado de la tramitación" />

      <section className="admin-seccion" aria-labelledby={`${id}-tramitar`}>
        <h2 id={`${id}-tramitar`}>Tramitar</h2>
        {acciones.length === 0 ? (
          <p>
            La solicitud está {TEXTO_ESTADO[s.estado].toLowerCase()}: ya no admite más pasos.
            {s.fechaActivacion ? ` El cambio se aplicó con fecha ${fechaSinDia(s.fechaActivacion)}.` : ''}
          </p>
        ) : (
          <div className="admin-acciones">
            {acciones.includes('aceptar') && (
              <button type="button" className="admin-boton" onClick={() => setDialogo({ tipo: 'aceptar' })}>
                Aceptar
              </button>
            )}
            {acciones.includes('activar') && (
              <button type="button" className="admin-boton" onClick={() => setDialogo({ tipo: 'activar', fecha: hoyMadrid() })}>
                Activar…
              </button>
            )}
            {acciones.includes('rechazar') && (
              <button
                type="button"
                className="admin-boton admin-boton--peligro"
                onClick={() => setDialogo({ tipo: 'rechazar', codigo: '' })}
              >
                Rechazar…
              </button>
            )}
          </div>
        )}
      </section>

      <section className="admin-seccion" aria-labelledby={`${id}-datos`}>
        <h2 id={`${id}-datos`}>Datos de la solicitud</h2>
        <dl className="med-datos">
          <DatosSuministro s={s} />
          <Dato t="Distribuidora">{s.distribuidoraNombre}</Dato>
          <Dato t="Titular cuando la pidió">
            {s.anterior.titular.nombre} ({s.anterior.titular.nif})
          </Dato>
          <Dato t="Presentada por">
            {s.solicitante ? (
              <>
                {s.solicitante.nombre} · <Correo email={s.solicitante.email} />
              </>
            ) : (
              'Una cuenta que ya no existe'
            )}
            {s.suplantada ? ' (un administrador, actuando como el titular)' : ''}
          </Dato>
          <Dato t="Contrato">
            {textoTension(s.anterior.tensionV)} · {(TEXTO_FASES[s.anterior.fases] ?? s.anterior.fases).toLowerCase()} · control de potencia:{' '}
            {(TEXTO_CONTROL_POTENCIA[s.anterior.modoControlPotencia] ?? s.anterior.modoControlPotencia).toLowerCase()} · máximo de la
            instalación {kw(s.anterior.potenciaMaximaKw)} kW
          </Dato>
          <DatosResolucion s={s} />
        </dl>
      </section>

      <TablaCambio s={s} id={`${id}-cambio`} />

      <section className="admin-seccion" aria-labelledby={`${id}-historial`}>
        <h2 id={`${id}-historial`}>Historial</h2>
        <Historial eventos={s.eventos} etiqueta={`Historial de ${s.referencia}`} />
      </section>

      <Confirmacion
        abierta={dialogo !== null}
        titulo={
          dialogo?.tipo === 'aceptar'
            ? `Aceptar la solicitud ${s.referencia}`
            : dialogo?.tipo === 'activar'
              ? `Activar la solicitud ${s.referencia}`
              : `Rechazar la solicitud ${s.referencia}`
        }
        textoConfirmar={
          dialogo?.tipo === 'aceptar'
            ? 'Aceptar la solicitud'
            : dialogo?.tipo === 'activar'
              ? 'Activar y aplicar el cambio'
              : 'Rechazar la solicitud'
        }
        peligrosa={dialogo?.tipo === 'rechazar'}
        alConfirmar={confirmar}
        alCancelar={() => setDialogo(null)}
      >
        {dialogo?.tipo === 'aceptar' && (
          <p>Se comprobará de nuevo que el contrato admite el cambio y se avisará al titular de que su solicitud está en trámite.</p>
        )}
        {dialogo?.tipo === 'rechazar' && (
          <CampoSelect
            id={`${id}-motivo`}
            etiqueta="Motivo del rechazo (tabla 27 de la CNMC)"
            ayuda="Solo se ofrecen los motivos que se aplican a este tipo de solicitud y de contrato. El titular lo recibirá por correo."
            valor={dialogo.codigo}
            opciones={[{ valor: '', texto: 'Elija el motivo' }, ...motivos.map((c: CodigoMotivo) => ({ valor: c, texto: textoMotivo(c) }))]}
            alCambiar={(codigo) => setDialogo({ tipo: 'rechazar', codigo })}
            error={dialogo.error}
          />
        )}
        {dialogo?.tipo === 'activar' && (
          <Campo
            id={`${id}-fecha`}
            etiqueta="Fecha de activación"
            ayuda={`El día en que el cambio surte efecto: no anterior al ${fechaSinDia(diaSolicitud)}, cuando se presentó, ni posterior a hoy. El cambio se aplica al suministro en este momento.`}
            tipo="date"
            valor={dialogo.fecha}
            alCambiar={(fecha) => setDialogo({ tipo: 'activar', fecha })}
            error={dialogo.error}
          />
        )}
      </Confirmacion>
      <Modal estado={tramite.modal} alCerrar={tramite.cerrarModal} />
    </section>
  );
}
