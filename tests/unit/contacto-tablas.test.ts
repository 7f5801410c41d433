/**
 * The CNMC claim tables as the portal keeps them (src/lib/contacto/tablas-r1.ts; docs/decisions/018)
 * and the deadlines of queries (RGPD art. 12.3 with Ley 39/2015 art. 30.4–30.5).
 */
import { describe, expect, it } from 'vitest';
import {
  CODIGOS_ROL,
  CODIGOS_TIPO,
  DEFINICION_CAMPOS,
  errorCampo,
  etiquetaEnFrase,
  esIbanValido,
  ROLES_RECLAMANTE,
  SUBTIPOS_RECLAMACION,
  subtiposDe,
  telefonoR1,
} from '../../src/lib/contacto/tablas-r1.ts';
import { faltanReclamacion } from '../../src/lib/contacto/datos.ts';
import { construirCups } from '../../src/lib/cups.ts';
import { venceEnMeses, venceEnNaturales } from '../../src/lib/expedientes/plazos.ts';

describe('tablas R1', () => {
  it('offers only subtypes of the types of table 81 and codes below 100, each code once', () => {
    expect(SUBTIPOS_RECLAMACION.every((s) => CODIGOS_TIPO.includes(s.tipo) && Number(s.codigo) < 100)).toBe(true);
    expect(new Set(SUBTIPOS_RECLAMACION.map((s) => s.codigo)).size).toBe(SUBTIPOS_RECLAMACION.length);
  });

  it('keeps the roles of table 83 in the table’s order', () => {
    expect(CODIGOS_ROL).toEqual(['01', '02', '03', '04', '06', '07', '08', '09', '11']);
    expect([...CODIGOS_ROL].sort()).toEqual(Object.keys(ROLES_RECLAMANTE).sort());
  });

  it('offers the ATR exchange subtypes only to a supply company', () => {
    const atr = SUBTIPOS_RECLAMACION.filter((s) => s.campos.includes('codigoSolicitud'));
    expect(atr.length).toBeGreaterThan(0);
    expect(atr.every((s) => s.soloComercializadora)).toBe(true);
    expect(subtiposDe('03', '01').some((s) => s.campos.includes('codigoSolicitud'))).toBe(false);
    expect(subtiposDe('03', '06').some((s) => s.campos.includes('codigoSolicitud'))).toBe(true);
  });

  it('every field a subtype asks has a definition, and every code field its table', () => {
    for (const s of SUBTIPOS_RECLAMACION) for (const c of s.campos) expect(DEFINICION_CAMPOS[c], `${s.codigo} ${c}`).toBeDefined();
    for (const d of Object.values(DEFINICION_CAMPOS))
      if (d.clase === 'codigo') expect(Object.keys(d.tabla ?? {}).length).toBeGreaterThan(0);
  });

  it('splits a phone as the R1 schema takes it: a country prefix (E.164) and a number of 6 to 12 digits', () => {
    expect(telefonoR1('600 123 456')).toEqual({ prefijo: '34', numero: '600123456' });
    expect(telefonoR1('+34 912 345 678')).toEqual({ prefijo: '34', numero: '912345678' });
    expect(telefonoR1('+33 6 12 34 56 78')).toEqual({ prefijo: '33', numero: '612345678' });
    expect(telefonoR1('00351 912345678')).toEqual({ prefijo: '351', numero: '912345678' });
    expect(telefonoR1('123456789')).toBeNull();
    expect(telefonoR1('+34 12')).toBeNull();
  });

  it('asks the place of an incident as the R1 schema does: INE province and municipality, postal code of that province', () => {
    const base = { rol: '08' as const, tipo: '06' as const, subtipo: '026', mensaje: 'x' };
    const lugar = { ubicacion: 'Calle de los Colegios, 14', ubicacionProvincia: '28', ubicacionMunicipio: '28005' };
    expect(faltanReclamacion({ ...base, campos: lugar }, 'ES9901', [])).toEqual([]);
    expect(
      faltanReclamacion({ ...base, campos: { ...lugar, ubicacionMunicipio: '08019', ubicacionCodigoPostal: '08001' } }, 'ES9901', []),
    ).toEqual([
      { campo: 'ubicacionMunicipio', mensaje: 'Ese municipio no es de la provincia elegida: su código empieza por 28.' },
      { campo: 'ubicacionCodigoPostal', mensaje: 'Ese código postal no es de la provincia elegida: empieza por 28.' },
    ]);
    expect(errorCampo('ubicacion', 'x'.repeat(46), 'ES9901')).toMatch(/45 caracteres/);
    expect(errorCampo('ubicacionMunicipio', '2800', 'ES9901')).toMatch(/5 cifras/);
  });

  it('keeps the R1 schema’s lengths and codes: fraud case 16, earlier claim 12, CAU 26, table 79', () => {
    expect(errorCampo('expedienteFraude', 'F'.repeat(17), 'ES9901')).toMatch(/16/);
    expect(errorCampo('reclamacionAnterior', 'R'.repeat(13), 'ES9901')).toMatch(/12/);
    expect(errorCampo('cau', 'ES0031405000000001AB0FA00', 'ES9901')).toMatch(/26/);
    expect(errorCampo('conceptoContratacion', 'la potencia', 'ES9901')).toMatch(/Elija/);
    expect(errorCampo('conceptoContratacion', '01', 'ES9901')).toBeNull();
  });

  it('checks IBANs by their check digits (ISO 13616)', () => {
    expect(esIbanValido('ES91 2100 0418 4502 0005 1332')).toBe(true);
    expect(esIbanValido('ES92 2100 0418 4502 0005 1332')).toBe(false);
    expect(esIbanValido('ES91 2100 0418 4502 0005 133')).toBe(false);
    expect(esIbanValido('DE89370400440532013000')).toBe(true);
  });

  it('checks each field by its kind', () => {
    expect(errorCampo('cups', construirCups('9903', 1), 'ES9903')).toBeNull();
    expect(errorCampo('cups', construirCups('9901', 1), 'ES9903')).toMatch(/no es de esta distribuidora/);
    expect(errorCampo('importeReclamado', 10.005, 'ES9903')).toMatch(/dos decimales/);
    // CNMC R1 FechaIncidente is a date: a time is not asked.
    expect(errorCampo('fechaIncidente', '2026-11-30T10:00', 'ES9903')).toMatch(/indique una fecha/);
    expect(errorCampo('fechaIncidente', '2026-11-30', 'ES9903')).toBeNull();
    expect(errorCampo('codigoIncidencia', '99', 'ES9903')).toMatch(/Elija una opción/);
    expect(errorCampo('telefono', '', 'ES9903')).toBe('Indique: teléfono de contacto.');
  });
});

