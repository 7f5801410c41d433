/**
 * /sesion/crear-cuenta, "Registro" (docs/producto.md §2, §3, §4, §5, §8). The NIF is upper-cased while typed
 * and classified; the name and company fields follow `reglasRegistro`; the form is checked on submit
 * with the shared schema; success shows "Cuenta creada" and goes to the login after 7 s.
 */
import { useRef, useState, type SubmitEvent } from 'react';
import { apiFetch, mensajesDeError } from '../../lib/api/cliente.ts';
import {
  nifTecleado,
  payloadRegistro,
  reglasRegistro,
  TEXTO_TIPO_NIF,
  type CampoDependiente,
  type CamposIdentidad,
} from '../../lib/cuentas/formulario-registro.ts';
import { altaUsuarioSchema, MENSAJE_FORMULARIO_INVALIDO, MENSAJE_PASSWORD } from '../../lib/cuentas/reglas.ts';
import { alertasDe, ListaAlertas, type Alerta } from '../comunes/ListaAlertas.tsx';
import { Modal, type EstadoModal } from '../comunes/Modal.tsx';
import { CampoPassword, CampoTexto, EnlaceVolver, erroresPorCampo, ResumenErrores, type ErrorCampo } from './campos.tsx';
import { useSalirSiHaySesion } from './usar-sesion.ts';
import { ESPERAS, MENSAJE_ERROR_CONEXION, TEXTOS } from './textos.ts';
import './sesion.css';

/** Order of the fields in the form, for the error summary. */
const ORDEN = ['nif', 'nombre', 'apellido1', 'apellido2', 'razonSocial', 'correoElectronico', 'password'] as const;

/** Where a logged-in visitor is sent (docs/producto.md §2). */
const DESTINO_CON_SESION = '/accesoyconexion/listado-de-solicitudes';

