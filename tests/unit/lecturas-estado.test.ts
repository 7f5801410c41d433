/**
 * Meter state: the rules of a change (a reason is required where the holder must be told
 * why) and what the holder is told to do in each state, most urgent first.
 */
import { describe, expect, it } from 'vitest';
import { construirCups, MENSAJES_CUPS } from '../../src/lib/cups.ts';
import {
  cambioEstadoSchema,
  consejosEstado,
  errorCupsAdministrado,
  formularioDeEstado,
  MENSAJES_CONTADORES,
  MENSAJES_ESTADO,
  requiereMotivo,
  ultimaComunicacionDe,
  validarFormularioEstado,
  type EstadoContador,
} from '../../src/lib/lecturas/estado-contador.ts';

const estado = (extra: Partial<EstadoContador> = {}): EstadoContador => ({
  comunica: true,
  ultimaComunicacion: '2026-11-15T09:00:00.000Z',
  interruptor: 'cerrado',
  estadoSuministro: 'con_suministro',
  motivo: null,
  actualizadoEn: '2026-11-15T09:00:00.000Z',
  ...extra,
});
const contexto = { telegestionado: true, comercializadora: 'Energía Clara Demo', formatearFechaHora: (iso: string) => iso.slice(0, 10) };
const titulos = (e: EstadoContador | null, telegestionado = true) =>
  consejosEstado(e, { ...contexto, telegestionado }).map((c) => c.titulo);

describe('cambioEstadoSchema', () => {
  it('accepts a meter that works without a reason', () => {
    expect(cambioEstadoSchema.safeParse({ comunica: true, interruptor: 'cerrado', estadoSuministro: 'con_suministro' }).success).toBe(true);
  });

  it.each([
    ['a cut', { interruptor: 'abierto_remoto', estadoSuministro: 'cortado' }],
    ['a supply without power', { interruptor: 'cerrado', estadoSuministro: 'sin_suministro' }],
    ['a switch opened by the distributor', { interruptor: 'abierto_remoto', estadoSuministro: 'con_suministro' }],
  ] as const)('requires a reason for %s, blanks counting as none', (_caso, e) => {
    const r = cambioEstadoSchema.safeParse({ comunica: true, ...e, motivo: '   ' });
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => i.message)).toEqual([MENSAJES_ESTADO.motivoObligatorio]);
    expect(requiereMotivo(e)).toBe(true);
  });

  it('refuses unknown codes and a time without zone, in Spanish', () => {
    const r = cambioEstadoSchema.safeParse({
      comunica: 'si',
      interruptor: 'roto',
      estadoSuministro: 'x',
      ultimaComunicacion: '2026-11-15 10:00',
    });
    expect(r.error!.issues.map((i) => i.message).sort()).toEqual(
      [MENSAJES_ESTADO.comunica, MENSAJES_ESTADO.interruptor, MENSAJES_ESTADO.suministro, MENSAJES_ESTADO.ultimaComunicacion].sort(),
    );
  });

  it('takes now as the last communication of a meter that communicates, and none of one that does not', () => {
    const ahora = new Date('2026-11-15T10:00:00Z');
    expect(ultimaComunicacionDe({ comunica: true }, ahora)).toEqual(ahora);
    expect(ultimaComunicacionDe({ comunica: false }, ahora)).toBeNull();
    expect(ultimaComunicacionDe({ comunica: false, ultimaComunicacion: '2026-11-01T08:00:00+01:00' }, ahora)!.toISOString()).toBe(
      '2026-11-01T07:00:00.000Z',
    );
  });
});

