/** A password field with a show/hide toggle (docs/diseno.md "Forms"), the `campo` block of sesion.css. */
import { useState } from 'react';
import { CabeceraCampo } from './CabeceraCampo.tsx';
import { atributosControl, claseCampo, textosCampo } from './campo.ts';
import type { PropsEntrada } from './CampoTexto.tsx';
import { useEntrada } from './usar-entrada.ts';

/** Props of `CampoPassword`. */
export interface CampoPasswordProps extends Omit<PropsEntrada, 'deshabilitado'> {
  /** Accessible name of the show/hide button, distinct when a form has two password fields. */
  textoMostrar?: string;
}

/** The toggle's visible verb ("Mostrar") and the rest of its accessible name ("la contraseña actual"). */
export function partesMostrar(textoMostrar = 'Mostrar contraseña'): { verbo: string; resto: string } {
  const [verbo = 'Mostrar', ...palabras] = textoMostrar.split(' ');
  return { verbo, resto: palabras.join(' ') };
}

/**
 * Accessibility contract: the input's as in `CampoTexto`, never capitalised; the toggle is a real
 * button with `aria-pressed` and `aria-controls`, whose name stays the same when pressed (a screen
 * reader says "Mostrar contraseña, pulsado") and starts with its visible word; below 480 px only the
 * eye shows and the whole name stays for assistive technology.
 */
export function CampoPassword(p: CampoPasswordProps) {
  const [visible, setVisible] = useState(false);
  const ref = useEntrada(p);
  const { verbo, resto } = partesMostrar(p.textoMostrar);
  const t = textosCampo(p);
  return (
    <div className={claseCampo('campo', p)}>
      <CabeceraCampo id={p.id} etiqueta={p.etiqueta} error={p.error} textos={t} bloque="campo" />
      <div className="campo__password">
        <input
          ref={ref}
          {...atributosControl(p, t)}
          type={visible ? 'text' : 'password'}
          value={p.valor}
          onChange={(e) => p.alCambiar(e.target.value)}
          autoComplete={p.autoComplete}
          autoCapitalize="none"
          spellCheck={false}
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
