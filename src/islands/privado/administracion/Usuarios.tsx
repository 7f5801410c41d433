/**
 * /administrador/administrador-usuarios (decision 006): the portal's users, searched,
 * filtered and paged by the server (`GET /api/listadoUsuarios`, total in `X-Total-Count`). The
 * filters live in the address, so back and forward, a reload or a shared link show the same list.
 */
import { useEffect } from 'react';
import {
  consultaDeFiltrosUsuarios,
  ESTADOS_USUARIO,
  NOMBRE_AREA,
  NOMBRE_ESTADO,
  resumenAreas,
  LISTA_USUARIOS,
} from '../../../lib/administracion/usuarios.ts';
import { formatearFecha } from '../../../lib/administracion/fechas.ts';
import { AREAS } from '../../../lib/permisos.ts';
import { CODIGOS_DISTRIBUIDORA, nombreDistribuidora } from '../../../lib/distribuidoras.ts';
import { Correo, EstadoUsuario } from './comun.tsx';
import { Filtro, FormularioFiltros, opcionesFiltro, ResultadosLista, TablaPaginada, useListaFiltrada } from './lista.tsx';
import { recordarConsultaUsuarios, urlDetalleUsuario } from './navegacion.ts';
import './administracion.css';

const OPCIONES_ESTADO = opcionesFiltro('Todos', ESTADOS_USUARIO, (e) => NOMBRE_ESTADO[e]);
const OPCIONES_AREA = opcionesFiltro('Cualquiera', AREAS, (a) => NOMBRE_AREA[a]);
const OPCIONES_DISTRIBUIDORA = opcionesFiltro('Todas', CODIGOS_DISTRIBUIDORA, nombreDistribuidora);

/** The users list screen. */
export default function Usuarios(props: { params: Record<string, string> }) {
  void props;
  const l = useListaFiltrada(LISTA_USUARIOS);
  const { filtros } = l;

  // The detail's "back to the list" returns to this very search.
  useEffect(() => recordarConsultaUsuarios(consultaDeFiltrosUsuarios(filtros)), [filtros]);

  return (
    <section className="admin">
      <h1 tabIndex={-1}>Administración de usuarios</h1>
      <p className="admin__intro">
        Busque una cuenta por su NIF, nombre, razón social o correo electrónico, o filtre por estado y por permiso. Abra un usuario para ver
        sus datos, activar o desactivar su cuenta y cambiar sus permisos.
      </p>

      <FormularioFiltros etiqueta="Buscar usuarios" alEnviar={l.filtrar} conFiltros={l.conFiltros} alLimpiar={l.limpiar} texto="Buscar">
        <Filtro
          lista={l}
          clave="q"
          etiqueta="Buscar"
          ayuda="NIF, nombre, razón social o correo electrónico (o su comienzo)."
          tipo="search"
          max={100}
          clase="admin-filtros__busqueda"
        />
        <Filtro lista={l} clave="estado" etiqueta="Estado" opciones={OPCIONES_ESTADO} />
        <Filtro lista={l} clave="area" etiqueta="Con permiso de" opciones={OPCIONES_AREA} />
        <Filtro lista={l} clave="distribuidora" etiqueta="Distribuidora" opciones={OPCIONES_DISTRIBUIDORA} />
      </FormularioFiltros>

      <ResultadosLista
        lista={l}
        que={['usuario encontrado', 'usuarios encontrados']}
        cargando="Cargando usuarios…"
        vacioConFiltros="No hay usuarios que coincidan con la búsqueda y los filtros elegidos."
        vacio="Todavía no hay usuarios registrados."
        avisarPaginaInexistente
      />

      <TablaPaginada
        lista={l}
        titulo="Usuarios"
        que="usuarios"
        columnas={['Usuario', 'NIF', 'Correo electrónico', 'Estado', 'Alta', 'Permisos']}
        fila={(u) => (
          <tr key={u.id}>
            <th scope="row" className="admin-tabla__principal">
              <a href={urlDetalleUsuario(u.id)}>{u.nombre || u.email}</a>
            </th>
            <td className="admin-nowrap">{u.nif ?? '—'}</td>
            <td className="admin-correo">
              <Correo email={u.email} />
            </td>
            <td>
              <EstadoUsuario estado={u.estado} />
            </td>
            <td className="admin-nowrap">{formatearFecha(u.creado)}</td>
            <td>{resumenAreas(u.permisos)}</td>
          </tr>
        )}
      />
    </section>
  );
}
