/**
 * The daily measure files of the supply companies (docs/decisions/021): every morning, for each
 * account with a REE code (`users.codigo_ree`) and each distributor it holds `-comercializadora`
 * for, the portal writes into `/<d>/salida` the REE/CNMC curve files of the supply points that company
 * supplies at that distributor (`suministros.comercializadora_codigo`), in the layout of
 * src/lib/medidas/curvas-ree.ts (docs/sector.md §5.1):
 *
 * - **P5D**, the validated hourly curve of the day before (Madrid civil day, 23/24/25 hours);
 * - **F5D**, the billed hourly curve of each billing period that closed the day before: from one
 *   billing reading of the supply point's schedule (src/lib/lecturas/programa.ts, docs/decisions/010:
 *   its reading cycle, monthly or bimonthly, remote closure at 00:00 or a reader's visit) to the next.
 *
 * Files are named `P5D_<distributor REE>_<retailer REE>_<YYYYMMDD>.<version>` with the day they are
 * written, as gisce/mesures names them; they appear from HORA_PUBLICACION (Madrid) on. A P5D carries
 * the hours the measure store holds; an F5D the whole billed curve of the period, the hours the store
 * lacks estimated (docs/decisions/038); ordered by CUPS and hour. A company with no supply point, or
 * whose supply points have no hour in the range, gets no file.
 *
 * **Once.** Each delivery is recorded in the audit log (`intercambio.medidas`, with the days it
 * covers) in the transaction that stores the file, and the next run starts from the day after the last
 * one recorded: running again the same day writes nothing, and a file the company has already taken
 * out of salida/ is not sent again. A run that finds days not yet sent (the portal was stopped) sends
 * them in one file, at most DIAS_RECUPERACION days back; a company's first file carries the day before,
 * and a kind it has never received (no period has closed yet) starts after the other kind's last file.
 * Values that change after a day was sent (a late or corrected measure) are not sent again as a P5D:
 * the F5D of the period carries them.
 *
 * **Memory.** Supply points are read a page at a time (by CUPS), their hours a batch at a time, and the
 * lines go to a private temporary file; the file is then stored in the exchange's 1 MiB pieces. A file
 * that would pass the exchange's size limit continues in the next version (`.1`, `.2`…), never
 * splitting a supply point's lines. Each delivery (its file or files and its audit entry) is one
 * transaction, under an advisory lock, so several processes never write the same one twice.
 */
import { sql } from 'drizzle-orm';
import { MAX_FICHERO_INTERCAMBIO_BYTES, SALIDA } from '../../lib/intercambio/rutas.ts';
import { lecturasEntre, momentoLectura, sumarMesesFecha, type DatosCiclo } from '../../lib/lecturas/programa.ts';
import { completarCurvaFacturada, SEMANAS_REFERENCIA, type HoraFacturada, type HoraGuardada } from '../../lib/medidas/curva-facturada.ts';
import { lineaRee, METODO_F5D_ESTIMADA, nombreFicheroRee, type TipoCurvaRee } from '../../lib/medidas/curvas-ree.ts';
import { sumarDias, type FechaLocal } from '../../lib/calendario/fechas.ts';
import { fechaLocalDe, inicioDiaLocal, instantesDesdeReloj, partesLocales, rangoDias } from '../../lib/calendario/hora-civil.ts';
import { audit } from '../auditoria/service.ts';
import { pgArray } from '../db/arrays.ts';
import { queryRows, type Db } from '../db/client.ts';
import type { DemoStep } from '../demo/load.ts';
import { momentosUltimaLectura, zonaDe } from '../lecturas/service.ts';
import { ErrorIntercambio, guardar, info, Recepcion, type CuentaIntercambio } from './almacen.ts';
import { COLUMNAS_REACTIVA, reactivasDeFila } from '../medidas/reactiva.ts';

/** Madrid hour from which the day before's files are written: its measures have been validated overnight. */
export const HORA_PUBLICACION = 6;
/** Days back a run goes to send days not sent yet (the portal was stopped). */
export const DIAS_RECUPERACION = 7;
/** The audit action that records a delivery, and tells the next run where to start. */
export const ACCION_MEDIDAS_DIARIAS = 'intercambio.medidas';
/** The files written, in the order the job writes them. */
export const TIPOS_DIARIOS: readonly TipoCurvaRee[] = ['P5D', 'F5D'];

