/**
 * A message from the applicant to the distributor with its documents (every procedure on the case
 * core: an access request's corrections, a query's reply, a claim's information): the message is
 * checked as the server will, the documents are uploaded as chosen and go with the message.
 */
import { useState, type FormEvent } from 'react';
import type { ClaseDocumento } from '../../../lib/expedientes/documentos.ts';
import { comprobarMensaje, MAX_MENSAJE } from '../../../lib/expedientes/pantalla.ts';
import { BotonEnviar } from '../../comunes/formulario/BotonEnviar.tsx';
import { ResumenErrores } from '../../comunes/formulario/ResumenErrores.tsx';
import { AreaTexto } from './campos.tsx';
import { SubidaDocumento, type Documento } from './documentos.tsx';

/** Props of `CajaMensaje`. */
export interface CajaMensajeProps {
  /** The case: its id, its documents and the caller's side. */
  caso: { id: string; documentos: readonly Documento[]; lado: 'solicitante' | 'distribuidora' };
  /** id prefix of its controls. */
  id: string;
  titulo: string;
  etiqueta: string;
  ayuda: string;
  boton: string;
  /** The message's error when empty. */
  falta: string;
  /** The class of the documents it sends, the label of its upload and its hint. */
  clase: ClaseDocumento;
  etiquetaDocumento: string;
  ayudaDocumento?: string;
  /** The error summary's heading. */
  tituloErrores?: string;
  enviando: boolean;
  /** Sends the message; true when it went. */
  enviar: (mensaje: string) => Promise<boolean>;
  refrescar: () => Promise<void>;
}

export function CajaMensaje(p: CajaMensajeProps) {
  const [mensaje, setMensaje] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [intento, setIntento] = useState(0);
  const idMensaje = `${p.id}-mensaje`;

  const alEnviar = async (ev: FormEvent<HTMLFormElement>) => {
    ev.preventDefault();
    if (p.enviando) return;
    const r = comprobarMensaje(mensaje, p.falta);
    if (!r.ok) {
      setError(r.error);
      setIntento((n) => n + 1);
      return;
    }
    setError(undefined);
    if (await p.enviar(r.mensaje)) setMensaje('');
  };

  const pendientes = p.caso.documentos.filter((d) => d.pendiente && d.lado === p.caso.lado && d.clase === p.clase);
  return (
    <section className="med-panel ac-accion" aria-labelledby={`${p.id}-titulo`}>
      <h2 id={`${p.id}-titulo`}>{p.titulo}</h2>
      <ResumenErrores
        titulo={p.tituloErrores ?? 'Revise esto antes de enviar:'}
        errores={error ? [{ campo: idMensaje, mensaje: error }] : []}
        intento={intento}
      />
      <form className="mod-formulario" noValidate onSubmit={(e) => void alEnviar(e)} aria-labelledby={`${p.id}-titulo`}>
        <AreaTexto
          id={idMensaje}
          etiqueta={p.etiqueta}
          ayuda={p.ayuda}
          valor={mensaje}
          alCambiar={(v) => {
            setMensaje(v);
            if (error && v.trim()) setError(undefined);
          }}
          error={error}
          requerido
          max={MAX_MENSAJE}
        />
        <SubidaDocumento
          id={`${p.id}-documento`}
          expediente={p.caso.id}
          clase={p.clase}
          etiqueta={p.etiquetaDocumento}
          opcional
          ayuda={p.ayudaDocumento ?? 'Se envían con su mensaje.'}
          documentos={pendientes}
          lado={p.caso.lado}
          alCambiar={p.refrescar}
        />
        <div className="admin-acciones">
          <BotonEnviar texto={p.boton} textoEnviando="Enviando…" clase="priv-boton" enviando={p.enviando} />
        </div>
      </form>
    </section>
  );
}
