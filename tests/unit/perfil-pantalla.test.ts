/** The profile screen's rules (src/lib/perfil/pantalla.ts): fields by kind of NIF, form errors, display helpers. */
import { describe, expect, it } from 'vitest';
import { MENSAJE_PASSWORD } from '../../src/lib/cuentas/reglas.ts';
import {
  camposHabilitados,
  camposVisibles,
  claseCuenta,
  cuerpoDatos,
  fechaHora,
  nombreNavegador,
  validarCambioClave,
  validarCambioEmail,
  validarDatos,
} from '../../src/lib/perfil/pantalla.ts';

const vacio = { nombre: '', apellido1: '', apellido2: '', razonSocial: '' };
const persona = { nombre: 'Lucía', apellido1: 'Martín', apellido2: 'Ortega', razonSocial: '' };
const campos = (e: { campo: string }[]) => e.map((x) => x.campo);

describe('fields by kind of NIF (docs/producto.md §4)', () => {
  it('a CIF account edits its company name, a DNI or NIE account its three names, one without NIF either', () => {
    expect(claseCuenta('CIF')).toBe('empresa');
    expect(claseCuenta('DNI')).toBe('persona');
    expect(claseCuenta('NIE')).toBe('persona');
    expect(claseCuenta(null)).toBe('libre');
    expect(camposVisibles('empresa')).toEqual(['razonSocial']);
    expect(camposVisibles('persona')).toEqual(['nombre', 'apellido1', 'apellido2']);
    expect(camposVisibles('libre')).toEqual(['nombre', 'apellido1', 'apellido2', 'razonSocial']);
  });

  it('without NIF, a name disables the company name and a company name disables the names', () => {
    expect(camposHabilitados('libre', { ...vacio, nombre: 'Ana' }).razonSocial).toBe(false);
    expect(camposHabilitados('libre', { ...vacio, razonSocial: 'Ana, S.L.' })).toMatchObject({
      nombre: false,
      apellido1: false,
      apellido2: false,
    });
    expect(Object.values(camposHabilitados('libre', vacio)).every(Boolean)).toBe(true);
    expect(Object.values(camposHabilitados('persona', persona)).every(Boolean)).toBe(true);
  });

  it('sends the unused side empty and the values trimmed', () => {
    expect(cuerpoDatos('persona', { ...persona, nombre: '  Lucía ', razonSocial: 'X' })).toEqual(persona);
    expect(cuerpoDatos('empresa', { ...persona, razonSocial: ' Talleres, S.L. ' })).toEqual({ ...vacio, razonSocial: 'Talleres, S.L.' });
    expect(cuerpoDatos('libre', { ...vacio, razonSocial: 'Talleres, S.L.' })).toEqual({ ...vacio, razonSocial: 'Talleres, S.L.' });
  });
});

describe('identity errors', () => {
  it('a person needs the three names', () => {
    expect(validarDatos('DNI', persona)).toEqual([]);
    expect(validarDatos('NIE', { ...persona, apellido2: ' ' })).toEqual([
      { campo: 'apellido2', mensaje: 'Introduzca el segundo apellido.' },
    ]);
    expect(campos(validarDatos('DNI', vacio))).toEqual(['nombre', 'apellido1', 'apellido2']);
  });

  it('a company needs its name, at most 150 characters', () => {
    expect(validarDatos('CIF', { ...vacio, razonSocial: 'Talleres, S.L.' })).toEqual([]);
    expect(validarDatos('CIF', vacio)).toEqual([{ campo: 'razonSocial', mensaje: 'Introduzca la razón social.' }]);
    expect(validarDatos('CIF', { ...vacio, razonSocial: 'x'.repeat(151) })[0]?.mensaje).toMatch(/150 caracteres/);
  });

  it('limits each name to 50 characters', () => {
    expect(validarDatos('DNI', { ...persona, apellido1: 'x'.repeat(51) })).toEqual([
      { campo: 'apellido1', mensaje: 'El primer apellido no puede superar 50 caracteres.' },
    ]);
  });

  it('without NIF, needs one side and not both', () => {
    expect(validarDatos(null, vacio).length).toBeGreaterThan(0);
    expect(validarDatos(null, { ...vacio, razonSocial: 'Talleres, S.L.' })).toEqual([]);
    expect(validarDatos(null, { ...persona, razonSocial: 'Talleres, S.L.' }).length).toBeGreaterThan(0);
  });
});

describe('e-mail change errors', () => {
  it('asks for a valid new address and the current password', () => {
    expect(validarCambioEmail('nueva@example.com', 'Abc1', 'vieja@example.com')).toEqual([]);
    expect(campos(validarCambioEmail('', '', 'vieja@example.com'))).toEqual(['nuevoEmail', 'passwordEmail']);
    expect(validarCambioEmail('no-es-correo', 'Abc1', 'vieja@example.com')).toEqual([
      { campo: 'nuevoEmail', mensaje: 'El correo electrónico nuevo no tiene un formato válido.' },
    ]);
  });

  it('refuses the address already in use by the account, whatever its case', () => {
    expect(campos(validarCambioEmail(' Vieja@Example.com ', 'Abc1', 'vieja@example.com'))).toEqual(['nuevoEmail']);
  });
});

describe('password change errors', () => {
  it('needs the three fields, equal new ones and the rule of docs/producto.md §5', () => {
    expect(validarCambioClave('Actual1', 'Nueva123', 'Nueva123')).toEqual([]);
    expect(campos(validarCambioClave('', '', ''))).toEqual(['passwordActual', 'passwordNueva', 'passwordCopia']);
    expect(validarCambioClave('Actual1', 'Nueva123', 'Nueva124')).toEqual([
      { campo: 'passwordCopia', mensaje: 'Las contraseñas no coinciden.' },
    ]);
    expect(validarCambioClave('Actual1', 'nueva', 'nueva')).toEqual([{ campo: 'passwordNueva', mensaje: MENSAJE_PASSWORD }]);
  });
});

describe('display', () => {
  it('shows instants in Madrid time, whatever the machine zone', () => {
    expect(fechaHora('2026-07-01T08:30:00Z')).toMatch(/1 de julio de 2026.*10:30/);
    expect(fechaHora('2026-01-15T08:30:00Z')).toMatch(/15 de enero de 2026.*9:30/);
    expect(fechaHora('no es fecha')).toBe('no es fecha');
  });

  it('names common browsers and systems, and keeps unknown agents short', () => {
    expect(
      nombreNavegador('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36'),
    ).toBe('Chrome en Windows');
    expect(nombreNavegador('Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0')).toBe('Firefox en Linux');
    expect(
      nombreNavegador(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Version/17.5 Mobile/15E148 Safari/604.1',
      ),
    ).toBe('Safari en iOS');
    expect(nombreNavegador('Mozilla/5.0 (Windows NT 10.0) AppleWebKit/537.36 Chrome/126.0 Safari/537.36 Edg/126.0')).toBe(
      'Edge en Windows',
    );
    expect(nombreNavegador(null)).toBe('Navegador desconocido');
    expect(nombreNavegador('x'.repeat(100))).toHaveLength(58);
  });
});
