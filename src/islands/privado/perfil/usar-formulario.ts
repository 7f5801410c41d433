/** State shared by the profile's forms: field errors for the summary, server messages, and the submit lock. */
import { useRef, useState } from 'react';
import { mensajesDeError, type RespuestaApi } from '../../../lib/api/cliente.ts';
import type { ErrorDeCampo } from '../../../lib/perfil/pantalla.ts';
import { alertasDe, type Alerta } from '../../comunes/ListaAlertas.tsx';
import { useErrores } from '../../comunes/formulario/usar-errores.ts';

/** A form's errors, alerts and whether it is sending. */
export function useFormulario() {
  const base = useErrores();
  const [alertas, setAlertas] = useState<Alerta[]>([]);
  const [enviando, setEnviando] = useState(false);
  const bloqueo = useRef(false);

  return {
    ...base,
    alertas,
    enviando,
    /** Shows the client-side errors and clears the last answer's alerts; true when there are none and the form may be sent. */
    comprobar(nuevos: ErrorDeCampo[]): boolean {
      setAlertas([]);
      return base.comprobar(nuevos);
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
  };
}

/** What the profile's form frame reads of `useFormulario`. */
export type EstadoFormulario = ReturnType<typeof useFormulario>;
