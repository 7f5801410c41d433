/**
 * Account rules of docs/producto.md §5, shared by the forms (browser) and the API (server): field lengths,
 * the password rule, and the zod schemas of the session calls' payloads (docs/producto.md §3, §7).
 */
import { z } from '../validacion/z.ts';
import { esNifValido, normalizarNif, tipoNif } from '../nif.ts';

/** Maximum lengths of docs/producto.md §5 and §9. */
export const LIMITES = { nombre: 50, razonSocial: 150, email: 200, passwordMin: 3, passwordMax: 30 } as const;

/** The message shown when the registration form is invalid (docs/producto.md §5, exact). */
export const MENSAJE_FORMULARIO_INVALIDO =
  'Por favor, compruebe los campos del formulario. Recuerde que la contraseña debe tener al menos una mayúscula, minúscula y un número.';

/** Password rule: 3 to 30 characters with at least one digit, one lower-case and one upper-case letter. */
export function cumpleReglaPassword(password: string): boolean {
  return (
    password.length >= LIMITES.passwordMin &&
    password.length <= LIMITES.passwordMax &&
    /\d/.test(password) &&
    /\p{Ll}/u.test(password) &&
    /\p{Lu}/u.test(password)
  );
}

/** What the password rule asks for, as the forms and the API say it. */
export const MENSAJE_PASSWORD =
  'La contraseña debe tener entre 3 y 30 caracteres, con al menos una letra mayúscula, una minúscula y un número.';

const password = z.string({ error: 'Introduzca la contraseña.' }).refine(cumpleReglaPassword, MENSAJE_PASSWORD);

const email = z
  .string({ error: 'Introduzca el correo electrónico.' })
  .trim()
  .min(1, 'Introduzca el correo electrónico.')
  .max(LIMITES.email, `El correo electrónico no puede superar ${LIMITES.email} caracteres.`)
  .pipe(z.email('El correo electrónico no tiene un formato válido.'));

const nif = z
  .string({ error: 'Introduzca el NIF, NIE o CIF.' })
  .transform(normalizarNif)
  .refine((v) => v.length > 0, 'Introduzca el NIF, NIE o CIF.')
  .refine((v) => v.length === 0 || esNifValido(v), 'El NIF, NIE o CIF no es válido: compruebe el número y su letra de control.');

const texto = (campo: string, max: number) => z.string().trim().max(max, `${campo} no puede superar ${max} caracteres.`).default('');

/** Origin plus path the client sends (docs/api.md); the links of the mails always point at PUBLIC_URL, whatever it says. */
const host = z
  .string()
  .max(500)
  .default('')
  .meta({ description: 'Página de origen (opcional); no se usa: los enlaces del correo apuntan siempre al portal.' });

/** What the password rule asks for, as the API documents it. */
const REGLA_PASSWORD = 'de 3 a 30 caracteres, con una mayúscula, una minúscula y un número';

/**
 * Registration payload (docs/producto.md §3). A person (DNI/NIE) gives the three name fields and no company
 * name; a company (CIF) gives the company name and no person names (docs/producto.md §4, §5).
 */
export const altaUsuarioSchema = z
  .object({
    nif: nif.meta({ description: 'NIF, NIE o CIF; se guarda en mayúsculas, sin espacios, puntos ni guiones.' }),
    razonSocial: texto('La razón social', LIMITES.razonSocial).meta({
      description: 'Razón social: obligatoria con CIF, vacía con DNI o NIE.',
    }),
    nombre: texto('El nombre', LIMITES.nombre).meta({ description: 'Nombre: obligatorio con DNI o NIE, vacío con CIF.' }),
    apellido1: texto('El primer apellido', LIMITES.nombre).meta({
      description: 'Primer apellido: obligatorio con DNI o NIE, vacío con CIF.',
    }),
    apellido2: texto('El segundo apellido', LIMITES.nombre).meta({
      description: 'Segundo apellido: obligatorio con DNI o NIE, vacío con CIF.',
    }),
    password: password.meta({ description: `Contraseña: ${REGLA_PASSWORD}.` }),
    correoElectronico: email.meta({ description: 'Correo electrónico: usuario de acceso y destino del enlace de activación.' }),
    host,
  })
  .superRefine((v, ctx) => {
    const tipo = tipoNif(v.nif);
    if (tipo === 'CIF') {
      if (!v.razonSocial) ctx.addIssue({ code: 'custom', path: ['razonSocial'], message: 'Introduzca la razón social.' });
      if (v.nombre || v.apellido1 || v.apellido2)
        ctx.addIssue({
          code: 'custom',
          path: ['nombre'],
          message: 'Una empresa (CIF) no lleva nombre ni apellidos: deje esos campos vacíos.',
        });
    } else if (tipo === 'DNI') {
      if (!v.nombre) ctx.addIssue({ code: 'custom', path: ['nombre'], message: 'Introduzca el nombre.' });
      if (!v.apellido1) ctx.addIssue({ code: 'custom', path: ['apellido1'], message: 'Introduzca el primer apellido.' });
      if (!v.apellido2) ctx.addIssue({ code: 'custom', path: ['apellido2'], message: 'Introduzca el segundo apellido.' });
      if (v.razonSocial)
        ctx.addIssue({
          code: 'custom',
          path: ['razonSocial'],
          message: 'Una persona (DNI o NIE) no lleva razón social: deje ese campo vacío.',
        });
    }
  });

