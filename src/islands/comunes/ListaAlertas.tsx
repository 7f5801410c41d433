/**
 * The alert list of docs/producto.md §2 Layout: messages from the server (a validation 400 gives one per
 * entry), each with a close cross, styled by level. Errors are `role="alert"` so they are announced
 * at once; the other levels are polite `status` messages. The level is also said in words, never by
 * colour alone.
 */
import { useRef } from 'react';
import './comunes.css';

/** The six levels of docs/producto.md §2 (Info, Warning, Error, Success, Light, Dark). */
export type NivelAlerta = 'info' | 'warning' | 'error' | 'success' | 'light' | 'dark';

/** One message of the list. */
export interface Alerta {
  /** Stable key, unique in the list. */
  id: string;
  /** Level: colour, role and the word read before the text. */
  nivel: NivelAlerta;
  /** The message, shown as text (never as HTML). */
  texto: string;
}

/** Props of `ListaAlertas`. */
export interface ListaAlertasProps {
  /** The messages, in order. */
  alertas: readonly Alerta[];
  /** Removes one message (its cross was pressed). */
  alCerrar: (id: string) => void;
  /** Accessible name of the list's region. */
  etiqueta?: string;
}

/** The word before each message, for people who do not see the colour. */
const PREFIJO: Record<NivelAlerta, string> = {
  info: 'Información:',
  warning: 'Aviso:',
  error: 'Error:',
  success: 'Correcto:',
  light: 'Nota:',
  dark: 'Nota:',
};

/** Builds alerts of one level from a list of texts (e.g. the body of a validation 400). */
export function alertasDe(textos: readonly string[], nivel: NivelAlerta = 'error'): Alerta[] {
  return textos.map((texto, i) => ({ id: `${Date.now().toString(36)}-${i}`, nivel, texto }));
}

/** The list; renders nothing when empty. */
export function ListaAlertas({ alertas, alCerrar, etiqueta = 'Avisos' }: ListaAlertasProps) {
  const lista = useRef<HTMLUListElement>(null);
  if (alertas.length === 0) return null;

  const cerrar = (id: string, indice: number) => {
    // Keep the keyboard user in the list: focus moves to the neighbouring cross.
    const cruces = lista.current?.querySelectorAll<HTMLButtonElement>('.alerta__cerrar');
    const siguiente = cruces?.[indice + 1] ?? cruces?.[indice - 1];
    alCerrar(id);
    siguiente?.focus();
  };

  return (
    <ul ref={lista} className="lista-alertas" aria-label={etiqueta}>
      {alertas.map((a, i) => (
        <li key={a.id} className={`alerta alerta--${a.nivel}`}>
          <div className="alerta__texto" role={a.nivel === 'error' ? 'alert' : 'status'}>
            <span className="alerta__nivel">{PREFIJO[a.nivel]}</span> {a.texto}
          </div>
          <button type="button" className="alerta__cerrar" aria-label="Cerrar aviso" onClick={() => cerrar(a.id, i)}>
            <span aria-hidden="true">×</span>
          </button>
        </li>
      ))}
    </ul>
  );
}
