/**
 * What every procedure on the case core declares as data (docs/decisions/017 and 051): its steps and
 * their names, the final ones, whose turn each open step is, the actions of each side with their
 * names, and which action goes from which steps to which. Access requests, queries and claims each
 * declare one; the server enforces it (src/server/expedientes/procedimiento.ts) and the screens read
 * the same object for names and rules.
 */

/** A side of a case. */
export type LadoExpediente = 'solicitante' | 'distribuidora';

/** A procedure's steps, turns, actions and transitions. */
export interface DefinicionProcedimiento<P extends string, A extends string> {
  pasos: readonly P[];
  finales: readonly P[];
  nombrePaso: Readonly<Record<P, string>>;
  turno: Readonly<Partial<Record<P, LadoExpediente>>>;
  accionesSolicitante: readonly A[];
  accionesDistribuidora: readonly A[];
  nombreAccion: Readonly<Record<A, string>>;
  transiciones: Readonly<Record<A, { desde: readonly P[]; hacia: P }>>;
  /** Prefix of the public reference: AC-2026-000123. */
  prefijo: string;
}

/** The public reference of a case: the procedure's prefix, the year it was created and its number. */
export const referenciaExpediente = (prefijo: string, numero: number, creado: string) =>
  `${prefijo}-${creado.slice(0, 4)}-${String(numero).padStart(6, '0')}`;

/** The actions a side may take from a step by the transitions alone (a procedure may narrow them further). */
export function accionesDesde<P extends string, A extends string>(
  def: DefinicionProcedimiento<P, A>,
  lado: LadoExpediente,
  paso: string,
): A[] {
  const lista = lado === 'solicitante' ? def.accionesSolicitante : def.accionesDistribuidora;
  return lista.filter((a) => (def.transiciones[a].desde as readonly string[]).includes(paso));
}
