/**
 * /administrador/auditoria: the activity log, who did what and when, filtered by date
 * range (Madrid days), action and user, and paged by the server. An entry made in an impersonated
 * session names both people: "<administrador> como <usuario>".
 */
import { useEffect, useId, useState, type FormEvent } from 'react';
import { apiFetch } from '../../../lib/administracion/api.ts';
import {
  describirActor,
  describirObjetivo,
  detallesLegibles,
  errorRangoFechas,
  nombreAccion,
  nombrePersona,
  type RespuestaAuditoria,
  LISTA_AUDITORIA,
} from '../../../lib/administracion/auditoria.ts';
import { formatearFechaHora } from '../../../lib/administracion/fechas.ts';
import { Filtro, FormularioFiltros, ResultadosLista, TablaPaginada, useListaFiltrada } from './lista.tsx';
import { urlDetalleUsuario } from './navegacion.ts';
import './administracion.css';
import { urlApi } from '../../../lib/api/rutas.ts';

/** One page of the log as the list pieces read it (the log answers `{entradas, total}`, not a header). */
async function cargarPagina(url: string, init: { signal: AbortSignal }) {
  const r = await apiFetch<RespuestaAuditoria>(url, init);
  return r.ok ? { ...r, datos: { filas: r.datos.entradas ?? [], total: r.datos.total ?? 0 } } : r;
}

/** The audit log screen. */
export default function Auditoria(props: { params: Record<string, string> }) {
  void props;
  const l = useListaFiltrada(LISTA_AUDITORIA, cargarPagina);
  const { borrador } = l;
  const [errorFechas, setErrorFechas] = useState<{ campo: 'desde' | 'hasta'; mensaje: string } | null>(null);
  const [acciones, setAcciones] = useState<string[]>([]);
  const id = useId();

  useEffect(() => {
    const peticion = new AbortController();
    void apiFetch<string[]>(urlApi('/administrador/auditoria/acciones'), { signal: peticion.signal }).then((r) => {
      if (!peticion.signal.aborted && r.ok && Array.isArray(r.datos)) setAcciones(r.datos.filter((a) => typeof a === 'string'));
    });
    return () => peticion.abort();
  }, []);

  const onSubmit = (ev: FormEvent<HTMLFormElement>) => {
    ev.preventDefault();
    const e = errorRangoFechas(borrador.desde, borrador.hasta);
    setErrorFechas(e);
    if (e) {
      document.getElementById(`${id}-${e.campo}`)?.focus();
      return;
    }
    l.aplicar({ ...borrador, pagina: 1 });
  };

  const errorDe = (campo: 'desde' | 'hasta') => (errorFechas?.campo === campo ? errorFechas.mensaje : undefined);

  const limpiar = () => {
    setErrorFechas(null);
    l.limpiar();
  };

  // The action in the address may be one the list does not have yet (or no longer has): keep it choosable.
  const opcionesAccion = [
    { valor: '', texto: 'Todas' },
    ...[...new Set([...acciones, ...(borrador.accion ? [borrador.accion] : [])])]
      .map((a) => ({ valor: a, texto: nombreAccion(a) }))
      .sort((x, y) => x.texto.localeCompare(y.texto, 'es')),
  ];

  return (
    <section className="admin">
      <h1 tabIndex={-1}>Registro de actividad</h1>
      <p className="admin__intro">
        Quién hizo qué y cuándo en el portal: accesos, cambios de cuentas y permisos, accesos como otro usuario e incidencias de red. Las
        fechas y horas son peninsulares (Madrid).
      </p>

      <FormularioFiltros etiqueta="Filtrar el registro" alEnviar={onSubmit} conFiltros={l.conFiltros} alLimpiar={limpiar}>
        <Filtro lista={l} clave="desde" id={`${id}-desde`} etiqueta="Desde" tipo="date" error={errorDe('desde')} />
        <Filtro lista={l} clave="hasta" id={`${id}-hasta`} etiqueta="Hasta (incluido)" tipo="date" error={errorDe('hasta')} />
        <Filtro lista={l} clave="accion" etiqueta="Acción" opciones={opcionesAccion} />
        <Filtro
          lista={l}
          clave="usuario"
          etiqueta="Usuario"
          ayuda="Correo electrónico o identificador; incluye lo que hizo como otro usuario."
          max={200}
        />
      </FormularioFiltros>

      <ResultadosLista
        lista={l}
        alLimpiar={limpiar}
        que={['entrada', 'entradas']}
        cargando="Cargando el registro…"
        vacioConFiltros="No hay entradas que coincidan con los filtros elegidos."
        vacio="El registro todavía está vacío."
        avisarPaginaInexistente
      />

      <TablaPaginada
        lista={l}
        titulo="Registro de actividad"
        que="entradas del registro"
        columnas={['Fecha y hora', 'Acción', 'Quién', 'Sobre', 'Detalles']}
        clase="admin-tabla__tabla--registro"
        fila={(e) => {
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
        }}
      />
    </section>
  );
}
