/**
 * Demo network interruptions: a fortnight's worth of scheduled works, works under way, faults and
 * closed incidents across the three distributors, in real municipalities (INE codes of the INE
 * register). Times are relative to the loading moment so the demo always looks current.
 */
import { construirCups } from '../../lib/cups.ts';
import { DISTRIBUIDORAS, type CodigoDistribuidora } from '../../lib/distribuidoras.ts';
import type { Db } from '../db/client.ts';
import { incidenciasRed } from '../db/schema.ts';
import type { DemoStep } from '../demo/load.ts';
import type { Random } from '../demo/random.ts';

const MINUTO = 60_000;
const HORA = 60 * MINUTO;

/** How an incident's times are placed around `now`. */
type Momento =
  /** Scheduled works `dias` days ahead, starting 07:00 UTC (08:00 or 09:00 in Madrid), lasting `horas`. */
  | { tipo: 'futuro'; dias: number; horas: number }
  /** Under way: started a while ago; `finConocido` false leaves the expected end unknown. */
  | { tipo: 'ahora'; finConocido: boolean }
  /** Over: happened `dias` days ago. */
  | { tipo: 'pasado'; dias: number; horas: number };

/** One demo incident before its times and CUPS are drawn. */
interface Plantilla {
  distribuidora: CodigoDistribuidora;
  estado: 'Programada' | 'En curso' | 'Activa' | 'Cerrada';
  municipio: string;
  codigoIne: string;
  provincia: string;
  codigosPostales: string[];
  descripcion: string;
  momento: Momento;
  /** Range of the public estimate of supply points affected. */
  clientes: [number, number];
  /** Supply point ids (12-digit part of the CUPS) known to be affected; later features' demo supply points use 1..5. */
  cupsIds: number[];
  /** How many more, drawn at random, to make the list realistic. */
  cupsExtra: number;
}

