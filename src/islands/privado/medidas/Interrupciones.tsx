/**
 * /medidas/interrupciones ("My interruptions"): the scheduled and active network
 * interruptions that concern each of the user's supply points — listed by CUPS, or in its postal
 * code or municipality — shown with the public page's cards, why each concerns the supply point and
 * the distributor's fault line. A link leads to every interruption of the network. Per supply point,
 * a switch asks for e-mail alerts of the interruptions that concern it (docs/decisions/025-avisos-de-corte.md),
 * saved at once. Below, the account's fault reports (GET /api/averias/avisos): also those filed on
 * the public "No tengo luz" page without a session, so a reference given there is found again.
 */
import { useStore } from '@nanostores/react';
import { useCallback, useEffect, useId, useState } from 'react';
import { apiFetch } from '../../../lib/api/cliente.ts';
import { ESTADOS_AVISO, fechaHoraAviso, siguientePasoAviso, type MiAviso } from '../../../lib/averias/mis-avisos.ts';
import { urlReclamarInterrupcion } from '../../../lib/contacto/pantalla.ts';
import {
  notaIncidencia,
  resumenInterrupciones,
  telefonoAverias,
  type IncidenciaDeSuministro,
  type SuministroConIncidencias,
} from '../../../lib/medidas/pantalla/interrupciones.ts';
import { tieneArea } from '../../../lib/permisos.ts';
import { $permisos } from '../../../lib/sesion/index.ts';
import { ListaTarjetas } from '../../comunes/TarjetaIncidencia.tsx';
import type { PropsPantalla } from '../AppPrivada.tsx';
import { Cargando, Cups, ErrorCarga, SinSuministros, type Carga } from './comun.tsx';
import './medidas.css';
import { urlApi } from '../../../lib/api/rutas.ts';

const HORA = new Intl.DateTimeFormat('es-ES', { timeZone: 'Europe/Madrid', hour: '2-digit', minute: '2-digit' });

/** Why one incident concerns the supply point, whom to call and, with `-contacto`, the claim about it. */
function Nota({ i, s, reclamar }: { i: IncidenciaDeSuministro; s: SuministroConIncidencias; reclamar: boolean }) {
  const n = notaIncidencia(i, s);
  const tel = telefonoAverias(s.distribuidora);
  return (
    <>
      <p className={`med-interrupcion__nota med-interrupcion__nota--${i.afecta}`}>
        <strong>{n.por}</strong> {n.que}
        {tel ? (
          <>
            {' '}
            <a href={`tel:${tel.e164}`}>{tel.texto}</a> (24 horas, gratuito).
          </>
        ) : (
          '.'
        )}
      </p>
      {reclamar && (
        <p className="med-interrupcion__reclamar">
          <a href={urlReclamarInterrupcion({ distribuidora: s.distribuidora, cups: s.cups, inicio: i.inicio, finPrevisto: i.finPrevisto })}>
            Reclamar por esta interrupción
            <span className="visually-hidden">
              {' '}
              ({i.municipio}, suministro {s.cups})
            </span>
          </a>
        </p>
      )}
    </>
  );
}

/** Whether the alerts of each supply point are on: loading, the CUPS that have them, or the load failed. */
type Suscritos = { fase: 'cargando' } | { fase: 'lista'; cups: Set<string> } | { fase: 'error'; mensaje: string };

