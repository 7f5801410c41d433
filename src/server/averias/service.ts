/**
 * "No tengo luz" (docs/decisions/023-no-tengo-luz.md): answers at once why a supply point has no
 * power — a network incident in effect (found by the very code of "my interruptions",
 * src/server/incidencias/service.ts), or the meter's state (estado_contador) — and otherwise
 * registers a fault report. Staff see the pending reports grouped by area and confirm a group as a
 * network incident (through the incidents service, so it is published) or dismiss a report.
 * Nothing answered to the public names the holder or the address: only the municipality.
 */
import { and, desc, eq, gte, inArray, lte, or, sql } from 'drizzle-orm';
import { agruparAvisos, claveZona, descripcionIncidenciaDeGrupo, type AvisoCola, type GrupoAvisos } from '../../lib/averias/cola.ts';
import { diagnosticar, proximas, type Diagnostico, type IncidenciaCandidata } from '../../lib/averias/diagnostico.ts';
import { anioMadrid, referenciaAveria } from '../../lib/averias/referencia.ts';
import { CONTACTOS, type Telefono } from '../../lib/contacto.ts';
import { cupsBase } from '../../lib/cups.ts';
import { DISTRIBUIDORAS, type CodigoDistribuidora } from '../../lib/distribuidoras.ts';
import type { EstadoSuministro, Interruptor } from '../../lib/lecturas/estado-contador.ts';
import { distribuidorasAdministradas } from '../../lib/permisos.ts';
import { audit } from '../auditoria/service.ts';
import type { InfoPeticion } from '../auth/sesion.ts';
import type { Db } from '../db/client.ts';
import { averias, suministros } from '../db/schema.ts';
import type { AuthContext, Clock } from '../http/context.ts';
import { notFound } from '../http/errors.ts';
import type { ConfigAvisos } from '../avisos-corte/service.ts';
// The incidents feature keeps its creation (validation of permission, audit) beside its routes; reused, not copied.
// eslint-disable-next-line no-restricted-imports
import { crearIncidencia } from '../incidencias/admin.ts';
import { incidenciasDeSuministros } from '../incidencias/service.ts';
import { estadosDe } from '../lecturas/service.ts';
import type { Suministro } from '../suministros/service.ts';

/** Where a report came from. */
export type OrigenAviso = 'publico' | 'area_privada';

/** Optional contact a person leaves on the public form. */
export interface ContactoAviso {
  telefono?: string | undefined;
  email?: string | undefined;
}

/** The distributor as the answer names it, with its 24-hour fault line. */
export interface DistribuidoraRespuesta {
  codigo: CodigoDistribuidora;
  nombre: string;
  telefonoAverias: Telefono;
}

/** The answer of a query: never the holder, never the street address. */
export type RespuestaAveria =
  | { resultado: 'desconocido' }
  | {
      resultado: 'incidencia' | 'contador' | 'aviso';
      distribuidora: DistribuidoraRespuesta;
      municipio: string;
      incidencia: (Omit<IncidenciaCandidata, 'municipio'> & { municipio: string }) | null;
      situacionContador: 'cortado' | 'icp' | 'abierto_remoto' | 'sin_suministro' | null;
      aviso: { referencia: string; nuevo: boolean } | null;
      /** Scheduled works that have not started in the area: for information. */
      proximas: { inicio: string; finPrevisto: string | null; descripcion: string }[];
    };

/** The supply point of a CUPS (20 or 22 characters, matching on its 20-character base), or undefined. */
export async function suministroPorCups(db: Db, cups: string): Promise<Suministro | undefined> {
  const base = cupsBase(cups);
  // A range on the unique index: the base itself and any 22-character form of it.
  const [s] = await db
    .select()
    .from(suministros)
    .where(and(gte(suministros.cups, base), lte(suministros.cups, `${base}~`)))
    .limit(1);
  return s;
}

