/**
 * What the consumption certificate calls answer (GET /api/certificados, GET /api/verificarCertificado):
 * the zod schemas the routes document and the screens read, in the shared layer so the screens never
 * import the server.
 */
import { z } from '../validacion/z.ts';

export const MesCertificadoSchema = z.object({
  mes: z.string(),
  /** Energy per tariff period, Wh, P1 first. */
  porPeriodoWh: z.array(z.number()),
  totalWh: z.number(),
  estimadaWh: z.number(),
  horas: z.number(),
  horasReales: z.number(),
  horasEstimadas: z.number(),
  horasSinDato: z.number(),
});

export const CertificadoSchema = z
  .object({
    id: z.string(),
    /** Verification code, XXXX-XXXX-XXXX-XXXX. */
    codigo: z.string(),
    cups: z.string(),
    distribuidora: z.string(),
    distribuidoraNombre: z.string(),
    /** Supply address on one line, as the certificate states it. */
    direccion: z.string(),
    titular: z.string(),
    tarifa: z.string(),
    /** Months certified (YYYY-MM) and their first and last day. */
    desdeMes: z.string(),
    hastaMes: z.string(),
    desde: z.string(),
    hasta: z.string(),
    /** Total energy certified, Wh, and hours with no measure. */
    totalWh: z.number(),
    horasSinDato: z.number(),
    /** Issue instant (UTC ISO) and the clock its times are read in. */
    emitidoEn: z.string(),
    zonaHoraria: z.string(),
    /** SHA-256 of the PDF (hex) and its size in bytes. */
    sha256: z.string(),
    bytes: z.number(),
    /** Whether the caller still holds the supply point. */
    titularActual: z.boolean(),
    urlVerificacion: z.string(),
    /** Name to save the PDF under. */
    fichero: z.string(),
  })
  .meta({ id: 'Certificado' });

/** One certificate as GET /api/certificados lists it. */
export type CertificadoRespuesta = z.infer<typeof CertificadoSchema>;

export const VerificacionSchema = z
  .object({
    valido: z.literal(true),
    codigo: z.string(),
    distribuidora: z.object({ codigo: z.string(), nombre: z.string(), nif: z.string() }),
    cups: z.string(),
    /** Holder's name, and NIF with all but four digits hidden. */
    titular: z.object({ nombre: z.string(), nif: z.string() }),
    tarifa: z.string(),
    periodo: z.object({ desdeMes: z.string(), hastaMes: z.string(), desde: z.string(), hasta: z.string() }),
    periodos: z.array(z.object({ periodo: z.string(), nombre: z.string() })),
    meses: z.array(MesCertificadoSchema),
    total: MesCertificadoSchema.omit({ mes: true }),
    emitidoEn: z.string(),
    zonaHoraria: z.string(),
    /** SHA-256 of the PDF as issued, hex: a copy with the same hash is the very file. */
    sha256: z.string(),
  })
  .meta({ id: 'VerificacionCertificado' });

/** The body of a genuine GET /api/verificarCertificado. */
export type VerificacionRespuesta = z.infer<typeof VerificacionSchema>;
