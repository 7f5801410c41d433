/** Route facts shared by the server's router and the pages (docs/producto.md §2). */

/** First path segments of the private area: the server answers all of them with the private shell. */
export const PREFIJOS_PRIVADOS = [
  'inicio',
  'administrador',
  'accesoyconexion',
  'comercializadora',
  'medidas',
  'modificacionesContractuales',
  'contacto',
  'perfil',
  'informacionContrato',
] as const;

/** Session pages reached from mailed links, whose last segment is the link id. */
export const PAGINAS_CON_ID = ['/sesion/activar-usuario', '/sesion/nueva-clave', '/sesion/confirmar-email'] as const;

/** Path of the built page that hosts the private area's app. */
export const SHELL_PRIVADO = '/area-privada-shell';

/** Whether a path belongs to the private area. */
export function esRutaPrivada(path: string): boolean {
  const first = path.split('/')[1] ?? '';
  return (PREFIJOS_PRIVADOS as readonly string[]).includes(first);
}
