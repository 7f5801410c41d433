/**
 * How the consumer screens write numbers and dates (issue 6): es-ES everywhere, energy in kWh from
 * the API's Wh, dates in words ("lunes, 3 de noviembre de 2025"). Civil dates (`YYYY-MM-DD`) are
 * formatted at UTC noon, so the viewer's own time zone can never move them to another day.
 */
import { etiquetaIntervalo, ZONA_MADRID, type MinutosIntervalo, type ZonaHoraria } from '../medidas/horas.ts';

import { cuota, numero, numeroHasta } from '../formato/numeros.ts';

/** Numbers are written by the interface's one number module (src/lib/formato/numeros.ts). */
export { cuota, numero };

/** Decimals an axis step needs to be written exactly (0.25 → 2, 5 → 0), at most 4. */
export function decimalesDe(paso: number): number {
  let d = 0;
  while (d < 4 && Math.abs(Math.round(paso * 10 ** d) - paso * 10 ** d) > 1e-7 * 10 ** d) d++;
  return d;
}

/** Energy in kWh from Wh, three decimals as the consumer files give it ("0,187"). */
export function kwh(wh: number, decimales = 3): string {
  return numero(wh / 1000, decimales);
}

/** Energy for totals: three decimals under 100 kWh, one above (a year reads "3.456,7"). */
export function kwhTotal(wh: number): string {
  return numero(wh / 1000, Math.abs(wh) < 100_000 ? 3 : 1);
}

/** Power in kW with up to three decimals ("4,6", "80,888"). */
export function kw(valor: number): string {
  return numeroHasta(valor, 3);
}

const fechaLarga = new Intl.DateTimeFormat('es-ES', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
const fechaMedia = new Intl.DateTimeFormat('es-ES', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
const fechaCorta = new Intl.DateTimeFormat('es-ES', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' });
const mesAnio = new Intl.DateTimeFormat('es-ES', { month: 'long', year: 'numeric', timeZone: 'UTC' });
const mesCorto = new Intl.DateTimeFormat('es-ES', { month: 'short', year: 'numeric', timeZone: 'UTC' });

/** Noon UTC of a civil date: formatted in UTC it is that date whatever the viewer's zone. */
function mediodia(fecha: string): Date {
  return new Date(`${fecha.slice(0, 10)}T12:00:00Z`);
}

/** "lunes, 3 de noviembre de 2025". */
export function fechaEnPalabras(fecha: string): string {
  return fechaLarga.format(mediodia(fecha));
}

/** "3 de noviembre de 2025". */
export function fechaSinDia(fecha: string): string {
  return fechaMedia.format(mediodia(fecha));
}

/** "lun, 3 nov" for table rows and chart labels. */
export function fechaBreve(fecha: string): string {
  return fechaCorta.format(mediodia(fecha));
}

/** "noviembre de 2025" from `YYYY-MM` or a date; capitalised when it starts a sentence or a cell. */
export function nombreMes(mes: string, mayuscula = false): string {
  const texto = mesAnio.format(mediodia(`${mes.slice(0, 7)}-15`));
  return mayuscula ? texto.charAt(0).toUpperCase() + texto.slice(1) : texto;
}

/** "nov 2025" for a chart axis. */
export function mesBreve(mes: string): string {
  return mesCorto.format(mediodia(`${mes.slice(0, 7)}-15`));
}

/** A range of civil dates in words: one day, or "del … al …". */
export function rangoEnPalabras(desde: string, hasta: string): string {
  if (desde === hasta) return fechaEnPalabras(desde);
  const fin = fechaSinDia(hasta);
  if (desde.slice(0, 7) === hasta.slice(0, 7)) return `del ${Number(desde.slice(8, 10))} al ${fin}`;
  if (desde.slice(0, 4) === hasta.slice(0, 4)) return `del ${fechaSinDia(desde).replace(/ de \d{4}$/, '')} al ${fin}`;
  return `del ${fechaSinDia(desde)} al ${fin}`;
}

/** The local interval of a measure: "10:00–11:00", the repeated October hour with its season. */
export function franja(inicioMs: number, minutos: MinutosIntervalo, zona: ZonaHoraria = ZONA_MADRID): string {
  return etiquetaIntervalo(inicioMs, minutos, 'larga', zona);
}

/** First letter in upper case. */
export function capitalizar(texto: string): string {
  return texto.charAt(0).toUpperCase() + texto.slice(1);
}

/** "1 hora", "25 horas": Spanish plural of a count. */
export function plural(n: number, singular: string, pluralTexto = `${singular}s`): string {
  return `${numero(n)} ${n === 1 ? singular : pluralTexto}`;
}
