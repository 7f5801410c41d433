/**
 * How the user list's free-text search reads what the administrator typed: an NIF prefix, an e-mail
 * prefix, and the words of a name or company name matched by prefix, case and accents aside.
 * Pure functions, so the rules are tested without a database.
 */
import { normalizarNif } from '../../lib/nif.ts';
import { patronBusqueda } from '../db/busqueda.ts';

/** At most this many words of the search are used (each adds a condition on the index). */
export const MAX_PALABRAS = 6;

/** Folds accents (á → a, ñ → n, ç → c) and upper case, as the name index does in SQL. */
export function plegar(texto: string): string {
  return texto.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** The words of a search, folded, each only letters a–z and digits. */
export function palabrasBusqueda(q: string): string[] {
  return plegar(q)
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .slice(0, MAX_PALABRAS);
}

/** A `to_tsquery('simple', …)` text that matches every word as a prefix (`mart:* & ort:*`); null without words. */
export function consultaPrefijos(palabras: readonly string[]): string | null {
  // Words hold only [a-z0-9] (palabrasBusqueda), so no tsquery operator can slip in.
  return palabras.length ? palabras.map((p) => `${p}:*`).join(' & ') : null;
}

/** A LIKE pattern that matches values starting with `prefijo` literally (`patronBusqueda`, src/server/db/busqueda.ts). */
export const patronPrefijo = (prefijo: string): string => patronBusqueda(prefijo, 'prefijo');

/** The NIF prefix a search may be (upper case, without spaces, dots or dashes); null when it cannot be one. */
export function prefijoNif(q: string): string | null {
  const nif = normalizarNif(q);
  return /^[A-Z0-9]{1,9}$/.test(nif) ? nif : null;
}

/** The e-mail prefix a search may be (lower case); null when it cannot be one (empty or with spaces). */
export function prefijoEmail(q: string): string | null {
  const email = q.trim().toLowerCase();
  return email && !/\s/.test(email) ? email : null;
}

/** A LIKE pattern that matches values containing `texto` literally: `patronBusqueda` (src/server/db/busqueda.ts). */
export const patronContiene = (texto: string): string => patronBusqueda(texto);
