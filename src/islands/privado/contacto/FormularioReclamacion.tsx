/**
 * The claim form (the CNMC's R1 format, docs/sector.md §4.3–4.6): the distributor, who claims
 * (table 83), the type (table 81) and the subtype offered to that claimant (table 82), then only the
 * fields that subtype requires, each asked by its kind (a holder's own supply points, dates and
 * times, amounts, codes of their table) and checked in the browser with the server's own check
 * (`errorCampo` through `faltanReclamacion`) as each field is left and on sending; the description
 * and the documents. A link may prefill it (the claim about an interruption). Sending creates the
 * draft, uploads each document with its progress and files it; a refusal shows each message beside
 * its field and keeps everything typed.
 */
import { useStore } from '@nanostores/react';
import { Fragment, useEffect, useState, type FocusEvent, type FormEvent } from 'react';
import {
  AYUDA_LECTURAS,
  camposVisibles,
  CLASES_RECLAMACION,
  conRolYTipo,
  conTitularDeCuenta,
  datosDeReclamacion,
  distribuidoraPorDefecto,
  distribuidorasContacto,
  erroresReclamacion,
  formularioDesdeEnlace,
  formularioReclamacion,
  idControl,
  MAX_MENSAJE,
  OPCIONES_ROL,
  OPCIONES_TIPO,
  opcionesSubtipo,
  prefijoCupsDe,
  suministrosEn,
  textoSuministro,
  unirErrores,
  type CampoVisible,
  type FormularioReclamacion,
} from '../../../lib/contacto/pantalla.ts';
import type { CasoContactoDetalle } from '../../../lib/contacto/respuestas.ts';
import { CAMPOS_RECLAMACION, type CampoReclamacion, type RolReclamante, type TipoReclamacion } from '../../../lib/contacto/tablas-r1.ts';
import { $permisos } from '../../../lib/sesion/index.ts';
import { ListaAlertas } from '../../comunes/ListaAlertas.tsx';
import { ResumenErrores } from '../../comunes/formulario/ResumenErrores.tsx';
import { equivalencia } from '../../../lib/formato/leer-numero.ts';
import { AreaTexto, Entrada, Opciones, Seleccion } from '../expedientes/campos.tsx';
import { ConfirmarBorrado, DocumentosDelFormulario, PieDeEnvio, useCuenta, useEnvioContacto, useSuministrosPropios } from './comun.tsx';

/** Props of `FormReclamacion`. */
export interface FormReclamacionProps {
  /** The draft being finished, or null for a new claim. */
  borrador: CasoContactoDetalle | null;
  /** The query string that prefills a new claim. */
  enlace?: string;
  /** Reloads the draft (after a document was removed). */
  refrescar?: () => Promise<void>;
  /** The claim was filed. */
  alEnviar: (d: CasoContactoDetalle) => void;
}

const id = (c: string) => idControl('reclamacion', c);
const esCampo = (c: string): c is CampoReclamacion => (CAMPOS_RECLAMACION as readonly string[]).includes(c);

/**
 * The option chosen in a select, written out in full on phones (a closed select cuts it); hidden from
 * screen readers, which already read the select's value.
 */
function Elegido({ opciones, valor }: { opciones: readonly { valor: string; texto: string }[]; valor: string }) {
  const texto = opciones.find((o) => o.valor === valor)?.texto;
  return texto ? (
    <p className="ct-elegido" aria-hidden="true">
      {texto}
    </p>
  ) : null;
}

