/**
 * /accesoyconexion/solicitud/:id?: without an id, the start of a new request (the distributor, then
 * a draft is created and opened); with one, the request: its form while it is a draft, its detail
 * (timeline, documents, the actions open to the applicant) once filed.
 */
import { useStore } from '@nanostores/react';
import { useCallback, useState, type FormEvent } from 'react';
import { apiFetch, mensajesDeError } from '../../../lib/api/cliente.ts';
import {
  API_SOLICITUDES,
  apiSolicitud,
  distribuidorasAcceso,
  RUTA_SOLICITUDES,
  urlSolicitud,
} from '../../../lib/accesoyconexion/pantalla.ts';
import type { SolicitudDetalle } from '../../../lib/accesoyconexion/respuestas.ts';
import { DISTRIBUIDORAS } from '../../../lib/distribuidoras.ts';
import { navegar } from '../../../lib/privado/navegacion.ts';
import { $permisos } from '../../../lib/sesion/index.ts';
import { alertasDe, ListaAlertas, type Alerta } from '../../comunes/ListaAlertas.tsx';
import { BotonEnviar } from '../../comunes/formulario/BotonEnviar.tsx';
import { ResumenErrores } from '../../comunes/formulario/ResumenErrores.tsx';
import type { PropsPantalla } from '../AppPrivada.tsx';
import { Cargando, ErrorCarga } from '../medidas/comun.tsx';
import { useSolicitud } from '../modificaciones/comun.tsx';
import { Borrador } from './Borrador.tsx';
import { Opciones } from '../expedientes/campos.tsx';
import './accesoyconexion.css';
import { Detalle } from './Detalle.tsx';
import '../medidas/medidas.css';
import '../administracion/administracion.css';
import '../../sesion/sesion.css';

function Volver() {
  return (
    <p className="med-volver">
      <a href={RUTA_SOLICITUDES}>
        <span aria-hidden="true">← </span>Volver a sus solicitudes
      </a>
    </p>
  );
}

/** The start of a new request: the distributor, then the draft. */
function Nueva({ titulo }: { titulo: string }) {
  const permisos = useStore($permisos);
  const opciones = distribuidorasAcceso(permisos);
  const [elegida, setElegida] = useState<string>(opciones.length === 1 ? opciones[0]!.codigo : '');
  const [error, setError] = useState<string | undefined>();
  const [intento, setIntento] = useState(0);
  const [alertas, setAlertas] = useState<Alerta[]>([]);
  const [enviando, setEnviando] = useState(false);

  const empezar = async (ev: FormEvent<HTMLFormElement>) => {
    ev.preventDefault();
    if (enviando) return;
    setAlertas([]);
    if (!elegida) {
      setError('Elija la distribuidora a la que pide el acceso.');
      setIntento((n) => n + 1);
      return;
    }
    setEnviando(true);
    const r = await apiFetch<SolicitudDetalle>(API_SOLICITUDES, { method: 'POST', json: { distribuidora: elegida } });
    setEnviando(false);
    if (r.ok) navegar(urlSolicitud(r.datos.id));
    else setAlertas(alertasDe(mensajesDeError(r.error)));
  };

  return (
    <div className="priv-pagina med ac">
      <Volver />
      <h1 tabIndex={-1}>{titulo}</h1>
      <p className="med-intro">
        Pida el acceso a la distribuidora que tiene la red en la zona de su instalación. Crearemos un borrador que se guarda solo mientras
        lo completa: puede dejarlo y seguir otro día. La distribuidora no lo verá hasta que lo presente.
      </p>
      <section className="med-panel ac-panel" aria-labelledby="ac-nueva-titulo">
        <h2 id="ac-nueva-titulo">Distribuidora</h2>
        <ResumenErrores
          titulo="Revise esto antes de seguir:"
          errores={error ? [{ campo: 'ac-distribuidora', mensaje: error }] : []}
          intento={intento}
        />
        <ListaAlertas alertas={alertas} alCerrar={(id) => setAlertas((l) => l.filter((a) => a.id !== id))} />
        {opciones.length === 0 ? (
          <p>Su cuenta no tiene permiso para presentar solicitudes de acceso y conexión. Póngase en contacto con nosotros.</p>
        ) : (
          <form className="mod-formulario" noValidate onSubmit={(e) => void empezar(e)} aria-labelledby="ac-nueva-titulo">
            {opciones.length > 1 ? (
              <Opciones
                id="ac-distribuidora"
                leyenda="¿A qué distribuidora pide el acceso?"
                ayuda={
                  <>
                    La que tiene la red donde se conectará la instalación. La capacidad de acceso de cada nudo se publica en{' '}
                    {DISTRIBUIDORAS.filter((d) => d.paginaCapacidadNodal).map((d, i, l) => (
                      <span key={d.codigo}>
                        <a href={d.paginaCapacidadNodal!}>la página de {d.nombre}</a>
                        {i < l.length - 2 ? ', ' : i === l.length - 2 ? ' y ' : '.'}
                      </span>
                    ))}
                  </>
                }
                opciones={opciones.map((d) => ({ valor: d.codigo, texto: d.nombre }))}
                valor={elegida}
                alCambiar={(v) => {
                  setElegida(v);
                  setError(undefined);
                }}
                error={error}
              />
            ) : (
              <p>La solicitud se presentará a {opciones[0]!.nombre}.</p>
            )}
            <div className="admin-acciones">
              <BotonEnviar texto="Empezar la solicitud" textoEnviando="Creando el borrador…" clase="priv-boton" enviando={enviando} />
            </div>
          </form>
        )}
      </section>
    </div>
  );
}

