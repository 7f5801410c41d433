/**
 * The dashboard's summary (docs/decisions/024-panel-de-inicio.md): what awaits the caller, read from
 * the stores the other features keep and, where they have one, through their service functions.
 * Every read is of the caller's own supply points (by their NIF and `-distribucion`, the ownership
 * code of every consumer screen) or of their own account; each query takes the whole list of supply
 * points at once, so their number does not multiply the queries.
 */
import { and, desc, eq, gte, inArray, isNull, or, sql } from 'drizzle-orm';
import { direccionCompleta } from '../../lib/suministros/direccion.ts';
import { horasDe, mesesUtcDe, periodosResumen } from '../../lib/inicio/periodos.ts';
import type { ProblemaContador, ResumenInicio, SuministroResumen } from '../../lib/inicio/respuestas.ts';
import type { Intervalo } from '../../lib/calendario/hora-civil.ts';
import { tieneArea } from '../../lib/permisos.ts';
import { listarPropias } from '../accesoyconexion/service.ts';
import { filaAtr } from '../atr/vista.ts';
import { listarPropios } from '../contacto/service.ts';
import { pgArray } from '../db/arrays.ts';
import { queryRows, type Db } from '../db/client.ts';
import { expedientes, ficherosIntercambio } from '../db/schema.ts';
import { nombreDistribuidora } from '../../lib/distribuidoras.ts';
import type { AuthContext, Clock } from '../http/context.ts';
import { incidenciasDeSuministros } from '../incidencias/service.ts';
import { cuentaIntercambio } from '../intercambio/almacen.ts';
import { estadosDe, programasDe } from '../lecturas/service.ts';
import { solicitudesDelLector } from '../modificaciones/service.ts';
import { ficherosDe, primerDiaDelMes } from '../sips/ficheros.ts';
import { lectorDeCuenta, suministrosDe, type Suministro } from '../suministros/service.ts';

/** Supply points summarised one by one; a holder with more sees the count and the list screen. */
export const MAX_SUMINISTROS = 10;

/** How far back a decision or an answer is still news. */
const DIAS_NOVEDAD = 30;
/** How far back a rejected ATR request or a new file in salida/ is still shown. */
const DIAS_COMERCIALIZADORA = 7;
const MS_DIA = 86_400_000;
const MS_HORA = 3_600_000;

/** What the summary needs. */
export interface DepsInicio {
  db: Db;
  clock: Clock;
  publicUrl: string | null;
}

/** Energy taken from the grid and hours with a measure, of one supply point in one period. */
interface Suma {
  wh: number;
  horas: number;
}

/**
 * The energy of each supply point in each period, from the packed months (medidas_horarias_mes, one
 * row per supply point and UTC month, read by its primary key). A civil day or month in Madrid
 * touches two UTC months at most; the hours of the period are summed out of each month's JSON
 * array in the database, so only the sums travel. One statement for every supply point and period.
 */
export async function consumosDe(db: Db, ids: readonly number[], periodos: readonly Intervalo[]): Promise<Map<number, Suma[]>> {
  const resultado = new Map<number, Suma[]>(ids.map((id) => [id, periodos.map(() => ({ wh: 0, horas: 0 }))]));
  if (ids.length === 0 || periodos.length === 0) return resultado;
  const claves: number[] = [];
  const meses: string[] = [];
  const desde: number[] = [];
  const hasta: number[] = [];
  periodos.forEach((p, k) => {
    for (const mes of mesesUtcDe(p)) {
      // Slots [desde, hasta) of the month's arrays (slot i is the hour starting i hours after the month).
      claves.push(k);
      meses.push(mes.toISOString());
      desde.push(Math.max(0, Math.round((p.inicio.getTime() - mes.getTime()) / MS_HORA)));
      hasta.push(Math.round((p.fin.getTime() - mes.getTime()) / MS_HORA));
    }
  });
  const filas = await queryRows<{ id: number; clave: number; wh: string | number | null; horas: string | number }>(
    db,
    sql`with r(clave, mes, desde, hasta) as (
          select * from unnest(${pgArray(claves)}::int[], ${pgArray(meses)}::timestamptz[], ${pgArray(desde)}::int[], ${pgArray(hasta)}::int[])
        )
        select m.suministro_id as id, r.clave, sum(s.wh) as wh, sum(s.horas) as horas
        from r join medidas_horarias_mes m on m.mes = r.mes and m.suministro_id = any(${pgArray([...ids])}::int[])
        cross join lateral (
          select sum(e.v::bigint) as wh, count(e.v) as horas
          from json_array_elements_text(m.importada_wh) with ordinality as e(v, i)
          where e.i > r.desde and e.i <= r.hasta
        ) s
        group by m.suministro_id, r.clave`,
  );
  for (const f of filas) {
    const suma = resultado.get(Number(f.id))?.[Number(f.clave)];
    if (!suma) continue;
    suma.wh = Number(f.wh ?? 0);
    suma.horas = Number(f.horas);
  }
  return resultado;
}

