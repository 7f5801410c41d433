/**
 * A modification request in words, for the screens and the mails: its reference
 * (MC-000123), its kind, and what changes, before and after.
 */
import { kw } from '../medidas/pantalla/formato.ts';
import type { TipoSolicitud } from './motivos.ts';
import type { ContratoApi, SolicitadoApi } from './tipos.ts';

/** The holder's screen of requests; a request's detail hangs below it by reference. */
export const RUTA_SOLICITUDES = '/modificacionesContractuales/modificaciones-contractuales';

/** The administration list of requests; a request's detail hangs below it by reference. */
export const RUTA_SOLICITUDES_ADMIN = '/administrador/modificaciones';

/** The holder's detail of a request. */
export function urlSolicitud(ref: string): string {
  return `${RUTA_SOLICITUDES}/${ref}`;
}

/** The administrator's detail of a request. */
export function urlSolicitudAdmin(ref: string): string {
  return `${RUTA_SOLICITUDES_ADMIN}/${ref}`;
}

/** The public reference of request number `n`: MC and six digits. */
export function referencia(n: number): string {
  return `MC-${String(n).padStart(6, '0')}`;
}

/** The number a reference or number names ("MC-000123", "mc123", "123"); null otherwise. */
export function leerReferencia(texto: string): number | null {
  const m = /^(?:MC-?)?0*(\d{1,9})$/i.exec(texto.trim());
  if (!m) return null;
  const n = Number(m[1]);
  return n >= 1 ? n : null;
}

/** The kinds of request in words. */
export const TEXTO_TIPO: Readonly<Record<TipoSolicitud, string>> = {
  potencia: 'Cambio de potencia',
  tarifa: 'Cambio de tarifa',
  titular: 'Datos del titular',
};

/** The kind of a request in words, telling a correction of the holder's name from a new holder. */
export function textoTipo(s: SolicitadoApi): string {
  if (s.tipo === 'titular') return s.modo === 'cambio' ? 'Cambio de titular' : 'Corrección de datos del titular';
  return TEXTO_TIPO[s.tipo];
}

/** One row of the before/after table. */
export interface FilaCambio {
  etiqueta: string;
  antes: string;
  despues: string;
  /** Whether this row changes. */
  cambia: boolean;
}

const potencia = (v: number | undefined) => (v === undefined ? '—' : `${kw(v)} kW`);

/** The powers, period by period, before and after. */
function filasPotencias(antes: readonly number[], despues: readonly number[]): FilaCambio[] {
  const n = Math.max(antes.length, despues.length);
  return Array.from({ length: n }, (_, i) => ({
    etiqueta: `Potencia P${i + 1}`,
    antes: potencia(antes[i]),
    despues: potencia(despues[i]),
    cambia: antes[i] !== despues[i],
  }));
}

/** What a request changes, row by row. */
export function filasCambio(anterior: ContratoApi, s: SolicitadoApi): FilaCambio[] {
  switch (s.tipo) {
    case 'potencia':
      return filasPotencias(anterior.potenciasKw, s.potenciasKw);
    case 'tarifa':
      return [
        { etiqueta: 'Tarifa de acceso', antes: anterior.tarifa, despues: s.tarifa, cambia: anterior.tarifa !== s.tarifa },
        ...filasPotencias(anterior.potenciasKw, s.potenciasKw),
      ];
    case 'titular':
      return [
        {
          etiqueta: 'NIF del titular',
          antes: anterior.titular.nif,
          despues: s.titular.nif,
          cambia: anterior.titular.nif !== s.titular.nif,
        },
        {
          etiqueta: 'Titular',
          antes: anterior.titular.nombre,
          despues: s.titular.nombre,
          cambia: anterior.titular.nombre !== s.titular.nombre,
        },
      ];
  }
}

/** The powers in one phrase: "4,6 kW" when every period has it, else "P1 4,6 · P2 3,45 kW". */
function potenciasEnLinea(lista: readonly number[]): string {
  if (lista.length > 0 && lista.every((p) => p === lista[0])) return `${kw(lista[0]!)} kW`;
  return `${lista.map((p, i) => `P${i + 1} ${kw(p)}`).join(' · ')} kW`;
}

/** What a request changes, in one line ("Potencia: de 4,6 kW a 5,75 kW"). */
export function resumenCambio(anterior: ContratoApi, s: SolicitadoApi): string {
  switch (s.tipo) {
    case 'potencia':
      return `Potencia: de ${potenciasEnLinea(anterior.potenciasKw)} a ${potenciasEnLinea(s.potenciasKw)}`;
    case 'tarifa':
      return `Tarifa: de ${anterior.tarifa} a ${s.tarifa}, con ${potenciasEnLinea(s.potenciasKw)}`;
    case 'titular':
      return s.modo === 'cambio'
        ? `Nuevo titular: ${s.titular.nombre} (${s.titular.nif})`
        : `Nombre del titular: de «${anterior.titular.nombre}» a «${s.titular.nombre}»`;
  }
}
