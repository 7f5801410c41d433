/**
 * Demo nodal capacity: the current month's publication of EPD (central Spain) and EOD (Extremadura
 * and western Andalusia), written through `importCapacidad` like a real file. Substations sit in
 * real municipalities (coordinates inside each municipality's IGN boundary, checked by a unit
 * test); most nodes are saturated, as most distribution nodes are (docs/sector.md §7.3).
 */
import { aUtm } from '../../lib/capacidad-nodal/utm.ts';
import { DISTRIBUIDORAS, type CodigoDistribuidora } from '../../lib/distribuidoras.ts';
import type { DemoStep } from '../demo/load.ts';
import { createRandom, type Random } from '../demo/random.ts';
import type { NudoCapacidad } from './csv.ts';
import { importCapacidadDemanda } from './demanda.ts';
import { HUSO_POR_DEFECTO, type NudoDemanda } from './demanda-csv.ts';
import { importCapacidad } from './service.ts';

/** One demo substation: where it is, its voltage levels (one node each) and its transmission node. */
export interface SubestacionDemo {
  /** Municipality name as the INE writes it. */
  municipio: string;
  /** INE municipality code, to check the location against the IGN boundary. */
  codigoIne: string;
  /** Province name. */
  provincia: string;
  /** Autonomous community name. */
  comunidadAutonoma: string;
  /** Substation name. */
  nombre: string;
  /** Latitude of a point well inside the municipality (degrees). */
  latitud: number;
  /** Longitude of that point (degrees). */
  longitud: number;
  /** Voltage levels in kV, highest first: AT/AT and AT/MT busbars. */
  niveles: readonly number[];
  /** Transmission node most affected. */
  rdt: string;
}

const MAD = 'Comunidad de Madrid';
const CLM = 'Castilla-La Mancha';
const CYL = 'Castilla y León';
const EXT = 'Extremadura';
const AND = 'Andalucía';

type Fila = [
  municipio: string,
  ine: string,
  provincia: string,
  ca: string,
  nombre: string,
  lat: number,
  lon: number,
  niveles: number[],
  rdt: string,
];
const sub = ([municipio, codigoIne, provincia, comunidadAutonoma, nombre, latitud, longitud, niveles, rdt]: Fila): SubestacionDemo => ({
  municipio,
  codigoIne,
  provincia,
  comunidadAutonoma,
  nombre,
  latitud,
  longitud,
  niveles,
  rdt,
});

