import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FICHERO_ESQUEMA, generarEsquema } from '../../scripts/tipos-api.ts';
import type { components } from '../../src/lib/api/esquema.ts';
import { urlApi, type RespuestaJson } from '../../src/lib/api/rutas.ts';

describe('src/lib/api/esquema.ts', () => {
  it('is what `npm run tipos-api` writes for the current routes (run it after changing a route)', async () => {
    expect(readFileSync(FICHERO_ESQUEMA, 'utf8')).toBe(await generarEsquema());
  }, 60_000);
});

describe('urlApi', () => {
  it('fills the path parameters, encoded', () => {
    expect(urlApi('/accesoyconexion/solicitudes/{id}/justificante.pdf', { path: { id: 'a b' } })).toBe(
      '/api/accesoyconexion/solicitudes/a%20b/justificante.pdf',
    );
    expect(urlApi('/modificaciones/{id}/anulacion', { path: { id: 42 } })).toBe('/api/modificaciones/42/anulacion');
  });

  it('adds the query in the order given, leaving out null and undefined', () => {
    expect(urlApi('/perfil')).toBe('/api/perfil');
    expect(urlApi('/ftp', { query: { ruta: '/epd/a b&c', recursivo: 1 } })).toBe('/api/ftp?ruta=%2Fepd%2Fa%20b%26c&recursivo=1');
    expect(urlApi('/ftp', { query: { carpeta: undefined } })).toBe('/api/ftp');
    expect(urlApi('/ftp', { query: { ruta: 'a b&c' }, formulario: true })).toBe('/api/ftp?ruta=a+b%26c');
  });

  it('rejects at compile time a path, a path parameter or a query name the API lacks', () => {
    // @ts-expect-error: no such path
    expect(() => urlApi('/perfill')).not.toThrow();
    // @ts-expect-error: the path parameter is missing
    expect(() => urlApi('/certificados/{id}/pdf')).toThrow();
    // @ts-expect-error: the path parameter is misspelt
    expect(() => urlApi('/certificados/{id}/pdf', { path: { idd: '1' } })).toThrow();
    // @ts-expect-error: /ftp takes no query parameter `carpetas`
    expect(urlApi('/ftp', { query: { carpetas: '/' } })).toBe('/api/ftp?carpetas=%2F');
  });
});

describe('RespuestaJson', () => {
  it("is the operation's 2xx JSON body", () => {
    const cerradas: RespuestaJson<'/perfil/sesiones/cerrar-otras', 'post'> = { cerradas: 2 };
    const mismo: components['schemas']['SesionesCerradas'] = cerradas;
    expect(mismo).toEqual({ cerradas: 2 });
  });
});
