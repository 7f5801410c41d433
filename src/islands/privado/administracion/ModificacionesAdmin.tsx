/**
 * /administrador/modificaciones: the contractual modification requests of the distributors
 * the administrator manages, in progress first, filtered by state, kind, distributor, number or
 * CUPS (in the address, so back, forward and a reload keep them) and paged by the server. Each row
 * leads to the request's detail, where it is accepted, rejected or activated.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import { textoResultado, totalPaginas } from '../../../lib/administracion/consulta.ts';
import { formatearFechaHora } from '../../../lib/administracion/fechas.ts';
import { distribuidorasAdministradas, nombreDistribuidora } from '../../../lib/incidencias/lista-gestion.ts';
import {
  consultaDeFiltrosModificaciones,
  FILTROS_MODIFICACIONES_VACIOS,
  filtrosModificacionesDesdeConsulta,
  TIPOS_SOLICITUD,
  urlModificacionesAdmin,
  type FiltrosModificaciones,
} from '../../../lib/modificaciones/consulta.ts';
import { ESTADOS_SOLICITUD, TEXTO_ESTADO } from '../../../lib/modificaciones/estados.ts';
import { resumenCambio, TEXTO_TIPO, textoTipo, urlSolicitudAdmin } from '../../../lib/modificaciones/presentacion.ts';
import type { SolicitudAdminApi } from '../../../lib/modificaciones/tipos.ts';
import { $permisos } from '../../../lib/sesion/index.ts';
import type { PropsPantalla } from '../AppPrivada.tsx';
import { EtiquetaEstado } from '../modificaciones/comun.tsx';
import { BotonesFiltro, Campo, CampoSelect, EstadoResultados, Paginador, RegionTabla, usePagina } from './comun.tsx';
import { useConsultaUrl } from './navegacion.ts';
import './administracion.css';

const OPCIONES_ESTADO = [{ valor: '', texto: 'Todos' }, ...ESTADOS_SOLICITUD.map((e) => ({ valor: e, texto: TEXTO_ESTADO[e] }))];
const OPCIONES_TIPO = [{ valor: '', texto: 'Todos' }, ...TIPOS_SOLICITUD.map((t) => ({ valor: t, texto: TEXTO_TIPO[t] }))];

/** The list of the last filters used in this page, so a detail's "back" returns to it. */
let consultaRecordada = '';

/** The list with the filters it had when last shown. */
export function urlListaRecordada(): string {
  return consultaRecordada ? `/administrador/modificaciones?${consultaRecordada}` : '/administrador/modificaciones';
}

/** The administration list of modification requests. */
export default function ModificacionesAdmin({ ruta }: PropsPantalla) {
  const permisos = useStore($permisos);
  const propias = useMemo(() => distribuidorasAdministradas(permisos), [permisos]);
  const [consulta, cambiarConsulta] = useConsultaUrl();
  const filtros = useMemo(() => filtrosModificacionesDesdeConsulta(consulta), [consulta]);
  const [borrador, setBorrador] = useState<FiltrosModificaciones>(filtros);
  const pagina = usePagina<SolicitudAdminApi>(urlModificacionesAdmin(filtros));
  const { estado } = pagina;
  const id = useId();

  useEffect(() => setBorrador(filtros), [filtros]);
  useEffect(() => {
    consultaRecordada = consulta;
  }, [consulta]);

  const aplicar = (f: FiltrosModificaciones) => cambiarConsulta(consultaDeFiltrosModificaciones(f));
  const onFiltrar = (ev: FormEvent<HTMLFormElement>) => {
    ev.preventDefault();
    aplicar({ ...borrador, pagina: 1 });
  };
  const conFiltros = Boolean(filtros.estado || filtros.tipo || filtros.distribuidora || filtros.q);
  const limpiar = () => aplicar({ ...FILTROS_MODIFICACIONES_VACIOS, porPagina: filtros.porPagina });
  const idCaption = `${id}-caption`;
  const paginas = estado.fase === 'listo' ? totalPaginas(estado.total, filtros.porPagina) : 1;

  return (
    <section className="admin">
      <h1 tabIndex={-1}>{ruta.titulo}</h1>
      <p className="admin__intro">
        Cambios de potencia, de tarifa y de datos del titular que los titulares piden desde el portal. Acepte o rechace cada solicitud
        enviada y active las aceptadas: al activarla, el cambio se aplica al suministro y se avisa al titular por correo. Primero se
        muestran las que están en curso.
      </p>

      {propias.length === 0 ? (
        <div className="admin-vacio">
          <p>Para tramitar solicitudes necesita el permiso de administración de al menos una distribuidora.</p>
        </div>
      ) : (
        <>
          <form className="admin-filtros" role="search" aria-label="Filtrar solicitudes" noValidate onSubmit={onFiltrar}>
            <Campo
              id={`${id}-q`}
              etiqueta="Buscar"
              ayuda="Número de solicitud (MC-000123) o CUPS."
              tipo="search"
              valor={borrador.q}
              alCambiar={(q) => setBorrador((b) => ({ ...b, q }))}
              max={30}
              clase="admin-filtros__busqueda"
            />
            <CampoSelect
              id={`${id}-estado`}
              etiqueta="Estado"
              valor={borrador.estado}
              opciones={OPCIONES_ESTADO}
              alCambiar={(v) => setBorrador((b) => ({ ...b, estado: v as FiltrosModificaciones['estado'] }))}
            />
            <CampoSelect
              id={`${id}-tipo`}
              etiqueta="Tipo"
              valor={borrador.tipo}
              opciones={OPCIONES_TIPO}
              alCambiar={(v) => setBorrador((b) => ({ ...b, tipo: v as FiltrosModificaciones['tipo'] }))}
            />
            <CampoSelect
              id={`${id}-distribuidora`}
              etiqueta="Distribuidora"
              valor={borrador.distribuidora}
              opciones={[{ valor: '', texto: 'Todas las suyas' }, ...propias.map((d) => ({ valor: d, texto: nombreDistribuidora(d) }))]}
              alCambiar={(v) => setBorrador((b) => ({ ...b, distribuidora: v as FiltrosModificaciones['distribuidora'] }))}
            />
            <BotonesFiltro conFiltros={conFiltros} alLimpiar={limpiar} />
          </form>

          <EstadoResultados
            pagina={pagina}
            resultado={(total) => textoResultado(total, 'solicitud', 'solicitudes', filtros.pagina, filtros.porPagina)}
            cargando="Cargando solicitudes…"
            conFiltros={conFiltros}
            alLimpiar={limpiar}
            vacioConFiltros="No hay solicitudes que coincidan con los filtros elegidos."
            vacio="Todavía no hay solicitudes de modificación en sus distribuidoras."
          />
          {estado.fase === 'listo' && estado.filas.length > 0 && (
            <>
              <RegionTabla idTitulo={idCaption}>
                <table className="admin-tabla__tabla">
                  <caption id={idCaption}>
                    Solicitudes de modificación, página {filtros.pagina} de {paginas}
                  </caption>
                  <thead>
                    <tr>
                      <th scope="col">Solicitud</th>
                      <th scope="col">Estado</th>
                      <th scope="col">Cambio</th>
                      <th scope="col">Suministro</th>
                      <th scope="col">Presentada</th>
                    </tr>
                  </thead>
                  <tbody>
                    {estado.filas.map((s) => (
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
                    ))}
                  </tbody>
                </table>
              </RegionTabla>
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
          )}
        </>
      )}
    </section>
  );
}
