/** State shared by the profile's forms: field errors for the summary, server messages, and the submit lock. */
import { useRef, useState } from 'react';
import { mensajesDeError, type RespuestaApi } from '../../../lib/api/cliente.ts';
import type { ErrorDeCampo } from '../../../lib/perfil/pantalla.ts';
import { alertasDe, type Alerta } from '../../comunes/ListaAlertas.tsx';

/** A form's errors, alerts and whether it is sending. */
export function useFormulario() {
  const [errores, setErrores] = useState<ErrorDeCampo[]>([]);
  const [intento, setIntento] = useState(0);
  const [alertas, setAlertas] = useState<Alerta[]>([]);
  const [enviando, setEnviando] = useState(false);
  const bloqueo = useRef(false);

  return {
    errores,
    intento,
    alertas,
    enviando,
    /** The message of one field, for the text beside it. */
    errorDe: (campo: string) => errores.find((e) => e.campo === campo)?.mensaje,
    /** Shows the client-side errors; true when there are none and the form may be sent. */
    comprobar(nuevos: ErrorDeCampo[]): boolean {
      setErrores(nuevos);
      setAlertas([]);
      if (nuevos.length) setIntento((n) => n + 1);
      return nuevos.length === 0;
    },
    /** Runs one call at a time; shows its error messages, or `exito` when it succeeded. */
    async enviar<T>(llamada: () => Promise<RespuestaApi<T>>, alAcertar: (datos: T) => string | null): Promise<boolean> {
      if (bloqueo.current) return false;
      bloqueo.current = true;
      setEnviando(true);
      const r = await llamada();
      bloqueo.current = false;
      setEnviando(false);
      if (r.ok) {
        const texto = alAcertar(r.datos);
        setAlertas(texto ? alertasDe([texto], 'success') : []);
        return true;
      }
      setAlertas(alertasDe(mensajesDeError(r.error), 'error'));
      return false;
    },
    /** Removes one alert (its cross). */
    cerrarAlerta: (id: string) => setAlertas((a) => a.filter((x) => x.id !== id)),
    /** Clears a field's error once the user fixed it. */
    limpiar: (campo: string) => setErrores((e) => (e.some((x) => x.campo === campo) ? e.filter((x) => x.campo !== campo) : e)),
  };
}
