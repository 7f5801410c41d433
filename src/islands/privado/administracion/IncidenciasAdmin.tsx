/**
 * /administrador/incidencias: the management of the network incidents that feed the
 * home page's banner and /incidencias-red. The list (closed ones included) of the distributors the
 * administrator manages, filtered and paged by the server; a form to create and edit one, checked
 * with the same schema the API applies; the change of state; and the closing. The form tells how many
 * holders with e-mail alerts the incident's area reaches before saving, and every confirmation how
 * many were mailed (docs/decisions/025-avisos-de-corte.md).
 */
import { useStore } from '@nanostores/react';
import { Fragment, useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { apiFetch } from '../../../lib/administracion/api.ts';
import { mensajesDeError } from '../../../lib/api/cliente.ts';
import { esCupsValido } from '../../../lib/cups.ts';
import { formatearFechaHora, isoAMadridLocal, madridLocalAIso } from '../../../lib/administracion/fechas.ts';
import {
  CAMPOS_INCIDENCIA,
  distribuidorasAdministradas,
  entradaDesdeIncidencia,
  ESTADOS_ABIERTOS,
  ESTADOS_INCIDENCIA,
  formularioDesdeIncidencia,
  formularioVacio,
  resumenAfectados,
  textoFin,
  validarFormularioIncidencia,
  type CampoIncidencia,
  type EstadoAbierto,
  type FormularioIncidencia,
  type IncidenciaAdmin,
  LISTA_INCIDENCIAS,
  listaCups,
  separarLista,
} from '../../../lib/incidencias/lista-gestion.ts';
import { nombreDistribuidora } from '../../../lib/distribuidoras.ts';
import { incidenciaEntradaSchema } from '../../../lib/incidencias/gestion.ts';
import { $permisos } from '../../../lib/sesion/index.ts';
import { alertasDe, ListaAlertas, type Alerta } from '../../comunes/ListaAlertas.tsx';
import { Modal, type EstadoModal } from '../../comunes/Modal.tsx';
import { EnlaceCampo } from '../../comunes/formulario/EnlaceCampo.tsx';
import { Campo, CampoArea, CampoSelect, Confirmacion, useCamposAdmin } from './comun.tsx';
import { Filtro, FormularioFiltros, opcionesFiltro, ResultadosLista, TablaPaginada, useListaFiltrada } from './lista.tsx';
import './administracion.css';
import { urlApi } from '../../../lib/api/rutas.ts';

/** The form: closed, a new incident, or one being edited. */
type Edicion = { modo: 'cerrado' } | { modo: 'nueva' } | { modo: 'editar'; incidencia: IncidenciaAdmin };

const OPCIONES_ESTADO_FILTRO = opcionesFiltro('Todos', ESTADOS_INCIDENCIA, (e) => e);
const OPCIONES_ESTADO = ESTADOS_ABIERTOS.map((e) => ({ valor: e, texto: e }));

/** Labels of the fields, for the error summary. */
const ETIQUETAS: Record<CampoIncidencia, string> = {
  distribuidora: 'Distribuidora',
  estado: 'Estado',
  descripcion: 'Descripción',
  municipio: 'Municipio',
  codigoIne: 'Código INE del municipio',
  provincia: 'Provincia',
  codigosPostales: 'Códigos postales afectados',
  cups: 'CUPS afectados',
  clientesAfectados: 'Clientes afectados',
  inicio: 'Inicio',
  finPrevisto: 'Fin previsto',
};

/** How many supply points and holders the e-mail alerts of a change reached, or would reach. */
interface Avisados {
  suministros: number;
  titulares: number;
}

/** An incident as saving answers it: with the alerts it mailed. */
type IncidenciaGuardada = IncidenciaAdmin & { avisados: Avisados };

const plural = (n: number, uno: string, varios: string) => `${n} ${n === 1 ? uno : varios}`;

/** The sentence of a confirmation about the alerts a change mailed. */
function textoAvisados(a: Avisados): string {
  return a.titulares === 0
    ? 'No se ha enviado ningún aviso por correo.'
    : `Se ha avisado por correo a ${plural(a.titulares, 'titular', 'titulares')} (${plural(a.suministros, 'suministro', 'suministros')}).`;
}

const claseEstado = (estado: string) => `admin-estado admin-estado--${estado.replace(/\s+/g, '-')}`;

/** The incidents management screen. */
export default function IncidenciasAdmin(props: { params: Record<string, string> }) {
  void props;
  const permisos = useStore($permisos);
  const propias = useMemo(() => distribuidorasAdministradas(permisos), [permisos]);
  const filtroDistribuidora = opcionesFiltro('Todas las suyas', propias, nombreDistribuidora);
  const l = useListaFiltrada(LISTA_INCIDENCIAS);
  const { setAlertas, recargar } = l.pagina;
  const [edicion, setEdicion] = useState<Edicion>({ modo: 'cerrado' });
  const [cambioEstado, setCambioEstado] = useState<{ incidencia: IncidenciaAdmin; estado: EstadoAbierto } | null>(null);
  const [cierre, setCierre] = useState<{ incidencia: IncidenciaAdmin; fin: string; error?: string | undefined } | null>(null);
  const [modal, setModal] = useState<EstadoModal | null>(null);
  const botonNueva = useRef<HTMLButtonElement>(null);
  const id = useId();

  /** After a change saved: the success message, and the list read again. */
  const hecho = (texto: string) => {
    setAlertas(alertasDe([texto], 'success'));
    recargar();
  };

  const guardarEstado = async () => {
    if (!cambioEstado) return;
    const { incidencia, estado: nuevo } = cambioEstado;
    setCambioEstado(null);
    setModal({ tipo: 'spinner' });
    const r = await apiFetch<IncidenciaGuardada>(urlApi('/administrador/incidencias/{id}', { path: { id: incidencia.id } }), {
      method: 'PUT',
      json: entradaDesdeIncidencia(incidencia, { estado: nuevo }),
    });
    setModal(null);
    if (!r.ok) return setAlertas(alertasDe(mensajesDeError(r.error)));
    hecho(`La incidencia de ${incidencia.municipio} está ahora «${nuevo}». ${textoAvisados(r.datos.avisados)}`);
  };

  const cerrar = async () => {
    if (!cierre) return;
    const fin = cierre.fin.trim() ? madridLocalAIso(cierre.fin) : null;
    if (cierre.fin.trim() && !fin) {
      setCierre({ ...cierre, error: 'La fecha y hora de fin no es válida.' });
      document.getElementById(`${id}-fin`)?.focus();
      return;
    }
    const { incidencia } = cierre;
    // The API refuses an end before the start: say it here, beside the field, with the start shown.
    // Scheduled works that have not begun are cancelled, not ended: the API dates them at their start.
    if (!sinEmpezar(incidencia) && Date.parse(fin ?? new Date().toISOString()) < Date.parse(incidencia.inicio)) {
      setCierre({
        ...cierre,
        error: `El fin no puede ser anterior al inicio de la incidencia (${formatearFechaHora(incidencia.inicio)}).${fin ? '' : ' Indique la hora de fin.'}`,
      });
      document.getElementById(`${id}-fin`)?.focus();
      return;
    }
    setCierre(null);
    setModal({ tipo: 'spinner' });
    const r = await apiFetch<IncidenciaGuardada>(urlApi('/administrador/incidencias/{id}/cierre', { path: { id: incidencia.id } }), {
      method: 'POST',
      json: fin ? { fin } : {},
    });
    setModal(null);
    if (!r.ok) return setAlertas(alertasDe(mensajesDeError(r.error)));
    hecho(
      `La incidencia de ${incidencia.municipio} está cerrada. Dejará de mostrarse en las páginas públicas en un minuto como mucho. ${textoAvisados(r.datos.avisados)}`,
    );
  };

  return (
    <section className="admin">
      <h1 tabIndex={-1}>Incidencias de red</h1>
      <p className="admin__intro">
        Las incidencias programadas, en curso y activas se muestran en el aviso de la página principal y en la página pública de
        interrupciones de red. Al cerrar una incidencia deja de mostrarse. Los cambios llegan a las páginas públicas en un minuto como
        mucho. Las horas son peninsulares (Madrid).
      </p>

      {propias.length === 0 ? (
        <div className="admin-vacio">
          <p>Para gestionar incidencias necesita el permiso de administración de al menos una distribuidora.</p>
        </div>
      ) : (
        <>
          <div className="admin-acciones">
            <button
              ref={botonNueva}
              type="button"
              className="admin-boton"
              aria-expanded={edicion.modo === 'nueva'}
              onClick={() => setEdicion({ modo: 'nueva' })}
            >
              Nueva incidencia
            </button>
          </div>

          {edicion.modo !== 'cerrado' && (
            <FormularioIncidenciaEdicion
              key={edicion.modo === 'editar' ? edicion.incidencia.id : 'nueva'}
              incidencia={edicion.modo === 'editar' ? edicion.incidencia : null}
              propias={propias}
              alCancelar={() => {
                setEdicion({ modo: 'cerrado' });
                botonNueva.current?.focus();
              }}
              alGuardar={(texto) => {
                setEdicion({ modo: 'cerrado' });
                hecho(texto);
                botonNueva.current?.focus();
              }}
            />
          )}

          <FormularioFiltros etiqueta="Filtrar incidencias" alEnviar={l.filtrar} conFiltros={l.conFiltros} alLimpiar={l.limpiar}>
            <Filtro
              lista={l}
              clave="q"
              etiqueta="Buscar"
              ayuda="Municipio, provincia, código postal o descripción."
              tipo="search"
              max={100}
            />
            <Filtro lista={l} clave="estado" etiqueta="Estado" opciones={OPCIONES_ESTADO_FILTRO} />
            <Filtro lista={l} clave="distribuidora" etiqueta="Distribuidora" opciones={filtroDistribuidora} />
          </FormularioFiltros>

          <ResultadosLista
            lista={l}
            que={['incidencia', 'incidencias']}
            cargando="Cargando incidencias…"
            vacioConFiltros="No hay incidencias que coincidan con los filtros elegidos."
            vacio="No hay incidencias registradas. Cree una con «Nueva incidencia»."
          />
          <TablaPaginada
            lista={l}
            titulo="Incidencias de red"
            que="incidencias"
            columnas={['Municipio y estado', 'Acciones', 'Periodo', 'Afecta a']}
            fila={(i) => (
              <Fragment key={i.id}>
                <tr className="admin-fila-con-detalle">
                  <th scope="row" className="admin-tabla__principal" rowSpan={2}>
                    {i.municipio}
                    <span className="admin-motivo">
                      {i.provincia} · INE {i.codigoIne} · {i.distribuidora.toUpperCase()}
                    </span>
                    <span className={`${claseEstado(i.estado)} admin-estado--bloque`}>{i.estado}</span>
                  </th>
                  <td>
                    {i.estado === 'Cerrada' ? (
                      <span className="admin-motivo">Cerrada: ya no se puede cambiar.</span>
                    ) : (
                      <div className="admin-acciones admin-acciones--columna">
                        <button
                          type="button"
                          className="admin-boton admin-boton--secundario admin-boton--pequeno"
                          aria-label={`Editar la incidencia de ${i.municipio}`}
                          onClick={() => {
                            setEdicion({ modo: 'editar', incidencia: i });
                          }}
                        >
                          Editar
                        </button>
                        <button
                          type="button"
                          className="admin-boton admin-boton--secundario admin-boton--pequeno"
                          aria-label={`Cambiar el estado de la incidencia de ${i.municipio}`}
                          onClick={() => setCambioEstado({ incidencia: i, estado: i.estado as EstadoAbierto })}
                        >
                          Cambiar estado
                        </button>
                        <button
                          type="button"
                          className="admin-boton admin-boton--peligro admin-boton--pequeno"
                          aria-label={`Cerrar la incidencia de ${i.municipio}`}
                          onClick={() => setCierre({ incidencia: i, fin: sinEmpezar(i) ? '' : isoAMadridLocal(new Date().toISOString()) })}
                        >
                          Cerrar incidencia
                        </button>
                      </div>
                    )}
                  </td>
                  <td>
                    <span className="admin-nowrap">Inicio: {formatearFechaHora(i.inicio)}</span>
                    <span className="admin-motivo">{textoFin(i)}</span>
                  </td>
                  <td>{resumenAfectados(i)}</td>
                </tr>
                <tr className="admin-fila-detalle">
                  <td colSpan={3}>
                    <span className="visually-hidden">Descripción: </span>
                    {i.descripcion}
                  </td>
                </tr>
              </Fragment>
            )}
          />
        </>
      )}

      <Confirmacion
        abierta={cambioEstado !== null}
        titulo="Cambiar el estado de la incidencia"
        textoConfirmar="Guardar estado"
        alConfirmar={() => void guardarEstado()}
        alCancelar={() => setCambioEstado(null)}
      >
        {cambioEstado && (
          <>
            <p>
              Incidencia de <strong>{cambioEstado.incidencia.municipio}</strong>, ahora «{cambioEstado.incidencia.estado}».
            </p>
            <CampoSelect
              id={`${id}-nuevo-estado`}
              etiqueta="Nuevo estado"
              ayuda="«En curso» y «Activa» se muestran como interrupciones activas; «Programada», como prevista."
              valor={cambioEstado.estado}
              opciones={OPCIONES_ESTADO}
              alCambiar={(v) => setCambioEstado({ ...cambioEstado, estado: v as EstadoAbierto })}
            />
          </>
        )}
      </Confirmacion>

      <Confirmacion
        abierta={cierre !== null}
        titulo="Cerrar la incidencia"
        textoConfirmar="Cerrar incidencia"
        peligrosa
        alConfirmar={() => void cerrar()}
        alCancelar={() => setCierre(null)}
      >
        {cierre && (
          <>
            <p>
              La incidencia de <strong>{cierre.incidencia.municipio}</strong> dejará de mostrarse en el aviso de la página principal y en la
              página de interrupciones. Una incidencia cerrada no se puede volver a abrir.
            </p>
            {sinEmpezar(cierre.incidencia) ? (
              <p>
                Los trabajos programados no han empezado (inicio previsto el {formatearFechaHora(cierre.incidencia.inicio)}): se anularán, y
                los titulares que pidieron avisos recibirán la anulación.
              </p>
            ) : (
              <Campo
                id={`${id}-fin`}
                etiqueta="Fin de la incidencia"
                ayuda="Hora peninsular. Déjelo vacío para cerrarla con la hora actual."
                tipo="datetime-local"
                valor={cierre.fin}
                error={cierre.error}
                alCambiar={(fin) => setCierre({ ...cierre, fin, error: undefined })}
              />
            )}
          </>
        )}
      </Confirmacion>
      <Modal estado={modal} alCerrar={() => setModal(null)} />
    </section>
  );
}

/** Props of the form. */
interface PropsFormulario {
  /** The incident to edit, or null for a new one. */
  incidencia: IncidenciaAdmin | null;
  /** Distributors the administrator manages. */
  propias: readonly string[];
  /** Closed without saving. */
  alCancelar: () => void;
  /** Saved; the text of the success message. */
  alGuardar: (texto: string) => void;
}

/** The form to create or edit an incident (docs/diseno.md "Forms": noValidate, summary, values kept). */
function FormularioIncidenciaEdicion({ incidencia, propias, alCancelar, alGuardar }: PropsFormulario) {
  const c = useCamposAdmin(
    () =>
      incidencia
        ? formularioDesdeIncidencia(incidencia)
        : formularioVacio(propias.length === 1 ? (propias[0] as FormularioIncidencia['distribuidora']) : ''),
    ETIQUETAS,
  );
  const { valores: f, errores, setErrores } = c;
  const [porCups, setPorCups] = useState<string[]>([]);
  const [alertas, setAlertas] = useState<Alerta[]>([]);
  const [intento, setIntento] = useState(0);
  const [enviando, setEnviando] = useState(false);
  const titulo = useRef<HTMLHeadingElement>(null);
  const resumen = useRef<HTMLDivElement>(null);
  const id = useId();

  useEffect(() => titulo.current?.focus(), []);
  useEffect(() => {
    if (intento > 0) resumen.current?.focus();
  }, [intento]);

  const onSubmit = async (ev: FormEvent<HTMLFormElement>) => {
    ev.preventDefault();
    if (enviando) return;
    const v = validarFormularioIncidencia(f, incidenciaEntradaSchema);
    if (!v.ok) {
      setErrores(v.errores);
      setPorCups(v.erroresCups);
      setAlertas(alertasDe(v.generales));
      setIntento((n) => n + 1);
      return;
    }
    setErrores({});
    setPorCups([]);
    setEnviando(true);
    const r = await apiFetch<IncidenciaGuardada>(
      incidencia ? urlApi('/administrador/incidencias/{id}', { path: { id: incidencia.id } }) : urlApi('/administrador/incidencias'),
      { method: incidencia ? 'PUT' : 'POST', json: v.entrada },
    );
    setEnviando(false);
    if (!r.ok) {
      setAlertas(alertasDe(mensajesDeError(r.error)));
      resumen.current?.focus();
      return;
    }
    const avisos = textoAvisados(r.datos.avisados);
    alGuardar(
      incidencia ? `Incidencia de ${r.datos.municipio} guardada. ${avisos}` : `Incidencia de ${r.datos.municipio} creada. ${avisos}`,
    );
  };

  const lista = CAMPOS_INCIDENCIA.filter((c) => errores[c]).map((c) => ({ campo: c, mensaje: `${ETIQUETAS[c]}: ${errores[c]}` }));
  const opcionesDistribuidora = [
    ...(propias.length > 1 ? [{ valor: '', texto: 'Elija la distribuidora' }] : []),
    ...propias.map((d) => ({ valor: d, texto: nombreDistribuidora(d) })),
  ];

  return (
    <section className="admin-seccion" aria-labelledby={`${id}-titulo`}>
      <h2 id={`${id}-titulo`} ref={titulo} tabIndex={-1}>
        {incidencia ? `Editar la incidencia de ${incidencia.municipio}` : 'Nueva incidencia'}
      </h2>
      <div
        ref={resumen}
        tabIndex={-1}
        className={lista.length ? 'admin-resumen-errores' : undefined}
        role={lista.length ? 'group' : undefined}
        aria-labelledby={lista.length ? `${id}-resumen` : undefined}
      >
        {lista.length > 0 && (
          <>
            <h2 id={`${id}-resumen`}>Revise los campos marcados</h2>
            <ul>
              {lista.map((e) => (
                <li key={e.campo}>
                  <EnlaceCampo campo={c.idDe(e.campo)}>{e.mensaje}</EnlaceCampo>
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
      <ListaAlertas alertas={alertas} alCerrar={(a) => setAlertas((l) => l.filter((x) => x.id !== a))} etiqueta="Avisos del formulario" />
      <form className="admin-formulario" noValidate onSubmit={(e) => void onSubmit(e)} aria-labelledby={`${id}-titulo`}>
        <CampoSelect {...c.campo('distribuidora')} requerido opciones={opcionesDistribuidora} />
        <CampoSelect {...c.campo('estado')} requerido opciones={OPCIONES_ESTADO} />
        <CampoArea
          {...c.campo('descripcion')}
          requerido
          max={500}
          clase="admin-formulario__ancho"
          ayuda="Qué ocurre y qué trabajos se hacen, como lo leerá el público."
        />
        <Campo {...c.campo('municipio')} requerido max={100} />
        <Campo {...c.campo('codigoIne')} requerido inputMode="numeric" max={5} ayuda="Cinco cifras, por ejemplo 28079 para Madrid." />
        <Campo {...c.campo('provincia')} requerido max={60} />
        <Campo {...c.campo('clientesAfectados')} inputMode="numeric" ayuda="Opcional." />
        <CampoArea {...c.campo('codigosPostales')} filas={2} ayuda="Separados por comas o espacios, por ejemplo: 28001, 28002." />
        <div className="admin-campo-con-lista">
          <CampoArea {...c.campo('cups')} filas={3} ayuda="Uno por línea, de la distribuidora elegida." />
          {porCups.length > 0 && (
            <ul className="admin-errores-cups" aria-label="CUPS no válidos">
              {porCups.map((m) => (
                <li key={m}>{m}</li>
              ))}
            </ul>
          )}
        </div>
        <PrevisionAvisos f={f} />
        <Campo {...c.campo('inicio')} requerido tipo="datetime-local" ayuda="Hora peninsular (Madrid)." />
        <Campo {...c.campo('finPrevisto')} tipo="datetime-local" ayuda="Hora peninsular (Madrid). Opcional; no anterior al inicio." />
        <div className="admin-acciones">
          <button type="submit" className="admin-boton" aria-disabled={enviando} aria-busy={enviando || undefined}>
            {enviando ? 'Guardando…' : incidencia ? 'Guardar cambios' : 'Crear incidencia'}
          </button>
          <button type="button" className="admin-boton admin-boton--secundario" onClick={alCancelar}>
            Cancelar
          </button>
        </div>
      </form>
    </section>
  );
}

/**
 * How many holders with e-mail alerts the area typed so far reaches, asked to the server a moment
 * after the area stops changing (only valid postal codes and CUPS are sent; it names no one).
 */
function PrevisionAvisos({ f }: { f: FormularioIncidencia }) {
  const [estado, setEstado] = useState<
    { fase: 'incompleta' | 'calculando' } | { fase: 'lista'; a: Avisados } | { fase: 'error'; mensaje: string }
  >({
    fase: 'incompleta',
  });
  const codigosPostales = separarLista(f.codigosPostales)
    .filter((c) => /^\d{5}$/.test(c))
    .join(',');
  const cups = listaCups(f.cups).filter(esCupsValido).join(',');
  const codigoIne = f.codigoIne.trim();
  const distribuidora = f.distribuidora;

  useEffect(() => {
    if (!distribuidora || !/^\d{5}$/.test(codigoIne)) {
      setEstado({ fase: 'incompleta' });
      return;
    }
    const peticion = new AbortController();
    setEstado({ fase: 'calculando' });
    const espera = setTimeout(() => {
      void apiFetch<Avisados>(urlApi('/administrador/incidencias/previsionAvisos'), {
        method: 'POST',
        signal: peticion.signal,
        json: {
          distribuidora,
          codigoIne,
          codigosPostales: codigosPostales ? codigosPostales.split(',') : [],
          cups: cups ? cups.split(',') : [],
        },
      }).then((r) => {
        if (peticion.signal.aborted) return;
        setEstado(r.ok ? { fase: 'lista', a: r.datos } : { fase: 'error', mensaje: r.error.mensaje });
      });
    }, 400);
    return () => {
      clearTimeout(espera);
      peticion.abort();
    };
  }, [distribuidora, codigoIne, codigosPostales, cups]);

  return (
    <div className="admin-formulario__ancho admin-prevision-avisos">
      <p className="admin-prevision-avisos__cifra" role="status">
        {estado.fase === 'incompleta' && 'Indique la distribuidora y el código INE para saber a quién se avisará por correo.'}
        {estado.fase === 'calculando' && 'Calculando a quién se avisará por correo…'}
        {estado.fase === 'error' && `No se ha podido calcular a quién se avisará por correo: ${estado.mensaje}`}
        {estado.fase === 'lista' &&
          (estado.a.titulares === 0
            ? 'Ningún titular de esta zona tiene activados los avisos por correo.'
            : `Avisos por correo: ${plural(estado.a.titulares, 'titular', 'titulares')} (${plural(estado.a.suministros, 'suministro', 'suministros')}) de esta zona los tienen activados.`)}
      </p>
      <p className="admin-nota">
        Reciben un correo cuando se publica la incidencia, cuando cambia mientras está programada, cuando se anula y cuando empieza y
        termina.
      </p>
    </div>
  );
}

/** Scheduled works whose start has not come: closing them cancels them (they are dated at their start). */
function sinEmpezar(i: IncidenciaAdmin): boolean {
  return i.estado === 'Programada' && Date.parse(i.inicio) > Date.now();
}
