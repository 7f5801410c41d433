/**
 * The SIPS screen in words (docs/producto.md "SIPS"; docs/sector.md §3): which distributors a
 * company may read, the monthly files grouped by month with plain labels, the list of CUPS a person
 * pastes, and the CSV of a query's rows written exactly as the files write them.
 */
import { DISTRIBUIDORAS, type CodigoDistribuidora } from '../distribuidoras.ts';
import { nombreMes } from '../formato/fechas.ts';
import type { TipoFicheroSips, VersionSips } from './columnas.ts';
import { lineaSips } from './fila.ts';
import { MAX_CUPS_CONSULTA_SIPS, type FicheroSipsRespuesta } from './respuestas.ts';

/** The distributors whose SIPS these permissions open, in the portal's order: `<d>-comercializadora`, or `<d>-administrador`. */
export function distribuidorasSips(permisos: readonly string[], area: 'comercializadora' | 'administrador'): CodigoDistribuidora[] {
  return DISTRIBUIDORAS.filter((d) => permisos.includes(`${d.codigo}-${area}`)).map((d) => d.codigo);
}

/** A kind of file in words. */
export const TEXTO_TIPO: Readonly<Record<TipoFicheroSips, string>> = {
  PS_ELECTRICIDAD: 'Puntos de suministro',
  CONSUMOS_ELECTRICIDAD: 'Consumos de 24 meses',
};

/** A layout in words. */
export const TEXTO_VERSION: Readonly<Record<VersionSips, string>> = {
  v2: 'Formato v2 (sin titular)',
  sips2026: 'Formato SIPS2026 (titular, si es empresa)',
};

/** One month of files, newest first, as the screen lists them. */
export interface MesFicheros {
  /** AAAA-MM. */
  mes: string;
  /** "Noviembre de 2026": the month's heading. */
  titulo: string;
  /** "noviembre de 2026": the month inside a sentence (a table's caption, a label). */
  enFrase: string;
  ficheros: FicheroSipsRespuesta[];
}

const ORDEN_TIPO: readonly TipoFicheroSips[] = ['PS_ELECTRICIDAD', 'CONSUMOS_ELECTRICIDAD'];
const ORDEN_VERSION: readonly VersionSips[] = ['sips2026', 'v2'];

/** The files grouped by month, newest month first; within a month PS before consumption, SIPS2026 before v2. */
export function ficherosPorMes(ficheros: readonly FicheroSipsRespuesta[]): MesFicheros[] {
  const meses = new Map<string, FicheroSipsRespuesta[]>();
  for (const f of ficheros) meses.set(f.mes, [...(meses.get(f.mes) ?? []), f]);
  return [...meses.entries()]
    .sort(([a], [b]) => b.localeCompare(a))
    .map(([mes, lista]) => ({
      mes,
      titulo: nombreMes(mes, true),
      enFrase: nombreMes(mes),
      ficheros: [...lista].sort(
        (a, b) =>
          ORDEN_TIPO.indexOf(a.tipo) - ORDEN_TIPO.indexOf(b.tipo) || ORDEN_VERSION.indexOf(a.version) - ORDEN_VERSION.indexOf(b.version),
      ),
    }));
}

/** The lines of the query box as the API takes them: one CUPS per line (commas, semicolons and tabs also separate). */
export function cupsDelTexto(texto: string): string[] {
  return texto.split(/\r\n|\r|\n/).flatMap((linea) => linea.split(/[,;\t]/));
}

/** Why the query box cannot be sent, or null: nothing written, or more CUPS than a query takes. */
export function errorListaCups(lista: readonly string[]): string | null {
  const n = lista.filter((c) => c.trim() !== '').length;
  if (n === 0) return 'Escriba o pegue al menos un CUPS, uno por línea.';
  if (lista.length > MAX_CUPS_CONSULTA_SIPS) {
    return `Ha escrito ${lista.length} líneas: consulte como mucho ${MAX_CUPS_CONSULTA_SIPS} CUPS a la vez.`;
  }
  return null;
}

/** The CSV file of a query's rows: the CNMC header and every row, as the monthly files write them. */
export function csvDeTabla(tabla: { columnas: readonly string[]; filas: readonly (readonly string[])[] }): string {
  return lineaSips(tabla.columnas) + tabla.filas.map((f) => lineaSips(f)).join('');
}

