/**
 * /administrador/administrador-usuarios (decision 006): the portal's users, searched,
 * filtered and paged by the server (`GET /api/listadoUsuarios`, total in `X-Total-Count`). The
 * filters live in the address, so back and forward, a reload or a shared link show the same list.
 */
import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
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
import { BotonesFiltro, Campo, CampoSelect, Correo, EstadoResultados, Paginador, RegionTabla, usePagina } from './comun.tsx';
import { recordarConsultaUsuarios, urlDetalleUsuario, useConsultaUrl } from './navegacion.ts';
import './administracion.css';

const OPCIONES_ESTADO = [{ valor: '', texto: 'Todos' }, ...ESTADOS_USUARIO.map((e) => ({ valor: e, texto: NOMBRE_ESTADO[e] }))];
const OPCIONES_AREA = [{ valor: '', texto: 'Cualquiera' }, ...AREAS.map((a) => ({ valor: a, texto: NOMBRE_AREA[a] }))];
const OPCIONES_DISTRIBUIDORA = [{ valor: '', texto: 'Todas' }, ...DISTRIBUIDORAS.map((d) => ({ valor: d.codigo, texto: d.nombre }))];

/** The users list screen. */
export default function Usuarios(props: { params: Record<string, string> }) {
  void props;
  const [consulta, cambiarConsulta] = useConsultaUrl();
  const filtros = useMemo(() => filtrosUsuariosDesdeConsulta(consulta), [consulta]);
  const [borrador, setBorrador] = useState<FiltrosUsuarios>(filtros);
  const pagina = usePagina<UsuarioResumen>(urlListadoUsuarios(filtros));
  const { estado } = pagina;
  const id = useId();

  // Back and forward change the address: the form shows what the list is filtered by.
  useEffect(() => setBorrador(filtros), [filtros]);
  // The detail's "back to the list" returns to this very search.
  useEffect(() => recordarConsultaUsuarios(consultaDeFiltrosUsuarios(filtros)), [filtros]);

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
        Busque una cuenta por su NIF, nombre, razón social o correo electrónico, o filtre por estado y por permiso. Abra un usuario para ver
        sus datos, activar o desactivar su cuenta y cambiar sus permisos.
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
        <BotonesFiltro conFiltros={conFiltros} alLimpiar={limpiar} texto="Buscar" />
      </form>

      <EstadoResultados
        pagina={pagina}
        resultado={(total) => textoResultado(total, 'usuario encontrado', 'usuarios encontrados', filtros.pagina, filtros.porPagina)}
        cargando="Cargando usuarios…"
        conFiltros={conFiltros}
        alLimpiar={limpiar}
        vacioConFiltros="No hay usuarios que coincidan con la búsqueda y los filtros elegidos."
        vacio="Todavía no hay usuarios registrados."
        paginacion={{ pagina: filtros.pagina, porPagina: filtros.porPagina, alPrimeraPagina: () => aplicar({ ...filtros, pagina: 1 }) }}
      />

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
