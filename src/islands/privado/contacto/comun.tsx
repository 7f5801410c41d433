/**
 * Pieces of the query and claim screens (docs/decisions/018): the account's supply points and name
 * the forms prefill from, the list of cases as a table or as cards, a case's header, its "what to do
 * now" box, its thread and documents, the reply box with its documents, the files a form gathers
 * before the case exists, and the sending of a form: the draft created (or saved), each file
 * uploaded with its progress, then sent. The words come from src/lib/contacto/pantalla.ts.
 */
import { useStore } from '@nanostores/react';
import { atom } from 'nanostores';
import { useCallback, useEffect, useRef, useState, type ComponentType, type FormEvent, type ReactNode } from 'react';
import { ACEPTA_DOCUMENTO, apiDocumento, etiquetaClase, textoTurno } from '../../../lib/accesoyconexion/pantalla.ts';
import { formatearFechaHora } from '../../../lib/administracion/fechas.ts';
import { apiFetch, mensajesDeError } from '../../../lib/api/cliente.ts';
import type { DatosConsulta, DatosReclamacion, FaltaContacto } from '../../../lib/contacto/datos.ts';
import {
  apiAccion,
  apiCaso,
  apiCasos,
  documentosPorPaso,
  erroresDeFaltas,
  faltasDeRespuesta,
  hiloDe,
  nombreDePerfil,
  problemaFicheroElegido,
  RUTA_CONSULTAS,
  RUTA_RECLAMACIONES,
  textoAsunto,
  textoFaseEnvio,
  textoPlazoCaso,
  textoTema,
  textoTipo,
  urlCaso,
  type ErrorFormulario,
  type FaseEnvio,
  type FicheroElegido,
  type QueHacer,
  type SuministroPropio,
} from '../../../lib/contacto/pantalla.ts';
import type { ProcedimientoContacto } from '../../../lib/contacto/procedimientos.ts';
import type { AccionContacto, CasoContactoDetalle, CasoContactoResumen } from '../../../lib/contacto/respuestas.ts';
import type { ClaseDocumento } from '../../../lib/expedientes/documentos.ts';
import { tamanoLegible } from '../../../lib/medidas/pantalla/descarga.ts';
import type { Perfil } from '../../../lib/perfil/pantalla.ts';
import { tieneArea } from '../../../lib/permisos.ts';
import { $permisos } from '../../../lib/sesion/index.ts';
import { navegar } from '../../../lib/privado/navegacion.ts';
import { alertasDe, type Alerta } from '../../comunes/ListaAlertas.tsx';
import { Dato } from '../../comunes/Dato.tsx';
import { BotonEnviar } from '../../comunes/formulario/BotonEnviar.tsx';
import { Confirmacion } from '../administracion/comun.tsx';
import { CabeceraCampo } from '../../comunes/formulario/CabeceraCampo.tsx';
import { atributosControl, claseCampo, describedBy, textosCampo } from '../../comunes/formulario/campo.ts';
import { CajaQueHacer } from '../expedientes/CajaQueHacer.tsx';
import { ListaDocumentos, subirDocumento } from '../expedientes/documentos.tsx';
import { EtiquetaTurno, Plazo } from '../expedientes/etiquetas.tsx';
import { Cargando, ErrorCarga, type Carga } from '../medidas/comun.tsx';
import { useSolicitud, type CargaSolicitud } from '../modificaciones/comun.tsx';
import '../medidas/medidas.css';
import '../administracion/administracion.css';
import '../accesoyconexion/accesoyconexion.css';
import '../../sesion/sesion.css';
import './contacto.css';
import { urlApi } from '../../../lib/api/rutas.ts';

/** A message for the screen opened next (a case just sent, a draft deleted), shown once with focus. */
export const $avisoContacto = atom<string | null>(null);

// ---------------------------------------------------------------------------------------------
// What the forms prefill from
// ---------------------------------------------------------------------------------------------

/**
 * The account's supply points (GET /api/suministros). Only an account with a `-distribucion`
 * permission holds any, and only it may ask (any other gets a 403, which would end the session).
 */
