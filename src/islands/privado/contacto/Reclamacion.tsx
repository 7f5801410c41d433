/**
 * /contacto/detalleReclamacion/:id: one claim from the claimant's side. A draft shows the form to
 * finish it. A filed claim shows where it stands (step, whose turn, deadline and its rule, overdue),
 * what the claimant must do now and by when, the box to send the information asked (with
 * documents), the claim's data (type, subtype, role and each field by its label, the description),
 * the timeline of both sides, the documents of both sides, the withdrawal ("Anular la reclamación",
 * confirmed first) and, once closed, the result (table 80) and the written answer with its PDF.
 */
import { useState } from 'react';
import {
  apiRespuestaPdf,
  filasReclamacion,
  HECHO_SOLICITANTE,
  MAX_MENSAJE,
  queHacerReclamacion,
  RUTA_RECLAMACIONES,
  textoReclamacionPresentada,
} from '../../../lib/contacto/pantalla.ts';
import type { CasoContactoDetalle } from '../../../lib/contacto/respuestas.ts';
import { diaDe } from '../../../lib/expedientes/plazos.ts';
import { Dato } from '../../comunes/Dato.tsx';
import { ListaAlertas } from '../../comunes/ListaAlertas.tsx';
import type { PropsPantalla } from '../AppPrivada.tsx';
import { Confirmacion } from '../administracion/comun.tsx';
import { AreaTexto } from '../expedientes/campos.tsx';
import { Descargas } from '../medidas/Descargas.tsx';
import {
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
import { FormReclamacion } from './FormularioReclamacion.tsx';

type AccionPropia = 'enviar_informacion' | 'desistir';

/** The closing answer: the result, the written answer and its PDF. */
function Respuesta({ c }: { c: CasoContactoDetalle }) {
  return (
    <section className="med-panel ct-respuesta" aria-labelledby="rc-respuesta-titulo">
      <h2 id="rc-respuesta-titulo">Respuesta de la distribuidora</h2>
      <dl className="med-datos">
        <Dato t="Resultado">{c.resultado ? `${c.resultado.nombre}` : '—'}</Dato>
      </dl>
      {c.respuesta && (
        <figure className="ac-cita">
          <figcaption>Respuesta escrita:</figcaption>
          <blockquote>
            <p>{c.respuesta}</p>
          </blockquote>
        </figure>
      )}
      {c.respuestaPdf && (
        <Descargas
          ficheros={[{ texto: 'Descargar la respuesta (PDF)', ruta: apiRespuestaPdf(c.id), nombre: `respuesta-${c.referencia}.pdf` }]}
        />
      )}
    </section>
  );
}

/** A filed claim. */
function DetalleReclamacion(props: PropsDetalleContacto) {
  const { c, refrescar } = props;
  const { anuncio, alertas, setAlertas, actuando, puede, actuar } = useAccionesContacto<AccionPropia>(
    'reclamacion',
    props,
    HECHO_SOLICITANTE,
  );
  const [preguntar, setPreguntar] = useState(false);
  const [motivo, setMotivo] = useState('');
  const hoy = diaDe(Date.now());

  const datos = filasReclamacion(c.reclamacion);
  return (
    <>
      <Anuncio anuncio={anuncio} />
      <ListaAlertas
        alertas={alertas}
        alCerrar={(a) => setAlertas((l) => l.filter((x) => x.id !== a))}
        etiqueta="Avisos de la reclamación"
      />
      <CabeceraCaso c={c} hoy={hoy}>
        <Dato t="Subtipo">{datos.find((f) => f.t === 'Subtipo')?.v ?? '—'}</Dato>
        {c.resultado && <Dato t="Resultado">{c.resultado.nombre}</Dato>}
      </CabeceraCaso>
      <CajaQueHacerContacto q={queHacerReclamacion(c)} c={c} hoy={hoy} />
      {puede('enviar_informacion') && (
        <CajaMensaje
          caso={c}
          id="rc-informacion"
          titulo="Enviar la información"
          etiqueta="Su respuesta"
          ayuda="La información que le pide la distribuidora, o qué documentos adjunta."
          boton="Enviar la información"
          falta="Escriba la información que le piden, o explique lo que adjunta."
          clase="informacion"
          etiquetaDocumento="Documento con la información"
          enviando={actuando === 'enviar_informacion'}
          enviar={(mensaje) => actuar('enviar_informacion', { mensaje })}
          refrescar={refrescar}
        />
      )}
      {c.paso === 'cerrada' && <Respuesta c={c} />}
      <section className="med-panel" aria-labelledby="rc-datos-titulo">
        <h2 id="rc-datos-titulo">Lo que reclamó</h2>
        <dl className="med-datos">
          {datos.map((f) => (
            <Dato key={f.t} t={f.t}>
              {f.v}
            </Dato>
          ))}
        </dl>
        {c.reclamacion?.mensaje && (
          <>
            <h3>Descripción</h3>
            <p className="ac-texto-largo">{c.reclamacion.mensaje}</p>
          </>
        )}
      </section>
      <Hilo c={c} titulo="Historial" />
      <DocumentosCaso c={c} refrescar={refrescar} />
      {puede('desistir') && (
        <section className="med-panel ac-accion" aria-labelledby="rc-anular-titulo">
          <h2 id="rc-anular-titulo">Anular la reclamación</h2>
          <p>
            Si ya no la necesita (por ejemplo, porque se ha resuelto por otra vía), puede anularla. La distribuidora dejará de tramitarla.
          </p>
          <p>
            <button
              type="button"
              className="priv-boton priv-boton--secundario ac-boton-peligro"
              aria-busy={actuando === 'desistir' || undefined}
              onClick={() => setPreguntar(true)}
            >
              Anular la reclamación
            </button>
          </p>
        </section>
      )}
      <Confirmacion
        abierta={preguntar}
        titulo={`Anular la reclamación ${c.referencia}`}
        textoConfirmar="Anular la reclamación"
        peligrosa
        alConfirmar={() => {
          setPreguntar(false);
          const m = motivo.trim().slice(0, MAX_MENSAJE);
          void actuar('desistir', m ? { mensaje: m } : {}).then((ok) => ok && setMotivo(''));
        }}
        alCancelar={() => setPreguntar(false)}
      >
        <p>La distribuidora dejará de tramitar la reclamación. No se puede deshacer.</p>
        <AreaTexto
          id="rc-anular-mensaje"
          etiqueta="Mensaje para la distribuidora (opcional)"
          ayuda="Por ejemplo, por qué la anula."
          valor={motivo}
          alCambiar={setMotivo}
          max={MAX_MENSAJE}
          filas={3}
        />
      </Confirmacion>
    </>
  );
}

/** The claim screen. */
export default function Reclamacion({ params, ruta }: PropsPantalla) {
  return (
    <CasoDeContacto
      procedimiento="reclamacion"
      id={params['id'] ?? ''}
      titulo={ruta.titulo}
      volver={<Volver href={RUTA_RECLAMACIONES} texto="Volver a sus reclamaciones" />}
      que="la reclamación"
      lista={RUTA_RECLAMACIONES}
      textoEnviado={textoReclamacionPresentada}
      Formulario={FormReclamacion}
      Detalle={DetalleReclamacion}
    />
  );
}
