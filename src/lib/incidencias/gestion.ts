/**
 * The network incident as an administrator creates or edits it, shared by the management
 * form (browser) and the API (server) so both validate it the same way: a distributor, an open state,
 * a description, the municipality (INE code), postal codes, supply points of that distributor with
 * valid check letters, and the times.
 */
import { z } from '../validacion/z.ts';
import { cupsBase, errorCups, MENSAJES_CUPS, normalizarCups } from '../cups.ts';
import { CODIGOS_DISTRIBUIDORA, DISTRIBUIDORAS } from '../distribuidoras.ts';

/** States an incident is created or edited in; Cerrada is reached only by closing it. */
export const ESTADOS_INCIDENCIA_ABIERTA = ['Programada', 'En curso', 'Activa'] as const;

/** Every state, for the management list's filter. */
export const ESTADOS_INCIDENCIA_ADMIN = [...ESTADOS_INCIDENCIA_ABIERTA, 'Cerrada'] as const;

/** Maximum lengths and counts of an incident's fields. */
export const LIMITES_INCIDENCIA = { descripcion: 500, municipio: 100, provincia: 60, codigosPostales: 200, cups: 5000 } as const;

/** Spanish province codes run from 01 to 52: the first two digits of a postal code and of an INE code. */
const PROVINCIA = '(0[1-9]|[1-4][0-9]|5[0-2])';
const CODIGO_POSTAL = new RegExp(`^${PROVINCIA}[0-9]{3}$`);
const CODIGO_INE = new RegExp(`^${PROVINCIA}[0-9]{3}$`);

/** The message of a CUPS of another distributor. */
export function mensajeCupsAjeno(cups: string, prefijo: string): string {
  return `${cups}: no pertenece a esta distribuidora (sus CUPS empiezan por ${prefijo}).`;
}

const texto = (vacio: string, campo: string, max: number) =>
  z.string({ error: vacio }).trim().min(1, vacio).max(max, `${campo} no puede superar ${max} caracteres.`);

const fecha = (mensaje: string) => z.iso.datetime({ offset: true, error: mensaje });

/**
 * `IncidenciaEntrada`: the body of POST and PUT /api/administrador/incidencias. CUPS are normalised
 * to their 20-character base (the form may send them as typed on a bill) and repeats dropped.
 */
export const incidenciaEntradaSchema = z
  .object({
    distribuidora: z
      .enum(CODIGOS_DISTRIBUIDORA, { error: 'Elija la distribuidora: epd, eod o ecd.' })
      .meta({ description: 'Código de la distribuidora: epd, eod o ecd.' }),
    estado: z
      .enum(ESTADOS_INCIDENCIA_ABIERTA, { error: 'Elija el estado: Programada, En curso o Activa.' })
      .meta({ description: 'Programada, En curso o Activa.' }),
    descripcion: texto('Describa la incidencia.', 'La descripción', LIMITES_INCIDENCIA.descripcion).meta({
      description: 'Qué ocurre, para el público; hasta 500 caracteres.',
    }),
    municipio: texto('Indique el municipio.', 'El municipio', LIMITES_INCIDENCIA.municipio).meta({
      description: 'Nombre del municipio; hasta 100 caracteres.',
    }),
    codigoIne: z
      .string({ error: 'Indique el código INE del municipio.' })
      .trim()
      .regex(CODIGO_INE, 'El código INE del municipio tiene 5 cifras y empieza por el de su provincia (01 a 52).')
      .meta({ description: 'Código INE del municipio, 5 cifras.' }),
    provincia: texto('Indique la provincia.', 'La provincia', LIMITES_INCIDENCIA.provincia).meta({
      description: 'Nombre de la provincia; hasta 60 caracteres.',
    }),
    codigosPostales: z
      .array(
        z
          .string({ error: 'Cada código postal debe ser un texto de 5 cifras.' })
          .trim()
          .refine((v) => CODIGO_POSTAL.test(v), {
            error: (i) => `El código postal «${String(i.input)}» no es válido: tiene 5 cifras y empieza por 01 a 52.`,
          }),
        { error: 'Los códigos postales deben enviarse como una lista.' },
      )
      .max(LIMITES_INCIDENCIA.codigosPostales, `Indique como mucho ${LIMITES_INCIDENCIA.codigosPostales} códigos postales.`)
      .default([])
      .transform((l) => [...new Set(l)])
      .meta({ description: 'Códigos postales afectados (5 cifras), hasta 200; por defecto ninguno.' }),
    cups: z
      .array(
        z.string({ error: 'Cada CUPS debe ser un texto.' }).superRefine((v, ctx) => {
          const e = errorCups(v);
          if (e) ctx.addIssue({ code: 'custom', message: `${normalizarCups(v) || 'CUPS vacío'}: ${MENSAJES_CUPS[e]}` });
        }),
        { error: 'Los CUPS deben enviarse como una lista.' },
      )
      .max(LIMITES_INCIDENCIA.cups, `Indique como mucho ${LIMITES_INCIDENCIA.cups} CUPS.`)
      .default([])
      .meta({ description: 'CUPS afectados de esa distribuidora, hasta 5000; se guardan con 20 caracteres.' }),
    clientesAfectados: z
      .number({ error: 'Indique un número entero de clientes afectados, sin puntos ni comas.' })
      .int('Indique un número entero de clientes afectados, sin puntos ni comas.')
      .nonnegative('El número de clientes afectados no puede ser negativo.')
      .max(10_000_000, 'El número de clientes afectados no es realista.')
      .nullable()
      .default(null)
      .meta({ description: 'Número estimado de suministros afectados, o null.' }),
    inicio: fecha('Indique la fecha y hora de inicio (ISO 8601).').meta({ description: 'Inicio, ISO 8601 con Z o desfase.' }),
    finPrevisto: fecha('La fecha y hora de fin prevista no es válida (ISO 8601).')
      .nullable()
      .default(null)
      .meta({ description: 'Fin previsto, ISO 8601, no anterior al inicio; o null.' }),
  })
  .superRefine((v, ctx) => {
    if (v.finPrevisto && Date.parse(v.finPrevisto) < Date.parse(v.inicio)) {
      ctx.addIssue({ code: 'custom', path: ['finPrevisto'], message: 'El fin previsto no puede ser anterior al inicio.' });
    }
    const prefijo = DISTRIBUIDORAS.find((d) => d.codigo === v.distribuidora)?.prefijoCups;
    v.cups.forEach((cups, i) => {
      const normal = normalizarCups(cups);
      if (prefijo && errorCups(normal) === null && !normal.startsWith(prefijo)) {
        ctx.addIssue({ code: 'custom', path: ['cups', i], message: mensajeCupsAjeno(normal, prefijo) });
      }
    });
  })
  .transform((v) => ({ ...v, cups: [...new Set(v.cups.map(cupsBase))] }));

/** An incident's data after validation (times as ISO strings, CUPS as 20-character bases). */
export type IncidenciaEntrada = z.infer<typeof incidenciaEntradaSchema>;

/** Closing an incident: its real end, now when not given. */
export const cierreIncidenciaSchema = z.object({
  fin: fecha('La fecha y hora de fin no es válida (ISO 8601).')
    .optional()
    .meta({ description: 'Fin real, ISO 8601, no anterior al inicio; sin él, ahora (o el inicio, si no había empezado).' }),
});
