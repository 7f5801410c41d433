/**
 * /comercializadora/solicitud-atr: the supply company's ATR requests (C1, C2, A3, M1, B1) at the
 * distributors it works with (`<d>-comercializadora`), newest first, filtered by distributor,
 * process, state and CUPS or request code (in the address, so back, forward and a reload keep
 * them) and paged by the server. A table on wide screens, cards on phones; each reference leads to
 * the request with its messages. "Nueva solicitud" opens the form; the request it sent is announced
 * here, and shown as soon as the distributor's reader has answered it.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useMemo, useState } from 'react';
import { apiFetch } from '../../../lib/api/cliente.ts';
import type { SolicitudAtrEnviada } from '../../../lib/atr/formulario.ts';
import {
  carpetaSalida,
  diaAtr,
  ESTADOS_ATR,
  fechaHoraAtr,
  FILTROS_ATR_VACIOS,
  listaAtr,
  nombreEstadoAtr,
  nombreProcesoAtr,
  RUTA_NUEVA_SOLICITUD_ATR,
  textoVenceAtr,
  urlListaAtr,
  urlSolicitudAtr,
  type SolicitudAtrResumen,
} from '../../../lib/atr/pantalla.ts';
import { PROCESOS_ATR } from '../../../lib/atr/procesos.ts';
import { totalPaginas } from '../../../lib/administracion/consulta.ts';
import { nombreDistribuidora } from '../../../lib/distribuidoras.ts';
import { distribuidorasConArea } from '../../../lib/permisos.ts';
import { $permisos } from '../../../lib/sesion/index.ts';
import { Dato } from '../../comunes/Dato.tsx';
import type { PropsPantalla } from '../AppPrivada.tsx';
import { Paginador, type Opcion } from '../administracion/comun.tsx';
import { Filtro, FormularioFiltros, opcionesFiltro, ResultadosLista, useListaFiltrada, type Lista } from '../administracion/lista.tsx';
import type { FiltrosAtr } from '../../../lib/atr/pantalla.ts';
import { $enviadaAtr, AvisoAtr, cargarPaginaAtr, CodigoProceso, ComoSeEnvian, EstadoSolicitud, recordarConsultaAtr } from './comun.tsx';

/** How often, and how many times, the list looks for the answer to a request the form just sent. */
const CADA_MS = 2_000;
const INTENTOS = 20;

type Espera = { fase: 'esperando' } | { fase: 'contestada'; s: SolicitudAtrResumen } | { fase: 'tarda' };

/**
 * Waits for the distributor's reader to answer the request the form sent (it reads entrada every
 * two seconds): looks for it by its code, and once it is there reloads the list once.
 */
function useContestacion(enviada: SolicitudAtrEnviada | null, alLlegar: () => void): Espera | null {
  const [espera, setEspera] = useState<Espera | null>(enviada ? { fase: 'esperando' } : null);
  useEffect(() => {
    if (!enviada) return;
    let vivo = true;
    let intentos = 0;
    let temporizador: ReturnType<typeof setTimeout> | undefined;
    const url = urlListaAtr({ ...FILTROS_ATR_VACIOS, distribuidora: enviada.distribuidora, q: enviada.codigoSolicitud });
    const mirar = async () => {
      const r = await apiFetch<SolicitudAtrResumen[]>(url);
      if (!vivo) return;
      const s = r.ok && Array.isArray(r.datos) ? r.datos.find((x) => x.codigoSolicitud === enviada.codigoSolicitud) : undefined;
      if (s) {
        setEspera({ fase: 'contestada', s });
        alLlegar();
      } else if (++intentos >= INTENTOS) setEspera({ fase: 'tarda' });
      else temporizador = setTimeout(() => void mirar(), CADA_MS);
    };
    temporizador = setTimeout(() => void mirar(), CADA_MS);
    return () => {
      vivo = false;
      clearTimeout(temporizador);
    };
    // `alLlegar` reloads the list: the latest one is fine.
  }, [enviada]);
  return espera;
}

