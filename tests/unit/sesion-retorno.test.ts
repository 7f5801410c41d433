/** rutaDeRetornoSegura: the login's returnUrl accepts only paths on this site (no open redirect). */
import { describe, expect, it } from 'vitest';
import { rutaDeRetornoSegura } from '../../src/lib/sesion/retorno.ts';

describe('rutaDeRetornoSegura', () => {
  it('keeps a same-site path with its query and fragment', () => {
    expect(rutaDeRetornoSegura('/medidas/curvas')).toBe('/medidas/curvas');
    expect(rutaDeRetornoSegura('/accesoyconexion/solicitud?id=7#docs')).toBe('/accesoyconexion/solicitud?id=7#docs');
    expect(rutaDeRetornoSegura('/')).toBe('/');
  });

  it('normalises dot segments and still stays on the site', () => {
    expect(rutaDeRetornoSegura('/medidas/../perfil')).toBe('/perfil');
    expect(rutaDeRetornoSegura('/../../etc')).toBe('/etc');
  });

  it('falls back to /inicio when absent or empty', () => {
    expect(rutaDeRetornoSegura(null)).toBe('/inicio');
    expect(rutaDeRetornoSegura(undefined)).toBe('/inicio');
    expect(rutaDeRetornoSegura('')).toBe('/inicio');
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
  for (const truco of trucos) {
    it(`refuses ${JSON.stringify(truco.slice(0, 60))}`, () => {
      expect(rutaDeRetornoSegura(truco)).toBe('/inicio');
    });
  }

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
