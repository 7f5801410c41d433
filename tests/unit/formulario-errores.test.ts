/** A form's field errors as its summary lists them (docs/diseno.md "Forms"). */
import { describe, expect, it } from 'vitest';
import { z } from '../../src/lib/validacion/z.ts';
import { erroresDeResultado, erroresEnOrden, erroresPorCampo, mensajeDe, sinError } from '../../src/islands/comunes/formulario/errores.ts';

const issues = [
  { path: ['correo'], message: 'Falta el correo.' },
  { path: ['correo'], message: 'El correo no es válido.' },
  { path: ['nif'], message: 'Falta el NIF.' },
  { path: [], message: 'Sin campo.' },
];

describe('erroresPorCampo', () => {
  it('keeps the first message of each named field', () => {
    expect(erroresPorCampo(issues)).toEqual({ correo: 'Falta el correo.', nif: 'Falta el NIF.' });
  });
});

describe('erroresEnOrden', () => {
  it('lists the fields in the form order, leaving out those it does not show', () => {
    expect(erroresEnOrden(['nif', 'correo'], { correo: 'a', nif: 'b', host: 'c' })).toEqual([
      { campo: 'nif', mensaje: 'b' },
      { campo: 'correo', mensaje: 'a' },
    ]);
  });
});

describe('erroresDeResultado', () => {
  const esquema = z.object({ nif: z.string().min(1, 'Falta el NIF.'), correo: z.string().min(1, 'Falta el correo.') });

  it('is empty for a result that passed', () => {
    expect(erroresDeResultado(['nif', 'correo'], esquema.safeParse({ nif: 'x', correo: 'y' }))).toEqual([]);
  });

  it('turns a failed result into summary entries in the form order', () => {
    expect(erroresDeResultado(['nif', 'correo'], esquema.safeParse({ nif: '', correo: '' }))).toEqual([
      { campo: 'nif', mensaje: 'Falta el NIF.' },
      { campo: 'correo', mensaje: 'Falta el correo.' },
    ]);
  });
});

describe('one field of a list', () => {
  const errores = [
    { campo: 'nif', mensaje: 'b' },
    { campo: 'correo', mensaje: 'a' },
  ];

  it('gives its message', () => {
    expect(mensajeDe(errores, 'correo')).toBe('a');
    expect(mensajeDe(errores, 'otro')).toBeUndefined();
  });

  it('is removed, and the same list comes back when it had no entry', () => {
    expect(sinError(errores, 'nif')).toEqual([{ campo: 'correo', mensaje: 'a' }]);
    expect(sinError(errores, 'otro')).toBe(errores);
  });
});
