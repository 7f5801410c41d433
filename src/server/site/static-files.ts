/** An index of the built site, read once at start: only files in it are ever served. */
import { createHash } from 'node:crypto';
import { readFile, readdir, stat } from 'node:fs/promises';
import { extname, join, relative, sep } from 'node:path';
import { inlineScriptHashes } from '../http/security.ts';

/** One servable file. */
export interface StaticFile {
  /** Absolute path on disk. */
  file: string;
  size: number;
  /** Weak validator: compression may change the bytes, not the meaning. */
  etag: string;
  type: string;
  /** Cache-Control to send. */
  cacheControl: string;
}

/** The built site: files by URL path, and the hashes of their inline scripts for the CSP. */
export interface SiteIndex {
  files: Map<string, StaticFile>;
  scriptHashes: string[];
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

/** Reads the built site in `distDir`. Throws when it has not been built. */
export async function loadSite(distDir: string): Promise<SiteIndex> {
  const files = new Map<string, StaticFile>();
  const hashes = new Set<string>();
  for (const file of await walk(distDir)) {
    const urlPath = '/' + relative(distDir, file).split(sep).join('/');
    const info = await stat(file);
    const type = TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
    if (type.startsWith('text/html')) {
      for (const h of inlineScriptHashes(await readFile(file, 'utf8'))) hashes.add(h);
    }
    const etag = `W/"${createHash('sha1').update(`${info.size}:${info.mtimeMs}:${urlPath}`).digest('base64url').slice(0, 16)}"`;
    files.set(urlPath, { file, size: info.size, etag, type, cacheControl: cacheControlFor(urlPath) });
  }
  if (!files.has('/index.html')) throw new Error(`No hay sitio construido en ${distDir}: ejecute npm run build`);
  return { files, scriptHashes: [...hashes] };
}
