/**
 * W1, «aportación de lectura» (the CNMC's exchange formats between supply companies and
 * distributors; gisce/gestionatr `W1`: step 01 `SolicitudAportacionLectura.xsd`, step 02
 * `AceptacionAportacionLectura.xsd` or `Rechazo.xsd`): a supply company passes on the register
 * reading its customer took, and the distributor accepts it as the point's self-reading or rejects
 * it with the reasons of CNMC table 27 that the format reserves for it (66, 67, 73, 75, 77, 78, 79).
 * Plain rules, read by the exchange's reader (src/server/lecturas/w1.ts) and by the tests.
 */
import type { MotivoAtr } from '../atr/procesos.ts';
import { MOTIVOS_ATR } from '../atr/procesos.ts';
import { esCodigoTarifa, numeroPeriodos } from '../medidas/periodos.ts';

/** The root element of the request (step 01) and of its acceptance (step 02; the format gives it no `Mensaje` prefix). */
export const RAIZ_W101 = 'MensajeSolicitudAportacionLectura';
export const RAIZ_W102 = 'AceptacionAportacionLectura';

/** One register the request proposes: table 43 magnitude, table 42 period code, reading in kWh. */
export interface LecturaAportada {
  integrador: string;
  periodo: string;
  valor: number;
}

/** What a W1 01 asks: the day the customer read the meter, its discrimination (table 35) and its registers. */
export interface AportacionW1 {
  fecha: string;
  tipoDH: string;
  lecturas: readonly LecturaAportada[];
}

/** A stored reading of the point, by its local day. */
export interface LecturaPrevia {
  fecha: string;
  origen: string;
  activaKwh: readonly number[];
}

/** What the rules read of the supply point. */
export interface PuntoW1 {
  tarifa: string;
  potenciasW: readonly number[];
  telegestionado: boolean;
  modoControlPotencia: string;
  autoconsumo: string;
  fechaBaja: string | null;
  comercializadoraCodigo: string;
}

/** A reason a W1 is refused for. */
export interface MotivoW1 {
  codigo: MotivoAtr;
  comentario: string;
}

/**
 * Self-readings are for the meters the distributor reads by visiting them: low-voltage points of
 * up to 15 kW without a maximeter (the format's own reasons 73 and 67) and not telemanaged (66),
 * whose registers the distributor reads remotely at every closure.
 */
export const POTENCIA_MAXIMA_AUTOLECTURA_W = 15_000;

/**
 * The energy period a table 42 code names: A1–A6 (the periods of Circular 3/2020, which the
 * portal writes in its R1) or 61–66 (six-period discrimination); null for any other code
 * (totalisers and the pre-2021 bands, which no 2.0TD or 6.xTD register has).
 */
export function periodoDeCodigo(codigo: string): number | null {
  const m = /^(?:A|6)([1-6])$/.exec(codigo);
  return m ? Number(m[1]) : null;
}

/**
 * The registers a W1 gives, as the portal stores them (whole kWh, as the meter's wheels show
 * them); null when they do not fit the tariff.
 */
export function registrosW1(a: AportacionW1, tarifa: string): { activaKwh: number[]; exportadaKwh: number | null } | null {
  if (!esCodigoTarifa(tarifa)) return null;
  const n = numeroPeriodos(tarifa);
  const activa: (number | undefined)[] = Array.from({ length: n }, () => undefined);
  let exportada: number | null = null;
  for (const l of a.lecturas) {
    const p = periodoDeCodigo(l.periodo);
    if (!Number.isFinite(l.valor) || l.valor < 0) return null;
    if (l.integrador === 'AE') {
      if (p === null || p > n || activa[p - 1] !== undefined) return null;
      activa[p - 1] = Math.floor(l.valor);
    } else if (l.integrador === 'AS') {
      // The portal keeps one exported register (lecturas_contador.exportada_kwh): the periods add up to it.
      exportada = (exportada ?? 0) + Math.floor(l.valor);
    } else return null;
  }
  if (activa.some((v) => v === undefined)) return null;
  return { activaKwh: activa as number[], exportadaKwh: exportada };
}

