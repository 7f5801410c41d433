/** rutaDeRetornoSegura: the login's returnUrl accepts only paths on this site (no open redirect). */
import { describe, expect, it } from 'vitest';
import { rutaDeRetornoSegura } from '../../src/lib/sesion/retorno.ts';

describe('rutaDeRetornoSegura', () => {
  it.each(['/medidas/curvas', '/accesoyconexion/solicitud?id=7#docs', '/'])(
    'keeps the same-site path %s with its query and fragment',
    (ruta) => {
      expect(rutaDeRetornoSegura(ruta)).toBe(ruta);
    },
  );

  it.each([
    ['/medidas/../perfil', '/perfil'],
    ['/../../etc', '/etc'],
  ])('normalises the dot segments of %s to %s, staying on the site', (ruta, normalizada) => {
    expect(rutaDeRetornoSegura(ruta)).toBe(normalizada);
  });

  it.each([null, undefined, ''])('falls back to /inicio for %j, an absent or empty path', (ruta) => {
    expect(rutaDeRetornoSegura(ruta)).toBe('/inicio');
  });

  it('accepts another default', () => {
    expect(rutaDeRetornoSegura('https://malo.example', '/accesoyconexion/listado-de-solicitudes')).toBe(
      '/accesoyconexion/listado-de-solicitudes',
    );
  });

  const trucos = [
    'https://malo.example/inicio',
    'http://malo.example',
    '//malo.example',
    '//malo.example/inicio',
    '///malo.example',
    '/\\malo.example',
    '\\\\malo.example',
    '\\/malo.example',
    '/\t/malo.example',
    '/\n/malo.example',
    '/\r\n/malo.example',
    ' /inicio',
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'inicio',
    'malo.example',
    '%2F%2Fmalo.example',
    '/%5Cmalo.example'.replace('%5C', '\\'),
    '/inicio\\..\\..\\',
    '/\u0000/malo.example',
    '/\u007f/malo.example',
    'http:/malo.example',
    '/sesion/login',
    '/sesion/login?returnUrl=/inicio',
    '/' + 'a'.repeat(2100),
  ];
  it.each(trucos.map((truco) => [JSON.stringify(truco.slice(0, 60)), truco]))('refuses %s', (_, truco) => {
    expect(rutaDeRetornoSegura(truco)).toBe('/inicio');
  });

  it('never returns anything a browser would read as another origin', () => {
    const base = 'https://portal.example';
    const candidatos = [
      '/./',
      '/.//malo.example',
      '/..//malo.example',
      '/a/..//malo.example',
      '/%2e%2e//malo.example',
      '/%2F/malo.example',
    ];
    for (const c of candidatos) {
      const r = rutaDeRetornoSegura(c);
      expect(new URL(r, base).origin, c).toBe(base);
      expect(r.startsWith('//'), c).toBe(false);
    }
  });
});
