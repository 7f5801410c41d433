/** The ref of a server-rendered input and what was typed in it before React hydrated it. */
import { useEffect, useRef, type RefObject } from 'react';

/** What `useEntrada` reads of a field's props. */
export interface EntradaControlada {
  /** The value React holds. */
  valor: string;
  /** Stores a new value. */
  alCambiar: (valor: string) => void;
  /** The owner's ref, when it moves focus to the input itself. */
  refInput?: RefObject<HTMLInputElement | null> | undefined;
}

/**
 * The input's ref (the owner's, or its own), and at hydration the text typed before React took over
 * the server-rendered form: a controlled input's state starts empty, so without this a fast typist
 * would submit "empty" fields.
 */
export function useEntrada(p: EntradaControlada): RefObject<HTMLInputElement | null> {
  const propio = useRef<HTMLInputElement>(null);
  const ref = p.refInput ?? propio;
  useEffect(() => {
    const tecleado = ref.current?.value ?? '';
    if (tecleado && tecleado !== p.valor) p.alCambiar(tecleado);
    // Once, at hydration.
  }, []);
  return ref;
}
