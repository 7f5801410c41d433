/**
 * Contractual modifications through HTTP: ownership (404 for anyone else's supply point or
 * request), 401/403, each rule's 400 with its tabla 27 code, numbering, the transitions and their
 * 409s, the mail of each change, the administrator's permission per distributor and never through an
 * impersonated session, activation applying the change through the import code (powers, the holder's
 * -distribucion), the audit log and the rate limit.
 */
import { and, eq, sql } from 'drizzle-orm';
import { MENSAJES_MODIFICACIONES } from '../../src/server/modificaciones/service.ts';
import { describe, expect, it } from 'vitest';
import { construirCups } from '../../src/lib/cups.ts';
import type { Permiso } from '../../src/lib/permisos.ts';
import type { SolicitudAdminApi, SolicitudApi, ContextoApi } from '../../src/lib/modificaciones/tipos.ts';
import { MENSAJE_SUPLANTADO } from '../../src/server/auth/middleware.ts';
import { queryRows } from '../../src/server/db/client.ts';
import { auditLog, estadosContador } from '../../src/server/db/schema.ts';
import { guardarSuministros, type SuministroEntrada } from '../../src/server/suministros/service.ts';
import { unaVez } from '../support/ganchos.ts';
import {
  administrador as administradorCon,
  cookieDe,
  cuenta,
  llamar,
  nuevoDni,
  sesion,
  ultimoCorreo,
  type CuerpoSesion,
} from '../support/privado.ts';
import { servidorDelFichero } from '../support/server.ts';
import {
  ALTA_TENSION_6_1TD,
  EMPRESA_3_0TD,
  guardasDeTitular,
  puntoNuevo,
  suministroPrueba,
  titularConSuministros,
} from '../support/suministros.ts';

const server = servidorDelFichero();

type D = 'epd' | 'eod' | 'ecd';

/** A holder with one supply point (a 2.0TD single-phase home at 4,6 kW unless told otherwise) and a session. */
async function titular(d: D = 'epd', extra: Partial<SuministroEntrada> = {}) {
  const t = await titularConSuministros(server, [(nif) => puntoNuevo(nif, d, extra)]);
  return { u: t.u, token: t.token, cups: t.cups[0]! };
}

/** An administrator of these distributors. */
const administrador = (...distribuidoras: D[]) =>
  administradorCon(
    server,
    distribuidoras.map((d) => `${d}-administrador` as Permiso),
  );

const pedir = (token: string, body: unknown) => llamar(server, 'POST', '/api/modificaciones', { token, body });

/** Sends a request that must be accepted by the rules; answers it. */
async function enviada(token: string, body: unknown): Promise<SolicitudApi> {
  const res = await pedir(token, body);
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as SolicitudApi;
}

/** An administrator's action on a request. */
function accion(token: string, numero: number, que: 'aceptacion' | 'rechazo' | 'activacion', body?: unknown) {
  return llamar(server, 'POST', `/api/administrador/modificaciones/${numero}/${que}`, { token, body });
}

const anular = (token: string, numero: number) => llamar(server, 'POST', `/api/modificaciones/${numero}/anulacion`, { token });
const suministro = async (token: string, cups: string) => (await llamar(server, 'GET', `/api/suministros/${cups}`, { token })).json();
const contexto = async (token: string, cups: string) =>
  (await (await llamar(server, 'GET', `/api/modificaciones/suministros/${cups}`, { token })).json()) as ContextoApi;

const hoy = '2026-11-02';
const POTENCIA = { tipo: 'potencia', potenciasKw: [5.75, 5.75] };
const CORRECCION = { tipo: 'titular', modo: 'correccion', nombre: 'Lucía Martín Ortega' };

