/**
 * The latest register readings of a meter, in kWh accumulated per period, with the consumption
 * between one and the one before: the holder's «Estado del contador» and the staff's meter screen.
 */
import { textoOrigenLectura, type VistaLectura } from '../../../lib/lecturas/estado-contador.ts';
import { fechaTabla } from '../../../lib/lecturas/pantalla.ts';
import type { LecturaRegistro } from '../../../lib/lecturas/respuestas.ts';
import { numero } from '../../../lib/medidas/pantalla/formato.ts';
import './lecturas.css';
import './medidas.css';

/** The latest register readings of a supply point, as its holder or the distributor's staff read them. */
export function TablaLecturas({ cups, lecturas, vista }: { cups: string; lecturas: readonly LecturaRegistro[]; vista: VistaLectura }) {
  const id = `lect-registros-${cups}`;
  if (lecturas.length === 0) return <p className="med-nota-linea">Todavía no tenemos lecturas de este contador.</p>;
  const periodos = lecturas[0]!.periodos;
  const conVertida = lecturas.some((l) => l.exportadaKwh !== null);
  return (
    <div className="lect-registros">
      <h3 id={`${id}-titulo`}>Últimas lecturas del contador</h3>
      <p className="med-nota-linea">
        Lo que marcan sus registros, en kWh acumulados por periodo, y lo consumido entre una lectura y la anterior.
      </p>
      <div className="med-tabla" role="region" aria-labelledby={`${id}-titulo`} tabIndex={0}>
        <table className="med-tabla__tabla med-tabla__tabla--compacta">
          <caption id={id} className="visually-hidden">
            Últimas lecturas del contador (kWh acumulados por periodo)
          </caption>
          <thead>
            <tr>
              <th scope="col">Fecha</th>
              <th scope="col">Origen</th>
              {periodos.map((p) => (
                <th key={p.periodo} scope="col" className="med-num">
                  {/* Six periods and two more columns fit the screen by their short names (P1…P6); a screen reader hears the whole. */}
                  <span aria-hidden="true">{p.periodo}</span>
                  <span className="visually-hidden">{p.nombre.startsWith('Periodo') ? p.nombre : `${p.nombre} (${p.periodo})`}</span>
                </th>
              ))}
              {conVertida && (
                <th scope="col" className="med-num">
                  Vertida
                </th>
              )}
              <th scope="col" className="med-num">
                Consumo desde la anterior
              </th>
            </tr>
          </thead>
          <tbody>
            {lecturas.map((l) => (
              <tr key={l.momento}>
                <th scope="row" className="med-nowrap">
                  <time dateTime={l.fecha}>{fechaTabla(l.fecha)}</time>
                </th>
                <td>{textoOrigenLectura(l, vista)}</td>
                {l.periodos.map((p) => (
                  <td key={p.periodo} className="med-num">
                    {numero(p.kwh)}
                  </td>
                ))}
                {conVertida && <td className="med-num">{l.exportadaKwh === null ? '—' : numero(l.exportadaKwh)}</td>}
                <td className="med-num">
                  {l.consumoKwh === null ? <span className="visually-hidden">Sin lectura anterior</span> : `${numero(l.consumoKwh)} kWh`}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
