/**
 * The public verification page (/verificar-certificado): asking the API about a code, the
 * answer in words, and the check of a PDF copy, whose SHA-256 the browser computes itself
 * (SubtleCrypto): the file never leaves the visitor's computer.
 */
import { urlApi } from '../api/rutas.ts';
import type { VerificacionRespuesta } from './respuestas.ts';
import { codigoCanonico } from './codigo.ts';
import { kwhCertificado, nombreMesCertificado } from './contenido.ts';
import { tieneDatos } from './cifras.ts';

export type { VerificacionRespuesta };

/** What asking about a code gave. */
export type ResultadoVerificacion =
  { tipo: 'valido'; datos: VerificacionRespuesta } | { tipo: 'desconocido'; mensaje: string } | { tipo: 'error'; mensaje: string };

const SIN_CONEXION = 'No se ha podido consultar el código. Compruebe su conexión e inténtelo de nuevo.';

/** Asks GET /api/verificarCertificado about a typed code (already checked by `errorCodigo`). */
export async function consultarCodigo(
  codigo: string,
  hacerFetch: typeof fetch = (u, i) => globalThis.fetch(u, i),
): Promise<ResultadoVerificacion> {
  const canonico = codigoCanonico(codigo) ?? codigo.trim();
  let res: Response;
  try {
    res = await hacerFetch(urlApi('/verificarCertificado', { query: { codigo: canonico } }), { headers: { Accept: 'application/json' } });
  } catch {
    return { tipo: 'error', mensaje: SIN_CONEXION };
  }
  let cuerpo: unknown = null;
  try {
    cuerpo = await res.json();
  } catch {
    // An answer without JSON: only its status speaks.
  }
  if (res.status === 200 && cuerpo && typeof cuerpo === 'object' && (cuerpo as { valido?: unknown }).valido === true) {
    return { tipo: 'valido', datos: cuerpo as VerificacionRespuesta };
  }
  const mensaje = Array.isArray(cuerpo)
    ? cuerpo.join(' ')
    : typeof (cuerpo as { message?: unknown })?.message === 'string'
      ? (cuerpo as { message: string }).message
      : null;
  if (res.status === 404) return { tipo: 'desconocido', mensaje: mensaje ?? 'No hay ningún certificado con ese código.' };
  return { tipo: 'error', mensaje: mensaje ?? 'No se ha podido consultar el código. Inténtelo de nuevo más tarde.' };
}

/** The rows of the months table: month name and its consumption, or "Sin datos". */
export function filasMeses(d: Pick<VerificacionRespuesta, 'meses'>): { mes: string; nombre: string; consumo: string; sinDato: number }[] {
  return d.meses.map((m) => ({
    mes: m.mes,
    nombre: nombreMesCertificado(m.mes),
    consumo: tieneDatos(m) ? `${kwhCertificado(m.totalWh)} kWh` : 'Sin datos',
    sinDato: m.horasSinDato,
  }));
}

/** The SHA-256 of some bytes, lower-case hex, with the browser's SubtleCrypto. */
export async function huellaSha256(datos: ArrayBuffer, subtle: SubtleCrypto | undefined = globalThis.crypto?.subtle): Promise<string> {
  if (!subtle) throw new Error('SubtleCrypto no disponible');
  const h = new Uint8Array(await subtle.digest('SHA-256', datos));
  return [...h].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** A SHA-256 in groups of eight, so a person can compare it by eye. */
export function huellaLegible(hex: string): string {
  return hex.match(/.{1,8}/g)?.join(' ') ?? hex;
}