describe('who may ask', () => {
  guardasDeTitular(server, [
    ['GET', '/api/modificaciones'],
    ['POST', '/api/modificaciones', { cups: construirCups('9901', 1), ...POTENCIA }],
  ]);

  describe("another holder's", () => {
    /** Two holders, and a request of the second. */
    const par = unaVez(async () => {
      const a = await titular();
      const b = await titular();
      return { a, b, suya: await enviada(b.token, { cups: b.cups, ...POTENCIA }) };
    });

    it('supply point answers 404 to a request or its form', async () => {
      expect((await pedir(par.a.token, { cups: par.b.cups, ...POTENCIA })).status).toBe(404);
      expect((await llamar(server, 'GET', `/api/modificaciones/suministros/${par.b.cups}`, { token: par.a.token })).status).toBe(404);
    });

    it.each([
      ['GET', '/api/modificaciones/{numero}'],
      ['GET', '/api/modificaciones/{referencia}'],
      ['POST', '/api/modificaciones/{numero}/anulacion'],
    ])('request answers 404 to %s %s, with none of their data', async (metodo, plantilla) => {
      const ruta = plantilla.replace('{numero}', String(par.suya.numero)).replace('{referencia}', par.suya.referencia);
      const res = await llamar(server, metodo, ruta, { token: par.a.token });
      expect(res.status, ruta).toBe(404);
      expect(await res.text()).not.toContain(par.b.cups);
    });

    it('requests are not listed', async () => {
      expect(await (await llamar(server, 'GET', '/api/modificaciones', { token: par.a.token })).json()).toEqual([]);
    });

    it('request is not found by its own holder through a GET on its cancellation', async () => {
      expect((await llamar(server, 'GET', `/api/modificaciones/${par.suya.numero}/anulacion`, { token: par.b.token })).status).toBe(404);
    });
  });

  it('answers 404 to a malformed reference', async () => {
    const b = await titular();
    expect((await llamar(server, 'GET', '/api/modificaciones/MC-x', { token: b.token })).status).toBe(404);
  });

  it('tells the form the contract and today, with no request in progress', async () => {
    const a = await titular('ecd');
    expect(await contexto(a.token, a.cups)).toMatchObject({
      cups: a.cups,
      contrato: { tarifa: '2.0TD', potenciasKw: [4.6, 4.6], potenciaMaximaKw: 9.2, fases: 'monofasico', titular: { nif: a.u.nif } },
      enBaja: false,
      cortado: false,
      solicitudEnCurso: null,
      ultimoCambioPotencia: null,
      hoy,
    });
  });

  it('tells the form the request in progress', async () => {
    const a = await titular('ecd');
    const s = await enviada(a.token, { cups: a.cups, ...POTENCIA });
    expect((await contexto(a.token, a.cups)).solicitudEnCurso).toEqual({ numero: s.numero, referencia: s.referencia });
  });
});

