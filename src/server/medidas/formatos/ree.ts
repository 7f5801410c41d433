/**
 * REE/CNMC hourly curve files that distributors send to retailers (docs/sector.md §5.1):
 *
 * - P5D, validated curve: `cups;timestamp;season;ai;ae`
 * - F5D, billed curve: `cups;timestamp;season;ai;ae;r1;r2;r3;r4;method;firmeza;factura` and
 *   optionally `;ai_fix;ao_fix` (ignored here).
 *
 * No header, `;`, ISO-8859-15, energies in whole Wh, `timestamp` = `YYYY/MM/DD HH:MM` local time,
 * HOUR-ENDING (the first hour of a day is `01:00`, the last `00:00` of the next day or `24:00`),
 * and the season flag says which offset the local time is written in (1 summer, 0 winter), which
 * is what tells the two repeated October hours apart: the sector's `02:00;1`, `02:00;0` (wall clock
 * and season of the end instant, as gisce/cchloader and gisce/mesures read and write it, and as the
 * portal writes it, docs/decisions/038), and also `03:00;1` for the hour that ends at the change
 * (01:00 UTC), the spelling the portal wrote before. Tools such as gisce/mesures end every line
 * with a `;`: trailing empty fields are accepted.
 *
 * Method codes (F5D, docs/sector.md §5.1): 1 "medida real válida" and 3 "real ajustada a cierre real"
 * are real; 2 and 4 (profiled) and 5 and 6 (estimated) are estimated. A P5D does not say: its
 * records are taken as real and `firme: null`, with a notice in the summary.
 */
import { fechaLocal, leerFechaLocal } from '../../../lib/calendario/fechas.ts';
import { finDesdeRelojYTemporada, type Temporada } from '../../../lib/medidas/horas.ts';
import type { MetodoMedida, RegistroMedida } from '../../../lib/medidas/tipos.ts';
import { enteroWh, leerCups, MAX_WH_INTERVALO, numeroEs, type NombreFicheroRee } from './comun.ts';

/** Pattern of REE curve file names (docs/sector.md §5.1), after removing a compression extension. */
const PATRON_NOMBRE = /^(P5D|F5D|RF5D|A5D|B5D)_(\d+)_(\d{4})_(\d{4})(\d{2})(\d{2})(?:\.(\d+))?/i;

/** What a REE file name says, or null when it does not follow the convention. */
export function leerNombreRee(nombre: string): NombreFicheroRee | null {
  const base = nombre
    .split(/[\\/]/)
    .pop()!
    .replace(/\.(bz2|gz|zip)$/i, '');
  const m = PATRON_NOMBRE.exec(base);
  if (!m) return null;
  const fecha = fechaLocal(Number(m[4]), Number(m[5]), Number(m[6]));
  if (!leerFechaLocal(fecha)) return null;
  return {
    tipo: m[1]!.toUpperCase(),
    distribuidora: m[2]!,
    comercializadora: m[3]!,
    fecha,
    version: m[7] === undefined ? null : Number(m[7]),
  };
}

/** F5D method codes (docs/sector.md §5.1) → real or estimated. */
const METODOS_F5D: Readonly<Record<number, MetodoMedida>> = {
  1: 'real',
  2: 'estimada',
  3: 'real',
  4: 'estimada',
  5: 'estimada',
  6: 'estimada',
};

