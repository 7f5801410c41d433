/**
 * The bodies of the modification calls (zod, Spanish messages), shared by the API and the forms. They
 * check shapes only; the contract rules (normalised powers, sequence, 12 months…) are `reglas.ts`,
 * which needs the supply point's data.
 */
import { z } from '../validacion/z.ts';
import { esFechaLocal } from '../calendario/fechas.ts';
import { fechaSinDia } from '../medidas/pantalla/formato.ts';
import { wDesdeKw } from './potencias.ts';
import { MAX_NOMBRE_TITULAR, type EntradaReglas } from './reglas.ts';

const cups = z
  .string({ error: 'Elija el suministro que quiere modificar.' })
  .trim()
  .min(1, 'Elija el suministro que quiere modificar.')
  .max(30, 'El CUPS no puede superar 30 caracteres.')
  .meta({ description: 'CUPS del suministro que se quiere modificar.' });

const potenciasKw = z
  .array(z.number({ error: 'Cada potencia debe ser un número de kW.' }), { error: 'Indique las potencias en kW, una por periodo.' })
  .min(1, 'Indique las potencias en kW, una por periodo.')
  .max(6, 'Como mucho se contratan seis potencias, de P1 a P6.')
  .meta({ description: 'Potencias pedidas en kW (tres decimales como mucho), una por periodo de la tarifa, P1 primero.' });

/** POST /api/modificaciones: a change of power, of tariff (with the powers it needs) or of holder data. */
export const solicitudEntradaSchema = z.discriminatedUnion(
  'tipo',
  [
    z.object({ cups, tipo: z.literal('potencia').meta({ description: 'Cambio de las potencias contratadas.' }), potenciasKw }),
    z.object({
      cups,
      tipo: z.literal('tarifa').meta({ description: 'Cambio de tarifa de acceso, con las potencias que exige.' }),
      tarifa: z
        .string({ error: 'Elija la tarifa de acceso.' })
        .max(10, 'Elija la tarifa de acceso.')
        .meta({ description: 'Tarifa de acceso pedida: 2.0TD o 3.0TD.' }),
      potenciasKw,
    }),
    z.object({
      cups,
      tipo: z.literal('titular').meta({ description: 'Corrección o cambio de los datos del titular.' }),
      modo: z
        .enum(['correccion', 'cambio'], { error: 'Indique si corrige los datos del titular o si cambia el titular.' })
        .meta({ description: 'correccion: corrige el nombre del titular (tabla 53 C); cambio: nuevo titular (tabla 53 T).' }),
      nif: z
        .string({ error: 'El NIF debe ser un texto.' })
        .max(20, 'El NIF no puede superar 20 caracteres.')
        .default('')
        .meta({ description: 'NIF, NIE o CIF del nuevo titular; solo en un cambio (en una corrección se ignora).' }),
      nombre: z
        .string({ error: 'Indique el nombre del titular.' })
        .max(MAX_NOMBRE_TITULAR * 2, `El nombre no puede superar ${MAX_NOMBRE_TITULAR} caracteres.`)
        .meta({
          description: `Nombre y apellidos o razón social del titular, nuevo o corregido (hasta ${MAX_NOMBRE_TITULAR} caracteres).`,
        }),
    }),
  ],
  { error: 'Indique qué quiere modificar: potencia, tarifa o titular.' },
);

/** The body of POST /api/modificaciones. */
export type SolicitudEntrada = z.infer<typeof solicitudEntradaSchema>;

/** What the rules read from a validated body: powers in W (null where a value is not whole watts). */
export function entradaReglasDe(e: SolicitudEntrada): EntradaReglas {
  switch (e.tipo) {
    case 'potencia':
      return { tipo: 'potencia', potenciasW: e.potenciasKw.map(wDesdeKw) };
    case 'tarifa':
      return { tipo: 'tarifa', tarifa: e.tarifa, potenciasW: e.potenciasKw.map(wDesdeKw) };
    case 'titular':
      return { tipo: 'titular', modo: e.modo, nif: e.nif, nombre: e.nombre };
  }
}

/** POST …/rechazo: the tabla 27 reason. */
export const rechazoSchema = z.object({
  codigo: z
    .string({ error: 'Elija el motivo del rechazo.' })
    .trim()
    .min(1, 'Elija el motivo del rechazo.')
    .max(3, 'Elija un motivo de rechazo de la lista.')
    .meta({ description: 'Código del motivo en la tabla 27 de la CNMC (12, 15… A9, 99); debe aplicarse al tipo de solicitud.' }),
});

/** POST …/activacion: the day the change took effect. */
export const activacionSchema = z.object({
  fecha: z
    .string({ error: 'Indique la fecha de activación.' })
    .refine(esFechaLocal, 'La fecha de activación debe ser una fecha válida (AAAA-MM-DD).')
    .meta({ description: 'Fecha de activación, AAAA-MM-DD: no anterior al día de la solicitud ni posterior a hoy.' }),
});

/**
 * Why an activation date cannot be used, or null: not before the day the request was made (tabla 27
 * reason 46, a retroactive date) and not after today (activating applies the change at once).
 */
export function errorFechaActivacion(fecha: string, diaSolicitud: string, hoy: string): string | null {
  if (!esFechaLocal(fecha)) return 'La fecha de activación debe ser una fecha válida (AAAA-MM-DD).';
  if (fecha < diaSolicitud) {
    return `46 · Fecha de la operación con carácter retroactivo: la activación no puede ser anterior al ${fechaSinDia(diaSolicitud)}, día en que se presentó la solicitud.`;
  }
  if (fecha > hoy)
    return `La fecha de activación no puede ser posterior a hoy (${fechaSinDia(hoy)}): al activar la solicitud el cambio se aplica al contrato en ese momento.`;
  return null;
}