/** kWh with three decimals, or null without any measured hour. */
const kwh = (s: Suma): number | null => (s.horas === 0 ? null : Math.round(s.wh) / 1000);

/** The problems of a meter state row worth telling on the dashboard (src/lib/lecturas/estado-contador.ts). */
function problemasDe(
  e: { estadoSuministro: string; interruptor: string; comunica: boolean } | undefined,
  telegestionado: boolean,
): ProblemaContador[] {
  if (!e) return [];
  const p: ProblemaContador[] = [];
  if (e.estadoSuministro === 'cortado') p.push('cortado');
  else if (e.estadoSuministro === 'sin_suministro') p.push('sin_suministro');
  if (e.estadoSuministro !== 'cortado' && e.interruptor === 'abierto_exceso') p.push('icp');
  if (e.estadoSuministro !== 'cortado' && e.interruptor === 'abierto_remoto') p.push('abierto_remoto');
  if (telegestionado && !e.comunica) p.push('sin_comunicacion');
  return p;
}

/** The household or company part: each supply point's consumption, next reading, interruptions and meter, and decided requests. */
async function consumidor(db: Db, auth: AuthContext, ahora: Date): Promise<ResumenInicio['consumidor']> {
  const lector = lectorDeCuenta(auth);
  if (lector.distribuidoras.length === 0) return null;
  const todos = await suministrosDe(db, lector);
  const lista: Suministro[] = todos.slice(0, MAX_SUMINISTROS);
  const ids = lista.map((s) => s.id);
  const p = periodosResumen(ahora);
  const desdeNovedad = ahora.getTime() - DIAS_NOVEDAD * MS_DIA;
  const [consumos, programas, incidencias, estados, solicitudes] = await Promise.all([
    consumosDe(db, ids, [p.rangoAyer, p.rangoMes, p.rangoMesAnterior]),
    programasDe(db, lista, ahora),
    incidenciasDeSuministros(db, lista),
    estadosDe(db, ids),
    solicitudesDelLector(db, lector),
  ]);
  const periodo = (s: { wh: number; horas: number } | undefined, r: Intervalo) => ({
    kWh: s ? kwh(s) : null,
    horasMedidas: s?.horas ?? 0,
    horasPeriodo: horasDe(r),
  });
  const suministros: SuministroResumen[] = lista.map((s) => {
    const c = consumos.get(s.id);
    const lectura = programas.get(s.id)?.lecturas[0];
    const e = estados.get(s.id);
    return {
      cups: s.cups,
      distribuidora: s.distribuidora,
      distribuidoraNombre: nombreDistribuidora(s.distribuidora),
      direccion: direccionCompleta(s),
      municipio: s.municipio,
      ayer: { fecha: p.ayer, ...periodo(c?.[0], p.rangoAyer) },
      mes: { mes: p.mes, ...periodo(c?.[1], p.rangoMes) },
      mesAnterior: { mes: p.mesAnterior, ...periodo(c?.[2], p.rangoMesAnterior) },
      proximaLectura: lectura ? { fecha: lectura.fecha, tipo: lectura.tipo, autolectura: lectura.autolectura } : null,
      interrupciones: (incidencias.get(s.cups) ?? []).map((i) => ({
        id: i.id,
        estadoIncidenciaRed: i.estadoIncidenciaRed as 'Programada' | 'En curso' | 'Activa',
        descripcion: i.descripcion,
        municipio: i.municipio,
        inicio: i.inicio,
        finPrevisto: i.finPrevisto,
        afecta: i.afecta,
      })),
      contador: {
        problemas: problemasDe(e, s.telegestionado),
        ultimaComunicacion: e?.ultimaComunicacion?.toISOString() ?? null,
      },
    };
  });
  const modificaciones = solicitudes
    .filter(
      (m) => (m.estado === 'aceptada' || m.estado === 'rechazada' || m.estado === 'activada') && Date.parse(m.actualizada) >= desdeNovedad,
    )
    .map((m) => ({
      numero: m.numero,
      referencia: m.referencia,
      estado: m.estado as 'aceptada' | 'rechazada' | 'activada',
      cups: m.cups,
      motivoRechazo: m.motivoRechazo ? `${m.motivoRechazo.codigo} · ${m.motivoRechazo.texto}` : null,
      fechaActivacion: m.fechaActivacion,
      actualizada: m.actualizada,
    }));
  return { totalSuministros: todos.length, suministros, modificaciones };
}

