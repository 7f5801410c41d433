/**
 * Business-day deadlines (Ley 39/2015 art. 30; docs/decisions/017): weekends and national holidays
 * are skipped, counting starts the day after the notification, Good Friday moves with Easter.
 */
import { describe, expect, it } from 'vitest';
import { domingoDePascua, esHabil, estadoPlazo, habilesEntre, venceEnHabiles } from '../../src/lib/expedientes/plazos.ts';

describe('calendario de días hábiles', () => {
  it.each([
    [2025, '2025-04-20'],
    [2026, '2026-04-05'],
    [2027, '2027-03-28'],
    [2038, '2038-04-25'],
  ])('el domingo de Pascua de %i es %s', (anio, fecha) => {
    expect(domingoDePascua(anio)).toBe(fecha);
  });

  it.each([
    ['2026-11-23', true, 'un lunes'],
    ['2026-11-28', false, 'un sábado'],
    ['2026-11-29', false, 'un domingo'],
    ['2026-12-08', false, 'la Inmaculada'],
    ['2026-04-03', false, 'el Viernes Santo de 2026'],
    ['2026-04-02', true, 'el Jueves Santo, que no es fiesta en todas las comunidades'],
    ['2027-01-06', false, 'Reyes'],
  ])('%s es hábil: %s (%s)', (fecha, habil) => {
    expect(esHabil(fecha)).toBe(habil);
  });
});

describe('vencimiento de un plazo', () => {
  it('20 días hábiles desde un miércoles terminan cuatro semanas después', () => {
    expect(venceEnHabiles('2026-11-04', 20)).toBe('2026-12-02');
  });

  it('salta los festivos del 6 y 8 de diciembre y la Navidad', () => {
    // From Fri 27 Nov 2026: Dec 7 is a business day (Monday), Dec 8 is not, Dec 25 is not.
    expect(venceEnHabiles('2026-11-27', 20)).toBe('2026-12-29');
  });

  it('un plazo notificado en viernes empieza a contar el lunes', () => {
    expect(venceEnHabiles('2026-11-20', 1)).toBe('2026-11-23');
  });

  it('cero días vence el mismo día', () => {
    expect(venceEnHabiles('2026-11-20', 0)).toBe('2026-11-20');
  });

  it('cuenta los días hábiles que quedan y marca el plazo vencido', () => {
    expect(habilesEntre('2026-11-20', '2026-11-27')).toBe(5);
    expect(estadoPlazo('2026-11-27', '2026-11-20')).toEqual({ vencido: false, habilesRestantes: 5 });
    expect(estadoPlazo('2026-11-27', '2026-11-30')).toEqual({ vencido: true, habilesRestantes: 0 });
  });
});
