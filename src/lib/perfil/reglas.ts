/**
 * Profile rules (decision 006), shared by the profile form (browser) and the API (server): the
 * editable data follows the registration rules of docs/producto.md §4–§5 by the account's kind of NIF, and
 * the e-mail and password changes ask for the current password.
 */
import { z } from '../validacion/z.ts';
import { cumpleReglaPassword, LIMITES, MENSAJE_PASSWORD } from '../cuentas/reglas.ts';
import { esCifValido, esDniValido, esNieValido, esNifPersonaEspecialValido } from '../nif.ts';

/** Kind of an account's NIF as the profile shows it; null for an account without one (the environment's administrator). */
export type TipoNifPerfil = 'DNI' | 'NIE' | 'CIF' | null;

/** The kind of a stored (normalised) NIF. */
export function tipoNifPerfil(nif: string | null): TipoNifPerfil {
  if (!nif) return null;
  // K, L and M identify people as a DNI does, though they are not one (Orden EHA/451/2008).
  if (esDniValido(nif) || esNifPersonaEspecialValido(nif)) return 'DNI';
  if (esNieValido(nif)) return 'NIE';
  if (esCifValido(nif)) return 'CIF';
  return null;
}

/** The message of a wrong current password, in the e-mail and password changes. */
export const MENSAJE_CLAVE_ACTUAL = 'La contraseña actual no es correcta.';

const texto = (campo: string, max: number) =>
  z
    .string({ error: `${campo} debe ser un texto.` })
    .trim()
    .max(max, `${campo} no puede superar ${max} caracteres.`)
    .default('');

/** The editable profile data, before the rules of the account's kind. */
export const datosPerfilSchema = z.object({
  nombre: texto('El nombre', LIMITES.nombre).meta({ description: 'Nombre: obligatorio con DNI o NIE, vacío con CIF.' }),
  apellido1: texto('El primer apellido', LIMITES.nombre).meta({
    description: 'Primer apellido: obligatorio con DNI o NIE, vacío con CIF.',
  }),
  apellido2: texto('El segundo apellido', LIMITES.nombre).meta({
    description: 'Segundo apellido: obligatorio con DNI o NIE, vacío con CIF.',
  }),
  razonSocial: texto('La razón social', LIMITES.razonSocial).meta({
    description: 'Razón social: obligatoria con CIF, vacía con DNI o NIE.',
  }),
});

/** Editable profile data after validation. */
export type DatosPerfil = z.infer<typeof datosPerfilSchema>;

/** One failed rule: the field it concerns and its Spanish message. */
export interface ErrorPerfil {
  campo: keyof DatosPerfil;
  mensaje: string;
}

/**
 * The rules of docs/producto.md §5 by kind: a company (CIF) has a company name and no person names; a person
 * (DNI/NIE) the three names and no company name; an account without NIF either one or the other.
 */
export function erroresPerfil(tipo: TipoNifPerfil, d: DatosPerfil): ErrorPerfil[] {
  const errores: ErrorPerfil[] = [];
  const nombres = Boolean(d.nombre || d.apellido1 || d.apellido2);
  if (tipo === 'CIF') {
    if (!d.razonSocial) errores.push({ campo: 'razonSocial', mensaje: 'Introduzca la razón social.' });
    if (nombres) errores.push({ campo: 'nombre', mensaje: 'Una empresa (CIF) no lleva nombre ni apellidos: deje esos campos vacíos.' });
  } else if (tipo === 'DNI' || tipo === 'NIE') {
    if (!d.nombre) errores.push({ campo: 'nombre', mensaje: 'Introduzca el nombre.' });
    if (!d.apellido1) errores.push({ campo: 'apellido1', mensaje: 'Introduzca el primer apellido.' });
    if (!d.apellido2) errores.push({ campo: 'apellido2', mensaje: 'Introduzca el segundo apellido.' });
    if (d.razonSocial)
      errores.push({ campo: 'razonSocial', mensaje: 'Una persona (DNI o NIE) no lleva razón social: deje ese campo vacío.' });
  } else {
    if (!d.nombre && !d.razonSocial) errores.push({ campo: 'nombre', mensaje: 'Introduzca el nombre o la razón social.' });
    if (nombres && d.razonSocial)
      errores.push({ campo: 'razonSocial', mensaje: 'Indique un nombre de persona o una razón social, no ambos.' });
  }
  return errores;
}

/** The profile data schema for an account of kind `tipo`: field rules plus the kind's rules. */
export function datosPerfilPara(tipo: TipoNifPerfil) {
  return datosPerfilSchema.superRefine((d, ctx) => {
    for (const e of erroresPerfil(tipo, d)) ctx.addIssue({ code: 'custom', path: [e.campo], message: e.mensaje });
  });
}

const passwordActual = z
  .string({ error: 'Introduzca su contraseña actual.' })
  .min(1, 'Introduzca su contraseña actual.')
  .max(1024, 'La contraseña actual no es correcta.');

/** E-mail change: the new address and the current password. */
export const cambioEmailSchema = z.object({
  nuevoEmail: z
    .string({ error: 'Introduzca el correo electrónico nuevo.' })
    .trim()
    .toLowerCase()
    .min(1, 'Introduzca el correo electrónico nuevo.')
    .max(LIMITES.email, `El correo electrónico no puede superar ${LIMITES.email} caracteres.`)
    .pipe(z.email('El correo electrónico nuevo no tiene un formato válido.'))
    .meta({ description: 'Correo electrónico nuevo; se aplica al confirmar el enlace enviado a él.' }),
  password: passwordActual.meta({ description: 'Contraseña actual de la cuenta.' }),
});

/** Password change: the current one, the new one and its copy, which must match and follow the rule. */
export const cambioClaveSchema = z
  .object({
    passwordActual: passwordActual.meta({ description: 'Contraseña actual de la cuenta.' }),
    password: z
      .string({ error: 'Introduzca la nueva contraseña.' })
      .min(1, 'Introduzca la nueva contraseña.')
      .meta({ description: 'Contraseña nueva: de 3 a 30 caracteres, con una mayúscula, una minúscula y un número.' }),
    passwordCopy: z
      .string({ error: 'Repita la nueva contraseña.' })
      .min(1, 'Repita la nueva contraseña.')
      .meta({ description: 'La contraseña nueva, repetida.' }),
  })
  .superRefine((v, ctx) => {
    if (v.password !== v.passwordCopy) ctx.addIssue({ code: 'custom', path: ['passwordCopy'], message: 'Las contraseñas no coinciden.' });
    else if (!cumpleReglaPassword(v.password)) ctx.addIssue({ code: 'custom', path: ['password'], message: MENSAJE_PASSWORD });
  });

/** E-mail confirmation: the id from the mailed link `/sesion/confirmar-email/<id>`. */
export const confirmarEmailSchema = z.object({
  id: z
    .string({ error: 'Falta el identificador del enlace.' })
    .trim()
    .min(1, 'Falta el identificador del enlace.')
    .max(200)
    .meta({ description: 'El id del enlace de confirmación (`…/sesion/confirmar-email/<id>`).' }),
});
