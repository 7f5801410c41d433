/**
 * The reading schedule of a supply point (docs/decisions/010): on which
 * days the distributor takes the billing reading of its meter, from the reading cycle (the day of the
 * month, 1–28, `suministros.ciclo_lectura`), the billing period (mensual or bimestral, SIPS column 38,
 * docs/sector.md §3.2) and the meter:
 *
 * - a telemanaged meter (tabla 111 codes 01/02, docs/sector.md §4.6) closes its registers remotely at
 *   00:00 local time of the cycle day, whatever day of the week it is; the holder does nothing;
 * - any other meter (tabla 111 code 03, "sin telegestión") is read by a reader who visits it on a
 *   working day: the cycle day, or the next working day when it falls on a Saturday, a Sunday or a
 *   national holiday. Around the visit the holder may send a self-reading (autolectura), from
 *   AUTOLECTURA_ANTES working days before the visit to AUTOLECTURA_DESPUES working days after it.
 *
 * A bimonthly supply point is read every other month. The sector keeps each supply point in a reading
 * route with a fixed phase (odd or even months); the portal does not store the route, so the phase is
 * the one of the latest stored reading, and even months when none is known (an inference, decision 010).
 * Plain TypeScript with civil dates (`YYYY-MM-DD`): no clock, no time zone but the one asked for.
 */
import { diaSemana, fechaLocal, leerFechaLocal, sumarDias, type FechaLocal } from '../calendario/fechas.ts';
import { viernesSanto } from '../calendario/festivos.ts';
import { inicioDiaLocal, ZONA_MADRID, type ZonaHoraria } from '../calendario/hora-civil.ts';
import { nombreFestivoNacional } from '../medidas/festivos.ts';

/** How the reading is taken. */
export type TipoLectura = 'cierre_remoto' | 'visita';

/** Billing periods (SIPS codigoPeriodicidadFacturacion: 01 mensual, 02 bimestral). */
export type Periodicidad = 'mensual' | 'bimestral';

/** Working days before the visit on which the self-reading window opens. */
export const AUTOLECTURA_ANTES = 3;
/** Working days after the visit on which the self-reading window closes (inclusive). */
export const AUTOLECTURA_DESPUES = 2;

/** What the schedule needs of a supply point. */
export interface DatosCiclo {
  /** Day of the month of the reading cycle, 1–28. */
  cicloLectura: number;
  /** mensual or bimestral; anything else reads as mensual. */
  periodicidadFacturacion: string;
  /** Whether the meter is integrated in telemanagement (remote closures) or visited by a reader. */
  telegestionado: boolean;
  /** Contract start: no reading before it. */
  fechaAlta: FechaLocal;
  /** Contract end (null while in force): no reading after it. */
  fechaBaja: FechaLocal | null;
  /** Civil date of the latest stored reading, which fixes the phase of a bimonthly route; null when none. */
  ultimaLectura: FechaLocal | null;
}

/** One scheduled reading. */
export interface LecturaProgramada {
  /** The day the reading is taken: the cycle day, or the working day the visit moved to. */
  fecha: FechaLocal;
  /** The cycle day it belongs to (the same as `fecha` unless the visit moved). */
  fechaCiclo: FechaLocal;
  tipo: TipoLectura;
  /** Why a visit is not on the cycle day ("el 6 de enero es festivo nacional (Epifanía del Señor)"); null when it is. */
  desplazada: string | null;
  /** Days on which the holder may send a self-reading (visits only); null for remote closures. */
  autolectura: { desde: FechaLocal; hasta: FechaLocal } | null;
}

// The schedule's tests check Easter beside the Good Friday readers do not work on.
export { domingoDePascua } from '../calendario/festivos.ts';

/**
 * Name of the national holiday on a date for a reader's working calendar, or null: the fixed-date
 * national holidays of the tariff calendar (src/lib/medidas/festivos.ts, docs/sector.md §6.5) plus Good
 * Friday, which the tariff leaves out but is a holiday in the whole country's labour calendar.
 * Regional and local holidays are not known to the portal.
 */
