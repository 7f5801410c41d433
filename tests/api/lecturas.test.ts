/**
 * Scheduled readings and meter state through HTTP: ownership (404 for another holder's
 * CUPS, with no data), 401 and 403, the schedule as JSON and as an iCalendar file read back with
 * ical.js, the meter state with its register readings, and the administration of meter states (the
 * distributor's administrator only, never an impersonated session, always audited).
 */
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { construirCups } from '../../src/lib/cups.ts';
import { MENSAJES_ESTADO } from '../../src/lib/lecturas/estado-contador.ts';
import { todosLosPermisos } from '../../src/lib/permisos.ts';
import { MENSAJE_SUPLANTADO } from '../../src/server/auth/middleware.ts';
import type { EstadoAdminRespuesta } from '../../src/lib/lecturas/respuestas.ts';
import type { EstadosRespuesta, ProgramaRespuesta } from '../../src/lib/lecturas/respuestas.ts';
import { guardarEstadosContador, guardarLecturasContador } from '../../src/server/lecturas/service.ts';
import type { SuministroEntrada } from '../../src/server/suministros/service.ts';
import { unaVez } from '../support/ganchos.ts';
import { administrador, auditadas, llamar } from '../support/privado.ts';
import { servidorDelFichero } from '../support/server.ts';
import { guardasDeTitular, puntoNuevo as punto, titularConSuministros } from '../support/suministros.ts';

const server = servidorDelFichero();

/** A holder with these supply points, logged in. */
const titularCon = (puntos: ((nif: string) => SuministroEntrada)[]) => titularConSuministros(server, puntos);

