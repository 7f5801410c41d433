/**
 * The FTP screen's dialogs (new folder, rename, move, delete, replace): a `<dialog>` opened with
 * `showModal()` as the portal's other dialogs (src/islands/comunes/Modal.tsx, the administration's
 * `Confirmacion`), so the browser traps focus and makes the page inert; Escape cancels. Focus starts
 * on the element marked `data-autofoco` (a form's field) or else on "Cancelar", the safe choice, and
 * goes back where it was on closing; when that element is gone (the row was deleted or renamed),
 * to `focoAlCerrar`.
 */
import { useEffect, useId, useRef, type ReactNode, type SubmitEvent } from 'react';

/** Props of `DialogoFtp`. */
export interface DialogoFtpProps {
  /** Open or closed. */
  abierto: boolean;
  /** Heading of the dialog, also its name. */
  titulo: string;
  /** Text of the action's button. */
  textoAceptar: string;
  /** Text of the action's button while it runs. */
  textoEnCurso?: string;
  /** The action runs: the buttons say so and a second press does nothing. */
  enCurso?: boolean;
  /** The action deletes something: its button is red. */
  peligrosa?: boolean;
  /** The action cannot be taken yet (nothing to choose): its button is disabled. */
  aceptarDeshabilitado?: boolean;
  /** Accepted (the button, or Enter in a field). */
  alAceptar: () => void;
  /** Cancelled (button or Escape). */
  alCancelar: () => void;
  /** Where focus goes on closing when the element that had it is gone. */
  focoAlCerrar?: () => HTMLElement | null;
  /** The body: sentences, a field. */
  children: ReactNode;
}

/** One dialog of the FTP screen; its body is a form, so Enter in a field accepts. */
export function DialogoFtp(p: DialogoFtpProps) {
  const dialogo = useRef<HTMLDialogElement>(null);
  const cancelar = useRef<HTMLButtonElement>(null);
  const previo = useRef<HTMLElement | null>(null);
  const id = useId();

  const focoAlCerrar = useRef(p.focoAlCerrar);
  focoAlCerrar.current = p.focoAlCerrar;

  useEffect(() => {
    const d = dialogo.current;
    if (!d || !p.abierto) return;
    previo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!d.open) d.showModal();
    const campo = d.querySelector<HTMLElement>('[data-autofoco]');
    (campo ?? cancelar.current)?.focus();
    // Closing, or the owner unmounting the dialog: focus goes back where it was.
    return () => {
      if (d.open) d.close();
      const antes = previo.current;
      previo.current = null;
      if (antes?.isConnected) antes.focus();
      else focoAlCerrar.current?.()?.focus();
    };
  }, [p.abierto]);

  const enviar = (ev: SubmitEvent<HTMLFormElement>) => {
    ev.preventDefault();
    if (p.enCurso || p.aceptarDeshabilitado) return;
    p.alAceptar();
  };

  return (
    <dialog
      ref={dialogo}
      className="modal ftp-dialogo"
      aria-labelledby={`${id}-titulo`}
      aria-describedby={`${id}-cuerpo`}
      onCancel={(e) => {
        e.preventDefault();
        if (!p.enCurso) p.alCancelar();
      }}
      onClose={() => {
        // Closed by the browser rather than by us (a forced second Escape): the same as cancelling.
        if (p.abierto) p.alCancelar();
      }}
    >
      {p.abierto && (
        <form className="modal__caja" noValidate onSubmit={enviar}>
          <h2 id={`${id}-titulo`} className="modal__titulo">
            {p.titulo}
          </h2>
          <div id={`${id}-cuerpo`} className="modal__cuerpo">
            {p.children}
          </div>
          <div className="modal__acciones">
            <button ref={cancelar} type="button" className="boton ftp-dialogo__cancelar" onClick={p.alCancelar} disabled={p.enCurso}>
              Cancelar
            </button>
            <button
              type="submit"
              className={`boton${p.peligrosa ? ' ftp-dialogo__peligro' : ''}`}
              aria-busy={p.enCurso || undefined}
              disabled={p.aceptarDeshabilitado}
            >
              {p.enCurso && p.textoEnCurso ? p.textoEnCurso : p.textoAceptar}
            </button>
          </div>
        </form>
      )}
    </dialog>
  );
}
