/**
 * Authorisations to third parties through HTTP (docs/decisions/028-autorizaciones.md): a holder
 * authorises a NIF, the account of that NIF reads the supply point's contract, curve, maximum powers
 * and certificates (each read audited) and can write nothing about it; other supply points of the
 * holder stay 404; expiry and revocation close it at once; validation, guards and the rate limit.
 */
import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { finMaximo } from '../../src/lib/autorizaciones.ts';
import { sumarDias } from '../../src/lib/medidas/horas.ts';
import { hoyEnEspana } from '../../src/server/autorizaciones/vigencia.ts';
import { queryRows } from '../../src/server/db/client.ts';
import { importarMedidas } from '../../src/server/medidas/importar.ts';
import { LIMITES } from '../../src/server/rate-limit/service.ts';
import { guardarSuministros } from '../../src/server/suministros/service.ts';
import { createUser, grantPermissions, permisosAlActivar } from '../../src/server/usuarios/service.ts';
import { registrosDeDias } from '../support/medidas.ts';
import {
  auditadas,
  cuentaConSesion,
  gestoraDelFichero,
  llamar,
  nuevoCif,
  nuevoCorreo,
  PASSWORD,
  sesion,
  ultimoCorreo,
} from '../support/privado.ts';
import { servidorDelFichero, unaHoraMasEnCadaTest } from '../support/server.ts';
import { puntoNuevo, titularConSuministros } from '../support/suministros.ts';

const server = servidorDelFichero();
// Before the administrator's login of each test: its token must outlive the clock's move.
unaHoraMasEnCadaTest(server);
const gestora = gestoraDelFichero(server);

const DIA = 24 * 60 * 60 * 1000;

interface Autorizacion {
  id: string;
  titular: { nif: string; nombre: string };
  autorizado: { nif: string; nombre: string };
  suministros: { cups: string; direccion: string }[];
  datos: string[];
  inicio: string;
  fin: string;
  estado: 'vigente' | 'caducada' | 'revocada';
  revocadaEn: string | null;
  autorizadoConCuenta?: boolean;
}

const hoy = () => hoyEnEspana(server.clock.now());

/**
 * An active account of `nif` (a company), logged in: the authorised side. With `propio`, it also
 * holds a supply point of its own, so the consumer area stays open to it whatever its authorisations.
 */
async function cuentaDeNif(nif: string, opciones: { propio?: boolean } = {}) {
  const email = nuevoCorreo('autorizada');
  const { id } = await createUser(server.database.db, {
    nif,
    email,
    razonSocial: 'Asesoría Autorizada, S.L.',
    password: PASSWORD,
    estado: 'activo',
  });
  await grantPermissions(server.database.db, id, permisosAlActivar());
  if (opciones.propio) await guardarSuministros(server.database.db, [puntoNuevo(nif, 'epd')]);
  return { id, email, nif, token: (await sesion(server, email)).jwtToken };
}

/** A holder of two EPD supply points, the first with hourly measures for September and October 2026. */
async function titularConDos() {
  const t = await titularConSuministros(server, [(nif) => puntoNuevo(nif, 'epd'), (nif) => puntoNuevo(nif, 'epd')]);
  const registros = registrosDeDias(t.cups[0]!, '2026-09-01', '2026-10-31', (n) => ({ importadaWh: 100 + (n % 7) * 10 }));
  expect((await importarMedidas(server.database.db, registros)).ok).toBe(true);
  return t;
}

function crear(token: string, body: Record<string, unknown>) {
  return llamar(server, 'POST', '/api/autorizaciones', { token, body });
}

async function creada(token: string, body: Record<string, unknown>): Promise<Autorizacion> {
  const res = await crear(token, body);
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as Autorizacion;
}