/** The name a query's CSV is saved under, like the CNMC's own. */
export function nombreCsvConsulta(distribuidora: string, tipo: TipoFicheroSips, version: VersionSips): string {
  return `consulta_${version === 'v2' ? 'SIPS2' : 'SIPS2026'}_${tipo}_${distribuidora}.csv`;
}

/** A column the query's tables show: its CNMC name and its heading. */
export interface ColumnaResumen {
  columna: string;
  titulo: string;
}

/** The columns the query's table shows of a PS row (the CSV carries them all). */
export const COLUMNAS_RESUMEN_PS: readonly ColumnaResumen[] = [
  { columna: 'cups', titulo: 'CUPS' },
  { columna: 'codigoTarifaATREnVigor', titulo: 'Tarifa (tabla 17)' },
  { columna: 'potenciasContratadasEnWP1', titulo: 'Potencia P1 (W)' },
  { columna: 'potenciasContratadasEnWP2', titulo: 'Potencia P2 (W)' },
  { columna: 'codigoPostalPS', titulo: 'Código postal' },
  { columna: 'fechaAltaSuministro', titulo: 'Alta' },
  { columna: 'fechaUltimoCambioComercializador', titulo: 'Último cambio de comercializadora' },
];

/** The columns the query's table shows of a consumption row. */
export const COLUMNAS_RESUMEN_CONSUMOS: readonly ColumnaResumen[] = [
  { columna: 'cups', titulo: 'CUPS' },
  { columna: 'fechaInicioMesConsumo', titulo: 'Desde' },
  { columna: 'fechaFinMesConsumo', titulo: 'Hasta' },
  { columna: 'consumoEnergiaActivaEnWhP1', titulo: 'Activa P1 (Wh)' },
  { columna: 'consumoEnergiaActivaEnWhP2', titulo: 'Activa P2 (Wh)' },
  { columna: 'consumoEnergiaActivaEnWhP3', titulo: 'Activa P3 (Wh)' },
  { columna: 'potenciaDemandadaEnWP1', titulo: 'Potencia demandada P1 (W)' },
];

/** The register's fields in words, for the preview of a load; a SIPS column kept by its CNMC name is shown by that name. */
const CAMPOS_REGISTRO: Readonly<Record<string, string>> = {
  distribuidora: 'Distribuidora',
  titular_nif: 'NIF del titular',
  titular_nombre: 'Titular',
  direccion: 'Dirección',
  codigo_postal: 'Código postal',
  municipio: 'Municipio',
  codigo_ine: 'Código INE del municipio',
  provincia: 'Provincia',
  tarifa: 'Tarifa de acceso',
  potencias_w: 'Potencias contratadas (W)',
  potencia_maxima_w: 'Potencia máxima admisible (W)',
  tension_v: 'Tensión (V)',
  contador_inteligente: 'Contador inteligente',
  telegestionado: 'Telegestionado',
  propiedad_contador: 'Propiedad del contador',
  fases_contador: 'Fases del contador',
  resolucion_minutos: 'Resolución de la curva (minutos)',
  modo_control_potencia: 'Control de potencia',
  autoconsumo: 'Autoconsumo',
  comercializadora_codigo: 'Comercializadora (código)',
  periodicidad_facturacion: 'Periodicidad de facturación',
  ciclo_lectura: 'Día del ciclo de lectura',
  fecha_alta: 'Fecha de alta',
  fecha_baja: 'Fecha de baja',
  suspendido_desde: 'Suspendido por impago desde',
};

/** A field of the register in words: «Potencias contratadas (W)», or «viaPS (columna SIPS)». */
export function campoRegistro(campo: string): string {
  return CAMPOS_REGISTRO[campo] ?? `${campo} (columna SIPS)`;
}

/** A value of the preview as the screen shows it: «Sí»/«No» for yes/no, «(vacío)» for nothing. */
export function valorRegistro(valor: string | null): string {
  if (valor === null || valor === '') return '(vacío)';
  if (valor === 'true') return 'Sí';
  if (valor === 'false') return 'No';
  return valor;
}
