/**
 * The date and month fields of the consumer screens (docs/diseno.md "Forms"): one labelled field,
 * and a period's first and last day or month side by side, with the rules' messages pointed at them.
 */
import type { Dispatch, SetStateAction } from 'react';
import { CabeceraCampo } from '../../comunes/formulario/CabeceraCampo.tsx';
import { atributosControl, claseCampo, textosCampo } from '../../comunes/formulario/campo.ts';
import type { ErrorCampo } from '../../comunes/formulario/errores.ts';

/** Props of a labelled date or month input. */
export interface PropsCampoCalendario {
  id: string;
  etiqueta: string;
  valor: string;
  alCambiar: (v: string) => void;
  error?: string | undefined;
  /** Latest value allowed (`YYYY-MM-DD` for a date, `YYYY-MM` for a month). */
  max: string;
}

/** A labelled date (`date`) or month (`month`) input with its hint and error beside it (docs/diseno.md "Forms"). */
export function CampoCalendario(p: PropsCampoCalendario & { tipo: 'date' | 'month'; ayuda: string }) {
  const t = textosCampo(p);
  return (
    <div className={claseCampo('med-campo', p)}>
      <CabeceraCampo id={p.id} etiqueta={p.etiqueta} error={p.error} textos={t} bloque="med-campo" />
      <input
        {...atributosControl(p, t)}
        type={p.tipo}
        value={p.valor}
        min={p.tipo === 'month' ? '2000-01' : '2000-01-01'}
        max={p.max}
        placeholder={p.tipo === 'month' ? 'AAAA-MM' : undefined}
        onChange={(e) => p.alCambiar(e.target.value)}
      />
    </div>
  );
}

/** The ids of a period's first and last field. */
export interface IdsPeriodo {
  desde: string;
  hasta: string;
}

/** The rules' messages about a period's first or last day (or month), as summary entries that point at their fields. */
export function erroresDePeriodo(errores: readonly { campo: 'desde' | 'hasta'; mensaje: string }[], ids: IdsPeriodo): ErrorCampo[] {
  return errores.map((e) => ({ campo: ids[e.campo], mensaje: e.mensaje }));
}

/** A period's two fields, as a screen defines them once. */
export interface DefinicionPeriodo {
  /** Days or months. */
  tipo: 'date' | 'month';
  /** The two fields' ids. */
  ids: IdsPeriodo;
  /** Their labels; "Desde" and "Hasta" unless told. */
  etiquetas?: readonly [string, string];
  /** Their hints; for months, "Mes y año (AAAA-MM)." unless told. */
  ayudas?: readonly [string, string];
}

/** Props of `CamposPeriodo`. */
export interface CamposPeriodoProps<T extends IdsPeriodo> extends DefinicionPeriodo {
  /** What is typed in them (the screen's draft). */
  valor: T;
  /** Changes the draft. */
  poner: Dispatch<SetStateAction<T>>;
  /** The message of a field, by its id. */
  errorDe: (id: string) => string | undefined;
  /** Latest value allowed in both. */
  max: string;
}

const AYUDAS_MES = ['Mes y año (AAAA-MM).', 'Mes y año (AAAA-MM).'] as const;

/** The first and last day (or month) of a period, side by side. */
export function CamposPeriodo<T extends IdsPeriodo>({
  tipo,
  ids,
  etiquetas = ['Desde', 'Hasta'],
  ayudas = AYUDAS_MES,
  ...p
}: CamposPeriodoProps<T>) {
  return (['desde', 'hasta'] as const).map((c, i) => (
    <CampoCalendario
      key={c}
      id={ids[c]}
      tipo={tipo}
      etiqueta={etiquetas[i]!}
      ayuda={ayudas[i]!}
      valor={p.valor[c]}
      alCambiar={(v) => p.poner((b) => ({ ...b, [c]: v }))}
      error={p.errorDe(ids[c])}
      max={p.max}
    />
  ));
}