/** The demo substations of each distributor that publishes capacity. */
export const SUBESTACIONES_DEMO: Readonly<Record<'epd' | 'eod', readonly SubestacionDemo[]>> = {
  epd: (
    [
      ['Alcalá de Henares', '28005', 'Madrid', MAD, 'Alcalá de Henares', 40.4944, -3.3692, [132, 20], 'Loeches 220'],
      ['Torrejón de Ardoz', '28148', 'Madrid', MAD, 'Torrejón', 40.4711, -3.4599, [66, 20], 'Loeches 220'],
      ['Getafe', '28065', 'Madrid', MAD, 'Getafe Norte', 40.2995, -3.6736, [66, 15], 'Villaverde 220'],
      ['Fuenlabrada', '28058', 'Madrid', MAD, 'Fuenlabrada Industrial', 40.2838, -3.7964, [132, 66, 20], 'Fuenlabrada 220'],
      ['Móstoles', '28092', 'Madrid', MAD, 'Móstoles', 40.3196, -3.8895, [66, 20], 'Moraleja 220'],
      ['Parla', '28106', 'Madrid', MAD, 'Parla', 40.2295, -3.768, [66, 20], 'Fuenlabrada 220'],
      ['Aranjuez', '28013', 'Madrid', MAD, 'Aranjuez', 39.9938, -3.6803, [132, 45, 15], 'Aceca 220'],
      ['Arganda del Rey', '28014', 'Madrid', MAD, 'Arganda', 40.2913, -3.4448, [66, 20], 'Morata 220'],
      ['Collado Villalba', '28047', 'Madrid', MAD, 'Villalba', 40.6428, -3.989, [45, 15], 'Galapagar 220'],
      ['Colmenar Viejo', '28045', 'Madrid', MAD, 'Colmenar Viejo', 40.6644, -3.7455, [66, 20], 'San Sebastián de los Reyes 220'],
      ['Navalcarnero', '28096', 'Madrid', MAD, 'Navalcarnero', 40.2888, -4.0129, [45, 15], 'Moraleja 220'],
      ['Toledo', '45168', 'Toledo', CLM, 'Toledo Polígono', 39.8708, -4.0135, [132, 66, 20], 'Aceca 220'],
      ['Talavera de la Reina', '45165', 'Toledo', CLM, 'Talavera', 39.9536, -4.8491, [132, 45, 15], 'Talavera 220'],
      ['Illescas', '45081', 'Toledo', CLM, 'Illescas', 40.1345, -3.8466, [132, 20], 'Añover 220'],
      ['Seseña', '45161', 'Toledo', CLM, 'Seseña', 40.0907, -3.6646, [45, 15], 'Añover 220'],
      ['Torrijos', '45173', 'Toledo', CLM, 'Torrijos', 39.9836, -4.2831, [45, 15], 'Aceca 220'],
      ['Madridejos', '45087', 'Toledo', CLM, 'Madridejos', 39.4679, -3.5384, [132, 20], 'Madridejos 220'],
      ['Guadalajara', '19130', 'Guadalajara', CLM, 'Guadalajara', 40.6384, -3.1752, [132, 20], 'Loeches 220'],
      ['Azuqueca de Henares', '19046', 'Guadalajara', CLM, 'Azuqueca', 40.5567, -3.2645, [66, 20], 'Loeches 220'],
      ['Sigüenza', '19257', 'Guadalajara', CLM, 'Sigüenza', 41.103, -2.6561, [45, 15], 'Trillo 220'],
      ['Segovia', '40194', 'Segovia', CYL, 'Segovia', 40.9026, -4.1692, [45, 15], 'Otero 220'],
      ['Cuéllar', '40063', 'Segovia', CYL, 'Cuéllar', 41.3621, -4.2869, [45], 'Tordesillas 220'],
      ['Ávila', '05019', 'Ávila', CYL, 'Ávila', 40.6632, -4.6455, [45, 15], 'Otero 220'],
      ['Arévalo', '05016', 'Ávila', CYL, 'Arévalo', 41.0449, -4.7211, [45], 'Tordesillas 220'],
      ['Cuenca', '16078', 'Cuenca', CLM, 'Cuenca', 40.0704, -2.1374, [132, 45, 15], 'Olmedilla 400'],
      ['Tarancón', '16203', 'Cuenca', CLM, 'Tarancón', 39.9964, -3.0059, [66, 15], 'Morata 220'],
      ['San Clemente', '16190', 'Cuenca', CLM, 'San Clemente', 39.4083, -2.4327, [45], 'Olmedilla 400'],
    ] satisfies Fila[]
  ).map(sub),
  eod: (
    [
      ['Badajoz', '06015', 'Badajoz', EXT, 'Badajoz Los Montitos', 38.868, -6.8546, [132, 20], 'Vaguadas 220'],
      ['Mérida', '06083', 'Badajoz', EXT, 'Mérida', 38.9161, -6.3437, [132, 66, 20], 'San Serván 400'],
      ['Don Benito', '06044', 'Badajoz', EXT, 'Don Benito', 38.9423, -5.8917, [66, 20], 'San Serván 400'],
      ['Almendralejo', '06011', 'Badajoz', EXT, 'Almendralejo', 38.7087, -6.4092, [66, 20], 'San Serván 400'],
      ['Zafra', '06158', 'Badajoz', EXT, 'Zafra', 38.4384, -6.4522, [66, 15], 'Brovales 400'],
      ['Talarrubias', '06127', 'Badajoz', EXT, 'Talarrubias', 39.1365, -5.218, [45, 15], 'Valdecaballeros 400'],
      ['Cáceres', '10037', 'Cáceres', EXT, 'Cáceres', 39.3709, -6.4501, [132, 20], 'Cáceres 220'],
      ['Plasencia', '10148', 'Cáceres', EXT, 'Plasencia', 40.0146, -6.1409, [132, 45, 15], 'Arañuelo 400'],
      ['Navalmoral de la Mata', '10131', 'Cáceres', EXT, 'Navalmoral', 39.9316, -5.5573, [45, 15], 'Almaraz 400'],
      ['Trujillo', '10195', 'Cáceres', EXT, 'Trujillo', 39.5331, -5.9628, [45, 15], 'Almaraz 400'],
      ['Coria', '10067', 'Cáceres', EXT, 'Coria', 39.9786, -6.5047, [45], 'José María Oriol 400'],
      ['Huelva', '21041', 'Huelva', AND, 'Huelva Puerto', 37.2725, -6.9297, [132, 66, 20], 'Palos 400'],
      ['Lepe', '21044', 'Huelva', AND, 'Lepe', 37.2797, -7.2254, [66, 20], 'Puebla de Guzmán 400'],
      ['Moguer', '21050', 'Huelva', AND, 'Moguer', 37.2101, -6.8075, [66, 20], 'Palos 400'],
      ['Valverde del Camino', '21072', 'Huelva', AND, 'Valverde', 37.5591, -6.7396, [45, 15], 'Puebla de Guzmán 400'],
      ['Carmona', '41024', 'Sevilla', AND, 'Carmona', 37.4568, -5.6308, [132, 20], 'Don Rodrigo 400'],
      ['Écija', '41039', 'Sevilla', AND, 'Écija', 37.5222, -5.0913, [66, 20], 'Don Rodrigo 400'],
      ['Utrera', '41095', 'Sevilla', AND, 'Utrera', 37.185, -5.781, [66, 15], 'Don Rodrigo 400'],
      ['Osuna', '41068', 'Sevilla', AND, 'Osuna', 37.2486, -5.1245, [66], 'Don Rodrigo 400'],
      ['Sanlúcar la Mayor', '41087', 'Sevilla', AND, 'Sanlúcar la Mayor', 37.4498, -6.241, [66, 20], 'Guillena 400'],
    ] satisfies Fila[]
  ).map(sub),
};

