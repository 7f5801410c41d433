/**
 * Contractual modifications through HTTP: ownership (404 for anyone else's supply point or
 * request), 401/403, each rule's 400 with its tabla 27 code, numbering, the transitions and their
 * 409s, the mail of each change, the administrator's permission per distributor and never through an
 * impersonated session, activation applying the change through the import code (powers, the holder's
 * -distribucion), the audit log and the rate limit.
 */
import { and, eq, sql } from 'drizzle-orm';
import { MENSAJES_MODIFICACIONES } from '../../src/server/modificaciones/service.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { construirCups } from '../../src/lib/cups.ts';
import type { Permiso } from '../../src/lib/permisos.ts';
import type { SolicitudAdminApi, SolicitudApi, ContextoApi } from '../../src/lib/modificaciones/tipos.ts';
import { MENSAJE_SUPLANTADO } from '../../src/server/auth/middleware.ts';
import { queryRows } from '../../src/server/db/client.ts';
import { auditLog, estadosContador } from '../../src/server/db/schema.ts';
import { guardarSuministros, type SuministroEntrada } from '../../src/server/suministros/service.ts';
import { cookieDe, cuenta, llamar, nuevoDni, sesion, ultimoCorreo, type CuentaPrueba, type CuerpoSesion } from '../support/privado.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { suministroPrueba } from '../support/suministros.ts';

let server: TestServer;
let seq = 0;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

type D = 'epd' | 'eod' | 'ecd';

/** A holder with one supply point (a 2.0TD single-phase home at 4,6 kW unless told otherwise) and a session. */
async function titular(d: D = 'epd', extra: Partial<SuministroEntrada> = {}): Promise<{ u: CuentaPrueba; token: string; cups: string }> {
  const u = await cuenta(server);
  const ree = { epd: '9901', eod: '9902', ecd: '9903' }[d];
  const cups = construirCups(ree, 500_000 + ++seq * 7 + Math.floor(Math.random() * 1e6) * 10);
  await guardarSuministros(server.database.db, [suministroPrueba(cups, d, u.nif, extra)]);
  const { jwtToken } = await sesion(server, u.email);
  return { u, token: jwtToken, cups };
}

/** An administrator of these distributors. */
async function administrador(...distribuidoras: D[]): Promise<{ a: CuentaPrueba; token: string }> {
  const a = await cuenta(server, { extra: distribuidoras.map((d) => `${d}-administrador` as Permiso), prefijo: 'gestor' });
  return { a, token: (await sesion(server, a.email)).jwtToken };
}

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

const hoy = '2026-11-02';

