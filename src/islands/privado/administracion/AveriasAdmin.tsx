/**
 * /administrador/averias: the pending "No tengo luz" fault reports of the distributors the user
 * administers (docs/decisions/023), grouped by area (distributor, postal code and municipality) with
 * their count, the area with the newest report first. Several reports of one area are probably one
 * network fault: the group is confirmed as an active network incident (published at once on
 * /incidencias-red and the home banner); a single report found to be the home's own installation is
 * dismissed.
 */
import { useStore } from '@nanostores/react';
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { apiFetch } from '../../../lib/administracion/api.ts';
import { formatearFechaHora, madridLocalAIso } from '../../../lib/administracion/fechas.ts';
import { mensajesDeError } from '../../../lib/api/cliente.ts';
import { descripcionIncidenciaDeGrupo, type AvisoCola, type GrupoAvisos } from '../../../lib/averias/cola.ts';
import { distribuidorasAdministradas } from '../../../lib/incidencias/lista-gestion.ts';
import { nombreDistribuidora } from '../../../lib/distribuidoras.ts';
import { $permisos } from '../../../lib/sesion/index.ts';
import { alertasDe, ListaAlertas, type Alerta } from '../../comunes/ListaAlertas.tsx';
import { Modal, type EstadoModal } from '../../comunes/Modal.tsx';
import type { PropsPantalla } from '../AppPrivada.tsx';
import { Campo, CampoArea, CampoSelect, Cargando, Confirmacion, Correo, RegionTabla, type Opcion } from './comun.tsx';
import './administracion.css';
import './averias.css';
import { SinDistribuidoras } from './lista.tsx';
import { urlApi } from '../../../lib/api/rutas.ts';

/** A report as GET /api/administrador/averias gives it. */
interface Aviso extends Pick<AvisoCola, 'id' | 'referencia' | 'cups' | 'creado'> {
  telefono: string | null;
  email: string | null;
  origen: 'publico' | 'area_privada';
}

type Grupo = Omit<GrupoAvisos, 'avisos'> & { avisos: Aviso[] };

type Carga = { fase: 'cargando' } | { fase: 'lista'; grupos: Grupo[] } | { fase: 'error' };

/** The confirmation being filled in. */
interface Confirmando {
  grupo: Grupo;
  descripcion: string;
  fin: string;
  errorDescripcion?: string | undefined;
  errorFin?: string | undefined;
}

const ORIGEN: Record<Aviso['origen'], string> = { publico: 'Página pública', area_privada: 'Área privada' };

const avisosEnPalabras = (n: number) => (n === 1 ? '1 aviso' : `${n} avisos`);