/** Supply points read at a time. */
const PAGINA_SUMINISTROS = 200;
/** Most hours asked for in one query of the curves. */
const HORAS_POR_CONSULTA = 40_000;
/** Lines are gathered up to this many bytes before they are written to the temporary file. */
const BUFFER_BYTES = 64 * 1024;
/** One hour, ms. */
const MS_HORA = 3_600_000;
/** Deliveries looked up in the audit log: further back, a company starts again from the day before. */
const DIAS_HISTORIAL = 31;

/** One delivery written: a file (or, past the size limit, several) for one company, distributor and kind. */
export interface EntregaMedidas {
  usuarioId: string;
  distribuidora: string;
  tipo: TipoCurvaRee;
  /** Paths written in the company's tree, in order. */
  rutas: string[];
  /** First and last civil day covered (P5D: the days of the curve; F5D: the days the periods closed). */
  desde: FechaLocal;
  hasta: FechaLocal;
  /** Supply points with at least one line, and lines. */
  suministros: number;
  lineas: number;
  bytes: number;
}

/** Options of a run. */
export interface OpcionesMedidasDiarias {
  /** Asked between deliveries: false stops the run (the process is stopping). */
  seguir?: () => boolean;
  /** Largest file, bytes (the exchange's limit; tests make it small). */
  maxBytes?: number;
}

/** A company and one of its distributors. */
interface Destino {
  usuarioId: string;
  ree: string;
  distribuidora: string;
  reeDistribuidora: string;
}

/** What the schedule and the query of the curves need of a supply point. */
interface Punto {
  id: number;
  cups: string;
  codigoIne: string;
  cicloLectura: number;
  periodicidadFacturacion: string;
  telegestionado: boolean;
  fechaAlta: string;
  fechaBaja: string | null;
}

/** The hours of one supply point to write: [desde, hasta) in UTC ms. */
interface Tramo {
  punto: Punto;
  desde: number;
  hasta: number;
}

/**
 * Writes the files due at `ahora` for every supply company: the day before's P5D and the F5D of the
 * periods that closed since the last delivery. Answers what was written.
 */
export async function escribirMedidasDiarias(db: Db, ahora: Date, opciones: OpcionesMedidasDiarias = {}): Promise<EntregaMedidas[]> {
  const local = partesLocales(ahora);
  if (local.hora < HORA_PUBLICACION) return [];
  const hoy = local.fecha;
  const ayer = sumarDias(hoy, -1);
  const destinos = await queryRows<Destino>(
    db,
    sql`select u.id as "usuarioId", u.codigo_ree as ree, p.distribuidora, d.codigo_ree as "reeDistribuidora"
        from users u
        join user_permissions p on p.user_id = u.id and p.area = 'comercializadora'
        join distribuidoras d on d.codigo = p.distribuidora
        where u.codigo_ree is not null and u.estado = 'activo'
        order by u.codigo_ree, p.distribuidora`,
  );
  if (destinos.length === 0) return [];
  const ultimas = await ultimasEntregas(db);
  const hechas: EntregaMedidas[] = [];
  for (const destino of destinos) {
    const previas = TIPOS_DIARIOS.map((t) => ultimas.get(claveEntrega(destino.usuarioId, destino.distribuidora, t)));
    // A kind never sent yet (no F5D closed so far) starts where the other kind's runs left off: those
    // runs looked at its days too.
    const cualquiera = previas
      .filter((f): f is FechaLocal => f !== undefined)
      .sort()
      .at(-1);
    for (const [i, tipo] of TIPOS_DIARIOS.entries()) {
      if (opciones.seguir && !opciones.seguir()) return hechas;
      const ultima = previas[i] ?? cualquiera;
      const desde = ultima ? maxFecha(sumarDias(ultima, 1), sumarDias(hoy, -DIAS_RECUPERACION)) : ayer;
      if (desde > ayer) continue;
      const hecha = await escribirEntrega(db, destino, tipo, desde, ayer, hoy, ahora, opciones.maxBytes ?? MAX_FICHERO_INTERCAMBIO_BYTES);
      if (hecha) hechas.push(hecha);
    }
  }
  return hechas;
}