describe('who may ask', () => {
  it('answers 401 without a session and 403 to an account that holds no supply point', async () => {
    expect((await llamar(server, 'GET', '/api/modificaciones')).status).toBe(401);
    expect(
      (await llamar(server, 'POST', '/api/modificaciones', { body: { cups: 'x', tipo: 'potencia', potenciasKw: [5.75, 5.75] } })).status,
    ).toBe(401);
    const sin = await cuenta(server);
    const { jwtToken } = await sesion(server, sin.email);
    expect((await llamar(server, 'GET', '/api/modificaciones', { token: jwtToken })).status).toBe(403);
    expect((await pedir(jwtToken, { cups: construirCups('9901', 1), tipo: 'potencia', potenciasKw: [5.75, 5.75] })).status).toBe(403);
  });

  it("answers 404 for another holder's supply point and request, with none of their data", async () => {
    const a = await titular();
    const b = await titular();
    const ajeno = await pedir(a.token, { cups: b.cups, tipo: 'potencia', potenciasKw: [5.75, 5.75] });
    expect(ajeno.status).toBe(404);
    expect((await llamar(server, 'GET', `/api/modificaciones/suministros/${b.cups}`, { token: a.token })).status).toBe(404);
    const suya = await enviada(b.token, { cups: b.cups, tipo: 'potencia', potenciasKw: [5.75, 5.75] });
    for (const [metodo, ruta] of [
      ['GET', `/api/modificaciones/${suya.numero}`],
      ['GET', `/api/modificaciones/${suya.referencia}`],
      ['POST', `/api/modificaciones/${suya.numero}/anulacion`],
    ] as const) {
      const res = await llamar(server, metodo, ruta, { token: a.token });
      expect(res.status, ruta).toBe(404);
      expect(await res.text()).not.toContain(b.cups);
    }
    expect(await (await llamar(server, 'GET', '/api/modificaciones', { token: a.token })).json()).toEqual([]);
    expect((await llamar(server, 'GET', `/api/modificaciones/${suya.numero}/anulacion`, { token: b.token })).status).toBe(404);
    expect((await llamar(server, 'GET', '/api/modificaciones/MC-x', { token: b.token })).status).toBe(404);
  });

  it('tells the form what the rules need: the contract, the request in progress and today', async () => {
    const a = await titular('ecd');
    const contexto = (await (
      await llamar(server, 'GET', `/api/modificaciones/suministros/${a.cups}`, { token: a.token })
    ).json()) as ContextoApi;
    expect(contexto).toMatchObject({
      cups: a.cups,
      contrato: { tarifa: '2.0TD', potenciasKw: [4.6, 4.6], potenciaMaximaKw: 9.2, fases: 'monofasico', titular: { nif: a.u.nif } },
      enBaja: false,
      cortado: false,
      solicitudEnCurso: null,
      ultimoCambioPotencia: null,
      hoy,
    });
    const s = await enviada(a.token, { cups: a.cups, tipo: 'potencia', potenciasKw: [5.75, 5.75] });
    const despues = (await (
      await llamar(server, 'GET', `/api/modificaciones/suministros/${a.cups}`, { token: a.token })
    ).json()) as ContextoApi;
    expect(despues.solicitudEnCurso).toEqual({ numero: s.numero, referencia: s.referencia });
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

  it('refuses a power that is not normalised (48) and one above the installation (14)', async () => {
    const a = await titular();
    await espera400(a.token, { cups: a.cups, tipo: 'potencia', potenciasKw: [5, 5.75] }, [
      /^48 · Potencias no normalizadas en suministro monofásico: 5 kW en P1 /,
    ]);
    await espera400(a.token, { cups: a.cups, tipo: 'potencia', potenciasKw: [10.35, 10.35] }, [
      /^14 · Potencia solicitada mayor que la potencia máxima autorizada en baja tensión: P1 pide 10,35 kW/,
      /^14 · .*P2 pide 10,35 kW/,
    ]);
  });

  it('refuses three-phase values that are not normalised (47), single-phase past 14,49 kW (49) and a high-voltage maximum (A9)', async () => {
    const tri = await titular('epd', { tensionV: 400, fasesContador: 'trifasico', potenciasW: [6928, 6928], potenciaMaximaW: 13856 });
    await espera400(tri.token, { cups: tri.cups, tipo: 'potencia', potenciasKw: [7, 6.928] }, [
      /^47 · Potencias no normalizadas en suministro trifásico: 7 kW en P1 /,
    ]);
    const mono = await titular('epd', { potenciaMaximaW: 20000 });
    await espera400(mono.token, { cups: mono.cups, tipo: 'potencia', potenciasKw: [14.49, 15] }, [
      /^49 · Necesario cambio de tensión monofásica a trifásica/,
    ]);
    const at = await titular('eod', {
      tarifa: '6.1TD',
      potenciasW: [88000, 88000, 88000, 88000, 88000, 100000],
      potenciaMaximaW: 250000,
      tensionV: 20000,
      fasesContador: 'trifasico',
      modoControlPotencia: 'maximetro',
    });
    await espera400(at.token, { cups: at.cups, tipo: 'potencia', potenciasKw: [88, 88, 88, 88, 88, 260] }, [
      /^A9 · Potencia solicitada mayor que la potencia máxima autorizada en alta tensión: P6 pide 260 kW/,
    ]);
  });

  it('refuses a decreasing six-period sequence (15) and a 3.0TD with no period above 15 kW (52)', async () => {
    const a = await titular('eod', {
      tarifa: '3.0TD',
      potenciasW: [20000, 20000, 25000, 25000, 25000, 40000],
      potenciaMaximaW: 55000,
      tensionV: 400,
      fasesContador: 'trifasico',
      modoControlPotencia: 'maximetro',
    });
    await espera400(a.token, { cups: a.cups, tipo: 'potencia', potenciasKw: [20, 25, 22, 25, 25, 40] }, [
      '15 · Secuencia de potencias incorrecta (Pi > Pi+1): en la tarifa 3.0TD cada periodo debe tener al menos la potencia del anterior, y P3 (22 kW) es menor que P2 (25 kW).',
    ]);
    await espera400(a.token, { cups: a.cups, tipo: 'potencia', potenciasKw: [10, 10, 10, 10, 10, 15] }, [
      /^52 · Tarifa no válida para las potencias solicitadas/,
    ]);
  });

  it('refuses a 6.xTD tariff in low voltage (17) and an invalid new holder NIF (36)', async () => {
    const a = await titular();
    await espera400(a.token, { cups: a.cups, tipo: 'tarifa', tarifa: '6.1TD', potenciasKw: [5.75, 5.75, 5.75, 5.75, 5.75, 5.75] }, [
      /^17 · Tarifa no válida para la tensión de suministro/,
    ]);
    await espera400(a.token, { cups: a.cups, tipo: 'titular', modo: 'cambio', nif: '12345678A', nombre: 'Pedro Gil' }, [
      /^36 · NIF-CIF erróneo: 12345678A/,
    ]);
  });

  it('refuses a second request while one is in progress (40), naming it', async () => {
    const a = await titular();
    const primera = await enviada(a.token, { cups: a.cups, tipo: 'potencia', potenciasKw: [5.75, 5.75] });
    await espera400(a.token, { cups: a.cups, tipo: 'titular', modo: 'correccion', nombre: 'Lucía Martín Ortega' }, [
      new RegExp(
        `^40 · Existencia de solicitud previa en curso \\(M1\\): la solicitud ${primera.referencia} de este suministro sigue en trámite`,
      ),
    ]);
  });

  it('refuses any request on a cut supply (12) and on an ended contract (72)', async () => {
    const a = await titular();
    const [s] = await queryRows<{ id: number }>(server.database.db, sql`select id from suministros where cups = ${a.cups}`);
    await server.database.db
      .insert(estadosContador)
      .values({ suministroId: s!.id, comunica: true, interruptor: 'abierto_remoto', estadoSuministro: 'cortado', origen: 'administrador' });
    await espera400(a.token, { cups: a.cups, tipo: 'potencia', potenciasKw: [5.75, 5.75] }, [
      /^12 · Contrato cortado: el suministro está cortado/,
    ]);
    // An ended contract is still shown to a holder who keeps another supply point in force there.
    const b = await titular('eod');
    const terminado = construirCups('9902', 770_000 + ++seq);
    await guardarSuministros(server.database.db, [suministroPrueba(terminado, 'eod', b.u.nif, { fechaBaja: '2026-10-01' })]);
    await espera400(b.token, { cups: terminado, tipo: 'potencia', potenciasKw: [5.75, 5.75] }, [/^72 · Contrato en baja/]);
  });

  it('refuses a second power change within 12 months of the last one (65)', async () => {
    const a = await titular('ecd', { fechaUltimoCambioPotencia: '2026-03-04' });
    await espera400(a.token, { cups: a.cups, tipo: 'potencia', potenciasKw: [5.75, 5.75] }, [
      '65 · Más de una modificación de potencia en menos de 12 meses: la potencia de este suministro cambió el 4 de marzo de 2026; podrá pedir otro cambio de potencia a partir del 4 de marzo de 2027.',
    ]);
  });

  it('answers malformed bodies with Spanish messages', async () => {
    const a = await titular();
    await espera400(a.token, { cups: a.cups, tipo: 'nada' }, ['Indique qué quiere modificar: potencia, tarifa o titular.']);
    await espera400(a.token, { cups: a.cups, tipo: 'potencia', potenciasKw: ['5'] }, ['Cada potencia debe ser un número de kW.']);
    await espera400(a.token, { cups: a.cups, tipo: 'potencia', potenciasKw: [5.7501, 5.75] }, [/^P1: escriba la potencia en kW/]);
  });
});

describe('numbers and the timeline', () => {
  it('numbers requests one after another and shows them as MC and six digits, newest first', async () => {
    const a = await titular();
    const b = await titular();
    const s1 = await enviada(a.token, { cups: a.cups, tipo: 'potencia', potenciasKw: [5.75, 5.75] });
    const s2 = await enviada(b.token, { cups: b.cups, tipo: 'titular', modo: 'correccion', nombre: 'Lucía Martín Ortega' });
    expect(s2.numero).toBe(s1.numero + 1);
    expect(s1.referencia).toBe(`MC-${String(s1.numero).padStart(6, '0')}`);
    expect(s1).toMatchObject({
      tipo: 'potencia',
      estado: 'enviada',
      cups: a.cups,
      anterior: { tarifa: '2.0TD', potenciasKw: [4.6, 4.6], titular: { nif: a.u.nif } },
      solicitado: { tipo: 'potencia', potenciasKw: [5.75, 5.75] },
      motivoRechazo: null,
      fechaActivacion: null,
      eventos: [{ estado: 'enviada', nota: null }],
    });
    const lista = (await (await llamar(server, 'GET', '/api/modificaciones', { token: a.token })).json()) as SolicitudApi[];
    expect(lista.map((x) => x.referencia)).toEqual([s1.referencia]);
    expect(
      ((await (await llamar(server, 'GET', `/api/modificaciones/${s1.referencia}`, { token: a.token })).json()) as SolicitudApi).numero,
    ).toBe(s1.numero);
  });

  it('lets the holder cancel a request still enviada, and mails it', async () => {
    const a = await titular();
    const s = await enviada(a.token, { cups: a.cups, tipo: 'potencia', potenciasKw: [5.75, 5.75] });
    expect((await ultimoCorreo(server, a.u.email))?.subject).toBe(`Hemos recibido su solicitud ${s.referencia}`);
    const res = await llamar(server, 'POST', `/api/modificaciones/${s.numero}/anulacion`, { token: a.token });
    expect(res.status).toBe(200);
    expect(((await res.json()) as SolicitudApi).eventos.map((e) => e.estado)).toEqual(['enviada', 'anulada']);
    const correo = await ultimoCorreo(server, a.u.email);
    expect(correo?.subject).toBe(`Su solicitud ${s.referencia} ha sido anulada`);
    expect(correo?.text).toContain(`http://portal.test/modificacionesContractuales/modificaciones-contractuales/${s.referencia}`);
    const otra = await llamar(server, 'POST', `/api/modificaciones/${s.numero}/anulacion`, { token: a.token });
    expect(otra.status).toBe(409);
    expect(await otra.json()).toEqual({ message: `La solicitud ${s.referencia} está anulada: ya no se puede anular.` });
    // Cancelled, it no longer blocks a new request.
    await enviada(a.token, { cups: a.cups, tipo: 'potencia', potenciasKw: [3.45, 3.45] });
  });
});

describe('administration', () => {
  it('accepts and activates a power change: the holder is mailed at each step and the supply point changes', async () => {
    const a = await titular('eod');
    const { token } = await administrador('eod');
    const s = await enviada(a.token, { cups: a.cups, tipo: 'potencia', potenciasKw: [5.75, 5.75] });

    const aceptada = await accion(token, s.numero, 'aceptacion');
    expect(aceptada.status).toBe(200);
    expect(((await aceptada.json()) as SolicitudAdminApi).estado).toBe('aceptada');
    expect((await ultimoCorreo(server, a.u.email))?.subject).toBe(`Su solicitud ${s.referencia} ha sido aceptada`);
    const tarde = await llamar(server, 'POST', `/api/modificaciones/${s.numero}/anulacion`, { token: a.token });
    expect(tarde.status).toBe(409);
    expect(((await tarde.json()) as { message: string }).message).toMatch(/^42 · No es posible la anulación/);

    const activada = await accion(token, s.numero, 'activacion', { fecha: hoy });
    expect(activada.status).toBe(200);
    const cuerpo = (await activada.json()) as SolicitudAdminApi;
    expect(cuerpo).toMatchObject({ estado: 'activada', fechaActivacion: hoy, solicitante: { email: a.u.email }, suplantada: false });
    expect(cuerpo.eventos.map((e) => [e.estado, e.nota])).toEqual([
      ['enviada', null],
      ['aceptada', null],
      ['activada', 'Activada con fecha 2 de noviembre de 2026'],
    ]);
    const correo = await ultimoCorreo(server, a.u.email);
    expect(correo?.subject).toBe(`Su solicitud ${s.referencia} está activada`);
    expect(correo?.text).toContain('Potencia: de 4,6 kW a 5,75 kW.');
    expect(correo?.text).toContain('desde el 2 de noviembre de 2026');

    const suministro = (await (await llamar(server, 'GET', `/api/suministros/${a.cups}`, { token: a.token })).json()) as {
      potenciasKw: number[];
    };
    expect(suministro.potenciasKw).toEqual([5.75, 5.75]);
    const [fila] = await queryRows<{ f: string }>(
      server.database.db,
      sql`select fecha_ultimo_cambio_potencia::text as f from suministros where cups = ${a.cups}`,
    );
    expect(fila?.f).toBe(hoy);
    // The change counts against the 12 months at once.
    const otra = await pedir(a.token, { cups: a.cups, tipo: 'potencia', potenciasKw: [6.9, 6.9] });
    expect(otra.status).toBe(400);
    expect(((await otra.json()) as string[])[0]).toMatch(/^65 · /);
  });

  it('rejects with a tabla 27 reason that applies, mailing it, and refuses one that does not', async () => {
    const a = await titular('ecd');
    const { token } = await administrador('ecd');
    const s = await enviada(a.token, { cups: a.cups, tipo: 'potencia', potenciasKw: [5.75, 5.75] });
    const mal = await accion(token, s.numero, 'rechazo', { codigo: '36' });
    expect(mal.status).toBe(400);
    expect(await mal.json()).toEqual(['Elija un motivo de rechazo de la lista: ese código no se aplica a esta solicitud.']);
    const res = await accion(token, s.numero, 'rechazo', { codigo: '53' });
    expect(res.status).toBe(200);
    expect(((await res.json()) as SolicitudAdminApi).motivoRechazo).toEqual({
      codigo: '53',
      texto: 'Necesidad de abrir expediente de acometida',
    });
    const correo = await ultimoCorreo(server, a.u.email);
    expect(correo?.subject).toBe(`Su solicitud ${s.referencia} ha sido rechazada`);
    expect(correo?.text).toContain('53 · Necesidad de abrir expediente de acometida');
    const visto = (await (await llamar(server, 'GET', `/api/modificaciones/${s.numero}`, { token: a.token })).json()) as SolicitudApi;
    expect(visto.eventos.at(-1)).toMatchObject({ estado: 'rechazada', nota: 'Motivo: 53 · Necesidad de abrir expediente de acometida' });
  });

  it('answers 409 to moves the state does not allow', async () => {
    const a = await titular('epd');
    const { token } = await administrador('epd');
    const s = await enviada(a.token, { cups: a.cups, tipo: 'potencia', potenciasKw: [5.75, 5.75] });
    const pronto = await accion(token, s.numero, 'activacion', { fecha: hoy });
    expect(pronto.status).toBe(409);
    expect(await pronto.json()).toEqual({ message: `La solicitud ${s.referencia} está enviada: hay que aceptarla antes de activarla.` });
    expect((await accion(token, s.numero, 'rechazo', { codigo: '20' })).status).toBe(200);
    const tarde = await accion(token, s.numero, 'aceptacion');
    expect(tarde.status).toBe(409);
    expect(await tarde.json()).toEqual({
      message: `La solicitud ${s.referencia} está rechazada: solo se puede aceptar una solicitud enviada.`,
    });
    expect((await accion(token, s.numero, 'rechazo', { codigo: '20' })).status).toBe(409);
    expect((await accion(token, 999_999, 'aceptacion')).status).toBe(404);
  });

  it('refuses an activation date before the request or after today', async () => {
    const a = await titular('epd');
    const { token } = await administrador('epd');
    const s = await enviada(a.token, { cups: a.cups, tipo: 'potencia', potenciasKw: [5.75, 5.75] });
    await accion(token, s.numero, 'aceptacion');
    const antes = await accion(token, s.numero, 'activacion', { fecha: '2026-11-01' });
    expect(antes.status).toBe(400);
    expect(((await antes.json()) as string[])[0]).toMatch(/^46 · Fecha de la operación con carácter retroactivo/);
    expect((await accion(token, s.numero, 'activacion', { fecha: '2026-11-03' })).status).toBe(400);
    expect((await accion(token, s.numero, 'activacion', { fecha: '2026-13-01' })).status).toBe(400);
  });

  it("answers 404 to another distributor's administrator, so numbers reveal nothing, and 403 to an impersonated session", async () => {
    const a = await titular('eod');
    const s = await enviada(a.token, { cups: a.cups, tipo: 'potencia', potenciasKw: [5.75, 5.75] });
    const otro = await administrador('epd');
    for (const res of [
      await llamar(server, 'GET', `/api/administrador/modificaciones/${s.numero}`, { token: otro.token }),
      await accion(otro.token, s.numero, 'aceptacion'),
      await accion(otro.token, s.numero, 'rechazo', { codigo: '99' }),
      await accion(otro.token, s.numero, 'activacion', { fecha: hoy }),
    ]) {
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ message: MENSAJES_MODIFICACIONES.noExiste });
    }
    const lista = await llamar(server, 'GET', '/api/administrador/modificaciones?distribuidora=eod', { token: otro.token });
    expect(lista.status).toBe(403);
    const propias = (await (
      await llamar(server, 'GET', '/api/administrador/modificaciones', { token: otro.token })
    ).json()) as SolicitudAdminApi[];
    expect(propias.some((x) => x.numero === s.numero)).toBe(false);

    // An administrator of every distributor acting as the holder: the session is the holder's, and refused.
    const jefe = await cuenta(server, { extra: ['epd-administrador', 'eod-administrador', 'ecd-administrador'], prefijo: 'jefe' });
    const propia = await sesion(server, jefe.email);
    const imp = await llamar(server, 'POST', '/api/accesoUsuarioSuplantacion', { token: propia.jwtToken, body: { username: a.u.email } });
    expect(imp.status).toBe(200);
    const suplantada = (await imp.json()) as CuerpoSesion;
    expect(cookieDe(imp)).not.toBeNull();
    for (const res of [
      await llamar(server, 'GET', '/api/administrador/modificaciones', { token: suplantada.jwtToken }),
      await accion(suplantada.jwtToken, s.numero, 'aceptacion'),
    ]) {
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ message: MENSAJE_SUPLANTADO });
    }
    // The impersonated holder may still cancel their own request; the request says who acted.
    const anulada = await llamar(server, 'POST', `/api/modificaciones/${s.numero}/anulacion`, { token: suplantada.jwtToken });
    expect(anulada.status).toBe(200);
  });

  it('lists the requests of the distributors administered, filtered, with the total', async () => {
    const a = await titular('ecd');
    const { token } = await administrador('ecd');
    const s = await enviada(a.token, { cups: a.cups, tipo: 'titular', modo: 'correccion', nombre: 'Lucía Martín Ortega' });
    const res = await llamar(server, 'GET', `/api/administrador/modificaciones?q=${s.referencia}`, { token });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBe('1');
    const [fila] = (await res.json()) as SolicitudAdminApi[];
    expect(fila).toMatchObject({ numero: s.numero, tipo: 'titular', solicitante: { email: a.u.email }, distribuidora: 'ecd' });
    const porCups = (await (
      await llamar(server, 'GET', `/api/administrador/modificaciones?q=${a.cups.slice(0, 16)}&tipo=titular&estado=enviada`, { token })
    ).json()) as SolicitudAdminApi[];
    expect(porCups.map((x) => x.numero)).toContain(s.numero);
    const nada = await llamar(server, 'GET', `/api/administrador/modificaciones?q=${s.referencia}&estado=activada`, { token });
    expect(nada.headers.get('x-total-count')).toBe('0');
    expect((await llamar(server, 'GET', '/api/administrador/modificaciones?estado=cerrada', { token })).status).toBe(400);
  });

  it('writes each action to the audit log, with no holder data', async () => {
    const a = await titular('ecd');
    const { a: gestor, token } = await administrador('ecd');
    const s = await enviada(a.token, { cups: a.cups, tipo: 'potencia', potenciasKw: [5.75, 5.75] });
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
  it("moves the supply point and -distribucion to the new holder's account on a change of holder", async () => {
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
    expect(s.solicitado).toEqual({ tipo: 'titular', modo: 'cambio', titular: { nif: nuevo.nif, nombre: 'Pedro Gil Sanz' } });
    expect((await sesion(server, nuevo.email)).Permisos).not.toContain('eod-distribucion');
    await accion(token, s.numero, 'aceptacion');
    expect((await accion(token, s.numero, 'activacion', { fecha: hoy })).status).toBe(200);

    expect((await llamar(server, 'GET', `/api/suministros/${a.cups}`, { token: a.token })).status).toBe(403);
    const antiguo = await sesion(server, a.u.email);
    expect(antiguo.Permisos).not.toContain('eod-distribucion');
    const nuevaSesion = await sesion(server, nuevo.email);
    expect(nuevaSesion.Permisos).toContain('eod-distribucion');
    const visto = await llamar(server, 'GET', `/api/suministros/${a.cups}`, { token: nuevaSesion.jwtToken });
    expect(visto.status).toBe(200);
    expect(((await visto.json()) as { titular: { nif: string; nombre: string } }).titular).toEqual({
      nif: nuevo.nif,
      nombre: 'Pedro Gil Sanz',
    });
    // The new holder does not see the old holder's request; both were mailed.
    expect((await llamar(server, 'GET', `/api/modificaciones/${s.numero}`, { token: nuevaSesion.jwtToken })).status).toBe(404);
    expect((await ultimoCorreo(server, a.u.email))?.subject).toBe(`Su solicitud ${s.referencia} está activada`);
    expect((await ultimoCorreo(server, nuevo.email))?.subject).toBe(`Ya es titular del suministro ${a.cups}`);
  });

  it('lets a new holder change the power at once: the 12 months of reason 65 bind the holder who changed it', async () => {
    const a = await titular('eod', { fechaUltimoCambioPotencia: '2026-03-04' });
    const antes = await pedir(a.token, { cups: a.cups, tipo: 'potencia', potenciasKw: [5.75, 5.75] });
    expect(antes.status).toBe(400);
    expect(((await antes.json()) as string[])[0]).toMatch(/^65 · /);
    const nuevo = await cuenta(server, { nombre: 'Rosa', apellido1: 'Vidal' });
    const { token } = await administrador('eod');
    const s = await enviada(a.token, { cups: a.cups, tipo: 'titular', modo: 'cambio', nif: nuevo.nif, nombre: 'Rosa Vidal Pons' });
    await accion(token, s.numero, 'aceptacion');
    expect((await accion(token, s.numero, 'activacion', { fecha: hoy })).status).toBe(200);
    const nuevaSesion = await sesion(server, nuevo.email);
    const contexto = (await (
      await llamar(server, 'GET', `/api/modificaciones/suministros/${a.cups}`, { token: nuevaSesion.jwtToken })
    ).json()) as ContextoApi;
    expect(contexto.titularDesde).toBe(hoy);
    const pedida = await enviada(nuevaSesion.jwtToken, { cups: a.cups, tipo: 'potencia', potenciasKw: [5.75, 5.75] });
    expect(pedida.estado).toBe('enviada');
  });

  it('keeps -distribucion with the old holder while they hold another supply point there', async () => {
    const a = await titular('epd');
    await guardarSuministros(server.database.db, [suministroPrueba(construirCups('9901', 880_000 + ++seq), 'epd', a.u.nif)]);
    const { token } = await administrador('epd');
    const s = await enviada(a.token, { cups: a.cups, tipo: 'titular', modo: 'cambio', nif: nuevoDni(), nombre: 'Nueva Titular' });
    await accion(token, s.numero, 'aceptacion');
    await accion(token, s.numero, 'activacion', { fecha: hoy });
    expect((await llamar(server, 'GET', `/api/suministros/${a.cups}`, { token: a.token })).status).toBe(404);
    expect((await sesion(server, a.u.email)).Permisos).toContain('epd-distribucion');
  });

  it('changes the tariff and powers together, and corrects the holder name', async () => {
    const a = await titular('ecd', { tensionV: 400, fasesContador: 'trifasico', potenciasW: [13856, 13856], potenciaMaximaW: 43648 });
    const { token } = await administrador('ecd');
    const s = await enviada(a.token, {
      cups: a.cups,
      tipo: 'tarifa',
      tarifa: '3.0TD',
      potenciasKw: [13.856, 13.856, 13.856, 13.856, 13.856, 17.321],
    });
    await accion(token, s.numero, 'aceptacion');
    await accion(token, s.numero, 'activacion', { fecha: hoy });
    const tras = (await (await llamar(server, 'GET', `/api/suministros/${a.cups}`, { token: a.token })).json()) as {
      tarifa: string;
      potenciasKw: number[];
    };
    expect(tras).toMatchObject({ tarifa: '3.0TD', potenciasKw: [13.856, 13.856, 13.856, 13.856, 13.856, 17.321] });

    const b = await titular('ecd');
    const c = await enviada(b.token, { cups: b.cups, tipo: 'titular', modo: 'correccion', nombre: 'Lucía Martín Ortega' });
    await accion(token, c.numero, 'aceptacion');
    await accion(token, c.numero, 'activacion', { fecha: hoy });
    const corregido = (await (await llamar(server, 'GET', `/api/suministros/${b.cups}`, { token: b.token })).json()) as {
      titular: { nombre: string };
    };
    expect(corregido.titular.nombre).toBe('Lucía Martín Ortega');
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
  it('lets an account send 5 requests an hour and answers 429 with Retry-After after that', async () => {
    const a = await titular('ecd');
    for (let i = 0; i < 5; i++) {
      const s = await enviada(a.token, { cups: a.cups, tipo: 'potencia', potenciasKw: [5.75, 5.75] });
      expect((await llamar(server, 'POST', `/api/modificaciones/${s.numero}/anulacion`, { token: a.token })).status).toBe(200);
    }
    const res = await pedir(a.token, { cups: a.cups, tipo: 'potencia', potenciasKw: [5.75, 5.75] });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await res.json()) as { message: string }).message).toMatch(/^Ha realizado demasiados intentos/);
    // Another account is not affected.
    const b = await titular('ecd');
    await enviada(b.token, { cups: b.cups, tipo: 'potencia', potenciasKw: [5.75, 5.75] });
  });

  it('does not count requests the rules refuse', async () => {
    const a = await titular('ecd');
    for (let i = 0; i < 6; i++) expect((await pedir(a.token, { cups: a.cups, tipo: 'potencia', potenciasKw: [5, 5] })).status).toBe(400);
    await enviada(a.token, { cups: a.cups, tipo: 'potencia', potenciasKw: [5.75, 5.75] });
  });
});

describe('impersonated holders', () => {
  it('may send a request, which records that an administrator acted for the holder', async () => {
    const a = await titular('epd');
    const jefe = await cuenta(server, { extra: ['epd-administrador'], prefijo: 'soporte' });
    const propia = await sesion(server, jefe.email);
    const imp = await llamar(server, 'POST', '/api/accesoUsuarioSuplantacion', { token: propia.jwtToken, body: { username: a.u.email } });
    const suplantada = (await imp.json()) as CuerpoSesion;
    const s = await enviada(suplantada.jwtToken, { cups: a.cups, tipo: 'potencia', potenciasKw: [5.75, 5.75] });
    const gestor = await administrador('epd');
    const visto = (await (
      await llamar(server, 'GET', `/api/administrador/modificaciones/${s.numero}`, { token: gestor.token })
    ).json()) as SolicitudAdminApi;
    expect(visto).toMatchObject({ suplantada: true, solicitante: { email: a.u.email } });
  });
});
