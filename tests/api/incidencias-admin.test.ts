import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { construirCups, MENSAJES_CUPS } from '../../src/lib/cups.ts';
import { mensajeCupsAjeno } from '../../src/lib/incidencias/gestion.ts';
import { todosLosPermisos } from '../../src/lib/permisos.ts';
import { auditLog } from '../../src/server/db/schema.ts';
import { MENSAJES_INCIDENCIAS } from '../../src/server/incidencias/admin.ts';
import { cuenta, llamar, sesion, type CuentaPrueba } from '../support/privado.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
let admin: CuentaPrueba;
let soloEpd: CuentaPrueba;
let token: string;
let tokenEpd: string;
beforeAll(async () => {
  server = await startTestServer();
  admin = await cuenta(server, { extra: todosLosPermisos(), prefijo: 'admin' });
  soloEpd = await cuenta(server, { extra: ['epd-administrador'], prefijo: 'admin-epd' });
});
afterAll(async () => {
  await server.close();
});
beforeEach(async () => {
  server.clock.advance(60 * 60 * 1000);
  token = (await sesion(server, admin.email)).jwtToken;
  tokenEpd = (await sesion(server, soloEpd.email)).jwtToken;
});

const CUPS_EPD = construirCups('9901', 123);
const CUPS_EOD = construirCups('9902', 456);

/** A valid incident of EPD starting in an hour, with `cambios`. */
function entrada(cambios: Record<string, unknown> = {}) {
  const inicio = new Date(server.clock.now().getTime() + 60 * 60 * 1000);
  return {
    distribuidora: 'epd',
    estado: 'Programada',
    descripcion: 'Sustitución del transformador del centro de la calle Mayor.',
    municipio: 'Alcalá de Henares',
    codigoIne: '28005',
    provincia: 'Madrid',
    codigosPostales: ['28801', '28802'],
    cups: [
      CUPS_EPD.toLowerCase()
        .replace(/(.{4})/g, '$1 ')
        .trim(),
    ],
    clientesAfectados: 120,
    inicio: inicio.toISOString(),
    finPrevisto: new Date(inicio.getTime() + 4 * 60 * 60 * 1000).toISOString(),
    ...cambios,
  };
}

interface IncidenciaAdmin {
  id: string;
  estado: string;
  distribuidora: string;
  cups: string[];
  fin: string | null;
  descripcion: string;
}

const crear = (body: unknown, t = token) => llamar(server, 'POST', '/api/administrador/incidencias', { token: t, body });

async function publicas(): Promise<{ id: string; estadoIncidenciaRed: string; descripcion: string }[]> {
  const res = await server.fetch('/api/incidenciasRed');
  expect(res.status).toBe(200);
  return (await res.json()) as { id: string; estadoIncidenciaRed: string; descripcion: string }[];
}

