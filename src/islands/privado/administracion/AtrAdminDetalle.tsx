/**
 * /administrador/atr/:id: one ATR request for an administrator of its distributor: the company and
 * the supply point's contract now against what the request asks, the steps it admits (activate on
 * a date, 05; reject after the field work with a table 27 reason, 04; an incidence of table 28
 * with a new planned date, 03) and every message exchanged, with its XML.
 */
import { useId, useState } from 'react';
import { hoyMadrid } from '../../../lib/administracion/fechas.ts';
import { apiFetch } from '../../../lib/api/cliente.ts';
import {
  apiSolicitudAtrAdmin,
  EFECTO_ACTIVACION,
  OPCIONES_INCIDENCIA,
  OPCIONES_MOTIVO_CAMPO,
  textoPotencias,
  type SolicitudAtrGestion,
} from '../../../lib/atr/gestion.ts';
import { diaAtr, fechaHoraAtr, mensajesEnOrden, nombreProcesoAtr, textoMotivoAtr } from '../../../lib/atr/pantalla.ts';
import { nombreDistribuidora } from '../../../lib/distribuidoras.ts';
import { fechaLocalDe } from '../../../lib/calendario/hora-civil.ts';
import { errorFechaActivacion } from '../../../lib/modificaciones/esquemas.ts';
import { Dato } from '../../comunes/Dato.tsx';
import { ListaAlertas } from '../../comunes/ListaAlertas.tsx';
import { Modal } from '../../comunes/Modal.tsx';
import type { PropsPantalla } from '../AppPrivada.tsx';
import { EstadoSolicitud } from '../atr/comun.tsx';
import { Mensaje } from '../atr/SolicitudAtr.tsx';
import { useSolicitud } from '../modificaciones/comun.tsx';
import { urlColaAtrRecordada } from './AtrAdmin.tsx';
import { useAccionDelPersonal } from './accion.ts';
import { Campo, CampoArea, CampoSelect, Confirmacion, DetalleSinCargar } from './comun.tsx';
import './administracion.css';

/** The open dialog, with what it edits and its errors by field. */
type Dialogo =
  | { tipo: 'activar'; fecha: string; errores: { fecha?: string } }
  | { tipo: 'rechazar'; codigo: string; comentario: string; errores: { codigo?: string; comentario?: string } }
  | {
      tipo: 'incidencia';
      codigo: string;
      comentario: string;
      fecha: string;
      errores: { codigo?: string; comentario?: string; fecha?: string };
    }
  | null;

const HECHO = {
  activar: (ref: string) =>
    `Solicitud ${ref} activada: el contrato del suministro ya está cambiado y el mensaje 05 está en la carpeta de salida de la comercializadora.`,
  rechazar: (ref: string) =>
    `Solicitud ${ref} rechazada tras la visita a campo: el mensaje 04 está en la carpeta de salida de la comercializadora.`,
  incidencia: (ref: string) => `Incidencia anotada en ${ref}: el mensaje 03 está en la carpeta de salida de la comercializadora.`,
};

