/**
 * Administration is scoped by distributor (docs/decisions/014): an administrator of EPD alone sees,
 * acts on and impersonates only what lies within EPD; only an administrator of every distributor
 * acts on other administrators; the audit log and numbered objects of other distributors stay out of
 * reach.
 */
import { readFileSync } from 'node:fs';
import { eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { todosLosPermisos, type Permiso } from '../../src/lib/permisos.ts';
import { huellaDe, MENSAJES_AMBITO } from '../../src/server/administracion/ambito.ts';
import { auditLog, suministros } from '../../src/server/db/schema.ts';
import { createUser, grantPermissions, revokePermission } from '../../src/server/usuarios/service.ts';
import { guardarSuministros } from '../../src/server/suministros/service.ts';
import { unaVez } from '../support/ganchos.ts';
import { administrador as administradorCon, conValores, cuenta, llamar, nuevoDni, sesion, type CuerpoSesion } from '../support/privado.ts';
import { servidorDelFichero } from '../support/server.ts';
import { puntoNuevo, titularConSuministros } from '../support/suministros.ts';

const server = servidorDelFichero();

/** An administrator of these distributors, logged in. */
const administrador = (permisos: Permiso[]) => administradorCon(server, permisos);
/** A holder of supply points at these distributors, logged in. */
const titularEn = (...ds: ('epd' | 'eod' | 'ecd')[]) =>
  titularConSuministros(
    server,
    ds.map((d) => (nif: string) => puntoNuevo(nif, d)),
  );
const EOD = 'Electra Occidental Distribución, S.L.';

const estado = (token: string, id: string, nuevo: 'activo' | 'inactivo') =>
  llamar(server, 'PUT', `/api/administrador/usuarios/${id}/estado`, { token, body: { estado: nuevo } });
const suplantar = (token: string, username: string) =>
  llamar(server, 'POST', '/api/accesoUsuarioSuplantacion', { token, body: { username } });

describe('impersonation stays within the administrator’s distributors', () => {
  it('refuses an account with a supply point of another distributor, naming it', async () => {
    const epd = await administrador(['epd-administrador']);
    const hogar = await titularEn('epd', 'eod');
    const res = await suplantar(epd.token, hogar.u.email);
    expect(res.status).toBe(403);
    expect(((await res.json()) as { message: string }).message).toBe(MENSAJES_AMBITO.fuera(EOD));
    // The administrator's own session is untouched by the refusal.
    expect((await llamar(server, 'GET', '/api/listadoUsuarios', { token: epd.token })).status).toBe(200);
  });

  it('refuses an account holding a permission of another distributor', async () => {
    const epd = await administrador(['epd-administrador']);
    const empresa = await cuenta(server, { extra: ['eod-comercializadora'] });
    expect((await suplantar(epd.token, empresa.email)).status).toBe(403);
  });

  describe('cuts the impersonated session to the administrator’s distributors', () => {
    /** An EPD holder impersonated by an EPD administrator, who then gains an EOD supply point. */
    const visto = unaVez(async () => {
      const epd = await administrador(['epd-administrador']);
      const hogar = await titularEn('epd');
      const res = await suplantar(epd.token, hogar.u.email);
      const sesionSuplantada = (await res.json()) as CuerpoSesion;
      const eod = puntoNuevo(hogar.u.nif, 'eod');
      await guardarSuministros(server.database.db, [eod]);
      return { hogar, status: res.status, sesionSuplantada, token: sesionSuplantada.jwtToken, eod };
    });

    it('to the permissions of those distributors, as the menu shows them', () => {
      expect(visto.status).toBe(200);
      // The menu shows what the server lets it reach: EPD only, not the contact areas of EOD and ECD.
      expect(visto.sesionSuplantada.Permisos.every((p) => p.startsWith('epd-'))).toBe(true);
      expect(visto.sesionSuplantada.Permisos).toContain('epd-distribucion');
    });

    it('to the supply points within them, even when the account gains another distributor’s meanwhile', async () => {
      const lista = (await (await llamar(server, 'GET', '/api/suministros', { token: visto.token })).json()) as { cups: string }[];
      expect(lista.map((s) => s.cups)).toEqual([visto.hogar.cups[0]]);
    });

    it.each<[string, string, string, unknown?]>([
      ['the supply point', 'GET', '/api/suministros/{cups}'],
      ['its curve', 'GET', '/api/medidas/curva?cups={cups}&desde=2026-10-01&hasta=2026-10-07'],
      ['a certificate of it', 'POST', '/api/certificados', { cups: '{cups}', desde: '2026-09', hasta: '2026-09' }],
    ])('answering 404 to %s of another distributor', async (_, metodo, ruta, cuerpo) => {
      const valores = { cups: visto.eod.cups };
      const res = await llamar(server, metodo, conValores(ruta, valores), { token: visto.token, body: conValores(cuerpo, valores) });
      expect(res.status).toBe(404);
    });

    it('but not the holder’s own session, which reaches both', async () => {
      const propia = await sesion(server, visto.hogar.u.email);
      expect((await llamar(server, 'GET', `/api/suministros/${visto.eod.cups}`, { token: propia.jwtToken })).status).toBe(200);
    });
  });

  it('lets an administrator of every distributor impersonate an account of several', async () => {
    const jefe = await administrador(todosLosPermisos());
    const hogar = await titularEn('epd', 'eod');
    const res = await suplantar(jefe.token, hogar.u.email);
    expect(res.status).toBe(200);
    expect(((await res.json()) as CuerpoSesion).Permisos).toEqual(expect.arrayContaining(['epd-distribucion', 'eod-distribucion']));
  });
});

describe('every administrative action is limited to the distributors administered', () => {
  it.each<[string, () => Promise<{ id: string; email: string }>, string]>([
    ['another EPD administrator', async () => (await administrador(['epd-administrador'])).a, MENSAJES_AMBITO.administrador],
    ['an EOD administrator', async () => (await administrador(['eod-administrador'])).a, MENSAJES_AMBITO.administrador],
    ['an administrator of every distributor', async () => (await administrador(todosLosPermisos())).a, MENSAJES_AMBITO.administrador],
    ['an EOD customer', async () => (await titularEn('eod')).u, MENSAJES_AMBITO.fuera(EOD)],
  ])('answers 403 to an EPD administrator deactivating %s, and changes nothing', async (_, crear, mensaje) => {
    const epd = await administrador(['epd-administrador']);
    const objetivo = await crear();
    const res = await estado(epd.token, objetivo.id, 'inactivo');
    expect(res.status, objetivo.email).toBe(403);
    expect(((await res.json()) as { message: string }).message).toBe(mensaje);
    expect((await sesion(server, objetivo.email)).jwtToken).toBeTruthy();
  });

  it.each<[string, (token: string, id: string) => Promise<Response>]>([
    [
      'resending the activation mail of',
      (token, id) => llamar(server, 'POST', `/api/administrador/usuarios/${id}/reenviar-activacion`, { token }),
    ],
    [
      'granting a permission to',
      (token, id) =>
        llamar(server, 'PUT', `/api/administrador/usuarios/${id}/permisos`, {
          token,
          body: { conceder: ['epd-comercializadora'], revocar: [] },
        }),
    ],
  ])('answers 403 to an EPD administrator %s an EOD customer', async (_, hacer) => {
    const epd = await administrador(['epd-administrador']);
    const clienteEod = await titularEn('eod');
    expect((await hacer(epd.token, clienteEod.u.id)).status).toBe(403);
  });

  it.each<[string, () => Promise<string>]>([
    ['an EPD customer', async () => (await titularEn('epd')).u.id],
    ['an account of no distributor', async () => (await cuenta(server)).id],
  ])('lets an EPD administrator act on %s', async (_, crear) => {
    const epd = await administrador(['epd-administrador']);
    expect((await estado(epd.token, await crear(), 'inactivo')).status).toBe(200);
  });

  const hacerAdministrador = (token: string, id: string) =>
    llamar(server, 'PUT', `/api/administrador/usuarios/${id}/permisos`, { token, body: { conceder: ['epd-administrador'], revocar: [] } });

  it('refuses to let an administrator of one distributor make administrators', async () => {
    const epd = await administrador(['epd-administrador']);
    expect((await hacerAdministrador(epd.token, (await cuenta(server)).id)).status).toBe(403);
  });

  it('keeps making and unmaking administrators to an administrator of every distributor', async () => {
    const jefe = await administrador(todosLosPermisos());
    const persona = await cuenta(server);
    expect((await hacerAdministrador(jefe.token, persona.id)).status).toBe(200);
    expect((await estado(jefe.token, persona.id, 'inactivo')).status).toBe(200);
  });

  describe('the accounts an EPD administrator sees', () => {
    /** An EPD administrator, an account of EPD and EOD, and one of EOD alone. */
    const visto = unaVez(async () => {
      const epd = await administrador(['epd-administrador']);
      return { epd, ambos: await titularEn('epd', 'eod'), soloEod: await titularEn('eod') };
    });
    const ver = (id: string) => llamar(server, 'GET', `/api/administrador/usuarios/${id}`, { token: visto.epd.token });
    const lista = async (q: string) =>
      (await (await llamar(server, 'GET', `/api/listadoUsuarios?q=${encodeURIComponent(q)}`, { token: visto.epd.token })).json()) as {
        id: string;
      }[];
    const detalle = async () =>
      (await (await ver(visto.ambos.u.id)).json()) as { permisos: string[]; acciones: { permitidas: boolean; motivo: string | null } };

    it('are those within EPD, with their EPD permissions only', async () => {
      expect((await detalle()).permisos.every((p) => p.startsWith('epd-'))).toBe(true);
    });

    it('say why nothing may be done to an account that reaches beyond EPD', async () => {
      expect((await detalle()).acciones).toEqual({ permitidas: false, motivo: MENSAJES_AMBITO.fuera(EOD) });
    });

    it('leave out the rest with the same 404 as an account that does not exist', async () => {
      const oculto = await ver(visto.soloEod.u.id);
      expect(oculto.status).toBe(404);
      expect(await oculto.json()).toEqual(await (await ver('00000000-0000-4000-8000-000000000000')).json());
    });

    it('are the only ones listed', async () => {
      expect(await lista(visto.ambos.u.email)).toHaveLength(1);
      expect(await lista(visto.soloEod.u.email)).toHaveLength(0);
    });
  });
});

describe('the audit log is scoped', () => {
  /** Entries about an EOD and an EPD customer, as the administrator of every distributor and one of EPD read them. */
  const visto = unaVez(async () => {
    const jefe = await administrador(todosLosPermisos());
    const epd = await administrador(['epd-administrador']);
    const clienteEod = await titularEn('eod');
    const clienteEpd = await titularEn('epd');
    // Entries about both: a state change by the all-distributor administrator.
    expect((await estado(jefe.token, clienteEod.u.id, 'inactivo')).status).toBe(200);
    expect((await estado(jefe.token, clienteEpd.u.id, 'inactivo')).status).toBe(200);
    const leer = async (token: string) => {
      const res = await llamar(server, 'GET', '/api/administrador/auditoria?porPagina=100', { token });
      expect(res.status).toBe(200);
      return JSON.stringify(await res.json());
    };
    return { clienteEod, clienteEpd, completo: await leer(jefe.token), acotado: await leer(epd.token) };
  });

  it('shows an administrator of every distributor the entries about both', () => {
    expect(visto.completo).toContain(visto.clienteEod.u.id);
    expect(visto.completo).toContain(visto.clienteEpd.u.id);
  });

  it('shows an EPD administrator the entries about EPD', () => {
    expect(visto.acotado).toContain(visto.clienteEpd.u.id);
  });

  it.each<[string, (v: typeof visto) => string | RegExp]>([
    ["the EOD customer's id", (v) => v.clienteEod.u.id],
    ["the EOD customer's e-mail", (v) => v.clienteEod.u.email],
    ["the EOD customer's supply point", (v) => v.clienteEod.cups[0]!],
    ['any EOD supply point', () => /ES9902/],
  ])('shows an EPD administrator no entry with %s', (_, rastro) => {
    // A string is matched as it is, not as a pattern.
    expect(visto.acotado).not.toMatch(rastro(visto));
  });
});

describe('the stored footprint follows its sources', () => {
  const huella = async (id: string) => (await huellaDe(server.database.db, id))!.distribuidoras;

  it('is empty for an account with nothing', async () => {
    expect(await huella((await cuenta(server)).id)).toEqual([]);
  });

  it('follows a supply point loaded for the account’s NIF', async () => {
    const a = await cuenta(server);
    await guardarSuministros(server.database.db, [puntoNuevo(a.nif, 'epd')]);
    expect(await huella(a.id)).toEqual(['epd']);
  });

  it('follows a permission granted and revoked, but not the universal areas', async () => {
    const db = server.database.db;
    const a = await cuenta(server);
    await guardarSuministros(db, [puntoNuevo(a.nif, 'epd')]);
    await grantPermissions(db, a.id, ['ecd-comercializadora']);
    expect(await huella(a.id)).toEqual(['ecd', 'epd']);
    // The universal areas place nobody.
    await grantPermissions(db, a.id, ['eod-contacto']);
    expect(await huella(a.id)).toEqual(['ecd', 'epd']);
    await revokePermission(db, a.id, 'ecd', 'comercializadora');
    expect(await huella(a.id)).toEqual(['epd']);
  });

  it('follows a supply point to its new holder, leaving the old one', async () => {
    const a = await cuenta(server);
    const epd = puntoNuevo(a.nif, 'epd');
    await guardarSuministros(server.database.db, [epd]);
    const b = await cuenta(server);
    await guardarSuministros(server.database.db, [{ ...epd, titularNif: b.nif }]);
    expect(await huella(a.id)).toEqual([]);
    expect(await huella(b.id)).toEqual(['epd']);
  });

  it('follows the supply points a NIF held before its account existed, and their removal', async () => {
    const db = server.database.db;
    const nif = nuevoDni();
    await guardarSuministros(db, [puntoNuevo(nif, 'eod')]);
    const { id } = await createUser(db, {
      nif,
      email: `huella-${Date.now()}@correo.example`,
      nombre: 'Ana',
      apellido1: 'Ruiz',
      apellido2: 'Gil',
      password: 'Clave123',
      estado: 'pendiente',
    });
    expect(await huella(id)).toEqual(['eod']);
    await db.delete(suministros).where(eq(suministros.titularNif, nif));
    expect(await huella(id)).toEqual([]);
  });
});

describe('entries written before the audit log carried distributors', () => {
  it('are given by migration 0009 the distributor their details name or their account’s footprint, anonymous ones none', async () => {
    const db = server.database.db;
    const hogar = await titularEn('epd');
    const viejas = await db
      .insert(auditLog)
      .values([
        { action: 'incidencia.cierre', details: { distribuidora: 'eod' } },
        { action: 'certificado.emitido', details: { cups: 'ES9902000000000001XX' }, actorUserId: hogar.u.id },
        { action: 'usuario.estado', targetType: 'usuario', targetId: hogar.u.id },
        { action: 'sesion.login_fallido' },
      ])
      .returning({ id: auditLog.id });
    // As the rows were before the column existed.
    await db
      .update(auditLog)
      .set({ distribuidoras: null })
      .where(
        inArray(
          auditLog.id,
          viejas.map((v) => v.id),
        ),
      );
    const sqlMigracion = readFileSync(new URL('../../src/server/db/migrations/0009_ambito_distribuidoras.sql', import.meta.url), 'utf8');
    const relleno = sqlMigracion.split('--> statement-breakpoint').filter((s) => /UPDATE audit_log/.test(s));
    expect(relleno).toHaveLength(3);
    for (const sentencia of relleno) await db.execute(sql.raw(sentencia));
    const filas = await db
      .select({ id: auditLog.id, d: auditLog.distribuidoras })
      .from(auditLog)
      .where(
        inArray(
          auditLog.id,
          viejas.map((v) => v.id),
        ),
      )
      .orderBy(auditLog.id);
    expect(filas.map((f) => f.d)).toEqual([['eod'], ['eod'], ['epd'], null]);
  });
});
