/**
 * The period a consumption certificate covers: whole civil months, by default the last
 * twelve complete ones, never the month in progress nor a future one, at most two years. The screen
 * checks these rules before it calls and the API applies them again; months are civil months of the
 * supply point's zone (Madrid, or Canary time for the Canary Islands).
 */
import { diasDelMes, fechaLocal } from '../calendario/fechas.ts';
import { fechaLocalDe, ZONA_CANARIAS, ZONA_MADRID, type ZonaHoraria } from '../calendario/hora-civil.ts';
import { erroresFormatoMeses, esMes, mesesEntre, sumarMeses, type ErrorMeses } from '../medidas/pantalla/potencias.ts';

export { esMes, mesesEntre, sumarMeses };

/** Most months one certificate may cover. */
export const MAX_MESES_CERTIFICADO = 24;

/** The civil month (`YYYY-MM`) in progress at an instant in a zone. */
export function mesEnCurso(ahora: Date | number, zona: ZonaHoraria = ZONA_MADRID): string {
  return fechaLocalDe(ahora, zona).slice(0, 7);
}

/** The clock a supply point's months are read in, from its INE municipality code (35 and 38: the Canary Islands). */
export function zonaHorariaDeIne(codigoIne: string): ZonaHoraria {
  const provincia = codigoIne.slice(0, 2);
  return provincia === '35' || provincia === '38' ? ZONA_CANARIAS : ZONA_MADRID;
}

/** The last twelve complete months before `mesActual` (`YYYY-MM`). */
export function periodoPorDefecto(mesActual: string): { desde: string; hasta: string } {
  const hasta = sumarMeses(mesActual, -1);
  return { desde: sumarMeses(hasta, -11), hasta };
}

/** First and last civil day of a range of months. */
export function diasDelPeriodo(desde: string, hasta: string): { desde: string; hasta: string } {
  const a = Number(hasta.slice(0, 4));
  const m = Number(hasta.slice(5, 7));
  return { desde: `${desde}-01`, hasta: fechaLocal(a, m, diasDelMes(a, m)) };
}

/** One rule a period breaks, and the field it concerns. */
export type ErrorPeriodo = ErrorMeses;

/** Why a period cannot be certified, in Spanish (empty when it can); `mesActual` is the month in progress. */
export function erroresPeriodo(desde: string, hasta: string, mesActual: string): ErrorPeriodo[] {
  const formato = erroresFormatoMeses(desde, hasta);
  if (formato.length) return formato;
  if (hasta >= mesActual) {
    return [
      {
        campo: 'hasta',
        mensaje:
          hasta === mesActual
            ? 'El mes en curso todavía no ha terminado: el certificado solo puede incluir meses completos. Elija como último mes el anterior.'
            : 'El mes de fin es posterior al actual: no se puede certificar un consumo futuro.',
      },
    ];
  }
  if (mesesEntre(desde, hasta).length > MAX_MESES_CERTIFICADO) {
    return [{ campo: 'hasta', mensaje: `Un certificado puede abarcar como máximo ${MAX_MESES_CERTIFICADO} meses.` }];
  }
  return [];
}
