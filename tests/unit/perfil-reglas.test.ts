import { describe, expect, it } from 'vitest';
import { MENSAJE_PASSWORD } from '../../src/lib/cuentas/reglas.ts';
import { cambioClaveSchema, cambioEmailSchema, datosPerfilPara, erroresPerfil, tipoNifPerfil } from '../../src/lib/perfil/reglas.ts';

const persona = { nombre: 'Lucía', apellido1: 'Martín', apellido2: 'Ortega', razonSocial: '' };
const empresa = { nombre: '', apellido1: '', apellido2: '', razonSocial: 'Talleres Ribera, S.L.' };

describe('tipoNifPerfil', () => {
  it('tells DNI, NIE and CIF apart; null without a valid one', () => {
    expect(tipoNifPerfil('12345678Z')).toBe('DNI');
    expect(tipoNifPerfil('X1234567L')).toBe('NIE');
    expect(tipoNifPerfil('B00001016')).toBe('CIF');
    expect(tipoNifPerfil(null)).toBeNull();
    expect(tipoNifPerfil('12345678A')).toBeNull();
  });
});

describe('erroresPerfil', () => {
  it('asks a person for the three names and no company name', () => {
    expect(erroresPerfil('DNI', persona)).toEqual([]);
    expect(erroresPerfil('NIE', { ...persona, apellido2: '' }).map((e) => e.campo)).toEqual(['apellido2']);
    expect(erroresPerfil('DNI', { ...persona, razonSocial: 'X' }).map((e) => e.campo)).toEqual(['razonSocial']);
  });

  it('asks a company for its company name and no person names', () => {
    expect(erroresPerfil('CIF', empresa)).toEqual([]);
    expect(erroresPerfil('CIF', { ...empresa, razonSocial: '' }).map((e) => e.campo)).toEqual(['razonSocial']);
    expect(erroresPerfil('CIF', { ...empresa, apellido1: 'X' }).map((e) => e.campo)).toEqual(['nombre']);
  });

  it('lets an account without NIF be either, not both nor neither', () => {
    expect(erroresPerfil(null, { ...persona, apellido1: '', apellido2: '' })).toEqual([]);
    expect(erroresPerfil(null, empresa)).toEqual([]);
    expect(erroresPerfil(null, { ...persona, razonSocial: 'X' })).toHaveLength(1);
    expect(erroresPerfil(null, { nombre: '', apellido1: '', apellido2: '', razonSocial: '' })).toHaveLength(1);
  });

  it('join the field rules in the schema of each kind, trimming and bounding lengths', () => {
    const r = datosPerfilPara('DNI').safeParse({ ...persona, nombre: `  ${'x'.repeat(51)}  ` });
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => i.message)).toEqual(['El nombre no puede superar 50 caracteres.']);
    expect(datosPerfilPara('CIF').parse({ razonSocial: ' Talleres, S.L. ' })).toEqual({ ...empresa, razonSocial: 'Talleres, S.L.' });
  });
});

describe('change bodies', () => {
  it('normalise the new e-mail and require the current password', () => {
    expect(cambioEmailSchema.parse({ nuevoEmail: ' Ana@Correo.Example ', password: 'x' })).toEqual({
      nuevoEmail: 'ana@correo.example',
      password: 'x',
    });
    expect(cambioEmailSchema.safeParse({ nuevoEmail: 'ana@correo.example', password: '' }).error!.issues[0]!.message).toBe(
      'Introduzca su contraseña actual.',
    );
  });

  it('check the copy first, then the rule', () => {
    const m = (password: string, passwordCopy: string) =>
      cambioClaveSchema.safeParse({ passwordActual: 'Clave123', password, passwordCopy }).error?.issues.map((i) => i.message);
    expect(m('Nueva123', 'Nueva124')).toEqual(['Las contraseñas no coinciden.']);
    expect(m('nueva', 'nueva')).toEqual([MENSAJE_PASSWORD]);
    expect(m('Nueva123', 'Nueva123')).toBeUndefined();
  });
});
