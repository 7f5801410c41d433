/**
 * The certificate's typefaces: DejaVu Sans Condensed, regular and bold (the `dejavu-fonts-ttf`
 * package; Bitstream Vera licence, which allows embedding). They are embedded in every PDF, subset to
 * the glyphs it uses, with a ToUnicode map: PDF/UA (ISO 14289-1, 7.21.4.1) requires embedded fonts,
 * and the standard Helvetica can only write the WinAnsi letters, so a holder named "Łukasz Dvořák"
 * came out as other characters. DejaVu covers Latin, Greek and Cyrillic whole, and its condensed
 * widths are close to Helvetica's, so the tables keep their layout.
 *
 * Each file is parsed once per process (fontkit decodes its tables lazily and keeps them): parsing
 * them again for every PDF tripled the time a certificate takes.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { create, type Font } from 'fontkit';

/** The names the PDF's code asks for. */
export const TEXTO = 'Texto';
export const NEGRITA = 'Negrita';

type Nombre = typeof TEXTO | typeof NEGRITA;

const ARCHIVOS: Record<Nombre, string> = { [TEXTO]: 'DejaVuSansCondensed.ttf', [NEGRITA]: 'DejaVuSansCondensed-Bold.ttf' };

/** A font as pdfkit's `registerFont` takes it: the parsed font, and the family name it is cached under. */
export interface FuenteCertificado {
  fuente: Font;
  familia: string;
}

let cargadas: Record<Nombre, FuenteCertificado> | null = null;

/** The two fonts, parsed on first use. */
export function fuentesCertificado(): Record<Nombre, FuenteCertificado> {
  if (!cargadas) {
    const carpeta = join(dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf');
    const abrir = (nombre: Nombre): FuenteCertificado => {
      const fuente = create(readFileSync(join(carpeta, ARCHIVOS[nombre])));
      return { fuente, familia: fuente.postscriptName };
    };
    cargadas = { [TEXTO]: abrir(TEXTO), [NEGRITA]: abrir(NEGRITA) };
  }
  return cargadas;
}
