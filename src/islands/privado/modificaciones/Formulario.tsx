/**
 * The request form of the holder's screen: the supply point, what to change (power, tariff
 * or holder data) and its fields. It loads what the rules need for the supply point chosen, checks
 * every rule on submit with the code the API runs (src/lib/modificaciones), shows each message
 * beside its field and all of them in a summary at the top (docs/diseno.md "Forms"), and keeps the values.
 */
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { apiFetch, mensajesDeError } from '../../../lib/api/cliente.ts';
import { fechaSinDia } from '../../../lib/medidas/pantalla/formato.ts';
import { textoPotencias, type Suministro } from '../../../lib/suministros/pantalla.ts';
import {
  ayudaPotencias,
  cuerpoSolicitud,
  erroresPorCampo,
  etiquetaPeriodo,
  formularioVacio,
  ID_CAMPO,
  periodosFormulario,
  tarifaDePotencias,
  tarifasPosibles,
  validarFormulario,
  type FormularioSolicitud,
} from '../../../lib/modificaciones/formulario.ts';
import { urlSolicitud } from '../../../lib/modificaciones/presentacion.ts';
import { cambioPotenciaVincula, fechaPosibleCambio, type CampoSolicitud } from '../../../lib/modificaciones/reglas.ts';
import type { ContextoApi, ModoTitular, SolicitudApi } from '../../../lib/modificaciones/tipos.ts';
import type { TipoSolicitud } from '../../../lib/modificaciones/motivos.ts';
import { alertasDe, ListaAlertas, type Alerta } from '../../comunes/ListaAlertas.tsx';
import { ResumenErrores } from '../../comunes/formulario/ResumenErrores.tsx';
import { Campo, CampoSelect } from '../administracion/comun.tsx';
import { textoOpcion } from '../medidas/comun.tsx';
import { Dato } from '../../comunes/Dato.tsx';
import '../administracion/administracion.css';
import '../../sesion/sesion.css';
import { urlApi } from '../../../lib/api/rutas.ts';

const TIPOS: readonly { valor: TipoSolicitud; texto: string }[] = [
  { valor: 'potencia', texto: 'Potencia contratada' },
  { valor: 'tarifa', texto: 'Tarifa de acceso' },
  { valor: 'titular', texto: 'Datos del titular' },
];

const MODOS: readonly { valor: ModoTitular; texto: string }[] = [
  { valor: 'correccion', texto: 'Corregir el nombre del titular' },
  { valor: 'cambio', texto: 'Cambiar de titular' },
];

