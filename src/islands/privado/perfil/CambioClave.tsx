/**
 * The password change (decision 006): the current password and the new one twice, under the rule of
 * docs/producto.md §5, with show/hide toggles as on the new-password screen. It ends every other session of
 * the account and sends the confirmation mail.
 */
import { useState, type SubmitEvent } from 'react';
import { apiFetch } from '../../../lib/api/cliente.ts';
import { MENSAJE_PASSWORD } from '../../../lib/cuentas/reglas.ts';
import { validarCambioClave } from '../../../lib/perfil/pantalla.ts';
import { ListaAlertas } from '../../comunes/ListaAlertas.tsx';
import { CampoPassword, ResumenErrores } from '../../sesion/campos.tsx';
import { TEXTOS } from '../../sesion/textos.ts';
import { useFormulario } from './usar-formulario.ts';

/** Props of `CambioClave`. */
export interface CambioClaveProps {
  /** An impersonated session may not change it. */
  bloqueado: boolean;
  /** The password changed (the other sessions were closed). */
  alCambiar: () => void;
}

/** The password change form. */
export function CambioClave({ bloqueado, alCambiar }: CambioClaveProps) {
  const [actual, setActual] = useState('');
  const [nueva, setNueva] = useState('');
  const [copia, setCopia] = useState('');
  const f = useFormulario();

  const onSubmit = async (ev: SubmitEvent<HTMLFormElement>) => {
    ev.preventDefault();
    if (bloqueado) return;
    if (!f.comprobar(validarCambioClave(actual, nueva, copia))) return;
    const ok = await f.enviar(
      () => apiFetch('/api/perfil/clave', { method: 'POST', json: { passwordActual: actual, password: nueva, passwordCopy: copia } }),
      () => `${TEXTOS.claveCambiadaTexto} Hemos cerrado sus sesiones en otros dispositivos.`,
    );
    // Passwords never stay in the fields after a send, whatever the answer.
    setActual('');
    if (ok) {
      setNueva('');
      setCopia('');
      alCambiar();
    }
  };

  const cambiar = (set: (v: string) => void, campo: string) => (v: string) => {
    set(v);
    f.limpiar(campo);
  };

  return (
    <section className="priv-bloque" aria-labelledby="perfil-clave">
      <h2 id="perfil-clave">Cambiar la contraseña</h2>
      <p className="priv-nota">
        Al cambiarla se cerrarán sus sesiones en otros dispositivos; esta seguirá abierta. Le enviaremos un correo de confirmación.
      </p>
      {bloqueado && <p className="priv-nota priv-nota--bloqueo">No disponible mientras actúa como otro usuario.</p>}
      <div className="sesion priv-formulario">
        <div className="sesion__aviso" role="note">
          <strong>Requisitos de la contraseña.</strong> {MENSAJE_PASSWORD}
        </div>
        <ResumenErrores titulo="Revise los campos marcados" errores={f.errores} intento={f.intento} />
        <ListaAlertas alertas={f.alertas} alCerrar={f.cerrarAlerta} etiqueta="Resultado del cambio de contraseña" />
        <form noValidate onSubmit={onSubmit} aria-labelledby="perfil-clave">
          <fieldset className="sesion__grupo" disabled={bloqueado}>
            <CampoPassword
              id="passwordActual"
              etiqueta="Contraseña actual"
              valor={actual}
              alCambiar={cambiar(setActual, 'passwordActual')}
              error={f.errorDe('passwordActual')}
              autoComplete="current-password"
              requerido
              textoMostrar="Mostrar la contraseña actual"
            />
            <CampoPassword
              id="passwordNueva"
              etiqueta="Nueva contraseña"
              valor={nueva}
              alCambiar={cambiar(setNueva, 'passwordNueva')}
              error={f.errorDe('passwordNueva')}
              autoComplete="new-password"
              requerido
              textoMostrar="Mostrar la nueva contraseña"
            />
            <CampoPassword
              id="passwordCopia"
              etiqueta="Repita la nueva contraseña"
              valor={copia}
              alCambiar={cambiar(setCopia, 'passwordCopia')}
              error={f.errorDe('passwordCopia')}
              autoComplete="new-password"
              requerido
              textoMostrar="Mostrar la contraseña repetida"
            />
            <button type="submit" className="priv-boton" aria-busy={f.enviando || undefined}>
              {f.enviando ? 'Cambiando…' : 'Cambiar la contraseña'}
            </button>
          </fieldset>
        </form>
      </div>
    </section>
  );
}
