/**
 * The network interruptions page's island: the query by supply point (CUPS) and the list of open
 * interruptions with filters by distributor, state and municipality or postal code. Plain React: the
 * page ships nothing else.
 */
import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { ESTADOS_INCIDENCIA_RED, type EstadoIncidenciaRed, type IncidenciaRedPublica } from '../lib/incidencias/banner.ts';
import { cupsBase, errorCups, MENSAJES_CUPS } from '../lib/cups.ts';
import { DISTRIBUIDORAS, type CodigoDistribuidora } from '../lib/distribuidoras.ts';
import { ListaTarjetas } from './comunes/TarjetaIncidencia.tsx';
import './IncidenciasRed.css';
import { urlApi } from '../lib/api/rutas.ts';

const API = urlApi('/incidenciasRed');

/** Shown when a call fails for a reason the visitor cannot fix. */
const ERROR_GENERICO = 'No se ha podido realizar la consulta. Inténtelo de nuevo más tarde.';

/** Order of the list: as the API gives it (active first, then by start) or by municipality. */
type Orden = 'estado' | 'municipio';

/** Lower case without accents, so "alcala" finds "Alcalá". */
const sinAcentos = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .trim();

/** "1 interrupción" / "N interrupciones". */
const interrupciones = (n: number) => `${n} ${n === 1 ? 'interrupción' : 'interrupciones'}`;

/** The page's island: takes no props, everything comes from the public API. */
export default function IncidenciasRed() {
  return (
    <div className="incidencias-red">
      <ConsultaCups />
      <ListadoIncidencias />
    </div>
  );
}

/** The list state: the call in flight, its answer, or its failure. */
type Listado = { fase: 'cargando' } | { fase: 'error' } | { fase: 'listo'; incidencias: IncidenciaRedPublica[] };

