/**
 * Scheduled readings and meter state through HTTP: ownership (404 for another holder's
 * CUPS, with no data), 401 and 403, the schedule as JSON and as an iCalendar file read back with
 * ical.js, the meter state with its register readings, and the administration of meter states (the
 * distributor's administrator only, never an impersonated session, always audited).
 */
import { and, eq } from 'drizzle-orm';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { construirCups } from '../../src/lib/cups.ts';
import { MENSAJES_ESTADO } from '../../src/lib/lecturas/estado-contador.ts';
import { todosLosPermisos, type Permiso } from '../../src/lib/permisos.ts';
import { MENSAJE_SUPLANTADO } from '../../src/server/auth/middleware.ts';
import { auditLog } from '../../src/server/db/schema.ts';
import type { EstadoAdminRespuesta } from '../../src/lib/lecturas/respuestas.ts';
import type { EstadosRespuesta, ProgramaRespuesta } from '../../src/lib/lecturas/respuestas.ts';
import { guardarEstadosContador, guardarLecturasContador } from '../../src/server/lecturas/service.ts';
import type { SuministroEntrada } from '../../src/server/suministros/service.ts';
import { cuenta, llamar, sesion, type CuentaPrueba } from '../support/privado.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { suministroPrueba, titularConSuministros } from '../support/suministros.ts';

let server: TestServer;
let seq = 0;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const REE = { epd: '9901', eod: '9902', ecd: '9903' } as const;

/** A supply point of `nif` at a distributor with a fresh CUPS. */
function punto(nif: string, d: 'epd' | 'eod' | 'ecd', extra: Partial<SuministroEntrada> = {}): SuministroEntrada {
  return suministroPrueba(construirCups(REE[d], 7_000_000 + ++seq * 10 + Math.floor(Math.random() * 10)), d, nif, extra);
}

/** A holder with these supply points, logged in. */
const titularCon = (puntos: ((nif: string) => SuministroEntrada)[]) => titularConSuministros(server, puntos);

/** The id of a supply point by CUPS. */
async function idDe(cups: string): Promise<number> {
  const { suministros } = await import('../../src/server/db/schema.ts');
  const [s] = await server.database.db.select({ id: suministros.id }).from(suministros).where(eq(suministros.cups, cups));
  return s!.id;
}

/** An administrator of some distributors, logged in. */
async function administrador(permisos: Permiso[]): Promise<{ u: CuentaPrueba; token: string }> {
  const u = await cuenta(server, { extra: permisos, prefijo: 'admin', nombre: 'Ana', apellido1: 'Gestora' });
  return { u, token: (await sesion(server, u.email)).jwtToken };
}

