/**
 * Authorisations to third parties (docs/decisions/028-autorizaciones.md), modelled on Datadis's: a
 * holder lets another NIF read chosen data of chosen supply points until an end date at most two
 * years ahead, revocable at any time. The data kinds, the rules of the form and the API shapes,
 * shared by the server and the screens so both apply the same rules.
 */
import { esFechaLocal, leerFechaLocal, sumarDias } from './calendario/fechas.ts';
import { esNifValido, normalizarNif } from './nif.ts';
import { z } from './validacion/z.ts';

/**
 * The data kinds a holder chooses, as Datadis lists them: hourly curves, maximum powers, consumption
 * certificates. The contract data (the supply point, its tariff and powers) always comes with any of
 * them: no curve or certificate can be read without knowing the supply point and its tariff periods.
 */
export const DATOS_AUTORIZACION = ['curvas', 'potencias', 'certificados'] as const;

/** One kind of data an authorisation opens on request. */
export type DatoAutorizacion = (typeof DATOS_AUTORIZACION)[number];

/** What a read through an authorisation reads: a chosen kind, or the contract data every authorisation opens. */
export type DatoLeido = DatoAutorizacion | 'contrato';

/** The Spanish name of each data kind, for the screens, the mail and the audit log. */
export const NOMBRE_DATO: Record<DatoLeido, string> = {
  contrato: 'Datos del contrato',
  curvas: 'Curvas de consumo',
  potencias: 'Potencias máximas',
  certificados: 'Certificados de consumo',
};

/** An authorisation's state: in force, past its end date, or revoked by the holder. */
export type EstadoAutorizacion = 'vigente' | 'caducada' | 'revocada';

/** The Spanish name of each state. */
export const NOMBRE_ESTADO: Record<EstadoAutorizacion, string> = {
  vigente: 'Vigente',
  caducada: 'Caducada',
  revocada: 'Revocada',
};

/** Longest authorisation: two years from the day it is given (Datadis's limit). */
export const MAX_ANIOS_AUTORIZACION = 2;

/** Supply points one authorisation may name at most. */
export const MAX_SUMINISTROS_AUTORIZACION = 50;

/** The last end date allowed for an authorisation given on `hoy` (YYYY-MM-DD): the same day two years later. */
export function finMaximo(hoy: string): string {
  const p = leerFechaLocal(hoy);
  if (!p) throw new RangeError(`Fecha no válida: ${hoy}`);
  // 29 February plus two years is 28 February (the day before 1 March).
  const destino = `${String(p.anio + MAX_ANIOS_AUTORIZACION).padStart(4, '0')}-${String(p.mes).padStart(2, '0')}-${String(p.dia).padStart(2, '0')}`;
  return esFechaLocal(destino) ? destino : sumarDias(`${p.anio + MAX_ANIOS_AUTORIZACION}-03-01`, -1);
}

/** Why an end date cannot be used on `hoy`, in Spanish; null when it can. */
export function errorFin(fin: string, hoy: string): string | null {
  if (!fin) return 'Indique hasta qué fecha autoriza el acceso.';
  if (!esFechaLocal(fin)) return 'La fecha de fin no es válida.';
  if (fin < hoy) return 'La fecha de fin no puede ser anterior a hoy.';
  if (fin > finMaximo(hoy)) return 'La autorización puede durar como máximo dos años: elija una fecha de fin anterior.';
  return null;
}

/** Why a NIF cannot be authorised by `titularNif`, in Spanish; null when it can. */
export function errorNifAutorizado(nif: string, titularNif: string | null): string | null {
  const n = normalizarNif(nif);
  if (!n) return 'Indique el NIF, NIE o CIF de la persona o empresa a la que autoriza.';
  if (!esNifValido(n)) return 'El NIF, NIE o CIF no es válido. Compruebe las cifras y la letra.';
  if (titularNif && n === titularNif) return 'No hace falta autorizarse a sí mismo: ya puede ver sus suministros.';
  return null;
}

/** The state of an authorisation on `hoy`. */
export function estadoAutorizacion(a: { fin: string; revocadaEn: string | null }, hoy: string): EstadoAutorizacion {
  if (a.revocadaEn) return 'revocada';
  return a.fin < hoy ? 'caducada' : 'vigente';
}

