/**
 * /administrador/administrador-usuarios (issue 5, decision 006): the portal's users, searched,
 * filtered and paged by the server (`GET /api/listadoUsuarios`, total in `X-Total-Count`). The
 * filters live in the address, so back and forward, a reload or a shared link show the same list.
 */
import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import { pedirPagina } from '../../../lib/administracion/api.ts';
import { mensajesDeError } from '../../../lib/api/cliente.ts';
import {
  consultaDeFiltrosUsuarios,
  ESTADOS_USUARIO,
  FILTROS_USUARIOS_VACIOS,
  filtrosUsuariosDesdeConsulta,
  hayFiltrosUsuarios,
  NOMBRE_AREA,
  NOMBRE_ESTADO,
  resumenAreas,
  urlListadoUsuarios,
  type FiltrosUsuarios,
  type UsuarioResumen,
} from '../../../lib/administracion/usuarios.ts';
import { formatearFecha } from '../../../lib/administracion/fechas.ts';
import { textoResultado, totalPaginas } from '../../../lib/administracion/consulta.ts';
import { AREAS } from '../../../lib/permisos.ts';
import { DISTRIBUIDORAS } from '../../../lib/distribuidoras.ts';
import { alertasDe, ListaAlertas, type Alerta } from '../../comunes/ListaAlertas.tsx';
import { Campo, Correo, CampoSelect, Cargando, Paginador, RegionTabla } from './comun.tsx';
import { recordarConsultaUsuarios, urlDetalleUsuario, useConsultaUrl } from './navegacion.ts';
import './administracion.css';

/** What the list shows: loading, the page, or a failure. */
type Estado = { fase: 'cargando' } | { fase: 'listo'; filas: UsuarioResumen[]; total: number } | { fase: 'error' };

const OPCIONES_ESTADO = [{ valor: '', texto: 'Todos' }, ...ESTADOS_USUARIO.map((e) => ({ valor: e, texto: NOMBRE_ESTADO[e] }))];
const OPCIONES_AREA = [{ valor: '', texto: 'Cualquiera' }, ...AREAS.map((a) => ({ valor: a, texto: NOMBRE_AREA[a] }))];
const OPCIONES_DISTRIBUIDORA = [{ valor: '', texto: 'Todas' }, ...DISTRIBUIDORAS.map((d) => ({ valor: d.codigo, texto: d.nombre }))];

