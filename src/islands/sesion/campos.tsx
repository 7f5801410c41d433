/**
 * Form pieces shared by the five session screens, following docs/diseno.md "Forms": a label, an optional
 * hint, the error beside the field (announced with the field through aria-describedby), and an
 * error summary at the top whose links move focus to each field.
 *
 * Inputs have no `name` on purpose: a form submitted before React hydrates falls back to a native
 * GET of the same page, and without names no password ends up in the address, the history or a log.
 */
import { useEffect, useId, useRef, useState, type ReactNode, type RefObject } from 'react';

/** One entry of the error summary: the field's id and its message. */
export interface ErrorCampo {
  /** id of the input the link focuses. */
  campo: string;
  /** The message shown beside the field and in the summary. */
  mensaje: string;
}

/** Props shared by text and password fields. */
interface BaseCampo {
  /** id of the input (the summary links to it). */
  id: string;
  /** Visible label. */
  etiqueta: string;
  /** Current value. */
  valor: string;
  /** New value on every keystroke. */
  alCambiar: (valor: string) => void;
  /** Message beside the field; absent when valid. */
  error?: string | undefined;
  /** Help under the label. */
  ayuda?: ReactNode;
  /** autocomplete token (username, current-password, new-password, email…). */
  autoComplete: string;
  /** Marks the field required for assistive technology; the form itself validates on submit. */
  requerido?: boolean;
  /** Disabled by the form's rules. */
  deshabilitado?: boolean;
  /** Focus target for the owner. */
  refInput?: RefObject<HTMLInputElement | null>;
}

/**
 * The input's ref, and what was typed before React hydrated the server-rendered form: a controlled
 * input's state starts empty, so without this a fast typist would submit "empty" fields.
 */
function useEntrada(p: BaseCampo): RefObject<HTMLInputElement | null> {
  const propio = useRef<HTMLInputElement>(null);
  const ref = p.refInput ?? propio;
  useEffect(() => {
    const tecleado = ref.current?.value ?? '';
    if (tecleado && tecleado !== p.valor) p.alCambiar(tecleado);
    // Once, at hydration.
  }, []);
  return ref;
}

/** Props of `CampoTexto`. */
export interface CampoTextoProps extends BaseCampo {
  /** Input type; text by default. */
  tipo?: 'text' | 'email';
  /** Mobile keyboard hint. */
  inputMode?: 'text' | 'email';
  /** Upper-case letters on mobile keyboards (the NIF). */
  autoCapitalize?: 'characters' | 'none' | 'words';
}

function describedBy(...ids: (string | false | undefined)[]): string | undefined {
  const v = ids.filter(Boolean).join(' ');
  return v || undefined;
}

/** The hint to show (not when the error says the same, e.g. the password rule) and the ids that describe the input. */
function textosCampo(p: Pick<BaseCampo, 'id' | 'ayuda' | 'error'>) {
  const ayuda = p.ayuda !== p.error ? p.ayuda : undefined;
  const idAyuda = ayuda ? `${p.id}-ayuda` : undefined;
  const idError = p.error ? `${p.id}-error` : undefined;
  return { ayuda, idAyuda, idError, describedBy: describedBy(idAyuda, idError) };
}

/** Label, hint and error of a field, above its input. */
function CabeceraCampo(p: { id: string; etiqueta: string; error: string | undefined; textos: ReturnType<typeof textosCampo> }) {
  return (
    <>
      <label htmlFor={p.id}>{p.etiqueta}</label>
      {p.textos.ayuda && (
        <p id={p.textos.idAyuda} className="campo__ayuda">
          {p.textos.ayuda}
        </p>
      )}
      {p.error && (
        <p id={p.textos.idError} className="campo__error">
          <span className="visually-hidden">Error: </span>
          {p.error}
        </p>
      )}
    </>
  );
}

/** A labelled text input with its hint and error. */
export function CampoTexto(p: CampoTextoProps) {
  const ref = useEntrada(p);
  const t = textosCampo(p);
  return (
    <div className={`campo${p.error ? ' campo--error' : ''}${p.deshabilitado ? ' campo--deshabilitado' : ''}`}>
      <CabeceraCampo id={p.id} etiqueta={p.etiqueta} error={p.error} textos={t} />
      <input
        ref={ref}
        id={p.id}
        type={p.tipo ?? 'text'}
        value={p.valor}
        onChange={(e) => p.alCambiar(e.target.value)}
        autoComplete={p.autoComplete}
        inputMode={p.inputMode}
        autoCapitalize={p.autoCapitalize}
        spellCheck={false}
        required={p.requerido}
        disabled={p.deshabilitado}
        aria-invalid={p.error ? true : undefined}
        aria-describedby={t.describedBy}
      />
    </div>
  );
}

