/**
 * The scheduled readings in words: what each reading is and what the holder may do, for
 * the screen and for the events of the calendar file, so both say the same thing.
 */
import { fechaEnPalabras, rangoEnPalabras } from '../medidas/pantalla/formato.ts';
import { escribirCalendario, valorFecha, type EventoDia } from './icalendar.ts';
import type { LecturaProgramada, TipoLectura } from './programa.ts';

/** A supply point as the texts name it. */
export interface SuministroTexto {
  cups: string;
  direccion: string;
  municipio: string;
  distribuidoraNombre: string;
}

/** Each kind of reading in a few words. */
export const NOMBRE_TIPO_LECTURA: Readonly<Record<TipoLectura, string>> = {
  cierre_remoto: 'Cierre remoto',
  visita: 'Visita del lector',
};

/** What happens on the day, for the holder. */
export function explicacionLectura(l: LecturaProgramada): string {
  if (l.tipo === 'cierre_remoto') {
    return 'Su contador envía a la distribuidora la lectura de facturación a las 00:00 de este día. No tiene que hacer nada.';
  }
  return 'Un lector de la distribuidora visitará su contador este día para tomar la lectura de facturación.';
}

/** When the holder may send a self-reading, in a sentence; null for remote closures. */
export function textoPlazoAutolectura(l: LecturaProgramada): string | null {
  if (!l.autolectura) return null;
  return `Puede comunicarnos su lectura (autolectura) ${rangoEnPalabras(l.autolectura.desde, l.autolectura.hasta)}.`;
}

/** The self-reading window with why it matters; null for remote closures. */
export function textoAutolectura(l: LecturaProgramada): string | null {
  const plazo = textoPlazoAutolectura(l);
  return plazo && `Si el lector no puede acceder al contador, ${plazo.charAt(0).toLowerCase()}${plazo.slice(1)}`;
}

/** A stable identifier of a reading: the same supply point and cycle day always give the same UID. */
export function uidLectura(cups: string, l: Pick<LecturaProgramada, 'fechaCiclo'>): string {
  return `lectura-${cups}-${valorFecha(l.fechaCiclo)}@portal.grupo-electra.example`;
}

/** The calendar event of one reading. */
export function eventoLectura(s: SuministroTexto, l: LecturaProgramada, telefonoAtencion: string): EventoDia {
  const lugar = `${s.direccion}, ${s.municipio}`;
  const lineas = [
    explicacionLectura(l),
    l.desplazada,
    textoAutolectura(l),
    l.tipo === 'visita' ? `Atención al cliente: ${telefonoAtencion}.` : null,
    '',
    `Suministro: ${lugar}`,
    `CUPS: ${s.cups}`,
    `Distribuidora: ${s.distribuidoraNombre}`,
  ].filter((x): x is string => x !== null);
  return {
    uid: uidLectura(s.cups, l),
    fecha: l.fecha,
    resumen: `${l.tipo === 'visita' ? 'Visita del lector del contador' : 'Cierre de lectura del contador'} · ${s.direccion}`,
    descripcion: lineas.join('\n'),
    // Only a visit needs the holder: a reminder at 09:00 the day before (15 hours before midnight).
    alarma:
      l.tipo === 'visita'
        ? { horasAntes: 15, texto: `Mañana, ${fechaEnPalabras(l.fecha)}, visita del lector del contador de ${s.direccion}.` }
        : undefined,
  };
}

/** Product identifier of the portal's calendar files. */
export const PRODID = '-//Grupo Electra Distribución//Portal de las distribuidoras//ES';

/** The calendar file of the scheduled readings of one or several supply points. */
export function calendarioLecturas(
  suministros: readonly (SuministroTexto & { lecturas: readonly LecturaProgramada[]; telefonoAtencion: string })[],
  generado: Date,
): string {
  const uno = suministros.length === 1 ? suministros[0]! : null;
  return escribirCalendario({
    prodId: PRODID,
    nombre: uno ? `Lecturas del contador · ${uno.direccion}` : 'Lecturas de mis contadores',
    descripcion: 'Fechas de lectura de sus contadores, calculadas con su ciclo de lectura. Grupo Electra Distribución.',
    generado,
    eventos: suministros
      .flatMap((s) => s.lecturas.map((l) => eventoLectura(s, l, s.telefonoAtencion)))
      .sort((a, b) => a.fecha.localeCompare(b.fecha)),
  });
}

/** The file name of the calendar: one supply point's CUPS, or all. */
export function nombreFicheroCalendario(cups: string | null): string {
  return cups ? `lecturas-${cups}.ics` : 'lecturas-programadas.ics';
}
