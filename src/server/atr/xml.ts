/**
 * Reading and writing the CNMC's ATR messages (docs/sector.md §4, docs/decisions/020) safely.
 *
 * A file from a company is untrusted: it is refused before any parser sees it when it is too large
 * for a message, is not text in UTF-8 or ISO-8859-1 (the encodings the CNMC's files use), or
 * declares a DOCTYPE or an entity (no ATR message has one; that is how entity expansion bombs and
 * external entities get in). Only then is it parsed, its root told, and validated against the CNMC
 * schema of that message (the XSDs in ./xsd, run by libxml2's xmllint compiled to WebAssembly: no
 * network, no native code). Many files are validated in one run per schema.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { XMLParser } from 'fast-xml-parser';
import { validateXML, type XMLFileInfo } from 'xmllint-wasm';
import { ESQUEMA_DE_RAIZ } from '../../lib/atr/procesos.ts';

/** The largest message read: a request with its documents listed is a few kilobytes. */
export const MAX_MENSAJE_BYTES = 1024 * 1024;

/** Why a file is not read as a message, in Spanish, for the `.txt` beside it in entrada/rechazados. */
export class MensajeIlegible extends Error {}

const DIR_XSD = new URL('./xsd/', import.meta.url);
let esquemas: XMLFileInfo[] | null = null;
/** The CNMC schemas, read once (UTF-8: xmllint reads no other encoding). */
function todosLosEsquemas(): XMLFileInfo[] {
  return (esquemas ??= readdirSync(DIR_XSD)
    .filter((f) => f.endsWith('.xsd'))
    .map((f) => ({ fileName: f, contents: readFileSync(new URL(f, DIR_XSD), 'utf8') })));
}

/** A message read: its text in UTF-8 (declaration rewritten to say so), its root element and its tree. */
export interface MensajeLeido {
  texto: string;
  raiz: string;
  arbol: Record<string, unknown>;
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
});

/**
 * Decodes and parses a file as an ATR message, or throws MensajeIlegible with the reason. The
 * schema is not checked here: `validar` does it for many at once.
 */
export function leerMensaje(bytes: Uint8Array): MensajeLeido {
  if (bytes.byteLength === 0) throw new MensajeIlegible('El fichero está vacío.');
  if (bytes.byteLength > MAX_MENSAJE_BYTES) {
    throw new MensajeIlegible(`El fichero ocupa ${bytes.byteLength.toLocaleString('es-ES')} bytes: un mensaje ATR no pasa de 1 MB.`);
  }
  const cabeza = new TextDecoder('latin1').decode(bytes.subarray(0, 200));
  const declarada = /^\uFEFF?<\?xml[^>]*encoding=["']([A-Za-z0-9._-]+)["']/.exec(cabeza)?.[1]?.toLowerCase();
  let texto: string;
  if (declarada && /^(iso-8859-1|iso8859-1|latin1|iso-8859-15|windows-1252)$/.test(declarada)) {
    texto = new TextDecoder('windows-1252').decode(bytes);
  } else if (!declarada || /^utf-?8$/.test(declarada)) {
    try {
      texto = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      throw new MensajeIlegible('El fichero no es texto en UTF-8 (ni declara ISO-8859-1).');
    }
  } else {
    throw new MensajeIlegible(`Codificación ${declarada} no admitida: los mensajes ATR van en UTF-8 o ISO-8859-1.`);
  }
  texto = texto.replace(/^\uFEFF/, '');
  if (/<!DOCTYPE|<!ENTITY/i.test(texto)) {
    throw new MensajeIlegible('El fichero declara un DOCTYPE o entidades, que ningún mensaje ATR usa: por seguridad no se lee.');
  }
  if (!texto.trimStart().startsWith('<')) throw new MensajeIlegible('El fichero no es XML.');
  let arbol: Record<string, unknown>;
  try {
    arbol = parser.parse(texto, true) as Record<string, unknown>;
  } catch (err) {
    throw new MensajeIlegible(`El fichero no es XML bien formado: ${malFormado(err instanceof Error ? err.message : String(err))}`);
  }
  const raices = Object.keys(arbol).filter((k) => !k.startsWith('?') && !k.startsWith('#'));
  if (raices.length !== 1) throw new MensajeIlegible('El fichero no tiene un único elemento raíz.');
  const raiz = raices[0]!;
  if (!ESQUEMA_DE_RAIZ[raiz])
    throw new MensajeIlegible(`«${raiz}» no es un mensaje ATR que se pueda enviar a la distribuidora por este intercambio.`);
  // xmllint reads UTF-8 only: the declaration must say what the text now is.
  const utf8 = texto.replace(/^<\?xml[^>]*\?>/, '<?xml version="1.0" encoding="UTF-8"?>');
  return { texto: utf8, raiz, arbol: arbol[raiz] as Record<string, unknown> };
}

/**
 * A well-formedness error of the XML parser in Spanish, in the message's terms: the element left
 * open or closed out of place, and where. Never the parser's own words or its stack of elements.
 */
export function malFormado(error: string): string {
  const donde = /:(\d+):(\d+)$/.exec(error);
  const en = donde ? ` (línea ${donde[1]}, columna ${donde[2]})` : '';
  const cierre = /^Expected closing tag '([^']+)' \(opened in line (\d+)[^)]*\) instead of closing tag '([^']+)'/.exec(error);
  if (cierre) return `el elemento «${cierre[1]}», abierto en la línea ${cierre[2]}, no se cierra antes del cierre de «${cierre[3]}»${en}.`;
  const abiertos = /^Invalid '\[([\s\S]*)\]' found/.exec(error);
  if (abiertos) {
    const nombres = [...abiertos[1]!.matchAll(/"([^"]+)"/g)].map((m) => `«${m[1]}»`);
    if (nombres.length)
      return `el fichero termina sin cerrar ${nombres.length === 1 ? 'el elemento' : 'los elementos'} ${nombres.join(', ')}.`;
  }
  const sinAbrir = /^Closing tag '([^']+)' has not been opened/.exec(error);
  if (sinAbrir) return `se cierra el elemento «${sinAbrir[1]}», que no se había abierto${en}.`;
  return `hay un error de sintaxis${en}.`;
}

