/**
 * What one client may take of the SFTP server (docs/decisions/034): channels per connection,
 * handles per account, sessions per account, connections per address, the login grace time and the
 * idle limit, each on a server of its own with small limits so the tests are fast; the portal and
 * another account served while one account holds everything it may; an SFTP session ended by a
 * password change or "close other sessions" (in the database, so from any process); no temporary
 * folder left by a refused open, and no folder made in salida/.
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ssh2 from 'ssh2';
import type { SFTPWrapper } from 'ssh2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generarClaveSsh, type LimitesSftp, type ServidorSftp } from '../../src/server/intercambio/sftp.ts';
import { cuenta, llamar, PASSWORD, sesion, type CuentaPrueba } from '../support/privado.ts';
import { servidorDelFichero } from '../support/server.ts';
import { sftpDePrueba } from '../support/sftp.ts';

const { Client, utils } = ssh2;
const { STATUS_CODE } = utils.sftp;
type Cliente = InstanceType<typeof Client>;
const server = servidorDelFichero();
const servidores: ServidorSftp[] = [];

async function servidorSftp(limites: Partial<LimitesSftp> = {}): Promise<ServidorSftp> {
  const s = await sftpDePrueba(server, limites);
  servidores.push(s);
  return s;
}

// Temporary upload folders of this test process go to a folder of its own, to be counted.
const temporal = mkdtempSync(join(tmpdir(), 'prueba-sftp-'));
const tmpdirAntes = process.env.TMPDIR;
beforeAll(() => {
  process.env.TMPDIR = temporal;
});
afterAll(async () => {
  if (tmpdirAntes === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = tmpdirAntes;
  await Promise.all(servidores.map((s) => s.cerrar()));
});

const empresa = () => cuenta(server, { extra: ['epd-comercializadora'], prefijo: 'comercializadora' });

/** An SSH connection, logged in; rejects with the client's error when the server refuses. */
function entrar(s: ServidorSftp, opciones: { username: string; password?: string; privateKey?: string }): Promise<Cliente> {
  return new Promise((resolve, reject) => {
    const cliente = new Client();
    cliente
      .on('ready', () => resolve(cliente))
      .on('error', reject)
      .on('close', () => reject(new Error('conexión cerrada')))
      .connect({ host: '127.0.0.1', port: s.puerto, ...opciones, readyTimeout: 10_000 });
  });
}

const abrirSftp = (c: Cliente) => new Promise<SFTPWrapper>((resolve, reject) => c.sftp((err, sftp) => (err ? reject(err) : resolve(sftp))));

const abrirCarpeta = (sftp: SFTPWrapper, ruta: string) =>
  new Promise<Buffer>((resolve, reject) => sftp.opendir(ruta, (err, h) => (err ? reject(err) : resolve(h))));
const abrirEscritura = (sftp: SFTPWrapper, ruta: string) =>
  new Promise<Buffer>((resolve, reject) => sftp.open(ruta, 'w', (err, h) => (err ? reject(err) : resolve(h))));
const cerrarManejador = (sftp: SFTPWrapper, h: Buffer) =>
  new Promise<void>((resolve, reject) => sftp.close(h, (err) => (err ? reject(err) : resolve())));
const listar = (sftp: SFTPWrapper, ruta: string) =>
  new Promise<string[]>((resolve, reject) =>
    sftp.readdir(ruta, (err, l) => (err ? reject(err) : resolve(l.map((e) => e.filename).sort()))),
  );

/** Resolves when the connection closes, with how long it took; rejects after `ms`. */
function cerradaEn(c: Cliente | Socket, ms: number): Promise<number> {
  const desde = Date.now();
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`sigue abierta tras ${ms} ms`)), ms);
    c.once('close', () => {
      clearTimeout(t);
      resolve(Date.now() - desde);
    });
  });
}