/** The users list screen. */
export default function Usuarios(props: { params: Record<string, string> }) {
  void props;
  const [consulta, cambiarConsulta] = useConsultaUrl();
  const filtros = useMemo(() => filtrosUsuariosDesdeConsulta(consulta), [consulta]);
  const [borrador, setBorrador] = useState<FiltrosUsuarios>(filtros);
  const [estado, setEstado] = useState<Estado>({ fase: 'cargando' });
  const [alertas, setAlertas] = useState<Alerta[]>([]);
  const [reintento, setReintento] = useState(0);
  const id = useId();

  // Back and forward change the address: the form shows what the list is filtered by.
  useEffect(() => setBorrador(filtros), [filtros]);

  useEffect(() => {
    recordarConsultaUsuarios(consultaDeFiltrosUsuarios(filtros));
    const peticion = new AbortController();
    setEstado({ fase: 'cargando' });
    void pedirPagina<UsuarioResumen>(urlListadoUsuarios(filtros), { signal: peticion.signal }).then((r) => {
      if (peticion.signal.aborted) return;
      if (r.ok) {
        setEstado({ fase: 'listo', filas: r.datos.filas, total: r.datos.total });
        setAlertas([]);
      } else {
        setEstado({ fase: 'error' });
        setAlertas(alertasDe(mensajesDeError(r.error)));
      }
    });
    return () => peticion.abort();
  }, [filtros, reintento]);

  const aplicar = (f: FiltrosUsuarios) => cambiarConsulta(consultaDeFiltrosUsuarios(f));

  const onSubmit = (ev: FormEvent<HTMLFormElement>) => {
    ev.preventDefault();
    aplicar({ ...borrador, pagina: 1 });
  };

  const limpiar = () => aplicar({ ...FILTROS_USUARIOS_VACIOS, porPagina: filtros.porPagina });

  const idCaption = `${id}-caption`;
  const conFiltros = hayFiltrosUsuarios(filtros);
  const paginas = estado.fase === 'listo' ? totalPaginas(estado.total, filtros.porPagina) : 1;

  return (
    <section className="admin">
      <h1 tabIndex={-1}>Administración de usuarios</h1>
      <p className="admin__intro">
        Busque una cuenta por su NIF, nombre, razón social o correo electrónico, o filtre por estado y por permiso. Abra un usuario para ver sus
        datos, activar o desactivar su cuenta y cambiar sus permisos.
      </p>

      <form className="admin-filtros" role="search" aria-label="Buscar usuarios" noValidate onSubmit={onSubmit}>
        <Campo
          id={`${id}-q`}
          etiqueta="Buscar"
          ayuda="NIF, nombre, razón social o correo electrónico (o su comienzo)."
          tipo="search"
          valor={borrador.q}
          alCambiar={(q) => setBorrador((b) => ({ ...b, q }))}
          max={100}
          clase="admin-filtros__busqueda"
        />
        <CampoSelect
          id={`${id}-estado`}
          etiqueta="Estado"
          valor={borrador.estado}
          opciones={OPCIONES_ESTADO}
          alCambiar={(v) => setBorrador((b) => ({ ...b, estado: v as FiltrosUsuarios['estado'] }))}
        />
        <CampoSelect
          id={`${id}-area`}
          etiqueta="Con permiso de"
          valor={borrador.area}
          opciones={OPCIONES_AREA}
          alCambiar={(v) => setBorrador((b) => ({ ...b, area: v as FiltrosUsuarios['area'] }))}
        />
        <CampoSelect
          id={`${id}-distribuidora`}
          etiqueta="Distribuidora"
          valor={borrador.distribuidora}
          opciones={OPCIONES_DISTRIBUIDORA}
          alCambiar={(v) => setBorrador((b) => ({ ...b, distribuidora: v as FiltrosUsuarios['distribuidora'] }))}
        />
        <div className="admin-filtros__acciones">
          <button type="submit" className="admin-boton">
            Buscar
          </button>
          {conFiltros && (
            <button type="button" className="admin-boton admin-boton--secundario" onClick={limpiar}>
              Limpiar filtros
            </button>
          )}
        </div>
      </form>

      <ListaAlertas alertas={alertas} alCerrar={(a) => setAlertas((l) => l.filter((x) => x.id !== a))} />

      <p className="admin-resultado" role="status">
        {estado.fase === 'listo' ? textoResultado(estado.total, 'usuario encontrado', 'usuarios encontrados', filtros.pagina, filtros.porPagina) : ''}
      </p>

      {estado.fase === 'cargando' && <Cargando texto="Cargando usuarios…" />}

      {estado.fase === 'error' && (
        <p>
          <button type="button" className="admin-boton admin-boton--secundario" onClick={() => setReintento((n) => n + 1)}>
            Reintentar
          </button>
        </p>
      )}

      {estado.fase === 'listo' && estado.filas.length === 0 && (
        <div className="admin-vacio">
          {estado.total > 0 && filtros.pagina > paginas ? (
            <>
              <p>Esta página no existe: la lista tiene {paginas === 1 ? '1 página' : `${paginas} páginas`}.</p>
              <button type="button" className="admin-boton admin-boton--secundario" onClick={() => aplicar({ ...filtros, pagina: 1 })}>
                Ir a la primera página
              </button>
            </>
          ) : conFiltros ? (
            <>
              <p>No hay usuarios que coincidan con la búsqueda y los filtros elegidos.</p>
              <button type="button" className="admin-boton admin-boton--secundario" onClick={limpiar}>
                Limpiar filtros
              </button>
            </>
          ) : (
            <p>Todavía no hay usuarios registrados.</p>
          )}
        </div>
      )}

      {estado.fase === 'listo' && estado.filas.length > 0 && (
        <>
          <RegionTabla idTitulo={idCaption}>
            <table className="admin-tabla__tabla">
              <caption id={idCaption}>
                Usuarios, página {filtros.pagina} de {paginas}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Usuario</th>
                  <th scope="col">NIF</th>
                  <th scope="col">Correo electrónico</th>
                  <th scope="col">Estado</th>
                  <th scope="col">Alta</th>
                  <th scope="col">Permisos</th>
                </tr>
              </thead>
              <tbody>
                {estado.filas.map((u) => (
                  <tr key={u.id}>
                    <th scope="row" className="admin-tabla__principal">
                      <a href={urlDetalleUsuario(u.id)}>{u.nombre || u.email}</a>
                    </th>
                    <td className="admin-nowrap">{u.nif ?? '—'}</td>
                    <td className="admin-correo">
                      <Correo email={u.email} />
                    </td>
                    <td>
                      <span className={`admin-estado admin-estado--${u.estado}`}>{NOMBRE_ESTADO[u.estado] ?? u.estado}</span>
                    </td>
                    <td className="admin-nowrap">{formatearFecha(u.creado)}</td>
                    <td>{resumenAreas(u.permisos)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </RegionTabla>
          <Paginador
            que="usuarios"
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