describe('plazos de las consultas', () => {
  it('one month ends on the same day of the next month, or its last day, moved to a business day', () => {
    expect(venceEnMeses('2026-01-30', 1)).toBe('2026-03-02'); // 28 Feb 2026 is a Saturday
    expect(venceEnMeses('2026-03-10', 1)).toBe('2026-04-10');
    expect(venceEnMeses('2026-11-30', 1)).toBe('2026-12-30');
    expect(venceEnMeses('2026-12-08', 1)).toBe('2027-01-08');
    expect(venceEnMeses('2026-01-30', 3)).toBe('2026-04-30');
  });

  it('calendar days end on a business day', () => {
    expect(venceEnNaturales('2026-12-10', 20)).toBe('2026-12-30');
    expect(venceEnNaturales('2026-12-05', 20)).toBe('2026-12-28'); // 25 is Christmas, 26–27 a weekend
  });

  it('escribe la etiqueta de un campo que falta en minúscula, sin tocar sus siglas ni sus unidades', () => {
    expect(errorCampo('cups', '', 'ES9901')).toBe('Indique: punto de suministro (CUPS).');
    expect(errorCampo('lectura', '', 'ES9901')).toBe('Indique: lectura P1 (kWh).');
    expect(etiquetaEnFrase('IBAN de la cuenta')).toBe('IBAN de la cuenta');
  });
});
