/**
 * /administrador/contadores: find a supply point by CUPS and change the state of its
 * meter with a reason, and read its latest register readings with their origin (a self-reading a
 * supply company passed on by W1 names the company). Only CUPS of the distributors the administrator manages are looked up (the
 * prefix says whose a CUPS is, so the screen tells them before asking the API); the form is checked
 * with the API's own rules, and every change lands in the audit log on the server. The CUPS lives
 * in the address (`?cups=`), so a reload shows the same supply point.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { apiFetch } from '../../../lib/administracion/api.ts';
import { formatearFechaHora } from '../../../lib/administracion/fechas.ts';
import { mensajesDeError } from '../../../lib/api/cliente.ts';
import { normalizarCups } from '../../../lib/cups.ts';
import {
  CAMPOS_ESTADO,
  ESTADOS_SUMINISTRO,
  errorCupsAdministrado,
  formularioDeEstado,
  INTERRUPTORES,
  MAX_MOTIVO,
  filasEstado,
  requiereMotivo,
  TEXTO_INTERRUPTOR,
  TEXTO_SUMINISTRO,
  validarFormularioEstado,
  type CampoEstado,
} from '../../../lib/lecturas/estado-contador.ts';
import type { EstadoAdmin } from '../../../lib/lecturas/pantalla.ts';
import { $permisos } from '../../../lib/sesion/index.ts';
import { alertasDe, ListaAlertas, type Alerta } from '../../comunes/ListaAlertas.tsx';
import { TablaLecturas } from '../medidas/TablaLecturas.tsx';
import { ResumenErrores } from '../../comunes/formulario/ResumenErrores.tsx';
import { Dato } from '../../comunes/Dato.tsx';
import '../../sesion/sesion.css';
import type { PropsPantalla } from '../AppPrivada.tsx';
import { useCargaApi } from '../medidas/usar-carga.ts';
import { Campo, CampoArea, CampoSelect, Cargando, useCamposAdmin } from './comun.tsx';
import { useConsultaUrl } from '../usar-consulta.ts';
import { FormularioFiltros } from './lista.tsx';
import './administracion.css';
import { urlApi } from '../../../lib/api/rutas.ts';

/** Labels of the form's fields, also the start of each message in the error summary. */
const ETIQUETAS: Record<CampoEstado, string> = {
  comunica: '¿Comunica el contador?',
  ultimaComunicacion: 'Última comunicación',
  interruptor: 'Interruptor de control de potencia',
  estadoSuministro: 'Suministro',
  motivo: 'Motivo para el titular',
};

const OPCIONES_COMUNICA = [
  { valor: 'si', texto: 'Sí, comunica' },
  { valor: 'no', texto: 'No comunica' },
];
const OPCIONES_INTERRUPTOR = INTERRUPTORES.map((i) => ({ valor: i, texto: TEXTO_INTERRUPTOR[i] }));
const OPCIONES_SUMINISTRO = ESTADOS_SUMINISTRO.map((s) => ({ valor: s, texto: TEXTO_SUMINISTRO[s] }));

const ORIGENES: Record<string, string> = {
  telegestion: 'el sistema de telegestión',
  administrador: 'un administrador',
  importacion: 'una importación de fichero',
  demo: 'los datos de demostración',
};

