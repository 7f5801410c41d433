/**
 * Access and connection requests through HTTP (RD 1183/2020; docs/decisions/017): drafts and
 * filing with everything missing listed, each side's actions and their rules, the business-day
 * deadlines across weekends and holidays with the injected clock, admission by silence and
 * inadmission by the scheduled jobs, ownership (404) and distributor scope for staff, mails and
 * audit entries.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SolicitudDetalle, SolicitudResumen } from '../../src/lib/accesoyconexion/respuestas.ts';
import { vencerPlazosAcceso } from '../../src/server/accesoyconexion/service.ts';
import { expedientes } from '../../src/server/db/schema.ts';
import { datosCompletos, subirPdf } from '../support/accesoyconexion.ts';
import { auditadas, cuenta, enviarCorreos, llamar, sesion, type CuentaPrueba } from '../support/privado.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
let promotor: CuentaPrueba;
let tokenPromotor: string;
let tokenOtro: string;
let gestorEcd: CuentaPrueba;
let tokenEcd: string;
let tokenEpd: string;

/** Monday 2 November 2026, 10:00 in Madrid. */
const LUNES = new Date('2026-11-02T09:00:00Z');

beforeAll(async () => {
  server = await startTestServer();
  const otro = await cuenta(server, { prefijo: 'otro' });
  gestorEcd = await cuenta(server, { prefijo: 'gestor-ecd', extra: ['ecd-administrador'] });
  const gestorEpd = await cuenta(server, { prefijo: 'gestor-epd', extra: ['epd-administrador'] });
  tokenOtro = (await sesion(server, otro.email)).jwtToken;
  tokenEcd = (await sesion(server, gestorEcd.email)).jwtToken;
  tokenEpd = (await sesion(server, gestorEpd.email)).jwtToken;
});
afterAll(async () => {
  await server.close();
});
beforeEach(async () => {
  server.clock.current = new Date(LUNES);
  // A developer of its own for each test: the clock stands still, and each account's steps are rate limited per hour.
  promotor = await cuenta(server, { prefijo: 'promotor', empresa: true });
  tokenPromotor = (await sesion(server, promotor.email)).jwtToken;
});

const solicitante = (metodo: string, ruta: string, body?: unknown, token = tokenPromotor) =>
  llamar(server, metodo, `/api/accesoyconexion/solicitudes${ruta}`, { token, body });
const gestion = (metodo: string, ruta: string, body?: unknown, token = tokenEcd) =>
  llamar(server, metodo, `/api/administrador/accesoyconexion${ruta}`, { token, body });

/** A draft at ECD (which publishes no nodal capacity: the node is optional). */
async function borrador(): Promise<SolicitudDetalle> {
  const res = await solicitante('POST', '', { distribuidora: 'ecd' });
  expect(res.status).toBe(201);
  return (await res.json()) as SolicitudDetalle;
}

/** A complete request filed at ECD today; answers its detail. */
async function presentada(cambios: Parameters<typeof datosCompletos>[0] = {}): Promise<SolicitudDetalle> {
  const b = await borrador();
  expect((await solicitante('PUT', `/${b.id}`, datosCompletos(cambios))).status).toBe(200);
  for (const clase of ['memoria', 'planos']) expect((await subirPdf(server, tokenPromotor, b.id, clase)).status).toBe(201);
  const res = await solicitante('POST', `/${b.id}/presentar`, {});
  expect(res.status).toBe(200);
  return (await res.json()) as SolicitudDetalle;
}

/** Moves the clock to a later moment and answers fresh sessions of the developer and ECD's staff (the old ones expired). */
async function moverReloj(iso: string): Promise<{ promotor: string; ecd: string }> {
  server.clock.current = new Date(iso);
  return { promotor: (await sesion(server, promotor.email)).jwtToken, ecd: (await sesion(server, gestorEcd.email)).jwtToken };
}

