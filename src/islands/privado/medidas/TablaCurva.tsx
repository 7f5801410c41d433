/**
 * The table view of the consumption: the chart's data as accessible tables. One day: its
 * hours. A longer range: one row per day, whose hours open below it on demand (fetched when the
 * curve holds day sums), in blocks of days so two years stay light. Month sums: a row per month.
 */
import { useMemo, useState } from 'react';
import { apiFetch } from '../../../lib/api/cliente.ts';
import { horasDelDia } from '../../../lib/medidas/horas.ts';
import { capitalizar, fechaEnPalabras, kwh, numero } from '../../../lib/medidas/pantalla/formato.ts';
import { prepararCurva, type Curva, type CurvaPreparada } from '../../../lib/medidas/pantalla/serie.ts';
import { DIAS_POR_BLOQUE, filasIntervalo, modeloTabla, type FilaDia, type FilaIntervalo } from '../../../lib/medidas/pantalla/tabla.ts';
import { Cargando } from './comun.tsx';
import { urlApi } from '../../../lib/api/rutas.ts';

const kwhCelda = (v: number) => kwh(v * 1000);

/** The energy columns' headings: consumed and, where there is self-consumption, surplus. */
function CabecerasEnergia({ conVertida }: { conVertida: boolean }) {
  return (
    <>
      <th scope="col" className="med-num">
        Consumo (kWh)
      </th>
      {conVertida && (
        <th scope="col" className="med-num">
          Vertida (kWh)
        </th>
      )}
    </>
  );
}

/** A row's energy cells, under `CabecerasEnergia`; a surplus not measured is "—". */
function CeldasEnergia({ fila, conVertida }: { fila: { importadaKwh: number; vertidaKwh: number | null }; conVertida: boolean }) {
  return (
    <>
      <td className="med-num">{kwhCelda(fila.importadaKwh)}</td>
      {conVertida && <td className="med-num">{fila.vertidaKwh === null ? '—' : kwhCelda(fila.vertidaKwh)}</td>}
    </>
  );
}

