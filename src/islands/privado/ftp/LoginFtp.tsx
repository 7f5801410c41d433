/**
 * The FTP screen's own login (docs/producto.md §2, §5, §8): e-mail and password of the portal,
 * both required; the button is enabled only while both are valid; a refusal opens the modal with
 * the specification's sentence. The token obtained is kept in the tab (`jwTokenFtp`).
 */
import { useEffect, useId, useRef, useState, type SubmitEvent } from 'react';
import {
  errorCampoLogin,
  loginFtpValido,
  MENSAJE_LOGIN_FTP_FALLIDO,
  MENSAJE_SIN_CONEXION_FTP,
  type ClienteFtp,
} from '../../../lib/intercambio/pantalla.ts';
import { Modal, type EstadoModal } from '../../comunes/Modal.tsx';
import { CampoCorreo } from '../../comunes/formulario/CampoCorreo.tsx';
import { CampoPassword } from '../../comunes/formulario/CampoPassword.tsx';

/** Props of `LoginFtp`. */
export interface LoginFtpProps {
  cliente: ClienteFtp;
  /** The portal user's e-mail, to start the field with; the token is tied to it. */
  usuario: string | null;
  /** Why the login shows again (the FTP session ended), or null. */
  aviso: string | null;
  /** Logged in: the token is kept. */
  alEntrar: () => void;
}

/** The login form of the FTP screen. */
export function LoginFtp({ cliente, usuario, aviso, alEntrar }: LoginFtpProps) {
  const id = useId();
  const [email, setEmail] = useState(usuario ?? '');
  const [password, setPassword] = useState('');
  const [tocados, setTocados] = useState<{ email: boolean; password: boolean }>({ email: false, password: false });
  const [enviando, setEnviando] = useState(false);
  const [modal, setModal] = useState<EstadoModal | null>(null);
  const valido = loginFtpValido(email, password);
  const campoPassword = useRef<HTMLInputElement>(null);
  /** After the failure's modal closes, focus goes to the password (the button it came from is disabled by then). */
  const volverAPassword = useRef(false);

  useEffect(() => {
    if (modal !== null || !volverAPassword.current) return;
    volverAPassword.current = false;
    campoPassword.current?.focus();
  }, [modal]);

  const errorEmail = tocados.email ? errorCampoLogin('email', email) : null;
  const errorPassword = tocados.password ? errorCampoLogin('password', password) : null;

  const enviar = async (ev: SubmitEvent<HTMLFormElement>) => {
    ev.preventDefault();
    if (enviando || !valido) return;
    setEnviando(true);
    const r = await cliente.conectar(email.trim(), password, usuario);
    setEnviando(false);
    if (r.ok) {
      alEntrar();
      return;
    }
    // The password is never kept after a refused attempt.
    setPassword('');
    setTocados((t) => ({ ...t, password: false }));
    const mensaje =
      r.status === 0 ? (
        MENSAJE_SIN_CONEXION_FTP
      ) : r.status === 429 || r.status === 403 ? (
        <>
          <p>{MENSAJE_LOGIN_FTP_FALLIDO}</p>
          <p>{r.mensaje}</p>
        </>
      ) : (
        MENSAJE_LOGIN_FTP_FALLIDO
      );
    volverAPassword.current = true;
    setModal({ tipo: 'mensaje', titulo: 'Error', mensaje });
  };

  return (
    <section className="priv-bloque ftp-login" aria-labelledby={`${id}-titulo`}>
      <h2 id={`${id}-titulo`} tabIndex={-1}>
        Acceso al FTP
      </h2>
      <p className="priv-nota">
        Para ver sus ficheros, escriba de nuevo el correo electrónico y la contraseña con los que entra en el portal. La sesión del FTP dura
        dos horas como máximo.
      </p>
      {aviso && (
        <p className="priv-aviso priv-aviso--warning" role="status">
          {aviso}
        </p>
      )}
      <div className="sesion priv-formulario">
        <form
          noValidate
          onSubmit={(e) => void enviar(e)}
          aria-labelledby={`${id}-titulo`}
          onBlur={(e) => {
            // A field is checked once the user leaves it.
            if (e.target.id === `${id}-email`) setTocados((t) => ({ ...t, email: true }));
            else if (e.target.id === `${id}-password`) setTocados((t) => ({ ...t, password: true }));
          }}
        >
          <CampoCorreo
            id={`${id}-email`}
            etiqueta="Correo electrónico"
            valor={email}
            alCambiar={setEmail}
            error={errorEmail ?? undefined}
            autoComplete="username"
            requerido
          />
          <CampoPassword
            id={`${id}-password`}
            etiqueta="Contraseña"
            valor={password}
            alCambiar={setPassword}
            error={errorPassword ?? undefined}
            autoComplete="current-password"
            refInput={campoPassword}
            requerido
          />
          {!valido && (
            <p id={`${id}-requisito`} className="priv-nota ftp-login__requisito">
              El botón «Entrar al FTP» se activa cuando haya escrito un correo electrónico válido y la contraseña.
            </p>
          )}
          <button
            type="submit"
            className="priv-boton"
            disabled={!valido}
            aria-busy={enviando || undefined}
            aria-describedby={valido ? undefined : `${id}-requisito`}
          >
            {enviando ? 'Entrando…' : 'Entrar al FTP'}
          </button>
        </form>
      </div>
      <Modal estado={modal} alCerrar={() => setModal(null)} />
    </section>
  );
}
