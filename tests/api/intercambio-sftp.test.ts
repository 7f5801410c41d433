/**
 * The file exchange's SFTP server (docs/decisions/019) with a real SSH client (ssh2's own): login
 * by portal password (and its refusal), by a public key registered through the profile API, the
 * same files as the FTP screen, uploads and downloads of a file larger than one stored piece, and
 * everything that must be refused: leaving the tree, another distributor or account, links,
 * uploads into salida/, fixed folders, a shell.
 */
import { createHash, randomBytes } from 'node:crypto';
import ssh2 from 'ssh2';
import type { SFTPWrapper } from 'ssh2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generarClaveSsh, type ServidorSftp } from '../../src/server/intercambio/sftp.ts';
import { claveDe } from '../../src/server/intercambio/claves.ts';
import { auditadas, cuenta, llamar, PASSWORD, sesion, type CuentaPrueba } from '../support/privado.ts';
import { servidorDelFichero } from '../support/server.ts';
import { sftpDePrueba } from '../support/sftp.ts';

const { Client, utils } = ssh2;
const server = servidorDelFichero();
let sftpServidor: ServidorSftp;
let empresa: CuentaPrueba;

beforeAll(async () => {
  sftpServidor = await sftpDePrueba(server);
  empresa = await cuenta(server, { extra: ['epd-comercializadora'], prefijo: 'comercializadora' });
});
afterAll(async () => {
  await sftpServidor?.cerrar();
});

/** Connects and opens SFTP; rejects with the client's error when the server refuses. */
function conectar(opciones: {
  username: string;
  password?: string;
  privateKey?: string;
}): Promise<{ sftp: SFTPWrapper; cliente: InstanceType<typeof Client> }> {
  return new Promise((resolve, reject) => {
    const cliente = new Client();
    cliente
      .on('ready', () => {
        // As OpenSSH's client does for interactive use: small requests are not held back.
        cliente.setNoDelay(true);
        cliente.sftp((err, sftp) => (err ? reject(err) : resolve({ sftp, cliente })));
      })
      .on('error', reject)
      .connect({ host: '127.0.0.1', port: sftpServidor.puerto, ...opciones, readyTimeout: 10_000 });
  });
}

const promesa =
  <T>(f: (cb: (err: Error | null | undefined, r?: T) => void) => void) =>
  () =>
    new Promise<T>((resolve, reject) => f((err, r) => (err ? reject(err) : resolve(r as T))));

const listar = (sftp: SFTPWrapper, ruta: string) =>
  promesa<{ filename: string }[]>((cb) => sftp.readdir(ruta, cb as never))().then((l) => l.map((e) => e.filename).sort());

function escribir(sftp: SFTPWrapper, ruta: string, datos: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const s = sftp.createWriteStream(ruta);
    s.on('error', reject).on('close', () => resolve());
    s.end(datos);
  });
}

function leer(sftp: SFTPWrapper, ruta: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const partes: Buffer[] = [];
    sftp
      .createReadStream(ruta)
      .on('data', (d: Buffer) => partes.push(d))
      .on('error', reject)
      .on('end', () => resolve(Buffer.concat(partes)));
  });
}

