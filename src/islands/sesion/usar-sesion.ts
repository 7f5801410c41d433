/** Hooks shared by the session screens. */
import { useEffect } from 'react';
import { restaurarSesion } from '../../lib/sesion/index.ts';

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
