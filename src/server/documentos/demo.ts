/**
 * What the demo generators of the case procedures share: the documents of a demo case, stored
 * through the same path an upload takes (received as a stream, checked by its bytes, stored in
 * pieces), and the days on which demo steps happened.
 */
import PDFDocument from 'pdfkit';
import type { ClaseDocumento } from '../../lib/expedientes/documentos.ts';
import { esHabil } from '../../lib/expedientes/plazos.ts';
import { sumarDias, type FechaLocal } from '../../lib/calendario/fechas.ts';
import type { Db } from '../db/client.ts';
import type { Lado } from '../expedientes/acceso.ts';
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
