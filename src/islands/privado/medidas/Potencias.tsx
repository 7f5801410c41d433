/**
 * /medidas/potencia ("Maximum powers"): per month and power period, the highest power the
 * supply demanded against the contracted one, with every exceedance flagged in words and with an
 * icon (never by colour alone); a chart of grouped bars with the contracted power marked; the same
 * data as a table; and the table as CSV or Excel, written by the API. Supply point and months live in
 * the address.
 */
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { kw, nombreMes, numero } from '../../../lib/medidas/pantalla/formato.ts';
import { hoyEn } from '../../../lib/medidas/pantalla/rangos.ts';
import {
  erroresMeses,
  esMes,
  MAX_MESES,
  mesesEntre,
  mesesPorDefecto,
  modeloPotencias,
  nombreCsvPotencias,
  seriesPotencias,
  type PotenciasRespuesta,
} from '../../../lib/medidas/pantalla/potencias.ts';
import { ResumenErrores } from '../../comunes/formulario/ResumenErrores.tsx';
import { useErrores } from '../../comunes/formulario/usar-errores.ts';
import '../../sesion/sesion.css';
import type { PropsPantalla } from '../AppPrivada.tsx';
import { useConsultaUrl } from '../usar-consulta.ts';
import { Cargando, ErrorCarga, SelectorSuministro, SinSuministros, useSuministros, Vacio } from './comun.tsx';
import { CamposPeriodo, erroresDePeriodo, type DefinicionPeriodo } from './periodo.tsx';
import { Descargas } from './Descargas.tsx';
import { GraficoPotencias } from './GraficoPotencias.tsx';
import { useCargaApi } from './usar-carga.ts';
import './medidas.css';
import { urlApi } from '../../../lib/api/rutas.ts';

/** The months' fields. */
const PERIODO: DefinicionPeriodo = { tipo: 'month', ids: { desde: 'potencias-desde', hasta: 'potencias-hasta' } };