const claveEntrega = (usuarioId: string, distribuidora: string, tipo: string) => `${usuarioId}|${distribuidora}|${tipo}`;
const maxFecha = (a: FechaLocal, b: FechaLocal) => (a > b ? a : b);

/** The last day covered by each company's deliveries, by company, distributor and kind. */
async function ultimasEntregas(db: Db): Promise<Map<string, FechaLocal>> {
  // The audit log's time is the database's (`at` defaults to now()), so its window is the database's too.
  const filas = await queryRows<{ usuario: string; distribuidora: string; tipo: string; hasta: string }>(
    db,
    sql`select distinct on (target_id, details->>'distribuidora', details->>'tipo')
          target_id as usuario, details->>'distribuidora' as distribuidora, details->>'tipo' as tipo, details->>'hasta' as hasta
        from audit_log
        where action = ${ACCION_MEDIDAS_DIARIAS} and at >= now() - ${`${DIAS_HISTORIAL} days`}::interval
        order by target_id, details->>'distribuidora', details->>'tipo', details->>'hasta' desc`,
  );
  return new Map(filas.map((f) => [claveEntrega(f.usuario, f.distribuidora, f.tipo), f.hasta]));
}

/** Thrown inside a delivery's transaction to roll it back when it turns out to have nothing to send. */
class SinLineas extends Error {}

/** Writes one delivery in its own transaction; null when there was nothing to send or another process is sending it. */
async function escribirEntrega(
  db: Db,
  destino: Destino,
  tipo: TipoCurvaRee,
  desde: FechaLocal,
  hasta: FechaLocal,
  hoy: FechaLocal,
  ahora: Date,
  maxBytes: number,
): Promise<EntregaMedidas | null> {
  const partes = new Partes(maxBytes);
  try {
    return await db.transaction(async (tx) => {
      const clave = `medidas:${claveEntrega(destino.usuarioId, destino.distribuidora, tipo)}`;
      const [cerrojo] = await queryRows<{ ok: boolean }>(tx, sql`select pg_try_advisory_xact_lock(hashtext(${clave})) as ok`);
      if (!cerrojo?.ok) return null;
      // Another process may have sent it between the look-up and the lock.
      const [ya] = await queryRows<{ uno: number }>(
        tx,
        sql`select 1 as uno from audit_log
            where action = ${ACCION_MEDIDAS_DIARIAS} and target_id = ${destino.usuarioId}
              and details->>'distribuidora' = ${destino.distribuidora} and details->>'tipo' = ${tipo}
              and details->>'hasta' >= ${hasta} and at >= now() - interval '2 days'
            limit 1`,
      );
      if (ya) return null;

      let suministros = 0;
      for await (const bloque of bloques(tx, destino, tipo, desde, hasta)) {
        await partes.agregar(bloque.texto, bloque.lineas);
        suministros++;
      }
      if (partes.lineas === 0) throw new SinLineas();

      const cuenta: CuentaIntercambio = { id: destino.usuarioId, distribuidoras: [destino.distribuidora] };
      const rutas: string[] = [];
      let version = 0;
      for (const recibido of await partes.terminar()) {
        let ruta: string;
        do {
          ruta = `/${destino.distribuidora}/${SALIDA}/${nombreFicheroRee(tipo, destino.reeDistribuidora, destino.ree, hoy, version++)}`;
        } while (await existe(tx, cuenta, ruta));
        await guardar(tx, cuenta, ruta, recibido, ahora, 'distribuidora');
        rutas.push(ruta);
      }
      const entrega: EntregaMedidas = {
        usuarioId: destino.usuarioId,
        distribuidora: destino.distribuidora,
        tipo,
        rutas,
        desde,
        hasta,
        suministros,
        lineas: partes.lineas,
        bytes: partes.bytes,
      };
      await audit(tx, {
        action: ACCION_MEDIDAS_DIARIAS,
        targetType: 'usuario',
        targetId: destino.usuarioId,
        details: {
          tipo,
          distribuidora: destino.distribuidora,
          ficheros: rutas.map((r) => r.slice(r.lastIndexOf('/') + 1)),
          desde,
          hasta,
          suministros,
          lineas: partes.lineas,
          bytes: partes.bytes,
        },
        distribuidoras: [destino.distribuidora],
      });
      return entrega;
    });
  } catch (err) {
    if (err instanceof SinLineas) return null;
    throw err;
  } finally {
    await partes.descartar();
  }
}

