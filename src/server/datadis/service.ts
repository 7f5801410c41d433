/**
 * The answers of the Datadis-compatible API (docs/decisions/044): the caller's supply points,
 * contracts, hourly or quarter-hourly curves and monthly maximum powers shaped as datadis.es's
 * private API sends them, so its clients read the portal by changing only the base address. The
 * figures come from the same readers as the portal's own screens and downloads; the rows of a curve
 * come from `filaExportacion` (src/lib/medidas/exportacion.ts), as the Datadis-format CSV's do.
 */
import { DISTRIBUIDORAS, type CodigoDistribuidora } from '../../lib/distribuidoras.ts';
import { filaExportacion, type FilaExportacion } from '../../lib/medidas/exportacion.ts';
import { partesLocales, rangoMes } from '../../lib/medidas/horas.ts';
import { esCodigoTarifa, zonaHorariaDe } from '../../lib/medidas/periodos.ts';
import type { AutorizacionRespuesta } from '../../lib/autorizaciones.ts';
import type { Db } from '../db/client.ts';
import { nombreDistribuidora } from '../../lib/distribuidoras.ts';
import { zonaElectricaDeIne } from '../medidas/potencias.ts';
import { reactivaPorMes } from '../medidas/reactiva.ts';
import { leerPotenciasMaximas, recorrerHoras } from '../medidas/service.ts';
import type { Suministro } from '../suministros/service.ts';

/**
 * The code each distributor goes by in these answers. Datadis numbers its member distributors
 * from 1 (1 Viesgo, 2 E-distribución … 8 IDE); clients such as ctr-datadis refuse any other code
 * before asking (its `validate_distributor_code` accepts 1–8 only), so the portal's three use the
 * first three numbers, in the order the contract lists them. A client talks to one base address at a
 * time, so the numbers never meet Datadis's own; the `distributor` field carries the real name.
 */
export const CODIGO_DATADIS: Record<CodigoDistribuidora, string> = { epd: '1', eod: '2', ecd: '3' };

/** The distributor a `distributorCode` names: the code above, the REE code (9901…) or the portal's (epd…). */
export function distribuidoraDeCodigo(codigo: string): CodigoDistribuidora | undefined {
  const c = codigo.trim().toLowerCase();
  return DISTRIBUIDORAS.find((d) => CODIGO_DATADIS[d.codigo] === c || d.codigoREE === c || d.codigo === c)?.codigo;
}

/** `AAAA-MM-DD` as Datadis writes dates, `AAAA/MM/DD`; '' for none. */
const fechaDatadis = (f: string | null) => (f ? f.slice(0, 10).replaceAll('-', '/') : '');

/**
 * The measure point type (RD 1110/2007, art. 7) from the contracted powers: 5 up to 15 kW, 4 up to
 * 50 kW, 3 below 450 kW, 2 below 10 MW, 1 above. Datadis asks for it with every curve.
 */
export function tipoPunto(s: Pick<Suministro, 'potenciasW'>): number {
  const maxW = Math.max(...s.potenciasW);
  if (maxW <= 15_000) return 5;
  if (maxW <= 50_000) return 4;
  if (maxW < 450_000) return 3;
  if (maxW < 10_000_000) return 2;
  return 1;
}

/** A supply point as `get-supplies` lists it. */
export interface SuministroDatadis {
  address: string;
  cups: string;
  postalCode: string;
  province: string;
  municipality: string;
  distributor: string;
  validDateFrom: string;
  validDateTo: string;
  pointType: number;
  distributorCode: string;
}

export function suministroDatadis(s: Suministro): SuministroDatadis {
  return {
    address: s.direccion,
    cups: s.cups,
    postalCode: s.codigoPostal,
    province: s.provincia,
    municipality: s.municipio,
    distributor: nombreDistribuidora(s.distribuidora),
    validDateFrom: fechaDatadis(s.fechaAlta),
    // Empty while the contract is in force: python-edata reads '' as "still valid".
    validDateTo: fechaDatadis(s.fechaBaja),
    pointType: tipoPunto(s),
    distributorCode: CODIGO_DATADIS[s.distribuidora as CodigoDistribuidora],
  };
}

