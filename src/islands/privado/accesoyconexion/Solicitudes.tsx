/**
 * /accesoyconexion/listado-de-solicitudes: the user's requests for access and connection to the
 * grid (RD 1183/2020), newest first: reference, distributor, kind, power, site, step, whose turn
 * and the deadline (overdue said in words), as a table on wide screens and cards on phones; and the
 * way to start a new one.
 */
import { useEffect, useRef, useState } from 'react';
import { apiFetch } from '../../../lib/api/cliente.ts';
import { API_SOLICITUDES, resumenLista, RUTA_SOLICITUD, textoKw, textoPlazo, urlSolicitud } from '../../../lib/accesoyconexion/pantalla.ts';
import type { SolicitudResumen } from '../../../lib/accesoyconexion/respuestas.ts';
import { NOMBRE_TIPO } from '../../../lib/accesoyconexion/solicitud.ts';
import { diaDe } from '../../../lib/expedientes/plazos.ts';
import { Dato } from '../../comunes/Dato.tsx';
import type { PropsPantalla } from '../AppPrivada.tsx';
import { Cargando, ErrorCarga, Vacio, type Carga } from '../medidas/comun.tsx';
import { EtiquetaTurno, Plazo } from '../expedientes/etiquetas.tsx';
import { $avisoSolicitudes } from './comun.tsx';
import '../medidas/medidas.css';

const tipoDe = (s: SolicitudResumen) => (s.tipo ? NOMBRE_TIPO[s.tipo] : 'Sin tipo todavía');
const lugarDe = (s: SolicitudResumen) => s.emplazamiento || 'Sin emplazamiento todavía';

/** The requests as a table (wide screens). */
function Tabla({ filas, hoy }: { filas: SolicitudResumen[]; hoy: string }) {
  return (
    <div className="med-tabla ac-lista-tabla" role="region" aria-labelledby="ac-tabla-titulo" tabIndex={0}>
      <table className="med-tabla__tabla">
        <caption id="ac-tabla-titulo">Sus solicitudes, la más reciente primero</caption>
        <thead>
          <tr>
            <th scope="col">Solicitud</th>
            <th scope="col">Distribuidora</th>
            <th scope="col" className="med-num">
              Potencia
            </th>
            <th scope="col">Emplazamiento</th>
            <th scope="col">Paso</th>
            <th scope="col">Plazo</th>
          </tr>
        </thead>
        <tbody>
          {filas.map((s) => (
            <tr key={s.id}>
              <th scope="row">
                <a href={urlSolicitud(s.id)} className="med-nowrap">
                  {s.referencia}
                </a>
                <span className="ac-lista__sub">{tipoDe(s)}</span>
              </th>
              <td>{s.distribuidoraNombre}</td>
              <td className="med-num">{textoKw(s.potenciaKw)}</td>
              <td>{lugarDe(s)}</td>
              <td>
                {s.pasoNombre}
                <span className="ac-lista__sub">
                  <EtiquetaTurno turno={s.turno} />
                </span>
              </td>
              <td>
                <Plazo plazo={textoPlazo(s.vence, s.vencido, hoy, s.distribuidora)} corto />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The requests as cards (phones). */
function Tarjetas({ filas, hoy }: { filas: SolicitudResumen[]; hoy: string }) {
  return (
    <ul className="med-tarjetas ac-lista-tarjetas" aria-label="Sus solicitudes, la más reciente primero">
      {filas.map((s) => {
        const plazo = textoPlazo(s.vence, s.vencido, hoy, s.distribuidora);
        return (
          <li key={s.id} className="med-tarjeta ac-tarjeta">
            <h3 className="med-tarjeta__titulo">
              <a href={urlSolicitud(s.id)}>
                {s.referencia}
                <span className="med-tarjeta__lugar">{tipoDe(s)}</span>
              </a>
            </h3>
            <p>
              <EtiquetaTurno turno={s.turno} />
            </p>
            <dl className="med-tarjeta__datos">
              <Dato t="Paso">{s.pasoNombre}</Dato>
              <Dato t="Plazo">
                <Plazo plazo={plazo} corto />
              </Dato>
              <Dato t="Distribuidora">{s.distribuidoraNombre}</Dato>
              <Dato t="Potencia">{textoKw(s.potenciaKw)}</Dato>
              <Dato t="Emplazamiento">{lugarDe(s)}</Dato>
            </dl>
          </li>
        );
      })}
    </ul>
  );
}

/** The applicant's list screen. */
export default function Solicitudes({ ruta }: PropsPantalla) {
  const [lista, setLista] = useState<Carga<SolicitudResumen[]>>({ fase: 'cargando' });
  const [recarga, setRecarga] = useState(0);
  // A message left by the screen that sent the user here (a draft deleted): shown once, with focus.
  const [aviso] = useState(() => $avisoSolicitudes.get());
  const cajaAviso = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const peticion = new AbortController();
    setLista({ fase: 'cargando' });
    void apiFetch<SolicitudResumen[]>(API_SOLICITUDES, { signal: peticion.signal }).then((r) => {
      if (peticion.signal.aborted) return;
      setLista(r.ok ? { fase: 'lista', datos: r.datos } : { fase: 'error', mensaje: r.error.mensaje });
    });
    return () => peticion.abort();
  }, [recarga]);

  useEffect(() => {
    $avisoSolicitudes.set(null);
    cajaAviso.current?.focus();
  }, []);

  const hoy = diaDe(Date.now());

  return (
    <div className="priv-pagina med med--ancha ac">
      <h1 tabIndex={-1}>{ruta.titulo}</h1>
      <p className="med-intro">
        Pida a la distribuidora los permisos de acceso y conexión a su red para una instalación de generación, almacenamiento, autoconsumo
        con excedentes o un consumo nuevo (RD 1183/2020), y siga cada paso hasta que los emite. Le avisaremos por correo electrónico cada
        vez que le toque actuar.
      </p>

      {aviso && (
        <div ref={cajaAviso} tabIndex={-1} className="priv-aviso priv-aviso--info" role="status">
          <p>{aviso}</p>
        </div>
      )}

      <p>
        <a className="priv-boton ac-boton-enlace" href={RUTA_SOLICITUD}>
          Nueva solicitud
        </a>
      </p>

      <section aria-labelledby="ac-lista-titulo" className="ac-lista">
        <h2 id="ac-lista-titulo">Sus solicitudes</h2>
        {lista.fase === 'cargando' && <Cargando texto="Cargando sus solicitudes…" />}
        {lista.fase === 'error' && <ErrorCarga que="sus solicitudes" mensaje={lista.mensaje} reintentar={() => setRecarga((n) => n + 1)} />}
        {lista.fase === 'lista' && lista.datos.length === 0 && (
          <Vacio titulo="Todavía no tiene solicitudes de acceso y conexión" nivel="h3">
            <p>
              Antes de conectar a la red de distribución una instalación que vierte energía, o un consumo nuevo que lo necesite, la
              distribuidora tiene que concederle los permisos de acceso y conexión. Pulse «Nueva solicitud» para pedirlos: el borrador se
              guarda solo mientras lo completa.
            </p>
          </Vacio>
        )}
        {lista.fase === 'lista' && lista.datos.length > 0 && (
          <>
            <p className="med-nota-linea">{resumenLista(lista.datos)}</p>
            <Tabla filas={lista.datos} hoy={hoy} />
            <Tarjetas filas={lista.datos} hoy={hoy} />
          </>
        )}
      </section>
    </div>
  );
}
