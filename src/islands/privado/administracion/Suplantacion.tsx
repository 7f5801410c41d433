/**
 * /administrador/acceso-como-usuario, "Acceder como otro usuario" (decision 006): the
 * administrator finds a user (the same list API as user administration), chooses one, confirms,
 * and the session becomes that user's until "Volver a mi sesión de administrador".
 */
import { useId, useRef, useState, type FormEvent } from 'react';
import { pedirPagina } from '../../../lib/administracion/api.ts';
import { mensajesDeError } from '../../../lib/api/cliente.ts';
import {
  esSuplantable,
  FILTROS_USUARIOS_VACIOS,
  motivoNoSuplantable,
  urlListadoUsuarios,
  type UsuarioResumen,
} from '../../../lib/administracion/usuarios.ts';
import { alertasDe, ListaAlertas, type Alerta } from '../../comunes/ListaAlertas.tsx';
import { Campo, Correo, Cargando, EstadoUsuario, RegionTabla } from './comun.tsx';
import { ConfirmarSuplantacion, type Objetivo } from './ConfirmarSuplantacion.tsx';
import { FormularioFiltros } from './lista.tsx';
import './administracion.css';
import { numero } from '../../../lib/formato/numeros.ts';

/** Rows shown per search: enough to choose from, few enough to read. */
const RESULTADOS = 10;

/** The search's state. */
type Busqueda =
  { fase: 'inicial' } | { fase: 'cargando' } | { fase: 'listo'; q: string; filas: UsuarioResumen[]; total: number } | { fase: 'error' };

/** The impersonation screen. */
export default function Suplantacion(props: { params: Record<string, string> }) {
  void props;
  const [q, setQ] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busqueda, setBusqueda] = useState<Busqueda>({ fase: 'inicial' });
  const [alertas, setAlertas] = useState<Alerta[]>([]);
  const [objetivo, setObjetivo] = useState<Objetivo | null>(null);
  const peticion = useRef<AbortController | null>(null);
  const id = useId();

  const buscar = async (ev: FormEvent<HTMLFormElement>) => {
    ev.preventDefault();
    const texto = q.trim();
    if (texto.length < 2) {
      setError('Escriba al menos dos caracteres del NIF, el nombre o el correo electrónico.');
      document.getElementById(`${id}-q`)?.focus();
      return;
    }
    setError(undefined);
    peticion.current?.abort();
    const esta = new AbortController();
    peticion.current = esta;
    setBusqueda({ fase: 'cargando' });
    const r = await pedirPagina<UsuarioResumen>(urlListadoUsuarios({ ...FILTROS_USUARIOS_VACIOS, q: texto, porPagina: RESULTADOS }), {
      signal: esta.signal,
    });
    if (esta.signal.aborted) return;
    if (r.ok) {
      setBusqueda({ fase: 'listo', q: texto, filas: r.datos.filas, total: r.datos.total });
      setAlertas([]);
    } else {
      setBusqueda({ fase: 'error' });
      setAlertas(alertasDe(mensajesDeError(r.error)));
    }
  };

  const idCaption = `${id}-caption`;

  return (
    <section className="admin">
      <h1 tabIndex={-1}>Acceder como otro usuario</h1>
      <div className="admin-aviso">
        <p>
          Para ayudar a un usuario, puede entrar en el área privada como si fuera él: verá sus suministros, solicitudes y datos, y podrá
          hacer lo que él puede hacer.
        </p>
        <ul>
          <li>Todo lo que haga quedará registrado con su usuario de administrador y el del usuario.</li>
          <li>Mientras tanto, un aviso en la parte superior le recordará como quién está actuando.</li>
          <li>No podrá cambiar la contraseña ni el correo del usuario, cerrar sus otras sesiones ni administrar usuarios.</li>
          <li>Para terminar, pulse «Volver a mi sesión de administrador» en ese aviso; no tendrá que escribir su contraseña.</li>
          <li>No se puede acceder como otro administrador ni como una cuenta que no esté activa.</li>
        </ul>
      </div>

      <FormularioFiltros etiqueta="Buscar el usuario" alEnviar={(e) => void buscar(e)} texto="Buscar">
        <Campo
          id={`${id}-q`}
          etiqueta="Usuario"
          ayuda="NIF, nombre, razón social o correo electrónico (o su comienzo)."
          tipo="search"
          valor={q}
          alCambiar={setQ}
          error={error}
          max={100}
          clase="admin-filtros__busqueda"
        />
      </FormularioFiltros>

      <ListaAlertas alertas={alertas} alCerrar={(a) => setAlertas((l) => l.filter((x) => x.id !== a))} />

      <p className="admin-resultado" role="status">
        {busqueda.fase === 'listo'
          ? busqueda.total === 0
            ? ''
            : busqueda.total > busqueda.filas.length
              ? `${numero(busqueda.total)} usuarios coinciden; se muestran los ${busqueda.filas.length} primeros. Afine la búsqueda si no ve el que busca.`
              : busqueda.total === 1
                ? '1 usuario coincide.'
                : `${busqueda.total} usuarios coinciden.`
          : ''}
      </p>

      {busqueda.fase === 'cargando' && <Cargando texto="Buscando usuarios…" />}

      {busqueda.fase === 'listo' && busqueda.filas.length === 0 && (
        <div className="admin-vacio">
          <p>No hay usuarios que coincidan con «{busqueda.q}». Compruebe el NIF, el nombre o el correo.</p>
        </div>
      )}

      {busqueda.fase === 'listo' && busqueda.filas.length > 0 && (
        <RegionTabla idTitulo={idCaption}>
          <table className="admin-tabla__tabla">
            <caption id={idCaption}>Usuarios que coinciden con «{busqueda.q}»</caption>
            <thead>
              <tr>
                <th scope="col">Usuario</th>
                <th scope="col">Acción</th>
                <th scope="col">Correo electrónico</th>
                <th scope="col">NIF</th>
                <th scope="col">Estado</th>
              </tr>
            </thead>
            <tbody>
              {busqueda.filas.map((u) => {
                const motivo = motivoNoSuplantable(u);
                return (
                  <tr key={u.id}>
                    <th scope="row" className="admin-tabla__principal">
                      {u.nombre || u.email}
                    </th>
                    <td>
                      {esSuplantable(u) ? (
                        <button
                          type="button"
                          className="admin-boton admin-boton--pequeno"
                          aria-label={`Acceder como ${u.nombre || u.email}`}
                          onClick={() => setObjetivo({ email: u.email, nombre: u.nombre })}
                        >
                          Acceder
                        </button>
                      ) : (
                        <span className="admin-motivo">{motivo}</span>
                      )}
                    </td>
                    <td className="admin-correo">
                      <Correo email={u.email} />
                    </td>
                    <td className="admin-nowrap">{u.nif ?? '—'}</td>
                    <td>
                      <EstadoUsuario estado={u.estado} />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </RegionTabla>
      )}

      <ConfirmarSuplantacion objetivo={objetivo} alCancelar={() => setObjetivo(null)} />
    </section>
  );
}
