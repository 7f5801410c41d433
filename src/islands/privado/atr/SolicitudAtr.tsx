/**
 * /comercializadora/solicitud-atr/:id: one ATR request of the supply company: its data, the
 * rejection reasons (CNMC table 27) when refused, and its messages in the order they were
 * exchanged, each with its step, side and date, its XML to read and to download.
 */
import { useId } from 'react';
import {
  apiSolicitudAtr,
  diaAtr,
  fechaHoraAtr,
  mensajesEnOrden,
  nombreDescargaAtr,
  nombreLadoAtr,
  nombreProcesoAtr,
  textoMotivoAtr,
  textoPasoAtr,
  type MensajeAtr,
  type SolicitudAtrDetalle,
} from '../../../lib/atr/pantalla.ts';
import { nombreDistribuidora } from '../../../lib/incidencias/lista-gestion.ts';
import { guardarBlob } from '../../../lib/medidas/pantalla/descarga.ts';
import { Dato } from '../../comunes/Dato.tsx';
import type { PropsPantalla } from '../AppPrivada.tsx';
import { Cargando } from '../administracion/comun.tsx';
import { useSolicitud } from '../modificaciones/comun.tsx';
import { EstadoSolicitud, urlListaRecordada } from './comun.tsx';

/** One message: step, side, date, its XML behind a disclosure and its download. */
export function Mensaje({ m, proceso }: { m: MensajeAtr; proceso: string }) {
  const id = useId();
  const nombre = nombreDescargaAtr(m);
  const descargar = () => guardarBlob(new Blob([m.xml], { type: 'application/xml;charset=utf-8' }), nombre);
  return (
    <li className={`atr-mensaje atr-mensaje--${m.lado}`}>
      <h3 id={`${id}-titulo`} className="atr-mensaje__titulo">
        Paso {textoPasoAtr(proceso, m.paso)}
      </h3>
      <dl className="admin-datos atr-mensaje__datos">
        <Dato t="Enviado por">{nombreLadoAtr(m.lado)}</Dato>
        <Dato t="Fecha">{fechaHoraAtr(m.fecha)}</Dato>
        <Dato t="Fichero">
          <span className="atr-codigo">{m.nombre}</span>
        </Dato>
      </dl>
      <details className="atr-xml">
        <summary>
          Ver el XML<span className="visually-hidden"> de {m.nombre}</span>
        </summary>
        {/* Text, never markup: React escapes it. Focusable so the keyboard can scroll it. */}
        <pre className="atr-xml__texto" tabIndex={0} aria-label={`XML de ${m.nombre}`}>
          <code>{m.xml}</code>
        </pre>
      </details>
      <p>
        <button type="button" className="admin-boton admin-boton--secundario" onClick={descargar}>
          Descargar<span className="visually-hidden"> {nombre}</span>
        </button>
      </p>
    </li>
  );
}

/** The loaded request. */
function Detalle({ s }: { s: SolicitudAtrDetalle }) {
  const mensajes = mensajesEnOrden(s.mensajes ?? []);
  const activacion = s.activacionPrevista ?? s.vence;
  return (
    <>
      <section className="admin-seccion atr-cabecera" aria-labelledby="atr-cabecera-titulo">
        <div className="atr-tarjeta__cabeza">
          <h2 id="atr-cabecera-titulo">{s.referencia}</h2>
          <EstadoSolicitud estado={s.estado} />
        </div>
        <dl className="admin-datos">
          <Dato t="Proceso">
            {s.proceso} · {nombreProcesoAtr(s.proceso)}
          </Dato>
          <Dato t="Distribuidora">{nombreDistribuidora(s.distribuidora)}</Dato>
          <Dato t="CUPS">
            <span className="atr-codigo">{s.cups}</span>
          </Dato>
          <Dato t="Código de solicitud">
            <span className="atr-codigo">{s.codigoSolicitud}</span>
          </Dato>
          <Dato t="Último paso">{textoPasoAtr(s.proceso, s.paso)}</Dato>
          <Dato t="Recibida">{fechaHoraAtr(s.recibida)}</Dato>
          {activacion && <Dato t="Activación prevista">{diaAtr(activacion)}</Dato>}
          <Dato t="Última actualización">{fechaHoraAtr(s.actualizada)}</Dato>
        </dl>
      </section>

      {s.motivos && s.motivos.length > 0 && (
        <section className="admin-seccion atr-motivos" aria-labelledby="atr-motivos-titulo">
          <h2 id="atr-motivos-titulo">{s.motivos.length === 1 ? 'Motivo del rechazo' : 'Motivos del rechazo'}</h2>
          <ul>
            {s.motivos.map((m) => (
              <li key={m.codigo}>{textoMotivoAtr(m)}</li>
            ))}
          </ul>
        </section>
      )}

      <section className="atr-mensajes" aria-labelledby="atr-mensajes-titulo">
        <h2 id="atr-mensajes-titulo">Mensajes</h2>
        {mensajes.length === 0 ? (
          <p>Esta solicitud no tiene mensajes.</p>
        ) : (
          <ol className="atr-mensajes__lista">
            {mensajes.map((m) => (
              <Mensaje key={`${m.paso}-${m.nombre}-${m.fecha}`} m={m} proceso={s.proceso} />
            ))}
          </ol>
        )}
      </section>
    </>
  );
}

/** The request screen. */
export default function SolicitudAtr({ params, ruta }: PropsPantalla) {
  const id = params['id'] ?? '';
  const [carga, reintentar] = useSolicitud<SolicitudAtrDetalle>(apiSolicitudAtr(id));
  const lista = urlListaRecordada();
  return (
    <section className="admin atr">
      <p className="atr-volver">
        <a href={lista}>
          <span aria-hidden="true">← </span>Volver a las solicitudes ATR
        </a>
      </p>
      <h1 tabIndex={-1}>{ruta.titulo}</h1>
      {carga.fase === 'cargando' && <Cargando texto="Cargando la solicitud…" />}
      {carga.fase === 'error' && (
        <div className="priv-aviso priv-aviso--warning" role="alert">
          <p>No se ha podido cargar la solicitud: {carga.mensaje}</p>
          <p>
            <button type="button" className="admin-boton admin-boton--secundario" onClick={reintentar}>
              Reintentar
            </button>
          </p>
        </div>
      )}
      {carga.fase === 'no-existe' && (
        <div className="priv-aviso priv-aviso--warning" role="alert">
          <p>
            No encontramos esta solicitud entre las de su empresa. <a href={lista}>Vuelva a la lista</a>.
          </p>
        </div>
      )}
      {carga.fase === 'lista' && <Detalle s={carga.datos} />}
    </section>
  );
}
