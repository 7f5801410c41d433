/**
 * A small iCalendar writer (RFC 5545) for all-day events, enough for a calendar people import or
 * subscribe to: CRLF line ends (§3.1), content lines folded at 75 octets without splitting a UTF-8
 * character (§3.1), TEXT values escaped (§3.3.11: backslash, semicolon, comma and line breaks),
 * VERSION, PRODID, CALSCALE, METHOD:PUBLISH and X-WR-CALNAME on the calendar, and per event UID,
 * DTSTAMP, DTSTART/DTEND as DATE values, SUMMARY, DESCRIPTION and an optional display alarm.
 * Written by hand because it is this small; tests read the output back with ical.js.
 */

/** Line end of every content line (RFC 5545 §3.1). */
export const CRLF = '\r\n';

/** Longest content line, in octets, before it is folded (RFC 5545 §3.1). */
export const MAX_OCTETOS_LINEA = 75;

/** Escapes a TEXT value (RFC 5545 §3.3.11); other control characters, which TEXT does not allow, are dropped. */
export function escaparTexto(texto: string): string {
  return (
    texto
      .replace(/\\/g, '\\\\')
      .replace(/;/g, '\\;')
      .replace(/,/g, '\\,')
      .replace(/\r\n|\r|\n/g, '\\n')
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '')
  );
}

const codificador = new TextEncoder();

/** Octets of a character in UTF-8. */
function octetos(caracter: string): number {
  return codificador.encode(caracter).length;
}

/**
 * Folds one content line: no physical line longer than 75 octets, each continuation starting with a
 * single space (which counts in its line's 75), never splitting a character. Answers the folded line
 * without the final CRLF.
 */
export function plegarLinea(linea: string): string {
  if (codificador.encode(linea).length <= MAX_OCTETOS_LINEA) return linea;
  const partes: string[] = [];
  let actual = '';
  let usados = 0;
  for (const c of linea) {
    const n = octetos(c);
    if (usados + n > MAX_OCTETOS_LINEA) {
      partes.push(actual);
      actual = ' ';
      usados = 1;
    }
    actual += c;
    usados += n;
  }
  partes.push(actual);
  return partes.join(CRLF);
}

/** A DATE value (`YYYYMMDD`) from a civil date `YYYY-MM-DD`. */
export function valorFecha(fecha: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(fecha)) throw new RangeError(`Fecha no válida: ${fecha}`);
  return fecha.replaceAll('-', '');
}

/** A UTC DATE-TIME value (`YYYYMMDDTHHMMSSZ`). */
export function valorFechaHoraUtc(instante: Date): string {
  return instante
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '');
}

/** The civil date after `fecha` (an all-day event's DTEND is exclusive). */
function diaSiguiente(fecha: string): string {
  const d = new Date(`${fecha}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** One all-day event. */
export interface EventoDia {
  /** Globally unique and stable: the same event keeps its UID when the calendar is generated again. */
  uid: string;
  /** The civil day, `YYYY-MM-DD`. */
  fecha: string;
  /** One line of text. */
  resumen: string;
  /** Free text; line breaks allowed. */
  descripcion: string;
  /** A display alarm `horasAntes` hours before the day starts (local midnight), with its text. */
  alarma?: { horasAntes: number; texto: string } | undefined;
  /** Free-busy: all-day informative events do not block time. */
  transparente?: boolean;
}

/** A calendar. */
export interface Calendario {
  /** Product identifier (`-//Company//Product//ES`). */
  prodId: string;
  /** Name calendar programs show (X-WR-CALNAME). */
  nombre: string;
  /** Optional description (X-WR-CALDESC). */
  descripcion?: string | undefined;
  /** When this file was generated: every event's DTSTAMP. */
  generado: Date;
  eventos: readonly EventoDia[];
}

/** A property line: `NOMBRE[;PARAMS]:valor`, folded. */
function propiedad(nombre: string, valor: string): string {
  return plegarLinea(`${nombre}:${valor}`);
}

/** The whole iCalendar object as text, CRLF after every line (the last one included). */
export function escribirCalendario(c: Calendario): string {
  const lineas: string[] = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    propiedad('PRODID', c.prodId),
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    propiedad('X-WR-CALNAME', escaparTexto(c.nombre)),
  ];
  if (c.descripcion) lineas.push(propiedad('X-WR-CALDESC', escaparTexto(c.descripcion)));
  const sello = valorFechaHoraUtc(c.generado);
  for (const e of c.eventos) {
    lineas.push(
      'BEGIN:VEVENT',
      propiedad('UID', e.uid),
      `DTSTAMP:${sello}`,
      `DTSTART;VALUE=DATE:${valorFecha(e.fecha)}`,
      `DTEND;VALUE=DATE:${valorFecha(diaSiguiente(e.fecha))}`,
      propiedad('SUMMARY', escaparTexto(e.resumen)),
      propiedad('DESCRIPTION', escaparTexto(e.descripcion)),
    );
    if (e.transparente !== false) lineas.push('TRANSP:TRANSPARENT');
    if (e.alarma) {
      lineas.push(
        'BEGIN:VALARM',
        'ACTION:DISPLAY',
        `TRIGGER:-PT${e.alarma.horasAntes}H`,
        propiedad('DESCRIPTION', escaparTexto(e.alarma.texto)),
        'END:VALARM',
      );
    }
    lineas.push('END:VEVENT');
  }
  lineas.push('END:VCALENDAR');
  return lineas.join(CRLF) + CRLF;
}
