/**
 * How the interface writes civil dates (es-ES): "lunes, 3 de noviembre de 2025", "noviembre de 2025",
 * ranges in words. Shared by the screens, the PDF certificate and the mails. Civil dates
 * (`YYYY-MM-DD`) are formatted at UTC noon, so the viewer's own time zone can never move them to
 * another day.
 */

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
