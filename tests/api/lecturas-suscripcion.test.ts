/**
 * Calendar subscription to the scheduled readings (decision 013) through HTTP: the address answers
 * the same calendar as the download, follows what the account holds when it is read, stops at once
 * when replaced or cancelled or when the account is deactivated; it is made only by the holder in
 * their own session, is audited, counts unknown addresses per IP, and never reaches the logs.
 */
import { eq } from 'drizzle-orm';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todosLosPermisos } from '../../src/lib/permisos.ts';
import { MENSAJE_SUPLANTADO } from '../../src/server/auth/middleware.ts';
import { auditLog, suscripcionesCalendario, users } from '../../src/server/db/schema.ts';
import { guardarSuministros, type SuministroEntrada } from '../../src/server/suministros/service.ts';
import { cuenta, llamar, sesion } from '../support/privado.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { puntoNuevo, titularConSuministros } from '../support/suministros.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const titularCon = (puntos: ((nif: string) => SuministroEntrada)[]) => titularConSuministros(server, puntos);

interface Nueva {
  url: string;
  webcal: string;
  creadaEn: string;
}

async function crear(token: string): Promise<Nueva> {
  const res = await llamar(server, 'POST', '/api/lecturasProgramadas/suscripcion', { token });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as Nueva;
}

/** Reads a subscription address as a calendar program would: no session, no cookie. */
const leer = (url: string, desde = '127.0.0.1') => server.fetchFrom(desde, new URL(url).pathname);

/** The events of a calendar: UID and summary. */
const eventos = (texto: string) =>
  new ICAL.Component(ICAL.parse(texto))
    .getAllSubcomponents('vevent')
    .map((v) => `${String(v.getFirstPropertyValue('uid'))} ${String(v.getFirstPropertyValue('summary'))}`);

