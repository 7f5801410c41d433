/**
 * E-mail alerts of network interruptions (docs/decisions/025-avisos-de-corte.md), through HTTP on
 * the real database: the subscription routes and their guards, the alerts the incident management
 * queues (published, changed, cancelled, started, ended) at most once per event and address, the
 * public stop link, its rate limit, and the management form's preview count.
 *
 * Each test works in an area of its own (a postal code and INE code no other test uses), so the
 * alerts of one never reach the holders of another.
 */
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { avisarCorte, MENSAJES_AVISOS } from '../../src/server/avisos-corte/service.ts';
import { incidenciasRed } from '../../src/server/db/schema.ts';
import { LIMITES } from '../../src/server/rate-limit/service.ts';
import { auditadas, cuenta, enviarCorreos, llamar, sesion, gestoraDelFichero } from '../support/privado.ts';
import { servidorDelFichero } from '../support/server.ts';
import { puntoNuevo, titularConSuministros } from '../support/suministros.ts';

const server = servidorDelFichero();
const admin = gestoraDelFichero(server);
const soloEpd = gestoraDelFichero(server, ['epd-administrador']);

const HORA = 60 * 60 * 1000;
let zonas = 0;

/** A fresh area of EOD in the province of Badajoz: a postal code and an INE code of its own. */
function nuevaZona() {
  const n = ++zonas;
  return {
    codigoPostal: `06${String(100 + n).padStart(3, '0')}`,
    codigoIne: `06${String(500 + n).padStart(3, '0')}`,
    municipio: `Pueblo ${n}`,
  };
}

type Zona = ReturnType<typeof nuevaZona>;

/** A holder with one EOD supply point in `zona` (or one per zone given), logged in. */
async function titular(...zonasTitular: Zona[]) {
  return titularConSuministros(
    server,
    zonasTitular.map(
      (z) => (nif: string) =>
        puntoNuevo(nif, 'eod', { codigoPostal: z.codigoPostal, codigoIne: z.codigoIne, municipio: z.municipio, provincia: 'Badajoz' }),
    ),
  );
}

const suscribir = (token: string, cups: string) => llamar(server, 'PUT', `/api/avisosCorte/suscripciones/${cups}`, { token });
const desuscribir = (token: string, cups: string) => llamar(server, 'DELETE', `/api/avisosCorte/suscripciones/${cups}`, { token });

/** A holder in `zona` with alerts on for their supply point. */
async function suscrito(zona: Zona) {
  const t = await titular(zona);
  expect((await suscribir(t.token, t.cups[0]!)).status).toBe(200);
  return { ...t, cupsPunto: t.cups[0]! };
}

/** A scheduled EOD incident in `zona` starting in `horas` hours, with `cambios`. */
function entrada(zona: Zona, cambios: Record<string, unknown> = {}, horas = 24) {
  const inicio = new Date(server.clock.now().getTime() + horas * HORA);
  return {
    distribuidora: 'eod',
    estado: 'Programada',
    descripcion: 'Trabajos de mejora en el centro de transformación de la barriada.',
    municipio: zona.municipio,
    codigoIne: zona.codigoIne,
    provincia: 'Badajoz',
    codigosPostales: [zona.codigoPostal],
    cups: [],
    clientesAfectados: null,
    inicio: inicio.toISOString(),
    finPrevisto: new Date(inicio.getTime() + 3 * HORA).toISOString(),
    ...cambios,
  };
}

interface Guardada {
  id: string;
  avisados: { suministros: number; titulares: number };
}

async function crear(body: unknown): Promise<Guardada> {
  const res = await llamar(server, 'POST', '/api/administrador/incidencias', { token: admin.token, body });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as Guardada;
}

async function editar(id: string, body: unknown): Promise<Guardada> {
  const res = await llamar(server, 'PUT', `/api/administrador/incidencias/${id}`, { token: admin.token, body });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as Guardada;
}

async function cerrar(id: string): Promise<Guardada> {
  const res = await llamar(server, 'POST', `/api/administrador/incidencias/${id}/cierre`, { token: admin.token });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as Guardada;
}