/** The staff queue of fault reports. */
export default function AveriasAdmin({ ruta }: PropsPantalla) {
  const permisos = useStore($permisos);
  const propias = useMemo(() => distribuidorasAdministradas(permisos), [permisos]);
  const [distribuidora, setDistribuidora] = useState('');
  const [carga, setCarga] = useState<Carga>({ fase: 'cargando' });
  const [intento, setIntento] = useState(0);
  const [alertas, setAlertas] = useState<Alerta[]>([]);
  const [confirmando, setConfirmando] = useState<Confirmando | null>(null);
  const [descartando, setDescartando] = useState<{ grupo: Grupo; aviso: Aviso } | null>(null);
  const [modal, setModal] = useState<EstadoModal | null>(null);
  const [enfocar, setEnfocar] = useState(0);
  const titulo = useRef<HTMLHeadingElement>(null);
  const id = useId();
  const recargar = useCallback(() => setIntento((n) => n + 1), []);

  useEffect(() => {
    if (propias.length === 0) return;
    const peticion = new AbortController();
    setCarga((c) => (c.fase === 'lista' ? c : { fase: 'cargando' }));
    void apiFetch<Grupo[]>(urlApi('/administrador/averias', { query: { distribuidora: distribuidora || undefined } }), {
      signal: peticion.signal,
    }).then((r) => {
      if (peticion.signal.aborted) return;
      if (r.ok) setCarga({ fase: 'lista', grupos: r.datos });
      else {
        setCarga({ fase: 'error' });
        setAlertas(alertasDe(mensajesDeError(r.error)));
      }
    });
    return () => peticion.abort();
  }, [distribuidora, intento, propias.length]);

  // After an action the heading takes the focus (the row it was on may be gone). An effect of this
  // screen runs after the dialogs' own, which give the focus back to the button that opened them.
  useEffect(() => {
    if (enfocar > 0) titulo.current?.focus();
  }, [enfocar]);

  /** After an action: its message, the queue read again, and the focus on the heading. */
  const hecho = (texto: string) => {
    setAlertas(alertasDe([texto], 'success'));
    recargar();
    setEnfocar((n) => n + 1);
  };

  const confirmar = async () => {
    if (!confirmando) return;
    const descripcion = confirmando.descripcion.trim();
    const fin = confirmando.fin.trim() ? madridLocalAIso(confirmando.fin) : null;
    if (descripcion.length > 500) {
      setConfirmando({ ...confirmando, errorDescripcion: 'La descripción no puede superar 500 caracteres.', errorFin: undefined });
      document.getElementById(`${id}-descripcion`)?.focus();
      return;
    }
    if (confirmando.fin.trim() && (!fin || Date.parse(fin) <= Date.now())) {
      const error = fin ? 'El fin previsto debe ser posterior a este momento.' : 'La fecha y hora del fin previsto no es válida.';
      setConfirmando({ ...confirmando, errorDescripcion: undefined, errorFin: error });
      document.getElementById(`${id}-fin`)?.focus();
      return;
    }
    const { grupo } = confirmando;
    setConfirmando(null);
    setModal({ tipo: 'spinner' });
    const r = await apiFetch<{ incidenciaId: string; avisos: number }>(urlApi('/administrador/averias/confirmacion'), {
      method: 'POST',
      json: { clave: grupo.clave, ...(descripcion ? { descripcion } : {}), ...(fin ? { finPrevisto: fin } : {}) },
    });
    setModal(null);
    if (!r.ok) {
      setAlertas(alertasDe(mensajesDeError(r.error)));
      recargar();
      return;
    }
    hecho(
      `Incidencia de ${grupo.municipio} (${grupo.codigoPostal}) creada con ${avisosEnPalabras(r.datos.avisos)}. ` +
        'Ya se muestra en la página de interrupciones de red y en el aviso de la página principal.',
    );
  };

  const descartar = async () => {
    if (!descartando) return;
    const { aviso } = descartando;
    setDescartando(null);
    setModal({ tipo: 'spinner' });
    const r = await apiFetch<null>(urlApi('/administrador/averias/{id}/descarte', { path: { id: aviso.id } }), { method: 'POST' });
    setModal(null);
    if (!r.ok) {
      setAlertas(alertasDe(mensajesDeError(r.error)));
      recargar();
      return;
    }
    hecho(`Aviso ${aviso.referencia} descartado.`);
  };

  const opcionesDistribuidora: Opcion[] = [
    { valor: '', texto: 'Todas las suyas' },
    ...propias.map((d) => ({ valor: d, texto: nombreDistribuidora(d) })),
  ];
  const total = carga.fase === 'lista' ? carga.grupos.reduce((n, g) => n + g.total, 0) : 0;

  return (
    <section className="admin">
      <h1 ref={titulo} tabIndex={-1}>
        {ruta.titulo}
      </h1>
      <p className="admin__intro">
        Los avisos que registra «No tengo luz» cuando ni una interrupción conocida ni el contador explican la falta de suministro, agrupados
        por zona (código postal y municipio); primero la zona con el aviso más reciente. Varios avisos de una misma zona suelen ser una
        avería de la red: confírmela como incidencia y se publicará al momento. Descarte un aviso cuando la avería esté en la instalación
        interior de la vivienda. Las horas son peninsulares (Madrid).
      </p>

      {propias.length === 0 ? (
        <SinDistribuidoras para="atender los avisos de falta de suministro" />
      ) : (
        <>
          {propias.length > 1 ? (
            <div className="admin-filtros">
              <CampoSelect
                id={`${id}-distribuidora`}
                etiqueta="Distribuidora"
                valor={distribuidora}
                opciones={opcionesDistribuidora}
                alCambiar={setDistribuidora}
              />
            </div>
          ) : (
            <p className="admin-nota">
              Distribuidora: <strong>{nombreDistribuidora(propias[0]!)}</strong>
            </p>
          )}
          <ListaAlertas alertas={alertas} alCerrar={(a) => setAlertas((l) => l.filter((x) => x.id !== a))} />
          <p className="admin-resultado" role="status">
            {carga.fase === 'lista' &&
              (carga.grupos.length === 0
                ? 'No hay avisos pendientes.'
                : `${avisosEnPalabras(total)} pendientes en ${carga.grupos.length === 1 ? '1 zona' : `${carga.grupos.length} zonas`}.`)}
          </p>
          {carga.fase === 'cargando' && <Cargando texto="Cargando avisos…" />}
          {carga.fase === 'error' && (
            <p>
              <button type="button" className="admin-boton admin-boton--secundario" onClick={recargar}>
                Reintentar
              </button>
            </p>
          )}
          {carga.fase === 'lista' && carga.grupos.length === 0 && (
            <div className="admin-vacio">
              <p>No hay avisos de falta de suministro pendientes.</p>
            </div>
          )}
          {carga.fase === 'lista' &&
            carga.grupos.map((g) => (
              <GrupoZona
                key={g.clave}
                g={g}
                variasDistribuidoras={propias.length > 1}
                alConfirmar={() => setConfirmando({ grupo: g, descripcion: descripcionIncidenciaDeGrupo(g), fin: '' })}
                alDescartar={(aviso) => setDescartando({ grupo: g, aviso })}
              />
            ))}
        </>
      )}

      <Confirmacion
        abierta={confirmando !== null}
        titulo="Confirmar como incidencia de red"
        textoConfirmar="Crear la incidencia"
        alConfirmar={() => void confirmar()}
        alCancelar={() => setConfirmando(null)}
      >
        {confirmando && (
          <>
            <p>
              Se creará una incidencia <strong>Activa</strong> en {confirmando.grupo.municipio} ({confirmando.grupo.codigoPostal}) con los{' '}
              {avisosEnPalabras(confirmando.grupo.total)} de la zona, desde el primero. Se publicará al momento en la página de
              interrupciones de red y en el aviso de la página principal.
            </p>
            <CampoArea
              id={`${id}-descripcion`}
              etiqueta="Descripción para el público"
              ayuda="Qué ocurre, como lo leerá el público. Déjela vacía para usar el texto propuesto."
              valor={confirmando.descripcion}
              max={500}
              filas={4}
              error={confirmando.errorDescripcion}
              alCambiar={(descripcion) => setConfirmando({ ...confirmando, descripcion, errorDescripcion: undefined })}
            />
            <Campo
              id={`${id}-fin`}
              etiqueta="Fin previsto"
              ayuda="Hora peninsular. Opcional: déjelo vacío si aún no se conoce."
              tipo="datetime-local"
              valor={confirmando.fin}
              error={confirmando.errorFin}
              alCambiar={(fin) => setConfirmando({ ...confirmando, fin, errorFin: undefined })}
            />
          </>
        )}
      </Confirmacion>

      <Confirmacion
        abierta={descartando !== null}
        titulo="Descartar el aviso"
        textoConfirmar="Descartar aviso"
        peligrosa
        alConfirmar={() => void descartar()}
        alCancelar={() => setDescartando(null)}
      >
        {descartando && (
          <p>
            El aviso <strong>{descartando.aviso.referencia}</strong> de {descartando.grupo.municipio} ({descartando.grupo.codigoPostal})
            dejará la cola. Si la misma persona vuelve a consultar, se registrará un aviso nuevo.
          </p>
        )}
      </Confirmacion>
      <Modal estado={modal} alCerrar={() => setModal(null)} />
    </section>
  );
}

