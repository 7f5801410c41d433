/**
 * What the consumption certificate calls answer (GET /api/certificados, GET /api/verificarCertificado):
 * the zod schemas the routes document and the screens read, in the shared layer so the screens never
 * import the server.
 */
import { z } from '../validacion/z.ts';

export const MesCertificadoSchema = z.object({
  mes: z.string().meta({ description: 'Mes civil certificado, AAAA-MM, en la zona horaria del certificado.' }),
  /** Energy per tariff period, Wh, P1 first. */
  porPeriodoWh: z.array(z.number()).meta({
    description: 'Energía consumida de la red en cada periodo tarifario, en Wh, empezando por P1 y en el orden de `periodos`.',
  }),
  totalWh: z.number().meta({ description: 'Energía consumida de la red en total, en Wh: la suma de `porPeriodoWh`.' }),
  estimadaWh: z.number().meta({ description: 'Parte de `totalWh` que procede de horas estimadas, en Wh.' }),
  horas: z.number().meta({ description: 'Horas que dura el tramo en hora civil (un cambio de hora suma o resta una).' }),
  horasReales: z.number().meta({ description: 'Horas con medida real del contador.' }),
  horasEstimadas: z.number().meta({ description: 'Horas con un valor estimado por la distribuidora.' }),
  horasSinDato: z.number().meta({ description: 'Horas sin ninguna medida: no suman en ningún total.' }),
});

export const CertificadoSchema = z
  .object({
    id: z.string().meta({ description: 'Identificador del certificado (UUID), el de GET /api/certificados/{id}/pdf.' }),
    /** Verification code, XXXX-XXXX-XXXX-XXXX. */
    codigo: z.string().meta({
      description: 'Código de verificación, XXXX-XXXX-XXXX-XXXX (16 letras y cifras en base32 de Crockford).',
    }),
    cups: z.string().meta({ description: 'CUPS del suministro certificado.' }),
    distribuidora: z.string().meta({ description: 'Código de la distribuidora del suministro: epd, eod o ecd.' }),
    distribuidoraNombre: z.string().meta({ description: 'Razón social de la distribuidora.' }),
    /** Supply address on one line, as the certificate states it. */
    direccion: z.string().meta({
      description: 'Dirección del suministro en una línea (dirección, código postal y municipio), como figura en el certificado.',
    }),
    titular: z.string().meta({ description: 'Nombre del titular tal como figuraba en el contrato al emitir el certificado.' }),
    tarifa: z.string().meta({ description: 'Tarifa de acceso del suministro al emitir el certificado (2.0TD, 3.0TD, 6.1TD…).' }),
    /** Months certified (YYYY-MM) and their first and last day. */
    desdeMes: z.string().meta({ description: 'Primer mes certificado, AAAA-MM.' }),
    hastaMes: z.string().meta({ description: 'Último mes certificado, AAAA-MM.' }),
    desde: z.string().meta({ description: 'Primer día del periodo certificado, AAAA-MM-DD (el día 1 de `desdeMes`).' }),
    hasta: z.string().meta({ description: 'Último día del periodo certificado, AAAA-MM-DD (el último día de `hastaMes`).' }),
    /** Total energy certified, Wh, and hours with no measure. */
    totalWh: z.number().meta({ description: 'Energía total consumida de la red en el periodo certificado, en Wh.' }),
    horasSinDato: z.number().meta({ description: 'Horas del periodo sin ninguna medida, que no suman en el total.' }),
    /** Issue instant (UTC ISO) and the clock its times are read in. */
    emitidoEn: z.string().meta({ description: 'Instante de emisión, UTC ISO 8601.' }),
    zonaHoraria: z.string().meta({
      description: 'Zona horaria IANA en la que se leen los meses y las horas: Europe/Madrid, o Atlantic/Canary en Canarias.',
    }),
    /** SHA-256 of the PDF (hex) and its size in bytes. */
    sha256: z.string().meta({ description: 'Huella SHA-256 del PDF emitido, en hexadecimal (64 caracteres).' }),
    bytes: z.number().meta({ description: 'Tamaño del PDF, en bytes.' }),
    /** Whether the caller still holds the supply point. */
    titularActual: z.boolean().meta({
      description: 'Si el usuario sigue siendo el titular del suministro; false si el suministro ha cambiado de titular.',
    }),
    urlVerificacion: z
      .string()
      .meta({ description: 'Dirección pública en la que cualquiera puede verificar el certificado con su código.' }),
    /** Name to save the PDF under. */
    fichero: z.string().meta({
      description: 'Nombre con el que guardar el PDF: certificado-consumo_<CUPS>_<desdeMes>_<hastaMes>.pdf.',
    }),
  })
  .meta({ id: 'Certificado' });

