import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { todosLosPermisos } from '../../src/lib/permisos.ts';
import { audit } from '../../src/server/auditoria/service.ts';
import { auditLog } from '../../src/server/db/schema.ts';
import { cookieDe, cuenta, llamar, sesion, type CuentaPrueba } from '../support/privado.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
let admin: CuentaPrueba;
let token: string;
beforeAll(async () => {
  server = await startTestServer();
  admin = await cuenta(server, { nombre: 'Ana', apellido1: 'Gestora', extra: todosLosPermisos(), prefijo: 'admin' });
});
afterAll(async () => {
  await server.close();
});
beforeEach(async () => {
  server.clock.advance(60 * 60 * 1000);
  token = (await sesion(server, admin.email)).jwtToken;
});

interface Respuesta {
  total: number;
  entradas: {
    id: number;
    at: string;
    accion: string;
    actor: { id: string; email: string; nombre: string } | null;
    suplantador: { id: string; email: string; nombre: string } | null;
    objetivo: { tipo: string; id: string } | null;
    ip: string | null;
    detalles: Record<string, unknown>;
  }[];
}

async function ver(query: string): Promise<Respuesta> {
  const res = await llamar(server, 'GET', `/api/administrador/auditoria${query}`, { token });
  expect(res.status, query).toBe(200);
  return (await res.json()) as Respuesta;
}

describe('GET /api/administrador/auditoria', () => {
  it('names the actor and the impersonating administrator, and filters by user as either', async () => {
    const usuario = await cuenta(server, { nombre: 'Pedro', apellido1: 'Llano' });
    const inicio = await llamar(server, 'POST', '/api/accesoUsuarioSuplantacion', { token, body: { username: usuario.email } });
    const { jwtToken } = (await inicio.json()) as { jwtToken: string };
    await llamar(server, 'GET', '/api/perfil', { token: jwtToken });
    // Back to the administrator's own session (the impersonation ended the one before it).
    const vuelta = await llamar(server, 'POST', '/api/users/fin-suplantacion', { cookie: cookieDe(inicio)! });
    token = ((await vuelta.json()) as { jwtToken: string }).jwtToken;

    const porUsuario = await ver(`?usuario=${encodeURIComponent(usuario.email.toUpperCase())}&accion=suplantacion.peticion`);
    expect(porUsuario.total).toBe(1);
    expect(porUsuario.entradas[0]).toMatchObject({
      accion: 'suplantacion.peticion',
      actor: { id: usuario.id, email: usuario.email, nombre: 'Pedro Llano' },
      suplantador: { id: admin.id, email: admin.email, nombre: 'Ana Gestora' },
      ip: '127.0.0.1',
      detalles: { metodo: 'GET', ruta: '/api/perfil', estado: 200 },
    });
    // By the administrator's id, as impersonator.
    const porAdmin = await ver(`?usuario=${admin.id}&accion=suplantacion.inicio`);
    expect(porAdmin.entradas.map((e) => e.objetivo)).toEqual([{ tipo: 'usuario', id: usuario.id }]);
    expect((await ver('?usuario=nadie@correo.example')).total).toBe(0);
  });

  it('filters by time (from inclusive, to exclusive) and pages newest first', async () => {
    const accion = `prueba.tiempo${Date.now()}`;
    const momentos = ['2026-03-01T10:00:00.000Z', '2026-03-02T10:00:00.000Z', '2026-03-03T10:00:00.000Z'];
    for (const at of momentos) {
      await audit(server.database.db, { action: accion, actorUserId: admin.id });
      // The service stamps the database's time; these entries are placed at known instants.
      await server.database.db.execute(
        sql`update ${auditLog} set at = ${new Date(at)} where id = (select max(id) from audit_log where action = ${accion})`,
      );
    }
    const todas = await ver(`?accion=${accion}`);
    expect(todas.entradas.map((e) => e.at)).toEqual([...momentos].reverse());
    expect(todas.entradas[0]!.actor?.email).toBe(admin.email);
    const rango = await ver(`?accion=${accion}&desde=2026-03-02T10:00:00.000Z&hasta=2026-03-03T10:00:00.000Z`);
    expect(rango.entradas.map((e) => e.at)).toEqual(['2026-03-02T10:00:00.000Z']);
    const pagina2 = await ver(`?accion=${accion}&porPagina=2&pagina=2`);
    expect(pagina2.total).toBe(3);
    expect(pagina2.entradas.map((e) => e.at)).toEqual([momentos[0]]);
    const dias = await ver(`?accion=${accion}&desde=2026-03-02&hasta=2026-03-03`);
    expect(dias.total).toBe(1);
  });

  it('refuses malformed filters with Spanish messages', async () => {
    for (const q of ['?desde=ayer', '?hasta=2026-13-45T00:00:00Z', '?porPagina=500', '?pagina=0']) {
      const res = await llamar(server, 'GET', `/api/administrador/auditoria${q}`, { token });
      expect(res.status, q).toBe(400);
      expect(Array.isArray(await res.json())).toBe(true);
    }
  });
});

describe('GET /api/administrador/auditoria/acciones', () => {
  it('answers every distinct action once, sorted', async () => {
    await audit(server.database.db, { action: 'zz.ultima' });
    await audit(server.database.db, { action: 'zz.ultima' });
    await audit(server.database.db, { action: 'aa.primera' });
    const res = await llamar(server, 'GET', '/api/administrador/auditoria/acciones', { token });
    expect(res.status).toBe(200);
    const acciones = (await res.json()) as string[];
    expect(acciones[0]).toBe('aa.primera');
    expect(acciones.at(-1)).toBe('zz.ultima');
    expect(acciones).toContain('sesion.login');
    expect(new Set(acciones).size).toBe(acciones.length);
    expect([...acciones].sort()).toEqual(acciones);
  });
});
