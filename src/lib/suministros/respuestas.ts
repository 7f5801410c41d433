/**
 * What the supply point calls answer (GET /api/suministros, GET /api/suministros/{cups}): the zod
 * schemas the routes document and the screens read, shared so the screens never import the server.
 */
import { AutorizacionDeSuministroSchema } from '../autorizaciones.ts';
import { z } from '../validacion/z.ts';

export const SuministroSchema = z
  .object({
    cups: z.string().meta({
      example: 'ES9901000000000001QY',
      description: 'CUPS del suministro, de 20 caracteres (22 con el sufijo de punto frontera).',
    }),
    distribuidora: z.string().meta({ example: 'epd', description: 'Código de la distribuidora: epd, eod o ecd.' }),
    distribuidoraNombre: z.string().meta({ description: 'Razón social de la distribuidora.' }),
    titular: z
      .object({
        nif: z.string().meta({ description: 'NIF, NIE o CIF del titular, en mayúsculas.' }),
        nombre: z.string().meta({ description: 'Nombre o razón social del titular, como figura en el contrato.' }),
      })
      .meta({ description: 'Titular del contrato de acceso.' }),
    direccion: z.string().meta({ description: 'Dirección postal del punto de suministro (calle y número).' }),
    codigoPostal: z.string().meta({ description: 'Código postal del suministro, 5 cifras.' }),
    municipio: z.string().meta({ description: 'Nombre del municipio del suministro.' }),
    codigoIne: z.string().meta({ description: 'Código INE del municipio, 5 cifras (las 2 primeras son la provincia).' }),
    provincia: z.string().meta({ description: 'Nombre de la provincia del suministro.' }),
    tarifa: z.string().meta({ example: '2.0TD', description: 'Tarifa de acceso: 2.0TD, 3.0TD, 6.1TD…' }),
    potenciasKw: z.array(z.number()).meta({
      example: [4.6, 4.6],
      description: 'Potencia contratada por periodo, en kW, P1 primero: 2 valores en la 2.0TD, 6 en las demás.',
    }),
    potenciaMaximaKw: z.number().meta({ description: 'Potencia máxima que admite la instalación (BIE/APM), en kW.' }),
    tensionV: z.number().meta({ description: 'Tensión de suministro, en V.' }),
    contador: z
      .object({
        inteligente: z.boolean().meta({ description: 'Si es un contador inteligente.' }),
        telegestionado: z
          .boolean()
          .meta({ description: 'Si el contador está integrado en el sistema de telegestión (se lee a distancia).' }),
        propiedad: z
          .string()
          .meta({ description: 'Propietario del contador: distribuidora, cliente, comercializadora u otros (tabla 32 de la CNMC).' }),
        numero: z
          .string()
          .nullable()
          .meta({ description: 'Número de serie del contador; null si no consta (el registro SIPS no lo trae).' }),
        fases: z.string().meta({ description: 'Fases del contador: monofasico o trifasico.' }),
        resolucionMinutos: z
          .number()
          .meta({ description: 'Intervalo de medida que registra el contador, en minutos: 60 (horario) o 15 (cuartohorario).' }),
      })
      .meta({ description: 'Equipo de medida del suministro.' }),
    modoControlPotencia: z.string().meta({ description: 'Modo de control de la potencia: icp, maximetro, telegestion o sin_control.' }),
    autoconsumo: z.string().meta({
      description:
        'Modalidad de autoconsumo: ninguno, sin_excedentes, con_excedentes_compensacion, con_excedentes_sin_compensacion o modalidad_no_informada (acogido a autoconsumo sin modalidad en el registro SIPS2026).',
    }),
    comercializadora: z
      .object({
        codigo: z.string().meta({ description: 'Código REE de la comercializadora.' }),
        nombre: z
          .string()
          .nullable()
          .meta({ description: 'Razón social de la comercializadora; null si no consta (el registro SIPS trae solo el código).' }),
      })
      .meta({ description: 'Comercializadora con la que el titular tiene contratado el suministro.' }),
    periodicidadFacturacion: z.string().meta({ description: 'Periodicidad de facturación: mensual o bimestral.' }),
    fechaAlta: z.string().meta({ description: 'Fecha de alta del contrato, AAAA-MM-DD.' }),
    fechaBaja: z.string().nullable().meta({ description: 'Fecha de baja del contrato, AAAA-MM-DD; null mientras está en vigor.' }),
    suspendidoDesde: z.string().nullable().meta({
      description:
        'Día en que se cortó el suministro a petición de su comercializadora (B1 con motivo 03 de la tabla 10 de la CNMC), AAAA-MM-DD; null si está en servicio. El contrato sigue en vigor.',
    }),
    autorizacion: AutorizacionDeSuministroSchema,
  })
  .meta({ id: 'Suministro' });

export const DetalleSchema = SuministroSchema.extend({
  medidas: z
    .object({
      desde: z.string().meta({ description: 'Inicio de la primera hora con medida, instante UTC ISO 8601.' }),
      hasta: z.string().meta({ description: 'Inicio de la última hora con medida, instante UTC ISO 8601.' }),
      horas: z.number().meta({ description: 'Número de horas con medida guardadas.' }),
    })
    .nullable()
    .meta({ description: 'Medidas horarias disponibles del suministro; null si aún no ha llegado ninguna.' }),
}).meta({ id: 'SuministroDetalle' });

/** The body of GET /api/suministros/{cups}. */
export type SuministroRespuesta = z.infer<typeof DetalleSchema>;