/** The incidents. EPD: Madrid and the two Castillas; EOD: Extremadura and western Andalusia; ECD: Cantabria and Asturias. */
const PLANTILLAS: readonly Plantilla[] = [
  {
    distribuidora: 'epd',
    estado: 'Programada',
    municipio: 'Alcalá de Henares',
    codigoIne: '28005',
    provincia: 'Madrid',
    codigosPostales: ['28801', '28802'],
    descripcion:
      'Trabajos de mejora en el centro de transformación de la calle Libreros para aumentar su capacidad. Afecta al casco histórico entre la plaza de Cervantes y la calle Mayor.',
    momento: { tipo: 'futuro', dias: 2, horas: 4 },
    clientes: [280, 420],
    cupsIds: [1, 2, 3],
    cupsExtra: 24,
  },
  {
    distribuidora: 'epd',
    estado: 'Activa',
    municipio: 'Aranjuez',
    codigoIne: '28013',
    provincia: 'Madrid',
    codigosPostales: ['28300'],
    descripcion:
      'Avería en línea de media tensión que alimenta la zona sur del municipio. Las brigadas ya están localizando el tramo dañado para reponer el suministro.',
    momento: { tipo: 'ahora', finConocido: true },
    clientes: [900, 1400],
    cupsIds: [4, 5],
    cupsExtra: 30,
  },
  {
    distribuidora: 'epd',
    estado: 'Programada',
    municipio: 'Toledo',
    codigoIne: '45168',
    provincia: 'Toledo',
    codigosPostales: ['45006'],
    descripcion:
      'Sustitución de los cuadros de baja tensión del centro de transformación del barrio de Santa Bárbara para mejorar la seguridad de la instalación.',
    momento: { tipo: 'futuro', dias: 4, horas: 3 },
    clientes: [150, 260],
    cupsIds: [],
    cupsExtra: 12,
  },
  {
    distribuidora: 'epd',
    estado: 'En curso',
    municipio: 'Guadalajara',
    codigoIne: '19130',
    provincia: 'Guadalajara',
    codigosPostales: ['19003', '19005'],
    descripcion:
      'Renovación de la red subterránea de baja tensión en la avenida de Castilla. El corte programado está en curso y el servicio se repondrá al terminar la conexión del nuevo cable.',
    momento: { tipo: 'ahora', finConocido: true },
    clientes: [120, 200],
    cupsIds: [],
    cupsExtra: 10,
  },
  {
    distribuidora: 'epd',
    estado: 'Programada',
    municipio: 'Segovia',
    codigoIne: '40194',
    provincia: 'Segovia',
    codigosPostales: ['40002', '40003'],
    descripcion:
      'Revisión y mantenimiento de las celdas de media tensión del centro de reparto de San Lorenzo. Se interrumpirá el suministro durante la maniobra de desconexión y la de reposición.',
    momento: { tipo: 'futuro', dias: 6, horas: 2 },
    clientes: [400, 650],
    cupsIds: [],
    cupsExtra: 8,
  },
  {
    distribuidora: 'epd',
    estado: 'Cerrada',
    municipio: 'Ávila',
    codigoIne: '05019',
    provincia: 'Ávila',
    codigosPostales: ['05001'],
    descripcion: 'Avería en un empalme de la red subterránea de baja tensión junto a la plaza del Mercado Chico. Suministro repuesto.',
    momento: { tipo: 'pasado', dias: 9, horas: 3 },
    clientes: [60, 110],
    cupsIds: [1],
    cupsExtra: 6,
  },
  {
    distribuidora: 'eod',
    estado: 'Programada',
    municipio: 'Mérida',
    codigoIne: '06083',
    provincia: 'Badajoz',
    codigosPostales: ['06800'],
    descripcion:
      'Trabajos de mejora en el centro de transformación de la barriada de San Bartolomé para instalar equipos de telemando que reducirán la duración de futuras averías.',
    momento: { tipo: 'futuro', dias: 1, horas: 3 },
    clientes: [180, 300],
    cupsIds: [1, 2, 3],
    cupsExtra: 15,
  },
  {
    distribuidora: 'eod',
    estado: 'Programada',
    municipio: 'Sevilla',
    codigoIne: '41091',
    provincia: 'Sevilla',
    codigosPostales: ['41005'],
    descripcion:
      'Conexión de una nueva línea subterránea de media tensión en el barrio de Nervión, necesaria para atender el crecimiento de la demanda de la zona.',
    momento: { tipo: 'futuro', dias: 3, horas: 4 },
    clientes: [500, 800],
    cupsIds: [],
    cupsExtra: 20,
  },
  {
    distribuidora: 'eod',
    estado: 'Programada',
    municipio: 'Cáceres',
    codigoIne: '10037',
    provincia: 'Cáceres',
    codigosPostales: ['10001', '10003'],
    descripcion:
      'Sustitución de un transformador de distribución por otro de mayor potencia en el centro de transformación de la calle Pintores.',
    momento: { tipo: 'futuro', dias: 5, horas: 5 },
    clientes: [90, 160],
    cupsIds: [],
    cupsExtra: 9,
  },
  {
    distribuidora: 'eod',
    estado: 'Programada',
    municipio: 'Jerez de la Frontera',
    codigoIne: '11020',
    provincia: 'Cádiz',
    codigosPostales: ['11402', '11405'],
    descripcion:
      'Poda de arbolado bajo la línea aérea de media tensión de la carretera de Cortes, que obliga a dejarla sin tensión por seguridad.',
    momento: { tipo: 'futuro', dias: 8, horas: 6 },
    clientes: [60, 140],
    cupsIds: [],
    cupsExtra: 5,
  },
  {
    distribuidora: 'eod',
    estado: 'Cerrada',
    municipio: 'Huelva',
    codigoIne: '21041',
    provincia: 'Huelva',
    codigosPostales: ['21002'],
    descripcion: 'Avería en línea de media tensión por el impacto de una grúa. Suministro repuesto.',
    momento: { tipo: 'pasado', dias: 4, horas: 2 },
    clientes: [700, 1100],
    cupsIds: [],
    cupsExtra: 10,
  },
  {
    distribuidora: 'ecd',
    estado: 'Programada',
    municipio: 'Santander',
    codigoIne: '39075',
    provincia: 'Cantabria',
    codigosPostales: ['39002', '39004'],
    descripcion:
      'Trabajos de mejora en el centro de transformación del paseo de Pereda: sustitución de las celdas de maniobra por otras telemandadas.',
    momento: { tipo: 'futuro', dias: 3, horas: 3 },
    clientes: [220, 380],
    cupsIds: [1, 2],
    cupsExtra: 14,
  },
  {
    distribuidora: 'ecd',
    estado: 'Activa',
    municipio: 'Torrelavega',
    codigoIne: '39087',
    provincia: 'Cantabria',
    codigosPostales: ['39300'],
    descripcion:
      'Avería en línea de media tensión causada por la caída de un árbol durante el temporal de viento. Se está evaluando el daño; la hora de reposición se publicará en cuanto se conozca.',
    momento: { tipo: 'ahora', finConocido: false },
    clientes: [1500, 2300],
    cupsIds: [],
    cupsExtra: 25,
  },
  {
    distribuidora: 'ecd',
    estado: 'En curso',
    municipio: 'Gijón',
    codigoIne: '33024',
    provincia: 'Asturias',
    codigosPostales: ['33201', '33203'],
    descripcion:
      'Sustitución de apoyos de la línea aérea de baja tensión en el barrio de Cimadevilla. Los trabajos programados están en curso.',
    momento: { tipo: 'ahora', finConocido: true },
    clientes: [70, 130],
    cupsIds: [],
    cupsExtra: 7,
  },
];

