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
  esIbanValido,
  ROLES_RECLAMANTE,
  SUBTIPOS_RECLAMACION,
  subtiposDe,
} from '../../src/lib/contacto/tablas-r1.ts';
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
    expect(errorCampo('fechaIncidente', '2026-11-30', 'ES9903')).toMatch(/fecha y hora/);
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
});
