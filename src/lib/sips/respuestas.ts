/**
 * What the SIPS calls take and answer (GET /api/sips/{distribuidora}, POST …/consulta): the zod
 * schemas the routes document and the screen reads, in the shared layer so the screen never
 * imports the server.
 */
import { z } from '../validacion/z.ts';
import { TIPOS_FICHERO_SIPS, VERSIONES_SIPS } from './columnas.ts';

/** CUPS a query takes at most. */
export const MAX_CUPS_CONSULTA_SIPS = 1000;

export const FicheroSipsSchema = z
  .object({
    nombre: z.string().meta({
      example: '202611_SIPS2026_PS_ELECTRICIDAD_epd.csv',
      description: 'Nombre del fichero como lo nombra la CNMC: AAAAMM_SIPS2 o AAAAMM_SIPS2026, tipo y distribuidora.',
    }),
    mes: z
      .string()
      .meta({ example: '2026-11', description: 'Mes del fichero, AAAA-MM: el registro a día 1 y los 24 meses completos anteriores.' }),
    tipo: z
      .enum(TIPOS_FICHERO_SIPS)
      .meta({ description: 'PS_ELECTRICIDAD (puntos de suministro) o CONSUMOS_ELECTRICIDAD (consumos mensuales).' }),
    version: z.enum(VERSIONES_SIPS).meta({
      description:
        'Formato: v2 (57 columnas PS, sin titular) o sips2026 (103 columnas PS: el titular y su dirección solo si es persona jurídica).',
    }),
    filas: z.number().int().meta({ description: 'Filas de datos, sin contar la cabecera.' }),
    bytes: z.number().int().meta({ description: 'Tamaño del CSV sin comprimir, en bytes.' }),
    bytesGzip: z.number().int().meta({ description: 'Tamaño de la descarga (el CSV comprimido con gzip), en bytes.' }),
    sha256: z.string().meta({ description: 'Huella SHA-256 del CSV sin comprimir, en hexadecimal, para comprobar la descarga.' }),
    generadoEn: z.string().meta({ description: 'Cuándo se generó, instante ISO 8601.' }),
  })
  .meta({ id: 'FicheroSips' });

/** One file of the list. */
export type FicheroSipsRespuesta = z.infer<typeof FicheroSipsSchema>;

export const ConsultaSipsSchema = z
  .object({
    cups: z
      .array(z.string().max(40, 'Cada CUPS tiene como mucho 22 caracteres.'), { error: 'Envíe la lista de CUPS.' })
      .min(1, 'Escriba al menos un CUPS.')
      .max(MAX_CUPS_CONSULTA_SIPS, `Consulte como mucho ${MAX_CUPS_CONSULTA_SIPS} CUPS a la vez.`)
      .meta({ description: 'Los CUPS que se consultan, uno por elemento (hasta 1.000); los vacíos se ignoran.' }),
    formato: z
      .enum(VERSIONES_SIPS, { error: 'Elija el formato: v2 o sips2026.' })
      .meta({ description: 'Formato de las filas: v2 o sips2026.' }),
    tipo: z
      .enum(TIPOS_FICHERO_SIPS)
      .default('PS_ELECTRICIDAD')
      .meta({ description: 'Qué filas se responden: PS_ELECTRICIDAD (por defecto) o CONSUMOS_ELECTRICIDAD.' }),
  })
  .meta({ id: 'ConsultaSips' });

export const ResultadoConsultaSipsSchema = z
  .object({
    formato: z.enum(VERSIONES_SIPS).meta({ description: 'Formato de las filas.' }),
    tipo: z.enum(TIPOS_FICHERO_SIPS).meta({ description: 'Fichero al que pertenecen las filas.' }),
    columnas: z.array(z.string()).meta({ description: 'Nombres de las columnas, en el orden de la CNMC.' }),
    filas: z.array(z.array(z.string())).meta({
      description:
        'Una fila por suministro (PS) o por suministro y mes (consumos), en orden de CUPS, con los valores como texto; vacío donde no hay dato.',
    }),
    rechazados: z
      .array(
        z.object({
          linea: z.number().int().meta({ description: 'Posición del CUPS en la lista enviada, desde 1.' }),
          cups: z.string().meta({ description: 'El CUPS tal como se envió (normalizado si tenía forma de CUPS).' }),
          motivo: z.string().meta({ description: 'Por qué no se responde: mal formado, de otra distribuidora o sin suministro en vigor.' }),
        }),
      )
      .meta({ description: 'CUPS que no se han podido responder, con el motivo.' }),
  })
  .meta({ id: 'ResultadoConsultaSips' });

/** A query's JSON answer. */
export type ResultadoConsultaSips = z.infer<typeof ResultadoConsultaSipsSchema>;
