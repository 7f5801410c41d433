import { beforeEach, describe, expect, it } from 'vitest';
import { construirCups, esCupsValido, MENSAJES_CUPS } from '../../src/lib/cups.ts';
import { incidenciasRed } from '../../src/server/db/schema.ts';
import { createRandom } from '../../src/server/demo/random.ts';
import { demoIncidencias } from '../../src/server/incidencias/demo.ts';
import { listIncidenciasAbiertas, listIncidenciasDeCups } from '../../src/server/incidencias/service.ts';
import { unaVez } from '../support/ganchos.ts';
import { crearIncidencia } from '../support/incidencias.ts';
import { servidorDelFichero } from '../support/server.ts';

const server = servidorDelFichero();
// One server for the file, but no test sees another's incidents (nor the demo's).
beforeEach(async () => {
  await server.database.db.delete(incidenciasRed);
});

/** Inserts an incident (see `crearIncidencia`); answers its id. */
const crear = (cambios: Parameters<typeof crearIncidencia>[1] = {}) => crearIncidencia(server.database.db, cambios);

const consultar = (body: unknown) =>
  server.fetch('/api/incidenciasRed', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

const CUPS_A = construirCups('9901', 1001);
const CUPS_B = construirCups('9901', 1002);

describe('GET /api/incidenciasRed', () => {
  it('lists only open incidents, with the documented fields and nothing else', async () => {
    const abierta = await crear({
      estado: 'Activa',
      cups: [CUPS_A],
      codigosPostales: ['28901', '28902'],
      inicio: new Date('2026-11-02T08:15:00Z'),
      finPrevisto: null,
      clientesAfectados: null,
    });
    await crear({ estado: 'Cerrada', municipio: 'Parla', codigoIne: '28106', fin: new Date('2026-10-30T12:00:00Z') });

    const res = await server.fetch('/api/incidenciasRed');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([
      {
        id: abierta,
        estadoIncidenciaRed: 'Activa',
        distribuidora: 'epd',
        distribuidoraNombre: 'Electra Peninsular Distribución, S.L.',
        descripcion: 'Trabajos de mejora en el centro de transformación de la plaza Mayor.',
        municipio: 'Getafe',
        provincia: 'Madrid',
        codigoIne: '28065',
        codigosPostales: ['28901', '28902'],
        inicio: '2026-11-02T08:15:00.000Z',
        finPrevisto: null,
        clientesAfectados: null,
      },
    ]);
  });

  it('lets shared caches keep the list for a minute', async () => {
    const res = await server.fetch('/api/incidenciasRed');
    expect(res.headers.get('cache-control')).toBe('public, max-age=60');
  });

  it('never exposes the CUPS list or the author', async () => {
    await crear({ cups: [CUPS_A, CUPS_B] });
    const text = await (await server.fetch('/api/incidenciasRed')).text();
    expect(text).not.toContain(CUPS_A);
    expect(text).not.toMatch(/"cups"|createdBy|created_by/);
  });

  it('orders active incidents first (En curso and Activa alike), then each group by start', async () => {
    const programadaPronto = await crear({ estado: 'Programada', inicio: new Date('2026-11-03T07:00:00Z') });
    const programadaTarde = await crear({ estado: 'Programada', inicio: new Date('2026-11-09T07:00:00Z') });
    const activa = await crear({ estado: 'Activa', inicio: new Date('2026-11-02T08:30:00Z'), distribuidora: 'ecd' });
    const enCurso = await crear({ estado: 'En curso', inicio: new Date('2026-11-02T07:00:00Z'), distribuidora: 'eod' });

    const body = (await (await server.fetch('/api/incidenciasRed')).json()) as { id: string }[];
    expect(body.map((i) => i.id)).toEqual([enCurso, activa, programadaPronto, programadaTarde]);
  });

  it('answers an empty list when there is no open incident', async () => {
    await crear({ estado: 'Cerrada' });
    expect(await (await server.fetch('/api/incidenciasRed')).json()).toEqual([]);
  });
});

describe('POST /api/incidenciasRed', () => {
  it('answers the open incidents that list a 20-character CUPS', async () => {
    const afecta = await crear({ cups: [CUPS_B, CUPS_A] });
    await crear({ cups: [CUPS_B] });
    await crear({ estado: 'Cerrada', cups: [CUPS_A] });

    const res = await consultar({ cups: CUPS_A });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { id: string; estadoIncidenciaRed: string }[];
    expect(body.map((i) => i.id)).toEqual([afecta]);
    expect(body[0]).toMatchObject({ estadoIncidenciaRed: 'Programada', municipio: 'Getafe' });
    expect(body[0]).not.toHaveProperty('cups');
  });

  it('matches the 22-character form of the same supply point, written as on a bill', async () => {
    const afecta = await crear({ cups: [CUPS_A] });
    const conFrontera = `${CUPS_A}0F`.toLowerCase().replace(/(.{4})/g, '$1 ');
    const res = await consultar({ cups: conFrontera });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { id: string }[]).map((i) => i.id)).toEqual([afecta]);
  });

  it('answers an empty list for a valid CUPS that no incident lists', async () => {
    await crear({ cups: [CUPS_A] });
    const res = await consultar({ cups: CUPS_B });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([]);
  });

  it('refuses a CUPS of the wrong length with its Spanish message', async () => {
    const res = await consultar({ cups: 'ES0021000000' });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual([MENSAJES_CUPS.longitud]);
  });

  it('refuses a CUPS whose check letters do not match its digits', async () => {
    const erroneo = CUPS_A.slice(0, 18) + (CUPS_A[18] === 'T' ? 'R' : 'T') + CUPS_A[19];
    const res = await consultar({ cups: erroneo });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual([MENSAJES_CUPS.control]);
  });

  it.each([
    ['an empty body', {}],
    ['another field', { cup: CUPS_A }],
    ['a number', { cups: 12 }],
  ])('refuses a body without the cups field (%s), in Spanish', async (_, body) => {
    const res = await consultar(body);
    expect(res.status, JSON.stringify(body)).toBe(400);
    expect(await res.json()).toEqual([MENSAJES_CUPS.vacio]);
  });

  it('refuses a request that is not JSON with 415, in Spanish', async () => {
    const res = await server.fetch('/api/incidenciasRed', { method: 'POST', body: `cups=${CUPS_A}` });
    expect(res.status).toBe(415);
    expect(((await res.json()) as { message: string }).message).toMatch(/^Envíe la consulta en JSON/);
  });

  it('refuses a request without a body as one without the cups field', async () => {
    const sinCuerpo = await server.fetch('/api/incidenciasRed', { method: 'POST' });
    expect(sinCuerpo.status).toBe(400);
    expect(await sinCuerpo.json()).toEqual([MENSAJES_CUPS.vacio]);
  });

  it('refuses broken JSON, saying so', async () => {
    const roto = await server.fetch('/api/incidenciasRed', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"cups":',
    });
    expect(roto.status).toBe(400);
    expect(((await roto.json()) as { message: string }).message).toMatch(/JSON/);
  });

  it('refuses an oversized body before reading it', async () => {
    const res = await consultar({ cups: CUPS_A, relleno: 'x'.repeat(5_000) });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { message: string }).message).toMatch(/demasiado grande/);
  });

  it('is not cached by shared caches', async () => {
    const res = await consultar({ cups: CUPS_A });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});

