import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resumenBannerIncidencias } from '../../src/lib/incidencias/banner.ts';

/** A list of incidents with these states, in this order. */
const con = (...estados: string[]) => estados.map((estadoIncidenciaRed) => ({ estadoIncidenciaRed }));
const repetir = (n: number, estado: string) => con(...Array.from({ length: n }, () => estado));

describe('interruptions banner (docs/producto.md §4, §9)', () => {
  it('is blue with the no-interruptions sentence when the list is empty', () => {
    expect(resumenBannerIncidencias([])).toEqual({
      texto: 'Actualmente no existen interrupciones programadas o activas',
      nivel: 'azul',
    });
  });

  it('is yellow and singular with one scheduled interruption', () => {
    expect(resumenBannerIncidencias(con('Programada'))).toEqual({ texto: 'Existe 1 interrupción programada', nivel: 'amarillo' });
  });

  it('is yellow and plural with several scheduled interruptions', () => {
    expect(resumenBannerIncidencias(repetir(4, 'Programada'))).toEqual({
      texto: 'Existen 4 interrupciones programadas',
      nivel: 'amarillo',
    });
  });

  it('is red and singular with one active interruption', () => {
    expect(resumenBannerIncidencias(con('Activa'))).toEqual({ texto: 'Existe 1 interrupción activa', nivel: 'rojo' });
  });

  it('counts En curso as active', () => {
    expect(resumenBannerIncidencias(con('En curso'))).toEqual({ texto: 'Existe 1 interrupción activa', nivel: 'rojo' });
  });

  it('is red and plural with several active interruptions, En curso and Activa together', () => {
    expect(resumenBannerIncidencias(con('En curso', 'Activa', 'Activa'))).toEqual({
      texto: 'Existen 3 interrupciones activas',
      nivel: 'rojo',
    });
  });

  it('is red with "Existen X programadas y Y activas" when both are plural', () => {
    expect(resumenBannerIncidencias(con('Programada', 'Activa', 'Programada', 'En curso', 'Programada'))).toEqual({
      texto: 'Existen 3 programadas y 2 activas',
      nivel: 'rojo',
    });
  });

  it('agrees the adjective with one active among several scheduled', () => {
    expect(resumenBannerIncidencias(con('Programada', 'Programada', 'Activa')).texto).toBe('Existen 2 programadas y 1 activa');
  });

  it('agrees the verb with the first number when one is scheduled among several active', () => {
    expect(resumenBannerIncidencias(con('Programada', 'Activa', 'En curso')).texto).toBe('Existe 1 programada y 2 activas');
  });

  it('is singular throughout with one of each', () => {
    expect(resumenBannerIncidencias(con('En curso', 'Programada'))).toEqual({ texto: 'Existe 1 programada y 1 activa', nivel: 'rojo' });
  });

  it('ignores states that are never published, such as Cerrada', () => {
    expect(resumenBannerIncidencias(con('Cerrada'))).toEqual(resumenBannerIncidencias([]));
    expect(resumenBannerIncidencias(con('Cerrada', 'Programada')).texto).toBe('Existe 1 interrupción programada');
  });

  it('never writes a number with a wrongly agreed word, and picks the colour from the counts, for any list', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('Programada', 'En curso', 'Activa', 'Cerrada'), { maxLength: 40 }), (estados) => {
        const { texto, nivel } = resumenBannerIncidencias(con(...estados));
        const programadas = estados.filter((e) => e === 'Programada').length;
        const activas = estados.filter((e) => e === 'En curso' || e === 'Activa').length;
        const esperado = activas > 0 ? 'rojo' : programadas > 0 ? 'amarillo' : 'azul';
        return (
          nivel === esperado &&
          !/\b1 (interrupciones|programadas|activas)\b/.test(texto) &&
          !/\b([02-9]|\d{2,}) (interrupción|programada|activa)\b/.test(texto) &&
          !texto.startsWith('Existen 1 ') &&
          !/^Existe (?!1 )/.test(texto) &&
          (programadas === 0 || texto.includes(`${programadas} programada`) || texto.includes(`${programadas} interrupci`)) &&
          (activas === 0 || texto.includes(`${activas} activa`) || texto.includes(`${activas} interrupci`))
        );
      }),
    );
  });
});
