/**
 * The rules of contractual modifications: normalised powers, the P1..P6 sequence, one power
 * change in 12 months, the installation's maximum, the tariff changes, the holder's NIF, each with
 * its tabla 27 code and message; and the status transitions.
 */
import { describe, expect, it } from 'vitest';
import {
  conflictoTransicion,
  puede,
  accionesAdministrador,
  ESTADOS_SOLICITUD,
  type AccionSolicitud,
} from '../../src/lib/modificaciones/estados.ts';
import { errorFechaActivacion, solicitudEntradaSchema } from '../../src/lib/modificaciones/esquemas.ts';
import { motivosAplicables, textoMotivo } from '../../src/lib/modificaciones/motivos.ts';
import {
  exigeNormalizadas,
  leerKw,
  normalizadasCercanas,
  potenciasNormalizadas,
  POTENCIAS_MONOFASICAS_W,
  POTENCIAS_TRIFASICAS_W,
  wDesdeKw,
} from '../../src/lib/modificaciones/potencias.ts';
import { filasCambio, leerReferencia, referencia, resumenCambio } from '../../src/lib/modificaciones/presentacion.ts';
import { comprobarSolicitud, fechaPosibleCambio, type ContextoReglas, type EntradaReglas } from '../../src/lib/modificaciones/reglas.ts';
import { contratoApi, type ContratoSolicitud } from '../../src/lib/modificaciones/tipos.ts';

/** A 2.0TD single-phase home with a smart meter acting as ICP, 4,6 kW, installation up to 9,2 kW. */
const hogar: ContratoSolicitud = {
  tarifa: '2.0TD',
  potenciasW: [4600, 4600],
  potenciaMaximaW: 9200,
  tensionV: 230,
  fases: 'monofasico',
  modoControlPotencia: 'telegestion',
  titularNif: '12345678Z',
  titularNombre: 'Lucía Martín Ortega',
};

/** Three-phase at 400 V with a maximeter, as a business is supplied. */
const TRIFASICO_CON_MAXIMETRO = { tensionV: 400, fases: 'trifasico', modoControlPotencia: 'maximetro' } as const;

/** A 3.0TD workshop, installation up to 55 kW. */
const taller: ContratoSolicitud = {
  ...hogar,
  ...TRIFASICO_CON_MAXIMETRO,
  titularNif: 'B00001016',
  titularNombre: 'Talleres Ribera Demo, S.L.',
  tarifa: '3.0TD',
  potenciasW: [20000, 20000, 25000, 25000, 25000, 40000],
  potenciaMaximaW: 55000,
};

/** A 6.1TD factory at 20 kV. */
const fabrica: ContratoSolicitud = {
  ...taller,
  tarifa: '6.1TD',
  potenciasW: [88000, 88000, 88000, 88000, 88000, 100000],
  potenciaMaximaW: 250000,
  tensionV: 20000,
};

const ctx = (contrato: ContratoSolicitud, extra: Partial<ContextoReglas> = {}): ContextoReglas => ({
  contrato,
  enBaja: false,
  cortado: false,
  solicitudEnCurso: null,
  ultimoCambioPotencia: null,
  titularDesde: null,
  hoy: '2026-11-02',
  ...extra,
});

const potencia = (...kw: number[]): EntradaReglas => ({ tipo: 'potencia', potenciasW: kw.map((k) => wDesdeKw(k)) });
const codigos = (c: ContextoReglas, e: EntradaReglas) => comprobarSolicitud(c, e).map((x) => x.codigo);
const mensajes = (c: ContextoReglas, e: EntradaReglas) => comprobarSolicitud(c, e).map((x) => x.mensaje);

