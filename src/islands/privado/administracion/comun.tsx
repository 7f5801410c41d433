/**
 * Pieces shared by the administration screens: form fields with hint and error (docs/diseno.md "Forms",
 * built on src/islands/comunes/formulario/),
 * a table wrapper that scrolls sideways on a phone and can be scrolled by keyboard, the pager, and
 * a confirmation dialog with a cancel button (the portal's Modal offers one button only, and a
 * destructive action must be easy to back out of), and the loading and result states of a paged list.
 */
import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { pedirPagina } from '../../../lib/administracion/api.ts';
import { rangoPagina, TAMANOS_PAGINA, totalPaginas } from '../../../lib/administracion/consulta.ts';
import { NOMBRE_ESTADO } from '../../../lib/administracion/usuarios.ts';
import { mensajesDeError } from '../../../lib/api/cliente.ts';
import { alertasDe, ListaAlertas, type Alerta } from '../../comunes/ListaAlertas.tsx';
import { CabeceraCampo } from '../../comunes/formulario/CabeceraCampo.tsx';
import { atributosControl, claseCampo, textosCampo, type PropsCampoBase, type TextosCampo } from '../../comunes/formulario/campo.ts';

/** Props shared by the fields. */
interface BaseCampo extends PropsCampoBase {
  /** Extra class of the wrapper. */
  clase?: string;
}

/** The wrapper, label, hint and error of an administration field around its control (docs/diseno.md "Forms"). */
function MarcoCampo({ p, t, children }: { p: BaseCampo; t: TextosCampo; children: ReactNode }) {
  return (
    <div className={claseCampo('admin-campo', p)}>
      <CabeceraCampo id={p.id} etiqueta={p.etiqueta} error={p.error} textos={t} bloque="admin-campo" obligatorio={p.requerido} />
      {children}
    </div>
  );
}

/** Props of `Campo`. */
export interface CampoProps extends BaseCampo {
  /** Current value. */
  valor: string;
  /** New value on every change. */
  alCambiar: (valor: string) => void;
  /** Input type. */
  tipo?: 'text' | 'email' | 'search' | 'date' | 'datetime-local';
  /** Mobile keyboard hint. */
  inputMode?: 'text' | 'numeric' | 'decimal' | 'email' | 'search';
  /** autocomplete token; off by default (an administrator types other people's data). */
  autoComplete?: string;
  /** Maximum length. */
  max?: number;
}

/** A labelled input; "(obligatorio)" follows the label of a required one. */
export function Campo(p: CampoProps) {
  const t = textosCampo(p);
  return (
    <MarcoCampo p={p} t={t}>
      <input
        {...atributosControl(p, t)}
        type={p.tipo ?? 'text'}
        value={p.valor}
        onChange={(e) => p.alCambiar(e.target.value)}
        inputMode={p.inputMode}
        autoComplete={p.autoComplete ?? 'off'}
        spellCheck={false}
        maxLength={p.max}
      />
    </MarcoCampo>
  );
}

/** Props of `CampoArea`. */
export interface CampoAreaProps extends BaseCampo {
  /** Current value. */
  valor: string;
  /** New value on every change. */
  alCambiar: (valor: string) => void;
  /** Visible rows. */
  filas?: number;
  /** Maximum length, with a counter. */
  max?: number;
}

/** A labelled textarea, with a character counter when it has a maximum. */
export function CampoArea(p: CampoAreaProps) {
  const usados = p.valor.length;
  const t = textosCampo(p);
  return (
    <MarcoCampo p={p} t={t}>
      <textarea
        {...atributosControl(p, t)}
        value={p.valor}
        rows={p.filas ?? 3}
        onChange={(e) => p.alCambiar(e.target.value)}
        spellCheck={p.max !== undefined}
      />
      {p.max !== undefined && (
        <p className={`admin-campo__contador${usados > p.max ? ' admin-campo__contador--excedido' : ''}`}>
          {usados} de {p.max} caracteres
        </p>
      )}
    </MarcoCampo>
  );
}

/** One option of a select. */
export interface Opcion {
  /** Value sent. */
  valor: string;
  /** Text shown. */
  texto: string;
}

