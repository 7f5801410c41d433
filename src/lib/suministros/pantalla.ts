/**
 * The supply points screen in words: every field of GET /api/suministros/{cups} with a
 * plain Spanish label and value, so a consumer reads "Contador inteligente telegestionado" rather
 * than `telegestionado: true`. The codes come from the API's schema (src/server/suministros/routes.ts).
 */
import type { SuministroRespuesta } from './respuestas.ts';
import { fechaEnPalabras, fechaSinDia, kw, numero } from '../medidas/pantalla/formato.ts';

/** One supply point of GET /api/suministros (the detail without `medidas`). */
export type Suministro = Omit<SuministroRespuesta, 'medidas'>;

/** The detail of one supply point. */
export type SuministroDetalle = SuministroRespuesta;

/** Self-consumption modes (API codes) in words. */
export const TEXTO_AUTOCONSUMO: Readonly<Record<string, string>> = {
  ninguno: 'Sin autoconsumo',
  sin_excedentes: 'Autoconsumo sin excedentes',
  con_excedentes_compensacion: 'Autoconsumo con excedentes acogido a compensación',
  con_excedentes_sin_compensacion: 'Autoconsumo con excedentes no acogido a compensación',
  modalidad_no_informada: 'Acogido a autoconsumo (la modalidad no consta en el registro)',
};

/** Power control modes in words. */
export const TEXTO_CONTROL_POTENCIA: Readonly<Record<string, string>> = {
  icp: 'Interruptor de control de potencia (ICP)',
  maximetro: 'Maxímetro',
  telegestion: 'Por el contador telegestionado',
  sin_control: 'Sin control de potencia',
};

/** Meter owners in words. */
export const TEXTO_PROPIEDAD_CONTADOR: Readonly<Record<string, string>> = {
  distribuidora: 'De la distribuidora (en alquiler)',
  cliente: 'Del titular',
  comercializadora: 'De la comercializadora',
  otros: 'De un tercero',
};

/** Billing periods in words. */
export const TEXTO_FACTURACION: Readonly<Record<string, string>> = {
  mensual: 'Mensual',
  bimestral: 'Bimestral (cada dos meses)',
};

/** Meter phases in words. */
export const TEXTO_FASES: Readonly<Record<string, string>> = {
  monofasico: 'Monofásico',
  trifasico: 'Trifásico',
};

/** A code's text, or the code itself when the table does not know it (never an empty cell). */
function texto(tabla: Readonly<Record<string, string>>, codigo: string): string {
  return tabla[codigo] ?? codigo;
}

/** The meter in one phrase: "Contador inteligente telegestionado", "Contador no inteligente". */
export function descripcionContador(c: Suministro['contador']): string {
  if (c.inteligente && c.telegestionado) return 'Contador inteligente telegestionado';
  if (c.inteligente) return 'Contador inteligente sin telegestión';
  return c.telegestionado ? 'Contador telegestionado' : 'Contador no inteligente (lectura presencial)';
}

/** Measure interval of the meter in words. */
export function textoResolucion(minutos: number): string {
  return minutos === 15 ? 'Cada cuarto de hora (y por horas)' : minutos === 60 ? 'Cada hora' : `Cada ${numero(minutos)} minutos`;
}

/** Voltage in words: 230 V, 400 V, 20 kV. */
export function textoTension(v: number): string {
  return v >= 1000 ? `${kw(v / 1000)} kV (alta tensión)` : `${numero(v)} V (baja tensión)`;
}

/** The contracted powers per period: "P1: 4,6 kW · P2: 4,6 kW". */
export function textoPotencias(potenciasKw: readonly number[]): string {
  return potenciasKw.map((p, i) => `P${i + 1}: ${kw(p)} kW`).join(' · ');
}

/** Whether every period has the same power (a household usually does): then one figure says it. */
export function potenciaUnica(potenciasKw: readonly number[]): number | null {
  return potenciasKw.length > 0 && potenciasKw.every((p) => p === potenciasKw[0]) ? potenciasKw[0]! : null;
}

export { direccionCompleta } from './direccion.ts';

/** A CUPS in groups of four for reading aloud and comparing with a bill; the copyable text stays whole. */
export function cupsLegible(cups: string): string {
  return cups.replace(/(.{4})(?=.)/g, '$1 ');
}

/** One labelled field of the contract detail. */
export interface DatoContrato {
  etiqueta: string;
  valor: string;
}

/** A group of fields with a heading. */
export interface GrupoContrato {
  titulo: string;
  datos: DatoContrato[];
}