describe('normalised powers', () => {
  it('are 230 V × the standard ICP ratings single-phase and √3 × 400 V × them three-phase', () => {
    expect(POTENCIAS_MONOFASICAS_W).toEqual([345, 690, 805, 1150, 1725, 2300, 3450, 4600, 5750, 6900, 8050, 9200, 10350, 11500, 14490]);
    expect(POTENCIAS_TRIFASICAS_W).toEqual([
      1039, 2078, 2425, 3464, 5196, 6928, 10392, 13856, 17321, 20785, 24249, 27713, 31177, 34641, 43648,
    ]);
  });

  it('apply in low voltage unless a maximeter controls the power', () => {
    expect(exigeNormalizadas({ tensionV: 230, modoControlPotencia: 'icp' })).toBe(true);
    expect(exigeNormalizadas({ tensionV: 230, modoControlPotencia: 'telegestion' })).toBe(true);
    expect(exigeNormalizadas({ tensionV: 400, modoControlPotencia: 'maximetro' })).toBe(false);
    expect(exigeNormalizadas({ tensionV: 20000, modoControlPotencia: 'icp' })).toBe(false);
  });

  it('name the nearest values around one that is not normalised', () => {
    expect(normalizadasCercanas(5000, 'monofasico', 230)).toEqual({ abajo: 4600, arriba: 5750 });
    expect(normalizadasCercanas(50000, 'trifasico', 400)).toEqual({ abajo: 43648, arriba: null });
  });

  it('follow the supply voltage of older networks: 5,5 and 4,4 kW at 1 × 220 V, 13,164 kW at 3 × 380 V', () => {
    expect(potenciasNormalizadas('monofasico', 220)).toEqual(expect.arrayContaining([4400, 5500]));
    expect(potenciasNormalizadas('monofasico', 220)).not.toContain(4600);
    expect(potenciasNormalizadas('trifasico', 380)).toContain(13164);
    expect(potenciasNormalizadas('trifasico', 220)).toContain(Math.round(Math.sqrt(3) * 220 * 25));
    expect(potenciasNormalizadas('monofasico', 127)).toContain(Math.round(127 * 25));
    // A voltage no network uses is read as today's.
    expect(potenciasNormalizadas('monofasico', 231)).toEqual(POTENCIAS_MONOFASICAS_W);
    const antiguo = { ...hogar, tensionV: 220 };
    expect(codigos(ctx(antiguo), potencia(5.5, 5.5))).toEqual([]);
    expect(codigos(ctx(antiguo), potencia(4.4, 4.4))).toEqual([]);
    expect(mensajes(ctx(antiguo), potencia(5, 5))[0]).toMatch(
      /^48 · .*5 kW en P1 no es una potencia normalizada a 220 V \(monofásica\); las más próximas son 4,4 kW y 5,5 kW\.$/,
    );
    const trifasico = { ...hogar, fases: 'trifasico', tensionV: 400, potenciaMaximaW: 20000, potenciasW: [6928, 6928] };
    const trifasico380 = { ...trifasico, tensionV: 380 };
    expect(codigos(ctx(trifasico380), potencia(13.164, 13.164))).toEqual([]);
    expect(codigos(ctx(trifasico), potencia(13.164, 13.164))).toEqual(['47', '47']);
  });

  it('accepts a non-normalised value with reason 48 single-phase, naming the nearest ones', () => {
    expect(comprobarSolicitud(ctx(hogar), potencia(5, 5))[0]).toEqual({
      codigo: '48',
      campo: 'p1',
      mensaje:
        '48 · Potencias no normalizadas en suministro monofásico: 5 kW en P1 no es una potencia normalizada a 230 V (monofásica); las más próximas son 4,6 kW y 5,75 kW.',
    });
    expect(codigos(ctx(hogar), potencia(5.75, 5.75))).toEqual([]);
  });

  it('refuses a non-normalised value with reason 47 three-phase', () => {
    const trifasico = { ...hogar, fases: 'trifasico', tensionV: 400, potenciaMaximaW: 13856, potenciasW: [6928, 6928] };
    expect(codigos(ctx(trifasico), potencia(7, 7))).toEqual(['47', '47']);
    expect(mensajes(ctx(trifasico), potencia(7, 10.392))[0]).toMatch(
      /^47 · Potencias no normalizadas en suministro trifásico: 7 kW en P1 no es una potencia normalizada a 3 × 400 V \(trifásica\)/,
    );
    expect(codigos(ctx(trifasico), potencia(10.392, 10.392))).toEqual([]);
  });

  it('asks for three-phase (49) past the highest single-phase value', () => {
    const grande = { ...hogar, potenciaMaximaW: 20000 };
    expect(comprobarSolicitud(ctx(grande), potencia(14.49, 15)).map((e) => [e.codigo, e.campo])).toEqual([['49', 'p2']]);
    expect(mensajes(ctx(grande), potencia(14.49, 15))[0]).toMatch(
      /^49 · Necesario cambio de tensión monofásica a trifásica: a 230 V la potencia normalizada más alta es 14,49 kW/,
    );
  });

  it('lets a maximeter supply contract any whole number of watts', () => {
    expect(codigos(ctx(taller), potencia(20.5, 21, 25, 25, 25, 40))).toEqual([]);
  });
});

