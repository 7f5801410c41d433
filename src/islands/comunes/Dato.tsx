/** One entry of a description list: a term and its value. */
import type { ReactNode } from 'react';

/** Props of `Dato`. */
export interface DatoProps {
  /** The term ("CUPS", "Tarifa"). */
  t: ReactNode;
  /** Its value. */
  children: ReactNode;
}

/**
 * A `<dt>` and its `<dd>` grouped in a `<div>` (allowed inside `<dl>` by HTML), so the list's grid
 * lays out pairs and a screen reader reads each term with its value.
 */
export function Dato({ t, children }: DatoProps) {
  return (
    <div>
      <dt>{t}</dt>
      <dd>{children}</dd>
    </div>
  );
}
