/**
 * `npm run import -- <tipo> [opciones] FICHERO`: loads a distributor's data file into the database
 * of the configuration (DATA_DIR or DATABASE_URL, as `npm start`), through the same import code
 * as everything else. A file with any fault writes nothing: every faulty line is printed as
 * `línea N: motivo` so it can be fixed in one pass.
 *
 * Exit codes: 0 imported, 1 the file or the publication has faults (nothing written), 2 the
 * command itself is wrong (usage printed).
 *
 * The first positional argument is the kind of import; each kind declares its own options, so a
 * later feature adds one entry to IMPORTADORES (e.g. `medidas`) and nothing else changes.
 * The file is read and checked before the database is opened: a faulty file never touches it.
 * Server modules are loaded only when needed, so a wrong command answers at once.
 */
import { readFile } from 'node:fs/promises';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { FallaCsv } from '../src/server/capacidad-nodal/csv.ts';
import type { Db } from '../src/server/db/client.ts';

/** Thrown for a wrongly written command: the message and the usage are printed, exit 2. */
class UsageError extends Error {}

/** A file that was read and checked: its faults, or how to write it. */
type Comprobado = { errores: FallaCsv[] } | { importar(db: Db): Promise<string> };

/** Parsed option values, as node:util parseArgs gives them. */
type Valores = Record<string, string | boolean | (string | boolean)[] | undefined>;

/** One kind of import. */
interface Importador {
  /** One line for the usage text. */
  descripcion: string;
  /** Lines describing its options, for the usage text. */
  ayuda: string[];
  /** Its options, as node:util parseArgs takes them. */
  opciones: NonNullable<ParseArgsConfig['options']>;
  /** Checks the arguments (UsageError when wrong) and returns what reads and checks the file. */
  preparar(values: Valores, positionals: string[]): () => Promise<Comprobado>;
}

/** The one positional argument every file import takes. */
function unFichero(positionals: string[]): string {
  if (positionals.length !== 1) throw new UsageError(positionals.length ? 'Indique un solo fichero.' : 'Falta el fichero que se importa.');
  return positionals[0]!;
}

/** A required string option. */
function obligatoria(values: Valores, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`Falta la opción --${name}.`);
  return value;
}

/** Reads a file's bytes, or the fault that says why it cannot be read. */
async function leer(path: string): Promise<Uint8Array | FallaCsv> {
  try {
    return await readFile(path);
  } catch (err) {
    return { line: 0, message: `No se puede leer el fichero ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}.` };
  }
}

/** Kinds of import, by the name the first argument gives. */
const IMPORTADORES: Record<string, Importador> = {
  capacidad: {
    descripcion: 'capacidad de acceso de los nudos, generación (CSV, formato de DOMAIN.md §7.1)',
    ayuda: [
      '--distribuidora epd|eod   distribuidora que publica la capacidad',
      '--mes AAAA-MM             mes de la publicación; sustituye a la de ese mes si ya existe',
    ],
    opciones: { distribuidora: { type: 'string' }, mes: { type: 'string' } },
    preparar(values, positionals) {
      const distribuidora = obligatoria(values, 'distribuidora').toLowerCase();
      const mes = obligatoria(values, 'mes');
      const path = unFichero(positionals);
      return async () => {
        const { comprobarCapacidadCsv, importCapacidad } = await import('../src/server/capacidad-nodal/service.ts');
        const { DISTRIBUIDORAS } = await import('../src/lib/distribuidoras.ts');
        const bytes = await leer(path);
        if (!(bytes instanceof Uint8Array)) return { errores: [bytes] };
        // The service checks the code and says which distributors publish; the cast only satisfies the type.
        const publicacion = { distribuidora: distribuidora as 'epd', publicacion: mes, tipo: 'generacion' as const };
        const { nudos, errores } = comprobarCapacidadCsv(publicacion, bytes);
        if (errores.length) return { errores };
        return {
          async importar(db) {
            const { sustituidos } = await importCapacidad(db, publicacion, nudos);
            const nombre = DISTRIBUIDORAS.find((d) => d.codigo === distribuidora)?.nombre ?? distribuidora;
            return (
              `Importados ${nudos.length} nudos de capacidad de acceso de ${nombre} (${distribuidora}), publicación ${mes}` +
              (sustituidos ? `; sustituyen a los ${sustituidos} nudos que había de ese mes.` : '.')
            );
          },
        };
      };
    },
  },
};

