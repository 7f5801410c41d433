/**
 * The iCalendar writer (RFC 5545) and the scheduled readings' calendar: TEXT escaping, folding at
 * 75 octets without splitting an accented letter, CRLF line ends, and the file read back with
 * ical.js, event by event, against the schedule it came from.
 */
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { escaparTexto, escribirCalendario, plegarLinea } from '../../src/lib/lecturas/icalendar.ts';
import { lecturasEntre, type DatosCiclo } from '../../src/lib/lecturas/programa.ts';
import { calendarioLecturas, uidLectura } from '../../src/lib/lecturas/textos.ts';

const octetos = (s: string) => new TextEncoder().encode(s).length;
const estricto = new TextDecoder('utf-8', { fatal: true });

describe('escaparTexto', () => {
  it('escapes backslash, semicolon, comma and line breaks, backslash first', () => {
    expect(escaparTexto('a\\b;c,d\ne\r\nf')).toBe('a\\\\b\\;c\\,d\\ne\\nf');
  });

  it('drops control characters TEXT does not allow and keeps accents', () => {
    expect(escaparTexto('Alcalá\u0007 de Henares\ttab')).toBe('Alcalá de Henares\ttab');
  });
});

describe('plegarLinea', () => {
  it('leaves a line of 75 octets alone', () => {
    const linea = `SUMMARY:${'x'.repeat(67)}`;
    expect(octetos(linea)).toBe(75);
    expect(plegarLinea(linea)).toBe(linea);
  });

  it('folds a long line with accents at 75 octets without splitting a character', () => {
    const linea = `DESCRIPTION:${'á'.repeat(40)} Visita del lector en la calle de la Constitución, número 14, Alcalá de Henares`;
    const plegada = plegarLinea(linea);
    const fisicas = plegada.split('\r\n');
    expect(fisicas.length).toBeGreaterThan(2);
    // "DESCRIPTION:" is 12 octets; 31 «á» (2 octets each) make 74, and a 32nd would make 76.
    expect(fisicas[0]).toBe(`DESCRIPTION:${'á'.repeat(31)}`);
    for (const [i, f] of fisicas.entries()) {
      const bytes = new TextEncoder().encode(f);
      expect(bytes.length).toBeLessThanOrEqual(75);
      expect(() => estricto.decode(bytes)).not.toThrow();
      if (i > 0) expect(f.startsWith(' ') && !f.startsWith('  ')).toBe(true);
    }
    expect(fisicas.map((f, i) => (i === 0 ? f : f.slice(1))).join('')).toBe(linea);
  });

  it('never splits a four-octet character either', () => {
    const linea = `SUMMARY:${'😀'.repeat(30)}`;
    for (const f of plegarLinea(linea).split('\r\n')) expect(() => estricto.decode(new TextEncoder().encode(f))).not.toThrow();
  });
});

