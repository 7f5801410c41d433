/** "No tengo luz": the decision order, the reference and the staff grouping (src/lib/averias). */
import { describe, expect, it } from 'vitest';
import { agruparAvisos, type AvisoCola } from '../../src/lib/averias/cola.ts';
import { diagnosticar, enVigor, type IncidenciaCandidata } from '../../src/lib/averias/diagnostico.ts';
import { anioMadrid, leerReferenciaAveria, referenciaAveria } from '../../src/lib/averias/referencia.ts';

const ahora = new Date('2026-11-02T09:00:00Z');
const inc = (cambios: Partial<IncidenciaCandidata>): IncidenciaCandidata => ({
  id: 'i1',
  estadoIncidenciaRed: 'Activa',
  descripcion: 'x',
  municipio: 'Getafe',
  inicio: '2026-11-02T08:00:00Z',
  finPrevisto: null,
  afecta: 'zona',
  ...cambios,
});
const normal = { interruptor: 'cerrado', estadoSuministro: 'con_suministro' } as const;

describe('diagnosticar', () => {
  it('puts a cut first, then an incident in effect, then the switch, then a known fault, else a report', () => {
    expect(diagnosticar([inc({})], { interruptor: 'abierto_remoto', estadoSuministro: 'cortado' }, ahora)).toEqual({
      tipo: 'contador',
      situacion: 'cortado',
    });
    expect(diagnosticar([inc({ id: 'a' })], { interruptor: 'abierto_exceso', estadoSuministro: 'con_suministro' }, ahora)).toMatchObject({
      tipo: 'incidencia',
      incidencia: { id: 'a' },
    });
    expect(diagnosticar([], { interruptor: 'abierto_exceso', estadoSuministro: 'con_suministro' }, ahora)).toEqual({
      tipo: 'contador',
      situacion: 'icp',
    });
    expect(diagnosticar([], { interruptor: 'abierto_remoto', estadoSuministro: 'con_suministro' }, ahora)).toEqual({
      tipo: 'contador',
      situacion: 'abierto_remoto',
    });
    expect(diagnosticar([], { interruptor: 'cerrado', estadoSuministro: 'sin_suministro' }, ahora)).toEqual({
      tipo: 'contador',
      situacion: 'sin_suministro',
    });
    expect(diagnosticar([], normal, ahora)).toEqual({ tipo: 'aviso' });
    expect(diagnosticar([], null, ahora)).toEqual({ tipo: 'aviso' });
  });

  it('takes scheduled works as the cause only once started', () => {
    const futura = inc({ estadoIncidenciaRed: 'Programada', inicio: '2026-11-02T09:00:01Z' });
    expect(enVigor(futura, ahora)).toBe(false);
    expect(diagnosticar([futura], normal, ahora)).toEqual({ tipo: 'aviso' });
    expect(enVigor({ ...futura, inicio: '2026-11-02T09:00:00Z' }, ahora)).toBe(true);
    expect(enVigor(inc({ estadoIncidenciaRed: 'En curso', inicio: '2026-11-03T00:00:00Z' }), ahora)).toBe(true);
  });
});

describe('referencia', () => {
  it('is AV-year-six digits, and reads back', () => {
    expect(referenciaAveria(2026, 123)).toBe('AV-2026-000123');
    expect(leerReferenciaAveria(' av-2026-000123 ')).toEqual({ anio: 2026, numero: 123 });
    expect(leerReferenciaAveria('AV-26-1')).toBeNull();
  });
  it('uses the Madrid civil year', () => {
    expect(anioMadrid(new Date('2026-12-31T23:30:00Z'))).toBe(2027);
    expect(anioMadrid(new Date('2026-12-31T22:30:00Z'))).toBe(2026);
  });
});

describe('agruparAvisos', () => {
  const aviso = (id: string, codigoPostal: string, creado: string, distribuidora = 'epd'): AvisoCola => ({
    id,
    referencia: id,
    distribuidora,
    codigoPostal,
    municipio: 'M',
    codigoIne: '28005',
    provincia: 'Madrid',
    cups: id,
    creado,
  });
  it('groups by distributor and area with counts, newest group and newest report first', () => {
    const g = agruparAvisos([
      aviso('a', '28801', '2026-11-02T08:00:00Z'),
      aviso('b', '28802', '2026-11-02T08:30:00Z'),
      aviso('c', '28801', '2026-11-02T09:00:00Z'),
      aviso('d', '28801', '2026-11-02T09:10:00Z', 'eod'),
    ]);
    expect(g.map((x) => [x.clave, x.total, x.avisos.map((a) => a.id)])).toEqual([
      ['eod|28801|28005', 1, ['d']],
      ['epd|28801|28005', 2, ['c', 'a']],
      ['epd|28802|28005', 1, ['b']],
    ]);
  });
});