describe('the rules over HTTP', () => {
  const espera400 = async (token: string, body: unknown, mensajes: (string | RegExp)[]) => {
    const res = await pedir(token, body);
    expect(res.status).toBe(400);
    const cuerpo = (await res.json()) as string[];
    expect(cuerpo).toHaveLength(mensajes.length);
    mensajes.forEach((m, i) => expect(cuerpo[i]).toMatch(m));
  };
  const TRIFASICO: Partial<SuministroEntrada> = {
    tensionV: 400,
    fasesContador: 'trifasico',
    potenciasW: [6928, 6928],
    potenciaMaximaW: 13856,
  };

  it.each<[string, string, D, Partial<SuministroEntrada>, Record<string, unknown>, (string | RegExp)[]]>([
    [
      '48',
      'a power that is not normalised',
      'epd',
      {},
      { tipo: 'potencia', potenciasKw: [5, 5.75] },
      [/^48 · Potencias no normalizadas en suministro monofásico: 5 kW en P1 /],
    ],
    [
      '14',
      'a power above the installation, in each period',
      'epd',
      {},
      { tipo: 'potencia', potenciasKw: [10.35, 10.35] },
      [/^14 · Potencia solicitada mayor que la potencia máxima autorizada en baja tensión: P1 pide 10,35 kW/, /^14 · .*P2 pide 10,35 kW/],
    ],
    [
      '47',
      'three-phase values that are not normalised',
      'epd',
      TRIFASICO,
      { tipo: 'potencia', potenciasKw: [7, 6.928] },
      [/^47 · Potencias no normalizadas en suministro trifásico: 7 kW en P1 /],
    ],
    [
      '49',
      'a single-phase power past 14,49 kW',
      'epd',
      { potenciaMaximaW: 20000 },
      { tipo: 'potencia', potenciasKw: [14.49, 15] },
      [/^49 · Necesario cambio de tensión monofásica a trifásica/],
    ],
    [
      'A9',
      'a power above a high-voltage maximum',
      'eod',
      ALTA_TENSION_6_1TD,
      { tipo: 'potencia', potenciasKw: [88, 88, 88, 88, 88, 260] },
      [/^A9 · Potencia solicitada mayor que la potencia máxima autorizada en alta tensión: P6 pide 260 kW/],
    ],
    [
      '15',
      'a decreasing six-period sequence',
      'eod',
      EMPRESA_3_0TD,
      { tipo: 'potencia', potenciasKw: [20, 25, 22, 25, 25, 40] },
      [
        '15 · Secuencia de potencias incorrecta (Pi > Pi+1): en la tarifa 3.0TD cada periodo debe tener al menos la potencia del anterior, y P3 (22 kW) es menor que P2 (25 kW).',
      ],
    ],
    [
      '52',
      'a 3.0TD with no period above 15 kW',
      'eod',
      EMPRESA_3_0TD,
      { tipo: 'potencia', potenciasKw: [10, 10, 10, 10, 10, 15] },
      [/^52 · Tarifa no válida para las potencias solicitadas/],
    ],
    [
      '17',
      'a 6.xTD tariff in low voltage',
      'epd',
      {},
      { tipo: 'tarifa', tarifa: '6.1TD', potenciasKw: [5.75, 5.75, 5.75, 5.75, 5.75, 5.75] },
      [/^17 · Tarifa no válida para la tensión de suministro/],
    ],
    [
      '36',
      'an invalid new holder NIF',
      'epd',
      {},
      { tipo: 'titular', modo: 'cambio', nif: '12345678A', nombre: 'Pedro Gil' },
      [/^36 · NIF-CIF erróneo: 12345678A/],
    ],
    [
      '65',
      'a second power change within 12 months of the last one',
      'ecd',
      { fechaUltimoCambioPotencia: '2026-03-04' },
      POTENCIA,
      [
        '65 · Más de una modificación de potencia en menos de 12 meses: la potencia de este suministro cambió el 4 de marzo de 2026; podrá pedir otro cambio de potencia a partir del 4 de marzo de 2027.',
      ],
    ],
  ])('refuses with %s %s', async (_, __, d, extra, body, mensajes) => {
    const a = await titular(d, extra);
    await espera400(a.token, { cups: a.cups, ...body }, mensajes);
  });

  it('refuses with 40 a second request while one is in progress, naming it', async () => {
    const a = await titular();
    const primera = await enviada(a.token, { cups: a.cups, ...POTENCIA });
    await espera400(a.token, { cups: a.cups, ...CORRECCION }, [
      new RegExp(
        `^40 · Existencia de solicitud previa en curso \\(M1\\): la solicitud ${primera.referencia} de este suministro sigue en trámite`,
      ),
    ]);
  });

  it('refuses with 12 any request on a cut supply', async () => {
    const a = await titular();
    const [s] = await queryRows<{ id: number }>(server.database.db, sql`select id from suministros where cups = ${a.cups}`);
    await server.database.db
      .insert(estadosContador)
      .values({ suministroId: s!.id, comunica: true, interruptor: 'abierto_remoto', estadoSuministro: 'cortado', origen: 'administrador' });
    await espera400(a.token, { cups: a.cups, ...POTENCIA }, [/^12 · Contrato cortado: el suministro está cortado/]);
  });

  it('refuses with 72 any request on an ended contract', async () => {
    // An ended contract is still shown to a holder who keeps another supply point in force there.
    const b = await titular('eod');
    const terminado = puntoNuevo(b.u.nif, 'eod', { fechaBaja: '2026-10-01' });
    await guardarSuministros(server.database.db, [terminado]);
    await espera400(b.token, { cups: terminado.cups, ...POTENCIA }, [/^72 · Contrato en baja/]);
  });

  it.each([
    ['an unknown kind', { tipo: 'nada' }, 'Indique qué quiere modificar: potencia, tarifa o titular.'],
    ['a power that is no number', { tipo: 'potencia', potenciasKw: ['5'] }, 'Cada potencia debe ser un número de kW.'],
    ['a power with too many decimals', { tipo: 'potencia', potenciasKw: [5.7501, 5.75] }, /^P1: escriba la potencia en kW/],
  ])('answers %s with a Spanish message', async (_, body, mensaje) => {
    const a = await titular();
    await espera400(a.token, { cups: a.cups, ...body }, [mensaje]);
  });
});