/** The meters administration screen. */
export default function ContadoresAdmin({ ruta }: PropsPantalla) {
  const permisos = useStore($permisos);
  const [consulta, cambiarConsulta] = useConsultaUrl();
  const cupsUrl = normalizarCups(new URLSearchParams(consulta).get('cups') ?? '');
  const errorUrl = cupsUrl ? errorCupsAdministrado(cupsUrl, permisos) : null;
  const [borrador, setBorrador] = useState(cupsUrl);
  const [errorBusqueda, setErrorBusqueda] = useState<string | null>(null);
  const [intentoBusqueda, setIntentoBusqueda] = useState(0);
  const id = useId();
  const idCups = `${id}-cups`;

  useEffect(() => {
    setBorrador(cupsUrl);
    setErrorBusqueda(errorUrl);
  }, [cupsUrl, errorUrl]);

  const [carga, recargar] = useCargaApi<EstadoAdmin>(
    cupsUrl && !errorUrl ? urlApi('/administrador/contadores/{cups}', { path: { cups: cupsUrl } }) : null,
  );
  // The answer of a save replaces the loaded one until another CUPS is looked up.
  const [guardado, setGuardado] = useState<EstadoAdmin | null>(null);
  useEffect(() => setGuardado(null), [cupsUrl]);
  const datos = guardado && guardado.cups === cupsUrl ? guardado : carga?.fase === 'lista' ? carga.datos : null;

  const buscar = (ev: FormEvent<HTMLFormElement>) => {
    ev.preventDefault();
    const cups = normalizarCups(borrador);
    const e = errorCupsAdministrado(cups, permisos);
    setErrorBusqueda(e);
    if (e) {
      setIntentoBusqueda((n) => n + 1);
      return;
    }
    if (cups === cupsUrl) recargar();
    else cambiarConsulta(new URLSearchParams({ cups }).toString());
  };

  return (
    <section className="admin">
      <h1 tabIndex={-1}>{ruta.titulo}</h1>
      <p className="admin__intro">
        Consulte y cambie el estado del contador de un suministro de las distribuidoras que administra: si comunica, su interruptor de
        control de potencia y si tiene suministro. El titular ve el estado y el motivo en «Estado del contador». Cada cambio queda en el
        registro de actividad.
      </p>

      <ResumenErrores
        titulo="Revise el CUPS:"
        errores={errorBusqueda ? [{ campo: idCups, mensaje: errorBusqueda }] : []}
        intento={intentoBusqueda}
      />
      <FormularioFiltros etiqueta="Buscar un suministro por CUPS" alEnviar={buscar} texto="Buscar">
        <Campo
          id={idCups}
          etiqueta="CUPS del suministro"
          ayuda="20 o 22 caracteres, como figura en la factura (por ejemplo, ES9901000000000001QY)."
          valor={borrador}
          alCambiar={setBorrador}
          error={errorBusqueda ?? undefined}
          max={30}
          clase="admin-filtros__busqueda"
        />
      </FormularioFiltros>

      {carga?.fase === 'cargando' && !datos && <Cargando texto="Buscando el suministro…" />}
      {carga?.fase === 'error' && (
        <div className="priv-aviso priv-aviso--error" role="alert">
          <p>{carga.mensaje}</p>
        </div>
      )}
      {datos && <Suministro key={datos.cups} datos={datos} alGuardar={setGuardado} />}
    </section>
  );
}

