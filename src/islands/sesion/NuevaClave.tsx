/**
 * /sesion/nueva-clave/<id>, the link of the recovery mail (docs/producto.md §2, §5 New password, §8): two
 * password fields, checked in the order of `errorNuevaClave` (empty, different, rule), each failure
 * with its modal; the id travels inside `host`, the page's own URL (docs/api.md).
 */
import { useState, type SubmitEvent } from 'react';
import { apiFetch } from '../../lib/api/cliente.ts';
import { errorNuevaClave, MENSAJE_PASSWORD } from '../../lib/cuentas/reglas.ts';
import { CampoPassword } from '../comunes/formulario/CampoPassword.tsx';
import { FormularioSesion, PantallaSesion } from './PantallaSesion.tsx';
import { useModalSesion } from './usar-sesion.ts';
import { TEXTOS } from './textos.ts';
import './sesion.css';
import { urlApi } from '../../lib/api/rutas.ts';

/** The modal of each mistake (docs/producto.md §5). */
const MODAL_ERROR = {
  vacios: { titulo: TEXTOS.camposVacios, mensaje: TEXTOS.camposVaciosTexto },
  distintas: { titulo: TEXTOS.clavesDistintas, mensaje: TEXTOS.clavesDistintasTexto },
  patron: { titulo: TEXTOS.patron, mensaje: TEXTOS.patronTexto },
} as const;

/** The new-password screen. */
export default function NuevaClave() {
  const [password, setPassword] = useState('');
  const [copia, setCopia] = useState('');
  const { modal, setModal, enviando } = useModalSesion();

  const onSubmit = async (ev: SubmitEvent<HTMLFormElement>) => {
    ev.preventDefault();
    if (enviando.current) return;
    const fallo = errorNuevaClave(password, copia);
    if (fallo) {
      setModal({ tipo: 'mensaje', ...MODAL_ERROR[fallo] });
      return;
    }
    enviando.current = true;
    setModal({ tipo: 'spinner' });
    const res = await apiFetch(urlApi('/actualizarClave'), {
      method: 'POST',
      json: { password, passwordCopy: copia, host: window.location.href },
    });
    enviando.current = false;
    if (res.status === 200) {
      setPassword('');
      setCopia('');
      setModal({
        tipo: 'aceptar',
        titulo: TEXTOS.claveCambiada,
        mensaje: TEXTOS.claveCambiadaTexto,
        textoAceptar: 'Ir a Acceso',
        alAceptar: () => window.location.assign('/sesion/login'),
      });
    } else {
      const texto = res.status === 429 && !res.ok && res.error.delServidor ? res.error.mensaje : TEXTOS.claveNoCambiadaTexto;
      setModal({ tipo: 'mensaje', titulo: TEXTOS.claveNoCambiada, mensaje: texto });
    }
  };

  return (
    <PantallaSesion modal={modal}>
      <div className="sesion__aviso" role="note">
        <strong>Requisitos de la contraseña.</strong> {MENSAJE_PASSWORD}
      </div>
      <FormularioSesion etiqueta="Elegir una contraseña nueva" alEnviar={onSubmit} textoEnviar="Cambiar la contraseña">
        <CampoPassword
          id="password"
          etiqueta="Nueva contraseña"
          valor={password}
          alCambiar={setPassword}
          autoComplete="new-password"
          requerido
          textoMostrar="Mostrar la nueva contraseña"
        />
        <CampoPassword
          id="passwordCopy"
          etiqueta="Repita la nueva contraseña"
          valor={copia}
          alCambiar={setCopia}
          autoComplete="new-password"
          requerido
          textoMostrar="Mostrar la contraseña repetida"
        />
      </FormularioSesion>
      <p className="sesion__enlaces">
        <a href="/sesion/login">Volver a Acceso</a>
      </p>
    </PantallaSesion>
  );
}
