import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { audit } from '../../src/server/auditoria/service.ts';
import { auditLog } from '../../src/server/db/schema.ts';
import { cuenta, gestoraDelFichero, llamar, sesion, type CuentaPrueba } from '../support/privado.ts';
import { servidorDelFichero, unaHoraMasEnCadaTest } from '../support/server.ts';

const server = servidorDelFichero();
unaHoraMasEnCadaTest(server);
const gestora = gestoraDelFichero(server);

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
  const res = await llamar(server, 'GET', `/api/administrador/auditoria${query}`, { token: gestora.token });
  expect(res.status, query).toBe(200);
  return (await res.json()) as Respuesta;
}

describe('GET /api/administrador/auditoria', () => {
  describe('of an impersonation', () => {
    /** Impersonated by Ana Gestora, who reads their profile. */
    let usuario: CuentaPrueba;
    beforeAll(async () => {
      usuario = await cuenta(server, { nombre: 'Pedro', apellido1: 'Llano' });
      const { jwtToken: propio } = await sesion(server, gestora.a.email);
      const inicio = await llamar(server, 'POST', '/api/accesoUsuarioSuplantacion', { token: propio, body: { username: usuario.email } });
      const { jwtToken } = (await inicio.json()) as { jwtToken: string };
      await llamar(server, 'GET', '/api/perfil', { token: jwtToken });
    });

    it('names the actor and the impersonating administrator of each request, found by the user’s e-mail in any case', async () => {
      const porUsuario = await ver(`?usuario=${encodeURIComponent(usuario.email.toUpperCase())}&accion=suplantacion.peticion`);
      expect(porUsuario.total).toBe(1);
      expect(porUsuario.entradas[0]).toMatchObject({
        accion: 'suplantacion.peticion',
        actor: { id: usuario.id, email: usuario.email, nombre: 'Pedro Llano' },
        suplantador: { id: gestora.a.id, email: gestora.a.email, nombre: 'Ana Gestora' },
        ip: '127.0.0.1',
        detalles: { metodo: 'GET', ruta: '/api/perfil', estado: 200 },
      });
    });

    it("finds the administrator's entries as impersonator by their id", async () => {
      const porAdmin = await ver(`?usuario=${gestora.a.id}&accion=suplantacion.inicio`);
      expect(porAdmin.entradas.map((e) => e.objetivo)).toEqual([{ tipo: 'usuario', id: usuario.id }]);
    });

    it('finds nothing for an address that is no account', async () => {
      expect((await ver('?usuario=nadie@correo.example')).total).toBe(0);
    });
  });

  describe('over time', () => {
    const accion = `prueba.tiempo${Date.now()}`;
    const momentos = ['2026-03-01T10:00:00.000Z', '2026-03-02T10:00:00.000Z', '2026-03-03T10:00:00.000Z'];
    beforeAll(async () => {
      for (const at of momentos) {
        await audit(server.database.db, { action: accion, actorUserId: gestora.a.id });
        // The service stamps the database's time; these entries are placed at known instants.
        await server.database.db.execute(
          sql`update ${auditLog} set at = ${new Date(at)} where id = (select max(id) from audit_log where action = ${accion})`,
        );
      }
    });

    it('answers newest first, naming the actor', async () => {
      const todas = await ver(`?accion=${accion}`);
      expect(todas.entradas.map((e) => e.at)).toEqual([...momentos].reverse());
      expect(todas.entradas[0]!.actor?.email).toBe(gestora.a.email);
    });

    it('filters by time, from inclusive and to exclusive', async () => {
      const rango = await ver(`?accion=${accion}&desde=2026-03-02T10:00:00.000Z&hasta=2026-03-03T10:00:00.000Z`);
      expect(rango.entradas.map((e) => e.at)).toEqual(['2026-03-02T10:00:00.000Z']);
    });

    it('filters by dates without a time', async () => {
      const dias = await ver(`?accion=${accion}&desde=2026-03-02&hasta=2026-03-03`);
      expect(dias.total).toBe(1);
    });

    it('pages with the total of every page', async () => {
      const pagina2 = await ver(`?accion=${accion}&porPagina=2&pagina=2`);
      expect(pagina2.total).toBe(3);
      expect(pagina2.entradas.map((e) => e.at)).toEqual([momentos[0]]);
    });
  });

  it.each(['?desde=ayer', '?hasta=2026-13-45T00:00:00Z', '?porPagina=500', '?pagina=0'])(
    'refuses the malformed filter %s with a list of Spanish messages',
    async (q) => {
      const res = await llamar(server, 'GET', `/api/administrador/auditoria${q}`, { token: gestora.token });
      expect(res.status, q).toBe(400);
      expect(Array.isArray(await res.json())).toBe(true);
    },
  );
});

describe('GET /api/administrador/auditoria/acciones', () => {
  it('answers every distinct action once, sorted', async () => {
    await audit(server.database.db, { action: 'zz.ultima' });
    await audit(server.database.db, { action: 'zz.ultima' });
    await audit(server.database.db, { action: 'aa.primera' });
    const res = await llamar(server, 'GET', '/api/administrador/auditoria/acciones', { token: gestora.token });
    expect(res.status).toBe(200);
    const acciones = (await res.json()) as string[];
    expect(acciones[0]).toBe('aa.primera');
    expect(acciones.at(-1)).toBe('zz.ultima');
    expect(acciones).toContain('sesion.login');
    expect(new Set(acciones).size).toBe(acciones.length);
    expect([...acciones].sort()).toEqual(acciones);
  });
});
