/**
 * The e-mail change (decision 006): the new address and the current password; the new address
 * receives a single-use link valid 24 hours, and until it is confirmed the login name stays the old
 * one. A change waiting for its link is shown.
 */
import { useState, type SubmitEvent } from 'react';
import { apiFetch } from '../../../lib/api/cliente.ts';
import { validarCambioEmail, type Perfil } from '../../../lib/perfil/pantalla.ts';
import { CampoCorreo } from '../../comunes/formulario/CampoCorreo.tsx';
import { CampoPassword } from '../../comunes/formulario/CampoPassword.tsx';
import { BloquePerfil, FormularioPerfil } from './FormularioPerfil.tsx';
import { useFormulario } from './usar-formulario.ts';
import { urlApi } from '../../../lib/api/rutas.ts';

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
      () => apiFetch<{ message?: string }>(urlApi('/perfil/cambio-email'), { method: 'POST', json: { nuevoEmail: destino, password } }),
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
    <BloquePerfil id="perfil-email" titulo="Cambiar el correo electrónico">
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
      <FormularioPerfil
        idTitulo="perfil-email"
        f={f}
        etiquetaAlertas="Resultado del cambio de correo"
        alEnviar={onSubmit}
        texto="Enviar el enlace de confirmación"
        textoEnviando="Enviando…"
        bloqueado={bloqueado}
      >
        <CampoCorreo
          {...f.campo('nuevoEmail')}
          etiqueta="Nuevo correo electrónico"
          valor={nuevoEmail}
          alCambiar={f.alCambiar('nuevoEmail', setNuevoEmail)}
          requerido
        />
        <CampoPassword
          {...f.campo('passwordEmail')}
          etiqueta="Contraseña actual"
          valor={password}
          alCambiar={f.alCambiar('passwordEmail', setPassword)}
          autoComplete="current-password"
          requerido
          textoMostrar="Mostrar la contraseña actual"
        />
      </FormularioPerfil>
    </BloquePerfil>
  );
}
