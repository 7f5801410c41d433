/**
 * The consumer-facing hourly CSV (docs/sector.md §5.2): `CUPS;Fecha;Hora;Consumo_kWh;Metodo_obtencion`,
 * e.g. `ES00XX000012345678SN;19/07/2019;1;0,300;R`, and the layouts seen next to it.
 *
 * What it accepts:
 * - A header line naming the columns (case, accents, `_`/`-`/spaces ignored). Recognised:
 *   CUPS; `Fecha` + `Hora`, or `Fecha-Hora` (optionally with `INV / VER`), or `Inicio` [+ `Fin`]
 *   (ISO 8601 with offset, as the portal's own export writes them); imported energy (`Consumo_kWh`,
 *   `AE_kWh`, `CONSUMO Wh`…); exported energy (`AS_KWh`, `Energia_vertida_kWh`, `energiaVertida_kWh`,
 *   `GENERACION Wh`…); method (`Metodo_obtencion`, `REAL/ESTIMADO`: R/E, Real/Estimada…); `Firme`
 *   (S/N). The unit is read from each energy header (kWh or Wh): a header without one is a fault.
 *   Other columns (self-consumption, period…) are ignored with a notice.
 * - Separator `;`, `,` or tab, the one the header has most of; fields quoted with `"`.
 * - Numbers with decimal comma or point; `1.234,5` with thousands grouping.
 * - `Hora` is HOUR-ENDING: an integer 1..24 (hour 1 = 00:00–01:00), 25 on the October day, or
 *   1..100 for quarter-hourly files; or a clock time `HH:MM` (`01:00`…`24:00`, `00:15`… for quarters;
 *   `00:00` ends the previous day's last hour, docs/sector.md §5.3).
 * - Clock-change days (docs/sector.md §5.2: how March is numbered is not confirmed): integers are taken
 *   as sequential (1..23 in March, 1..25 in October). When a change day's numbers cannot be
 *   sequential — March reaching 24, or October repeating a number — they are read as clock hours
 *   (March without 3, October with 2 or 3 twice: first summer time, then winter time), with a notice.
 *   `HH:MM` times are always clock times and follow the same rule.
 * - Without a method column every hour is taken as real, with a notice.
 */
import { leerFechaLocal, type FechaLocal } from '../../../lib/calendario/fechas.ts';
import { isoConDesfase, leerIsoConDesfase } from '../../../lib/calendario/hora-civil.ts';
import {
  finDesdeRelojYTemporada,
  finesPosiblesDesdeReloj,
  horasDelDia,
  inicioIntervaloDelDia,
  tipoDiaHorario,
  type MinutosIntervalo,
  type Temporada,
} from '../../../lib/medidas/horas.ts';
import { cupsBase } from '../../../lib/cups.ts';
import type { MetodoMedida, RegistroMedida } from '../../../lib/medidas/tipos.ts';
import { filasCsv } from '../../ficheros/csv.ts';
import { energiaWh, leerCups, MAX_WH_INTERVALO, numeroEs, type Recolector } from './comun.ts';

/** What a column is for. */
type Rol = 'cups' | 'fecha' | 'hora' | 'fechaHora' | 'temporada' | 'importada' | 'exportada' | 'metodo' | 'firme' | 'inicio' | 'fin';

interface Columna {
  indice: number;
  rol: Rol;
  unidad: 'Wh' | 'kWh' | null;
}

/** Header text as compared: no case, accents, `_` or `-`, single spaces. */
export function normalizarNombreColumna(texto: string): string {
  return texto
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[_\-.]+/g, ' ')
    .replace(/\s*\/\s*/g, '/')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Role of a normalised header name; 'autoconsumo' and 'conocida' are ignored on purpose. */
function rolDe(n: string): Rol | 'autoconsumo' | 'conocida' | null {
  if (n.includes('autocons')) return 'autoconsumo';
  if (/^cups\b/.test(n)) return 'cups';
  if (/^fecha( y |\/| )hora\b/.test(n) || n === 'timestamp') return 'fechaHora';
  if (n === 'fecha' || n === 'dia' || n === 'date') return 'fecha';
  if (n === 'hora' || n === 'hour' || n === 'time') return 'hora';
  if (/^(inv\/ver|ver\/inv|temporada|estacion)$/.test(n)) return 'temporada';
  if (/^inicio\b/.test(n)) return 'inicio';
  if (/^fin\b/.test(n)) return 'fin';
  if (/^(consumo|consumption|ae|energia consumida|energia importada|importada|activa entrante)\b/.test(n)) return 'importada';
  if (/^(as|energia ?vertida|vertida|vertido|excedentes?|surplus|generacion|energia exportada|exportada|activa saliente)\b/.test(n))
    return 'exportada';
  if (/^(metodo|real\/estimad|obtencion)/.test(n)) return 'metodo';
  if (/^firme(za)?$/.test(n)) return 'firme';
  if (/^(periodo|franja)\b/.test(n)) return 'conocida';
  return null;
}