/** Takes a staff action on a request; answers the response. */
const tramitar = (id: string, accion: string, body: unknown = {}, token = tokenEcd) => gestion('POST', `/${id}/${accion}`, body, token);

describe('borrador y presentación', () => {
  it('un borrador nuevo lista todo lo que falta para presentar', async () => {
    const b = await borrador();
    expect(b.paso).toBe('borrador');
    expect(b.faltan.map((f) => f.campo)).toEqual(
      expect.arrayContaining(['tipo', 'potenciaKw', 'referenciaCatastral', 'memoria', 'planos']),
    );
  });

  it('el borrador guarda los datos tal como están, aunque falten', async () => {
    const b = await borrador();
    const res = await solicitante('PUT', `/${b.id}`, { tipo: 'demanda', potenciaKw: 250 });
    expect(((await res.json()) as SolicitudDetalle).datos).toEqual({ tipo: 'demanda', potenciaKw: 250 });
  });

  it('presentar con datos que faltan responde 422 con cada uno y la solicitud sigue en borrador', async () => {
    const b = await borrador();
    await solicitante('PUT', `/${b.id}`, datosCompletos({ referenciaCatastral: '123' }));
    const res = await solicitante('POST', `/${b.id}/presentar`, {});
    expect(res.status).toBe(422);
    const cuerpo = (await res.json()) as { faltan: { campo: string }[] };
    expect(cuerpo.faltan.map((f) => f.campo)).toEqual(['referenciaCatastral', 'memoria', 'planos']);
  });

  it('la generación pide el resguardo de la garantía y el autoconsumo de 50 kW no', async () => {
    const b = await borrador();
    await solicitante('PUT', `/${b.id}`, datosCompletos({ tipo: 'generacion' }));
    const gen = (await (await solicitante('GET', `/${b.id}`)).json()) as SolicitudDetalle;
    await solicitante('PUT', `/${b.id}`, datosCompletos());
    const auto = (await (await solicitante('GET', `/${b.id}`)).json()) as SolicitudDetalle;
    expect([gen.necesitaGarantia, gen.faltan.some((f) => f.campo === 'garantia')]).toEqual([true, true]);
    expect([auto.necesitaGarantia, auto.faltan.some((f) => f.campo === 'garantia')]).toEqual([false, false]);
  });

  it('presentada, le toca a la distribuidora con 20 días hábiles desde el día siguiente', async () => {
    const p = await presentada();
    // Monday 2 November 2026 is a holiday in the Comunidad de Madrid, where the installation is (Getafe):
    // the filing counts from Tuesday 3 (Ley 39/2015 arts. 30.6 and 31.2.b), and 20 business days end on Tuesday 1 December.
    expect([p.paso, p.turno, p.vence]).toEqual(['presentada', 'distribuidora', '2026-12-01']);
  });

  it('presentar adjunta los documentos pendientes al paso', async () => {
    const p = await presentada();
    expect(p.documentos.map((d) => [d.clase, d.pendiente])).toEqual([
      ['memoria', false],
      ['planos', false],
    ]);
  });

  it('presentar avisa por correo a quien administra la distribuidora', async () => {
    const p = await presentada();
    await enviarCorreos(server);
    const correo = server.mailer.sent.filter((m) => m.to === gestorEcd.email).at(-1);
    expect(correo?.subject).toBe(`${p.referencia}: Se ha presentado una solicitud de acceso y conexión`);
  });

  it('una solicitud presentada ya no se puede cambiar ni borrar', async () => {
    const p = await presentada();
    expect((await solicitante('PUT', `/${p.id}`, datosCompletos())).status).toBe(409);
    expect((await solicitante('DELETE', `/${p.id}`)).status).toBe(409);
  });

  it('un borrador se puede borrar', async () => {
    const b = await borrador();
    expect((await solicitante('DELETE', `/${b.id}`)).status).toBe(204);
    expect((await solicitante('GET', `/${b.id}`)).status).toBe(404);
  });

  it('la lista del solicitante muestra sus solicitudes con el paso y el plazo', async () => {
    const p = await presentada();
    const lista = (await (await solicitante('GET', '')).json()) as SolicitudResumen[];
    expect(lista.find((s) => s.id === p.id)).toMatchObject({ referencia: p.referencia, pasoNombre: 'Recibida', vence: '2026-12-01' });
  });
});