/** Props of `CampoSelect`. */
export interface CampoSelectProps extends BaseCampo {
  /** Current value. */
  valor: string;
  /** New value. */
  alCambiar: (valor: string) => void;
  /** The options, in order. */
  opciones: readonly Opcion[];
}

/** A labelled select. */
export function CampoSelect(p: CampoSelectProps) {
  const t = textosCampo(p);
  return (
    <MarcoCampo p={p} t={t}>
      <select {...atributosControl(p, t)} value={p.valor} onChange={(e) => p.alCambiar(e.target.value)}>
        {p.opciones.map((o) => (
          <option key={o.valor} value={o.valor}>
            {o.texto}
          </option>
        ))}
      </select>
    </MarcoCampo>
  );
}

/**
 * An administration form's values and its field errors, and `campo(c)`: the props that bind field `c`
 * to them (its id, label, value, setter and message), for `Campo`, `CampoArea` and `CampoSelect`.
 */
export function useCamposAdmin<C extends string, F extends Record<C, string>>(inicial: () => F, etiquetas: Readonly<Record<C, string>>) {
  const [valores, setValores] = useState<F>(inicial);
  const [errores, setErrores] = useState<Partial<Record<C, string>>>({});
  const id = useId();
  const idDe = (c: C) => `${id}-${c}`;
  return {
    valores,
    errores,
    setErrores,
    /** The id of field `c`'s control. */
    idDe,
    /** The props of field `c`. */
    campo: (c: C) => ({
      id: idDe(c),
      etiqueta: etiquetas[c],
      valor: valores[c],
      alCambiar: (v: string) => setValores((x) => ({ ...x, [c]: v })),
      error: errores[c],
    }),
  };
}

/** Props of `RegionTabla`. */
export interface RegionTablaProps {
  /** id of the table's caption: it names the scrollable region. */
  idTitulo: string;
  /** The table. */
  children: ReactNode;
}

/**
 * A table that scrolls sideways when it is wider than the screen. The region is focusable so a
 * keyboard user can scroll it with the arrow keys (axe "scrollable-region-focusable").
 */
export function RegionTabla({ idTitulo, children }: RegionTablaProps) {
  return (
    <div className="admin-tabla" role="region" aria-labelledby={idTitulo} tabIndex={0}>
      {children}
    </div>
  );
}

/** Props of `Paginador`. */
export interface PaginadorProps {
  /** Current page, from 1. */
  pagina: number;
  /** Rows per page. */
  porPagina: number;
  /** Rows of every page. */
  total: number;
  /** Rows on this page. */
  filas: number;
  /** Opens a page. */
  alCambiarPagina: (pagina: number) => void;
  /** Changes the page size (back to page 1). */
  alCambiarPorPagina: (porPagina: number) => void;
  /** What the rows are ("usuarios"), for the accessible name. */
  que: string;
}

