/**
 * /administrador/atr: the queue of ATR requests (CNMC exchange formats) a distributor the user
 * administers has accepted and must carry on: overdue first and flagged in words, then by planned
 * activation (the server's order). Filters by process, state, CUPS or request code and "only
 * overdue" live in the address, so back, forward and a reload keep them. Each reference leads to
 * the request, where it is activated, rejected after the field work or given an incidence.
 */
import { conPunto } from '../../../lib/formato/frases.ts';
import { hoyMadrid } from '../../../lib/administracion/fechas.ts';
import { listaColaAtr, RUTA_COLA_ATR, urlSolicitudAtrAdmin } from '../../../lib/atr/gestion.ts';
import { diaAtr, ESTADOS_ATR, fechaHoraAtr, nombreEstadoAtr, nombreProcesoAtr } from '../../../lib/atr/pantalla.ts';
import { PROCESOS_ATR } from '../../../lib/atr/procesos.ts';
import { nombreDistribuidora } from '../../../lib/distribuidoras.ts';
import type { PropsPantalla } from '../AppPrivada.tsx';
import { CodigoProceso, EstadoSolicitud } from '../atr/comun.tsx';
import type { Opcion } from './comun.tsx';
import { Filtro, FormularioFiltros, opcionesFiltro, ResultadosLista, SinDistribuidoras, TablaPaginada } from './lista.tsx';
import { colaRecordada, NotaDistribuidora, useColaPorDistribuidora } from './cola.tsx';
import './administracion.css';
import './accesos.css';

const OPCIONES_PROCESO = opcionesFiltro('Todos', PROCESOS_ATR, (p) => `${p} · ${nombreProcesoAtr(p)}`);
const OPCIONES_ESTADO = opcionesFiltro('En cola', ESTADOS_ATR, nombreEstadoAtr);
const OPCIONES_VENCIDAS: Opcion[] = [
  { valor: '', texto: 'Todas' },
  { valor: 'si', texto: 'Solo las vencidas' },
];

/** The last filters used in this page, so a request's "back" returns to them. */
const recuerdo = colaRecordada(RUTA_COLA_ATR);

/** The queue with the filters it had when last shown. */
export const urlColaAtrRecordada = recuerdo.url;

/** The staff's queue of ATR requests. */
export default function AtrAdmin({ ruta }: PropsPantalla) {
  const { propias, lista: l, opcionesDistribuidora, actual } = useColaPorDistribuidora(listaColaAtr, recuerdo);
  const hoy = hoyMadrid();

  return (
    <section className="admin">
      <h1 tabIndex={-1}>{ruta.titulo}</h1>
      <p className="admin__intro">
        Las solicitudes ATR que las comercializadoras envían con los ficheros XML de la CNMC. El portal contesta cada una al momento (paso
        02); las aceptadas esperan aquí a que la distribuidora las active (05), las rechace tras la visita a campo (04) o anote una
        incidencia (03). Primero aparecen las que tienen la activación prevista vencida. Cada paso deja su mensaje en la carpeta de salida
        de la comercializadora.
      </p>

      {propias.length === 0 ? (
        <SinDistribuidoras para="tramitar solicitudes ATR" />
      ) : (
        <>
          <NotaDistribuidora propias={propias} actual={actual} />
          <FormularioFiltros etiqueta="Filtrar solicitudes" alEnviar={l.filtrar} conFiltros={l.conFiltros} alLimpiar={l.limpiar}>
            <Filtro
              lista={l}
              clave="q"
              etiqueta="Buscar"
              ayuda="CUPS o código de solicitud, o su comienzo. «En cola» son las aceptadas y las que tienen incidencia."
              tipo="search"
              max={30}
              clase="admin-filtros__busqueda"
            />
            {propias.length > 1 && <Filtro lista={l} clave="distribuidora" etiqueta="Distribuidora" opciones={opcionesDistribuidora} />}
            <Filtro lista={l} clave="proceso" etiqueta="Proceso" opciones={OPCIONES_PROCESO} />
            <Filtro lista={l} clave="estado" etiqueta="Estado" opciones={OPCIONES_ESTADO} />
            <Filtro lista={l} clave="vencidas" etiqueta="Plazo" opciones={OPCIONES_VENCIDAS} />
          </FormularioFiltros>

          <ResultadosLista
            lista={l}
            que={['solicitud', 'solicitudes']}
            cargando="Cargando solicitudes…"
            vacioConFiltros="No hay solicitudes que coincidan con los filtros elegidos."
            vacio={conPunto(`No hay solicitudes ATR pendientes de la distribuidora en ${nombreDistribuidora(actual)}`)}
            avisarPaginaInexistente
          />
          <TablaPaginada
            lista={l}
            titulo={`Solicitudes ATR de ${nombreDistribuidora(actual)}`}
            que="solicitudes"
            clase="adm-acc-tabla"
            columnas={['Referencia', 'Activación', 'Proceso y estado', 'CUPS', 'Comercializadora']}
            fila={(s) => (
              <tr key={s.id} className={s.vencida ? 'adm-acc-fila--vencida' : undefined}>
                <th scope="row" className="admin-tabla__principal">
                  <a href={urlSolicitudAtrAdmin(s.id)}>{s.referencia}</a>
                  <span className="admin-motivo admin-nowrap">{s.codigoSolicitud}</span>
                  <span className="admin-motivo admin-nowrap">Recibida {fechaHoraAtr(s.recibida)}</span>
                </th>
                <td>
                  <span className="admin-nowrap">{diaAtr(s.vence)}</span>
                  {s.vencida ? (
                    <span className="admin-estado adm-acc-vencida adm-acc-vencida--bloque">Vencida</span>
                  ) : (
                    s.vence && s.vence === hoy && <span className="admin-motivo">Hoy</span>
                  )}
                </td>
                <td>
                  <CodigoProceso proceso={s.proceso} /> <EstadoSolicitud estado={s.estado} />
                </td>
                <td className="admin-partible">{s.cups}</td>
                <td>
                  {s.empresa || '—'}
                  {s.codigoRee && <span className="admin-motivo">REE {s.codigoRee}</span>}
                </td>
              </tr>
            )}
          />
        </>
      )}
    </section>
  );
}
