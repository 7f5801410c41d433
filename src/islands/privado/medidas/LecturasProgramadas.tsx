/**
 * /medidas/lecturas-programadas ("Scheduled readings"): the reading dates of the user's
 * supply points for the next twelve months, as a month calendar (an accessible table, days with
 * readings marked in words) and as a list per supply point, and the same dates as an iCalendar file
 * to import into any calendar or to subscribe to (SuscripcionCalendario.tsx). The month shown lives in the address (`?mes=`), so
 * reload and back
 * keep it; moving between months is no change of screen, so focus stays on the button pressed.
 */
import { useMemo } from 'react';
import { cuantasLecturas, rutaCalendario, textoCiclo, textoModoLectura, type Programa } from '../../../lib/lecturas/pantalla.ts';
import {
  DIAS_SEMANA,
  mesCalendario,
  mesesNavegables,
  mesInicial,
  proximaLectura,
  sumarMes,
  type DiaCalendario,
} from '../../../lib/lecturas/mes.ts';
import { NOMBRE_TIPO_LECTURA, nombreFicheroCalendario, textoPlazoAutolectura } from '../../../lib/lecturas/textos.ts';
import { capitalizar, fechaEnPalabras, nombreMes, rangoEnPalabras } from '../../../lib/medidas/pantalla/formato.ts';
import type { PropsPantalla } from '../AppPrivada.tsx';
import { useConsultaUrl } from '../usar-consulta.ts';
import { Cargando, Cups, ErrorCarga, SinSuministros } from './comun.tsx';
import { Descargas } from './Descargas.tsx';
import { SuscripcionCalendario } from './SuscripcionCalendario.tsx';
import { useCargaApi } from './usar-carga.ts';
import { Dato } from '../../comunes/Dato.tsx';
import './lecturas.css';
import './medidas.css';
import { urlApi } from '../../../lib/api/rutas.ts';

/** The visible word of a mark: whole on wide screens, its initial on a phone (the legend says both). */
function Marca({ largo, corto }: { largo: string; corto: string }) {
  return (
    <span aria-hidden="true">
      <span className="lect-marca__largo">{largo}</span>
      <span className="lect-marca__corto">{corto}</span>
    </span>
  );
}

/** One cell of the month grid: the day's number, its readings and self-reading windows, in words. */
function Celda({ d }: { d: DiaCalendario | null }) {
  if (!d) return <td className="lect-dia lect-dia--fuera" />;
  const clases = [
    'lect-dia',
    d.lecturas.length ? 'lect-dia--lectura' : '',
    d.autolecturas.length ? 'lect-dia--plazo' : '',
    d.esHoy ? 'lect-dia--hoy' : '',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <td className={clases} aria-current={d.esHoy ? 'date' : undefined}>
      <span className="lect-dia__numero">
        <span className="visually-hidden">{fechaEnPalabras(d.fecha)}</span>
        <span aria-hidden="true">{d.dia}</span>
      </span>
      {d.esHoy && <span className="lect-dia__hoy">Hoy</span>}
      {d.lecturas.map((l) => (
        <span key={l.cups} className="lect-marca">
          <Marca largo="Lectura" corto="L" />
          <span className="visually-hidden">
            Lectura: {NOMBRE_TIPO_LECTURA[l.lectura.tipo].toLowerCase()} en {l.direccion}
          </span>
        </span>
      ))}
      {d.autolecturas.length > 0 && (
        <span className="lect-marca lect-marca--plazo">
          <Marca largo="Plazo" corto="P" />
          <span className="visually-hidden">
            Plazo: se puede enviar la autolectura de {d.autolecturas.map((a) => a.direccion).join(' y de ')}
          </span>
        </span>
      )}
    </td>
  );
}

