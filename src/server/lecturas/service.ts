/**
 * Meters on the database: their state (`estado_contador`, one row per supply point,
 * written by administrators, imports and the demo through `guardarEstadosContador`), their register
 * readings (`lecturas_contador`, written through `guardarLecturasContador`), and the reading
 * schedule of a supply point as src/lib/lecturas/programa.ts computes it from its row.
 */
import { desc, inArray, sql } from 'drizzle-orm';
import type { EstadoContador, EstadoSuministro, Interruptor } from '../../lib/lecturas/estado-contador.ts';
import { proximasLecturas, type DatosCiclo, type LecturaProgramada } from '../../lib/lecturas/programa.ts';
import type { FechaLocal } from '../../lib/calendario/fechas.ts';
import { fechaLocalDe } from '../../lib/calendario/hora-civil.ts';
import { esCodigoTarifa, leyendaPeriodos, zonaHorariaDe } from '../../lib/medidas/periodos.ts';
import type { LecturaRegistro } from '../../lib/lecturas/respuestas.ts';
import { audit } from '../auditoria/service.ts';
import { ImportacionRechazada } from '../capacidad-nodal/service.ts';
import { queryRows, type Db } from '../db/client.ts';
import { estadosContador, lecturasContador, suministros } from '../db/schema.ts';
import { valoresPropuestos } from '../db/upsert.ts';
import { notificarTelegestion } from './d1.ts';
import { zonaElectricaDeIne } from '../medidas/potencias.ts';
import type { Suministro } from '../suministros/service.ts';
import type { FilaContador } from './csv.ts';

/** Who wrote a state: telemanagement, an administrator, an import or the demo (the table's check). */
export type OrigenEstado = 'telegestion' | 'administrador' | 'importacion' | 'demo';

/** One state to write. */
export interface EstadoEntrada {
  suministroId: number;
  comunica: boolean;
  ultimaComunicacion: Date | null;
  interruptor: Interruptor;
  estadoSuministro: EstadoSuministro;
  motivo: string | null;
}

/**
 * Inserts or replaces the state of each supply point; runs in the caller's transaction. A meter
 * known before whose communication changes is notified to its supply company (D1, `./d1.ts`).
 */
export async function guardarEstadosContador(
  db: Db,
  filas: readonly EstadoEntrada[],
  quien: { origen: OrigenEstado; actualizadoPor: string | null; ahora: Date },
): Promise<void> {
  for (let i = 0; i < filas.length; i += 500) {
    const lote = filas.slice(i, i + 500);
    const antes = await estadosDe(
      db,
      lote.map((f) => f.suministroId),
    );
    await db
      .insert(estadosContador)
      .values(lote.map((f) => ({ ...f, origen: quien.origen, actualizadoPor: quien.actualizadoPor, actualizadoEn: quien.ahora })))
      .onConflictDoUpdate({
        target: estadosContador.suministroId,
        set: valoresPropuestos(estadosContador, [
          'comunica',
          'ultimaComunicacion',
          'interruptor',
          'estadoSuministro',
          'motivo',
          'origen',
          'actualizadoEn',
          'actualizadoPor',
        ]),
      });
    await notificarTelegestion(
      db,
      lote.filter((f) => antes.has(f.suministroId) && antes.get(f.suministroId)!.comunica !== f.comunica),
      quien.ahora,
    );
  }
}

/** A stored state row. */
export type FilaEstado = typeof estadosContador.$inferSelect;

/** The states of some supply points, by supply point id. */
export async function estadosDe(db: Db, ids: readonly number[]): Promise<Map<number, FilaEstado>> {
  if (ids.length === 0) return new Map();
  const filas = await db
    .select()
    .from(estadosContador)
    .where(inArray(estadosContador.suministroId, [...ids]));
  return new Map(filas.map((f) => [f.suministroId, f]));
}

/** A state row as the API answers it. */
export function estadoApi(f: FilaEstado): EstadoContador {
  return {
    comunica: f.comunica,
    ultimaComunicacion: f.ultimaComunicacion?.toISOString() ?? null,
    interruptor: f.interruptor as Interruptor,
    estadoSuministro: f.estadoSuministro as EstadoSuministro,
    motivo: f.motivo,
    actualizadoEn: f.actualizadoEn.toISOString(),
  };
}

/** One register reading to write. */
export type LecturaEntrada = Omit<typeof lecturasContador.$inferInsert, 'id' | 'createdAt'>;

/** Inserts register readings, replacing one at the same supply point and instant; runs in the caller's transaction. */
export async function guardarLecturasContador(db: Db, filas: readonly LecturaEntrada[]): Promise<void> {
  for (let i = 0; i < filas.length; i += 500) {
    await db
      .insert(lecturasContador)
      .values(filas.slice(i, i + 500).map((f) => ({ ...f })))
      .onConflictDoUpdate({
        target: [lecturasContador.suministroId, lecturasContador.momento],
        set: valoresPropuestos(lecturasContador, ['origen', 'activaKwh', 'exportadaKwh']),
      });
  }
}

/** A stored register reading. */
export type FilaLectura = typeof lecturasContador.$inferSelect;

