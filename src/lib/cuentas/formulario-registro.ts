/**
 * The registration form's field rules (docs/producto.md §4 "Registration form", §3, §5) as pure functions, so
 * every combination is unit-tested without a browser and the island only renders what they say.
 */
import { normalizarNif, tipoNif, type TipoNif } from '../nif.ts';

/** The identity fields of the form whose enabling depends on each other. */
export interface CamposIdentidad {
  /** NIF, NIE or CIF as typed (already upper-cased by `nifTecleado`). */
  nif: string;
  /** First name of a person. */
  nombre: string;
  /** First surname of a person. */
  apellido1: string;
  /** Second surname of a person. */
  apellido2: string;
  /** Company name (razón social). */
  razonSocial: string;
}

/** The fields `reglasRegistro` may disable and clear. */
export type CampoDependiente = 'nombre' | 'apellido1' | 'apellido2' | 'razonSocial';

/** What the form shows after a change: the classification, the values after clearing, and which fields are enabled. */
export interface ResultadoReglas {
  /** DNI (DNI or NIE), CIF or INCOMPLETO (anything else, empty included). */
  tipo: TipoNif;
  /** The values, with the fields the rules clear emptied. */
  valores: CamposIdentidad;
  /** Whether each dependent field can be edited. */
  habilitados: Record<CampoDependiente, boolean>;
}

/** The person-name fields. */
export const CAMPOS_PERSONA = ['nombre', 'apellido1', 'apellido2'] as const;

const tieneValor = (v: string) => v.trim().length > 0;

/** What the NIF field holds after a keystroke: forced to upper case (docs/producto.md §5). */
export function nifTecleado(valor: string): string {
  return valor.toUpperCase();
}

/**
 * docs/producto.md §4, applied after every change:
 * - CIF: the person-name fields are cleared and disabled, the company name enabled;
 * - DNI or NIE: the company name is cleared and disabled, the name fields enabled;
 * - incomplete or empty: everything enabled, and then
 * - if a person-name field has a value the company name is disabled, and if the company name has a
 *   value the name fields are disabled.
 * Both sides can only hold values together in a state the rules never produce (e.g. values restored
 * by the browser); then neither side is disabled, so the user is never locked out of fixing it.
 */
export function reglasRegistro(campos: CamposIdentidad): ResultadoReglas {
  const tipo = tipoNif(campos.nif);
  const valores = { ...campos };
  const habilitados: Record<CampoDependiente, boolean> = { nombre: true, apellido1: true, apellido2: true, razonSocial: true };
  if (tipo === 'CIF') {
    for (const c of CAMPOS_PERSONA) {
      valores[c] = '';
      habilitados[c] = false;
    }
    return { tipo, valores, habilitados };
  }
  if (tipo === 'DNI') {
    valores.razonSocial = '';
    habilitados.razonSocial = false;
    return { tipo, valores, habilitados };
  }
  const persona = CAMPOS_PERSONA.some((c) => tieneValor(valores[c]));
  const empresa = tieneValor(valores.razonSocial);
  if (persona && !empresa) habilitados.razonSocial = false;
  if (empresa && !persona) for (const c of CAMPOS_PERSONA) habilitados[c] = false;
  return { tipo, valores, habilitados };
}

/** How the form names each classification in its hint. */
export const TEXTO_TIPO_NIF: Record<TipoNif, string> = {
  DNI: 'DNI o NIE de una persona',
  CIF: 'CIF de una empresa',
  INCOMPLETO: 'incompleto o no válido',
};

/** Everything the registration form sends besides the identity fields. */
export interface DatosRegistro extends CamposIdentidad {
  /** Contact e-mail, also the login user. */
  correoElectronico: string;
  /** The new password. */
  password: string;
}

/**
 * The registration payload of docs/producto.md §3 (before the shared schema validates it): the company name
 * empty for a person and the names empty for a company (docs/producto.md §5); `host` is origin + '/sesion'.
 */
export function payloadRegistro(datos: DatosRegistro, origen: string) {
  const tipo = tipoNif(datos.nif);
  const persona = tipo !== 'CIF';
  const empresa = tipo !== 'DNI';
  return {
    nif: normalizarNif(datos.nif),
    razonSocial: empresa ? datos.razonSocial.trim() : '',
    nombre: persona ? datos.nombre.trim() : '',
    apellido1: persona ? datos.apellido1.trim() : '',
    apellido2: persona ? datos.apellido2.trim() : '',
    password: datos.password,
    correoElectronico: datos.correoElectronico.trim(),
    host: `${origen}/sesion`,
  };
}