/** Registration payload after validation. */
export type AltaUsuario = z.infer<typeof altaUsuarioSchema>;

/** Activation: the id from the mailed link. */
export const activarUsuarioSchema = z.object({
  id: z
    .string({ error: 'Falta el identificador del enlace.' })
    .trim()
    .min(1, 'Falta el identificador del enlace.')
    .max(200)
    .meta({ description: 'El id del enlace de activación (`…/sesion/activar-usuario/<id>`).' }),
});

/** Password recovery (docs/producto.md §5 "Recover": e-mail required and valid; NIF required). */
export const recuperarClaveSchema = z.object({
  nif: z
    .string({ error: 'Introduzca el NIF, NIE o CIF.' })
    .transform(normalizarNif)
    .refine((v) => v.length > 0, 'Introduzca el NIF, NIE o CIF.')
    .meta({ description: 'NIF, NIE o CIF de la cuenta.' }),
  correoElectronico: email.meta({ description: 'Correo electrónico de la cuenta.' }),
  host,
});

/** New password: both fields, equal, and following the rule; `host` is the reset page's URL with the id. */
export const actualizarClaveSchema = z
  .object({
    password: z
      .string({ error: 'Introduzca la nueva contraseña.' })
      .min(1, 'Introduzca la nueva contraseña.')
      .meta({ description: `Contraseña nueva: ${REGLA_PASSWORD}.` }),
    passwordCopy: z
      .string({ error: 'Repita la nueva contraseña.' })
      .min(1, 'Repita la nueva contraseña.')
      .meta({ description: 'La contraseña nueva, repetida.' }),
    host: z
      .string({ error: 'Falta el enlace de restablecimiento.' })
      .min(1, 'Falta el enlace de restablecimiento.')
      .max(500)
      .meta({ description: 'URL de la página de restablecimiento, con el id del enlace (`…/sesion/nueva-clave/<id>`).' }),
  })
  .superRefine((v, ctx) => {
    if (v.password !== v.passwordCopy) ctx.addIssue({ code: 'custom', path: ['passwordCopy'], message: 'Las contraseñas no coinciden.' });
    else if (!cumpleReglaPassword(v.password)) ctx.addIssue({ code: 'custom', path: ['password'], message: MENSAJE_PASSWORD });
  });

/** The id at the end of a reset page URL (`…/sesion/nueva-clave/<id>`), or null. */
export function idDeEnlace(url: string, pagina: 'nueva-clave' | 'activar-usuario'): string | null {
  const m = new RegExp(`/sesion/${pagina}/([^/?#]+)`).exec(url);
  return m ? decodeURIComponent(m[1]!) : null;
}

/**
 * The kind of new-password mistake, for the three modals of docs/producto.md §5 (in that order of checks:
 * empty fields, then different values, then the rule).
 */
export function errorNuevaClave(password: string, passwordCopy: string): 'vacios' | 'distintas' | 'patron' | null {
  if (!password || !passwordCopy) return 'vacios';
  if (password !== passwordCopy) return 'distintas';
  if (!cumpleReglaPassword(password)) return 'patron';
  return null;
}