function unidadDe(n: string): 'Wh' | 'kWh' | null {
  if (/kwh/.test(n)) return 'kWh';
  if (/(^|[^k])wh\b/.test(n)) return 'Wh';
  return null;
}

/** The date of a `Fecha` field: dd/mm/yyyy (or with - or .), or yyyy/mm/dd, or yyyy-mm-dd. */
function leerFecha(texto: string): FechaLocal | null {
  let m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(texto);
  let fecha: string | null = null;
  if (m) fecha = `${m[3]}-${m[2]!.padStart(2, '0')}-${m[1]!.padStart(2, '0')}`;
  m = /^(\d{4})[/-](\d{1,2})[/-](\d{1,2})$/.exec(texto);
  if (m) fecha = `${m[1]}-${m[2]!.padStart(2, '0')}-${m[3]!.padStart(2, '0')}`;
  return fecha && leerFechaLocal(fecha) ? fecha : null;
}

/** dd/mm/yyyy for messages. */
const fechaEs = (f: FechaLocal) => `${f.slice(8, 10)}/${f.slice(5, 7)}/${f.slice(0, 4)}`;

/** A clock time `HH:MM` (optionally `:00` seconds) as minutes from midnight, 0..1440. */
function leerReloj(texto: string): number | null {
  const m = /^(\d{1,2}):(\d{2})(?::00)?$/.exec(texto);
  if (!m) return null;
  const min = Number(m[1]) * 60 + Number(m[2]);
  return Number(m[2]) < 60 && min <= 1440 ? min : null;
}

function leerTemporada(texto: string): Temporada | null {
  const t = normalizarNombreColumna(texto);
  if (['1', 'v', 'ver', 'verano', 's', 'summer'].includes(t)) return 1;
  if (['0', 'i', 'inv', 'invierno', 'w', 'winter'].includes(t)) return 0;
  return null;
}

function leerMetodo(texto: string): MetodoMedida | null {
  const t = normalizarNombreColumna(texto);
  if (/^r(eal)?$/.test(t)) return 'real';
  if (/^e(stimad[ao])?$/.test(t)) return 'estimada';
  return null;
}

function leerFirme(texto: string): boolean | null | undefined {
  const t = normalizarNombreColumna(texto);
  if (t === '') return null;
  if (['s', 'si', '1', 'true', 'firme'].includes(t)) return true;
  if (['n', 'no', '0', 'false', 'no firme'].includes(t)) return false;
  return undefined;
}

/** When a row is in time, before the day-by-day resolution. */
type Momento =
  | { tipo: 'iso'; inicio: Date; minutos: MinutosIntervalo | null }
  | { tipo: 'numero'; fecha: FechaLocal; numero: number }
  | { tipo: 'reloj'; fecha: FechaLocal; finMin: number }
  | { tipo: 'marca'; fecha: FechaLocal; finMin: number; temporada: Temporada }
  | { tipo: 'marcaNumero'; fecha: FechaLocal; numero: number; temporada: Temporada };

/** A row whose fields are valid, waiting for its interval. */
interface Fila {
  linea: number;
  cups: string;
  momento: Momento;
  importadaWh: number;
  exportadaWh: number | null;
  metodo: MetodoMedida;
  firme: boolean | null;
  inicio?: Date;
  minutos?: MinutosIntervalo;
}

/** Separator the header line has most of (`;` on a tie). */
function separadorDe(cabecera: string): string {
  const cuenta = (s: string) => cabecera.split(s).length - 1;
  return [';', ',', '\t'].reduce((a, b) => (cuenta(b) > cuenta(a) ? b : a));
}