const todos = ['curvas', 'potencias', 'certificados'];
const get = (token: string, ruta: string) => llamar(server, 'GET', ruta, { token });
const curva = (token: string, cups: string) => get(token, `/api/medidas/curva?cups=${cups}&desde=2026-10-01&hasta=2026-10-02`);
const potencias = (token: string, cups: string) => get(token, `/api/medidas/potencias?cups=${cups}&desde=2026-09&hasta=2026-10`);
const csv = (token: string, cups: string) => get(token, `/api/medidas/curva/csv?cups=${cups}&desde=2026-10-01&hasta=2026-10-01`);

describe('an authorisation in force', () => {
  let t: Awaited<ReturnType<typeof titularConDos>>;
  let autorizada: Awaited<ReturnType<typeof cuentaDeNif>>;
  let a: Autorizacion;

  beforeAll(async () => {
    t = await titularConDos();
    const nif = nuevoCif();
    // Given before the authorised NIF has any account: the authorisation is by NIF.
    a = await creada(t.token, {
      nif: nif.toLowerCase(),
      nombre: 'Asesoría Autorizada',
      cups: [t.cups[0]],
      datos: todos,
      fin: sumarDias(hoy(), 90),
    });
    autorizada = await cuentaDeNif(nif);
  });

  // Each test moves the clock an hour: access tokens live ten minutes.
  beforeEach(async () => {
    t.token = (await sesion(server, t.u.email)).jwtToken;
    autorizada.token = (await sesion(server, autorizada.email)).jwtToken;
  });

  it('is answered with its state and mailed to the holder', async () => {
    expect(a).toMatchObject({
      autorizado: { nif: autorizada.nif, nombre: 'Asesoría Autorizada' },
      estado: 'vigente',
      datos: todos,
      inicio: hoy(),
    });
    expect(a.suministros.map((s) => s.cups)).toEqual([t.cups[0]]);
    // Given before the NIF had an account: the holder is told nobody can read it yet.
    expect(a.autorizadoConCuenta).toBe(false);
    const correo = await ultimoCorreo(server, t.u.email);
    expect(correo?.subject).toBe('Ha autorizado a un tercero a consultar sus datos de consumo');
    expect(correo?.text).toContain(autorizada.nif);
    expect(correo?.text).toContain(t.cups[0]!);
    expect(correo?.text).not.toContain(t.cups[1]!);
    expect(await auditadas(server, 'autorizacion.creada', { actor: t.u.id, objetivo: a.id })).toHaveLength(1);
  });

  it('is listed by both sides', async () => {
    const delTitular = (await (await get(t.token, '/api/autorizaciones')).json()) as { dadas: Autorizacion[]; recibidas: Autorizacion[] };
    expect(delTitular.dadas.map((x) => x.id)).toEqual([a.id]);
    expect(delTitular.recibidas).toEqual([]);
    const deLaAutorizada = (await (await get(autorizada.token, '/api/autorizaciones')).json()) as {
      dadas: Autorizacion[];
      recibidas: Autorizacion[];
    };
    expect(deLaAutorizada.dadas).toEqual([]);
    expect(deLaAutorizada.recibidas.map((x) => [x.id, x.titular.nif])).toEqual([[a.id, t.u.nif]]);
  });

  it('opens the consumer area to the authorised account, which holds no supply point', async () => {
    const s = await sesion(server, autorizada.email);
    expect(s.Permisos).toContain('epd-distribucion');
    expect(s.Permisos).not.toContain('eod-distribucion');
  });

  it('lets the authorised read the supply point, marked, its curve, download, powers and certificates; each read audited', async () => {
    const antes = (await auditadas(server, 'autorizacion.lectura', { actor: autorizada.id })).length;
    const lista = (await (await get(autorizada.token, '/api/suministros')).json()) as { cups: string; autorizacion: unknown }[];
    expect(lista).toEqual([
      expect.objectContaining({ cups: t.cups[0], autorizacion: { titular: a.titular.nombre, hasta: a.fin, datos: todos } }),
    ]);
    const detalle = await get(autorizada.token, `/api/suministros/${t.cups[0]}`);
    expect(detalle.status).toBe(200);
    expect(((await detalle.json()) as { titular: { nif: string } }).titular.nif).toBe(t.u.nif);
    const c = await curva(autorizada.token, t.cups[0]!);
    expect(c.status).toBe(200);
    expect(((await c.json()) as { totales: { horasConDatos: number } }).totales.horasConDatos).toBe(48);
    const d = await csv(autorizada.token, t.cups[0]!);
    expect(d.status).toBe(200);
    expect((await d.text()).split('\n').length).toBeGreaterThan(24);
    expect((await potencias(autorizada.token, t.cups[0]!)).status).toBe(200);
    const cert = await llamar(server, 'POST', '/api/certificados', {
      token: autorizada.token,
      body: { cups: t.cups[0], desde: '2026-10', hasta: '2026-10' },
    });
    expect(cert.status, await cert.clone().text()).toBe(201);
    const emitido = (await cert.json()) as { id: string; titular: string };
    // The certificate names the holder, not the authorised reader.
    expect(emitido.titular).toBe('Titular de prueba');
    const pdf = await get(autorizada.token, `/api/certificados/${emitido.id}/pdf`);
    expect(pdf.status).toBe(200);
    const certificados = (await (await get(autorizada.token, '/api/certificados')).json()) as { id: string }[];
    expect(certificados.map((x) => x.id)).toEqual([emitido.id]);
    // The holder does not see a certificate someone else asked for.
    expect(((await (await get(t.token, '/api/certificados')).json()) as unknown[]).length).toBe(0);

    const lecturas = (await auditadas(server, 'autorizacion.lectura', { actor: autorizada.id })).slice(antes);
    expect(lecturas.map((e) => (e.details as { dato: string }).dato)).toEqual([
      'contrato',
      'contrato',
      'curvas',
      'curvas',
      'potencias',
      'certificados',
      'certificados',
      'certificados',
    ]);
    for (const e of lecturas) {
      expect(e).toMatchObject({ targetType: 'autorizacion', targetId: a.id, details: { cups: t.cups[0], titularNif: t.u.nif } });
    }
  });

  it('does not open the holder’s other supply points (404)', async () => {
    expect((await get(autorizada.token, `/api/suministros/${t.cups[1]}`)).status).toBe(404);
    expect((await curva(autorizada.token, t.cups[1]!)).status).toBe(404);
    expect((await potencias(autorizada.token, t.cups[1]!)).status).toBe(404);
  });

  it('tells the session which data kinds its authorisations grant, since it holds no supply point', async () => {
    expect((await sesion(server, autorizada.email)).datosAutorizados).toEqual(todos);
    expect((await sesion(server, t.u.email)).datosAutorizados).toBeNull();
  });

  it('refuses a contractual modification of the authorised supply point with a 403 that says why', async () => {
    const cups = t.cups[0]!;
    const formulario = await llamar(server, 'GET', `/api/modificaciones/suministros/${cups}`, { token: autorizada.token });
    const solicitud = await llamar(server, 'POST', '/api/modificaciones', {
      token: autorizada.token,
      body: { cups, tipo: 'potencia', potenciasKw: [5.75, 5.75] },
    });
    for (const r of [formulario, solicitud]) {
      expect(r.status).toBe(403);
      expect(((await r.json()) as { message: string }).message).toMatch(/solo le permite consultar sus datos/);
    }
    // A supply point the authorisation does not name is still an unknown CUPS.
    expect((await llamar(server, 'GET', `/api/modificaciones/suministros/${t.cups[1]}`, { token: autorizada.token })).status).toBe(404);
  });

  it('lets the authorised write nothing about the supply point', async () => {
    const cups = t.cups[0]!;
    const escrituras = [
      await llamar(server, 'POST', '/api/modificaciones', {
        token: autorizada.token,
        body: { cups, tipo: 'potencia', potenciasKw: [5.75, 5.75] },
      }),
      await llamar(server, 'PUT', `/api/avisosCorte/suscripciones/${cups}`, { token: autorizada.token }),
      await llamar(server, 'GET', `/api/modificaciones/suministros/${cups}`, { token: autorizada.token }),
      await llamar(server, 'GET', `/api/lecturasProgramadas?cups=${cups}`, { token: autorizada.token }),
      await llamar(server, 'POST', '/api/autorizaciones', {
        token: autorizada.token,
        body: { nif: nuevoCif(), nombre: 'Otra', cups: [cups], datos: todos, fin: sumarDias(hoy(), 10) },
      }),
    ];
    for (const r of escrituras) expect([400, 403, 404], await r.clone().text()).toContain(r.status);
    // Whatever the validation answers, nothing was written.
    const filas = await queryRows<{ n: number }>(
      server.database.db,
      sql`select (select count(*) from expedientes m join suministros s on s.id = (m.datos->>'suministroId')::int
                      where m.procedimiento = 'modificacion' and s.cups = ${cups})::int
            + (select count(*) from avisos_corte_suscripciones where cups = ${cups})::int as n`,
    );
    expect(filas[0]!.n).toBe(0);
    expect(((await (await get(t.token, '/api/autorizaciones')).json()) as { dadas: unknown[] }).dadas).toHaveLength(1);
  });
});