/** Moves the clock on, logging the administrator in again (access tokens live minutes). */
async function pasar(ms: number): Promise<void> {
  server.clock.advance(ms);
  admin.token = (await sesion(server, admin.a.email)).jwtToken;
}

/** The mails sent so far to `email`, after running the outbox. */
async function correosDe(email: string) {
  await enviarCorreos(server);
  return server.mailer.sent.filter((m) => m.to === email);
}

/** The stop token of the link in a mail's text. */
function tokenDe(texto: string): string {
  const m = /http:\/\/portal\.test\/avisos-corte\/baja#([0-9a-f]{32}\.[A-Za-z0-9_-]{43})/.exec(texto);
  expect(m, 'enlace de baja en el correo').not.toBeNull();
  return m![1]!;
}

const baja = (token: unknown, desde?: string) =>
  desde
    ? server.fetchFrom(desde, '/api/avisosCorte/baja', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ token }),
      })
    : llamar(server, 'POST', '/api/avisosCorte/baja', { body: { token } });

describe('subscription routes', () => {
  it.each([
    ['GET', '/api/avisosCorte/suscripciones'],
    ['PUT', '/api/avisosCorte/suscripciones/ES0000000000000000AA'],
    ['DELETE', '/api/avisosCorte/suscripciones/ES0000000000000000AA'],
  ])('answers 401 to %s %s without a session', async (metodo, ruta) => {
    expect((await llamar(server, metodo, ruta)).status).toBe(401);
  });

  it('answers 403 to an account that holds no supply point', async () => {
    const u = await cuenta(server);
    const { jwtToken } = await sesion(server, u.email);
    expect((await llamar(server, 'GET', '/api/avisosCorte/suscripciones', { token: jwtToken })).status).toBe(403);
  });

  it("answers 404 for another holder's supply point, and changes nothing", async () => {
    const zona = nuevaZona();
    const ajeno = await titular(zona);
    const t = await titular(zona);
    for (const r of [await suscribir(t.token, ajeno.cups[0]!), await desuscribir(t.token, ajeno.cups[0]!)]) {
      expect(r.status).toBe(404);
      expect(((await r.json()) as { message: string }).message).toMatch(/No encontramos ese suministro/);
    }
    const lista = await llamar(server, 'GET', '/api/avisosCorte/suscripciones', { token: ajeno.token });
    expect(await lista.json()).toEqual({ cups: [] });
  });

  it('turns alerts on and off, idempotently, and audits each real change', async () => {
    const zona = nuevaZona();
    const t = await titular(zona, zona);
    const [a, b] = t.cups as [string, string];
    expect(await (await suscribir(t.token, a.toLowerCase())).json()).toEqual({ cups: a, activa: true, cambiada: true });
    expect(await (await suscribir(t.token, a)).json()).toEqual({ cups: a, activa: true, cambiada: false });
    const lista = await llamar(server, 'GET', '/api/avisosCorte/suscripciones', { token: t.token });
    expect(await lista.json()).toEqual({ cups: [a] });
    expect(await (await desuscribir(t.token, a)).json()).toEqual({ cups: a, activa: false, cambiada: true });
    expect(await (await desuscribir(t.token, b)).json()).toEqual({ cups: b, activa: false, cambiada: false });
    expect(await (await llamar(server, 'GET', '/api/avisosCorte/suscripciones', { token: t.token })).json()).toEqual({ cups: [] });
    const altas = await auditadas(server, 'avisos_corte.alta', { actor: t.u.id });
    const bajas = await auditadas(server, 'avisos_corte.baja', { actor: t.u.id });
    expect([altas.length, bajas.length]).toEqual([1, 1]);
    expect(altas[0]).toMatchObject({ targetType: 'suministro', targetId: a, details: { via: 'cuenta' } });
  });

  it('refuses an impersonated session with 403 and changes nothing', async () => {
    const zona = nuevaZona();
    const t = await titular(zona);
    const res = await llamar(server, 'POST', '/api/accesoUsuarioSuplantacion', { token: admin.token, body: { username: t.u.email } });
    expect(res.status).toBe(200);
    const suplantada = ((await res.json()) as { jwtToken: string }).jwtToken;
    expect((await suscribir(suplantada, t.cups[0]!)).status).toBe(403);
    expect((await desuscribir(suplantada, t.cups[0]!)).status).toBe(403);
    // Reading is allowed: the administrator sees what the holder sees.
    const lista = await llamar(server, 'GET', '/api/avisosCorte/suscripciones', { token: suplantada });
    expect(lista.status).toBe(200);
    expect(await lista.json()).toEqual({ cups: [] });
  });
});