/** The supply point found, its current state and the form to change it. */
function Suministro({ datos, alGuardar }: { datos: EstadoAdmin; alGuardar: (d: EstadoAdmin) => void }) {
  const e = datos.estado;
  const c = useCamposAdmin(() => formularioDeEstado(e), ETIQUETAS);
  const { valores: f, errores, setErrores } = c;
  const [intento, setIntento] = useState(0);
  const [alertas, setAlertas] = useState<Alerta[]>([]);
  const [enviando, setEnviando] = useState(false);
  const titulo = useRef<HTMLHeadingElement>(null);
  const id = useId();

  // The supply point replaced the search results under the user's hand: their next stop is its heading.
  useEffect(() => titulo.current?.focus(), []);

  const guardar = async (ev: FormEvent<HTMLFormElement>) => {
    ev.preventDefault();
    if (enviando) return;
    const v = validarFormularioEstado(f, new Date());
    if (!v.ok) {
      setErrores(v.errores);
      setAlertas([]);
      setIntento((n) => n + 1);
      return;
    }
    setErrores({});
    setEnviando(true);
    const r = await apiFetch<EstadoAdmin>(urlApi('/administrador/contadores/{cups}', { path: { cups: datos.cups } }), {
      method: 'PUT',
      json: v.cuerpo,
    });
    setEnviando(false);
    if (!r.ok) {
      setAlertas(alertasDe(mensajesDeError(r.error)));
      return;
    }
    const aviso = r.datos.notificaciones[0];
    const nuevoAviso = aviso && aviso.codigoSolicitud !== datos.notificaciones[0]?.codigoSolicitud;
    setAlertas(
      alertasDe(
        [
          `Estado del contador de ${r.datos.direccion} guardado. El titular ya lo ve en «Estado del contador».` +
            (nuevoAviso
              ? ` Se ha avisado a la comercializadora ${aviso.comercializadora} con un D1: ${aviso.motivoTexto.toLowerCase()}.`
              : ''),
        ],
        'success',
      ),
    );
    alGuardar(r.datos);
  };

  const resumen = useMemo(
    () => CAMPOS_ESTADO.filter((k) => errores[k]).map((k) => ({ campo: c.idDe(k), mensaje: `${ETIQUETAS[k]}: ${errores[k]}` })),
    [errores],
  );
  const motivoNecesario = requiereMotivo(f);

  return (
    <>
      <section className="admin-seccion" aria-labelledby={`${id}-titulo`}>
        <h2 id={`${id}-titulo`} ref={titulo} tabIndex={-1}>
          {datos.direccion}, {datos.municipio}
        </h2>
        <dl className="admin-datos">
          <Dato t="CUPS">{datos.cups}</Dato>
          <Dato t="Titular">{datos.titular}</Dato>
          <Dato t="Distribuidora">{datos.distribuidoraNombre}</Dato>
          <Dato t="Tarifa y contador">
            {datos.tarifa} · {datos.telegestionado ? 'telegestionado' : 'sin telegestión (lo visita un lector)'}
          </Dato>
          <Dato t="Comercializadora">{datos.comercializadora}</Dato>
        </dl>
        <h3 className="admin__subtitulo">Estado actual</h3>
        {e ? (
          <dl className="admin-datos">
            {filasEstado(e, datos.telegestionado, formatearFechaHora).map((fila) => (
              <Dato key={fila.etiqueta} t={fila.etiqueta}>
                {fila.valor}
              </Dato>
            ))}
            <Dato t="Último cambio">
              {formatearFechaHora(e.actualizadoEn)}, por{' '}
              {e.actualizadoPor ? `${e.actualizadoPor.nombre} (${e.actualizadoPor.email})` : (ORIGENES[e.origen] ?? e.origen)}
            </Dato>
          </dl>
        ) : (
          <p className="admin-nota">
            Todavía no hay estado registrado para este contador: el titular ve «Todavía no conocemos el estado de este contador».
          </p>
        )}
        <TablaLecturas cups={datos.cups} lecturas={datos.lecturas} vista="personal" />
        <h3 className="admin__subtitulo">Avisos a la comercializadora (D1)</h3>
        {datos.notificaciones.length === 0 ? (
          <p className="admin-nota">
            Ningún aviso todavía. Cuando un contador telegestionado deja de comunicar o vuelve a hacerlo, se avisa a su comercializadora con
            un D1 en su carpeta salida.
          </p>
        ) : (
          <ul className="admin-lista-simple">
            {datos.notificaciones.map((n) => (
              <li key={n.codigoSolicitud}>
                {formatearFechaHora(n.enviadaEn)}: {n.motivoTexto} (motivo {n.motivo}), a la comercializadora {n.comercializadora},
                solicitud {n.codigoSolicitud}. {n.respuestaTexto}
                {n.respondidaEn ? ` el ${formatearFechaHora(n.respondidaEn)}` : ''}.
              </li>
            ))}
          </ul>
        )}
      </section>

      <section className="admin-seccion" aria-labelledby={`${id}-cambio`}>
        <h2 id={`${id}-cambio`}>Cambiar el estado</h2>
        <ResumenErrores titulo="Revise los campos marcados" errores={resumen} intento={intento} />
        <ListaAlertas alertas={alertas} alCerrar={(a) => setAlertas((l) => l.filter((x) => x.id !== a))} etiqueta="Resultado del cambio" />
        <form className="admin-formulario" noValidate onSubmit={(ev) => void guardar(ev)} aria-labelledby={`${id}-cambio`}>
          <CampoSelect {...c.campo('comunica')} opciones={OPCIONES_COMUNICA} />
          <Campo
            {...c.campo('ultimaComunicacion')}
            tipo="datetime-local"
            ayuda="Hora peninsular. Vacía: ahora, si comunica; desconocida, si no."
          />
          <CampoSelect {...c.campo('interruptor')} opciones={OPCIONES_INTERRUPTOR} />
          <CampoSelect {...c.campo('estadoSuministro')} opciones={OPCIONES_SUMINISTRO} />
          <CampoArea
            {...c.campo('motivo')}
            requerido={motivoNecesario}
            max={MAX_MOTIVO}
            clase="admin-formulario__ancho"
            ayuda="Obligatorio para un corte, un suministro sin luz o un interruptor abierto a distancia. El titular lo leerá tal cual: escríbalo para él."
          />
          <div className="admin-acciones">
            <button type="submit" className="admin-boton" aria-disabled={enviando || undefined} aria-busy={enviando || undefined}>
              {enviando ? 'Guardando…' : 'Guardar estado'}
            </button>
          </div>
        </form>
      </section>
    </>
  );
}