/** Whether a path of the company's tree is taken (by a file of an earlier delivery of the same day, say). */
async function existe(db: Db, cuenta: CuentaIntercambio, ruta: string): Promise<boolean> {
  try {
    await info(db, cuenta, ruta);
    return true;
  } catch (err) {
    if (err instanceof ErrorIntercambio && err.codigo === 'no_existe') return false;
    throw err;
  }
}

/**
 * The lines of a delivery, one supply point (or billing period) at a time, by CUPS: the supply points a
 * page at a time, their hours a batch of at most HORAS_POR_CONSULTA at a time.
 */
async function* bloques(
  db: Db,
  destino: Destino,
  tipo: TipoCurvaRee,
  desde: FechaLocal,
  hasta: FechaLocal,
): AsyncGenerator<{ texto: string; lineas: number }> {
  const dias = rangoDias(desde, hasta);
  let ultimo = '';
  for (;;) {
    // No index leads with the retailer: a company's pages walk its distributor's CUPS index once in all.
    const puntos = await queryRows<Punto>(
      db,
      sql`select id, cups, codigo_ine as "codigoIne", ciclo_lectura as "cicloLectura", periodicidad_facturacion as "periodicidadFacturacion",
            telegestionado, fecha_alta::text as "fechaAlta", fecha_baja::text as "fechaBaja"
          from suministros
          where distribuidora = ${destino.distribuidora} and comercializadora_codigo = ${destino.ree} and cups > ${ultimo}
          order by cups
          limit ${PAGINA_SUMINISTROS}`,
    );
    if (puntos.length === 0) return;
    ultimo = puntos.at(-1)!.cups;
    const tramos: Tramo[] =
      tipo === 'P5D'
        ? puntos.map((punto) => ({ punto, desde: dias.inicio.getTime(), hasta: dias.fin.getTime() }))
        : await periodosCerrados(db, puntos, desde, hasta);
    for (let i = 0; i < tramos.length;) {
      const lote: Tramo[] = [];
      let horas = 0;
      do {
        lote.push(tramos[i]!);
        horas += (tramos[i]!.hasta - tramos[i]!.desde) / 3_600_000;
        i++;
      } while (i < tramos.length && horas + (tramos[i]!.hasta - tramos[i]!.desde) / 3_600_000 <= HORAS_POR_CONSULTA);
      yield* lineasDe(db, tipo, lote);
    }
  }
}

/** A stored hour as the curve query gives it. */
interface FilaHora {
  i: number | string;
  t: number | string;
  imp: number;
  exp: number | null;
  real: boolean;
  firme: boolean | null;
  r1: number | null;
  r2: number | null;
  r3: number | null;
  r4: number | null;
}

/**
 * The lines of a batch of stretches, one block per stretch that has hours. A P5D carries the hours
 * stored; an F5D the whole billed curve of the period (src/lib/medidas/curva-facturada.ts,
 * docs/decisions/038): the hours the meter did not deliver estimated, with method 5 and not firm, and
 * every real hour firm, since billing the period closed it.
 */
