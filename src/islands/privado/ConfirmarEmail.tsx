/**
 * /sesion/confirmar-email/<id>, the link mailed to the new address of an e-mail change (decision
 * 006): posts the id once and says what happened. A confirmed change ends every session of the
 * account, since the login name changed: the page says so and leads to the login.
 */
import { useEffect, useRef, useState } from 'react';
import { apiFetch } from '../../lib/api/cliente.ts';
import { PantallaSesion } from '../sesion/PantallaSesion.tsx';
import '../sesion/sesion.css';
import { urlApi } from '../../lib/api/rutas.ts';

type Fase = { tipo: 'confirmando' } | { tipo: 'confirmado' } | { tipo: 'fallido'; status: number; mensaje: string };

/** The id at the end of `/sesion/confirmar-email/<id>`, or null. */
export function idDeConfirmacion(path: string): string | null {
  const m = /\/sesion\/confirmar-email\/([^/?#]+)/.exec(path);
  if (!m) return null;
  try {
    return decodeURIComponent(m[1]!);
  } catch {
    return null;
  }
}

/** The confirmation screen; the page's h1 says "Confirmación del nuevo correo". */
export default function ConfirmarEmail() {
  const [fase, setFase] = useState<Fase>({ tipo: 'confirmando' });
  const hecho = useRef(false);

  useEffect(() => {
    // One POST per page, even if React runs the effect twice.
    if (hecho.current) return;
    hecho.current = true;
    const id = idDeConfirmacion(window.location.pathname);
    if (!id) {
      setFase({ tipo: 'fallido', status: 400, mensaje: 'El enlace no es válido.' });
      return;
    }
    void apiFetch<{ message?: string }>(urlApi('/confirmarEmail'), { method: 'POST', json: { id } }).then((r) => {
      if (r.ok) setFase({ tipo: 'confirmado' });
      else setFase({ tipo: 'fallido', status: r.status, mensaje: r.error.mensaje });
    });
  }, []);

  return (
    <PantallaSesion anunciar>
      {fase.tipo === 'confirmando' && <p>Estamos confirmando su nueva dirección de correo electrónico…</p>}
      {fase.tipo === 'confirmado' && (
        <>
          <p className="sesion__exito">Su nueva dirección de correo electrónico ha quedado confirmada.</p>
          <p>
            A partir de ahora es su usuario para entrar. Por seguridad hemos cerrado su sesión en todos sus dispositivos: vuelva a entrar
            con la nueva dirección y su contraseña de siempre.
          </p>
          <p>
            <a href="/sesion/login">Ir a Acceso</a>
          </p>
        </>
      )}
      {fase.tipo === 'fallido' && (
        <>
          <p>
            <strong>No hemos podido confirmar el cambio de correo electrónico.</strong>
          </p>
          <p>
            {fase.status === 409
              ? 'Esa dirección ya la usa otra cuenta. Su correo no ha cambiado: puede pedir el cambio a otra dirección desde su perfil.'
              : fase.status === 400
                ? 'Puede que el enlace ya se haya usado o que haya caducado (vale 24 horas). Su correo no ha cambiado: pida un enlace nuevo desde su perfil.'
                : fase.mensaje}
          </p>
          <p>
            <a href="/perfil">Ir a mi perfil</a> · <a href="/sesion/login">Ir a Acceso</a> · <a href="/informacion">Contacto</a>
          </p>
        </>
      )}
    </PantallaSesion>
  );
}