describe('quién ve una solicitud', () => {
  it.each([
    ['otra cuenta', () => tokenOtro, 'solicitante'],
    ['el gestor de otra distribuidora', () => tokenEpd, 'gestion'],
  ])('%s recibe 404', async (_quien, token, lado) => {
    const p = await presentada();
    const res =
      lado === 'solicitante'
        ? await solicitante('GET', `/${p.id}`, undefined, token())
        : await gestion('GET', `/${p.id}`, undefined, token());
    expect(res.status).toBe(404);
  });

  it('sin sesión, 401', async () => {
    const p = await presentada();
    expect((await llamar(server, 'GET', `/api/accesoyconexion/solicitudes/${p.id}`)).status).toBe(401);
  });

  it('el gestor no ve los borradores', async () => {
    const b = await borrador();
    expect((await gestion('GET', `/${b.id}`)).status).toBe(404);
  });

  it('el gestor de EPD no puede pedir la cola de ECD (403)', async () => {
    expect((await gestion('GET', '?distribuidora=ecd', undefined, tokenEpd)).status).toBe(403);
  });
});

describe('subsanación', () => {
  it('pedirla sin mensaje responde 422', async () => {
    const p = await presentada();
    expect((await tramitar(p.id, 'pedir_subsanacion', {})).status).toBe(422);
  });

  it('pedirla da al solicitante 20 días hábiles, saltando el 8 de diciembre', async () => {
    const p = await presentada();
    const t = await moverReloj('2026-11-20T09:00:00Z');
    const d = (await (
      await tramitar(p.id, 'pedir_subsanacion', { mensaje: 'Falta el plano de la cubierta.' }, t.ecd)
    ).json()) as SolicitudDetalle;
    // Friday 20 November + 20 business days, with Monday 7 (Madrid and Cantabria) and Tuesday 8 December
    // holidays: Tuesday 22 December.
    expect([d.paso, d.turno, d.vence]).toEqual(['subsanacion', 'solicitante', '2026-12-22']);
  });

  it('el solicitante recibe el mensaje por correo', async () => {
    const p = await presentada();
    await tramitar(p.id, 'pedir_subsanacion', { mensaje: 'Falta el plano de la cubierta.' });
    await enviarCorreos(server);
    const correo = server.mailer.sent.filter((m) => m.to === promotor.email).at(-1);
    expect(correo?.text).toContain('Falta el plano de la cubierta.');
  });

  it('responder sin mensaje responde 422', async () => {
    const p = await presentada();
    await tramitar(p.id, 'pedir_subsanacion', { mensaje: 'Falta el plano.' });
    expect((await solicitante('POST', `/${p.id}/responder_subsanacion`, {})).status).toBe(422);
  });

  it('responder con mensaje y documento devuelve el turno a la distribuidora', async () => {
    const p = await presentada();
    await tramitar(p.id, 'pedir_subsanacion', { mensaje: 'Falta el plano.' });
    await subirPdf(server, tokenPromotor, p.id, 'subsanacion', 'plano-cubierta.pdf');
    const d = (await (
      await solicitante('POST', `/${p.id}/responder_subsanacion`, { mensaje: 'Adjunto el plano.' })
    ).json()) as SolicitudDetalle;
    expect([d.paso, d.turno, d.documentos.at(-1)?.pendiente]).toEqual(['subsanada', 'distribuidora', false]);
  });

  it('no se puede pedir una tercera subsanación (409)', async () => {
    const p = await presentada();
    for (let i = 0; i < 2; i++) {
      await tramitar(p.id, 'pedir_subsanacion', { mensaje: `Falta algo ${i}.` });
      await solicitante('POST', `/${p.id}/responder_subsanacion`, { mensaje: 'Hecho.' });
    }
    expect((await tramitar(p.id, 'pedir_subsanacion', { mensaje: 'Otra vez.' })).status).toBe(409);
  });

  it('sin respuesta en plazo, las tareas programadas la inadmiten', async () => {
    const p = await presentada();
    await tramitar(p.id, 'pedir_subsanacion', { mensaje: 'Falta el plano.' });
    const t = await moverReloj('2026-12-02T09:00:00Z');
    await vencerPlazosAcceso({ db: server.database.db, clock: server.clock, publicUrl: null });
    const d = (await (await solicitante('GET', `/${p.id}`, undefined, t.promotor)).json()) as SolicitudDetalle;
    expect([d.paso, d.turno, d.eventos.at(-1)?.accion]).toEqual(['inadmitida', null, 'inadmitir_plazo']);
  });
});

