/** Hooks shared by the session screens. */
import { useEffect, useRef, useState } from 'react';
import { restaurarSesion } from '../../lib/sesion/index.ts';
import type { EstadoModal } from '../comunes/Modal.tsx';
import { useErrores } from '../comunes/formulario/usar-errores.ts';

/**
 * Sends a visitor who already has a session elsewhere (docs/producto.md §2: login → /inicio; registration
 * and recovery → the requests list). Runs the startup refresh once, at mount.
 */
export function useSalirSiHaySesion(destino: string): void {
  useEffect(() => {
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