/**
 * Reads a consumer CSV into records, reporting every faulty line to the collector. `primera` is
 * the first line that is not blank (the header), which sets the separator; `textos` is the whole
 * file. Returns the separator and energy unit found (null when the header itself is wrong).
 *
 * The rows are held until the end: hours are numbered within each day, and a clock-change day is
 * only understood whole (docs/sector.md §5.2). A consumer file covers a few supply points for a year or
 * two (a few MB); REE's large files go through the line-by-line reader.
 */
export async function leerCsvConsumidor(
  primera: string,
  textos: AsyncIterable<string>,
  rec: Recolector,
  alRegistro: (r: RegistroMedida) => void,
): Promise<{ separador: string; unidad: 'Wh' | 'kWh' } | null> {
  const separador = separadorDe(primera);
  const lineas = filasCsv(textos, separador)[Symbol.asyncIterator]();
  // The header is read as a row too, so a quoted column name is unquoted like any field.
  const siguiente = await lineas.next();
  if (siguiente.done) {
    rec.error(1, 'El fichero está vacío.');
    return null;
  }
  const cabecera = siguiente.value;
  const nombres = cabecera.campos;
  const columnas = new Map<Rol, Columna>();
  const ignoradas: string[] = [];
  nombres.forEach((nombre, indice) => {
    const n = normalizarNombreColumna(nombre);
    const rol = rolDe(n);
    if (rol === 'conocida') return;
    if (rol === null || rol === 'autoconsumo' || columnas.has(rol)) {
      if (nombre !== '') ignoradas.push(nombre);
      return;
    }
    columnas.set(rol, { indice, rol, unidad: unidadDe(n) });
  });

  const faltasCabecera: string[] = [];
  if (!columnas.has('cups')) faltasCabecera.push('falta la columna «CUPS»');
  const tieneTiempo = columnas.has('inicio') || columnas.has('fechaHora') || (columnas.has('fecha') && columnas.has('hora'));
  if (!tieneTiempo) faltasCabecera.push('faltan las columnas «Fecha» y «Hora» (o «Fecha-Hora», o «Inicio»)');
  if (!columnas.has('importada')) faltasCabecera.push('falta la columna del consumo (por ejemplo, «Consumo_kWh»)');
  for (const rol of ['importada', 'exportada'] as const) {
    const col = columnas.get(rol);
    if (col && !col.unidad) faltasCabecera.push(`la columna «${nombres[col.indice]}» no dice si la energía está en kWh o en Wh`);
  }
  const unidadImportada = columnas.get('importada')?.unidad;
  const unidadExportada = columnas.get('exportada')?.unidad;
  if (unidadImportada && unidadExportada && unidadImportada !== unidadExportada) {
    rec.avisos.push(`El consumo viene en ${unidadImportada} y la energía vertida en ${unidadExportada}: se han convertido ambos a Wh.`);
  }
  if (faltasCabecera.length > 0) {
    const lista = faltasCabecera.join('; ');
    rec.error(
      cabecera.numero,
      `La cabecera no es la de un fichero de consumos (CUPS;Fecha;Hora;Consumo_kWh;Metodo_obtencion): ${lista.charAt(0).toUpperCase()}${lista.slice(1)}.`,
    );
    return null;
  }
  if (ignoradas.length > 0) rec.avisos.push(`Columnas que no se importan: ${ignoradas.join(', ')}.`);
  if (!columnas.has('metodo')) rec.avisos.push('El fichero no indica el método de obtención: todas las horas se registran como reales.');

  const campo = (campos: string[], rol: Rol) => {
    const col = columnas.get(rol);
    return col ? (campos[col.indice] ?? '') : '';
  };

  // First pass: the fields of every row.
  const filas: Fila[] = [];
  for (let l = await lineas.next(); !l.done; l = await lineas.next()) {
    const { numero: linea, campos } = l.value;
    if (campos.every((c) => c === '')) continue;
    rec.lineas++;
    while (campos.length > nombres.length && campos[campos.length - 1] === '') campos.pop();
    if (campos.length !== nombres.length) {
      rec.error(
        linea,
        `La línea tiene ${campos.length} campos y la cabecera ${nombres.length}. Compruebe el separador «${separador === '\t' ? 'tabulador' : separador}» y las comillas.`,
      );
      continue;
    }
    const faltas: string[] = [];
    const cups = leerCups(campo(campos, 'cups'));
    if ('error' in cups) faltas.push(cups.error);

    let momento: Momento | null = null;
    if (columnas.has('inicio')) {
      const inicio = leerIsoConDesfase(campo(campos, 'inicio'));
      const textoFin = campo(campos, 'fin');
      const fin = textoFin === '' ? null : leerIsoConDesfase(textoFin);
      if (!inicio)
        faltas.push(
          `El inicio «${campo(campos, 'inicio')}» debe ser una fecha y hora ISO 8601 con desfase, como 2025-10-26T02:00:00+02:00.`,
        );
      else if (textoFin !== '' && !fin) faltas.push(`El fin «${textoFin}» debe ser una fecha y hora ISO 8601 con desfase.`);
      else {
        const duracion = fin ? (fin.getTime() - inicio.getTime()) / 60_000 : null;
        if (duracion !== null && duracion !== 60 && duracion !== 15)
          faltas.push(`Del inicio al fin hay ${numeroEs.format(duracion)} minutos: cada línea debe ser una hora o un cuarto de hora.`);
        else momento = { tipo: 'iso', inicio, minutos: duracion as MinutosIntervalo | null };
      }
    } else {
      let fechaTexto: string;
      let horaTexto: string;
      if (columnas.has('fechaHora')) {
        const partes = campo(campos, 'fechaHora').split(/[ T]+/);
        fechaTexto = partes[0] ?? '';
        horaTexto = partes[1] ?? '';
      } else {
        fechaTexto = campo(campos, 'fecha');
        horaTexto = campo(campos, 'hora');
      }
      const fecha = leerFecha(fechaTexto);
      if (!fecha) faltas.push(`La fecha «${fechaTexto}» no es válida: use dd/mm/aaaa.`);
      const temporadaTexto = campo(campos, 'temporada');
      const temporada = columnas.has('temporada') ? leerTemporada(temporadaTexto) : null;
      if (columnas.has('temporada') && temporada === null)
        faltas.push(`El horario «${temporadaTexto}» debe ser 0 o INV (invierno), o 1 o VER (verano).`);
      const reloj = leerReloj(horaTexto);
      if (/^\d{1,3}$/.test(horaTexto) && !columnas.has('fechaHora')) {
        const n = Number(horaTexto);
        if (n < 1 || n > 100)
          faltas.push(
            `La hora «${horaTexto}» debe ir de 1 a 24 (25 el día del cambio de octubre), o de 1 a 100 en ficheros cuartohorarios.`,
          );
        else if (fecha && temporada !== null) momento = { tipo: 'marcaNumero', fecha, numero: n, temporada };
        else if (fecha) momento = { tipo: 'numero', fecha, numero: n };
      } else if (reloj !== null) {
        if (fecha && temporada !== null) momento = { tipo: 'marca', fecha, finMin: reloj, temporada };
        else if (fecha) momento = { tipo: 'reloj', fecha, finMin: reloj };
      } else {
        faltas.push(
          /^\d{1,2}:\d{2}(:00)?$/.test(horaTexto)
            ? `La hora «${horaTexto}» no existe: la hora de fin de un intervalo va de 00:15 a 24:00.`
            : `La hora «${horaTexto}» no es válida: use el número de hora (1 a 24) o la hora de fin HH:MM.`,
        );
      }
    }

    const importada = leerEnergia(campo(campos, 'importada'), columnas.get('importada')!.unidad!, 'el consumo', true, faltas);
    const exportada = columnas.has('exportada')
      ? leerEnergia(campo(campos, 'exportada'), columnas.get('exportada')!.unidad!, 'la energía vertida', false, faltas)
      : null;
    let metodo: MetodoMedida = 'real';
    if (columnas.has('metodo')) {
      const t = campo(campos, 'metodo');
      const m = leerMetodo(t);
      if (m) metodo = m;
      else
        faltas.push(
          t === ''
            ? 'Falta el método de obtención (R real o E estimada).'
            : `El método de obtención «${t}» debe ser R (real) o E (estimada).`,
        );
    }
    let firme: boolean | null = null;
    if (columnas.has('firme')) {
      const f = leerFirme(campo(campos, 'firme'));
      if (f === undefined) faltas.push(`El valor de firme «${campo(campos, 'firme')}» debe ser S o N.`);
      else firme = f;
    }

    for (const f of faltas) rec.error(linea, f);
    if (faltas.length > 0 || !momento || 'error' in cups || importada === null) continue;
    filas.push({ linea, cups: cups.cups, momento, importadaWh: importada, exportadaWh: exportada, metodo, firme });
  }

  if (rec.lineas === 0) {
    rec.error(cabecera.numero, 'El fichero no tiene ninguna línea de datos después de la cabecera.');
    return null;
  }

  asignarIntervalos(filas, rec);

  for (const f of filas) {
    if (!f.inicio || !f.minutos) continue;
    const r: RegistroMedida = {
      cups: f.cups,
      inicio: f.inicio,
      minutos: f.minutos,
      importadaWh: f.importadaWh,
      exportadaWh: f.exportadaWh,
      metodo: f.metodo,
      firme: f.firme,
      origen: 'CSV',
    };
    if (rec.registrar(r, f.linea)) alRegistro(r);
  }
  return { separador, unidad: columnas.get('importada')!.unidad! };
}

