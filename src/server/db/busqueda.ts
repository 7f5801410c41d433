/**
 * The one way the staff queues and lists search stored text for what someone typed: the text is
 * matched literally, so `%` and `_` (LIKE's wildcards) and `\` (its escape character) find
 * themselves and never every row. The backslash is LIKE's and ILIKE's escape character by default in
 * PostgreSQL (no setting changes it; patterns travel as bound parameters, so string-literal settings
 * do not touch them). No `escape` clause is written: it would wrap the pattern in `like_escape()`,
 * which a generic plan of a named prepared statement cannot fold, and the prefix index would be lost.
 */
import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';

/** Escapes `\`, `%` and `_` so the text means itself inside a LIKE pattern. */
export function literalLike(texto: string): string {
  return texto.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

/** A LIKE pattern matching values that start with `texto` (`forma` 'prefijo') or contain it ('contiene'), literally. */
export function patronBusqueda(texto: string, forma: 'prefijo' | 'contiene' = 'contiene'): string {
  return forma === 'prefijo' ? `${literalLike(texto)}%` : `%${literalLike(texto)}%`;
}

/** `expresion like …` for a value starting with `texto`: case as typed, so a btree index of a code, CUPS or NIF can serve it. */
export function empiezaPor(expresion: SQLWrapper, texto: string): SQL {
  return sql`${expresion} like ${patronBusqueda(texto, 'prefijo')}`;
}

/** `expresion ilike …` for a value containing `texto`, upper and lower case alike. */
export function contiene(expresion: SQLWrapper, texto: string): SQL {
  return sql`${expresion} ilike ${patronBusqueda(texto)}`;
}
