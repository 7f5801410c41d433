/**
 * Administration is scoped by distributor (docs/decisions/014): an administrator of EPD alone sees,
 * acts on and impersonates only what lies within EPD; only an administrator of every distributor
 * acts on other administrators; the audit log and numbered objects of other distributors stay out of
 * reach.
 */
import { readFileSync } from 'node:fs';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todosLosPermisos, type Permiso } from '../../src/lib/permisos.ts';
import { huellaDe, MENSAJES_AMBITO } from '../../src/server/administracion/ambito.ts';
import { auditLog, suministros } from '../../src/server/db/schema.ts';
import { createUser, grantPermissions, revokePermission } from '../../src/server/usuarios/service.ts';
import { guardarSuministros } from '../../src/server/suministros/service.ts';
import { cuenta, llamar, nuevoDni, sesion, type CuentaPrueba, type CuerpoSesion } from '../support/privado.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { puntoNuevo, titularConSuministros } from '../support/suministros.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

/** An administrator of these distributors, logged in. */
async function administrador(permisos: Permiso[]): Promise<{ a: CuentaPrueba; token: string }> {
  const a = await cuenta(server, { extra: permisos, prefijo: 'gestor' });
  return { a, token: (await sesion(server, a.email)).jwtToken };
}

const estado = (token: string, id: string, nuevo: 'activo' | 'inactivo') =>
  llamar(server, 'PUT', `/api/administrador/usuarios/${id}/estado`, { token, body: { estado: nuevo } });
const suplantar = (token: string, username: string) =>
  llamar(server, 'POST', '/api/accesoUsuarioSuplantacion', { token, body: { username } });

describe('impersonation stays within the administrator’s distributors', () => {
  it('refuses an account with a supply point of another distributor, naming it', async () => {
    const epd = await administrador(['epd-administrador']);
    const hogar = await titularConSuministros(server, [(nif) => puntoNuevo(nif, 'epd'), (nif) => puntoNuevo(nif, 'eod')]);
    const res = await suplantar(epd.token, hogar.u.email);
    expect(res.status).toBe(403);
    expect(((await res.json()) as { message: string }).message).toBe(MENSAJES_AMBITO.fuera('Electra Occidental Distribución, S.L.'));
    // The administrator's own session is untouched by the refusal.
    expect((await llamar(server, 'GET', '/api/listadoUsuarios', { token: epd.token })).status).toBe(200);
  });

  it('refuses an account holding a permission of another distributor', async () => {
    const epd = await administrador(['epd-administrador']);
    const empresa = await cuenta(server, { extra: ['eod-comercializadora'] });
    expect((await suplantar(epd.token, empresa.email)).status).toBe(403);
  });

  it('cuts the impersonated session to the administrator’s distributors, even when the account gains another distributor’s supply point meanwhile', async () => {
    const epd = await administrador(['epd-administrador']);
    const hogar = await titularConSuministros(server, [(nif) => puntoNuevo(nif, 'epd')]);
    const res = await suplantar(epd.token, hogar.u.email);
    expect(res.status).toBe(200);
    const sesionSuplantada = (await res.json()) as CuerpoSesion;
    // The menu shows what the server lets it reach: EPD only, not the contact areas of EOD and ECD.
    expect(sesionSuplantada.Permisos.every((p) => p.startsWith('epd-'))).toBe(true);
    expect(sesionSuplantada.Permisos).toContain('epd-distribucion');

    const eod = puntoNuevo(hogar.u.nif, 'eod');
    await guardarSuministros(server.database.db, [eod]);
    const token = sesionSuplantada.jwtToken;
    const lista = (await (await llamar(server, 'GET', '/api/suministros', { token })).json()) as { cups: string }[];
    expect(lista.map((s) => s.cups)).toEqual([hogar.cups[0]]);
    expect((await llamar(server, 'GET', `/api/suministros/${eod.cups}`, { token })).status).toBe(404);
    expect((await llamar(server, 'GET', `/api/medidas/curva?cups=${eod.cups}&desde=2026-10-01&hasta=2026-10-07`, { token })).status).toBe(
      404,
    );
    const certificado = await llamar(server, 'POST', '/api/certificados', {
      token,
      body: { cups: eod.cups, desde: '2026-09', hasta: '2026-09' },
    });
    expect(certificado.status).toBe(404);
    // The holder in their own session reaches both.
    const propia = await sesion(server, hogar.u.email);
    expect((await llamar(server, 'GET', `/api/suministros/${eod.cups}`, { token: propia.jwtToken })).status).toBe(200);
  });

  it('lets an administrator of every distributor impersonate an account of several', async () => {
    const jefe = await administrador(todosLosPermisos());
    const hogar = await titularConSuministros(server, [(nif) => puntoNuevo(nif, 'epd'), (nif) => puntoNuevo(nif, 'eod')]);
    const res = await suplantar(jefe.token, hogar.u.email);
    expect(res.status).toBe(200);
    expect(((await res.json()) as CuerpoSesion).Permisos).toEqual(expect.arrayContaining(['epd-distribucion', 'eod-distribucion']));
  });
});

