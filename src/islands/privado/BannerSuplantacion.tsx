/**
 * The impersonation banner (decision 006): while an administrator acts as another user it
 * says so on every screen, cannot be closed, and offers the way back to the administrator's own
 * session without typing the password again.
 */
import { useState } from 'react';
import { navegar } from '../../lib/privado/navegacion.ts';
import { terminarSuplantacion, type Sesion, type Suplantador } from '../../lib/sesion/index.ts';

/** Where the administrator lands after coming back. */
const DESTINO_AL_VOLVER = '/administrador/administrador-usuarios';

/** Props of `BannerSuplantacion`. */
export interface BannerSuplantacionProps {
  /** The impersonated session. */
  sesion: Sesion;
  /** The administrator behind it. */
  suplantador: Suplantador;
}

/** The banner, shown under the header. */
export function BannerSuplantacion({ sesion, suplantador }: BannerSuplantacionProps) {
  const [enCurso, setEnCurso] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const volver = async () => {
    if (enCurso) return;
    setEnCurso(true);
    setError(null);
    const r = await terminarSuplantacion();
    setEnCurso(false);
    if (r.ok) {
      navegar(DESTINO_AL_VOLVER);
      return;
    }
    setError(
      r.status === 0
        ? 'No se ha podido conectar con el portal. Compruebe su conexión e inténtelo de nuevo.'
        : `No se ha podido volver a su sesión de administrador${r.mensaje ? `: ${r.mensaje}` : '.'} Si el problema continúa, cierre la sesión y vuelva a entrar con sus datos.`,
    );
  };

  return (
    <section className="priv-suplantacion" aria-label="Sesión suplantada">
      <p className="priv-suplantacion__texto">
        <span className="priv-suplantacion__icono" aria-hidden="true">
          !
        </span>
        <span>
          Está actuando como{' '}
          <strong>
            {sesion.nombre || sesion.username} ({sesion.username})
          </strong>
          . Administrador: {suplantador.nombre || suplantador.username}.
        </span>
      </p>
      <button type="button" className="priv-suplantacion__volver" onClick={volver} aria-busy={enCurso || undefined} disabled={enCurso}>
        {enCurso ? 'Volviendo…' : 'Volver a mi sesión de administrador'}
      </button>
      {error && (
        <p className="priv-suplantacion__error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