/** Queries and claims where the distributor asks the user something, or answered lately. */
async function contacto(deps: DepsInicio, auth: AuthContext): Promise<ResumenInicio['contacto']> {
  if (!tieneArea(auth.permisos, 'contacto')) return [];
  const desde = deps.clock.now().getTime() - DIAS_NOVEDAD * MS_DIA;
  const [consultas, reclamaciones] = await Promise.all([
    listarPropios(deps, auth.userId, 'consulta'),
    listarPropios(deps, auth.userId, 'reclamacion'),
  ]);
  const r: ResumenInicio['contacto'] = [];
  for (const k of [...consultas, ...reclamaciones]) {
    // Open and the user's turn: a query answered (they may reply or call it solved) or a claim asking
    // for more information. Closed lately by the distributor: a claim's answer (anulada is the
    // claimant's own withdrawal, a query's cerrada their own "solved").
    const abierta = !k.cerradoEn && k.turno === 'solicitante' && k.paso !== 'borrador';
    const pide = abierta && k.paso !== 'respondida';
    const respondida =
      (abierta && k.paso === 'respondida') ||
      (k.procedimiento === 'reclamacion' && !!k.cerradoEn && Date.parse(k.cerradoEn) >= desde && k.paso !== 'anulada');
    if (!pide && !respondida) continue;
    r.push({
      id: k.id,
      referencia: k.referencia,
      procedimiento: k.procedimiento,
      asunto: k.asunto,
      motivo: pide ? 'pide_informacion' : 'respondida',
      vence: pide ? k.vence : null,
      fecha: k.cerradoEn ?? k.presentadoEn ?? k.creadoEn,
    });
  }
  // Those awaiting an answer first, then the newest.
  return r.sort((a, b) => (a.motivo !== b.motivo ? (a.motivo === 'pide_informacion' ? -1 : 1) : b.fecha.localeCompare(a.fecha)));
}

/** Access and connection requests waiting for the applicant: a correction asked for, or a prior proposal to answer. */
async function accesos(deps: DepsInicio, auth: AuthContext): Promise<ResumenInicio['accesos']> {
  if (!tieneArea(auth.permisos, 'accesoyconexion')) return [];
  const propias = await listarPropias(deps, auth.userId);
  return propias
    .filter((s) => s.turno === 'solicitante' && (s.paso === 'subsanacion' || s.paso === 'propuesta'))
    .map((s) => ({
      id: s.id,
      referencia: s.referencia,
      paso: s.paso as 'subsanacion' | 'propuesta',
      emplazamiento: s.emplazamiento,
      vence: s.vence,
      vencido: s.vencido,
    }));
}

