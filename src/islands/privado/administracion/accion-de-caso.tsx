/**
 * What every staff action panel on a case does the same way, whatever the procedure (an access
 * request, a query or claim): send the checked body, take the server's answer as the case shown,
 * show the server's refusal (with a button to reload the case when it had moved on: a 409), and ask
 * first when the action ends the case. The panels keep their own fields and texts.
 */
import { useState } from 'react';
import { apiFetch, mensajesDeError } from '../../../lib/api/cliente.ts';
import { BotonEnviar } from '../../comunes/formulario/BotonEnviar.tsx';
import { Confirmacion } from './comun.tsx';
import { FalloDeAccion } from './FalloDeAccion.tsx';

/** The sending of one action: `url` takes the body by POST and answers the case after it. */
export function useEnvioDeAccion<B, D>(url: string, alHecho: (d: D) => void) {
  const [enviando, setEnviando] = useState(false);
  const [errorServidor, setErrorServidor] = useState<string[]>([]);
  // A 409: the case moved on meanwhile (another administrator, the deadline job); it can be reloaded.
  const [desfasada, setDesfasada] = useState(false);
  // The checked body waiting for the confirmation of an action that ends the case.
  const [pendiente, setPendiente] = useState<B | null>(null);

  async function enviar(cuerpo: B) {
    setEnviando(true);
    setErrorServidor([]);
    const r = await apiFetch<D>(url, { method: 'POST', json: cuerpo });
    setEnviando(false);
    if (!r.ok) {
      setErrorServidor(mensajesDeError(r.error));
      setDesfasada(r.status === 409);
      return;
    }
    alHecho(r.datos);
  }

  return {
    enviando,
    errorServidor,
    desfasada,
    pendiente,
    /** A checked body: sent at once, or held for the confirmation when `confirmar`. */
    pedir(cuerpo: B, confirmar: boolean) {
      setErrorServidor([]);
      if (confirmar) setPendiente(cuerpo);
      else void enviar(cuerpo);
    },
    cancelar: () => setPendiente(null),
    confirmar() {
      const cuerpo = pendiente;
      setPendiente(null);
      if (cuerpo !== null) void enviar(cuerpo);
    },
    limpiar: () => setErrorServidor([]),
  };
}

/** The state `useEnvioDeAccion` gives. */
export type EnvioDeAccion<B> = ReturnType<typeof useEnvioDeAccion<B, unknown>>;

/** Props of `PieDeAccion`. */
interface PieDeAccionProps {
  envio: Pick<EnvioDeAccion<unknown>, 'enviando' | 'errorServidor' | 'desfasada'>;
  /** «No se ha podido …:». */
  encabezado: string;
  /** The reload button's text after a 409: «Ver la solicitud actualizada». */
  textoActualizar: string;
  alActualizar: () => void;
  boton: string;
  peligrosa: boolean;
}

/** The end of an action's form: the server's refusal and the send button. */
export function PieDeAccion({ envio, encabezado, textoActualizar, alActualizar, boton, peligrosa }: PieDeAccionProps) {
  return (
    <>
      <FalloDeAccion
        encabezado={encabezado}
        mensajes={envio.errorServidor}
        actualizar={envio.desfasada ? { texto: textoActualizar, alPulsar: alActualizar } : null}
      />
      <div className="admin-acciones">
        <BotonEnviar
          texto={boton}
          textoEnviando="Enviando…"
          enviando={envio.enviando}
          clase={`admin-boton${peligrosa ? ' admin-boton--peligro' : ''}`}
        />
      </div>
    </>
  );
}

/** Props of `ConfirmarAccion`. */
interface ConfirmarAccionProps<B> {
  envio: Pick<EnvioDeAccion<B>, 'pendiente' | 'cancelar' | 'confirmar'>;
  textos: { titulo: string; boton: string; cuerpo: string };
  peligrosa: boolean;
}

/** The confirmation an action that ends the case waits for. */
export function ConfirmarAccion<B>({ envio, textos, peligrosa }: ConfirmarAccionProps<B>) {
  return (
    <Confirmacion
      abierta={envio.pendiente !== null}
      titulo={textos.titulo}
      textoConfirmar={textos.boton}
      peligrosa={peligrosa}
      alCancelar={envio.cancelar}
      alConfirmar={envio.confirmar}
    >
      <p>{textos.cuerpo}</p>
    </Confirmacion>
  );
}