async function* lineasDe(db: Db, tipo: TipoCurvaRee, lote: readonly Tramo[]): AsyncGenerator<{ texto: string; lineas: number }> {
  const min = Math.min(...lote.map((t) => t.desde));
  const max = Math.max(...lote.map((t) => t.hasta));
  // The constant bounds let the planner leave out the months no stretch touches.
  const filas = await queryRows<FilaHora>(
    db,
    sql`select p.i, (extract(epoch from h.inicio) * 1000)::bigint as t, h.importada_wh as imp, h.exportada_wh as exp, h.real, h.firme,
          ${COLUMNAS_REACTIVA}
        from unnest(${pgArray(lote.map((t) => t.punto.id))}::int[],
                    ${pgArray(lote.map((t) => new Date(t.desde).toISOString()))}::timestamptz[],
                    ${pgArray(lote.map((t) => new Date(t.hasta).toISOString()))}::timestamptz[]) with ordinality as p(id, desde, hasta, i)
        join medidas_horarias h on h.suministro_id = p.id and h.inicio >= p.desde and h.inicio < p.hasta
        where h.inicio >= ${new Date(min).toISOString()}::timestamptz and h.inicio < ${new Date(max).toISOString()}::timestamptz
        order by p.i, h.inicio`,
  );
  let desde = 0;
  while (desde < filas.length) {
    const i = Number(filas[desde]!.i) - 1;
    let hasta = desde;
    while (hasta < filas.length && Number(filas[hasta]!.i) - 1 === i) hasta++;
    const tramo = lote[i]!;
    const guardadas: HoraGuardada[] = filas.slice(desde, hasta).map((f) => ({
      t: Number(f.t),
      importadaWh: Number(f.imp),
      exportadaWh: f.exp === null ? null : Number(f.exp),
      real: f.real,
      firme: f.firme,
      // The reactive energy the hour was stored with (an F5D's, migration 0028), written back as it came.
      ...reactivasDeFila(f),
    }));
    desde = hasta;
    const horas = tipo === 'F5D' ? await curvaFacturada(db, tramo, guardadas) : guardadas.map((h) => ({ ...h, estimada: false }));
    let texto = '';
    for (const h of horas) {
      texto += lineaRee(tipo, {
        cups: tramo.punto.cups,
        inicio: h.t,
        importadaWh: h.importadaWh,
        exportadaWh: h.exportadaWh,
        metodo: h.real ? 'real' : 'estimada',
        ...(h.estimada ? { codigoMetodo: METODO_F5D_ESTIMADA } : {}),
        ...(tipo === 'F5D' && h.reactivas ? { reactivas: h.reactivas } : {}),
        // A billed real hour is firm; a stored estimated one keeps the firmness it came with.
        firme: tipo === 'F5D' ? h.real || h.firme === true : h.firme,
      });
    }
    if (horas.length > 0) yield { texto, lineas: horas.length };
  }
}

/**
 * The billed curve of one period: its stored hours, and when some are missing, those estimated from
 * the supply point's real hours in the weeks around (src/lib/medidas/curva-facturada.ts).
 */
async function curvaFacturada(db: Db, tramo: Tramo, guardadas: HoraGuardada[]): Promise<HoraFacturada[]> {
  const inicio = Math.ceil(tramo.desde / MS_HORA) * MS_HORA;
  if (guardadas.length === (tramo.hasta - inicio) / MS_HORA || guardadas.length === 0) {
    return guardadas.map((h) => ({ ...h, estimada: false }));
  }
  // One more week than the reference reaches, so the weeks around both ends are in.
  const margen = (SEMANAS_REFERENCIA + 1) * 7 * 86_400_000;
  const referencia = await queryRows<{ t: number | string; imp: number; exp: number | null }>(
    db,
    sql`select (extract(epoch from inicio) * 1000)::bigint as t, importada_wh as imp, exportada_wh as exp
        from medidas_horarias
        where suministro_id = ${tramo.punto.id} and real
          and inicio >= ${new Date(inicio - margen).toISOString()}::timestamptz and inicio < ${new Date(tramo.hasta + margen).toISOString()}::timestamptz`,
  );
  const porHora = new Map(
    referencia.map((r) => [Number(r.t), { importadaWh: Number(r.imp), exportadaWh: r.exp === null ? null : Number(r.exp) }]),
  );
  return completarCurvaFacturada(inicio, tramo.hasta, guardadas, porHora, zonaDe(tramo.punto));
}

/**
 * The billing periods of these supply points that closed on a day of [desde, hasta]: from the billing
 * reading before (or the contract start) to the closing one, at the instants src/lib/lecturas/programa.ts
 * gives them (00:00 of the cycle day for a remote closure, the visit's hour otherwise), on each supply
 * point's own clock. The phase of a bimonthly route comes from its latest stored reading, as the
 * reading schedule screen takes it (docs/decisions/010).
 */
