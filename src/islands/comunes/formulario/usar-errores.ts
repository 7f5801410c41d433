/** The field errors of a form and its count of failed submits (docs/diseno.md "Forms"). */
import { useCallback, useState } from 'react';
import { mensajeDe, sinError, type ErrorCampo } from './errores.ts';

/**
 * A form's errors, in the order its summary lists them, and `intento`, which grows on every failed
 * submit so the summary takes focus each time (`ResumenErrores`).
 */
export function useErrores() {
  const [errores, setErrores] = useState<ErrorCampo[]>([]);
  const [intento, setIntento] = useState(0);
  const limpiar = useCallback((campo: string) => setErrores((e) => sinError(e, campo)), []);
  return {
    errores,
    intento,
    /** The message of one field, for the text beside it. */
    errorDe: (campo: string) => mensajeDe(errores, campo),
    /** A field's id and its message, to spread on the field. */
    campo: (id: string) => ({ id, error: mensajeDe(errores, id) }),
    /** Shows the errors of a check; true when there are none and the form may be sent. */
    comprobar(nuevos: ErrorCampo[]): boolean {
      setErrores(nuevos);
      if (nuevos.length) setIntento((n) => n + 1);
      return nuevos.length === 0;
    },
    /** Clears a field's error once the user fixed it. */
    limpiar,
    /** Clears every error (the values they were about changed). */
    vaciar: useCallback(() => setErrores([]), []),
    /** A field's `alCambiar`: stores the value and clears the field's error when `resuelto` says the value fixed it. */
    alCambiar:
      (campo: string, poner: (valor: string) => void, resuelto: (valor: string) => boolean = () => true) =>
      (valor: string) => {
        poner(valor);
        if (resuelto(valor)) limpiar(campo);
      },
  };
}
