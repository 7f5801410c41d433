/**
 * What the case screens of every procedure share, as plain data (the islands draw it): the box that
 * tells the applicant what to do now, the check of a message to the other side, and the documents
 * grouped by the step they came with.
 */
import { numero } from '../formato/numeros.ts';

/** Longest message between the sides of a case (the answer schemas' limit). */
export const MAX_MENSAJE = 4000;

/** A message checked before sending: trimmed; `obligatorio` is the error when empty (null: it may be empty). */
export function comprobarMensaje(texto: string, obligatorio: string | null): { ok: true; mensaje: string } | { ok: false; error: string } {
  const t = texto.trim();
  if (!t && obligatorio) return { ok: false, error: obligatorio };
  if (t.length > MAX_MENSAJE)
    return { ok: false, error: `El mensaje tiene ${numero(t.length)} caracteres y el máximo es ${numero(MAX_MENSAJE)}.` };
  return { ok: true, mensaje: t };
}

/** What the applicant has to do now (or where the case stands), for the box at the top of a case's detail. */
export interface QueHacer {
  titulo: string;
  texto: string;
  /** What the distributor wrote when it asked (the corrections or the information it wants). */
  mensajeDistribuidora: string | null;
}

/** What grouping needs of a document: the step it came with (null until sent), when it was uploaded, its name. */
interface DocumentoDelCaso {
  eventoId: number | null;
  subidoEn: string;
  nombre: string;
}

/** A group of documents: those that came with one step, or those not sent yet. */
export interface GrupoDocumentos<D> {
  clave: string;
  /** The step's name, «Otros documentos» or «Pendientes de enviar». */
  titulo: string;
  /** Who and when: "Usted · 3 nov 2026, 10:05"; or what happens to the pending ones. */
  detalle: string;
  documentos: D[];
}

/**
 * A case's documents grouped by the step they came with, in the order of `pasos` (the timeline's,
 * each with its name and who and when); then those of a step the timeline does not show; then those
 * not sent yet, with `pendientes` saying what happens to them. Groups without documents are left out.
 */
export function agruparDocumentos<D extends DocumentoDelCaso>(
  pasos: readonly { id: number; titulo: string; detalle: string }[],
  documentos: readonly D[],
  pendientes: string,
): GrupoDocumentos<D>[] {
  const porFecha = (a: D, b: D) => a.subidoEn.localeCompare(b.subidoEn) || a.nombre.localeCompare(b.nombre, 'es');
  const grupos: GrupoDocumentos<D>[] = [];
  for (const p of pasos) {
    const suyos = documentos.filter((d) => d.eventoId === p.id).sort(porFecha);
    if (suyos.length) grupos.push({ clave: `evento-${p.id}`, titulo: p.titulo, detalle: p.detalle, documentos: suyos });
  }
  const ids = new Set(pasos.map((p) => p.id));
  const sueltos = documentos.filter((d) => d.eventoId !== null && !ids.has(d.eventoId)).sort(porFecha);
  if (sueltos.length)
    grupos.push({ clave: 'otros', titulo: 'Otros documentos', detalle: 'Documentos del expediente.', documentos: sueltos });
  const sinEnviar = documentos.filter((d) => d.eventoId === null).sort(porFecha);
  if (sinEnviar.length) grupos.push({ clave: 'pendientes', titulo: 'Pendientes de enviar', detalle: pendientes, documentos: sinEnviar });
  return grupos;
}
