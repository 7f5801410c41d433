/** Choosing the response encoding from Accept-Encoding (src/server/http/compresion.ts). */
import { describe, expect, it } from 'vitest';
import { elegirCodificacion } from '../../src/server/http/compresion.ts';

describe('elegirCodificacion', () => {
  it('prefers zstd, then brotli, then gzip among what the client accepts', () => {
    expect(elegirCodificacion('gzip, deflate, br, zstd')).toBe('zstd');
    expect(elegirCodificacion('gzip, deflate, br')).toBe('br');
    expect(elegirCodificacion('gzip, deflate')).toBe('gzip');
    expect(elegirCodificacion('deflate')).toBeNull();
  });

  it('honours q-values: q=0 refuses an encoding, * stands for the ones not named', () => {
    expect(elegirCodificacion('zstd;q=0, br;q=0.5, gzip')).toBe('br');
    expect(elegirCodificacion('*')).toBe('zstd');
    expect(elegirCodificacion('*;q=0, gzip;q=1')).toBe('gzip');
    expect(elegirCodificacion('identity')).toBeNull();
    expect(elegirCodificacion('GZIP ; Q=0.8')).toBe('gzip');
  });

  it('answers identity to a client that sends no header', () => {
    expect(elegirCodificacion(undefined)).toBeNull();
    expect(elegirCodificacion('')).toBeNull();
  });
});