describe('data kinds, expiry and revocation', () => {
  it('opens only the data kinds chosen', async () => {
    const t = await titularConDos();
    const autorizada = await cuentaDeNif(nuevoCif());
    const dada = await creada(t.token, {
      nif: autorizada.nif,
      nombre: 'Solo potencias',
      cups: [t.cups[0]],
      datos: ['potencias'],
      fin: sumarDias(hoy(), 5),
    });
    expect(dada.autorizadoConCuenta).toBe(true);
    expect((await potencias(autorizada.token, t.cups[0]!)).status).toBe(200);
    expect((await curva(autorizada.token, t.cups[0]!)).status).toBe(404);
    // The session offers the menu only what was granted.
    expect((await sesion(server, autorizada.email)).datosAutorizados).toEqual(['potencias']);
    const cert = await llamar(server, 'POST', '/api/certificados', {
      token: autorizada.token,
      body: { cups: t.cups[0], desde: '2026-10', hasta: '2026-10' },
    });
    expect(cert.status).toBe(404);
  });

  it('ends the day after its end date: 404 like any CUPS, and the holder sees it as caducada', async () => {
    const t = await titularConDos();
    const autorizada = await cuentaDeNif(nuevoCif(), { propio: true });
    const soloAutorizada = await cuentaDeNif(nuevoCif());
    const a = await creada(t.token, { nif: autorizada.nif, nombre: 'Dos días', cups: [t.cups[0]], datos: todos, fin: sumarDias(hoy(), 2) });
    await creada(t.token, { nif: soloAutorizada.nif, nombre: 'Dos días', cups: [t.cups[0]], datos: todos, fin: sumarDias(hoy(), 2) });
    expect((await curva(autorizada.token, t.cups[0]!)).status).toBe(200);
    const entrarTodos = async () => {
      for (const x of [autorizada, soloAutorizada]) x.token = (await sesion(server, x.email)).jwtToken;
      t.token = (await sesion(server, t.u.email)).jwtToken;
    };
    server.clock.advance(2 * DIA);
    await entrarTodos();
    expect((await curva(autorizada.token, t.cups[0]!)).status).toBe(200);
    expect((await curva(soloAutorizada.token, t.cups[0]!)).status).toBe(200);
    server.clock.advance(DIA);
    await entrarTodos();
    expect((await curva(autorizada.token, t.cups[0]!)).status).toBe(404);
    expect((await get(autorizada.token, `/api/suministros/${t.cups[0]}`)).status).toBe(404);
    const suyos = (await (await get(autorizada.token, '/api/suministros')).json()) as { cups: string }[];
    expect(suyos.map((x) => x.cups)).not.toContain(t.cups[0]);
    // No supply point of its own and none authorised: the consumer area is closed again, as to any such account.
    expect((await get(soloAutorizada.token, '/api/suministros')).status).toBe(403);
    expect((await curva(soloAutorizada.token, t.cups[0]!)).status).toBe(403);
    expect((await sesion(server, soloAutorizada.email)).Permisos).not.toContain('epd-distribucion');
    const dadas = ((await (await get(t.token, '/api/autorizaciones')).json()) as { dadas: Autorizacion[] }).dadas;
    expect(dadas.find((x) => x.id === a.id)?.estado).toBe('caducada');
    const recibidas = ((await (await get(autorizada.token, '/api/autorizaciones')).json()) as { recibidas: Autorizacion[] }).recibidas;
    expect(recibidas).toEqual([]);
  });

  it('is revoked at once, only by its holder, and revoking again changes nothing', async () => {
    const t = await titularConDos();
    const autorizada = await cuentaDeNif(nuevoCif(), { propio: true });
    const otro = await cuentaConSesion(server);
    const a = await creada(t.token, {
      nif: autorizada.nif,
      nombre: 'Revocable',
      cups: [t.cups[0]],
      datos: todos,
      fin: sumarDias(hoy(), 30),
    });
    expect((await curva(autorizada.token, t.cups[0]!)).status).toBe(200);
    expect((await llamar(server, 'POST', `/api/autorizaciones/${a.id}/revocacion`, { token: otro.token })).status).toBe(404);
    expect((await llamar(server, 'POST', `/api/autorizaciones/${a.id}/revocacion`, { token: autorizada.token })).status).toBe(404);
    const res = await llamar(server, 'POST', `/api/autorizaciones/${a.id}/revocacion`, { token: t.token });
    expect(res.status).toBe(200);
    expect(((await res.json()) as Autorizacion).estado).toBe('revocada');
    expect((await curva(autorizada.token, t.cups[0]!)).status).toBe(404);
    expect((await potencias(autorizada.token, t.cups[0]!)).status).toBe(404);
    const otraVez = await llamar(server, 'POST', `/api/autorizaciones/${a.id}/revocacion`, { token: t.token });
    expect(otraVez.status).toBe(200);
    expect(await auditadas(server, 'autorizacion.revocada', { objetivo: a.id })).toHaveLength(1);
    expect((await llamar(server, 'POST', '/api/autorizaciones/no-es-un-uuid/revocacion', { token: t.token })).status).toBe(404);
  });

  it('ends when the supply point changes holder', async () => {
    const t = await titularConDos();
    const autorizada = await cuentaDeNif(nuevoCif(), { propio: true });
    await creada(t.token, { nif: autorizada.nif, nombre: 'Cambio de titular', cups: [t.cups[0]], datos: todos, fin: sumarDias(hoy(), 30) });
    expect((await curva(autorizada.token, t.cups[0]!)).status).toBe(200);
    await server.database.db.execute(sql`update suministros set titular_nif = ${nuevoCif()} where cups = ${t.cups[0]}`);
    expect((await curva(autorizada.token, t.cups[0]!)).status).toBe(404);
  });
});