/** The body of POST /api/autorizaciones. */
export const CrearAutorizacionSchema = z
  .object({
    nif: z
      .string({ error: 'Indique el NIF, NIE o CIF de la persona o empresa a la que autoriza.' })
      .trim()
      .max(20, 'El NIF, NIE o CIF no es válido. Compruebe las cifras y la letra.')
      .meta({ example: 'B00004010', description: 'NIF, NIE o CIF de la persona o empresa autorizada.' }),
    nombre: z
      .string({ error: 'Indique el nombre o la razón social de la persona o empresa autorizada.' })
      .trim()
      .min(1, 'Indique el nombre o la razón social de la persona o empresa autorizada.')
      .max(120, 'El nombre no puede superar los 120 caracteres.')
      .meta({ example: 'Talleres Electra, S.L.', description: 'Nombre o razón social de la persona o empresa autorizada.' }),
    cups: z
      .array(z.string().trim().min(20).max(22).meta({ description: 'CUPS de uno de los suministros del titular.' }), {
        error: 'Elija al menos un suministro.',
      })
      .min(1, 'Elija al menos un suministro.')
      .max(MAX_SUMINISTROS_AUTORIZACION, `Elija como máximo ${MAX_SUMINISTROS_AUTORIZACION} suministros.`)
      .meta({ description: 'Suministros del titular que abre la autorización (CUPS).' }),
    datos: z
      .array(z.enum(DATOS_AUTORIZACION).meta({ description: 'Un tipo de dato: contrato, curvas, potencias o certificados.' }), {
        error: 'Elija al menos un tipo de dato.',
      })
      .min(1, 'Elija al menos un tipo de dato.')
      .meta({ description: 'Qué datos puede consultar la persona autorizada, además de los del contrato, que abre siempre.' }),
    fin: z.string({ error: 'Indique hasta qué fecha autoriza el acceso.' }).meta({
      example: '2027-06-30',
      description: 'Último día en que la autorización está en vigor, AAAA-MM-DD: como mucho dos años después de hoy.',
    }),
  })
  .meta({ id: 'CrearAutorizacion' });

const SuministroAutorizadoSchema = z
  .object({
    cups: z.string().meta({ description: 'CUPS del suministro.' }),
    direccion: z.string().meta({ description: 'Dirección, código postal y municipio del suministro.' }),
  })
  .meta({ description: 'Un suministro que abre la autorización.' });

export const AutorizacionSchema = z
  .object({
    id: z.string().meta({ description: 'Identificador de la autorización.' }),
    titular: z
      .object({
        nif: z.string().meta({ description: 'NIF, NIE o CIF del titular que autoriza.' }),
        nombre: z.string().meta({ description: 'Nombre o razón social del titular que autoriza.' }),
      })
      .meta({ description: 'Titular que da la autorización.' }),
    autorizado: z
      .object({
        nif: z.string().meta({ description: 'NIF, NIE o CIF autorizado.' }),
        nombre: z.string().meta({ description: 'Nombre o razón social autorizado, como lo escribió el titular.' }),
      })
      .meta({ description: 'Persona o empresa autorizada.' }),
    suministros: z.array(SuministroAutorizadoSchema).meta({ description: 'Suministros que abre.' }),
    datos: z
      .array(z.enum(DATOS_AUTORIZACION))
      .meta({ description: 'Datos que abre además de los del contrato: curvas, potencias o certificados.' }),
    inicio: z.string().meta({ description: 'Día en que se dio, AAAA-MM-DD.' }),
    fin: z.string().meta({ description: 'Último día en vigor, AAAA-MM-DD.' }),
    estado: z.enum(['vigente', 'caducada', 'revocada']).meta({ description: 'vigente, caducada (pasó la fecha de fin) o revocada.' }),
    creadaEn: z.string().meta({ description: 'Instante en que se dio, UTC ISO 8601.' }),
    revocadaEn: z.string().nullable().meta({ description: 'Instante en que se revocó, UTC ISO 8601; null si no se ha revocado.' }),
  })
  .meta({ id: 'Autorizacion' });

export const AutorizacionesSchema = z
  .object({
    dadas: z
      .array(AutorizacionSchema)
      .meta({ description: 'Autorizaciones que ha dado la cuenta como titular, las más recientes primero.' }),
    recibidas: z
      .array(AutorizacionSchema)
      .meta({ description: 'Autorizaciones vigentes que otros titulares han dado al NIF de la cuenta, las más recientes primero.' }),
  })
  .meta({ id: 'Autorizaciones' });

/** The answer to giving an authorisation: the authorisation, and whether its NIF can already read it. */
export const AutorizacionDadaSchema = AutorizacionSchema.extend({
  autorizadoConCuenta: z.boolean().meta({
    description:
      'Si el NIF autorizado ya tiene una cuenta activa en el portal. Si no, la autorización vale igual y la persona o empresa podrá consultar los datos cuando se registre con ese NIF.',
  }),
}).meta({ id: 'AutorizacionDada' });

/** The answer to giving an authorisation. */
export type AutorizacionDadaRespuesta = z.infer<typeof AutorizacionDadaSchema>;

/** One authorisation as the API answers it. */
export type AutorizacionRespuesta = z.infer<typeof AutorizacionSchema>;

/** The body of GET /api/autorizaciones. */
export type AutorizacionesRespuesta = z.infer<typeof AutorizacionesSchema>;

/** What a supply point in the list carries when the caller reads it through an authorisation. */
export const AutorizacionDeSuministroSchema = z
  .object({
    titular: z.string().meta({ description: 'Nombre del titular que autoriza.' }),
    hasta: z.string().meta({ description: 'Último día en que la autorización está en vigor, AAAA-MM-DD.' }),
    datos: z
      .array(z.enum(DATOS_AUTORIZACION))
      .meta({ description: 'Datos que se pueden consultar además de los del contrato: curvas, potencias o certificados.' }),
  })
  .nullable()
  .meta({
    description:
      'Si el suministro es de otro titular que autoriza a la cuenta a consultarlo, hasta cuándo y qué datos; null si es de la cuenta.',
  });
