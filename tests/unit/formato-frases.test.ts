import { describe, expect, it } from 'vitest';
import { conPunto } from '../../src/lib/formato/frases.ts';
import { nombreDistribuidora } from '../../src/lib/incidencias/lista-gestion.ts';

describe('conPunto', () => {
  it('cierra la frase con un solo punto aunque acabe en «S.L.»', () => {
    expect(conPunto(`No hay solicitudes de ${nombreDistribuidora('epd')}`)).toBe(
      'No hay solicitudes de Electra Peninsular Distribución, S.L.',
    );
    expect(conPunto('No hay solicitudes')).toBe('No hay solicitudes.');
  });
});