/** Table 35 discrimination of a tariff's meter: 9, three periods (2.0TD); A, six periods (the 6.xTD and 3.0TD). */
export const tipoDHDe = (tarifa: string): string => (tarifa === '2.0TD' ? '9' : 'A');

const suma = (v: readonly number[]) => v.reduce((a, b) => a + b, 0);
/** Days from the civil date `a` to `b`. */
const diasEntre = (a: string, b: string) => Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);

/**
 * Why a self-reading is refused, in table 27 codes; empty when it is accepted. `hoy` is the
 * receipt's day in the point's civil time; `previas` the point's readings, newest first.
 */
export function motivosW1(a: AportacionW1, s: PuntoW1, empresaRee: string, hoy: string, previas: readonly LecturaPrevia[]): MotivoW1[] {
  const motivos: MotivoW1[] = [];
  const con = (codigo: MotivoAtr, comentario: string) => motivos.push({ codigo, comentario });
  if (s.fechaBaja) con('72', `${MOTIVOS_ATR['72']} desde el ${s.fechaBaja}.`);
  if (s.comercializadoraCodigo !== empresaRee) con('11', `${MOTIVOS_ATR['11']}: el suministro no es de su comercializadora.`);
  if (s.telegestionado) con('66', `${MOTIVOS_ATR['66']}: la distribuidora lee sus registros a distancia en cada cierre.`);
  if (s.modoControlPotencia === 'maximetro') con('67', `${MOTIVOS_ATR['67']}: su lectura la toma la distribuidora.`);
  if (Math.max(...s.potenciasW) > POTENCIA_MAXIMA_AUTOLECTURA_W)
    con('73', `${MOTIVOS_ATR['73']}: la autolectura es de suministros de hasta 15 kW.`);
  const registros = registrosW1(a, s.tarifa);
  const periodos = esCodigoTarifa(s.tarifa) ? numeroPeriodos(s.tarifa) : 0;
  if (!registros) {
    con(
      '75',
      `${MOTIVOS_ATR['75']}: la tarifa ${s.tarifa} tiene ${periodos} periodos de energía; se espera una lectura AE de cada uno (A1…A${periodos}), sin repetir${s.autoconsumo === 'ninguno' ? '' : ', y las AS del excedente'}.`,
    );
  } else if (registros.exportadaKwh !== null && s.autoconsumo === 'ninguno') {
    con('75', `${MOTIVOS_ATR['75']}: el suministro no tiene autoconsumo, y su contador no registra energía exportada (AS).`);
  }
  if (a.fecha > hoy) con('99', `${MOTIVOS_ATR['99']}: la fecha de lectura (${a.fecha}) es posterior a hoy (${hoy}).`);
  const ultima = previas[0];
  if (ultima && a.fecha <= ultima.fecha) {
    con('79', `${MOTIVOS_ATR['79']}: el suministro ya tiene una lectura del ${ultima.fecha}; la autolectura ha de ser posterior.`);
  }
  const real = previas.find((p) => p.origen === 'real');
  if (registros && real && a.fecha > real.fecha) {
    const menores = registros.activaKwh.map((v, i) => ({ v, i })).filter(({ v, i }) => v < (real.activaKwh[i] ?? 0));
    if (menores.length) {
      con(
        '77',
        `${MOTIVOS_ATR['77']} (${real.fecha}): ${menores.map(({ v, i }) => `P${i + 1} ${v} kWh < ${real.activaKwh[i]} kWh`).join(', ')}.`,
      );
    } else {
      // More energy than the contracted power could have drawn every hour since the last real reading.
      const horas = diasEntre(real.fecha, a.fecha) * 24;
      const consumo = suma(registros.activaKwh) - suma(real.activaKwh);
      const tope = Math.ceil((Math.max(...s.potenciasW) / 1000) * horas);
      if (consumo > tope) {
        con(
          '78',
          `${MOTIVOS_ATR['78']}: ${consumo} kWh desde la lectura real del ${real.fecha}, más de lo que ${Math.max(...s.potenciasW) / 1000} kW contratados dan en ${horas} horas (${tope} kWh).`,
        );
      }
    }
  }
  return motivos;
}
