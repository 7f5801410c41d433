/** The pieces every paged administration list shares (src/lib/administracion/consulta.ts): page, query and API call. */
import { describe, expect, it } from 'vitest';
import {
  consultaDePantalla,
  definirLista,
  hayFiltros,
  leerPaginacion,
  PRIMERA_PAGINA,
  urlDeLista,
  type Paginacion,
} from '../../src/lib/administracion/consulta.ts';

interface Filtros extends Paginacion {
  q: string;
  estado: string;
}

const lista = definirLista<Filtros, { id: string }>({
  ruta: '/api/cosas',
  vacios: { q: '', estado: '', ...PRIMERA_PAGINA },
  leer: (p) => ({ q: (p.get('q') ?? '').trim(), estado: p.get('estado') === 'activo' ? 'activo' : '' }),
  pares: (f) => [
    ['q', f.q.trim()],
    ['estado', f.estado],
  ],
});

describe('page and page size', () => {
  it('fall back to the first page at the default size', () => {
    expect(leerPaginacion(new URLSearchParams('pagina=0&porPagina=7'))).toEqual(PRIMERA_PAGINA);
    expect(leerPaginacion(new URLSearchParams('pagina=3&porPagina=50'))).toEqual({ pagina: 3, porPagina: 50 });
  });

  it('are written to the address only when they differ from the defaults, and always to the API', () => {
    expect(consultaDePantalla([['q', 'ana']], PRIMERA_PAGINA)).toBe('q=ana');
    expect(consultaDePantalla([['q', '']], { pagina: 2, porPagina: 50 })).toBe('pagina=2&porPagina=50');
    expect(urlDeLista('/api/cosas', [['q', '']], PRIMERA_PAGINA)).toBe('/api/cosas?pagina=1&porPagina=25');
  });
});

describe('definirLista', () => {
  it('reads the filters and the page from any query', () => {
    expect(lista.desdeConsulta('?q=%20ana%20&estado=raro&pagina=2')).toEqual({ q: 'ana', estado: '', pagina: 2, porPagina: 25 });
    expect(lista.desdeConsulta({ estado: 'activo' })).toEqual({ q: '', estado: 'activo', ...PRIMERA_PAGINA });
  });

  it('writes the screen query and the API call from the same pairs', () => {
    const f = { q: 'ana', estado: 'activo', pagina: 1, porPagina: 25 };
    expect(lista.consulta(f)).toBe('q=ana&estado=activo');
    expect(lista.url(f)).toBe('/api/cosas?q=ana&estado=activo&pagina=1&porPagina=25');
    expect(lista.desdeConsulta(lista.consulta(f))).toEqual(f);
  });

  it('sends the API its own pairs when they differ from the address', () => {
    const otra = definirLista<Filtros, never>({
      ruta: '/api/x',
      vacios: lista.vacios,
      leer: () => ({ q: '', estado: '' }),
      pares: (f) => [['q', f.q]],
      paresApi: (f) => [['texto', f.q]],
    });
    expect(otra.url({ ...lista.vacios, q: 'a' })).toBe('/api/x?texto=a&pagina=1&porPagina=25');
  });
});

describe('hayFiltros', () => {
  it('counts any filter but the page and its size', () => {
    expect(hayFiltros(lista.vacios)).toBe(false);
    expect(hayFiltros({ ...lista.vacios, pagina: 4, porPagina: 100 })).toBe(false);
    expect(hayFiltros({ ...lista.vacios, q: '  ' })).toBe(false);
    expect(hayFiltros({ ...lista.vacios, estado: 'activo' })).toBe(true);
  });
});
