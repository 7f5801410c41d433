/**
 * Reading and writing the query string of a list screen. The filters of a list live in the page's
 * address, so back and forward, a reload or a shared link show the same list; what comes from the
 * address is typed by anyone, so every value is checked and a wrong one falls back to its default.
 */
import { numero } from '../formato/numeros.ts';

/** The page sizes a list offers; the API accepts at most 100. */
export const TAMANOS_PAGINA = [10, 25, 50, 100] as const;
/** Page size when the address names none. */
export const POR_PAGINA_DEFECTO = 25;

/** Accepts a string, a URLSearchParams or a `Record` (the router's `search`). */
export type EntradaConsulta = string | URLSearchParams | Readonly<Record<string, string | undefined>>;

/** Normalises any accepted input to URLSearchParams. */
export function comoParametros(entrada: EntradaConsulta): URLSearchParams {
  if (typeof entrada === 'string') return new URLSearchParams(entrada.startsWith('?') ? entrada.slice(1) : entrada);
  if (entrada instanceof URLSearchParams) return entrada;
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(entrada)) if (v !== undefined) p.set(k, v);
  return p;
}

/** A trimmed text parameter, at most `max` characters; '' when absent. */
export function leerTexto(p: URLSearchParams, nombre: string, max = 200): string {
  return (p.get(nombre) ?? '').trim().slice(0, max);
}

/** A parameter that must be one of `valores`; '' otherwise. */
export function leerOpcion<T extends string>(p: URLSearchParams, nombre: string, valores: readonly T[]): T | '' {
  const v = p.get(nombre) ?? '';
  return (valores as readonly string[]).includes(v) ? (v as T) : '';
}

/** A page number: a positive integer, 1 otherwise. */
export function leerPagina(p: URLSearchParams, nombre = 'pagina'): number {
  const v = p.get(nombre) ?? '';
  if (!/^\d{1,6}$/.test(v)) return 1;
  const n = Number(v);
  return n >= 1 ? n : 1;
}

/** A page size among `TAMANOS_PAGINA`; the default otherwise. */
export function leerPorPagina(p: URLSearchParams, nombre = 'porPagina'): number {
  const n = Number(p.get(nombre) ?? '');
  return (TAMANOS_PAGINA as readonly number[]).includes(n) ? n : POR_PAGINA_DEFECTO;
}

/** Builds a query string (without '?') from pairs, leaving out empty values, in the given order. */
export function construirConsulta(pares: readonly (readonly [string, string | number | null | undefined])[]): string {
  const p = new URLSearchParams();
  for (const [k, v] of pares) {
    if (v === null || v === undefined || v === '') continue;
    p.set(k, String(v));
  }
  return p.toString();
}

/** Number of pages for a total (at least 1, so "page 1 of 1" reads right for an empty list). */
export function totalPaginas(total: number, porPagina: number): number {
  return Math.max(1, Math.ceil(Math.max(0, total) / Math.max(1, porPagina)));
}

/** "1–25 de 120": the range of rows a page shows; '0 resultados' for an empty list. */
export function rangoPagina(pagina: number, porPagina: number, total: number, filas: number): string {
  if (total <= 0 || filas <= 0) return '0 resultados';
  const desde = (pagina - 1) * porPagina + 1;
  const hasta = desde + filas - 1;
  return `${numero(desde)}–${numero(hasta)} de ${numero(total)}`;
}

/** The total of a list answer, read from `X-Total-Count`; null when absent or not a number. */
export function leerTotal(cabecera: string | null): number | null {
  if (cabecera === null || !/^\d+$/.test(cabecera.trim())) return null;
  return Number(cabecera.trim());
}

/**
 * The line a list announces after each load: how many rows match and, when there is more than one
 * page, which page is shown ("155 usuarios encontrados. Página 2 de 7.").
 */
export function textoResultado(total: number, singular: string, plural: string, pagina: number, porPagina: number): string {
  const cuantos = total === 1 ? `1 ${singular}.` : `${numero(total)} ${plural}.`;
  const paginas = totalPaginas(total, porPagina);
  return paginas > 1 ? `${cuantos} Página ${pagina} de ${paginas}.` : cuantos;
}

/** The page and page size every list's filters carry. */
export interface Paginacion {
  /** Page, from 1. */
  pagina: number;
  /** Rows per page. */
  porPagina: number;
}

/** The first page at the default size: what a list without filters shows. */
export const PRIMERA_PAGINA: Paginacion = { pagina: 1, porPagina: POR_PAGINA_DEFECTO };

/** The page and page size a query string names, each falling back to its default. */
export function leerPaginacion(p: URLSearchParams): Paginacion {
  return { pagina: leerPagina(p), porPagina: leerPorPagina(p) };
}

/** The filters' pairs of a list, in the order its address writes them. */
export type ParesConsulta = readonly (readonly [string, string | number | null | undefined])[];

/** A list screen's query string (no '?'): its filters, then the page and size only when they differ from the defaults. */
export function consultaDePantalla(pares: ParesConsulta, f: Paginacion): string {
  return construirConsulta([
    ...pares,
    ['pagina', f.pagina > 1 ? f.pagina : null],
    ['porPagina', f.porPagina !== POR_PAGINA_DEFECTO ? f.porPagina : null],
  ]);
}

/** The API call of a list at `ruta`: its filters, then the page and size, always explicit. */
export function urlDeLista(ruta: string, pares: ParesConsulta, f: Paginacion): string {
  return `${ruta}?${construirConsulta([...pares, ['pagina', f.pagina], ['porPagina', f.porPagina]])}`;
}

/**
 * A paged list's filters (`F`) as a screen keeps them in its address and sends them to the API,
 * which answers rows of type `T` (a type only: it names what the list shows).
 */
export interface DefinicionLista<F extends Paginacion, T> {
  /** No filter, first page. */
  vacios: F;
  /** The filters a query names; anything unknown falls back to "no filter". */
  desdeConsulta: (entrada: EntradaConsulta) => F;
  /** The screen's query string (no '?'): only what differs from the defaults. */
  consulta: (f: F) => string;
  /** The API call: every filter, page and page size explicit. */
  url: (f: F) => string;
  /** Never set: carries the rows' type. */
  filas?: T;
}

/** What `definirLista` is told about a list. */
export interface PiezasLista<F extends Paginacion> {
  /** The API path. */
  ruta: string;
  /** No filter, first page. */
  vacios: F;
  /** Reads the filters (page and size apart) from the query. */
  leer: (p: URLSearchParams) => Omit<F, keyof Paginacion>;
  /** The filters' pairs, in the address's order. */
  pares: (f: F) => ParesConsulta;
  /** The pairs the API is sent, when they differ from the address's. */
  paresApi?: (f: F) => ParesConsulta;
}

/** A list's definition from its API path, its empty filters, how they are read and how they are written. */
export function definirLista<F extends Paginacion, T>(d: PiezasLista<F>): DefinicionLista<F, T> {
  const paresApi = d.paresApi ?? d.pares;
  return {
    vacios: d.vacios,
    desdeConsulta: (entrada) => {
      const p = comoParametros(entrada);
      return { ...d.leer(p), ...leerPaginacion(p) } as F;
    },
    consulta: (f) => consultaDePantalla(d.pares(f), f),
    url: (f) => urlDeLista(d.ruta, paresApi(f), f),
  };
}

/** Whether any filter other than the page and its size narrows a list (the empty state then offers to clear them). */
export function hayFiltros(f: object): boolean {
  return Object.entries(f).some(([k, v]) => k !== 'pagina' && k !== 'porPagina' && typeof v === 'string' && v.trim() !== '');
}
