/**
 * /administrador/auditoria: the activity log, who did what and when, filtered by date
 * range (Madrid days), action and user, and paged by the server. An entry made in an impersonated
 * session names both people: "<administrador> como <usuario>".
 */
import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import { apiFetch } from '../../../lib/administracion/api.ts';
import {
  consultaDeFiltrosAuditoria,
  describirActor,
  describirObjetivo,
  detallesLegibles,
  errorRangoFechas,
  FILTROS_AUDITORIA_VACIOS,
  filtrosAuditoriaDesdeConsulta,
  hayFiltrosAuditoria,
  nombreAccion,
  nombrePersona,
  urlAuditoria,
  type EntradaAuditoria,
  type FiltrosAuditoria,
  type RespuestaAuditoria,
} from '../../../lib/administracion/auditoria.ts';
import { formatearFechaHora } from '../../../lib/administracion/fechas.ts';
import { textoResultado, totalPaginas } from '../../../lib/administracion/consulta.ts';
import { BotonesFiltro, Campo, CampoSelect, EstadoResultados, Paginador, RegionTabla, usePagina } from './comun.tsx';
import { urlDetalleUsuario, useConsultaUrl } from './navegacion.ts';
import './administracion.css';

/** One page of the log as the list pieces read it (the log answers `{entradas, total}`, not a header). */
async function cargarPagina(url: string, init: { signal: AbortSignal }) {
  const r = await apiFetch<RespuestaAuditoria>(url, init);
  return r.ok ? { ...r, datos: { filas: r.datos.entradas ?? [], total: r.datos.total ?? 0 } } : r;
}

