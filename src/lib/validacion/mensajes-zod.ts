/**
 * The Spanish messages of every zod check that has no message of its own, installed once for the
 * whole process (the API) or page (the forms): every 400 a person can read is Spanish and names the
 * field. Schemas that carry their own message keep it; this map only speaks where they are silent.
 */
import { z } from 'zod';

/** How a value of each type is named in a message. */
const TIPOS: Record<string, string> = {
  string: 'un texto',
  number: 'un número',
  int: 'un número entero',
  bigint: 'un número entero',
  boolean: 'verdadero o falso',
  array: 'una lista',
  object: 'un objeto',
  date: 'una fecha',
  null: 'nulo',
};

/** What each string format must look like. */
const FORMATOS: Record<string, string> = {
  email: 'un correo electrónico válido',
  url: 'una dirección web válida',
  uuid: 'un identificador válido',
  guid: 'un identificador válido',
  datetime: 'una fecha y hora ISO 8601',
  date: 'una fecha AAAA-MM-DD',
  time: 'una hora HH:MM',
  regex: 'del formato esperado',
};

/** The issue fields the messages read (zod's raw issue, loosely). */
interface Incidencia {
  code?: string;
  path?: readonly PropertyKey[];
  input?: unknown;
  expected?: string;
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  inclusive?: boolean;
  format?: string;
  values?: readonly unknown[];
  keys?: readonly string[];
}

/** «campo», or «el valor» when the issue has no named field. */
function campo(path: readonly PropertyKey[] | undefined): string {
  const nombre = [...(path ?? [])].reverse().find((p) => typeof p === 'string');
  return nombre ? `«${nombre}»` : 'El valor';
}

/** The Spanish message of an issue. */
export function mensajeZod(iss: Incidencia): string {
  const c = campo(iss.path);
  switch (iss.code) {
    case 'invalid_type':
      if (iss.input === undefined) return `Falta ${c === 'El valor' ? 'un valor' : `el campo ${c}`}.`;
      return `${c} debe ser ${TIPOS[iss.expected ?? ''] ?? 'de otro tipo'}.`;
    case 'too_small': {
      const n = Number(iss.minimum);
      if (iss.origin === 'string') return n <= 1 ? `${c} no puede estar vacío.` : `${c} debe tener al menos ${n} caracteres.`;
      if (iss.origin === 'array' || iss.origin === 'set') return `${c} debe tener al menos ${n} elemento${n === 1 ? '' : 's'}.`;
      return iss.inclusive === false ? `${c} debe ser mayor que ${n}.` : `${c} debe ser como mínimo ${n}.`;
    }
    case 'too_big': {
      const n = Number(iss.maximum);
      if (iss.origin === 'string') return `${c} no puede tener más de ${n} caracteres.`;
      if (iss.origin === 'array' || iss.origin === 'set') return `${c} no puede tener más de ${n} elemento${n === 1 ? '' : 's'}.`;
      return iss.inclusive === false ? `${c} debe ser menor que ${n}.` : `${c} debe ser como máximo ${n}.`;
    }
    case 'invalid_format':
      return `${c} debe ser ${FORMATOS[iss.format ?? ''] ?? 'de un formato válido'}.`;
    case 'invalid_value':
      return `${c} debe ser ${iss.values?.length === 1 ? String(iss.values[0]) : `uno de estos valores: ${(iss.values ?? []).map(String).join(', ')}`}.`;
    case 'not_multiple_of':
      return `${c} no es un valor admitido.`;
    case 'unrecognized_keys':
      return `Campos no admitidos: ${(iss.keys ?? []).join(', ')}.`;
    default:
      return `${c} no es válido.`;
  }
}

z.config({ customError: (iss) => mensajeZod(iss as Incidencia) });
