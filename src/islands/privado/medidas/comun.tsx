/**
 * Pieces shared by the consumer screens: the query string of the address as state (so a
 * reload and back/forward keep the supply point and range), the loading of the user's supply
 * points and of one detail, the supply point selector, and loading / empty / error blocks.
 */
import { useStore } from '@nanostores/react';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { apiFetch } from '../../../lib/api/cliente.ts';
import { direccionCompleta, type Suministro, type SuministroDetalle } from '../../../lib/suministros/pantalla.ts';
import { $router } from '../../../lib/privado/navegacion.ts';

/**
 * The query string of this screen's address (without '?'), following back and forward, and a
 * setter that writes a new one (a new history entry unless `reemplazar`). A change of query is not a
 * change of screen: focus and scroll stay where the user is.
 */
export function useConsulta(): [string, (consulta: string, reemplazar?: boolean) => void] {
  const pagina = useStore($router);
  const propia = useRef(pagina?.path ?? '');
  const ultima = useRef('');
  // While the app moves to another screen this one keeps its last query.
  if (pagina && pagina.path === propia.current) ultima.current = new URLSearchParams(pagina.search).toString();
  const cambiar = useCallback((nueva: string, reemplazar = false) => {
    const limpia = nueva.replace(/^\?/, '');
    const destino = `${window.location.pathname}${limpia ? `?${limpia}` : ''}`;
    if (destino !== `${window.location.pathname}${window.location.search}`) $router.open(destino, reemplazar);
  }, []);
  return [ultima.current, cambiar];
}

/** A load in progress, done, or failed with the API's Spanish message. */
export type Carga<T> = { fase: 'cargando' } | { fase: 'lista'; datos: T } | { fase: 'error'; mensaje: string };

/** The user's supply points (GET /api/suministros), with a retry. */
export function useSuministros(): [Carga<Suministro[]>, () => void] {
  const [carga, setCarga] = useState<Carga<Suministro[]>>({ fase: 'cargando' });
  const [intento, setIntento] = useState(0);
  useEffect(() => {
    const peticion = new AbortController();
    setCarga({ fase: 'cargando' });
    void apiFetch<Suministro[]>('/api/suministros', { signal: peticion.signal }).then((r) => {
      if (peticion.signal.aborted) return;
      setCarga(r.ok ? { fase: 'lista', datos: r.datos } : { fase: 'error', mensaje: r.error.mensaje });
    });
    return () => peticion.abort();
  }, [intento]);
  return [carga, useCallback(() => setIntento((n) => n + 1), [])];
}

const detalles = new Map<string, SuministroDetalle>();

/** One supply point's detail (GET /api/suministros/{cups}), kept for the page's life: it changes once a day at most. */
export function useDetalle(cups: string | null): [Carga<SuministroDetalle> | null, () => void] {
  const [carga, setCarga] = useState<Carga<SuministroDetalle> | null>(() => {
    const d = cups ? detalles.get(cups) : undefined;
    return d ? { fase: 'lista', datos: d } : null;
  });
  const [intento, setIntento] = useState(0);
  useEffect(() => {
    if (!cups) {
      setCarga(null);
      return;
    }
    const guardado = detalles.get(cups);
    if (guardado && intento === 0) {
      setCarga({ fase: 'lista', datos: guardado });
      return;
    }
    const peticion = new AbortController();
    setCarga({ fase: 'cargando' });
    void apiFetch<SuministroDetalle>(`/api/suministros/${encodeURIComponent(cups)}`, { signal: peticion.signal }).then((r) => {
      if (peticion.signal.aborted) return;
      if (r.ok) detalles.set(cups, r.datos);
      setCarga(r.ok ? { fase: 'lista', datos: r.datos } : { fase: 'error', mensaje: r.error.mensaje });
    });
    return () => peticion.abort();
  }, [cups, intento]);
  return [carga, useCallback(() => setIntento((n) => n + 1), [])];
}

/** A spinner with a sentence, announced politely. */
export function Cargando({ texto }: { texto: string }) {
  return (
    <p className="med-cargando" role="status">
      <span className="priv-cargando__giro" aria-hidden="true"></span>
      {texto}
    </p>
  );
}

/** A failed load: the message and a retry button. */
export function ErrorCarga({ que, mensaje, reintentar }: { que: string; mensaje: string; reintentar: () => void }) {
  return (
    <div className="priv-aviso priv-aviso--error" role="alert">
      <p>
        <strong>No hemos podido cargar {que}.</strong> {mensaje}
      </p>
      <p>
        <button type="button" className="priv-boton priv-boton--secundario" onClick={reintentar}>
          Reintentar
        </button>
      </p>
    </div>
  );
}