/** A TCP connection to the server that never speaks SSH (half-open, as a scanner or a flood leaves it). */
function mudo(s: ServidorSftp): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const sock = connect(s.puerto, '127.0.0.1', () => resolve(sock));
    sock.on('error', reject);
    // The server's banner is read and ignored.
    sock.on('data', () => undefined);
  });
}

describe('límites del servidor SFTP', () => {
  it('una conexión abre a lo sumo canalesPorConexion canales SFTP', async () => {
    const s = await servidorSftp({ canalesPorConexion: 2 });
    const e = await empresa();
    const c = await entrar(s, { username: e.email, password: PASSWORD });
    try {
      const [a, b] = [await abrirSftp(c), await abrirSftp(c)];
      await expect(abrirSftp(c)).rejects.toThrow(/Channel open failure/i);
      // Closing one gives its place back.
      a.end();
      await new Promise((r) => setTimeout(r, 200));
      expect(await listar(await abrirSftp(c), '/epd')).toEqual(['entrada', 'salida']);
      expect(await listar(b, '/epd')).toEqual(['entrada', 'salida']);
    } finally {
      c.end();
    }
  });

  it('una cuenta tiene a lo sumo manejadoresPorCuenta ficheros y carpetas abiertos entre todas sus conexiones', async () => {
    const s = await servidorSftp({ manejadoresPorCuenta: 3 });
    const e = await empresa();
    const [c1, c2] = [
      await entrar(s, { username: e.email, password: PASSWORD }),
      await entrar(s, { username: e.email, password: PASSWORD }),
    ];
    try {
      const [s1, s2] = [await abrirSftp(c1), await abrirSftp(c2)];
      const h1 = await abrirCarpeta(s1, '/epd');
      await abrirCarpeta(s1, '/epd/entrada');
      await abrirCarpeta(s2, '/epd');
      const refusal = await abrirCarpeta(s2, '/epd/salida').catch((err: { code?: number; message: string }) => err);
      expect(refusal).toMatchObject({
        code: STATUS_CODE.FAILURE,
        message: expect.stringMatching(/Demasiados ficheros abiertos/),
      });
      await cerrarManejador(s1, h1);
      await expect(abrirCarpeta(s2, '/epd/salida')).resolves.toBeInstanceOf(Buffer);
      // A connection gone gives back every handle it held.
      c2.end();
      await cerradaEn(c2, 5000);
      await new Promise((r) => setTimeout(r, 100));
      await abrirCarpeta(s1, '/epd');
      await abrirCarpeta(s1, '/epd/salida');
    } finally {
      c1.end();
      c2.end();
    }
  });

  it('una apertura rechazada por el límite de manejadores no deja una carpeta temporal', async () => {
    const s = await servidorSftp({ manejadoresPorCuenta: 2 });
    const e = await empresa();
    const c = await entrar(s, { username: e.email, password: PASSWORD });
    const temporales = () => readdirSync(temporal).filter((n) => n.startsWith('intercambio-')).length;
    const antes = temporales();
    try {
      const sftp = await abrirSftp(c);
      await abrirEscritura(sftp, '/epd/entrada/a.xml');
      await abrirEscritura(sftp, '/epd/entrada/b.xml');
      expect(temporales()).toBe(antes + 2);
      await expect(abrirEscritura(sftp, '/epd/entrada/c.xml')).rejects.toMatchObject({ code: STATUS_CODE.FAILURE });
      expect(temporales()).toBe(antes + 2);
    } finally {
      c.end();
    }
    await cerradaEn(c, 5000).catch(() => undefined);
    await expect.poll(temporales, { timeout: 5000 }).toBe(antes);
  });

  it('una cuenta tiene a lo sumo sesionesPorCuenta conexiones a la vez; la siguiente se corta con "too many connections"', async () => {
    const s = await servidorSftp({ sesionesPorCuenta: 2 });
    const e = await empresa();
    const otra = await empresa();
    const abiertas = [
      await entrar(s, { username: e.email, password: PASSWORD }),
      await entrar(s, { username: e.email, password: PASSWORD }),
    ];
    try {
      await expect(entrar(s, { username: e.email, password: PASSWORD })).rejects.toThrow();
      // Another account is not affected.
      const suya = await entrar(s, { username: otra.email, password: PASSWORD });
      suya.end();
      abiertas[0]!.end();
      await cerradaEn(abiertas[0]!, 5000);
      await new Promise((r) => setTimeout(r, 100));
      abiertas.push(await entrar(s, { username: e.email, password: PASSWORD }));
    } finally {
      for (const c of abiertas) c.end();
    }
  });

  it('una dirección tiene a lo sumo conexionesPorDireccion conexiones, con sesión o sin ella', async () => {
    const s = await servidorSftp({ conexionesPorDireccion: 3 });
    const e = await empresa();
    const mudos = [await mudo(s), await mudo(s), await mudo(s)];
    try {
      await expect(entrar(s, { username: e.email, password: PASSWORD })).rejects.toThrow();
      mudos.pop()!.destroy();
      await new Promise((r) => setTimeout(r, 100));
      const c = await entrar(s, { username: e.email, password: PASSWORD });
      c.end();
    } finally {
      for (const m of mudos) m.destroy();
    }
  });

  it('cierra la conexión que no inicia sesión en graciaLoginMs', async () => {
    const s = await servidorSftp({ graciaLoginMs: 300 });
    const m = await mudo(s);
    expect(await cerradaEn(m, 5000)).toBeGreaterThanOrEqual(250);
  });

  it('cierra la sesión sin peticiones durante inactividadMs, y no la que trabaja', async () => {
    const s = await servidorSftp({ inactividadMs: 1500, comprobacionMs: 100 });
    const e = await empresa();
    const quieta = await entrar(s, { username: e.email, password: PASSWORD });
    const activa = await entrar(s, { username: e.email, password: PASSWORD });
    const sftp = await abrirSftp(activa);
    await abrirSftp(quieta);
    const cierre = cerradaEn(quieta, 10_000);
    const hasta = Date.now() + 2500;
    try {
      while (Date.now() < hasta) {
        await listar(sftp, '/epd');
        await new Promise((r) => setTimeout(r, 200));
      }
      await cierre;
      // The working one has outlived the idle limit.
      expect(await listar(sftp, '/epd')).toEqual(['entrada', 'salida']);
    } finally {
      activa.end();
      quieta.end();
    }
  });

  it('sirve a otra cuenta y el portal responde mientras una cuenta agota sus límites', async () => {
    const s = await servidorSftp();
    const glotona = await empresa();
    const otra = await empresa();
    const conexiones: Cliente[] = [];
    try {
      // Every session and channel it may, and every handle, then more than that.
      for (let i = 0; i < 8; i++) conexiones.push(await entrar(s, { username: glotona.email, password: PASSWORD }));
      await expect(entrar(s, { username: glotona.email, password: PASSWORD })).rejects.toThrow();
      const canales: SFTPWrapper[] = [];
      for (const c of conexiones) for (let j = 0; j < 4; j++) canales.push(await abrirSftp(c));
      await expect(abrirSftp(conexiones[0]!)).rejects.toThrow(/Channel open failure/i);
      const intentos = await Promise.allSettled(Array.from({ length: 80 }, (_, i) => abrirCarpeta(canales[i % canales.length]!, '/epd')));
      expect(intentos.filter((r) => r.status === 'fulfilled')).toHaveLength(64);

      const desde = Date.now();
      const salud = await server.fetch('/api/health');
      expect(salud.status).toBe(200);
      expect(Date.now() - desde).toBeLessThan(2000);
      const suya = await entrar(s, { username: otra.email, password: PASSWORD });
      try {
        const sftp = await abrirSftp(suya);
        expect(await listar(sftp, '/epd')).toEqual(['entrada', 'salida']);
        await abrirEscritura(sftp, '/epd/entrada/sigue.xml').then((h) => cerrarManejador(sftp, h));
        expect(await listar(sftp, '/epd/entrada')).toContain('sigue.xml');
      } finally {
        suya.end();
      }
    } finally {
      for (const c of conexiones) c.end();
    }
  });
});

