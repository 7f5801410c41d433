/**
 * What the supply point calls answer (GET /api/suministros, GET /api/suministros/{cups}): the zod
 * schemas the routes document and the screens read, shared so the screens never import the server.
 */
import { z } from '../validacion/z.ts';

export const SuministroSchema = z
  .object({
    /** CUPS, 20 or 22 characters. */
    cups: z.string().meta({ example: 'ES9901000000000001QY' }),
    /** Distributor code and legal name. */
    distribuidora: z.string().meta({ example: 'epd' }),
    distribuidoraNombre: z.string(),
    /** Holder as the contract states it. */
    titular: z.object({ nif: z.string(), nombre: z.string() }),
    /** Address of the supply. */
    direccion: z.string(),
    codigoPostal: z.string(),
    municipio: z.string(),
    codigoIne: z.string(),
    provincia: z.string(),
    /** Access tariff (2.0TD, 3.0TD, 6.1TD…). */
    tarifa: z.string().meta({ example: '2.0TD' }),
    /** Contracted power per period, kW, P1 first. */
    potenciasKw: z.array(z.number()).meta({ example: [4.6, 4.6] }),
    /** Highest power the installation admits (BIE/APM), kW. */
    potenciaMaximaKw: z.number(),
    /** Supply voltage, V. */
    tensionV: z.number(),
    contador: z.object({
      inteligente: z.boolean(),
      telegestionado: z.boolean(),
      /** distribuidora, cliente, comercializadora or otros (tabla 32). */
      propiedad: z.string(),
      numero: z.string(),
      /** monofasico or trifasico. */
      fases: z.string(),
      /** Measure interval the meter provides, minutes: 60 or 15. */
      resolucionMinutos: z.number(),
    }),
    /** icp, maximetro, telegestion or sin_control. */
    modoControlPotencia: z.string(),
    /** ninguno, sin_excedentes, con_excedentes_compensacion or con_excedentes_sin_compensacion. */
    autoconsumo: z.string(),
    comercializadora: z.object({ codigo: z.string(), nombre: z.string() }),
    /** mensual or bimestral. */
    periodicidadFacturacion: z.string(),
    /** Contract start and end (null while in force), YYYY-MM-DD. */
    fechaAlta: z.string(),
    fechaBaja: z.string().nullable(),
  })
  .meta({ id: 'Suministro' });

export const DetalleSchema = SuministroSchema.extend({
  /** First and last hour with measures (UTC instants), or null when none has arrived yet. */
  medidas: z.object({ desde: z.string(), hasta: z.string(), horas: z.number() }).nullable(),
}).meta({ id: 'SuministroDetalle' });

/** The body of GET /api/suministros/{cups}. */
export type SuministroRespuesta = z.infer<typeof DetalleSchema>;