describe('sequence, maximum and 12 months', () => {
  it('refuses a six-period sequence that decreases (15), on the period that breaks it', () => {
    const errores = comprobarSolicitud(ctx(taller), potencia(20, 25, 22, 25, 25, 40));
    expect(errores).toEqual([
      {
        codigo: '15',
        campo: 'p3',
        mensaje:
          '15 · Secuencia de potencias incorrecta (Pi > Pi+1): en la tarifa 3.0TD cada periodo debe tener al menos la potencia del anterior, y P3 (22 kW) es menor que P2 (25 kW).',
      },
    ]);
  });

  it('lets the two periods of a 2.0TD differ in either order', () => {
    expect(codigos(ctx(hogar), potencia(5.75, 3.45))).toEqual([]);
  });

  it('refuses a power above the installation maximum: 14 in low voltage, A9 in high voltage', () => {
    expect(comprobarSolicitud(ctx(hogar), potencia(10.35, 4.6))[0]).toEqual({
      codigo: '14',
      campo: 'p1',
      mensaje:
        '14 · Potencia solicitada mayor que la potencia máxima autorizada en baja tensión: P1 pide 10,35 kW y la instalación admite como mucho 9,2 kW (su boletín o acta de puesta en servicio). Para más potencia hace falta ampliar la instalación.',
    });
    expect(codigos(ctx(fabrica), potencia(88, 88, 88, 88, 88, 260))).toEqual(['A9']);
  });

  it('refuses a second power change within 12 months (65), saying from when it is possible', () => {
    const c = ctx(hogar, { ultimoCambioPotencia: '2026-03-04' });
    expect(comprobarSolicitud(c, potencia(5.75, 5.75))).toEqual([
      {
        codigo: '65',
        campo: 'suministro',
        mensaje:
          '65 · Más de una modificación de potencia en menos de 12 meses: la potencia de este suministro cambió el 4 de marzo de 2026; podrá pedir otro cambio de potencia a partir del 4 de marzo de 2027.',
      },
    ]);
    expect(codigos({ ...c, hoy: '2027-03-04' }, potencia(5.75, 5.75))).toEqual([]);
    expect(codigos(c, { tipo: 'titular', modo: 'correccion', nif: '', nombre: 'Lucía Martín Ortega de Prado' })).toEqual([]);
  });

  it('binds only the holder who made the last power change: a new holder may change it at once (65 is per holder, tabla 27)', () => {
    const antes = ctx(hogar, { ultimoCambioPotencia: '2026-03-04', titularDesde: '2026-05-10' });
    expect(codigos(antes, potencia(5.75, 5.75))).toEqual([]);
    // A change the new holder made after taking over binds them.
    expect(codigos(ctx(hogar, { ultimoCambioPotencia: '2026-06-01', titularDesde: '2026-05-10' }), potencia(5.75, 5.75))).toEqual(['65']);
    // And one made the day they took over (with the change of holder) too.
    expect(codigos(ctx(hogar, { ultimoCambioPotencia: '2026-05-10', titularDesde: '2026-05-10' }), potencia(5.75, 5.75))).toEqual(['65']);
  });

  it('counts 12 months from 29 February to 1 March', () => {
    expect(fechaPosibleCambio('2028-02-29')).toBe('2029-03-01');
    expect(fechaPosibleCambio('2026-11-02')).toBe('2027-11-02');
  });

  it('refuses the same powers, an unreadable one and the wrong number of periods without a code', () => {
    expect(comprobarSolicitud(ctx(hogar), potencia(4.6, 4.6))).toEqual([
      { codigo: null, campo: 'p1', mensaje: 'Esas son las potencias que ya tiene contratadas. Cambie al menos la de un periodo.' },
    ]);
    expect(comprobarSolicitud(ctx(hogar), { tipo: 'potencia', potenciasW: [null, 4600] })[0]).toMatchObject({ codigo: null, campo: 'p1' });
    expect(mensajes(ctx(hogar), potencia(5.75))).toEqual(['La tarifa 2.0TD contrata 2 potencias, una por periodo (P1 a P2); indique 2.']);
  });
});