/** Every open interruption, filtered and grouped by distributor. */
function ListadoIncidencias() {
  const [listado, setListado] = useState<Listado>({ fase: 'cargando' });
  const [intento, setIntento] = useState(0);
  const [distribuidora, setDistribuidora] = useState<CodigoDistribuidora | ''>('');
  const [estado, setEstado] = useState<EstadoIncidenciaRed | ''>('');
  const [texto, setTexto] = useState('');
  const [orden, setOrden] = useState<Orden>('estado');
  const id = useId();

  useEffect(() => {
    const peticion = new AbortController();
    setListado({ fase: 'cargando' });
    fetch(API, { headers: { Accept: 'application/json' }, signal: peticion.signal })
      .then(async (res) => {
        if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
        setListado({ fase: 'listo', incidencias: (await res.json()) as IncidenciaRedPublica[] });
      })
      .catch(() => {
        if (!peticion.signal.aborted) setListado({ fase: 'error' });
      });
    return () => peticion.abort();
  }, [intento]);

  const todas = listado.fase === 'listo' ? listado.incidencias : [];
  const visibles = useMemo(() => {
    const q = sinAcentos(texto);
    const filtradas = todas.filter(
      (i) =>
        (!distribuidora || i.distribuidora === distribuidora) &&
        (!estado || i.estadoIncidenciaRed === estado) &&
        (!q ||
          sinAcentos(i.municipio).includes(q) ||
          sinAcentos(i.provincia).includes(q) ||
          i.codigosPostales.some((cp) => cp.startsWith(q))),
    );
    if (orden === 'municipio') {
      filtradas.sort((a, b) => a.municipio.localeCompare(b.municipio, 'es') || a.inicio.localeCompare(b.inicio));
    }
    return filtradas;
  }, [todas, distribuidora, estado, texto, orden]);

  const hayFiltros = distribuidora !== '' || estado !== '' || texto.trim() !== '';
  const quitarFiltros = () => {
    setDistribuidora('');
    setEstado('');
    setTexto('');
  };

  let recuento: string;
  if (listado.fase === 'cargando') recuento = 'Cargando las interrupciones…';
  else if (listado.fase === 'error') recuento = 'No se han podido cargar las interrupciones.';
  else if (!hayFiltros) recuento = todas.length === 0 ? '' : `Hay ${interrupciones(todas.length)} programadas o activas.`;
  else recuento = `Se muestran ${visibles.length} de ${interrupciones(todas.length)}.`;

  return (
    <section className="listado" aria-labelledby={`${id}-titulo`}>
      <h2 id={`${id}-titulo`}>Interrupciones actuales y programadas</h2>

      <form className="filtros" role="search" aria-label="Filtrar las interrupciones" onSubmit={(e) => e.preventDefault()}>
        <div className="campo">
          <label htmlFor={`${id}-distribuidora`}>Distribuidora</label>
          <select
            id={`${id}-distribuidora`}
            value={distribuidora}
            onChange={(e) => setDistribuidora(e.target.value as CodigoDistribuidora | '')}
          >
            <option value="">Todas</option>
            {DISTRIBUIDORAS.map((d) => (
              <option key={d.codigo} value={d.codigo}>
                {d.nombre}
              </option>
            ))}
          </select>
        </div>
        <div className="campo">
          <label htmlFor={`${id}-estado`}>Estado</label>
          <select id={`${id}-estado`} value={estado} onChange={(e) => setEstado(e.target.value as EstadoIncidenciaRed | '')}>
            <option value="">Todos</option>
            {ESTADOS_INCIDENCIA_RED.map((e) => (
              <option key={e} value={e}>
                {e}
              </option>
            ))}
          </select>
        </div>
        <div className="campo">
          <label htmlFor={`${id}-texto`}>Municipio o código postal</label>
          <input
            id={`${id}-texto`}
            type="search"
            value={texto}
            onChange={(e) => setTexto(e.target.value)}
            autoComplete="off"
            spellCheck={false}
            placeholder="Ej.: Aranjuez o 28300"
          />
        </div>
        <div className="campo">
          <label htmlFor={`${id}-orden`}>Ordenar por</label>
          <select id={`${id}-orden`} value={orden} onChange={(e) => setOrden(e.target.value as Orden)}>
            <option value="estado">Estado y fecha de inicio</option>
            <option value="municipio">Municipio (A-Z)</option>
          </select>
        </div>
      </form>

      <p className="recuento" aria-live="polite">
        {recuento}
      </p>

      {listado.fase === 'error' && (
        <div className="aviso aviso--error">
          <p>No se ha podido consultar el estado de la red. Inténtelo más tarde.</p>
          <button type="button" className="boton boton--secundario" onClick={() => setIntento((n) => n + 1)}>
            Reintentar
          </button>
        </div>
      )}

      {listado.fase === 'listo' && todas.length === 0 && (
        <div className="aviso aviso--vacio">
          <p>Actualmente no existen interrupciones programadas o activas.</p>
        </div>
      )}

      {listado.fase === 'listo' && todas.length > 0 && visibles.length === 0 && (
        <div className="aviso aviso--vacio">
          <p>Ninguna interrupción coincide con los filtros elegidos.</p>
          <button type="button" className="boton boton--secundario" onClick={quitarFiltros}>
            Quitar los filtros
          </button>
        </div>
      )}

      {DISTRIBUIDORAS.map((d) => {
        const delGrupo = visibles.filter((i) => i.distribuidora === d.codigo);
        if (delGrupo.length === 0) return null;
        return (
          <section key={d.codigo} className="grupo" aria-labelledby={`${id}-${d.codigo}`}>
            <h3 id={`${id}-${d.codigo}`}>
              {d.nombre} <span className="grupo__total">({interrupciones(delGrupo.length)})</span>
            </h3>
            <ListaTarjetas incidencias={delGrupo} nivel={4} />
          </section>
        );
      })}
    </section>
  );
}

/** The result of the last CUPS query. */
type Consulta =
  | { fase: 'inicial' }
  | { fase: 'consultando' }
  | { fase: 'error'; mensaje: string }
  | { fase: 'listo'; cups: string; incidencias: IncidenciaRedPublica[] };