describe('GET /api/lecturasProgramadas', () => {
  it('answers 401 without a session and 403 to an account that holds no supply point', async () => {
    expect((await llamar(server, 'GET', '/api/lecturasProgramadas')).status).toBe(401);
    const sin = await cuenta(server);
    const { jwtToken } = await sesion(server, sin.email);
    expect((await llamar(server, 'GET', '/api/lecturasProgramadas', { token: jwtToken })).status).toBe(403);
    expect((await llamar(server, 'GET', '/api/lecturasProgramadas.ics', { token: jwtToken })).status).toBe(403);
    expect((await llamar(server, 'GET', '/api/estadoContador', { token: jwtToken })).status).toBe(403);
  });

  it("answers 404 for another holder's CUPS on every call, with no data of theirs", async () => {
    const a = await titularCon([(n) => punto(n, 'epd')]);
    const b = await titularCon([(n) => punto(n, 'epd', { direccion: 'Calle Secreta, 9' })]);
    for (const ruta of ['/api/lecturasProgramadas', '/api/lecturasProgramadas.ics', '/api/estadoContador']) {
      const res = await llamar(server, 'GET', `${ruta}?cups=${b.cups[0]}`, { token: a.token });
      expect(res.status, ruta).toBe(404);
      const texto = await res.text();
      expect(texto).not.toContain('Calle Secreta');
      expect(texto).not.toContain(b.cups[0]);
    }
  });

  it("lists the next twelve months of readings of each of the holder's supply points, and only theirs", async () => {
    const a = await titularCon([
      (n) => punto(n, 'epd', { cicloLectura: 7, telegestionado: false, periodicidadFacturacion: 'mensual' }),
      (n) => punto(n, 'eod', { cicloLectura: 28, periodicidadFacturacion: 'bimestral' }),
    ]);
    await titularCon([(n) => punto(n, 'epd')]);
    const res = await llamar(server, 'GET', '/api/lecturasProgramadas', { token: a.token });
    expect(res.status).toBe(200);
    const cuerpo = (await res.json()) as ProgramaRespuesta;
    // The test clock reads 2 November 2026.
    expect(cuerpo).toMatchObject({ hoy: '2026-11-02', desde: '2026-11-02', hasta: '2027-11-01' });
    expect(cuerpo.suministros.map((s) => s.cups).sort()).toEqual([...a.cups].sort());
    const visitas = cuerpo.suministros.find((s) => s.cups === a.cups[0])!;
    expect(visitas.lecturas).toHaveLength(12);
    // 7 November 2026 is a Saturday: the reader comes on Monday 9.
    expect(visitas.lecturas[0]).toMatchObject({
      fecha: '2026-11-09',
      fechaCiclo: '2026-11-07',
      tipo: 'visita',
      autolectura: { desde: '2026-11-04', hasta: '2026-11-11' },
    });
    const remotas = cuerpo.suministros.find((s) => s.cups === a.cups[1])!;
    expect(remotas.lecturas.map((l) => l.fecha)).toEqual([
      '2026-12-28',
      '2027-02-28',
      '2027-04-28',
      '2027-06-28',
      '2027-08-28',
      '2027-10-28',
    ]);
    expect(remotas.lecturas.every((l) => l.tipo === 'cierre_remoto' && l.autolectura === null)).toBe(true);
  });

  it('keeps the phase of a bimonthly route from its latest reading', async () => {
    const a = await titularCon([(n) => punto(n, 'ecd', { cicloLectura: 10, periodicidadFacturacion: 'bimestral' })]);
    await guardarLecturasContador(server.database.db, [
      {
        suministroId: await idDe(a.cups[0]!),
        momento: new Date('2026-09-09T22:00:00Z'),
        origen: 'real',
        activaKwh: [1, 2, 3],
        exportadaKwh: null,
      },
    ]);
    const cuerpo = (await (
      await llamar(server, 'GET', `/api/lecturasProgramadas?cups=${a.cups[0]}`, { token: a.token })
    ).json()) as ProgramaRespuesta;
    expect(cuerpo.suministros[0]!.lecturas.map((l) => l.fecha.slice(0, 7))).toEqual([
      '2026-11',
      '2027-01',
      '2027-03',
      '2027-05',
      '2027-07',
      '2027-09',
    ]);
  });
});