describe('the supply point', () => {
  it('refuses any request on an ended (72) or cut (12) supply, or with another in progress (40)', () => {
    const titular: EntradaReglas = { tipo: 'titular', modo: 'correccion', nif: '', nombre: 'Lucía Martín' };
    expect(codigos(ctx(hogar, { enBaja: true }), titular)).toEqual(['72']);
    expect(mensajes(ctx(hogar, { cortado: true }), titular)).toEqual([
      '12 · Contrato cortado: el suministro está cortado y no admite modificaciones hasta que se reponga. Consulte el estado del contador.',
    ]);
    expect(mensajes(ctx(hogar, { solicitudEnCurso: 'MC-000007' }), potencia(5.75, 5.75))).toEqual([
      '40 · Existencia de solicitud previa en curso (M1): la solicitud MC-000007 de este suministro sigue en trámite. Espere a que se resuelva, o anúlela si aún no se ha aceptado, antes de pedir otra.',
    ]);
  });
});

describe('tariff changes', () => {
  const tarifa = (t: string, ...kw: number[]): EntradaReglas => ({ tipo: 'tarifa', tarifa: t, potenciasW: kw.map((k) => wDesdeKw(k)) });
  const trifasico = { ...hogar, fases: 'trifasico', tensionV: 400, potenciaMaximaW: 43648, potenciasW: [13856, 13856] };

  it('moves a three-phase home to 3.0TD with six non-decreasing powers, one above 15 kW', () => {
    expect(codigos(ctx(trifasico), tarifa('3.0TD', 13.856, 13.856, 13.856, 13.856, 13.856, 17.321))).toEqual([]);
  });

  it('refuses 3.0TD when no period passes 15 kW, and 2.0TD with a period above it (52)', () => {
    expect(mensajes(ctx(trifasico), tarifa('3.0TD', 13.856, 13.856, 13.856, 13.856, 13.856, 13.856))).toEqual([
      '52 · Tarifa no válida para las potencias solicitadas: la tarifa 3.0TD es para potencias de más de 15 kW en algún periodo; con 15 kW o menos en todos corresponde la 2.0TD.',
    ]);
    const grande = { ...taller, modoControlPotencia: 'maximetro' };
    expect(comprobarSolicitud(ctx(grande), tarifa('2.0TD', 10, 17)).map((e) => [e.codigo, e.campo])).toEqual([['52', 'p2']]);
    expect(codigos(ctx(hogar), potencia(9.2, 9.2))).toEqual([]);
  });

  it('refuses a 6.xTD tariff in low voltage and any change of a high-voltage tariff (17)', () => {
    expect(mensajes(ctx(hogar), tarifa('6.1TD', 5.75, 5.75, 5.75, 5.75, 5.75, 5.75))).toEqual([
      '17 · Tarifa no válida para la tensión de suministro: las tarifas 6.xTD corresponden a suministros de alta tensión, y este es de 230 V. En baja tensión puede elegir 2.0TD o 3.0TD.',
    ]);
    expect(mensajes(ctx(fabrica), tarifa('3.0TD', 20, 20, 20, 20, 20, 20))).toEqual([
      '17 · Tarifa no válida para la tensión de suministro: el suministro es de alta tensión (20 kV) y su tarifa, la 6.1TD, la determina la tensión; no admite la 3.0TD.',
    ]);
  });

  it('refuses the tariff the supply already has, without a code', () => {
    expect(comprobarSolicitud(ctx(hogar), tarifa('2.0TD', 5.75, 5.75))).toEqual([
      {
        codigo: null,
        campo: 'tarifa',
        mensaje: 'Su suministro ya tiene la tarifa 2.0TD. Para cambiar solo la potencia, elija «Potencia contratada».',
      },
    ]);
  });

  it('counts a tariff change with new powers against the 12 months (65)', () => {
    expect(
      codigos(ctx(trifasico, { ultimoCambioPotencia: '2026-06-01' }), tarifa('3.0TD', 13.856, 13.856, 13.856, 13.856, 13.856, 17.321)),
    ).toEqual(['65']);
  });
});

