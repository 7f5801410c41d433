/**
 * The figures a consumption certificate states, from a supply point's stored hourly curve:
 * per civil month (of the supply point's zone, so a 25-hour October day counts 25 hours and a 23-hour
 * March day 23), the energy per tariff period, the total, and where the data came from: hours with a
 * real measure, estimated hours and hours with no measure at all. Missing hours are counted, never
 * added as zero. The sums are the project's own (src/lib/medidas/totales.ts, periodos.ts).
 */
import { fechaLocalDe, rangoMes } from '../calendario/hora-civil.ts';
import { leyendaPeriodos, zonaHorariaDe, type CodigoTarifa, type ZonaElectrica } from '../medidas/periodos.ts';
import { totalesPorPeriodo, type MedidaSumable } from '../medidas/totales.ts';
import { mesesEntre } from './periodo.ts';

/** Energy and hours of one month, or of the whole period. */
export interface CifrasTramo {
  /** Energy taken from the grid per tariff period, Wh, P1 first (every period of the tariff). */
  porPeriodoWh: number[];
  /** Their sum, Wh. */
  totalWh: number;
  /** Of it, from estimated hours, Wh. */
  estimadaWh: number;
  /** Hours the stretch lasts in civil time. */
  horas: number;
  /** Hours with a real measure. */
  horasReales: number;
  /** Hours with an estimated value. */
  horasEstimadas: number;
  /** Hours with no measure at all: not in any sum. */
  horasSinDato: number;
}

/** One civil month of the certificate. */
export interface CifrasMes extends CifrasTramo {
  /** `YYYY-MM`. */
  mes: string;
}

/** Everything the certificate computes. */
export interface CifrasCertificado {
  /** The tariff's energy periods, P1 first, with their Spanish names. */
  periodos: { periodo: string; nombre: string }[];
  meses: CifrasMes[];
  total: CifrasTramo;
}

const vacio = (n: number): CifrasTramo => ({
  porPeriodoWh: new Array<number>(n).fill(0),
  totalWh: 0,
  estimadaWh: 0,
  horas: 0,
  horasReales: 0,
  horasEstimadas: 0,
  horasSinDato: 0,
});

/**
 * The figures of the months `desdeMes`…`hastaMes` (`YYYY-MM`, both included) from hourly measures
 * (any order; measures outside the months are ignored).
 */
export function cifrasCertificado(
  medidas: Iterable<MedidaSumable>,
  opciones: { tarifa: CodigoTarifa; zona: ZonaElectrica; desdeMes: string; hastaMes: string },
): CifrasCertificado {
  const { tarifa, zona } = opciones;
  const horaria = zonaHorariaDe(zona);
  const leyenda = leyendaPeriodos(tarifa);
  const meses = mesesEntre(opciones.desdeMes, opciones.hastaMes);
  const porMes = new Map<string, MedidaSumable[]>(meses.map((m) => [m, []]));
  for (const m of medidas) porMes.get(fechaLocalDe(m.inicio, horaria).slice(0, 7))?.push(m);

  const total = vacio(leyenda.length);
  const filas: CifrasMes[] = meses.map((mes) => {
    const lista = porMes.get(mes)!;
    const todas = totalesPorPeriodo(lista, tarifa, zona);
    const estimadas = totalesPorPeriodo(
      lista.filter((m) => m.metodo === 'estimada'),
      tarifa,
      zona,
    );
    const rango = rangoMes(Number(mes.slice(0, 4)), Number(mes.slice(5, 7)), horaria);
    const horas = Math.round((rango.fin.getTime() - rango.inicio.getTime()) / 3_600_000);
    const fila: CifrasMes = {
      mes,
      porPeriodoWh: todas.periodos.map((p) => p.importadaWh),
      totalWh: todas.total.importadaWh,
      estimadaWh: estimadas.total.importadaWh,
      horas,
      horasReales: todas.total.intervalos - todas.total.estimadas,
      horasEstimadas: todas.total.estimadas,
      horasSinDato: horas - todas.total.intervalos,
    };
    fila.porPeriodoWh.forEach((wh, i) => (total.porPeriodoWh[i]! += wh));
    total.totalWh += fila.totalWh;
    total.estimadaWh += fila.estimadaWh;
    total.horas += fila.horas;
    total.horasReales += fila.horasReales;
    total.horasEstimadas += fila.horasEstimadas;
    total.horasSinDato += fila.horasSinDato;
    return fila;
  });
  return { periodos: leyenda.map((p) => ({ periodo: p.periodo, nombre: p.nombre })), meses: filas, total };
}

/** Whether a stretch has any measure at all. */
export function tieneDatos(t: Pick<CifrasTramo, 'horasReales' | 'horasEstimadas'>): boolean {
  return t.horasReales + t.horasEstimadas > 0;
}