/** The e-mail alert switch of one supply point, saved as soon as it changes. */
function AvisoCorreo({
  cups,
  suscritos,
  alCambiar,
}: {
  cups: string;
  suscritos: Suscritos;
  alCambiar: (cups: string, activa: boolean) => void;
}) {
  const id = useId();
  const [guardando, setGuardando] = useState(false);
  const [mensaje, setMensaje] = useState<{ tipo: 'ok' | 'error'; texto: string } | null>(null);
  if (suscritos.fase === 'cargando') return null;
  if (suscritos.fase === 'error') {
    return (
      <p className="med-aviso-correo__mensaje med-aviso-correo__mensaje--error">
        No se ha podido saber si tiene activados los avisos por correo: {suscritos.mensaje}
      </p>
    );
  }
  const activa = suscritos.cups.has(cups);
  const cambiar = async (nueva: boolean) => {
    if (guardando) return;
    setGuardando(true);
    setMensaje(null);
    // Shown at once, put back if the server refuses.
    alCambiar(cups, nueva);
    const r = await apiFetch<{ activa: boolean }>(urlApi('/avisosCorte/suscripciones/{cups}', { path: { cups } }), {
      method: nueva ? 'PUT' : 'DELETE',
    });
    setGuardando(false);
    if (!r.ok) {
      alCambiar(cups, !nueva);
      setMensaje({ tipo: 'error', texto: `No se ha guardado el cambio. ${r.error.mensaje}` });
      return;
    }
    alCambiar(cups, r.datos.activa);
    setMensaje({
      tipo: 'ok',
      texto: r.datos.activa
        ? 'Guardado. Le avisaremos por correo cuando se programe, cambie o anule un corte que afecte a este suministro, y cuando empiece y termine.'
        : 'Guardado. Ya no le avisaremos por correo de los cortes de este suministro.',
    });
  };
  return (
    <div className="med-aviso-correo">
      <input
        id={id}
        type="checkbox"
        role="switch"
        className="med-aviso-correo__interruptor"
        checked={activa}
        aria-describedby={`${id}-mensaje`}
        aria-busy={guardando || undefined}
        onChange={(e) => void cambiar(e.currentTarget.checked)}
      />
      <label htmlFor={id}>
        Avisarme por correo de los cortes que afecten a este suministro
        <span className="visually-hidden"> ({cups})</span>
      </label>
      <p
        id={`${id}-mensaje`}
        className={`med-aviso-correo__mensaje${mensaje?.tipo === 'error' ? ' med-aviso-correo__mensaje--error' : ''}`}
        role={mensaje?.tipo === 'error' ? 'alert' : 'status'}
      >
        {guardando ? 'Guardando…' : mensaje?.texto}
      </p>
    </div>
  );
}