/** What became of the request the form sent. */
function AvisoEnviada({ e, espera }: { e: SolicitudAtrEnviada; espera: Espera }) {
  return (
    <AvisoAtr n={1} tono={espera.fase === 'tarda' ? 'warning' : 'info'}>
      <p>
        <strong>Solicitud enviada: la distribuidora la contestará en su carpeta de salida</strong> (
        <code className="atr-ruta">{carpetaSalida(e.distribuidora)}</code>). Código de solicitud{' '}
        <span className="atr-codigo">{e.codigoSolicitud}</span>, fichero <span className="atr-codigo">{e.fichero}</span>.
      </p>
      {espera.fase === 'esperando' && (
        <p className="atr-aviso__espera">
          <span className="priv-cargando__giro" aria-hidden="true"></span>
          Aparecerá en esta lista en cuanto la distribuidora la lea, en unos segundos.
        </p>
      )}
      {espera.fase === 'contestada' && (
        <p>
          Ya está contestada: <a href={urlSolicitudAtr(espera.s.id)}>{espera.s.referencia}</a>,{' '}
          {nombreEstadoAtr(espera.s.estado).toLowerCase()}.
        </p>
      )}
      {espera.fase === 'tarda' && (
        <p>La distribuidora aún no la ha leído. Aparecerá aquí en cuanto lo haga: vuelva a cargar la lista en unos minutos.</p>
      )}
    </AvisoAtr>
  );
}

const OPCIONES_PROCESO = opcionesFiltro('Todos', PROCESOS_ATR, (p) => `${p} · ${nombreProcesoAtr(p)}`);
const OPCIONES_ESTADO = opcionesFiltro('Todos', ESTADOS_ATR, nombreEstadoAtr);

const COLUMNAS = ['Referencia', 'Proceso', 'CUPS', 'Código de solicitud', 'Estado', 'Recibida', 'Activación prevista'] as const;

/** "dd/mm/aaaa hh:mm", allowed to break only between the date and the time (a narrower column). */
function FechaHora({ iso }: { iso: string }) {
  const [dia, hora] = fechaHoraAtr(iso).split(' ');
  return (
    <>
      <span className="admin-nowrap">{dia}</span> {hora && <span className="admin-nowrap">{hora}</span>}
    </>
  );
}

