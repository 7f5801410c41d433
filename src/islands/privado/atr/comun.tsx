/**
 * Pieces of the ATR requests screens: the state badge, the process code with its name, how a
 * company sends its requests, the remembered list filters for the detail's "back" link, the
 * request the form just sent (for the list to announce), a notice that takes the focus, and the
 * loader of a page of the list. The words come from src/lib/atr/pantalla.ts.
 */
import { atom } from 'nanostores';
import { useEffect, useRef, type ReactNode } from 'react';
import { crearApiFetch, type OpcionesApi, type RespuestaApi } from '../../../lib/api/cliente.ts';
import type { SolicitudAtrEnviada } from '../../../lib/atr/formulario.ts';
import type { Pagina } from '../../../lib/administracion/api.ts';
import {
  carpetaEntrada,
  carpetaSalida,
  leerPaginaAtr,
  nombreEstadoAtr,
  nombreProcesoAtr,
  RUTA_FTP,
  RUTA_NUEVA_SOLICITUD_ATR,
  RUTA_SOLICITUDES_ATR,
} from '../../../lib/atr/pantalla.ts';
import { $session, logout } from '../../../lib/sesion/index.ts';
import '../administracion/administracion.css';
import './atr.css';

/** A request's state as a badge: the word says it, the colour only repeats it. */
export function EstadoSolicitud({ estado }: { estado: string }) {
  return <span className={`admin-estado atr-estado atr-estado--${estado}`}>{nombreEstadoAtr(estado)}</span>;
}

/** A process's code, its name on hover and, for a screen reader, read after it. */
export function CodigoProceso({ proceso }: { proceso: string }) {
  const nombre = nombreProcesoAtr(proceso);
  return (
    <>
      <abbr title={nombre} className="atr-proceso">
        {proceso}
      </abbr>
      {nombre !== proceso && <span className="visually-hidden">: {nombre}</span>}
    </>
  );
}

/** How requests are sent and answered, with the folders of the user's first distributor as the example. */
export function ComoSeEnvian({ distribuidora }: { distribuidora: string }) {
  const d = distribuidora || 'epd';
  return (
    <p className="admin__intro">
      Su empresa envía cada solicitud (procesos C1, C2, A3, M1 y B1) como un fichero XML con los formatos de la CNMC, dejándolo en la
      carpeta de entrada de la distribuidora (por ejemplo, <code className="atr-ruta">{carpetaEntrada(d)}</code>) por SFTP o desde la
      pantalla <a href={RUTA_FTP}>FTP</a>, o con el formulario de <a href={RUTA_NUEVA_SOLICITUD_ATR}>nueva solicitud</a>, que escribe el
      mismo fichero. La distribuidora la contesta al momento con el mensaje del paso 02, de aceptación o de rechazo, en la carpeta de salida
      (<code className="atr-ruta">{carpetaSalida(d)}</code>). Aquí tiene cada solicitud con sus mensajes.
    </p>
  );
}

/** The request (or anulación) the form just wrote, for the next screen to announce; read once. */
export const $enviadaAtr = atom<SolicitudAtrEnviada | null>(null);

/** A notice of what just happened: announced politely, and focused when it appears or changes (`n`). */
export function AvisoAtr({ n, tono = 'info', children }: { n: number; tono?: 'info' | 'warning'; children: ReactNode }) {
  const caja = useRef<HTMLDivElement>(null);
  useEffect(() => caja.current?.focus(), [n]);
  return (
    <div ref={caja} tabIndex={-1} className={`priv-aviso priv-aviso--${tono} atr-aviso`} role="status">
      {children}
    </div>
  );
}

/** The list's query string when it was last shown, so the detail's "back" returns to the same filters. */
let consultaRecordada = '';

/** Remembers the list's query string. */
export function recordarConsultaAtr(consulta: string): void {
  consultaRecordada = consulta;
}

/** The list with the filters it had when last shown. */
export function urlListaRecordada(): string {
  return consultaRecordada ? `${RUTA_SOLICITUDES_ATR}?${consultaRecordada}` : RUTA_SOLICITUDES_ATR;
}

/**
 * GETs a page of the list through the portal's client (token, logout on 401/403, Spanish errors),
 * keeping the answer's headers for `X-Total-Count`, which `apiFetch` does not hand back.
 */
export async function cargarPaginaAtr<T>(url: string, init: OpcionesApi = {}): Promise<RespuestaApi<Pagina<T>>> {
  let total: string | null = null;
  const pedir = crearApiFetch({
    fetch: async (entrada, opciones) => {
      const res = await globalThis.fetch(entrada, opciones);
      total = res.headers.get('X-Total-Count');
      return res;
    },
    token: () => $session.get()?.jwtToken ?? null,
    cerrarSesion: () => logout(),
  });
  const r = await pedir<unknown>(url, init);
  if (!r.ok) return r;
  return { ok: true, status: r.status, datos: leerPaginaAtr<T>(r.datos, total) };
}
