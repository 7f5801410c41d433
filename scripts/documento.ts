/**
 * docs/benchmarks.md is written by the scripts that measure: each writes its sections, each from its
 * "## " heading to the next one, and keeps the rest of the file as it was.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/** Replaces each section of `partes` (its first line is its heading) in the document, or adds it at the end. */
export function reemplazarSecciones(ruta: string, partes: string[], cabecera = ''): void {
  let doc = existsSync(ruta) ? readFileSync(ruta, 'utf8') : cabecera;
  for (const part of partes) {
    const heading = part.split('\n', 1)[0]!;
    const start = doc.indexOf(`${heading}\n`);
    if (start < 0) {
      doc = `${doc.trimEnd()}\n\n${part}\n`;
      continue;
    }
    const next = doc.indexOf('\n## ', start + heading.length);
    doc = `${doc.slice(0, start)}${part}\n${next < 0 ? '' : doc.slice(next)}`;
  }
  writeFileSync(ruta, doc);
}