/** The audit log screen. */
export default function Auditoria(props: { params: Record<string, string> }) {
  void props;
  const [consulta, cambiarConsulta] = useConsultaUrl();
  const filtros = useMemo(() => filtrosAuditoriaDesdeConsulta(consulta), [consulta]);
  const [borrador, setBorrador] = useState<FiltrosAuditoria>(filtros);
  const [errorFechas, setErrorFechas] = useState<{ campo: 'desde' | 'hasta'; mensaje: string } | null>(null);
  const [acciones, setAcciones] = useState<string[]>([]);
  const pagina = usePagina<EntradaAuditoria>(urlAuditoria(filtros), cargarPagina);
  const { estado } = pagina;
  const id = useId();

  useEffect(() => setBorrador(filtros), [filtros]);

  useEffect(() => {
    const peticion = new AbortController();
    void apiFetch<string[]>('/api/administrador/auditoria/acciones', { signal: peticion.signal }).then((r) => {
      if (!peticion.signal.aborted && r.ok && Array.isArray(r.datos)) setAcciones(r.datos.filter((a) => typeof a === 'string'));
    });
    return () => peticion.abort();
  }, []);

  const aplicar = (f: FiltrosAuditoria) => cambiarConsulta(consultaDeFiltrosAuditoria(f));

  const onSubmit = (ev: FormEvent<HTMLFormElement>) => {
    ev.preventDefault();
    const e = errorRangoFechas(borrador.desde, borrador.hasta);
    setErrorFechas(e);
    if (e) {
      document.getElementById(`${id}-${e.campo}`)?.focus();
      return;
    }
    aplicar({ ...borrador, pagina: 1 });
  };

  const limpiar = () => {
    setErrorFechas(null);
    aplicar({ ...FILTROS_AUDITORIA_VACIOS, porPagina: filtros.porPagina });
  };

  // The action in the address may be one the list does not have yet (or no longer has): keep it choosable.
  const opcionesAccion = [
    { valor: '', texto: 'Todas' },
    ...[...new Set([...acciones, ...(borrador.accion ? [borrador.accion] : [])])]
      .map((a) => ({ valor: a, texto: nombreAccion(a) }))
      .sort((x, y) => x.texto.localeCompare(y.texto, 'es')),
  ];
  const idCaption = `${id}-caption`;
  const paginas = estado.fase === 'listo' ? totalPaginas(estado.total, filtros.porPagina) : 1;
  const conFiltros = hayFiltrosAuditoria(filtros);

  return (
    <section className="admin">
      <h1 tabIndex={-1}>Registro de actividad</h1>
      <p className="admin__intro">
        Quién hizo qué y cuándo en el portal: accesos, cambios de cuentas y permisos, accesos como otro usuario e incidencias de red. Las
        fechas y horas son peninsulares (Madrid).
      </p>

      <form className="admin-filtros" role="search" aria-label="Filtrar el registro" noValidate onSubmit={onSubmit}>
        <Campo
          id={`${id}-desde`}
          etiqueta="Desde"
          tipo="date"
          valor={borrador.desde}
          alCambiar={(desde) => setBorrador((b) => ({ ...b, desde }))}
          error={errorFechas?.campo === 'desde' ? errorFechas.mensaje : undefined}
        />
        <Campo
          id={`${id}-hasta`}
          etiqueta="Hasta (incluido)"
          tipo="date"
          valor={borrador.hasta}
          alCambiar={(hasta) => setBorrador((b) => ({ ...b, hasta }))}
          error={errorFechas?.campo === 'hasta' ? errorFechas.mensaje : undefined}
        />
        <CampoSelect
          id={`${id}-accion`}
          etiqueta="Acción"
          valor={borrador.accion}
          opciones={opcionesAccion}
          alCambiar={(accion) => setBorrador((b) => ({ ...b, accion }))}
        />
        <Campo
          id={`${id}-usuario`}
          etiqueta="Usuario"
          ayuda="Correo electrónico o identificador; incluye lo que hizo como otro usuario."
          valor={borrador.usuario}
          alCambiar={(usuario) => setBorrador((b) => ({ ...b, usuario }))}
          max={200}
        />
        <BotonesFiltro conFiltros={conFiltros} alLimpiar={limpiar} />
      </form>

      <EstadoResultados
        pagina={pagina}
        resultado={(total) => textoResultado(total, 'entrada', 'entradas', filtros.pagina, filtros.porPagina)}
        cargando="Cargando el registro…"
        conFiltros={conFiltros}
        alLimpiar={limpiar}
        vacioConFiltros="No hay entradas que coincidan con los filtros elegidos."
        vacio="El registro todavía está vacío."
        paginacion={{ pagina: filtros.pagina, porPagina: filtros.porPagina, alPrimeraPagina: () => aplicar({ ...filtros, pagina: 1 }) }}
      />

      {estado.fase === 'listo' && estado.filas.length > 0 && (
        <>
          <RegionTabla idTitulo={idCaption}>
            <table className="admin-tabla__tabla admin-tabla__tabla--registro">
              <caption id={idCaption}>
                Registro de actividad, página {filtros.pagina} de {paginas}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Fecha y hora</th>
                  <th scope="col">Acción</th>
                  <th scope="col">Quién</th>
                  <th scope="col">Sobre</th>
                  <th scope="col">Detalles</th>
                </tr>
              </thead>
              <tbody>
                {estado.filas.map((e) => {
                  // The address goes with the details: it matters to few entries and would take a column.
                  const detalles = [...detallesLegibles(e.detalles), ...(e.ip ? [{ clave: 'IP', valor: e.ip }] : [])];
                  const objetivo = describirObjetivo(e.objetivo);
                  return (
                    <tr key={e.id}>
                      <th scope="row" className="admin-tabla__principal admin-nowrap">
                        {formatearFechaHora(e.at)}
                      </th>
                      <td>
                        {nombreAccion(e.accion)}
                        {nombreAccion(e.accion) !== e.accion && <span className="admin-motivo">{e.accion}</span>}
                      </td>
                      <td className="admin-texto-largo">
                        {e.suplantador && e.actor ? (
                          <>
                            {nombrePersona(e.suplantador)}
                            <span className="admin-quien__como">como {nombrePersona(e.actor)}</span>
                          </>
                        ) : (
                          describirActor(e)
                        )}
                      </td>
                      <td className="admin-partible">
                        {objetivo.idUsuario ? (
                          <a href={urlDetalleUsuario(objetivo.idUsuario)}>
                            {objetivo.texto}
                            <span className="visually-hidden"> de la entrada del {formatearFechaHora(e.at)}</span>
                          </a>
                        ) : (
                          objetivo.texto
                        )}
                      </td>
                      <td>
                        {detalles.length === 0 ? (
                          '—'
                        ) : (
                          <details className="admin-detalles">
                            <summary>
                              Ver detalles<span className="visually-hidden"> de la entrada del {formatearFechaHora(e.at)}</span>
                            </summary>
                            <dl>
                              {detalles.map((d) => (
                                <div key={d.clave} className="admin-detalles__par">
                                  <dt>{d.clave}</dt>
                                  <dd>{d.valor}</dd>
                                </div>
                              ))}
                            </dl>
                          </details>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </RegionTabla>
          <Paginador
            que="entradas del registro"
            pagina={filtros.pagina}
            porPagina={filtros.porPagina}
            total={estado.total}
            filas={estado.filas.length}
            alCambiarPagina={(pagina) => aplicar({ ...filtros, pagina })}
            alCambiarPorPagina={(porPagina) => aplicar({ ...filtros, porPagina, pagina: 1 })}
          />
        </>
      )}
    </section>
  );
}
