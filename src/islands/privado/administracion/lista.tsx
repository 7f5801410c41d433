/**
 * The frame of the administration's paged lists (users, requests, incidents, activity log): the
 * filters kept in the address (src/lib/administracion/consulta.ts) with a draft the form edits, the
 * filter form, and the table with its caption and pager. Each screen keeps its own columns and rows.
 */
import { useEffect, useId, useMemo, useState, type ReactNode, type SubmitEvent } from 'react';
import { hayFiltros, textoResultado, totalPaginas, type DefinicionLista, type Paginacion } from '../../../lib/administracion/consulta.ts';
import { useConsultaUrl } from '../usar-consulta.ts';
import {
  BotonesFiltro,
  Campo,
  CampoSelect,
  EstadoResultados,
  Paginador,
  RegionTabla,
  usePagina,
  type CampoProps,
  type Opcion,
} from './comun.tsx';

/**
 * A list's filters as the address says them, the draft its form edits (reset by back and forward),
 * the page loaded for them, and what applies, clears or pages them.
 */
export function useListaFiltrada<F extends Paginacion, T>(d: DefinicionLista<F, T>, cargar?: CargadorPagina<T>) {
  const [consulta, cambiarConsulta] = useConsultaUrl();
  const filtros = useMemo(() => d.desdeConsulta(consulta), [consulta]);
  const [borrador, setBorrador] = useState<F>(filtros);
  const pagina = usePagina<T>(d.url(filtros), cargar);
  // Back and forward change the address: the form shows what the list is filtered by.
  useEffect(() => setBorrador(filtros), [filtros]);
  const aplicar = (f: F) => cambiarConsulta(d.consulta(f));
  return {
    consulta,
    filtros,
    borrador,
    setBorrador,
    pagina,
    aplicar,
    /** A filter field's `alCambiar`: the draft takes the value. */
    poner:
      <K extends keyof F>(k: K) =>
      (v: string) =>
        setBorrador((b) => ({ ...b, [k]: v as F[K] })),
    /** Applies the draft, from the first page. */
    filtrar: (ev: SubmitEvent<HTMLFormElement>) => {
      ev.preventDefault();
      aplicar({ ...borrador, pagina: 1 });
    },
    /** Every filter off; the page size stays. */
    limpiar: () => aplicar({ ...d.vacios, porPagina: filtros.porPagina }),
    /** Whether a filter narrows the list. */
    conFiltros: hayFiltros(filtros),
  };
}

/** Loads a page of a list, when the API does not answer a plain array (`usePagina`'s default). */
export type CargadorPagina<T> = Parameters<typeof usePagina<T>>[1];

/** What `useListaFiltrada` gives the list's pieces. */
export type Lista<F extends Paginacion, T> = ReturnType<typeof useListaFiltrada<F, T>>;

/** The options of a filter's select: "any" first (value ''), then each value with its name. */
export function opcionesFiltro<V extends string>(todos: string, valores: readonly V[], nombre: (v: V) => string): Opcion[] {
  return [{ valor: '', texto: todos }, ...valores.map((v) => ({ valor: v, texto: nombre(v) }))];
}

/** Props of `FormularioFiltros`. */
export interface FormularioFiltrosProps {
  /** The search landmark's name ("Filtrar solicitudes"). */
  etiqueta: string;
  /** Applies the filters. */
  alEnviar: (ev: SubmitEvent<HTMLFormElement>) => void;
  /** Whether a filter is on (a "Limpiar filtros" button then shows), and how to clear them. */
  conFiltros?: boolean;
  alLimpiar?: () => void;
  /** Text of the submit button; "Filtrar" unless told. */
  texto?: string;
  /** The fields. */
  children: ReactNode;
}

/** A list's filter form: a `search` landmark, checked on submit, its buttons after the fields. */
export function FormularioFiltros({
  etiqueta,
  alEnviar,
  conFiltros = false,
  alLimpiar = () => {},
  texto,
  children,
}: FormularioFiltrosProps) {
  return (
    <form className="admin-filtros" role="search" aria-label={etiqueta} noValidate onSubmit={alEnviar}>
      {children}
      <BotonesFiltro conFiltros={conFiltros} alLimpiar={alLimpiar} texto={texto} />
    </form>
  );
}

/** Props of `Filtro`: a field's, without what the list's draft gives; with `opciones` it is a select. */
export type FiltroProps<F extends Paginacion, T> = Omit<CampoProps, 'id' | 'valor' | 'alCambiar'> & {
  /** The list whose draft the field edits. */
  lista: Lista<F, T>;
  /** The filter. */
  clave: keyof F & string;
  /** The control's id; made up unless the screen moves focus to it. */
  id?: string;
  /** The options of a select. */
  opciones?: readonly Opcion[];
};