/**
 * A schema error of libxml2 in Spanish (CNMC schemas): the element and the rule it breaks; a
 * message this does not know keeps only the element it names.
 */
export function errorEsquema(error: string): string {
  const e = error
    .replace(/^Schemas validity error : /, '')
    .replace(/\{http:\/\/localhost\/elegibilidad\}/g, '')
    .trim();
  const el = /^Element '([^']+)'(?:, attribute '([^']+)')?: ([\s\S]*)$/.exec(e);
  if (!el) return 'el mensaje no cumple el esquema.';
  const quien = el[2] ? `El atributo ${el[2]} de ${el[1]}` : `El elemento ${el[1]}`;
  const resto = el[3]!;
  const esperado = (t: string) =>
    /Expected is (?:one of )?\( ([^)]*) \)/
      .exec(t)?.[1]
      ?.split(', ')
      .map((x) => x.replace(/^##other\{[^}]*\}\*$/, 'otro'))
      .join(', ');
  let m: RegExpExecArray | null;
  if (/^This element is not expected/.test(resto)) {
    const x = esperado(resto);
    return `${quien} no va aquí${x ? `: se esperaba ${x}` : ''}.`;
  }
  if (/^Missing child element/.test(resto)) {
    const x = esperado(resto);
    return `A ${el[1]} le falta${x ? ` ${x}` : ' un elemento obligatorio'}.`;
  }
  if ((m = /^\[facet 'enumeration'\] The value '([^']*)' is not an element of the set \{([^}]*)\}/.exec(resto)))
    return `${quien} vale «${m[1]}», que no es ninguno de los valores admitidos: ${m[2]!.replace(/'/g, '')}.`;
  if ((m = /^\[facet 'pattern'\] The value '([^']*)' is not accepted by the pattern '([^']*)'/.exec(resto)))
    return `${quien} vale «${m[1]}», que no tiene el formato que pide el esquema (${m[2]}).`;
  if (
    (m =
      /^\[facet '(maxLength|minLength|length)'\] The value '([^']*)' has a length of '(\d+)'; this (?:exceeds|underruns|differs from) the allowed (?:maximum |minimum )?length of '(\d+)'/.exec(
        resto,
      ))
  ) {
    const regla = { maxLength: 'como mucho', minLength: 'al menos', length: 'exactamente' }[m[1] as 'maxLength'];
    return `${quien} vale «${m[2]}», de ${m[3]} caracteres: debe tener ${regla} ${m[4]}.`;
  }
  if ((m = /^\[facet '(maxInclusive|minInclusive|maxExclusive|minExclusive|totalDigits|fractionDigits)'\] The value '([^']*)'/.exec(resto)))
    return `${quien} vale «${m[2]}», fuera de lo que admite el esquema (${m[1]}).`;
  if ((m = /^'([^']*)' is not a valid value of the (?:atomic|local atomic|union|list) type '?([^'.]*)'?/.exec(resto)))
    return `${quien} vale «${m[1]}», que no es un valor válido de tipo ${m[2]}.`;
  if (/^The attribute '([^']+)' is required but missing/.test(resto))
    return `A ${el[1]} le falta el atributo ${/^The attribute '([^']+)'/.exec(resto)![1]}.`;
  if ((m = /^The attribute '([^']+)' is not allowed/.exec(resto))) return `${el[1]} no admite el atributo ${m[1]}.`;
  if (/^Element content is not allowed|^Character content (other than whitespace )?is not allowed/.test(resto))
    return `${quien} no puede llevar ese contenido.`;
  if (/^No matching global declaration available for the validation root/.test(resto))
    return `${el[1]} no es el elemento raíz de ningún mensaje del esquema.`;
  return `${quien} no cumple el esquema.`;
}

