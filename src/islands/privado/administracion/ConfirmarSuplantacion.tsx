/**
 * The confirmation before an administrator acts as another user (decision 006), shared by
 * "Acceder como otro usuario" and a user's detail. On confirmation the session switches to the
 * user's (`iniciarSuplantacion`, which also tells the other tabs) and the app opens /inicio, where
 * the shell shows the banner "Está actuando como…" with the way back.
 */
import { useState } from 'react';
import { MENSAJE_SIN_CONEXION } from '../../../lib/api/cliente.ts';
import { iniciarSuplantacion } from '../../../lib/sesion/index.ts';
import { Modal, type EstadoModal } from '../../comunes/Modal.tsx';
import { Confirmacion } from './comun.tsx';
import { navegar } from './navegacion.ts';

/** The user to act as. */
export interface Objetivo {
  /** E-mail: the `username` the API takes. */
  email: string;
  /** Display name. */
  nombre: string;
}

/** Props of `ConfirmarSuplantacion`. */
export interface ConfirmarSuplantacionProps {
  /** The user chosen, or null when the dialog is closed. */
  objetivo: Objetivo | null;
  /** Closes the dialog without acting. */
  alCancelar: () => void;
}

/** Why the server refused, in words an administrator can act on. */
function mensajeFallo(status: number, mensaje: string | null): string {
  if (mensaje) return mensaje;
  if (status === 0) return MENSAJE_SIN_CONEXION;
  if (status === 404) return 'No existe ningún usuario con ese correo.';
  if (status === 409) return 'No se puede acceder como este usuario: su cuenta no está activa o es de un administrador.';
  if (status === 429) return 'Ha hecho demasiados intentos seguidos. Espere unos minutos y vuelva a intentarlo.';
  return 'No se ha podido acceder como este usuario. Inténtelo de nuevo más tarde.';
}

/** The dialog, then the spinner while the session changes, or the reason it could not. */
export function ConfirmarSuplantacion({ objetivo, alCancelar }: ConfirmarSuplantacionProps) {
  const [modal, setModal] = useState<EstadoModal | null>(null);

  const confirmar = async () => {
    if (!objetivo) return;
    const { email } = objetivo;
    alCancelar();
    setModal({ tipo: 'spinner', titulo: 'Accediendo como el usuario…' });
    const r = await iniciarSuplantacion(email);
    if (r.ok) {
      setModal(null);
      // Replacing the entry: going back must not land the impersonated user on an administration screen.
      navegar('/inicio', true);
      return;
    }
    setModal({ tipo: 'mensaje', titulo: 'No se ha podido acceder como el usuario', mensaje: mensajeFallo(r.status, r.mensaje) });
  };

  return (
    <>
      <Confirmacion
        abierta={objetivo !== null}
        titulo="Acceder como otro usuario"
        textoConfirmar="Acceder como este usuario"
        alConfirmar={() => void confirmar()}
        alCancelar={alCancelar}
      >
        {objetivo && (
          <>
            <p>
              Va a entrar en el área privada como <strong>{objetivo.nombre || objetivo.email}</strong> ({objetivo.email}). Verá lo mismo que
              esa persona y podrá actuar en su nombre.
            </p>
            <p>
              Todo lo que haga quedará registrado con su usuario de administrador y el de esa persona. Su sesión de administrador se cerrará
              mientras tanto; vuelva a ella con el botón «Volver a mi sesión de administrador» del aviso superior.
            </p>
          </>
        )}
      </Confirmacion>
      <Modal estado={modal} alCerrar={() => setModal(null)} />
    </>
  );
}
