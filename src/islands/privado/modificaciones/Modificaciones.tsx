/**
 * /modificacionesContractuales/modificaciones-contractuales: the holder's requests to
 * change the contracted power, the tariff or the holder data of their supply points, each with its
 * number, state and timeline, and the form to send a new one. `?cups=` opens the form on that supply
 * point (the contract screen can link here).
 */
import { useEffect, useRef, useState } from 'react';
import { apiFetch } from '../../../lib/api/cliente.ts';
import { resumenCambio, textoTipo, urlSolicitud } from '../../../lib/modificaciones/presentacion.ts';
import type { SolicitudApi } from '../../../lib/modificaciones/tipos.ts';
import type { PropsPantalla } from '../AppPrivada.tsx';
import { Cargando, ErrorCarga, SinSuministros, useSuministros, Vacio, type Carga } from '../medidas/comun.tsx';
import { useConsultaUrl } from '../usar-consulta.ts';
import { DatosSuministro, EtiquetaEstado, Historial } from './comun.tsx';
import { FormularioModificacion } from './Formulario.tsx';
import '../medidas/medidas.css';
import { urlApi } from '../../../lib/api/rutas.ts';

/** One request in the list: number and kind, state, what changes, where, and its timeline. */
function Tarjeta({ s }: { s: SolicitudApi }) {
  return (
    <li className="med-tarjeta mod-tarjeta">
      <div className="mod-tarjeta__cabeza">
        <h3 className="med-tarjeta__titulo">
          <a href={urlSolicitud(s.referencia)}>
            {s.referencia} · {textoTipo(s.solicitado)}
          </a>
        </h3>
        <EtiquetaEstado estado={s.estado} />
      </div>
      <p className="mod-resumen">{resumenCambio(s.anterior, s.solicitado)}</p>
      <dl className="med-tarjeta__datos">
        <DatosSuministro s={s} />
      </dl>
      {s.motivoRechazo && (
        <p>
          <strong>Motivo del rechazo:</strong> {s.motivoRechazo.codigo} · {s.motivoRechazo.texto}
        </p>
      )}
      <Historial eventos={s.eventos} etiqueta={`Historial de ${s.referencia}`} />
    </li>
  );
}

/** The holder's contractual modifications screen. */
export default function Modificaciones({ ruta }: PropsPantalla) {
  const [consulta] = useConsultaUrl();
  const cupsPedido = new URLSearchParams(consulta).get('cups')?.toUpperCase() ?? '';
  const [suministros, reintentarSuministros] = useSuministros();
  const [lista, setLista] = useState<Carga<SolicitudApi[]>>({ fase: 'cargando' });
  const [recarga, setRecarga] = useState(0);
  const [abierto, setAbierto] = useState(cupsPedido !== '');
  const [enviada, setEnviada] = useState<SolicitudApi | null>(null);
  const boton = useRef<HTMLButtonElement>(null);
  const aviso = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const peticion = new AbortController();
    setLista((l) => (l.fase === 'lista' ? l : { fase: 'cargando' }));
    void apiFetch<SolicitudApi[]>(urlApi('/modificaciones'), { signal: peticion.signal }).then((r) => {
      if (peticion.signal.aborted) return;
      setLista(r.ok ? { fase: 'lista', datos: r.datos } : { fase: 'error', mensaje: r.error.mensaje });
    });
    return () => peticion.abort();
  }, [recarga]);

  // After sending: the confirmation takes focus, so the user hears it and finds the new request below.
  useEffect(() => {
    if (enviada) aviso.current?.focus();
  }, [enviada]);

  // Only the holder asks for a change: a supply point an authorisation lets the user read is not offered (decision 028).
  const propios = suministros.fase === 'lista' ? suministros.datos.filter((s) => !s.autorizacion) : [];
  const cupsInicial = propios.some((s) => s.cups === cupsPedido) ? cupsPedido : (propios[0]?.cups ?? '');

  return (
    <div className="priv-pagina med">
      <h1 tabIndex={-1}>{ruta.titulo}</h1>
      <p className="med-intro">
        Pida a su distribuidora un cambio de la potencia contratada, de la tarifa de acceso o de los datos del titular de sus suministros, y
        siga cada solicitud hasta que se aplica. Le avisaremos por correo electrónico de cada cambio de estado.
      </p>

      {enviada && (
        <div ref={aviso} tabIndex={-1} className="priv-aviso priv-aviso--info" role="status">
          <p>
            <strong>Hemos recibido su solicitud {enviada.referencia}.</strong> La distribuidora la revisará en un plazo de cinco días
            hábiles. Puede seguirla en la lista o en <a href={urlSolicitud(enviada.referencia)}>su detalle</a>.
          </p>
        </div>
      )}

      {suministros.fase === 'cargando' && <Cargando texto="Cargando sus suministros…" />}
      {suministros.fase === 'error' && (
        <ErrorCarga que="sus suministros" mensaje={suministros.mensaje} reintentar={reintentarSuministros} />
      )}
      {suministros.fase === 'lista' && propios.length === 0 && <SinSuministros />}

      {propios.length > 0 &&
        (abierto ? (
          <FormularioModificacion
            suministros={propios}
            cupsInicial={cupsInicial}
            alCancelar={() => {
              setAbierto(false);
              requestAnimationFrame(() => boton.current?.focus());
            }}
            alEnviar={(s) => {
              setAbierto(false);
              setEnviada(s);
              setRecarga((n) => n + 1);
            }}
          />
        ) : (
          <p>
            <button
              ref={boton}
              type="button"
              className="priv-boton"
              aria-expanded={false}
              onClick={() => (setEnviada(null), setAbierto(true))}
            >
              Nueva solicitud
            </button>
          </p>
        ))}

      {propios.length > 0 && (
        <section aria-labelledby="mod-lista-titulo">
          <h2 id="mod-lista-titulo">Sus solicitudes</h2>
          {lista.fase === 'cargando' && <Cargando texto="Cargando sus solicitudes…" />}
          {lista.fase === 'error' && (
            <ErrorCarga que="sus solicitudes" mensaje={lista.mensaje} reintentar={() => setRecarga((n) => n + 1)} />
          )}
          {lista.fase === 'lista' && lista.datos.length === 0 && (
            <Vacio titulo="Todavía no ha presentado ninguna solicitud" nivel="h3">
              <p>Cuando pida un cambio de potencia, de tarifa o de titular, aparecerá aquí con su número y cada paso de su tramitación.</p>
            </Vacio>
          )}
          {lista.fase === 'lista' && lista.datos.length > 0 && (
            <ul className="med-tarjetas">
              {lista.datos.map((s) => (
                <Tarjeta key={s.numero} s={s} />
              ))}
            </ul>
          )}
        </section>
      )}
    </div>
  );
}