/** Typical occupied capacity of a node by voltage, in MW: [min, max]. */
function rangoOcupada(kv: number): [number, number] {
  if (kv >= 132) return [40, 180];
  if (kv >= 66) return [15, 80];
  if (kv >= 45) return [8, 40];
  return [2, 16];
}

/** Typical available capacity of a node that is not saturated, in MW: [min, max]. */
function rangoDisponible(kv: number): [number, number] {
  if (kv >= 132) return [6, 60];
  if (kv >= 66) return [2, 30];
  if (kv >= 45) return [1, 14];
  return [0.3, 6];
}

const COMENTARIOS_SATURADO = [
  'Sin capacidad por criterio de seguridad N-1 en la transformación.',
  'Capacidad agotada por solicitudes admitidas en el nudo de la red de transporte.',
  'Nudo de la red de transporte en concurso de capacidad: solicitudes en espera.',
  'Limitado por la potencia de cortocircuito de la subestación.',
] as const;

const COMENTARIOS_DISPONIBLE = [
  'Capacidad sujeta a la evacuación por una sola línea.',
  'Valor condicionado por la capacidad de transformación AT/MT.',
] as const;

/** A value in [min, max] with two decimals, as distributors publish MW. */
const mw = (random: Random, [min, max]: [number, number]) => Math.round((min + random.next() * (max - min)) * 100) / 100;

/**
 * The demo nodes of a distributor: one per voltage level of each substation. Saturated nodes (no
 * available capacity) are the majority; EOD's solar-rich area is more saturated than EPD's.
 */
export function nudosDemo(distribuidora: 'epd' | 'eod', random: Random): NudoCapacidad[] {
  const saturacion = distribuidora === 'eod' ? 0.7 : 0.6;
  const nudos: NudoCapacidad[] = [];
  SUBESTACIONES_DEMO[distribuidora].forEach((s, i) => {
    // A few hundred metres from the municipality's reference point, where substations usually are.
    const latitud = Math.round((s.latitud + (random.next() - 0.5) * 0.006) * 1e6) / 1e6;
    const longitud = Math.round((s.longitud + (random.next() - 0.5) * 0.006) * 1e6) / 1e6;
    for (const kv of s.niveles) {
      const saturado = random.chance(saturacion);
      const ocupadaMw = mw(random, rangoOcupada(kv));
      const disponibleMw = saturado ? 0 : mw(random, rangoDisponible(kv));
      const admitidaNoResueltaMw = random.chance(saturado ? 0.55 : 0.3) ? mw(random, [0.5, ocupadaMw * 0.3]) : 0;
      const comentario = saturado
        ? random.chance(0.7)
          ? random.pick(COMENTARIOS_SATURADO)
          : null
        : random.chance(0.2)
          ? random.pick(COMENTARIOS_DISPONIBLE)
          : null;
      nudos.push({
        comunidadAutonoma: s.comunidadAutonoma,
        provincia: s.provincia,
        municipio: s.municipio,
        subestacion: s.nombre,
        nudo: `${distribuidora.toUpperCase()}-S${String(i + 1).padStart(2, '0')}-${kv}`,
        tensionKv: kv,
        latitud,
        longitud,
        disponibleMw,
        ocupadaMw,
        admitidaNoResueltaMw,
        nudoAfeccionRdt: s.rdt,
        comentario,
      });
    }
  });
  return nudos;
}

