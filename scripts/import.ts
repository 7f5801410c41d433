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
import type { RegistroMedida } from '../src/lib/medidas/tipos.ts';
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

/** How a capacity import (generation or demand) reads, checks and writes its kind of publication. */
interface TipoCapacidad {
  descripcion: string;
  /** What `--mes` replaces, for the usage text. */
  sustituye: string;
  /** The kind's checker and writer, loaded when needed. */
  cargar(): Promise<{
    comprobar(p: { distribuidora: 'epd'; publicacion: string }, file: Uint8Array): { nudos: unknown[]; errores: FallaCsv[] };
    importar(db: Db, p: { distribuidora: 'epd'; publicacion: string }, nudos: never[]): Promise<{ sustituidos: number }>;
    /** A fault naming the other command when the file is of the other kind, or null. */
    otroTipo?(file: Uint8Array, orden: (tipo: string) => string): Promise<FallaCsv | null>;
  }>;
  /** "Importados N nudos <que> de …". */
  que: string;
  /** The end of that sentence when an import replaced nodes. */
  sustituidos(n: number): string;
}

/** A capacity import: `--distribuidora`, `--mes` and one CSV file. */
function importadorCapacidad(t: TipoCapacidad): Importador {
  return {
    descripcion: t.descripcion,
    ayuda: [
      '--distribuidora epd|eod   distribuidora que publica la capacidad',
      `--mes AAAA-MM             mes de la publicación; ${t.sustituye}`,
    ],
    opciones: { distribuidora: { type: 'string' }, mes: { type: 'string' } },
    preparar(values, positionals) {
      const distribuidora = obligatoria(values, 'distribuidora').toLowerCase();
      const mes = obligatoria(values, 'mes');
      const path = unFichero(positionals);
      return async () => {
        const tipo = await t.cargar();
        const { DISTRIBUIDORAS } = await import('../src/lib/distribuidoras.ts');
        const bytes = await leer(path);
        if (!(bytes instanceof Uint8Array)) return { errores: [bytes] };
        // The service checks the code and says which distributors publish; the cast only satisfies the type.
        const publicacion = { distribuidora: distribuidora as 'epd', publicacion: mes };
        const { nudos, errores } = tipo.comprobar(publicacion, bytes);
        if (errores.length) {
          const otro = await tipo.otroTipo?.(
            bytes,
            (orden) => `npm run import -- ${orden} --distribuidora ${distribuidora} --mes ${mes} ${path}`,
          );
          return { errores: otro ? [otro] : errores };
        }
        return {
          async importar(db) {
            const { sustituidos } = await tipo.importar(db, publicacion, nudos as never[]);
            const nombre = DISTRIBUIDORAS.find((d) => d.codigo === distribuidora)?.nombre ?? distribuidora;
            return (
              `Importados ${nudos.length} nudos ${t.que} de ${nombre} (${distribuidora}), publicación ${mes}` +
              (sustituidos ? t.sustituidos(sustituidos) : '.')
            );
          },
        };
      };
    },
  };
}