describe('holder data', () => {
  it('refuses an invalid NIF (36), the current holder (55) and a missing name (85)', () => {
    expect(comprobarSolicitud(ctx(hogar), { tipo: 'titular', modo: 'cambio', nif: '12345678A', nombre: 'Pedro Gil' })).toEqual([
      {
        codigo: '36',
        campo: 'nif',
        mensaje: '36 · NIF-CIF erróneo: 12345678A no es un DNI, NIE ni CIF válido. Compruebe las cifras y la letra de control.',
      },
    ]);
    expect(codigos(ctx(hogar), { tipo: 'titular', modo: 'cambio', nif: '12345678-z', nombre: 'Pedro Gil' })).toEqual(['55']);
    expect(codigos(ctx(hogar), { tipo: 'titular', modo: 'cambio', nif: 'X2482300W', nombre: '  ' })).toEqual(['85']);
    expect(codigos(ctx(hogar), { tipo: 'titular', modo: 'cambio', nif: 'B64717838', nombre: 'Talleres Nuevos, S.L.' })).toEqual([]);
  });

  it('refuses a correction that leaves the name as it is', () => {
    expect(mensajes(ctx(hogar), { tipo: 'titular', modo: 'correccion', nif: '', nombre: 'lucía martín ortega ' })).toEqual([
      'Ese es el nombre que ya figura en el contrato. Escriba el nombre corregido.',
    ]);
  });
});

describe('kW as typed', () => {
  it('reads Spanish and English decimals to whole watts, and refuses fractions of a watt', () => {
    expect(leerKw('4,6')).toBe(4600);
    expect(leerKw(' 10.392 ')).toBe(10392);
    expect(leerKw('4,6001')).toBeNull();
    expect(leerKw('cuatro')).toBeNull();
    expect(leerKw('0')).toBeNull();
    expect(wDesdeKw(5.75)).toBe(5750);
  });

  it('validates the request body shape with Spanish messages', () => {
    const r = solicitudEntradaSchema.safeParse({ cups: 'ES9901', tipo: 'nada' });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.message)).toEqual(['Indique qué quiere modificar: potencia, tarifa o titular.']);
  });
});

