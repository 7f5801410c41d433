/**
 * What every answer of the distributor to a supply company's ATR request is made of (docs/sector.md
 * §4; the CNMC's XSDs in ./xsd): the header that swaps the two companies, the rejection message with
 * its table 27 reasons, the contract conditions, and a message as a case's timeline keeps it. The
 * reader (lector.ts) and the staff's steps (procedimiento.ts) write their XML with these.
 */
import type { MotivoAtr } from '../../lib/atr/procesos.ts';
import { relojMadridIso } from '../../lib/administracion/fechas.ts';
import { normalizarCups } from '../../lib/cups.ts';
import { diaDe } from '../../lib/expedientes/plazos.ts';
import { nombreDe } from '../../lib/intercambio/rutas.ts';
import { CODIGO_TARIFA, TENSION_TABLA_64 } from '../../lib/sips/columnas.ts';
import type { Suministro } from '../suministros/service.ts';
import { escribirMensaje, valor, type MensajeLeido, type Nodo } from './xml.ts';

/** `YYYY-MM-DDTHH:MM:SS` in Madrid, as the CNMC's `FechaSolicitud` (xs:dateTime without zone). */
export const fechaHoraMadrid = (d: Date) => relojMadridIso(d.getTime());

/** The header of an answer: the distributor to the company, the request's code, sequence and CUPS. */
export function cabeceraRespuesta(c: Cabecera, paso: string, ahora: Date): Nodo {
  return {
    n: 'Cabecera',
    h: [
      { n: 'CodigoREEEmpresaEmisora', t: c.destino },
      { n: 'CodigoREEEmpresaDestino', t: c.emisora },
      { n: 'CodigoDelProceso', t: c.proceso },
      { n: 'CodigoDePaso', t: paso },
      { n: 'CodigoDeSolicitud', t: c.solicitud },
      { n: 'SecuencialDeSolicitud', t: c.secuencial },
      { n: 'FechaSolicitud', t: fechaHoraMadrid(ahora) },
      { n: 'CUPS', t: c.cups },
    ],
  };
}

/** The header fields of a message as read. */
export interface Cabecera {
  emisora: string;
  destino: string;
  proceso: string;
  paso: string;
  solicitud: string;
  secuencial: string;
  cups: string;
}

/** The header of a message read. */
export function cabeceraDe(m: MensajeLeido): Cabecera {
  const v = (campo: string) => valor(m.arbol, 'Cabecera', campo) ?? '';
  return {
    emisora: v('CodigoREEEmpresaEmisora'),
    destino: v('CodigoREEEmpresaDestino'),
    proceso: v('CodigoDelProceso'),
    paso: v('CodigoDePaso'),
    solicitud: v('CodigoDeSolicitud'),
    secuencial: v('SecuencialDeSolicitud'),
    cups: normalizarCups(v('CUPS')),
  };
}

/** The rejection message (step 02 or the anulación's answer) with its reasons. */
export function rechazo(c: Cabecera, paso: string, motivos: readonly { codigo: MotivoAtr; comentario: string }[], ahora: Date): string {
  return escribirMensaje({
    n: 'MensajeRechazo',
    h: [cabeceraRespuesta(c, paso, ahora), rechazos(motivos, ahora)],
  });
}

/**
 * The `Rechazos` block of every CNMC rejection (ATR step 02, the anulación's answer, R1 02): the date
 * and each reason (table 27) numbered, its comment cut to the 4,000 characters the XSD allows.
 */
export function rechazos(motivos: readonly { codigo: string; comentario: string }[], ahora: Date): Nodo {
  return {
    n: 'Rechazos',
    h: [
      { n: 'FechaRechazo', t: diaDe(ahora) },
      ...motivos.map((m, i) => ({
        n: 'Rechazo',
        h: [
          { n: 'Secuencial', t: String(i + 1) },
          { n: 'CodigoMotivo', t: m.codigo },
          { n: 'Comentarios', t: m.comentario.slice(0, 4000) },
        ],
      })),
    ],
  };
}

