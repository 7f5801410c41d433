/**
 * Calendar subscription to the scheduled readings (decision 013) through HTTP: the address answers
 * the same calendar as the download, follows what the account holds when it is read, stops at once
 * when replaced or cancelled or when the account is deactivated; it is made only by the holder in
 * their own session, is audited, counts unknown addresses per IP, and never reaches the logs.
 */
import { eq } from 'drizzle-orm';
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { MENSAJE_SUPLANTADO } from '../../src/server/auth/middleware.ts';
import { auditLog, suscripcionesCalendario, users } from '../../src/server/db/schema.ts';
import { guardarSuministros, type SuministroEntrada } from '../../src/server/suministros/service.ts';
import { unaVez } from '../support/ganchos.ts';
import { cuenta, GESTORA, llamar, sesion } from '../support/privado.ts';
import { servidorDelFichero } from '../support/server.ts';
import { guardasDeTitular, puntoNuevo, titularConSuministros } from '../support/suministros.ts';

const server = servidorDelFichero();

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

const SUSCRIPCION = '/api/lecturasProgramadas/suscripcion';
const anular = (token: string) => llamar(server, 'DELETE', SUSCRIPCION, { token });
/** The token in a subscription address. */
const tokenDe = (url: string) => /([A-Za-z0-9_-]{43})\.ics$/.exec(url)![1]!;