/** The registration screen. */
export default function Registro() {
  const [identidad, setIdentidad] = useState<CamposIdentidad>({ nif: '', nombre: '', apellido1: '', apellido2: '', razonSocial: '' });
  const [correo, setCorreo] = useState('');
  const [password, setPassword] = useState('');
  const [errores, setErrores] = useState<Record<string, string>>({});
  const [intento, setIntento] = useState(0);
  const [alertas, setAlertas] = useState<Alerta[]>([]);
  const [modal, setModal] = useState<EstadoModal | null>(null);
  const enviando = useRef(false);
  const primerCampo = useRef<HTMLInputElement>(null);

  // docs/producto.md §2: a visitor who is already logged in leaves this screen.
  useSalirSiHaySesion(DESTINO_CON_SESION);

  const reglas = reglasRegistro(identidad);

  const cambiar = (campo: keyof CamposIdentidad, valor: string) => {
    setIdentidad((actual) => reglasRegistro({ ...actual, [campo]: campo === 'nif' ? nifTecleado(valor) : valor }).valores);
  };

  const onSubmit = async (ev: SubmitEvent<HTMLFormElement>) => {
    ev.preventDefault();
    if (enviando.current) return;
    const payload = payloadRegistro({ ...identidad, correoElectronico: correo, password }, window.location.origin);
    const r = altaUsuarioSchema.safeParse(payload);
    if (!r.success) {
      setErrores(erroresPorCampo(r.error.issues));
      setIntento((n) => n + 1);
      return;
    }
    setErrores({});
    setAlertas([]);
    enviando.current = true;
    setModal({ tipo: 'spinner' });
    // The payload as built (docs/producto.md §3), not the schema's output: the server normalises again anyway.
    const res = await apiFetch('altaUsuario', { method: 'POST', json: payload });
    if (res.ok) {
      setModal({ tipo: 'mensaje', titulo: TEXTOS.cuentaCreada, mensaje: TEXTOS.cuentaCreadaTexto });
      window.setTimeout(() => window.location.assign('/sesion/login'), ESPERAS.trasAlta);
      return;
    }
    enviando.current = false;
    if (res.status === 0) {
      setModal({ tipo: 'mensaje', titulo: TEXTOS.error, mensaje: MENSAJE_ERROR_CONEXION });
    } else if (Array.isArray(res.error.cuerpo)) {
      // docs/producto.md §8: a list of messages goes to the alert list, one entry each.
      setModal(null);
      setAlertas(alertasDe(mensajesDeError(res.error)));
    } else {
      // docs/producto.md §8: the server's text, or the default sentence when it sent none.
      setModal({
        tipo: 'mensaje',
        titulo: TEXTOS.error,
        mensaje: res.error.delServidor ? res.error.mensaje : TEXTOS.altaFallidaPorDefecto,
      });
    }
  };

  const lista: ErrorCampo[] = ORDEN.filter((c) => errores[c]).map((c) => ({ campo: c, mensaje: errores[c]! }));
  const habilitado = (c: CampoDependiente) => reglas.habilitados[c];

  return (
    <div className="sesion">
      <EnlaceVolver href="/sesion/login" texto="Volver a Acceso" />
      <div className="sesion__tarjeta sesion__tarjeta--ancha">
        <ResumenErrores titulo={MENSAJE_FORMULARIO_INVALIDO} errores={lista} intento={intento} />
        <ListaAlertas
          alertas={alertas}
          etiqueta="Errores del alta"
          alCerrar={(id) => {
            setAlertas((a) => {
              const quedan = a.filter((x) => x.id !== id);
              if (quedan.length === 0) primerCampo.current?.focus();
              return quedan;
            });
          }}
        />
        <form noValidate onSubmit={onSubmit} aria-label="Crear una cuenta">
          <p className="sesion__nota">Todos los campos que puede rellenar son obligatorios.</p>
          <CampoTexto
            id="nif"
            etiqueta="NIF/CIF"
            valor={identidad.nif}
            alCambiar={(v) => cambiar('nif', v)}
            error={errores['nif']}
            ayuda={
              <>
                DNI, NIE o CIF con su letra o dígito de control.{' '}
                {/* Only the classification is live: it is what changes while the user types. */}
                <span aria-live="polite">
                  Tipo: <strong data-tipo-nif={reglas.tipo}>{TEXTO_TIPO_NIF[reglas.tipo]}</strong>
                </span>
              </>
            }
            autoComplete="off"
            autoCapitalize="characters"
            requerido

            refInput={primerCampo}
          />
          <fieldset className="sesion__grupo">
            <legend>Persona (DNI o NIE)</legend>
            <CampoTexto
              id="nombre"
              etiqueta="Nombre"
              valor={identidad.nombre}
              alCambiar={(v) => cambiar('nombre', v)}
              error={errores['nombre']}
              autoComplete="given-name"
              deshabilitado={!habilitado('nombre')}
              requerido
            />
            <CampoTexto
              id="apellido1"
              etiqueta="Primer apellido"
              valor={identidad.apellido1}
              alCambiar={(v) => cambiar('apellido1', v)}
              error={errores['apellido1']}
              autoComplete="family-name"
              deshabilitado={!habilitado('apellido1')}
              requerido
            />
            <CampoTexto
              id="apellido2"
              etiqueta="Segundo apellido"
              valor={identidad.apellido2}
              alCambiar={(v) => cambiar('apellido2', v)}
              error={errores['apellido2']}
              autoComplete="off"
              deshabilitado={!habilitado('apellido2')}
              requerido
            />
          </fieldset>
          <fieldset className="sesion__grupo">
            <legend>Empresa (CIF)</legend>
            <CampoTexto
              id="razonSocial"
              etiqueta="Razón social"
              valor={identidad.razonSocial}
              alCambiar={(v) => cambiar('razonSocial', v)}
              error={errores['razonSocial']}
              autoComplete="organization"
              deshabilitado={!habilitado('razonSocial')}
              requerido
            />
          </fieldset>
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
          <CampoPassword
            id="password"
            etiqueta="Contraseña"
            valor={password}
            alCambiar={setPassword}
            error={errores['password']}
            ayuda={MENSAJE_PASSWORD}
            autoComplete="new-password"
            requerido
          />
          <button type="submit" className="sesion__enviar">
            Crear cuenta
          </button>
        </form>
        <p className="sesion__enlaces">
          ¿Ya tiene cuenta? <a href="/sesion/login">Acceda con su usuario</a>
        </p>
      </div>
      <Modal estado={modal} alCerrar={() => setModal(null)} />
    </div>
  );
}
