/**
 * /sesion/login, "Acceso" (docs/producto.md §2 Session area, §5 Login, §8): e-mail or user and password,
 * both required; success goes to a same-site `returnUrl` or /inicio; failure opens the "Error"
 * modal; an already logged-in visitor goes to /inicio.
 */
import { useRef, useState, type SubmitEvent } from 'react';
import { apiFetch } from '../../lib/api/cliente.ts';
import { login, rutaDeRetornoSegura, RETORNO_POR_DEFECTO } from '../../lib/sesion/index.ts';
import { Modal, type EstadoModal } from '../comunes/Modal.tsx';
import { CampoPassword, CampoTexto, EnlaceVolver, ResumenErrores, type ErrorCampo } from './campos.tsx';
import { useSalirSiHaySesion } from './usar-sesion.ts';
import { MENSAJE_ERROR_CONEXION, TEXTOS } from './textos.ts';
import './sesion.css';

/** The destination after login, from `?returnUrl=` (only a path on this site). */
function destino(): string {
  return rutaDeRetornoSegura(new URLSearchParams(window.location.search).get('returnUrl'));
}

/** The login screen. */
export default function Login() {
  const [usuario, setUsuario] = useState('');
  const [password, setPassword] = useState('');
  const [errores, setErrores] = useState<Record<string, string>>({});
  const [intento, setIntento] = useState(0);
  const [modal, setModal] = useState<EstadoModal | null>(null);
  const enviando = useRef(false);

  // docs/producto.md §2: a visitor who is already logged in leaves this screen.
  useSalirSiHaySesion(RETORNO_POR_DEFECTO);

  const validar = (u: string, p: string): Record<string, string> => {
    const e: Record<string, string> = {};
    if (!u.trim()) e['usuario'] = 'Introduzca su correo electrónico o usuario.';
    if (!p) e['password'] = 'Introduzca su contraseña.';
    return e;
  };

  const onSubmit = async (ev: SubmitEvent<HTMLFormElement>) => {
    ev.preventDefault();
    if (enviando.current) return;
    const e = validar(usuario, password);
    setErrores(e);
    if (Object.keys(e).length) {
      setIntento((n) => n + 1);
      return;
    }
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
    const res = await apiFetch<{ message: string }>('reenviarActivacion', { method: 'POST', json: { reenvio } });
    if (res.ok) setModal({ tipo: 'mensaje', titulo: TEXTOS.activacionReenviada, mensaje: res.datos.message });
    else setModal({ tipo: 'mensaje', titulo: TEXTOS.error, mensaje: res.status === 0 ? MENSAJE_ERROR_CONEXION : res.error.mensaje });
  };

  const lista: ErrorCampo[] = Object.entries(errores).map(([campo, mensaje]) => ({ campo, mensaje }));

  return (
    <div className="sesion">
      <EnlaceVolver href="/" texto="Volver al inicio" />
      <div className="sesion__tarjeta">
        <ResumenErrores titulo="Revise los campos marcados" errores={lista} intento={intento} />
        <form noValidate onSubmit={onSubmit} aria-label="Acceso al área privada">
          <CampoTexto
            id="usuario"
            etiqueta="Correo electrónico o usuario"
            valor={usuario}
            alCambiar={(v) => {
              setUsuario(v);
              if (errores['usuario'] && v.trim()) setErrores(({ usuario: _, ...resto }) => resto);
            }}
            error={errores['usuario']}
            autoComplete="username"
            tipo="text"
            inputMode="email"
            autoCapitalize="none"
            requerido
          />
          <CampoPassword
            id="password"
            etiqueta="Contraseña"
            valor={password}
            alCambiar={(v) => {
              setPassword(v);
              if (errores['password'] && v) setErrores(({ password: _, ...resto }) => resto);
            }}
            error={errores['password']}
            autoComplete="current-password"
            requerido
          />
          <button type="submit" className="sesion__enviar">
            Acceder
          </button>
        </form>
        <ul className="sesion__enlaces">
          <li>
            ¿Aún no tiene cuenta? <a href="/sesion/crear-cuenta">Crear una cuenta</a>
          </li>
          <li>
            ¿Ha olvidado su contraseña? <a href="/sesion/recordar-clave">Recuperar la contraseña</a>
          </li>
        </ul>
      </div>
      <Modal estado={modal} alCerrar={() => setModal(null)} />
    </div>
  );
}