async function periodosCerrados(db: Db, puntos: readonly Punto[], desde: FechaLocal, hasta: FechaLocal): Promise<Tramo[]> {
  const ultimas = await momentosUltimaLectura(
    db,
    puntos.map((p) => p.id),
  );
  const tramos: Tramo[] = [];
  for (const punto of puntos) {
    const zona = zonaDe(punto);
    const ultima = ultimas.get(punto.id);
    const datos: DatosCiclo = {
      cicloLectura: punto.cicloLectura,
      periodicidadFacturacion: punto.periodicidadFacturacion,
      telegestionado: punto.telegestionado,
      fechaAlta: punto.fechaAlta,
      fechaBaja: punto.fechaBaja,
      ultimaLectura: ultima ? fechaLocalDe(ultima, zona) : null,
    };
    const alta = inicioDiaLocal(punto.fechaAlta, zona).getTime();
    for (const cierre of lecturasEntre(datos, desde, hasta)) {
      const anterior = lecturasEntre(datos, sumarMesesFecha(cierre.fecha, -3), sumarDias(cierre.fecha, -1)).at(-1);
      const inicio = Math.max(anterior ? momentoLectura(anterior, zona).getTime() : alta, alta);
      const fin = momentoLectura(cierre, zona).getTime();
      if (fin > inicio) tramos.push({ punto, desde: inicio, hasta: fin });
    }
  }
  return tramos;
}

/**
 * The temporary files of a delivery: lines are gathered and appended to the current one, and a block
 * that would take it past the size limit starts the next.
 */
class Partes {
  private readonly max: number;
  private readonly hechas: { recepcion: Recepcion; bytes: number }[] = [];
  private pendiente: string[] = [];
  private pendienteBytes = 0;
  lineas = 0;
  bytes = 0;

  constructor(max: number) {
    this.max = max;
  }

  /** Appends the lines of one supply point (ASCII: one byte a character, as ISO-8859-15 writes it). */
  async agregar(texto: string, lineas: number): Promise<void> {
    const largo = texto.length;
    if (largo > this.max) throw new RangeError(`Las líneas de un suministro (${largo} bytes) no caben en un fichero de ${this.max} bytes.`);
    const actual = this.hechas.at(-1);
    if (!actual || actual.bytes + this.pendienteBytes + largo > this.max) {
      await this.vaciar();
      this.hechas.push({ recepcion: await Recepcion.abrir(this.max), bytes: 0 });
    }
    this.pendiente.push(texto);
    this.pendienteBytes += largo;
    this.lineas += lineas;
    this.bytes += largo;
    if (this.pendienteBytes >= BUFFER_BYTES) await this.vaciar();
  }

  private async vaciar(): Promise<void> {
    const actual = this.hechas.at(-1);
    if (!actual || this.pendienteBytes === 0) return;
    const datos = Buffer.from(this.pendiente.join(''), 'latin1');
    await actual.recepcion.escribir(actual.bytes, datos);
    actual.bytes += datos.byteLength;
    this.pendiente = [];
    this.pendienteBytes = 0;
  }

  /** Closes every file: what `guardar` stores, in order. */
  async terminar() {
    await this.vaciar();
    const recibidos = [];
    for (const h of this.hechas) recibidos.push(await h.recepcion.terminar());
    return recibidos;
  }

  /** Removes the temporary files. */
  async descartar(): Promise<void> {
    for (const h of this.hechas) await h.recepcion.descartar();
  }
}

/** Days of daily runs the demo replays, so every monthly billing period closes once and F5D files appear. */
export const DIAS_DEMO = 31;

/**
 * The demo: the daily runs of the last DIAS_DEMO mornings replayed in order at 06:00 Madrid, through
 * the very code the scheduler runs, so the demo supply company finds a month of P5D files and the F5D
 * of every billing period that closed in it.
 */
export const demoMedidasDiarias: DemoStep = async (db, _random, now) => {
  const hoy = fechaLocalDe(now);
  let ficheros = 0;
  for (let i = DIAS_DEMO - 1; i >= 0; i--) {
    const momento = instantesDesdeReloj(sumarDias(hoy, -i), HORA_PUBLICACION, 0)[0]!;
    if (momento > now) break;
    for (const e of await escribirMedidasDiarias(db, momento)) ficheros += e.rutas.length;
  }
  return { ficherosMedidasDiarias: ficheros };
};