const MODO_CONTROL: Record<string, string> = { icp: 'ICP', maximetro: 'Maxímetro', telegestion: 'ICP', sin_control: '' };
const AUTOCONSUMO: Record<string, { codigo: string; descripcion: string }> = {
  ninguno: { codigo: '', descripcion: '' },
  sin_excedentes: { codigo: '31', descripcion: 'Sin excedentes' },
  con_excedentes_compensacion: { codigo: '41', descripcion: 'Con excedentes acogido a compensación' },
  con_excedentes_sin_compensacion: { codigo: '42', descripcion: 'Con excedentes no acogido a compensación' },
  modalidad_no_informada: { codigo: '', descripcion: 'Acogido a autoconsumo' },
};

/**
 * A contract as `get-contract-detail` lists it. `marketer` only for the holder, as Datadis does
 * (null for a reader through an authorisation); fields the portal does not keep are null.
 */
export function contratoDatadis(s: Suministro, titular: boolean) {
  const auto = AUTOCONSUMO[s.autoconsumo] ?? AUTOCONSUMO.ninguno!;
  return {
    cups: s.cups,
    distributor: nombreDistribuidora(s.distribuidora),
    marketer: titular ? (s.comercializadoraNombre ?? s.comercializadoraCodigo) : null,
    tension: s.tensionV < 1000 ? 'BT' : 'AT',
    accessFare: s.tarifa,
    province: s.provincia,
    municipality: s.municipio,
    postalCode: s.codigoPostal,
    contractedPowerkW: s.potenciasW.map((w) => Math.round(w) / 1000),
    timeDiscrimination: s.tarifa,
    modePowerControl: MODO_CONTROL[s.modoControlPotencia] ?? '',
    startDate: fechaDatadis(s.fechaAlta),
    endDate: fechaDatadis(s.fechaBaja),
    codeFare: s.tarifa,
    selfConsumptionTypeCode: auto.codigo,
    selfConsumptionTypeDesc: auto.descripcion,
    section: null,
    subsection: null,
    partitionCoefficient: null,
    cau: null,
    installedCapacityKW: null,
    dateOwner: [{ startDate: fechaDatadis(s.fechaAlta), endDate: fechaDatadis(s.fechaBaja) }],
    lastMarketerDate: null,
    maxPowerInstall: String(Math.round(s.potenciaMaximaW) / 1000),
    distributorCode: CODIGO_DATADIS[s.distribuidora as CodigoDistribuidora],
  };
}

/** A month `AAAA/MM` as Datadis's `startDate`/`endDate` give it. */
export interface MesDatadis {
  anio: number;
  mes: number;
}

/** One hour (or quarter-hour) as `get-consumption-data` lists it. */
export interface ConsumoDatadis {
  cups: string;
  date: string;
  time: string;
  consumptionKWh: number;
  obtainMethod: 'Real' | 'Estimada';
  surplusEnergyKWh: number;
  generationEnergyKWh: null;
  selfConsumptionEnergyKWh: null;
}

/** kWh as a JSON number from Wh, exact to the Wh (Wh are integers; quarter-hours may carry decimals). */
const kwh = (wh: number) => Math.round(wh * 1000) / 1_000_000;

/**
 * The row of an interval: the same date and hour-ending clock time as the Datadis-format CSV
 * (`01:00`…`24:00`, the October hour repeated, no March `03:00`), `Real`/`Estimada`, kWh as
 * numbers. `surplusEnergyKWh` is the exported energy, 0 where the meter records none (a point
 * without generation, as Datadis sends it); the portal keeps no generation or self-consumption
 * measures of its own, so those two are null: unknown, never a false zero.
 */