describe('creating, editing and closing an incident', () => {
  it('publishes a created incident, shows edits, and withdraws it once closed', async () => {
    const res = await crear(entrada());
    expect(res.status).toBe(201);
    const creada = (await res.json()) as IncidenciaAdmin & Record<string, unknown>;
    expect(creada).toMatchObject({
      distribuidora: 'epd',
      estado: 'Programada',
      cups: [CUPS_EPD],
      codigosPostales: ['28801', '28802'],
      clientesAfectados: 120,
      fin: null,
      creado: server.clock.now().toISOString(),
    });
    expect((await publicas()).find((i) => i.id === creada.id)).toMatchObject({ estadoIncidenciaRed: 'Programada' });
    // The public query by CUPS finds it too.
    const porCups = await llamar(server, 'POST', '/api/incidenciasRed', { body: { cups: CUPS_EPD } });
    expect(((await porCups.json()) as { id: string }[]).map((i) => i.id)).toContain(creada.id);

    const edicion = await llamar(server, 'PUT', `/api/administrador/incidencias/${creada.id}`, {
      token,
      body: entrada({ estado: 'En curso', descripcion: 'Avería en el transformador.', inicio: creada.inicio }),
    });
    expect(edicion.status).toBe(200);
    expect(await edicion.json()).toMatchObject({ estado: 'En curso', descripcion: 'Avería en el transformador.' });
    expect((await publicas()).find((i) => i.id === creada.id)).toMatchObject({
      estadoIncidenciaRed: 'En curso',
      descripcion: 'Avería en el transformador.',
    });

    server.clock.advance(2 * 60 * 60 * 1000);
    token = (await sesion(server, admin.email)).jwtToken;
    const cierre = await llamar(server, 'POST', `/api/administrador/incidencias/${creada.id}/cierre`, { token });
    expect(cierre.status).toBe(200);
    expect(await cierre.json()).toMatchObject({ estado: 'Cerrada', fin: server.clock.now().toISOString() });
    expect((await publicas()).find((i) => i.id === creada.id)).toBeUndefined();

    // Closed is final.
    const otraEdicion = await llamar(server, 'PUT', `/api/administrador/incidencias/${creada.id}`, { token, body: entrada() });
    expect(otraEdicion.status).toBe(409);
    expect(await otraEdicion.json()).toEqual({ message: MENSAJES_INCIDENCIAS.cerrada });
    expect((await llamar(server, 'POST', `/api/administrador/incidencias/${creada.id}/cierre`, { token, body: {} })).status).toBe(409);

    const acciones = await server.database.db
      .select({ action: auditLog.action, actor: auditLog.actorUserId })
      .from(auditLog)
      .where(and(eq(auditLog.targetType, 'incidencia'), eq(auditLog.targetId, creada.id)))
      .orderBy(auditLog.id);
    expect(acciones).toEqual([
      { action: 'incidencia.alta', actor: admin.id },
      { action: 'incidencia.cambio', actor: admin.id },
      { action: 'incidencia.cierre', actor: admin.id },
    ]);
  });

  it('closes at a given end, never before the start', async () => {
    const creada = (await (await crear(entrada())).json()) as IncidenciaAdmin & { inicio: string };
    const antes = new Date(Date.parse(creada.inicio) - 60_000).toISOString();
    const malo = await llamar(server, 'POST', `/api/administrador/incidencias/${creada.id}/cierre`, { token, body: { fin: antes } });
    expect(malo.status).toBe(400);
    expect(await malo.json()).toEqual([MENSAJES_INCIDENCIAS.finAntesDeInicio]);
    const noFecha = await llamar(server, 'POST', `/api/administrador/incidencias/${creada.id}/cierre`, { token, body: { fin: 'ayer' } });
    expect(noFecha.status).toBe(400);
    const fin = new Date(Date.parse(creada.inicio) + 30 * 60_000).toISOString();
    const ok = await llamar(server, 'POST', `/api/administrador/incidencias/${creada.id}/cierre`, { token, body: { fin } });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ estado: 'Cerrada', fin });
  });
});

describe('validation of an incident', () => {
  it('names each wrong CUPS: bad check letters, another distributor', async () => {
    const malas = `${CUPS_EPD.slice(0, 18)}${CUPS_EPD.slice(18) === 'AA' ? 'BB' : 'AA'}`;
    const res = await crear(entrada({ cups: [CUPS_EPD, malas, CUPS_EOD] }));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual([`${malas}: ${MENSAJES_CUPS.control}`, mensajeCupsAjeno(CUPS_EOD, 'ES9901')]);
  });

  it('refuses an expected end before the start, and bad codes, state and distributor, in Spanish', async () => {
    const inicio = new Date(server.clock.now().getTime() + 60 * 60 * 1000);
    const fin = await crear(entrada({ inicio: inicio.toISOString(), finPrevisto: new Date(inicio.getTime() - 1000).toISOString() }));
    expect(fin.status).toBe(400);
    expect(await fin.json()).toEqual(['El fin previsto no puede ser anterior al inicio.']);

    const varios = await crear(
      entrada({
        codigoIne: '99001',
        codigosPostales: ['28801', '53000'],
        estado: 'Cerrada',
        descripcion: '',
        clientesAfectados: -1,
        inicio: 'mañana',
      }),
    );
    expect(varios.status).toBe(400);
    const mensajes = (await varios.json()) as string[];
    expect(mensajes).toEqual(
      expect.arrayContaining([
        'Elija el estado: Programada, En curso o Activa.',
        'Describa la incidencia.',
        'El código INE del municipio tiene 5 cifras y empieza por el de su provincia (01 a 52).',
        'El código postal «53000» no es válido: tiene 5 cifras y empieza por 01 a 52.',
        'El número de clientes afectados no puede ser negativo.',
        'Indique la fecha y hora de inicio (ISO 8601).',
      ]),
    );
    expect((await crear(entrada({ distribuidora: 'xyz' }))).status).toBe(400);
    expect((await crear(entrada({ descripcion: 'x'.repeat(501) }))).status).toBe(400);
  });
});

