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
import { CampoCorreo } from '../comunes/formulario/CampoCorreo.tsx';
import { CampoPassword } from '../comunes/formulario/CampoPassword.tsx';
import { CampoTexto } from '../comunes/formulario/CampoTexto.tsx';
import { erroresDeResultado } from '../comunes/formulario/errores.ts';
import { ResumenErrores } from '../comunes/formulario/ResumenErrores.tsx';
import { CampoNif } from './CampoNif.tsx';
import { FormularioSesion, PantallaSesion } from './PantallaSesion.tsx';
import { useFormularioSesion } from './usar-sesion.ts';
import { ESPERAS, MENSAJE_ERROR_CONEXION, TEXTOS } from './textos.ts';
import './sesion.css';
import { urlApi } from '../../lib/api/rutas.ts';

/** Order of the fields in the form, for the error summary. */
const ORDEN = ['nif', 'nombre', 'apellido1', 'apellido2', 'razonSocial', 'correoElectronico', 'password'] as const;

/** A name field that the NIF's kind enables or clears (docs/producto.md §4). */
interface CampoIdentidad {
  id: CampoDependiente;
  etiqueta: string;
  autoComplete: string;
}

/** The person's names, for a DNI or NIE. */
const CAMPOS_PERSONA: readonly CampoIdentidad[] = [
  { id: 'nombre', etiqueta: 'Nombre', autoComplete: 'given-name' },
  { id: 'apellido1', etiqueta: 'Primer apellido', autoComplete: 'family-name' },
  { id: 'apellido2', etiqueta: 'Segundo apellido', autoComplete: 'off' },
];

/** The company name, for a CIF. */
const CAMPO_EMPRESA: CampoIdentidad = { id: 'razonSocial', etiqueta: 'Razón social', autoComplete: 'organization' };

/** Where a logged-in visitor is sent (docs/producto.md §2). */
const DESTINO_CON_SESION = '/accesoyconexion/listado-de-solicitudes';

/** The registration screen. */
export default function Registro() {
  const [identidad, setIdentidad] = useState<CamposIdentidad>({ nif: '', nombre: '', apellido1: '', apellido2: '', razonSocial: '' });
  const [correo, setCorreo] = useState('');
  const [password, setPassword] = useState('');
  // docs/producto.md §2: a visitor who is already logged in leaves this screen.
  const f = useFormularioSesion(DESTINO_CON_SESION);
  const { setModal, enviando } = f;
  const [alertas, setAlertas] = useState<Alerta[]>([]);
  const primerCampo = useRef<HTMLInputElement>(null);

  const reglas = reglasRegistro(identidad);

  const cambiar = (campo: keyof CamposIdentidad, valor: string) => {
    setIdentidad((actual) => reglasRegistro({ ...actual, [campo]: campo === 'nif' ? nifTecleado(valor) : valor }).valores);
  };

  const onSubmit = async (ev: SubmitEvent<HTMLFormElement>) => {
    ev.preventDefault();
    if (enviando.current) return;
    const payload = payloadRegistro({ ...identidad, correoElectronico: correo, password }, window.location.origin);
    const r = altaUsuarioSchema.safeParse(payload);
    if (!f.comprobar(erroresDeResultado(ORDEN, r)) || !r.success) return;
    setAlertas([]);
    enviando.current = true;
    setModal({ tipo: 'spinner' });
    // The payload as built (docs/producto.md §3), not the schema's output: the server normalises again anyway.
    const res = await apiFetch(urlApi('/altaUsuario'), { method: 'POST', json: payload });
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

  const campoIdentidad = (c: CampoIdentidad) => (
    <CampoTexto
      key={c.id}
      {...f.campo(c.id)}
      etiqueta={c.etiqueta}
      valor={identidad[c.id]}
      alCambiar={(v) => cambiar(c.id, v)}
      autoComplete={c.autoComplete}
      deshabilitado={!reglas.habilitados[c.id]}
      requerido
    />
  );

  return (
    <PantallaSesion volver={{ href: '/sesion/login', texto: 'Volver a Acceso' }} ancha modal={f.modal}>
      <ResumenErrores titulo={MENSAJE_FORMULARIO_INVALIDO} errores={f.errores} intento={f.intento} />
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
      <FormularioSesion etiqueta="Crear una cuenta" alEnviar={onSubmit} textoEnviar="Crear cuenta">
        <p className="sesion__nota">Todos los campos que puede rellenar son obligatorios.</p>
        <CampoNif
          {...f.campo('nif')}
          valor={identidad.nif}
          alCambiar={(v) => cambiar('nif', v)}
          ayuda={
            <>
              DNI, NIE o CIF con su letra o dígito de control.{' '}
              {/* Only the classification is live: it is what changes while the user types. */}
              <span aria-live="polite">
                Tipo: <strong data-tipo-nif={reglas.tipo}>{TEXTO_TIPO_NIF[reglas.tipo]}</strong>
              </span>
            </>
          }
          refInput={primerCampo}
        />
        <fieldset className="sesion__grupo">
          <legend>Persona (DNI o NIE)</legend>
          {CAMPOS_PERSONA.map(campoIdentidad)}
        </fieldset>
        <fieldset className="sesion__grupo">
          <legend>Empresa (CIF)</legend>
          {campoIdentidad(CAMPO_EMPRESA)}
        </fieldset>
        <CampoCorreo {...f.campo('correoElectronico')} etiqueta="Correo electrónico" valor={correo} alCambiar={setCorreo} requerido />
        <CampoPassword
          {...f.campo('password')}
          etiqueta="Contraseña"
          valor={password}
          alCambiar={setPassword}
          ayuda={MENSAJE_PASSWORD}
          autoComplete="new-password"
          requerido
        />
      </FormularioSesion>
      <p className="sesion__enlaces">
        ¿Ya tiene cuenta? <a href="/sesion/login">Acceda con su usuario</a>
      </p>
    </PantallaSesion>
  );
}
