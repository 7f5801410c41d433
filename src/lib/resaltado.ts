/**
 * Pagefind returns excerpts as HTML with <mark> around the matched words. This splits such an
 * excerpt into plain text and marked parts, so the page can render it without injecting HTML.
 */

/** One run of an excerpt: text, marked or not. */
export interface Fragmento {
  texto: string;
  marcado: boolean;
}

const ENTIDADES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&#x27;': "'" };

/** Decodes the few entities Pagefind emits; everything else stays literal text. */
function decodificar(s: string): string {
  return s.replace(/&(amp|lt|gt|quot|#39|#x27);/g, (e) => ENTIDADES[e] ?? e);
}

/** Splits an excerpt on <mark>…</mark>; any other tag is dropped, never rendered. */
export function fragmentosResaltados(html: string): Fragmento[] {
  const out: Fragmento[] = [];
  const re = /<mark>([\s\S]*?)<\/mark>/g;
  let last = 0;
  for (const m of html.matchAll(re)) {
    if (m.index > last) out.push({ texto: decodificar(html.slice(last, m.index).replace(/<[^>]*>/g, '')), marcado: false });
    out.push({ texto: decodificar(m[1]!.replace(/<[^>]*>/g, '')), marcado: true });
    last = m.index + m[0].length;
  }
  if (last < html.length) out.push({ texto: decodificar(html.slice(last).replace(/<[^>]*>/g, '')), marcado: false });
  return out.filter((f) => f.texto.length > 0);
}
