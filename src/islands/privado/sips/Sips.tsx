/**
 * /comercializadora/sips: for each distributor the company may read (`<d>-comercializadora`), the
 * monthly SIPS files to download (PS and consumption, in the v2 and SIPS2026 layouts, with rows,
 * size and SHA-256), and the query by CUPS: paste up to 1,000, see the rows, download them as CSV
 * in either layout, with each CUPS that has no answer listed with its reason (docs/sector.md §3).
 */
import { useStore } from '@nanostores/react';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { apiFetch, mensajesDeError } from '../../../lib/api/cliente.ts';
import { DISTRIBUIDORAS } from '../../../lib/distribuidoras.ts';
import { numero } from '../../../lib/formato/numeros.ts';
import { guardarBlob, tamanoLegible } from '../../../lib/medidas/pantalla/descarga.ts';
import { $permisos } from '../../../lib/sesion/index.ts';
import type { TipoFicheroSips, VersionSips } from '../../../lib/sips/columnas.ts';
import {
  COLUMNAS_RESUMEN_CONSUMOS,
  COLUMNAS_RESUMEN_PS,
  type ColumnaResumen,
  csvDeTabla,
  cupsDelTexto,
  distribuidorasSips,
  errorListaCups,
  ficherosPorMes,
  nombreCsvConsulta,
  TEXTO_TIPO,
  TEXTO_VERSION,
} from '../../../lib/sips/pantalla.ts';
import type { FicheroSipsRespuesta, ResultadoConsultaSips } from '../../../lib/sips/respuestas.ts';
import type { ErrorCampo } from '../../comunes/formulario/errores.ts';
import { ResumenErrores } from '../../comunes/formulario/ResumenErrores.tsx';
import type { PropsPantalla } from '../AppPrivada.tsx';
import { Cargando, ErrorCarga, Vacio, type Carga } from '../medidas/comun.tsx';
import { Descargas } from '../medidas/Descargas.tsx';
import '../medidas/medidas.css';
import './sips.css';
import { urlApi } from '../../../lib/api/rutas.ts';

/** Rows of the query shown on screen; the CSV carries them all. */
const FILAS_EN_PANTALLA = 50;

/** The files of a distributor (GET /api/sips/{d}), with a reload. */
export function useFicherosSips(distribuidora: string): [Carga<FicheroSipsRespuesta[]>, () => void] {
  const [carga, setCarga] = useState<Carga<FicheroSipsRespuesta[]>>({ fase: 'cargando' });
  const [intento, setIntento] = useState(0);
  useEffect(() => {
    const control = new AbortController();
    setCarga({ fase: 'cargando' });
    void apiFetch<FicheroSipsRespuesta[]>(urlApi('/sips/{distribuidora}', { path: { distribuidora } }), { signal: control.signal }).then(
      (r) => {
        if (control.signal.aborted) return;
        setCarga(r.ok ? { fase: 'lista', datos: r.datos } : { fase: 'error', mensaje: r.error.mensaje });
      },
    );
    return () => control.abort();
  }, [distribuidora, intento]);
  return [carga, () => setIntento((n) => n + 1)];
}