describe("the distributor part of the administrator's permission", () => {
  it('limits creating, listing, editing and closing to the distributors one administers', async () => {
    const ajena = await crear(entrada({ distribuidora: 'eod', cups: [CUPS_EOD] }), tokenEpd);
    expect(ajena.status).toBe(403);
    const deEod = (await (
      await crear(entrada({ distribuidora: 'eod', cups: [CUPS_EOD], descripcion: 'Incidencia de EOD.' }))
    ).json()) as IncidenciaAdmin;
    const deEpd = (await (await crear(entrada({ descripcion: 'Incidencia de EPD.' }), tokenEpd)).json()) as IncidenciaAdmin;

    const lista = await llamar(server, 'GET', '/api/administrador/incidencias?porPagina=100', { token: tokenEpd });
    expect(lista.status).toBe(200);
    const filas = (await lista.json()) as IncidenciaAdmin[];
    expect(filas.every((i) => i.distribuidora === 'epd')).toBe(true);
    expect(filas.map((i) => i.id)).toContain(deEpd.id);
    expect(Number(lista.headers.get('x-total-count'))).toBe(filas.length);
    expect((await llamar(server, 'GET', '/api/administrador/incidencias?distribuidora=eod', { token: tokenEpd })).status).toBe(403);

    // Another distributor's incident is not theirs: 404, as if it did not exist.
    expect((await llamar(server, 'PUT', `/api/administrador/incidencias/${deEod.id}`, { token: tokenEpd, body: entrada() })).status).toBe(
      404,
    );
    expect((await llamar(server, 'POST', `/api/administrador/incidencias/${deEod.id}/cierre`, { token: tokenEpd })).status).toBe(404);
    // Nor can they move their own to a distributor they do not administer.
    const mover = await llamar(server, 'PUT', `/api/administrador/incidencias/${deEpd.id}`, {
      token: tokenEpd,
      body: entrada({ distribuidora: 'eod', cups: [CUPS_EOD] }),
    });
    expect(mover.status).toBe(403);
    expect((await llamar(server, 'PUT', '/api/administrador/incidencias/no-es-un-id', { token, body: entrada() })).status).toBe(404);
  });

  it('lists closed incidents too, filtered by state and text, newest start first among open ones', async () => {
    const marca = `Pueblo${Date.now() % 100000}`;
    const a = (await (await crear(entrada({ municipio: marca }))).json()) as IncidenciaAdmin;
    server.clock.advance(60_000);
    token = (await sesion(server, admin.email)).jwtToken;
    const b = (await (await crear(entrada({ municipio: marca, estado: 'Activa' }))).json()) as IncidenciaAdmin;
    // Called off before it started: it ends at its start.
    const anulada = await llamar(server, 'POST', `/api/administrador/incidencias/${a.id}/cierre`, { token });
    expect(anulada.status).toBe(200);
    expect(await anulada.json()).toMatchObject({ estado: 'Cerrada', fin: (a as IncidenciaAdmin & { inicio: string }).inicio });
    const todas = (await (
      await llamar(server, 'GET', `/api/administrador/incidencias?q=${marca.toLowerCase()}`, { token })
    ).json()) as IncidenciaAdmin[];
    expect(todas.map((i) => [i.id, i.estado])).toEqual([
      [b.id, 'Activa'],
      [a.id, 'Cerrada'],
    ]);
    const cerradas = (await (
      await llamar(server, 'GET', `/api/administrador/incidencias?q=${marca}&estado=Cerrada`, { token })
    ).json()) as IncidenciaAdmin[];
    expect(cerradas.map((i) => i.id)).toEqual([a.id]);
    expect((await llamar(server, 'GET', '/api/administrador/incidencias?estado=Abierta', { token })).status).toBe(400);
  });
});
