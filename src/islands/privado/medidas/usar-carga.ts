/**
 * A GET of the API as the state of a screen: loading, the answer, or the Spanish message
 * of the error; a retry; nothing while the path is null. The request of a path left behind is aborted.
 */
import { useCallback, useEffect, useState } from 'react';
import { apiFetch } from '../../../lib/api/cliente.ts';
import type { Carga } from './comun.tsx';

/**
 * The load of `ruta` (null: nothing to load yet), and a function that loads it again. The state
 * remembers the path it answers: in the render where the path has changed but the effect has not
 * run yet, it is loading, never the previous path's answer under the new choice.
 */
export function useCargaApi<T>(ruta: string | null): [Carga<T> | null, () => void] {
  const [carga, setCarga] = useState<{ ruta: string; carga: Carga<T> } | null>(null);
  const [intento, setIntento] = useState(0);
  useEffect(() => {
    if (!ruta) {
      setCarga(null);
      return;
    }
    const peticion = new AbortController();
    setCarga({ ruta, carga: { fase: 'cargando' } });
    void apiFetch<T>(ruta, { signal: peticion.signal }).then((r) => {
      if (peticion.signal.aborted) return;
      setCarga({ ruta, carga: r.ok ? { fase: 'lista', datos: r.datos } : { fase: 'error', mensaje: r.error.mensaje } });
    });
    return () => peticion.abort();
  }, [ruta, intento]);
  const actual = !ruta ? null : carga?.ruta === ruta ? carga.carga : CARGANDO;
  return [actual, useCallback(() => setIntento((n) => n + 1), [])];
}

const CARGANDO = { fase: 'cargando' } as const;
