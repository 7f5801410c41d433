/**
 * A staff action on a case's detail screen (an ATR request, a contractual modification): the spinner
 * while the server works, then either the case as the server left it with the result in words, or
 * the server's reasons and the case loaded again (another member of staff may have moved it).
 */
import { useState } from 'react';
import { mensajesDeError, type RespuestaApi } from '../../../lib/api/cliente.ts';
import { alertasDe, type Alerta } from '../../comunes/ListaAlertas.tsx';
import type { EstadoModal } from '../../comunes/Modal.tsx';

/** The state of a detail's actions; `poner` shows the case the server answered, `recargar` loads it again. */
export function useAccionDelPersonal<T>(poner: (datos: T) => void, recargar: () => void) {
  const [modal, setModal] = useState<EstadoModal | null>(null);
  const [alertas, setAlertas] = useState<Alerta[]>([]);
  /** Sends `peticion`; on success says `hecho`. */
  const enviar = async (peticion: () => Promise<RespuestaApi<T>>, hecho: string): Promise<void> => {
    setModal({ tipo: 'spinner' });
    const r = await peticion();
    setModal(null);
    if (!r.ok) {
      setAlertas(alertasDe(mensajesDeError(r.error)));
      recargar();
      return;
    }
    poner(r.datos);
    setAlertas(alertasDe([hecho], 'success'));
  };
  return {
    modal,
    cerrarModal: () => setModal(null),
    alertas,
    cerrarAlerta: (id: Alerta['id']) => setAlertas((l) => l.filter((x) => x.id !== id)),
    enviar,
  };
}
