/**
 * The e-mail change (decision 006): the new address and the current password; the new address
 * receives a single-use link valid 24 hours, and until it is confirmed the login name stays the old
 * one. A change waiting for its link is shown.
 */
import { useState, type SubmitEvent } from 'react';
import { apiFetch } from '../../../lib/api/cliente.ts';
import { validarCambioEmail, type Perfil } from '../../../lib/perfil/pantalla.ts';
import { ListaAlertas } from '../../comunes/ListaAlertas.tsx';
import { CampoPassword, CampoTexto, ResumenErrores } from '../../sesion/campos.tsx';
import { useFormulario } from './usar-formulario.ts';

/** Props of `CambioEmail`. */
export interface CambioEmailProps {
  /** The profile: current and pending addresses. */
  perfil: Perfil;
  /** An impersonated session may not change it. */
  bloqueado: boolean;
  /** The link was sent: reload the profile to show the pending address. */
  alSolicitar: () => void;
}

/** The e-mail change form. */
export function CambioEmail({ perfil, bloqueado, alSolicitar }: CambioEmailProps) {
  const [nuevoEmail, setNuevoEmail] = useState('');
  const [password, setPassword] = useState('');
  const f = useFormulario();

  const onSubmit = async (ev: SubmitEvent<HTMLFormElement>) => {
    ev.preventDefault();
    if (bloqueado) return;
    if (!f.comprobar(validarCambioEmail(nuevoEmail, password, perfil.email))) return;
    const destino = nuevoEmail.trim();
    const ok = await f.enviar(
      () => apiFetch<{ message?: string }>('/api/perfil/cambio-email', { method: 'POST', json: { nuevoEmail: destino, password } }),
      () =>
        `Le hemos enviado un enlace a ${destino}. Ábralo en las próximas 24 horas para confirmar el cambio; hasta entonces siga entrando con ${perfil.email}.`,
    );
    if (ok) {
      setNuevoEmail('');
      setPassword('');
      alSolicitar();
    } else {
      // The password is never kept after a refused attempt.
      setPassword('');
    }
  };

  return (
    <section className="priv-bloque" aria-labelledby="perfil-email">
      <h2 id="perfil-email">Cambiar el correo electrónico</h2>
      <p className="priv-nota">
        Su correo electrónico es también su usuario para entrar. Le enviaremos un enlace a la nueva dirección: el cambio se aplica cuando lo
        abra, y entonces tendrá que volver a entrar con la nueva dirección en todos sus dispositivos. A la dirección actual le avisaremos
        del cambio.
      </p>
      {perfil.emailPendiente && (
        <p className="priv-aviso priv-aviso--info">
          Cambio pendiente de confirmar: hemos enviado un enlace a <strong>{perfil.emailPendiente}</strong>. Si no lo encuentra, revise la
          carpeta de correo no deseado o pida otro enlace con este formulario.
        </p>
      )}
      {bloqueado && <p className="priv-nota priv-nota--bloqueo">No disponible mientras actúa como otro usuario.</p>}
      <div className="sesion priv-formulario">
        <ResumenErrores titulo="Revise los campos marcados" errores={f.errores} intento={f.intento} />
        <ListaAlertas alertas={f.alertas} alCerrar={f.cerrarAlerta} etiqueta="Resultado del cambio de correo" />
        <form noValidate onSubmit={onSubmit} aria-labelledby="perfil-email">
          <fieldset className="sesion__grupo" disabled={bloqueado}>
            <CampoTexto
              id="nuevoEmail"
              etiqueta="Nuevo correo electrónico"
              tipo="email"
              inputMode="email"
              autoCapitalize="none"
              valor={nuevoEmail}
              alCambiar={(v) => {
                setNuevoEmail(v);
                f.limpiar('nuevoEmail');
              }}
              error={f.errorDe('nuevoEmail')}
              autoComplete="email"
              requerido
            />
            <CampoPassword
              id="passwordEmail"
              etiqueta="Contraseña actual"
              valor={password}
              alCambiar={(v) => {
                setPassword(v);
                f.limpiar('passwordEmail');
              }}
              error={f.errorDe('passwordEmail')}
              autoComplete="current-password"
              requerido
              textoMostrar="Mostrar la contraseña actual"
            />
            <button type="submit" className="priv-boton" aria-busy={f.enviando || undefined}>
              {f.enviando ? 'Enviando…' : 'Enviar el enlace de confirmación'}
            </button>
          </fieldset>
        </form>
      </div>
    </section>
  );
}
