/**
 * The frame of the profile's blocks (decision 006): a section named by its heading, and a form
 * drawn with the session forms' fields (docs/diseno.md "Forms"): summary, result alerts, fields
 * and submit button, all locked while an administrator acts as the user.
 */
import type { ReactNode, SubmitEvent } from 'react';
import { ListaAlertas } from '../../comunes/ListaAlertas.tsx';
import { BotonEnviar } from '../../comunes/formulario/BotonEnviar.tsx';
import { ResumenErrores } from '../../comunes/formulario/ResumenErrores.tsx';
import type { EstadoFormulario } from './usar-formulario.ts';

/** Props of `BloquePerfil`. */
export interface BloquePerfilProps {
  /** id of the heading, which names the section. */
  id: string;
  /** The heading's text. */
  titulo: ReactNode;
  /** The block's notes, form or list. */
  children: ReactNode;
}

/** One block of the profile screen. */
export function BloquePerfil({ id, titulo, children }: BloquePerfilProps) {
  return (
    <section className="priv-bloque" aria-labelledby={id}>
      <h2 id={id}>{titulo}</h2>
      {children}
    </section>
  );
}

/** Props of `FormularioPerfil`. */
export interface FormularioPerfilProps {
  /** id of the block's heading, which names the form. */
  idTitulo: string;
  /** The form's state (`useFormulario`). */
  f: EstadoFormulario;
  /** Accessible name of the result alerts. */
  etiquetaAlertas: string;
  /** Checks and sends. */
  alEnviar: (ev: SubmitEvent<HTMLFormElement>) => void | Promise<void>;
  /** Text of the submit button, and while sending. */
  texto: string;
  textoEnviando: string;
  /** A form an impersonated session may not use: its fields sit in a fieldset disabled while `bloqueado`. */
  bloqueado?: boolean;
  /** Shown above the summary (the password rule). */
  antes?: ReactNode;
  /** The fields. */
  children: ReactNode;
}

/** A profile form: the impersonation note, summary, alerts, fields and submit button. */
export function FormularioPerfil({ idTitulo, f, bloqueado, ...p }: FormularioPerfilProps) {
  const campos = (
    <>
      {p.children}
      <BotonEnviar clase="priv-boton" texto={p.texto} textoEnviando={p.textoEnviando} enviando={f.enviando} />
    </>
  );
  return (
    <>
      {bloqueado && <p className="priv-nota priv-nota--bloqueo">No disponible mientras actúa como otro usuario.</p>}
      <div className="sesion priv-formulario">
        {p.antes}
        <ResumenErrores titulo="Revise los campos marcados" errores={f.errores} intento={f.intento} />
        <ListaAlertas alertas={f.alertas} alCerrar={f.cerrarAlerta} etiqueta={p.etiquetaAlertas} />
        <form noValidate onSubmit={p.alEnviar} aria-labelledby={idTitulo}>
          {bloqueado === undefined ? (
            campos
          ) : (
            <fieldset className="sesion__grupo" disabled={bloqueado}>
              {campos}
            </fieldset>
          )}
        </form>
      </div>
    </>
  );
}