describe('status transitions', () => {
  it('follow enviada → aceptada or rechazada → activada, with cancellation only while enviada', () => {
    const permitidas = ESTADOS_SOLICITUD.flatMap((e) =>
      (['aceptar', 'rechazar', 'activar', 'anular'] as AccionSolicitud[]).filter((a) => puede(a, e)).map((a) => `${e}:${a}`),
    );
    expect(permitidas).toEqual(['enviada:aceptar', 'enviada:rechazar', 'enviada:anular', 'aceptada:rechazar', 'aceptada:activar']);
    expect(accionesAdministrador('aceptada')).toEqual(['activar', 'rechazar']);
    expect(accionesAdministrador('activada')).toEqual([]);
  });

  it('explains each refused move in Spanish, with 42/43 for a late cancellation', () => {
    expect(conflictoTransicion('anular', 'aceptada', 'MC-000001')).toBe(
      '42 · No es posible la anulación: la distribuidora ya aceptó la solicitud MC-000001 y la está tramitando.',
    );
    expect(conflictoTransicion('anular', 'activada', 'MC-000001')).toBe(
      '43 · No es posible la anulación: la solicitud MC-000001 ya está activada.',
    );
    expect(conflictoTransicion('activar', 'enviada', 'MC-000001')).toBe(
      'La solicitud MC-000001 está enviada: hay que aceptarla antes de activarla.',
    );
    expect(conflictoTransicion('aceptar', 'rechazada', 'MC-000001')).toBe(
      'La solicitud MC-000001 está rechazada: solo se puede aceptar una solicitud enviada.',
    );
    expect(conflictoTransicion('aceptar', 'enviada', 'MC-000001')).toBeNull();
  });

  it('refuses an activation date before the request or after today', () => {
    expect(errorFechaActivacion('2026-10-31', '2026-11-01', '2026-11-02')).toBe(
      '46 · Fecha de la operación con carácter retroactivo: la activación no puede ser anterior al 1 de noviembre de 2026, día en que se presentó la solicitud.',
    );
    expect(errorFechaActivacion('2026-11-03', '2026-11-01', '2026-11-02')).toMatch(/^La fecha de activación no puede ser posterior a hoy/);
    expect(errorFechaActivacion('2026-02-30', '2026-01-01', '2026-11-02')).toMatch(/fecha válida/);
    expect(errorFechaActivacion('2026-11-02', '2026-11-01', '2026-11-02')).toBeNull();
  });
});

describe('rejection reasons and wording', () => {
  it('offers only the reasons that apply to the kind of request and the contract', () => {
    expect(motivosAplicables('titular', hogar)).toEqual(['12', '36', '40', '55', '72', '85', '99']);
    expect(motivosAplicables('potencia', hogar)).toEqual(['12', '14', '15', '20', '40', '48', '49', '52', '53', '65', '72', '99']);
    expect(motivosAplicables('tarifa', fabrica)).toEqual(['12', '15', '17', '20', '40', '52', '53', '65', '72', 'A9', '99']);
    expect(textoMotivo('65')).toBe('65 · Más de una modificación de potencia en menos de 12 meses');
  });

  it('writes and reads the MC reference', () => {
    expect(referencia(123)).toBe('MC-000123');
    expect(leerReferencia('MC-000123')).toBe(123);
    expect(leerReferencia('mc123')).toBe(123);
    expect(leerReferencia('0')).toBeNull();
    expect(leerReferencia('MC-12a')).toBeNull();
  });

  it('shows before and after period by period, and in one line', () => {
    const antes = contratoApi(hogar);
    expect(filasCambio(antes, { tipo: 'potencia', potenciasKw: [5.75, 4.6] })).toEqual([
      { etiqueta: 'Potencia P1', antes: '4,6 kW', despues: '5,75 kW', cambia: true },
      { etiqueta: 'Potencia P2', antes: '4,6 kW', despues: '4,6 kW', cambia: false },
    ]);
    expect(resumenCambio(antes, { tipo: 'potencia', potenciasKw: [5.75, 5.75] })).toBe('Potencia: de 4,6 kW a 5,75 kW');
    expect(resumenCambio(antes, { tipo: 'titular', modo: 'cambio', titular: { nif: 'B64717838', nombre: 'Talleres Nuevos, S.L.' } })).toBe(
      'Nuevo titular: Talleres Nuevos, S.L. (B64717838)',
    );
  });
});