/** Previous / next, the page and range shown, and the page size. */
export function Paginador(p: PaginadorProps) {
  const paginas = totalPaginas(p.total, p.porPagina);
  const id = useId();
  return (
    <nav className="admin-paginador" aria-label={`Paginación de ${p.que}`}>
      {/* aria-disabled, not disabled: the button pressed to reach the first or last page keeps the focus. */}
      <button
        type="button"
        className="admin-boton admin-boton--secundario"
        aria-disabled={p.pagina <= 1}
        onClick={() => p.pagina > 1 && p.alCambiarPagina(p.pagina - 1)}
      >
        <span aria-hidden="true">‹ </span>Anterior
      </button>
      <p className="admin-paginador__estado">
        Página {p.pagina} de {paginas}
        <span className="admin-paginador__rango"> · {rangoPagina(p.pagina, p.porPagina, p.total, p.filas)}</span>
      </p>
      <button
        type="button"
        className="admin-boton admin-boton--secundario"
        aria-disabled={p.pagina >= paginas}
        onClick={() => p.pagina < paginas && p.alCambiarPagina(p.pagina + 1)}
      >
        Siguiente<span aria-hidden="true"> ›</span>
      </button>
      <div className="admin-paginador__tamano">
        <label htmlFor={`${id}-tam`}>Por página</label>
        <select id={`${id}-tam`} value={p.porPagina} onChange={(e) => p.alCambiarPorPagina(Number(e.target.value))}>
          {TAMANOS_PAGINA.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </div>
    </nav>
  );
}

/** Props of `Confirmacion`. */
export interface ConfirmacionProps {
  /** Open or closed. */
  abierta: boolean;
  /** Heading. */
  titulo: string;
  /** What will happen, in words. */
  children: ReactNode;
  /** Text of the confirming button ("Desactivar cuenta"). */
  textoConfirmar: string;
  /** The action is destructive: its button is red. */
  peligrosa?: boolean;
  /** Confirmed. */
  alConfirmar: () => void;
  /** Cancelled (button or Escape). */
  alCancelar: () => void;
}

/**
 * A confirmation dialog on `<dialog>` (focus trapped, page inert, Escape cancels), styled as the
 * portal's Modal. Focus starts on "Cancelar", the safe choice, and returns where it was.
 */
export function Confirmacion(p: ConfirmacionProps) {
  const dialogo = useRef<HTMLDialogElement>(null);
  const cancelar = useRef<HTMLButtonElement>(null);
  const previo = useRef<HTMLElement | null>(null);
  const id = useId();

  useEffect(() => {
    const d = dialogo.current;
    if (!d) return;
    if (p.abierta && !d.open) {
      previo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      d.showModal();
      cancelar.current?.focus();
    } else if (!p.abierta && d.open) {
      d.close();
      const antes = previo.current;
      if (antes?.isConnected && document.activeElement !== antes) antes.focus();
      previo.current = null;
    }
  }, [p.abierta]);

  return (
    <dialog
      ref={dialogo}
      className="modal admin-confirmacion"
      aria-labelledby={`${id}-titulo`}
      aria-describedby={`${id}-cuerpo`}
      onCancel={(e) => {
        e.preventDefault();
        p.alCancelar();
      }}
      onClose={() => {
        // Closed by the browser rather than by us (a forced second Escape): the same as cancelling.
        if (p.abierta) p.alCancelar();
      }}
    >
      {p.abierta && (
        <div className="modal__caja">
          <h2 id={`${id}-titulo`} className="modal__titulo">
            {p.titulo}
          </h2>
          <div id={`${id}-cuerpo`} className="modal__cuerpo">
            {p.children}
          </div>
          <div className="modal__acciones">
            <button ref={cancelar} type="button" className="boton admin-confirmacion__cancelar" onClick={p.alCancelar}>
              Cancelar
            </button>
            <button type="button" className={`boton${p.peligrosa ? ' admin-confirmacion__peligro' : ''}`} onClick={p.alConfirmar}>
              {p.textoConfirmar}
            </button>
          </div>
        </div>
      )}
    </dialog>
  );
}

/** Props of `Cargando`. */
export interface CargandoProps {
  /** What is loading, as a sentence ("Cargando usuarios…"). */
  texto: string;
}

/** A loading line with a small spinner, announced politely. */
export function Cargando({ texto }: CargandoProps) {
  return (
    <p className="admin-cargando">
      <span className="admin-cargando__giro" aria-hidden="true"></span>
      {texto}
    </p>
  );
}

/** Props of `Correo`. */
export interface CorreoProps {
  /** The address. */
  email: string;
}

/** An e-mail address that may break before its '@' in a narrow column, never inside a word. */
export function Correo({ email }: CorreoProps) {
  const arroba = email.lastIndexOf('@');
  if (arroba <= 0) return <>{email}</>;
  return (
    <>
      {email.slice(0, arroba)}
      <wbr />
      {email.slice(arroba)}
    </>
  );
}

/** An account's state as a badge: the word says it, the colour only repeats it. */
export function EstadoUsuario({ estado }: { estado: string }) {
  return <span className={`admin-estado admin-estado--${estado}`}>{NOMBRE_ESTADO[estado as keyof typeof NOMBRE_ESTADO] ?? estado}</span>;
}

/** A paged list: loading, loaded with its rows and the total of every page, or failed. */
export type EstadoPagina<T> = { fase: 'cargando' } | { fase: 'listo'; filas: T[]; total: number } | { fase: 'error' };

/**
 * Loads a page of a list from `url` (a JSON array with X-Total-Count) whenever the address changes or
 * `recargar` is called; a failure's messages go to the alerts, which the screen also uses for its own.
 * The state remembers the address its rows came from: in the render where the address has changed but
 * the effect has not run yet, the list is loading, never the old page's rows under the new page's title.
 */
export function usePagina<T>(
  url: string,
  cargar: (url: string, init: { signal: AbortSignal }) => ReturnType<typeof pedirPagina<T>> = pedirPagina<T>,
) {
  const [cargado, setCargado] = useState<{ url: string; estado: EstadoPagina<T> }>({ url, estado: { fase: 'cargando' } });
  const [alertas, setAlertas] = useState<Alerta[]>([]);
  const [recarga, setRecarga] = useState(0);
  // The alerts of a failed load, cleared by the next good one; the screen's own alerts (an action's result) stay.
  const deLaCarga = useRef(new Set<string>());
  useEffect(() => {
    const peticion = new AbortController();
    setCargado({ url, estado: { fase: 'cargando' } });
    void cargar(url, { signal: peticion.signal }).then((r) => {
      if (peticion.signal.aborted) return;
      if (r.ok) {
        setCargado({ url, estado: { fase: 'listo', filas: r.datos.filas, total: r.datos.total } });
        setAlertas((l) => l.filter((a) => !deLaCarga.current.has(a.id)));
      } else {
        setCargado({ url, estado: { fase: 'error' } });
        const nuevas = alertasDe(mensajesDeError(r.error));
        deLaCarga.current = new Set(nuevas.map((a) => a.id));
        setAlertas(nuevas);
      }
    });
    return () => peticion.abort();
    // `cargar` is a module-level function of each screen: it never changes.
  }, [url, recarga]);
  const estado: EstadoPagina<T> = cargado.url === url ? cargado.estado : CARGANDO;
  return { estado, alertas, setAlertas, recargar: useCallback(() => setRecarga((n) => n + 1), []) };
}

const CARGANDO = { fase: 'cargando' } as const;

/** The buttons of a list's filter form: apply (`texto`, "Filtrar" unless told), and clear while a filter is on. */
export function BotonesFiltro({
  conFiltros,
  alLimpiar,
  texto = 'Filtrar',
}: {
  conFiltros: boolean;
  alLimpiar: () => void;
  texto?: string | undefined;
}) {
  return (
    <div className="admin-filtros__acciones">
      <button type="submit" className="admin-boton">
        {texto}
      </button>
      {conFiltros && (
        <button type="button" className="admin-boton admin-boton--secundario" onClick={alLimpiar}>
          Limpiar filtros
        </button>
      )}
    </div>
  );
}

/** Props of `EstadoResultados`. */
export interface EstadoResultadosProps<T> {
  /** The list's state and alerts, from `usePagina`. */
  pagina: Pick<ReturnType<typeof usePagina<T>>, 'estado' | 'alertas' | 'setAlertas' | 'recargar'>;
  /** The line announced after each load ("12 solicitudes."). */
  resultado: (total: number) => string;
  /** What is loading, as a sentence. */
  cargando: string;
  /** Whether a filter is on, and how to clear them. */
  conFiltros: boolean;
  alLimpiar: () => void;
  /** What an empty list with filters says. */
  vacioConFiltros: string;
  /** What an empty list without filters says. */
  vacio: string;
  /** The page asked and its size, and how to go to the first one: a page past the end says so. */
  paginacion?: { pagina: number; porPagina: number; alPrimeraPagina: () => void } | undefined;
}

/** "1 página" / "N páginas". */
const paginasEnPalabras = (n: number) => (n === 1 ? '1 página' : `${n} páginas`);

/** Between a list's filters and its table: the alerts, the announced result line, loading, retry, and why it is empty. */
export function EstadoResultados<T>({ pagina: { estado, alertas, setAlertas, recargar }, ...p }: EstadoResultadosProps<T>) {
  return (
    <>
      <ListaAlertas alertas={alertas} alCerrar={(a) => setAlertas((l) => l.filter((x) => x.id !== a))} />
      <p className="admin-resultado" role="status">
        {estado.fase === 'listo' ? p.resultado(estado.total) : ''}
      </p>
      {estado.fase === 'cargando' && <Cargando texto={p.cargando} />}
      {estado.fase === 'error' && (
        <p>
          <button type="button" className="admin-boton admin-boton--secundario" onClick={recargar}>
            Reintentar
          </button>
        </p>
      )}
      {estado.fase === 'listo' && estado.filas.length === 0 && (
        <div className="admin-vacio">
          {p.paginacion && estado.total > 0 && p.paginacion.pagina > totalPaginas(estado.total, p.paginacion.porPagina) ? (
            <>
              <p>Esta página no existe: la lista tiene {paginasEnPalabras(totalPaginas(estado.total, p.paginacion.porPagina))}.</p>
              <button type="button" className="admin-boton admin-boton--secundario" onClick={p.paginacion.alPrimeraPagina}>
                Ir a la primera página
              </button>
            </>
          ) : p.conFiltros ? (
            <>
              <p>{p.vacioConFiltros}</p>
              <button type="button" className="admin-boton admin-boton--secundario" onClick={p.alLimpiar}>
                Limpiar filtros
              </button>
            </>
          ) : (
            <p>{p.vacio}</p>
          )}
        </div>
      )}
    </>
  );
}

/** Props of `DetalleSinCargar`. */
export interface DetalleSinCargarProps {
  /** The load's state: loading, missing (404) or failed. */
  carga: { fase: 'cargando' } | { fase: 'no-existe' | 'error'; mensaje: string };
  /** The screen's heading. */
  titulo: string;
  /** The link back to the list. */
  volver: ReactNode;
  /** What is being loaded, for "Cargando la solicitud…". */
  que: string;
  /** Asks again after a failure. */
  reintentar: () => void;
  /** Said below the server's words when it does not exist. */
  ayudaNoExiste?: string;
}

/** A staff detail screen before its data: loading, "does not exist", or the error with a retry. */
export function DetalleSinCargar(p: DetalleSinCargarProps) {
  return (
    <section className="admin">
      {p.volver}
      <h1 tabIndex={-1}>{p.titulo}</h1>
      {p.carga.fase === 'cargando' && <Cargando texto={`Cargando ${p.que}…`} />}
      {p.carga.fase === 'no-existe' && (
        <div className="admin-vacio">
          <p>{p.carga.mensaje}</p>
          {p.ayudaNoExiste && <p>{p.ayudaNoExiste}</p>}
        </div>
      )}
      {p.carga.fase === 'error' && (
        <>
          <ListaAlertas alertas={alertasDe([p.carga.mensaje])} alCerrar={() => undefined} />
          <p>
            <button type="button" className="admin-boton admin-boton--secundario" onClick={p.reintentar}>
              Reintentar
            </button>
          </p>
        </>
      )}
    </section>
  );
}

/** What a case's step just did, said once by the screen after the staff's action (a live region). */
export interface AnuncioPaso {
  prefijo: string;
  texto: string;
}

/** The live region where a case screen announces the step just taken (every procedure's staff detail). */
export function AnuncioDePaso({ anuncio }: { anuncio: AnuncioPaso | null }) {
  return (
    <div className="adm-acc-anuncio" role="status">
      {anuncio && (
        <p className="adm-acc-aviso adm-acc-aviso--hecho">
          <strong>{anuncio.prefijo}</strong> {anuncio.texto}
        </p>
      )}
    </div>
  );
}

/** The warning of a case whose deadline passed, by whose turn it is (every procedure's staff detail). */
export function AvisoPlazoVencido({ turno }: { turno: string | null }) {
  return (
    <p className="adm-acc-aviso adm-acc-aviso--error">
      <strong>Plazo vencido.</strong>{' '}
      {turno === 'distribuidora'
        ? 'La distribuidora no ha actuado dentro del plazo: dé el paso que corresponda cuanto antes.'
        : 'El solicitante no ha respondido dentro del plazo.'}
    </p>
  );
}