/** Kinds of import, by the name the first argument gives. */
const IMPORTADORES: Record<string, Importador> = {
  capacidad: importadorCapacidad({
    descripcion: 'capacidad de acceso de los nudos, generación (CSV, formato de docs/sector.md §7.1)',
    sustituye: 'sustituye a la de ese mes si ya existe',
    async cargar() {
      const { comprobarCapacidadCsv, importCapacidad } = await import('../src/server/capacidad-nodal/service.ts');
      return {
        comprobar: (p, file) => comprobarCapacidadCsv({ ...p, tipo: 'generacion' }, file),
        importar: (db, p, nudos) => importCapacidad(db, { ...p, tipo: 'generacion' }, nudos),
        // A demand file given to the generation import: say which command reads it.
        async otroTipo(file, orden) {
          const { parseCapacidadDemandaCsv } = await import('../src/server/capacidad-nodal/demanda-csv.ts');
          if (parseCapacidadDemandaCsv(file).errores.length) return null;
          const texto = `El fichero es de capacidad de demanda (formato armonizado de 2025): impórtelo con «${orden('capacidad-demanda')}».`;
          return { line: 0, message: texto };
        },
      };
    },
    que: 'de capacidad de acceso',
    sustituidos: (n) => `; sustituyen a los ${n} nudos que había de ese mes.`,
  }),
  'capacidad-demanda': importadorCapacidad({
    descripcion: 'capacidad de acceso de los nudos, demanda (CSV, formato armonizado CNMC 2025, docs/sector.md §7.2)',
    sustituye: 'sustituye entera a la publicación anterior',
    async cargar() {
      const { comprobarCapacidadDemandaCsv, importCapacidadDemanda } = await import('../src/server/capacidad-nodal/demanda.ts');
      return { comprobar: comprobarCapacidadDemandaCsv, importar: importCapacidadDemanda };
    },
    que: 'de capacidad de acceso de demanda',
    sustituidos: (n) => `; sustituyen a los ${n} nudos de la publicación anterior.`,
  }),
  medidas: {
    descripcion: 'curvas horarias o cuartohorarias: ficheros P5D y F5D de REE y CSV de consumos (docs/sector.md §5)',
    ayuda: [
      'FICHERO…                  uno o varios; el formato se reconoce por el nombre y el contenido',
      '                          todos se comprueban antes de escribir; si alguno tiene errores no se importa nada',
      '--estricto                rechaza también lo dudoso: un día de cambio de octubre con una hora de menos',
    ],
    opciones: { estricto: { type: 'boolean' } },
    preparar(values, positionals) {
      if (positionals.length === 0) throw new UsageError('Falta el fichero que se importa.');
      return async () => {
        const { basename } = await import('node:path');
        const { recorrerFicheroMedidas, validarFicheroMedidas } = await import('../src/server/medidas/formatos/index.ts');
        const { importarMedidas } = await import('../src/server/medidas/importar.ts');
        const opciones = { estricto: values.estricto === true };
        const errores: FallaCsv[] = [];
        const avisos: string[] = [];
        // First pass, before the database is opened: every file is read as a stream and checked,
        // keeping no records (a 500 MB REE file is checked with flat memory).
        for (const path of positionals) {
          const nombre = basename(path);
          let r;
          try {
            r = await validarFicheroMedidas(nombre, { ruta: path }, opciones);
          } catch (err) {
            errores.push({
              line: 0,
              message: `No se puede leer el fichero ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}.`,
            });
            continue;
          }
          if (!r.ok) {
            // Line numbers are per file: the file name goes in front when there are several.
            const prefijo = positionals.length > 1 ? `${nombre}, ` : '';
            for (const e of r.errores) errores.push({ line: 0, message: `${prefijo}línea ${e.linea}: ${e.motivo}` });
            if (r.erroresOmitidos) errores.push({ line: 0, message: `${prefijo}y ${r.erroresOmitidos} errores más.` });
            continue;
          }
          for (const a of r.resumen.avisos) avisos.push(`${nombre}: ${a}`);
        }
        if (errores.length) return { errores };
        return {
          async importar(db) {
            // Second pass: the records flow from the files into one transaction, batch by batch.
            let medidas = 0;
            async function* registros(): AsyncGenerator<RegistroMedida> {
              for (const path of positionals) {
                const nombre = basename(path);
                const it = recorrerFicheroMedidas(nombre, { ruta: path }, opciones);
                for (let r = await it.next(); ; r = await it.next()) {
                  if (!r.done) {
                    medidas++;
                    yield r.value;
                    continue;
                  }
                  // The file changed since it was checked: the transaction is rolled back.
                  if (!r.value.ok)
                    throw new RechazadaAlEscribir(
                      r.value.errores.map((e) => ({ line: 0, message: `${nombre}, línea ${e.linea}: ${e.motivo}` })),
                    );
                  break;
                }
              }
            }
            const r = await importarMedidas(db, registros());
            if (!r.ok) throw new RechazadaAlEscribir(r.errores.map((e) => ({ line: e.linea ?? 0, message: e.motivo })));
            return [
              ...avisos.map((a) => `Aviso: ${a}`),
              `Importadas ${medidas} medidas de ${r.suministros} suministros: ${r.horas.nuevas} horas nuevas, ` +
                `${r.horas.actualizadas} actualizadas (estimadas que pasan a reales o firmes, o corregidas), ${r.horas.conservadas} sin cambios` +
                (r.cuartos.nuevos || r.cuartos.actualizados
                  ? `; ${r.cuartos.nuevos} cuartos de hora nuevos y ${r.cuartos.actualizados} actualizados.`
                  : '.'),
            ].join('\n');
          },
        };
      };
    },
  },
  contadores: {
    descripcion: 'estado de los contadores: CUPS;comunica;ultima_comunicacion;interruptor;estado_suministro;motivo (docs/decisions/010)',
    ayuda: ['FICHERO                   CSV separado por «;» con cabecera; cada línea sustituye el estado del contador de su suministro'],
    opciones: {},
    preparar(_values, positionals) {
      const path = unFichero(positionals);
      return async () => {
        const { leerCsvContadores } = await import('../src/server/lecturas/csv.ts');
        const bytes = await leer(path);
        if (!(bytes instanceof Uint8Array)) return { errores: [bytes] };
        const ahora = new Date();
        const { filas, errores } = leerCsvContadores(bytes, ahora);
        if (errores.length) return { errores };
        return {
          async importar(db) {
            const { importarEstadosContador } = await import('../src/server/lecturas/service.ts');
            const r = await importarEstadosContador(db, filas, ahora);
            const porDistribuidora = Object.entries(r.distribuidoras)
              .map(([d, n]) => `${n} de ${d}`)
              .join(', ');
            return `Importados los estados de ${r.estados} contadores (${porDistribuidora}).`;
          },
        };
      };
    },
  },
  suministros: {
    descripcion: 'registro de puntos de suministro: fichero SIPS2026 PS_ELECTRICIDAD de la CNMC (docs/sector.md §3.3)',
    ayuda: [
      'FICHERO…                  CSV UTF-8 con cabecera, sin comprimir, .csv.gz o .zip; uno o varios',
      '                          todos se comprueban antes de escribir; si alguno tiene errores no se importa nada',
    ],
    opciones: {},
    preparar(_values, positionals) {
      if (positionals.length === 0) throw new UsageError('Falta el fichero que se importa.');
      return async () => {
        const { basename } = await import('node:path');
        const { comprobarRegistroSips, importarRegistroSips, RegistroRechazado } = await import('../src/server/sips/importar.ts');
        const errores: FallaCsv[] = [];
        const comoFalla = (prefijo: string, f: { linea: number; columna: string; motivo: string }): FallaCsv => ({
          line: 0,
          message: `${prefijo}${f.linea ? `línea ${f.linea}` : 'fichero'}${f.columna ? `, columna ${f.columna}` : ''}: ${f.motivo}`,
        });
        // First pass, before the database is opened: each file is read as a stream and checked.
        for (const path of positionals) {
          const prefijo = positionals.length > 1 ? `${basename(path)}, ` : '';
          const progreso = (n: number) => process.stderr.write(`\rComprobando ${basename(path)}: ${n} líneas…`);
          let r;
          try {
            r = await comprobarRegistroSips({ ruta: path }, { progreso });
          } catch (err) {
            errores.push({
              line: 0,
              message: `No se puede leer el fichero ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}.`,
            });
            continue;
          }
          process.stderr.write('\n');
          for (const f of r.fallas) errores.push(comoFalla(prefijo, f));
          if (r.fallasOmitidas) errores.push({ line: 0, message: `${prefijo}y ${r.fallasOmitidas} errores más.` });
        }
        if (errores.length) return { errores };
        return {
          async importar(db) {
            try {
              const totales = { filas: 0, nuevos: 0, actualizados: 0, sinCambios: 0, conservados: 0 };
              await db.transaction(async (tx) => {
                for (const path of positionals) {
                  const progreso = (n: number) => process.stderr.write(`\rCargando ${basename(path)}: ${n} suministros…`);
                  const r = await importarRegistroSips(tx, { ruta: path }, { progreso });
                  process.stderr.write('\n');
                  for (const k of Object.keys(totales) as (keyof typeof totales)[]) totales[k] += r[k];
                }
              });
              return (
                `Registro cargado: ${totales.filas} suministros, ${totales.nuevos} nuevos, ` +
                `${totales.actualizados} actualizados y ${totales.sinCambios} sin cambios.` +
                (totales.conservados
                  ? ` En ${totales.conservados} se han conservado valores activados después de la fecha de los datos del fichero (decisión 037).`
                  : '')
              );
            } catch (err) {
              // The file changed since it was checked, or repeats a CUPS: the transaction was rolled back.
              if (err instanceof RegistroRechazado) throw new RechazadaAlEscribir(err.fallas.map((f) => comoFalla('', f)));
              throw err;
            }
          },
        };
      };
    },
  },
  demo: {
    descripcion: 'suministros y curvas horarias generados, a escala (pruebas de carga y mediciones)',
    ayuda: [
      '--supply-points N         suministros que se generan (titulares inventados)',
      '--months M                meses de datos horarios hasta ayer',
      '--seed S                  semilla (por omisión 42); --first-id: primer número de CUPS',
    ],
    opciones: { 'supply-points': { type: 'string' }, months: { type: 'string' }, seed: { type: 'string' }, 'first-id': { type: 'string' } },
    preparar(values, positionals) {
      if (positionals.length) throw new UsageError('La importación demo no lee ficheros.');
      const entero = (name: string, min: number, max: number, defecto?: number) => {
        const texto = values[name];
        if (texto === undefined && defecto !== undefined) return defecto;
        const n = Number(texto);
        if (typeof texto !== 'string' || !Number.isInteger(n) || n < min || n > max) {
          throw new UsageError(`--${name} debe ser un número entero entre ${min} y ${max}.`);
        }
        return n;
      };
      const suministros = entero('supply-points', 1, 1_000_000);
      const meses = entero('months', 1, 36);
      const semilla = entero('seed', 0, 2 ** 31, 42);
      const primerId = entero('first-id', 1, 899_999_999, 10_000_000);
      return async () => ({
        async importar(db) {
          const { cargarEscala } = await import('../src/server/medidas/escala.ts');
          const inicio = Date.now();
          const r = await cargarEscala(db, {
            suministros,
            meses,
            semilla,
            primerId,
            progreso: (n) => process.stderr.write(`\r${n} de ${suministros} suministros…`),
          });
          process.stderr.write('\n');
          return `Generados ${r.suministros} suministros y ${r.horas} horas de medidas en ${((Date.now() - inicio) / 1000).toFixed(0)} s.`;
        },
      });
    },
  },
};