describe('validation and guards', () => {
  it('refuses a bad NIF, an end beyond two years or in the past, the holder’s own NIF, no data kind (400)', async () => {
    const t = await titularConDos();
    const base = { nif: nuevoCif(), nombre: 'Prueba', cups: [t.cups[0]], datos: todos, fin: sumarDias(hoy(), 30) };
    const casos: [Record<string, unknown>, RegExp][] = [
      [{ nif: '12345678A' }, /NIF, NIE o CIF no es válido/],
      [{ fin: sumarDias(finMaximo(hoy()), 1) }, /como máximo dos años/],
      [{ fin: sumarDias(hoy(), -1) }, /anterior a hoy/],
      [{ fin: '2026-02-30' }, /no es válida/],
      [{ nif: t.u.nif }, /a sí mismo/],
      [{ datos: [] }, /al menos un tipo de dato/],
      [{ datos: ['contrato'] }, /./],
      [{ cups: [] }, /al menos un suministro/],
      [{ nombre: ' ' }, /nombre/],
    ];
    for (const [cambio, mensaje] of casos) {
      const res = await crear(t.token, { ...base, ...cambio });
      expect(res.status, JSON.stringify(cambio)).toBe(400);
      expect(JSON.stringify(await res.json())).toMatch(mensaje);
    }
    // The last day allowed is accepted.
    await creada(t.token, { ...base, fin: finMaximo(hoy()) });
  });

  it('answers 404 for a CUPS that is not the holder’s, and gives nothing', async () => {
    const t = await titularConDos();
    const otro = await titularConSuministros(server, [(nif) => puntoNuevo(nif, 'epd')]);
    const res = await crear(t.token, {
      nif: nuevoCif(),
      nombre: 'Prueba',
      cups: [t.cups[0], otro.cups[0]],
      datos: todos,
      fin: sumarDias(hoy(), 3),
    });
    expect(res.status).toBe(404);
    expect(((await (await get(t.token, '/api/autorizaciones')).json()) as { dadas: unknown[] }).dadas).toEqual([]);
  });

  it('answers 401 without a session', async () => {
    expect((await llamar(server, 'GET', '/api/autorizaciones')).status).toBe(401);
    expect((await llamar(server, 'POST', '/api/autorizaciones', { body: {} })).status).toBe(401);
    expect((await llamar(server, 'POST', '/api/autorizaciones/00000000-0000-4000-8000-000000000000/revocacion')).status).toBe(401);
  });

  it('refuses to give or revoke through an impersonated session (403), and lets it read', async () => {
    const t = await titularConDos();
    const a = await creada(t.token, { nif: nuevoCif(), nombre: 'Prueba', cups: [t.cups[0]], datos: todos, fin: sumarDias(hoy(), 3) });
    const res = await llamar(server, 'POST', '/api/accesoUsuarioSuplantacion', { token: gestora.token, body: { username: t.u.email } });
    expect(res.status).toBe(200);
    const suplantada = ((await res.json()) as { jwtToken: string }).jwtToken;
    expect(
      (await crear(suplantada, { nif: nuevoCif(), nombre: 'X', cups: [t.cups[0]], datos: todos, fin: sumarDias(hoy(), 3) })).status,
    ).toBe(403);
    expect((await llamar(server, 'POST', `/api/autorizaciones/${a.id}/revocacion`, { token: suplantada })).status).toBe(403);
    expect((await get(suplantada, '/api/autorizaciones')).status).toBe(200);
    const dadas = ((await (await get(t.token, '/api/autorizaciones')).json()) as { dadas: Autorizacion[] }).dadas;
    expect(dadas.map((x) => [x.id, x.estado])).toEqual([[a.id, 'vigente']]);
  });

  it(`limits an account to ${LIMITES.crearAutorizacion.max} authorisations an hour (429); refused ones do not count`, async () => {
    const t = await titularConDos();
    const cuerpo = () => ({ nif: nuevoCif(), nombre: 'Prueba', cups: [t.cups[0]], datos: ['curvas'], fin: sumarDias(hoy(), 3) });
    expect((await crear(t.token, { ...cuerpo(), nif: 'X' })).status).toBe(400);
    for (let i = 0; i < LIMITES.crearAutorizacion.max; i++) await creada(t.token, cuerpo());
    expect((await crear(t.token, cuerpo())).status).toBe(429);
  });
});