/** The month calendar with its navigation and the readings of the month in full. */
function Calendario({ programa, mes, irAMes }: { programa: Programa; mes: string; irAMes: (mes: string) => void }) {
  const { primero, ultimo } = mesesNavegables(programa.desde, programa.hasta);
  const varios = programa.suministros.length > 1;
  const modelo = useMemo(
    () =>
      mesCalendario(
        mes,
        programa.hoy,
        programa.suministros.map((s) => ({ cups: s.cups, direccion: s.direccion, lecturas: s.lecturas })),
      ),
    [mes, programa],
  );
  const nombre = capitalizar(nombreMes(mes));
  const delMes = modelo.semanas.flat().flatMap((d) => (d ? d.lecturas.map((l) => ({ ...l, fecha: d.fecha })) : []));
  const anterior = sumarMes(mes, -1);
  const siguiente = sumarMes(mes, 1);
  const hayAnterior = mes > primero;
  const haySiguiente = mes < ultimo;
  return (
    <section className="med-panel lect-calendario" aria-labelledby="lect-calendario-titulo">
      <h2 id="lect-calendario-titulo" className="lect-seccion__titulo">
        Calendario
      </h2>
      <div className="med-navegacion lect-calendario__barra">
        {/* aria-disabled, not disabled: the button pressed to reach the first or last month keeps the focus. */}
        <button
          type="button"
          className="priv-boton priv-boton--secundario med-navegacion__boton"
          aria-disabled={!hayAnterior || undefined}
          aria-label={`Mes anterior: ${nombreMes(anterior)}`}
          onClick={() => hayAnterior && irAMes(anterior)}
        >
          <span aria-hidden="true">‹ </span>Anterior
        </button>
        <h3 className="med-navegacion__titulo" id="lect-mes-titulo">
          {nombre}
        </h3>
        <button
          type="button"
          className="priv-boton priv-boton--secundario med-navegacion__boton"
          aria-disabled={!haySiguiente || undefined}
          aria-label={`Mes siguiente: ${nombreMes(siguiente)}`}
          onClick={() => haySiguiente && irAMes(siguiente)}
        >
          Siguiente<span aria-hidden="true"> ›</span>
        </button>
      </div>
      <p className="visually-hidden" role="status">
        {nombre}: {cuantasLecturas(modelo.total)}.
      </p>
      <div className="lect-rejilla">
        <table className="lect-tabla" aria-describedby="lect-leyenda">
          <caption>
            Lecturas de {nombreMes(mes)}: {cuantasLecturas(modelo.total)}
          </caption>
          <thead>
            <tr>
              {DIAS_SEMANA.map((d) => (
                <th key={d.largo} scope="col">
                  <span aria-hidden="true">{d.corto}</span>
                  <span className="visually-hidden">{d.largo}</span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {modelo.semanas.map((semana, i) => (
              <tr key={i}>
                {semana.map((d, j) => (
                  <Celda key={d?.fecha ?? `v${i}-${j}`} d={d} />
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p id="lect-leyenda" className="med-nota-linea lect-leyenda">
        <span className="lect-marca">Lectura</span> (L) día en que se toma la lectura.{' '}
        <span className="lect-marca lect-marca--plazo">Plazo</span> (P) días en que puede comunicar su autolectura de una visita.{' '}
        {!hayAnterior && !haySiguiente ? '' : `Puede ver de ${nombreMes(primero)} a ${nombreMes(ultimo)}.`}
      </p>
      <h4 className="lect-del-mes__titulo">Lecturas de {nombreMes(mes)}</h4>
      {delMes.length === 0 ? (
        <p className="med-nota-linea">Ninguno de sus contadores tiene lectura este mes.</p>
      ) : (
        <ul className="lect-del-mes">
          {delMes.map((l) => (
            <li key={`${l.cups}-${l.fecha}`}>
              <strong>{capitalizar(fechaEnPalabras(l.fecha))}</strong>: {NOMBRE_TIPO_LECTURA[l.lectura.tipo].toLowerCase()}
              {varios && ` en ${l.direccion}`}.
              {l.lectura.autolectura && ` Autolectura ${rangoEnPalabras(l.lectura.autolectura.desde, l.lectura.autolectura.hasta)}.`}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The readings of one supply point, as a list. */
function ListaSuministro({ s }: { s: Programa['suministros'][number] }) {
  const id = `lect-${s.cups}`;
  return (
    <section className="med-panel lect-suministro" aria-labelledby={id}>
      <h3 id={id}>
        {s.direccion}, {s.municipio}
      </h3>
      <dl className="med-datos lect-suministro__datos">
        <Dato t="CUPS">
          <Cups cups={s.cups} />
        </Dato>
        <Dato t="Ciclo de lectura">{textoCiclo(s)}</Dato>
        <Dato t="Distribuidora">{s.distribuidoraNombre}</Dato>
        <Dato t="Última lectura">{s.ultimaLectura ? capitalizar(fechaEnPalabras(s.ultimaLectura)) : 'Todavía ninguna'}</Dato>
      </dl>
      <p className="lect-suministro__modo">{textoModoLectura(s.telegestionado)}</p>
      {s.lecturas.length === 0 ? (
        <p>No hay lecturas previstas en los próximos doce meses: el contrato de este suministro ya no está en vigor.</p>
      ) : (
        <ol className="lect-lista" aria-label={`Próximas lecturas de ${s.direccion}`}>
          {s.lecturas.map((l) => (
            <li key={l.fechaCiclo}>
              <p className="lect-lista__fecha">
                <time dateTime={l.fecha}>{capitalizar(fechaEnPalabras(l.fecha))}</time>
                <span className={`lect-tipo lect-tipo--${l.tipo}`}>{NOMBRE_TIPO_LECTURA[l.tipo]}</span>
              </p>
              {l.desplazada && <p className="lect-lista__nota">{l.desplazada}</p>}
              {l.autolectura && <p className="lect-lista__nota">{textoPlazoAutolectura(l)}</p>}
            </li>
          ))}
        </ol>
      )}
      <Descargas
        ficheros={[{ texto: 'Descargar sus lecturas (.ics)', ruta: rutaCalendario(s.cups), nombre: nombreFicheroCalendario(s.cups) }]}
      />
    </section>
  );
}

/** The scheduled readings screen. */
export default function LecturasProgramadas({ ruta }: PropsPantalla) {
  const [consulta, cambiarConsulta] = useConsultaUrl();
  const [cargaApi, reintentar] = useCargaApi<Programa>(urlApi('/lecturasProgramadas'));
  const carga = cargaApi ?? { fase: 'cargando' as const };

  const programa = carga.fase === 'lista' ? carga.datos : null;
  const mesUrl = new URLSearchParams(consulta).get('mes');
  const limites = programa ? mesesNavegables(programa.desde, programa.hasta) : null;
  // Without a month in the address, the calendar opens where the next reading is, not on an empty month.
  const mes = limites && programa ? mesInicial(mesUrl, limites.primero, limites.ultimo, programa.suministros) : null;
  const proxima = programa ? proximaLectura(programa.suministros) : null;

  return (
    <div className="priv-pagina med med--ancha">
      <h1 tabIndex={-1}>{ruta.titulo}</h1>
      <p className="med-intro">
        Las fechas en que la distribuidora tomará la lectura de facturación de sus contadores en los próximos doce meses, calculadas con el
        ciclo de lectura de cada suministro. Puede añadirlas a su propio calendario.
      </p>
      {carga.fase === 'cargando' && <Cargando texto="Calculando sus próximas lecturas…" />}
      {carga.fase === 'error' && <ErrorCarga que="sus lecturas programadas" mensaje={carga.mensaje} reintentar={reintentar} />}
      {programa && programa.suministros.length === 0 && <SinSuministros />}
      {programa && mes && programa.suministros.length > 0 && (
        <>
          {proxima && (
            <p className="med-panel lect-proxima">
              Su próxima lectura: <strong>{capitalizar(fechaEnPalabras(proxima.fecha))}</strong>
              {programa.suministros.length > 1 ? `, en ${proxima.direccion}` : ''}.
            </p>
          )}
          <section className="med-panel med-panel--descargas" aria-labelledby="lect-descarga-titulo">
            <h2 id="lect-descarga-titulo" className="lect-seccion__titulo">
              En su calendario
            </h2>
            <Descargas
              ficheros={[
                {
                  texto: programa.suministros.length > 1 ? 'Descargar todas las lecturas (.ics)' : 'Descargar el calendario (.ics)',
                  ruta: rutaCalendario(null),
                  nombre: nombreFicheroCalendario(null),
                },
              ]}
              nota="Un fichero iCalendar con una cita de día completo por lectura y un aviso el día antes de cada visita del lector. Ábralo o impórtelo en Google Calendar, Outlook o Calendario de Apple; si lo importa de nuevo, las citas se actualizan en lugar de repetirse."
            />
            <SuscripcionCalendario />
          </section>
          <Calendario programa={programa} mes={mes} irAMes={(m) => cambiarConsulta(new URLSearchParams({ mes: m }).toString())} />
          <section className="lect-listas" aria-labelledby="lect-lista-titulo">
            <h2 id="lect-lista-titulo" className="lect-seccion__titulo">
              Próximas lecturas {programa.suministros.length > 1 ? 'de cada suministro' : ''}
            </h2>
            <p className="med-nota-linea">
              Del {fechaEnPalabras(programa.desde)} al {fechaEnPalabras(programa.hasta)}.
            </p>
            {programa.suministros.map((s) => (
              <ListaSuministro key={s.cups} s={s} />
            ))}
          </section>
        </>
      )}
    </div>
  );
}
