/** The exact Spanish texts of docs/producto.md §2, §5 and §8 for the session screens, in one place for the screens and their tests. */

/** Modal titles and bodies, word for word (typos and missing spaces included, as the specification gives them). */
export const TEXTOS = {
  error: 'Error',
  loginFallido: 'Usuario o contraseña incorrecta',
  cuentaPendiente: 'Cuenta pendiente de activación',
  reenviarActivacion: 'Reenviar el correo de activación',
  activacionReenviada: 'Correo de activación enviado',
  activacionFallida: 'No hemos podido validar su cuenta.Por favor, intentelo de nuevo, o pongase en contacto con nosotros.',
  altaFallidaPorDefecto: 'El usuario ya existe o faltan datos para el alta',
  cuentaCreada: 'Cuenta creada',
  cuentaCreadaTexto: 'Recibirá en su correo las instrucciones para la activación.Será redireccionado al inicio en breves momentos',
  claveCambiada: 'Contraseña cambiada',
  claveCambiadaTexto: 'Su contraseña ha sido actualizada. Recibirá un correo con la confirmación correspondiente.',
  claveNoCambiada: 'Error al cambiar contraseña',
  claveNoCambiadaTexto: 'No hemos podido actualizar su contraseña, por favor, inténtelo de nuevo o mas tarde.',
  peticionProcesada: 'Petición procesada correctamente',
  peticionProcesadaTexto: 'Le hemos enviado un correo electrónico con las instrucciones para recuperar su contraseña. Por favor, revíselo.',
  peticionFallida: 'Error al procesar la petición',
  peticionFallidaTexto: 'No hemos podido procesar su petición, por favor, verifique los datos o inténtelo de nuevo o mas tarde.',
  camposVacios: 'Campos vacíos',
  camposVaciosTexto: 'Por favor, rellene los campos vacíos y vuelva a intentarlo.',
  clavesDistintas: 'Contraseña erronea',
  clavesDistintasTexto: 'Las contraseñas no coinciden, compruebe ambos campos y vuelva a intentarlo.',
  patron: 'Los campos no cumplen los requisitos',
  patronTexto: 'Por favor, compruebe que las contraseñas cumplen con el patrón determinado.',
} as const;

/** Shown when the portal could not be reached at all (no HTTP answer). */
export { MENSAJE_SIN_CONEXION as MENSAJE_ERROR_CONEXION } from '../../lib/api/cliente.ts';

/** docs/producto.md §4, §9: milliseconds before leaving the registration and activation screens for the login. */
export const ESPERAS = { trasAlta: 7000, trasActivacion: 5000 } as const;
