/**
 * /administrador/administrador-usuarios/:id (decision 006): one account's data; its state,
 * with activation and deactivation (which ends its sessions at once) and the resending of the
 * activation mail; the matrix of permissions per distributor and area, saved as differences; and
 * the way to act as the user.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useId, useMemo, useState, type ReactNode } from 'react';
import { apiFetch } from '../../../lib/administracion/api.ts';
import { mensajesDeError, type ErrorApi } from '../../../lib/api/cliente.ts';
import { formatearFecha, formatearFechaHora } from '../../../lib/administracion/fechas.ts';
import {
  alternarPermiso,
  construirMatriz,
  diferenciasPermisos,
  MOTIVO_BLOQUEO,
  resumenCambios,
  type BloqueoCelda,
  type Editor,
} from '../../../lib/administracion/matriz-permisos.ts';
import { esSuplantable, motivoNoSuplantable, NOMBRE_AREA, type UsuarioDetalle as Detalle } from '../../../lib/administracion/usuarios.ts';
import { DISTRIBUIDORAS } from '../../../lib/distribuidoras.ts';
import { AREAS } from '../../../lib/permisos.ts';
import { $permisos, $session } from '../../../lib/sesion/index.ts';
import { alertasDe, ListaAlertas, type Alerta } from '../../comunes/ListaAlertas.tsx';
import { Modal, type EstadoModal } from '../../comunes/Modal.tsx';
import { Cargando, Confirmacion, EstadoUsuario, RegionTabla } from './comun.tsx';
import { CodigoRee } from './CodigoRee.tsx';
import { ConfirmarSuplantacion, type Objetivo } from './ConfirmarSuplantacion.tsx';
import { urlListadoUsuariosRecordada } from './navegacion.ts';
import { Dato } from '../../comunes/Dato.tsx';
import './administracion.css';
import { urlApi } from '../../../lib/api/rutas.ts';

/** The detail's loading state. */
type Carga = { fase: 'cargando' } | { fase: 'listo' } | { fase: 'no-existe' } | { fase: 'error' };

/** Which confirmation is open. */
type Pregunta = 'desactivar' | 'activar' | null;

const NOMBRE_DISTRIBUIDORA = Object.fromEntries(DISTRIBUIDORAS.map((d) => [d.codigo, d.nombre])) as Record<string, string>;

/** One alert of a level. */
const una = (texto: string, nivel: Alerta['nivel']): Alerta[] => alertasDe([texto], nivel);