/** One request: its draft form or its detail. */
function Existente({ id, titulo }: { id: string; titulo: string }) {
  const url = apiSolicitud(id);
  const [carga, reintentar, poner] = useSolicitud<SolicitudDetalle>(url);
  const [aviso, setAviso] = useState<string | null>(null);

  // Reloads without going back to "loading", so a form on screen keeps what is typed in it.
  const refrescar = useCallback(async () => {
    const r = await apiFetch<SolicitudDetalle>(url);
    if (r.ok) poner(r.datos);
  }, [url, poner]);

  if (carga.fase !== 'lista') {
    return (
      <div className="priv-pagina med ac">
        <Volver />
        <h1 tabIndex={-1}>{titulo}</h1>
        {carga.fase === 'cargando' && <Cargando texto="Cargando la solicitud…" />}
        {carga.fase === 'error' && <ErrorCarga que="la solicitud" mensaje={carga.mensaje} reintentar={reintentar} />}
        {carga.fase === 'no-existe' && (
          <div className="priv-aviso priv-aviso--warning" role="alert">
            <p>
              {carga.mensaje} Puede que se borrara el borrador, o que la dirección no esté completa.{' '}
              <a href={RUTA_SOLICITUDES}>Vea sus solicitudes</a>.
            </p>
          </div>
        )}
      </div>
    );
  }

  const s = carga.datos;
  return (
    <div className="priv-pagina med med--ancha ac">
      <Volver />
      <h1 tabIndex={-1}>{titulo}</h1>
      {s.paso === 'borrador' ? (
        <Borrador
          detalle={s}
          poner={poner}
          refrescar={refrescar}
          alPresentar={(d) => {
            setAviso(
              `Hemos presentado su solicitud ${d.referencia} a ${d.distribuidoraNombre} y le avisaremos por correo electrónico cuando responda.`,
            );
            poner(d);
          }}
        />
      ) : (
        <Detalle detalle={s} poner={poner} refrescar={refrescar} avisoInicial={aviso} />
      )}
    </div>
  );
}

/** The request screen. */
export default function Solicitud({ params, ruta }: PropsPantalla) {
  const id = params['id'];
  return id ? <Existente id={id} titulo={ruta.titulo} /> : <Nueva titulo={ruta.titulo} />;
}
