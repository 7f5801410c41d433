/**
 * /comercializadora/solicitud-atr/nueva: the form of a new ATR request. The portal writes the CNMC's
 * step 01 XML from it, the same file the company's own system would drop by SFTP, and leaves it in
 * the distributor's entrada folder; the list then shows the request once the distributor's reader
 * has answered it, within seconds.
 */
import { useStore } from '@nanostores/react';
import { useMemo } from 'react';
import { carpetaEntrada, carpetaSalida, RUTA_SOLICITUDES_ATR } from '../../../lib/atr/pantalla.ts';
import { distribuidorasConArea } from '../../../lib/permisos.ts';
import { navegar } from '../../../lib/privado/navegacion.ts';
import { $permisos, $session } from '../../../lib/sesion/index.ts';
import type { PropsPantalla } from '../AppPrivada.tsx';
import { $enviadaAtr, urlListaRecordada } from './comun.tsx';
import { FormularioSolicitudAtr } from './FormularioAtr.tsx';

/** The new request screen. */
export default function NuevaSolicitudAtr({ ruta }: PropsPantalla) {
  const permisos = useStore($permisos);
  // A request is the company's own act: the API refuses it from an impersonated session.
  const suplantado = Boolean(useStore($session)?.suplantadoPor);
  const propias = useMemo(() => distribuidorasConArea(permisos, 'comercializadora'), [permisos]);
  const lista = urlListaRecordada();
  const d = propias[0] ?? 'epd';
  return (
    <section className="admin atr">
      <p className="atr-volver">
        <a href={lista}>
          <span aria-hidden="true">← </span>Volver a las solicitudes ATR
        </a>
      </p>
      <h1 tabIndex={-1}>{ruta.titulo}</h1>
      <p className="admin__intro">
        Con estos datos el portal escribe el mensaje XML del paso 01 con los formatos de la CNMC, el mismo que su sistema dejaría por SFTP,
        y lo comprueba como lo hará la distribuidora. Si lo rechazaría, le decimos por qué y no se envía; si no, lo deja en su carpeta de
        entrada (<code className="atr-ruta">{carpetaEntrada(d)}</code>) y la distribuidora lo contesta en unos segundos en la de salida (
        <code className="atr-ruta">{carpetaSalida(d)}</code>).
      </p>
      {suplantado ? (
        <p className="priv-nota priv-nota--bloqueo">Mientras actúa como otro usuario no se pueden enviar solicitudes ATR.</p>
      ) : (
        <FormularioSolicitudAtr
          distribuidoras={propias}
          volver={lista}
          alEnviar={(e) => {
            $enviadaAtr.set(e);
            navegar(RUTA_SOLICITUDES_ATR);
          }}
        />
      )}
    </section>
  );
}