describe('admisión', () => {
  it('si la distribuidora calla 20 días hábiles, queda admitida por silencio', async () => {
    const p = await presentada();
    const t = await moverReloj('2026-12-02T09:00:00Z');
    await vencerPlazosAcceso({ db: server.database.db, clock: server.clock, publicUrl: null });
    const d = (await (await solicitante('GET', `/${p.id}`, undefined, t.promotor)).json()) as SolicitudDetalle;
    expect([d.paso, d.eventos.at(-1)?.lado, d.eventos.at(-1)?.accion]).toEqual(['admitida', 'sistema', 'admitir_silencio']);
  });

  it('el último día del plazo aún no se admite por silencio', async () => {
    const p = await presentada();
    const t = await moverReloj('2026-12-01T20:00:00Z');
    await vencerPlazosAcceso({ db: server.database.db, clock: server.clock, publicUrl: null });
    expect(((await (await solicitante('GET', `/${p.id}`, undefined, t.promotor)).json()) as SolicitudDetalle).paso).toBe('presentada');
  });

  it('las tareas programadas no admiten por silencio tras un festivo regional: el 7-12-2026 no cuenta en Madrid ni Cantabria', async () => {
    // Filed Monday 9 November: with the national calendar only, 20 business days would end on Monday 7 December
    // and the job would admit it on the 8th. That Monday is a holiday in both regions and the 8th a national one,
    // so the last day is Wednesday 9 December.
    server.clock.current = new Date('2026-11-09T09:00:00Z');
    tokenPromotor = (await sesion(server, promotor.email)).jwtToken;
    const p = await presentada();
    expect(p.vence).toBe('2026-12-09');
    let t = await moverReloj('2026-12-08T09:00:00Z');
    await vencerPlazosAcceso({ db: server.database.db, clock: server.clock, publicUrl: null });
    expect(((await (await solicitante('GET', `/${p.id}`, undefined, t.promotor)).json()) as SolicitudDetalle).paso).toBe('presentada');
    t = await moverReloj('2026-12-09T20:00:00Z');
    await vencerPlazosAcceso({ db: server.database.db, clock: server.clock, publicUrl: null });
    expect(((await (await solicitante('GET', `/${p.id}`, undefined, t.promotor)).json()) as SolicitudDetalle).paso).toBe('presentada');
    t = await moverReloj('2026-12-10T09:00:00Z');
    await vencerPlazosAcceso({ db: server.database.db, clock: server.clock, publicUrl: null });
    expect(((await (await solicitante('GET', `/${p.id}`, undefined, t.promotor)).json()) as SolicitudDetalle).paso).toBe('admitida');
  });

  it('AC-2026-000001: presentada el sábado 28-11-2026 cuenta desde el lunes 30 (art. 31.2.b)', async () => {
    server.clock.current = new Date('2026-11-28T10:00:00Z');
    tokenPromotor = (await sesion(server, promotor.email)).jwtToken;
    const p = await presentada();
    // 20 business days from Tuesday 1 December, skipping 7 (Madrid, Cantabria), 8 and 25 December.
    expect(p.vence).toBe('2026-12-31');
  });

  it('pedir el informe a la red de transporte (frontera de 220 kV) suma los 60 días de REE', async () => {
    const p = await presentada({ tensionKv: 20, potenciaKw: 900, tipo: 'demanda' });
    await tramitar(p.id, 'admitir');
    const d = (await (await tramitar(p.id, 'pedir_informe', { tensionFronteraKv: 220 })).json()) as SolicitudDetalle;
    // 16 December 2026 + 60 business days (25 December, 1 and 6 January skipped): 15 March 2027.
    expect([d.vence, d.eventos.at(-1)?.datos]).toEqual(['2027-03-15', { tensionFronteraKv: 220, diasInforme: 60 }]);
  });

  it.each([
    [0.4, 10, 5, '2026-11-09'],
    [0.4, 50, 15, '2026-11-23'],
    // Madrid's and Cantabria's Monday 7 December is skipped too.
    [20, 900, 30, '2026-12-16'],
    [66, 20_000, 40, '2026-12-31'],
  ])('a %s kV y %s kW la propuesta previa vence en %i días hábiles (%s)', async (tensionKv, potenciaKw, _dias, vence) => {
    const p = await presentada({ tensionKv, potenciaKw, tipo: 'demanda' });
    const d = (await (await tramitar(p.id, 'admitir')).json()) as SolicitudDetalle;
    expect([d.paso, d.vence]).toEqual(['admitida', vence]);
  });

  it('pedir el informe aguas arriba suma su plazo al de la propuesta previa', async () => {
    const p = await presentada({ tensionKv: 20, potenciaKw: 900, tipo: 'demanda' });
    await tramitar(p.id, 'admitir');
    const d = (await (await tramitar(p.id, 'pedir_informe', { tensionFronteraKv: 66 })).json()) as SolicitudDetalle;
    // 16 December 2026 + 40 business days (25 December and 1 and 6 January skipped): 15 February 2027.
    expect(d.vence).toBe('2027-02-15');
  });

  it('el informe aguas arriba no se pide pasados 10 días hábiles de la admisión', async () => {
    const p = await presentada();
    await tramitar(p.id, 'admitir');
    const t = await moverReloj('2026-11-17T09:00:00Z');
    expect((await tramitar(p.id, 'pedir_informe', { tensionFronteraKv: 66 }, t.ecd)).status).toBe(409);
  });
});