/** Reads an energy field into Wh, adding a fault when it is wrong. */
function leerEnergia(texto: string, unidad: 'Wh' | 'kWh', nombre: string, obligatoria: boolean, faltas: string[]): number | null {
  if (texto === '') {
    if (obligatoria) faltas.push(`Falta ${nombre}.`);
    return null;
  }
  if (/^[-\u2212]/.test(texto)) {
    faltas.push(`${nombre.charAt(0).toUpperCase()}${nombre.slice(1)} «${texto}» no puede ser negativo.`);
    return null;
  }
  const wh = energiaWh(texto, unidad);
  if (wh === null) {
    faltas.push(`${nombre.charAt(0).toUpperCase()}${nombre.slice(1)} «${texto}» no es un número (${unidad}, con coma o punto decimal).`);
    return null;
  }
  if (wh > MAX_WH_INTERVALO) {
    faltas.push(
      `${nombre.charAt(0).toUpperCase()}${nombre.slice(1)} (${texto} ${unidad}) es imposible en un intervalo: compruebe la unidad.`,
    );
    return null;
  }
  return wh;
}

/** Interval length of the rows that do not carry it: quarter-hours when any time or number says so. */
function minutosDelFichero(filas: readonly Fila[]): MinutosIntervalo {
  const porDia = new Map<string, number>();
  for (const f of filas) {
    const m = f.momento;
    if (m.tipo === 'marcaNumero' && m.numero > 25) return 15;
    if (m.tipo === 'numero') {
      if (m.numero > 25) return 15;
      const clave = `${cupsBase(f.cups)}|${m.fecha}`;
      const n = (porDia.get(clave) ?? 0) + 1;
      if (n > 25) return 15;
      porDia.set(clave, n);
    } else if ((m.tipo === 'reloj' || m.tipo === 'marca') && m.finMin % 60 !== 0) return 15;
    else if (m.tipo === 'iso' && (m.minutos === 15 || m.inicio.getTime() % 3_600_000 !== 0)) return 15;
  }
  return 60;
}