/** The account's fault reports, with their own load: a failure there leaves the interruptions on screen. */
function MisAvisos({ intento, reintentar }: { intento: number; reintentar: () => void }) {
  const [carga, setCarga] = useState<Carga<MiAviso[]>>({ fase: 'cargando' });
  useEffect(() => {
    const peticion = new AbortController();
    setCarga((c) => (c.fase === 'lista' ? c : { fase: 'cargando' }));
    void apiFetch<MiAviso[]>(urlApi('/averias/avisos'), { signal: peticion.signal }).then((r) => {
      if (peticion.signal.aborted) return;
      setCarga(r.ok ? { fase: 'lista', datos: r.datos } : { fase: 'error', mensaje: r.error.mensaje });
    });
    return () => peticion.abort();
  }, [intento]);

  return (
    <section id="mis-avisos" className="med-avisos" aria-labelledby="mis-avisos-titulo">
      <h2 id="mis-avisos-titulo">Mis avisos de avería</h2>
      <p>
        Los avisos de los suministros de los que es titular, también los que dio sin iniciar sesión en la página «No tengo luz», y los que
        registró con su cuenta.
      </p>
      {carga.fase === 'cargando' && <Cargando texto="Buscando sus avisos de avería…" />}
      {carga.fase === 'error' && <ErrorCarga que="sus avisos de avería" mensaje={carga.mensaje} reintentar={reintentar} />}
      {carga.fase === 'lista' && carga.datos.length === 0 && (
        <p>
          No tiene avisos de avería. Si se queda sin luz, compruebe qué ocurre en <a href="/medidas/no-tengo-luz">No tengo luz</a>.
        </p>
      )}
      {carga.fase === 'lista' && carga.datos.length > 0 && (
        <ul className="med-avisos__lista">
          {carga.datos.map((a) => {
            const tel = telefonoAverias(a.distribuidora);
            return (
              <li key={a.referencia} className={`med-aviso med-aviso--${a.estado}`}>
                <h3>
                  Aviso <span className="med-aviso__referencia">{a.referencia}</span>
                </h3>
                <dl className="med-aviso__datos">
                  <div>
                    <dt>Suministro</dt>
                    <dd>
                      <Cups cups={a.cups} /> ({a.municipio})
                    </dd>
                  </div>
                  <div>
                    <dt>Presentado</dt>
                    <dd>
                      <time dateTime={a.creado}>{fechaHoraAviso(a.creado)}</time>
                    </dd>
                  </div>
                  <div>
                    <dt>Estado</dt>
                    <dd>
                      <span className={`med-aviso__estado med-aviso__estado--${a.estado}`}>{ESTADOS_AVISO[a.estado]}</span>
                    </dd>
                  </div>
                </dl>
                <p className="med-aviso__siguiente">
                  {siguientePasoAviso(a)}{' '}
                  {tel ? (
                    <>
                      <a href={`tel:${tel.e164}`}>{tel.texto}</a> (24 horas, gratuito).
                    </>
                  ) : (
                    'el de su distribuidora, en su factura.'
                  )}
                </p>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

/** The screen. */
export default function Interrupciones({ ruta }: PropsPantalla) {
  const [carga, setCarga] = useState<Carga<SuministroConIncidencias[]>>({ fase: 'cargando' });
  const [actualizado, setActualizado] = useState<Date | null>(null);
  const [intento, setIntento] = useState(0);
  const actualizar = useCallback(() => setIntento((n) => n + 1), []);
  const reclamar = tieneArea(useStore($permisos), 'contacto');
  const [suscritos, setSuscritos] = useState<Suscritos>({ fase: 'cargando' });
  const alCambiarAviso = useCallback(
    (cups: string, activa: boolean) =>
      setSuscritos((s) => {
        if (s.fase !== 'lista') return s;
        const nuevos = new Set(s.cups);
        if (activa) nuevos.add(cups);
        else nuevos.delete(cups);
        return { fase: 'lista', cups: nuevos };
      }),
    [],
  );

  useEffect(() => {
    const peticion = new AbortController();
    void apiFetch<{ cups: string[] }>(urlApi('/avisosCorte/suscripciones'), { signal: peticion.signal }).then((r) => {
      if (peticion.signal.aborted) return;
      setSuscritos(r.ok ? { fase: 'lista', cups: new Set(r.datos.cups) } : { fase: 'error', mensaje: r.error.mensaje });
    });
    return () => peticion.abort();
  }, [intento]);

  useEffect(() => {
    const peticion = new AbortController();
    // A refresh keeps the list on screen; only the first load shows the spinner.
    setCarga((c) => (c.fase === 'lista' ? c : { fase: 'cargando' }));
    void apiFetch<SuministroConIncidencias[]>(urlApi('/incidenciasRed/suministros'), { signal: peticion.signal }).then((r) => {
      if (peticion.signal.aborted) return;
      if (r.ok) setActualizado(new Date());
      setCarga(r.ok ? { fase: 'lista', datos: r.datos } : { fase: 'error', mensaje: r.error.mensaje });
    });
    return () => peticion.abort();
  }, [intento]);

  return (
    <div className="priv-pagina med">
      <h1 tabIndex={-1}>{ruta.titulo}</h1>
      <p className="med-intro">
        Las interrupciones programadas y en curso de la red que incluyen sus puntos de suministro o que ocurren en su código postal. Puede
        consultar todas las de la red en <a href="/incidencias-red">Interrupciones de red</a>. Al final de la página están sus avisos de
        avería.
      </p>
      {carga.fase === 'cargando' && <Cargando texto="Buscando interrupciones en sus suministros…" />}
      {carga.fase === 'error' && <ErrorCarga que="las interrupciones" mensaje={carga.mensaje} reintentar={actualizar} />}
      {carga.fase === 'lista' && carga.datos.length === 0 && <SinSuministros />}
      {carga.fase === 'lista' && carga.datos.length > 0 && (
        <>
          <div className="med-interrupciones__estado">
            <p className="med-interrupciones__resumen" role="status">
              {resumenInterrupciones(carga.datos)}
            </p>
            <p className="med-interrupciones__hora">
              {actualizado && <>Actualizado a las {HORA.format(actualizado)}. </>}
              <button type="button" className="priv-boton priv-boton--secundario" onClick={actualizar}>
                Actualizar
              </button>
            </p>
          </div>
          {carga.datos.map((s) => (
            <section key={s.cups} className="med-interrupciones__suministro" aria-labelledby={`int-${s.cups}`}>
              <h2 id={`int-${s.cups}`}>
                {s.direccion}, {s.municipio}
              </h2>
              <p className="med-interrupciones__cups">
                CUPS <Cups cups={s.cups} />
              </p>
              <AvisoCorreo cups={s.cups} suscritos={suscritos} alCambiar={alCambiarAviso} />
              {s.incidencias.length === 0 ? (
                <p>No hay interrupciones programadas ni activas que afecten a este suministro.</p>
              ) : (
                <ListaTarjetas
                  incidencias={s.incidencias}
                  nivel={3}
                  nota={(i) => <Nota i={i as IncidenciaDeSuministro} s={s} reclamar={reclamar} />}
                />
              )}
            </section>
          ))}
        </>
      )}
      <MisAvisos intento={intento} reintentar={actualizar} />
    </div>
  );
}