/** The loaded page as a table (wide screens) and as cards (phones), then the pager. */
function Resultados({ lista }: { lista: Lista<FiltrosAtr, SolicitudAtrResumen> }) {
  const { estado } = lista.pagina;
  const { filtros, aplicar } = lista;
  if (estado.fase !== 'listo' || estado.filas.length === 0) return null;
  const titulo = `Solicitudes ATR, la más reciente primero, página ${filtros.pagina} de ${totalPaginas(estado.total, filtros.porPagina)}`;
  return (
    <>
      <div className="admin-tabla atr-tabla" role="region" aria-labelledby="atr-tabla-titulo" tabIndex={0}>
        <table className="admin-tabla__tabla">
          <caption id="atr-tabla-titulo">{titulo}</caption>
          <thead>
            <tr>
              {COLUMNAS.map((c) => (
                <th key={c} scope="col">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {estado.filas.map((s) => (
              <tr key={s.id}>
                <th scope="row" className="admin-tabla__principal">
                  <a href={urlSolicitudAtr(s.id)} className="admin-nowrap">
                    {s.referencia}
                  </a>
                  <span className="admin-motivo">{nombreDistribuidora(s.distribuidora)}</span>
                </th>
                <td>
                  <CodigoProceso proceso={s.proceso} />
                </td>
                <td className="atr-codigo">{s.cups}</td>
                <td className="atr-codigo">{s.codigoSolicitud}</td>
                <td>
                  <EstadoSolicitud estado={s.estado} />
                </td>
                <td>
                  <FechaHora iso={s.recibida} />
                </td>
                <td className="admin-nowrap">{textoVenceAtr(s)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ul className="atr-tarjetas" aria-label={titulo}>
        {estado.filas.map((s) => (
          <li key={s.id} className="atr-tarjeta">
            <div className="atr-tarjeta__cabeza">
              <h2 className="atr-tarjeta__titulo">
                <a href={urlSolicitudAtr(s.id)}>{s.referencia}</a>
              </h2>
              <EstadoSolicitud estado={s.estado} />
            </div>
            <dl className="admin-datos atr-tarjeta__datos">
              <Dato t="Proceso">
                {s.proceso} · {nombreProcesoAtr(s.proceso)}
              </Dato>
              <Dato t="CUPS">
                <span className="atr-codigo">{s.cups}</span>
              </Dato>
              <Dato t="Código de solicitud">
                <span className="atr-codigo">{s.codigoSolicitud}</span>
              </Dato>
              <Dato t="Distribuidora">{nombreDistribuidora(s.distribuidora)}</Dato>
              <Dato t="Recibida">{fechaHoraAtr(s.recibida)}</Dato>
              {s.vence && <Dato t="Activación prevista">{diaAtr(s.vence)}</Dato>}
            </dl>
          </li>
        ))}
      </ul>
      <Paginador
        que="solicitudes"
        pagina={filtros.pagina}
        porPagina={filtros.porPagina}
        total={estado.total}
        filas={estado.filas.length}
        alCambiarPagina={(pagina) => aplicar({ ...filtros, pagina })}
        alCambiarPorPagina={(porPagina) => aplicar({ ...filtros, porPagina, pagina: 1 })}
      />
    </>
  );
}

/** The supply company's ATR requests. */
export default function SolicitudesAtr({ ruta }: PropsPantalla) {
  const permisos = useStore($permisos);
  const propias = useMemo(() => distribuidorasConArea(permisos, 'comercializadora'), [permisos]);
  const definicion = useMemo(() => listaAtr(propias), [propias]);
  const l = useListaFiltrada(definicion, cargarPaginaAtr<SolicitudAtrResumen>);
  const opcionesDistribuidora: Opcion[] = [
    { valor: '', texto: 'Todas' },
    ...propias.map((d) => ({ valor: d, texto: nombreDistribuidora(d) })),
  ];

  useEffect(() => recordarConsultaAtr(l.consulta), [l.consulta]);

  // The request the form just sent, announced once.
  const [enviada] = useState(() => $enviadaAtr.get());
  useEffect(() => $enviadaAtr.set(null), []);
  const espera = useContestacion(enviada, l.pagina.recargar);

  return (
    <section className="admin atr">
      <div className="atr-titulo">
        <h1 tabIndex={-1}>{ruta.titulo}</h1>
        <a className="priv-boton" href={RUTA_NUEVA_SOLICITUD_ATR}>
          Nueva solicitud
        </a>
      </div>
      {enviada && espera && <AvisoEnviada e={enviada} espera={espera} />}
      <ComoSeEnvian distribuidora={l.filtros.distribuidora || propias[0] || 'epd'} />

      <FormularioFiltros etiqueta="Filtrar solicitudes ATR" alEnviar={l.filtrar} conFiltros={l.conFiltros} alLimpiar={l.limpiar}>
        <Filtro lista={l} clave="q" etiqueta="CUPS o código de solicitud" tipo="search" max={30} clase="admin-filtros__busqueda" />
        {propias.length > 1 && <Filtro lista={l} clave="distribuidora" etiqueta="Distribuidora" opciones={opcionesDistribuidora} />}
        <Filtro lista={l} clave="proceso" etiqueta="Proceso" opciones={OPCIONES_PROCESO} />
        <Filtro lista={l} clave="estado" etiqueta="Estado" opciones={OPCIONES_ESTADO} />
      </FormularioFiltros>

      <ResultadosLista
        lista={l}
        que={['solicitud', 'solicitudes']}
        cargando="Cargando sus solicitudes…"
        vacioConFiltros="No hay solicitudes que coincidan con los filtros elegidos."
        vacio="Aún no hay solicitudes. Para enviar una, use «Nueva solicitud» o deje su fichero XML en la carpeta de entrada de la distribuidora por SFTP o desde la pantalla FTP: la respuesta aparecerá aquí y en la carpeta de salida."
        avisarPaginaInexistente
      />
      <Resultados lista={l} />
    </section>
  );
}
