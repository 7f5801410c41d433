/**
 * The SSH public keys a supply company registers for the SFTP exchange (docs/decisions/019): what
 * the profile screen and the server both say about them, so a private key pasted by mistake is
 * refused in the browser and never sent.
 */

/** Most keys an account may register. */
export const MAX_CLAVES_SSH = 10;

export const MENSAJES_CLAVE = {
  formato:
    'Pegue la clave pública en el formato de OpenSSH: una línea como «ssh-ed25519 AAAA… comentario» (el contenido del fichero .pub).',
  tipo: 'Tipo de clave no admitido: use ssh-ed25519, ecdsa-sha2-nistp256/384/521 o ssh-rsa de al menos 2048 bits.',
  privada: 'Eso es una clave privada: pegue solo la pública (el fichero .pub), y no comparta nunca la privada.',
  repetida: 'Esa clave ya está registrada en su cuenta.',
  muchas: `Como mucho puede registrar ${MAX_CLAVES_SSH} claves: borre alguna que ya no use.`,
} as const;

/** Whether a pasted text is (or holds) a private key. */
export function esClavePrivada(texto: string): boolean {
  return /PRIVATE KEY/.test(texto);
}