/** One area: its place, count and newest report, the confirm action, and its reports. */
function GrupoZona({
  g,
  variasDistribuidoras,
  alConfirmar,
  alDescartar,
}: {
  g: Grupo;
  variasDistribuidoras: boolean;
  alConfirmar: () => void;
  alDescartar: (a: Aviso) => void;
}) {
  const id = useId();
  const zona = `${g.municipio} (${g.codigoPostal})`;
  return (
    <section className="admin-seccion adm-averias__zona" aria-labelledby={`${id}-titulo`}>
      <h2 id={`${id}-titulo`}>
        {zona} <span className="adm-averias__total">· {avisosEnPalabras(g.total)}</span>
      </h2>
      <p className="admin-motivo">
        {g.provincia} · INE {g.codigoIne}
        {variasDistribuidoras && ` · ${nombreDistribuidora(g.distribuidora)}`} · último aviso: {formatearFechaHora(g.ultimo)}
      </p>
      <div className="admin-acciones">
        <button type="button" className="admin-boton" onClick={alConfirmar}>
          Confirmar como incidencia de red…<span className="visually-hidden"> {zona}</span>
        </button>
      </div>
      <RegionTabla idTitulo={`${id}-caption`}>
        <table className="admin-tabla__tabla">
          <caption id={`${id}-caption`}>Avisos de {zona}</caption>
          <thead>
            <tr>
              <th scope="col">Referencia</th>
              <th scope="col">Recibido</th>
              <th scope="col">CUPS</th>
              <th scope="col">Contacto</th>
              <th scope="col">Acción</th>
            </tr>
          </thead>
          <tbody>
            {g.avisos.map((a) => (
              <tr key={a.id}>
                <th scope="row" className="admin-tabla__principal admin-nowrap">
                  {a.referencia}
                  <span className="admin-motivo">{ORIGEN[a.origen]}</span>
                </th>
                <td className="admin-nowrap">{formatearFechaHora(a.creado)}</td>
                <td className="admin-partible">{a.cups}</td>
                <td>
                  {a.telefono || a.email ? (
                    <>
                      {a.telefono && <span className="admin-nowrap">{a.telefono}</span>}
                      {a.email && (
                        <span className="admin-motivo">
                          <Correo email={a.email} />
                        </span>
                      )}
                    </>
                  ) : (
                    '—'
                  )}
                </td>
                <td>
                  <button type="button" className="admin-boton admin-boton--secundario admin-boton--pequeno" onClick={() => alDescartar(a)}>
                    Descartar<span className="visually-hidden"> el aviso {a.referencia}</span>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </RegionTabla>
    </section>
  );
}
