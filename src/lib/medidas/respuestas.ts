/**
 * What the measure calls answer (GET /api/medidas/curva, GET /api/medidas/potencias): the zod schemas
 * the routes document and the screens read, shared so the screens never import the server.
 */
import { z } from '../validacion/z.ts';

export const CurvaSchema = z
  .object({
    cups: z.string(),
    tarifa: z.string(),
    /** Electrical zone (peninsula, baleares, canarias, ceuta, melilla): sets the periods and the clock. */
    zona: z.string(),
    resolucion: z.enum(['cuartohora', 'hora', 'dia', 'mes']),
    desde: z.string(),
    hasta: z.string(),
    /** UTC bounds of the range [inicioUtc, finUtc). */
    inicioUtc: z.string(),
    finUtc: z.string(),
    /**
     * The curve in dense columns (docs/decisions/008): one slot per interval of the range. Hours and
     * quarter-hours are regular, slot i starts at inicioUtc + i × minutos; sums per day or month list
     * their starts in `inicio`. A slot without a measure is null, with quality '-'.
     */
    curva: z.object({
      /** 60 or 15; null for sums per day or month. */
      minutos: z.number().nullable(),
      /** Start of slot 0, ms since the epoch (UTC). */
      desde: z.number(),
      /** Start of each slot (ms, UTC) for sums per day or month; null for hours and quarter-hours. */
      inicio: z.array(z.number()).nullable(),
      /** Energy taken from the grid, Wh. */
      importadaWh: z.array(z.number().nullable()),
      /** Surplus fed into the grid, Wh; null when the range has none. */
      exportadaWh: z.array(z.number().nullable()).nullable(),
      /** One letter per slot: '-' no measure; real F (firm), N (not firm), R (not said); estimated f, n, e. */
      calidad: z.string(),
    }),
    totales: z.object({
      importadaWh: z.number(),
      /** Null when the supply point has no generation. */
      exportadaWh: z.number().nullable(),
      porPeriodo: z.array(z.object({ periodo: z.string(), nombre: z.string(), color: z.string(), importadaWh: z.number() })),
      /** Hours with data, of them estimated, and hours the range has (23-, 24- and 25-hour days counted). */
      horasConDatos: z.number(),
      horasEstimadas: z.number(),
      horasDelRango: z.number(),
    }),
    /** Days of the range whose clock changes (23 or 25 hours), with a Spanish label. */
    diasEspeciales: z.array(z.object({ fecha: z.string(), horas: z.number(), etiqueta: z.string() })),
  })
  .meta({ id: 'Curva' });

/** The body of GET /api/medidas/curva. */
export type CurvaRespuesta = z.infer<typeof CurvaSchema>;
