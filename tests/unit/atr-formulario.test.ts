/**
 * The ATR request form in plain TypeScript (src/lib/atr/formulario.ts): the body it builds from what
 * was typed, the messages per field with the rules the API shares (NIF, CUPS, powers with their
 * table 27 codes, the activation date), the tariffs a voltage admits (code 17) and the reasons'
 * wording.
 */
import { describe, expect, it } from 'vitest';
import {
  cuerpoSolicitudAtr,
  detalleMotivoAtr,
  errorTarifaTension,
  formularioAtrVacio,
  normalizarTelefono,
  periodosFormularioAtr,
  tarifasParaTension,
  textoMotivoFormularioAtr,
  validarFormularioAtr,
  type FormularioAtr,
} from '../../src/lib/atr/formulario.ts';
import { construirCups } from '../../src/lib/cups.ts';

const HOY = '2026-11-02';
const CUPS = construirCups('9901', 1234);
const base = (cambios: Partial<FormularioAtr>): FormularioAtr => ({
  ...formularioAtrVacio(['epd']),
  cups: CUPS,
  nif: '12345678Z',
  nombre: 'Lucía',
  apellido1: 'Martín',
  ...cambios,
});
const campos = (f: FormularioAtr) => validarFormularioAtr(f, HOY).errores.map((e) => e.campo);

describe('el formulario de solicitud ATR', () => {
  it('pide primero el proceso, y preselecciona la única distribuidora de la empresa', () => {
    expect(validarFormularioAtr(formularioAtrVacio(['epd']), HOY).errores).toEqual([
      { campo: 'proceso', mensaje: 'Elija el proceso de la solicitud.' },
    ]);
    expect(formularioAtrVacio(['epd']).distribuidora).toBe('epd');
    expect(formularioAtrVacio(['epd', 'eod']).distribuidora).toBe('');
  });

  it('construye el cuerpo de un C1 y lo da por bueno', () => {
    const { errores, cuerpo } = validarFormularioAtr(base({ proceso: 'C1', cups: ` ${CUPS.toLowerCase()} `, nif: '12345678-z' }), HOY);
    expect(errores).toEqual([]);
    expect(cuerpo).toEqual({
      proceso: 'C1',
      distribuidora: 'epd',
      cups: CUPS,
      titular: { nif: '12345678Z', nombre: 'Lucía', apellido1: 'Martín' },
      activacion: 'A',
    });
  });

  it('con un CIF pide la razón social y no los nombres', () => {
    const f = base({ proceso: 'B1', nif: 'B00005025', motivoBaja: '02' });
    expect(campos(f)).toEqual(['razonSocial']);
    const { cuerpo } = validarFormularioAtr({ ...f, razonSocial: 'Energía Clara, S.L.' }, HOY);
    expect(cuerpo).toMatchObject({ titular: { nif: 'B00005025', razonSocial: 'Energía Clara, S.L.' }, motivoBaja: '02' });
  });

  it('dice cada fallo junto a su campo, en el orden del formulario', () => {
    const f = base({ proceso: 'A3', cups: 'ES9901', nif: '12345678A', nombre: '', tarifa: '2.0TD', cnae: '98', telefono: '12' });
    expect(campos(f)).toEqual(['cups', 'nif', 'p1', 'p2', 'cnae', 'telefono']);
    const mensajes = validarFormularioAtr(f, HOY).errores.map((e) => e.mensaje);
    expect(mensajes[0]).toMatch(/20 o 22 caracteres/);
    expect(mensajes[1]).toMatch(/no es un DNI, NIE ni CIF válido/);
  });

  it('lee las potencias en kW y las envía en W, con las reglas de la tarifa y su código de la tabla 27', () => {
    const dos = base({ proceso: 'C2', tarifa: '2.0TD', potencias: ['4,6', '5.75', '', '', '', ''] });
    expect(periodosFormularioAtr(dos)).toBe(2);
    expect(validarFormularioAtr(dos, HOY).cuerpo).toMatchObject({ tarifa: '2.0TD', potenciasW: [4600, 5750] });
    // More than 15 kW in 2.0TD: 52.
    const alta = validarFormularioAtr({ ...dos, potencias: ['16', '4,6', '', '', '', ''] }, HOY).errores;
    expect(alta).toMatchObject([{ campo: 'p1', codigo: '52' }]);
    // A six-period tariff whose P3 is below P2: 15, on P3.
    const seis = base({ proceso: 'M1', tipoModificacion: 'N', tarifa: '3.0TD', potencias: ['20', '25', '20', '25', '25', '30'] });
    expect(validarFormularioAtr(seis, HOY).errores).toMatchObject([{ campo: 'p3', codigo: '15' }]);
    expect(validarFormularioAtr({ ...seis, potencias: ['20', 'x', '25', '25', '25', '30'] }, HOY).errores[0]).toMatchObject({
      campo: 'p2',
      mensaje: expect.stringMatching(/escriba la potencia en kW/),
    });
  });

  it('en un M1 pide solo lo que cambia: tarifa y potencias, el cambio administrativo, o ambos', () => {
    const m1 = base({ proceso: 'M1' });
    expect(campos(m1)).toEqual(['tipoModificacion']);
    expect(campos({ ...m1, tipoModificacion: 'S' })).toEqual(['solicitudAdministrativa']);
    expect(campos({ ...m1, tipoModificacion: 'A' })).toEqual(['solicitudAdministrativa', 'tarifa']);
    const { cuerpo } = validarFormularioAtr({ ...m1, tipoModificacion: 'S', solicitudAdministrativa: 'T', tarifa: '2.0TD' }, HOY);
    expect(cuerpo).toMatchObject({ tipoModificacion: 'S', solicitudAdministrativa: 'T' });
    expect(cuerpo).not.toHaveProperty('tarifa');
  });

  it('pide la fecha de una activación en fecha fija, posterior a hoy', () => {
    const f = base({ proceso: 'C1', activacion: 'F' });
    expect(campos(f)).toEqual(['fechaActivacion']);
    expect(campos({ ...f, fechaActivacion: HOY })).toEqual(['fechaActivacion']);
    expect(validarFormularioAtr({ ...f, fechaActivacion: '2026-11-20' }, HOY).cuerpo).toMatchObject({ fechaActivacion: '2026-11-20' });
  });

  it('deja el teléfono en sus cifras, sin el prefijo de España', () => {
    expect(normalizarTelefono('+34 600 11 22 33')).toBe('600112233');
    expect(normalizarTelefono('0034-600112233')).toBe('600112233');
    expect(cuerpoSolicitudAtr(base({ proceso: 'A3', telefono: '(91) 555-12-34' }))).toMatchObject({ telefono: '915551234' });
  });
});