export function useSuministrosPropios(): [Carga<SuministroPropio[]>, () => void] {
  const permisos = useStore($permisos);
  const titular = tieneArea(permisos, 'distribucion');
  const [carga, setCarga] = useState<Carga<SuministroPropio[]>>(titular ? { fase: 'cargando' } : { fase: 'lista', datos: [] });
  const [intento, setIntento] = useState(0);
  useEffect(() => {
    if (!titular) {
      setCarga({ fase: 'lista', datos: [] });
      return;
    }
    const peticion = new AbortController();
    setCarga({ fase: 'cargando' });
    void apiFetch<SuministroPropio[]>(urlApi('/suministros'), { signal: peticion.signal }).then((r) => {
      if (peticion.signal.aborted) return;
      // Only the account's own: a supply point it may only read through an authorisation is not its to write about (docs/decisions/028).
      const propios = r.ok ? r.datos.filter((s) => !(s as { autorizacion?: unknown }).autorizacion) : [];
      setCarga(r.ok ? { fase: 'lista', datos: propios } : { fase: 'error', mensaje: r.error.mensaje });
    });
    return () => peticion.abort();
  }, [titular, intento]);
  return [carga, useCallback(() => setIntento((n) => n + 1), [])];
}

/** The account's NIF and name (GET /api/perfil), to prefill a holder's claim; null until known or when it fails. */
export function useCuenta(): { nif: string | null; nombre: string } | null {
  const [cuenta, setCuenta] = useState<{ nif: string | null; nombre: string } | null>(null);
  useEffect(() => {
    const peticion = new AbortController();
    void apiFetch<Perfil>(urlApi('/perfil'), { signal: peticion.signal }).then((r) => {
      if (!peticion.signal.aborted && r.ok) setCuenta({ nif: r.datos.nif, nombre: nombreDePerfil(r.datos) });
    });
    return () => peticion.abort();
  }, []);
  return cuenta;
}

// ---------------------------------------------------------------------------------------------
// Frame
// ---------------------------------------------------------------------------------------------

/** The "back" link of a screen. */
export function Volver({ href, texto }: { href: string; texto: string }) {
  return (
    <p className="med-volver">
      <a href={href}>
        <span aria-hidden="true">← </span>
        {texto}
      </a>
    </p>
  );
}

/** A case not loaded (yet): loading, failed with a retry, or missing. */
export function SinCaso({
  carga,
  reintentar,
  que,
  lista,
}: {
  carga: CargaSolicitud<unknown>;
  reintentar: () => void;
  que: string;
  lista: string;
}) {
  if (carga.fase === 'cargando') return <Cargando texto={`Cargando ${que}…`} />;
  if (carga.fase === 'error') return <ErrorCarga que={que} mensaje={carga.mensaje} reintentar={reintentar} />;
  if (carga.fase === 'no-existe')
    return (
      <div className="priv-aviso priv-aviso--warning" role="alert">
        <p>
          {carga.mensaje} Puede que se borrara el borrador, o que la dirección no esté completa. <a href={lista}>Vuelva a la lista</a>.
        </p>
      </div>
    );
  return null;
}

/** The result of an action or of a send, at the top of the screen: it takes focus so it is heard and seen. */
export function Anuncio({ anuncio }: { anuncio: { texto: string; n: number } | null }) {
  const caja = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (anuncio) caja.current?.focus();
  }, [anuncio?.n]);
  if (!anuncio) return null;
  return (
    <div ref={caja} tabIndex={-1} className="priv-aviso priv-aviso--info ct-anuncio" role="status">
      <p>
        <strong>Hecho. </strong>
        {anuncio.texto}
      </p>
    </div>
  );
}

// ---------------------------------------------------------------------------------------------
// Lists
// ---------------------------------------------------------------------------------------------

/** What the list says a case is about, under its reference. */
function sobre(c: CasoContactoResumen): string {
  return c.procedimiento === 'consulta' ? textoTema(c.tema) : `${textoTipo(c.tipo)}`;
}