/** Props of `CampoPassword`. */
export interface CampoPasswordProps extends BaseCampo {
  /** Accessible name of the show/hide button, distinct when a form has two password fields. */
  textoMostrar?: string;
}

/**
 * A password input with a show/hide toggle. The toggle is a real button with `aria-pressed`, whose
 * name stays the same so a screen reader user hears "Mostrar contraseña, pulsado".
 */
export function CampoPassword(p: CampoPasswordProps) {
  const [visible, setVisible] = useState(false);
  const ref = useEntrada(p);
  const [verbo = 'Mostrar', ...palabras] = (p.textoMostrar ?? 'Mostrar contraseña').split(' ');
  const resto = palabras.join(' ');
  const t = textosCampo(p);
  return (
    <div className={`campo${p.error ? ' campo--error' : ''}`}>
      <CabeceraCampo id={p.id} etiqueta={p.etiqueta} error={p.error} textos={t} />
      <div className="campo__password">
        <input
          ref={ref}
          id={p.id}
          type={visible ? 'text' : 'password'}
          value={p.valor}
          onChange={(e) => p.alCambiar(e.target.value)}
          autoComplete={p.autoComplete}
          autoCapitalize="none"
          spellCheck={false}
          required={p.requerido}
          aria-invalid={p.error ? true : undefined}
          aria-describedby={t.describedBy}
        />
        <button type="button" className="campo__ver" aria-pressed={visible} aria-controls={p.id} onClick={() => setVisible((v) => !v)}>
          <span aria-hidden="true" className={`ojo${visible ? ' ojo--tachado' : ''}`}></span>
          {/* "Mostrar" is shown; the rest names the field for assistive technology (the name starts with the visible word). */}
          <span className="campo__ver-verbo">{verbo}</span>
          <span className="visually-hidden"> {resto}</span>
        </button>
      </div>
    </div>
  );
}

/** Props of `ResumenErrores`. */
export interface ResumenErroresProps {
  /** Heading of the summary. */
  titulo: string;
  /** One link per field in error, in the form's order. */
  errores: readonly ErrorCampo[];
  /** Increments on every failed submit, so focus moves to the summary each time. */
  intento: number;
}

/**
 * The error summary at the top of a form. It takes focus after a failed submit (docs/diseno.md Forms);
 * each link focuses its field, because following a fragment link alone does not move focus into an
 * input in every browser.
 */
export function ResumenErrores({ titulo, errores, intento }: ResumenErroresProps) {
  const caja = useRef<HTMLDivElement>(null);
  const idTitulo = useId();
  useEffect(() => {
    if (intento > 0 && errores.length > 0) caja.current?.focus();
    // Only `intento`: focus moves when the user submits again, not while the errors change as they type.
  }, [intento]);
  if (errores.length === 0) return null;
  return (
    <div ref={caja} className="resumen-errores" tabIndex={-1} role="group" aria-labelledby={idTitulo}>
      <h2 id={idTitulo} className="resumen-errores__titulo">
        {titulo}
      </h2>
      <ul>
        {errores.map((e) => (
          <li key={e.campo}>
            <a
              href={`#${e.campo}`}
              onClick={(ev) => {
                const input = document.getElementById(e.campo);
                if (!input) return;
                ev.preventDefault();
                input.focus();
                input.scrollIntoView({ block: 'center' });
              }}
            >
              {e.mensaje}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Props of `EnlaceVolver`. */
export interface EnlaceVolverProps {
  /** Where it goes. */
  href: string;
  /** Its text, also its accessible name. */
  texto: string;
}

/** The back arrow link at the top of a session screen. */
export function EnlaceVolver({ href, texto }: EnlaceVolverProps) {
  return (
    <a className="volver" href={href}>
      <span className="volver__flecha" aria-hidden="true"></span>
      {texto}
    </a>
  );
}

/** First error message of each field, from zod-like issues (`path[0]` is the field name). */
export function erroresPorCampo(issues: readonly { path: readonly PropertyKey[]; message: string }[]): Record<string, string> {
  const r: Record<string, string> = {};
  for (const i of issues) {
    const campo = String(i.path[0] ?? '');
    if (campo && !(campo in r)) r[campo] = i.message;
  }
  return r;
}