/** The maximum powers screen. */
export default function Potencias({ ruta }: PropsPantalla) {
  const [consulta, cambiarConsulta] = useConsultaUrl();
  const q = useMemo(() => new URLSearchParams(consulta), [consulta]);
  const hoy = useMemo(() => hoyEn(), []);
  const porDefecto = useMemo(() => mesesPorDefecto(hoy), [hoy]);
  const [lista, reintentarLista] = useSuministros('potencias');
  const suministros = lista.fase === 'lista' ? lista.datos : null;
  const cupsUrl = q.get('cups')?.toUpperCase() ?? null;
  const suministro = suministros ? (suministros.find((s) => s.cups === cupsUrl) ?? suministros[0] ?? null) : null;
  const desdeUrl = q.get('desde') ?? '';
  const hastaUrl = q.get('hasta') ?? '';
  const urlValida = esMes(desdeUrl) && esMes(hastaUrl) && erroresMeses(desdeUrl, hastaUrl, hoy).length === 0;
  const desde = urlValida ? desdeUrl : porDefecto.desde;
  const hasta = urlValida ? hastaUrl : porDefecto.hasta;

  // The address says what is shown.
  useEffect(() => {
    if (!suministro) return;
    const nueva = new URLSearchParams({ cups: suministro.cups, desde, hasta }).toString();
    if (nueva !== consulta) cambiarConsulta(nueva, true);
  }, [suministro, desde, hasta, consulta, cambiarConsulta]);

  const [carga, recargar] = useCargaApi<PotenciasRespuesta>(
    suministro ? urlApi('/medidas/potencias', { query: { cups: suministro.cups, desde, hasta } }) : null,
  );

  const datos = carga?.fase === 'lista' ? carga.datos : null;
  const modelo = useMemo(() => (datos ? modeloPotencias(datos, desde, hasta) : null), [datos, desde, hasta]);
  const series = useMemo(() => (modelo ? seriesPotencias(modelo) : null), [modelo]);

  const [borrador, setBorrador] = useState({ desde, hasta });
  const f = useErrores();
  useEffect(() => {
    setBorrador({ desde, hasta });
    f.vaciar();
  }, [desde, hasta]);

  const aplicar = (ev: FormEvent<HTMLFormElement>) => {
    ev.preventDefault();
    if (!f.comprobar(erroresDePeriodo(erroresMeses(borrador.desde, borrador.hasta, hoy), PERIODO.ids))) return;
    if (suministro)
      cambiarConsulta(new URLSearchParams({ cups: suministro.cups, desde: borrador.desde, hasta: borrador.hasta }).toString());
  };

  const consultaDescarga = { cups: datos?.cups ?? '', desde, hasta };
  const numMeses = mesesEntre(desde, hasta).length;
  const tituloRango = desde === hasta ? nombreMes(desde, true) : `De ${nombreMes(desde)} a ${nombreMes(hasta)}`;

  return (
    <div className="priv-pagina med med--ancha">
      <h1 tabIndex={-1}>{ruta.titulo}</h1>
      <p className="med-intro">
        La potencia máxima que ha demandado su suministro cada mes en cada periodo, comparada con la que tiene contratada. Si la supera con
        frecuencia, puede convenirle revisar su potencia contratada con su comercializadora.
      </p>

      {lista.fase === 'cargando' && <Cargando texto="Cargando sus suministros…" />}
      {lista.fase === 'error' && <ErrorCarga que="sus suministros" mensaje={lista.mensaje} reintentar={reintentarLista} />}
      {suministros && suministros.length === 0 && <SinSuministros />}

      {suministros && suministro && (
        <form className="med-panel med-filtros" noValidate onSubmit={aplicar} aria-label="Suministro y meses">
          <ResumenErrores titulo="Revise los meses que quiere consultar:" errores={f.errores} intento={f.intento} />
          <SelectorSuministro
            id="potencias-suministro"
            suministros={suministros}
            cups={suministro.cups}
            alCambiar={(c) => cambiarConsulta(new URLSearchParams({ cups: c, desde, hasta }).toString())}
          />
          <div className="med-filtros__fechas">
            <CamposPeriodo {...PERIODO} valor={borrador} poner={setBorrador} errorDe={f.errorDe} max={hoy.slice(0, 7)} />
            <button type="submit" className="priv-boton med-filtros__ver">
              Ver
            </button>
          </div>
          <p className="med-nota-linea">Hasta {MAX_MESES} meses. Por defecto, los últimos doce meses completos.</p>
        </form>
      )}

      {suministro && (
        <section className="med-resultado" aria-labelledby="pot-titulo" aria-busy={!carga || carga.fase === 'cargando'}>
          <h2 id="pot-titulo" className="med-navegacion__titulo">
            {tituloRango}
          </h2>
          {(!carga || carga.fase === 'cargando') && <Cargando texto="Cargando las potencias máximas…" />}
          {carga?.fase === 'error' && <ErrorCarga que="las potencias máximas" mensaje={carga.mensaje} reintentar={recargar} />}
          {modelo && series && datos && !modelo.hayDatos && (
            <Vacio titulo="No hay potencias máximas de estos meses">
              <p>
                Todavía no hemos recibido medidas de este suministro para {numMeses === 1 ? 'ese mes' : 'esos meses'}. La potencia máxima de
                cada mes se calcula con sus medidas en cuanto llegan.
              </p>
            </Vacio>
          )}
          {modelo && series && datos && modelo.hayDatos && (
            <>
              {modelo.excesos > 0 ? (
                <div className="med-resumen-excesos med-resumen-excesos--si" role="status">
                  <span className="med-icono-aviso" aria-hidden="true">
                    !
                  </span>
                  <p>
                    <strong>
                      Ha superado la potencia contratada {modelo.excesos === 1 ? 'una vez' : `${modelo.excesos} veces`} en estos meses.
                    </strong>{' '}
                    Las marcamos en la tabla con «Supera la contratada».
                  </p>
                </div>
              ) : (
                <div className="med-resumen-excesos" role="status">
                  <span className="med-icono-ok" aria-hidden="true">
                    ✓
                  </span>
                  <p>
                    <strong>No ha superado la potencia contratada en estos meses.</strong>
                  </p>
                </div>
              )}

              <figure className="med-figura">
                <GraficoPotencias
                  modelo={modelo}
                  series={series}
                  descripcion={`Gráfico de barras de las potencias máximas por mes y periodo, ${tituloRango.toLowerCase()}, con la potencia contratada marcada. Los datos están en la tabla siguiente.`}
                />
                <figcaption>
                  <ul className="med-leyenda" aria-label="Leyenda del gráfico">
                    {modelo.periodos.map((p, i) => (
                      <li key={p.periodo}>
                        <span className="med-muestra" style={{ background: p.color }} aria-hidden="true"></span>
                        {p.nombre.startsWith('Periodo') ? p.nombre : `${p.nombre} (${p.periodo})`} · contratada{' '}
                        {kw(modelo.contratadasKw[i] ?? 0)} kW
                      </li>
                    ))}
                    <li>
                      <span className="med-muestra med-muestra--marca" aria-hidden="true"></span>
                      Potencia contratada (marca sobre cada barra)
                    </li>
                    <li>
                      <span className="med-muestra med-muestra--triangulo" aria-hidden="true"></span>
                      Supera la contratada
                    </li>
                  </ul>
                </figcaption>
              </figure>

              <div className="med-tabla" role="region" aria-labelledby="pot-tabla-titulo" tabIndex={0}>
                <table className="med-tabla__tabla med-tabla__tabla--potencias">
                  <caption id="pot-tabla-titulo">Potencia máxima demandada por mes y periodo (kW)</caption>
                  <thead>
                    <tr>
                      <th scope="col" className="med-fija">
                        Mes
                      </th>
                      {modelo.periodos.map((p, i) => (
                        <th key={p.periodo} scope="col">
                          <span className="med-muestra" style={{ background: p.color }} aria-hidden="true"></span>
                          {p.nombre.startsWith('Periodo') ? p.nombre : `${p.nombre} (${p.periodo})`}
                          <span className="med-th-sub">Contratada: {kw(modelo.contratadasKw[i] ?? 0)} kW</span>
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody>
                    {modelo.filas.map((f) => (
                      <tr key={f.mes} className={f.excesos ? 'med-fila--exceso' : undefined}>
                        <th scope="row" className="med-fija">
                          {f.nombre}
                        </th>
                        {f.celdas.map((c, i) =>
                          c ? (
                            <td key={i} className={c.excedida ? 'med-celda--exceso' : undefined}>
                              <span className="med-potencia">{numero(c.potenciaKw, 3)} kW</span>
                              {c.excedida && (
                                <span className="med-exceso">
                                  <span className="med-icono-aviso med-icono-aviso--peque" aria-hidden="true">
                                    !
                                  </span>
                                  Supera la contratada
                                </span>
                              )}
                              <span className="med-cuando">
                                {c.cuando}
                                {c.metodo !== 'real' && ' (estimada con la media horaria)'}
                              </span>
                            </td>
                          ) : (
                            <td key={i} className="med-celda--vacia">
                              <span aria-hidden="true">—</span>
                              <span className="visually-hidden">Sin dato</span>
                            </td>
                          ),
                        )}
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <p className="med-nota-linea">
                «—»: ese mes el periodo no tiene horas (depende de la temporada eléctrica de su tarifa) o aún no hay medidas. Las potencias
                de contadores horarios son la media de la hora; las de contadores cuartohorarios, la del cuarto de hora.
              </p>

              <section className="med-panel med-panel--descargas" aria-labelledby="pot-descargas-titulo">
                <h3 id="pot-descargas-titulo">Descargar</h3>
                <p className="med-nota-linea">
                  Una línea por mes y periodo, con la potencia contratada, si se superó y el momento del máximo (en CSV, ISO 8601 con
                  desfase; en Excel, fecha y hora locales).
                </p>
                <Descargas
                  ficheros={[
                    {
                      texto: 'Descargar CSV',
                      ruta: urlApi('/medidas/potencias/csv', { query: consultaDescarga }),
                      nombre: nombreCsvPotencias(datos.cups, desde, hasta),
                    },
                    {
                      texto: 'Descargar Excel',
                      ruta: urlApi('/medidas/potencias/xlsx', { query: consultaDescarga }),
                      nombre: nombreCsvPotencias(datos.cups, desde, hasta).replace(/\.csv$/, '.xlsx'),
                    },
                  ]}
                />
              </section>
            </>
          )}
        </section>
      )}
    </div>
  );
}
