import { TRANSICIONES } from '../../src/lib/accesoyconexion/procedimiento.ts';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  consultaDeFiltrosAuditoria,
  describirActor,
  describirObjetivo,
  detallesLegibles,
  errorRangoFechas,
  FILTROS_AUDITORIA_VACIOS,
  filtrosAuditoriaDesdeConsulta,
  nombreAccion,
  urlAuditoria,
} from '../../src/lib/administracion/auditoria.ts';

const admin = { id: 'a', email: 'admin@electra.example', nombre: 'Administración' };
const cliente = { id: 'c', email: 'cliente007@correo.example', nombre: 'Lucía Pérez' };

describe('audit log filters', () => {
  it('reads valid dates and drops impossible ones', () => {
    expect(filtrosAuditoriaDesdeConsulta('desde=2025-03-01&hasta=2025-02-30&accion=usuario.estado&usuario=admin@electra.example')).toEqual({
      ...FILTROS_AUDITORIA_VACIOS,
      desde: '2025-03-01',
      accion: 'usuario.estado',
      usuario: 'admin@electra.example',
    });
  });

  it('keeps only code characters in the action', () => {
    expect(filtrosAuditoriaDesdeConsulta('accion=<script>').accion).toBe('script');
  });

  it('reads back what it writes', () => {
    const f = { desde: '2025-01-01', hasta: '2025-01-31', accion: 'suplantacion.inicio', usuario: 'x@y.es', pagina: 2, porPagina: 50 };
    expect(filtrosAuditoriaDesdeConsulta(consultaDeFiltrosAuditoria(f))).toEqual(f);
    expect(consultaDeFiltrosAuditoria(FILTROS_AUDITORIA_VACIOS)).toBe('');
  });

  it('sends Madrid days as UTC instants, the last day included', () => {
    const url = new URL(urlAuditoria({ ...FILTROS_AUDITORIA_VACIOS, desde: '2025-07-01', hasta: '2025-07-01' }), 'http://x');
    expect(url.pathname).toBe('/api/administrador/auditoria');
    expect(url.searchParams.get('desde')).toBe('2025-06-30T22:00:00.000Z');
    expect(url.searchParams.get('hasta')).toBe('2025-07-01T22:00:00.000Z');
    expect(url.searchParams.get('pagina')).toBe('1');
  });

  it('refuses a range that ends before it starts', () => {
    expect(errorRangoFechas('2025-02-01', '2025-01-31')).toEqual({ campo: 'hasta', mensaje: expect.stringMatching(/anterior/) });
    expect(errorRangoFechas('2025-02-01', '2025-02-01')).toBeNull();
    expect(errorRangoFechas('', '')).toBeNull();
  });
});

describe('audit entry in words', () => {
  it('names both users of an impersonated session, administrator first', () => {
    expect(describirActor({ actor: cliente, suplantador: admin })).toBe(
      'Administración (admin@electra.example) como Lucía Pérez (cliente007@correo.example)',
    );
  });

  it('names the actor alone, or the system', () => {
    expect(describirActor({ actor: admin, suplantador: null })).toBe('Administración (admin@electra.example)');
    expect(describirActor({ actor: { ...admin, nombre: '' }, suplantador: null })).toBe('admin@electra.example');
    expect(describirActor({ actor: null, suplantador: null })).toMatch(/Sistema/);
  });

  it('names known actions and shows unknown ones as their code', () => {
    expect(nombreAccion('usuario.permisos')).toBe('Cambio de permisos');
    expect(nombreAccion('algo.nuevo')).toBe('algo.nuevo');
  });

  it('turns details into readable pairs', () => {
    expect(
      detallesLegibles({
        conceder: ['epd-comercializadora', 'eod-comercializadora'],
        revocar: [],
        metodo: 'GET',
        ok: true,
        extra: { a: 1 },
      }),
    ).toEqual([
      { clave: 'conceder', valor: 'epd-comercializadora, eod-comercializadora' },
      { clave: 'revocar', valor: '—' },
      { clave: 'metodo', valor: 'GET' },
      { clave: 'ok', valor: 'sí' },
      { clave: 'extra', valor: '{"a":1}' },
    ]);
    expect(detallesLegibles(null)).toEqual([]);
  });
});

describe('what an entry was done on', () => {
  it('points to the account for user entries and shortens long ids', () => {
    const id = '0b9f5c1e-6c1a-4c55-9d8e-2f1f6a0c3d21';
    expect(describirObjetivo({ tipo: 'usuario', id })).toEqual({ texto: 'Cuenta de usuario', idUsuario: id });
    expect(describirObjetivo({ tipo: 'incidencia', id })).toEqual({ texto: 'Incidencia de red 0b9f5c1e', idUsuario: null });
    expect(describirObjetivo({ tipo: 'capacidad_nodal', id: 'epd/2026-11' })).toEqual({
      texto: 'capacidad nodal: epd/2026-11',
      idUsuario: null,
    });
    expect(describirObjetivo(null)).toEqual({ texto: '—', idUsuario: null });
  });
});

describe('action names', () => {
  it('name in Spanish every action the server writes to the log', () => {
    const raiz = new URL('../../src/server/', import.meta.url).pathname;
    const acciones = new Set<string>();
    for (const e of readdirSync(raiz, { recursive: true, withFileTypes: true })) {
      if (!e.isFile() || !e.name.endsWith('.ts')) continue;
      const texto = readFileSync(join(e.parentPath, e.name), 'utf8');
      for (const m of texto.matchAll(/action: '([a-z_.]+)'/g)) acciones.add(m[1]!);
      // Actions built from a table (`modificacion.${{ aceptar: 'aceptacion', … }[accion]}`).
      for (const m of texto.matchAll(/action: `([a-z_]+)\.\$\{\{([^}]*)\}/g)) {
        for (const v of m[2]!.matchAll(/'([a-z_]+)'/g)) acciones.add(`${m[1]}.${v[1]}`);
      }
    }
    // Every step of an access and connection request is audited as `acceso.<accion>`.
    for (const a of Object.keys(TRANSICIONES)) acciones.add(`acceso.${a}`);
    acciones.add('acceso.crear');
    expect(acciones.size).toBeGreaterThan(30);
    expect([...acciones].filter((a) => nombreAccion(a) === a)).toEqual([]);
  });
});