/** The usage text, built from IMPORTADORES. */
function uso(): string {
  const tipos = Object.entries(IMPORTADORES).flatMap(([name, imp]) => [
    `  ${name.padEnd(12)}${imp.descripcion}`,
    ...imp.ayuda.map((line) => `  ${' '.repeat(12)}${line}`),
  ]);
  return [
    'Uso: npm run import -- <tipo> [opciones] FICHERO',
    '',
    'Tipos:',
    ...tipos,
    '',
    'Ejemplo: npm run import -- capacidad --distribuidora epd --mes 2026-11 capacidad-epd.csv',
    '',
    'Usa la base de datos de la configuración (DATA_DIR o DATABASE_URL), como npm start, sin cargar datos',
    'de demostración. Con la base de datos embebida, detenga antes el portal: solo un proceso puede abrirla.',
    'Sale con 0 si importa; 1 si hay errores (no se escribe nada); 2 si la orden está mal escrita.',
  ].join('\n');
}

/** Prints the faults as `línea N: motivo` (the file's own faults have no line) and the outcome. */
function informar(errores: FallaCsv[]): void {
  for (const e of errores) console.error(e.line ? `línea ${e.line}: ${e.message}` : e.message);
  const n = errores.length;
  console.error(`No se ha importado nada: ${n === 1 ? 'corrija el error' : `corrija los ${n} errores`} y vuelva a intentarlo.`);
}

/** Runs the command line; returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  const [tipo, ...rest] = argv;
  if (tipo === '-h' || tipo === '--help') {
    console.log(uso());
    return 0;
  }
  let cargar: () => Promise<Comprobado>;
  try {
    const importador = tipo === undefined ? undefined : IMPORTADORES[tipo];
    if (!importador) throw new UsageError(tipo === undefined ? 'Falta el tipo de importación.' : `Tipo de importación desconocido: «${tipo}».`);
    const { values, positionals } = parseArgs({ args: rest, options: importador.opciones, allowPositionals: true, strict: true });
    cargar = importador.preparar(values, positionals);
  } catch (err) {
    // parseArgs reports unknown options with ERR_PARSE_ARGS_* codes (in English, naming the option).
    if (!(err instanceof UsageError) && !(err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) throw err;
    console.error(`${(err as Error).message}\n\n${uso()}`);
    return 2;
  }

  const comprobado = await cargar();
  if ('errores' in comprobado) {
    informar(comprobado.errores);
    return 1;
  }

  const { loadConfig } = await import('../src/server/config.ts');
  const { createLogger } = await import('../src/server/logger.ts');
  const { prepareDatabase } = await import('../src/server/main.ts');
  const { ImportacionRechazada } = await import('../src/server/capacidad-nodal/service.ts');
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    return 1;
  }
  // Logs go to stderr so stdout carries only the result; demo data and the bootstrap administrator are the server's business.
  const logger = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel, process.stderr);
  const database = await prepareDatabase({ ...config, demoData: false, adminEmail: null, adminPassword: null }, logger);
  try {
    console.log(await comprobado.importar(database.db));
    return 0;
  } catch (err) {
    if (!(err instanceof ImportacionRechazada)) throw err;
    informar(err.errores);
    return 1;
  } finally {
    await database.close();
  }
}

if (import.meta.main) process.exitCode = await main(process.argv.slice(2));