describe('consejosEstado', () => {
  it('says there is nothing to do when all is well', () => {
    const [c, ...resto] = consejosEstado(estado(), contexto);
    expect(resto).toEqual([]);
    expect(c).toMatchObject({ nivel: 'correcto', titulo: 'Todo en orden', llamarAverias: false });
  });

  it('says the state is not known yet, with the fault line', () => {
    expect(consejosEstado(null, contexto)).toEqual([
      expect.objectContaining({ titulo: 'Todavía no conocemos el estado de este contador', llamarAverias: true }),
    ]);
  });

  it('sends a cut supply to its retailer, by name, and not to the fault line', () => {
    const [c] = consejosEstado(estado({ interruptor: 'abierto_remoto', estadoSuministro: 'cortado', motivo: 'Impago' }), contexto);
    expect(c).toMatchObject({ nivel: 'error', titulo: 'El suministro está cortado', llamarAverias: false });
    expect(c!.pasos.join(' ')).toContain('Energía Clara Demo');
    expect(titulos(estado({ interruptor: 'abierto_remoto', estadoSuministro: 'cortado' }))).toHaveLength(1);
  });

  it('points a supply without power to the interruptions and the fault line', () => {
    const [c] = consejosEstado(estado({ estadoSuministro: 'sin_suministro' }), contexto);
    expect(c).toMatchObject({ nivel: 'error', llamarAverias: true, verInterrupciones: true });
  });

  it('tells how to re-arm a switch tripped by excess of power', () => {
    const [c] = consejosEstado(estado({ interruptor: 'abierto_exceso' }), contexto);
    expect(c!.titulo).toBe('Ha saltado el interruptor de control de potencia');
    expect(c!.pasos.join(' ')).toMatch(/Desconecte .* rearme/);
  });

  it('reassures about a meter that does not communicate: readings may be estimated meanwhile', () => {
    const [c] = consejosEstado(estado({ comunica: false, ultimaComunicacion: '2026-11-06T07:00:00.000Z' }), contexto);
    expect(c).toMatchObject({ nivel: 'info', titulo: 'Su contador no comunica con nosotros desde el 2026-11-06', llamarAverias: false });
    expect(c!.pasos.join(' ')).toContain('estimados');
  });

  it('explains the visits of a meter out of telemanagement instead of an alarm about communication', () => {
    expect(titulos(estado({ comunica: false, ultimaComunicacion: null }), false)).toEqual([
      'Su contador no está integrado en la telegestión',
    ]);
  });

  it('puts the most urgent first when several apply', () => {
    expect(titulos(estado({ estadoSuministro: 'sin_suministro', interruptor: 'abierto_exceso', comunica: false }))).toEqual([
      'Su suministro está sin luz por una incidencia en nuestra red',
      'Ha saltado el interruptor de control de potencia',
      'Su contador no comunica con nosotros desde el 2026-11-15',
    ]);
  });
});

describe('the administration form', () => {
  it('looks up only a well-written CUPS of a distributor the administrator manages', () => {
    expect(errorCupsAdministrado(construirCups('9901', 5), ['epd-administrador'])).toBeNull();
    expect(errorCupsAdministrado(construirCups('9902', 5), ['epd-administrador'])).toBe(
      MENSAJES_CONTADORES.ajena({ nombre: 'Electra Occidental Distribución, S.L.' }),
    );
    expect(errorCupsAdministrado(construirCups('0021', 5), ['epd-administrador'])).toBe(MENSAJES_CONTADORES.otraEmpresa);
    expect(errorCupsAdministrado('ES9901000000000001XX', ['epd-administrador'])).toBe(MENSAJES_CUPS.control);
  });

  it('starts from the stored state, or from a meter that works', () => {
    expect(formularioDeEstado(null)).toEqual({
      comunica: 'si',
      ultimaComunicacion: '',
      interruptor: 'cerrado',
      estadoSuministro: 'con_suministro',
      motivo: '',
    });
    expect(formularioDeEstado(estado({ comunica: false, ultimaComunicacion: '2026-07-01T08:30:00.000Z', motivo: 'x' }))).toMatchObject({
      comunica: 'no',
      ultimaComunicacion: '2026-07-01T10:30',
      motivo: 'x',
    });
  });

  it('sends a peninsular time as UTC and the rest as the API takes it', () => {
    const v = validarFormularioEstado(
      {
        comunica: 'no',
        ultimaComunicacion: '2026-01-10T09:00',
        interruptor: 'abierto_exceso',
        estadoSuministro: 'con_suministro',
        motivo: ' ',
      },
      new Date('2026-11-15T10:00:00Z'),
    );
    expect(v).toEqual({
      ok: true,
      cuerpo: {
        comunica: false,
        ultimaComunicacion: '2026-01-10T08:00:00.000Z',
        interruptor: 'abierto_exceso',
        estadoSuministro: 'con_suministro',
        motivo: null,
      },
    });
  });

  it('puts every message beside its field: a future time and a missing reason', () => {
    const v = validarFormularioEstado(
      { comunica: 'si', ultimaComunicacion: '2027-01-10T09:00', interruptor: 'cerrado', estadoSuministro: 'cortado', motivo: '' },
      new Date('2026-11-15T10:00:00Z'),
    );
    expect(v).toEqual({
      ok: false,
      errores: { ultimaComunicacion: MENSAJES_ESTADO.ultimaComunicacionFutura, motivo: MENSAJES_ESTADO.motivoObligatorio },
    });
  });
});
