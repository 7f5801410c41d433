/**
 * The frame of the session screens (docs/producto.md §2 Session area): an optional back link, the
 * card that holds the screen, and the portal's modal; and the card's form, checked on submit
 * (docs/diseno.md "Forms") and sent with its wide button.
 */
import type { ReactNode, SubmitEvent } from 'react';
import { Modal, type EstadoModal } from '../comunes/Modal.tsx';
import { BotonEnviar } from '../comunes/formulario/BotonEnviar.tsx';
import { EnlaceVolver, type EnlaceVolverProps } from '../comunes/formulario/EnlaceVolver.tsx';

/** Props of `PantallaSesion`. */
export interface PantallaSesionProps {
  /** The back link above the card. */
  volver?: EnlaceVolverProps;
  /** The wider card of the registration form. */
  ancha?: boolean;
  /** The card's changes are announced (the screens that only say how a link went). */
  anunciar?: boolean;
  /** What the modal shows, and how the screen changes it; no modal when absent. */
  modal?: { estado: EstadoModal | null; poner: (estado: EstadoModal | null) => void };
  /** The card's content. */
  children: ReactNode;
}

/** A session screen: back link, card and modal. */
export function PantallaSesion({ volver, ancha, anunciar, modal, children }: PantallaSesionProps) {
  return (
    <div className="sesion">
      {volver && <EnlaceVolver {...volver} />}
      <div className={`sesion__tarjeta${ancha ? ' sesion__tarjeta--ancha' : ''}`} aria-live={anunciar ? 'polite' : undefined}>
        {children}
      </div>
      {modal && <Modal estado={modal.estado} alCerrar={() => modal.poner(null)} />}
    </div>
  );
}

/** Props of `FormularioSesion`. */
export interface FormularioSesionProps {
  /** The form's accessible name. */
  etiqueta: string;
  /** Checks and sends; the browser's own validation is off. */
  alEnviar: (ev: SubmitEvent<HTMLFormElement>) => void | Promise<void>;
  /** Text of the submit button. */
  textoEnviar: string;
  /** The fields. */
  children: ReactNode;
}

/** The form of a session screen, its fields followed by the submit button. */
export function FormularioSesion({ etiqueta, alEnviar, textoEnviar, children }: FormularioSesionProps) {
  return (
    <form noValidate onSubmit={alEnviar} aria-label={etiqueta}>
      {children}
      <BotonEnviar clase="sesion__enviar" texto={textoEnviar} />
    </form>
  );
}
