/**
 * What the case screens of every procedure share, as plain data (the islands draw it): the box that
 * tells the applicant what to do now.
 */

/** What the applicant has to do now (or where the case stands), for the box at the top of a case's detail. */
export interface QueHacer {
  titulo: string;
  texto: string;
  /** What the distributor wrote when it asked (the corrections or the information it wants). */
  mensajeDistribuidora: string | null;
}