describe('alerts of a scheduled interruption', () => {
  it('mails a subscribed holder in the area once; not an unsubscribed one, nor one outside the area', async () => {
    const zona = nuevaZona();
    const fuera = nuevaZona();
    const si = await suscrito(zona);
    const no = await titular(zona);
    const lejos = await suscrito(fuera);
    // The incident lists the unsubscribed holder's CUPS too: it must never appear in the other's mail.
    const creada = await crear(entrada(zona, { cups: [no.cups[0]!] }));
    expect(creada.avisados).toEqual({ suministros: 1, titulares: 1 });

    const mails = await correosDe(si.u.email);
    expect(mails).toHaveLength(1);
    const m = mails[0]!;
    expect(m.subject).toMatch(new RegExp(`^Corte de luz programado en ${zona.municipio} el `));
    expect(m.text).toContain(si.cupsPunto);
    expect(m.text).toContain(zona.municipio);
    expect(m.text).toContain('Trabajos de mejora en el centro de transformación de la barriada.');
    expect(m.text).toContain('(hora peninsular)');
    expect(m.text).toContain('http://portal.test/medidas/interrupciones');
    expect(m.text).not.toContain(no.cups[0]!);
    expect(m.html).toContain(si.cupsPunto);
    expect(m.html).toContain(`http://portal.test/avisos-corte/baja#${tokenDe(m.text)}`);
    expect(await correosDe(no.u.email)).toHaveLength(0);
    expect(await correosDe(lejos.u.email)).toHaveLength(0);
  });

  it('never mails the same event twice: a repeated edit changes nothing, a retried publication is refused by the key', async () => {
    const zona = nuevaZona();
    const si = await suscrito(zona);
    const cuerpo = entrada(zona);
    const creada = await crear(cuerpo);
    // The same edit twice: nothing the alert says changed.
    expect((await editar(creada.id, cuerpo)).avisados).toEqual({ suministros: 0, titulares: 0 });
    expect((await editar(creada.id, { ...cuerpo, clientesAfectados: 40 })).avisados).toEqual({ suministros: 0, titulares: 0 });
    // The publication queued again, as a retry after a crash would: the database key refuses it.
    const [fila] = await server.database.db.select().from(incidenciasRed).where(eq(incidenciasRed.id, creada.id));
    const otraVez = await server.database.db.transaction((tx) => avisarCorte(tx, server.config, server.clock.now(), 'publicada', fila!));
    expect(otraVez).toEqual({ suministros: 0, titulares: 0 });
    expect(await correosDe(si.u.email)).toHaveLength(1);
  });

  it('mails a change of times, and tells a supply point left out of the area that it no longer concerns it', async () => {
    const zona = nuevaZona();
    const otra = nuevaZona();
    const queda = await suscrito(zona);
    const sale = await suscrito(otra);
    const cuerpo = entrada(zona, { codigosPostales: [zona.codigoPostal, otra.codigoPostal] });
    const creada = await crear(cuerpo);
    expect(creada.avisados).toEqual({ suministros: 2, titulares: 2 });
    const inicio = new Date(Date.parse(cuerpo.inicio) + 2 * HORA);
    const cambio = { ...cuerpo, codigosPostales: [zona.codigoPostal], inicio: inicio.toISOString(), finPrevisto: null };
    expect((await editar(creada.id, cambio)).avisados).toEqual({ suministros: 2, titulares: 2 });

    const [, cambiada] = await correosDe(queda.u.email);
    expect(cambiada!.subject).toBe(`Ha cambiado el corte de luz programado en ${zona.municipio}`);
    expect(cambiada!.text).toContain('Fin previsto: aún no se conoce.');
    expect(cambiada!.text).toContain('puede afectarle');
    const [, yaNo] = await correosDe(sale.u.email);
    expect(yaNo!.text).toContain('ya no afecta a este punto de suministro');
    // Saving the same change again mails nobody.
    expect((await editar(creada.id, cambio)).avisados).toEqual({ suministros: 0, titulares: 0 });
    expect(await correosDe(queda.u.email)).toHaveLength(2);
  });

  it('mails the cancellation of works closed before they start', async () => {
    const zona = nuevaZona();
    const si = await suscrito(zona);
    const creada = await crear(entrada(zona));
    expect((await cerrar(creada.id)).avisados).toEqual({ suministros: 1, titulares: 1 });
    const mails = await correosDe(si.u.email);
    expect(mails.map((m) => m.subject.split(' en ')[0])).toEqual(['Corte de luz programado', 'Anulado el corte de luz programado']);
    expect(mails[1]!.text).toContain('no habrá corte');
    // Closing again is refused (409) and mails nothing.
    expect((await llamar(server, 'POST', `/api/administrador/incidencias/${creada.id}/cierre`, { token: admin.token })).status).toBe(409);
    expect(await correosDe(si.u.email)).toHaveLength(2);
  });

  it('mails when scheduled works start and when they end', async () => {
    const zona = nuevaZona();
    const si = await suscrito(zona);
    const cuerpo = entrada(zona, {}, 1);
    const creada = await crear(cuerpo);
    await pasar(HORA);
    expect((await editar(creada.id, { ...cuerpo, estado: 'En curso' })).avisados).toEqual({ suministros: 1, titulares: 1 });
    // En curso → Activa is the same interruption: no new alert.
    expect((await editar(creada.id, { ...cuerpo, estado: 'Activa' })).avisados).toEqual({ suministros: 0, titulares: 0 });
    await pasar(2 * HORA);
    expect((await cerrar(creada.id)).avisados).toEqual({ suministros: 1, titulares: 1 });
    const mails = await correosDe(si.u.email);
    expect(mails.map((m) => m.subject)).toEqual([
      expect.stringMatching(/^Corte de luz programado/),
      `Interrupción del suministro eléctrico en ${zona.municipio}`,
      `Ha terminado la interrupción del suministro eléctrico en ${zona.municipio}`,
    ]);
    expect(mails[2]!.text).toMatch(/Fin: .* \(hora peninsular\)/);
  });

  it('mails the start of a fault published as active, to holders listed by CUPS', async () => {
    const zona = nuevaZona();
    const otra = nuevaZona();
    const listado = await suscrito(otra);
    const creada = await crear(entrada(zona, { estado: 'Activa', cups: [listado.cupsPunto], inicio: server.clock.now().toISOString() }));
    expect(creada.avisados).toEqual({ suministros: 1, titulares: 1 });
    const [m] = await correosDe(listado.u.email);
    expect(m!.subject).toBe(`Interrupción del suministro eléctrico en ${zona.municipio}`);
    expect(m!.text).toContain('la interrupción incluye este punto de suministro');
  });
});

