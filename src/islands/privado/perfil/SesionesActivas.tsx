/**
 * The account's live sessions (decision 006): where and when each was opened and last used, which
 * one is this, and "Cerrar las demás sesiones", which ends every other one at once.
 */
import { useCallback, useEffect, useState } from 'react';
import { apiFetch } from '../../../lib/api/cliente.ts';
import { fechaHora, nombreNavegador, type SesionActiva } from '../../../lib/perfil/pantalla.ts';
import { ListaAlertas } from '../../comunes/ListaAlertas.tsx';
import { BloquePerfil } from './FormularioPerfil.tsx';
import { useFormulario } from './usar-formulario.ts';
import { Dato } from '../../comunes/Dato.tsx';
import { urlApi } from '../../../lib/api/rutas.ts';

/** Props of `SesionesActivas`. */
export interface SesionesActivasProps {
  /** An impersonated session may not close the user's sessions. */
  bloqueado: boolean;
  /** Changes when the list must be read again (after a password change). */
  version: number;
}

type Carga = { fase: 'cargando' } | { fase: 'error'; mensaje: string } | { fase: 'lista'; sesiones: SesionActiva[] };

/** "1 sesión", "3 sesiones". */
const sesiones = (n: number) => `${n} ${n === 1 ? 'sesión' : 'sesiones'}`;

/** The sessions list. */
export function SesionesActivas({ bloqueado, version }: SesionesActivasProps) {
  const [carga, setCarga] = useState<Carga>({ fase: 'cargando' });
  const f = useFormulario();

  const cargar = useCallback(async () => {
    const r = await apiFetch<SesionActiva[]>(urlApi('/perfil/sesiones'));
    setCarga(r.ok ? { fase: 'lista', sesiones: r.datos } : { fase: 'error', mensaje: r.error.mensaje });
  }, []);

  useEffect(() => {
    void cargar();
  }, [cargar, version]);

  const otras = carga.fase === 'lista' ? carga.sesiones.filter((s) => !s.actual).length : 0;

  const cerrarOtras = async () => {
    if (bloqueado) return;
    const ok = await f.enviar(
      () => apiFetch<{ cerradas: number }>(urlApi('/perfil/sesiones/cerrar-otras'), { method: 'POST' }),
      (d) => (d.cerradas === 0 ? 'No había otras sesiones abiertas.' : `Hemos cerrado ${sesiones(d.cerradas)}.`),
    );
    if (ok) await cargar();
  };

  return (
    <BloquePerfil id="perfil-sesiones" titulo="Sesiones abiertas">
      <p className="priv-nota">
        Estos son los dispositivos donde su cuenta tiene la sesión abierta. Si no reconoce alguno, cierre las demás sesiones y cambie su
        contraseña.
      </p>
      <ListaAlertas alertas={f.alertas} alCerrar={f.cerrarAlerta} etiqueta="Resultado de cerrar sesiones" />
      {carga.fase === 'cargando' && <p role="status">Cargando las sesiones…</p>}
      {carga.fase === 'error' && (
        <p className="priv-aviso priv-aviso--error" role="alert">
          No hemos podido cargar sus sesiones: {carga.mensaje}
        </p>
      )}
      {carga.fase === 'lista' && (
        <ul className="priv-sesiones" aria-label="Lista de sesiones abiertas">
          {carga.sesiones.map((s) => (
            <li key={s.id} className={`priv-sesion${s.actual ? ' priv-sesion--actual' : ''}`}>
              <p className="priv-sesion__titulo">
                <strong>{nombreNavegador(s.navegador)}</strong>
                {s.actual && <span className="priv-etiqueta priv-etiqueta--si">Esta sesión</span>}
                {s.suplantacion && <span className="priv-etiqueta">Abierta por un administrador</span>}
              </p>
              <dl className="priv-sesion__datos">
                <Dato t="Abierta">{fechaHora(s.creada)}</Dato>
                <Dato t="Último uso">{fechaHora(s.ultimoUso)}</Dato>
                <Dato t="Dirección IP">{s.ip ?? 'Desconocida'}</Dato>
              </dl>
            </li>
          ))}
        </ul>
      )}
      {bloqueado && <p className="priv-nota priv-nota--bloqueo">No puede cerrar sesiones mientras actúa como otro usuario.</p>}
      <button
        type="button"
        className="priv-boton priv-boton--secundario"
        onClick={() => void cerrarOtras()}
        disabled={bloqueado || (carga.fase === 'lista' && otras === 0)}
        aria-busy={f.enviando || undefined}
      >
        Cerrar las demás sesiones
      </button>
      {carga.fase === 'lista' && otras === 0 && !bloqueado && <p className="priv-nota">No tiene otras sesiones abiertas.</p>}
    </BloquePerfil>
  );
}
