import { describe, expect, it } from 'vitest';
import { construirCups, MENSAJES_CUPS } from '../../src/lib/cups.ts';
import { incidenciaEntradaSchema, mensajeCupsAjeno } from '../../src/lib/incidencias/gestion.ts';

const base = {
  distribuidora: 'eod',
  estado: 'Activa',
  descripcion: 'Avería en línea de media tensión.',
  municipio: 'Mérida',
  codigoIne: '06083',
  provincia: 'Badajoz',
  inicio: '2026-11-02T10:00:00Z',
};

const mensajes = (v: unknown) => incidenciaEntradaSchema.safeParse(v).error?.issues.map((i) => [i.path.join('.'), i.message]);

describe('incidenciaEntradaSchema', () => {
  it('fills the optional fields and keeps CUPS as 20-character bases without repeats', () => {
    const cups = construirCups('9902', 7);
    const r = incidenciaEntradaSchema.parse({
      ...base,
      cups: [cups.toLowerCase(), `${cups}1F`, cups],
      codigosPostales: ['06800', '06800'],
    });
    expect(r).toEqual({ ...base, cups: [cups], codigosPostales: ['06800'], clientesAfectados: null, finPrevisto: null });
  });

  it('names each CUPS with bad check letters or of another distributor, by its position', () => {
    const buena = construirCups('9902', 1);
    const ajena = construirCups('9901', 1);
    const mala = `${buena.slice(0, 18)}${buena.slice(18) === 'AA' ? 'BB' : 'AA'}`;
    expect(mensajes({ ...base, cups: [buena, mala, ajena] })).toEqual([
      ['cups.1', `${mala}: ${MENSAJES_CUPS.control}`],
      ['cups.2', mensajeCupsAjeno(ajena, 'ES9902')],
    ]);
  });

  it('refuses an expected end before the start, and accepts an equal one', () => {
    expect(mensajes({ ...base, finPrevisto: '2026-11-02T09:59:59Z' })).toEqual([
      ['finPrevisto', 'El fin previsto no puede ser anterior al inicio.'],
    ]);
    expect(incidenciaEntradaSchema.safeParse({ ...base, finPrevisto: '2026-11-02T11:00:00+01:00' }).success).toBe(true);
  });

  it('checks codes against the province range 01–52 and Cerrada is not a state to create in', () => {
    expect(mensajes({ ...base, codigoIne: '00001', codigosPostales: ['5300'], estado: 'Cerrada' })!.map(([campo]) => campo)).toEqual([
      'estado',
      'codigoIne',
      'codigosPostales.0',
    ]);
  });
});
