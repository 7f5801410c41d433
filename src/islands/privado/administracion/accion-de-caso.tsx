/**
 * What every staff action panel on a case does the same way, whatever the procedure (an access
 * request, a query or claim): send the checked body, take the server's answer as the case shown,
 * show the server's refusal (with a button to reload the case when it had moved on: a 409), and ask
 * first when the action ends the case. The panels keep their own fields and texts.
 */
import { useCallback, useEffect, useId, useRef, useState, type ReactNode, type RefObject } from 'react';
import { apiFetch, mensajesDeError } from '../../../lib/api/cliente.ts';
import { BotonEnviar } from '../../comunes/formulario/BotonEnviar.tsx';
import { Dato } from '../../comunes/Dato.tsx';
import { AvisoPlazoVencido, Confirmacion, type AnuncioPaso } from './comun.tsx';
import type { CargaSolicitud } from '../modificaciones/comun.tsx';
import { FalloDeAccion } from './FalloDeAccion.tsx';

/** The sending of one action: `url` takes the body by POST and answers the case after it. */
export function useEnvioDeAccion<B, D>(url: string, alHecho: (d: D) => void) {
  const [enviando, setEnviando] = useState(false);
  const [errorServidor, setErrorServidor] = useState<string[]>([]);
  // A 409: the case moved on meanwhile (another administrator, the deadline job); it can be reloaded.
  const [desfasada, setDesfasada] = useState(false);
  // The checked body waiting for the confirmation of an action that ends the case.
  const [pendiente, setPendiente] = useState<B | null>(null);

  async function enviar(cuerpo: B) {
    setEnviando(true);
    setErrorServidor([]);
    const r = await apiFetch<D>(url, { method: 'POST', json: cuerpo });
    setEnviando(false);
    if (!r.ok) {
      setErrorServidor(mensajesDeError(r.error));
      setDesfasada(r.status === 409);
      return;
    }
    alHecho(r.datos);
  }

  return {
    enviando,
    errorServidor,
    desfasada,
    pendiente,
    /** A checked body: sent at once, or held for the confirmation when `confirmar`. */
    pedir(cuerpo: B, confirmar: boolean) {
      setErrorServidor([]);
      if (confirmar) setPendiente(cuerpo);
      else void enviar(cuerpo);
    },
    cancelar: () => setPendiente(null),
    confirmar() {
      const cuerpo = pendiente;
      setPendiente(null);
      if (cuerpo !== null) void enviar(cuerpo);
    },
    limpiar: () => setErrorServidor([]),
  };
}

/** The state `useEnvioDeAccion` gives. */
export type EnvioDeAccion<B> = ReturnType<typeof useEnvioDeAccion<B, unknown>>;

/** Props of `PieDeAccion`. */
interface PieDeAccionProps {
  envio: Pick<EnvioDeAccion<unknown>, 'enviando' | 'errorServidor' | 'desfasada'>;
  /** «No se ha podido …:». */
  encabezado: string;
  /** The reload button's text after a 409: «Ver la solicitud actualizada». */
  textoActualizar: string;
  alActualizar: () => void;
  boton: string;
  peligrosa: boolean;
}

/** The end of an action's form: the server's refusal and the send button. */
export function PieDeAccion({ envio, encabezado, textoActualizar, alActualizar, boton, peligrosa }: PieDeAccionProps) {
  return (
    <>
      <FalloDeAccion
        encabezado={encabezado}
        mensajes={envio.errorServidor}
        actualizar={envio.desfasada ? { texto: textoActualizar, alPulsar: alActualizar } : null}
      />
      <div className="admin-acciones">
        <BotonEnviar
          texto={boton}
          textoEnviando="Enviando…"
          enviando={envio.enviando}
          clase={`admin-boton${peligrosa ? ' admin-boton--peligro' : ''}`}
        />
      </div>
    </>
  );
}

/** Props of `ConfirmarAccion`. */
interface ConfirmarAccionProps<B> {
  envio: Pick<EnvioDeAccion<B>, 'pendiente' | 'cancelar' | 'confirmar'>;
  textos: { titulo: string; boton: string; cuerpo: string };
  peligrosa: boolean;
}

/** The confirmation an action that ends the case waits for. */
export function ConfirmarAccion<B>({ envio, textos, peligrosa }: ConfirmarAccionProps<B>) {
  return (
    <Confirmacion
      abierta={envio.pendiente !== null}
      titulo={textos.titulo}
      textoConfirmar={textos.boton}
      peligrosa={peligrosa}
      alCancelar={envio.cancelar}
      alConfirmar={envio.confirmar}
    >
      <p>{textos.cuerpo}</p>
    </Confirmacion>
  );
}

