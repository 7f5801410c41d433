/**
 * A screen whose feature is not built yet ("must not pretend"; decision 006): it says so
 * plainly, says what the service will offer, and leads back to the dashboard. Later issues replace
 * each one with the real screen.
 */
import type { PropsPantalla } from '../AppPrivada.tsx';

/** The text every pending screen starts with. */
export const TEXTO_NO_DISPONIBLE = 'Este servicio todavía no está disponible.';

/** The pending screen of a route. */
export default function NoDisponible({ ruta }: PropsPantalla) {
  return (
    <div className="priv-pagina">
      <h1 tabIndex={-1}>{ruta.titulo}</h1>
      <div className="priv-aviso priv-aviso--info">
        <p>
          <strong>{TEXTO_NO_DISPONIBLE}</strong>
        </p>
        {ruta.ofrecera && <p>{ruta.ofrecera}</p>}
        <p>Estamos preparándolo y aparecerá en esta misma dirección cuando esté listo.</p>
      </div>
      <p>
        <a href="/inicio">Volver a Inicio</a>
      </p>
    </div>
  );
}
