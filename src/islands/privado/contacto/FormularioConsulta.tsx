/**
 * The form of a query or request (docs/decisions/018): the distributor (by default the one of the
 * account's supply points), the topic and, for a data protection request, the right and its
 * one-month deadline (RGPD art. 12.3), optionally one of the account's supply points there, the
 * subject, the message and documents. The browser runs the server's check first; sending creates
 * the draft with the data, uploads each document with its progress and sends it; a refusal shows
 * each message beside its field and keeps everything typed.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useState, type FormEvent } from 'react';
import {
  datosDeConsulta,
  distribuidoraPorDefecto,
  distribuidorasContacto,
  erroresConsulta,
  formularioConsulta,
  idControl,
  MAX_ASUNTO,
  MAX_MENSAJE,
  OPCIONES_DERECHO,
  OPCIONES_TEMA,
  suministrosEn,
  textoSuministro,
  unirErrores,
  type FormularioConsulta,
} from '../../../lib/contacto/pantalla.ts';
import { reglaPlazoConsulta } from '../../../lib/contacto/procedimientos.ts';
import type { CasoContactoDetalle } from '../../../lib/contacto/respuestas.ts';
import { $permisos } from '../../../lib/sesion/index.ts';
import { ListaAlertas } from '../../comunes/ListaAlertas.tsx';
import { ResumenErrores } from '../../comunes/formulario/ResumenErrores.tsx';
import { AreaTexto, Entrada, Opciones, Seleccion } from '../expedientes/campos.tsx';
import { ConfirmarBorrado, DocumentosDelFormulario, PieDeEnvio, useEnvioContacto, useSuministrosPropios } from './comun.tsx';

/** Props of `FormConsulta`. */
export interface FormConsultaProps {
  /** The draft being finished, or null for a new query. */
  borrador: CasoContactoDetalle | null;
  /** Reloads the draft (after a document was removed, or a refusal). */
  refrescar?: () => Promise<void>;
  /** The query was sent. */
  alEnviar: (d: CasoContactoDetalle) => void;
}

const id = (c: string) => idControl('consulta', c);