/** The staff's detail of an ATR request. */
export default function AtrAdminDetalle({ params, ruta }: PropsPantalla) {
  const [carga, reintentar, poner] = useSolicitud<SolicitudAtrGestion>(apiSolicitudAtrAdmin(params['id'] ?? ''));
  const [dialogo, setDialogo] = useState<Dialogo>(null);
  const accion = useAccionDelPersonal(poner, reintentar);
  const id = useId();

  const volver = (
    <a className="admin-volver" href={urlColaAtrRecordada()}>
      <span aria-hidden="true">‹</span> Volver a la cola de solicitudes ATR
    </a>
  );

  if (carga.fase !== 'lista') {
    return <DetalleSinCargar carga={carga} titulo={ruta.titulo} volver={volver} que="la solicitud" reintentar={reintentar} />;
  }

  const s = carga.datos;
  const diaRecibida = fechaLocalDe(new Date(s.recibida));
  const hoy = hoyMadrid();

  const ejecutar = async (paso: 'activar' | 'rechazar' | 'incidencia', cuerpo: Record<string, unknown>) => {
    setDialogo(null);
    await accion.enviar(
      () => apiFetch<SolicitudAtrGestion>(apiSolicitudAtrAdmin(s.id), { method: 'POST', json: { accion: paso, ...cuerpo } }),
      HECHO[paso](s.referencia),
    );
  };

  /** Checks the open dialog's fields, shows the first error's field, and sends it when all are right. */
  const confirmar = () => {
    if (!dialogo) return;
    const enfocar = (campo: string) => document.getElementById(`${id}-${campo}`)?.focus();
    if (dialogo.tipo === 'activar') {
      const error = errorFechaActivacion(dialogo.fecha, diaRecibida, hoy);
      if (error) {
        setDialogo({ ...dialogo, errores: { fecha: error } });
        return enfocar('fecha');
      }
      return void ejecutar('activar', { fecha: dialogo.fecha });
    }
    const errores: { codigo?: string; comentario?: string; fecha?: string } = {};
    if (!dialogo.codigo) errores.codigo = dialogo.tipo === 'rechazar' ? 'Elija el motivo del rechazo.' : 'Elija el tipo de incidencia.';
    if (dialogo.comentario.trim().length < 5) {
      errores.comentario = dialogo.tipo === 'rechazar' ? 'Explique qué se encontró en campo.' : 'Explique la incidencia.';
    }
    if (dialogo.tipo === 'incidencia' && dialogo.fecha && dialogo.fecha < hoy)
      errores.fecha = 'La nueva fecha prevista no puede ser anterior a hoy.';
    const primero = (['codigo', 'comentario', 'fecha'] as const).find((k) => errores[k]);
    if (primero) {
      setDialogo({ ...dialogo, errores } as Dialogo);
      return enfocar(primero);
    }
    if (dialogo.tipo === 'rechazar') return void ejecutar('rechazar', { codigo: dialogo.codigo, comentario: dialogo.comentario.trim() });
    void ejecutar('incidencia', {
      codigo: dialogo.codigo,
      comentario: dialogo.comentario.trim(),
      ...(dialogo.fecha ? { fechaPrevista: dialogo.fecha } : {}),
    });
  };

  const titulos = {
    activar: [`Activar la solicitud ${s.referencia}`, 'Activar y cambiar el contrato'],
    rechazar: [`Rechazar tras la visita a campo ${s.referencia}`, 'Rechazar la solicitud'],
    incidencia: [`Anotar una incidencia en ${s.referencia}`, 'Anotar la incidencia'],
  } as const;

  return (
    <section className="admin">
      {volver}
      <h1 tabIndex={-1}>{ruta.titulo}</h1>
      <div className="mod-tarjeta__cabeza">
        <h2 className="admin__subtitulo">
          {s.referencia} · {s.proceso} {nombreProcesoAtr(s.proceso)}
        </h2>
        <EstadoSolicitud estado={s.estado} />
      </div>
      <ListaAlertas alertas={accion.alertas} alCerrar={accion.cerrarAlerta} etiqueta="Resultado de la tramitación" />

      <section className="admin-seccion" aria-labelledby={`${id}-tramitar`}>
        <h2 id={`${id}-tramitar`}>Tramitar</h2>
        {s.acciones.length === 0 ? (
          <p>
            La solicitud ya no espera a la distribuidora.
            {s.activacion ? ` Se activó con fecha ${diaAtr(s.activacion)}.` : ''}
            {s.repuesto ? ` El suministro que cortó se repuso el ${diaAtr(s.repuesto)}, a petición de la comercializadora.` : ''}
            {s.cerrada && !s.activacion ? ` Se cerró el ${diaAtr(s.cerrada)}.` : ''}
          </p>
        ) : (
          <>
            <p>
              Activación prevista: <strong>{diaAtr(s.vence)}</strong>
              {s.vencida && <span className="admin-estado adm-acc-vencida"> Vencida</span>}
            </p>
            <div className="admin-acciones">
              <button type="button" className="admin-boton" onClick={() => setDialogo({ tipo: 'activar', fecha: hoy, errores: {} })}>
                Activar…
              </button>
              <button
                type="button"
                className="admin-boton admin-boton--secundario"
                onClick={() => setDialogo({ tipo: 'incidencia', codigo: '', comentario: '', fecha: '', errores: {} })}
              >
                Anotar incidencia…
              </button>
              <button
                type="button"
                className="admin-boton admin-boton--peligro"
                onClick={() => setDialogo({ tipo: 'rechazar', codigo: '', comentario: '', errores: {} })}
              >
                Rechazar tras la visita…
              </button>
            </div>
          </>
        )}
      </section>

      <section className="admin-seccion" aria-labelledby={`${id}-datos`}>
        <h2 id={`${id}-datos`}>Datos de la solicitud</h2>
        <dl className="admin-datos">
          <Dato t="Comercializadora">
            {s.empresa || '—'}
            {s.codigoRee ? ` (REE ${s.codigoRee})` : ''}
          </Dato>
          <Dato t="Código de solicitud">{s.codigoSolicitud}</Dato>
          <Dato t="Distribuidora">{nombreDistribuidora(s.distribuidora)}</Dato>
          <Dato t="CUPS">{s.cups}</Dato>
          <Dato t="Recibida">{fechaHoraAtr(s.recibida)}</Dato>
          {s.pedido && (s.pedido.tarifa || s.pedido.potenciasW) && (
            <Dato t="Pide">
              {[s.pedido.tarifa, s.pedido.potenciasW ? textoPotencias(s.pedido.potenciasW) : null].filter(Boolean).join(' · ')}
            </Dato>
          )}
          {s.suministro ? (
            <Dato t="Contrato hoy">
              {s.suministro.titular} · {s.suministro.tarifa} · {textoPotencias(s.suministro.potenciasW)} · comercializadora{' '}
              {s.suministro.comercializadora}
              {s.suministro.baja ? ` · de baja desde el ${diaAtr(s.suministro.baja)}` : ''}
              {s.suministro.suspendidoDesde ? ` · cortado desde el ${diaAtr(s.suministro.suspendidoDesde)}` : ''}
            </Dato>
          ) : (
            <Dato t="Contrato hoy">El CUPS no es de esta distribuidora.</Dato>
          )}
          {s.motivos.length > 0 && (
            <Dato t="Motivos del rechazo">
              <ul className="admin-lista-simple">
                {s.motivos.map((m) => (
                  <li key={m.codigo}>{textoMotivoAtr(m)}</li>
                ))}
              </ul>
            </Dato>
          )}
        </dl>
      </section>

      <section className="admin-seccion atr" aria-labelledby={`${id}-mensajes`}>
        <h2 id={`${id}-mensajes`}>Mensajes</h2>
        <ol className="atr-mensajes">
          {mensajesEnOrden(s.mensajes).map((m) => (
            <Mensaje key={`${m.paso}-${m.nombre}-${m.fecha}`} m={m} proceso={s.proceso} lector="personal" />
          ))}
        </ol>
      </section>

      <Confirmacion
        abierta={dialogo !== null}
        titulo={dialogo ? titulos[dialogo.tipo][0] : ''}
        textoConfirmar={dialogo ? titulos[dialogo.tipo][1] : ''}
        peligrosa={dialogo?.tipo === 'rechazar'}
        alConfirmar={confirmar}
        alCancelar={() => setDialogo(null)}
      >
        {dialogo?.tipo === 'activar' && (
          <>
            <p>{EFECTO_ACTIVACION[s.proceso]}</p>
            <Campo
              id={`${id}-fecha`}
              etiqueta="Fecha de activación"
              ayuda={`El día en que el cambio surtió efecto: no anterior al ${diaAtr(diaRecibida)}, cuando llegó la solicitud, ni posterior a hoy.`}
              tipo="date"
              valor={dialogo.fecha}
              alCambiar={(fecha) => setDialogo({ ...dialogo, fecha })}
              error={dialogo.errores.fecha}
            />
          </>
        )}
        {(dialogo?.tipo === 'rechazar' || dialogo?.tipo === 'incidencia') && (
          <>
            <CampoSelect
              id={`${id}-codigo`}
              etiqueta={dialogo.tipo === 'rechazar' ? 'Motivo (tabla 27 de la CNMC)' : 'Incidencia (tabla 28 de la CNMC)'}
              valor={dialogo.codigo}
              opciones={[
                { valor: '', texto: dialogo.tipo === 'rechazar' ? 'Elija el motivo' : 'Elija la incidencia' },
                ...(dialogo.tipo === 'rechazar' ? OPCIONES_MOTIVO_CAMPO : OPCIONES_INCIDENCIA),
              ]}
              alCambiar={(codigo) => setDialogo({ ...dialogo, codigo } as Dialogo)}
              error={dialogo.errores.codigo}
              requerido
            />
            <CampoArea
              id={`${id}-comentario`}
              etiqueta="Comentario para la comercializadora"
              ayuda="Va en el mensaje XML: qué se encontró o qué hace falta."
              valor={dialogo.comentario}
              alCambiar={(comentario) => setDialogo({ ...dialogo, comentario } as Dialogo)}
              error={dialogo.errores.comentario}
              max={2000}
              filas={3}
              requerido
            />
            {dialogo.tipo === 'incidencia' && (
              <Campo
                id={`${id}-fecha`}
                etiqueta="Nueva fecha prevista"
                ayuda="Opcional. Si la indica, pasa a ser la activación prevista de la solicitud."
                tipo="date"
                valor={dialogo.fecha}
                alCambiar={(fecha) => setDialogo({ ...dialogo, fecha })}
                error={dialogo.errores.fecha}
              />
            )}
          </>
        )}
      </Confirmacion>
      <Modal estado={accion.modal} alCerrar={accion.cerrarModal} />
    </section>
  );
}