/** A group of radio buttons with its legend and error (the error summary links to the first one). */
function Opciones<T extends string>(p: {
  id: string;
  leyenda: string;
  opciones: readonly { valor: T; texto: string }[];
  valor: T | '';
  alCambiar: (v: T) => void;
  error?: string | undefined;
}) {
  return (
    <fieldset className={`mod-grupo${p.error ? ' admin-campo--error' : ''}`} aria-describedby={p.error ? `${p.id}-error` : undefined}>
      <legend>{p.leyenda}</legend>
      {p.error && (
        <p id={`${p.id}-error`} className="admin-campo__error">
          <span className="visually-hidden">Error: </span>
          {p.error}
        </p>
      )}
      <div className="mod-opciones">
        {p.opciones.map((o) => (
          <label key={o.valor} className="mod-opcion">
            <input
              id={`${p.id}-${o.valor}`}
              type="radio"
              name={p.id}
              value={o.valor}
              checked={p.valor === o.valor}
              onChange={() => p.alCambiar(o.valor)}
              aria-invalid={p.error ? true : undefined}
            />
            {o.texto}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** What the supply point's data say before anything is typed: what blocks a request, and the contract now. */
function Contrato({ c }: { c: ContextoApi }) {
  const avisos: ReactNode[] = [];
  if (c.solicitudEnCurso) {
    avisos.push(
      <>
        Este suministro tiene en trámite la solicitud{' '}
        <a href={urlSolicitud(c.solicitudEnCurso.referencia)}>{c.solicitudEnCurso.referencia}</a>. Hasta que se resuelva no puede pedir
        otra.
      </>,
    );
  }
  if (c.cortado) avisos.push('El suministro está cortado: no admite modificaciones hasta que se reponga.');
  if (c.enBaja) avisos.push('El contrato de este suministro ha terminado: ya no admite modificaciones.');
  // A change before the current holder took over does not bind them (tabla 27, reason 65).
  const posible = c.ultimoCambioPotencia && cambioPotenciaVincula(c) ? fechaPosibleCambio(c.ultimoCambioPotencia) : null;
  return (
    <section className="med-panel mod-contrato" aria-labelledby="mod-contrato-titulo">
      <h3 id="mod-contrato-titulo">Su contrato ahora</h3>
      <dl className="med-datos">
        <Dato t="Tarifa de acceso">{c.contrato.tarifa}</Dato>
        <Dato t="Potencia contratada">{textoPotencias(c.contrato.potenciasKw)}</Dato>
        <Dato t="Titular">
          {c.contrato.titular.nombre} ({c.contrato.titular.nif})
        </Dato>
        {c.ultimoCambioPotencia && posible && (
          <Dato t="Último cambio de potencia">
            {fechaSinDia(c.ultimoCambioPotencia)}
            {posible > c.hoy ? `. Podrá volver a cambiarla a partir del ${fechaSinDia(posible)}.` : ''}
          </Dato>
        )}
      </dl>
      {avisos.map((a, i) => (
        <div key={i} className="priv-aviso priv-aviso--warning">
          <p>{a}</p>
        </div>
      ))}
    </section>
  );
}

/** Props of the form. */
export interface PropsFormulario {
  /** The holder's supply points. */
  suministros: Suministro[];
  /** The supply point chosen first. */
  cupsInicial: string;
  /** Closed without sending. */
  alCancelar: () => void;
  /** Sent: the request as the API answered it. */
  alEnviar: (s: SolicitudApi) => void;
}

/** The new request form. */
export function FormularioModificacion({ suministros, cupsInicial, alCancelar, alEnviar }: PropsFormulario) {
  const [f, setF] = useState<FormularioSolicitud>(() => formularioVacio(cupsInicial));
  const [contexto, setContexto] = useState<ContextoApi | null>(null);
  const [errorContexto, setErrorContexto] = useState<string | null>(null);
  const [recarga, setRecarga] = useState(0);
  const [errores, setErrores] = useState<{ campo: CampoSolicitud; mensaje: string }[]>([]);
  const [intento, setIntento] = useState(0);
  const [alertas, setAlertas] = useState<Alerta[]>([]);
  const [enviando, setEnviando] = useState(false);
  const titulo = useRef<HTMLHeadingElement>(null);

  useEffect(() => titulo.current?.focus(), []);

  useEffect(() => {
    if (!f.cups) return;
    const peticion = new AbortController();
    setContexto(null);
    setErrorContexto(null);
    void apiFetch<ContextoApi>(urlApi('/modificaciones/suministros/{cups}', { path: { cups: f.cups } }), { signal: peticion.signal }).then(
      (r) => {
        if (peticion.signal.aborted) return;
        if (r.ok) setContexto(r.datos);
        else setErrorContexto(r.error.mensaje);
      },
    );
    return () => peticion.abort();
  }, [f.cups, recarga]);

  const error = (campo: CampoSolicitud) => errores.find((e) => e.campo === campo)?.mensaje;
  const poner = (cambios: Partial<FormularioSolicitud>, campos: CampoSolicitud[] = []) => {
    setF((x) => ({ ...x, ...cambios }));
    if (campos.length) setErrores((e) => e.filter((x) => !campos.includes(x.campo)));
  };

  const onSubmit = async (ev: FormEvent<HTMLFormElement>) => {
    ev.preventDefault();
    if (enviando) return;
    setAlertas([]);
    const fallos = erroresPorCampo(validarFormulario(f, contexto));
    setErrores(fallos);
    if (fallos.length > 0 || !contexto) {
      setIntento((n) => n + 1);
      return;
    }
    setEnviando(true);
    const r = await apiFetch<SolicitudApi>(urlApi('/modificaciones'), { method: 'POST', json: cuerpoSolicitud(f, contexto.contrato) });
    setEnviando(false);
    if (r.ok) {
      alEnviar(r.datos);
      return;
    }
    // The server saw something this page could not (another request sent meanwhile): say it and refresh the data.
    setAlertas(alertasDe(mensajesDeError(r.error)));
    setRecarga((n) => n + 1);
  };

  const contrato = contexto?.contrato ?? null;
  const periodos = contrato ? periodosFormulario(f, contrato) : 0;
  const tarifaPotencias = contrato ? tarifaDePotencias(f, contrato) : null;
  const posibles = contrato ? tarifasPosibles(contrato) : [];

  return (
    <section className="med-panel" aria-labelledby="mod-form-titulo">
      <h2 id="mod-form-titulo" ref={titulo} tabIndex={-1}>
        Nueva solicitud
      </h2>
      <ResumenErrores
        titulo="Revise estos datos antes de enviar la solicitud:"
        errores={errores.map((e) => ({ campo: ID_CAMPO[e.campo], mensaje: e.mensaje }))}
        intento={intento}
      />
      <ListaAlertas
        alertas={alertas}
        alCerrar={(id) => setAlertas((l) => l.filter((x) => x.id !== id))}
        etiqueta="Respuesta de la distribuidora"
      />
      <form className="mod-formulario" noValidate onSubmit={(e) => void onSubmit(e)} aria-labelledby="mod-form-titulo">
        <CampoSelect
          id={ID_CAMPO.suministro}
          etiqueta="Suministro"
          valor={f.cups}
          opciones={suministros.map((s) => ({ valor: s.cups, texto: textoOpcion(s) }))}
          alCambiar={(cups) =>
            poner({ cups, potencias: formularioVacio(cups).potencias, tarifa: '' }, [
              'suministro',
              'p1',
              'p2',
              'p3',
              'p4',
              'p5',
              'p6',
              'tarifa',
            ])
          }
          error={error('suministro')}
        />
        {errorContexto && (
          <div className="priv-aviso priv-aviso--error" role="alert">
            <p>
              <strong>No hemos podido cargar los datos de este suministro.</strong> {errorContexto}{' '}
              <button type="button" className="priv-boton priv-boton--secundario" onClick={() => setRecarga((n) => n + 1)}>
                Reintentar
              </button>
            </p>
          </div>
        )}
        {!contexto && !errorContexto && (
          <p className="med-cargando" role="status">
            <span className="priv-cargando__giro" aria-hidden="true"></span>
            Cargando los datos del contrato…
          </p>
        )}
        {contexto && <Contrato c={contexto} />}

        <Opciones
          id="mod-tipo"
          leyenda="¿Qué quiere cambiar?"
          opciones={TIPOS}
          valor={f.tipo}
          alCambiar={(tipo) => poner({ tipo }, ['tipo'])}
          error={error('tipo')}
        />

        {f.tipo === 'tarifa' && contrato && (
          <CampoSelect
            id={ID_CAMPO.tarifa}
            etiqueta="Nueva tarifa de acceso"
            ayuda={
              posibles.length
                ? '2.0TD: hasta 15 kW en cada periodo, dos potencias. 3.0TD: más de 15 kW en algún periodo, seis potencias que no bajan de P1 a P6.'
                : `Su suministro es de alta tensión: su tarifa (${contrato.tarifa}) la determina la tensión y no se puede elegir.`
            }
            valor={f.tarifa}
            opciones={[{ valor: '', texto: 'Elija la tarifa' }, ...posibles.map((t) => ({ valor: t, texto: t }))]}
            alCambiar={(tarifa) => poner({ tarifa }, ['tarifa'])}
            error={error('tarifa')}
          />
        )}

        {contrato && tarifaPotencias && periodos > 0 && (
          <fieldset className="mod-grupo">
            <legend>{f.tipo === 'tarifa' ? `Potencias de la tarifa ${tarifaPotencias}` : 'Nueva potencia contratada'}</legend>
            <p className="admin-campo__ayuda" id="mod-potencias-ayuda">
              {ayudaPotencias(contrato)}
            </p>
            <div className="mod-potencias">
              {Array.from({ length: periodos }, (_, i) => {
                const campo = `p${i + 1}` as CampoSolicitud;
                return (
                  <Campo
                    key={campo}
                    id={ID_CAMPO[campo]}
                    etiqueta={etiquetaPeriodo(tarifaPotencias, i)}
                    valor={f.potencias[i] ?? ''}
                    inputMode="decimal"
                    max={10}
                    alCambiar={(v) => poner({ potencias: f.potencias.map((x, j) => (j === i ? v : x)) }, [campo])}
                    error={error(campo)}
                  />
                );
              })}
            </div>
          </fieldset>
        )}

        {f.tipo === 'titular' && (
          <>
            <Opciones
              id="mod-modo"
              leyenda="¿Qué cambia del titular?"
              opciones={MODOS}
              valor={f.modo}
              alCambiar={(modo) => poner({ modo }, ['modo', 'nif', 'nombre'])}
            />
            {f.modo === 'cambio' && (
              <Campo
                id={ID_CAMPO.nif}
                etiqueta="NIF, NIE o CIF del nuevo titular"
                ayuda="El nuevo titular verá este suministro en el portal cuando la distribuidora active el cambio."
                valor={f.nif}
                max={20}
                alCambiar={(nif) => poner({ nif: nif.toUpperCase() }, ['nif'])}
                error={error('nif')}
              />
            )}
            <Campo
              id={ID_CAMPO.nombre}
              etiqueta={
                f.modo === 'cambio' ? 'Nombre y apellidos o razón social del nuevo titular' : 'Nombre y apellidos o razón social corregidos'
              }
              valor={f.nombre}
              max={150}
              autoComplete={f.modo === 'cambio' ? 'off' : 'name'}
              alCambiar={(nombre) => poner({ nombre }, ['nombre'])}
              error={error('nombre')}
            />
          </>
        )}

        <div className="admin-acciones">
          <button type="submit" className="priv-boton" aria-disabled={enviando} aria-busy={enviando || undefined}>
            {enviando ? 'Enviando…' : 'Enviar solicitud'}
          </button>
          <button type="button" className="priv-boton priv-boton--secundario" onClick={alCancelar}>
            Cancelar
          </button>
        </div>
      </form>
    </section>
  );
}