/** "Consultar un punto de suministro": checks the CUPS in the browser, then asks the API. */
function ConsultaCups() {
  const [valor, setValor] = useState('');
  const [errorCampo, setErrorCampo] = useState<string | null>(null);
  const [consulta, setConsulta] = useState<Consulta>({ fase: 'inicial' });
  const [avisos, setAvisos] = useState(0);
  const campo = useRef<HTMLInputElement>(null);
  const formulario = useRef<HTMLFormElement>(null);
  const enVuelo = useRef<AbortController | null>(null);
  const id = useId();
  const consultando = consulta.fase === 'consultando';

  useEffect(() => () => enVuelo.current?.abort(), []);

  // After each error, once it is on screen: focus the field and make sure label and message are in view.
  useEffect(() => {
    if (avisos === 0 || !campo.current || !formulario.current) return;
    campo.current.focus({ preventScroll: true });
    mostrarEntero(formulario.current);
  }, [avisos]);

  /** Shows a message beside the field and takes the visitor there. */
  const marcarError = (mensaje: string) => {
    setErrorCampo(mensaje);
    setAvisos((n) => n + 1);
  };

  async function enviar(evento: FormEvent<HTMLFormElement>) {
    evento.preventDefault();
    if (consultando) return;
    const error = errorCups(valor);
    if (error) {
      setConsulta({ fase: 'inicial' });
      marcarError(MENSAJES_CUPS[error]);
      return;
    }
    setErrorCampo(null);
    setConsulta({ fase: 'consultando' });
    const peticion = new AbortController();
    enVuelo.current = peticion;
    try {
      const res = await fetch(API, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ cups: valor }),
        signal: peticion.signal,
      });
      const cuerpo: unknown = await res.json().catch(() => null);
      if (res.status === 200 && Array.isArray(cuerpo)) {
        setConsulta({ fase: 'listo', cups: cupsBase(valor), incidencias: cuerpo as IncidenciaRedPublica[] });
      } else if (res.status === 400) {
        // The server's own words: a list of messages, or {message} when the body was not JSON.
        const mensaje = Array.isArray(cuerpo) ? cuerpo.join(' ') : ((cuerpo as { message?: string } | null)?.message ?? ERROR_GENERICO);
        setConsulta({ fase: 'inicial' });
        marcarError(mensaje);
      } else {
        setConsulta({ fase: 'error', mensaje: ERROR_GENERICO });
      }
    } catch {
      if (!peticion.signal.aborted) setConsulta({ fase: 'error', mensaje: ERROR_GENERICO });
    }
  }

  const ayudaId = `${id}-ayuda`;
  const errorId = `${id}-error`;
  return (
    <section className="consulta" aria-labelledby={`${id}-titulo`}>
      <h2 id={`${id}-titulo`}>Consultar un punto de suministro</h2>
      <p className="consulta__intro">
        Escriba el CUPS de su punto de suministro para saber si le afecta alguna interrupción programada o activa.
      </p>
      <form ref={formulario} className="consulta__formulario" noValidate onSubmit={enviar}>
        <label htmlFor={`${id}-cups`}>CUPS del punto de suministro</label>
        <p id={ayudaId} className="ayuda">
          Figura en su factura: 20 o 22 caracteres que empiezan por ES. Por ejemplo, ES9901000000000001QY.
        </p>
        {errorCampo && (
          <p id={errorId} className="error-campo">
            <span className="visually-hidden">Error: </span>
            {errorCampo}
          </p>
        )}
        <div className="consulta__fila">
          <input
            ref={campo}
            id={`${id}-cups`}
            name="cups"
            type="text"
            inputMode="text"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            value={valor}
            onChange={(e) => setValor(e.target.value)}
            aria-describedby={errorCampo ? `${ayudaId} ${errorId}` : ayudaId}
            aria-invalid={errorCampo ? true : undefined}
          />
          <button type="submit" className="boton" aria-disabled={consultando || undefined}>
            {consultando ? 'Consultando…' : 'Consultar'}
          </button>
        </div>
      </form>

      <div className="consulta__resultado" aria-live="polite">
        {consulta.fase === 'error' && <p className="aviso aviso--error">{consulta.mensaje}</p>}
        {consulta.fase === 'listo' && consulta.incidencias.length === 0 && (
          <p className="aviso aviso--ok">No hay interrupciones programadas ni activas que afecten a este punto de suministro.</p>
        )}
        {consulta.fase === 'listo' && consulta.incidencias.length > 0 && (
          <>
            <p className="aviso aviso--afectado">
              {consulta.incidencias.length === 1
                ? 'Hay 1 interrupción programada o activa que afecta al punto de suministro '
                : `Hay ${consulta.incidencias.length} interrupciones programadas o activas que afectan al punto de suministro `}
              <span className="cups">{consulta.cups}</span>:
            </p>
            <ListaTarjetas incidencias={consulta.incidencias} nivel={3} conDistribuidora />
          </>
        )}
      </div>
    </section>
  );
}

/**
 * Scrolls `el` to the middle of the screen unless it is wholly visible and uncovered: a fixed page
 * header may hide the top of the form, which the browser's own focus scrolling does not know about.
 */
function mostrarEntero(el: HTMLElement) {
  const caja = el.getBoundingClientRect();
  const encima = document.elementFromPoint(caja.left + 4, caja.top + 4);
  const visible = caja.top >= 0 && caja.bottom <= window.innerHeight && encima !== null && el.contains(encima);
  if (!visible) el.scrollIntoView({ block: 'center' });
}