export function consumoDatadis(f: FilaExportacion): ConsumoDatadis {
  return {
    cups: f.cups,
    date: f.fecha.replaceAll('-', '/'),
    time: f.horaFin,
    consumptionKWh: kwh(f.importadaWh ?? 0),
    obtainMethod: f.metodo === 'real' ? 'Real' : 'Estimada',
    surplusEnergyKWh: f.exportadaWh === null ? 0 : kwh(f.exportadaWh),
    generationEnergyKWh: null,
    selfConsumptionEnergyKWh: null,
  };
}

/** The civil-time bounds of the months [desde, hasta] in the supply point's zone. */
function limitesMeses(s: Suministro, desde: MesDatadis, hasta: MesDatadis) {
  const zona = zonaHorariaDe(zonaElectricaDeIne(s.codigoIne));
  return { inicio: rangoMes(desde.anio, desde.mes, zona).inicio, fin: rangoMes(hasta.anio, hasta.mes, zona).fin };
}

/** The measured intervals of the months [desde, hasta], hours or quarter-hours, as Datadis lists them. */
export async function consumosDatadis(
  db: Db,
  s: Suministro,
  desde: MesDatadis,
  hasta: MesDatadis,
  cuartos: boolean,
): Promise<ConsumoDatadis[]> {
  if (!esCodigoTarifa(s.tarifa)) throw new Error(`Tarifa sin tabla de periodos: ${s.tarifa}`);
  const opciones = { tarifa: s.tarifa, zona: zonaElectricaDeIne(s.codigoIne) };
  const { inicio, fin } = limitesMeses(s, desde, hasta);
  const minutos = cuartos ? 15 : 60;
  const filas: ConsumoDatadis[] = [];
  for await (const m of recorrerHoras(db, s.id, inicio, fin, cuartos ? 'medidas_cuartohorarias' : 'medidas_horarias')) {
    const f = filaExportacion(
      {
        cups: s.cups,
        inicio: m.inicio,
        minutos,
        importadaWh: m.importadaWh,
        exportadaWh: m.exportadaWh,
        metodo: m.real ? 'real' : 'estimada',
        firme: m.firme,
      },
      opciones,
    );
    filas.push(consumoDatadis(f));
  }
  return filas;
}

/** One month's maximum in one period as `get-max-power` lists it. */
export interface PotenciaDatadis {
  cups: string;
  date: string;
  time: string;
  maxPower: number;
  period: string;
}

const dos = (n: number) => String(n).padStart(2, '0');

/**
 * The monthly maxima of the months [desde, hasta], as Datadis sends them: the date and clock time
 * (`HH:MM`) of the instant the interval of the maximum ended, in the supply point's zone (the last
 * quarter-hour of a day is `00:00` of the next, never `24:00`: python-edata parses `%H:%M`),
 * `maxPower` in kW with three decimals, and the tariff period's number as text. Datadis's published
 * table says W, but it sends kW (datadis-php-client measured 3.516 against 3.45 kW contracted, and
 * python-edata stores the figure as kW).
 */
export async function potenciasDatadis(db: Db, s: Suministro, desde: MesDatadis, hasta: MesDatadis): Promise<PotenciaDatadis[]> {
  const zona = zonaHorariaDe(zonaElectricaDeIne(s.codigoIne));
  const filas = await leerPotenciasMaximas(db, s.id, `${desde.anio}-${dos(desde.mes)}-01`, `${hasta.anio}-${dos(hasta.mes)}-01`);
  return filas.map((p) => {
    const l = partesLocales(Date.parse(p.momento) + s.resolucionMinutos * 60_000, zona);
    return {
      cups: s.cups,
      date: l.fecha.replaceAll('-', '/'),
      time: `${dos(l.hora)}:${dos(l.minuto)}`,
      maxPower: Math.round(p.potenciaW) / 1000,
      period: String(p.periodo),
    };
  });
}

