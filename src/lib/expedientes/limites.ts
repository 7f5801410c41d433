/** Limits of a case's documents the screens show and the API enforces; without zod, so an island imports it cheaply. */

/**
 * Most documents a case holds, both sides and pending ones together. Every document is kept in the
 * database for as long as the case; 60 leave room for every document a procedure asks for (an
 * access request needs at most a dozen) and for corrections, and bound what one account can store
 * on one case (docs/decisions/035).
 */
export const MAX_DOCUMENTOS_EXPEDIENTE = 60;

/** The message of an upload to a case that already holds MAX_DOCUMENTOS_EXPEDIENTE documents (the API's 409). */
export const MENSAJE_DOCUMENTOS_MAXIMO = `Este expediente ya tiene ${MAX_DOCUMENTOS_EXPEDIENTE} documentos, el máximo que admite. Quite alguno pendiente que ya no necesite, o reúna varias páginas en un solo PDF, antes de subir otro.`;
