/**
 * Monthly maximum demanded power per tariff period, derived from the curve (docs/decisions/007):
 * the highest quarter-hour average power in each power period of each Madrid calendar month, as a
 * smart meter's maximeter registers it; where the meter gives only hours, the highest hourly average,
 * marked `estimada` because a quarter-hour peak inside the hour can be higher.
 */
import { sql } from 'drizzle-orm';
import { fechaLocalDe, rangoMes } from '../../lib/calendario/hora-civil.ts';
import { esCodigoTarifa, periodoPotencia, type ZonaElectrica } from '../../lib/medidas/periodos.ts';
import { queryRows, type Db } from '../db/client.ts';
import { pgArray } from '../db/arrays.ts';

/** The tariff zone of a supply point from its INE municipality code (province = first two digits). */
export function zonaElectricaDeIne(codigoIne: string): ZonaElectrica {
  const provincia = codigoIne.slice(0, 2);
  if (provincia === '07') return 'baleares';
  if (provincia === '35' || provincia === '38') return 'canarias';
  if (provincia === '51') return 'ceuta';
  if (provincia === '52') return 'melilla';
  return 'peninsula';
}

/** The Madrid calendar months (year, month) that the UTC interval [desde, hasta) touches. */
export function mesesLocales(desde: Date, hasta: Date): { anio: number; mes: number }[] {
  const meses: { anio: number; mes: number }[] = [];
  const [a0, m0] = fechaLocalDe(desde).split('-').map(Number) as [number, number];
  const [a1, m1] = fechaLocalDe(new Date(hasta.getTime() - 1))
    .split('-')
    .map(Number) as [number, number];
  for (let a = a0, m = m0; a < a1 || (a === a1 && m <= m1); m === 12 ? ((a += 1), (m = 1)) : (m += 1)) meses.push({ anio: a, mes: m });
  return meses;
}

/** One month's maxima of one supply point, computed from its intervals. */
export function maximosDelMes(
  intervalos: readonly { inicio: Date; importadaWh: number; real: boolean }[],
  minutos: 15 | 60,
  tarifa: string,
  zona: ZonaElectrica,
): Map<number, { potenciaW: number; momento: Date; real: boolean }> {
  const maximos = new Map<number, { potenciaW: number; momento: Date; real: boolean }>();
  if (!esCodigoTarifa(tarifa)) return maximos;
  const factor = 60 / minutos;
  for (const i of intervalos) {
    const periodo = Number(periodoPotencia(i.inicio, tarifa, zona).slice(1));
    const potenciaW = Math.round(i.importadaWh * factor);
    const actual = maximos.get(periodo);
    if (!actual || potenciaW > actual.potenciaW) maximos.set(periodo, { potenciaW, momento: i.inicio, real: i.real });
  }
  return maximos;
}

/** Recomputes the maxima of these supply points for every Madrid month that [desde, hasta) touches. */
export async function recalcularPotenciasMaximas(tx: Db, suministroIds: readonly number[], desde: Date, hasta: Date): Promise<number> {
  if (suministroIds.length === 0) return 0;
  const puntos = await queryRows<{ id: number; tarifa: string; codigo_ine: string; resolucion_minutos: number }>(
    tx,
    sql`select id, tarifa, codigo_ine, resolucion_minutos from suministros where id = any(${pgArray([...suministroIds])}::int[])`,
  );
  let filas = 0;
  const meses = mesesLocales(desde, hasta);
  for (const p of puntos) {
    const minutos = Number(p.resolucion_minutos) === 15 ? 15 : 60;
    const tabla = sql.raw(minutos === 15 ? 'medidas_cuartohorarias' : 'medidas_horarias');
    const zona = zonaElectricaDeIne(p.codigo_ine);
    const nuevas: { mes: string; periodo: number; potenciaW: number; momento: string; metodo: string }[] = [];
    for (const { anio, mes } of meses) {
      const rango = rangoMes(anio, mes);
      const intervalos = await queryRows<{ t: string | number; wh: number; real: boolean }>(
        tx,
        sql`select (extract(epoch from inicio) * 1000)::bigint as t, importada_wh as wh, real from ${tabla}
            where suministro_id = ${p.id} and inicio >= ${rango.inicio.toISOString()}::timestamptz and inicio < ${rango.fin.toISOString()}::timestamptz`,
      );
      const maximos = maximosDelMes(
        intervalos.map((i) => ({ inicio: new Date(Number(i.t)), importadaWh: Number(i.wh), real: i.real })),
        minutos,
        p.tarifa,
        zona,
      );
      const mesIso = `${anio}-${String(mes).padStart(2, '0')}-01`;
      for (const [periodo, m] of maximos) {
        nuevas.push({
          mes: mesIso,
          periodo,
          potenciaW: m.potenciaW,
          momento: m.momento.toISOString(),
          metodo: minutos === 15 && m.real ? 'real' : 'estimada',
        });
      }
    }
    const primero = meses[0]!;
    const ultimo = meses[meses.length - 1]!;
    await tx.execute(sql`delete from potencias_maximas where suministro_id = ${p.id}
      and mes between ${`${primero.anio}-${String(primero.mes).padStart(2, '0')}-01`}::date and ${`${ultimo.anio}-${String(ultimo.mes).padStart(2, '0')}-01`}::date`);
    if (nuevas.length) {
      await tx.execute(sql`insert into potencias_maximas (suministro_id, mes, periodo, potencia_w, momento, metodo)
        select ${p.id}, * from unnest(${pgArray(nuevas.map((n) => n.mes))}::date[], ${pgArray(nuevas.map((n) => n.periodo))}::smallint[],
          ${pgArray(nuevas.map((n) => n.potenciaW))}::int[], ${pgArray(nuevas.map((n) => n.momento))}::timestamptz[],
          ${pgArray(nuevas.map((n) => n.metodo))}::text[])`);
    }
    filas += nuevas.length;
  }
  return filas;
}