describe('el servidor SFTP del intercambio', () => {
  it('entra con el correo y la contraseña del portal y ve sus carpetas', async () => {
    const { sftp, cliente } = await conectar({ username: empresa.email, password: PASSWORD });
    try {
      expect(await listar(sftp, '/')).toEqual(['epd']);
      expect(await listar(sftp, '/epd')).toEqual(['entrada', 'salida']);
      expect(await listar(sftp, '.')).toEqual(['epd']);
    } finally {
      cliente.end();
    }
    const logins = await auditadas(server, 'sesion.login', { actor: empresa.id });
    expect(logins.some((e) => (e.details as { canal?: string } | null)?.canal === 'sftp')).toBe(true);
  });

  it('rechaza una contraseña errónea y una cuenta sin permiso de comercializadora', async () => {
    await expect(conectar({ username: empresa.email, password: 'NoEsLaClave1' })).rejects.toThrow(/authentication/i);
    const consumidor = await cuenta(server, { prefijo: 'consumidor' });
    await expect(conectar({ username: consumidor.email, password: PASSWORD })).rejects.toThrow(/authentication/i);
  });

  it('sube y baja un fichero de varios trozos, el mismo que ve la pantalla FTP', async () => {
    const datos = randomBytes(2_500_000);
    const { sftp, cliente } = await conectar({ username: empresa.email, password: PASSWORD });
    try {
      await escribir(sftp, '/epd/entrada/grande.bin', datos);
      const bajado = await leer(sftp, '/epd/entrada/grande.bin');
      expect(createHash('sha256').update(bajado).digest('hex')).toBe(createHash('sha256').update(datos).digest('hex'));
      const st = await promesa<{ size: number }>((cb) => sftp.stat('/epd/entrada/grande.bin', cb as never))();
      expect(st.size).toBe(datos.length);
      await promesa<void>((cb) => sftp.mkdir('/epd/archivo', cb as never))();
      await promesa<void>((cb) => sftp.rename('/epd/entrada/grande.bin', '/epd/archivo/grande.bin', cb as never))();
    } finally {
      cliente.end();
    }
    const token = await (await llamar(server, 'POST', '/api/ftpConnect', { body: { username: empresa.email, password: PASSWORD } })).json();
    const pantalla = await llamar(server, 'GET', '/api/ftp?carpeta=/epd/archivo', { token: (token as { token: string }).token });
    expect(((await pantalla.json()) as { elementos: { id: string; size: number }[] }).elementos).toEqual([
      expect.objectContaining({ id: '/epd/archivo/grande.bin', size: datos.length }),
    ]);
  });

  it('no deja salir del árbol, entrar en otra distribuidora ni cuenta, subir a salida, tocar las carpetas fijas ni crear enlaces', async () => {
    const otra = await cuenta(server, { extra: ['epd-comercializadora', 'eod-comercializadora'], prefijo: 'comercializadora' });
    const { sftp: suya, cliente: c1 } = await conectar({ username: otra.email, password: PASSWORD });
    await escribir(suya, '/eod/entrada/secreto.xml', Buffer.from('<x/>'));
    c1.end();
    const { sftp, cliente } = await conectar({ username: empresa.email, password: PASSWORD });
    try {
      await expect(listar(sftp, '/..')).rejects.toThrow(/sale de sus carpetas/);
      await expect(listar(sftp, '/eod')).rejects.toThrow(/No existe/);
      await expect(leer(sftp, '/eod/entrada/secreto.xml')).rejects.toThrow(/No existe/);
      await expect(escribir(sftp, '/epd/salida/x.xml', Buffer.from('x'))).rejects.toThrow(/salida/);
      await expect(promesa<void>((cb) => sftp.rmdir('/epd/entrada', cb as never))()).rejects.toThrow(/no se pueden borrar/);
      await expect(promesa<void>((cb) => sftp.symlink('/epd/entrada', '/epd/enlace', cb as never))()).rejects.toThrow();
      await expect(promesa<void>((cb) => sftp.mkdir('/fuera', cb as never))()).rejects.toThrow(/carpetas de cada distribuidora/);
    } finally {
      cliente.end();
    }
  });

  it('cierra el canal cuando el cliente termina, como sftp -b espera para salir, y elige AES-GCM antes que ChaCha20', async () => {
    const cliente = new Client();
    const negociado = new Promise<string>((resolve) => cliente.on('handshake', (n) => resolve(n.cs.cipher)));
    await new Promise<void>((resolve, reject) =>
      cliente
        .on('ready', () => resolve())
        .on('error', reject)
        .connect({
          host: '127.0.0.1',
          port: sftpServidor.puerto,
          username: empresa.email,
          password: PASSWORD,
          // OpenSSH's own preference.
          algorithms: { cipher: ['chacha20-poly1305@openssh.com', 'aes128-gcm@openssh.com', 'aes256-gcm@openssh.com'] },
        }),
    );
    expect(await negociado).toBe('aes128-gcm@openssh.com');
    const canal = await new Promise<ssh2.ClientChannel>((resolve, reject) =>
      cliente.subsys('sftp', (err, c) => (err ? reject(err) : resolve(c))),
    );
    // SSH_FXP_INIT (version 3), its VERSION answer, then only the client's EOF: the server must answer
    // with its own and close, or the client waits for ever.
    const version = new Promise<void>((resolve) => canal.once('data', () => resolve()));
    canal.write(Buffer.from([0, 0, 0, 5, 1, 0, 0, 0, 3]));
    await version;
    const cerrado = new Promise<void>((resolve) => canal.on('close', () => resolve()));
    canal.end();
    await expect(Promise.race([cerrado.then(() => 'cerrado'), new Promise((r) => setTimeout(() => r('colgado'), 3000))])).resolves.toBe(
      'cerrado',
    );
    cliente.end();
  });

  it('no abre una terminal ni ejecuta órdenes', async () => {
    const { cliente } = await conectar({ username: empresa.email, password: PASSWORD });
    try {
      await expect(promesa<unknown>((cb) => cliente.exec('id', cb as never))()).rejects.toThrow();
    } finally {
      cliente.end();
    }
  });

  it('ofrecer una clave registrada sin su firma no cuenta como uso', async () => {
    const { public: publica } = utils.generateKeyPairSync('ed25519');
    const c = await cuenta(server, { extra: ['epd-comercializadora'], prefijo: 'comercializadora' });
    const { jwtToken } = await sesion(server, c.email);
    await llamar(server, 'POST', '/api/perfil/claves-ssh', { token: jwtToken, body: { clave: publica } });
    // What the server does when a client offers that public key before signing (anyone who knows it can).
    const blob = Buffer.from(publica.split(' ')[1]!, 'base64');
    expect(await claveDe(server.database.db, c.email, blob)).toMatchObject({ usuarioId: c.id });
    const lista = (await (await llamar(server, 'GET', '/api/perfil/claves-ssh', { token: jwtToken })).json()) as {
      claves: { usadaEn: string | null }[];
    };
    expect(lista.claves[0]!.usadaEn).toBeNull();
    // Another account's name with that key is nobody's key.
    expect(await claveDe(server.database.db, empresa.email, blob)).toBeNull();
  });

  it('entra con una clave pública registrada en el perfil, y no con otra', async () => {
    const { private: privada, public: publica } = generarClaveSsh('pruebas');
    const { jwtToken } = await sesion(server, empresa.email);
    const alta = await llamar(server, 'POST', '/api/perfil/claves-ssh', { token: jwtToken, body: { clave: publica } });
    expect(alta.status).toBe(201);
    expect(((await alta.json()) as { huella: string }).huella).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
    const privadaNoValida = await llamar(server, 'POST', '/api/perfil/claves-ssh', { token: jwtToken, body: { clave: privada } });
    expect(privadaNoValida.status).toBe(422);

    const { sftp, cliente } = await conectar({ username: empresa.email, privateKey: privada });
    try {
      expect(await listar(sftp, '/epd')).toEqual(expect.arrayContaining(['entrada', 'salida']));
    } finally {
      cliente.end();
    }
    const otra = generarClaveSsh();
    await expect(conectar({ username: empresa.email, privateKey: otra.private })).rejects.toThrow(/authentication/i);
    const lista = (await (await llamar(server, 'GET', '/api/perfil/claves-ssh', { token: jwtToken })).json()) as {
      puertoSftp: number | null;
      claves: { usadaEn: string | null }[];
    };
    expect(lista.puertoSftp).toBe(server.config.sftpPort);
    expect(lista.claves).toHaveLength(1);
    expect(lista.claves[0]!.usadaEn).not.toBeNull();
    // Only a supply company registers keys.
    const { jwtToken: hogar } = await sesion(server, (await cuenta(server, { prefijo: 'consumidor' })).email);
    expect((await llamar(server, 'GET', '/api/perfil/claves-ssh', { token: hogar })).status).toBe(403);
    // Another account's name with this key does not get in either.
    const ajena = await cuenta(server, { extra: ['epd-comercializadora'], prefijo: 'comercializadora' });
    await expect(conectar({ username: ajena.email, privateKey: privada })).rejects.toThrow(/authentication/i);
  });
});
