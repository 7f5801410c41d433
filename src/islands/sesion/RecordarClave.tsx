/**
 * /sesion/recordar-clave (docs/producto.md §2, §5 Recover, §8): e-mail (required, valid) and NIF (required);
 * the server mails a reset link when an active account matches both, and answers the same either way.
 */
import { useState, type SubmitEvent } from 'react';
import { apiFetch } from '../../lib/api/cliente.ts';
import { recuperarClaveSchema } from '../../lib/cuentas/reglas.ts';
import { CampoCorreo } from '../comunes/formulario/CampoCorreo.tsx';
import { erroresDeResultado } from '../comunes/formulario/errores.ts';
import { ResumenErrores } from '../comunes/formulario/ResumenErrores.tsx';
import { CampoNif } from './CampoNif.tsx';
import { FormularioSesion, PantallaSesion } from './PantallaSesion.tsx';
import { useFormularioSesion } from './usar-sesion.ts';
import { TEXTOS } from './textos.ts';
import './sesion.css';
import { urlApi } from '../../lib/api/rutas.ts';

const ORDEN = ['correoElectronico', 'nif'] as const;

/** Where a logged-in visitor is sent (docs/producto.md §2: the requests list). */
const DESTINO_CON_SESION = '/accesoyconexion/listado-de-solicitudes';

/** The password recovery screen. */
export default function RecordarClave() {
  const [correo, setCorreo] = useState('');
  const [nif, setNif] = useState('');
  // docs/producto.md §2: a visitor who is already logged in leaves this screen.
  const f = useFormularioSesion(DESTINO_CON_SESION);
  const { setModal, enviando } = f;

  const onSubmit = async (ev: SubmitEvent<HTMLFormElement>) => {
    ev.preventDefault();
    if (enviando.current) return;
    const payload = { nif, correoElectronico: correo, host: `${window.location.origin}/sesion` };
    const r = recuperarClaveSchema.safeParse(payload);
    if (!f.comprobar(erroresDeResultado(ORDEN, r)) || !r.success) return;
    enviando.current = true;
    setModal({ tipo: 'spinner' });
    const res = await apiFetch(urlApi('/recuperarClave'), { method: 'POST', json: r.data });
    enviando.current = false;
    if (res.status === 200) {
      setModal({ tipo: 'mensaje', titulo: TEXTOS.peticionProcesada, mensaje: TEXTOS.peticionProcesadaTexto });
    } else {
      // A 429 says how long to wait: that helps more than "verify your data".
      const texto = res.status === 429 && !res.ok && res.error.delServidor ? res.error.mensaje : TEXTOS.peticionFallidaTexto;
      setModal({ tipo: 'mensaje', titulo: TEXTOS.peticionFallida, mensaje: texto });
    }
  };

  return (
    <PantallaSesion volver={{ href: '/sesion/login', texto: 'Volver a Acceso' }} modal={f.modal}>
      <p>Indique el correo electrónico y el NIF, NIE o CIF de su cuenta. Le enviaremos un enlace para elegir una contraseña nueva.</p>
      <ResumenErrores titulo="Revise los campos marcados" errores={f.errores} intento={f.intento} />
      <FormularioSesion etiqueta="Recuperar la contraseña" alEnviar={onSubmit} textoEnviar="Enviar">
        <CampoCorreo {...f.campo('correoElectronico')} etiqueta="Correo electrónico" valor={correo} alCambiar={setCorreo} requerido />
        <CampoNif {...f.campo('nif')} valor={nif} alCambiar={setNif} />
      </FormularioSesion>
    </PantallaSesion>
  );
}
