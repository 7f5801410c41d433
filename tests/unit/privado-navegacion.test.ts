/** Which link clicks the private app routes itself (src/lib/privado/navegacion.ts `debeInterceptar`). */
import { describe, expect, it } from 'vitest';
import { $router, debeInterceptar, esAnclaDeLaPagina } from '../../src/lib/privado/navegacion.ts';

const ORIGEN = 'https://portal.example';
const clic = { button: 0, altKey: false, ctrlKey: false, metaKey: false, shiftKey: false, defaultPrevented: false };
const enlace = (pathname: string, extra: { target?: string; origin?: string; download?: boolean } = {}) => ({
  pathname,
  target: extra.target ?? '',
  origin: extra.origin ?? ORIGEN,
  hasAttribute: (nombre: string) => nombre === 'download' && Boolean(extra.download),
});

describe('link interception', () => {
  it('leaves a link to a fragment of the page shown to the browser, which jumps to it', () => {
    const actual = { origin: ORIGEN, pathname: '/comercializadora/sips', search: '' };
    expect(esAnclaDeLaPagina({ origin: ORIGEN, pathname: '/comercializadora/sips', search: '', hash: '#sips-consulta' }, actual)).toBe(
      true,
    );
    expect(esAnclaDeLaPagina({ origin: ORIGEN, pathname: '/comercializadora/sips', search: '', hash: '' }, actual)).toBe(false);
    expect(esAnclaDeLaPagina({ origin: ORIGEN, pathname: '/medidas/curvas', search: '', hash: '#grafico' }, actual)).toBe(false);
    expect(esAnclaDeLaPagina({ origin: ORIGEN, pathname: '/comercializadora/sips', search: '?d=eod', hash: '#x' }, actual)).toBe(false);
  });

  it('routes plain clicks on private paths inside the app', () => {
    for (const p of ['/inicio', '/perfil', '/medidas/curvas', '/administrador/administrador-usuarios/7', '/medidas/no-existe']) {
      expect(debeInterceptar(clic, enlace(p), ORIGEN), p).toBe(true);
    }
    expect(debeInterceptar(clic, enlace('/perfil', { target: '_self' }), ORIGEN)).toBe(true);
  });

  it('leaves public pages, other sites, new tabs, downloads and modified clicks to the browser', () => {
    for (const p of ['/', '/informacion', '/incidencias-red', '/capacidad-nodal/epd', '/sesion/login'])
      expect(debeInterceptar(clic, enlace(p), ORIGEN), p).toBe(false);
    expect(debeInterceptar(clic, enlace('/inicio', { origin: 'https://ftp.grupo-electra.example' }), ORIGEN)).toBe(false);
    expect(debeInterceptar(clic, enlace('/inicio', { target: '_blank' }), ORIGEN)).toBe(false);
    expect(debeInterceptar(clic, enlace('/inicio', { download: true }), ORIGEN)).toBe(false);
    for (const mod of ['altKey', 'ctrlKey', 'metaKey', 'shiftKey', 'defaultPrevented'] as const) {
      expect(debeInterceptar({ ...clic, [mod]: true }, enlace('/inicio'), ORIGEN), mod).toBe(false);
    }
    expect(debeInterceptar({ ...clic, button: 1 }, enlace('/inicio'), ORIGEN)).toBe(false);
  });

  it('the router has a page for every path, so the guard always sees the path', () => {
    expect($router.routes.map((r) => r[0])).toContain('otra');
    expect($router.routes.at(-1)?.[0]).toBe('otra');
  });
});
