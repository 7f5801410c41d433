/**
 * Named prepared statements, used for every statement text the server runs again, on either driver.
 *
 * PGlite's `query` sends each statement as an unnamed one, in six calls into PostgreSQL (Parse,
 * Describe, Bind, Describe, Execute, Sync; @electric-sql/pglite 0.5, `#runQuery`), and PostgreSQL
 * parses and plans it every time. Here a text seen a second time is parsed once under a name of its
 * own (PostgreSQL frontend/backend protocol, "Extended Query"), and from then on each execution is
 * one call: Bind, Describe, Execute and Sync together. PostgreSQL keeps the statement's plan
 * ("PREPARE": after five executions a generic plan, when it costs no more than the custom ones), and
 * replans it by itself when a table it reads changes (DDL). Measured on the login's success
 * statement: 1.1–1.8 ms as before, 0.44 ms prepared (docs/decisions/032-sentencias-preparadas.md).
 *
 * What a query answers is the same either way: the rows parsed by PGlite's own `parseResults` with
 * the client's parsers and the query's options; errors are PostgreSQL's, thrown once the Sync has
 * brought the connection back to idle (or to the failed transaction, which the caller rolls back).
 * The locks are PGlite's: a statement outside a transaction waits for any open transaction to end, as
 * `query` does; one inside runs in it.
 *
 * On PostgreSQL, node-postgres does the same for a query given a name: it parses it once per
 * connection and from then on only binds and executes it; the pool Drizzle uses names repeated texts
 * (`poolConPreparadas`). Transactions run on a connection of their own, their statements unnamed.
 */
import { parse, protocol, type PGlite, type QueryOptions, type Results } from '@electric-sql/pglite';
import type pg from 'pg';

/** Statements a database keeps prepared at most; the texts beyond run unnamed, as before. */
const MAX_PREPARADAS = 256;

/** Texts remembered as seen once; past this the memory starts again (one-off texts never repeat). */
const MAX_VISTAS = 1024;

/**
 * Longer texts are neither remembered nor prepared: they are the bulk statements of imports, built
 * for so many rows, whose parsing is small beside their work, and the memory stays bounded
 * (MAX_VISTAS and MAX_PREPARADAS texts of at most this many characters).
 */
const MAX_LONGITUD = 16_384;

/** What PGlite has and its type declarations keep private (@electric-sql/pglite 0.5.16). */
interface PgliteInterno {
  serializers: Record<number, (valor: unknown) => string>;
  parsers: Parameters<typeof parse.parseResults>[1];
  _checkReady(): Promise<void>;
  _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T>;
  _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>;
  execProtocolStream(mensaje: Uint8Array, opciones: { syncToFs: boolean }): Promise<unknown[]>;
  syncToFs(): Promise<void>;
}

/**
 * Which texts of one database are prepared, under which names. A text is prepared the second time it
 * comes: a statement built for one call only (a bulk insert of so many rows) never is.
 */
class Memoria<T> {
  readonly preparadas = new Map<string, T>();
  private readonly vistas = new Set<string>();
  private siguiente = 0;

  /** Whether `texto` is to be prepared now; remembers it as seen otherwise. */
  preparar(texto: string): boolean {
    if (texto.length > MAX_LONGITUD) return false;
    if (this.preparadas.has(texto)) return true;
    if (this.vistas.has(texto) && this.preparadas.size < MAX_PREPARADAS) return true;
    if (this.vistas.size >= MAX_VISTAS) this.vistas.clear();
    this.vistas.add(texto);
    return false;
  }

  /** A name no other text of this database has. */
  nombreNuevo(): string {
    return `portal_${++this.siguiente}`;
  }
}

interface Preparada {
  nombre: string;
  /** Types of its parameters, as PostgreSQL inferred them: how each value is sent. */
  tipos: number[];
}

const memorias = new WeakMap<PGlite, Memoria<Preparada>>();

function memoriaDe(cliente: PGlite): Memoria<Preparada> {
  let memoria = memorias.get(cliente);
  if (!memoria) memorias.set(cliente, (memoria = new Memoria()));
  return memoria;
}

function juntar(partes: Uint8Array[]): Uint8Array {
  const todo = new Uint8Array(partes.reduce((n, p) => n + p.length, 0));
  let desde = 0;
  for (const p of partes) {
    todo.set(p, desde);
    desde += p.length;
  }
  return todo;
}

/** PostgreSQL's refusal to run a prepared statement whose answer's columns changed type (plancache.c). */
function esPlanCaducado(err: unknown): boolean {
  return (err as { code?: string }).code === '0A000' && /cached plan must not change result type/.test(String((err as Error).message));
}

/** Parses `texto` under a new name; answers its parameter types. Runs inside PGlite's query lock. */
async function preparar(pg: PgliteInterno, nombre: string, texto: string): Promise<number[]> {
  const mensajes = await pg.execProtocolStream(
    juntar([
      protocol.serialize.parse({ name: nombre, text: texto }),
      protocol.serialize.describe({ type: 'S', name: nombre }),
      protocol.serialize.sync(),
    ]),
    { syncToFs: false },
  );
  const descripcion = mensajes.find((m) => (m as { name?: string }).name === 'parameterDescription') as
    { dataTypeIDs: number[] } | undefined;
  return descripcion?.dataTypeIDs ?? [];
}

