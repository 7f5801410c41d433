/**
 * /sesion/activar-usuario/<id>, the link of the activation mail (docs/producto.md §2, §4, §8): posts the id,
 * then goes to the login after 5 s, or opens the "Error" modal.
 */
import { useEffect, useRef, useState } from 'react';
import { apiFetch } from '../../lib/api/cliente.ts';
import { idDeEnlace } from '../../lib/cuentas/reglas.ts';
import { PantallaSesion } from './PantallaSesion.tsx';
import { useModalSesion } from './usar-sesion.ts';
import { ESPERAS, TEXTOS } from './textos.ts';
import './sesion.css';
import { urlApi } from '../../lib/api/rutas.ts';

type Fase = 'confirmando' | 'activada' | 'fallida';

/** The activation screen; the page's h1 says "Confirmando su dirección". */
export default function ActivarUsuario() {
  const [fase, setFase] = useState<Fase>('confirmando');
  const { modal, setModal } = useModalSesion();
  const hecho = useRef(false);

  useEffect(() => {
    // One POST per page, even if React runs the effect twice.
    if (hecho.current) return;
    hecho.current = true;
    const id = idDeEnlace(window.location.pathname, 'activar-usuario');
    const fallar = () => {
      setFase('fallida');
      setModal({ tipo: 'mensaje', titulo: TEXTOS.error, mensaje: TEXTOS.activacionFallida });
    };
    if (!id) {
      fallar();
      return;
    }
    setModal({ tipo: 'spinner' });
    void apiFetch(urlApi('/activarUsuario'), { method: 'POST', json: { id } }).then((res) => {
      if (res.status === 200) {
        setModal(null);
        setFase('activada');
        window.setTimeout(() => window.location.assign('/sesion/login'), ESPERAS.trasActivacion);
      } else {
        fallar();
      }
    });
  }, []);

  return (
    <PantallaSesion anunciar modal={modal}>
      {fase === 'confirmando' && (
        <p>Estamos confirmando su dirección de correo electrónico. Cuando terminemos, será redireccionado a la página de acceso.</p>
      )}
      {fase === 'activada' && (
        <>
          <p className="sesion__exito">Su cuenta se ha activado correctamente.</p>
          <p>
            Será redireccionado a la página de acceso en 5 segundos. Si no ocurre, <a href="/sesion/login">vaya a Acceso</a>.
          </p>
        </>
      )}
      {fase === 'fallida' && (
        <>
          <p>No hemos podido activar su cuenta con este enlace. Puede que ya la haya activado, o que el enlace haya caducado.</p>
          <p>
            <a href="/sesion/login">Ir a Acceso</a> · <a href="/sesion/crear-cuenta">Crear una cuenta</a> ·{' '}
            <a href="/informacion">Contacto</a>
          </p>
        </>
      )}
    </PantallaSesion>
  );
}