/**
 * What a holder reads on a supply cut at its retailer's request (CNMC table 10 reason 03): since
 * when, and that the retailer asks for the reposición, which the distributor carries out within a
 * working day (docs/decisions/048). Null for a supply in service.
 */
export function avisoSuspension(s: Pick<Suministro, 'suspendidoDesde'>): string | null {
  if (!s.suspendidoDesde) return null;
  return `Su comercializadora pidió cortar este suministro, y está cortado desde el ${fechaEnPalabras(s.suspendidoDesde)}. El contrato sigue en vigor. Para que vuelva la luz, póngase en contacto con su comercializadora: en cuanto ella nos pida la reposición, la hacemos en un día hábil como máximo.`;
}

/** Every field of the detail in plain Spanish, grouped as a bill groups them. */
export function gruposContrato(s: Suministro): GrupoContrato[] {
  return [
    {
      titulo: 'Punto de suministro',
      datos: [
        { etiqueta: 'CUPS', valor: s.cups },
        { etiqueta: 'Dirección', valor: s.direccion },
        { etiqueta: 'Código postal', valor: s.codigoPostal },
        { etiqueta: 'Municipio', valor: `${s.municipio} (código INE ${s.codigoIne})` },
        { etiqueta: 'Provincia', valor: s.provincia },
        { etiqueta: 'Distribuidora', valor: s.distribuidoraNombre },
      ],
    },
    {
      titulo: 'Titular y contrato',
      datos: [
        { etiqueta: 'Titular', valor: s.titular.nombre },
        { etiqueta: 'NIF del titular', valor: s.titular.nif },
        {
          etiqueta: 'Comercializadora',
          valor: s.comercializadora.nombre
            ? `${s.comercializadora.nombre} (código ${s.comercializadora.codigo})`
            : `Código REE ${s.comercializadora.codigo}`,
        },
        { etiqueta: 'Fecha de alta', valor: fechaEnPalabras(s.fechaAlta) },
        { etiqueta: 'Fecha de baja', valor: s.fechaBaja ? fechaEnPalabras(s.fechaBaja) : 'En vigor' },
        {
          etiqueta: 'Estado del suministro',
          valor: s.suspendidoDesde
            ? `Cortado desde el ${fechaEnPalabras(s.suspendidoDesde)}`
            : s.fechaBaja
              ? 'Dado de baja'
              : 'En servicio',
        },
        { etiqueta: 'Facturación', valor: texto(TEXTO_FACTURACION, s.periodicidadFacturacion) },
      ],
    },
    {
      titulo: 'Tarifa y potencias',
      datos: [
        { etiqueta: 'Tarifa de acceso (peaje)', valor: s.tarifa },
        ...s.potenciasKw.map((p, i) => ({ etiqueta: `Potencia contratada P${i + 1}`, valor: `${kw(p)} kW` })),
        { etiqueta: 'Potencia máxima admisible de la instalación', valor: `${kw(s.potenciaMaximaKw)} kW` },
        { etiqueta: 'Tensión de suministro', valor: textoTension(s.tensionV) },
        { etiqueta: 'Control de potencia', valor: texto(TEXTO_CONTROL_POTENCIA, s.modoControlPotencia) },
        { etiqueta: 'Autoconsumo', valor: texto(TEXTO_AUTOCONSUMO, s.autoconsumo) },
      ],
    },
    {
      titulo: 'Contador',
      datos: [
        { etiqueta: 'Tipo', valor: descripcionContador(s.contador) },
        // The SIPS register does not carry the meter's serial number (docs/decisions/016).
        { etiqueta: 'Número de contador', valor: s.contador.numero ?? 'No consta' },
        { etiqueta: 'Propiedad', valor: texto(TEXTO_PROPIEDAD_CONTADOR, s.contador.propiedad) },
        { etiqueta: 'Conexión', valor: texto(TEXTO_FASES, s.contador.fases) },
        { etiqueta: 'Registra el consumo', valor: textoResolucion(s.contador.resolucionMinutos) },
      ],
    },
  ];
}

/** The measures available, in one sentence; null when none has arrived. */
export function textoRangoMedidas(m: SuministroDetalle['medidas'], dias: { primero: string; ultimo: string } | null): string | null {
  if (!m || !dias) return null;
  return `Del ${fechaSinDia(dias.primero)} al ${fechaSinDia(dias.ultimo)} (${numero(m.horas)} horas con medida).`;
}
