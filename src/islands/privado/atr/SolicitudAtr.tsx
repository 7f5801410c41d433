/**
 * /comercializadora/solicitud-atr/:id: one ATR request of the supply company: its data, the
 * rejection reasons (CNMC table 27) when refused, and its messages in the order they were
 * exchanged, each with its step, side and date, its XML to read and to download. While it is open,
 * "Anular solicitud" (confirmed first) leaves the CNMC's anulación in entrada; the screen follows it
 * until the distributor's answer arrives.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useId, useState } from 'react';
import { apiFetch } from '../../../lib/api/cliente.ts';
import type { SolicitudAtrEnviada } from '../../../lib/atr/formulario.ts';
import {
  apiAnulacionAtr,
  apiSolicitudAtr,
  carpetaSalida,
  diaAtr,
  fechaHoraAtr,
  mensajesEnOrden,
  nombreDescargaAtr,
  incidenciasDeMensaje,
  nombreLadoAtr,
  nombreProcesoAtr,
  pasoAnulacionAtr,
  textoMotivoAtr,
  textoPasoAtr,
  type MensajeAtr,
  type SolicitudAtrDetalle,
} from '../../../lib/atr/pantalla.ts';
import { nombreDistribuidora } from '../../../lib/distribuidoras.ts';
import { $session } from '../../../lib/sesion/index.ts';
import { guardarBlob } from '../../../lib/medidas/pantalla/descarga.ts';
import { Dato } from '../../comunes/Dato.tsx';
import type { PropsPantalla } from '../AppPrivada.tsx';
import { alertasDe, ListaAlertas, type Alerta } from '../../comunes/ListaAlertas.tsx';
import { Cargando, Confirmacion } from '../administracion/comun.tsx';
import { useSolicitud } from '../modificaciones/comun.tsx';
import { AvisoAtr, EstadoSolicitud, urlListaRecordada } from './comun.tsx';

/** How often, and how many times, the screen looks for the distributor's answer to an anulación. */
const CADA_MS = 2_000;
const INTENTOS = 20;

/**
 * The anulación of an open request: the button, its confirmation, the call, and what became of it
 * (sent, then answered: the screen takes the request as it stands then). For an activated B1 that
 * keeps its supply cut, the same anulación asks for the reposición (docs/decisions/048).
 */
function Anulacion({ s, alContestar }: { s: SolicitudAtrDetalle; alContestar: (d: SolicitudAtrDetalle) => void }) {
  // Which of the two it is, as the screen loaded the request: the section keeps its words once answered.
  const [reposicion] = useState(() => s.reponible === true);
  const [confirmando, setConfirmando] = useState(false);
  const [enviando, setEnviando] = useState(false);
  const [enviada, setEnviada] = useState<SolicitudAtrEnviada | null>(null);
  const [contestada, setContestada] = useState<boolean | null>(null);
  const [alertas, setAlertas] = useState<Alerta[]>([]);
  // The company's own act: the API refuses it from an impersonated session.
  const suplantado = Boolean(useStore($session)?.suplantadoPor);

  useEffect(() => {
    if (!enviada) return;
    let vivo = true;
    let intentos = 0;
    let temporizador: ReturnType<typeof setTimeout> | undefined;
    const mirar = async () => {
      const r = await apiFetch<SolicitudAtrDetalle>(apiSolicitudAtr(s.id));
      if (!vivo) return;
      if (r.ok && (reposicion ? r.datos.reponible === false : r.datos.abierta === false)) {
        setContestada(true);
        alContestar(r.datos);
      } else if (++intentos >= INTENTOS) setContestada(false);
      else temporizador = setTimeout(() => void mirar(), CADA_MS);
    };
    temporizador = setTimeout(() => void mirar(), CADA_MS);
    return () => {
      vivo = false;
      clearTimeout(temporizador);
    };
    // Once per anulación sent.
  }, [enviada]);

  const anular = async () => {
    setConfirmando(false);
    if (enviando) return;
    setEnviando(true);
    setAlertas([]);
    const r = await apiFetch<SolicitudAtrEnviada>(apiAnulacionAtr(s.id), { method: 'POST' });
    setEnviando(false);
    if (r.ok) setEnviada(r.datos);
    else setAlertas(alertasDe([r.error.mensaje]));
  };

  return (
    <section className="admin-seccion atr-anulacion" aria-labelledby="atr-anulacion-titulo">
      <h2 id="atr-anulacion-titulo">{reposicion ? 'Reposición del suministro' : 'Anulación'}</h2>
      <ListaAlertas alertas={alertas} alCerrar={(id) => setAlertas((l) => l.filter((x) => x.id !== id))} etiqueta="Respuesta del portal" />
      {enviada ? (
        <AvisoAtr n={1} tono={contestada === false ? 'warning' : 'info'}>
          <p>
            <strong>
              {reposicion ? 'Reposición pedida' : 'Anulación enviada'}: la distribuidora la contestará en su carpeta de salida
            </strong>{' '}
            (<code className="atr-ruta">{carpetaSalida(enviada.distribuidora)}</code>). Fichero{' '}
            <span className="atr-codigo">{enviada.fichero}</span>.
          </p>
          {contestada === null && (
            <p className="atr-aviso__espera">
              <span className="priv-cargando__giro" aria-hidden="true"></span>
              Esperando la respuesta de la distribuidora…
            </p>
          )}
          {contestada === true && <p>La distribuidora ya la ha contestado: vea abajo su mensaje.</p>}
          {contestada === false && <p>La distribuidora aún no la ha leído: vuelva a cargar la página en unos minutos.</p>}
        </AvisoAtr>
      ) : suplantado ? (
        <p className="priv-nota priv-nota--bloqueo">Mientras actúa como otro usuario no se pueden anular solicitudes ATR.</p>
      ) : reposicion ? (
        <>
          <p>
            El suministro sigue cortado desde que se activó esta baja. Cuando su cliente haya pagado, pida aquí la reposición: el portal
            deja en la carpeta de entrada la anulación de este B1 (paso {pasoAnulacionAtr(s.proceso)}), que es como se pide reponer un
            corte, y la distribuidora repone el suministro y la acepta en unos segundos.
          </p>
          <p>
            <button
              type="button"
              className="admin-boton"
              aria-busy={enviando || undefined}
              onClick={() => !enviando && setConfirmando(true)}
            >
              {enviando ? 'Enviando…' : 'Pedir la reposición'}
            </button>
          </p>
        </>
      ) : (
        <>
          <p>
            Mientras la solicitud siga abierta puede anularla: el portal deja en la carpeta de entrada el mensaje de anulación de la CNMC
            (paso {pasoAnulacionAtr(s.proceso)}) y la distribuidora la contesta en unos segundos.
          </p>
          <p>
            <button
              type="button"
              className="admin-boton admin-boton--peligro"
              aria-busy={enviando || undefined}
              onClick={() => !enviando && setConfirmando(true)}
            >
              {enviando ? 'Anulando…' : 'Anular solicitud'}
            </button>
          </p>
        </>
      )}
      <Confirmacion
        abierta={confirmando && reposicion}
        titulo="¿Pedir la reposición del suministro?"
        textoConfirmar="Pedir la reposición"
        alConfirmar={() => void anular()}
        alCancelar={() => setConfirmando(false)}
      >
        <p>
          Se enviará a la distribuidora la anulación del B1 <span className="atr-codigo">{s.codigoSolicitud}</span>, que pide reponer el
          suministro del CUPS <span className="atr-codigo">{s.cups}</span>. Hágalo solo cuando el cliente haya pagado o el corte ya no
          proceda.
        </p>
      </Confirmacion>
      <Confirmacion
        abierta={confirmando && !reposicion}
        titulo="¿Anular la solicitud?"
        textoConfirmar="Anular solicitud"
        peligrosa
        alConfirmar={() => void anular()}
        alCancelar={() => setConfirmando(false)}
      >
        <p>
          Se enviará a la distribuidora la anulación de la solicitud {s.proceso} <span className="atr-codigo">{s.codigoSolicitud}</span> del
          CUPS <span className="atr-codigo">{s.cups}</span>. No se puede deshacer: para volver a pedirlo tendrá que enviar una solicitud
          nueva.
        </p>
      </Confirmacion>
    </section>
  );
}

