/**
 * /contacto/consultas-y-peticiones: the account's queries and requests to its distributors, newest
 * first (reference, topic and subject, distributor, state, whose turn, deadline with the overdue
 * flag), as a table on wide screens and cards on phones; and the way to send a new one.
 */
import { diaDe } from '../../../lib/expedientes/plazos.ts';
import { RUTA_CONSULTA } from '../../../lib/contacto/pantalla.ts';
import type { PropsPantalla } from '../AppPrivada.tsx';
import { Vacio } from '../medidas/comun.tsx';
import { ListaPropia } from './ListaPropia.tsx';

/** The query list screen. */
export default function Consultas({ ruta }: PropsPantalla) {
  return (
    <ListaPropia
      titulo={ruta.titulo}
      procedimiento="consulta"
      nueva={{ href: RUTA_CONSULTA, texto: 'Nueva consulta' }}
      hoy={diaDe(Date.now())}
      intro={
        <>
          Escriba a su distribuidora para preguntar o pedir lo que necesite sobre su suministro, sus medidas, una conexión o una obra, o
          para ejercer sus derechos de protección de datos. Siga aquí cada respuesta; le avisaremos por correo electrónico cuando le
          respondan.
        </>
      }
      vacio={
        <Vacio titulo="Todavía no ha enviado ninguna consulta" nivel="h3">
          <p>
            Una consulta o petición sirve para preguntar a la distribuidora por su suministro, sus lecturas o una obra, pedirle un documento
            o ejercer sus derechos sobre sus datos personales (acceso, rectificación, supresión…). Si lo que quiere es quejarse de un
            servicio o de una factura, presente una <a href="/contacto/reclamaciones">reclamación</a>.
          </p>
          <p>Pulse «Nueva consulta» para escribir la primera.</p>
        </Vacio>
      }
    />
  );
}
