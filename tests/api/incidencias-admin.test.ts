import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { construirCups, MENSAJES_CUPS } from '../../src/lib/cups.ts';
import { mensajeCupsAjeno } from '../../src/lib/incidencias/gestion.ts';
import { auditLog } from '../../src/server/db/schema.ts';
import { MENSAJES_INCIDENCIAS } from '../../src/server/incidencias/admin.ts';
import { unaVez } from '../support/ganchos.ts';
import { gestoraDelFichero, llamar, sesion } from '../support/privado.ts';
import { servidorDelFichero, unaHoraMasEnCadaTest } from '../support/server.ts';

const server = servidorDelFichero();
unaHoraMasEnCadaTest(server);
/** An administrator of every distributor, and one of EPD alone. */
const admin = gestoraDelFichero(server);
const soloEpd = gestoraDelFichero(server, ['epd-administrador']);

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

const crear = (body: unknown, token = admin.token) => llamar(server, 'POST', '/api/administrador/incidencias', { token, body });
const editar = (id: string, body: unknown, token = admin.token) =>
  llamar(server, 'PUT', `/api/administrador/incidencias/${id}`, { token, body });
const cerrar = (id: string, body?: unknown, token = admin.token) =>
  llamar(server, 'POST', `/api/administrador/incidencias/${id}/cierre`, { token, body });

async function publicas(): Promise<{ id: string; estadoIncidenciaRed: string; descripcion: string }[]> {
  const res = await server.fetch('/api/incidenciasRed');
  expect(res.status).toBe(200);
  return (await res.json()) as { id: string; estadoIncidenciaRed: string; descripcion: string }[];
}