/** Gives every row its UTC interval, resolving clock-change days day by day. */
function asignarIntervalos(filas: Fila[], rec: Recolector): void {
  const minutos = minutosDelFichero(filas);
  const unidad = minutos === 60 ? 'horas' : 'cuartos de hora';
  const grupos = new Map<string, Fila[]>();
  for (const f of filas) {
    const m = f.momento;
    if (m.tipo === 'iso') {
      const min = m.minutos ?? minutos;
      if (m.inicio.getTime() % (min * 60_000) !== 0) {
        rec.error(f.linea, `El inicio ${isoConDesfase(m.inicio)} no empieza en ${min === 60 ? 'una hora en punto' : 'un cuarto de hora'}.`);
        continue;
      }
      f.inicio = m.inicio;
      f.minutos = min;
    } else if (m.tipo === 'marca' || m.tipo === 'marcaNumero') {
      const finMin = m.tipo === 'marca' ? m.finMin : m.numero * minutos;
      const fin = finDesdeRelojYTemporada(m.fecha, Math.floor(finMin / 60), finMin % 60, m.temporada);
      if (!fin) {
        rec.error(
          f.linea,
          `El horario ${m.temporada === 1 ? 'de verano' : 'de invierno'} no corresponde a la hora ${relojTexto(finMin)} del ${fechaEs(m.fecha)}.`,
        );
        continue;
      }
      f.inicio = new Date(fin.getTime() - minutos * 60_000);
      f.minutos = minutos;
    } else {
      const clave = `${cupsBase(f.cups)}|${m.fecha}`;
      const g = grupos.get(clave);
      if (g) g.push(f);
      else grupos.set(clave, [f]);
    }
  }

  for (const grupo of grupos.values()) {
    const fecha = (grupo[0]!.momento as { fecha: FechaLocal }).fecha;
    const delDia = (horasDelDia(fecha) * 60) / minutos;
    const tipoDia = tipoDiaHorario(fecha);
    const numeros = grupo.flatMap((f) => (f.momento.tipo === 'numero' ? [f.momento.numero] : []));
    const repetidos = new Set(numeros).size < numeros.length;
    // A change day numbered by the clock: in March it lacks exactly the hour the clock skips (02:00
    // to 03:00 peninsular, hour-ending 3, quarters 9–12) and reaches 24; in October it repeats one.
    // A March day numbered 1–23 with one typo past 23 is numbered by position, and the typo is the
    // fault, reported on its own line.
    const porDia = (24 * 60) / minutos;
    const saltadas = new Set(Array.from({ length: 60 / minutos }, (_, i) => (2 * 60) / minutos + 1 + i));
    const presentes = new Set(numeros);
    const porReloj =
      tipoDia === 'cambio-verano'
        ? !repetidos &&
          Math.max(0, ...numeros) === porDia &&
          // All 24 (the clock's two names of one hour collide, and that is said) or all but the skipped hour.
          (presentes.size === porDia || ([...saltadas].every((n) => !presentes.has(n)) && presentes.size === porDia - saltadas.size))
        : tipoDia === 'cambio-invierno' && (Math.max(0, ...numeros) > delDia || repetidos);
    const cortoOctubre = tipoDia === 'cambio-invierno' && !repetidos && grupo.length === delDia - 60 / minutos;
    if (cortoOctubre) {
      const texto = `El ${fechaEs(fecha)} tiene ${delDia} ${unidad} (cambio al horario de invierno, la hora de 02:00 a 03:00 se repite) y el fichero trae ${grupo.length}: si la hora repetida viene sumada en una sola fila, todas las siguientes quedan una hora desplazadas.`;
      if (rec.estricto)
        rec.error(grupo[grupo.length - 1]!.linea, `${texto} En modo estricto no se importa: envíe las ${delDia} ${unidad} del día.`);
      else rec.avisos.push(`${texto} Compruébelo (el modo estricto lo rechaza).`);
    }
    if (porReloj) {
      rec.avisos.push(
        `El ${fechaEs(fecha)} (${delDia} ${unidad}, cambio de hora) viene numerado por la hora del reloj${tipoDia === 'cambio-invierno' ? ' con la hora repetida dos veces' : ' sin la hora que no existe'}: se ha convertido a horas seguidas.`,
      );
    }
    const usados = new Set<number>();
    for (const f of grupo) {
      const m = f.momento;
      if (m.tipo === 'numero' && !porReloj) {
        const inicio = inicioIntervaloDelDia(fecha, m.numero, minutos);
        if (!inicio) {
          rec.error(
            f.linea,
            `La ${minutos === 60 ? 'hora' : 'posición'} ${m.numero} no existe el ${fechaEs(fecha)}: ese día tiene ${delDia} ${unidad}.`,
          );
          continue;
        }
        f.inicio = inicio;
        f.minutos = minutos;
        continue;
      }
      const finMin = m.tipo === 'numero' ? m.numero * minutos : (m as { finMin: number }).finMin;
      const fines = finesPosiblesDesdeReloj(fecha, Math.floor(finMin / 60), finMin % 60);
      if (fines.length === 0) {
        rec.error(f.linea, `La hora ${relojTexto(finMin)} no existe el ${fechaEs(fecha)} (cambio al horario de verano).`);
        continue;
      }
      const libre = fines.find((d) => !usados.has(d.getTime()));
      if (!libre) {
        // Let the collector report the repetition with the line it repeats.
        f.inicio = new Date(fines[fines.length - 1]!.getTime() - minutos * 60_000);
        f.minutos = minutos;
        continue;
      }
      usados.add(libre.getTime());
      f.inicio = new Date(libre.getTime() - minutos * 60_000);
      f.minutos = minutos;
    }
  }
}

const relojTexto = (min: number) => `${String(Math.floor(min / 60)).padStart(2, '0')}:${String(min % 60).padStart(2, '0')}`;