describe('propuesta previa y permisos', () => {
  async function admitida() {
    const p = await presentada();
    await tramitar(p.id, 'admitir');
    return p;
  }
  const propuesta = { puntoConexion: 'CT Polígono Sur, celda 3', condicionesTecnicas: 'Línea subterránea de 40 m.', importeEuros: 4800 };

  it('enviarla sin el PDF de la propuesta responde 422', async () => {
    const p = await admitida();
    expect((await tramitar(p.id, 'enviar_propuesta', { propuesta })).status).toBe(422);
  });

  it('con el PDF, le toca al solicitante y ve las condiciones', async () => {
    const p = await admitida();
    await subirPdf(server, tokenEcd, p.id, 'propuesta_previa');
    await tramitar(p.id, 'enviar_propuesta', { propuesta });
    const d = (await (await solicitante('GET', `/${p.id}`)).json()) as SolicitudDetalle;
    expect([d.paso, d.turno, d.eventos.at(-1)?.datos]).toEqual(['propuesta', 'solicitante', { propuesta }]);
  });

  it('el solicitante no ve los documentos pendientes de la distribuidora', async () => {
    const p = await admitida();
    await subirPdf(server, tokenEcd, p.id, 'propuesta_previa');
    const d = (await (await solicitante('GET', `/${p.id}`)).json()) as SolicitudDetalle;
    expect(d.documentos.some((x) => x.clase === 'propuesta_previa')).toBe(false);
  });

  it('aceptada, la distribuidora tiene 20 días hábiles para los permisos, que cierran el expediente', async () => {
    const p = await admitida();
    await subirPdf(server, tokenEcd, p.id, 'propuesta_previa');
    await tramitar(p.id, 'enviar_propuesta', { propuesta });
    const aceptada = (await (await solicitante('POST', `/${p.id}/aceptar_propuesta`, {})).json()) as SolicitudDetalle;
    await subirPdf(server, tokenEcd, p.id, 'permisos');
    const final = (await (await tramitar(p.id, 'emitir_permisos')).json()) as SolicitudDetalle;
    // Accepted on Monday 2 November, a Madrid holiday: counted from Tuesday 3, as a filing (art. 31.2.b).
    expect([aceptada.vence, final.paso, final.turno, final.vence]).toEqual(['2026-12-01', 'permisos', null, null]);
  });

  it('denegar pide el motivo y un mensaje', async () => {
    const p = await admitida();
    expect((await tramitar(p.id, 'denegar', { mensaje: 'Sin capacidad.' })).status).toBe(422);
  });

  it('denegada, el expediente se cierra con el motivo', async () => {
    const p = await admitida();
    const d = (await (
      await tramitar(p.id, 'denegar', { motivo: 'capacidad', mensaje: 'El nudo no tiene capacidad.' })
    ).json()) as SolicitudDetalle;
    expect([d.paso, d.turno, d.eventos.at(-1)?.datos?.motivo]).toEqual(['denegada', null, 'capacidad']);
  });
});

