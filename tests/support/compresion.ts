/** The encodings the API compresses with, best first. */
import { brotliDecompressSync, gunzipSync, zstdDecompressSync } from 'node:zlib';

/** What a client accepts, the encoding the API must choose (the best it accepts), and how to undo it. */
export const CODIFICACIONES = [
  ['gzip, deflate, br, zstd', 'zstd', zstdDecompressSync],
  ['gzip, deflate, br', 'br', brotliDecompressSync],
  ['gzip', 'gzip', gunzipSync],
] as const;
