/**
 * The nodal capacity island: reads the latest publication from the API (it changes monthly, the
 * page does not) and shows it as points on the build-time map, a sortable table and filters.
 * A switch "Generación | Demanda" (kept in the URL as ?tipo=demanda) chooses the generation
 * publication (Circular 1/2021) or the demand one (Circular 1/2024, harmonised format of the CNMC
 * resolution of 30-04-2025); both are shown through one shape of row, so the map, filters and
 * table are the same code. No UI library and no d3 in the browser: points are placed with
 * src/lib/proyeccion-espana.ts.
 */
import { useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { proyectarEspana, type ParametrosProyeccion } from '../lib/proyeccion-espana.ts';
import type { CapacidadDemandaRespuesta, CapacidadNodalRespuesta } from '../lib/capacidad-nodal/respuestas.ts';
import { numeroHasta } from '../lib/formato/numeros.ts';
import { urlApi } from '../lib/api/rutas.ts';

interface Props {
  /** Distributor whose publication is shown. */
  distribuidora: 'epd' | 'eod';
  /** Distributor's legal name, for texts. */
  nombre: string;
  /** The projection the page drew the base map with. */
  proyeccion: ParametrosProyeccion;
  /** The base map: the build-time SVG of the provinces (Astro slot "mapa"). */
  mapa?: ReactNode;
}

/** Which publication is shown. */
export type TipoCapacidad = 'generacion' | 'demanda';

/** What both publications have in common, as a row of the table and a point of the map. */
interface Fila {
  subestacion: string;
  nudo: string;
  tensionKv: number;
  disponibleMw: number;
  ocupadaMw: number;
  /** Generation: admitted and not yet resolved; demand: admitted and not yet evaluated. */
  admitidaMw: number;
  municipio: string;
  provincia: string;
  nudoAfeccionRdt: string | null;
  comentario: string | null;
  latitud: number;
  longitud: number;
  /** Demand flags of the harmonised format that are set, in words. */
  marcas: string[];
}
type Clave = Exclude<keyof Fila, 'latitud' | 'longitud' | 'marcas'>;
type Banda = (typeof BANDAS)[number];
/** A node with what the island adds: a stable id, its band and its place on the map. */
type Nudo = Fila & { id: string; banda: Banda; punto: [number, number] | null };
type Carga = { estado: 'cargando' } | { estado: 'error'; mensaje: string } | { estado: 'listo'; publicacion: string; nudos: Nudo[] };

/** The rows of either publication. */
function filasDe(tipo: TipoCapacidad, body: unknown): { publicacion: string; filas: Fila[] } {
  if (tipo === 'generacion') {
    const datos = body as CapacidadNodalRespuesta;
    return {
      publicacion: datos.publicacion,
      filas: datos.nudos.map((n) => ({ ...n, admitidaMw: n.admitidaNoResueltaMw, marcas: [] })),
    };
  }
  const datos = body as CapacidadDemandaRespuesta;
  return {
    publicacion: datos.publicacion,
    filas: datos.nudos.map((n) => ({
      subestacion: n.subestacion,
      nudo: n.nudo,
      tensionKv: n.tensionKv,
      disponibleMw: n.disponibleMw,
      ocupadaMw: n.ocupadaMw,
      admitidaMw: n.admitidaNoEvaluadaMw,
      municipio: n.municipio,
      provincia: n.provincia,
      nudoAfeccionRdt: n.nudoAfeccionRdt,
      comentario: n.comentarioRegulatorio,
      latitud: n.latitud,
      longitud: n.longitud,
      marcas: [
        n.nudoCero ? 'Nudo 0*' : '',
        n.limitadoScc ? 'Limitado por Scc' : '',
        n.comprometidaRegulatoria ? 'Capacidad comprometida por cuestiones regulatorias' : '',
      ].filter(Boolean),
    })),
  };
}

/** The publication the URL asks for: ?tipo=demanda, or generation. */
function tipoDeUrl(): TipoCapacidad {
  return new URLSearchParams(window.location.search).get('tipo') === 'demanda' ? 'demanda' : 'generacion';
}

/** Bands of available capacity, with the map colour of each (saturated first: most nodes are). */
const BANDAS = [
  { id: 'saturado', texto: 'Sin capacidad (0 MW)', color: '#b42318', hasta: 0 },
  { id: 'baja', texto: 'Menos de 5 MW', color: '#f59e0b', hasta: 5 },
  { id: 'media', texto: 'De 5 a 20 MW', color: '#7cc242', hasta: 20 },
  { id: 'alta', texto: '20 MW o más', color: '#17753a', hasta: Infinity },
] as const;
const bandaDe = (mw: number): Banda => (mw <= 0 ? BANDAS[0] : (BANDAS.find((b) => mw < b.hasta) ?? BANDAS[3]));

type Columna = { clave: Clave; titulo: string; numero?: true; ordenable?: false };
/** The table's columns for each publication, with the names each format gives its figures. */
const COLUMNAS: Record<TipoCapacidad, Columna[]> = {
  generacion: [
    // The figures come right after the node: on a phone they are what shows beside its sticky name.
    { clave: 'subestacion', titulo: 'Subestación y nudo' },
    { clave: 'tensionKv', titulo: 'Tensión (kV)', numero: true },
    { clave: 'disponibleMw', titulo: 'Disponible (MW)', numero: true },
    { clave: 'ocupadaMw', titulo: 'Ocupada (MW)', numero: true },
    { clave: 'admitidaMw', titulo: 'Admitida y no resuelta (MW)', numero: true },
    { clave: 'municipio', titulo: 'Municipio' },
    { clave: 'provincia', titulo: 'Provincia' },
    { clave: 'nudoAfeccionRdt', titulo: 'Nudo de la red de transporte' },
    { clave: 'comentario', titulo: 'Comentarios', ordenable: false },
  ],
  demanda: [
    { clave: 'subestacion', titulo: 'Subestación y nudo' },
    { clave: 'tensionKv', titulo: 'Tensión (kV)', numero: true },
    { clave: 'disponibleMw', titulo: 'Firme disponible (MW)', numero: true },
    { clave: 'ocupadaMw', titulo: 'Firme ocupada (MW)', numero: true },
    { clave: 'admitidaMw', titulo: 'Admitida y no evaluada (MW)', numero: true },
    { clave: 'municipio', titulo: 'Municipio' },
    { clave: 'provincia', titulo: 'Provincia' },
    { clave: 'nudoAfeccionRdt', titulo: 'Nudo de la red de transporte' },
    { clave: 'comentario', titulo: 'Marcas y comentario regulatorio', ordenable: false },
  ],
};

const TIPOS: { tipo: TipoCapacidad; texto: string }[] = [
  { tipo: 'generacion', texto: 'Generación' },
  { tipo: 'demanda', texto: 'Demanda' },
];

/** Capacities and voltages with up to two decimals (src/lib/formato/numeros.ts). */
const numero = { format: (v: number) => numeroHasta(v, 2) };
const collator = new Intl.Collator('es', { sensitivity: 'base', numeric: true });
/** Lower case without accents, so "avila" finds "Ávila". */
const plano = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
const mesLargo = (yyyyMm: string) =>
  new Intl.DateTimeFormat('es-ES', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${yyyyMm}-01T00:00:00Z`));
const nudosTexto = (n: number) => `${numero.format(n)} ${n === 1 ? 'nudo' : 'nudos'}`;
/** Radius of a point on screen, in CSS pixels: a little smaller on a phone, where points crowd. */
const radioPx = (anchoPx: number) => (anchoPx < 500 ? 5 : 6);

/** The part of the map that holds every node, with a margin, in the viewBox's proportions. */
function encuadre(nudos: Nudo[], p: ParametrosProyeccion): [number, number, number, number] {
  const puntos = nudos.flatMap((n) => (n.punto ? [n.punto] : []));
  if (!puntos.length) return [0, 0, p.ancho, p.alto];
  const xs = puntos.map((q) => q[0]);
  const ys = puntos.map((q) => q[1]);
  const cx = (Math.min(...xs) + Math.max(...xs)) / 2;
  const cy = (Math.min(...ys) + Math.max(...ys)) / 2;
  // At least a fifth of the map, so a single node still shows the provinces around it.
  let w = Math.max((Math.max(...xs) - Math.min(...xs)) * 1.35, p.ancho / 5);
  let h = Math.max((Math.max(...ys) - Math.min(...ys)) * 1.35, p.alto / 5);
  if (w / h > p.ancho / p.alto) h = (w * p.alto) / p.ancho;
  else w = (h * p.ancho) / p.alto;
  if (w >= p.ancho) return [0, 0, p.ancho, p.alto];
  const x = Math.min(Math.max(cx - w / 2, 0), p.ancho - w);
  const y = Math.min(Math.max(cy - h / 2, 0), p.alto - h);
  return [x, y, w, h];
}

/** Places nodes that share a spot (levels of one substation) around it, so each stays visible and clickable. */
function repartir(nudos: Nudo[], radio: number): Map<string, [number, number]> {
  const grupos = new Map<string, Nudo[]>();
  for (const n of nudos) {
    if (!n.punto) continue;
    const clave = `${Math.round(n.punto[0] / radio)},${Math.round(n.punto[1] / radio)}`;
    grupos.set(clave, [...(grupos.get(clave) ?? []), n]);
  }
  const sitios = new Map<string, [number, number]>();
  for (const grupo of grupos.values()) {
    grupo.forEach((n, i) => {
      const [x, y] = n.punto!;
      const angulo = (2 * Math.PI * i) / grupo.length - Math.PI / 2;
      const d = grupo.length > 1 ? radio * 1.15 : 0;
      sitios.set(n.id, [x + d * Math.cos(angulo), y + d * Math.sin(angulo)]);
    });
  }
  return sitios;
}

/** The island: summary, filters, map points, legend and table of one distributor's nodes. */
export default function CapacidadNodal({ distribuidora, nombre, proyeccion, mapa }: Props) {
  const [carga, setCarga] = useState<Carga>({ estado: 'cargando' });
  // Generation on the server's render; the URL's choice once the island runs (and on back/forward).
  const [tipo, setTipo] = useState<TipoCapacidad>('generacion');
  const [tipoLeido, setTipoLeido] = useState(false);
  const [intento, setIntento] = useState(0);
  const [provincia, setProvincia] = useState('');
  const [tension, setTension] = useState('');
  const [minimo, setMinimo] = useState('');
  const [texto, setTexto] = useState('');
  const [orden, setOrden] = useState<{ clave: Clave; asc: boolean } | null>(null);
  const [seleccion, setSeleccion] = useState<string | null>(null);
  const [verEspana, setVerEspana] = useState(false);
  const [anchoPx, setAnchoPx] = useState(proyeccion.ancho);
  const lienzo = useRef<HTMLDivElement>(null);
  const uid = useId();

  useEffect(() => {
    const leer = () => {
      setTipo(tipoDeUrl());
      setTipoLeido(true);
    };
    leer();
    window.addEventListener('popstate', leer);
    return () => window.removeEventListener('popstate', leer);
  }, []);

  const cambiarTipo = (nuevo: TipoCapacidad) => {
    if (nuevo === tipo) return;
    const url = new URL(window.location.href);
    if (nuevo === 'demanda') url.searchParams.set('tipo', 'demanda');
    else url.searchParams.delete('tipo');
    window.history.pushState(null, '', url);
    setTipo(nuevo);
    setSeleccion(null);
  };

  const base =
    tipo === 'demanda'
      ? urlApi('/capacidadNodal/{id}/demanda', { path: { id: distribuidora } })
      : urlApi('/capacidadNodal/{id}', { path: { id: distribuidora } });
  const csv =
    tipo === 'demanda'
      ? urlApi('/capacidadNodal/{id}/demanda/csv', { path: { id: distribuidora } })
      : urlApi('/capacidadNodal/{id}/csv', { path: { id: distribuidora } });
  useEffect(() => {
    if (!tipoLeido) return;
    const control = new AbortController();
    setCarga({ estado: 'cargando' });
    fetch(base, { signal: control.signal, headers: { Accept: 'application/json' } })
      .then(async (res) => {
        const body: unknown = await res.json().catch(() => null);
        if (!res.ok) {
          const message = (body as { message?: unknown } | null)?.message;
          throw new Error(typeof message === 'string' ? message : `El servidor respondió ${res.status}.`);
        }
        const { publicacion, filas } = filasDe(tipo, body);
        const nudos = filas.map((n, i) => ({
          ...n,
          id: `nudo-${i + 1}`,
          banda: bandaDe(n.disponibleMw),
          punto: proyectarEspana(n.longitud, n.latitud, proyeccion),
        }));
        setCarga({ estado: 'listo', publicacion, nudos });
      })
      .catch((err: unknown) => {
        if (control.signal.aborted) return;
        const message = err instanceof TypeError ? 'No hay conexión con el servidor.' : err instanceof Error ? err.message : '';
        setCarga({ estado: 'error', mensaje: message });
      });
    return () => control.abort();
  }, [base, tipo, tipoLeido, proyeccion, intento]);

  // Points keep their size on screen whatever the map's width or zoom.
  useEffect(() => {
    const el = lienzo.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry && entry.contentRect.width > 0) setAnchoPx(entry.contentRect.width);
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const todos = carga.estado === 'listo' ? carga.nudos : [];
  const vista = useMemo(
    () => (verEspana || !todos.length ? ([0, 0, proyeccion.ancho, proyeccion.alto] as const) : encuadre(todos, proyeccion)),
    [todos, verEspana, proyeccion],
  );
  const viewBox = vista.map((v) => Math.round(v * 10) / 10).join(' ');

  // The base map is static HTML from the page: only its viewBox follows the zoom.
  useEffect(() => {
    lienzo.current?.querySelector('svg.mapa-base')?.setAttribute('viewBox', viewBox);
  }, [viewBox]);

  const provincias = useMemo(() => [...new Set(todos.map((n) => n.provincia))].sort(collator.compare), [todos]);
  const tensiones = useMemo(() => [...new Set(todos.map((n) => n.tensionKv))].sort((a, b) => b - a), [todos]);

  const minimoMw = minimo.trim() === '' ? null : Number(minimo.replace(',', '.'));
  const buscado = plano(texto.trim());
  const visibles = useMemo(() => {
    const filtrados = todos.filter(
      (n) =>
        (!provincia || n.provincia === provincia) &&
        (!tension || n.tensionKv === Number(tension)) &&
        (minimoMw === null || !Number.isFinite(minimoMw) || n.disponibleMw >= minimoMw) &&
        (!buscado || plano(`${n.subestacion} ${n.municipio} ${n.nudo}`).includes(buscado)),
    );
    if (!orden) return filtrados;
    const { clave, asc } = orden;
    return [...filtrados].sort((a, b) => {
      const x = a[clave];
      const y = b[clave];
      const c = typeof x === 'number' && typeof y === 'number' ? x - y : collator.compare(String(x ?? ''), String(y ?? ''));
      return asc ? c : -c;
    });
  }, [todos, provincia, tension, minimoMw, buscado, orden]);

  const radio = (radioPx(anchoPx) * vista[2]) / Math.max(anchoPx, 1);
  const sitios = useMemo(() => repartir(visibles, radio), [visibles, radio]);
  const conCapacidad = visibles.filter((n) => n.disponibleMw > 0).length;
  const hayFiltros = Boolean(provincia || tension || minimo || texto);

  const quitarFiltros = () => {
    setProvincia('');
    setTension('');
    setMinimo('');
    setTexto('');
  };
  const irAFila = (id: string) => {
    setSeleccion(id);
    const fila = document.getElementById(id);
    fila?.focus({ preventScroll: true });
    fila?.scrollIntoView({ block: 'center', behavior: 'smooth' });
  };
  const ordenar = (clave: Clave) => setOrden((o) => (o?.clave === clave ? { clave, asc: !o.asc } : { clave, asc: true }));

  const columnas = COLUMNAS[tipo];
  const deTipo = tipo === 'demanda' ? 'de demanda' : 'de generación';
  let estadoTexto: string;
  if (carga.estado === 'cargando') estadoTexto = `Cargando la capacidad ${deTipo} publicada…`;
  else if (carga.estado === 'error') estadoTexto = `No se ha podido cargar la capacidad ${deTipo} publicada.`;
  else if (!visibles.length) estadoTexto = `Ningún nudo cumple los filtros (hay ${nudosTexto(todos.length)} en total).`;
  else
    estadoTexto =
      `Se ${visibles.length === 1 ? 'muestra' : 'muestran'} ${nudosTexto(visibles.length)}` +
      (visibles.length < todos.length ? ` de ${numero.format(todos.length)}` : '') +
      `; ${numero.format(conCapacidad)} con capacidad ${tipo === 'demanda' ? 'firme disponible para consumo' : 'disponible para generación'}.`;

  return (
    <section className="cn" aria-labelledby={`${uid}-titulo`}>
      <div className="cn-cabecera">
        <h2 id={`${uid}-titulo`}>Nudos de {nombre}</h2>
        <nav className="cn-tipos" aria-label="Tipo de capacidad">
          {TIPOS.map((t) => (
            <a
              key={t.tipo}
              href={t.tipo === 'demanda' ? '?tipo=demanda' : '?'}
              aria-current={tipo === t.tipo ? 'page' : undefined}
              onClick={(e) => {
                e.preventDefault();
                cambiarTipo(t.tipo);
              }}
            >
              {t.texto}
            </a>
          ))}
        </nav>
        <p className="cn-publicacion">
          {carga.estado === 'listo' ? (
            <>
              Capacidad {deTipo}, publicación de <time dateTime={carga.publicacion}>{mesLargo(carga.publicacion)}</time>
            </>
          ) : (
            `Capacidad ${deTipo}, publicación mensual`
          )}
        </p>
        <a className="cn-descarga" href={csv} download>
          Descargar CSV {deTipo}
        </a>
      </div>

      <form className="cn-filtros" role="search" aria-label="Filtrar nudos" onSubmit={(e) => e.preventDefault()}>
        <label>
          <span>Provincia</span>
          <select value={provincia} onChange={(e) => setProvincia(e.target.value)}>
            <option value="">Todas</option>
            {provincias.map((p) => (
              <option key={p}>{p}</option>
            ))}
          </select>
        </label>
        <label>
          <span>Tensión</span>
          <select value={tension} onChange={(e) => setTension(e.target.value)}>
            <option value="">Todas</option>
            {tensiones.map((t) => (
              <option key={t} value={t}>
                {numero.format(t)} kV
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>{tipo === 'demanda' ? 'Disponible firme mínimo (MW)' : 'Disponible mínimo (MW)'}</span>
          <input type="number" inputMode="decimal" min="0" step="any" value={minimo} onChange={(e) => setMinimo(e.target.value)} />
        </label>
        <label>
          <span>Subestación o municipio</span>
          <input type="search" value={texto} onChange={(e) => setTexto(e.target.value)} autoComplete="off" />
        </label>
        <button type="button" className="cn-boton" onClick={quitarFiltros} disabled={!hayFiltros}>
          Quitar filtros
        </button>
      </form>

      <p className="cn-estado" role="status" aria-live="polite">
        {estadoTexto}
      </p>

      <div className="cn-mapa-y-leyenda">
        <figure className="cn-mapa">
          <div className="cn-lienzo" ref={lienzo}>
            {mapa}
            <svg
              className="cn-puntos"
              viewBox={viewBox}
              role="group"
              aria-label={`Mapa de los ${nudosTexto(visibles.length)} mostrados; cada punto lleva a su fila de la tabla`}
            >
              {visibles.map((n) => {
                const sitio = sitios.get(n.id);
                if (!sitio) return null;
                const nombreNudo = `${n.subestacion} ${numero.format(n.tensionKv)} kV (${n.municipio}): ${numero.format(n.disponibleMw)} MW disponibles ${tipo === 'demanda' ? 'para consumo' : 'para generación'}`;
                return (
                  <a
                    key={n.id}
                    href={`#${n.id}`}
                    aria-label={nombreNudo}
                    className={seleccion === n.id ? 'cn-punto cn-punto--activo' : 'cn-punto'}
                    onClick={(e) => {
                      e.preventDefault();
                      irAFila(n.id);
                    }}
                  >
                    <title>{nombreNudo}</title>
                    <circle cx={sitio[0]} cy={sitio[1]} r={radio} fill={n.banda.color} />
                  </a>
                );
              })}
            </svg>
          </div>
          <figcaption>
            <button type="button" className="cn-boton cn-zoom" aria-pressed={verEspana} onClick={() => setVerEspana((v) => !v)}>
              Ver toda España
            </button>
            <span>
              {verEspana
                ? 'Toda España por provincias; Canarias, en el recuadro inferior izquierdo.'
                : `Zona con nudos de ${nombre}${nombre.endsWith('.') ? '' : '.'}`}
            </span>
          </figcaption>
        </figure>
        <div className="cn-leyenda">
          <h3 id={`${uid}-leyenda`}>
            {tipo === 'demanda' ? 'Capacidad firme disponible de demanda' : 'Capacidad disponible de generación'}
          </h3>
          <ul aria-labelledby={`${uid}-leyenda`}>
            {BANDAS.map((b) => (
              <li key={b.id}>
                <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true">
                  <circle cx="8" cy="8" r="6.5" fill={b.color} stroke="#14202b" strokeWidth="1.5" />
                </svg>
                <span>{b.texto}</span>
                {carga.estado === 'listo' && <span className="cn-cuenta">{nudosTexto(visibles.filter((n) => n.banda === b).length)}</span>}
              </li>
            ))}
          </ul>
          <p>Los puntos de una misma subestación (uno por nivel de tensión) se dibujan juntos, alrededor de su ubicación.</p>
        </div>
      </div>

      {/* Outside the scrolling region, so it stays readable when the table scrolls sideways on a phone. */}
      <p className="cn-ayuda" id={`${uid}-tabla`}>
        Capacidad de acceso {deTipo} por nudo{carga.estado === 'listo' ? `, ${mesLargo(carga.publicacion)}` : ''}. Pulse un encabezado para
        ordenar; en pantallas estrechas, desplace la tabla hacia los lados.
      </p>
      <div className="cn-tabla" role="region" aria-labelledby={`${uid}-tabla`} tabIndex={0}>
        <table aria-labelledby={`${uid}-tabla`} aria-busy={carga.estado === 'cargando'}>
          <thead>
            <tr>
              {columnas.map((c) => {
                const activa = orden?.clave === c.clave;
                return (
                  <th
                    key={c.clave}
                    scope="col"
                    className={c.numero ? 'cn-num' : undefined}
                    aria-sort={activa ? (orden.asc ? 'ascending' : 'descending') : undefined}
                  >
                    {c.ordenable === false ? (
                      c.titulo
                    ) : (
                      <button type="button" onClick={() => ordenar(c.clave)}>
                        {c.titulo}
                        <span aria-hidden="true" className="cn-flecha">
                          {activa ? (orden.asc ? '▲' : '▼') : '↕'}
                        </span>
                      </button>
                    )}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {carga.estado === 'error' && (
              <tr>
                <td colSpan={columnas.length}>
                  <div className="cn-aviso" role="alert">
                    <p>
                      No se ha podido cargar la capacidad {deTipo} publicada. {carga.mensaje}
                    </p>
                    <button type="button" className="cn-boton" onClick={() => setIntento((i) => i + 1)}>
                      Reintentar
                    </button>
                  </div>
                </td>
              </tr>
            )}
            {carga.estado === 'cargando' && (
              <tr>
                <td colSpan={columnas.length} className="cn-cargando">
                  Cargando…
                </td>
              </tr>
            )}
            {carga.estado === 'listo' && !visibles.length && (
              <tr>
                <td colSpan={columnas.length}>
                  Ningún nudo cumple los filtros.{' '}
                  <button type="button" className="cn-enlace" onClick={quitarFiltros}>
                    Quitar filtros
                  </button>
                </td>
              </tr>
            )}
            {visibles.map((n) => (
              <tr
                key={n.id}
                id={n.id}
                tabIndex={-1}
                className={seleccion === n.id ? 'cn-fila--activa' : undefined}
                onClick={() => setSeleccion(n.id)}
              >
                <th scope="row">
                  {n.subestacion} <span className="cn-id">{n.nudo}</span>
                </th>
                <td className="cn-num">{numero.format(n.tensionKv)}</td>
                <td className="cn-num">
                  <span className="cn-marca" style={{ background: n.banda.color }} aria-hidden="true" />
                  {numero.format(n.disponibleMw)}
                </td>
                <td className="cn-num">{numero.format(n.ocupadaMw)}</td>
                <td className="cn-num">{numero.format(n.admitidaMw)}</td>
                <td>{n.municipio}</td>
                <td>{n.provincia}</td>
                <td>{n.nudoAfeccionRdt ?? '—'}</td>
                <td className="cn-comentario">
                  {n.marcas.map((m) => (
                    <span key={m} className="cn-etiqueta">
                      {m}
                    </span>
                  ))}
                  {n.comentario ?? ''}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