describe('every administrative action is limited to the distributors administered', () => {
  it('answers 403 to an EPD administrator deactivating other administrators or an EOD customer, and changes nothing', async () => {
    const epd = await administrador(['epd-administrador']);
    const otroEpd = await administrador(['epd-administrador']);
    const eod = await administrador(['eod-administrador']);
    const jefe = await administrador(todosLosPermisos());
    const clienteEod = await titularConSuministros(server, [(nif) => puntoNuevo(nif, 'eod')]);
    for (const [objetivo, mensaje] of [
      [otroEpd.a, MENSAJES_AMBITO.administrador],
      [eod.a, MENSAJES_AMBITO.administrador],
      [jefe.a, MENSAJES_AMBITO.administrador],
      [clienteEod.u, MENSAJES_AMBITO.fuera('Electra Occidental Distribución, S.L.')],
    ] as const) {
      const res = await estado(epd.token, objetivo.id, 'inactivo');
      expect(res.status, objetivo.email).toBe(403);
      expect(((await res.json()) as { message: string }).message).toBe(mensaje);
      expect((await sesion(server, objetivo.email)).jwtToken).toBeTruthy();
    }
    const mail = await llamar(server, 'POST', `/api/administrador/usuarios/${clienteEod.u.id}/reenviar-activacion`, { token: epd.token });
    expect(mail.status).toBe(403);
    const permisos = await llamar(server, 'PUT', `/api/administrador/usuarios/${clienteEod.u.id}/permisos`, {
      token: epd.token,
      body: { conceder: ['epd-comercializadora'], revocar: [] },
    });
    expect(permisos.status).toBe(403);
  });

  it('lets an EPD administrator act on an EPD customer and on an account of no distributor', async () => {
    const epd = await administrador(['epd-administrador']);
    const clienteEpd = await titularConSuministros(server, [(nif) => puntoNuevo(nif, 'epd')]);
    const sinSuministros = await cuenta(server);
    expect((await estado(epd.token, clienteEpd.u.id, 'inactivo')).status).toBe(200);
    expect((await estado(epd.token, sinSuministros.id, 'inactivo')).status).toBe(200);
  });

  it('keeps making and unmaking administrators to an administrator of every distributor', async () => {
    const epd = await administrador(['epd-administrador']);
    const jefe = await administrador(todosLosPermisos());
    const persona = await cuenta(server);
    const conceder = (token: string) =>
      llamar(server, 'PUT', `/api/administrador/usuarios/${persona.id}/permisos`, {
        token,
        body: { conceder: ['epd-administrador'], revocar: [] },
      });
    expect((await conceder(epd.token)).status).toBe(403);
    expect((await conceder(jefe.token)).status).toBe(200);
    expect((await estado(jefe.token, persona.id, 'inactivo')).status).toBe(200);
  });

  it('shows an EPD administrator only the accounts within EPD, with their EPD permissions, and the same 404 for the rest', async () => {
    const epd = await administrador(['epd-administrador']);
    const ambos = await titularConSuministros(server, [(nif) => puntoNuevo(nif, 'epd'), (nif) => puntoNuevo(nif, 'eod')]);
    const soloEod = await titularConSuministros(server, [(nif) => puntoNuevo(nif, 'eod')]);
    const ver = (id: string) => llamar(server, 'GET', `/api/administrador/usuarios/${id}`, { token: epd.token });
    const detalle = (await (await ver(ambos.u.id)).json()) as {
      permisos: string[];
      acciones: { permitidas: boolean; motivo: string | null };
    };
    expect(detalle.permisos.every((p) => p.startsWith('epd-'))).toBe(true);
    expect(detalle.acciones).toEqual({ permitidas: false, motivo: MENSAJES_AMBITO.fuera('Electra Occidental Distribución, S.L.') });
    const oculto = await ver(soloEod.u.id);
    expect(oculto.status).toBe(404);
    expect(await oculto.json()).toEqual(await (await ver('00000000-0000-4000-8000-000000000000')).json());
    const lista = async (q: string) =>
      (await (await llamar(server, 'GET', `/api/listadoUsuarios?q=${encodeURIComponent(q)}`, { token: epd.token })).json()) as {
        id: string;
      }[];
    expect(await lista(ambos.u.email)).toHaveLength(1);
    expect(await lista(soloEod.u.email)).toHaveLength(0);
  });
});