/** The query form. */
export function FormConsulta({ borrador, refrescar, alEnviar }: FormConsultaProps) {
  const permisos = useStore($permisos);
  const opciones = distribuidorasContacto(permisos);
  const [suministros] = useSuministrosPropios();
  const propios = suministros.fase === 'lista' ? suministros.datos : [];
  const [f, setF] = useState<FormularioConsulta>(() =>
    formularioConsulta(borrador?.distribuidora ?? (opciones.length === 1 ? opciones[0]!.codigo : ''), borrador?.consulta ?? {}),
  );
  const envio = useEnvioContacto('consulta', borrador, alEnviar);
  const { ficheros, setFicheros, intentado, intento, servidor, setServidor, alertas, setAlertas, enviar: enviarCon } = envio;

  // The distributor of the account's supply points, once they are known, unless the user chose one.
  useEffect(() => {
    if (suministros.fase === 'lista' && !f.distribuidora)
      setF((x) => ({ ...x, distribuidora: distribuidoraPorDefecto(opciones, propios) }));
  }, [suministros.fase]);

  const aqui = suministrosEn(propios, f.distribuidora);
  const locales = erroresConsulta(
    f,
    aqui.map((s) => s.cups),
  );
  const errores = intentado ? unirErrores(locales, servidor) : servidor;
  const error = (c: string) => errores.find((e) => e.campo === id(c))?.mensaje;
  const poner = (c: keyof FormularioConsulta) => (v: string) => {
    setF((x) => ({ ...x, [c]: v }));
    setServidor((s) => s.filter((e) => e.campo !== id(c)));
  };

  const enviar = (ev: FormEvent<HTMLFormElement>) => enviarCon(ev, f.distribuidora, datosDeConsulta(f), locales);

  const regla = f.tema === 'proteccion_datos' ? reglaPlazoConsulta('proteccion_datos', false) : null;

  return (
    <>
      <ResumenErrores titulo="Para enviar la consulta falta lo siguiente:" errores={errores} intento={intento} />
      <ListaAlertas alertas={alertas} alCerrar={(a) => setAlertas((l) => l.filter((x) => x.id !== a))} etiqueta="Avisos de la consulta" />
      <form className="ac-formulario" noValidate onSubmit={(e) => void enviar(e)} aria-labelledby="co-form-titulo">
        <fieldset className="med-panel ac-seccion">
          <legend>
            <h2 id="co-form-titulo" className="ac-seccion__titulo">
              {borrador ? `Borrador ${borrador.referencia}` : 'Nueva consulta o petición'}
            </h2>
          </legend>
          <p className="med-nota-linea">Todos los campos son necesarios, salvo los marcados como opcionales.</p>
          {borrador ? (
            <p>
              La consulta se enviará a <strong>{borrador.distribuidoraNombre}</strong>
              {borrador.distribuidoraNombre.endsWith('.') ? '' : '.'}
            </p>
          ) : (
            <Opciones
              id={id('distribuidora')}
              leyenda="¿A qué distribuidora se dirige?"
              ayuda="La que lleva la red eléctrica de su zona; figura en su factura de la luz como empresa distribuidora."
              opciones={opciones.map((d) => ({ valor: d.codigo, texto: d.nombre }))}
              valor={f.distribuidora}
              alCambiar={(v) => {
                poner('distribuidora')(v);
                poner('cups')('');
              }}
              error={error('distribuidora')}
            />
          )}
          <Seleccion
            id={id('tema')}
            etiqueta="Tema"
            vacio="Elija el tema"
            opciones={OPCIONES_TEMA}
            valor={f.tema}
            alCambiar={poner('tema')}
            error={error('tema')}
          />
          {f.tema === 'proteccion_datos' && (
            <>
              <Seleccion
                id={id('derecho')}
                etiqueta="Derecho que quiere ejercer"
                vacio="Elija el derecho"
                opciones={OPCIONES_DERECHO}
                valor={f.derecho}
                alCambiar={poner('derecho')}
                error={error('derecho')}
              />
              <div className="priv-aviso priv-aviso--info">
                <p>
                  <strong>Plazo legal: un mes. </strong>
                  {regla}
                </p>
              </div>
            </>
          )}
          {aqui.length > 0 && (
            <Seleccion
              id={id('cups')}
              etiqueta="Suministro al que se refiere (opcional)"
              vacio="Ninguno en particular"
              opciones={aqui.map((s) => ({ valor: s.cups, texto: textoSuministro(s) }))}
              valor={f.cups}
              alCambiar={poner('cups')}
              error={error('cups')}
            />
          )}
          <Entrada
            id={id('asunto')}
            etiqueta="Asunto"
            valor={f.asunto}
            alCambiar={poner('asunto')}
            error={error('asunto')}
            max={MAX_ASUNTO}
          />
          <AreaTexto
            id={id('mensaje')}
            etiqueta="Su consulta o petición"
            ayuda="Cuéntenos qué necesita con el detalle que pueda. No escriba contraseñas ni datos bancarios."
            valor={f.mensaje}
            alCambiar={poner('mensaje')}
            error={error('mensaje')}
            max={MAX_MENSAJE}
            filas={6}
          />
        </fieldset>
        <fieldset className="med-panel ac-seccion">
          <legend>
            <h2 className="ac-seccion__titulo">Documentos (opcional)</h2>
          </legend>
          <DocumentosDelFormulario
            borrador={borrador}
            refrescar={refrescar}
            id={id('documento')}
            clases={['otro']}
            ficheros={ficheros}
            alCambiar={setFicheros}
            ayuda="Si le ayuda a explicarse: una foto, una carta, una factura. PDF, JPEG o PNG de hasta 20 MB cada uno."
          />
        </fieldset>
        <PieDeEnvio envio={envio} borrador={borrador !== null} texto="Enviar la consulta" textoEnviando="Enviando…" />
      </form>
      {borrador && <ConfirmarBorrado envio={envio} referencia={borrador.referencia} />}
    </>
  );
}
