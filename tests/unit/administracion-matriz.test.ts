import { describe, expect, it } from 'vitest';
import {
  alternarPermiso,
  bloqueoCelda,
  construirMatriz,
  diferenciasPermisos,
  hayCambiosPermisos,
  resumenCambios,
  type Editor,
} from '../../src/lib/administracion/matriz-permisos.ts';
import { todosLosPermisos } from '../../src/lib/permisos.ts';

const adminTotal: Editor = { permisos: todosLosPermisos(), esUnoMismo: false };
const adminEpd: Editor = { permisos: ['epd-administrador'], esUnoMismo: false };

describe('permissions matrix', () => {
  it('has one row per distributor and one cell per area', () => {
    const m = construirMatriz(['epd-contacto'], ['epd-contacto'], adminTotal);
    expect(m.map((fila) => fila[0]!.distribuidora)).toEqual(['epd', 'eod', 'ecd']);
    expect(m[0]!.map((c) => c.area)).toEqual(['distribucion', 'comercializadora', 'accesoyconexion', 'contacto', 'administrador']);
    expect(m[0]!.find((c) => c.area === 'contacto')).toMatchObject({
      permiso: 'epd-contacto',
      concedido: true,
      original: true,
      bloqueo: null,
    });
  });

  it('locks -distribucion for everyone: it follows the holder NIF', () => {
    expect(bloqueoCelda('epd', 'distribucion', false, adminTotal)).toBe('automatico');
    expect(bloqueoCelda('epd', 'distribucion', true, adminTotal)).toBe('automatico');
  });

  it('shows an administrator of some distributors only their rows', () => {
    expect(construirMatriz([], [], adminEpd).map((fila) => fila[0]!.distribuidora)).toEqual(['epd']);
  });

  it('keeps -administrador to an administrator of every distributor', () => {
    expect(bloqueoCelda('epd', 'administrador', false, adminEpd)).toBe('solo-administrador-total');
    expect(bloqueoCelda('epd', 'administrador', false, adminTotal)).toBeNull();
  });

  it('locks the rows of distributors the editor does not administer', () => {
    expect(bloqueoCelda('epd', 'comercializadora', false, adminEpd)).toBeNull();
    expect(bloqueoCelda('eod', 'comercializadora', false, adminEpd)).toBe('sin-permiso');
    expect(bloqueoCelda('ecd', 'administrador', false, adminEpd)).toBe('sin-permiso');
  });

  it("locks the editor's own granted -administrador, not the ones they lack", () => {
    const yo: Editor = { permisos: ['epd-administrador', 'eod-administrador'], esUnoMismo: true };
    expect(bloqueoCelda('epd', 'administrador', true, yo)).toBe('propio-administrador');
    expect(bloqueoCelda('eod', 'comercializadora', true, yo)).toBeNull();
  });

  it('toggles an editable cell and ignores a locked one', () => {
    const orig = ['epd-contacto', 'epd-distribucion'];
    expect(alternarPermiso(orig, orig, 'epd-comercializadora', adminEpd)).toEqual([...orig, 'epd-comercializadora']);
    expect(alternarPermiso(orig, orig, 'epd-contacto', adminEpd)).toEqual(['epd-distribucion']);
    expect(alternarPermiso(orig, orig, 'epd-distribucion', adminTotal)).toEqual(orig);
    expect(alternarPermiso(orig, orig, 'eod-comercializadora', adminEpd)).toEqual(orig);
    expect(alternarPermiso(orig, orig, 'xyz-contacto', adminTotal)).toEqual(orig);
  });

  it('sends only the differences, sorted', () => {
    const orig = ['epd-contacto', 'eod-contacto', 'epd-distribucion'];
    const ahora = ['eod-contacto', 'epd-distribucion', 'ecd-comercializadora', 'epd-comercializadora'];
    expect(diferenciasPermisos(orig, ahora)).toEqual({
      conceder: ['ecd-comercializadora', 'epd-comercializadora'],
      revocar: ['epd-contacto'],
    });
  });

  it('never sends -distribucion, even when the lists differ in it', () => {
    expect(diferenciasPermisos(['epd-distribucion'], ['eod-distribucion'])).toEqual({ conceder: [], revocar: [] });
    expect(hayCambiosPermisos(['epd-distribucion'], [])).toBe(false);
  });

  it('sees no change after toggling a cell twice', () => {
    const orig = ['epd-contacto'];
    const una = alternarPermiso(orig, orig, 'epd-administrador', adminTotal);
    expect(hayCambiosPermisos(orig, una)).toBe(true);
    expect(hayCambiosPermisos(orig, alternarPermiso(una, orig, 'epd-administrador', adminTotal))).toBe(false);
  });

  it('sums up the pending changes in Spanish', () => {
    expect(resumenCambios(0, 0)).toBe('');
    expect(resumenCambios(1, 0)).toBe('Se concederá 1 permiso.');
    expect(resumenCambios(2, 1)).toBe('Se concederán 2 permisos y se retirará 1 permiso.');
    expect(resumenCambios(0, 3)).toBe('Se retirarán 3 permisos.');
  });
});