/** The hours (or quarter-hours) of one day. */
function TablaIntervalos(p: { titulo: string; filas: FilaIntervalo[]; conVertida: boolean; cuartos: boolean; especial: string | null }) {
  return (
    <table className="med-tabla__tabla">
      <caption>
        {p.titulo}
        {p.especial && <span className="med-etiqueta-dst">{p.especial}</span>}
      </caption>
      <thead>
        <tr>
          <th scope="col">{p.cuartos ? 'Cuarto de hora' : 'Hora'}</th>
          <CabecerasEnergia conVertida={p.conVertida} />
          <th scope="col">Periodo</th>
          <th scope="col">Medida</th>
        </tr>
      </thead>
      <tbody>
        {p.filas.map((f) => (
          <tr key={f.inicio} className={f.estimada ? 'med-fila--estimada' : undefined}>
            <th scope="row" className="med-nowrap">
              {f.franja}
            </th>
            <CeldasEnergia fila={f} conVertida={p.conVertida} />
            <td>{f.periodo ?? '—'}</td>
            <td>{f.estimada ? 'Estimada' : 'Real'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

type Horas = { fase: 'cargando' } | { fase: 'lista'; filas: FilaIntervalo[] } | { fase: 'error'; mensaje: string };

/** One day row and, when open, its hours below it. */
function FilaDeDia(p: { d: FilaDia; cups: string; prep: CurvaPreparada; conVertida: boolean; columnas: number; sumas: boolean }) {
  const [abierta, setAbierta] = useState(false);
  const [horas, setHoras] = useState<Horas | null>(null);
  const id = `med-horas-${p.d.fecha}`;
  const delDia = horasDelDia(p.d.fecha, p.prep.zona);
  const cuartos = p.prep.minutos === 15;

  const alternar = () => {
    const abrir = !abierta;
    setAbierta(abrir);
    if (!abrir || p.d.intervalosDelDia || horas?.fase === 'lista' || horas?.fase === 'cargando') return;
    setHoras({ fase: 'cargando' });
    const query = { cups: p.cups, desde: p.d.fecha, hasta: p.d.fecha, resolucion: 'hora' };
    void apiFetch<Curva>(urlApi('/medidas/curva', { query })).then((r) => {
      setHoras(r.ok ? { fase: 'lista', filas: filasIntervalo(prepararCurva(r.datos)) } : { fase: 'error', mensaje: r.error.mensaje });
    });
  };

  const filas = p.d.intervalosDelDia ?? (horas?.fase === 'lista' ? horas.filas : null);
  const unidad = cuartos ? 'cuartos de hora' : 'horas';
  return (
    <>
      <tr className={p.d.especial ? 'med-fila--dst' : undefined}>
        <th scope="row">
          <span className="med-nowrap">{p.d.breve}</span>
          {p.d.especial && <span className="med-etiqueta-dst med-etiqueta-dst--fila">{delDia} horas</span>}
        </th>
        <CeldasEnergia fila={p.d} conVertida={p.conVertida} />
        {p.sumas ? (
          <td>{p.d.estimadas > 0 ? 'Con horas estimadas' : 'Real'}</td>
        ) : (
          <td className="med-num">
            {numero(p.d.intervalos ?? 0)} de {numero(cuartos ? delDia * 4 : delDia)}
            {p.d.estimadas > 0 && (
              <span className="med-sub">{p.d.estimadas === 1 ? '1 estimada' : `${numero(p.d.estimadas)} estimadas`}</span>
            )}
          </td>
        )}
        <td>
          <button
            type="button"
            className="med-boton-fila"
            aria-expanded={abierta}
            aria-controls={abierta ? id : undefined}
            onClick={alternar}
          >
            {/* One name whether open or not: aria-expanded says which. */}
            {capitalizar(unidad)}
            <span className="visually-hidden"> del {p.d.larga}</span>
            <span className="med-chevron" aria-hidden="true"></span>
          </button>
        </td>
      </tr>
      {abierta && (
        <tr id={id} className="med-fila-horas">
          <td colSpan={p.columnas}>
            {filas ? (
              <TablaIntervalos
                titulo={`${capitalizar(unidad)} del ${p.d.larga.charAt(0).toLowerCase()}${p.d.larga.slice(1)}`}
                filas={filas}
                conVertida={p.conVertida}
                cuartos={cuartos}
                especial={p.d.especial}
              />
            ) : horas?.fase === 'error' ? (
              <p className="med-error-linea" role="alert">
                No hemos podido cargar las horas de este día: {horas.mensaje}
              </p>
            ) : (
              <Cargando texto="Cargando las horas del día…" />
            )}
          </td>
        </tr>
      )}
    </>
  );
}

/** Props of `TablaCurva`. */
export interface TablaCurvaProps {
  curva: Curva;
  prep: CurvaPreparada;
  /** Heading of the range, for the caption. */
  titulo: string;
}

/** The table view. */
export function TablaCurva({ curva, prep, titulo }: TablaCurvaProps) {
  const modelo = useMemo(() => modeloTabla(curva, prep), [curva, prep]);
  const [mostrados, setMostrados] = useState(DIAS_POR_BLOQUE);
  const conVertida = prep.vertidaKwh !== null;
  const idTitulo = 'med-tabla-titulo';

  if (modelo.tipo === 'intervalos') {
    return (
      <div className="med-tabla" role="region" aria-labelledby={idTitulo} tabIndex={0}>
        <span id={idTitulo} className="visually-hidden">
          Tabla de consumo por {prep.minutos === 15 ? 'cuartos de hora' : 'horas'}
        </span>
        <TablaIntervalos
          titulo={`Consumo por ${prep.minutos === 15 ? 'cuartos de hora' : 'horas'}: ${capitalizar(fechaEnPalabras(modelo.fecha))}`}
          filas={modelo.filas}
          conVertida={conVertida}
          cuartos={prep.minutos === 15}
          especial={modelo.especial}
        />
      </div>
    );
  }

  if (modelo.tipo === 'meses') {
    return (
      <div className="med-tabla" role="region" aria-labelledby={idTitulo} tabIndex={0}>
        <table className="med-tabla__tabla">
          <caption id={idTitulo}>Consumo por meses: {titulo}</caption>
          <thead>
            <tr>
              <th scope="col">Mes</th>
              <CabecerasEnergia conVertida={conVertida} />
              <th scope="col">Medida</th>
            </tr>
          </thead>
          <tbody>
            {modelo.meses.map((m) => (
              <tr key={m.mes}>
                <th scope="row">{m.nombre}</th>
                <CeldasEnergia fila={m} conVertida={conVertida} />
                <td>{m.conEstimadas ? 'Con horas estimadas' : 'Real'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    );
  }

  const sumas = prep.minutos === null;
  const columnas = 2 + (conVertida ? 1 : 0) + 1 + 1;
  const visibles = modelo.dias.slice(0, mostrados);
  const quedan = modelo.dias.length - visibles.length;
  return (
    <>
      <div className="med-tabla" role="region" aria-labelledby={idTitulo} tabIndex={0}>
        <table className="med-tabla__tabla">
          <caption id={idTitulo}>Consumo por días: {titulo}</caption>
          <thead>
            <tr>
              <th scope="col">Día</th>
              <CabecerasEnergia conVertida={conVertida} />
              {sumas ? (
                <th scope="col">Medida</th>
              ) : (
                <th scope="col" className="med-num">
                  {prep.minutos === 15 ? 'Cuartos con medida' : 'Horas con medida'}
                </th>
              )}
              <th scope="col">Detalle</th>
            </tr>
          </thead>
          <tbody>
            {visibles.map((d) => (
              <FilaDeDia key={d.fecha} d={d} cups={curva.cups} prep={prep} conVertida={conVertida} columnas={columnas} sumas={sumas} />
            ))}
          </tbody>
        </table>
      </div>
      {quedan > 0 && (
        <p className="med-mas">
          <button type="button" className="priv-boton priv-boton--secundario" onClick={() => setMostrados((n) => n + DIAS_POR_BLOQUE)}>
            Mostrar {numero(Math.min(quedan, DIAS_POR_BLOQUE))} días más
          </button>{' '}
          <span className="med-nota-linea">
            Se muestran {numero(visibles.length)} de {numero(modelo.dias.length)} días.
          </span>
        </p>
      )}
    </>
  );
}