/** Rounds a time down to a quarter of an hour: operators announce times that way. */
const cuarto = (ms: number) => Math.floor(ms / (15 * MINUTO)) * 15 * MINUTO;

/** Start, expected end and real end of one incident, around `now`. */
function tiempos(momento: Momento, now: Date, random: Random): { inicio: Date; finPrevisto: Date | null; fin: Date | null } {
  const t = now.getTime();
  const dia = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  switch (momento.tipo) {
    case 'futuro': {
      const inicio = dia + momento.dias * 24 * HORA + 7 * HORA;
      return { inicio: new Date(inicio), finPrevisto: new Date(inicio + momento.horas * HORA), fin: null };
    }
    case 'ahora': {
      const inicio = cuarto(t - random.int(30, 150) * MINUTO);
      const finPrevisto = momento.finConocido ? new Date(cuarto(t + random.int(60, 240) * MINUTO) + 15 * MINUTO) : null;
      return { inicio: new Date(inicio), finPrevisto, fin: null };
    }
    case 'pasado': {
      const inicio = dia - momento.dias * 24 * HORA + random.int(6, 14) * HORA;
      const fin = new Date(inicio + momento.horas * HORA + random.int(0, 3) * 15 * MINUTO);
      return { inicio: new Date(inicio), finPrevisto: new Date(inicio + momento.horas * HORA), fin };
    }
  }
}

/** The known affected CUPS: the fixed ids plus `extra` distinct random ones, all of that distributor. */
function cupsAfectados(codigoRee: string, fijos: readonly number[], extra: number, random: Random): string[] {
  const ids = new Set(fijos);
  while (ids.size < fijos.length + extra) ids.add(random.int(1_000, 99_999));
  return [...ids].map((id) => construirCups(codigoRee, id));
}

/** Writes the demo incidents (see PLANTILLAS); returns how many. */
export const demoIncidencias: DemoStep = async (db: Db, random: Random, now: Date) => {
  const rows = PLANTILLAS.map((p) => {
    const codigoRee = DISTRIBUIDORAS.find((d) => d.codigo === p.distribuidora)!.codigoREE;
    return {
      distribuidora: p.distribuidora,
      estado: p.estado,
      descripcion: p.descripcion,
      municipio: p.municipio,
      codigoIne: p.codigoIne,
      provincia: p.provincia,
      codigosPostales: p.codigosPostales,
      cups: cupsAfectados(codigoRee, p.cupsIds, p.cupsExtra, random),
      clientesAfectados: random.int(p.clientes[0], p.clientes[1]),
      ...tiempos(p.momento, now, random),
    };
  });
  await db.insert(incidenciasRed).values(rows);
  return { incidenciasRed: rows.length };
};