/** The user detail screen; `params.id` is the account id. */
export default function UsuarioDetalle(props: { params: Record<string, string> }) {
  const idUsuario = props.params['id'] ?? '';
  const sesion = useStore($session);
  const permisosPropios = useStore($permisos);
  const [carga, setCarga] = useState<Carga>({ fase: 'cargando' });
  const [detalle, setDetalle] = useState<Detalle | null>(null);
  const [permisos, setPermisos] = useState<string[]>([]);
  const [alertasCarga, setAlertasCarga] = useState<Alerta[]>([]);
  const [alertasEstado, setAlertasEstado] = useState<Alerta[]>([]);
  const [alertasPermisos, setAlertasPermisos] = useState<Alerta[]>([]);
  const [pregunta, setPregunta] = useState<Pregunta>(null);
  const [modal, setModal] = useState<EstadoModal | null>(null);
  const [objetivo, setObjetivo] = useState<Objetivo | null>(null);
  const [reintento, setReintento] = useState(0);
  const id = useId();

  useEffect(() => {
    const peticion = new AbortController();
    setCarga({ fase: 'cargando' });
    void apiFetch<Detalle>(urlApi('/administrador/usuarios/{id}', { path: { id: idUsuario } }), { signal: peticion.signal }).then((r) => {
      if (peticion.signal.aborted) return;
      if (r.ok) {
        adoptar(r.datos);
        setCarga({ fase: 'listo' });
      } else if (r.status === 404 || r.status === 400) {
        setCarga({ fase: 'no-existe' });
      } else {
        setCarga({ fase: 'error' });
        setAlertasCarga(alertasDe(mensajesDeError(r.error)));
      }
    });
    return () => peticion.abort();
  }, [idUsuario, reintento]);

  /** Takes the server's view of the account; pending matrix edits are dropped. */
  function adoptar(d: Detalle) {
    setDetalle(d);
    setPermisos([...d.permisos]);
  }

  const editor: Editor = useMemo(
    () => ({
      permisos: permisosPropios,
      esUnoMismo: !!detalle && !!sesion && sesion.username.toLowerCase() === detalle.email.toLowerCase(),
    }),
    [permisosPropios, detalle, sesion],
  );

  const volver = (
    <a className="admin-volver" href={urlListadoUsuariosRecordada()}>
      <span aria-hidden="true">‹</span> Volver a la lista de usuarios
    </a>
  );

  if (carga.fase !== 'listo' || !detalle) {
    return (
      <section className="admin">
        {volver}
        <h1 tabIndex={-1}>Detalle del usuario</h1>
        {carga.fase === 'cargando' && <Cargando texto="Cargando los datos del usuario…" />}
        {carga.fase === 'no-existe' && (
          <div className="admin-vacio">
            <p>No existe ningún usuario con este identificador. Puede que la dirección esté incompleta.</p>
          </div>
        )}
        {carga.fase === 'error' && (
          <>
            <ListaAlertas alertas={alertasCarga} alCerrar={(a) => setAlertasCarga((l) => l.filter((x) => x.id !== a))} />
            <p>
              <button type="button" className="admin-boton admin-boton--secundario" onClick={() => setReintento((n) => n + 1)}>
                Reintentar
              </button>
            </p>
          </>
        )}
      </section>
    );
  }

  const fallo = (e: ErrorApi, poner: (a: Alerta[]) => void) => poner(alertasDe(mensajesDeError(e)));

  const cambiarEstado = async (estado: 'activo' | 'inactivo') => {
    setPregunta(null);
    setModal({ tipo: 'spinner' });
    const r = await apiFetch<Detalle>(urlApi('/administrador/usuarios/{id}/estado', { path: { id: detalle.id } }), {
      method: 'PUT',
      json: { estado },
    });
    setModal(null);
    if (!r.ok) return fallo(r.error, setAlertasEstado);
    adoptar(r.datos);
    setAlertasPermisos([]);
    setAlertasEstado(
      una(
        estado === 'activo'
          ? 'La cuenta está activa. El usuario ya puede entrar en el área privada.'
          : 'La cuenta está desactivada y sus sesiones se han cerrado. El usuario no podrá entrar hasta que se active de nuevo.',
        'success',
      ),
    );
  };

  const reenviar = async () => {
    setModal({ tipo: 'spinner' });
    const r = await apiFetch<{ message?: string }>(
      urlApi('/administrador/usuarios/{id}/reenviar-activacion', { path: { id: detalle.id } }),
      {
        method: 'POST',
      },
    );
    setModal(null);
    if (!r.ok) return fallo(r.error, setAlertasEstado);
    setAlertasEstado(
      una(r.datos?.message || `Se ha enviado un nuevo correo de activación a ${detalle.email}. El enlace anterior ya no sirve.`, 'success'),
    );
  };

  const { conceder, revocar } = diferenciasPermisos(detalle.permisos, permisos);
  const cambios = conceder.length + revocar.length;

  const guardarPermisos = async () => {
    if (!cambios) return;
    setModal({ tipo: 'spinner' });
    const r = await apiFetch<Detalle>(urlApi('/administrador/usuarios/{id}/permisos', { path: { id: detalle.id } }), {
      method: 'PUT',
      json: { conceder, revocar },
    });
    setModal(null);
    if (!r.ok) return fallo(r.error, setAlertasPermisos);
    adoptar(r.datos);
    const partes = [
      conceder.length ? `concedidos: ${conceder.join(', ')}` : '',
      revocar.length ? `retirados: ${revocar.join(', ')}` : '',
    ].filter(Boolean);
    setAlertasPermisos(
      una(`Permisos guardados (${partes.join('; ')}). El usuario los tendrá la próxima vez que entre o renueve su sesión.`, 'success'),
    );
  };

  const matriz = construirMatriz(detalle.permisos, permisos, editor);
  const bloqueosUsados = new Set(
    matriz
      .flat()
      .map((c) => c.bloqueo)
      .filter((b): b is Exclude<BloqueoCelda, null> => b !== null),
  );
  const idMotivo = (b: Exclude<BloqueoCelda, null>) => `${id}-motivo-${b}`;
  const esAdminObjetivo = detalle.permisos.some((p) => p.endsWith('-administrador'));
  const motivoSuplantar = editor.esUnoMismo
    ? 'Es su propia cuenta.'
    : (motivoNoSuplantable(detalle) ?? (detalle.acciones.permitidas ? null : detalle.acciones.motivo));
  const idCaptionMatriz = `${id}-matriz`;
  const idCaptionOrigen = `${id}-origen`;

  const dato = (termino: string, valor: ReactNode) => <Dato t={termino}>{valor}</Dato>;

  return (
    <section className="admin">
      {volver}
      <h1 tabIndex={-1}>Detalle del usuario</h1>
      <p className="admin__subtitulo">
        {detalle.nombre || detalle.email}
        {detalle.nombre && <span className="visually-hidden"> ({detalle.email})</span>}
      </p>

      <section className="admin-seccion" aria-labelledby={`${id}-datos`}>
        <h2 id={`${id}-datos`}>Datos de la cuenta</h2>
        <dl className="admin-datos">
          {detalle.razonSocial
            ? dato('Razón social', detalle.razonSocial)
            : dato('Nombre y apellidos', [detalle.nombrePila, detalle.apellido1, detalle.apellido2].filter(Boolean).join(' ') || '—')}
          {dato('NIF', detalle.nif ?? 'Sin NIF (cuenta de administración)')}
          {dato('Correo electrónico', detalle.email)}
          {dato('Estado', <EstadoUsuario estado={detalle.estado} />)}
          {dato('Alta', formatearFechaHora(detalle.creado))}
          {dato('Activación', detalle.activado ? formatearFechaHora(detalle.activado) : 'Sin activar')}
          {dato('Último acceso', detalle.ultimoAcceso ? formatearFechaHora(detalle.ultimoAcceso) : 'Nunca')}
          {dato('Sesiones abiertas', String(detalle.sesionesActivas))}
        </dl>
      </section>

      <section className="admin-seccion" aria-labelledby={`${id}-estado`}>
        <h2 id={`${id}-estado`}>Estado de la cuenta</h2>
        {detalle.estado === 'activo' && <p>La cuenta está activa: el usuario puede entrar en el área privada.</p>}
        {detalle.estado === 'pendiente' && (
          <p>
            El usuario todavía no ha confirmado su correo. Puede reenviarle el correo de activación (el enlace anterior dejará de servir) o
            activar la cuenta directamente.
          </p>
        )}
        {detalle.estado === 'inactivo' && <p>La cuenta está desactivada: el usuario no puede entrar hasta que se active de nuevo.</p>}
        <ListaAlertas
          alertas={alertasEstado}
          alCerrar={(a) => setAlertasEstado((l) => l.filter((x) => x.id !== a))}
          etiqueta="Avisos del estado de la cuenta"
        />
        {!editor.esUnoMismo && !detalle.acciones.permitidas ? (
          <p className="admin-nota">{detalle.acciones.motivo}</p>
        ) : (
          <div className="admin-acciones">
            {detalle.estado === 'activo' &&
              (editor.esUnoMismo ? (
                <p className="admin-nota">No puede desactivar su propia cuenta.</p>
              ) : (
                <button type="button" className="admin-boton admin-boton--peligro" onClick={() => setPregunta('desactivar')}>
                  Desactivar cuenta
                </button>
              ))}
            {detalle.estado !== 'activo' && (
              <button type="button" className="admin-boton" onClick={() => setPregunta('activar')}>
                Activar cuenta
              </button>
            )}
            {detalle.estado === 'pendiente' && (
              <button type="button" className="admin-boton admin-boton--secundario" onClick={() => void reenviar()}>
                Reenviar correo de activación
              </button>
            )}
          </div>
        )}
      </section>

      <section className="admin-seccion" aria-labelledby={`${id}-permisos`}>
        <h2 id={`${id}-permisos`}>Permisos</h2>
        <p className="admin-nota">
          Marque o desmarque cada permiso y pulse «Guardar cambios de permisos». Solo se envían los permisos que cambie.
        </p>
        <RegionTabla idTitulo={idCaptionMatriz}>
          <table className="admin-tabla__tabla admin-matriz">
            <caption id={idCaptionMatriz}>Permisos por distribuidora y área</caption>
            <thead>
              <tr>
                <th scope="col">Distribuidora</th>
                {AREAS.map((a) => (
                  <th key={a} scope="col">
                    {NOMBRE_AREA[a]}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {matriz.map((fila) => (
                <tr key={fila[0]!.distribuidora}>
                  <th scope="row" className="admin-tabla__principal">
                    {NOMBRE_DISTRIBUIDORA[fila[0]!.distribuidora]}
                  </th>
                  {fila.map((c) => {
                    const cambiada = c.concedido !== c.original;
                    return (
                      <td key={c.permiso} className={cambiada ? 'admin-matriz__cambiada' : undefined}>
                        <span className="admin-matriz__celda">
                          <input
                            type="checkbox"
                            id={`${id}-${c.permiso}`}
                            checked={c.concedido}
                            disabled={c.bloqueo !== null}
                            aria-describedby={c.bloqueo ? idMotivo(c.bloqueo) : undefined}
                            onChange={() => setPermisos((p) => alternarPermiso(p, detalle.permisos, c.permiso, editor))}
                          />
                          <label htmlFor={`${id}-${c.permiso}`} className="visually-hidden">
                            {NOMBRE_AREA[c.area]} en {NOMBRE_DISTRIBUIDORA[c.distribuidora]} ({c.permiso})
                          </label>
                          {c.bloqueo === 'automatico' && (
                            <span className="admin-matriz__marca" aria-hidden="true">
                              automático
                            </span>
                          )}
                          {cambiada && (
                            <span className="admin-matriz__marca admin-matriz__marca--cambio">
                              {c.concedido ? 'se concederá' : 'se retirará'}
                            </span>
                          )}
                        </span>
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </RegionTabla>
        {bloqueosUsados.size > 0 && (
          <ul className="admin-leyenda">
            {[...bloqueosUsados].map((b) => (
              <li key={b} id={idMotivo(b)}>
                {MOTIVO_BLOQUEO[b]}
              </li>
            ))}
          </ul>
        )}
        <ListaAlertas
          alertas={alertasPermisos}
          alCerrar={(a) => setAlertasPermisos((l) => l.filter((x) => x.id !== a))}
          etiqueta="Avisos de los permisos"
        />
        <p className="admin-cambios" role="status">
          {cambios ? resumenCambios(conceder.length, revocar.length) : 'No hay cambios pendientes.'}
        </p>
        <div className="admin-acciones">
          <button type="button" className="admin-boton" aria-disabled={!cambios} onClick={() => void guardarPermisos()}>
            Guardar cambios de permisos
          </button>
          {cambios > 0 && (
            <button type="button" className="admin-boton admin-boton--secundario" onClick={() => setPermisos([...detalle.permisos])}>
              Descartar cambios
            </button>
          )}
        </div>

        {detalle.permisosDetalle.length > 0 && (
          <details className="admin-detalles">
            <summary>Origen de cada permiso</summary>
            <RegionTabla idTitulo={idCaptionOrigen}>
              <table className="admin-tabla__tabla admin-tabla__tabla--estrecha">
                <caption id={idCaptionOrigen}>Quién concedió cada permiso y cuándo</caption>
                <thead>
                  <tr>
                    <th scope="col">Permiso</th>
                    <th scope="col">Origen</th>
                    <th scope="col">Fecha</th>
                  </tr>
                </thead>
                <tbody>
                  {detalle.permisosDetalle.map((p) => (
                    <tr key={p.permiso}>
                      <th scope="row" className="admin-nowrap">
                        {p.permiso}
                      </th>
                      <td>
                        {p.automatico ? 'Automático' : p.otorgadoPor ? `Concedido por ${p.otorgadoPor}` : 'Concedido por un administrador'}
                      </td>
                      <td className="admin-nowrap">{formatearFecha(p.otorgadoEn)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </RegionTabla>
          </details>
        )}
      </section>

      {detalle.permisos.some((p) => p.endsWith('-comercializadora')) && <CodigoRee detalle={detalle} alCambiar={adoptar} />}

      <section className="admin-seccion" aria-labelledby={`${id}-suplantar`}>
        <h2 id={`${id}-suplantar`}>Acceder como este usuario</h2>
        <p className="admin-nota">
          Para ayudar al usuario, puede entrar en el área privada viendo lo mismo que él. Todo lo que haga quedará registrado con ambos
          usuarios.
        </p>
        {esSuplantable(detalle) && detalle.acciones.permitidas && !editor.esUnoMismo ? (
          <div className="admin-acciones">
            <button type="button" className="admin-boton" onClick={() => setObjetivo({ email: detalle.email, nombre: detalle.nombre })}>
              Acceder como este usuario
            </button>
          </div>
        ) : (
          <p className="admin-nota">
            No disponible:{' '}
            {motivoSuplantar ?? (esAdminObjetivo ? 'No se puede acceder como otro administrador.' : 'La cuenta no está activa.')}
          </p>
        )}
      </section>

      <Confirmacion
        abierta={pregunta === 'desactivar'}
        titulo="Desactivar la cuenta"
        textoConfirmar="Desactivar cuenta"
        peligrosa
        alConfirmar={() => void cambiarEstado('inactivo')}
        alCancelar={() => setPregunta(null)}
      >
        <p>
          Va a desactivar la cuenta de <strong>{detalle.nombre || detalle.email}</strong> ({detalle.email}).
        </p>
        <p>
          Sus sesiones abiertas
          {detalle.sesionesActivas > 0 ? ` (${detalle.sesionesActivas})` : ''} terminarán en este mismo momento y no podrá volver a entrar
          hasta que una persona de administración active de nuevo la cuenta.
        </p>
      </Confirmacion>
      <Confirmacion
        abierta={pregunta === 'activar'}
        titulo="Activar la cuenta"
        textoConfirmar="Activar cuenta"
        alConfirmar={() => void cambiarEstado('activo')}
        alCancelar={() => setPregunta(null)}
      >
        <p>
          Va a activar la cuenta de <strong>{detalle.nombre || detalle.email}</strong> ({detalle.email}). Podrá entrar en el área privada
          con su contraseña.
        </p>
        {detalle.estado === 'pendiente' && (
          <p>
            Como todavía no había confirmado su correo, recibirá también los permisos de contacto y de acceso y conexión de las tres
            distribuidoras.
          </p>
        )}
      </Confirmacion>
      <ConfirmarSuplantacion objetivo={objetivo} alCancelar={() => setObjetivo(null)} />
      <Modal estado={modal} alCerrar={() => setModal(null)} />
    </section>
  );
}