describe('escribirCalendario', () => {
  const texto = escribirCalendario({
    prodId: '-//Prueba//ES',
    nombre: 'Lecturas, de prueba; con todo',
    generado: new Date('2026-11-15T10:20:30Z'),
    eventos: [{ uid: 'a@b', fecha: '2026-12-31', resumen: 'Uno', descripcion: 'Línea 1\nLínea 2, con coma' }],
  });

  it('ends every line with CRLF and has no bare line feed', () => {
    expect(texto.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(texto.replaceAll('\r\n', '')).not.toMatch(/[\r\n]/);
  });

  it('has the calendar properties a subscriber needs', () => {
    const lineas = texto.split('\r\n');
    expect(lineas.slice(0, 6)).toEqual([
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//Prueba//ES',
      'CALSCALE:GREGORIAN',
      'METHOD:PUBLISH',
      'X-WR-CALNAME:Lecturas\\, de prueba\\; con todo',
    ]);
    expect(lineas).toContain('DTSTAMP:20261115T102030Z');
    // An all-day event ends the next day (DTEND is exclusive), across the year's end.
    expect(lineas).toContain('DTSTART;VALUE=DATE:20261231');
    expect(lineas).toContain('DTEND;VALUE=DATE:20270101');
  });
});

describe('the scheduled readings calendar read back with ical.js', () => {
  const visita: DatosCiclo = {
    cicloLectura: 7,
    periodicidadFacturacion: 'bimestral',
    telegestionado: false,
    fechaAlta: '2020-01-01',
    fechaBaja: null,
    ultimaLectura: null,
  };
  const remota: DatosCiclo = { ...visita, cicloLectura: 28, periodicidadFacturacion: 'mensual', telegestionado: true };
  const uno = {
    cups: 'ES9901000000000001QY',
    direccion: 'Calle Libreros, 14, 3.º B',
    municipio: 'Alcalá de Henares',
    distribuidoraNombre: 'Electra Peninsular Distribución, S.L.',
    telefonoAtencion: '910 000 011',
  };
  const otro = { ...uno, cups: 'ES9902000000000001KL', direccion: 'Calle Mayor; 3', municipio: 'Mérida' };
  const lecturasUno = lecturasEntre(visita, '2026-11-15', '2027-11-14');
  const lecturasOtro = lecturasEntre(remota, '2026-11-15', '2027-11-14');
  const texto = calendarioLecturas(
    [
      { ...uno, lecturas: lecturasUno },
      { ...otro, lecturas: lecturasOtro },
    ],
    new Date('2026-11-15T10:00:00Z'),
  );
  const calendario = new ICAL.Component(ICAL.parse(texto));
  const eventos = calendario.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));

  it('has one all-day event per reading, on the reading day, ending the next day', () => {
    expect(eventos).toHaveLength(lecturasUno.length + lecturasOtro.length);
    const esperadas = [...lecturasUno.map((l) => ({ cups: uno.cups, l })), ...lecturasOtro.map((l) => ({ cups: otro.cups, l }))];
    for (const { cups, l } of esperadas) {
      const e = eventos.find((x) => x.uid === uidLectura(cups, l));
      expect(e, `${cups} ${l.fecha}`).toBeDefined();
      expect(e!.startDate.isDate).toBe(true);
      expect(e!.startDate.toString()).toBe(l.fecha);
      const fin = new Date(`${l.fecha}T00:00:00Z`);
      fin.setUTCDate(fin.getUTCDate() + 1);
      expect(e!.endDate.toString()).toBe(fin.toISOString().slice(0, 10));
    }
  });

  it('names the calendar and keeps the escaped texts intact', () => {
    expect(calendario.getFirstPropertyValue('x-wr-calname')).toBe('Lecturas de mis contadores');
    expect(calendario.getFirstPropertyValue('method')).toBe('PUBLISH');
    const deOtro = eventos.find((e) => e.uid.includes(otro.cups))!;
    expect(deOtro.summary).toBe('Cierre de lectura del contador · Calle Mayor; 3');
    expect(deOtro.description).toContain('CUPS: ES9902000000000001KL');
    expect(deOtro.description).toContain('Distribuidora: Electra Peninsular Distribución, S.L.');
  });

  it('tells the self-reading window of a moved visit and reminds the day before', () => {
    // 7 November 2026 is a Saturday: the bimonthly visit of December is the first one; November is odd.
    const primera = lecturasUno[0]!;
    expect(primera.fechaCiclo).toBe('2026-12-07');
    const e = eventos.find((x) => x.uid === uidLectura(uno.cups, primera))!;
    expect(e.summary).toBe('Visita del lector del contador · Calle Libreros, 14, 3.º B');
    expect(e.description).toContain('autolectura) del 2 al 10 de diciembre de 2026');
    const alarma = e.component.getFirstSubcomponent('valarm')!;
    expect(alarma.getFirstPropertyValue('action')).toBe('DISPLAY');
    expect(String(alarma.getFirstPropertyValue('trigger'))).toBe('-PT15H');
  });

  it('gives remote closures no alarm: there is nothing to do', () => {
    const e = eventos.find((x) => x.uid.includes(otro.cups))!;
    expect(e.component.getFirstSubcomponent('valarm')).toBeNull();
  });
});