/** The contract conditions an acceptance states: the tariff (table 17) and the powers per period, in W. */
export function condiciones(tarifa: string, potenciasW: readonly number[]): Nodo {
  return {
    n: 'CondicionesContractuales',
    h: [
      { n: 'TarifaATR', t: CODIGO_TARIFA[tarifa] ?? '018' },
      {
        n: 'PotenciasContratadas',
        h: potenciasW.map((w, i) => ({ n: 'Potencia', a: { Periodo: String(i + 1) }, t: String(w) })),
      },
    ],
  };
}

/** A message of a request as its timeline keeps it: the step, the file's name, who sent it and its XML. */
export interface MensajeAtr {
  paso: string;
  nombre: string;
  lado: 'empresa' | 'distribuidora';
  xml: string;
}

/** A message for the timeline, by its path in the exchange. */
export const mensaje = (paso: string, ruta: string, lado: MensajeAtr['lado'], xml: string): MensajeAtr => ({
  paso,
  nombre: nombreDe(ruta),
  lado,
  xml,
});

/** Table 64 code of a supply voltage: 1X or 3X by the meter's phases in low voltage, the nominal voltage above. */
export function tensionTabla64(tensionV: number, fases: string): string {
  const mono: Record<number, string> = { 220: '01', 230: '02', 127: '07', 133: '08' };
  const tri: Record<number, string> = { 220: '12', 230: '14', 380: '04', 400: '06' };
  const baja = fases === 'monofasico' ? mono[tensionV] : tri[tensionV];
  if (baja) return baja;
  const alta = Object.entries(TENSION_TABLA_64).find(([codigo, v]) => v === tensionV && Number(codigo) >= 15 && codigo !== '99');
  return alta?.[0] ?? '99';
}

/** A supply point's contract as a step 05 states it (CondicionesContractualesC): tariff, billing, telemetering, powers, voltage. */
export function condicionesActivacion(s: Suministro): Nodo {
  const base = condiciones(s.tarifa, s.potenciasW);
  const [tarifa, potencias] = base.h as Nodo[];
  return {
    n: 'CondicionesContractuales',
    h: [
      tarifa!,
      // Table 108: 01 monthly, 02 every two months.
      { n: 'PeriodicidadFacturacion', t: s.periodicidadFacturacion === 'bimestral' ? '02' : '01' },
      // Table 109: 01 telemetering working with hourly curve, 02 not working.
      { n: 'TipodeTelegestion', t: s.telegestionado ? '01' : '02' },
      potencias!,
      { n: 'TensionDelSuministro', t: tensionTabla64(s.tensionV, s.fasesContador) },
    ],
  };
}

/**
 * The measure point of a supply point in a step 05 or 06 (PuntoDeMedida): its code (the CUPS with
 * the border point's suffix), the movement (table 37), its type by contracted power (table 30, RD
 * 1110/2007 art. 7: type 5 up to 15 kW, 4 up to 50 kW, 3 up to 450 kW), how it is read (table 38)
 * and since when.
 */
export function puntosDeMedida(s: Suministro, movimiento: 'A' | 'B' | 'M', fecha: string): Nodo {
  const kw = Math.max(...s.potenciasW) / 1000;
  const tipo = kw <= 15 ? '05' : kw <= 50 ? '04' : kw <= 450 ? '03' : '02';
  return {
    n: 'PuntosDeMedida',
    h: [
      {
        n: 'PuntoDeMedida',
        h: [
          { n: 'CodPM', t: s.cups.length === 22 ? s.cups : `${s.cups.slice(0, 20)}0F` },
          { n: 'TipoMovimiento', t: movimiento },
          { n: 'TipoPM', t: tipo },
          { n: 'ModoLectura', t: s.telegestionado ? '4' : '1' },
          { n: 'Funcion', t: 'P' },
          { n: 'FechaVigor', t: fecha },
          { n: 'FechaAlta', t: movimiento === 'A' ? fecha : s.fechaAlta },
          movimiento === 'B' ? { n: 'FechaBaja', t: fecha } : null,
        ],
      },
    ],
  };
}

/** The contract a message names (IdContrato): the supply point's number in the portal. */
export const idContrato = (s: Suministro): Nodo => ({ n: 'IdContrato', h: [{ n: 'CodContrato', t: String(s.id) }] });