function distribuidoraDe(codigo: string): DistribuidoraRespuesta {
  const d = DISTRIBUIDORAS.find((x) => x.codigo === codigo)!;
  return { codigo: d.codigo, nombre: d.nombre, telefonoAverias: CONTACTOS[d.codigo].averias };
}

/**
 * Registers a fault report of a supply point, or answers the pending one it already has (a person
 * who asks twice gets one reference, and the queue does not count them twice).
 */
export async function registrarAviso(
  db: Db,
  ahora: Date,
  s: Suministro,
  contacto: ContactoAviso,
  quien: { origen: OrigenAviso; userId: string | null },
): Promise<{ referencia: string; nuevo: boolean }> {
  const base = cupsBase(s.cups);
  const pendiente = (tx: Pick<Db, 'select'>) =>
    tx
      .select({ referencia: averias.referencia })
      .from(averias)
      .where(and(eq(averias.cups, base), eq(averias.estado, 'pendiente')))
      .limit(1);
  return db.transaction(async (tx) => {
    const [previo] = await pendiente(tx);
    if (previo) return { referencia: previo.referencia, nuevo: false };
    // The reference needs the number the identity column gives: a provisional unique value first.
    // Two reports of one supply point at the same instant both find none pending: the unique index
    // of pending reports makes the second insert wait for the first and then insert nothing, and it
    // answers the first one's reference.
    const [fila] = await tx
      .insert(averias)
      .values({
        referencia: `provisional-${crypto.randomUUID()}`,
        distribuidora: s.distribuidora,
        cups: base,
        codigoPostal: s.codigoPostal,
        municipio: s.municipio,
        codigoIne: s.codigoIne,
        provincia: s.provincia,
        telefono: contacto.telefono || null,
        email: contacto.email || null,
        origen: quien.origen,
        userId: quien.userId,
        createdAt: ahora,
      })
      .onConflictDoNothing({ target: averias.cups, where: sql`${averias.estado} = 'pendiente'` })
      .returning({ id: averias.id, numero: averias.numero });
    if (!fila) {
      const [otro] = await pendiente(tx);
      // Only a report closed between the conflict and this read leaves none: that is an error worth its 500.
      if (!otro) throw new Error('aviso pendiente en conflicto y ya cerrado');
      return { referencia: otro.referencia, nuevo: false };
    }
    const referencia = referenciaAveria(anioMadrid(ahora), fila.numero);
    await tx.update(averias).set({ referencia }).where(eq(averias.id, fila.id));
    return { referencia, nuevo: true };
  });
}

/**
 * The whole query: the supply point of `cups` (unknown: `desconocido`, the same answer as a CUPS of
 * another company), what explains the lack of power, or a registered report. `avisar` registers a
 * report even when the meter explains it (the person followed the steps and still has no power);
 * a network incident in effect never registers one (it is already being repaired).
 */
export async function consultarAveria(
  db: Db,
  ahora: Date,
  cups: string,
  opciones: ContactoAviso & { avisar?: boolean | undefined },
  quien: { origen: OrigenAviso; userId: string | null },
  suministro?: Suministro,
): Promise<RespuestaAveria> {
  const s = suministro ?? (await suministroPorCups(db, cups));
  if (!s) return { resultado: 'desconocido' };
  const incidencias = (await incidenciasDeSuministros(db, [s])).get(s.cups) ?? [];
  const fila = (await estadosDe(db, [s.id])).get(s.id);
  const estado = fila
    ? { interruptor: fila.interruptor as Interruptor, estadoSuministro: fila.estadoSuministro as EstadoSuministro }
    : null;
  const candidatas: IncidenciaCandidata[] = incidencias.map((i) => ({
    id: i.id,
    estadoIncidenciaRed: i.estadoIncidenciaRed,
    descripcion: i.descripcion,
    municipio: i.municipio,
    inicio: i.inicio,
    finPrevisto: i.finPrevisto,
    afecta: i.afecta,
  }));
  let d: Diagnostico = diagnosticar(candidatas, estado, ahora);
  if (opciones.avisar && d.tipo === 'contador' && d.situacion !== 'cortado') d = { tipo: 'aviso' };
  const aviso = d.tipo === 'aviso' ? await registrarAviso(db, ahora, s, opciones, quien) : null;
  return {
    resultado: d.tipo,
    distribuidora: distribuidoraDe(s.distribuidora),
    municipio: s.municipio,
    incidencia: d.tipo === 'incidencia' ? d.incidencia : null,
    situacionContador: d.tipo === 'contador' ? d.situacion : null,
    aviso,
    proximas: proximas(candidatas, ahora).map((i) => ({ inicio: i.inicio, finPrevisto: i.finPrevisto, descripcion: i.descripcion })),
  };
}