const PATRON_MARCA = /^(\d{4})\/(\d{2})\/(\d{2}) (\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * Reads one line of a P5D or F5D file (already split on `;`): the record, or every fault of the
 * line as Spanish sentences.
 */
export function leerLineaRee(formato: 'P5D' | 'F5D', campos: readonly string[]): RegistroMedida | string[] {
  const c = [...campos];
  const minimo = formato === 'P5D' ? 5 : 12;
  while (c.length > minimo && c[c.length - 1] === '') c.pop();
  const validos = formato === 'P5D' ? [5] : [12, 14];
  if (!validos.includes(c.length)) {
    return [
      formato === 'P5D'
        ? `La línea tiene ${c.length} campos y un P5D tiene 5: CUPS; fecha y hora; horario (0/1); activa entrante (Wh); activa saliente (Wh).`
        : `La línea tiene ${c.length} campos y un F5D tiene 12 (o 14 con ai_fix y ao_fix): CUPS; fecha y hora; horario; activa entrante; activa saliente; cuatro reactivas; método; firmeza; factura.`,
    ];
  }
  const faltas: string[] = [];
  const cups = leerCups(c[0]!);
  if ('error' in cups) faltas.push(cups.error);

  let fin: Date | null = null;
  const marca = PATRON_MARCA.exec(c[1]!);
  const temporada = c[2] === '0' || c[2] === '1' ? (Number(c[2]) as Temporada) : null;
  if (temporada === null) faltas.push(`El horario «${c[2]}» debe ser 0 (invierno) o 1 (verano).`);
  if (!marca) {
    faltas.push(`La fecha y hora «${c[1]}» debe tener la forma AAAA/MM/DD HH:MM (hora de fin del intervalo).`);
  } else {
    const [, a, m, d, h, mi, s] = marca;
    const fecha = `${a}-${m}-${d}`;
    const hora = Number(h);
    if (!leerFechaLocal(fecha)) faltas.push(`La fecha «${c[1]}» no existe.`);
    else if (hora > 24) {
      faltas.push(`«${c[1]}»: la hora ${h}:${mi} no existe; la hora de fin de un intervalo va de 01:00 a 24:00.`);
    } else if (mi !== '00' || (s !== undefined && s !== '00')) {
      faltas.push(`«${c[1]}» no es una hora en punto: P5D y F5D son curvas horarias con la hora de fin de cada intervalo.`);
    } else if (temporada !== null) {
      fin = finDesdeRelojYTemporada(fecha, hora, 0, temporada);
      if (!fin) {
        const otra = finDesdeRelojYTemporada(fecha, hora, 0, temporada === 1 ? 0 : 1);
        faltas.push(
          otra
            ? `El horario ${temporada} (${temporada === 1 ? 'verano' : 'invierno'}) no corresponde a ${c[1]}, que es hora de ${temporada === 1 ? 'invierno (0)' : 'verano (1)'}.`
            : `La hora ${c[1]} no existe en horario peninsular.`,
        );
      }
    }
  }

  const importada = enteroWh(c[3]!);
  if (c[3] === '') faltas.push('Falta la energía activa entrante (Wh).');
  else if (importada === null) faltas.push(`La energía activa entrante «${c[3]}» debe ser un número entero de Wh, sin signo ni decimales.`);
  else if (importada > MAX_WH_INTERVALO)
    faltas.push(`La energía activa entrante (${numeroEs.format(importada)} Wh en una hora) es imposible: compruebe la unidad.`);
  const exportada = c[4] === '' ? null : enteroWh(c[4]!);
  if (c[4] !== '' && exportada === null)
    faltas.push(`La energía activa saliente «${c[4]}» debe ser un número entero de Wh, sin signo ni decimales.`);
  else if (exportada !== null && exportada > MAX_WH_INTERVALO)
    faltas.push(`La energía activa saliente (${numeroEs.format(exportada)} Wh en una hora) es imposible: compruebe la unidad.`);

  let metodo: MetodoMedida = 'real';
  let codigoMetodo: number | undefined;
  let firme: boolean | null = null;
  let reactivas: RegistroMedida['reactivas'];
  if (formato === 'F5D') {
    const r = [5, 6, 7, 8].map((i) => {
      const v = c[i] === '' ? null : enteroWh(c[i]!);
      if (c[i] !== '' && v === null)
        faltas.push(`La energía reactiva R${i - 4} «${c[i]}» debe ser un número entero de VArh, sin signo ni decimales.`);
      return v;
    });
    if (r.some((v) => v !== null)) reactivas = { r1: r[0]!, r2: r[1]!, r3: r[2]!, r4: r[3]! };
    const codigo = /^\d+$/.test(c[9]!) ? Number(c[9]) : NaN;
    const m = METODOS_F5D[codigo];
    if (!m)
      faltas.push(c[9] === '' ? 'Falta el método de obtención (1 a 6).' : `El método de obtención «${c[9]}» no es un código de 1 a 6.`);
    else {
      metodo = m;
      codigoMetodo = codigo;
    }
    if (c[10] === '0' || c[10] === '1') firme = c[10] === '1';
    else faltas.push(`La firmeza «${c[10]}» debe ser 0 (no firme) o 1 (firme).`);
  }

  if (faltas.length > 0 || !fin || 'error' in cups || importada === null) return faltas;
  const registro: RegistroMedida = {
    cups: cups.cups,
    inicio: new Date(fin.getTime() - 3_600_000),
    minutos: 60,
    importadaWh: importada,
    exportadaWh: exportada,
    metodo,
    firme,
    origen: formato,
  };
  if (reactivas) registro.reactivas = reactivas;
  if (codigoMetodo !== undefined) registro.codigoMetodo = codigoMetodo;
  return registro;
}
