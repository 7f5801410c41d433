/**
 * /contacto/reclamaciones: the account's claims to its distributors, newest first (reference, type
 * and subtype, distributor, state, whose turn, deadline with the overdue flag, result), as a table on
 * wide screens and cards on phones; and the way to file a new one.
 */
import { RUTA_NUEVA_RECLAMACION } from '../../../lib/contacto/pantalla.ts';
import { diaDe } from '../../../lib/expedientes/plazos.ts';
import type { PropsPantalla } from '../AppPrivada.tsx';
import { Vacio } from '../medidas/comun.tsx';
import { ListaPropia } from './ListaPropia.tsx';

/** The claim list screen. */
export default function Reclamaciones({ ruta }: PropsPantalla) {
  return (
    <ListaPropia
      titulo={ruta.titulo}
      procedimiento="reclamacion"
      nueva={{ href: RUTA_NUEVA_RECLAMACION, texto: 'Nueva reclamación' }}
      hoy={diaDe(Date.now())}
      intro={
        <>
          Presente una reclamación a su distribuidora por la calidad del suministro, una interrupción, su contador, una factura de acceso,
          una conexión o la atención recibida. La distribuidora tiene 5 días hábiles para aceptarla o rechazarla y 15 días hábiles más para
          resolverla (formato R1 de la CNMC). Le avisaremos por correo electrónico de cada paso.
        </>
      }
      vacio={
        <Vacio titulo="Todavía no ha presentado ninguna reclamación" nivel="h3">
          <p>
            Una reclamación sirve para que la distribuidora revise algo que no ha funcionado como debía: un corte de luz, un daño por una
            subida de tensión, una lectura o un concepto facturado, una obra o la atención recibida. Se tramita con los plazos que fija la
            CNMC y termina con una respuesta escrita que podrá descargar.
          </p>
          <p>
            Si solo quiere preguntar algo, envíe mejor una <a href="/contacto/consultas-y-peticiones">consulta</a>. Pulse «Nueva
            reclamación» para presentar la primera.
          </p>
        </Vacio>
      }
    />
  );
}
