/**
 * Typed API addresses (docs/decisions/045): `urlApi('/atr/solicitudes/{id}', { path: { id } })` gives
 * `/api/atr/solicitudes/42`. The path must be one of the OpenAPI document's (src/lib/api/esquema.ts,
 * generated from the server's routes), its `{…}` parameters must all be given, and the query may only
 * name parameters one of the path's operations declares: a typo fails to compile.
 */
import type { paths } from './esquema.ts';

/** A path of the API as the OpenAPI document spells it, without `/api`. */
export type RutaApi = keyof paths;

type Metodo = 'get' | 'put' | 'post' | 'delete' | 'patch';

/** The operations the path has (those its path item does not mark `never`). */
type Operacion<R extends RutaApi> = { [M in Metodo]-?: NonNullable<paths[R][M & keyof paths[R]]> }[Metodo];

/** The names of the `{…}` parameters of a path template. */
type NombresEnRuta<S extends string> = S extends `${string}{${infer N}}${infer Resto}` ? N | NombresEnRuta<Resto> : never;

/** A value put in the address; `null` and `undefined` leave the query parameter out. */
type Valor = string | number | boolean | null | undefined;

/** The query of any of the path's operations, with loose values: URLs carry text, the names are what is checked. */
type ConsultaDe<R extends RutaApi> =
  Operacion<R> extends infer O
    ? O extends { parameters: { query?: infer Q } }
      ? [NonNullable<Q>] extends [never]
        ? never
        : { [K in keyof NonNullable<Q>]?: Valor }
      : never
    : never;

/**
 * `path` is required when the template has parameters; `query` only when some operation takes one.
 * `formulario` writes the query as a form does (URLSearchParams: a space is `+`), for the screens that
 * always sent it so; else each value goes through encodeURIComponent (a space is `%20`).
 */
export type ParametrosUrl<R extends RutaApi> = ([NombresEnRuta<R>] extends [never]
  ? { path?: never }
  : { path: Record<NombresEnRuta<R>, string | number> }) &
  ([ConsultaDe<R>] extends [never] ? { query?: never } : { query?: ConsultaDe<R> | undefined; formulario?: boolean });

/** The 2xx JSON answer of the path's operation `metodo` (for `apiFetch<…>`). */
export type RespuestaJson<R extends RutaApi, M extends Metodo = 'get'> =
  NonNullable<paths[R][M & keyof paths[R]]> extends {
    responses: infer Rs;
  }
    ? { [S in keyof Rs]: S extends 200 | 201 ? (Rs[S] extends { content: { 'application/json': infer J } } ? J : never) : never }[keyof Rs]
    : never;

/** The `/api/…` address of `ruta` with its path parameters and query filled in (see the module comment). */
export function urlApi<R extends RutaApi>(
  ruta: R,
  ...[parametros]: [NombresEnRuta<R>] extends [never] ? [parametros?: ParametrosUrl<R>] : [parametros: ParametrosUrl<R>]
): string {
  const valores = (parametros?.path ?? {}) as Record<string, string | number>;
  const camino = ruta.replace(/\{([^}]+)\}/g, (_, nombre: string) => {
    const v = valores[nombre];
    if (v === undefined) throw new Error(`Falta el parámetro ${nombre} de ${ruta}`);
    return encodeURIComponent(String(v));
  });
  const query = (parametros?.query ?? {}) as Record<string, Valor>;
  const pares = Object.entries(query)
    .filter((e): e is [string, string | number | boolean] => e[1] !== undefined && e[1] !== null)
    .map(([k, v]): [string, string] => [k, String(v)]);
  const consulta =
    parametros && 'formulario' in parametros && parametros.formulario
      ? new URLSearchParams(pares).toString()
      : pares.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  return `/api${camino}${consulta ? `?${consulta}` : ''}`;
}
