/**
 * The dashboard's dates in Spanish, Madrid time (docs/producto.md: the portal's clock is the
 * peninsula's): civil dates are formatted at UTC noon, so no zone can move them to another day.
 */
import type { Fechas } from './resumen.ts';

const DIA = new Intl.DateTimeFormat('es-ES', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' });
const MES = new Intl.DateTimeFormat('es-ES', { month: 'long', year: 'numeric', timeZone: 'UTC' });
const HORA = new Intl.DateTimeFormat('es-ES', { hour: 'numeric', minute: '2-digit', timeZone: 'Europe/Madrid' });
const FECHA_MADRID = new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: 'Europe/Madrid' });

/** "sábado 15 de marzo", "febrero de 2026", "8:00", and an instant's Madrid date. */
export const FECHAS: Fechas = {
  dia: (fecha) => DIA.format(new Date(`${fecha.slice(0, 10)}T12:00:00Z`)).replace(',', ''),
  diaDe: (iso) => FECHA_MADRID.format(new Date(iso)),
  hora: (iso) => HORA.format(new Date(iso)),
  mes: (mes) => MES.format(new Date(`${mes.slice(0, 7)}-15T12:00:00Z`)),
};