/** An empty state: a heading that says what is missing, and why. */
export function Vacio({ titulo, children, nivel = 'h2' }: { titulo: string; children: ReactNode; nivel?: 'h2' | 'h3' }) {
  const H = nivel;
  return (
    <div className="med-vacio">
      <span className="med-vacio__icono" aria-hidden="true">
        i
      </span>
      <div>
        <H className="med-vacio__titulo">{titulo}</H>
        {children}
      </div>
    </div>
  );
}

/** The text of a supply point in a selector: CUPS, address and tariff. */
export function textoOpcion(s: Suministro): string {
  return `${s.direccion}, ${s.municipio} · ${s.tarifa} · ${s.cups}`;
}

/** The supply point selector: applies on change (a select with few options is no surprise). */
export function SelectorSuministro(p: { id: string; suministros: Suministro[]; cups: string; alCambiar: (cups: string) => void }) {
  return (
    <div className="med-campo med-campo--suministro">
      <label htmlFor={p.id}>Suministro</label>
      <select id={p.id} value={p.cups} onChange={(e) => p.alCambiar(e.target.value)} aria-describedby={`${p.id}-cups`}>
        {p.suministros.map((s) => (
          <option key={s.cups} value={s.cups}>
            {textoOpcion(s)}
          </option>
        ))}
      </select>
      {/* A closed select cuts its text at 320–390 px: the chosen CUPS is always written out below it. */}
      <p id={`${p.id}-cups`} className="med-campo__cups">
        CUPS <span className="med-cups">{p.cups}</span>
      </p>
    </div>
  );
}

/** No supply points: why, and what to do (shared by the three screens). */
export function SinSuministros() {
  return (
    <Vacio titulo="Todavía no tiene suministros en el portal">
      <p>
        Los puntos de suministro aparecen aquí automáticamente cuando el NIF de su cuenta figura como titular del contrato de acceso en una
        de nuestras distribuidoras. Puede comprobar su NIF en <a href="/perfil">Perfil</a>.
      </p>
      <p>Si es titular de un suministro y no aparece:</p>
      <ul>
        <li>compruebe que el NIF de su cuenta es el mismo que figura en su factura de la luz;</li>
        <li>
          si acaba de contratar o de cambiar de titular, espere unos días: el cambio llega con la siguiente actualización del contrato;
        </li>
        <li>
          si aun así no aparece, escríbanos desde <a href="/contacto/consultas-y-peticiones">Consultas y peticiones</a> indicando el CUPS
          que figura en su factura.
        </li>
      </ul>
    </Vacio>
  );
}

/** A CUPS as the bill writes it, in a font where 0 and O, 1 and I differ. */
export function Cups({ cups }: { cups: string }) {
  return <span className="med-cups">{cups}</span>;
}

/** The one-line address of a supply point. */
export function Direccion({ s }: { s: Suministro }) {
  return <>{direccionCompleta(s)}</>;
}

/** Props of a labelled date or month input. */
export interface PropsCampoCalendario {
  id: string;
  etiqueta: string;
  valor: string;
  alCambiar: (v: string) => void;
  error?: string | undefined;
  /** Latest value allowed (`YYYY-MM-DD` for a date, `YYYY-MM` for a month). */
  max: string;
}

/** A labelled date (`date`) or month (`month`) input with its hint and error beside it. */
export function CampoCalendario(p: PropsCampoCalendario & { tipo: 'date' | 'month'; ayuda: string }) {
  return (
    <div className={`med-campo${p.error ? ' med-campo--error' : ''}`}>
      <label htmlFor={p.id}>{p.etiqueta}</label>
      <p id={`${p.id}-ayuda`} className="med-campo__ayuda">
        {p.ayuda}
      </p>
      {p.error && (
        <p id={`${p.id}-error`} className="med-campo__error">
          <span className="visually-hidden">Error: </span>
          {p.error}
        </p>
      )}
      <input
        id={p.id}
        type={p.tipo}
        value={p.valor}
        min={p.tipo === 'month' ? '2000-01' : '2000-01-01'}
        max={p.max}
        placeholder={p.tipo === 'month' ? 'AAAA-MM' : undefined}
        onChange={(e) => p.alCambiar(e.target.value)}
        aria-invalid={p.error ? true : undefined}
        aria-describedby={[`${p.id}-ayuda`, p.error ? `${p.id}-error` : ''].filter(Boolean).join(' ')}
      />
    </div>
  );
}

/** A labelled month input (a text box taking AAAA-MM where the browser has no month picker). */
export function CampoMes(p: PropsCampoCalendario) {
  return <CampoCalendario {...p} tipo="month" ayuda="Mes y año (AAAA-MM)." />;
}
