/** The registration form's field rules (docs/producto.md §4, §5) and payload (docs/producto.md §3). */
import { describe, expect, it } from 'vitest';
import { nifTecleado, payloadRegistro, reglasRegistro, type CamposIdentidad } from '../../src/lib/cuentas/formulario-registro.ts';
import { altaUsuarioSchema } from '../../src/lib/cuentas/reglas.ts';

const DNI = '54362315K';
const NIE = 'X1234567L';
const CIF = 'B00001016';
const vacio: CamposIdentidad = { nif: '', nombre: '', apellido1: '', apellido2: '', razonSocial: '' };
const todos = { nombre: true, apellido1: true, apellido2: true, razonSocial: true };

describe('NIF while typing', () => {
  it('is forced to upper case', () => {
    expect(nifTecleado('54362315k')).toBe('54362315K');
    expect(nifTecleado('x1234567l')).toBe('X1234567L');
    expect(nifTecleado('b0000101')).toBe('B0000101');
  });
});

describe('reglasRegistro (docs/producto.md §4)', () => {
  it('classifies DNI, NIE, CIF and anything else', () => {
    expect(reglasRegistro({ ...vacio, nif: DNI }).tipo).toBe('DNI');
    expect(reglasRegistro({ ...vacio, nif: NIE }).tipo).toBe('DNI');
    expect(reglasRegistro({ ...vacio, nif: CIF }).tipo).toBe('CIF');
    expect(reglasRegistro({ ...vacio, nif: '5436231' }).tipo).toBe('INCOMPLETO');
    expect(reglasRegistro({ ...vacio, nif: '54362315A' }).tipo).toBe('INCOMPLETO');
    expect(reglasRegistro(vacio).tipo).toBe('INCOMPLETO');
  });

  it('empty NIF and nothing else: everything enabled, nothing cleared', () => {
    expect(reglasRegistro(vacio)).toEqual({ tipo: 'INCOMPLETO', valores: vacio, habilitados: todos });
  });

  it('CIF: clears and disables the person names, enables the company name', () => {
    const r = reglasRegistro({ nif: CIF, nombre: 'Ana', apellido1: 'Ruiz', apellido2: 'Gil', razonSocial: '' });
    expect(r.valores).toEqual({ nif: CIF, nombre: '', apellido1: '', apellido2: '', razonSocial: '' });
    expect(r.habilitados).toEqual({ nombre: false, apellido1: false, apellido2: false, razonSocial: true });
  });

  it('CIF keeps a company name already typed', () => {
    const r = reglasRegistro({ ...vacio, nif: CIF, razonSocial: 'Talleres, S.L.' });
    expect(r.valores.razonSocial).toBe('Talleres, S.L.');
    expect(r.habilitados.razonSocial).toBe(true);
  });

  for (const [nombre, nif] of [
    ['DNI', DNI],
    ['NIE', NIE],
  ] as const) {
    it(`${nombre}: clears and disables the company name, enables the names`, () => {
      const r = reglasRegistro({ ...vacio, nif, razonSocial: 'Talleres, S.L.' });
      expect(r.valores).toEqual({ ...vacio, nif });
      expect(r.habilitados).toEqual({ nombre: true, apellido1: true, apellido2: true, razonSocial: false });
    });

    it(`${nombre} keeps the names already typed`, () => {
      const campos = { nif, nombre: 'Ana', apellido1: 'Ruiz', apellido2: '', razonSocial: '' };
      expect(reglasRegistro(campos).valores).toEqual(campos);
    });
  }

  for (const campo of ['nombre', 'apellido1', 'apellido2'] as const) {
    it(`incomplete NIF with ${campo} filled: the company name is disabled, the names enabled`, () => {
      const r = reglasRegistro({ ...vacio, nif: '543', [campo]: 'x' });
      expect(r.habilitados).toEqual({ nombre: true, apellido1: true, apellido2: true, razonSocial: false });
      expect(r.valores[campo]).toBe('x');
    });
  }

  it('incomplete NIF with a company name: the names are disabled, the company name enabled', () => {
    const r = reglasRegistro({ ...vacio, nif: 'B00', razonSocial: 'Talleres' });
    expect(r.habilitados).toEqual({ nombre: false, apellido1: false, apellido2: false, razonSocial: true });
    expect(r.valores.razonSocial).toBe('Talleres');
  });

  it('blank spaces are not a value', () => {
    expect(reglasRegistro({ ...vacio, nombre: '   ' }).habilitados).toEqual(todos);
    expect(reglasRegistro({ ...vacio, razonSocial: ' ' }).habilitados).toEqual(todos);
  });

  it('never locks both sides when both hold values (a state the rules never produce)', () => {
    const r = reglasRegistro({ nif: '', nombre: 'Ana', apellido1: '', apellido2: '', razonSocial: 'Talleres' });
    expect(r.habilitados).toEqual(todos);
  });

  it('a lower-case NIF is classified as its upper case', () => {
    expect(reglasRegistro({ ...vacio, nif: 'b00001016', nombre: 'x' }).tipo).toBe('CIF');
  });

  it('every combination of type and filled fields obeys docs/producto.md §4', () => {
    const nifs = ['', '123', DNI, NIE, CIF];
    for (const nif of nifs)
      for (let mascara = 0; mascara < 16; mascara++) {
        const campos: CamposIdentidad = {
          nif,
          nombre: mascara & 1 ? 'N' : '',
          apellido1: mascara & 2 ? 'A' : '',
          apellido2: mascara & 4 ? 'B' : '',
          razonSocial: mascara & 8 ? 'R' : '',
        };
        const r = reglasRegistro(campos);
        const etiqueta = JSON.stringify(campos);
        if (r.tipo === 'CIF') {
          expect(r.valores, etiqueta).toEqual({ ...campos, nombre: '', apellido1: '', apellido2: '' });
          expect(r.habilitados, etiqueta).toEqual({ nombre: false, apellido1: false, apellido2: false, razonSocial: true });
        } else if (r.tipo === 'DNI') {
          expect(r.valores, etiqueta).toEqual({ ...campos, razonSocial: '' });
          expect(r.habilitados, etiqueta).toEqual({ nombre: true, apellido1: true, apellido2: true, razonSocial: false });
        } else {
          expect(r.valores, etiqueta).toEqual(campos);
          const persona = (mascara & 7) !== 0;
          const empresa = (mascara & 8) !== 0;
          expect(r.habilitados.razonSocial, etiqueta).toBe(!(persona && !empresa));
          expect(r.habilitados.nombre, etiqueta).toBe(!(empresa && !persona));
        }
        // Applying the rules again changes nothing: the form settles after one pass.
        expect(reglasRegistro(r.valores).valores, etiqueta).toEqual(r.valores);
      }
  });
});

