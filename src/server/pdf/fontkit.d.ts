/** The part of fontkit (pdfkit's own font engine, no published types) that fuentes.ts uses. */
declare module 'fontkit' {
  /** A parsed font; pdfkit takes one as a font source. */
  export interface Font {
    postscriptName: string;
    layout(texto: string): unknown;
  }
  /** Parses a font file's bytes. */
  export function create(datos: Uint8Array, postscriptName?: string): Font;
}