/** A report as its account sees it: never the contact left, which may be another holder's. */
export interface MiAvisoServidor {
  referencia: string;
  cups: string;
  distribuidora: CodigoDistribuidora;
  municipio: string;
  creado: string;
  estado: 'pendiente' | 'incidencia' | 'descartada';
  resuelto: string | null;
}

/**
 * The account's fault reports, newest first: those of the supply points it holds (matched on the
 * 20-character CUPS base, so a report filed on the public page without a session is found too) and
 * those filed while logged in as it. Never another account's.
 */
export async function misAvisos(db: Db, userId: string, puntos: readonly Suministro[]): Promise<MiAvisoServidor[]> {
  const bases = [...new Set(puntos.map((s) => cupsBase(s.cups)))];
  const filas = await db
    .select()
    .from(averias)
    .where(bases.length > 0 ? or(eq(averias.userId, userId), inArray(averias.cups, bases)) : eq(averias.userId, userId))
    .orderBy(desc(averias.createdAt))
    // Years of reports of a household fit well under this; the newest are what a person looks for.
    .limit(200);
  return filas.map((f) => ({
    referencia: f.referencia,
    cups: f.cups,
    distribuidora: f.distribuidora as CodigoDistribuidora,
    municipio: f.municipio,
    creado: f.createdAt.toISOString(),
    estado: f.estado as MiAvisoServidor['estado'],
    resuelto: f.resueltoEn?.toISOString() ?? null,
  }));
}

/** A pending report as staff see it (with the CUPS and the contact left, which staff may use to call back). */
export interface AvisoStaff extends AvisoCola {
  telefono: string | null;
  email: string | null;
  origen: OrigenAviso;
}

/** The pending reports of the distributors the caller administers (or of one of them), grouped by area. */
export async function colaAvisos(db: Db, auth: AuthContext, distribuidora?: CodigoDistribuidora): Promise<GrupoAvisos<AvisoStaff>[]> {
  const suyas = distribuidorasAdministradas(auth.permisos).filter((d) => !distribuidora || d === distribuidora);
  if (suyas.length === 0) return [];
  const filas = await db
    .select()
    .from(averias)
    .where(and(inArray(averias.distribuidora, suyas), eq(averias.estado, 'pendiente')))
    .orderBy(desc(averias.createdAt))
    // A queue beyond this is a storm: the newest reports are what staff act on.
    .limit(2000);
  return agruparAvisos(
    filas.map((f) => ({
      id: f.id,
      referencia: f.referencia,
      distribuidora: f.distribuidora,
      codigoPostal: f.codigoPostal,
      municipio: f.municipio,
      codigoIne: f.codigoIne,
      provincia: f.provincia,
      cups: f.cups,
      creado: f.createdAt.toISOString(),
      telefono: f.telefono,
      email: f.email,
      origen: f.origen as OrigenAviso,
    })),
  );
}

/** Spanish answers of the staff side. */
export const MENSAJES_AVERIAS = {
  grupoNoExiste: 'No hay avisos pendientes en esa zona.',
  avisoNoExiste: 'No existe ese aviso de avería, o ya no está pendiente.',
} as const;

/**
 * Confirms the pending reports of an area as a new network incident (estado Activa, starting at
 * the first report, published at once through the incidents service) and links them to it. The
 * area is `<distribuidora>|<codigoPostal>|<codigoIne>`; one the caller does not administer, or
 * without pending reports, answers 404.
 */
