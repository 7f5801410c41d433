/** The plain part of a form field (docs/diseno.md "Forms"): the ids that describe a control, its attributes and the wrapper's classes. */
import { describe, expect, it } from 'vitest';
import { atributosControl, claseCampo, describedBy, idAyuda, idError, textosCampo } from '../../src/islands/comunes/formulario/campo.ts';

describe('ids of a field', () => {
  it('derive the hint and the error from the control id', () => {
    expect(idAyuda('nif')).toBe('nif-ayuda');
    expect(idError('nif')).toBe('nif-error');
  });

  it('join in order and leave out the empty ones', () => {
    expect(describedBy('a-ayuda', undefined, false, null, 'a-error')).toBe('a-ayuda a-error');
    expect(describedBy(undefined, '')).toBeUndefined();
  });
});

describe('textosCampo', () => {
  it('describes the control with its hint only while valid', () => {
    expect(textosCampo({ id: 'correo', ayuda: 'Su dirección.' })).toEqual({
      ayuda: 'Su dirección.',
      idAyuda: 'correo-ayuda',
      idError: undefined,
      describedBy: 'correo-ayuda',
    });
  });

  it('reads the hint before the error', () => {
    expect(textosCampo({ id: 'correo', ayuda: 'Su dirección.', error: 'Falta.' }).describedBy).toBe('correo-ayuda correo-error');
  });

  it('drops a hint the error repeats, as the password rule does', () => {
    const t = textosCampo({ id: 'password', ayuda: 'Entre 8 y 30.', error: 'Entre 8 y 30.' });
    expect(t.ayuda).toBeUndefined();
    expect(t.describedBy).toBe('password-error');
  });

  it('gives no aria-describedby to a field with neither', () => {
    expect(textosCampo({ id: 'q' }).describedBy).toBeUndefined();
  });
});

describe('atributosControl', () => {
  it('marks a wrong control invalid and ties it to its texts', () => {
    const p = { id: 'nif', requerido: true, error: 'Falta.' };
    expect(atributosControl(p, textosCampo(p))).toEqual({
      id: 'nif',
      required: true,
      'aria-invalid': true,
      'aria-describedby': 'nif-error',
    });
  });

  it('leaves aria-invalid and required out of a valid, optional control', () => {
    const a = atributosControl({ id: 'q' }, textosCampo({ id: 'q' }));
    expect(a['aria-invalid']).toBeUndefined();
    expect(a.required).toBeUndefined();
  });
});

describe('claseCampo', () => {
  it('adds the modifiers of the state and the extra class, in that order', () => {
    expect(claseCampo('campo', {})).toBe('campo');
    expect(claseCampo('campo', { error: 'x', deshabilitado: true })).toBe('campo campo--error campo--deshabilitado');
    expect(claseCampo('admin-campo', { clase: 'admin-filtros__busqueda' })).toBe('admin-campo admin-filtros__busqueda');
  });
});
