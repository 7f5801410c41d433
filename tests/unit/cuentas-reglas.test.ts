import { describe, expect, it } from 'vitest';
import {
  actualizarClaveSchema,
  altaUsuarioSchema,
  cumpleReglaPassword,
  errorNuevaClave,
  idDeEnlace,
  recuperarClaveSchema,
} from '../../src/lib/cuentas/reglas.ts';

const persona = {
  nif: '54362315k',
  nombre: 'Ana',
  apellido1: 'Ruiz',
  apellido2: 'Gil',
  razonSocial: '',
  password: 'Abc1',
  correoElectronico: 'Ana@Example.com',
  host: '',
};

describe('password rule (docs/producto.md §5)', () => {
  it.each([
    ['aB1', true, 'the shortest'],
    ['aB', false, 'too short'],
    ['ab1', false, 'no upper-case letter'],
    ['AB1', false, 'no lower-case letter'],
    ['aBc', false, 'no digit'],
    ['aB1' + 'x'.repeat(27), true, 'the longest'],
    ['aB1' + 'x'.repeat(28), false, 'too long'],
    ['Ñandú1', true, 'Spanish letters'],
  ])('needs 3 to 30 characters with a digit, a lower-case and an upper-case letter: %s is %s (%s)', (clave, cumple) => {
    expect(cumpleReglaPassword(clave)).toBe(cumple);
  });
});

describe('registration payload', () => {
  it('accepts a person and normalises NIF and e-mail', () => {
    const r = altaUsuarioSchema.parse(persona);
    expect(r.nif).toBe('54362315K');
    expect(r.correoElectronico).toBe('Ana@Example.com');
  });

  it('accepts a company with the company name and no person names', () => {
    expect(
      altaUsuarioSchema.safeParse({ ...persona, nif: 'B00001016', nombre: '', apellido1: '', apellido2: '', razonSocial: 'Talleres, S.L.' })
        .success,
    ).toBe(true);
  });

  it('refuses a company without its name, and a person without names', () => {
    const r1 = altaUsuarioSchema.safeParse({ ...persona, nif: 'B00001016', nombre: '', apellido1: '', apellido2: '' });
    expect(r1.error?.issues.map((i) => i.message)).toEqual(['Introduzca la razón social.']);
    const r2 = altaUsuarioSchema.safeParse({ ...persona, apellido2: '' });
    expect(r2.error?.issues.map((i) => i.message)).toEqual(['Introduzca el segundo apellido.']);
  });

  it('refuses an invalid NIF, a bad e-mail, long fields and a weak password, each with its message', () => {
    const r = altaUsuarioSchema.safeParse({
      ...persona,
      nif: '54362315A',
      correoElectronico: 'no-es-correo',
      nombre: 'x'.repeat(51),
      password: 'abc',
    });
    const messages = r.error?.issues.map((i) => i.message) ?? [];
    expect(messages).toContain('El NIF, NIE o CIF no es válido: compruebe el número y su letra de control.');
    expect(messages).toContain('El correo electrónico no tiene un formato válido.');
    expect(messages).toContain('El nombre no puede superar 50 caracteres.');
    expect(messages).toContain(
      'La contraseña debe tener entre 3 y 30 caracteres, con al menos una letra mayúscula, una minúscula y un número.',
    );
  });
});

describe('recovery and new password', () => {
  it('recovery needs a valid e-mail and a NIF', () => {
    expect(recuperarClaveSchema.safeParse({ nif: '', correoElectronico: 'x' }).error?.issues.map((i) => i.message)).toEqual([
      'Introduzca el NIF, NIE o CIF.',
      'El correo electrónico no tiene un formato válido.',
    ]);
  });

  it('new password classifies the three mistakes of docs/producto.md §5 in order', () => {
    expect(errorNuevaClave('', 'Abc1')).toBe('vacios');
    expect(errorNuevaClave('Abc1', 'Abc2')).toBe('distintas');
    expect(errorNuevaClave('abc', 'abc')).toBe('patron');
    expect(errorNuevaClave('Abc1', 'Abc1')).toBeNull();
    expect(
      actualizarClaveSchema.safeParse({ password: 'Abc1', passwordCopy: 'Abc1', host: 'http://x/sesion/nueva-clave/abc' }).success,
    ).toBe(true);
  });

  it('reads the id at the end of a mailed link', () => {
    expect(idDeEnlace('http://localhost:4321/sesion/nueva-clave/AbC_123?x=1', 'nueva-clave')).toBe('AbC_123');
    expect(idDeEnlace('http://localhost:4321/sesion/activar-usuario/zz', 'activar-usuario')).toBe('zz');
    expect(idDeEnlace('http://localhost:4321/otra', 'nueva-clave')).toBeNull();
  });
});