/** The month of a moment in Spain, YYYY-MM: the publication a distributor would show today. */
export function mesEnEspana(now: Date): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Madrid', year: 'numeric', month: '2-digit' }).formatToParts(now);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}`;
}

/** Typical occupied firm demand capacity of a node by voltage, in MW: [min, max]. */
function rangoDemandaOcupada(kv: number): [number, number] {
  if (kv >= 132) return [60, 240];
  if (kv >= 66) return [20, 110];
  if (kv >= 45) return [10, 50];
  return [3, 20];
}

const COMENTARIOS_REGULATORIOS = [
  'Nudo de la red de transporte en concurso de capacidad de demanda: solicitudes en espera.',
  'Pendiente de la planificación vinculante de la red de transporte.',
] as const;

/**
 * Demand capacity (Circular 1/2024) of the same connection points as the generation demo: same
 * identifiers, substations and places (written as UTM zone 30, as the harmonised files do). About
 * four nodes in five are saturated, as the first demand maps showed in September 2025
 * (docs/sector.md §7.3). Positions are broken down only above 66 kV, as art. 16 asks.
 */
export function nudosDemandaDemo(distribuidora: 'epd' | 'eod', generacion: readonly NudoCapacidad[], random: Random): NudoDemanda[] {
  const gestorRed = DISTRIBUIDORAS.find((d) => d.codigo === distribuidora)?.nombre ?? null;
  return generacion.map((g) => {
    const kv = g.tensionKv;
    const saturado = random.chance(0.8);
    const ocupadaMw = mw(random, rangoDemandaOcupada(kv));
    const disponibleMw = saturado ? 0 : mw(random, rangoDisponible(kv));
    const admitidaNoEvaluadaMw = random.chance(saturado ? 0.6 : 0.3) ? mw(random, [0.5, ocupadaMw * 0.4]) : 0;
    const comprometidaRegulatoria = saturado && random.chance(0.12);
    const { x, y } = aUtm(g.latitud, g.longitud, HUSO_POR_DEFECTO);
    const posiciones = kv > 66 ? random.int(4, 12) : null;
    const libres = posiciones === null ? null : saturado ? 0 : random.int(1, Math.max(1, Math.floor(posiciones / 3)));
    return {
      gestorRed,
      provincia: g.provincia,
      municipio: g.municipio,
      subestacion: g.subestacion,
      subestacionId: g.nudo.replace(/-\d+$/, ''),
      tensionKv: kv,
      nudo: g.nudo,
      denominacion: `${g.subestacion} ${kv} kV`,
      utmX: Math.round(x * 100) / 100,
      utmY: Math.round(y * 100) / 100,
      huso: HUSO_POR_DEFECTO,
      disponibleMw,
      ocupadaMw,
      admitidaNoEvaluadaMw,
      comprometidaRegulatoria,
      posicionesOcupadas: posiciones === null || libres === null ? null : posiciones - libres,
      posicionesLibres: libres,
      nudoAfeccionRdt: g.nudoAfeccionRdt,
      limitadoScc: random.chance(0.08),
      nudoCero: saturado && !comprometidaRegulatoria && random.chance(0.15),
      comentarioRegulatorio: comprometidaRegulatoria ? random.pick(COMENTARIOS_REGULATORIOS) : null,
    };
  });
}

/** Seed of the demand figures: their own sequence, so adding them left every other demo value as it was. */
const SEMILLA_DEMANDA = 20_250_430;

/** Demo step: this month's generation and demand publications of EPD and EOD. */
export const demoCapacidadNodal: DemoStep = async (db, random, now) => {
  const publicacion = mesEnEspana(now);
  const aleatorioDemanda = createRandom(SEMILLA_DEMANDA);
  let total = 0;
  let demanda = 0;
  for (const distribuidora of ['epd', 'eod'] as const satisfies readonly CodigoDistribuidora[]) {
    const generacion = nudosDemo(distribuidora, random);
    const { nudos } = await importCapacidad(db, { distribuidora, publicacion, tipo: 'generacion' }, generacion);
    total += nudos;
    const deDemanda = nudosDemandaDemo(distribuidora, generacion, aleatorioDemanda);
    demanda += (await importCapacidadDemanda(db, { distribuidora, publicacion }, deDemanda)).nudos;
  }
  return { nudosCapacidadNodal: total, nudosCapacidadDemanda: demanda };
};