describe('GET /api/lecturasProgramadas', () => {
  guardasDeTitular(server, [
    ['GET', '/api/lecturasProgramadas'],
    ['GET', '/api/lecturasProgramadas.ics'],
    ['GET', '/api/estadoContador'],
  ]);

  it.each(['/api/lecturasProgramadas', '/api/lecturasProgramadas.ics', '/api/estadoContador'])(
    "answers 404 to GET %s for another holder's CUPS, with no data of theirs",
    async (ruta) => {
      const a = await titularCon([(n) => punto(n, 'epd')]);
      const b = await titularCon([(n) => punto(n, 'epd', { direccion: 'Calle Secreta, 9' })]);
      const res = await llamar(server, 'GET', `${ruta}?cups=${b.cups[0]}`, { token: a.token });
      expect(res.status, ruta).toBe(404);
      const texto = await res.text();
      expect(texto).not.toContain('Calle Secreta');
      expect(texto).not.toContain(b.cups[0]);
    },
  );

  describe("of a holder's two supply points", () => {
    /** A holder with a read meter at EPD (cycle day 7, monthly) and a smart one at EOD (day 28, bimonthly), and the answer. */
    const programa = unaVez(async () => {
      const a = await titularCon([
        (n) => punto(n, 'epd', { cicloLectura: 7, telegestionado: false, periodicidadFacturacion: 'mensual' }),
        (n) => punto(n, 'eod', { cicloLectura: 28, periodicidadFacturacion: 'bimestral' }),
      ]);
      await titularCon([(n) => punto(n, 'epd')]);
      const res = await llamar(server, 'GET', '/api/lecturasProgramadas', { token: a.token });
      return { a, res, cuerpo: (await res.json()) as ProgramaRespuesta };
    });
    const delPunto = (i: number) => programa.cuerpo.suministros.find((s) => s.cups === programa.a.cups[i])!;

    it('answers the next twelve months from today', () => {
      expect(programa.res.status).toBe(200);
      // The test clock reads 2 November 2026.
      expect(programa.cuerpo).toMatchObject({ hoy: '2026-11-02', desde: '2026-11-02', hasta: '2027-11-01' });
    });

    it("lists the holder's supply points, and only theirs", () => {
      expect(programa.cuerpo.suministros.map((s) => s.cups).sort()).toEqual([...programa.a.cups].sort());
    });

    it('moves a visit due on a Saturday to the Monday, with a window for a self-reading', () => {
      const visitas = delPunto(0);
      expect(visitas.lecturas).toHaveLength(12);
      // 7 November 2026 is a Saturday: the reader comes on Monday 9.
      expect(visitas.lecturas[0]).toMatchObject({
        fecha: '2026-11-09',
        fechaCiclo: '2026-11-07',
        tipo: 'visita',
        autolectura: { desde: '2026-11-04', hasta: '2026-11-11' },
      });
    });

    it('lists the bimonthly remote closings of a smart meter, with no self-reading', () => {
      const remotas = delPunto(1);
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
  });

  it('keeps the phase of a bimonthly route from its latest reading', async () => {
    const a = await titularCon([(n) => punto(n, 'ecd', { cicloLectura: 10, periodicidadFacturacion: 'bimestral' })]);
    await guardarLecturasContador(server.database.db, [
      {
        suministroId: a.ids[0]!,
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
  describe('of two supply points', () => {
    /** The calendar of a read meter at EPD (cycle day 25) and another at EOD (day 3), its events and the JSON answer. */
    const ics = unaVez(async () => {
      const a = await titularCon([
        (n) => punto(n, 'epd', { cicloLectura: 25, telegestionado: false }),
        (n) => punto(n, 'eod', { cicloLectura: 3 }),
      ]);
      const res = await llamar(server, 'GET', '/api/lecturasProgramadas.ics', { token: a.token });
      const texto = await res.text();
      const eventos = new ICAL.Component(ICAL.parse(texto)).getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
      const json = (await (await llamar(server, 'GET', '/api/lecturasProgramadas', { token: a.token })).json()) as ProgramaRespuesta;
      return { a, res, texto, eventos, json };
    });

    it('is an iCalendar file to download, never cached', () => {
      expect(ics.res.status).toBe(200);
      expect(ics.res.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
      expect(ics.res.headers.get('content-disposition')).toBe('attachment; filename="lecturas-programadas.ics"');
      expect(ics.res.headers.get('cache-control')).toBe('no-store');
    });

    it('ends every line with CRLF', () => {
      expect(ics.texto.replaceAll('\r\n', '')).not.toMatch(/[\r\n]/);
    });

    it('has an all-day event for each reading of the JSON answer', () => {
      const esperadas = ics.json.suministros.flatMap((s) => s.lecturas.map((l) => `${s.cups} ${l.fecha}`)).sort();
      expect(ics.eventos.map((e) => `${/ES\d{16}[A-Z]{2}/.exec(e.uid)![0]} ${e.startDate.toString()}`).sort()).toEqual(esperadas);
      expect(ics.eventos.every((e) => e.startDate.isDate)).toBe(true);
    });

    it('explains a visit moved by a national holiday, with a reminder the day before', () => {
      // 25 December 2026 is a Friday: the visit is on Monday 28.
      const navidad = ics.eventos.find((e) => e.uid.includes(ics.a.cups[0]!) && e.startDate.toString() === '2026-12-28')!;
      expect(navidad.description).toContain('festivo nacional (Natividad del Señor)');
      expect(navidad.component.getFirstSubcomponent('valarm')).not.toBeNull();
    });
  });

  const uids = (t: string) => new ICAL.Component(ICAL.parse(t)).getAllSubcomponents('vevent').map((v) => v.getFirstPropertyValue('uid'));
  const deUnPunto = async (a: { token: string; cups: string[] }) =>
    llamar(server, 'GET', `/api/lecturasProgramadas.ics?cups=${a.cups[1]}`, { token: a.token });

  it('answers one supply point alone, named after its CUPS', async () => {
    const a = await titularCon([(n) => punto(n, 'epd'), (n) => punto(n, 'epd')]);
    const uno = await deUnPunto(a);
    expect(uno.headers.get('content-disposition')).toBe(`attachment; filename="lecturas-${a.cups[1]}.ics"`);
    expect(await uno.text()).not.toContain(a.cups[0]);
  });

  it('gives the events the same UIDs on every download', async () => {
    const a = await titularCon([(n) => punto(n, 'epd'), (n) => punto(n, 'epd')]);
    const texto = await (await deUnPunto(a)).text();
    server.clock.advance(60_000);
    const otra = await (await deUnPunto(a)).text();
    expect(uids(otra)).toEqual(uids(texto));
    expect(uids(texto)).toHaveLength(12);
  });
});

describe('GET /api/estadoContador', () => {
  it('says the state is not known yet when there is none', async () => {
    const a = await titularCon([(n) => punto(n, 'epd')]);
    const cuerpo = (await (await llamar(server, 'GET', '/api/estadoContador', { token: a.token })).json()) as EstadosRespuesta;
    expect(cuerpo.suministros).toEqual([expect.objectContaining({ cups: a.cups[0], estado: null, lecturas: [] })]);
  });

  it('answers the state once written, with the register readings newest first', async () => {
    const a = await titularCon([(n) => punto(n, 'epd')]);
    const id = a.ids[0]!;
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
    const cuerpo = (await (
      await llamar(server, 'GET', `/api/estadoContador?cups=${a.cups[0]}`, { token: a.token })
    ).json()) as EstadosRespuesta;
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

  const contador = (cups: string) => `/api/administrador/contadores/${cups}`;
  /** The state an administrator sees of a meter. */
  const estadoAdmin = async (token: string, cups: string) =>
    (await (await llamar(server, 'GET', contador(cups), { token })).json()) as EstadoAdminRespuesta;
  /** The state the holder sees of their first supply point. */
  const estadoDelTitular = async (token: string) =>
    ((await (await llamar(server, 'GET', '/api/estadoContador', { token })).json()) as EstadosRespuesta).suministros[0]!.estado;

  describe('changed by an administrator of the distributor', () => {
    /** A supply point of Lucía Prueba, its meter as the administrator saw it, and the state as changed. */
    const visto = unaVez(async () => {
      const a = await titularCon([(n) => punto(n, 'epd', { titularNombre: 'Lucía Prueba' })]);
      const admin = await administrador(server, ['epd-administrador']);
      const ver = await llamar(server, 'GET', contador(a.cups[0]!), { token: admin.token });
      const antes = { status: ver.status, body: (await ver.json()) as EstadoAdminRespuesta };
      const res = await llamar(server, 'PUT', contador(a.cups[0]!), { token: admin.token, body: cambio });
      const guardado = { status: res.status, body: (await res.json()) as EstadoAdminRespuesta, ahora: server.clock.now().toISOString() };
      return { a, admin, antes, guardado, entrada: (await auditadas(server, 'contador.estado', { objetivo: a.cups[0]! }))[0] };
    });

    it('shows the meter and its holder to the administrator', () => {
      expect(visto.antes.status).toBe(200);
      expect(visto.antes.body).toMatchObject({ cups: visto.a.cups[0], titular: 'Lucía Prueba', estado: null });
    });

    it('changes the state, naming who changed it and when', () => {
      expect(visto.guardado.status).toBe(200);
      expect(visto.guardado.body.estado).toMatchObject({
        comunica: true,
        ultimaComunicacion: visto.guardado.ahora,
        interruptor: 'abierto_remoto',
        estadoSuministro: 'cortado',
        motivo: cambio.motivo,
        origen: 'administrador',
        actualizadoPor: { nombre: 'Ana Gestora', email: visto.admin.a.email },
      });
    });

    it('audits the change with the state before and after', () => {
      expect(visto.entrada).toMatchObject({ actorUserId: visto.admin.a.id, targetType: 'suministro' });
      expect(visto.entrada!.details).toEqual({
        distribuidora: 'epd',
        antes: null,
        despues: { comunica: true, interruptor: 'abierto_remoto', estadoSuministro: 'cortado', motivo: cambio.motivo },
      });
    });

    it('shows the holder the new state', async () => {
      expect(await estadoDelTitular(visto.a.token)).toMatchObject({ estadoSuministro: 'cortado', motivo: cambio.motivo });
    });
  });

  it('answers 403 to an administrator of another distributor, showing no data, changing nothing', async () => {
    const a = await titularCon([(n) => punto(n, 'epd')]);
    const ajeno = await administrador(server, ['eod-administrador', 'ecd-administrador']);
    const ver = await llamar(server, 'GET', contador(a.cups[0]!), { token: ajeno.token });
    expect(ver.status).toBe(403);
    expect(await ver.text()).not.toContain(a.u.nif);
    expect((await llamar(server, 'PUT', contador(a.cups[0]!), { token: ajeno.token, body: cambio })).status).toBe(403);
    expect(await estadoDelTitular(a.token)).toBeNull();
  });

  it('answers 403 to an administrator of another distributor for a CUPS that does not exist', async () => {
    const ajeno = await administrador(server, ['eod-administrador', 'ecd-administrador']);
    expect((await llamar(server, 'GET', contador(construirCups('9901', 999_999_999)), { token: ajeno.token })).status).toBe(403);
  });

  it('answers 403 to an impersonated session, even one started by an administrator of every distributor', async () => {
    const a = await titularCon([(n) => punto(n, 'epd')]);
    const admin = await administrador(server, todosLosPermisos());
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

  it.each([
    ['a cut without a reason', { ...cambio, motivo: '  ' }, MENSAJES_ESTADO.motivoObligatorio],
    [
      'a last communication in the future',
      { comunica: true, ultimaComunicacion: '2030-01-01T00:00:00Z', interruptor: 'cerrado', estadoSuministro: 'con_suministro' },
      MENSAJES_ESTADO.ultimaComunicacionFutura,
    ],
  ])('refuses %s in Spanish, changing nothing', async (_, body, mensaje) => {
    const a = await titularCon([(n) => punto(n, 'eod')]);
    const admin = await administrador(server, ['eod-administrador']);
    const res = await llamar(server, 'PUT', contador(a.cups[0]!), { token: admin.token, body });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual([mensaje]);
    expect((await estadoAdmin(admin.token, a.cups[0]!)).estado).toBeNull();
  });

  it('answers 400 for a malformed CUPS', async () => {
    const admin = await administrador(server, ['epd-administrador']);
    expect((await llamar(server, 'GET', contador('ES9901000000000001XX'), { token: admin.token })).status).toBe(400);
  });

  it('answers 404 for a CUPS of an administered distributor that does not exist', async () => {
    const admin = await administrador(server, ['epd-administrador']);
    expect((await llamar(server, 'GET', contador(construirCups('9901', 999_999_998)), { token: admin.token })).status).toBe(404);
  });
});

describe('OpenAPI', () => {
  const doc = unaVez(
    async () => (await (await server.fetch('/api/openapi.json')).json()) as { paths: Record<string, Record<string, { summary?: string }>> },
  );

  it.each([
    ['/lecturasProgramadas', 'get'],
    ['/lecturasProgramadas.ics', 'get'],
    ['/estadoContador', 'get'],
    ['/administrador/contadores/{cups}', 'get'],
    ['/administrador/contadores/{cups}', 'put'],
  ])('documents %s (%s) with a Spanish summary', (ruta, metodo) => {
    expect(doc.paths[ruta]?.[metodo]?.summary, `${metodo} ${ruta}`).toMatch(/^[A-ZÁÉÍÓÚ]/);
  });
});
