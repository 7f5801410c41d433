import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  esDiaValido,
  finDiaMadridIso,
  formatearFechaHora,
  hoyMadrid,
  inicioDiaMadridIso,
  isoAMadridLocal,
  madridLocalAIso,
} from '../../src/lib/administracion/fechas.ts';

describe('Madrid wall-clock time ↔ UTC ISO (datetime-local inputs)', () => {
  it('reads a winter time as UTC+1', () => {
    expect(madridLocalAIso('2025-01-15T10:30')).toBe('2025-01-15T09:30:00.000Z');
  });

  it('reads a summer time as UTC+2', () => {
    expect(madridLocalAIso('2025-07-01T00:00')).toBe('2025-06-30T22:00:00.000Z');
  });

  it('moves a time of the spring gap forward by the hour skipped', () => {
    // 30 March 2025: 02:00 CET jumps to 03:00 CEST; 02:30 does not exist and reads as 03:30 CEST.
    expect(madridLocalAIso('2025-03-30T02:30')).toBe('2025-03-30T01:30:00.000Z');
    expect(isoAMadridLocal('2025-03-30T01:30:00.000Z')).toBe('2025-03-30T03:30');
  });

  it('takes the first (summer) occurrence of the repeated autumn hour', () => {
    // 26 October 2025: 03:00 CEST goes back to 02:00 CET, so 02:30 happens at 00:30Z and at 01:30Z.
    expect(madridLocalAIso('2025-10-26T02:30')).toBe('2025-10-26T00:30:00.000Z');
  });

  it('reads the hours around the autumn change with their own offsets', () => {
    expect(madridLocalAIso('2025-10-26T01:59')).toBe('2025-10-25T23:59:00.000Z');
    expect(madridLocalAIso('2025-10-26T03:00')).toBe('2025-10-26T02:00:00.000Z');
  });

  it('accepts seconds and ignores them', () => {
    expect(madridLocalAIso('2025-01-15T10:30:45')).toBe('2025-01-15T09:30:00.000Z');
  });

  it('rejects empty, malformed and impossible values', () => {
    for (const v of ['', 'mañana', '2025-02-30T10:00', '2025-13-01T10:00', '2025-01-01T24:00', '2025-01-01 10:00']) {
      expect(madridLocalAIso(v), v).toBeNull();
    }
  });

  it('shows an instant as the Madrid wall clock', () => {
    expect(isoAMadridLocal('2025-01-15T09:30:00.000Z')).toBe('2025-01-15T10:30');
    expect(isoAMadridLocal('2025-06-30T22:00:00Z')).toBe('2025-07-01T00:00');
    expect(isoAMadridLocal(null)).toBe('');
    expect(isoAMadridLocal('no es una fecha')).toBe('');
  });

  it('gives back the same instant for every minute-aligned instant (round trip)', () => {
    const minuto = 60_000;
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(2000, 0, 1) / minuto, max: Date.UTC(2060, 0, 1) / minuto }), (m) => {
        const iso = new Date(m * minuto).toISOString();
        const local = isoAMadridLocal(iso);
        const vuelta = madridLocalAIso(local)!;
        // The one exception: the second pass of the repeated autumn hour reads back as its first pass.
        const diferencia = Date.parse(iso) - Date.parse(vuelta);
        expect([0, 3_600_000]).toContain(diferencia);
        expect(isoAMadridLocal(vuelta)).toBe(local);
      }),
    );
  });
});

describe('Madrid calendar days', () => {
  it('starts a winter day at 23:00Z of the day before', () => {
    expect(inicioDiaMadridIso('2025-01-15')).toBe('2025-01-14T23:00:00.000Z');
    expect(finDiaMadridIso('2025-01-15')).toBe('2025-01-15T23:00:00.000Z');
  });

  it('ends the 23-hour spring day and the 25-hour autumn day at the next midnight', () => {
    expect(finDiaMadridIso('2025-03-30')!).toBe('2025-03-30T22:00:00.000Z');
    expect(Date.parse(finDiaMadridIso('2025-03-30')!) - Date.parse(inicioDiaMadridIso('2025-03-30')!)).toBe(23 * 3_600_000);
    expect(Date.parse(finDiaMadridIso('2025-10-26')!) - Date.parse(inicioDiaMadridIso('2025-10-26')!)).toBe(25 * 3_600_000);
  });

  it('crosses month and year ends', () => {
    expect(finDiaMadridIso('2024-12-31')).toBe('2024-12-31T23:00:00.000Z');
    expect(finDiaMadridIso('2024-02-29')).toBe('2024-02-29T23:00:00.000Z');
  });

  it('validates calendar dates', () => {
    expect(esDiaValido('2024-02-29')).toBe(true);
    expect(esDiaValido('2025-02-29')).toBe(false);
    expect(esDiaValido('15/01/2025')).toBe(false);
    expect(inicioDiaMadridIso('2025-02-29')).toBeNull();
  });

  it("tells today's Madrid date, which differs from UTC's just before midnight UTC in summer", () => {
    expect(hoyMadrid(Date.parse('2025-07-01T22:30:00Z'))).toBe('2025-07-02');
  });

  it('formats instants in Spanish and Madrid time', () => {
    expect(formatearFechaHora('2025-07-01T22:30:00Z')).toMatch(/^2 jul 2025, 0?0:30$/);
    expect(formatearFechaHora(null)).toBe('—');
  });
});