/** One certificate as GET /api/certificados lists it. */
export type CertificadoRespuesta = z.infer<typeof CertificadoSchema>;

export const VerificacionSchema = z
  .object({
    valido: z
      .literal(true)
      .meta({ description: 'Siempre true: el código corresponde a un certificado emitido (si no, la respuesta es 404).' }),
    codigo: z.string().meta({ description: 'Código de verificación del certificado, XXXX-XXXX-XXXX-XXXX, tal como figura en él.' }),
    distribuidora: z
      .object({
        codigo: z.string().meta({ description: 'Código de la distribuidora: epd, eod o ecd.' }),
        nombre: z.string().meta({ description: 'Razón social de la distribuidora.' }),
        nif: z.string().meta({ description: 'NIF de la distribuidora.' }),
      })
      .meta({ description: 'La distribuidora que emitió el certificado.' }),
    cups: z.string().meta({ description: 'CUPS del suministro certificado.' }),
    /** Holder's name, and NIF with all but four digits hidden. */
    titular: z
      .object({
        nombre: z.string().meta({ description: 'Nombre del titular tal como figuraba en el contrato al emitir el certificado.' }),
        nif: z.string().meta({
          description: 'NIF del titular con asteriscos en lugar de todo salvo cuatro cifras (***4567** en un DNI, ****4567* en un NIE).',
        }),
      })
      .meta({ description: 'El titular que figura en el certificado, con el NIF parcialmente oculto.' }),
    tarifa: z.string().meta({ description: 'Tarifa de acceso del suministro al emitir el certificado (2.0TD, 3.0TD, 6.1TD…).' }),
    periodo: z
      .object({
        desdeMes: z.string().meta({ description: 'Primer mes certificado, AAAA-MM.' }),
        hastaMes: z.string().meta({ description: 'Último mes certificado, AAAA-MM.' }),
        desde: z.string().meta({ description: 'Primer día del periodo certificado, AAAA-MM-DD.' }),
        hasta: z.string().meta({ description: 'Último día del periodo certificado, AAAA-MM-DD.' }),
      })
      .meta({ description: 'Los meses certificados y sus días primero y último.' }),
    periodos: z
      .array(
        z.object({
          periodo: z.string().meta({ description: 'Periodo tarifario: P1, P2…' }),
          nombre: z
            .string()
            .meta({ description: 'Nombre del periodo: Punta, Llano o Valle en 2.0TD; «Periodo 1»… en las de seis periodos.' }),
        }),
      )
      .meta({ description: 'Los periodos tarifarios de energía de la tarifa, empezando por P1: el orden de `porPeriodoWh`.' }),
    meses: z.array(MesCertificadoSchema).meta({ description: 'Energía y horas de cada mes civil certificado, del primero al último.' }),
    total: MesCertificadoSchema.omit({ mes: true }).meta({ description: 'Energía y horas de todo el periodo certificado.' }),
    emitidoEn: z.string().meta({ description: 'Instante de emisión, UTC ISO 8601.' }),
    zonaHoraria: z.string().meta({
      description: 'Zona horaria IANA en la que se leen los meses y las horas: Europe/Madrid, o Atlantic/Canary en Canarias.',
    }),
    /** SHA-256 of the PDF as issued, hex: a copy with the same hash is the very file. */
    sha256: z.string().meta({
      description: 'Huella SHA-256 del PDF emitido, en hexadecimal: una copia con la misma huella es exactamente ese fichero.',
    }),
  })
  .meta({ id: 'VerificacionCertificado' });

/** The body of a genuine GET /api/verificarCertificado. */
export type VerificacionRespuesta = z.infer<typeof VerificacionSchema>;