/** The monthly files of a distributor, a card per month. */
export function FicherosSips({ distribuidora }: { distribuidora: string }) {
  const [carga, reintentar] = useFicherosSips(distribuidora);
  if (carga.fase === 'cargando') return <Cargando texto="Cargando los ficheros…" />;
  if (carga.fase === 'error') return <ErrorCarga que="los ficheros SIPS" mensaje={carga.mensaje} reintentar={reintentar} />;
  const meses = ficherosPorMes(carga.datos);
  if (meses.length === 0) {
    return (
      <Vacio titulo="Todavía no hay ficheros" nivel="h3">
        Los ficheros de cada mes se generan el día 1. Vuelva más adelante.
      </Vacio>
    );
  }
  return (
    <ul className="sips-meses">
      {meses.map((m) => (
        <li key={m.mes} className="med-tarjeta" aria-labelledby={`sips-mes-${distribuidora}-${m.mes}`}>
          <h3 id={`sips-mes-${distribuidora}-${m.mes}`} className="med-tarjeta__titulo sips-mes__titulo">
            {m.titulo}
          </h3>
          <div
            className="sips-tabla-envoltorio"
            tabIndex={0}
            role="group"
            aria-label={`Ficheros SIPS de ${m.enFrase} (${distribuidora.toUpperCase()})`}
          >
            <table className="sips-tabla sips-tabla--apilable">
              <caption className="visually-hidden">Ficheros SIPS de {m.enFrase}</caption>
              <thead>
                <tr>
                  <th scope="col">Fichero</th>
                  <th scope="col">Contenido</th>
                  <th scope="col" className="sips-num">
                    Filas
                  </th>
                  <th scope="col" className="sips-num">
                    Descarga
                  </th>
                  <th scope="col">SHA-256 del CSV</th>
                </tr>
              </thead>
              <tbody>
                {m.ficheros.map((f) => (
                  <tr key={f.nombre}>
                    <th scope="row" className="sips-nombre">
                      {f.nombre}
                    </th>
                    <td data-etiqueta="Contenido">
                      {TEXTO_TIPO[f.tipo]}
                      <span className="med-sub">{TEXTO_VERSION[f.version]}</span>
                    </td>
                    <td className="sips-num" data-etiqueta="Filas">
                      {numero(f.filas)}
                    </td>
                    <td className="sips-num" data-etiqueta="Descarga">
                      {tamanoLegible(f.bytesGzip)}
                    </td>
                    <td data-etiqueta="SHA-256 del CSV">
                      <code className="sips-huella" title={f.sha256}>
                        {f.sha256.slice(0, 16)}…
                      </code>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Descargas
            ficheros={m.ficheros.map((f) => ({
              texto: `${TEXTO_TIPO[f.tipo]}, ${f.version === 'v2' ? 'v2' : 'SIPS2026'}`,
              ruta: urlApi('/sips/{distribuidora}/{fichero}', { path: { distribuidora, fichero: f.nombre } }),
              nombre: `${f.nombre}.gz`,
            }))}
            nota="Los ficheros se descargan comprimidos con gzip (.csv.gz), en UTF-8 y separados por comas, como los publica la CNMC."
          />
        </li>
      ))}
    </ul>
  );
}

/** A table of some columns of a query's rows; the first column names the row. */
function TablaConsulta({ r, columnas, titulo }: { r: ResultadoConsultaSips; columnas: readonly ColumnaResumen[]; titulo: string }) {
  const indices = columnas.map((c) => r.columnas.indexOf(c.columna));
  return (
    <div className="sips-tabla-envoltorio" tabIndex={0} role="group" aria-label={titulo}>
      <table className="sips-tabla sips-tabla--apilable">
        <caption>
          {titulo}
          {r.filas.length > FILAS_EN_PANTALLA &&
            ` (se muestran las ${FILAS_EN_PANTALLA} primeras filas de ${numero(r.filas.length)}; el CSV las lleva todas)`}
        </caption>
        <thead>
          <tr>
            {columnas.map((c) => (
              <th key={c.columna} scope="col">
                {c.titulo}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {r.filas.slice(0, FILAS_EN_PANTALLA).map((f, n) => (
            <tr key={n}>
              {indices.map((i, k) =>
                k === 0 ? (
                  <th key={k} scope="row" className="med-cups">
                    {f[i]}
                  </th>
                ) : (
                  <td key={k} data-etiqueta={columnas[k]!.titulo}>
                    {f[i] || '—'}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The query by CUPS of one distributor: the supply points first, their consumption on request. */
function ConsultaCups({ distribuidora }: { distribuidora: string }) {
  const id = useId();
  const idCampo = `${id}-cups`;
  const [texto, setTexto] = useState('');
  const [formato, setFormato] = useState<VersionSips>('sips2026');
  const [errores, setErrores] = useState<ErrorCampo[]>([]);
  const [intento, setIntento] = useState(0);
  const [enviando, setEnviando] = useState(false);
  const [ps, setPs] = useState<ResultadoConsultaSips | null>(null);
  const [consumos, setConsumos] = useState<Carga<ResultadoConsultaSips> | null>(null);

  const pedir = (tipo: TipoFicheroSips, cups: string[], version: VersionSips) =>
    apiFetch<ResultadoConsultaSips>(urlApi('/sips/{distribuidora}/consulta', { path: { distribuidora } }), {
      method: 'POST',
      json: { cups, formato: version, tipo },
    });

  const consultar = async (ev: FormEvent<HTMLFormElement>) => {
    ev.preventDefault();
    if (enviando) return;
    // A new query replaces the last one's answer at once: rows of another list must never stay on screen.
    setPs(null);
    setConsumos(null);
    const lista = cupsDelTexto(texto);
    const error = errorListaCups(lista);
    if (error) {
      setErrores([{ campo: idCampo, mensaje: error }]);
      setIntento((n) => n + 1);
      return;
    }
    setErrores([]);
    setEnviando(true);
    const r = await pedir('PS_ELECTRICIDAD', lista, formato);
    setEnviando(false);
    if (r.ok) {
      setPs(r.datos);
      return;
    }
    setErrores(mensajesDeError(r.error).map((mensaje) => ({ campo: idCampo, mensaje })));
    setIntento((n) => n + 1);
  };

  const verConsumos = async () => {
    if (!ps || consumos?.fase === 'cargando') return;
    setConsumos({ fase: 'cargando' });
    const cups = ps.filas.map((f) => f[ps.columnas.indexOf('cups')]!);
    const r = await pedir('CONSUMOS_ELECTRICIDAD', cups, ps.formato);
    setConsumos(r.ok ? { fase: 'lista', datos: r.datos } : { fase: 'error', mensaje: r.error.mensaje });
  };

  const bajar = (r: ResultadoConsultaSips) =>
    guardarBlob(new Blob([csvDeTabla(r)], { type: 'text/csv;charset=utf-8' }), nombreCsvConsulta(distribuidora, r.tipo, r.formato));

  const errorCampo = errores[0]?.mensaje;
  return (
    <section id="sips-consulta" className="med-panel sips-consulta" aria-labelledby={`${id}-titulo`}>
      <h2 id={`${id}-titulo`}>Consulta por CUPS</h2>
      <form noValidate onSubmit={(e) => void consultar(e)}>
        <ResumenErrores titulo="No hemos podido hacer la consulta:" errores={errores} intento={intento} />
        <div className={`med-campo${errorCampo ? ' med-campo--error' : ''}`}>
          <label htmlFor={idCampo}>CUPS que quiere consultar</label>
          <p id={`${idCampo}-ayuda`} className="med-campo__ayuda">
            Uno por línea, hasta 1.000. Puede pegarlos desde una hoja de cálculo.
          </p>
          {errorCampo && (
            <p id={`${idCampo}-error`} className="med-campo__error">
              <span className="visually-hidden">Error: </span>
              {errorCampo}
            </p>
          )}
          <textarea
            id={idCampo}
            className="sips-cups"
            rows={6}
            value={texto}
            spellCheck={false}
            autoCapitalize="characters"
            aria-describedby={`${idCampo}-ayuda${errorCampo ? ` ${idCampo}-error` : ''}`}
            aria-invalid={errorCampo ? true : undefined}
            onChange={(e) => setTexto(e.target.value)}
          />
        </div>
        <fieldset className="sips-formato">
          <legend>Formato de las filas</legend>
          {(['sips2026', 'v2'] as const).map((v) => (
            <label key={v} className="sips-formato__opcion">
              <input type="radio" name={`${id}-formato`} value={v} checked={formato === v} onChange={() => setFormato(v)} />
              {TEXTO_VERSION[v]}
            </label>
          ))}
        </fieldset>
        <button type="submit" className="priv-boton" aria-disabled={enviando || undefined}>
          {enviando ? 'Consultando…' : 'Consultar'}
        </button>
      </form>

      {ps && (
        <div className="sips-resultado">
          <p role="status">
            {ps.filas.length === 1 ? 'Un suministro encontrado' : `${numero(ps.filas.length)} suministros encontrados`}
            {ps.rechazados.length > 0 && ` y ${numero(ps.rechazados.length)} CUPS sin respuesta`}.
          </p>
          {ps.rechazados.length > 0 && (
            <div className="sips-rechazados">
              <h3>CUPS sin respuesta</h3>
              <ul>
                {ps.rechazados.map((r) => (
                  <li key={`${r.linea}-${r.cups}`}>
                    Línea {r.linea}: <span className="med-cups">{r.cups}</span>. {r.motivo}
                  </li>
                ))}
              </ul>
            </div>
          )}
          {ps.filas.length > 0 && (
            <>
              <TablaConsulta r={ps} columnas={COLUMNAS_RESUMEN_PS} titulo="Suministros encontrados" />
              <div className="sips-botones">
                <button type="button" className="priv-boton priv-boton--secundario" onClick={() => bajar(ps)}>
                  Descargar los suministros en CSV
                </button>
                {consumos?.fase !== 'lista' && (
                  <button
                    type="button"
                    className="priv-boton priv-boton--secundario"
                    onClick={() => void verConsumos()}
                    aria-disabled={consumos?.fase === 'cargando' || undefined}
                  >
                    {consumos?.fase === 'cargando' ? 'Cargando los consumos…' : 'Ver los consumos de 24 meses'}
                  </button>
                )}
              </div>
              {consumos?.fase === 'error' && <p className="med-campo__error">No se han podido cargar los consumos: {consumos.mensaje}</p>}
              {consumos?.fase === 'lista' &&
                (consumos.datos.filas.length === 0 ? (
                  <p role="status">Estos suministros no tienen consumos medidos en los 24 meses anteriores.</p>
                ) : (
                  <>
                    <TablaConsulta r={consumos.datos} columnas={COLUMNAS_RESUMEN_CONSUMOS} titulo="Consumos por mes" />
                    <div className="sips-botones">
                      <button type="button" className="priv-boton priv-boton--secundario" onClick={() => bajar(consumos.datos)}>
                        Descargar los consumos en CSV
                      </button>
                    </div>
                  </>
                ))}
            </>
          )}
        </div>
      )}
    </section>
  );
}

/** The SIPS screen of supply companies. */
export default function Sips({ ruta }: PropsPantalla) {
  const permisos = useStore($permisos);
  const distribuidoras = distribuidorasSips(permisos, 'comercializadora');
  const [elegida, setElegida] = useState<string | null>(null);
  const actual = elegida && distribuidoras.includes(elegida as never) ? elegida : (distribuidoras[0] ?? null);
  const nombre = (codigo: string) => DISTRIBUIDORAS.find((d) => d.codigo === codigo)!.nombre;
  return (
    <div className="priv-pagina med med--ancha">
      <h1 tabIndex={-1}>{ruta.titulo}</h1>
      <p className="med-intro">
        El Sistema de Información de Puntos de Suministro (SIPS) de cada distribuidora: los datos técnicos y de contrato de sus suministros
        y sus consumos de los últimos 24 meses, en los formatos de la CNMC. Cada descarga y cada consulta quedan registradas.
      </p>
      {distribuidoras.length > 1 && (
        <div className="med-campo sips-distribuidora">
          <label htmlFor="sips-distribuidora">Distribuidora</label>
          <select id="sips-distribuidora" value={actual ?? ''} onChange={(e) => setElegida(e.target.value)}>
            {distribuidoras.map((d) => (
              <option key={d} value={d}>
                {nombre(d)}
              </option>
            ))}
          </select>
        </div>
      )}
      {actual && (
        <>
          <nav className="sips-indice" aria-label="En esta página">
            <a href="#sips-consulta">Consulta por CUPS</a>
            <a href="#sips-ficheros">Ficheros mensuales</a>
          </nav>
          {/* The query first: it is what a company comes to do; twelve months of files follow. */}
          <ConsultaCups key={`consulta-${actual}`} distribuidora={actual} />
          <section id="sips-ficheros" aria-labelledby="sips-ficheros-titulo">
            <h2 id="sips-ficheros-titulo">Ficheros mensuales de {nombre(actual)}</h2>
            <FicherosSips key={actual} distribuidora={actual} />
          </section>
        </>
      )}
    </div>
  );
}