/** The account's cases of one procedure, newest first: a table on wide screens and cards on phones. */
export function ListaCasos({
  procedimiento,
  filas,
  hoy,
}: {
  procedimiento: ProcedimientoContacto;
  filas: CasoContactoResumen[];
  hoy: string;
}) {
  const titulo = procedimiento === 'consulta' ? 'Sus consultas, la más reciente primero' : 'Sus reclamaciones, la más reciente primero';
  const reclamacion = procedimiento === 'reclamacion';
  return (
    <>
      <div className="med-tabla ac-lista-tabla" role="region" aria-labelledby="ct-tabla-titulo" tabIndex={0}>
        <table className="med-tabla__tabla">
          <caption id="ct-tabla-titulo">{titulo}</caption>
          <thead>
            <tr>
              <th scope="col">Referencia</th>
              <th scope="col">{reclamacion ? 'Tipo y subtipo' : 'Tema y asunto'}</th>
              <th scope="col">Estado</th>
              <th scope="col">Plazo</th>
              {reclamacion && <th scope="col">Resultado</th>}
            </tr>
          </thead>
          <tbody>
            {filas.map((c) => (
              <tr key={c.id}>
                <th scope="row">
                  <a href={urlCaso(c)} className="med-nowrap">
                    {c.referencia}
                  </a>
                  {/* The distributor under the reference: a column of its own made the table wider than the page at 1280 px. */}
                  <span className="ac-lista__sub">{c.distribuidoraNombre}</span>
                </th>
                <td>
                  {sobre(c)}
                  <span className="ac-lista__sub">{textoAsunto(c)}</span>
                </td>
                <td>
                  {c.pasoNombre}
                  <span className="ac-lista__sub">
                    <EtiquetaTurno turno={c.turno} />
                  </span>
                </td>
                <td>
                  <Plazo plazo={textoPlazoCaso(c, hoy)} corto />
                </td>
                {reclamacion && <td>{c.resultado?.nombre ?? '—'}</td>}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ul className="med-tarjetas ac-lista-tarjetas" aria-label={titulo}>
        {filas.map((c) => (
          <li key={c.id} className="med-tarjeta ac-tarjeta">
            <h3 className="med-tarjeta__titulo">
              <a href={urlCaso(c)}>
                {c.referencia}
                <span className="med-tarjeta__lugar">{textoAsunto(c)}</span>
              </a>
            </h3>
            <p>
              <EtiquetaTurno turno={c.turno} />
            </p>
            <dl className="med-tarjeta__datos">
              <Dato t="Estado">{c.pasoNombre}</Dato>
              <Dato t="Plazo">
                <Plazo plazo={textoPlazoCaso(c, hoy)} corto />
              </Dato>
              <Dato t={reclamacion ? 'Tipo' : 'Tema'}>{sobre(c)}</Dato>
              <Dato t="Distribuidora">{c.distribuidoraNombre}</Dato>
              {reclamacion && c.resultado && <Dato t="Resultado">{c.resultado.nombre}</Dato>}
            </dl>
          </li>
        ))}
      </ul>
    </>
  );
}

// ---------------------------------------------------------------------------------------------
// The detail
// ---------------------------------------------------------------------------------------------

/** A case's header: reference, whose turn, step, distributor, dates and the deadline with its rule. */
export function CabeceraCaso({ c, hoy, children }: { c: CasoContactoDetalle; hoy: string; children?: ReactNode }) {
  const plazo = textoPlazoCaso(c, hoy);
  return (
    <section className="med-panel ac-cabecera" aria-labelledby="ct-cabecera-titulo">
      <div className="mod-tarjeta__cabeza">
        <h2 id="ct-cabecera-titulo" className="med-detalle__titulo">
          {c.referencia}
        </h2>
        <EtiquetaTurno turno={c.turno} lado={c.lado} />
      </div>
      <dl className="med-datos">
        <Dato t="Estado">{c.pasoNombre}</Dato>
        <Dato t="Distribuidora">{c.distribuidoraNombre}</Dato>
        {children}
        <Dato t="A quién le toca">{textoTurno(c.turno, c.lado)}</Dato>
        <Dato t="Plazo">
          <Plazo plazo={plazo} />
          {c.reglaPlazo && <span className="ac-regla">{c.reglaPlazo}</span>}
        </Dato>
        {c.presentadoEn && <Dato t="Enviada">{formatearFechaHora(c.presentadoEn)}</Dato>}
        {c.cerradoEn && <Dato t="Cerrada">{formatearFechaHora(c.cerradoEn)}</Dato>}
        {c.intercambio && (
          <Dato t="Por el intercambio">
            R1 01 con código de solicitud {c.intercambio.codigoSolicitud}: las respuestas (R1 02 y R1 05) están en su carpeta salida.
          </Dato>
        )}
      </dl>
    </section>
  );
}

/** The "what you have to do now" box of a query or claim. */
export function CajaQueHacerContacto({ q, c, hoy }: { q: QueHacer | null; c: CasoContactoDetalle; hoy: string }) {
  const suTurno = c.turno === 'solicitante';
  return (
    <CajaQueHacer
      q={q}
      plazo={suTurno ? textoPlazoCaso(c, hoy) : null}
      suTurno={suTurno}
      idTitulo="ct-quehacer-titulo"
      cita="Lo que le dice la distribuidora:"
    />
  );
}

/** The thread of a case: every step of both sides, oldest first, with its message and its documents' names. */
export function Hilo({
  c,
  titulo,
  id = 'ct-hilo',
  clase = 'med-panel',
}: {
  c: CasoContactoDetalle;
  titulo: string;
  id?: string;
  clase?: string;
}) {
  const entradas = hiloDe(c.eventos, c.documentos, c.lado, c.consulta?.mensaje ?? c.reclamacion?.mensaje);
  return (
    <section className={clase} aria-labelledby={`${id}-titulo`}>
      <h2 id={`${id}-titulo`}>{titulo}</h2>
      {entradas.length === 0 ? (
        <p>Todavía no hay mensajes.</p>
      ) : (
        <ol className="ct-hilo" aria-label={`${titulo} de ${c.referencia}, del más antiguo al más reciente`}>
          {entradas.map((e) => (
            <li key={e.id} className={`ct-hilo__entrada ct-hilo__entrada--${e.lado === c.lado ? 'propia' : e.lado}`}>
              <p className="ct-hilo__cabeza">
                <strong>{e.quien}</strong> · {e.titulo} · <time dateTime={e.momento}>{e.cuando}</time>
              </p>
              {e.resultado && (
                <p>
                  <strong>Resultado:</strong> {e.resultado}
                </p>
              )}
              {e.mensaje && <p className="ct-hilo__mensaje ac-texto-largo">{e.mensaje}</p>}
              {e.documentos.length > 0 && (
                <p className="ct-hilo__nota">
                  {e.documentos.length === 1 ? 'Documento: ' : 'Documentos: '}
                  {e.documentos.map((d) => d.nombre).join(', ')}
                </p>
              )}
              {e.plazo && <p className="ct-hilo__nota">{e.plazo}</p>}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/** The documents of both sides, grouped by the step they came with; the pending ones last, with their removal. */
export function DocumentosCaso({ c, refrescar }: { c: CasoContactoDetalle; refrescar: () => Promise<void> }) {
  const grupos = documentosPorPaso(c.eventos, c.documentos, c.lado);
  return (
    <section className="med-panel" aria-labelledby="ct-documentos-titulo">
      <h2 id="ct-documentos-titulo">Documentos</h2>
      {grupos.length === 0 ? (
        <p>No hay documentos.</p>
      ) : (
        grupos.map((g) => (
          <div key={g.clave} className="ac-grupo-documentos">
            <h3 id={`ct-docs-${g.clave}`}>{g.titulo}</h3>
            <p className="med-nota-linea">{g.detalle}</p>
            <ListaDocumentos
              expediente={c.id}
              documentos={g.documentos}
              etiqueta={`Documentos: ${g.titulo}`}
              lado={c.lado}
              {...(g.clave === 'pendientes' ? { alQuitar: () => refrescar() } : {})}
            />
          </div>
        ))
      )}
    </section>
  );
}

// ---------------------------------------------------------------------------------------------
// Files chosen in a form, and the send
// ---------------------------------------------------------------------------------------------

/** A file chosen in a form: the browser's File. */
export interface FicheroLocal extends FicheroElegido {
  fichero: File;
}

/** Props of `FicherosPorEnviar`. */
export interface FicherosPorEnviarProps {
  /** id of the file input. */
  id: string;
  /** The classes the user may choose; with one, none is asked. */
  clases: readonly ClaseDocumento[];
  ficheros: readonly FicheroLocal[];
  alCambiar: (ficheros: FicheroLocal[]) => void;
  ayuda: ReactNode;
}

let numeroFichero = 0;

/**
 * The documents a form sends with the case: a file input (and, for a claim, what each document is),
 * checked as it is chosen (type and size) and listed with its removal; they are uploaded when the
 * form is sent, once the case exists.
 */
export function FicherosPorEnviar(p: FicherosPorEnviarProps) {
  const entrada = useRef<HTMLInputElement>(null);
  const [clase, setClase] = useState<ClaseDocumento>(p.clases[0]!);
  const [problema, setProblema] = useState<string | undefined>();
  const [estado, setEstado] = useState('');
  const idClase = `${p.id}-clase`;
  const idEstado = `${p.id}-estado`;
  const t = textosCampo({ id: p.id, ayuda: p.ayuda, error: problema });

  const elegir = () => {
    const f = entrada.current?.files?.[0];
    if (!f) return;
    if (entrada.current) entrada.current.value = '';
    const mal = problemaFicheroElegido(f, p.ficheros);
    if (mal) {
      setProblema(`No se ha añadido «${f.name}»: ${mal}`);
      setEstado('');
      return;
    }
    setProblema(undefined);
    numeroFichero += 1;
    p.alCambiar([...p.ficheros, { clave: `f${numeroFichero}`, fichero: f, clase, subidoA: null, documento: null }]);
    setEstado(`Añadido: ${f.name}. Se enviará con el formulario.`);
  };

  const quitar = (x: FicheroLocal) => {
    // Already uploaded to a draft after a refused send: it is removed there too.
    if (x.subidoA && x.documento) void apiFetch(apiDocumento(x.subidoA, x.documento), { method: 'DELETE' });
    p.alCambiar(p.ficheros.filter((y) => y.clave !== x.clave));
    setEstado(`Quitado: ${x.fichero.name}.`);
    entrada.current?.focus();
  };

  return (
    <div className="ct-ficheros exp-ficheros">
      {p.clases.length > 1 && (
        <div className="admin-campo">
          <label htmlFor={idClase}>Qué documento va a añadir</label>
          <select id={idClase} value={clase} onChange={(e) => setClase(e.target.value as ClaseDocumento)}>
            {p.clases.map((c) => (
              <option key={c} value={c}>
                {etiquetaClase(c)}
              </option>
            ))}
          </select>
        </div>
      )}
      <div className={claseCampo('admin-campo', { error: problema })}>
        <CabeceraCampo id={p.id} etiqueta="Añadir un documento (opcional)" error={problema} textos={t} bloque="admin-campo" />
        <input
          ref={entrada}
          {...atributosControl({ id: p.id, error: problema }, { describedBy: describedBy(t.describedBy, idEstado) })}
          type="file"
          accept={ACEPTA_DOCUMENTO}
          onChange={elegir}
        />
      </div>
      <p id={idEstado} className="ct-ficheros__estado" role="status">
        {estado}
      </p>
      {p.ficheros.length > 0 && (
        <p id={`${p.id}-lista`} className="ct-ficheros__titulo">
          Documentos que se enviarán:
        </p>
      )}
      {p.ficheros.length > 0 && (
        <ul className="exp-documentos__lista ct-ficheros__lista" aria-labelledby={`${p.id}-lista`}>
          {p.ficheros.map((x) => (
            <li key={x.clave} className="exp-documento">
              <span>
                {p.clases.length > 1 && <span className="exp-documento__clase">{etiquetaClase(x.clase)}: </span>}
                <strong className="exp-documento__nombre">{x.fichero.name}</strong>{' '}
                <span className="exp-documento__tamano">({tamanoLegible(x.fichero.size)})</span>
              </span>
              <button type="button" className="med-boton-fila exp-documento__quitar" onClick={() => quitar(x)}>
                Quitar<span className="visually-hidden"> {x.fichero.name}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * A form's documents: on a draft, those it already has (the user may remove them), then the files to
 * send with it.
 */
export function DocumentosDelFormulario({
  borrador,
  refrescar,
  ...p
}: FicherosPorEnviarProps & { borrador: CasoContactoDetalle | null; refrescar?: (() => Promise<void>) | undefined }) {
  const yaAdjuntos = borrador ? borrador.documentos.filter((d) => d.pendiente && d.lado === 'solicitante') : [];
  return (
    <>
      {borrador && yaAdjuntos.length > 0 && (
        <div>
          <h3>Ya adjuntos</h3>
          <ListaDocumentos
            expediente={borrador.id}
            documentos={yaAdjuntos}
            etiqueta="Documentos ya adjuntos"
            alQuitar={async () => {
              await refrescar?.();
            }}
          />
        </div>
      )}
      <FicherosPorEnviar {...p} />
    </>
  );
}

/** What a contact procedure's detail takes. */
export interface PropsDetalleContacto {
  c: CasoContactoDetalle;
  poner: (d: CasoContactoDetalle) => void;
  refrescar: () => Promise<void>;
  /** The notice the step that led here left (a case sent, a draft deleted). */
  avisoInicial: string | null;
}

/**
 * What a sent case's detail keeps for the applicant's own steps: the notice of the last one done, the
 * alerts of a refusal (the case is read again, it may have moved), and the step under way.
 */
export function useAccionesContacto<A extends string>(
  procedimiento: ProcedimientoContacto,
  { c, poner, refrescar, avisoInicial }: PropsDetalleContacto,
  hecho: Readonly<Partial<Record<string, string>>>,
) {
  const [anuncio, setAnuncio] = useState<{ texto: string; n: number } | null>(avisoInicial ? { texto: avisoInicial, n: 1 } : null);
  const [alertas, setAlertas] = useState<Alerta[]>([]);
  const [actuando, setActuando] = useState<A | null>(null);
  const puede = (a: A) => (c.acciones as readonly string[]).includes(a);
  const actuar = async (accion: A, body: AccionContacto): Promise<boolean> => {
    if (actuando) return false;
    setActuando(accion);
    setAlertas([]);
    const r = await apiFetch<CasoContactoDetalle>(apiAccion(procedimiento, c.id, accion), { method: 'POST', json: body });
    setActuando(null);
    if (r.ok) {
      poner(r.datos);
      setAnuncio((a) => ({ texto: hecho[accion] ?? '', n: (a?.n ?? 0) + 1 }));
      return true;
    }
    setAlertas(alertasDe(mensajesDeError(r.error)));
    void refrescar();
    return false;
  };
  return { anuncio, alertas, setAlertas, actuando, puede, actuar };
}

/** What a contact procedure's form takes when it finishes a draft. */
export interface PropsFormularioContacto {
  borrador: CasoContactoDetalle;
  refrescar: () => Promise<void>;
  alEnviar: (d: CasoContactoDetalle) => void;
}

/**
 * One case of a contact procedure by id: while it loads or if it cannot be read, why; a draft, its
 * form; once sent, its detail, with the notice the send left.
 */
export function CasoDeContacto(p: {
  procedimiento: ProcedimientoContacto;
  id: string;
  titulo: string;
  volver: ReactNode;
  /** «la consulta», «la reclamación». */
  que: string;
  lista: string;
  textoEnviado: (d: CasoContactoDetalle) => string;
  Formulario: ComponentType<PropsFormularioContacto>;
  Detalle: ComponentType<PropsDetalleContacto>;
}) {
  const url = apiCaso(p.procedimiento, p.id);
  const [carga, reintentar, poner] = useSolicitud<CasoContactoDetalle>(url);
  const [aviso, setAviso] = useState<string | null>(() => {
    const a = $avisoContacto.get();
    $avisoContacto.set(null);
    return a;
  });
  const refrescar = useCallback(async () => {
    const r = await apiFetch<CasoContactoDetalle>(url);
    if (r.ok) poner(r.datos);
  }, [url, poner]);
  const { Formulario, Detalle } = p;

  return (
    <div className="priv-pagina med med--ancha ac ct">
      {p.volver}
      <h1 tabIndex={-1}>{p.titulo}</h1>
      {carga.fase !== 'lista' ? (
        <SinCaso carga={carga} reintentar={reintentar} que={p.que} lista={p.lista} />
      ) : carga.datos.paso === 'borrador' ? (
        <Formulario
          borrador={carga.datos}
          refrescar={refrescar}
          alEnviar={(d) => {
            setAviso(p.textoEnviado(d));
            poner(d);
          }}
        />
      ) : (
        <Detalle c={carga.datos} poner={poner} refrescar={refrescar} avisoInicial={aviso} />
      )}
    </div>
  );
}

/** The draft a form has created (its id and distributor), kept between attempts. */
export interface BorradorCreado {
  id: string;
  distribuidora: string;
}

/** What a form sends. */
export interface PeticionEnvio {
  procedimiento: ProcedimientoContacto;
  distribuidora: string;
  datos: DatosConsulta | DatosReclamacion;
  /** The draft made by an earlier attempt, or the draft being finished. */
  borrador: BorradorCreado | null;
  ficheros: readonly FicheroLocal[];
  alFase: (f: FaseEnvio) => void;
  alBorrador: (b: BorradorCreado | null) => void;
  /** A file went to the draft (a retry does not send it again). */
  alSubido: (clave: string, borrador: string, documento: string | null) => void;
}

/** How a send ended: the case sent, or what is missing (the server's 422) or why it failed. */
export type ResultadoEnvio =
  | { ok: true; detalle: CasoContactoDetalle }
  | { ok: false; faltan: FaltaContacto[]; mensajes: string[]; detalle: CasoContactoDetalle | null };

const fallo = (mensajes: string[]): ResultadoEnvio => ({ ok: false, faltan: [], mensajes, detalle: null });

/**
 * Sends a form: creates the draft with the data (or saves it, or starts again at another
 * distributor), uploads each file not uploaded yet with its progress, then sends it (`presentar`).
 * A refusal for missing data (422) brings the draft's `faltan` list, field by field.
 */
export async function enviarCaso(p: PeticionEnvio): Promise<ResultadoEnvio> {
  let b = p.borrador;
  if (b && b.distribuidora !== p.distribuidora) {
    p.alFase({ fase: 'creando' });
    await apiFetch(apiCaso(p.procedimiento, b.id), { method: 'DELETE' });
    b = null;
    p.alBorrador(null);
  }
  if (!b) {
    p.alFase({ fase: 'creando' });
    const r = await apiFetch<CasoContactoDetalle>(apiCasos(p.procedimiento), {
      method: 'POST',
      json: { distribuidora: p.distribuidora, datos: p.datos },
    });
    if (!r.ok) return fallo(mensajesDeError(r.error));
    b = { id: r.datos.id, distribuidora: r.datos.distribuidora };
    p.alBorrador(b);
  } else {
    p.alFase({ fase: 'guardando' });
    const r = await apiFetch(apiCaso(p.procedimiento, b.id), { method: 'PUT', json: p.datos });
    if (!r.ok) return fallo(mensajesDeError(r.error));
  }
  const id = b.id;
  const porSubir = p.ficheros.filter((f) => f.subidoA !== id);
  for (const [i, f] of porSubir.entries()) {
    const fase = { fase: 'subiendo' as const, numero: i + 1, total: porSubir.length, nombre: f.fichero.name, bytes: f.fichero.size };
    p.alFase({ ...fase, enviados: 0 });
    const r = await subirDocumento(id, f.clase, f.fichero, (enviados) => p.alFase({ ...fase, enviados }));
    if (!r.ok) return fallo([`No se ha podido adjuntar «${f.fichero.name}»: ${r.mensaje}`]);
    p.alSubido(f.clave, id, r.id);
  }
  p.alFase({ fase: 'presentando' });
  const r = await apiFetch<CasoContactoDetalle>(apiAccion(p.procedimiento, id, 'presentar'), { method: 'POST', json: {} });
  if (r.ok) return { ok: true, detalle: r.datos };
  if (r.status === 422) {
    // The client passes the body of a 400 only: the draft's detail lists what is missing.
    let faltan = faltasDeRespuesta(r.error.cuerpo);
    const g = await apiFetch<CasoContactoDetalle>(apiCaso(p.procedimiento, id));
    if (g.ok && (!faltan || faltan.length === 0)) faltan = g.datos.faltan;
    if (faltan && faltan.length > 0) return { ok: false, faltan, mensajes: [r.error.mensaje], detalle: g.ok ? g.datos : null };
  }
  return fallo(mensajesDeError(r.error));
}

/**
 * What both contact forms keep while they send (the files chosen, the draft an attempt made, the
 * server's errors, the alerts, the progress) and the two things they do with it: send the form,
 * unless the browser's own check (`locales`) found something, and delete the draft.
 */
export function useEnvioContacto(
  procedimiento: ProcedimientoContacto,
  borrador: CasoContactoDetalle | null,
  alEnviar: (d: CasoContactoDetalle) => void,
) {
  const [ficheros, setFicheros] = useState<FicheroLocal[]>([]);
  const [creado, setCreado] = useState<BorradorCreado | null>(borrador ? { id: borrador.id, distribuidora: borrador.distribuidora } : null);
  const [intentado, setIntentado] = useState(false);
  const [intento, setIntento] = useState(0);
  const [servidor, setServidor] = useState<ErrorFormulario[]>([]);
  const [alertas, setAlertas] = useState<Alerta[]>([]);
  const [fase, setFase] = useState<FaseEnvio | null>(null);
  const [enviando, setEnviando] = useState(false);
  const [borrar, setBorrar] = useState(false);
  const montado = useRef(true);
  useEffect(
    () => () => {
      montado.current = false;
    },
    [],
  );

  const enviar = async (
    ev: FormEvent<HTMLFormElement>,
    distribuidora: string,
    datos: DatosConsulta | DatosReclamacion,
    locales: readonly ErrorFormulario[],
  ) => {
    ev.preventDefault();
    if (enviando) return;
    setAlertas([]);
    setIntentado(true);
    if (locales.length > 0) {
      setIntento((n) => n + 1);
      return;
    }
    setEnviando(true);
    const r = await enviarCaso({
      procedimiento,
      distribuidora,
      datos,
      borrador: creado,
      ficheros,
      alFase: setFase,
      alBorrador: setCreado,
      alSubido: (clave, a, documento) => setFicheros((l) => l.map((x) => (x.clave === clave ? { ...x, subidoA: a, documento } : x))),
    });
    if (!montado.current) return;
    setEnviando(false);
    setFase(null);
    if (r.ok) {
      alEnviar(r.detalle);
      return;
    }
    if (r.faltan.length > 0) {
      setServidor(erroresDeFaltas(procedimiento, r.faltan));
      setIntento((n) => n + 1);
      return;
    }
    setAlertas(alertasDe(r.mensajes));
  };

  const borrarBorrador = async () => {
    setBorrar(false);
    if (!borrador) return;
    const r = await apiFetch(apiCaso(procedimiento, borrador.id), { method: 'DELETE' });
    if (r.ok) {
      $avisoContacto.set(`Hemos borrado el borrador ${borrador.referencia} y sus documentos.`);
      navegar(procedimiento === 'consulta' ? RUTA_CONSULTAS : RUTA_RECLAMACIONES);
    } else setAlertas(alertasDe(mensajesDeError(r.error)));
  };

  return {
    ficheros,
    setFicheros,
    intentado,
    intento,
    servidor,
    setServidor,
    alertas,
    setAlertas,
    fase,
    enviando,
    borrar,
    setBorrar,
    enviar,
    borrarBorrador,
  };
}

/** What a contact form's foot needs of `useEnvioContacto`. */
type EstadoEnvio = Pick<ReturnType<typeof useEnvioContacto>, 'fase' | 'enviando' | 'borrar' | 'setBorrar' | 'borrarBorrador'>;

/**
 * The foot of a contact form: what happens next (`children`), the progress of a send, the send button
 * and, on a draft, the button that deletes it.
 */
export function PieDeEnvio(p: { envio: EstadoEnvio; borrador: boolean; texto: string; textoEnviando: string; children?: ReactNode }) {
  return (
    <div className="med-panel ac-presentar">
      {p.children}
      <ProgresoEnvio fase={p.envio.fase} />
      <div className="admin-acciones">
        <BotonEnviar texto={p.texto} textoEnviando={p.textoEnviando} clase="priv-boton" enviando={p.envio.enviando} />
        {p.borrador && (
          <button type="button" className="priv-boton priv-boton--secundario ac-boton-peligro" onClick={() => p.envio.setBorrar(true)}>
            Borrar el borrador
          </button>
        )}
      </div>
    </div>
  );
}

/** The confirmation before a draft and its documents are deleted. */
export function ConfirmarBorrado({ envio, referencia }: { envio: EstadoEnvio; referencia: string }) {
  return (
    <Confirmacion
      abierta={envio.borrar}
      titulo={`Borrar el borrador ${referencia}`}
      textoConfirmar="Borrar el borrador"
      peligrosa
      alConfirmar={() => void envio.borrarBorrador()}
      alCancelar={() => envio.setBorrar(false)}
    >
      <p>Se borrarán los datos que ha escrito y los documentos adjuntos. No se puede deshacer.</p>
    </Confirmacion>
  );
}

/** The progress of a send: a polite line, and a bar while a file goes. */
export function ProgresoEnvio({ fase }: { fase: FaseEnvio | null }) {
  return (
    <div className="ct-progreso" role="status">
      {fase && (
        <>
          <p>{textoFaseEnvio(fase)}</p>
          {fase.fase === 'subiendo' && <progress value={fase.enviados} max={fase.bytes || 1} aria-label={`Enviado de ${fase.nombre}`} />}
        </>
      )}
    </div>
  );
}
