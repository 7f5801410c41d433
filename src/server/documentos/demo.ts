/**
 * What the demo generators of the case procedures share: the documents of a demo case, stored
 * through the same path an upload takes (received as a stream, checked by its bytes, stored in
 * pieces), the days on which demo steps happened, and the playing of a case's steps in order.
 */
import PDFDocument from 'pdfkit';
import type { ClaseDocumento } from '../../lib/expedientes/documentos.ts';
import { esHabil } from '../../lib/expedientes/plazos.ts';
import { sumarDias, type FechaLocal } from '../../lib/calendario/fechas.ts';
import type { Db } from '../db/client.ts';
import type { Lado } from '../expedientes/acceso.ts';
import type { ActorExpediente } from '../expedientes/service.ts';
import { inicioDiaLocal } from '../../lib/calendario/hora-civil.ts';
import { guardarDocumento, recibirDocumento } from './almacen.ts';

/** A small PDF with a title and a few lines, as a developer's or a distributor's document would be. */
export function pdfDemo(titulo: string, lineas: readonly string[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A4', margin: 56, info: { Title: titulo }, lang: 'es-ES' });
    const partes: Buffer[] = [];
    doc.on('data', (b: Buffer) => partes.push(b));
    doc.on('end', () => resolve(Buffer.concat(partes)));
    doc.on('error', reject);
    doc.fontSize(16).text(titulo);
    doc.moveDown();
    doc.fontSize(10);
    for (const l of lineas) doc.text(l);
    doc.end();
  });
}

/** The business day `n` business days before `hoy`. */
export function habilesAntes(hoy: FechaLocal, n: number): FechaLocal {
  let f = hoy;
  for (let k = 0; k < n;) {
    f = sumarDias(f, -1);
    if (esHabil(f)) k++;
  }
  return f;
}

/** A demo document of a case: a small PDF named after it, stored as an upload is (pending until its side's next step). */
export async function documentoDemo(
  db: Db,
  d: { expedienteId: string; lado: Lado; clase: ClaseDocumento; nombre: string; subidoPor: string | null },
): Promise<void> {
  const bytes = await pdfDemo(`Documento de demostración: ${d.nombre}`, ['Portal de Grupo Electra Distribución: datos de demostración.']);
  const recibido = await recibirDocumento(new Blob([new Uint8Array(bytes)]).stream());
  try {
    await guardarDocumento(db, { ...d, recibido });
  } finally {
    await recibido.borrar();
  }
}

/** A step of a demo case: a document a side uploads, or an action it takes, so many business days before today. */
export type PasoDemoCaso<A> =
  ({ dias: number; lado: Lado | 'sistema'; accion: string } & A) | { dias: number; lado: Lado; documento: ClaseDocumento; nombre: string };

/** The moment of a demo step: 9:00 for the case's creation, 10:00 for the applicant's steps, 12:00 for the distributor's. */
export const momentoDemo = (hoy: FechaLocal, dias: number, hora: number) =>
  new Date(inicioDiaLocal(habilesAntes(hoy, dias)).getTime() + hora * 3_600_000);

/**
 * Plays a demo case's steps in order, each on its day (`reloj` sets the procedure's clock to it): a
 * document is stored as an upload is, pending until its side's next step; an action goes through
 * `actuar`, the procedure's own, the path the API takes.
 */
export async function pasosDemo<A>(
  db: Db,
  expedienteId: string,
  pasos: readonly PasoDemoCaso<A>[],
  p: {
    hoy: FechaLocal;
    reloj: (momento: Date) => void;
    actores: Record<Lado, ActorExpediente> & { sistema?: ActorExpediente };
    actuar: (paso: Extract<PasoDemoCaso<A>, { accion: string }>, actor: ActorExpediente) => Promise<unknown>;
  },
): Promise<void> {
  for (const paso of pasos) {
    p.reloj(momentoDemo(p.hoy, paso.dias, paso.lado === 'solicitante' ? 10 : 12));
    if ('documento' in paso) {
      await documentoDemo(db, {
        expedienteId,
        lado: paso.lado,
        clase: paso.documento,
        nombre: paso.nombre,
        subidoPor: p.actores[paso.lado].userId,
      });
    } else {
      await p.actuar(paso as Extract<PasoDemoCaso<A>, { accion: string }>, p.actores[paso.lado]!);
    }
  }
}
