/** The month calendar of the scheduled readings screen: weeks from Monday, marked days, months allowed. */
import { describe, expect, it } from 'vitest';
import { mesAcotado, mesCalendario, mesInicial, proximaLectura, sumarMes } from '../../src/lib/lecturas/mes.ts';
import { lecturaDelCiclo } from '../../src/lib/lecturas/programa.ts';

describe('mesCalendario', () => {
  const visita = lecturaDelCiclo('2026-11-07', false);
  const m = mesCalendario('2026-11', '2026-11-15', [
    { cups: 'ES1', direccion: 'Calle Mayor, 1', lecturas: [visita, lecturaDelCiclo('2026-12-07', false)] },
  ]);

  it('starts November 2026 on its Sunday, after six empty cells, and fills whole weeks', () => {
    expect(m.semanas[0]!.slice(0, 6)).toEqual([null, null, null, null, null, null]);
    expect(m.semanas[0]![6]!.fecha).toBe('2026-11-01');
    expect(m.semanas.every((s) => s.length === 7)).toBe(true);
    expect(m.semanas.flat().filter(Boolean)).toHaveLength(30);
  });

  it('marks the reading on the day of the visit, today, and the days of its self-reading window', () => {
    const dias = m.semanas.flat().filter((d) => d !== null);
    expect(dias.find((d) => d.fecha === '2026-11-09')!.lecturas.map((l) => l.cups)).toEqual(['ES1']);
    expect(dias.find((d) => d.fecha === '2026-11-07')!.lecturas).toEqual([]);
    expect(dias.find((d) => d.fecha === '2026-11-15')!.esHoy).toBe(true);
    expect(dias.filter((d) => d.autolecturas.length > 0).map((d) => d.fecha)).toEqual([
      '2026-11-04',
      '2026-11-05',
      '2026-11-06',
      '2026-11-07',
      '2026-11-08',
      '2026-11-10',
      '2026-11-11',
    ]);
    expect(m.total).toBe(1);
  });
});

describe('months', () => {
  it('move across years', () => {
    expect(sumarMes('2026-12', 1)).toBe('2027-01');
    expect(sumarMes('2027-01', -1)).toBe('2026-12');
  });

  it('stay within the schedule, whatever the address asks for', () => {
    expect(mesAcotado('2030-01', '2026-11', '2027-11')).toBe('2027-11');
    expect(mesAcotado('2020-01', '2026-11', '2027-11')).toBe('2026-11');
    expect(mesAcotado('basura', '2026-11', '2027-11')).toBe('2026-11');
    expect(mesAcotado('2027-03', '2026-11', '2027-11')).toBe('2027-03');
  });
});

describe('the month the calendar opens on', () => {
  const hogar = {
    cups: 'ES1',
    direccion: 'Calle Mayor, 1',
    lecturas: [lecturaDelCiclo('2027-01-07', false), lecturaDelCiclo('2027-03-07', false)],
  };
  const taller = { cups: 'ES2', direccion: 'Polígono Sur, 4', lecturas: [lecturaDelCiclo('2026-12-21', true)] };

  it('is the month of the next reading of any supply point, not an empty month', () => {
    expect(proximaLectura([hogar, taller])).toEqual({ fecha: taller.lecturas[0]!.fecha, direccion: 'Polígono Sur, 4' });
    expect(mesInicial(null, '2026-11', '2027-11', [hogar])).toBe('2027-01');
    expect(mesInicial(null, '2026-11', '2027-11', [hogar, taller])).toBe('2026-12');
  });

  it('is the address’s month when it names one, and today’s when nothing is scheduled', () => {
    expect(mesInicial('2027-03', '2026-11', '2027-11', [hogar])).toBe('2027-03');
    expect(mesInicial(null, '2026-11', '2027-11', [{ ...hogar, lecturas: [] }])).toBe('2026-11');
    expect(proximaLectura([])).toBeNull();
  });
});
