/**
 * /contacto/nueva-reclamacion: the form of a new claim. Its query string prefills it (the link of
 * "Interrupciones en mis suministros": `?distribuidora=eod&cups=ES…&desde=…&hasta=…&subtipo=022`);
 * once filed, the claim's detail opens.
 */
import { useState } from 'react';
import { RUTA_RECLAMACIONES, textoReclamacionPresentada, urlReclamacion } from '../../../lib/contacto/pantalla.ts';
import { $router, navegar } from '../../../lib/privado/navegacion.ts';
import type { PropsPantalla } from '../AppPrivada.tsx';
import { $avisoContacto, Volver } from './comun.tsx';
import { FormReclamacion } from './FormularioReclamacion.tsx';

/** The new claim screen. */
export default function NuevaReclamacion({ ruta }: PropsPantalla) {
  // The address's query as it was when the screen opened: it only prefills the form.
  const [enlace] = useState(() => new URLSearchParams($router.get()?.search ?? {}).toString());
  return (
    <div className="priv-pagina med med--ancha ac ct">
      <Volver href={RUTA_RECLAMACIONES} texto="Volver a sus reclamaciones" />
      <h1 tabIndex={-1}>{ruta.titulo}</h1>
      <p className="med-intro">
        Elija quién reclama y el tipo y subtipo de su reclamación: le pediremos solo los datos que la CNMC exige para ese caso. Si solo
        quiere preguntar algo, envíe mejor una <a href="/contacto/consulta">consulta</a>.
      </p>
      <FormReclamacion
        borrador={null}
        enlace={enlace}
        alEnviar={(d) => {
          $avisoContacto.set(textoReclamacionPresentada(d));
          navegar(urlReclamacion(d.id));
        }}
      />
    </div>
  );
}
