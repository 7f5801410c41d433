/**
 * /perfil (decision 006): the account's data (NIF shown, not editable), the
 * names or company name by the kind of NIF, the e-mail change confirmed by a mailed link, the
 * password change, the live sessions with "Cerrar las demás sesiones", and for supply companies the
 * SSH keys of their SFTP access. In an impersonated session the password, e-mail and sessions
 * actions are disabled and the SSH keys are not shown (the API refuses them too).
 */
import { useStore } from '@nanostores/react';
import { useCallback, useEffect, useState } from 'react';
import { apiFetch } from '../../../lib/api/cliente.ts';
import { fechaHora, type Perfil as DatosDePerfil } from '../../../lib/perfil/pantalla.ts';
import { tieneArea } from '../../../lib/permisos.ts';
import { $permisos, $session } from '../../../lib/sesion/index.ts';
import type { PropsPantalla } from '../AppPrivada.tsx';
import { CambioClave } from '../perfil/CambioClave.tsx';
import { CambioEmail } from '../perfil/CambioEmail.tsx';
import { ClavesSsh } from '../perfil/ClavesSsh.tsx';
import { DatosPersonales } from '../perfil/DatosPersonales.tsx';
import { BloquePerfil } from '../perfil/FormularioPerfil.tsx';
import { SesionesActivas } from '../perfil/SesionesActivas.tsx';
import { Dato } from '../../comunes/Dato.tsx';
import '../../sesion/sesion.css';
import { urlApi } from '../../../lib/api/rutas.ts';

type Carga = { fase: 'cargando' } | { fase: 'error'; mensaje: string } | { fase: 'lista'; perfil: DatosDePerfil };

/** The profile screen. */
export default function Perfil({ ruta }: PropsPantalla) {
  const sesion = useStore($session);
  const permisos = useStore($permisos);
  const [carga, setCarga] = useState<Carga>({ fase: 'cargando' });
  const [versionSesiones, setVersionSesiones] = useState(0);

  const cargar = useCallback(async () => {
    const r = await apiFetch<DatosDePerfil>(urlApi('/perfil'));
    setCarga(r.ok ? { fase: 'lista', perfil: r.datos } : { fase: 'error', mensaje: r.error.mensaje });
  }, []);

  useEffect(() => {
    void cargar();
  }, [cargar]);

  const suplantado = Boolean(sesion?.suplantadoPor) || (carga.fase === 'lista' && carga.perfil.suplantado);
  // Only a supply company's own session may read its SSH keys: the API answers 403 to anyone else, and a 403 ends the session.
  const clavesSsh = tieneArea(permisos, 'comercializadora') && !suplantado;

  return (
    <div className="priv-pagina priv-perfil">
      <h1 tabIndex={-1}>{ruta.titulo}</h1>
      {carga.fase === 'cargando' && (
        <p role="status" className="priv-cargando">
          <span className="priv-cargando__giro" aria-hidden="true"></span>Cargando sus datos…
        </p>
      )}
      {carga.fase === 'error' && (
        <div className="priv-aviso priv-aviso--error" role="alert">
          <p>No hemos podido cargar sus datos: {carga.mensaje}</p>
          <p>
            <button type="button" className="priv-boton" onClick={() => void cargar()}>
              Reintentar
            </button>
          </p>
        </div>
      )}
      {carga.fase === 'lista' && (
        <>
          {suplantado && (
            <div className="priv-aviso priv-aviso--warning">
              <p>
                <strong>Está actuando como este usuario.</strong> Puede ver sus datos y corregir su nombre, pero no cambiar su contraseña ni
                su correo electrónico, ni cerrar sus sesiones: esas acciones son solo de la persona titular de la cuenta.
              </p>
            </div>
          )}
          <BloquePerfil id="perfil-cuenta" titulo="Datos de la cuenta">
            <dl className="priv-datos">
              <Dato t="NIF">{carga.perfil.nif ?? 'Sin NIF (cuenta de administración)'}</Dato>
              <Dato t="Correo electrónico (usuario)">{carga.perfil.email}</Dato>
              <Dato t="Cuenta creada">{fechaHora(carga.perfil.creado)}</Dato>
            </dl>
            <p className="priv-nota">
              El NIF no se puede cambiar desde aquí: es el dato que le identifica como titular de sus suministros, y cambiarlo daría acceso
              a los datos de otra persona. Si es incorrecto, pida su corrección a su distribuidora a través de{' '}
              <a href="/informacion">Contacto</a>, con un documento que acredite el NIF correcto.
            </p>
          </BloquePerfil>
          <DatosPersonales perfil={carga.perfil} alGuardar={(p) => setCarga({ fase: 'lista', perfil: p })} />
          <CambioEmail perfil={carga.perfil} bloqueado={suplantado} alSolicitar={() => void cargar()} />
          <CambioClave bloqueado={suplantado} alCambiar={() => setVersionSesiones((v) => v + 1)} />
          <SesionesActivas bloqueado={suplantado} version={versionSesiones} />
          {clavesSsh && <ClavesSsh correo={carga.perfil.email} />}
        </>
      )}
    </div>
  );
}