describe('GET /api/lecturasProgramadas.ics', () => {
  it('answers an iCalendar file whose events are the readings of the JSON answer', async () => {
    const a = await titularCon([
      (n) => punto(n, 'epd', { cicloLectura: 25, telegestionado: false }),
      (n) => punto(n, 'eod', { cicloLectura: 3 }),
    ]);
    const res = await llamar(server, 'GET', '/api/lecturasProgramadas.ics', { token: a.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="lecturas-programadas.ics"');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const texto = await res.text();
    expect(texto.replaceAll('\r\n', '')).not.toMatch(/[\r\n]/);
    const calendario = new ICAL.Component(ICAL.parse(texto));
    const eventos = calendario.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
    const json = (await (await llamar(server, 'GET', '/api/lecturasProgramadas', { token: a.token })).json()) as ProgramaRespuesta;
    const esperadas = json.suministros.flatMap((s) => s.lecturas.map((l) => `${s.cups} ${l.fecha}`)).sort();
    expect(eventos.map((e) => `${/ES\d{16}[A-Z]{2}/.exec(e.uid)![0]} ${e.startDate.toString()}`).sort()).toEqual(esperadas);
    expect(eventos.every((e) => e.startDate.isDate)).toBe(true);
    // 25 December 2026 is a Friday: the visit is on Monday 28, with a reminder the day before.
    const navidad = eventos.find((e) => e.uid.includes(a.cups[0]!) && e.startDate.toString() === '2026-12-28')!;
    expect(navidad.description).toContain('festivo nacional (Natividad del Señor)');
    expect(navidad.component.getFirstSubcomponent('valarm')).not.toBeNull();
  });

  it('answers one supply point alone, named after its CUPS, with the same UIDs on every download', async () => {
    const a = await titularCon([(n) => punto(n, 'epd'), (n) => punto(n, 'epd')]);
    const uno = await llamar(server, 'GET', `/api/lecturasProgramadas.ics?cups=${a.cups[1]}`, { token: a.token });
    expect(uno.headers.get('content-disposition')).toBe(`attachment; filename="lecturas-${a.cups[1]}.ics"`);
    const texto = await uno.text();
    expect(texto).not.toContain(a.cups[0]);
    const uids = (t: string) => new ICAL.Component(ICAL.parse(t)).getAllSubcomponents('vevent').map((v) => v.getFirstPropertyValue('uid'));
    server.clock.advance(60_000);
    const otra = await (await llamar(server, 'GET', `/api/lecturasProgramadas.ics?cups=${a.cups[1]}`, { token: a.token })).text();
    expect(uids(otra)).toEqual(uids(texto));
    expect(uids(texto)).toHaveLength(12);
  });
});

describe('GET /api/estadoContador', () => {
  it('says the state is not known yet when there is none, and answers it with the readings once written', async () => {
    const a = await titularCon([(n) => punto(n, 'epd')]);
    const id = await idDe(a.cups[0]!);
    let cuerpo = (await (await llamar(server, 'GET', '/api/estadoContador', { token: a.token })).json()) as EstadosRespuesta;
    expect(cuerpo.suministros).toEqual([expect.objectContaining({ cups: a.cups[0], estado: null, lecturas: [] })]);

    await guardarEstadosContador(
      server.database.db,
      [
        {
          suministroId: id,
          comunica: false,
          ultimaComunicacion: new Date('2026-10-20T08:00:00Z'),
          interruptor: 'abierto_exceso',
          estadoSuministro: 'con_suministro',
          motivo: null,
        },
      ],
      { origen: 'telegestion', actualizadoPor: null, ahora: new Date('2026-11-02T08:00:00Z') },
    );
    await guardarLecturasContador(server.database.db, [
      { suministroId: id, momento: new Date('2026-09-30T22:00:00Z'), origen: 'real', activaKwh: [100, 200, 300], exportadaKwh: null },
      { suministroId: id, momento: new Date('2026-10-31T23:00:00Z'), origen: 'estimada', activaKwh: [130, 250, 420], exportadaKwh: null },
    ]);
    cuerpo = (await (await llamar(server, 'GET', `/api/estadoContador?cups=${a.cups[0]}`, { token: a.token })).json()) as EstadosRespuesta;
    const s = cuerpo.suministros[0]!;
    expect(s.estado).toEqual({
      comunica: false,
      ultimaComunicacion: '2026-10-20T08:00:00.000Z',
      interruptor: 'abierto_exceso',
      estadoSuministro: 'con_suministro',
      motivo: null,
      actualizadoEn: '2026-11-02T08:00:00.000Z',
    });
    expect(s.lecturas.map((l) => [l.fecha, l.origen, l.periodos.map((p) => `${p.nombre} ${p.kwh}`), l.consumoKwh])).toEqual([
      ['2026-11-01', 'estimada', ['Punta 130', 'Llano 250', 'Valle 420'], 200],
      ['2026-10-01', 'real', ['Punta 100', 'Llano 200', 'Valle 300'], null],
    ]);
  });
});

describe('administration of meter states', () => {
  const cambio = {
    comunica: true,
    interruptor: 'abierto_remoto',
    estadoSuministro: 'cortado',
    motivo: 'Corte por impago solicitado por su comercializadora.',
  };

  it("changes a meter's state, audits it, and its holder sees the change", async () => {
    const a = await titularCon([(n) => punto(n, 'epd', { titularNombre: 'Lucía Prueba' })]);
    const admin = await administrador(['epd-administrador']);
    const ver = await llamar(server, 'GET', `/api/administrador/contadores/${a.cups[0]}`, { token: admin.token });
    expect(ver.status).toBe(200);
    expect((await ver.json()) as EstadoAdminRespuesta).toMatchObject({ cups: a.cups[0], titular: 'Lucía Prueba', estado: null });

    const res = await llamar(server, 'PUT', `/api/administrador/contadores/${a.cups[0]}`, { token: admin.token, body: cambio });
    expect(res.status).toBe(200);
    const guardado = (await res.json()) as EstadoAdminRespuesta;
    expect(guardado.estado).toMatchObject({
      comunica: true,
      ultimaComunicacion: server.clock.now().toISOString(),
      interruptor: 'abierto_remoto',
      estadoSuministro: 'cortado',
      motivo: cambio.motivo,
      origen: 'administrador',
      actualizadoPor: { nombre: 'Ana Gestora', email: admin.u.email },
    });

    const [entrada] = await server.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'contador.estado'), eq(auditLog.targetId, a.cups[0]!)));
    expect(entrada).toMatchObject({ actorUserId: admin.u.id, targetType: 'suministro' });
    expect(entrada!.details).toEqual({
      distribuidora: 'epd',
      antes: null,
      despues: { comunica: true, interruptor: 'abierto_remoto', estadoSuministro: 'cortado', motivo: cambio.motivo },
    });

    const visto = (await (await llamar(server, 'GET', '/api/estadoContador', { token: a.token })).json()) as EstadosRespuesta;
    expect(visto.suministros[0]!.estado).toMatchObject({ estadoSuministro: 'cortado', motivo: cambio.motivo });
  });

  it('answers 403 to an administrator of another distributor, for a CUPS that exists and one that does not', async () => {
    const a = await titularCon([(n) => punto(n, 'epd')]);
    const ajeno = await administrador(['eod-administrador', 'ecd-administrador']);
    const ver = await llamar(server, 'GET', `/api/administrador/contadores/${a.cups[0]}`, { token: ajeno.token });
    expect(ver.status).toBe(403);
    expect(await ver.text()).not.toContain(a.u.nif);
    expect((await llamar(server, 'PUT', `/api/administrador/contadores/${a.cups[0]}`, { token: ajeno.token, body: cambio })).status).toBe(
      403,
    );
    expect(
      (await llamar(server, 'GET', `/api/administrador/contadores/${construirCups('9901', 999_999_999)}`, { token: ajeno.token })).status,
    ).toBe(403);
    const visto = (await (await llamar(server, 'GET', '/api/estadoContador', { token: a.token })).json()) as EstadosRespuesta;
    expect(visto.suministros[0]!.estado).toBeNull();
  });

  it('answers 403 to an impersonated session, even one started by an administrator of every distributor', async () => {
    const a = await titularCon([(n) => punto(n, 'epd')]);
    const admin = await administrador(todosLosPermisos());
    const suplantacion = await llamar(server, 'POST', '/api/accesoUsuarioSuplantacion', {
      token: admin.token,
      body: { username: a.u.email },
    });
    expect(suplantacion.status).toBe(200);
    const { jwtToken } = (await suplantacion.json()) as { jwtToken: string };
    const res = await llamar(server, 'PUT', `/api/administrador/contadores/${a.cups[0]}`, { token: jwtToken, body: cambio });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { message: string }).message).toBe(MENSAJE_SUPLANTADO);
    expect((await llamar(server, 'GET', `/api/administrador/contadores/${a.cups[0]}`, { token: jwtToken })).status).toBe(403);
  });

  it('answers 403 to a holder who is no administrator', async () => {
    const a = await titularCon([(n) => punto(n, 'epd')]);
    expect((await llamar(server, 'PUT', `/api/administrador/contadores/${a.cups[0]}`, { token: a.token, body: cambio })).status).toBe(403);
  });

  it('refuses a cut without a reason and a future communication, in Spanish, and changes nothing', async () => {
    const a = await titularCon([(n) => punto(n, 'eod')]);
    const admin = await administrador(['eod-administrador']);
    const sinMotivo = await llamar(server, 'PUT', `/api/administrador/contadores/${a.cups[0]}`, {
      token: admin.token,
      body: { ...cambio, motivo: '  ' },
    });
    expect(sinMotivo.status).toBe(400);
    expect(await sinMotivo.json()).toEqual([MENSAJES_ESTADO.motivoObligatorio]);
    const futura = await llamar(server, 'PUT', `/api/administrador/contadores/${a.cups[0]}`, {
      token: admin.token,
      body: { comunica: true, ultimaComunicacion: '2030-01-01T00:00:00Z', interruptor: 'cerrado', estadoSuministro: 'con_suministro' },
    });
    expect(futura.status).toBe(400);
    expect(await futura.json()).toEqual([MENSAJES_ESTADO.ultimaComunicacionFutura]);
    const ver = (await (
      await llamar(server, 'GET', `/api/administrador/contadores/${a.cups[0]}`, { token: admin.token })
    ).json()) as EstadoAdminRespuesta;
    expect(ver.estado).toBeNull();
  });

  it('answers 400 for a malformed CUPS and 404 for one of an administered distributor that does not exist', async () => {
    const admin = await administrador(['epd-administrador']);
    const mal = await llamar(server, 'GET', '/api/administrador/contadores/ES9901000000000001XX', { token: admin.token });
    expect(mal.status).toBe(400);
    const nadie = await llamar(server, 'GET', `/api/administrador/contadores/${construirCups('9901', 999_999_998)}`, {
      token: admin.token,
    });
    expect(nadie.status).toBe(404);
  });
});

describe('OpenAPI', () => {
  it('documents every route of the meters with a Spanish summary', async () => {
    const doc = (await (await server.fetch('/api/openapi.json')).json()) as { paths: Record<string, Record<string, { summary?: string }>> };
    const rutas = [
      ['/lecturasProgramadas', 'get'],
      ['/lecturasProgramadas.ics', 'get'],
      ['/estadoContador', 'get'],
      ['/administrador/contadores/{cups}', 'get'],
      ['/administrador/contadores/{cups}', 'put'],
    ] as const;
    for (const [ruta, metodo] of rutas) expect(doc.paths[ruta]?.[metodo]?.summary, `${metodo} ${ruta}`).toMatch(/^[A-ZÁÉÍÓÚ]/);
  });
});
