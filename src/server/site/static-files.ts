/**
 * The built site, read once at start into memory (docs/decisions/026): only files in it are ever
 * served. The whole build is a few megabytes, so every answer is a slice of a buffer rather than a
 * file stream. Compressible files are compressed once, in the background after start, in each
 * encoding the compression middleware offers (zstd, brotli, gzip) at their highest levels; until a
 * file's turn comes, the middleware compresses its answers as it does any other.
 */
import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import { extname, join, relative, sep } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip, zstdCompress } from 'node:zlib';
import { COMPRESSIBLE_CONTENT_TYPE_REGEX } from 'hono/utils/compress';
import { CODIFICACIONES, UMBRAL_COMPRESION, type Codificacion } from '../http/compresion.ts';
import { inlineScriptHashes } from '../http/security.ts';

/** One servable file. */
export interface StaticFile {
  /** Its bytes. */
  bytes: Buffer;
  size: number;
  /** Hash of the bytes: the validator of every representation (etagDe). */
  hash: string;
  type: string;
  /** Cache-Control to send. */
  cacheControl: string;
  /** Whether it is worth compressing: a compressible type, 1 KB or more. */
  compresible: boolean;
  /** Its precompressed bodies, once made; an encoding that would not shrink it is never stored. */
  comprimidos: Partial<Record<Codificacion, Buffer>>;
}

/** The built site: files by URL path, and the hashes of their inline scripts for the CSP. */
export interface SiteIndex {
  files: Map<string, StaticFile>;
  scriptHashes: string[];
  /** Settles when every compressible file has its precompressed bodies. */
  precomprimido: Promise<void>;
}

/**
 * The ETag of a representation: the bytes' hash, with the encoding after it for a compressed one
 * (RFC 9110 §8.8.3: each representation has its own strong validator).
 */
export function etagDe(f: StaticFile, codificacion: Codificacion | null): string {
  return codificacion ? `"${f.hash}-${codificacion}"` : `"${f.hash}"`;
}

/**
 * Whether an If-None-Match header names the file in any of its representations (weak comparison,
 * RFC 9110 §13.1.2: a cached gzip body is as current as the brotli one).
 */
export function coincideEtag(cabecera: string | undefined, f: StaticFile): boolean {
  if (!cabecera) return false;
  return cabecera.split(',').some((t) => {
    const tag = t.trim().replace(/^W\//, '');
    if (tag === '*') return true;
    const m = /^"([^"-]+)(?:-(?:zstd|br|gzip))?"$/.exec(tag);
    return m?.[1] === f.hash;
  });
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.pdf': 'application/pdf',
  '.csv': 'text/csv; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.pf_meta': 'application/octet-stream',
  '.pf_fragment': 'application/octet-stream',
  '.pf_index': 'application/octet-stream',
  '.pagefind': 'application/octet-stream',
  '.wasm': 'application/wasm',
};

/** Astro and Pagefind put content-hashed names under these folders: they never change. */
const IMMUTABLE = [/^\/_astro\//, /^\/pagefind\/.+\.(pf_fragment|pf_index|pf_meta|pagefind)$/];

/** Chooses the Cache-Control of a URL path. */
export function cacheControlFor(urlPath: string): string {
  if (IMMUTABLE.some((re) => re.test(urlPath))) return 'public, max-age=31536000, immutable';
  if (urlPath.endsWith('.html')) return 'no-cache';
  // Unhashed public files (video, poster, icons): cache, but revalidate daily.
  return 'public, max-age=86400, must-revalidate';
}

async function walk(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/** Each encoding at its highest level: paid once per file, not per answer. */
const COMPRESORES: Record<Codificacion, (datos: Buffer) => Promise<Buffer>> = {
  zstd: (d) => promisify(zstdCompress)(d, { params: { [constants.ZSTD_c_compressionLevel]: 19 }, pledgedSrcSize: d.byteLength }),
  br: (d) =>
    promisify(brotliCompress)(d, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: d.byteLength },
    }),
  gzip: (d) => promisify(gzip)(d, { level: 9 }),
};

/**
 * Compresses every compressible file in every encoding, one file at a time: zlib works in libuv's
 * thread pool, so the event loop keeps answering meanwhile.
 */
async function precomprimir(files: Iterable<StaticFile>): Promise<void> {
  for (const f of files) {
    if (!f.compresible) continue;
    await Promise.all(
      CODIFICACIONES.map(async (c) => {
        const comprimido = await COMPRESORES[c](f.bytes);
        if (comprimido.byteLength < f.size) f.comprimidos[c] = comprimido;
      }),
    );
  }
}

/** Reads the built site in `distDir`. Throws when it has not been built. */
export async function loadSite(distDir: string): Promise<SiteIndex> {
  const files = new Map<string, StaticFile>();
  const hashes = new Set<string>();
  for (const file of await walk(distDir)) {
    const urlPath = '/' + relative(distDir, file).split(sep).join('/');
    const bytes = await readFile(file);
    const type = TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
    if (type.startsWith('text/html')) {
      for (const h of inlineScriptHashes(bytes.toString('utf8'))) hashes.add(h);
    }
    files.set(urlPath, {
      bytes,
      size: bytes.byteLength,
      hash: createHash('sha256').update(bytes).digest('base64url').slice(0, 22),
      type,
      cacheControl: cacheControlFor(urlPath),
      compresible: bytes.byteLength >= UMBRAL_COMPRESION && COMPRESSIBLE_CONTENT_TYPE_REGEX.test(type),
      comprimidos: {},
    });
  }
  if (!files.has('/index.html')) throw new Error(`No hay sitio construido en ${distDir}: ejecute npm run build`);
  // Never rejects: a file that fails to compress is answered by the middleware, as before it was made.
  const precomprimido = precomprimir(files.values()).catch(() => undefined);
  return { files, scriptHashes: [...hashes], precomprimido };
}
