/**
 * /informacionContrato/detalle-informacion-contrato ("Suministros / contract detail"): the
 * user's supply points as cards (address, tariff, powers, meter, retailer); choosing one puts its
 * CUPS in the address (`?cups=`), so a reload or back keeps it, and shows its whole contract in
 * plain Spanish, the measures available and links to its consumption and maximum powers.
 */
import { useEffect, useRef } from 'react';
import { diasConMedidas } from '../../../lib/medidas/pantalla/disponibilidad.ts';
import { kw } from '../../../lib/medidas/pantalla/formato.ts';
import {
  avisoSuspension,
  descripcionContador,
  direccionCompleta,
  gruposContrato,
  potenciaUnica,
  TEXTO_AUTOCONSUMO,
  textoPotencias,
  textoRangoMedidas,
  type Suministro,
} from '../../../lib/suministros/pantalla.ts';
import { NOMBRE_DATO } from '../../../lib/autorizaciones.ts';
import { fechaSinDia } from '../../../lib/formato/fechas.ts';
import type { PropsPantalla } from '../AppPrivada.tsx';
import { useConsultaUrl } from '../usar-consulta.ts';
import { Cargando, Cups, ErrorCarga, SinSuministros, useDetalle, useSuministros } from './comun.tsx';
import { Dato } from '../../comunes/Dato.tsx';
import './medidas.css';
import './autorizaciones.css';

const RUTA = '/informacionContrato/detalle-informacion-contrato';

/** Links of a supply point to its measures. */
function enlacesMedidas(cups: string) {
  const q = `?cups=${encodeURIComponent(cups)}`;
  return { curvas: `/medidas/curvas${q}`, potencias: `/medidas/potencia${q}` };
}

/** The powers in one short phrase: "4,6 kW" when all periods agree, else per period. */
function potencias(s: Suministro): string {
  const unica = potenciaUnica(s.potenciasKw);
  return unica !== null ? `${kw(unica)} kW (todos los periodos)` : textoPotencias(s.potenciasKw);
}

/** The list's first sentence: how many supply points the user holds, and how many others authorise them to read. */
function introLista(lista: readonly Suministro[]): string {
  const propios = lista.filter((s) => !s.autorizacion).length;
  const autorizados = lista.length - propios;
  const deTitular =
    propios === 0 ? '' : propios === 1 ? 'Es titular de este punto de suministro.' : `Es titular de estos ${propios} puntos de suministro.`;
  const ajenos =
    autorizados === 0
      ? ''
      : autorizados === 1
        ? `${propios ? 'Además, otro' : 'Otro'} titular le autoriza a consultar un punto de suministro.`
        : `${propios ? 'Además, otros' : 'Otros'} titulares le autorizan a consultar ${autorizados} puntos de suministro.`;
  return [deTitular, ajenos].filter(Boolean).join(' ');
}

/** The mark of a supply point read through an authorisation (docs/decisions/028): whose, until when, read-only. */
function Autorizado({ a }: { a: NonNullable<Suministro['autorizacion']> }) {
  return (
    <p className="med-autorizado">
      <strong>Autorizado por {a.titular}</strong> hasta el {fechaSinDia(a.hasta)}. Solo consulta:{' '}
      {a.datos.map((d) => NOMBRE_DATO[d].toLowerCase()).join(', ')} y datos del contrato.
    </p>
  );
}

/** The notice of a supply cut at its retailer's request; nothing for one in service. */
function Suspension({ s }: { s: Suministro }) {
  const aviso = avisoSuspension(s);
  if (!aviso) return null;
  return (
    <div className="priv-aviso priv-aviso--warning med-suspendido">
      <p>
        <strong>Suministro cortado.</strong> {aviso}
      </p>
    </div>
  );
}

/** One card of the list. */
function Tarjeta({ s, abrir }: { s: Suministro; abrir: (cups: string) => void }) {
  const href = `${RUTA}?cups=${encodeURIComponent(s.cups)}`;
  return (
    <li className="med-tarjeta">
      <h2 className="med-tarjeta__titulo">
        <a
          href={href}
          onClick={(e) => {
            if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
            e.preventDefault();
            e.stopPropagation();
            abrir(s.cups);
          }}
        >
          {s.direccion}
          <span className="med-tarjeta__lugar">
            {s.codigoPostal} {s.municipio}
          </span>
        </a>
      </h2>
      {s.autorizacion && <Autorizado a={s.autorizacion} />}
      <Suspension s={s} />
      <dl className="med-tarjeta__datos">
        <Dato t="CUPS">
          <Cups cups={s.cups} />
        </Dato>
        <Dato t="Tarifa">{s.tarifa}</Dato>
        <Dato t="Potencia contratada">{potencias(s)}</Dato>
        <Dato t="Contador">{descripcionContador(s.contador)}</Dato>
        <Dato t="Comercializadora">{s.comercializadora.nombre ?? `Código REE ${s.comercializadora.codigo}`}</Dato>
        <Dato t="Distribuidora">{s.distribuidoraNombre}</Dato>
        {s.autoconsumo !== 'ninguno' && <Dato t="Autoconsumo">{TEXTO_AUTOCONSUMO[s.autoconsumo] ?? s.autoconsumo}</Dato>}
      </dl>
      <ul className="med-tarjeta__enlaces">
        {(!s.autorizacion || s.autorizacion.datos.includes('curvas')) && (
          <li>
            <a href={enlacesMedidas(s.cups).curvas}>Consumo horario</a>
          </li>
        )}
        {(!s.autorizacion || s.autorizacion.datos.includes('potencias')) && (
          <li>
            <a href={enlacesMedidas(s.cups).potencias}>Potencias máximas</a>
          </li>
        )}
      </ul>
    </li>
  );
}