/** One message: step, side, date, its XML behind a disclosure and its download. */
export function Mensaje({
  m,
  proceso,
  lector = 'comercializadora',
}: {
  m: MensajeAtr;
  proceso: string;
  lector?: 'comercializadora' | 'personal';
}) {
  const id = useId();
  const nombre = nombreDescargaAtr(m);
  const descargar = () => guardarBlob(new Blob([m.xml], { type: 'application/xml;charset=utf-8' }), nombre);
  return (
    <li className={`atr-mensaje atr-mensaje--${m.lado}`}>
      <h3 id={`${id}-titulo`} className="atr-mensaje__titulo">
        Paso {textoPasoAtr(proceso, m.paso)}
      </h3>
      <dl className="admin-datos atr-mensaje__datos">
        <Dato t="Enviado por">{nombreLadoAtr(m.lado, lector)}</Dato>
        <Dato t="Fecha">{fechaHoraAtr(m.fecha)}</Dato>
        <Dato t="Fichero">
          <span className="atr-codigo">{m.nombre}</span>
        </Dato>
        {/* Why the request is delayed, in words: otherwise it is only inside the XML. */}
        {incidenciasDeMensaje(m.xml).map((i) => (
          <Dato key={`${i.codigo}-${i.comentario}`} t="Motivo de la incidencia">
            {i.codigo} · {i.texto}
            {i.comentario && `. ${i.comentario}`}
          </Dato>
        ))}
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
function Detalle({ s, poner }: { s: SolicitudAtrDetalle; poner: (d: SolicitudAtrDetalle) => void }) {
  // Open when the screen loaded it: the section stays, with what became of the anulación, once it closes.
  const [conAnulacion] = useState(() => s.abierta === true || s.reponible === true);
  const mensajes = mensajesEnOrden(s.mensajes ?? []);
  // A request refused or anulled will not be activated; one activated says when it was.
  const activacion = s.activacion || s.estado === 'rechazada' || s.estado === 'anulada' ? null : (s.activacionPrevista ?? s.vence);
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
          {s.activacion && <Dato t="Activada">{diaAtr(s.activacion)}</Dato>}
          {s.repuesto && <Dato t="Suministro repuesto">{diaAtr(s.repuesto)}</Dato>}
          <Dato t="Última actualización">{fechaHoraAtr(s.actualizada)}</Dato>
        </dl>
      </section>

      {conAnulacion && <Anulacion s={s} alContestar={poner} />}

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
  const [carga, reintentar, poner] = useSolicitud<SolicitudAtrDetalle>(apiSolicitudAtr(id));
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
      {carga.fase === 'lista' && <Detalle s={carga.datos} poner={poner} />}
    </section>
  );
}