describe('una sesión SFTP termina con las sesiones de la cuenta', () => {
  it('al cambiar la contraseña desde el portal se cierra la conexión abierta con contraseña', async () => {
    const s = await servidorSftp({ comprobacionMs: 100 });
    const e = await empresa();
    const c = await entrar(s, { username: e.email, password: PASSWORD });
    await abrirSftp(c);
    const cierre = cerradaEn(c, 5000);
    const { jwtToken } = await sesion(server, e.email);
    const cambio = await llamar(server, 'POST', '/api/perfil/clave', {
      token: jwtToken,
      body: { passwordActual: PASSWORD, password: 'Nueva456', passwordCopy: 'Nueva456' },
    });
    expect(cambio.status).toBe(200);
    await cierre;
  });

  it('«cerrar las otras sesiones» cierra la conexión abierta con una clave SSH', async () => {
    const s = await servidorSftp({ comprobacionMs: 100 });
    const e: CuentaPrueba = await empresa();
    const { private: privada, public: publica } = generarClaveSsh();
    const { jwtToken } = await sesion(server, e.email);
    expect((await llamar(server, 'POST', '/api/perfil/claves-ssh', { token: jwtToken, body: { clave: publica } })).status).toBe(201);
    const c = await entrar(s, { username: e.email, privateKey: privada });
    const sftp = await abrirSftp(c);
    expect(await listar(sftp, '/epd')).toEqual(['entrada', 'salida']);
    const cierre = cerradaEn(c, 5000);
    const res = await llamar(server, 'POST', '/api/perfil/sesiones/cerrar-otras', { token: jwtToken });
    expect(await res.json()).toEqual({ cerradas: 1 });
    await cierre;
  });

  it('una petición tras el cierre de sesión se rechaza sin esperar a la comprobación periódica', async () => {
    const s = await servidorSftp({ comprobacionMs: 60_000 });
    const e = await empresa();
    const c = await entrar(s, { username: e.email, password: PASSWORD });
    const sftp = await abrirSftp(c);
    const { jwtToken } = await sesion(server, e.email);
    await llamar(server, 'POST', '/api/perfil/sesiones/cerrar-otras', { token: jwtToken });
    const cierre = cerradaEn(c, 5000);
    await expect(listar(sftp, '/epd')).rejects.toThrow();
    await cierre;
  });

  it('la sesión de una conexión cerrada no queda abierta entre las de la cuenta', async () => {
    const s = await servidorSftp();
    const e = await empresa();
    const c = await entrar(s, { username: e.email, password: PASSWORD });
    const { jwtToken } = await sesion(server, e.email);
    const vivas = async () =>
      ((await (await llamar(server, 'GET', '/api/perfil/sesiones', { token: jwtToken })).json()) as unknown[]).length;
    expect(await vivas()).toBe(2);
    c.end();
    await expect.poll(vivas, { timeout: 5000 }).toBe(1);
  });
});

describe('carpetas en salida', () => {
  it('crear una carpeta dentro de salida se rechaza con permiso denegado', async () => {
    const s = await servidorSftp();
    const e = await empresa();
    const c = await entrar(s, { username: e.email, password: PASSWORD });
    try {
      const sftp = await abrirSftp(c);
      const err = await new Promise<{ code?: number; message: string } | null | undefined>((resolve) =>
        sftp.mkdir('/epd/salida/mia', resolve),
      );
      expect(err).toMatchObject({ code: STATUS_CODE.PERMISSION_DENIED, message: expect.stringMatching(/salida/) });
      expect(await listar(sftp, '/epd/salida')).toEqual([]);
    } finally {
      c.end();
    }
  });
});
