/**
 * "No tengo luz" (docs/decisions/023): a CUPS, optionally a contact, and the answer of
 * POST /api/averias/consulta in plain words with the 24-hour fault line. Plain React, small: the
 * page ships nothing else. The answer (`Respuesta`, ./comunes/RespuestaAveria.tsx) is shared with
 * the private area's screen.
 */
import { useId, useState, type FormEvent } from 'react';
import { errorCups, MENSAJES_CUPS } from '../lib/cups.ts';
import type { RespuestaAveriaApi } from '../lib/averias/textos.ts';
import { Respuesta } from './comunes/RespuestaAveria.tsx';
import './NoTengoLuz.css';
import { urlApi } from '../lib/api/rutas.ts';

const ERROR_GENERICO = 'No se ha podido realizar la consulta. Inténtelo de nuevo o llame a su teléfono de averías.';

type Estado = { fase: 'inicial' } | { fase: 'consultando' } | { fase: 'listo'; r: RespuestaAveriaApi } | { fase: 'error'; mensaje: string };

/** The form and its answer; `api` is the endpoint asked (the public one unless told). */
export default function NoTengoLuz({ api = urlApi('/averias/consulta') }: { api?: string }) {
  const [cups, setCups] = useState('');
  const [telefono, setTelefono] = useState('');
  const [email, setEmail] = useState('');
  const [errorCampo, setErrorCampo] = useState<string | null>(null);
  const [estado, setEstado] = useState<Estado>({ fase: 'inicial' });
  const id = useId();

  async function consultar(avisar: boolean) {
    const error = errorCups(cups);
    if (error) {
      setErrorCampo(MENSAJES_CUPS[error]);
      document.getElementById(`${id}-cups`)?.focus();
      return;
    }
    setErrorCampo(null);
    setEstado({ fase: 'consultando' });
    try {
      const contacto = { ...(telefono.trim() ? { telefono: telefono.trim() } : {}), ...(email.trim() ? { email: email.trim() } : {}) };
      const cuerpo = { cups, ...contacto, avisar };
      const res = await fetch(api, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(cuerpo) });
      const json: unknown = await res.json().catch(() => null);
      if (res.status === 200) setEstado({ fase: 'listo', r: json as RespuestaAveriaApi });
      else if (res.status === 400 && Array.isArray(json)) setEstado({ fase: 'error', mensaje: json.join(' ') });
      else setEstado({ fase: 'error', mensaje: (json as { message?: string } | null)?.message ?? ERROR_GENERICO });
    } catch {
      setEstado({ fase: 'error', mensaje: ERROR_GENERICO });
    }
  }

  const enviar = (e: FormEvent) => {
    e.preventDefault();
    if (estado.fase !== 'consultando') void consultar(false);
  };

  return (
    <div className="no-tengo-luz">
      <form className="ntl-formulario" noValidate onSubmit={enviar}>
        <label htmlFor={`${id}-cups`}>CUPS del punto de suministro</label>
        <p id={`${id}-ayuda`} className="ayuda">
          Figura en su factura: 20 o 22 caracteres que empiezan por ES. Por ejemplo, ES9901000000000001QY.
        </p>
        {errorCampo && (
          <p id={`${id}-error`} className="ntl-error">
            {errorCampo}
          </p>
        )}
        <input
          id={`${id}-cups`}
          name="cups"
          autoComplete="off"
          spellCheck={false}
          value={cups}
          onChange={(e) => setCups(e.target.value)}
          aria-invalid={errorCampo ? 'true' : undefined}
          aria-describedby={errorCampo ? `${id}-ayuda ${id}-error` : `${id}-ayuda`}
        />
        <details>
          <summary>Dejar un teléfono o correo de contacto (opcional)</summary>
          <label htmlFor={`${id}-tel`}>Teléfono</label>
          <input id={`${id}-tel`} type="tel" autoComplete="tel" value={telefono} onChange={(e) => setTelefono(e.target.value)} />
          <label htmlFor={`${id}-email`}>Correo electrónico</label>
          <input id={`${id}-email`} type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
        </details>
        <button type="submit" className="boton" aria-disabled={estado.fase === 'consultando' ? 'true' : undefined}>
          {estado.fase === 'consultando' ? 'Consultando…' : 'Consultar'}
        </button>
      </form>
      <div aria-live="polite">
        {estado.fase === 'listo' && <Respuesta r={estado.r} alAvisar={() => void consultar(true)} />}
        {estado.fase === 'error' && <p className="ntl-error">{estado.mensaje}</p>}
      </div>
    </div>
  );
}
