/**
 * /medidas/estado-contador ("Meter state"): for each of the user's supply points, whether
 * the meter communicates, the power control switch, the supply, the reason the distributor gave,
 * what to do in plain Spanish (with the distributor's 24-hour fault telephone where it helps), and
 * the latest register readings with the consumption between them.
 */
import { formatearFechaHora } from '../../../lib/administracion/fechas.ts';
import { CONTACTOS } from '../../../lib/contacto.ts';
import type { CodigoDistribuidora } from '../../../lib/distribuidoras.ts';
import { consejosEstado, filasEstado, type Consejo } from '../../../lib/lecturas/estado-contador.ts';
import type { EstadoSuministroApi, Estados } from '../../../lib/lecturas/pantalla.ts';
import { TablaLecturas } from './TablaLecturas.tsx';
import type { PropsPantalla } from '../AppPrivada.tsx';
import { Cargando, Cups, ErrorCarga, SinSuministros } from './comun.tsx';
import { useCargaApi } from './usar-carga.ts';
import { Dato } from '../../comunes/Dato.tsx';
import './lecturas.css';
import './medidas.css';
import { urlApi } from '../../../lib/api/rutas.ts';

/** The box class and the word before the heading, per level. */
const NIVEL: Record<Consejo['nivel'], { clase: string; palabra: string }> = {
  correcto: { clase: 'lect-consejo--correcto', palabra: 'Correcto' },
  info: { clase: 'priv-aviso--info', palabra: 'Información' },
  aviso: { clase: 'priv-aviso--warning', palabra: 'Aviso' },
  error: { clase: 'priv-aviso--error', palabra: 'Importante' },
};

/** One piece of advice with its steps and, where it helps, the fault line or a link. */
function CajaConsejo({ c, s }: { c: Consejo; s: EstadoSuministroApi }) {
  const averias = CONTACTOS[s.distribuidora as CodigoDistribuidora]?.averias;
  return (
    <div className={`priv-aviso lect-consejo ${NIVEL[c.nivel].clase}`}>
      <h3>
        <span className="visually-hidden">{NIVEL[c.nivel].palabra}: </span>
        {c.titulo}
      </h3>
      <ul>
        {c.pasos.map((p) => (
          <li key={p}>{p}</li>
        ))}
      </ul>
      {c.llamarAverias && averias && (
        <p className="lect-consejo__accion">
          Averías de {s.distribuidoraNombre}, 24 horas, gratuito:{' '}
          <a className="lect-telefono" href={`tel:${averias.e164}`}>
            {averias.texto}
          </a>
        </p>
      )}
      {c.verInterrupciones && (
        <p className="lect-consejo__accion">
          <a href="/incidencias-red">Ver las interrupciones de red</a>
        </p>
      )}
      {c.verLecturas && (
        <p className="lect-consejo__accion">
          <a href="/medidas/lecturas-programadas">Ver las fechas de lectura y los plazos de autolectura</a>
        </p>
      )}
    </div>
  );
}

/** One supply point's meter. */
function Contador({ s }: { s: EstadoSuministroApi }) {
  const id = `lect-estado-${s.cups}`;
  const consejos = consejosEstado(s.estado, { telegestionado: s.telegestionado, comercializadora: s.comercializadora, formatearFechaHora });
  const e = s.estado;
  return (
    <section className="med-panel lect-estado" aria-labelledby={id}>
      <div>
        <h2 id={id}>
          {s.direccion}, {s.municipio}
        </h2>
        <p className="lect-estado__sub">
          <Cups cups={s.cups} /> · {s.tarifa} · {s.distribuidoraNombre}
        </p>
      </div>
      <div className="lect-consejos">
        {consejos.map((c) => (
          <CajaConsejo key={c.titulo} c={c} s={s} />
        ))}
      </div>
      {e && (
        <dl className="med-datos">
          {filasEstado(e, s.telegestionado, formatearFechaHora).map((f) => (
            <Dato key={f.etiqueta} t={f.etiqueta}>
              {f.valor}
            </Dato>
          ))}
          <Dato t="Estado actualizado">{formatearFechaHora(e.actualizadoEn)}</Dato>
        </dl>
      )}
      <TablaLecturas cups={s.cups} lecturas={s.lecturas} vista="titular" />
    </section>
  );
}

/** The meter state screen. */
export default function EstadoContador({ ruta }: PropsPantalla) {
  const [cargaApi, reintentar] = useCargaApi<Estados>(urlApi('/estadoContador'));
  const carga = cargaApi ?? { fase: 'cargando' as const };

  return (
    <div className="priv-pagina med med--ancha">
      <h1 tabIndex={-1}>{ruta.titulo}</h1>
      <p className="med-intro">
        Si el contador de cada suministro comunica con nosotros, si tiene luz, qué hacer si algo no va bien, y sus últimas lecturas.
      </p>
      {carga.fase === 'cargando' && <Cargando texto="Consultando el estado de sus contadores…" />}
      {carga.fase === 'error' && <ErrorCarga que="el estado de sus contadores" mensaje={carga.mensaje} reintentar={reintentar} />}
      {carga.fase === 'lista' && carga.datos.suministros.length === 0 && <SinSuministros />}
      {carga.fase === 'lista' && carga.datos.suministros.map((s) => <Contador key={s.cups} s={s} />)}
    </div>
  );
}
