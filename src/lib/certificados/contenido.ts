/**
 * What a consumption certificate states, as stored in `certificados_consumo.contenido`,
 * and the Spanish sentences the PDF, the verification page and the private screen share, so the
 * three say the same thing in the same words. Energy is kept in Wh (the measures are whole Wh) and
 * written in kWh with three decimals: exact, so every total is the sum of the figures above it.
 */
import { partesLocales, ZONA_CANARIAS, type ZonaHoraria } from '../calendario/hora-civil.ts';
import { cuota, fechaSinDia, kw, nombreMes, numero, plural, rangoEnPalabras } from '../medidas/pantalla/formato.ts';
import type { CifrasMes, CifrasTramo } from './cifras.ts';
import type { IdentidadDistribuidora } from './identidad.ts';

/** Version of the shape below, for readers of old certificates. */
export const VERSION_CONTENIDO = 1;

/** Everything a certificate states, exactly as its PDF states it. */
export interface ContenidoCertificado {
  version: typeof VERSION_CONTENIDO;
  /** Verification code, formatted (`XXXX-XXXX-XXXX-XXXX`). */
  codigo: string;
  /** Issue instant, ISO 8601 UTC. */
  emitidoEn: string;
  /** The clock its months and times are read in. */
  zonaHoraria: ZonaHoraria;
  distribuidora: IdentidadDistribuidora;
  /** The holder as the contract stated it when the certificate was issued. */
  titular: { nombre: string; nif: string };
  suministro: {
    cups: string;
    direccion: string;
    codigoPostal: string;
    municipio: string;
    provincia: string;
    /** Access tariff at issue. */
    tarifa: string;
    /** Contracted power per power period at issue, kW, P1 first. */
    potenciasKw: number[];
  };
  /** Months certified (`YYYY-MM`) and their first and last civil day. */
  periodo: { desdeMes: string; hastaMes: string; desde: string; hasta: string };
  /** The tariff's energy periods, P1 first. */
  periodos: { periodo: string; nombre: string }[];
  meses: CifrasMes[];
  total: CifrasTramo;
  /** Where anyone can check it. */
  urlVerificacion: string;
}

/** The verification address of a code. */
export function urlVerificacion(publicUrl: string, codigo: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/verificar-certificado?codigo=${encodeURIComponent(codigo)}`;
}

/** Energy in kWh with three decimals, Spanish format ("1234,567", "12.345,678"). */
export function kwhCertificado(wh: number): string {
  return numero(wh / 1000, 3);
}

/** The clock's name: "hora peninsular" or "hora de Canarias". */
export function nombreHora(zona: ZonaHoraria): string {
  return zona === ZONA_CANARIAS ? 'hora de Canarias' : 'hora peninsular';
}

/** "23 de noviembre de 2026 a las 18:47 (hora peninsular)". */
export function fechaHoraEmision(iso: string, zona: ZonaHoraria): string {
  const p = partesLocales(new Date(iso), zona);
  return `${fechaSinDia(p.fecha)} a las ${String(p.hora).padStart(2, '0')}:${String(p.minuto).padStart(2, '0')} (${nombreHora(zona)})`;
}

/** "del 1 de noviembre de 2025 al 31 de octubre de 2026". */
export function textoPeriodo(periodo: ContenidoCertificado['periodo']): string {
  return rangoEnPalabras(periodo.desde, periodo.hasta);
}

/** "Noviembre de 2025". */
export function nombreMesCertificado(mes: string): string {
  return nombreMes(mes, true);
}

/** The supply address on one line. */
export function direccionSuministro(s: ContenidoCertificado['suministro']): string {
  return `${s.direccion}, ${s.codigoPostal} ${s.municipio} (${s.provincia})`;
}

/** "P1 (Punta): 4,6 kW · P2 (Valle): 4,6 kW" for 2.0TD; "P1: 20 kW · …" for six periods. */
export function textoPotencias(tarifa: string, potenciasKw: readonly number[]): string {
  const nombres20 = ['Punta', 'Valle'];
  return potenciasKw.map((p, i) => `P${i + 1}${tarifa === '2.0TD' ? ` (${nombres20[i] ?? ''})` : ''}: ${kw(p)} kW`).join(' · ');
}

/** A period's column title: "P1 Punta" for 2.0TD, "P1" for six periods. */
export function tituloPeriodo(p: { periodo: string; nombre: string }): string {
  return p.nombre.startsWith('Periodo') ? p.periodo : `${p.periodo} ${p.nombre}`;
}

/**
 * A NIF partly hidden for the public verification page: the AEPD's rule for publishing identity
 * numbers (four middle digits shown): DNI `***4567**`, NIE `****4567*`; a company's NIF likewise.
 */
export function enmascararNif(nif: string): string {
  const n = nif.trim().toUpperCase();
  if (n.length !== 9) return '*'.repeat(Math.max(n.length - 4, 0)) + n.slice(-4).replace(/./g, '*');
  if (/^[XYZ]/.test(n)) return `****${n.slice(4, 8)}*`;
  return `***${n.slice(3, 7)}**`;
}

/** The share of the energy that is real and estimated, in words. */
export function textoOrigenEnergia(total: CifrasTramo): string {
  if (total.totalWh <= 0) return 'La energía certificada es cero: no hay consumo que repartir entre medidas reales y estimadas.';
  const realWh = total.totalWh - total.estimadaWh;
  if (total.estimadaWh === 0) return 'Toda la energía certificada procede de medidas reales del contador.';
  return `De la energía certificada, el ${cuota(realWh, total.totalWh)} (${kwhCertificado(realWh)} kWh) procede de medidas reales del contador y el ${cuota(total.estimadaWh, total.totalWh)} (${kwhCertificado(total.estimadaWh)} kWh) de estimaciones de la distribuidora.`;
}

/** The hours of the period by origin, and what missing hours mean, in words. */
export function textoHoras(total: CifrasTramo): string {
  const base = `El periodo tiene ${plural(total.horas, 'hora')}: ${plural(total.horasReales, 'hora')} con medida real, ${plural(total.horasEstimadas, 'hora estimada', 'horas estimadas')} y ${plural(total.horasSinDato, 'hora sin dato', 'horas sin dato')}.`;
  if (total.horasSinDato === 0) return `${base} Todas las horas del periodo tienen medida.`;
  return `${base} Las horas sin dato no suman en ningún total: este certificado no les atribuye consumo, lo que no significa que el consumo fuera cero.`;
}