describe('desistimiento, conflictos y auditoría', () => {
  it('desistir cierra la solicitud y ninguna acción vale ya (409)', async () => {
    const p = await presentada();
    expect(((await (await solicitante('POST', `/${p.id}/desistir`, {})).json()) as SolicitudDetalle).paso).toBe('desistida');
    expect((await tramitar(p.id, 'admitir')).status).toBe(409);
  });

  it('el solicitante no puede aceptar una propuesta que no existe (409)', async () => {
    const p = await presentada();
    expect((await solicitante('POST', `/${p.id}/aceptar_propuesta`, {})).status).toBe(409);
  });

  it('responde 429 al paso 21 de una cuenta en una hora (cada paso avisa por correo a la distribuidora)', async () => {
    for (let i = 0; i < 10; i++) {
      const p = await presentada();
      expect((await solicitante('POST', `/${p.id}/desistir`, {})).status).toBe(200);
    }
    const b = await borrador();
    const res = await solicitante('POST', `/${b.id}/presentar`, {});
    expect([res.status, Number(res.headers.get('retry-after')) > 0]).toEqual([429, true]);
  });

  it('un paso que las reglas rechazan no cuenta para el límite', async () => {
    const b = await borrador();
    for (let i = 0; i < 21; i++) expect((await solicitante('POST', `/${b.id}/presentar`, {})).status).toBe(422);
    expect((await presentada()).paso).toBe('presentada');
  });

  it('cada paso queda auditado con el expediente', async () => {
    const p = await presentada();
    await tramitar(p.id, 'admitir');
    expect((await auditadas(server, 'acceso.admitir', { objetivo: p.id })).length).toBe(1);
  });

  it('la cola pone primero las vencidas', async () => {
    await presentada();
    const vieja = await presentada();
    // Its deadline moved into the past without the jobs running: it comes first although filed last.
    await server.database.db.update(expedientes).set({ vence: '2026-10-30' }).where(eq(expedientes.id, vieja.id));
    const cola = (await (await gestion('GET', '?distribuidora=ecd')).json()) as SolicitudResumen[];
    expect([cola[0]?.id, cola[0]?.vencido]).toEqual([vieja.id, true]);
  });
});
