/**
 * The scheduled readings and meter state screens in words: the answers of the API as the
 * screens read them, and the sentences that describe a supply point's cycle, its meter and a month.
 */
import { urlApi } from '../api/rutas.ts';
import type { EstadoAdminRespuesta } from './respuestas.ts';
import type { EstadosRespuesta, ProgramaRespuesta } from './respuestas.ts';
import { esBimestral } from './programa.ts';

/** GET /api/lecturasProgramadas. */
export type Programa = ProgramaRespuesta;
/** One supply point of it. */
export type ProgramaSuministro = ProgramaRespuesta['suministros'][number];
/** GET /api/estadoContador. */
export type Estados = EstadosRespuesta;
/** One supply point of it. */
export type EstadoSuministroApi = EstadosRespuesta['suministros'][number];
/** GET/PUT /api/administrador/contadores/{cups}. */
export type EstadoAdmin = EstadoAdminRespuesta;

/** When the cycle reads: "El día 7 de cada mes", "El día 7, cada dos meses". */
export function textoCiclo(s: Pick<ProgramaSuministro, 'cicloLectura' | 'periodicidadFacturacion'>): string {
  return esBimestral(s.periodicidadFacturacion)
    ? `El día ${s.cicloLectura}, cada dos meses (facturación bimestral)`
    : `El día ${s.cicloLectura} de cada mes`;
}

/** How the meter is read, in one sentence for the holder. */
export function textoModoLectura(telegestionado: boolean): string {
  return telegestionado
    ? 'Su contador está telegestionado: envía la lectura a distancia a las 00:00 de cada fecha. No tiene que hacer nada.'
    : 'Su contador no está telegestionado: un lector lo visita en cada fecha, que pasa al siguiente día hábil si cae en fin de semana o festivo nacional. Si no puede acceder, puede comunicarnos su lectura en el plazo indicado.';
}

/** "1 lectura", "3 lecturas", "ninguna lectura". */
export function cuantasLecturas(n: number): string {
  return n === 0 ? 'ninguna lectura' : n === 1 ? '1 lectura' : `${n} lecturas`;
}

/** The API path of the calendar file: all supply points, or one. */
export function rutaCalendario(cups: string | null): string {
  return urlApi('/lecturasProgramadas.ics', { query: { cups: cups || undefined } });
}

const fechaCorta = new Intl.DateTimeFormat('es-ES', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

/** A civil date in a table cell: "1 nov 2026" (formatted at UTC noon, so no zone can move it). */
export function fechaTabla(fecha: string): string {
  return fechaCorta.format(new Date(`${fecha.slice(0, 10)}T12:00:00Z`));
}
