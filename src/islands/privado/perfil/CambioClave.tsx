/**
 * The password change (decision 006): the current password and the new one twice, under the rule of
 * docs/producto.md §5, with show/hide toggles as on the new-password screen. It ends every other session of
 * the account and sends the confirmation mail.
 */
import { useState, type SubmitEvent } from 'react';
import { apiFetch } from '../../../lib/api/cliente.ts';
import { MENSAJE_PASSWORD } from '../../../lib/cuentas/reglas.ts';
import { validarCambioClave } from '../../../lib/perfil/pantalla.ts';
import { CampoPassword } from '../../comunes/formulario/CampoPassword.tsx';
import { TEXTOS } from '../../sesion/textos.ts';
import { BloquePerfil, FormularioPerfil } from './FormularioPerfil.tsx';
import { useFormulario } from './usar-formulario.ts';
import { urlApi } from '../../../lib/api/rutas.ts';

/** Props of `CambioClave`. */
export interface CambioClaveProps {
  /** An impersonated session may not change it. */
  bloqueado: boolean;
  /** The password changed (the other sessions were closed). */
  alCambiar: () => void;
}

/** The three password fields, by their ids (also the ids `validarCambioClave` names). */
type Claves = Record<'passwordActual' | 'passwordNueva' | 'passwordCopia', string>;

const VACIAS: Claves = { passwordActual: '', passwordNueva: '', passwordCopia: '' };

/** Each field: label, autocomplete token and the accessible name of its toggle. */
const CAMPOS: readonly { id: keyof Claves; etiqueta: string; autoComplete: string; textoMostrar: string }[] = [
  { id: 'passwordActual', etiqueta: 'Contraseña actual', autoComplete: 'current-password', textoMostrar: 'Mostrar la contraseña actual' },
  { id: 'passwordNueva', etiqueta: 'Nueva contraseña', autoComplete: 'new-password', textoMostrar: 'Mostrar la nueva contraseña' },
  {
    id: 'passwordCopia',
    etiqueta: 'Repita la nueva contraseña',
    autoComplete: 'new-password',
    textoMostrar: 'Mostrar la contraseña repetida',
  },
];

/** The password change form. */
export function CambioClave({ bloqueado, alCambiar }: CambioClaveProps) {
  const [claves, setClaves] = useState<Claves>(VACIAS);
  const f = useFormulario();

  const onSubmit = async (ev: SubmitEvent<HTMLFormElement>) => {
    ev.preventDefault();
    if (bloqueado) return;
    const { passwordActual, passwordNueva, passwordCopia } = claves;
    if (!f.comprobar(validarCambioClave(passwordActual, passwordNueva, passwordCopia))) return;
    const ok = await f.enviar(
      () =>
        apiFetch(urlApi('/perfil/clave'), {
          method: 'POST',
          json: { passwordActual, password: passwordNueva, passwordCopy: passwordCopia },
        }),
      () => `${TEXTOS.claveCambiadaTexto} Hemos cerrado sus sesiones en otros dispositivos.`,
    );
    // Passwords never stay in the fields after a send, whatever the answer.
    setClaves((c) => (ok ? VACIAS : { ...c, passwordActual: '' }));
    if (ok) alCambiar();
  };

  return (
    <BloquePerfil id="perfil-clave" titulo="Cambiar la contraseña">
      <p className="priv-nota">
        Al cambiarla se cerrarán sus sesiones en otros dispositivos; esta seguirá abierta. Le enviaremos un correo de confirmación.
      </p>
      <FormularioPerfil
        idTitulo="perfil-clave"
        f={f}
        etiquetaAlertas="Resultado del cambio de contraseña"
        alEnviar={onSubmit}
        texto="Cambiar la contraseña"
        textoEnviando="Cambiando…"
        bloqueado={bloqueado}
        antes={
          <div className="sesion__aviso" role="note">
            <strong>Requisitos de la contraseña.</strong> {MENSAJE_PASSWORD}
          </div>
        }
      >
        {CAMPOS.map((c) => (
          <CampoPassword
            key={c.id}
            {...f.campo(c.id)}
            etiqueta={c.etiqueta}
            valor={claves[c.id]}
            alCambiar={f.alCambiar(c.id, (v) => setClaves((x) => ({ ...x, [c.id]: v })))}
            autoComplete={c.autoComplete}
            requerido
            textoMostrar={c.textoMostrar}
          />
        ))}
      </FormularioPerfil>
    </BloquePerfil>
  );
}
