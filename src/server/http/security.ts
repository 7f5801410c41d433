/** Security headers on every answer, and a CSP that allows only the site's own scripts. */
import { createHash } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { esHttps } from './cliente.ts';
import type { AppEnv } from './context.ts';

/** sha256 CSP sources of the inline scripts in an HTML document (Astro inlines its island loader). */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const m of html.matchAll(/<script(?![^>]*\ssrc=)([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const attrs = m[1] ?? '';
    const body = m[2] ?? '';
    if (/type=["']?application\/(ld\+)?json/i.test(attrs) || body.length === 0) continue;
    hashes.push(`'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`);
  }
  return hashes;
}

/** Builds the Content-Security-Policy: scripts from this origin plus the hashed inline ones, never 'unsafe-inline'. */
export function contentSecurityPolicy(scriptHashes: readonly string[], https: boolean): string {
  const directives = [
    "default-src 'self'",
    // wasm-unsafe-eval lets the search index's WebAssembly compile; it allows no JavaScript eval.
    `script-src 'self' 'wasm-unsafe-eval'${scriptHashes.length ? ' ' + [...new Set(scriptHashes)].join(' ') : ''}`,
    // Astro scopes component styles in <style> blocks and React sets style attributes.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "media-src 'self'",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ];
  if (https) directives.push('upgrade-insecure-requests');
  return directives.join('; ');
}

/**
 * Sets a header on an answer a route already made. Hono's `c.header()` on a finished answer copies
 * it into a new Response built from its body, which turns a body kept as a buffer into a stream
 * (@hono/node-server then pipes it instead of writing it in one call): a header set eight times per
 * answer cost more than the rest of the answer. The answer's own headers are changed instead; only
 * a Response whose headers cannot change (one made by `Response.redirect`) goes through `c.header()`.
 */
export function ponerCabecera(c: Context, nombre: string, valor: string): void {
  try {
    c.res.headers.set(nombre, valor);
  } catch {
    c.header(nombre, valor);
  }
}

/** One header: its name and value. */
export type Cabecera = readonly [nombre: string, valor: string];

/**
 * The security headers of every answer, for a scheme. They change only with the site's script
 * hashes (fixed once the site is loaded) and the scheme, so each list is built once, not per answer;
 * the middleware below and the built site's direct answers (src/server/site/directo.ts) both take
 * them from here.
 */
export function cabecerasDeSeguridad(getScriptHashes: () => readonly string[]): (https: boolean) => readonly Cabecera[] {
  let hechas: readonly string[] | undefined;
  const listas = new Map<boolean, readonly Cabecera[]>();
  return (https) => {
    const hashes = getScriptHashes();
    if (hashes !== hechas) {
      hechas = hashes;
      listas.clear();
    }
    let lista = listas.get(https);
    if (lista === undefined) {
      const todas: Cabecera[] = [
        ['Content-Security-Policy', contentSecurityPolicy(hashes, https)],
        ['X-Content-Type-Options', 'nosniff'],
        ['X-Frame-Options', 'DENY'],
        ['Referrer-Policy', 'strict-origin-when-cross-origin'],
        ['Cross-Origin-Opener-Policy', 'same-origin'],
        ['Cross-Origin-Resource-Policy', 'same-origin'],
        ['Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=(), usb=()'],
      ];
      if (https) todas.push(['Strict-Transport-Security', 'max-age=63072000; includeSubDomains']);
      listas.set(https, (lista = todas));
    }
    return lista;
  };
}

/** Adds the security headers to every answer, API and pages alike. */
export function securityHeaders(getScriptHashes: () => readonly string[]): MiddlewareHandler<AppEnv> {
  const cabeceras = cabecerasDeSeguridad(getScriptHashes);
  return async (c, next) => {
    await next();
    for (const [nombre, valor] of cabeceras(esHttps(c))) ponerCabecera(c, nombre, valor);
  };
}