describe('the subscription address', () => {
  it('answers without a session the same calendar as the download, for every supply point the holder has when it is read', async () => {
    const t = await titularCon([(n) => puntoNuevo(n, 'epd'), (n) => puntoNuevo(n, 'eod', { telegestionado: false })]);
    const sinSuscripcion = (await (await llamar(server, 'GET', '/api/lecturasProgramadas/suscripcion', { token: t.token })).json()) as {
      activa: boolean;
    };
    expect(sinSuscripcion).toEqual({ activa: false, creadaEn: null, usadaEn: null });

    const s = await crear(t.token);
    expect(s.url).toMatch(/^http:\/\/portal\.test\/api\/calendarioLecturas\/[A-Za-z0-9_-]{43}\.ics$/);
    expect(s.webcal).toBe(s.url.replace('http:', 'webcal:'));

    const res = await leer(s.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(res.headers.get('cache-control')).toContain('no-store');
    const texto = await res.text();
    const descarga = await (await llamar(server, 'GET', '/api/lecturasProgramadas.ics', { token: t.token })).text();
    expect(eventos(texto).length).toBeGreaterThan(0);
    expect(eventos(texto)).toEqual(eventos(descarga));
    for (const cups of t.cups) expect(texto).toContain(cups);

    // A supply point the holder gets later is in the next read, with no new address.
    const nuevo = puntoNuevo(t.u.nif, 'epd');
    await guardarSuministros(server.database.db, [nuevo]);
    expect(await (await leer(s.url)).text()).toContain(nuevo.cups);

    const estado = (await (await llamar(server, 'GET', '/api/lecturasProgramadas/suscripcion', { token: t.token })).json()) as {
      activa: boolean;
      creadaEn: string;
      usadaEn: string;
    };
    expect(estado.activa).toBe(true);
    expect(estado.creadaEn).toBe(s.creadaEn);
    expect(estado.usadaEn).not.toBeNull();
    // Only the token's hash is kept.
    const [fila] = await server.database.db.select().from(suscripcionesCalendario).where(eq(suscripcionesCalendario.userId, t.u.id));
    const token = /([A-Za-z0-9_-]{43})\.ics$/.exec(s.url)![1]!;
    expect(JSON.stringify(fila)).not.toContain(token);
  });

  it('stops working at once when replaced or cancelled, and while the account is not active', async () => {
    const t = await titularCon([(n) => puntoNuevo(n, 'epd')]);
    const primera = await crear(t.token);
    const segunda = await crear(t.token);
    expect(segunda.url).not.toBe(primera.url);
    const vieja = await leer(primera.url);
    expect(vieja.status).toBe(404);
    expect(((await vieja.json()) as { message: string }).message).toMatch(/no existe o se ha anulado/);
    expect((await leer(segunda.url)).status).toBe(200);

    await server.database.db.update(users).set({ estado: 'inactivo' }).where(eq(users.id, t.u.id));
    expect((await leer(segunda.url)).status).toBe(404);
    await server.database.db.update(users).set({ estado: 'activo' }).where(eq(users.id, t.u.id));
    expect((await leer(segunda.url)).status).toBe(200);

    expect((await llamar(server, 'DELETE', '/api/lecturasProgramadas/suscripcion', { token: t.token })).status).toBe(204);
    expect((await leer(segunda.url)).status).toBe(404);
    // Cancelling again is no error.
    expect((await llamar(server, 'DELETE', '/api/lecturasProgramadas/suscripcion', { token: t.token })).status).toBe(204);
    const acciones = await server.database.db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.actorUserId, t.u.id));
    expect(acciones.map((a) => a.action).filter((a) => a.startsWith('lecturas.suscripcion.'))).toEqual([
      'lecturas.suscripcion.creada',
      'lecturas.suscripcion.creada',
      'lecturas.suscripcion.anulada',
    ]);
  });

  it('is made only by a holder in their own session: 401 without one, 403 without supply points or impersonated', async () => {
    for (const metodo of ['GET', 'POST', 'DELETE'] as const)
      expect((await llamar(server, metodo, '/api/lecturasProgramadas/suscripcion')).status).toBe(401);
    const sin = await cuenta(server);
    const { jwtToken } = await sesion(server, sin.email);
    expect((await llamar(server, 'POST', '/api/lecturasProgramadas/suscripcion', { token: jwtToken })).status).toBe(403);

    const t = await titularCon([(n) => puntoNuevo(n, 'epd')]);
    const admin = await cuenta(server, { extra: todosLosPermisos(), prefijo: 'admin' });
    const adminToken = (await sesion(server, admin.email)).jwtToken;
    const suplantacion = await llamar(server, 'POST', '/api/accesoUsuarioSuplantacion', {
      token: adminToken,
      body: { username: t.u.email },
    });
    expect(suplantacion.status).toBe(200);
    const suplantado = ((await suplantacion.json()) as { jwtToken: string }).jwtToken;
    for (const metodo of ['POST', 'DELETE'] as const) {
      const res = await llamar(server, metodo, '/api/lecturasProgramadas/suscripcion', { token: suplantado });
      expect(res.status, metodo).toBe(403);
      expect(((await res.json()) as { message: string }).message).toBe(MENSAJE_SUPLANTADO);
    }
    const [fila] = await server.database.db.select().from(suscripcionesCalendario).where(eq(suscripcionesCalendario.userId, t.u.id));
    expect(fila).toBeUndefined();
  });

  it('counts unknown addresses per IP (20 in 15 minutes), even before looking up a real one', async () => {
    const t = await titularCon([(n) => puntoNuevo(n, 'epd')]);
    const s = await crear(t.token);
    const dir = '127.0.0.71';
    const falsa = (i: number) => `http://portal.test/api/calendarioLecturas/${String(i).padStart(43, 'x')}.ics`;
    for (let i = 0; i < 20; i++) expect((await leer(falsa(i), dir)).status).toBe(404);
    const limitada = await leer(falsa(99), dir);
    expect(limitada.status).toBe(429);
    expect(Number(limitada.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await leer(s.url, dir)).status).toBe(429);
    expect((await leer(s.url, '127.0.0.72')).status).toBe(200);
    // A real address read often (a calendar polling) never counts.
    for (let i = 0; i < 25; i++) expect((await leer(s.url, '127.0.0.73')).status).toBe(200);
    server.clock.advance(15 * 60_000);
    expect((await leer(s.url, dir)).status).toBe(200);
  });

  it('never writes the token to the logs', async () => {
    const t = await titularCon([(n) => puntoNuevo(n, 'epd')]);
    const s = await crear(t.token);
    expect((await leer(s.url)).status).toBe(200);
    const token = /([A-Za-z0-9_-]{43})\.ics$/.exec(s.url)![1]!;
    await new Promise((r) => setTimeout(r, 50));
    expect(server.logs.some((l) => l.path === '/api/calendarioLecturas/[redactado]')).toBe(true);
    expect(JSON.stringify(server.logs)).not.toContain(token);
  });
});
