import { describe, expect, it } from 'vitest';
import { leerTotal, rangoPagina, textoResultado, totalPaginas } from '../../src/lib/administracion/consulta.ts';
import {
  consultaDeFiltrosUsuarios,
  esSuplantable,
  FILTROS_USUARIOS_VACIOS,
  filtrosUsuariosDesdeConsulta,
  hayFiltrosUsuarios,
  motivoNoSuplantable,
  resumenAreas,
  urlListadoUsuarios,
} from '../../src/lib/administracion/usuarios.ts';

describe('users list filters in the address', () => {
  it('reads every filter of a query string', () => {
    expect(
      filtrosUsuariosDesdeConsulta('?q=garc%C3%ADa&estado=activo&area=comercializadora&distribuidora=eod&pagina=3&porPagina=50'),
    ).toEqual({
      q: 'garcía',
      estado: 'activo',
      area: 'comercializadora',
      distribuidora: 'eod',
      pagina: 3,
      porPagina: 50,
    });
  });

  it('reads the router search record too', () => {
    expect(filtrosUsuariosDesdeConsulta({ estado: 'pendiente' }).estado).toBe('pendiente');
  });

  it('falls back to no filter for unknown or malformed values', () => {
    expect(filtrosUsuariosDesdeConsulta('estado=borrado&area=root&distribuidora=xyz&pagina=-2&porPagina=1000')).toEqual(
      FILTROS_USUARIOS_VACIOS,
    );
    expect(filtrosUsuariosDesdeConsulta('pagina=0').pagina).toBe(1);
    expect(filtrosUsuariosDesdeConsulta('pagina=2.5').pagina).toBe(1);
    expect(filtrosUsuariosDesdeConsulta('porPagina=30').porPagina).toBe(25);
  });

  it('trims the search text and caps its length', () => {
    expect(filtrosUsuariosDesdeConsulta(`q=${encodeURIComponent('  ana  ')}`).q).toBe('ana');
    expect(filtrosUsuariosDesdeConsulta(`q=${'a'.repeat(500)}`).q).toHaveLength(100);
  });

  it('writes only what differs from the defaults', () => {
    expect(consultaDeFiltrosUsuarios(FILTROS_USUARIOS_VACIOS)).toBe('');
    expect(consultaDeFiltrosUsuarios({ ...FILTROS_USUARIOS_VACIOS, q: ' 12345678Z ', pagina: 2 })).toBe('q=12345678Z&pagina=2');
    expect(consultaDeFiltrosUsuarios({ ...FILTROS_USUARIOS_VACIOS, porPagina: 100 })).toBe('porPagina=100');
  });

  it('reads back what it writes', () => {
    const f = { q: 'María José', estado: 'inactivo', area: 'administrador', distribuidora: 'ecd', pagina: 4, porPagina: 10 } as const;
    expect(filtrosUsuariosDesdeConsulta(consultaDeFiltrosUsuarios(f))).toEqual(f);
  });

  it('always sends page and page size to the API', () => {
    expect(urlListadoUsuarios(FILTROS_USUARIOS_VACIOS)).toBe('/api/listadoUsuarios?pagina=1&porPagina=25');
    expect(urlListadoUsuarios({ ...FILTROS_USUARIOS_VACIOS, q: 'a&b', area: 'contacto', distribuidora: 'epd' })).toBe(
      '/api/listadoUsuarios?q=a%26b&area=contacto&distribuidora=epd&pagina=1&porPagina=25',
    );
  });

  it('tells whether any filter narrows the list', () => {
    expect(hayFiltrosUsuarios(FILTROS_USUARIOS_VACIOS)).toBe(false);
    expect(hayFiltrosUsuarios({ ...FILTROS_USUARIOS_VACIOS, pagina: 5 })).toBe(false);
    expect(hayFiltrosUsuarios({ ...FILTROS_USUARIOS_VACIOS, estado: 'activo' })).toBe(true);
  });
});

describe('paging', () => {
  it('counts pages, at least one', () => {
    expect(totalPaginas(0, 25)).toBe(1);
    expect(totalPaginas(25, 25)).toBe(1);
    expect(totalPaginas(26, 25)).toBe(2);
    expect(totalPaginas(100_000, 100)).toBe(1000);
  });

  it('describes the rows shown', () => {
    expect(rangoPagina(1, 25, 0, 0)).toBe('0 resultados');
    expect(rangoPagina(2, 25, 60, 25)).toBe('26–50 de 60');
    expect(rangoPagina(3, 25, 60, 10)).toBe('51–60 de 60');
    expect(rangoPagina(1, 25, 100000, 25)).toBe('1–25 de 100.000');
  });

  it('reads X-Total-Count', () => {
    expect(leerTotal('157')).toBe(157);
    expect(leerTotal(null)).toBeNull();
    expect(leerTotal('muchos')).toBeNull();
  });
});

describe('who can be impersonated (decision 006)', () => {
  it('allows an active user without administration permissions', () => {
    expect(esSuplantable({ estado: 'activo', permisos: ['epd-contacto'] })).toBe(true);
    expect(motivoNoSuplantable({ estado: 'activo', permisos: [] })).toBeNull();
  });

  it('refuses administrators, pending and inactive accounts, saying why', () => {
    expect(esSuplantable({ estado: 'activo', permisos: ['ecd-administrador'] })).toBe(false);
    expect(motivoNoSuplantable({ estado: 'activo', permisos: ['ecd-administrador'] })).toMatch(/administrador/);
    expect(motivoNoSuplantable({ estado: 'pendiente', permisos: [] })).toMatch(/activada/);
    expect(motivoNoSuplantable({ estado: 'inactivo', permisos: [] })).toMatch(/desactivada/);
  });
});

describe('areas summary of a row', () => {
  it('names each area once, in the order of the menu', () => {
    expect(resumenAreas(['eod-contacto', 'epd-contacto', 'epd-accesoyconexion'])).toBe('Acceso y conexión, Contacto');
    expect(resumenAreas([])).toBe('Ninguno');
  });
});

describe('result line of a list', () => {
  it('says how many match and, with several pages, which one is shown', () => {
    expect(textoResultado(1, 'usuario encontrado', 'usuarios encontrados', 1, 25)).toBe('1 usuario encontrado.');
    expect(textoResultado(10, 'usuario encontrado', 'usuarios encontrados', 1, 25)).toBe('10 usuarios encontrados.');
    expect(textoResultado(0, 'entrada', 'entradas', 1, 25)).toBe('0 entradas.');
    expect(textoResultado(15500, 'entrada', 'entradas', 2, 25)).toBe('15.500 entradas. Página 2 de 620.');
  });
});
