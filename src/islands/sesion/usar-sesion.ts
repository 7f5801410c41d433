/** Hooks shared by the session screens. */
import { useEffect, useRef, useState } from 'react';
import { restaurarSesion } from '../../lib/sesion/index.ts';
import { hayPistaDeSesion } from '../../lib/sesion/pista.ts';
import type { EstadoModal } from '../comunes/Modal.tsx';
import { useErrores } from '../comunes/formulario/usar-errores.ts';

/**
 * Sends a visitor who already has a session elsewhere (docs/producto.md §2: login → /inicio; registration
 * and recovery → the requests list). Runs the startup refresh once, at mount, when the logged-in hint
 * (`pista.ts`) says a session may exist.
 */
export function useSalirSiHaySesion(destino: string): void {
  useEffect(() => {
    // Without the logged-in hint nobody has logged in from this browser: a refresh could only fail
    // with a 401, which the browser's console reports as an error on every visit to the login.
    if (!hayPistaDeSesion()) return;
    void restaurarSesion().then((s) => {
      if (s) window.location.replace(destino);
    });
  }, [destino]);
}

/** The modal of a session screen (for `PantallaSesion`) and the lock that lets one call out at a time. */
export function useModalSesion() {
  const [estado, poner] = useState<EstadoModal | null>(null);
  const enviando = useRef(false);
  return { modal: { estado, poner }, setModal: poner, enviando };
}

/**
 * A session form's state: its field errors (`useErrores`), its modal and its sending lock; a visitor
 * who already has a session leaves for `destinoConSesion` (docs/producto.md §2).
 */
export function useFormularioSesion(destinoConSesion: string) {
  useSalirSiHaySesion(destinoConSesion);
  return { ...useErrores(), ...useModalSesion() };
}
