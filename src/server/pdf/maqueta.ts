/**
 * The portal's PDF documents share one layout (the consumption certificate, a claim's closing
 * answer, an access request's filing receipt): A4, Spanish, tagged for assistive technology (headings, paragraphs, tables with header
 * cells; decoration and page footers marked as artifacts, PDF/UA), real text in embedded fonts
 * (fuentes.ts), the title shown in the viewer's title bar, a blue band on every page and a footer
 * with the page number.
 */
import PDFDocument from 'pdfkit';
import type { IdentidadDistribuidora } from '../../lib/certificados/identidad.ts';
import { GRUPO } from '../../lib/distribuidoras.ts';
import { fuentesCertificado, NEGRITA, TEXTO } from './fuentes.ts';

export { NEGRITA, TEXTO };

/** A pdfkit document. */
export type Doc = InstanceType<typeof PDFDocument>;
/** A node of the PDF's structure tree. */
export type Estructura = ReturnType<Doc['struct']>;

export const MARGEN = 56;
export const AZUL = '#0b4f8a';
export const AZUL_OSCURO = '#083a66';
export const TINTA = '#14202b';
export const GRIS = '#44515c';
export const LINEA = '#b9c5d0';
export const FONDO = '#f3f6f9';

/** Draws decoration that carries no meaning, marked as an artifact (PDF/UA: all content is tagged or an artifact). */
export function artefacto(doc: Doc, tipo: 'Layout' | 'Pagination', dibujar: () => void): void {
  doc.markContent('Artifact', { type: tipo });
  dibujar();
  doc.endMarkedContent();
}

/** A heading of level 1 or 2. */
export function titulo(doc: Doc, raiz: Estructura, nivel: 1 | 2, texto: string): void {
  if (nivel === 2) doc.moveDown(0.9);
  // A heading never ends a page alone: what it introduces starts on the next page with it.
  if (nivel === 2 && doc.y > doc.page.maxY() - 110) doc.addPage();
  doc
    .font(NEGRITA)
    .fontSize(nivel === 1 ? 18 : 12.5)
    .fillColor(nivel === 1 ? AZUL_OSCURO : AZUL);
  doc.text(texto, { structParent: raiz, structType: `H${nivel}` });
  doc.moveDown(0.35);
  doc.font(TEXTO).fontSize(10).fillColor(TINTA);
}

/** A paragraph. */
export function parrafo(
  doc: Doc,
  raiz: Estructura,
  texto: string,
  opciones: { tamano?: number; color?: string; negrita?: boolean } = {},
): void {
  doc
    .font(opciones.negrita ? NEGRITA : TEXTO)
    .fontSize(opciones.tamano ?? 10)
    .fillColor(opciones.color ?? TINTA);
  doc.text(texto, { structParent: raiz, structType: 'P', lineGap: 2 });
  doc.moveDown(0.4);
  doc.font(TEXTO).fontSize(10).fillColor(TINTA);
}

/** A table of label–value rows (the labels are row headers). */
export function tablaDatos(doc: Doc, raiz: Estructura, filas: [string, string][]): void {
  doc.fontSize(9.5);
  doc.table({
    structParent: raiz,
    columnStyles: [140, '*'],
    defaultStyle: { border: { top: 0, right: 0, bottom: 0.5, left: 0 }, borderColor: LINEA, padding: [4, 6, 4, 0] },
    data: filas.map(([k, v]) => [
      { text: k, type: 'TH', scope: 'row', font: { src: NEGRITA }, textColor: GRIS },
      { text: v, textColor: TINTA },
    ]),
  } as Parameters<Doc['table']>[0] & { structParent: Estructura; data: unknown[] });
  doc.x = MARGEN;
  doc.fontSize(10);
}

/** The distributor that issues a document, as every one of them names it: legal name, NIF, office and register entry. */
export function tablaDistribuidora(doc: Doc, raiz: Estructura, d: IdentidadDistribuidora): void {
  tablaDatos(doc, raiz, [
    ['Razón social', d.nombre],
    ['NIF', d.nif],
    ['Domicilio social', d.domicilio],
    ['Registro de distribuidores', d.registroDistribuidores],
  ]);
}

/** What a document says about itself. */
export interface InfoPdf {
  Title: string;
  Author: string;
  Subject: string;
  Keywords: string;
  CreationDate: Date;
}

/**
 * Opens a document with the layout: fonts registered, structure root, the band on every page.
 * `terminar` writes each page's footer and answers the bytes.
 */
export function abrirPdf(info: InfoPdf): {
  doc: Doc;
  raiz: Estructura;
  ancho: number;
  terminar: (pie: (pagina: number, total: number) => string) => Promise<Buffer>;
} {
  const fuentes = fuentesCertificado();
  const doc = new PDFDocument({
    // No font at start (pdfkit's default is the standard Helvetica, which is never embedded): only
    // the embedded fonts registered below go in the file. The types only know a path here.
    font: false as unknown as string,
    size: 'A4',
    margins: { top: MARGEN, bottom: MARGEN + 14, left: MARGEN, right: MARGEN },
    pdfVersion: '1.7',
    tagged: true,
    lang: 'es-ES',
    displayTitle: true,
    bufferPages: true,
    info: { ...info, Creator: `Portal de las distribuidoras de ${GRUPO}`, ModDate: info.CreationDate },
  });
  // pdfkit takes a parsed fontkit font (it only calls its `layout`); the family name is what it
  // caches the font under when a table cell puts the previous font back.
  for (const nombre of [TEXTO, NEGRITA] as const)
    doc.registerFont(nombre, fuentes[nombre].fuente as unknown as string, fuentes[nombre].familia);
  doc.font(TEXTO);
  const trozos: Buffer[] = [];
  doc.on('data', (b: Buffer) => trozos.push(b));
  const terminado = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(trozos)));
    doc.on('error', reject);
  });

  const raiz = doc.struct('Document');
  doc.addStructure(raiz);
  const ancho = doc.page.width - 2 * MARGEN;
  const banda = () => artefacto(doc, 'Layout', () => doc.save().rect(0, 0, doc.page.width, 10).fill(AZUL).restore());
  banda();
  doc.on('pageAdded', banda);

  const terminar = (pie: (pagina: number, total: number) => string) => {
    const rango = doc.bufferedPageRange();
    for (let i = rango.start; i < rango.start + rango.count; i++) {
      doc.switchToPage(i);
      const margenInferior = doc.page.margins.bottom;
      doc.page.margins.bottom = 0;
      artefacto(doc, 'Pagination', () => {
        doc
          .font(TEXTO)
          .fontSize(8)
          .fillColor(GRIS)
          .text(pie(i + 1, rango.count), MARGEN, doc.page.height - MARGEN + 8, { width: ancho, align: 'center', lineBreak: false });
      });
      doc.page.margins.bottom = margenInferior;
    }
    raiz.end();
    doc.end();
    return terminado;
  };
  return { doc, raiz, ancho, terminar };
}
