/**
 * /administrador/modificaciones: the contractual modification requests of the distributors
 * the administrator manages, in progress first, filtered by state, kind, distributor, number or
 * CUPS (in the address, so back, forward and a reload keep them) and paged by the server. Each row
 * leads to the request's detail, where it is accepted, rejected or activated.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useMemo } from 'react';
import { formatearFechaHora } from '../../../lib/administracion/fechas.ts';
import { distribuidorasAdministradas } from '../../../lib/incidencias/lista-gestion.ts';
import { nombreDistribuidora } from '../../../lib/distribuidoras.ts';
import { TIPOS_SOLICITUD, LISTA_MODIFICACIONES } from '../../../lib/modificaciones/consulta.ts';
import { ESTADOS_SOLICITUD, TEXTO_ESTADO } from '../../../lib/modificaciones/estados.ts';
import { resumenCambio, TEXTO_TIPO, textoTipo, urlSolicitudAdmin } from '../../../lib/modificaciones/presentacion.ts';
import { $permisos } from '../../../lib/sesion/index.ts';
import type { PropsPantalla } from '../AppPrivada.tsx';
import { EtiquetaEstado } from '../modificaciones/comun.tsx';
import {
  Filtro,
  FormularioFiltros,
  opcionesFiltro,
  ResultadosLista,
  SinDistribuidoras,
  TablaPaginada,
  useListaFiltrada,
} from './lista.tsx';
import { colaRecordada } from './cola.tsx';
import './administracion.css';

const OPCIONES_ESTADO = opcionesFiltro('Todos', ESTADOS_SOLICITUD, (e) => TEXTO_ESTADO[e]);
const OPCIONES_TIPO = opcionesFiltro('Todos', TIPOS_SOLICITUD, (t) => TEXTO_TIPO[t]);

/** The list of the last filters used in this page, so a detail's "back" returns to it. */
const recuerdo = colaRecordada('/administrador/modificaciones');

/** The list with the filters it had when last shown. */
export const urlListaRecordada = recuerdo.url;

/** The administration list of modification requests. */
export default function ModificacionesAdmin({ ruta }: PropsPantalla) {
  const permisos = useStore($permisos);
  const propias = useMemo(() => distribuidorasAdministradas(permisos), [permisos]);
  const opcionesDistribuidora = opcionesFiltro('Todas las suyas', propias, nombreDistribuidora);
  const l = useListaFiltrada(LISTA_MODIFICACIONES);
  useEffect(() => recuerdo.recordar(l.consulta), [l.consulta]);

  return (
    <section className="admin">
      <h1 tabIndex={-1}>{ruta.titulo}</h1>
      <p className="admin__intro">
        Cambios de potencia, de tarifa y de datos del titular que los titulares piden desde el portal. Acepte o rechace cada solicitud
        enviada y active las aceptadas: al activarla, el cambio se aplica al suministro y se avisa al titular por correo. Primero se
        muestran las que están en curso.
      </p>

      {propias.length === 0 ? (
        <SinDistribuidoras para="tramitar solicitudes" />
      ) : (
        <>
          <FormularioFiltros etiqueta="Filtrar solicitudes" alEnviar={l.filtrar} conFiltros={l.conFiltros} alLimpiar={l.limpiar}>
            <Filtro
              lista={l}
              clave="q"
              etiqueta="Buscar"
              ayuda="Número de solicitud (MC-000123) o CUPS."
              tipo="search"
              max={30}
              clase="admin-filtros__busqueda"
            />
            <Filtro lista={l} clave="estado" etiqueta="Estado" opciones={OPCIONES_ESTADO} />
            <Filtro lista={l} clave="tipo" etiqueta="Tipo" opciones={OPCIONES_TIPO} />
            <Filtro lista={l} clave="distribuidora" etiqueta="Distribuidora" opciones={opcionesDistribuidora} />
          </FormularioFiltros>

          <ResultadosLista
            lista={l}
            que={['solicitud', 'solicitudes']}
            cargando="Cargando solicitudes…"
            vacioConFiltros="No hay solicitudes que coincidan con los filtros elegidos."
            vacio="Todavía no hay solicitudes de modificación en sus distribuidoras."
          />
          <TablaPaginada
            lista={l}
            titulo="Solicitudes de modificación"
            que="solicitudes"
            columnas={['Solicitud', 'Estado', 'Cambio', 'Suministro', 'Presentada']}
            fila={(s) => (
              <tr key={s.numero}>
                <th scope="row" className="admin-tabla__principal">
                  <a href={urlSolicitudAdmin(s.referencia)}>{s.referencia}</a>
                  <span className="admin-motivo">{textoTipo(s.solicitado)}</span>
                </th>
                <td>
                  <EtiquetaEstado estado={s.estado} />
                </td>
                <td className="admin-texto-largo">{resumenCambio(s.anterior, s.solicitado)}</td>
                <td>
                  <span className="admin-nowrap">{s.cups}</span>
                  <span className="admin-motivo">
                    {s.distribuidora.toUpperCase()} · {s.anterior.titular.nombre}
                  </span>
                </td>
                <td className="admin-nowrap">{formatearFechaHora(s.creada)}</td>
              </tr>
            )}
          />
        </>
      )}
    </section>
  );
}