/**
 * Validates messages against the CNMC schema of their root elements, one xmllint run per schema.
 * Answers, for each message in order, the schema's complaints (empty when valid), in libxml2's
 * words without the internal file name.
 */
export async function validar(mensajes: readonly { raiz: string; texto: string }[]): Promise<string[][]> {
  const errores: string[][] = mensajes.map(() => []);
  const porEsquema = new Map<string, number[]>();
  mensajes.forEach((m, i) => {
    const xsd = ESQUEMA_DE_RAIZ[m.raiz]!;
    porEsquema.set(xsd, [...(porEsquema.get(xsd) ?? []), i]);
  });
  for (const [xsd, indices] of porEsquema) {
    const grupo = await validarConEsquema(
      xsd,
      indices.map((i) => mensajes[i]!.texto),
    );
    indices.forEach((i, j) => errores[i]!.push(...grupo[j]!));
  }
  return errores;
}

/**
 * Validates texts against one of the CNMC schemas in ./xsd (by file name) in one xmllint run:
 * for each text in order, the schema's complaints (empty when valid).
 */
export async function validarConEsquema(xsd: string, textos: readonly string[]): Promise<string[][]> {
  const errores: string[][] = textos.map(() => []);
  const todos = todosLosEsquemas();
  const principal = todos.find((e) => e.fileName === xsd);
  if (!principal) throw new Error(`No hay esquema ${xsd} en src/server/atr/xsd.`);
  const r = await validateXML({
    xml: textos.map((texto, i) => ({ fileName: `m${i}.xml`, contents: texto })),
    schema: [principal],
    preload: todos.filter((e) => e !== principal),
    maxMemoryPages: 4096,
  });
  for (const e of r.errors) {
    // libxml2's closing summary names the file it was given, not a rule: the reasons are above it.
    if (/^m\d+\.xml (fails to validate|validates)$/.test(e.message.trim())) continue;
    const i = Number(/^m(\d+)\.xml/.exec(e.loc?.fileName ?? e.rawMessage)?.[1] ?? NaN);
    const linea = e.loc?.lineNumber ? `línea ${e.loc.lineNumber}: ` : '';
    const texto = `${linea}${errorEsquema(e.message)}`;
    if (Number.isInteger(i) && errores[i]) errores[i].push(texto);
    else for (const lista of errores) lista.push(texto);
  }
  return errores;
}

/** An element to write: its name, attributes, and text or children (absent ones are skipped). */
export type Nodo = { n: string; a?: Record<string, string>; t?: string; h?: (Nodo | null | undefined)[] };

const escapar = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function escribirNodo(x: Nodo, sangria: string): string {
  const attrs = Object.entries(x.a ?? {})
    .map(([k, v]) => ` ${k}="${escapar(v)}"`)
    .join('');
  if (x.h) {
    const hijos = x.h.filter((h): h is Nodo => !!h);
    return `${sangria}<${x.n}${attrs}>\n${hijos.map((h) => escribirNodo(h, `${sangria}  `)).join('')}${sangria}</${x.n}>\n`;
  }
  return `${sangria}<${x.n}${attrs}>${escapar(x.t ?? '')}</${x.n}>\n`;
}

/** A message as the CNMC writes them: UTF-8, the `http://localhost/elegibilidad` namespace on the root. */
export function escribirMensaje(raiz: Nodo): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${escribirNodo({ ...raiz, a: { xmlns: 'http://localhost/elegibilidad', ...raiz.a } }, '')}`;
}

/** A value of a parsed tree by its path of element names (the first of repeated ones), as text; undefined when absent. */
export function valor(arbol: unknown, ...ruta: string[]): string | undefined {
  let x: unknown = arbol;
  for (const parte of ruta) {
    if (Array.isArray(x)) x = x[0];
    if (!x || typeof x !== 'object') return undefined;
    x = (x as Record<string, unknown>)[parte];
  }
  if (Array.isArray(x)) x = x[0];
  if (x && typeof x === 'object') x = (x as Record<string, unknown>)['#text'];
  return x === undefined || x === null ? undefined : String(x);
}

/** Every occurrence of an element at the end of a path (repeated elements come as arrays). */
export function lista(arbol: unknown, ...ruta: string[]): unknown[] {
  let x: unknown[] = [arbol];
  for (const parte of ruta) {
    x = x.flatMap((y) => {
      const v = y && typeof y === 'object' ? (y as Record<string, unknown>)[parte] : undefined;
      return v === undefined ? [] : Array.isArray(v) ? v : [v];
    });
  }
  return x;
}