/** One month of `get-reactive-data-v2`: kVArh per energy period, null for a period the tariff does not have. */
export interface ReactivaMesDatadis {
  date: string;
  energy_p1: number | null;
  energy_p2: number | null;
  energy_p3: number | null;
  energy_p4: number | null;
  energy_p5: number | null;
  energy_p6: number | null;
}

/** What `get-reactive-data-v2` answers under `reactiveEnergy`. */
export interface ReactivaDatadis {
  cups: string;
  energy: ReactivaMesDatadis[];
  code: string | null;
  code_desc: string | null;
}

/**
 * The reactive energy of the months [desde, hasta] as `get-reactive-data-v2` sends it: one entry per
 * month that has any (`AAAA/MM`), the inductive energy (quadrant R1, the one the access tariffs bill
 * beyond a power factor of 0.95) in kVArh per energy period of the tariff; a period the tariff lacks
 * (P4–P6 of a 2.0TD) is null. Datadis gives one figure per period, so the capacitive energy (R4) is
 * not in this answer; the SIPS consumption file carries it (docs/decisions/054).
 */
export async function reactivaDatadis(db: Db, s: Suministro, desde: MesDatadis, hasta: MesDatadis): Promise<ReactivaDatadis> {
  const { inicio, fin } = limitesMeses(s, desde, hasta);
  const meses = await reactivaPorMes(db, s, zonaElectricaDeIne(s.codigoIne), inicio, fin);
  const kvarh = (m: { inductivaVarh: number[] }, p: number) => (p < m.inductivaVarh.length ? m.inductivaVarh[p]! / 1000 : null);
  return {
    cups: s.cups,
    energy: meses.map((m) => ({
      date: m.mes.replace('-', '/'),
      energy_p1: kvarh(m, 0),
      energy_p2: kvarh(m, 1),
      energy_p3: kvarh(m, 2),
      energy_p4: kvarh(m, 3),
      energy_p5: kvarh(m, 4),
      energy_p6: kvarh(m, 5),
    })),
    code: null,
    code_desc: null,
  };
}

/** An authorisation as `list-authorization` lists it (one entry per distributor of its supply points). */
export interface AutorizacionDatadis {
  id: string;
  ownerDocument: string;
  requesterDocument: string;
  status: string;
  validityDateStart: string;
  validityDateEnd: string;
  distributorCodeFather: string;
}

/** The state of an authorisation as the answer writes it. */
const ESTADO_DATADIS: Readonly<Record<AutorizacionRespuesta['estado'], string>> = {
  vigente: 'ACTIVA',
  caducada: 'CADUCADA',
  revocada: 'CANCELADA',
};

/**
 * The portal's own authorisations (docs/decisions/028) as `list-authorization` answers them
 * (ctr-datadis's API reference, `datadis_python/docs/20250920-datadis-api-reference.md`): the holder's
 * NIF as `ownerDocument`, the authorised as `requesterDocument`, the days as `AAAA/MM/DD`, and one
 * entry per distributor its supply points are at, under that distributor's code of these answers.
 * `id` is the portal's identifier (a UUID), not Datadis's number.
 */
export function autorizacionesDatadis(lista: readonly AutorizacionRespuesta[]): AutorizacionDatadis[] {
  // A CUPS names its distributor by the REE code after «ES» (docs/sector.md §1.1).
  const de = (cups: string) => DISTRIBUIDORAS.find((d) => d.codigoREE === cups.slice(2, 6))?.codigo;
  return lista.flatMap((a) => {
    const codigos = [...new Set(a.suministros.map((s) => de(s.cups)).filter((d) => d !== undefined))].sort();
    return codigos.map((d) => ({
      id: a.id,
      ownerDocument: a.titular.nif,
      requesterDocument: a.autorizado.nif,
      status: ESTADO_DATADIS[a.estado],
      validityDateStart: fechaDatadis(a.inicio),
      validityDateEnd: fechaDatadis(a.fin),
      distributorCodeFather: CODIGO_DATADIS[d],
    }));
  });
}