/** The latest `n` register readings of each supply point, newest first. */
export async function ultimasLecturas(db: Db, ids: readonly number[], n: number): Promise<Map<number, FilaLectura[]>> {
  const mapa = new Map<number, FilaLectura[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return mapa;
  // A supply point has a dozen readings a year: reading them all and keeping n is cheaper than a window query for so few.
  const filas = await db
    .select()
    .from(lecturasContador)
    .where(inArray(lecturasContador.suministroId, [...ids]))
    .orderBy(lecturasContador.suministroId, desc(lecturasContador.momento));
  for (const f of filas) {
    const lista = mapa.get(f.suministroId)!;
    if (lista.length < n) lista.push(f);
  }
  return mapa;
}

/** Register readings shown per supply point. */
export const LECTURAS_MOSTRADAS = 6;

/**
 * The latest register readings as the API answers them (newest first, at most LECTURAS_MOSTRADAS),
 * with the consumption since the one before: `filas` holds one more than is shown, for that.
 */
export function lecturasApi(s: Suministro, filas: readonly FilaLectura[]): LecturaRegistro[] {
  const leyenda = esCodigoTarifa(s.tarifa) ? leyendaPeriodos(s.tarifa) : [];
  const zona = zonaDe(s);
  const suma = (f: FilaLectura) => f.activaKwh.reduce((a, b) => a + b, 0);
  return filas.slice(0, LECTURAS_MOSTRADAS).map((f, i) => {
    const anterior = filas[i + 1];
    return {
      momento: f.momento.toISOString(),
      fecha: fechaLocalDe(f.momento, zona),
      origen: f.origen,
      comercializadora: f.aportadaPor,
      periodos: f.activaKwh.map((kwh, j) => ({ periodo: `P${j + 1}`, nombre: leyenda[j]?.nombre ?? `Periodo ${j + 1}`, kwh })),
      exportadaKwh: f.exportadaKwh,
      consumoKwh: anterior ? suma(f) - suma(anterior) : null,
    };
  });
}

/** The instant of the latest register reading of each supply point that has one. */
export async function momentosUltimaLectura(db: Db, ids: readonly number[]): Promise<Map<number, Date>> {
  if (ids.length === 0) return new Map();
  const filas = await queryRows<{ id: number; momento: Date | string }>(
    db,
    sql`select suministro_id as id, max(momento) as momento from lecturas_contador where suministro_id in ${[...ids]} group by 1`,
  );
  return new Map(filas.map((f) => [Number(f.id), new Date(f.momento)]));
}

/** The civil clock of a supply point (Canary time in the Canary Islands, Madrid elsewhere). */
export function zonaDe(s: Pick<Suministro, 'codigoIne'>) {
  return zonaHorariaDe(zonaElectricaDeIne(s.codigoIne));
}

/** What the schedule needs of a supply point row and its latest reading. */
export function datosCicloDe(s: Suministro, ultimaLectura: Date | null): DatosCiclo {
  return {
    cicloLectura: s.cicloLectura,
    periodicidadFacturacion: s.periodicidadFacturacion,
    telegestionado: s.telegestionado,
    fechaAlta: s.fechaAlta,
    fechaBaja: s.fechaBaja,
    ultimaLectura: ultimaLectura ? fechaLocalDe(ultimaLectura, zonaDe(s)) : null,
  };
}

/** The next readings of some supply points from their local today, by supply point id. */
export async function programasDe(
  db: Db,
  lista: readonly Suministro[],
  ahora: Date,
): Promise<Map<number, { hoy: FechaLocal; lecturas: LecturaProgramada[]; ultimaLectura: FechaLocal | null }>> {
  const ultimas = await momentosUltimaLectura(
    db,
    lista.map((s) => s.id),
  );
  return new Map(
    lista.map((s) => {
      const hoy = fechaLocalDe(ahora, zonaDe(s));
      const datos = datosCicloDe(s, ultimas.get(s.id) ?? null);
      return [s.id, { hoy, lecturas: proximasLecturas(datos, hoy), ultimaLectura: datos.ultimaLectura }];
    }),
  );
}

/**
 * Imports the meter states of a checked file (src/server/lecturas/csv.ts) in one transaction: every
 * CUPS must be a supply point of the portal, or nothing is written and `ImportacionRechazada` names
 * each line. Audited as one entry.
 */
export async function importarEstadosContador(
  db: Db,
  filas: readonly FilaContador[],
  ahora: Date,
): Promise<{ estados: number; distribuidoras: Record<string, number> }> {
  return db.transaction(async (tx) => {
    const encontrados = await tx
      .select({ id: suministros.id, cups: suministros.cups, distribuidora: suministros.distribuidora })
      .from(suministros)
      .where(inArray(suministros.cups, [...new Set(filas.map((f) => f.cups))]));
    const porCups = new Map(encontrados.map((s) => [s.cups, s]));
    const errores = filas
      .filter((f) => !porCups.has(f.cups))
      .map((f) => ({ line: f.linea, message: `No existe ningún suministro con el CUPS ${f.cups}.` }));
    if (errores.length) throw new ImportacionRechazada(errores);
    await guardarEstadosContador(
      tx,
      filas.map((f) => ({
        suministroId: porCups.get(f.cups)!.id,
        comunica: f.comunica,
        ultimaComunicacion: f.ultimaComunicacion,
        interruptor: f.interruptor,
        estadoSuministro: f.estadoSuministro,
        motivo: f.motivo,
      })),
      { origen: 'importacion', actualizadoPor: null, ahora },
    );
    const distribuidoras: Record<string, number> = {};
    for (const f of filas) {
      const d = porCups.get(f.cups)!.distribuidora;
      distribuidoras[d] = (distribuidoras[d] ?? 0) + 1;
    }
    await audit(tx, {
      action: 'contador.importacion',
      details: { estados: filas.length, distribuidoras },
      distribuidoras: Object.keys(distribuidoras),
    });
    return { estados: filas.length, distribuidoras };
  });
}
