/** The words of "Interrupciones en mis suministros" (src/lib/medidas/pantalla/interrupciones.ts). */
import { describe, expect, it } from 'vitest';
import {
  notaIncidencia,
  resumenInterrupciones,
  telefonoAverias,
  type IncidenciaDeSuministro,
  type SuministroConIncidencias,
} from '../../src/lib/medidas/pantalla/interrupciones.ts';

const incidencia = (cambios: Partial<IncidenciaDeSuministro> = {}): IncidenciaDeSuministro => ({
  id: crypto.randomUUID(),
  estadoIncidenciaRed: 'Programada',
  distribuidora: 'epd',
  distribuidoraNombre: 'Electra Peninsular Distribución, S.L.',
  descripcion: 'Trabajos',
  municipio: 'Alcalá de Henares',
  provincia: 'Madrid',
  codigoIne: '28005',
  codigosPostales: ['28801'],
  inicio: '2026-11-25T07:00:00Z',
  finPrevisto: null,
  clientesAfectados: 10,
  afecta: 'zona',
  ...cambios,
});

const suministro = (incidencias: IncidenciaDeSuministro[]): SuministroConIncidencias => ({
  cups: 'ES9901000000000001QY',
  direccion: 'Calle Mayor, 1',
  municipio: 'Alcalá de Henares',
  codigoPostal: '28801',
  distribuidora: 'epd',
  incidencias,
});

describe('resumenInterrupciones', () => {
  it('says there is nothing, for one supply point or several', () => {
    expect(resumenInterrupciones([suministro([])])).toBe('Ahora no hay interrupciones programadas ni activas que afecten a su suministro.');
    expect(resumenInterrupciones([suministro([]), suministro([])])).toBe(
      'Ahora no hay interrupciones programadas ni activas que afecten a sus suministros.',
    );
  });

  it('counts the incidents under way apart from the scheduled ones', () => {
    expect(resumenInterrupciones([suministro([incidencia()])])).toBe(
      'Hay 1 interrupción que afecta o puede afectar a su suministro: 1 programada.',
    );
    expect(
      resumenInterrupciones([
        suministro([incidencia({ estadoIncidenciaRed: 'Activa' }), incidencia({ estadoIncidenciaRed: 'En curso' })]),
        suministro([incidencia()]),
      ]),
    ).toBe('Hay 3 interrupciones que afectan o pueden afectar a sus suministros: 2 en curso o activas y 1 programada.');
  });
});

describe('notaIncidencia', () => {
  it('says the supply point is among those affected when the incident lists it', () => {
    expect(notaIncidencia(incidencia({ afecta: 'suministro', estadoIncidenciaRed: 'Activa' }), suministro([])).por).toBe(
      'Su suministro está entre los afectados.',
    );
    expect(notaIncidencia(incidencia({ afecta: 'suministro' }), suministro([])).que).toMatch(/^Desconecte antes del inicio/);
  });

  it('names the postal code, or the municipality when the incident gives no postal code', () => {
    expect(notaIncidencia(incidencia(), suministro([])).por).toBe(
      'Está programada en su código postal (28801) y puede afectar a su suministro.',
    );
    expect(notaIncidencia(incidencia({ codigosPostales: [], estadoIncidenciaRed: 'En curso' }), suministro([])).por).toBe(
      'Ocurre en su municipio (Alcalá de Henares) y puede afectar a su suministro.',
    );
  });
});

describe('telefonoAverias', () => {
  it("gives each distributor's 24-hour line, and nothing for an unknown code", () => {
    expect(telefonoAverias('epd')).toEqual({ texto: '900 000 001', e164: '+34900000001' });
    expect(telefonoAverias('eod')?.texto).toBe('900 000 002');
    expect(telefonoAverias('xyz')).toBeNull();
  });
});
