/**
 * /modificacionesContractuales/modificaciones-contractuales/:id: one of the holder's
 * requests (its number or MC reference in the address): its state and what it means, the supply
 * point, what changes before and after, the timeline, and the cancellation while it is still enviada.
 */
import { useState } from 'react';
import { apiFetch, mensajesDeError } from '../../../lib/api/cliente.ts';
import { EXPLICACION_ESTADO, puede } from '../../../lib/modificaciones/estados.ts';
import { RUTA_SOLICITUDES, textoTipo } from '../../../lib/modificaciones/presentacion.ts';
import type { SolicitudApi } from '../../../lib/modificaciones/tipos.ts';
import { alertasDe, ListaAlertas, type Alerta } from '../../comunes/ListaAlertas.tsx';
import type { PropsPantalla } from '../AppPrivada.tsx';
import { Confirmacion } from '../administracion/comun.tsx';
import { Cargando, ErrorCarga } from '../medidas/comun.tsx';
import { Dato } from '../../comunes/Dato.tsx';
import { DatosResolucion, DatosSuministro, EtiquetaEstado, Historial, TablaCambio, useSolicitud } from './comun.tsx';
import '../medidas/medidas.css';
import '../administracion/administracion.css';
import { urlApi } from '../../../lib/api/rutas.ts';

/** The holder's request detail screen. */
export default function Solicitud({ params, ruta }: PropsPantalla) {
  const id = params['id'] ?? '';
  const [carga, reintentar, poner] = useSolicitud<SolicitudApi>(urlApi('/modificaciones/{id}', { path: { id } }));
  const [preguntar, setPreguntar] = useState(false);
  const [alertas, setAlertas] = useState<Alerta[]>([]);

  const volver = (
    <p className="med-volver">
      <a href={RUTA_SOLICITUDES}>
        <span aria-hidden="true">← </span>Volver a sus solicitudes
      </a>
    </p>
  );

  if (carga.fase !== 'lista') {
    return (
      <div className="priv-pagina med">
        {volver}
        <h1 tabIndex={-1}>{ruta.titulo}</h1>
        {carga.fase === 'cargando' && <Cargando texto="Cargando la solicitud…" />}
        {carga.fase === 'error' && <ErrorCarga que="la solicitud" mensaje={carga.mensaje} reintentar={reintentar} />}
        {carga.fase === 'no-existe' && (
          <div className="priv-aviso priv-aviso--warning" role="alert">
            <p>{carga.mensaje}</p>
          </div>
        )}
      </div>
    );
  }

  const s = carga.datos;
  const anular = async () => {
    setPreguntar(false);
    const r = await apiFetch<SolicitudApi>(urlApi('/modificaciones/{id}/anulacion', { path: { id: s.numero } }), { method: 'POST' });
    if (!r.ok) {
      setAlertas(alertasDe(mensajesDeError(r.error)));
      reintentar();
      return;
    }
    poner(r.datos);
    setAlertas(alertasDe([`La solicitud ${s.referencia} está anulada. Le hemos enviado la confirmación por correo.`], 'success'));
  };

  return (
    <div className="priv-pagina med">
      {volver}
      <h1 tabIndex={-1}>{ruta.titulo}</h1>
      <article className="med-panel mod-contrato" aria-labelledby="mod-detalle-titulo">
        <div className="mod-tarjeta__cabeza">
          <h2 id="mod-detalle-titulo" className="med-detalle__titulo">
            {s.referencia} · {textoTipo(s.solicitado)}
          </h2>
          <EtiquetaEstado estado={s.estado} />
        </div>
        <p>{EXPLICACION_ESTADO[s.estado]}</p>
        <ListaAlertas
          alertas={alertas}
          alCerrar={(a) => setAlertas((l) => l.filter((x) => x.id !== a))}
          etiqueta="Resultado de la anulación"
        />
        <dl className="med-datos">
          <DatosSuministro s={s} />
          <Dato t="Distribuidora">{s.distribuidoraNombre}</Dato>
          <DatosResolucion s={s} />
        </dl>
        {puede('anular', s.estado) && (
          <p>
            <button type="button" className="priv-boton priv-boton--secundario" onClick={() => setPreguntar(true)}>
              Anular la solicitud
            </button>
          </p>
        )}
      </article>

      <TablaCambio s={s} id="mod-cambio-titulo" />

      <section className="med-panel" aria-labelledby="mod-historial-titulo">
        <h3 id="mod-historial-titulo">Historial</h3>
        <Historial eventos={s.eventos} etiqueta={`Historial de ${s.referencia}`} />
      </section>

      <Confirmacion
        abierta={preguntar}
        titulo={`Anular la solicitud ${s.referencia}`}
        textoConfirmar="Anular la solicitud"
        peligrosa
        alConfirmar={() => void anular()}
        alCancelar={() => setPreguntar(false)}
      >
        <p>
          La distribuidora dejará de tramitarla y no se cambiará nada en su contrato. Si más adelante quiere el cambio, tendrá que presentar
          una solicitud nueva.
        </p>
      </Confirmacion>
    </div>
  );
}
