/**
 * Pieces shared by the consumer screens: the loading of the user's supply points and of one
 * detail, the supply point selector, and loading / empty / error blocks. The supply point and range
 * live in the address's query string (`useConsultaUrl`, ../usar-consulta.ts).
 */
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { apiFetch } from '../../../lib/api/cliente.ts';
import type { DatoAutorizacion } from '../../../lib/autorizaciones.ts';
import { direccionCompleta, type Suministro, type SuministroDetalle } from '../../../lib/suministros/pantalla.ts';
import { urlApi } from '../../../lib/api/rutas.ts';

/** A load in progress, done, or failed with the API's Spanish message. */
export type Carga<T> = { fase: 'cargando' } | { fase: 'lista'; datos: T } | { fase: 'error'; mensaje: string };

/**
 * The user's supply points (GET /api/suministros), with a retry. `para` keeps those the screen may
 * use: a data kind keeps the own ones and those an authorisation opens for it; `propios` keeps only
 * the user's own (a screen that writes about them, docs/decisions/028).
 */
export function useSuministros(para?: DatoAutorizacion | 'propios'): [Carga<Suministro[]>, () => void] {
  const [carga, setCarga] = useState<Carga<Suministro[]>>({ fase: 'cargando' });
  const [intento, setIntento] = useState(0);
  useEffect(() => {
    const peticion = new AbortController();
    setCarga({ fase: 'cargando' });
    void apiFetch<Suministro[]>(urlApi('/suministros'), { signal: peticion.signal }).then((r) => {
      if (peticion.signal.aborted) return;
      const usables = (s: Suministro) =>
        !s.autorizacion || (para !== undefined && para !== 'propios' && s.autorizacion.datos.includes(para));
      setCarga(r.ok ? { fase: 'lista', datos: para ? r.datos.filter(usables) : r.datos } : { fase: 'error', mensaje: r.error.mensaje });
    });
    return () => peticion.abort();
  }, [intento, para]);
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
    void apiFetch<SuministroDetalle>(urlApi('/suministros/{cups}', { path: { cups } }), { signal: peticion.signal }).then((r) => {
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