export function festivoLaboral(fecha: FechaLocal): string | null {
  const fijo = nombreFestivoNacional(fecha);
  if (fijo) return fijo;
  const p = leerFechaLocal(fecha);
  return p && viernesSanto(p.anio) === fecha ? 'Viernes Santo' : null;
}

/** Whether readers work on a date: Monday to Friday and not a national holiday. */
export function esDiaHabil(fecha: FechaLocal): boolean {
  return diaSemana(fecha) <= 5 && festivoLaboral(fecha) === null;
}

/** The working day `n` working days after (`n` > 0) or before (`n` < 0) a date; `n` = 0 is the date itself. */
export function sumarDiasHabiles(fecha: FechaLocal, n: number): FechaLocal {
  let f = fecha;
  const paso = n < 0 ? -1 : 1;
  for (let quedan = Math.abs(n); quedan > 0;) {
    f = sumarDias(f, paso);
    if (esDiaHabil(f)) quedan--;
  }
  return f;
}

/** The date itself when it is a working day, else the next working day. */
export function siguienteDiaHabil(fecha: FechaLocal): FechaLocal {
  let f = fecha;
  while (!esDiaHabil(f)) f = sumarDias(f, 1);
  return f;
}

const NOMBRES_MES = [
  'enero',
  'febrero',
  'marzo',
  'abril',
  'mayo',
  'junio',
  'julio',
  'agosto',
  'septiembre',
  'octubre',
  'noviembre',
  'diciembre',
];

/** "6 de enero". */
function diaYMes(fecha: FechaLocal): string {
  const p = leerFechaLocal(fecha)!;
  return `${p.dia} de ${NOMBRES_MES[p.mes - 1]}`;
}

/** Why readers do not work on a date, in a Spanish clause ("el 6 de enero es sábado"). */
function motivoNoHabil(fecha: FechaLocal): string {
  const festivo = festivoLaboral(fecha);
  if (festivo) return `el ${diaYMes(fecha)} es festivo nacional (${festivo})`;
  return `el ${diaYMes(fecha)} es ${diaSemana(fecha) === 6 ? 'sábado' : 'domingo'}`;
}

/** Whether a billing period is bimonthly (anything unknown is monthly, the default of the table). */
export function esBimestral(periodicidad: string): boolean {
  return periodicidad === 'bimestral';
}

/**
 * The month of the cycle a reading belongs to (1–12): a visit moved past the month's end still
 * belongs to the month before. A reading on a day before the cycle day belongs to the previous cycle.
 */
export function mesDeCiclo(fechaLectura: FechaLocal, ciclo: number): number {
  const p = leerFechaLocal(fechaLectura);
  if (!p) throw new RangeError(`Fecha no válida: ${fechaLectura}`);
  if (p.dia >= ciclo) return p.mes;
  return p.mes === 1 ? 12 : p.mes - 1;
}

/** Whether the cycle of a month (1–12) is read: every month, or the months of the bimonthly phase. */
export function seLeeEnMes(d: Pick<DatosCiclo, 'cicloLectura' | 'periodicidadFacturacion' | 'ultimaLectura'>, mes: number): boolean {
  if (!esBimestral(d.periodicidadFacturacion)) return true;
  // Twelve months is even, so the parity of the month number alternates across a new year too.
  const fase = d.ultimaLectura ? mesDeCiclo(d.ultimaLectura, d.cicloLectura) % 2 : 0;
  return mes % 2 === fase;
}

/** The reading of one cycle date. */
export function lecturaDelCiclo(fechaCiclo: FechaLocal, telegestionado: boolean): LecturaProgramada {
  if (telegestionado) return { fecha: fechaCiclo, fechaCiclo, tipo: 'cierre_remoto', desplazada: null, autolectura: null };
  const fecha = siguienteDiaHabil(fechaCiclo);
  const motivo = fecha === fechaCiclo ? null : motivoNoHabil(fechaCiclo);
  return {
    fecha,
    fechaCiclo,
    tipo: 'visita',
    desplazada: motivo && `${motivo[0]!.toUpperCase()}${motivo.slice(1)}: la visita pasa al siguiente día hábil.`,
    autolectura: { desde: sumarDiasHabiles(fecha, -AUTOLECTURA_ANTES), hasta: sumarDiasHabiles(fecha, AUTOLECTURA_DESPUES) },
  };
}