/** A field of a filter form, bound to one filter of the list's draft: a select with `opciones`, an input otherwise. */
export function Filtro<F extends Paginacion, T>({ lista, clave, id, opciones, ...p }: FiltroProps<F, T>) {
  const propio = `${useId()}-${clave}`;
  const comun = { id: id ?? propio, valor: String(lista.borrador[clave]), alCambiar: lista.poner(clave) };
  return opciones ? <CampoSelect {...p} {...comun} opciones={opciones} /> : <Campo {...p} {...comun} />;
}

/** Props of `ResultadosLista`. */
export interface ResultadosListaProps<F extends Paginacion, T> {
  /** The list. */
  lista: Lista<F, T>;
  /** What a row is, in the result line: singular and plural ("usuario encontrado", "usuarios encontrados"). */
  que: readonly [string, string];
  /** What is loading, as a sentence. */
  cargando: string;
  /** What an empty list says, with filters and without. */
  vacioConFiltros: string;
  vacio: string;
  /** A page past the end says so and offers the first page. */
  avisarPaginaInexistente?: boolean;
  /** Clears the filters, when the screen has more to clear than the list's (`lista.limpiar`). */
  alLimpiar?: () => void;
}

/** Between a list's filters and its table: alerts, the announced result line, loading, retry, and why it is empty. */
export function ResultadosLista<F extends Paginacion, T>({
  lista,
  que,
  avisarPaginaInexistente,
  alLimpiar = lista.limpiar,
  ...p
}: ResultadosListaProps<F, T>) {
  const { filtros, aplicar } = lista;
  return (
    <EstadoResultados
      pagina={lista.pagina}
      resultado={(total) => textoResultado(total, que[0], que[1], filtros.pagina, filtros.porPagina)}
      conFiltros={lista.conFiltros}
      alLimpiar={alLimpiar}
      paginacion={
        avisarPaginaInexistente
          ? { pagina: filtros.pagina, porPagina: filtros.porPagina, alPrimeraPagina: () => aplicar({ ...filtros, pagina: 1 }) }
          : undefined
      }
      {...p}
    />
  );
}

/** Props of `TablaPaginada`. */
export interface TablaPaginadaProps<F extends Paginacion, T> {
  /** The list. */
  lista: Lista<F, T>;
  /** The caption's start ("Usuarios"): ", página N de M" follows. */
  titulo: string;
  /** What the rows are, for the pager's name ("usuarios"). */
  que: string;
  /** The columns' headings. */
  columnas: readonly string[];
  /** Extra class of the table. */
  clase?: string;
  /** The row (or rows) of one item. */
  fila: (item: T) => ReactNode;
}

/** The loaded page as a table in its scrolling region, captioned with its page, and the pager; nothing while empty. */
export function TablaPaginada<F extends Paginacion, T>({ lista, titulo, que, columnas, clase, fila }: TablaPaginadaProps<F, T>) {
  const idCaption = `${useId()}-caption`;
  const { estado } = lista.pagina;
  const { filtros, aplicar } = lista;
  if (estado.fase !== 'listo' || estado.filas.length === 0) return null;
  return (
    <>
      <RegionTabla idTitulo={idCaption}>
        <table className={`admin-tabla__tabla${clase ? ` ${clase}` : ''}`}>
          <caption id={idCaption}>
            {titulo}, página {filtros.pagina} de {totalPaginas(estado.total, filtros.porPagina)}
          </caption>
          <thead>
            <tr>
              {columnas.map((c) => (
                <th key={c} scope="col">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>{estado.filas.map(fila)}</tbody>
        </table>
      </RegionTabla>
      <Paginador
        que={que}
        pagina={filtros.pagina}
        porPagina={filtros.porPagina}
        total={estado.total}
        filas={estado.filas.length}
        alCambiarPagina={(pagina) => aplicar({ ...filtros, pagina })}
        alCambiarPorPagina={(porPagina) => aplicar({ ...filtros, porPagina, pagina: 1 })}
      />
    </>
  );
}

/** What a staff list says to an account that administers no distributor: what it would need. */
export function SinDistribuidoras({ para }: { para: string }) {
  return (
    <div className="admin-vacio">
      <p>Para {para} necesita el permiso de administración de al menos una distribuidora.</p>
    </div>
  );
}
