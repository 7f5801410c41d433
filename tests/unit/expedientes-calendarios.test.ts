/**
 * Regional and local holidays in the deadlines (Ley 39/2015 arts. 30.6 and 31.2.b; docs/decisions/040):
 * the calendars are data with their source, a case counts with its distributor's region and the
 * installation's province and municipality, a filing on a non-business day counts from the next
 * business day, and the transmission network's upstream report has its 60 days (RD 1183/2020).
 */
import { describe, expect, it } from 'vitest';
import { diasPropuesta } from '../../src/lib/accesoyconexion/procedimiento.ts';
import { anioSinCalendario, CALENDARIO_NACIONAL, calendarioDe, FESTIVOS, REGIONES } from '../../src/lib/expedientes/calendarios.ts';
import { diaDePresentacion, esHabil, festivoEn, venceEnHabiles } from '../../src/lib/expedientes/plazos.ts';
import { diaSemana, esFechaLocal } from '../../src/lib/medidas/horas.ts';

const EOD = calendarioDe({ distribuidora: 'eod' });

describe('los casos de la revisión', () => {
  it('AC-2026-000006: 30 días hábiles desde el 28-08-2026 en Extremadura vencen el 2026-10-13, no el 2026-10-09', () => {
    // 8 September, Día de Extremadura, is not a business day there; 12 October is a national holiday.
    expect(venceEnHabiles('2026-08-28', 30, CALENDARIO_NACIONAL)).toBe('2026-10-09');
    expect(venceEnHabiles('2026-08-28', 30, EOD)).toBe('2026-10-13');
  });

  it('AC-2026-000001: presentada el sábado 28-11-2026, sus 20 días cuentan desde el lunes 30 y vencen el 2026-12-30', () => {
    expect(diaDePresentacion('2026-11-28')).toBe('2026-11-30');
    expect(venceEnHabiles(diaDePresentacion('2026-11-28'), 20)).toBe('2026-12-30');
    // With the Comunidad de Madrid's 7 December (Monday after the Constitution day), one more day.
    const epd = calendarioDe({ distribuidora: 'epd' });
    expect(venceEnHabiles(diaDePresentacion('2026-11-28', epd), 20, epd)).toBe('2026-12-31');
  });

  it('el informe aguas arriba de la red de transporte (frontera de 220 kV) suma 60 días: 2027-03-31, no 2027-03-02', () => {
    expect(diasPropuesta(220, 5_000)).toBe(60);
    expect(diasPropuesta(132, 5_000)).toBe(40);
    // From a propuesta previa due on 4 January 2027: 40 days would end on 2 March, 60 end on 31 March.
    expect(venceEnHabiles('2027-01-04', 40)).toBe('2027-03-02');
    expect(venceEnHabiles('2027-01-04', diasPropuesta(220, 5_000))).toBe('2027-03-31');
  });
});

describe('calendarios regionales y locales', () => {
  it('cada festivo tiene fecha válida, nombre y fuente oficial', () => {
    for (const f of FESTIVOS) {
      expect(esFechaLocal(f.fecha), f.fecha).toBe(true);
      expect(f.nombre.length).toBeGreaterThan(3);
      expect(f.fuente).toMatch(/BOE|BOCM|DOE|BOC/);
    }
  });

  it('2026 tiene el calendario de las tres comunidades; 2030 todavía no', () => {
    for (const r of REGIONES) expect(anioSinCalendario(2026, r)).toBe(false);
    expect(anioSinCalendario(2030, 'madrid')).toBe(true);
  });

  it.each([
    ['epd', '2026-04-02', 'Jueves Santo'],
    ['eod', '2026-09-08', 'Día de Extremadura'],
    ['ecd', '2026-07-28', 'Día de las Instituciones de Cantabria'],
    ['ecd', '2026-09-15', 'La Bien Aparecida'],
  ])('en la región de %s el %s no es hábil (%s)', (distribuidora, fecha, nombre) => {
    expect(esHabil(fecha, calendarioDe({ distribuidora }))).toBe(false);
    expect(festivoEn(fecha, calendarioDe({ distribuidora }))).toBe(nombre);
    expect(esHabil(fecha)).toBe(true);
  });

  it('un festivo de otra región no cuenta: el Día de Extremadura es hábil para EPD con instalación en Madrid', () => {
    expect(esHabil('2026-09-08', calendarioDe({ distribuidora: 'epd', provincia: 'Madrid' }))).toBe(true);
  });

  it('cuenta también la región de la instalación, además de la de la distribuidora (art. 30.6)', () => {
    const cal = calendarioDe({ distribuidora: 'ecd', provincia: 'Badajoz', municipio: 'Mérida' });
    expect(esHabil('2026-09-08', cal)).toBe(false);
    expect(esHabil('2026-09-15', cal)).toBe(false);
  });

  it('las fiestas locales cuentan en su municipio y no en otro', () => {
    expect(esHabil('2026-06-24', calendarioDe({ distribuidora: 'eod', provincia: 'Badajoz', municipio: 'BADAJOZ' }))).toBe(false);
    expect(esHabil('2026-06-24', calendarioDe({ distribuidora: 'eod', provincia: 'Badajoz', municipio: 'Mérida' }))).toBe(true);
    expect(esHabil('2026-05-25', calendarioDe({ distribuidora: 'ecd', municipio: 'Santander' }))).toBe(false);
  });

  it('una presentación en festivo regional cuenta el siguiente día hábil', () => {
    // Monday 7 December is a holiday in Extremadura, Tuesday 8 a national one.
    expect(diaSemana('2026-12-07')).toBe(1);
    expect(diaDePresentacion('2026-12-07', EOD)).toBe('2026-12-09');
    expect(diaDePresentacion('2026-12-09', EOD)).toBe('2026-12-09');
  });
});