describe('creating, editing and closing an incident', () => {
  /** An incident created, edited and closed two hours later; what each step answered and what the public saw. */
  const vida = unaVez(async () => {
    const { jwtToken: token } = await sesion(server, admin.a.email);
    const creado = server.clock.now().toISOString();
    const res = await crear(entrada(), token);
    const alta = { status: res.status, body: (await res.json()) as IncidenciaAdmin & Record<string, unknown> };
    const id = alta.body.id;
    const deLasPublicas = async () => (await publicas()).find((i) => i.id === id);
    const publicada = await deLasPublicas();
    // The public query by CUPS finds it too.
    const porCups = (await (await llamar(server, 'POST', '/api/incidenciasRed', { body: { cups: CUPS_EPD } })).json()) as { id: string }[];
    const cambio = entrada({ estado: 'En curso', descripcion: 'Avería en el transformador.', inicio: alta.body.inicio });
    const edicion = await editar(id, cambio, token);
    const editada = { status: edicion.status, body: await edicion.json(), publica: await deLasPublicas() };
    server.clock.advance(2 * 60 * 60 * 1000);
    const otroToken = (await sesion(server, admin.a.email)).jwtToken;
    const cierre = await cerrar(id, undefined, otroToken);
    const cerrada = {
      status: cierre.status,
      body: await cierre.json(),
      ahora: server.clock.now().toISOString(),
      publica: await deLasPublicas(),
    };
    return { creado, alta, id, publicada, porCups, editada, cerrada };
  });

  it('creates it as given, with the CUPS in their standard form', () => {
    expect(vida.alta.status).toBe(201);
    expect(vida.alta.body).toMatchObject({
      distribuidora: 'epd',
      estado: 'Programada',
      cups: [CUPS_EPD],
      codigosPostales: ['28801', '28802'],
      clientesAfectados: 120,
      fin: null,
      creado: vida.creado,
    });
  });

  it('publishes a created incident at once', () => {
    expect(vida.publicada).toMatchObject({ estadoIncidenciaRed: 'Programada' });
  });

  it('lets the public query by CUPS find it', () => {
    expect(vida.porCups.map((i) => i.id)).toContain(vida.id);
  });

  it('shows edits to the public', () => {
    expect(vida.editada.status).toBe(200);
    expect(vida.editada.body).toMatchObject({ estado: 'En curso', descripcion: 'Avería en el transformador.' });
    expect(vida.editada.publica).toMatchObject({ estadoIncidenciaRed: 'En curso', descripcion: 'Avería en el transformador.' });
  });

  it('closes it now, withdrawing it from the public', () => {
    expect(vida.cerrada.status).toBe(200);
    expect(vida.cerrada.body).toMatchObject({ estado: 'Cerrada', fin: vida.cerrada.ahora });
    expect(vida.cerrada.publica).toBeUndefined();
  });

  it('refuses edits once it is closed', async () => {
    const otraEdicion = await editar(vida.id, entrada());
    expect(otraEdicion.status).toBe(409);
    expect(await otraEdicion.json()).toEqual({ message: MENSAJES_INCIDENCIAS.cerrada });
  });

  it('refuses closing it again', async () => {
    expect((await cerrar(vida.id, {})).status).toBe(409);
  });

  it('audits each action, naming the administrator', async () => {
    const acciones = await server.database.db
      .select({ action: auditLog.action, actor: auditLog.actorUserId })
      .from(auditLog)
      .where(and(eq(auditLog.targetType, 'incidencia'), eq(auditLog.targetId, vida.id)))
      .orderBy(auditLog.id);
    expect(acciones).toEqual([
      { action: 'incidencia.alta', actor: admin.a.id },
      { action: 'incidencia.cambio', actor: admin.a.id },
      { action: 'incidencia.cierre', actor: admin.a.id },
    ]);
  });

  /** A new incident of EPD. */
  const nueva = async () => (await (await crear(entrada())).json()) as IncidenciaAdmin & { inicio: string };

  it('refuses to close an incident before its start', async () => {
    const creada = await nueva();
    const malo = await cerrar(creada.id, { fin: new Date(Date.parse(creada.inicio) - 60_000).toISOString() });
    expect(malo.status).toBe(400);
    expect(await malo.json()).toEqual([MENSAJES_INCIDENCIAS.finAntesDeInicio]);
  });

  it('refuses to close an incident at an end that is no date', async () => {
    expect((await cerrar((await nueva()).id, { fin: 'ayer' })).status).toBe(400);
  });

  it('closes an incident at a given end', async () => {
    const creada = await nueva();
    const fin = new Date(Date.parse(creada.inicio) + 30 * 60_000).toISOString();
    const ok = await cerrar(creada.id, { fin });
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

  it('refuses an expected end before the start, in Spanish', async () => {
    const inicio = new Date(server.clock.now().getTime() + 60 * 60 * 1000);
    const fin = await crear(entrada({ inicio: inicio.toISOString(), finPrevisto: new Date(inicio.getTime() - 1000).toISOString() }));
    expect(fin.status).toBe(400);
    expect(await fin.json()).toEqual(['El fin previsto no puede ser anterior al inicio.']);
  });

  it('refuses bad codes, state, description, count and start, each with its Spanish message', async () => {
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
  });

  it.each([
    ['an unknown distributor', { distribuidora: 'xyz' }],
    ['a description over 500 characters', { descripcion: 'x'.repeat(501) }],
  ])('refuses %s', async (_, cambios) => {
    expect((await crear(entrada(cambios))).status).toBe(400);
  });
});

describe("the distributor part of the administrator's permission", () => {
  /** An incident of EOD and one of EPD, the latter created by the administrator of EPD alone. */
  const dos = unaVez(async () => {
    const { jwtToken: token } = await sesion(server, admin.a.email);
    const { jwtToken: tokenEpd } = await sesion(server, soloEpd.a.email);
    const eod = entrada({ distribuidora: 'eod', cups: [CUPS_EOD], descripcion: 'Incidencia de EOD.' });
    const deEod = (await (await crear(eod, token)).json()) as IncidenciaAdmin;
    const deEpd = (await (await crear(entrada({ descripcion: 'Incidencia de EPD.' }), tokenEpd)).json()) as IncidenciaAdmin;
    return { deEod, deEpd };
  });

  it('refuses to create an incident of a distributor one does not administer', async () => {
    const ajena = await crear(entrada({ distribuidora: 'eod', cups: [CUPS_EOD] }), soloEpd.token);
    expect(ajena.status).toBe(403);
  });

  it('lists only the incidents of the distributors one administers, with their total', async () => {
    const lista = await llamar(server, 'GET', '/api/administrador/incidencias?porPagina=100', { token: soloEpd.token });
    expect(lista.status).toBe(200);
    const filas = (await lista.json()) as IncidenciaAdmin[];
    expect(filas.every((i) => i.distribuidora === 'epd')).toBe(true);
    expect(filas.map((i) => i.id)).toContain(dos.deEpd.id);
    expect(Number(lista.headers.get('x-total-count'))).toBe(filas.length);
  });

  it('refuses a list of a distributor one does not administer', async () => {
    expect((await llamar(server, 'GET', '/api/administrador/incidencias?distribuidora=eod', { token: soloEpd.token })).status).toBe(403);
  });

  it("answers 404 to editing or closing another distributor's incident, as if it did not exist", async () => {
    expect((await editar(dos.deEod.id, entrada(), soloEpd.token)).status).toBe(404);
    expect((await cerrar(dos.deEod.id, undefined, soloEpd.token)).status).toBe(404);
  });

  it('refuses moving an incident to a distributor one does not administer', async () => {
    const mover = await editar(dos.deEpd.id, entrada({ distribuidora: 'eod', cups: [CUPS_EOD] }), soloEpd.token);
    expect(mover.status).toBe(403);
  });

  it('answers 404 to an id that is none', async () => {
    expect((await editar('no-es-un-id', entrada())).status).toBe(404);
  });
});

describe('the list of incidents', () => {
  /** Two incidents of one village a minute apart, the first called off before it started. */
  const pueblo = unaVez(async () => {
    const marca = `Pueblo${Date.now() % 100000}`;
    const { jwtToken: token } = await sesion(server, admin.a.email);
    const a = (await (await crear(entrada({ municipio: marca }), token)).json()) as IncidenciaAdmin & { inicio: string };
    server.clock.advance(60_000);
    const otroToken = (await sesion(server, admin.a.email)).jwtToken;
    const b = (await (await crear(entrada({ municipio: marca, estado: 'Activa' }), otroToken)).json()) as IncidenciaAdmin;
    const anulada = await cerrar(a.id, undefined, otroToken);
    return { marca, a, b, anulada: { status: anulada.status, body: await anulada.json() } };
  });
  const buscar = async (consulta: string) =>
    (await (await llamar(server, 'GET', `/api/administrador/incidencias?${consulta}`, { token: admin.token })).json()) as IncidenciaAdmin[];

  it('closes an incident called off before it started at its start', () => {
    expect(pueblo.anulada.status).toBe(200);
    expect(pueblo.anulada.body).toMatchObject({ estado: 'Cerrada', fin: pueblo.a.inicio });
  });

  it('lists closed incidents too, found by text in any case, open ones first', async () => {
    const todas = await buscar(`q=${pueblo.marca.toLowerCase()}`);
    expect(todas.map((i) => [i.id, i.estado])).toEqual([
      [pueblo.b.id, 'Activa'],
      [pueblo.a.id, 'Cerrada'],
    ]);
  });

  it('filters by state', async () => {
    expect((await buscar(`q=${pueblo.marca}&estado=Cerrada`)).map((i) => i.id)).toEqual([pueblo.a.id]);
  });

  it('refuses an unknown state', async () => {
    expect((await llamar(server, 'GET', '/api/administrador/incidencias?estado=Abierta', { token: admin.token })).status).toBe(400);
  });
});