/** The import was refused while writing (a measure of an unknown CUPS, a repeated CUPS…): nothing was written. */
class RechazadaAlEscribir extends Error {
  readonly errores: FallaCsv[];
  constructor(errores: FallaCsv[]) {
    super('importación rechazada');
    this.errores = errores;
  }
}

/** The usage text, built from IMPORTADORES. */
function uso(): string {
  const ancho = Math.max(...Object.keys(IMPORTADORES).map((name) => name.length)) + 2;
  const tipos = Object.entries(IMPORTADORES).flatMap(([name, imp]) => [
    `  ${name.padEnd(ancho)}${imp.descripcion}`,
    ...imp.ayuda.map((line) => `  ${' '.repeat(ancho)}${line}`),
  ]);
  return [
    'Uso: npm run import -- <tipo> [opciones] FICHERO',
    '',
    'Tipos:',
    ...tipos,
    '',
    'Ejemplo: npm run import -- capacidad --distribuidora epd --mes 2026-11 capacidad-epd.csv',
    '         npm run import -- capacidad-demanda --distribuidora epd --mes 2026-11 demanda-epd.csv',
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
    if (!importador)
      throw new UsageError(tipo === undefined ? 'Falta el tipo de importación.' : `Tipo de importación desconocido: «${tipo}».`);
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
    if (!(err instanceof ImportacionRechazada) && !(err instanceof RechazadaAlEscribir)) throw err;
    informar(err.errores);
    return 1;
  } finally {
    await database.close();
  }
}

if (import.meta.main) process.exitCode = await main(process.argv.slice(2));