describe('the stop link', () => {
  it('stops the alerts without a session, once; later interruptions mail nothing', async () => {
    const zona = nuevaZona();
    const si = await suscrito(zona);
    await crear(entrada(zona));
    const token = tokenDe((await correosDe(si.u.email))[0]!.text);

    const res = await baja(token);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ estado: 'anulada', municipio: zona.municipio });
    expect(await (await baja(token)).json()).toEqual({ estado: 'ya_anulada', municipio: zona.municipio });
    expect(await (await llamar(server, 'GET', '/api/avisosCorte/suscripciones', { token: si.token })).json()).toEqual({ cups: [] });
    const [entrada0] = await auditadas(server, 'avisos_corte.baja', { actor: si.u.id });
    expect(entrada0).toMatchObject({ targetId: si.cupsPunto, details: { via: 'enlace' } });

    expect((await crear(entrada(zona))).avisados).toEqual({ suministros: 0, titulares: 0 });
    expect(await correosDe(si.u.email)).toHaveLength(1);
    // Subscribing again makes a new subscription: the old link does not stop it.
    await suscribir(si.token, si.cupsPunto);
    expect(await (await baja(token)).json()).toMatchObject({ estado: 'ya_anulada' });
    expect(await (await llamar(server, 'GET', '/api/avisosCorte/suscripciones', { token: si.token })).json()).toEqual({
      cups: [si.cupsPunto],
    });
  });

  it('answers 404 with a Spanish message to an unknown, forged or malformed token', async () => {
    const zona = nuevaZona();
    const si = await suscrito(zona);
    await crear(entrada(zona));
    const token = tokenDe((await correosDe(si.u.email))[0]!.text);
    const [id, firma] = token.split('.') as [string, string];
    const otraFirma = `${firma.slice(0, -1)}${firma.endsWith('A') ? 'B' : 'A'}`;
    for (const malo of [`${id}.${otraFirma}`, `${'0'.repeat(32)}.${firma}`, 'nada', '']) {
      const res = await baja(malo);
      expect(res.status, malo).toBe(404);
      expect(await res.json()).toEqual({ message: MENSAJES_AVISOS.enlaceDesconocido });
    }
    // None of them stopped anything.
    expect(await (await llamar(server, 'GET', '/api/avisosCorte/suscripciones', { token: si.token })).json()).toEqual({
      cups: [si.cupsPunto],
    });
  });

  it('is rate limited per address, valid tokens or not, with a Spanish 429', async () => {
    const desde = '127.0.0.77';
    for (let i = 0; i < LIMITES.bajaAvisosCorte.max; i++) expect((await baja('x', desde)).status).toBe(404);
    const res = await baja('x', desde);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(((await res.json()) as { message: string }).message).toMatch(/demasiados intentos/);
    // Another address is not affected.
    expect((await baja('x', '127.0.0.78')).status).toBe(404);
  });
});