/** Whether a cycle day (1–28) is valid. */
export function esCicloValido(ciclo: number): boolean {
  return Number.isInteger(ciclo) && ciclo >= 1 && ciclo <= 28;
}

/**
 * The readings of a supply point whose day (`fecha`) falls in [desde, hasta], in date order. Cycles
 * before the contract start or after its end are left out.
 */
export function lecturasEntre(d: DatosCiclo, desde: FechaLocal, hasta: FechaLocal): LecturaProgramada[] {
  if (!esCicloValido(d.cicloLectura)) throw new RangeError(`Ciclo de lectura no válido: ${d.cicloLectura}`);
  const a = leerFechaLocal(desde);
  const b = leerFechaLocal(hasta);
  if (!a || !b) throw new RangeError(`Rango no válido: ${desde} – ${hasta}`);
  const lecturas: LecturaProgramada[] = [];
  // From the month before `desde`: a visit of its cycle may move into the range.
  let anio = a.mes === 1 ? a.anio - 1 : a.anio;
  let mes = a.mes === 1 ? 12 : a.mes - 1;
  while (anio < b.anio || (anio === b.anio && mes <= b.mes)) {
    const fechaCiclo = fechaLocal(anio, mes, d.cicloLectura);
    const vigente = fechaCiclo >= d.fechaAlta && (d.fechaBaja === null || fechaCiclo <= d.fechaBaja);
    if (vigente && seLeeEnMes(d, mes)) {
      const l = lecturaDelCiclo(fechaCiclo, d.telegestionado);
      if (l.fecha >= desde && l.fecha <= hasta) lecturas.push(l);
    }
    mes++;
    if (mes > 12) {
      mes = 1;
      anio++;
    }
  }
  return lecturas;
}

/** The same day `n` months later (clamped to the month's end: 31 January + 1 → 28 or 29 February). */
export function sumarMesesFecha(fecha: FechaLocal, n: number): FechaLocal {
  const p = leerFechaLocal(fecha);
  if (!p) throw new RangeError(`Fecha no válida: ${fecha}`);
  const total = p.anio * 12 + (p.mes - 1) + n;
  const anio = Math.floor(total / 12);
  const mes = (total % 12) + 1;
  const ultimo = new Date(Date.UTC(anio, mes, 0)).getUTCDate();
  return fechaLocal(anio, mes, Math.min(p.dia, ultimo));
}

/** Months of schedule the portal shows and offers in the calendar file. */
export const MESES_PROGRAMA = 12;

/** The period the screen and the calendar file cover: from today to the day before the same day `meses` months later. */
export function periodoProgramado(hoy: FechaLocal, meses = MESES_PROGRAMA): { desde: FechaLocal; hasta: FechaLocal } {
  return { desde: hoy, hasta: sumarDias(sumarMesesFecha(hoy, meses), -1) };
}

/** The readings from today for the next `meses` months. */
export function proximasLecturas(d: DatosCiclo, hoy: FechaLocal, meses = MESES_PROGRAMA): LecturaProgramada[] {
  const { desde, hasta } = periodoProgramado(hoy, meses);
  return lecturasEntre(d, desde, hasta);
}

/** Local hour at which a reader's visit is recorded in the demo data and the register readings. */
export const HORA_VISITA = 10;

/**
 * The instant the registers are read: 00:00 local of the closure day for a remote closure (the
 * registers hold everything up to the end of the day before), the morning of a visit otherwise.
 */
export function momentoLectura(l: Pick<LecturaProgramada, 'fecha' | 'tipo'>, zona: ZonaHoraria = ZONA_MADRID): Date {
  const inicio = inicioDiaLocal(l.fecha, zona);
  return l.tipo === 'cierre_remoto' ? inicio : new Date(inicio.getTime() + HORA_VISITA * 3_600_000);
}
