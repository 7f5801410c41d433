/**
 * Where the login page may send the user afterwards (docs/producto.md §2 "returnUrl"). Only a path on this
 * site is accepted, so a crafted link cannot turn the portal's login into a trampoline to a phishing
 * site (open redirect, OWASP ASVS 5.0 V1.x / CWE-601).
 */

/** Default destination after login (docs/producto.md §9). */
export const RETORNO_POR_DEFECTO = '/inicio';

/**
 * The `returnUrl` when it is a same-site path, else `porDefecto`. Accepted: starts with exactly one
 * `/` and is not followed by `/` or `\` (browsers read `//host` and `/\host` as another host), holds
 * no control characters or backslashes (some parsers drop or turn them into `/`), and resolves to
 * this origin. The result is the normalised path, query and fragment, never an absolute URL.
 */
export function rutaDeRetornoSegura(valor: string | null | undefined, porDefecto: string = RETORNO_POR_DEFECTO): string {
  if (typeof valor !== 'string' || valor.length === 0 || valor.length > 2000) return porDefecto;
  if (!valor.startsWith('/') || valor.startsWith('//')) return porDefecto;
  // Backslashes and C0/C1 controls (tab, newline…) are stripped or rewritten by URL parsers: "/\t/evil.com" becomes "//evil.com".
  // eslint-disable-next-line no-control-regex
  if (/[\\\u0000-\u001f\u007f-\u009f]/.test(valor)) return porDefecto;
  const base = 'http://portal.invalid';
  let url: URL;
  try {
    url = new URL(valor, base);
  } catch {
    return porDefecto;
  }
  if (url.origin !== base) return porDefecto;
  const ruta = `${url.pathname}${url.search}${url.hash}`;
  // After dot-segment removal the path must still be a single-slash path ("/./" tricks, "/..//x").
  if (!ruta.startsWith('/') || ruta.startsWith('//')) return porDefecto;
  // Going back to a session page after logging in would loop or make no sense.
  if (url.pathname === '/sesion/login' || url.pathname.startsWith('/sesion/login/')) return porDefecto;
  return ruta;
}
