/**
 * Why a range has no measures, or only some (empty states that explain why; docs/sector.md §9:
 * the top complaints are missing and stale days). The supply's detail gives the first and last hour
 * received; comparing the range with them tells "not received yet" from "before the supply's first
 * data" from "a gap in the range", and each gets its own Spanish explanation.
 */
import type { FechaLocal } from '../../calendario/fechas.ts';
import { fechaLocalDe, ZONA_MADRID, type ZonaHoraria } from '../../calendario/hora-civil.ts';
import { cantidad } from '../../formato/numeros.ts';
import { fechaEnPalabras, fechaSinDia, numero } from './formato.ts';

/** The measures range of a supply point as GET /api/suministros/{cups} gives it. */
export interface RangoMedidas {
  /** UTC instant of the first hour received. */
  desde: string;
  /** UTC instant of the last hour received (its start). */
  hasta: string;
  /** Hours stored. */
  horas: number;
}

/** First and last civil day with measures, in the supply's zone. */
export function diasConMedidas(
  m: RangoMedidas | null,
  zona: ZonaHoraria = ZONA_MADRID,
): { primero: FechaLocal; ultimo: FechaLocal } | null {
  if (!m) return null;
  return { primero: fechaLocalDe(Date.parse(m.desde), zona), ultimo: fechaLocalDe(Date.parse(m.hasta), zona) };
}

/** What the screen says about the data of a range. */
export type Disponibilidad =
  /** No measure of the supply has arrived at all. */
  | { tipo: 'sin-medidas'; titulo: string; texto: string }
  /** The range is after the last day received. */
  | { tipo: 'pendientes'; titulo: string; texto: string }
  /** The range ends before the first day received. */
  | { tipo: 'anteriores'; titulo: string; texto: string }
  /** Inside the received span, but this range has no measure (a gap). */
  | { tipo: 'hueco'; titulo: string; texto: string }
  /** There are measures; `notas` tell what is missing or estimated. */
  | { tipo: 'con-datos'; notas: string[] };

/** The hour counts of a curve answer (`totales`). */
export interface Horas {
  horasConDatos: number;
  horasEstimadas: number;
  horasDelRango: number;
}

const RETRASO =
  'Los contadores envían sus lecturas a la distribuidora con uno o varios días de retraso; las publicamos en cuanto las recibimos.';

/** Explains the data of the range `desde`–`hasta` given what the supply has received. */
export function disponibilidad(
  rango: { desde: FechaLocal; hasta: FechaLocal },
  horas: Horas,
  medidas: RangoMedidas | null,
  zona: ZonaHoraria = ZONA_MADRID,
): Disponibilidad {
  const dias = diasConMedidas(medidas, zona);
  if (!dias) {
    return {
      tipo: 'sin-medidas',
      titulo: 'Todavía no hemos recibido medidas de este suministro',
      texto: `Aparecerán aquí en cuanto su contador nos envíe las primeras. ${RETRASO} Si su contador no está telegestionado, las medidas llegan con cada lectura.`,
    };
  }
  if (horas.horasConDatos === 0) {
    if (rango.desde > dias.ultimo) {
      return {
        tipo: 'pendientes',
        titulo: 'Aún no hemos recibido las medidas de estos días',
        texto: `Las últimas medidas recibidas son del ${fechaEnPalabras(dias.ultimo)}. ${RETRASO}`,
      };
    }
    if (rango.hasta < dias.primero) {
      return {
        tipo: 'anteriores',
        titulo: 'No hay medidas de este suministro en esas fechas',
        texto: `Sus medidas en el portal empiezan el ${fechaEnPalabras(dias.primero)}. Elija un periodo posterior.`,
      };
    }
    return {
      tipo: 'hueco',
      titulo: 'No hay medidas en este periodo',
      texto: `Este suministro tiene medidas del ${fechaSinDia(dias.primero)} al ${fechaSinDia(dias.ultimo)}, pero no de estos días: el contador no envió lecturas. Si las recibimos más tarde, aparecerán aquí.`,
    };
  }
  const notas: string[] = [];
  if (rango.hasta > dias.ultimo) {
    notas.push(`Las medidas llegan hasta el ${fechaEnPalabras(dias.ultimo)}; las de los días siguientes aún no se han recibido.`);
  }
  if (rango.desde < dias.primero) notas.push(`Las medidas de este suministro empiezan el ${fechaEnPalabras(dias.primero)}.`);
  const faltan = horas.horasDelRango - horas.horasConDatos;
  if (faltan > 0 && notas.length === 0) {
    notas.push(
      `${faltan === 1 ? 'Falta' : 'Faltan'} ${cantidad(faltan, 'hora', 'horas')} sin medida en este periodo (el contador no las envió).`,
    );
  }
  if (horas.horasEstimadas > 0) {
    notas.push(
      horas.horasEstimadas === 1
        ? '1 hora es una estimación de la distribuidora (rayada en el gráfico): se sustituirá por la lectura real cuando llegue.'
        : `${numero(horas.horasEstimadas)} horas son estimaciones de la distribuidora (rayadas en el gráfico): se sustituirán por la lectura real cuando llegue.`,
    );
  }
  return { tipo: 'con-datos', notas };
}
