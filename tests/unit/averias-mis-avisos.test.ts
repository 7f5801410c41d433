/** The account's fault reports in words: the instant in Madrid time (CET in winter, CEST in summer) and what happens next. */
import { describe, expect, it } from 'vitest';
import { fechaHoraAviso, siguientePasoAviso } from '../../src/lib/averias/mis-avisos.ts';

describe('fechaHoraAviso', () => {
  it('shows a winter instant one hour ahead of UTC', () => {
    expect(fechaHoraAviso('2026-11-29T02:24:00.000Z')).toBe('29 de noviembre de 2026, 03:24');
  });

  it('shows a summer instant two hours ahead of UTC, on the next day when it crosses midnight', () => {
    expect(fechaHoraAviso('2026-07-14T22:05:00.000Z')).toBe('15 de julio de 2026, 00:05');
  });

  it('writes midnight as 00, not 24', () => {
    expect(fechaHoraAviso('2026-01-31T23:00:00.000Z')).toBe('1 de febrero de 2026, 00:00');
  });
});

describe('siguientePasoAviso', () => {
  it('says a pending report is being reviewed and where a confirmed fault will show', () => {
    expect(siguientePasoAviso({ estado: 'pendiente', resuelto: null })).toMatch(/revisando.*interrupción/);
  });

  it('dates when a report was confirmed as a network fault', () => {
    expect(siguientePasoAviso({ estado: 'incidencia', resuelto: '2026-11-29T08:00:00.000Z' })).toContain(
      'confirmó el 29 de noviembre de 2026, 09:00 una avería',
    );
  });

  it('points a dismissed report to the home installation', () => {
    expect(siguientePasoAviso({ estado: 'descartada', resuelto: '2026-11-29T08:00:00.000Z' })).toContain('instalación interior');
  });
});