describe('the subscription address', () => {
  describe('of a holder of two supply points', () => {
    /** What the holder saw before and after subscribing, what the address answered, and what the database keeps. */
    const visto = unaVez(async () => {
      const t = await titularCon([(n) => puntoNuevo(n, 'epd'), (n) => puntoNuevo(n, 'eod', { telegestionado: false })]);
      const estadoActual = async () =>
        (await (await llamar(server, 'GET', SUSCRIPCION, { token: t.token })).json()) as Record<string, unknown>;
      const sinSuscripcion = await estadoActual();
      const s = await crear(t.token);
      const res = await leer(s.url);
      const texto = await res.text();
      const descarga = await (await llamar(server, 'GET', '/api/lecturasProgramadas.ics', { token: t.token })).text();
      // A supply point the holder gets later is in the next read, with no new address.
      const nuevo = puntoNuevo(t.u.nif, 'epd');
      await guardarSuministros(server.database.db, [nuevo]);
      const trasElNuevo = await (await leer(s.url)).text();
      const [fila] = await server.database.db.select().from(suscripcionesCalendario).where(eq(suscripcionesCalendario.userId, t.u.id));
      return { t, sinSuscripcion, s, res, texto, descarga, nuevo, trasElNuevo, estado: await estadoActual(), fila };
    });

    it('is none before the holder asks for one', () => {
      expect(visto.sinSuscripcion).toEqual({ activa: false, creadaEn: null, usadaEn: null });
    });

    it('is a secret address on PUBLIC_URL, also in its webcal form', () => {
      expect(visto.s.url).toMatch(/^http:\/\/portal\.test\/api\/calendarioLecturas\/[A-Za-z0-9_-]{43}\.ics$/);
      expect(visto.s.webcal).toBe(visto.s.url.replace('http:', 'webcal:'));
    });

    it('answers without a session a calendar that is never cached', () => {
      expect(visto.res.status).toBe(200);
      expect(visto.res.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
      expect(visto.res.headers.get('cache-control')).toContain('no-store');
    });

    it('answers the same calendar as the download, with every supply point', () => {
      expect(eventos(visto.texto).length).toBeGreaterThan(0);
      expect(eventos(visto.texto)).toEqual(eventos(visto.descarga));
      for (const cups of visto.t.cups) expect(visto.texto).toContain(cups);
    });

    it('follows the supply points the holder has when it is read', () => {
      expect(visto.trasElNuevo).toContain(visto.nuevo.cups);
    });

    it('tells the holder it is active, since when, and that it has been read', () => {
      expect(visto.estado.activa).toBe(true);
      expect(visto.estado.creadaEn).toBe(visto.s.creadaEn);
      expect(visto.estado.usadaEn).not.toBeNull();
    });

    it('is kept only as the hash of its token', () => {
      expect(JSON.stringify(visto.fila)).not.toContain(tokenDe(visto.s.url));
    });
  });

  it('stops working at once when replaced', async () => {
    const t = await titularCon([(n) => puntoNuevo(n, 'epd')]);
    const primera = await crear(t.token);
    const segunda = await crear(t.token);
    expect(segunda.url).not.toBe(primera.url);
    const vieja = await leer(primera.url);
    expect(vieja.status).toBe(404);
    expect(((await vieja.json()) as { message: string }).message).toMatch(/no existe o se ha anulado/);
    expect((await leer(segunda.url)).status).toBe(200);
  });

  it('stops working while the account is not active', async () => {
    const t = await titularCon([(n) => puntoNuevo(n, 'epd')]);
    const s = await crear(t.token);
    await server.database.db.update(users).set({ estado: 'inactivo' }).where(eq(users.id, t.u.id));
    expect((await leer(s.url)).status).toBe(404);
    await server.database.db.update(users).set({ estado: 'activo' }).where(eq(users.id, t.u.id));
    expect((await leer(s.url)).status).toBe(200);
  });

  it('stops working at once when cancelled', async () => {
    const t = await titularCon([(n) => puntoNuevo(n, 'epd')]);
    const s = await crear(t.token);
    expect((await anular(t.token)).status).toBe(204);
    expect((await leer(s.url)).status).toBe(404);
  });

  it('takes cancelling again as no error', async () => {
    const t = await titularCon([(n) => puntoNuevo(n, 'epd')]);
    await crear(t.token);
    await anular(t.token);
    expect((await anular(t.token)).status).toBe(204);
  });

  it('is audited when made and when cancelled', async () => {
    const t = await titularCon([(n) => puntoNuevo(n, 'epd')]);
    await crear(t.token);
    await crear(t.token);
    await anular(t.token);
    await anular(t.token);
    const acciones = await server.database.db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.actorUserId, t.u.id));
    expect(acciones.map((a) => a.action).filter((a) => a.startsWith('lecturas.suscripcion.'))).toEqual([
      'lecturas.suscripcion.creada',
      'lecturas.suscripcion.creada',
      'lecturas.suscripcion.anulada',
    ]);
  });

  describe('is made only by a holder in their own session', () => {
    guardasDeTitular(server, [
      ['GET', SUSCRIPCION],
      ['POST', SUSCRIPCION],
      ['DELETE', SUSCRIPCION],
    ]);

    /** A holder's session impersonated by an administrator of every distributor. */
    const suplantada = unaVez(async () => {
      const t = await titularCon([(n) => puntoNuevo(n, 'epd')]);
      const adminToken = (await sesion(server, (await cuenta(server, GESTORA)).email)).jwtToken;
      const suplantacion = await llamar(server, 'POST', '/api/accesoUsuarioSuplantacion', {
        token: adminToken,
        body: { username: t.u.email },
      });
      expect(suplantacion.status).toBe(200);
      return { t, token: ((await suplantacion.json()) as { jwtToken: string }).jwtToken };
    });

    it.each(['POST', 'DELETE'])('answers 403 to %s from an impersonated session', async (metodo) => {
      const res = await llamar(server, metodo, SUSCRIPCION, { token: suplantada.token });
      expect(res.status, metodo).toBe(403);
      expect(((await res.json()) as { message: string }).message).toBe(MENSAJE_SUPLANTADO);
    });

    it('makes none for an impersonated session', async () => {
      const [fila] = await server.database.db
        .select()
        .from(suscripcionesCalendario)
        .where(eq(suscripcionesCalendario.userId, suplantada.t.u.id));
      expect(fila).toBeUndefined();
    });
  });

  describe('unknown addresses', () => {
    const falsa = (i: number) => `http://portal.test/api/calendarioLecturas/${String(i).padStart(43, 'x')}.ics`;
    /** A holder's subscription, and 20 unknown addresses read from `dir`. */
    async function agotada(dir: string) {
      const t = await titularCon([(n) => puntoNuevo(n, 'epd')]);
      const s = await crear(t.token);
      for (let i = 0; i < 20; i++) expect((await leer(falsa(i), dir)).status).toBe(404);
      return s;
    }

    it('are counted per IP: 20 in 15 minutes, then 429 with Retry-After', async () => {
      await agotada('127.0.0.71');
      const limitada = await leer(falsa(99), '127.0.0.71');
      expect(limitada.status).toBe(429);
      expect(Number(limitada.headers.get('retry-after'))).toBeGreaterThan(0);
    });

    it('hold back even a real address once the IP is over, as the count comes before the lookup', async () => {
      const s = await agotada('127.0.0.74');
      await leer(falsa(99), '127.0.0.74');
      expect((await leer(s.url, '127.0.0.74')).status).toBe(429);
    });

    it('do not hold back other IPs', async () => {
      const s = await agotada('127.0.0.75');
      await leer(falsa(99), '127.0.0.75');
      expect((await leer(s.url, '127.0.0.72')).status).toBe(200);
    });

    it('never include a real address read often, as a calendar polling does', async () => {
      const s = await agotada('127.0.0.76');
      for (let i = 0; i < 25; i++) expect((await leer(s.url, '127.0.0.73')).status).toBe(200);
    });

    it('free the IP after 15 minutes', async () => {
      const s = await agotada('127.0.0.77');
      await leer(falsa(99), '127.0.0.77');
      server.clock.advance(15 * 60_000);
      expect((await leer(s.url, '127.0.0.77')).status).toBe(200);
    });
  });

  it('never writes the token to the logs', async () => {
    const t = await titularCon([(n) => puntoNuevo(n, 'epd')]);
    const s = await crear(t.token);
    expect((await leer(s.url)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 50));
    expect(server.logs.some((l) => l.path === '/api/calendarioLecturas/[redactado]')).toBe(true);
    expect(JSON.stringify(server.logs)).not.toContain(tokenDe(s.url));
  });
});