/**
 * What a staff screen of one case keeps: the case loading (404, and 400 for an id of the wrong shape,
 * read as «does not exist»), the notice of the last step, the header that takes the focus after one,
 * and three ways to read the case again: in place (`refrescar`), after a refusal because the case had
 * moved on (`alActualizar`, said with `actualizado`), and after the staff's own step (`alHacer`, said
 * with `hecho`).
 */
export function useCasoDelPersonal<D, A>(url: string, textos: { actualizado: (d: D) => AnuncioPaso; hecho: (accion: A, d: D) => string }) {
  const [carga, setCarga] = useState<CargaSolicitud<D>>({ fase: 'cargando' });
  const [intento, setIntento] = useState(0);
  const [anuncio, setAnuncio] = useState<AnuncioPaso | null>(null);
  const cabecera = useRef<HTMLHeadingElement>(null);
  const id = useId();
  const { actualizado, hecho } = textos;

  useEffect(() => {
    const peticion = new AbortController();
    setCarga({ fase: 'cargando' });
    setAnuncio(null);
    void apiFetch<D>(url, { signal: peticion.signal }).then((r) => {
      if (peticion.signal.aborted) return;
      if (r.ok) setCarga({ fase: 'lista', datos: r.datos });
      else setCarga({ fase: r.status === 404 || r.status === 400 ? 'no-existe' : 'error', mensaje: r.error.mensaje });
    });
    return () => peticion.abort();
  }, [url, intento]);

  const refrescar = useCallback(async () => {
    const r = await apiFetch<D>(url);
    if (r.ok) setCarga({ fase: 'lista', datos: r.datos });
    return r.ok;
  }, [url]);

  const alActualizar = useCallback(() => {
    void apiFetch<D>(url).then((r) => {
      if (!r.ok) return;
      setCarga({ fase: 'lista', datos: r.datos });
      setAnuncio(actualizado(r.datos));
      requestAnimationFrame(() => cabecera.current?.focus());
    });
  }, [url]);

  const alHacer = useCallback((accion: A, d: D) => {
    setCarga({ fase: 'lista', datos: d });
    setAnuncio({ prefijo: 'Hecho:', texto: hecho(accion, d) });
    // The panel used may be gone: the case's header, with its new step, takes the focus.
    requestAnimationFrame(() => cabecera.current?.focus());
  }, []);

  return { carga, reintentar: () => setIntento((n) => n + 1), anuncio, cabecera, id, refrescar, alActualizar, alHacer };
}

/**
 * The head of a staff screen of one case: its name and reference (the heading that takes the focus
 * after a step), its step and whose turn it is, who filed it and where, the current step's deadline,
 * the procedure's own rows (`datos`) and what goes under them (`children`), and the warning of a
 * deadline passed.
 */
export function CabeceraCasoPersonal(p: {
  id: string;
  cabecera: RefObject<HTMLHeadingElement | null>;
  titulo: ReactNode;
  pasoNombre: string;
  cerrado: boolean;
  turno: 'solicitante' | 'distribuidora' | null;
  frase: string;
  solicitante: string;
  distribuidoraNombre: string;
  presentada: { t: string; v: string };
  plazo: { fecha: string; vencido: boolean; resto: string | null } | null;
  /** «Vencida», «Vencido»: the deadline's label agrees with the case's name. */
  vencido: string;
  reglaPlazo: string | null;
  datos?: ReactNode;
  children?: ReactNode;
}) {
  const resto = p.plazo?.resto;
  return (
    <section className="admin-seccion adm-acc-cabecera" aria-labelledby={`${p.id}-cabecera`}>
      <h2 id={`${p.id}-cabecera`} ref={p.cabecera} tabIndex={-1}>
        {p.titulo}
      </h2>
      <p>
        <span className={`adm-acc-paso${p.cerrado ? ' adm-acc-paso--cerrado' : ''}`}>
          <span className="visually-hidden">Paso: </span>
          {p.pasoNombre}
        </span>{' '}
        {p.frase}
      </p>
      <dl className="admin-datos">
        <Dato t="Solicitante">{p.solicitante || '—'}</Dato>
        <Dato t="Distribuidora">{p.distribuidoraNombre}</Dato>
        <Dato t={p.presentada.t}>{p.presentada.v}</Dato>
        <Dato t="Plazo del paso actual">
          {p.plazo ? (
            <>
              Hasta el {p.plazo.fecha}
              {p.plazo.vencido ? (
                <>
                  {' '}
                  <span className="admin-estado adm-acc-vencida">{p.vencido}</span>
                </>
              ) : (
                resto && ` (${resto.charAt(0).toLowerCase()}${resto.slice(1)})`
              )}
            </>
          ) : (
            'Sin plazo'
          )}
        </Dato>
        {p.datos}
      </dl>
      {p.reglaPlazo && <p className="admin-nota">{p.reglaPlazo}</p>}
      {p.children}
      {p.plazo?.vencido && <AvisoPlazoVencido turno={p.turno} />}
    </section>
  );
}