describe('the audit log is scoped', () => {
  it('shows an EPD administrator no entry about EOD: no EOD supply point, no EOD customer', async () => {
    const jefe = await administrador(todosLosPermisos());
    const epd = await administrador(['epd-administrador']);
    const clienteEod = await titularConSuministros(server, [(nif) => puntoNuevo(nif, 'eod')]);
    const clienteEpd = await titularConSuministros(server, [(nif) => puntoNuevo(nif, 'epd')]);
    // Entries about both: a state change by the all-distributor administrator, an impersonated request.
    expect((await estado(jefe.token, clienteEod.u.id, 'inactivo')).status).toBe(200);
    expect((await estado(jefe.token, clienteEpd.u.id, 'inactivo')).status).toBe(200);
    const leer = async (token: string) => {
      const res = await llamar(server, 'GET', '/api/administrador/auditoria?porPagina=100', { token });
      expect(res.status).toBe(200);
      return JSON.stringify(await res.json());
    };
    const completo = await leer(jefe.token);
    expect(completo).toContain(clienteEod.u.id);
    expect(completo).toContain(clienteEpd.u.id);
    const acotado = await leer(epd.token);
    expect(acotado).toContain(clienteEpd.u.id);
    expect(acotado).not.toContain(clienteEod.u.id);
    expect(acotado).not.toContain(clienteEod.u.email);
    expect(acotado).not.toContain(clienteEod.cups[0]);
    expect(acotado).not.toMatch(/ES9902/);
  });
});

describe('the stored footprint follows its sources', () => {
  const huella = async (id: string) => (await huellaDe(server.database.db, id))!.distribuidoras;

  it('follows supply points loaded, moved to another holder and removed, permissions granted and revoked, and a new account’s NIF', async () => {
    const db = server.database.db;
    const a = await cuenta(server);
    expect(await huella(a.id)).toEqual([]);
    const epd = puntoNuevo(a.nif, 'epd');
    await guardarSuministros(db, [epd]);
    expect(await huella(a.id)).toEqual(['epd']);
    await grantPermissions(db, a.id, ['ecd-comercializadora']);
    expect(await huella(a.id)).toEqual(['ecd', 'epd']);
    // The universal areas place nobody.
    await grantPermissions(db, a.id, ['eod-contacto']);
    expect(await huella(a.id)).toEqual(['ecd', 'epd']);
    await revokePermission(db, a.id, 'ecd', 'comercializadora');
    expect(await huella(a.id)).toEqual(['epd']);
    // The supply point changes holder: it leaves the old one and reaches the new one.
    const b = await cuenta(server);
    await guardarSuministros(db, [{ ...epd, titularNif: b.nif }]);
    expect(await huella(a.id)).toEqual([]);
    expect(await huella(b.id)).toEqual(['epd']);
    // A NIF that holds supply points before its account exists.
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
  it('get the distributor their details name, or the footprint of their account, from migration 0009; anonymous ones stay for all-distributor administrators', async () => {
    const db = server.database.db;
    const hogar = await titularConSuministros(server, [(nif) => puntoNuevo(nif, 'epd')]);
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
