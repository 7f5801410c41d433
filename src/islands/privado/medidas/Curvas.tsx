/**
 * /medidas/curvas ("Hourly consumption"): choose a supply point and a day, week, month or
 * custom range (up to two years), then read it as a chart of bars coloured by tariff period or as a
 * table, with the totals per period, the clock-change days labelled, and CSV and Excel downloads.
 * Everything the screen shows is in the address (`?cups&rango&desde&hasta&resolucion&vista`), so a
 * reload, back and forward, or a shared link show the same. The logic lives in
 * src/lib/medidas/pantalla/; this file lays it out.
 */
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { apiFetch } from '../../../lib/api/cliente.ts';
import { nombreCsvDatadis, nombreCsvMedidas } from '../../../lib/medidas/exportacion.ts';
import { diasConMedidas, disponibilidad } from '../../../lib/medidas/pantalla/disponibilidad.ts';
import { capitalizar, cuota, fechaEnPalabras } from '../../../lib/medidas/pantalla/formato.ts';
import {
  cambiarTipo,
  consultaDeEstado,
  desplazarRango,
  diasDelRango,
  errorFecha,
  erroresRango,
  estadoDesdeConsulta,
  motivoRangoDescartado,
  hayAnterior,
  haySiguiente,
  hoyEn,
  NOMBRE_RESOLUCION,
  NOMBRE_TIPO_RANGO,
  nombreDesplazamiento,
  rangoDePreset,
  rangoInicial,
  resolucionEfectiva,
  resolucionesPosibles,
  TIPOS_RANGO,
  tituloRango,
  type Rango,
  type Resolucion,
  type TipoRango,
  type Vista,
} from '../../../lib/medidas/pantalla/rangos.ts';
import { cifrasCurva, filasTotales } from '../../../lib/medidas/pantalla/resumen.ts';
import {
  bandasDiasEspeciales,
  COLOR_TOTAL,
  COLOR_VERTIDA,
  hayEstimadas,
  hayVertida,
  periodosPresentes,
  prepararCurva,
  zonaHorariaDeCurva,
  type Curva,
  type CurvaPreparada,
} from '../../../lib/medidas/pantalla/serie.ts';
import { ResumenErrores } from '../../comunes/formulario/ResumenErrores.tsx';
import { useErrores } from '../../comunes/formulario/usar-errores.ts';
import '../../sesion/sesion.css';
import type { PropsPantalla } from '../AppPrivada.tsx';
import { Cargando, ErrorCarga, SelectorSuministro, SinSuministros, useDetalle, useSuministros, Vacio, type Carga } from './comun.tsx';
import { CampoCalendario, CamposPeriodo, erroresDePeriodo, type DefinicionPeriodo } from './periodo.tsx';
import { useConsultaUrl } from '../usar-consulta.ts';
import { Descargas } from './Descargas.tsx';
import { GraficoCurva } from './GraficoCurva.tsx';
import { TablaCurva } from './TablaCurva.tsx';
import './medidas.css';
import { urlApi } from '../../../lib/api/rutas.ts';

const ID_SUMINISTRO = 'curvas-suministro';
const ID_FECHA = 'curvas-fecha';
/** The custom range's fields. */
const PERIODO: DefinicionPeriodo = {
  tipo: 'date',
  ids: { desde: 'curvas-desde', hasta: 'curvas-hasta' },
  ayudas: ['Primer día, incluido.', 'Último día, incluido (hasta dos años).'],
};

/** Label of the single date of each preset. */
const ETIQUETA_FECHA: Record<Exclude<TipoRango, 'personalizado'>, { etiqueta: string; ayuda: string }> = {
  dia: { etiqueta: 'Día', ayuda: 'Elija el día que quiere ver.' },
  semana: { etiqueta: 'Semana', ayuda: 'Elija cualquier día de la semana (de lunes a domingo).' },
  mes: { etiqueta: 'Mes', ayuda: 'Elija cualquier día del mes.' },
};

