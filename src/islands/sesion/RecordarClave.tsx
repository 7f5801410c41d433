/**
 * /sesion/recordar-clave (docs/producto.md §2, §5 Recover, §8): e-mail (required, valid) and NIF (required);
 * the server mails a reset link when an active account matches both, and answers the same either way.
 */
import { useRef, useState, type SubmitEvent } from 'react';
import { apiFetch } from '../../lib/api/cliente.ts';
import { recuperarClaveSchema } from '../../lib/cuentas/reglas.ts';
import { nifTecleado } from '../../lib/cuentas/formulario-registro.ts';
import { Modal, type EstadoModal } from '../comunes/Modal.tsx';
import { CampoTexto, EnlaceVolver, erroresPorCampo, ResumenErrores, type ErrorCampo } from './campos.tsx';
import { useSalirSiHaySesion } from './usar-sesion.ts';
import { TEXTOS } from './textos.ts';
import './sesion.css';

const ORDEN = ['correoElectronico', 'nif'] as const;

/** Where a logged-in visitor is sent (docs/producto.md §2: the requests list). */
const DESTINO_CON_SESION = '/accesoyconexion/listado-de-solicitudes';

/** The password recovery screen. */
export default function RecordarClave() {
  const [correo, setCorreo] = useState('');
  const [nif, setNif] = useState('');
  const [errores, setErrores] = useState<Record<string, string>>({});
  const [intento, setIntento] = useState(0);
  const [modal, setModal] = useState<EstadoModal | null>(null);
  const enviando = useRef(false);

  // docs/producto.md §2: a visitor who is already logged in leaves this screen.
  useSalirSiHaySesion(DESTINO_CON_SESION);

  const onSubmit = async (ev: SubmitEvent<HTMLFormElement>) => {
    ev.preventDefault();
    if (enviando.current) return;
    const payload = { nif, correoElectronico: correo, host: `${window.location.origin}/sesion` };
    const r = recuperarClaveSchema.safeParse(payload);
    if (!r.success) {
      setErrores(erroresPorCampo(r.error.issues));
      setIntento((n) => n + 1);
      return;
    }
    setErrores({});
    enviando.current = true;
    setModal({ tipo: 'spinner' });
    const res = await apiFetch('recuperarClave', { method: 'POST', json: r.data });
    enviando.current = false;
    if (res.status === 200) {
      setModal({ tipo: 'mensaje', titulo: TEXTOS.peticionProcesada, mensaje: TEXTOS.peticionProcesadaTexto });
    } else {
      // A 429 says how long to wait: that helps more than "verify your data".
      const texto = res.status === 429 && !res.ok && res.error.delServidor ? res.error.mensaje : TEXTOS.peticionFallidaTexto;
      setModal({ tipo: 'mensaje', titulo: TEXTOS.peticionFallida, mensaje: texto });
    }
  };

  const lista: ErrorCampo[] = ORDEN.filter((c) => errores[c]).map((c) => ({ campo: c, mensaje: errores[c]! }));

  return (
    <div className="sesion">
      <EnlaceVolver href="/sesion/login" texto="Volver a Acceso" />
      <div className="sesion__tarjeta">
        <p>Indique el correo electrónico y el NIF, NIE o CIF de su cuenta. Le enviaremos un enlace para elegir una contraseña nueva.</p>
        <ResumenErrores titulo="Revise los campos marcados" errores={lista} intento={intento} />
        <form noValidate onSubmit={onSubmit} aria-label="Recuperar la contraseña">
          <CampoTexto
            id="correoElectronico"
            etiqueta="Correo electrónico"
            tipo="email"
            inputMode="email"
            valor={correo}
            alCambiar={setCorreo}
            error={errores['correoElectronico']}
            autoComplete="email"
            autoCapitalize="none"
            requerido
          />
          <CampoTexto
            id="nif"
            etiqueta="NIF/CIF"
            valor={nif}
            alCambiar={(v) => setNif(nifTecleado(v))}
            error={errores['nif']}
            autoComplete="off"
            autoCapitalize="characters"
            requerido
          />
          <button type="submit" className="sesion__enviar">
            Enviar
          </button>
        </form>
      </div>
      <Modal estado={modal} alCerrar={() => setModal(null)} />
    </div>
  );
}