describe('numbers and the timeline', () => {
  /** Two holders' requests, one after the other. */
  const dos = unaVez(async () => {
    const a = await titular();
    const b = await titular();
    const s1 = await enviada(a.token, { cups: a.cups, ...POTENCIA });
    const s2 = await enviada(b.token, { cups: b.cups, ...CORRECCION });
    return { a, s1, s2 };
  });

  it('numbers requests one after another, whoever sends them', () => {
    expect(dos.s2.numero).toBe(dos.s1.numero + 1);
  });

  it('shows a number as MC and six digits', () => {
    expect(dos.s1.referencia).toBe(`MC-${String(dos.s1.numero).padStart(6, '0')}`);
  });

  it('answers a request as sent, with the contract before it', () => {
    expect(dos.s1).toMatchObject({
      tipo: 'potencia',
      estado: 'enviada',
      cups: dos.a.cups,
      anterior: { tarifa: '2.0TD', potenciasKw: [4.6, 4.6], titular: { nif: dos.a.u.nif } },
      solicitado: { tipo: 'potencia', potenciasKw: [5.75, 5.75] },
      motivoRechazo: null,
      fechaActivacion: null,
      eventos: [{ estado: 'enviada', nota: null }],
    });
  });

  it("lists the holder's requests, and finds one by its reference", async () => {
    const lista = (await (await llamar(server, 'GET', '/api/modificaciones', { token: dos.a.token })).json()) as SolicitudApi[];
    expect(lista.map((x) => x.referencia)).toEqual([dos.s1.referencia]);
    const porReferencia = await llamar(server, 'GET', `/api/modificaciones/${dos.s1.referencia}`, { token: dos.a.token });
    expect(((await porReferencia.json()) as SolicitudApi).numero).toBe(dos.s1.numero);
  });

  describe('a cancellation by the holder', () => {
    /** A request sent and cancelled, and the mail of each step. */
    const anulada = unaVez(async () => {
      const a = await titular();
      const s = await enviada(a.token, { cups: a.cups, ...POTENCIA });
      const recibida = await ultimoCorreo(server, a.u.email);
      const res = await anular(a.token, s.numero);
      const respuesta = { status: res.status, body: (await res.json()) as SolicitudApi };
      return { a, s, recibida, res: respuesta, correo: await ultimoCorreo(server, a.u.email) };
    });

    it('follows a mail saying the request was received', () => {
      expect(anulada.recibida?.subject).toBe(`Hemos recibido su solicitud ${anulada.s.referencia}`);
    });

    it('is allowed while the request is enviada', () => {
      expect(anulada.res.status).toBe(200);
      expect(anulada.res.body.eventos.map((e) => e.estado)).toEqual(['enviada', 'anulada']);
    });

    it('is mailed, with a link to the request', () => {
      expect(anulada.correo?.subject).toBe(`Su solicitud ${anulada.s.referencia} ha sido anulada`);
      expect(anulada.correo?.text).toContain(
        `http://portal.test/modificacionesContractuales/modificaciones-contractuales/${anulada.s.referencia}`,
      );
    });

    it('answers 409 a second time', async () => {
      const otra = await anular(anulada.a.token, anulada.s.numero);
      expect(otra.status).toBe(409);
      expect(await otra.json()).toEqual({ message: `La solicitud ${anulada.s.referencia} está anulada: ya no se puede anular.` });
    });

    it('no longer blocks a new request', async () => {
      await enviada(anulada.a.token, { cups: anulada.a.cups, tipo: 'potencia', potenciasKw: [3.45, 3.45] });
    });
  });
});

