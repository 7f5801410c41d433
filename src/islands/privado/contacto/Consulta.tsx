/**
 * /contacto/consulta/:id?: without an id, the form of a new query or request; with one, the query:
 * its form while it is a draft, and once sent its thread (the messages of both sides, oldest first),
 * its documents, its deadline if it has one (a data protection request: RGPD art. 12.3) and, while
 * open, the reply box with documents and "Dar por resuelta".
 */
import { useState } from 'react';
import {
  filasConsulta,
  HECHO_SOLICITANTE,
  queHacerConsulta,
  RUTA_CONSULTAS,
  textoConsultaEnviada,
  urlConsulta,
} from '../../../lib/contacto/pantalla.ts';
import { diaDe } from '../../../lib/expedientes/plazos.ts';
import { navegar } from '../../../lib/privado/navegacion.ts';
import { Dato } from '../../comunes/Dato.tsx';
import { ListaAlertas } from '../../comunes/ListaAlertas.tsx';
import type { PropsPantalla } from '../AppPrivada.tsx';
import { Confirmacion } from '../administracion/comun.tsx';
import {
  $avisoContacto,
  Anuncio,
  CabeceraCaso,
  CajaQueHacerContacto,
  CasoDeContacto,
  DocumentosCaso,
  Hilo,
  Volver,
  useAccionesContacto,
  type PropsDetalleContacto,
} from './comun.tsx';
import { CajaMensaje } from '../expedientes/CajaMensaje.tsx';
import { FormConsulta } from './FormularioConsulta.tsx';

const VOLVER = <Volver href={RUTA_CONSULTAS} texto="Volver a sus consultas" />;

/** A new query. */
function Nueva({ titulo }: { titulo: string }) {
  return (
    <div className="priv-pagina med med--ancha ac ct">
      {VOLVER}
      <h1 tabIndex={-1}>{titulo}</h1>
      <p className="med-intro">
        Escriba a su distribuidora. Le contestará aquí mismo y le avisaremos por correo electrónico. Si quiere quejarse de un servicio o de
        una factura, presente mejor una <a href="/contacto/nueva-reclamacion">reclamación</a>: tiene plazos de respuesta fijados por la
        CNMC.
      </p>
      <FormConsulta
        borrador={null}
        alEnviar={(d) => {
          $avisoContacto.set(textoConsultaEnviada(d));
          navegar(urlConsulta(d.id));
        }}
      />
    </div>
  );
}

/** A sent query: where it stands, the thread, the documents and what the user may do. */
function DetalleConsulta(props: PropsDetalleContacto) {
  const { c, refrescar } = props;
  const { anuncio, alertas, setAlertas, actuando, puede, actuar } = useAccionesContacto<'replicar' | 'dar_por_resuelta'>(
    'consulta',
    props,
    HECHO_SOLICITANTE,
  );
  const [preguntar, setPreguntar] = useState(false);
  const hoy = diaDe(Date.now());

  return (
    <>
      <Anuncio anuncio={anuncio} />
      <ListaAlertas alertas={alertas} alCerrar={(a) => setAlertas((l) => l.filter((x) => x.id !== a))} etiqueta="Avisos de la consulta" />
      <CabeceraCaso c={c} hoy={hoy}>
        <Dato t="Asunto">{c.consulta?.asunto ?? '—'}</Dato>
        {filasConsulta(c.consulta).map((f) => (
          <Dato key={f.t} t={f.t}>
            {f.v}
          </Dato>
        ))}
      </CabeceraCaso>
      <CajaQueHacerContacto q={queHacerConsulta(c)} c={c} hoy={hoy} />
      <Hilo c={c} titulo="Mensajes" />
      {puede('replicar') && (
        <CajaMensaje
          caso={c}
          id="co-replica"
          titulo={c.paso === 'respondida' ? 'Responder a la distribuidora' : 'Añadir un mensaje'}
          etiqueta="Su mensaje"
          ayuda="Lo que quiere añadir o preguntar de nuevo."
          boton="Enviar el mensaje"
          falta="Escriba su mensaje."
          clase="otro"
          etiquetaDocumento="Documento"
          enviando={actuando === 'replicar'}
          enviar={(mensaje) => actuar('replicar', { mensaje })}
          refrescar={refrescar}
        />
      )}
      {puede('dar_por_resuelta') && (
        <section className="med-panel ac-accion" aria-labelledby="co-resuelta-titulo">
          <h2 id="co-resuelta-titulo">¿Ya está resuelta?</h2>
          <p>Si ya tiene lo que necesitaba, dé la consulta por resuelta: quedará cerrada y la distribuidora no tendrá que responder más.</p>
          <p>
            <button
              type="button"
              className="priv-boton priv-boton--secundario"
              aria-busy={actuando === 'dar_por_resuelta' || undefined}
              onClick={() => setPreguntar(true)}
            >
              Dar por resuelta
            </button>
          </p>
        </section>
      )}
      <DocumentosCaso c={c} refrescar={refrescar} />
      <Confirmacion
        abierta={preguntar}
        titulo={`Dar por resuelta la consulta ${c.referencia}`}
        textoConfirmar="Dar por resuelta"
        alConfirmar={() => {
          setPreguntar(false);
          void actuar('dar_por_resuelta', {});
        }}
        alCancelar={() => setPreguntar(false)}
      >
        <p>La consulta quedará cerrada. Si más adelante necesita algo, envíe una nueva.</p>
      </Confirmacion>
    </>
  );
}

/** The query screen. */
export default function Consulta({ params, ruta }: PropsPantalla) {
  const id = params['id'];
  return id ? (
    <CasoDeContacto
      procedimiento="consulta"
      id={id}
      titulo={ruta.titulo}
      volver={VOLVER}
      que="la consulta"
      lista={RUTA_CONSULTAS}
      textoEnviado={textoConsultaEnviada}
      Formulario={FormConsulta}
      Detalle={DetalleConsulta}
    />
  ) : (
    <Nueva titulo={ruta.titulo} />
  );
}