describe('la tarifa según la tensión (motivo 17)', () => {
  it('admite 2.0TD y 3.0TD en baja tensión y la 6.xTD de su escalón en alta', () => {
    expect(tarifasParaTension(230)).toEqual(['2.0TD', '3.0TD']);
    expect(tarifasParaTension(20_000)).toEqual(['6.1TD']);
    expect(tarifasParaTension(45_000)).toEqual(['6.2TD']);
    expect(tarifasParaTension(132_000)).toEqual(['6.3TD']);
    expect(tarifasParaTension(220_000)).toEqual(['6.4TD']);
    expect(errorTarifaTension('3.0TD', 400)).toBeNull();
    expect(errorTarifaTension('6.1TD', 400)).toMatch(/400 V.*admite 2.0TD o 3.0TD/);
    expect(errorTarifaTension('2.0TD', 20_000)).toMatch(/20 kV/);
  });
});

describe('los motivos de un rechazo', () => {
  it('separa del título lo que el comentario añade', () => {
    const m15 = {
      codigo: '15',
      texto: 'Secuencia de potencias incorrecta (Pi > Pi+1)',
      comentario: '15 · Secuencia de potencias incorrecta (Pi > Pi+1): en la tarifa 3.0TD P2 es menor que P1.',
    };
    expect(detalleMotivoAtr(m15)).toBe('en la tarifa 3.0TD P2 es menor que P1.');
    expect(textoMotivoFormularioAtr(m15)).toBe(
      '15 · Secuencia de potencias incorrecta (Pi > Pi+1): en la tarifa 3.0TD P2 es menor que P1.',
    );
    const m03 = {
      codigo: '03',
      texto: 'NIF-CIF no coincide con el del contrato en vigor',
      comentario: 'NIF-CIF no coincide con el del contrato en vigor',
    };
    expect(detalleMotivoAtr(m03)).toBe('');
    expect(textoMotivoFormularioAtr(m03)).toBe('03 · NIF-CIF no coincide con el del contrato en vigor.');
  });
});