export async function confirmarGrupo(
  db: Db,
  clock: Clock,
  info: InfoPeticion,
  auth: AuthContext,
  clave: string,
  datos: { descripcion?: string | undefined; finPrevisto?: string | undefined },
  avisos: ConfigAvisos | null,
) {
  const [distribuidora, codigoPostal, codigoIne] = clave.split('|');
  if (!distribuidora || !distribuidorasAdministradas(auth.permisos).includes(distribuidora as CodigoDistribuidora)) {
    throw notFound(MENSAJES_AVERIAS.grupoNoExiste);
  }
  const ahora = clock.now();
  return db.transaction(async (tx) => {
    const filas = await tx
      .select()
      .from(averias)
      .where(
        and(
          eq(averias.distribuidora, distribuidora),
          eq(averias.codigoPostal, codigoPostal ?? ''),
          eq(averias.codigoIne, codigoIne ?? ''),
          eq(averias.estado, 'pendiente'),
        ),
      )
      .for('update');
    if (filas.length === 0) throw notFound(MENSAJES_AVERIAS.grupoNoExiste);
    const primera = filas.reduce((a, b) => (a.createdAt < b.createdAt ? a : b));
    const grupo = { total: filas.length, municipio: primera.municipio, codigoPostal: primera.codigoPostal };
    const incidencia = await crearIncidencia(
      tx,
      clock,
      info,
      auth,
      {
        distribuidora: distribuidora as CodigoDistribuidora,
        estado: 'Activa',
        descripcion: datos.descripcion?.trim() || descripcionIncidenciaDeGrupo(grupo),
        municipio: primera.municipio,
        codigoIne: primera.codigoIne,
        provincia: primera.provincia,
        codigosPostales: [primera.codigoPostal],
        cups: [...new Set(filas.map((f) => f.cups))],
        clientesAfectados: null,
        inicio: primera.createdAt.toISOString(),
        finPrevisto: datos.finPrevisto ?? null,
      },
      avisos,
    );
    await tx
      .update(averias)
      .set({ estado: 'incidencia', incidenciaId: incidencia.id, resueltoEn: ahora, resueltoPor: auth.userId })
      .where(
        inArray(
          averias.id,
          filas.map((f) => f.id),
        ),
      );
    await audit(tx, {
      action: 'averia.confirmada',
      actorUserId: auth.userId,
      targetType: 'incidencia',
      targetId: incidencia.id,
      ip: info.ip,
      requestId: info.requestId,
      details: { distribuidora, zona: claveZona(primera), avisos: filas.length },
      distribuidoras: [distribuidora],
    });
    return { incidencia, avisos: filas.length };
  });
}

/** Dismisses one pending report of a distributor the caller administers; 404 otherwise. */
export async function descartarAviso(db: Db, clock: Clock, info: InfoPeticion, auth: AuthContext, id: string): Promise<void> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) throw notFound(MENSAJES_AVERIAS.avisoNoExiste);
  await db.transaction(async (tx) => {
    const [fila] = await tx.select().from(averias).where(eq(averias.id, id)).for('update');
    if (
      !fila ||
      fila.estado !== 'pendiente' ||
      !distribuidorasAdministradas(auth.permisos).includes(fila.distribuidora as CodigoDistribuidora)
    ) {
      throw notFound(MENSAJES_AVERIAS.avisoNoExiste);
    }
    await tx.update(averias).set({ estado: 'descartada', resueltoEn: clock.now(), resueltoPor: auth.userId }).where(eq(averias.id, id));
    await audit(tx, {
      action: 'averia.descartada',
      actorUserId: auth.userId,
      targetType: 'averia',
      targetId: id,
      ip: info.ip,
      requestId: info.requestId,
      details: { distribuidora: fila.distribuidora, referencia: fila.referencia },
      distribuidoras: [fila.distribuidora],
    });
  });
}
