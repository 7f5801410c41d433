/**
 * The generic modal of docs/producto.md §2 Layout: a title and a body with a "Cerrar" button, or an accept
 * button with custom text, or a spinner titled "Procesando su solicitud...". Built on `<dialog>`
 * opened with `showModal()`, so the browser traps focus and makes the page behind inert; Escape
 * closes it (never the spinner: the call it waits for cannot be cancelled); focus returns where it
 * was when it closes.
 */
import { useEffect, useId, useRef, type ReactNode } from 'react';
import './comunes.css';

/** docs/producto.md §9: default title of the spinner. */
export const TITULO_SPINNER = 'Procesando su solicitud...';
/** docs/producto.md §9: default text of the modal's button. */
export const TEXTO_CERRAR = 'Cerrar';

/** What the modal shows; null keeps it closed. */
export type EstadoModal =
  | {
      /** A message with the "Cerrar" button. */
      tipo: 'mensaje';
      /** Heading of the dialog. */
      titulo: string;
      /** Body text. */
      mensaje: ReactNode;
    }
  | {
      /** A message with one button of custom text. */
      tipo: 'aceptar';
      /** Heading of the dialog. */
      titulo: string;
      /** Body text. */
      mensaje: ReactNode;
      /** Text of the button. */
      textoAceptar: string;
      /** What the button does (Escape still just closes). */
      alAceptar: () => void;
    }
  | {
      /** The spinner shown while a call is in flight. */
      tipo: 'spinner';
      /** Defaults to "Procesando su solicitud...". */
      titulo?: string;
    };

/** Props of `Modal`. */
export interface ModalProps {
  /** What to show, or null for closed. */
  estado: EstadoModal | null;
  /** Called by "Cerrar" and Escape; the owner sets `estado` to null. */
  alCerrar: () => void;
}

/** The portal's one modal dialog; each screen owns one and drives it through `estado`. */
export function Modal({ estado, alCerrar }: ModalProps) {
  const dialogo = useRef<HTMLDialogElement>(null);
  const boton = useRef<HTMLButtonElement>(null);
  const previo = useRef<HTMLElement | null>(null);
  const id = useId();
  const abierto = estado !== null;
  const tipo = estado?.tipo ?? null;

  useEffect(() => {
    const d = dialogo.current;
    if (!d) return;
    if (abierto && !d.open) {
      previo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      d.showModal();
    } else if (!abierto && d.open) {
      d.close();
      // The browser restores focus too, but not when the element was re-rendered meanwhile.
      const antes = previo.current;
      if (antes?.isConnected && document.activeElement !== antes) antes.focus();
      previo.current = null;
    }
  }, [abierto]);

  useEffect(() => {
    // The spinner has nothing to press: the dialog itself takes focus so its title is announced.
    if (tipo === 'spinner') dialogo.current?.focus();
    else if (tipo) boton.current?.focus();
  }, [tipo, estado]);

  const titulo = estado === null ? '' : estado.tipo === 'spinner' ? (estado.titulo ?? TITULO_SPINNER) : estado.titulo;

  return (
    <dialog
      ref={dialogo}
      className={`modal${tipo === 'spinner' ? ' modal--spinner' : ''}`}
      aria-labelledby={`${id}-titulo`}
      aria-describedby={estado && estado.tipo !== 'spinner' ? `${id}-cuerpo` : undefined}
      aria-busy={tipo === 'spinner' ? true : undefined}
      tabIndex={-1}
      onCancel={(e) => {
        e.preventDefault();
        if (tipo && tipo !== 'spinner') alCerrar();
      }}
      onClose={() => {
        // Closed by the browser rather than by us (a second Escape may force it): keep the spinner up.
        const d = dialogo.current;
        if (d && tipo === 'spinner' && !d.open) d.showModal();
        else if (tipo) alCerrar();
      }}
    >
      {estado && (
        <div className="modal__caja">
          {estado.tipo === 'spinner' && <span className="modal__spinner" aria-hidden="true"></span>}
          <h2 id={`${id}-titulo`} className="modal__titulo">
            {titulo}
          </h2>
          {estado.tipo !== 'spinner' && (
            <>
              <div id={`${id}-cuerpo`} className="modal__cuerpo">
                {typeof estado.mensaje === 'string' ? <p>{estado.mensaje}</p> : estado.mensaje}
              </div>
              <div className="modal__acciones">
                {estado.tipo === 'aceptar' ? (
                  <button ref={boton} type="button" className="boton" onClick={estado.alAceptar}>
                    {estado.textoAceptar}
                  </button>
                ) : (
                  <button ref={boton} type="button" className="boton" onClick={alCerrar}>
                    {TEXTO_CERRAR}
                  </button>
                )}
              </div>
            </>
          )}
        </div>
      )}
    </dialog>
  );
}
