/**
 * The home page's network interruptions banner (docs/producto.md §4 and §9): which sentence and which colour,
 * from the list of open incidents. Shared by the banner island, the incidents page and the API.
 */
import type { CodigoDistribuidora } from '../distribuidoras.ts';

/** States the public sees (docs/producto.md §3); `Cerrada` incidents are never published. */
export const ESTADOS_INCIDENCIA_RED = ['Programada', 'En curso', 'Activa'] as const;

/** State of a published network incident. */
export type EstadoIncidenciaRed = (typeof ESTADOS_INCIDENCIA_RED)[number];

/** Banner colour: blue with none, yellow with only scheduled ones, red with any active one (docs/producto.md §4). */
export type NivelBanner = 'azul' | 'amarillo' | 'rojo';

/** One open incident as `GET /api/incidenciasRed` publishes it (never its CUPS list or its author). */
export interface IncidenciaRedPublica {
  /** Stable id (uuid), for keys and links. */
  id: string;
  /** Programada (scheduled works), En curso (works under way) or Activa (fault). */
  estadoIncidenciaRed: EstadoIncidenciaRed;
  /** Distributor code: epd, eod or ecd. */
  distribuidora: CodigoDistribuidora;
  /** Distributor's legal name, so clients need no second call. */
  distribuidoraNombre: string;
  /** What happens, in Spanish, for the public. */
  descripcion: string;
  /** Municipality name. */
  municipio: string;
  /** Province name. */
  provincia: string;
  /** INE municipality code, 5 digits. */
  codigoIne: string;
  /** Postal codes affected. */
  codigosPostales: string[];
  /** Start, ISO 8601 in UTC. */
  inicio: string;
  /** Expected end, ISO 8601 in UTC; null while unknown. */
  finPrevisto: string | null;
  /** Estimated supply points affected; null when not estimated. */
  clientesAfectados: number | null;
}

/** What the banner shows. */
export interface ResumenBanner {
  /** The sentence, worded as docs/producto.md §9 gives it. */
  texto: string;
  /** Its colour. */
  nivel: NivelBanner;
}

/**
 * Summarises the open incidents into the banner's sentence and colour. `En curso` and `Activa` both
 * count as active; any other state (a stray `Cerrada`) is ignored.
 *
 * Wording (docs/producto.md §9): none → "Actualmente no existen interrupciones programadas o activas"; one kind
 * only → "Existe 1 interrupción programada" / "Existen N interrupciones programadas" (likewise
 * "activa(s)"). Both kinds keep SPEC's elliptical "X programadas y Y activas" (the banner around it
 * names the interruptions), each adjective agreeing with its own number and the verb with the first,
 * nearest, number: "Existen 3 programadas y 2 activas", "Existen 3 programadas y 1 activa",
 * "Existe 1 programada y 2 activas", "Existe 1 programada y 1 activa". A compound subject placed
 * after its verb may agree with its first element (RAE, Diccionario panhispánico de dudas,
 * «concordancia» 1.1), and this avoids "Existen 1 …", which readers take for a counting bug.
 */
export function resumenBannerIncidencias(incidencias: readonly { readonly estadoIncidenciaRed: string }[]): ResumenBanner {
  let programadas = 0;
  let activas = 0;
  for (const { estadoIncidenciaRed: estado } of incidencias) {
    if (estado === 'Programada') programadas++;
    else if (estado === 'En curso' || estado === 'Activa') activas++;
  }
  const verbo = (n: number) => (n === 1 ? 'Existe' : 'Existen');
  const numero = (n: number, singular: string, plural: string) => `${n} ${n === 1 ? singular : plural}`;

  if (programadas === 0 && activas === 0) {
    return { texto: 'Actualmente no existen interrupciones programadas o activas', nivel: 'azul' };
  }
  if (activas === 0) {
    const n = programadas;
    return { texto: `${verbo(n)} ${numero(n, 'interrupción programada', 'interrupciones programadas')}`, nivel: 'amarillo' };
  }
  if (programadas === 0) {
    const n = activas;
    return { texto: `${verbo(n)} ${numero(n, 'interrupción activa', 'interrupciones activas')}`, nivel: 'rojo' };
  }
  return {
    texto: `${verbo(programadas)} ${numero(programadas, 'programada', 'programadas')} y ${numero(activas, 'activa', 'activas')}`,
    nivel: 'rojo',
  };
}