describe('administration', () => {
  describe('of a power change accepted and activated', () => {
    /** A request of an EOD holder, accepted and activated today; what each step answered and mailed. */
    const visto = unaVez(async () => {
      const a = await titular('eod');
      const { token } = await administrador('eod');
      const s = await enviada(a.token, { cups: a.cups, ...POTENCIA });
      const aceptada = await accion(token, s.numero, 'aceptacion');
      const aceptacion = { status: aceptada.status, body: (await aceptada.json()) as SolicitudAdminApi };
      const correoAceptada = await ultimoCorreo(server, a.u.email);
      const anulacion = await anular(a.token, s.numero);
      const tarde = { status: anulacion.status, body: (await anulacion.json()) as { message: string } };
      const activada = await accion(token, s.numero, 'activacion', { fecha: hoy });
      const activacion = { status: activada.status, body: (await activada.json()) as SolicitudAdminApi };
      return { a, s, aceptacion, correoAceptada, tarde, activacion, correoActivada: await ultimoCorreo(server, a.u.email) };
    });

    it('accepts the request', () => {
      expect(visto.aceptacion.status).toBe(200);
      expect(visto.aceptacion.body.estado).toBe('aceptada');
    });

    it('mails the holder the acceptance', () => {
      expect(visto.correoAceptada?.subject).toBe(`Su solicitud ${visto.s.referencia} ha sido aceptada`);
    });

    it('no longer lets the holder cancel an accepted request (42)', () => {
      expect(visto.tarde.status).toBe(409);
      expect(visto.tarde.body.message).toMatch(/^42 · No es posible la anulación/);
    });

    it('activates it on the date given, with its timeline', () => {
      expect(visto.activacion.status).toBe(200);
      expect(visto.activacion.body).toMatchObject({
        estado: 'activada',
        fechaActivacion: hoy,
        solicitante: { email: visto.a.u.email },
        suplantada: false,
      });
      expect(visto.activacion.body.eventos.map((e) => [e.estado, e.nota])).toEqual([
        ['enviada', null],
        ['aceptada', null],
        ['activada', 'Activada con fecha 2 de noviembre de 2026'],
      ]);
    });

    it('mails the holder the activation, with the new power and its date', () => {
      expect(visto.correoActivada?.subject).toBe(`Su solicitud ${visto.s.referencia} está activada`);
      expect(visto.correoActivada?.text).toContain('Potencia: de 4,6 kW a 5,75 kW.');
      expect(visto.correoActivada?.text).toContain('desde el 2 de noviembre de 2026');
    });

    it("changes the supply point's powers", async () => {
      expect(((await suministro(visto.a.token, visto.a.cups)) as { potenciasKw: number[] }).potenciasKw).toEqual([5.75, 5.75]);
    });

    it('records the date of the power change', async () => {
      const [fila] = await queryRows<{ f: string }>(
        server.database.db,
        sql`select fecha_ultimo_cambio_potencia::text as f from suministros where cups = ${visto.a.cups}`,
      );
      expect(fila?.f).toBe(hoy);
    });

    it('counts the change against the 12 months of reason 65 at once', async () => {
      const otra = await pedir(visto.a.token, { cups: visto.a.cups, tipo: 'potencia', potenciasKw: [6.9, 6.9] });
      expect(otra.status).toBe(400);
      expect(((await otra.json()) as string[])[0]).toMatch(/^65 · /);
    });
  });

  describe('a rejection', () => {
    /** A request of an ECD holder, an administrator of ECD, and a refused and an accepted reason. */
    const visto = unaVez(async () => {
      const a = await titular('ecd');
      const { token } = await administrador('ecd');
      const s = await enviada(a.token, { cups: a.cups, ...POTENCIA });
      const mal = await accion(token, s.numero, 'rechazo', { codigo: '36' });
      const refusal = { status: mal.status, body: await mal.json() };
      const res = await accion(token, s.numero, 'rechazo', { codigo: '53' });
      const rechazo = { status: res.status, body: (await res.json()) as SolicitudAdminApi };
      return { a, s, refusal, rechazo, correo: await ultimoCorreo(server, a.u.email) };
    });

    it('refuses a tabla 27 reason that does not apply to the request', () => {
      expect(visto.refusal.status).toBe(400);
      expect(visto.refusal.body).toEqual(['Elija un motivo de rechazo de la lista: ese código no se aplica a esta solicitud.']);
    });

    it('rejects with a tabla 27 reason that applies', () => {
      expect(visto.rechazo.status).toBe(200);
      expect(visto.rechazo.body.motivoRechazo).toEqual({ codigo: '53', texto: 'Necesidad de abrir expediente de acometida' });
    });

    it('mails the holder the rejection with its reason', () => {
      expect(visto.correo?.subject).toBe(`Su solicitud ${visto.s.referencia} ha sido rechazada`);
      expect(visto.correo?.text).toContain('53 · Necesidad de abrir expediente de acometida');
    });

    it('shows the holder the reason in the timeline', async () => {
      const res = await llamar(server, 'GET', `/api/modificaciones/${visto.s.numero}`, { token: visto.a.token });
      expect(((await res.json()) as SolicitudApi).eventos.at(-1)).toMatchObject({
        estado: 'rechazada',
        nota: 'Motivo: 53 · Necesidad de abrir expediente de acometida',
      });
    });
  });

  /** An EPD holder's request, just sent, and an administrator of EPD. */
  async function pendiente() {
    const a = await titular('epd');
    const { token } = await administrador('epd');
    return { token, s: await enviada(a.token, { cups: a.cups, ...POTENCIA }) };
  }

  it('answers 409 to activating a request not yet accepted', async () => {
    const { token, s } = await pendiente();
    const pronto = await accion(token, s.numero, 'activacion', { fecha: hoy });
    expect(pronto.status).toBe(409);
    expect(await pronto.json()).toEqual({ message: `La solicitud ${s.referencia} está enviada: hay que aceptarla antes de activarla.` });
  });

  it('answers 409 to accepting a rejected request', async () => {
    const { token, s } = await pendiente();
    expect((await accion(token, s.numero, 'rechazo', { codigo: '20' })).status).toBe(200);
    const tarde = await accion(token, s.numero, 'aceptacion');
    expect(tarde.status).toBe(409);
    expect(await tarde.json()).toEqual({
      message: `La solicitud ${s.referencia} está rechazada: solo se puede aceptar una solicitud enviada.`,
    });
  });

  it('answers 409 to rejecting a rejected request', async () => {
    const { token, s } = await pendiente();
    await accion(token, s.numero, 'rechazo', { codigo: '20' });
    expect((await accion(token, s.numero, 'rechazo', { codigo: '20' })).status).toBe(409);
  });

  it('answers 404 to an unknown number', async () => {
    const { token } = await administrador('epd');
    expect((await accion(token, 999_999, 'aceptacion')).status).toBe(404);
  });

  it('refuses with 46 an activation date before the request', async () => {
    const { token, s } = await pendiente();
    await accion(token, s.numero, 'aceptacion');
    const antes = await accion(token, s.numero, 'activacion', { fecha: '2026-11-01' });
    expect(antes.status).toBe(400);
    expect(((await antes.json()) as string[])[0]).toMatch(/^46 · Fecha de la operación con carácter retroactivo/);
  });

  it.each([
    ['after today', '2026-11-03'],
    ['that does not exist', '2026-13-01'],
  ])('refuses an activation date %s', async (_, fecha) => {
    const { token, s } = await pendiente();
    await accion(token, s.numero, 'aceptacion');
    expect((await accion(token, s.numero, 'activacion', { fecha })).status).toBe(400);
  });

  describe("for another distributor's administrator", () => {
    /** A request of an EOD holder, and an administrator of EPD. */
    const ajena = unaVez(async () => {
      const a = await titular('eod');
      return { a, s: await enviada(a.token, { cups: a.cups, ...POTENCIA }), otro: await administrador('epd') };
    });

    it.each<[string, (token: string, numero: number) => Promise<Response>]>([
      ['reading it', (token, numero) => llamar(server, 'GET', `/api/administrador/modificaciones/${numero}`, { token })],
      ['accepting it', (token, numero) => accion(token, numero, 'aceptacion')],
      ['rejecting it', (token, numero) => accion(token, numero, 'rechazo', { codigo: '99' })],
      ['activating it', (token, numero) => accion(token, numero, 'activacion', { fecha: hoy })],
    ])('answers 404 to %s, so numbers reveal nothing', async (_, hacer) => {
      const res = await hacer(ajena.otro.token, ajena.s.numero);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ message: MENSAJES_MODIFICACIONES.noExiste });
    });

    it('answers 403 to a list of its distributor', async () => {
      const lista = await llamar(server, 'GET', '/api/administrador/modificaciones?distribuidora=eod', { token: ajena.otro.token });
      expect(lista.status).toBe(403);
    });

    it('leaves the request out of their own list', async () => {
      const propias = (await (
        await llamar(server, 'GET', '/api/administrador/modificaciones', { token: ajena.otro.token })
      ).json()) as SolicitudAdminApi[];
      expect(propias.some((x) => x.numero === ajena.s.numero)).toBe(false);
    });
  });

  describe('for a session of the holder impersonated by an administrator of every distributor', () => {
    /** The holder's request, and the impersonated session; the session is the holder's. */
    const suplantada = unaVez(async () => {
      const a = await titular('eod');
      const s = await enviada(a.token, { cups: a.cups, ...POTENCIA });
      const jefe = await cuenta(server, { extra: ['epd-administrador', 'eod-administrador', 'ecd-administrador'], prefijo: 'jefe' });
      const propia = await sesion(server, jefe.email);
      const imp = await llamar(server, 'POST', '/api/accesoUsuarioSuplantacion', { token: propia.jwtToken, body: { username: a.u.email } });
      expect(imp.status).toBe(200);
      expect(cookieDe(imp)).not.toBeNull();
      return { s, token: ((await imp.json()) as CuerpoSesion).jwtToken };
    });

    it.each<[string, (token: string, numero: number) => Promise<Response>]>([
      ['listing requests', (token) => llamar(server, 'GET', '/api/administrador/modificaciones', { token })],
      ['accepting one', (token, numero) => accion(token, numero, 'aceptacion')],
    ])('answers 403 to %s', async (_, hacer) => {
      const res = await hacer(suplantada.token, suplantada.s.numero);
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ message: MENSAJE_SUPLANTADO });
    });

    it('still lets the holder cancel their own request', async () => {
      expect((await anular(suplantada.token, suplantada.s.numero)).status).toBe(200);
    });
  });

  describe('the list of the distributors administered', () => {
    /** An ECD holder's correction of the holder name, and an administrator of ECD. */
    const lista = unaVez(async () => {
      const a = await titular('ecd');
      const { token } = await administrador('ecd');
      return { a, token, s: await enviada(a.token, { cups: a.cups, ...CORRECCION }) };
    });
    const buscar = (consulta: string) => llamar(server, 'GET', `/api/administrador/modificaciones?${consulta}`, { token: lista.token });

    it('finds a request by its reference, with the total', async () => {
      const res = await buscar(`q=${lista.s.referencia}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-total-count')).toBe('1');
      const [fila] = (await res.json()) as SolicitudAdminApi[];
      expect(fila).toMatchObject({
        numero: lista.s.numero,
        tipo: 'titular',
        solicitante: { email: lista.a.u.email },
        distribuidora: 'ecd',
      });
    });

    it('filters by the start of the CUPS, the kind and the state', async () => {
      const porCups = (await (await buscar(`q=${lista.a.cups.slice(0, 16)}&tipo=titular&estado=enviada`)).json()) as SolicitudAdminApi[];
      expect(porCups.map((x) => x.numero)).toContain(lista.s.numero);
    });

    it('answers a total of 0 when nothing matches', async () => {
      expect((await buscar(`q=${lista.s.referencia}&estado=activada`)).headers.get('x-total-count')).toBe('0');
    });

    it('refuses an unknown state', async () => {
      expect((await buscar('estado=cerrada')).status).toBe(400);
    });
  });

  it('writes each action to the audit log, with no holder data', async () => {
    const a = await titular('ecd');
    const { a: gestor, token } = await administrador('ecd');
    const s = await enviada(a.token, { cups: a.cups, ...POTENCIA });
    await accion(token, s.numero, 'aceptacion');
    await accion(token, s.numero, 'activacion', { fecha: hoy });
    const entradas = await server.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.actorUserId, gestor.id), sql`${auditLog.action} like 'modificacion.%'`));
    expect(entradas.map((e) => e.action)).toEqual(['modificacion.aceptacion', 'modificacion.activacion']);
    expect(entradas[1]!.details).toMatchObject({
      numero: s.numero,
      distribuidora: 'ecd',
      tipo: 'potencia',
      estadoAnterior: 'aceptada',
      fechaActivacion: hoy,
    });
    expect(JSON.stringify(entradas.map((e) => e.details))).not.toContain(a.u.nif);
  });
});

describe('activation applies the change', () => {
  describe('of holder', () => {
    /** A change of holder of an EOD supply point to Pedro Gil, activated today; what each side saw. */
    const cambio = unaVez(async () => {
      const a = await titular('eod');
      const nuevo = await cuenta(server, { nombre: 'Pedro', apellido1: 'Gil' });
      const { token } = await administrador('eod');
      const s = await enviada(a.token, {
        cups: a.cups,
        tipo: 'titular',
        modo: 'cambio',
        nif: nuevo.nif.toLowerCase(),
        nombre: 'Pedro Gil Sanz',
      });
      const permisosAntes = (await sesion(server, nuevo.email)).Permisos;
      await accion(token, s.numero, 'aceptacion');
      expect((await accion(token, s.numero, 'activacion', { fecha: hoy })).status).toBe(200);
      return { a, nuevo, s, permisosAntes, nuevaSesion: await sesion(server, nuevo.email) };
    });

    it('keeps the new holder’s NIF in upper case', () => {
      expect(cambio.s.solicitado).toEqual({
        tipo: 'titular',
        modo: 'cambio',
        titular: { nif: cambio.nuevo.nif, nombre: 'Pedro Gil Sanz' },
      });
    });

    it('gives the new holder -distribucion only once activated', () => {
      expect(cambio.permisosAntes).not.toContain('eod-distribucion');
      expect(cambio.nuevaSesion.Permisos).toContain('eod-distribucion');
    });

    it('takes the supply point and -distribucion from the old holder', async () => {
      expect((await llamar(server, 'GET', `/api/suministros/${cambio.a.cups}`, { token: cambio.a.token })).status).toBe(403);
      expect((await sesion(server, cambio.a.u.email)).Permisos).not.toContain('eod-distribucion');
    });

    it('shows the new holder the supply point in their name', async () => {
      const visto = await llamar(server, 'GET', `/api/suministros/${cambio.a.cups}`, { token: cambio.nuevaSesion.jwtToken });
      expect(visto.status).toBe(200);
      expect(((await visto.json()) as { titular: { nif: string; nombre: string } }).titular).toEqual({
        nif: cambio.nuevo.nif,
        nombre: 'Pedro Gil Sanz',
      });
    });

    it("hides the old holder's request from the new holder", async () => {
      expect((await llamar(server, 'GET', `/api/modificaciones/${cambio.s.numero}`, { token: cambio.nuevaSesion.jwtToken })).status).toBe(
        404,
      );
    });

    it('mails both holders', async () => {
      expect((await ultimoCorreo(server, cambio.a.u.email))?.subject).toBe(`Su solicitud ${cambio.s.referencia} está activada`);
      expect((await ultimoCorreo(server, cambio.nuevo.email))?.subject).toBe(`Ya es titular del suministro ${cambio.a.cups}`);
    });
  });

  it('lets a new holder change the power at once: the 12 months of reason 65 bind the holder who changed it', async () => {
    const a = await titular('eod', { fechaUltimoCambioPotencia: '2026-03-04' });
    const antes = await pedir(a.token, { cups: a.cups, ...POTENCIA });
    expect(antes.status).toBe(400);
    expect(((await antes.json()) as string[])[0]).toMatch(/^65 · /);
    const nuevo = await cuenta(server, { nombre: 'Rosa', apellido1: 'Vidal' });
    const { token } = await administrador('eod');
    const s = await enviada(a.token, { cups: a.cups, tipo: 'titular', modo: 'cambio', nif: nuevo.nif, nombre: 'Rosa Vidal Pons' });
    await accion(token, s.numero, 'aceptacion');
    expect((await accion(token, s.numero, 'activacion', { fecha: hoy })).status).toBe(200);
    const nuevaSesion = await sesion(server, nuevo.email);
    expect((await contexto(nuevaSesion.jwtToken, a.cups)).titularDesde).toBe(hoy);
    const pedida = await enviada(nuevaSesion.jwtToken, { cups: a.cups, ...POTENCIA });
    expect(pedida.estado).toBe('enviada');
  });

  it('keeps -distribucion with the old holder while they hold another supply point there', async () => {
    const a = await titular('epd');
    await guardarSuministros(server.database.db, [puntoNuevo(a.u.nif, 'epd')]);
    const { token } = await administrador('epd');
    const s = await enviada(a.token, { cups: a.cups, tipo: 'titular', modo: 'cambio', nif: nuevoDni(), nombre: 'Nueva Titular' });
    await accion(token, s.numero, 'aceptacion');
    await accion(token, s.numero, 'activacion', { fecha: hoy });
    expect((await llamar(server, 'GET', `/api/suministros/${a.cups}`, { token: a.token })).status).toBe(404);
    expect((await sesion(server, a.u.email)).Permisos).toContain('epd-distribucion');
  });

  /** Sends `body` for the holder `a` and has an administrator of ECD accept and activate it today. */
  async function activada(a: { token: string; cups: string }, body: Record<string, unknown>) {
    const { token } = await administrador('ecd');
    const s = await enviada(a.token, { cups: a.cups, ...body });
    await accion(token, s.numero, 'aceptacion');
    await accion(token, s.numero, 'activacion', { fecha: hoy });
  }

  it('changes the tariff and the powers together', async () => {
    const a = await titular('ecd', { tensionV: 400, fasesContador: 'trifasico', potenciasW: [13856, 13856], potenciaMaximaW: 43648 });
    await activada(a, { tipo: 'tarifa', tarifa: '3.0TD', potenciasKw: [13.856, 13.856, 13.856, 13.856, 13.856, 17.321] });
    expect(await suministro(a.token, a.cups)).toMatchObject({
      tarifa: '3.0TD',
      potenciasKw: [13.856, 13.856, 13.856, 13.856, 13.856, 17.321],
    });
  });

  it('corrects the holder name', async () => {
    const b = await titular('ecd');
    await activada(b, CORRECCION);
    expect(((await suministro(b.token, b.cups)) as { titular: { nombre: string } }).titular.nombre).toBe('Lucía Martín Ortega');
  });

  it('refuses to accept a request the supply point no longer allows (409 naming the reason)', async () => {
    const a = await titular('epd');
    const { token } = await administrador('epd');
    const s = await enviada(a.token, { cups: a.cups, tipo: 'potencia', potenciasKw: [9.2, 9.2] });
    // An import lowers the installation's maximum meanwhile.
    await guardarSuministros(server.database.db, [suministroPrueba(a.cups, 'epd', a.u.nif, { potenciaMaximaW: 6900 })]);
    const res = await accion(token, s.numero, 'aceptacion');
    expect(res.status).toBe(409);
    expect(((await res.json()) as { message: string }).message).toMatch(
      new RegExp(`^La solicitud ${s.referencia} ya no cumple las reglas del contrato: 14 · `),
    );
  });
});

describe('rate limit', () => {
  /** An ECD holder who has sent (and cancelled) 5 requests within the hour. */
  async function sinMasSolicitudes() {
    const a = await titular('ecd');
    for (let i = 0; i < 5; i++) {
      const s = await enviada(a.token, { cups: a.cups, ...POTENCIA });
      expect((await anular(a.token, s.numero)).status).toBe(200);
    }
    return a;
  }

  it('answers 429 with Retry-After to a 6th request of one account within the hour', async () => {
    const a = await sinMasSolicitudes();
    const res = await pedir(a.token, { cups: a.cups, ...POTENCIA });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await res.json()) as { message: string }).message).toMatch(/^Ha realizado demasiados intentos/);
  });

  it('counts the requests of each account apart', async () => {
    await sinMasSolicitudes();
    const b = await titular('ecd');
    await enviada(b.token, { cups: b.cups, ...POTENCIA });
  });

  it('does not count requests the rules refuse', async () => {
    const a = await titular('ecd');
    for (let i = 0; i < 6; i++) expect((await pedir(a.token, { cups: a.cups, tipo: 'potencia', potenciasKw: [5, 5] })).status).toBe(400);
    await enviada(a.token, { cups: a.cups, ...POTENCIA });
  });
});

describe('impersonated holders', () => {
  it('may send a request, which records that an administrator acted for the holder', async () => {
    const a = await titular('epd');
    const jefe = await cuenta(server, { extra: ['epd-administrador'], prefijo: 'soporte' });
    const propia = await sesion(server, jefe.email);
    const imp = await llamar(server, 'POST', '/api/accesoUsuarioSuplantacion', { token: propia.jwtToken, body: { username: a.u.email } });
    const suplantada = (await imp.json()) as CuerpoSesion;
    const s = await enviada(suplantada.jwtToken, { cups: a.cups, ...POTENCIA });
    const gestor = await administrador('epd');
    const visto = (await (
      await llamar(server, 'GET', `/api/administrador/modificaciones/${s.numero}`, { token: gestor.token })
    ).json()) as SolicitudAdminApi;
    expect(visto).toMatchObject({ suplantada: true, solicitante: { email: a.u.email } });
  });
});
