/**
 * The labelled fields of the case forms (access and connection requests, queries, claims), built on
 * the shared form pieces of src/islands/comunes/formulario: label, hint, error and the ids that tie
 * them (docs/diseno.md "Forms"). Each draws the `admin-campo` block.
 */
import type { ReactNode } from 'react';
import { CabeceraCampo } from '../../comunes/formulario/CabeceraCampo.tsx';
import { atributosControl, claseCampo, describedBy, idError, textosCampo, type PropsCampoBase } from '../../comunes/formulario/campo.ts';
import './expedientes.css';

/** Props of `Entrada`. */
export interface EntradaProps extends PropsCampoBase {
  valor: string;
  alCambiar: (valor: string) => void;
  tipo?: 'text' | 'tel' | 'date' | 'datetime-local' | 'number';
  inputMode?: 'text' | 'numeric' | 'decimal' | 'tel';
  /** autocomplete token; off unless told (most of a case's data is about a site, not about the user). */
  autoComplete?: string;
  max?: number | undefined;
  /** `step` of a number input (0.01 for euros). */
  paso?: string;
  /** Width of the input: short (a postal code, a power) or the column's. */
  corto?: boolean;
  /** Upper-case letters on phones (NIF, cadastral reference, CUPS). */
  mayusculas?: boolean;
}

/**
 * A labelled input (the `admin-campo` block): the label names it, the hint and the error are read
 * with it, `aria-invalid` while wrong. "(opcional)" goes in the label of the few optional fields.
 */
export function Entrada(p: EntradaProps) {
  const t = textosCampo(p);
  return (
    <div className={claseCampo('admin-campo', { error: p.error, clase: p.corto ? 'exp-campo--corto' : undefined })}>
      <CabeceraCampo id={p.id} etiqueta={p.etiqueta} error={p.error} textos={t} bloque="admin-campo" />
      <input
        {...atributosControl(p, t)}
        type={p.tipo ?? 'text'}
        value={p.valor}
        onChange={(e) => p.alCambiar(e.target.value)}
        inputMode={p.inputMode}
        autoComplete={p.autoComplete ?? 'off'}
        autoCapitalize={p.mayusculas ? 'characters' : undefined}
        spellCheck={false}
        maxLength={p.tipo === 'number' ? undefined : p.max}
        step={p.paso}
        min={p.tipo === 'number' ? 0 : undefined}
      />
    </div>
  );
}

/** One option of a select. */
export interface OpcionSeleccion {
  valor: string;
  texto: string;
}

/** Props of `Seleccion`. */
export interface SeleccionProps extends PropsCampoBase {
  valor: string;
  alCambiar: (valor: string) => void;
  /** The text of the empty first option ("Elija…"). */
  vacio: string;
  /** Plain options, or groups of options (`optgroup`). */
  opciones: readonly OpcionSeleccion[] | readonly { grupo: string; opciones: readonly OpcionSeleccion[] }[];
  /** Not yet usable (its options are still loading); `vacio` then says so. */
  deshabilitado?: boolean;
}

/** A labelled select with an empty first option. */
export function Seleccion(p: SeleccionProps) {
  const t = textosCampo(p);
  return (
    <div className={claseCampo('admin-campo', { error: p.error, deshabilitado: p.deshabilitado })}>
      <CabeceraCampo id={p.id} etiqueta={p.etiqueta} error={p.error} textos={t} bloque="admin-campo" />
      <select {...atributosControl(p, t)} value={p.valor} onChange={(e) => p.alCambiar(e.target.value)} disabled={p.deshabilitado}>
        <option value="">{p.vacio}</option>
        {p.opciones.map((o) =>
          'grupo' in o ? (
            <optgroup key={o.grupo} label={o.grupo}>
              {o.opciones.map((x) => (
                <option key={x.valor} value={x.valor}>
                  {x.texto}
                </option>
              ))}
            </optgroup>
          ) : (
            <option key={o.valor} value={o.valor}>
              {o.texto}
            </option>
          ),
        )}
      </select>
    </div>
  );
}

/** Props of `Opciones`. */
export interface OpcionesProps<T extends string> {
  /** id of the first radio button (the error summary's link focuses it); the others add `-<valor>`. */
  id: string;
  leyenda: string;
  ayuda?: ReactNode;
  opciones: readonly { valor: T; texto: string }[];
  valor: T | '';
  alCambiar: (v: T) => void;
  error?: string | undefined;
}

/**
 * A group of radio buttons: a fieldset named by its legend and described by its hint and error,
 * each button labelled by its text (the `mod-grupo` block of the contractual modifications form).
 */
export function Opciones<T extends string>(p: OpcionesProps<T>) {
  const idAyuda = p.ayuda ? `${p.id}-grupo-ayuda` : undefined;
  const err = p.error ? idError(`${p.id}-grupo`) : undefined;
  return (
    <fieldset className={`mod-grupo${p.error ? ' admin-campo--error' : ''}`} aria-describedby={describedBy(idAyuda, err)}>
      <legend>{p.leyenda}</legend>
      {p.ayuda && (
        <p id={idAyuda} className="admin-campo__ayuda">
          {p.ayuda}
        </p>
      )}
      {p.error && (
        <p id={err} className="admin-campo__error">
          <span className="visually-hidden">Error: </span>
          {p.error}
        </p>
      )}
      <div className="mod-opciones">
        {p.opciones.map((o, i) => (
          <label key={o.valor} className="mod-opcion">
            <input
              id={i === 0 ? p.id : `${p.id}-${o.valor}`}
              type="radio"
              name={p.id}
              value={o.valor}
              checked={p.valor === o.valor}
              onChange={() => p.alCambiar(o.valor)}
              aria-invalid={p.error ? true : undefined}
            />
            {o.texto}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** Props of `AreaTexto`. */
export interface AreaTextoProps extends PropsCampoBase {
  valor: string;
  alCambiar: (valor: string) => void;
  max: number;
  filas?: number;
}

/** A labelled textarea with a character counter. */
export function AreaTexto(p: AreaTextoProps) {
  const t = textosCampo(p);
  const usados = p.valor.length;
  return (
    <div className={claseCampo('admin-campo', { error: p.error })}>
      <CabeceraCampo id={p.id} etiqueta={p.etiqueta} error={p.error} textos={t} bloque="admin-campo" />
      <textarea {...atributosControl(p, t)} value={p.valor} rows={p.filas ?? 4} onChange={(e) => p.alCambiar(e.target.value)} />
      <p className={`admin-campo__contador${usados > p.max ? ' admin-campo__contador--excedido' : ''}`}>
        {usados} de {p.max} caracteres
      </p>
    </div>
  );
}