describe('payloadRegistro (docs/producto.md §3, §5)', () => {
  const datos = {
    nif: '54362315k',
    nombre: ' Ana ',
    apellido1: 'Ruiz',
    apellido2: 'Gil',
    razonSocial: 'Sobra',
    correoElectronico: ' ana@example.com ',
    password: 'Abc1',
  };

  it('a person sends the names and an empty company name; host is origin + /sesion', () => {
    const p = payloadRegistro(datos, 'https://portal.example');
    expect(p).toEqual({
      nif: '54362315K',
      razonSocial: '',
      nombre: 'Ana',
      apellido1: 'Ruiz',
      apellido2: 'Gil',
      password: 'Abc1',
      correoElectronico: 'ana@example.com',
      host: 'https://portal.example/sesion',
    });
    expect(altaUsuarioSchema.safeParse(p).success).toBe(true);
  });

  it('a company sends the company name and empty names', () => {
    const p = payloadRegistro({ ...datos, nif: CIF, razonSocial: 'Talleres, S.L.' }, 'http://127.0.0.1:4321');
    expect(p).toMatchObject({ nif: CIF, razonSocial: 'Talleres, S.L.', nombre: '', apellido1: '', apellido2: '' });
    expect(altaUsuarioSchema.safeParse(p).success).toBe(true);
  });

  it('an incomplete NIF sends what was typed, for the schema to refuse', () => {
    const p = payloadRegistro({ ...datos, nif: '123' }, 'http://x');
    expect(p.nombre).toBe('Ana');
    expect(p.razonSocial).toBe('Sobra');
    expect(altaUsuarioSchema.safeParse(p).success).toBe(false);
  });
});
