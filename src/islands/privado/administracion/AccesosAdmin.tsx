/**
 * /administrador/accesoyconexion: the work queue of access and connection requests (RD 1183/2020)
 * of a distributor the user administers: overdue first, then by deadline, then by filing date (the
 * server's order), filtered by step, kind, node and "only overdue" (in the address, so back, forward
 * and a reload keep them) and paged by the server. Each reference leads to the request, where its
 * step's actions are taken.
 */
import { conPunto } from '../../../lib/formato/frases.ts';
import {
  listaAccesos,
  MAX_NUDO,
  PASOS_COLA,
  textoPlazo,
  textoPotencia,
  textoPresentada,
  textoTipo,
  turnoCorto,
  urlSolicitudAdmin,
} from '../../../lib/accesoyconexion/gestion.ts';
import { NOMBRE_PASO } from '../../../lib/accesoyconexion/procedimiento.ts';
import type { SolicitudResumen } from '../../../lib/accesoyconexion/respuestas.ts';
import { NOMBRE_TIPO, TIPOS_SOLICITUD } from '../../../lib/accesoyconexion/solicitud.ts';
import { hoyMadrid } from '../../../lib/administracion/fechas.ts';
import { nombreDistribuidora } from '../../../lib/distribuidoras.ts';
import type { PropsPantalla } from '../AppPrivada.tsx';
import type { Opcion } from './comun.tsx';
import { Filtro, FormularioFiltros, opcionesFiltro, ResultadosLista, SinDistribuidoras, TablaPaginada } from './lista.tsx';
import { colaRecordada, NotaDistribuidora, useColaPorDistribuidora } from './cola.tsx';
import './administracion.css';
import './accesos.css';

const OPCIONES_PASO = opcionesFiltro('Todos', PASOS_COLA, (p) => NOMBRE_PASO[p]);
const OPCIONES_TIPO = opcionesFiltro('Todos', TIPOS_SOLICITUD, (t) => NOMBRE_TIPO[t]);
const OPCIONES_VENCIDAS: Opcion[] = [
  { valor: '', texto: 'Todas' },
  { valor: 'si', texto: 'Solo las vencidas' },
];

/** The last filters used in this page, so a request's "back" returns to them. */
const recuerdo = colaRecordada('/administrador/accesoyconexion');

/** The queue with the filters it had when last shown. */
export const urlColaRecordada = recuerdo.url;

/** A deadline in a row: the date and, when it has passed, "Vencida" in words and style. */
function CeldaPlazo({ s, hoy }: { s: SolicitudResumen; hoy: string }) {
  const p = textoPlazo(s.turno ? s.vence : null, s.vencido, hoy, s.distribuidora);
  return (
    <td>
      <span className="admin-nowrap">{p.fecha}</span>
      {p.vencido ? (
        <span className="admin-estado adm-acc-vencida adm-acc-vencida--bloque">Vencida</span>
      ) : (
        p.estado && <span className="admin-motivo">{p.estado}</span>
      )}
    </td>
  );
}

/** The staff's queue of access and connection requests. */
export default function AccesosAdmin({ ruta }: PropsPantalla) {
  const { propias, lista: l, opcionesDistribuidora, actual } = useColaPorDistribuidora(listaAccesos, recuerdo);
  const hoy = hoyMadrid();

  return (
    <section className="admin">
      <h1 tabIndex={-1}>{ruta.titulo}</h1>
      <p className="admin__intro">
        Las solicitudes de acceso y conexión presentadas a su distribuidora (RD 1183/2020). Primero aparecen las que tienen el plazo
        vencido, después las demás por la fecha en que vence su plazo. Abra una solicitud para ver sus datos y documentos y dar el paso que
        le corresponda.
      </p>

      {propias.length === 0 ? (
        <SinDistribuidoras para="tramitar solicitudes de acceso y conexión" />
      ) : (
        <>
          <NotaDistribuidora propias={propias} actual={actual} />
          <FormularioFiltros etiqueta="Filtrar solicitudes" alEnviar={l.filtrar} conFiltros={l.conFiltros} alLimpiar={l.limpiar}>
            {propias.length > 1 && <Filtro lista={l} clave="distribuidora" etiqueta="Distribuidora" opciones={opcionesDistribuidora} />}
            <Filtro lista={l} clave="paso" etiqueta="Paso" opciones={OPCIONES_PASO} />
            <Filtro lista={l} clave="tipo" etiqueta="Tipo" opciones={OPCIONES_TIPO} />
            <Filtro
              lista={l}
              clave="nudo"
              etiqueta="Nudo de conexión"
              ayuda="El identificador exacto del nudo, como lo publica la distribuidora."
              tipo="search"
              max={MAX_NUDO}
            />
            <Filtro lista={l} clave="vencidas" etiqueta="Plazo" opciones={OPCIONES_VENCIDAS} />
          </FormularioFiltros>

          <ResultadosLista
            lista={l}
            que={['solicitud', 'solicitudes']}
            cargando="Cargando solicitudes…"
            vacioConFiltros="No hay solicitudes que coincidan con los filtros elegidos."
            vacio={conPunto(`Todavía no se ha presentado ninguna solicitud de acceso y conexión a ${nombreDistribuidora(actual)}`)}
            avisarPaginaInexistente
          />
          <TablaPaginada
            lista={l}
            titulo={`Solicitudes de ${nombreDistribuidora(actual)}`}
            que="solicitudes"
            clase="adm-acc-tabla"
            columnas={['Referencia', 'Vence', 'Paso', 'Le toca a', 'Solicitante', 'Tipo y potencia', 'Nudo', 'Presentada']}
            fila={(s) => (
              <tr key={s.id} className={s.vencido ? 'adm-acc-fila--vencida' : undefined}>
                <th scope="row" className="admin-tabla__principal">
                  <a href={urlSolicitudAdmin(s.id)}>{s.referencia}</a>
                  {s.emplazamiento && <span className="admin-motivo">{s.emplazamiento}</span>}
                </th>
                <CeldaPlazo s={s} hoy={hoy} />
                <td>{s.pasoNombre}</td>
                <td>{turnoCorto(s.turno)}</td>
                <td>{s.solicitante || '—'}</td>
                <td>
                  {textoTipo(s.tipo)}
                  <span className="admin-motivo admin-nowrap">{textoPotencia(s.potenciaKw)}</span>
                </td>
                <td className="admin-partible">{s.nudo ?? '—'}</td>
                <td className="admin-nowrap">{textoPresentada(s.presentadoEn)}</td>
              </tr>
            )}
          />
        </>
      )}
    </section>
  );
}