/** The contract of one supply point. */
function Detalle({ cups, volver, enfocar }: { cups: string; volver: () => void; enfocar: boolean }) {
  const [carga, reintentar] = useDetalle(cups);
  const titulo = useRef<HTMLHeadingElement>(null);

  // The detail replaced the list under the user's hand: move them to its heading (not on a page
  // load, where focus stays where the browser puts it, as on every screen).
  const listo = carga?.fase === 'lista';
  useEffect(() => {
    if (listo && enfocar) titulo.current?.focus();
  }, [listo, enfocar]);

  if (!carga || carga.fase === 'cargando') return <Cargando texto="Cargando los datos del contrato…" />;
  if (carga.fase === 'error') {
    return (
      <>
        <ErrorCarga que="los datos de este suministro" mensaje={carga.mensaje} reintentar={reintentar} />
        <p>
          <a href={RUTA} onClick={(e) => (e.preventDefault(), volver())}>
            Volver a sus suministros
          </a>
        </p>
      </>
    );
  }
  const s = carga.datos;
  const dias = diasConMedidas(s.medidas);
  const rango = textoRangoMedidas(s.medidas, dias);
  const enlaces = enlacesMedidas(s.cups);
  return (
    <article className="med-detalle" aria-labelledby="med-detalle-titulo">
      <p className="med-volver">
        <a href={RUTA} onClick={(e) => (e.preventDefault(), volver())}>
          <span aria-hidden="true">← </span>Volver a sus suministros
        </a>
      </p>
      <h2 id="med-detalle-titulo" ref={titulo} tabIndex={-1} className="med-detalle__titulo">
        {direccionCompleta(s)}
      </h2>
      <p className="med-detalle__sub">
        <Cups cups={s.cups} /> · {s.tarifa} · {s.distribuidoraNombre}
      </p>
      {s.autorizacion && <Autorizado a={s.autorizacion} />}
      <Suspension s={s} />

      <section className="med-panel med-detalle__medidas" aria-labelledby="med-detalle-medidas">
        <h3 id="med-detalle-medidas">Medidas disponibles</h3>
        {rango ? (
          <p>{rango}</p>
        ) : (
          <p>Todavía no hemos recibido medidas de este suministro. Aparecerán en cuanto su contador nos envíe las primeras lecturas.</p>
        )}
        <ul className="med-acciones">
          <li>
            <a className="priv-boton" href={enlaces.curvas}>
              Ver consumo horario
            </a>
          </li>
          <li>
            <a className="priv-boton priv-boton--secundario" href={enlaces.potencias}>
              Ver potencias máximas
            </a>
          </li>
        </ul>
      </section>

      <div className="med-grupos">
        {gruposContrato(s).map((g, i) => (
          <section key={g.titulo} className="med-panel" aria-labelledby={`med-grupo-${i}`}>
            <h3 id={`med-grupo-${i}`}>{g.titulo}</h3>
            <dl className="med-datos">
              {g.datos.map((d) => (
                <Dato key={d.etiqueta} t={d.etiqueta}>
                  {d.etiqueta === 'CUPS' ? <Cups cups={d.valor} /> : d.valor}
                </Dato>
              ))}
            </dl>
          </section>
        ))}
      </div>
    </article>
  );
}

/** The supply points screen. */
export default function Suministros({ ruta }: PropsPantalla) {
  const [consulta, cambiarConsulta] = useConsultaUrl();
  const cups = new URLSearchParams(consulta).get('cups')?.toUpperCase() ?? null;
  const [carga, reintentar] = useSuministros();
  const lista = useRef<HTMLDivElement>(null);
  const volviendoDe = useRef<string | null>(null);
  const elegidoPorUsuario = useRef(false);

  const abrir = (c: string) => {
    elegidoPorUsuario.current = true;
    cambiarConsulta(`cups=${encodeURIComponent(c)}`);
  };
  const volver = () => {
    volviendoDe.current = cups;
    cambiarConsulta('');
  };

  // Back on the list: focus returns to the card just left.
  useEffect(() => {
    if (cups || !volviendoDe.current || carga.fase !== 'lista') return;
    const anterior = volviendoDe.current;
    volviendoDe.current = null;
    const enlace = lista.current?.querySelector<HTMLAnchorElement>(`a[href$="cups=${encodeURIComponent(anterior)}"]`);
    enlace?.focus();
  }, [cups, carga.fase]);

  const elegido = carga.fase === 'lista' && cups ? carga.datos.find((s) => s.cups === cups) : undefined;

  return (
    <div className="priv-pagina med">
      <h1 tabIndex={-1}>{ruta.titulo}</h1>
      {carga.fase === 'cargando' && <Cargando texto="Cargando sus suministros…" />}
      {carga.fase === 'error' && <ErrorCarga que="sus suministros" mensaje={carga.mensaje} reintentar={reintentar} />}
      {carga.fase === 'lista' && carga.datos.length === 0 && <SinSuministros />}
      {carga.fase === 'lista' && carga.datos.length > 0 && cups && !elegido && (
        <div className="priv-aviso priv-aviso--warning" role="alert">
          <p>
            No encontramos el suministro <Cups cups={cups} /> entre los suyos. Elija uno de la lista.
          </p>
        </div>
      )}
      {elegido && <Detalle key={elegido.cups} cups={elegido.cups} volver={volver} enfocar={elegidoPorUsuario.current} />}
      {carga.fase === 'lista' && carga.datos.length > 0 && !elegido && (
        <div ref={lista}>
          <p className="med-intro">{introLista(carga.datos)} Elija uno para ver todos los datos de su contrato de acceso.</p>
          <ul className="med-tarjetas">
            {carga.datos.map((s) => (
              <Tarjeta key={s.cups} s={s} abrir={abrir} />
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
