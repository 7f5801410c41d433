/**
 * The supply companies' file exchange through the FTP screen's API (docs/decisions/019): its own
 * login with the portal's credentials and rate limits, the fixed folders of each distributor the
 * account is a supply company of, uploads, folders, moves, deletes and downloads of the real files,
 * what may not be done (salida/, fixed folders, other distributors, other accounts, path escapes),
 * the size limit, the audit, and a permission revoked taking effect at once.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MAX_FICHERO_INTERCAMBIO_BYTES } from '../../src/lib/intercambio/rutas.ts';
import { revokePermission } from '../../src/server/usuarios/service.ts';
import { auditadas, cuenta, llamar, PASSWORD, revocar, sesion } from '../support/privado.ts';
import { servidorDelFichero, type TestServer } from '../support/server.ts';

const server = servidorDelFichero();

interface Elemento {
  id: string;
  name: string;
  isFolder: boolean;
  parent: string;
  size: number;
  fixed: boolean;
  fromDistributor: boolean;
}

async function conectar(s: TestServer, username: string, password = PASSWORD): Promise<string> {
  const res = await llamar(s, 'POST', '/api/ftpConnect', { body: { username, password } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { token: string }).token;
}

async function lista(token: string, carpeta: string): Promise<Elemento[]> {
  const res = await llamar(server, 'GET', `/api/ftp?carpeta=${encodeURIComponent(carpeta)}`, { token });
  expect(res.status).toBe(200);
  return ((await res.json()) as { elementos: Elemento[] }).elementos;
}

const subir = (token: string, ruta: string, datos: string) =>
  server.fetch(`/api/ftp/fichero?ruta=${encodeURIComponent(ruta)}`, {
    method: 'PUT',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/octet-stream' },
    body: datos,
  });

async function empresa(permisos: ('epd-comercializadora' | 'eod-comercializadora')[] = ['epd-comercializadora', 'eod-comercializadora']) {
  const c = await cuenta(server, { extra: permisos, prefijo: 'comercializadora' });
  return { ...c, token: await conectar(server, c.email) };
}

describe('acceso a la pantalla FTP', () => {
  it('con la contraseña del portal da un token que solo abre el intercambio', async () => {
    const c = await empresa();
    const portal = await llamar(server, 'GET', '/api/suministros', { token: c.token });
    expect(portal.status).toBe(401);
    const entradas = await auditadas(server, 'sesion.login', { actor: c.id });
    expect(entradas.some((e) => (e.details as { canal?: string } | null)?.canal === 'ftp')).toBe(true);
  });

  it('con una contraseña errónea responde 401, y sin el permiso de comercializadora 403', async () => {
    const c = await cuenta(server, { extra: ['epd-comercializadora'], prefijo: 'comercializadora' });
    const mal = await llamar(server, 'POST', '/api/ftpConnect', { body: { username: c.email, password: 'NoEsLaClave1' } });
    expect(mal.status).toBe(401);
    const consumidor = await cuenta(server, { prefijo: 'consumidor' });
    const sin = await llamar(server, 'POST', '/api/ftpConnect', { body: { username: consumidor.email, password: PASSWORD } });
    expect(sin.status).toBe(403);
  });

  it('limita los intentos fallidos como el inicio de sesión', async () => {
    const c = await cuenta(server, { extra: ['epd-comercializadora'], prefijo: 'comercializadora' });
    const estados: number[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await llamar(server, 'POST', '/api/ftpConnect', {
        body: { username: c.email, password: `Mala${i}clave` },
      });
      estados.push(res.status);
    }
    expect(estados).toContain(429);
  });

  it('sin token, con un token de sesión del portal o con uno falso responde 401', async () => {
    const c = await cuenta(server, { extra: ['epd-comercializadora'], prefijo: 'comercializadora' });
    const sesion = await llamar(server, 'POST', '/api/accesoUsuario', {
      headers: { Authorization: `Basic ${Buffer.from(`${c.email}:${PASSWORD}`).toString('base64')}` },
    });
    const { jwtToken } = (await sesion.json()) as { jwtToken: string };
    for (const token of [undefined, jwtToken, 'a.b.c']) {
      expect((await llamar(server, 'GET', '/api/ftp?carpeta=/', { token })).status).toBe(401);
    }
  });
});

describe('carpetas y ficheros', () => {
  it('muestra una carpeta por distribuidora, con entrada, salida y entrada/rechazados fijas', async () => {
    const c = await empresa(['epd-comercializadora']);
    const raiz = await lista(c.token, '/');
    expect(raiz.map((e) => e.id)).toEqual(['/epd']);
    const epd = await lista(c.token, '/epd');
    expect(epd.map((e) => [e.name, e.isFolder, e.fixed, e.parent])).toEqual([
      ['entrada', true, true, '/epd'],
      ['salida', true, true, '/epd'],
    ]);
    expect((await lista(c.token, '/epd/entrada')).map((e) => e.id)).toEqual(['/epd/entrada/rechazados']);
    // Another distributor's folder does not exist for it.
    expect((await llamar(server, 'GET', '/api/ftp?carpeta=/eod', { token: c.token })).status).toBe(404);
  });

  it('sube, lista, descarga, renombra, mueve a una carpeta propia y borra', async () => {
    const c = await empresa();
    const xml = '<?xml version="1.0"?><MensajeA301/>';
    const subido = await subir(c.token, '/epd/entrada/prueba.xml', xml);
    expect(subido.status).toBe(201);
    expect(await subido.json()).toMatchObject({ id: '/epd/entrada/prueba.xml', name: 'prueba.xml', isFolder: false, size: xml.length });
    expect((await lista(c.token, '/epd/entrada')).map((e) => e.name)).toEqual(['rechazados', 'prueba.xml']);

    const bajado = await llamar(server, 'GET', '/api/ftp/fichero?ruta=/epd/entrada/prueba.xml', { token: c.token });
    expect(bajado.status).toBe(200);
    expect(bajado.headers.get('x-content-sha256')).toBe(createHash('sha256').update(xml).digest('hex'));
    expect(await bajado.text()).toBe(xml);

    expect((await llamar(server, 'POST', '/api/ftp/carpeta', { token: c.token, body: { ruta: '/epd/archivo' } })).status).toBe(201);
    const renombrado = await llamar(server, 'POST', '/api/ftpMove', {
      token: c.token,
      body: { origen: '/epd/entrada/prueba.xml', destino: '/epd/entrada/otro.xml' },
    });
    expect(renombrado.status).toBe(200);
    const movido = await llamar(server, 'POST', '/api/ftpMove', {
      token: c.token,
      body: { origen: '/epd/entrada/otro.xml', destino: '/epd/archivo/otro.xml' },
    });
    expect(await movido.json()).toMatchObject({ id: '/epd/archivo/otro.xml', parent: '/epd/archivo' });
    // A folder moves with what it holds.
    await llamar(server, 'POST', '/api/ftpMove', { token: c.token, body: { origen: '/epd/archivo', destino: '/epd/2026' } });
    expect((await lista(c.token, '/epd/2026')).map((e) => e.id)).toEqual(['/epd/2026/otro.xml']);
    // A folder that is not empty goes only when asked for with everything in it.
    expect((await llamar(server, 'DELETE', '/api/ftp?ruta=/epd/2026', { token: c.token })).status).toBe(409);
    expect((await llamar(server, 'DELETE', '/api/ftp?ruta=/epd/2026&recursivo=1', { token: c.token })).status).toBe(204);
    expect((await lista(c.token, '/epd')).map((e) => e.name)).toEqual(['entrada', 'salida']);

    const acciones = await auditadas(server, 'intercambio.subida', { actor: c.id });
    expect(acciones).toHaveLength(1);
    expect((await auditadas(server, 'intercambio.descarga', { actor: c.id })).length).toBe(1);
  });

  it('no deja subir a salida, tocar las carpetas fijas, salir del árbol ni pasar de una distribuidora a otra', async () => {
    const c = await empresa();
    const salida = await subir(c.token, '/epd/salida/x.xml', 'x');
    expect(salida.status).toBe(403);
    expect(((await salida.json()) as { message: string }).message).toContain('salida');
    expect((await llamar(server, 'DELETE', '/api/ftp?ruta=/epd/entrada', { token: c.token })).status).toBe(403);
    expect(
      (await llamar(server, 'POST', '/api/ftpMove', { token: c.token, body: { origen: '/epd/salida', destino: '/epd/s' } })).status,
    ).toBe(403);
    expect((await llamar(server, 'POST', '/api/ftp/carpeta', { token: c.token, body: { ruta: '/nueva' } })).status).toBe(403);
    expect((await subir(c.token, '/epd/entrada/../../eod/entrada/x.xml', 'x')).status).toBe(201);
    expect((await subir(c.token, '/../etc/passwd', 'x')).status).toBe(400);
    expect((await subir(c.token, '/epd/entrada/a\\b.xml', 'x')).status).toBe(400);
    await subir(c.token, '/epd/entrada/y.xml', 'y');
    const cruce = await llamar(server, 'POST', '/api/ftpMove', {
      token: c.token,
      body: { origen: '/epd/entrada/y.xml', destino: '/eod/entrada/y.xml' },
    });
    expect(cruce.status).toBe(403);
    // Another account's files do not exist for this one, even at the same path.
    const otra = await empresa();
    expect((await llamar(server, 'GET', '/api/ftp/fichero?ruta=/epd/entrada/y.xml', { token: otra.token })).status).toBe(404);
  });

  it('rechaza un fichero de más de 200 MB sin guardarlo', async () => {
    const c = await empresa(['epd-comercializadora']);
    const res = await server
      .fetch('/api/ftp/fichero?ruta=/epd/entrada/grande.bin', {
        method: 'PUT',
        headers: {
          Authorization: `Bearer ${c.token}`,
          'Content-Type': 'application/octet-stream',
          'Content-Length': String(MAX_FICHERO_INTERCAMBIO_BYTES + 1),
        },
        body: 'x',
      })
      .catch(() => null);
    // The declared length over the limit is refused before the body is read (the client may see the socket close).
    if (res) expect(res.status).toBe(413);
    expect((await lista(c.token, '/epd/entrada')).map((e) => e.name)).toEqual(['rechazados']);
  });

  it('retirar el permiso de comercializadora cierra sus carpetas al momento', async () => {
    const c = await empresa();
    await revokePermission(server.database.db, c.id, 'eod', 'comercializadora');
    expect((await lista(c.token, '/')).map((e) => e.id)).toEqual(['/epd']);
    await revokePermission(server.database.db, c.id, 'epd', 'comercializadora');
    expect((await llamar(server, 'GET', '/api/ftp?carpeta=/', { token: c.token })).status).toBe(403);
  });
});

describe('el token FTP termina con la sesión de la que vino', () => {
  const NUEVA = { passwordActual: PASSWORD, password: 'Nueva456', passwordCopy: 'Nueva456' };
  const sirve = async (token: string) => (await llamar(server, 'GET', '/api/ftp?carpeta=/epd', { token })).status;

  it('al cerrar la sesión del portal desde la que se pidió', async () => {
    const c = await cuenta(server, { extra: ['epd-comercializadora'], prefijo: 'comercializadora' });
    const web = await sesion(server, c.email);
    const res = await llamar(server, 'POST', '/api/ftpConnect', { body: { username: c.email, password: PASSWORD }, token: web.jwtToken });
    const { token } = (await res.json()) as { token: string };
    expect(await sirve(token)).toBe(200);
    expect((await revocar(server, web.cookie)).status).toBe(204);
    expect(await sirve(token)).toBe(401);
  });

  it('al cambiar la contraseña desde otra sesión', async () => {
    const c = await empresa(['epd-comercializadora']);
    expect(await sirve(c.token)).toBe(200);
    const web = await sesion(server, c.email);
    expect((await llamar(server, 'POST', '/api/perfil/clave', { token: web.jwtToken, body: NUEVA })).status).toBe(200);
    expect(await sirve(c.token)).toBe(401);
  });

  it('al cerrar las otras sesiones', async () => {
    const c = await empresa(['epd-comercializadora']);
    expect(await sirve(c.token)).toBe(200);
    const web = await sesion(server, c.email);
    const cierre = await llamar(server, 'POST', '/api/perfil/sesiones/cerrar-otras', { token: web.jwtToken });
    expect(await cierre.json()).toEqual({ cerradas: 1 });
    expect(await sirve(c.token)).toBe(401);
  });
});