describe('POST /api/administrador/incidencias/previsionAvisos', () => {
  const prevision = (body: unknown, token = admin.token) =>
    llamar(server, 'POST', '/api/administrador/incidencias/previsionAvisos', { token, body });

  it('counts the subscribed supply points and holders an area would mail, as saving then mails', async () => {
    const zona = nuevaZona();
    const otra = nuevaZona();
    const dos = await titular(zona, zona);
    for (const c of dos.cups) await suscribir(dos.token, c);
    await suscrito(zona);
    await titular(zona); // not subscribed
    const listado = await suscrito(otra);
    const porZona = { distribuidora: 'eod', codigoIne: zona.codigoIne, codigosPostales: [zona.codigoPostal], cups: [] };
    const res = await prevision(porZona);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ suministros: 3, titulares: 2 });
    // The municipality alone, when no postal code is named; a listed CUPS of another area counts too.
    const conCups = { ...porZona, codigosPostales: [], cups: [listado.cupsPunto.toLowerCase()] };
    expect(await (await prevision(conCups)).json()).toEqual({ suministros: 4, titulares: 3 });
    // Another distributor's incident concerns none of them.
    expect(await (await prevision({ ...porZona, distribuidora: 'epd' })).json()).toEqual({ suministros: 0, titulares: 0 });
    expect((await crear(entrada(zona))).avisados).toEqual({ suministros: 3, titulares: 2 });
  });

  it('answers 401 without a session, 403 for a distributor the caller does not administer, 400 for a bad area', async () => {
    const zona = { distribuidora: 'eod', codigoIne: '06083', codigosPostales: ['06800'], cups: [] };
    expect((await llamar(server, 'POST', '/api/administrador/incidencias/previsionAvisos', { body: zona })).status).toBe(401);
    expect((await prevision(zona, soloEpd.token)).status).toBe(403);
    const malo = await prevision({ ...zona, codigosPostales: ['6800'] });
    expect(malo.status).toBe(400);
    const titularToken = (await titular(nuevaZona())).token;
    expect((await prevision(zona, titularToken)).status).toBe(403);
  });
});

describe('who is told', () => {
  it('tells nobody whose account was deactivated', async () => {
    const zona = nuevaZona();
    const si = await suscrito(zona);
    const { users } = await import('../../src/server/db/schema.ts');
    await server.database.db
      .update(users)
      .set({ estado: 'inactivo' })
      .where(and(eq(users.id, si.u.id)));
    expect((await crear(entrada(zona))).avisados).toEqual({ suministros: 0, titulares: 0 });
    expect(await correosDe(si.u.email)).toHaveLength(0);
  });
});