/**
 * A `query` for PGlite that runs repeated texts as named prepared statements. `enTransaccion`: the
 * function is a transaction's, whose lock its caller already holds; `sinPreparar` runs a text the
 * usual way (the client's or the transaction's own `query`).
 */
export function consultaConPreparadas(
  cliente: PGlite,
  enTransaccion: boolean,
  sinPreparar: (texto: string, params?: unknown[], opciones?: QueryOptions) => Promise<Results<unknown>>,
): (texto: string, params?: unknown[], opciones?: QueryOptions) => Promise<Results<unknown>> {
  const pg = cliente as unknown as PgliteInterno;
  const memoria = memoriaDe(cliente);
  return async (texto, params = [], opciones) => {
    // Options this path does not carry (COPY's blobs, given types) go the usual way.
    if (opciones?.blob || opciones?.paramTypes || !memoria.preparar(texto)) return sinPreparar(texto, params, opciones);
    let preparada = memoria.preparadas.get(texto);
    const ejecutar = async (): Promise<Results<unknown>> => {
      if (!preparada) {
        // Prepared here, inside the lock: two first executions at once must not both parse one name.
        preparada = memoria.preparadas.get(texto);
        if (!preparada) {
          const nombre = memoria.nombreNuevo();
          preparada = { nombre, tipos: await preparar(pg, nombre, texto) };
          memoria.preparadas.set(texto, preparada);
        }
      }
      const { nombre, tipos } = preparada;
      const valores = params.map((valor, i) => {
        if (valor === null || valor === undefined) return null;
        const serializar = opciones?.serializers?.[tipos[i]!] ?? pg.serializers[tipos[i]!];
        return serializar ? serializar(valor) : String(valor);
      });
      const mensajes = await pg.execProtocolStream(
        juntar([
          protocol.serialize.bind({ statement: nombre, values: valores }),
          protocol.serialize.describe({ type: 'P' }),
          protocol.serialize.execute({}),
          protocol.serialize.sync(),
        ]),
        { syncToFs: false },
      );
      if (!enTransaccion) await pg.syncToFs();
      return parse.parseResults(mensajes as Parameters<typeof parse.parseResults>[0], pg.parsers, opciones)[0]!;
    };
    try {
      if (enTransaccion) return await pg._runExclusiveQuery(ejecutar);
      await pg._checkReady();
      return await pg._runExclusiveTransaction(() => pg._runExclusiveQuery(ejecutar));
    } catch (err) {
      // A table it reads changed the type of a column it answers (a migration): PostgreSQL will not
      // replan that by itself. The text is prepared afresh under a new name when it comes again.
      if (!esPlanCaducado(err)) throw err;
      memoria.preparadas.delete(texto);
      return sinPreparar(texto, params, opciones);
    }
  };
}

/** What Drizzle's node-postgres driver passes to `query` (drizzle-orm/node-postgres/session.js). */
type ConfigDeConsulta = pg.QueryConfig & { name?: string };

/**
 * The pool Drizzle gets: the same pool, whose `query` gives repeated texts a name of their own, so
 * that each connection parses them once. Everything else (connect, end, events) is the pool's.
 */
export function poolConPreparadas(pool: pg.Pool): pg.Pool {
  const memoria = new Memoria<string>();
  const consultar = pool.query.bind(pool) as (...a: unknown[]) => Promise<unknown>;
  const query = (config: unknown, ...resto: unknown[]): unknown => {
    const c = config as ConfigDeConsulta;
    // Only texts with parameters: without, node-postgres sends the simple protocol, which also
    // takes several statements in one text, as the extended one does not.
    const valores = resto[0] ?? c.values;
    const conParametros = Array.isArray(valores) && valores.length > 0;
    const conCallback = resto.some((r) => typeof r === 'function');
    if (
      typeof config !== 'object' ||
      config === null ||
      c.name !== undefined ||
      conCallback ||
      !conParametros ||
      !memoria.preparar(c.text)
    ) {
      return consultar(config, ...resto);
    }
    let nombre = memoria.preparadas.get(c.text);
    if (nombre === undefined) memoria.preparadas.set(c.text, (nombre = memoria.nombreNuevo()));
    return consultar({ ...c, name: nombre }, ...resto).catch((err: unknown) => {
      // As on PGlite: a column it answers changed type; the text gets a new name when it comes again.
      if (!esPlanCaducado(err)) throw err;
      memoria.preparadas.delete(c.text);
      return consultar(config, ...resto);
    });
  };
  return new Proxy(pool, {
    get(destino, clave) {
      if (clave === 'query') return query;
      const valor = Reflect.get(destino, clave, destino) as unknown;
      return typeof valor === 'function' ? (valor as (...a: unknown[]) => unknown).bind(destino) : valor;
    },
  });
}
