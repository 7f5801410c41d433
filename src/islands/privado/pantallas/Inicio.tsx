/**
 * /inicio, the dashboard (docs/producto.md §1, §2): a welcome text and the three feature cards
 * (access and connection, consumer, supply company). Each card leads to its area when the user has
 * the permission, and otherwise says how that permission is obtained. A message left by the route
 * guard (docs/producto.md §6: "told so and sent to /inicio") is shown on top.
 */
import { useStore } from '@nanostores/react';
import { lazy, Suspense, useEffect } from 'react';
import { tieneArea, type Area } from '../../../lib/permisos.ts';
import { $avisoGuarda } from '../../../lib/privado/avisos.ts';
import { COMO_OBTENER, puedeAbrir, ruta, rutaDePath, type IdRuta } from '../../../lib/privado/rutas-app.ts';
import { $session } from '../../../lib/sesion/index.ts';
import { ListaAlertas } from '../../comunes/ListaAlertas.tsx';

/**
 * "Lo que le espera" (docs/decisions/024-panel-de-inicio.md), loaded apart so the first load of the
 * private area stays within its JavaScript budget (docs/diseno.md). If its code cannot be fetched,
 * the section says so and the rest of the dashboard is unaffected.
 */
const ResumenInicio = lazy(() =>
  import('./ResumenInicio.tsx').catch(() => ({
    default: () => (
      <div className="priv-aviso priv-aviso--error" role="alert">
        <p>
          <strong>No hemos podido cargar su resumen.</strong> Compruebe su conexión y recargue la página.
        </p>
      </div>
    ),
  })),
);

/** The summary's loading line, as tall as a line of text so the cards below barely move. */
function EsperaResumen() {
  return (
    <p className="priv-resumen__espera" role="status">
      <span className="priv-cargando__giro" aria-hidden="true"></span>
      Cargando su resumen…
    </p>
  );
}

/** A link of a card: inside the app, a public page, or another site. */
interface Enlace {
  texto: string;
  href: string;
  externo?: boolean;
}

/** One feature card. */
interface Tarjeta {
  area: Area;
  titulo: string;
  descripcion: string;
  enlaces: Enlace[];
  /** How to obtain access, when the user lacks it. */
  sinAcceso: string;
}

const aRuta = (id: IdRuta, texto?: string): Enlace => ({ texto: texto ?? ruta(id).titulo, href: ruta(id).patron });

/** The three cards of docs/producto.md §1. */
const TARJETAS: readonly Tarjeta[] = [
  {
    area: 'accesoyconexion',
    titulo: 'Acceso y conexión',
    descripcion:
      'Presente sus solicitudes de acceso y conexión a la red de forma digital, siga cada paso y sus documentos, y consulte la capacidad nodal de EPD y EOD.',
    enlaces: [
      aRuta('solicitudes', 'Mis solicitudes'),
      { texto: 'Capacidad nodal EPD', href: '/capacidad-nodal/epd' },
      { texto: 'Capacidad nodal EOD', href: '/capacidad-nodal/eod' },
    ],
    sinAcceso: COMO_OBTENER.accesoyconexion,
  },
  {
    area: 'distribucion',
    titulo: 'Consumidor',
    descripcion: 'Consulte el consumo hora a hora y las potencias máximas de sus suministros en los últimos meses.',
    enlaces: [aRuta('curvas'), aRuta('potencia'), aRuta('suministros', 'Mis suministros')],
    sinAcceso: `${COMO_OBTENER.distribucion} Si es titular de un suministro y no ve esta sección, compruebe que su cuenta usa el mismo NIF que su contrato.`,
  },
  {
    area: 'comercializadora',
    titulo: 'Comercializadora',
    descripcion:
      'Consulte las solicitudes ATR que tiene en curso, descargue cada mes el fichero SIPS de cada distribuidora e intercambie ficheros con ellas por FTP.',
    enlaces: [aRuta('solicitudesAtr'), aRuta('sips', 'Ficheros SIPS'), aRuta('ftp', 'FTP')],
    sinAcceso: COMO_OBTENER.comercializadora,
  },
];

/** The dashboard. */
export default function Inicio() {
  const sesion = useStore($session);
  const aviso = useStore($avisoGuarda);
  const permisos = sesion?.Permisos ?? [];
  const nombre = sesion?.nombre || sesion?.username || '';
  const abre = (href: string) => {
    const r = rutaDePath(href);
    return !r || !sesion || puedeAbrir(r.ruta, sesion);
  };

  // The guard's message belongs to the visit that caused it, not to later visits of the dashboard.
  useEffect(() => () => $avisoGuarda.set(null), []);

  return (
    <div className="priv-pagina priv-inicio">
      <h1 tabIndex={-1}>Bienvenido/a, {nombre}</h1>
      {aviso && (
        <ListaAlertas
          alertas={[{ id: 'guarda', nivel: 'warning', texto: aviso }]}
          alCerrar={() => $avisoGuarda.set(null)}
          etiqueta="Aviso de acceso"
        />
      )}
      <p className="priv-inicio__intro">
        Desde su área privada puede gestionar sus solicitudes de acceso y conexión, consultar los datos de sus suministros y, si es una
        comercializadora, sus solicitudes ATR y los ficheros SIPS. El menú muestra las secciones a las que tiene acceso.
      </p>
      <section className="priv-resumen" aria-labelledby="priv-resumen-titulo">
        <h2 id="priv-resumen-titulo">Lo que le espera</h2>
        <Suspense fallback={<EsperaResumen />}>
          <ResumenInicio espera={<EsperaResumen />} />
        </Suspense>
      </section>
      <ul className="priv-tarjetas">
        {TARJETAS.map((t) => {
          const acceso = tieneArea(permisos, t.area);
          return (
            <li key={t.area} className={`priv-tarjeta${acceso ? '' : ' priv-tarjeta--sin-acceso'}`}>
              <h2>{t.titulo}</h2>
              <p className={`priv-etiqueta${acceso ? ' priv-etiqueta--si' : ''}`}>{acceso ? 'Tiene acceso' : 'Sin acceso'}</p>
              <p>{t.descripcion}</p>
              {acceso ? (
                <ul className="priv-tarjeta__enlaces" aria-label={`Enlaces de ${t.titulo}`}>
                  {/* A consumer area opened only by authorisations links only the screens they grant (decision 028). */}
                  {t.enlaces
                    .filter((e) => abre(e.href))
                    .map((e) => (
                      <li key={e.href}>
                        {e.externo ? (
                          <a href={e.href} target="_blank" rel="noopener noreferrer">
                            {e.texto}
                            <span className="visually-hidden"> (se abre en una pestaña nueva)</span>
                          </a>
                        ) : (
                          <a href={e.href}>{e.texto}</a>
                        )}
                      </li>
                    ))}
                </ul>
              ) : (
                <div className="priv-tarjeta__como">
                  <p>
                    <strong>Cómo obtener acceso:</strong> {t.sinAcceso}
                  </p>
                  <p>
                    <a href="/informacion">Ir a Contacto</a>
                  </p>
                </div>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
