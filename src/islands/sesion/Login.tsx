/**
 * /sesion/login, "Acceso" (docs/producto.md §2 Session area, §5 Login, §8): e-mail or user and password,
 * both required; success goes to a same-site `returnUrl` or /inicio; failure opens the "Error"
 * modal; an already logged-in visitor goes to /inicio.
 */
import { useState, type SubmitEvent } from 'react';
import { apiFetch } from '../../lib/api/cliente.ts';
import { login, rutaDeRetornoSegura, RETORNO_POR_DEFECTO } from '../../lib/sesion/index.ts';
import { CampoPassword } from '../comunes/formulario/CampoPassword.tsx';
import { CampoTexto } from '../comunes/formulario/CampoTexto.tsx';
import { erroresEnOrden } from '../comunes/formulario/errores.ts';
import { ResumenErrores } from '../comunes/formulario/ResumenErrores.tsx';
import { FormularioSesion, PantallaSesion } from './PantallaSesion.tsx';
import { useFormularioSesion } from './usar-sesion.ts';
import { MENSAJE_ERROR_CONEXION, TEXTOS } from './textos.ts';
import './sesion.css';
import { urlApi } from '../../lib/api/rutas.ts';

/** Order of the fields, for the error summary. */
const ORDEN = ['usuario', 'password'] as const;

/** The destination after login, from `?returnUrl=` (only a path on this site). */
function destino(): string {
  return rutaDeRetornoSegura(new URLSearchParams(window.location.search).get('returnUrl'));
}

/** The login screen. */
export default function Login() {
  const [usuario, setUsuario] = useState('');
  const [password, setPassword] = useState('');
  // docs/producto.md §2: a visitor who is already logged in leaves this screen.
  const f = useFormularioSesion(RETORNO_POR_DEFECTO);
  const { setModal, enviando } = f;

  const validar = (u: string, p: string): Record<string, string> => {
    const e: Record<string, string> = {};
    if (!u.trim()) e['usuario'] = 'Introduzca su correo electrónico o usuario.';
    if (!p) e['password'] = 'Introduzca su contraseña.';
    return e;
  };

  const onSubmit = async (ev: SubmitEvent<HTMLFormElement>) => {
    ev.preventDefault();
    if (enviando.current) return;
    if (!f.comprobar(erroresEnOrden(ORDEN, validar(usuario, password)))) return;
    enviando.current = true;
    setModal({ tipo: 'spinner' });
    const r = await login(usuario.trim(), password);
    if (r.ok) {
      // The spinner stays up while the next page loads.
      window.location.assign(destino());
      return;
    }
    enviando.current = false;
    const reenvio = r.reenvio;
    if (r.status === 401 && r.codigo === 'cuenta_pendiente' && reenvio) {
      // Only the right password of a pending account gets here (a wrong one reads as any other).
      setModal({
        tipo: 'aceptar',
        titulo: TEXTOS.cuentaPendiente,
        mensaje: r.mensaje ?? '',
        textoAceptar: TEXTOS.reenviarActivacion,
        alAceptar: () => void reenviarActivacion(reenvio),
      });
      return;
    }
    if (r.status === 429 && r.mensaje) setModal({ tipo: 'mensaje', titulo: TEXTOS.error, mensaje: r.mensaje });
    else if (r.status === 0) setModal({ tipo: 'mensaje', titulo: TEXTOS.error, mensaje: MENSAJE_ERROR_CONEXION });
    else setModal({ tipo: 'mensaje', titulo: TEXTOS.error, mensaje: TEXTOS.loginFallido });
  };

  /** Asks for the activation mail again with the proof of the login that found the account pending. */
  const reenviarActivacion = async (reenvio: string) => {
    setModal({ tipo: 'spinner' });
    const res = await apiFetch<{ message: string }>(urlApi('/reenviarActivacion'), { method: 'POST', json: { reenvio } });
    if (res.ok) setModal({ tipo: 'mensaje', titulo: TEXTOS.activacionReenviada, mensaje: res.datos.message });
    else setModal({ tipo: 'mensaje', titulo: TEXTOS.error, mensaje: res.status === 0 ? MENSAJE_ERROR_CONEXION : res.error.mensaje });
  };

  return (
    <PantallaSesion volver={{ href: '/', texto: 'Volver al inicio' }} modal={f.modal}>
      <ResumenErrores titulo="Revise los campos marcados" errores={f.errores} intento={f.intento} />
      <FormularioSesion etiqueta="Acceso al área privada" alEnviar={onSubmit} textoEnviar="Acceder">
        <CampoTexto
          {...f.campo('usuario')}
          etiqueta="Correo electrónico o usuario"
          valor={usuario}
          alCambiar={f.alCambiar('usuario', setUsuario, (v) => v.trim() !== '')}
          autoComplete="username"
          tipo="text"
          inputMode="email"
          autoCapitalize="none"
          requerido
        />
        <CampoPassword
          {...f.campo('password')}
          etiqueta="Contraseña"
          valor={password}
          alCambiar={f.alCambiar('password', setPassword, (v) => v !== '')}
          autoComplete="current-password"
          requerido
        />
      </FormularioSesion>
      <ul className="sesion__enlaces">
        <li>
          ¿Aún no tiene cuenta? <a href="/sesion/crear-cuenta">Crear una cuenta</a>
        </li>
        <li>
          ¿Ha olvidado su contraseña? <a href="/sesion/recordar-clave">Recuperar la contraseña</a>
        </li>
      </ul>
    </PantallaSesion>
  );
}