/** The supply company part: ATR requests that need a look, new files in salida/, and this month's SIPS files. */
async function comercializadora(db: Db, auth: AuthContext, ahora: Date): Promise<ResumenInicio['comercializadora']> {
  const { distribuidoras } = cuentaIntercambio(auth.userId, auth.permisos);
  if (distribuidoras.length === 0) return null;
  const reciente = new Date(ahora.getTime() - DIAS_COMERCIALIZADORA * MS_DIA);
  const estado = expedientes.paso;
  const mes = primerDiaDelMes(ahora);
  const [atr, salida, sips] = await Promise.all([
    db
      .select()
      .from(expedientes)
      .where(
        and(
          eq(expedientes.procedimiento, 'atr'),
          eq(expedientes.userId, auth.userId),
          inArray(expedientes.distribuidora, [...distribuidoras]),
          or(
            and(sql`${estado} = 'incidencia'`, isNull(expedientes.cerradoEn)),
            and(sql`${estado} in ('rechazada', 'rechazada_campo')`, gte(expedientes.updatedAt, reciente)),
          ),
        ),
      )
      .orderBy(desc(expedientes.updatedAt), desc(expedientes.numero))
      .limit(50),
    queryRows<{ distribuidora: string; ficheros: number; ultimo: Date | string }>(
      db,
      sql`select ${ficherosIntercambio.distribuidora} as distribuidora, count(*)::int as ficheros, max(${ficherosIntercambio.modificadoEn}) as ultimo
          from ${ficherosIntercambio}
          where ${ficherosIntercambio.usuarioId} = ${auth.userId} and ${ficherosIntercambio.origen} = 'distribuidora'
            and not ${ficherosIntercambio.carpeta} and ${ficherosIntercambio.modificadoEn} >= ${reciente.toISOString()}::timestamptz
            and ${ficherosIntercambio.distribuidora} = any(${pgArray([...distribuidoras])}::text[])
          group by 1 order by 1`,
    ),
    Promise.all(distribuidoras.map((d) => ficherosDe(db, d))),
  ]);
  return {
    atr: atr.map((e) => {
      const f = filaAtr(e);
      return {
        id: f.id,
        referencia: f.referencia,
        distribuidora: f.distribuidora,
        distribuidoraNombre: nombreDistribuidora(f.distribuidora),
        proceso: f.proceso,
        cups: f.cups,
        estado: f.estado as 'incidencia' | 'rechazada' | 'rechazada_campo',
        actualizada: f.actualizada,
      };
    }),
    intercambio: salida.map((s) => ({
      distribuidora: s.distribuidora,
      distribuidoraNombre: nombreDistribuidora(s.distribuidora),
      ficheros: Number(s.ficheros),
      ultimo: new Date(s.ultimo).toISOString(),
    })),
    sips: distribuidoras.map((d, k) => {
      const ficheros = sips[k]!;
      return {
        distribuidora: d,
        distribuidoraNombre: nombreDistribuidora(d),
        mes: mes.slice(0, 7),
        disponible: ficheros.some((f) => f.mes === mes),
        ultimoMes: ficheros[0]?.mes.slice(0, 7) ?? null,
      };
    }),
  };
}

/** GET /api/inicio/resumen: everything that awaits the caller (impersonated: the impersonated account). */
export async function resumenInicio(deps: DepsInicio, auth: AuthContext): Promise<ResumenInicio> {
  const ahora = deps.clock.now();
  const [c, k, a, com] = await Promise.all([
    consumidor(deps.db, auth, ahora),
    contacto(deps, auth),
    accesos(deps, auth),
    comercializadora(deps.db, auth, ahora),
  ]);
  return { hoy: periodosResumen(ahora).hoy, consumidor: c, contacto: k, accesos: a, comercializadora: com };
}
