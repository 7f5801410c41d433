/**
 * The calendar subscription of the scheduled readings (decision 013): a private address the holder
 * pastes into Google Calendar, Outlook or Apple Calendar, which then keeps the readings up to date on
 * its own. The address is shown once, when it is made (the portal keeps only its hash); it can be
 * replaced or cancelled. Not offered while an administrator acts as the user.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState } from 'react';
import { apiFetch } from '../../../lib/api/cliente.ts';
import { formatearFechaHora } from '../../../lib/administracion/fechas.ts';
import { $session } from '../../../lib/sesion/index.ts';
import { Cargando, ErrorCarga } from './comun.tsx';
import { useCargaApi } from './usar-carga.ts';
import { urlApi } from '../../../lib/api/rutas.ts';

const RUTA = urlApi('/lecturasProgramadas/suscripcion');

interface Estado {
  activa: boolean;
  creadaEn: string | null;
  usadaEn: string | null;
}

interface Nueva {
  url: string;
  webcal: string;
  creadaEn: string;
}

/** The subscription block, inside "En su calendario". */
export function SuscripcionCalendario() {
  const sesion = useStore($session);
  const suplantado = Boolean(sesion?.suplantadoPor);
  const [carga, recargar] = useCargaApi<Estado>(RUTA);
  // What the last action left, so the block does not load again after each one.
  const [local, setLocal] = useState<Estado | null>(null);
  const [nueva, setNueva] = useState<Nueva | null>(null);
  const [enviando, setEnviando] = useState(false);
  const [aviso, setAviso] = useState<{ tipo: 'error' | 'hecho'; texto: string } | null>(null);
  const [copiada, setCopiada] = useState(false);
  const campo = useRef<HTMLInputElement>(null);

  // A new address is what the user came for: take them (and their screen reader) to it.
  useEffect(() => {
    if (nueva) campo.current?.focus();
  }, [nueva]);

  const crear = async () => {
    setEnviando(true);
    setAviso(null);
    setCopiada(false);
    const r = await apiFetch<Nueva>(RUTA, { method: 'POST' });
    setEnviando(false);
    if (!r.ok) return setAviso({ tipo: 'error', texto: r.error.mensaje });
    setNueva(r.datos);
    setLocal({ activa: true, creadaEn: r.datos.creadaEn, usadaEn: null });
  };

  const anular = async () => {
    if (!window.confirm('¿Anular la dirección de suscripción? Los calendarios suscritos dejarán de recibir sus lecturas.')) return;
    setEnviando(true);
    setAviso(null);
    const r = await apiFetch(RUTA, { method: 'DELETE' });
    setEnviando(false);
    if (!r.ok) return setAviso({ tipo: 'error', texto: r.error.mensaje });
    setNueva(null);
    setAviso({ tipo: 'hecho', texto: 'Dirección anulada. Puede quitar la suscripción de su calendario.' });
    setLocal({ activa: false, creadaEn: null, usadaEn: null });
  };

  const copiar = async () => {
    if (!nueva) return;
    try {
      await navigator.clipboard.writeText(nueva.url);
      setCopiada(true);
    } catch {
      // No clipboard (an insecure origin, a refused permission): the address is selected to copy by hand.
      campo.current?.select();
      setAviso({ tipo: 'error', texto: 'No hemos podido copiarla: está seleccionada, cópiela con Ctrl+C (o ⌘+C).' });
    }
  };

  const estado = local ?? (carga?.fase === 'lista' ? carga.datos : null);
  return (
    <div className="lect-suscripcion">
      <h3 id="lect-suscripcion-titulo">Suscripción: su calendario se actualiza solo</h3>
      <p className="med-nota-linea">
        Con una dirección privada, su programa de calendario consulta las lecturas por su cuenta y recoge los cambios (una visita que se
        mueve, un suministro nuevo) sin que tenga que importar nada otra vez.
      </p>
      {suplantado ? (
        <p className="priv-nota priv-nota--bloqueo">
          Mientras actúa como otro usuario no se pueden crear ni anular direcciones de suscripción.
        </p>
      ) : (
        <>
          {!local && (!carga || carga.fase === 'cargando') ? <Cargando texto="Consultando su suscripción…" /> : null}
          {!local && carga?.fase === 'error' && <ErrorCarga que="su suscripción" mensaje={carga.mensaje} reintentar={recargar} />}
          {nueva && (
            <div className="priv-aviso priv-aviso--warning lect-suscripcion__nueva">
              <label htmlFor="lect-suscripcion-url">Su dirección de suscripción</label>
              <input
                id="lect-suscripcion-url"
                ref={campo}
                type="text"
                readOnly
                value={nueva.url}
                onFocus={(e) => e.currentTarget.select()}
                aria-describedby="lect-suscripcion-secreto"
              />
              <p id="lect-suscripcion-secreto">
                <strong>Guárdela ahora: por seguridad no la volveremos a mostrar.</strong> Quien la tenga puede ver las fechas de lectura y
                las direcciones de sus suministros; no la comparta. Si la pierde, cree otra.
              </p>
              <p className="lect-suscripcion__acciones">
                <button type="button" className="priv-boton" onClick={() => void copiar()}>
                  Copiar la dirección
                </button>
                <a className="priv-boton priv-boton--secundario" href={nueva.webcal}>
                  Abrir en mi programa de calendario
                </a>
              </p>
              <p className="med-nota-linea">
                En Google Calendar: «Otros calendarios», «+», «Desde URL» y pegue la dirección. En Outlook: «Agregar calendario»,
                «Suscribirse desde la web».
              </p>
            </div>
          )}
          <p role="status" className="lect-suscripcion__estado">
            {copiada ? 'Dirección copiada.' : ''}
            {aviso?.tipo === 'hecho' ? aviso.texto : ''}
          </p>
          {aviso?.tipo === 'error' && (
            <p className="priv-aviso priv-aviso--error" role="alert">
              {aviso.texto}
            </p>
          )}
          {estado && (
            <>
              {estado.activa && estado.creadaEn && (
                <p>
                  Tiene una dirección creada el {formatearFechaHora(estado.creadaEn)}.{' '}
                  {estado.usadaEn
                    ? `Un calendario la consultó por última vez el ${formatearFechaHora(estado.usadaEn)}.`
                    : 'Ningún calendario la ha consultado todavía.'}
                </p>
              )}
              <p className="lect-suscripcion__acciones">
                <button
                  type="button"
                  className={estado.activa ? 'priv-boton priv-boton--secundario' : 'priv-boton'}
                  onClick={() => void crear()}
                  disabled={enviando}
                  aria-busy={enviando || undefined}
                  aria-describedby={estado.activa ? 'lect-suscripcion-sustituye' : undefined}
                >
                  {estado.activa ? 'Crear una dirección nueva' : 'Crear la dirección de suscripción'}
                </button>
                {estado.activa && (
                  <button type="button" className="priv-boton priv-boton--secundario" onClick={() => void anular()} disabled={enviando}>
                    Anular la dirección
                  </button>
                )}
              </p>
              {estado.activa && (
                <p id="lect-suscripcion-sustituye" className="med-nota-linea">
                  Una dirección nueva sustituye a la anterior, que deja de funcionar.
                </p>
              )}
            </>
          )}
        </>
      )}
    </div>
  );
}