/** A group of radio buttons drawn as a segmented control. */
function Segmentos<T extends string>(p: {
  nombre: string;
  leyenda: string;
  opciones: readonly T[];
  textos: Readonly<Record<T, string>>;
  valor: T;
  alCambiar: (v: T) => void;
}) {
  return (
    <fieldset className="med-segmentos">
      <legend>{p.leyenda}</legend>
      <div className="med-segmentos__opciones">
        {p.opciones.map((o) => (
          <label key={o} className="med-segmento">
            <input type="radio" name={p.nombre} value={o} checked={p.valor === o} onChange={() => p.alCambiar(o)} />
            <span>{p.textos[o]}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** The chart's legend: the periods present, estimated, surplus and clock-change days. */
function Leyenda({ prep, conBandas }: { prep: CurvaPreparada; conBandas: boolean }) {
  const periodos = periodosPresentes(prep);
  return (
    <ul className="med-leyenda" aria-label="Leyenda del gráfico">
      {prep.minutos ? (
        periodos.map((p) => (
          <li key={p.periodo}>
            <span className="med-muestra" style={{ background: p.color }} aria-hidden="true"></span>
            {p.nombre.startsWith('Periodo') ? p.nombre : `${p.nombre} (${p.periodo})`}
          </li>
        ))
      ) : (
        <li>
          <span className="med-muestra" style={{ background: COLOR_TOTAL }} aria-hidden="true"></span>
          Consumo {prep.resolucion === 'dia' ? 'de cada día' : 'de cada mes'}
        </li>
      )}
      {hayEstimadas(prep) && (
        <li>
          <span className="med-muestra med-muestra--rayada" aria-hidden="true"></span>
          {prep.minutos ? 'Estimada (rayada)' : 'Con horas estimadas (rayado)'}
        </li>
      )}
      {hayVertida(prep) && (
        <li>
          <span className="med-muestra" style={{ background: COLOR_VERTIDA }} aria-hidden="true"></span>
          Energía vertida (bajo el cero)
        </li>
      )}
      {conBandas && (
        <li>
          <span className="med-muestra med-muestra--dst" aria-hidden="true"></span>
          Día con cambio de hora
        </li>
      )}
    </ul>
  );
}

/** The totals per tariff period. */
function TotalesPeriodo({ curva }: { curva: Curva }) {
  const { filas, total, reactiva } = filasTotales(curva);
  return (
    <div
      className={`med-tabla med-tabla--totales${reactiva ? ' med-tabla--totales-ancha' : ''}`}
      role="region"
      aria-labelledby="med-totales-titulo"
      tabIndex={0}
    >
      <table className={`med-tabla__tabla med-tabla__tabla--estrecha${reactiva ? ' med-tabla__tabla--compacta' : ''}`}>
        <caption id="med-totales-titulo">Consumo por periodo tarifario ({curva.tarifa})</caption>
        <thead>
          <tr>
            <th scope="col">Periodo</th>
            <th scope="col" className="med-num">
              Consumo (kWh)
            </th>
            <th scope="col" className="med-num">
              Porcentaje
            </th>
            {reactiva && (
              <>
                <th scope="col" className="med-num">
                  Reactiva inductiva (kVArh)
                </th>
                <th scope="col" className="med-num">
                  Reactiva capacitiva (kVArh)
                </th>
              </>
            )}
          </tr>
        </thead>
        <tbody>
          {filas.map((f) => (
            <tr key={f.periodo} data-periodo={f.periodo}>
              <th scope="row">
                <span className="med-muestra" style={{ background: f.color }} aria-hidden="true"></span>
                {f.nombre.startsWith('Periodo') ? f.nombre : `${f.nombre} (${f.periodo})`}
              </th>
              <td className="med-num">{f.kwh}</td>
              <td className="med-num">{f.cuota}</td>
              {reactiva && (
                <>
                  <td className="med-num">{f.inductiva}</td>
                  <td className="med-num">{f.capacitiva}</td>
                </>
              )}
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr data-periodo="total">
            <th scope="row">Total</th>
            <td className="med-num">{total}</td>
            <td className="med-num">{curva.totales.importadaWh > 0 ? cuota(1, 1) : '—'}</td>
            {reactiva && (
              <>
                <td className="med-num">{reactiva.inductiva}</td>
                <td className="med-num">{reactiva.capacitiva}</td>
              </>
            )}
          </tr>
        </tfoot>
      </table>
    </div>
  );
}

type EstadoCurva = { clave: string; carga: Carga<Curva>; previa: Curva | null };

/** The hourly consumption screen. */
export default function Curvas({ ruta }: PropsPantalla) {
  const [consulta, cambiarConsulta] = useConsultaUrl();
  const estado = useMemo(() => estadoDesdeConsulta(consulta), [consulta]);
  const [lista, reintentarLista] = useSuministros('curvas');
  const suministros = lista.fase === 'lista' ? lista.datos : null;
  const suministro = suministros ? (suministros.find((s) => s.cups === estado.cups) ?? suministros[0] ?? null) : null;
  const cupsDesconocido = useRef<string | null>(null);
  if (suministros && estado.cups && !suministros.some((s) => s.cups === estado.cups)) cupsDesconocido.current = estado.cups;
  // A range in the address that cannot be shown is said, not dropped in silence; kept until the user picks another.
  const rangoDescartado = useRef<string | null>(motivoRangoDescartado(consulta));
  const [detalle, reintentarDetalle] = useDetalle(suministro?.cups ?? null);
  const hoy = useMemo(() => hoyEn(), []);
  const medidas = detalle?.fase === 'lista' ? detalle.datos.medidas : null;
  const detalleResuelto = detalle !== null && detalle.fase !== 'cargando';
  const ultimoDia = diasConMedidas(medidas)?.ultimo ?? null;
  const rango: Rango | null = useMemo(
    () => (suministro && detalleResuelto ? rangoInicial(estado, ultimoDia, hoy) : null),
    [suministro, detalleResuelto, estado, ultimoDia, hoy],
  );
  const dias = rango ? diasDelRango(rango) : 0;
  const minutosContador = suministro?.contador.resolucionMinutos ?? 60;
  const resolucion = resolucionEfectiva(estado.resolucion, dias, minutosContador);
  const posibles = resolucionesPosibles(dias, minutosContador);

  // The address always says what is shown (after the defaults are chosen), replacing the entry.
  useEffect(() => {
    if (!rango || !suministro) return;
    const q = consultaDeEstado({ ...estado, cups: suministro.cups, tipo: rango.tipo, desde: rango.desde, hasta: rango.hasta });
    if (q !== consulta) cambiarConsulta(q, true);
  }, [rango, suministro, estado, consulta, cambiarConsulta]);

  // The curve.
  const clave = rango && suministro ? `${suministro.cups}|${rango.desde}|${rango.hasta}|${resolucion}` : null;
  const [curva, setCurva] = useState<EstadoCurva | null>(null);
  const [intentoCurva, setIntentoCurva] = useState(0);
  useEffect(() => {
    if (!clave) return;
    const [cups, desde, hasta, res] = clave.split('|') as [string, string, string, string];
    const control = new AbortController();
    setCurva((c) => ({ clave, carga: { fase: 'cargando' }, previa: c?.carga.fase === 'lista' ? c.carga.datos : (c?.previa ?? null) }));
    void apiFetch<Curva>(urlApi('/medidas/curva', { query: { cups, desde, hasta, resolucion: res } }), { signal: control.signal }).then(
      (r) => {
        if (control.signal.aborted) return;
        setCurva({ clave, carga: r.ok ? { fase: 'lista', datos: r.datos } : { fase: 'error', mensaje: r.error.mensaje }, previa: null });
      },
    );
    return () => control.abort();
  }, [clave, intentoCurva]);

  // Loading too in the render between a new range and the effect that asks for it.
  const cargandoCurva = !curva || curva.clave !== clave || curva.carga.fase === 'cargando';
  const datos = curva?.carga.fase === 'lista' ? curva.carga.datos : (curva?.previa ?? null);
  const prep = useMemo(() => (datos ? prepararCurva(datos) : null), [datos]);
  const bandas = useMemo(() => (datos ? bandasDiasEspeciales(datos) : []), [datos]);

  // The date fields: what the user types, reset to the range shown whenever it changes.
  const [borrador, setBorrador] = useState({ fecha: '', desde: '', hasta: '' });
  const f = useErrores();
  useEffect(() => {
    if (!rango) return;
    setBorrador({ fecha: rango.tipo === 'dia' ? rango.desde : rango.hasta, desde: rango.desde, hasta: rango.hasta });
    f.vaciar();
  }, [rango]);

  const ir = (r: Rango, cambios: { resolucion?: Resolucion | null; vista?: Vista; cups?: string } = {}) => {
    rangoDescartado.current = null;
    cambiarConsulta(
      consultaDeEstado({
        cups: cambios.cups ?? suministro?.cups ?? null,
        tipo: r.tipo,
        desde: r.desde,
        hasta: r.hasta,
        resolucion: cambios.resolucion === undefined ? null : cambios.resolucion,
        vista: cambios.vista ?? estado.vista,
      }),
    );
  };

  const aplicarFechas = (ev: FormEvent<HTMLFormElement>) => {
    ev.preventDefault();
    if (!rango) return;
    if (rango.tipo === 'personalizado') {
      if (!f.comprobar(erroresDePeriodo(erroresRango(borrador.desde, borrador.hasta, hoy), PERIODO.ids))) return;
      ir({ tipo: 'personalizado', desde: borrador.desde, hasta: borrador.hasta });
      return;
    }
    const e = errorFecha(borrador.fecha, hoy);
    if (!f.comprobar(e ? [{ campo: ID_FECHA, mensaje: e }] : [])) return;
    ir(rangoDePreset(rango.tipo, borrador.fecha, hoy));
  };

  const titulo = rango ? tituloRango(rango) : '';
  const zona = datos ? zonaHorariaDeCurva(datos) : undefined;
  const explicacion = datos && rango ? disponibilidad({ desde: datos.desde, hasta: datos.hasta }, datos.totales, medidas, zona) : null;
  const datosDeOtroRango =
    datos !== null && rango !== null && (datos.desde !== rango.desde || datos.hasta !== rango.hasta || datos.cups !== suministro?.cups);

  const consultaDescarga =
    rango && suministro
      ? {
          cups: suministro.cups,
          desde: rango.desde,
          hasta: rango.hasta,
          resolucion: resolucion === 'cuartohora' ? 'cuartohora' : 'hora',
        }
      : undefined;
  const nombreCsv = rango && suministro ? nombreCsvMedidas(suministro.cups, rango.desde, rango.hasta) : 'consumos.csv';
  const nombreDatadis = rango && suministro ? nombreCsvDatadis(suministro.cups, rango.desde, rango.hasta) : 'consumos_datadis.csv';

  return (
    <div className="priv-pagina med med--ancha">
      <h1 tabIndex={-1}>{ruta.titulo}</h1>
      <p className="med-intro">Consulte la energía que ha consumido cada hora, por periodos de su tarifa, y descárguela en CSV o Excel.</p>

      {lista.fase === 'cargando' && <Cargando texto="Cargando sus suministros…" />}
      {lista.fase === 'error' && <ErrorCarga que="sus suministros" mensaje={lista.mensaje} reintentar={reintentarLista} />}
      {suministros && suministros.length === 0 && <SinSuministros />}

      {rangoDescartado.current && suministro && (
        <div className="priv-aviso priv-aviso--warning" role="status">
          <p>No podemos mostrar el periodo de la dirección: {rangoDescartado.current} Mostramos los últimos siete días completos.</p>
        </div>
      )}

      {cupsDesconocido.current && suministro && (
        <div className="priv-aviso priv-aviso--warning">
          <p>
            El suministro {cupsDesconocido.current} no está entre los suyos: mostramos el de {suministro.direccion}.
          </p>
        </div>
      )}

      {suministros && suministro && (
        <form className="med-panel med-filtros" noValidate onSubmit={aplicarFechas} aria-label="Suministro y periodo">
          <ResumenErrores titulo="Revise el periodo que quiere consultar:" errores={f.errores} intento={f.intento} />
          <SelectorSuministro
            id={ID_SUMINISTRO}
            suministros={suministros}
            cups={suministro.cups}
            alCambiar={(c) => {
              cupsDesconocido.current = null;
              cambiarConsulta(consultaDeEstado({ ...estado, cups: c, resolucion: null }));
            }}
          />
          {rango && (
            <div className="med-filtros__fila">
              <Segmentos
                nombre="curvas-tipo"
                leyenda="Periodo"
                opciones={TIPOS_RANGO}
                textos={NOMBRE_TIPO_RANGO}
                valor={rango.tipo}
                alCambiar={(t) => ir(cambiarTipo(rango, t, hoy))}
              />
              <div className="med-filtros__fechas">
                {rango.tipo === 'personalizado' ? (
                  <>
                    <CamposPeriodo {...PERIODO} valor={borrador} poner={setBorrador} errorDe={f.errorDe} max={hoy} />
                  </>
                ) : (
                  <CampoCalendario
                    tipo="date"
                    id={ID_FECHA}
                    etiqueta={ETIQUETA_FECHA[rango.tipo].etiqueta}
                    ayuda={ETIQUETA_FECHA[rango.tipo].ayuda}
                    valor={borrador.fecha}
                    alCambiar={(v) => setBorrador((b) => ({ ...b, fecha: v }))}
                    error={f.errorDe(ID_FECHA)}
                    max={hoy}
                  />
                )}
                <button type="submit" className="priv-boton med-filtros__ver">
                  Ver
                </button>
              </div>
            </div>
          )}
        </form>
      )}

      {detalle?.fase === 'error' && <ErrorCarga que="los datos del suministro" mensaje={detalle.mensaje} reintentar={reintentarDetalle} />}
      {suministro && !rango && <Cargando texto="Cargando los datos del suministro…" />}

      {rango && suministro && (
        <section className="med-resultado" aria-labelledby="med-rango-titulo" aria-busy={cargandoCurva}>
          <div className="med-navegacion">
            <button
              type="button"
              className="priv-boton priv-boton--secundario med-navegacion__boton"
              onClick={() => ir(desplazarRango(rango, -1, hoy), { resolucion: estado.resolucion })}
              disabled={!hayAnterior(rango)}
            >
              <span aria-hidden="true">‹ </span>
              {nombreDesplazamiento(rango.tipo, -1)}
            </button>
            <h2 id="med-rango-titulo" className="med-navegacion__titulo">
              {titulo}
            </h2>
            <button
              type="button"
              className="priv-boton priv-boton--secundario med-navegacion__boton"
              onClick={() => ir(desplazarRango(rango, 1, hoy), { resolucion: estado.resolucion })}
              disabled={!haySiguiente(rango, hoy)}
            >
              {nombreDesplazamiento(rango.tipo, 1)}
              <span aria-hidden="true"> ›</span>
            </button>
          </div>

          <p className="visually-hidden" role="status">
            {cargandoCurva
              ? 'Cargando el consumo…'
              : datos && prep
                ? `Consumo de ${titulo.charAt(0).toLowerCase()}${titulo.slice(1)} cargado.`
                : ''}
          </p>

          {curva?.carga.fase === 'error' && (
            <ErrorCarga que="el consumo de este periodo" mensaje={curva.carga.mensaje} reintentar={() => setIntentoCurva((n) => n + 1)} />
          )}
          {cargandoCurva && !datos && <Cargando texto="Cargando el consumo…" />}

          {datos && prep && explicacion && (
            <div className={`med-datos-curva${cargandoCurva || datosDeOtroRango ? ' med-datos-curva--cargando' : ''}`}>
              {cargandoCurva && (
                <p className="med-cargando med-cargando--encima" aria-hidden="true">
                  <span className="priv-cargando__giro"></span>Actualizando…
                </p>
              )}
              {explicacion.tipo !== 'con-datos' ? (
                <Vacio titulo={explicacion.titulo}>
                  <p>{explicacion.texto}</p>
                  {explicacion.tipo === 'pendientes' && ultimoDia && rango.tipo !== 'personalizado' && (
                    <p>
                      <button
                        type="button"
                        className="priv-boton priv-boton--secundario"
                        onClick={() => ir(rangoDePreset(rango.tipo as 'dia', ultimoDia, hoy))}
                      >
                        Ver {rango.tipo === 'dia' ? 'el último día' : rango.tipo === 'semana' ? 'la última semana' : 'el último mes'} con
                        medidas
                      </button>
                    </p>
                  )}
                </Vacio>
              ) : (
                <>
                  <dl className="med-cifras">
                    {cifrasCurva(datos).map((c) => (
                      <div key={c.etiqueta} className="med-cifra">
                        <dt>{c.etiqueta}</dt>
                        <dd>
                          <span className="med-cifra__valor" data-cifra={c.etiqueta}>
                            {c.valor}
                          </span>
                          {c.unidad && <span className="med-cifra__unidad"> {c.unidad}</span>}
                          {c.detalle && <span className="med-cifra__detalle">{c.detalle}</span>}
                        </dd>
                      </div>
                    ))}
                  </dl>

                  {(explicacion.notas.length > 0 || datos.diasEspeciales.length > 0) && (
                    <ul className="med-notas">
                      {datos.diasEspeciales.map((d) => (
                        <li key={d.fecha} className="med-nota med-nota--dst" data-dia-especial={d.fecha}>
                          <svg className="med-nota__reloj" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
                            <circle cx="12" cy="12" r="9.5" fill="none" stroke="currentColor" strokeWidth="2" />
                            <path d="M12 6.5V12l3.5 2.5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
                          </svg>
                          <span>
                            <strong>{capitalizar(fechaEnPalabras(d.fecha))}:</strong> {d.etiqueta}.
                          </span>
                        </li>
                      ))}
                      {explicacion.notas.map((n) => (
                        <li key={n} className="med-nota">
                          <span className="med-nota__icono" aria-hidden="true">
                            i
                          </span>
                          <span>{n}</span>
                        </li>
                      ))}
                    </ul>
                  )}

                  <div className="med-barra">
                    <Segmentos<Vista>
                      nombre="curvas-vista"
                      leyenda="Ver como"
                      opciones={['grafico', 'tabla']}
                      textos={{ grafico: 'Gráfico', tabla: 'Tabla' }}
                      valor={estado.vista}
                      alCambiar={(v) => ir(rango, { vista: v, resolucion: estado.resolucion })}
                    />
                    {posibles.length > 1 && (
                      <Segmentos<Resolucion>
                        nombre="curvas-resolucion"
                        leyenda="Mostrar por"
                        opciones={posibles}
                        textos={NOMBRE_RESOLUCION}
                        valor={resolucion}
                        alCambiar={(r) => ir(rango, { resolucion: r })}
                      />
                    )}
                  </div>

                  {estado.vista === 'grafico' ? (
                    <figure className="med-figura">
                      <GraficoCurva
                        prep={prep}
                        bandas={bandas}
                        descripcion={`Gráfico de barras del consumo por ${NOMBRE_RESOLUCION[resolucion].toLowerCase()}: ${titulo}. Los mismos datos están en la vista de tabla.`}
                      />
                      <figcaption>
                        <Leyenda prep={prep} conBandas={bandas.length > 0} />
                      </figcaption>
                    </figure>
                  ) : (
                    <TablaCurva curva={datos} prep={prep} titulo={titulo} />
                  )}

                  <div className="med-pie">
                    <TotalesPeriodo curva={datos} />
                    <section className="med-panel med-panel--descargas" aria-labelledby="med-descargas-titulo">
                      <h3 id="med-descargas-titulo">Descargar</h3>
                      <p className="med-nota-linea">
                        Cada {resolucion === 'cuartohora' ? 'cuarto de hora' : 'hora'} del periodo en el formato de las distribuidoras
                        (CUPS; Fecha; Hora; Consumo_kWh; Metodo_obtencion), con la energía vertida, el periodo tarifario, el inicio y fin de
                        cada intervalo en hora oficial (ISO 8601), la hora de fin (HH:MM) y, si el contador la mide, la energía reactiva
                        inductiva y capacitiva (kVArh). {resolucion === 'cuartohora' ? 'Los cuartos de hora' : 'Las horas'} sin medida
                        aparecen con el consumo vacío y «sin dato». En Excel, las fechas y horas son fechas de Excel en hora local.
                      </p>
                      <Descargas
                        ficheros={[
                          { texto: 'Descargar CSV', ruta: urlApi('/medidas/curva/csv', { query: consultaDescarga }), nombre: nombreCsv },
                          {
                            texto: 'Descargar Excel',
                            ruta: urlApi('/medidas/curva/xlsx', { query: consultaDescarga }),
                            nombre: nombreCsv.replace(/\.csv$/, '.xlsx'),
                          },
                          {
                            texto: 'CSV formato Datadis',
                            ruta: urlApi('/medidas/curva/csv', { query: { ...consultaDescarga, formato: 'datadis' } }),
                            nombre: nombreDatadis,
                          },
                        ]}
                        nota="«CSV formato Datadis»: las mismas columnas que las descargas de datadis.es (fecha AAAA/MM/DD, hora de fin 01:00–24:00, Real/Estimada), para programas que leen esos ficheros; como en Datadis, solo lleva las horas con medida."
                      />
                    </section>
                  </div>
                </>
              )}
            </div>
          )}
        </section>
      )}
    </div>
  );
}