/** The claim form. */
export function FormReclamacion({ borrador, enlace = '', refrescar, alEnviar }: FormReclamacionProps) {
  const permisos = useStore($permisos);
  const opciones = distribuidorasContacto(permisos);
  const [suministros] = useSuministrosPropios();
  const propios = suministros.fase === 'lista' ? suministros.datos : [];
  const cuenta = useCuenta();
  const [f, setF] = useState<FormularioReclamacion>(() =>
    borrador
      ? formularioReclamacion(borrador.distribuidora, borrador.reclamacion ?? {})
      : formularioDesdeEnlace(
          enlace,
          opciones.map((o) => o.codigo),
          opciones.length === 1 ? opciones[0]!.codigo : '',
        ),
  );
  const [tocados, setTocados] = useState<ReadonlySet<string>>(new Set());
  const envio = useEnvioContacto('reclamacion', borrador, alEnviar);
  const { ficheros, setFicheros, intentado, intento, servidor, setServidor, alertas, setAlertas, enviar: enviarCon } = envio;

  // The distributor of the account's supply points, once known, unless one was chosen or given.
  useEffect(() => {
    if (suministros.fase === 'lista' && !f.distribuidora)
      setF((x) => ({ ...x, distribuidora: distribuidoraPorDefecto(opciones, propios) }));
  }, [suministros.fase]);
  // A holder's NIF and name start with the account's.
  useEffect(() => setF((x) => conTitularDeCuenta(x, cuenta)), [cuenta, f.rol]);

  const aqui = suministrosEn(propios, f.distribuidora);
  const locales = erroresReclamacion(
    f,
    aqui.map((s) => s.cups),
  );
  const valor = (control: string) => {
    const c = control.replace(/^rc-/, '');
    return esCampo(c) ? (f.campos[c] ?? '') : c in f ? String(f[c as keyof FormularioReclamacion]) : '';
  };
  // Before the first send, a field's error shows once it is left with something typed in it.
  const vistos = intentado ? locales : locales.filter((e) => tocados.has(e.campo) && valor(e.campo).trim() !== '');
  const errores = unirErrores(vistos, servidor);
  const error = (c: string) => errores.find((e) => e.campo === id(c))?.mensaje;
  const sinServidor = (c: string) => setServidor((s) => s.filter((e) => e.campo !== id(c)));
  const poner = (c: 'mensaje' | 'subtipo') => (v: string) => {
    setF((x) => ({ ...x, [c]: v }));
    sinServidor(c);
  };
  const ponerCampo = (c: CampoReclamacion) => (v: string) => {
    setF((x) => ({ ...x, campos: { ...x.campos, [c]: v } }));
    sinServidor(c);
  };

  const alDejar = (ev: FocusEvent<HTMLFormElement>) => {
    const control = ev.target.id;
    if (control.startsWith('rc-') && !tocados.has(control)) setTocados((t) => new Set(t).add(control));
  };

  const enviar = (ev: FormEvent<HTMLFormElement>) => enviarCon(ev, f.distribuidora, datosDeReclamacion(f), locales);

  // While a holder's supply points load, the CUPS field is already the list it becomes (disabled,
  // saying so): a text box that turned into a list under the user's fingers would lose what was typed.
  const cargandoSuministros = f.rol === '01' && suministros.fase === 'cargando';
  const campos = camposVisibles(f.subtipo, f.rol, cargandoSuministros ? 1 : aqui.length);
  const nombreDistribuidora = opciones.find((o) => o.codigo === f.distribuidora)?.nombre ?? borrador?.distribuidoraNombre ?? '';
  const titularSinSuministros =
    f.rol === '01' && aqui.length === 0 && campos.some((c) => c.campo === 'cups') && suministros.fase === 'lista';

  const esLecturaDePeriodo = (c: CampoReclamacion) => c === 'lectura' || /^lecturaP\d$/.test(c);
  const control = (c: CampoVisible) => {
    const comun = { id: id(c.campo), etiqueta: c.etiqueta, ayuda: c.ayuda, valor: f.campos[c.campo] ?? '', alCambiar: ponerCampo(c.campo) };
    const err = error(c.campo);
    switch (c.control) {
      case 'cups-lista':
        return (
          <Fragment key={c.campo}>
            <Seleccion
              {...comun}
              error={err}
              vacio={cargandoSuministros ? 'Cargando sus suministros…' : 'Elija el suministro'}
              deshabilitado={cargandoSuministros}
              opciones={[
                // A CUPS given by a link that is not one of the holder's stays visible, so its error makes sense.
                ...(comun.valor && !aqui.some((s) => s.cups === comun.valor) ? [{ valor: comun.valor, texto: comun.valor }] : []),
                ...aqui.map((s) => ({ valor: s.cups, texto: textoSuministro(s) })),
              ]}
            />
            <Elegido opciones={comun.valor ? [{ valor: comun.valor, texto: `CUPS ${comun.valor}` }] : []} valor={comun.valor} />
          </Fragment>
        );
      case 'tabla':
        return <Seleccion key={c.campo} {...comun} error={err} vacio="Elija una opción" opciones={c.opciones ?? []} />;
      case 'fechaHora':
        return <Entrada key={c.campo} {...comun} error={err} tipo="datetime-local" corto />;
      case 'fecha':
        return <Entrada key={c.campo} {...comun} error={err} tipo="date" corto />;
      case 'importe':
      case 'numero': {
        // A text input: a number input would read "12.345" as twelve point three; the Spanish reader
        // shows back what it read ("Equivale a 12.345 kWh.").
        const leido = c.regla ? equivalencia(comun.valor, c.regla) : null;
        return (
          <Entrada
            key={c.campo}
            {...comun}
            ayuda={leido ?? c.ayuda}
            error={err}
            inputMode={c.regla?.decimales === 0 ? 'numeric' : 'decimal'}
            max={20}
            corto
          />
        );
      }
      case 'cifras':
        return <Entrada key={c.campo} {...comun} error={err} inputMode="numeric" max={c.max} corto />;
      case 'tel':
        return <Entrada key={c.campo} {...comun} error={err} tipo="tel" inputMode="tel" max={c.max} corto />;
      default:
        return (
          <Entrada
            key={c.campo}
            {...comun}
            error={err}
            max={c.max}
            mayusculas={c.campo === 'cups' || c.campo === 'nifTitular' || c.campo === 'cuentaBancaria'}
            corto={c.campo === 'nifTitular'}
          />
        );
    }
  };

  return (
    <>
      <ResumenErrores
        titulo="Para presentar la reclamación falta lo siguiente:"
        errores={intentado ? errores : servidor}
        intento={intento}
      />
      <ListaAlertas
        alertas={alertas}
        alCerrar={(a) => setAlertas((l) => l.filter((x) => x.id !== a))}
        etiqueta="Avisos de la reclamación"
      />
      <form className="ac-formulario" noValidate onSubmit={(e) => void enviar(e)} onBlur={alDejar} aria-labelledby="rc-form-titulo">
        <fieldset className="med-panel ac-seccion">
          <legend>
            <h2 id="rc-form-titulo" className="ac-seccion__titulo">
              {borrador ? `Borrador ${borrador.referencia}` : 'Qué reclama'}
            </h2>
          </legend>
          <p className="med-nota-linea">Todos los campos son necesarios, salvo los marcados como opcionales.</p>
          {borrador ? (
            <p>
              La reclamación se presentará a <strong>{borrador.distribuidoraNombre}</strong>
              {borrador.distribuidoraNombre.endsWith('.') ? '' : '.'}
            </p>
          ) : (
            <Opciones
              id={id('distribuidora')}
              leyenda="¿A qué distribuidora reclama?"
              ayuda="La que lleva la red eléctrica de su zona; figura en su factura de la luz como empresa distribuidora."
              opciones={opciones.map((d) => ({ valor: d.codigo, texto: d.nombre }))}
              valor={f.distribuidora}
              alCambiar={(v) => {
                setF((x) => {
                  const cups = x.campos.cups ?? '';
                  const otra = cups && !cups.toUpperCase().startsWith(prefijoCupsDe(v));
                  return { ...x, distribuidora: v, campos: otra ? { ...x.campos, cups: '' } : x.campos };
                });
                sinServidor('distribuidora');
              }}
              error={error('distribuidora')}
            />
          )}
          <Seleccion
            id={id('rol')}
            etiqueta="¿En calidad de qué reclama?"
            vacio="Elija una opción"
            opciones={OPCIONES_ROL}
            valor={f.rol}
            alCambiar={(v) => {
              setF((x) => conRolYTipo(x, { rol: v as RolReclamante | '' }));
              sinServidor('rol');
            }}
            error={error('rol')}
          />
          <Elegido opciones={OPCIONES_ROL} valor={f.rol} />
          <Seleccion
            id={id('tipo')}
            etiqueta="Tipo de reclamación"
            vacio="Elija el tipo"
            opciones={OPCIONES_TIPO}
            valor={f.tipo}
            alCambiar={(v) => {
              setF((x) => conRolYTipo(x, { tipo: v as TipoReclamacion | '' }));
              sinServidor('tipo');
            }}
            error={error('tipo')}
          />
          <Seleccion
            id={id('subtipo')}
            etiqueta="Subtipo"
            ayuda={f.tipo ? 'Los subtipos de la CNMC para ese tipo y para quien reclama.' : 'Elija antes el tipo de reclamación.'}
            vacio={f.tipo ? 'Elija el subtipo' : 'Elija antes el tipo'}
            opciones={opcionesSubtipo(f.tipo, f.rol)}
            valor={f.subtipo}
            alCambiar={poner('subtipo')}
            error={error('subtipo')}
          />
          <Elegido opciones={opcionesSubtipo(f.tipo, f.rol)} valor={f.subtipo} />
        </fieldset>

        {campos.length > 0 && (
          <fieldset className="med-panel ac-seccion">
            <legend>
              <h2 className="ac-seccion__titulo">Datos de la reclamación</h2>
            </legend>
            <p className="med-nota-linea">Los datos que la CNMC pide para este subtipo.</p>
            {titularSinSuministros && (
              <div className="priv-aviso priv-aviso--warning">
                <p>
                  No tiene suministros de {nombreDistribuidora || 'esta distribuidora'} en el portal. Como titular solo puede reclamar por
                  uno suyo; si reclama por el de otra persona, elija otra calidad arriba.
                </p>
              </div>
            )}
            {campos.filter((c) => !esLecturaDePeriodo(c.campo)).map(control)}
            {campos.some((c) => esLecturaDePeriodo(c.campo)) && (
              // The readings of periods P1–P6 side by side, one short number each, under one legend.
              <fieldset className="rc-lecturas" aria-describedby="rc-lecturas-ayuda">
                <legend className="rc-lecturas__titulo">Lecturas del contador por periodo</legend>
                <p id="rc-lecturas-ayuda" className="med-nota-linea">
                  {AYUDA_LECTURAS}
                </p>
                <div className="rc-lecturas__rejilla">{campos.filter((c) => esLecturaDePeriodo(c.campo)).map(control)}</div>
              </fieldset>
            )}
          </fieldset>
        )}

        <fieldset className="med-panel ac-seccion">
          <legend>
            <h2 className="ac-seccion__titulo">Descripción y documentos</h2>
          </legend>
          <AreaTexto
            id={id('mensaje')}
            etiqueta="Describa su reclamación"
            ayuda="Qué ocurrió, cuándo y qué pide a la distribuidora."
            valor={f.mensaje}
            alCambiar={poner('mensaje')}
            error={error('mensaje')}
            max={MAX_MENSAJE}
            filas={6}
          />
          <DocumentosDelFormulario
            borrador={borrador}
            refrescar={refrescar}
            id={id('documento')}
            clases={CLASES_RECLAMACION}
            ficheros={ficheros}
            alCambiar={setFicheros}
            ayuda="La factura, fotos o cualquier documento que apoye su reclamación. PDF, JPEG o PNG de hasta 20 MB cada uno."
          />
        </fieldset>

        <PieDeEnvio envio={envio} borrador={borrador !== null} texto="Presentar la reclamación" textoEnviando="Presentando…">
          <p className="med-nota-linea">
            La distribuidora debe aceptar o rechazar la reclamación en 5 días hábiles y, si la acepta, resolverla en 15 días hábiles
            (formato R1 de la CNMC).
          </p>
        </PieDeEnvio>
      </form>
      {borrador && <ConfirmarBorrado envio={envio} referencia={borrador.referencia} />}
    </>
  );
}
