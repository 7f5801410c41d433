/**
 * What the reading and meter calls answer (GET /api/lecturas/programa, GET /api/lecturas/estado,
 * GET/PUT /api/administrador/contadores/{cups}): the zod schemas the routes document and the
 * screens read, shared so the screens never import the server.
 */
import { z } from '../validacion/z.ts';
import { ESTADOS_SUMINISTRO, INTERRUPTORES } from './estado-contador.ts';

/** A meter's state as `estadoApi` (service.ts) writes it. */
export const EstadoContadorSchema = z.object({
  comunica: z.boolean(),
  /** Last communication (UTC ISO); null when it never communicated. */
  ultimaComunicacion: z.string().nullable(),
  interruptor: z.enum(INTERRUPTORES),
  estadoSuministro: z.enum(ESTADOS_SUMINISTRO),
  /** Why, for the holder; null when there is nothing to say. */
  motivo: z.string().nullable(),
  /** When the state was last written (UTC ISO). */
  actualizadoEn: z.string(),
});

/** What both answers say of the supply point a meter belongs to. */
export const SuministroContadorSchema = z.object({
  cups: z.string(),
  direccion: z.string(),
  municipio: z.string(),
  distribuidora: z.string(),
  distribuidoraNombre: z.string(),
  tarifa: z.string(),
  telegestionado: z.boolean(),
  /** icp, maximetro, telegestion or sin_control. */
  modoControlPotencia: z.string(),
  /** The retailer's name: whom a cut supply must contact. */
  comercializadora: z.string(),
});

const fecha = (ejemplo: string) => z.string().meta({ example: ejemplo, description: 'Fecha civil AAAA-MM-DD' });

const LecturaProgramadaSchema = z
  .object({
    /** The day of the reading. */
    fecha: fecha('2026-12-09'),
    /** The cycle day it belongs to (differs when a visit moved to a working day). */
    fechaCiclo: fecha('2026-12-06'),
    tipo: z
      .enum(['cierre_remoto', 'visita'])
      .meta({ description: 'cierre_remoto: telegestión a las 00:00; visita: un lector en día hábil' }),
    /** Why a visit moved, in Spanish; null when it did not. */
    desplazada: z.string().nullable(),
    /** Self-reading window of a visit; null for remote closures. */
    autolectura: z.object({ desde: fecha('2026-12-02'), hasta: fecha('2026-12-11') }).nullable(),
  })
  .meta({ id: 'LecturaProgramada' });

const SuministroLecturasSchema = z.object({
  cups: z.string(),
  direccion: z.string(),
  municipio: z.string(),
  distribuidora: z.string(),
  distribuidoraNombre: z.string(),
  /** Day of the month of the reading cycle, 1–28. */
  cicloLectura: z.number().int(),
  /** mensual or bimestral. */
  periodicidadFacturacion: z.string(),
  telegestionado: z.boolean(),
  /** The supply point's local date of today (Canary time in the Canary Islands). */
  hoy: z.string(),
  /** The day of the last reading taken (its local date), null before the first. */
  ultimaLectura: z.string().nullable().meta({ description: 'Día de la última lectura tomada (fecha local); null antes de la primera.' }),
  lecturas: z.array(LecturaProgramadaSchema),
});

export const ProgramaSchema = z
  .object({
    /** Today and the last day covered (Madrid dates). */
    hoy: z.string(),
    desde: z.string(),
    hasta: z.string(),
    suministros: z.array(SuministroLecturasSchema),
  })
  .meta({ id: 'LecturasProgramadas' });

/** The body of GET /api/lecturasProgramadas. */
export type ProgramaRespuesta = z.infer<typeof ProgramaSchema>;

export const LecturaRegistroSchema = z.object({
  /** When the registers were read (UTC ISO) and that day in the supply point's civil time. */
  momento: z.string(),
  fecha: z.string(),
  /** real, estimada or autolectura. */
  origen: z.string(),
  /** Active energy registers per period, whole kWh, with the period's name. */
  periodos: z.array(z.object({ periodo: z.string(), nombre: z.string(), kwh: z.number().int() })),
  /** Exported energy register, whole kWh; null without generation. */
  exportadaKwh: z.number().int().nullable(),
  /** kWh consumed since the previous reading (all periods); null for the oldest one shown. */
  consumoKwh: z.number().int().nullable(),
});

const EstadoSuministroSchema = SuministroContadorSchema.extend({
  codigoPostal: z.string(),
  /** Null when the distributor does not know the meter's state yet. */
  estado: EstadoContadorSchema.nullable(),
  /** The latest register readings, newest first. */
  lecturas: z.array(LecturaRegistroSchema),
});

export const EstadosSchema = z.object({ suministros: z.array(EstadoSuministroSchema) }).meta({ id: 'EstadoContadores' });

/** The body of GET /api/estadoContador. */
export type EstadosRespuesta = z.infer<typeof EstadosSchema>;

export const AdminEstadoSchema = SuministroContadorSchema.extend({
  titular: z.string(),
  estado: EstadoContadorSchema.extend({
    /** telegestion, administrador, importacion or demo. */
    origen: z.string(),
    /** The administrator who made the last change, when one did. */
    actualizadoPor: z.object({ nombre: z.string(), email: z.string() }).nullable(),
  }).nullable(),
}).meta({ id: 'EstadoContadorAdmin' });

/** The body of GET/PUT /api/administrador/contadores/{cups}. */
export type EstadoAdminRespuesta = z.infer<typeof AdminEstadoSchema>;