describe('OpenAPI', () => {
  it('documents both operations as public', async () => {
    const doc = (await (await server.fetch('/api/openapi.json')).json()) as {
      paths: Record<string, Record<string, { tags?: string[]; security?: unknown; responses: Record<string, unknown> }>>;
    };
    const ruta = doc.paths['/incidenciasRed']!;
    expect(ruta.get?.tags).toEqual(['Público']);
    expect(ruta.post?.tags).toEqual(['Público']);
    expect(Object.keys(ruta.post!.responses)).toEqual(expect.arrayContaining(['200', '400']));
  });
});

describe('demo incidents', () => {
  const now = new Date('2026-11-02T09:00:00Z');
  /** The incidents' own generator, as the demo load runs it (the whole demo is tested in database.test.ts). */
  const demo = unaVez(async () => {
    const { db } = server.database;
    await demoIncidencias(db, createRandom(20_250_428), now, { publicUrl: 'http://portal.test' });
    const deEpd = [];
    for (let id = 1; id <= 5; id++) deEpd.push((await listIncidenciasDeCups(db, construirCups('9901', id))).length);
    return { todas: await db.select().from(incidenciasRed), abiertas: await listIncidenciasAbiertas(db), deEpd };
  });

  it('are between 10 and 14', () => {
    expect(demo.todas.length).toBeGreaterThanOrEqual(10);
    expect(demo.todas.length).toBeLessThanOrEqual(14);
  });

  it('cover every state', () => {
    expect(new Set(demo.todas.map((i) => i.estado))).toEqual(new Set(['Programada', 'En curso', 'Activa', 'Cerrada']));
  });

  it('cover the three distributors among the open ones', () => {
    expect(new Set(demo.abiertas.map((i) => i.distribuidora))).toEqual(new Set(['epd', 'eod', 'ecd']));
  });

  it('give each open one a municipality by its INE code', () => {
    for (const i of demo.abiertas) expect(i.codigoIne).toMatch(/^\d{5}$/);
  });

  it('start in the future when planned, in the past otherwise', () => {
    for (const i of demo.abiertas) {
      if (i.estadoIncidenciaRed === 'Programada') expect(Date.parse(i.inicio)).toBeGreaterThan(now.getTime());
      else expect(Date.parse(i.inicio)).toBeLessThanOrEqual(now.getTime());
    }
  });

  it('expect to end in the future while open', () => {
    for (const i of demo.abiertas) if (i.finPrevisto) expect(Date.parse(i.finPrevisto)).toBeGreaterThan(now.getTime());
  });

  it('ended in the past once closed', () => {
    for (const c of demo.todas.filter((i) => i.estado === 'Cerrada')) expect(c.fin!.getTime()).toBeLessThan(now.getTime());
  });

  it('list only valid 20-character CUPS', () => {
    for (const i of demo.todas) for (const cups of i.cups) expect(esCupsValido(cups) && cups.length === 20, cups).toBe(true);
  });

  it.each([1, 2, 3, 4, 5])('reach EPD supply point %i', (id) => {
    expect(demo.deEpd[id - 1], `EPD ${id}`).toBeGreaterThan(0);
  });
});
