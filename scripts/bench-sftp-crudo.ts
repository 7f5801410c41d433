/**
 * The ceiling of the SSH layer alone, for the exchange bench: an ssh2 SFTP server that keeps
 * nothing (a WRITE is answered OK, a READ with zeros), driven by OpenSSH's `sftp` in its own
 * process with the same cipher as the portal's server (AES-128-GCM). What the portal's SFTP adds
 * on top (its temporary file, the database, the checks) is the difference with its own figures.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ssh2 from 'ssh2';

const { Server, utils } = ssh2;
const { STATUS_CODE } = utils.sftp;

/** Uploads `local` and downloads as many bytes; answers the milliseconds of each. `clave` is an ed25519 key pair's private file. */
export async function medirSsh2SinAlmacen(
  dir: string,
  local: string,
  bytes: number,
  clave: string,
): Promise<{ subidaMs: number; bajadaMs: number }> {
  const { private: claveHost } = utils.generateKeyPairSync('ed25519');
  const publica = readFileSync(`${clave}.pub`, 'utf8').trim().split(' ')[1];
  const cero = Buffer.alloc(65_536);
  const atributos = { mode: 0o100644, size: bytes, uid: 0, gid: 0, atime: 0, mtime: 0 };
  const servidor = new Server({ hostKeys: [claveHost], algorithms: { cipher: ['aes128-gcm@openssh.com'] } }, (c) => {
    c.on('authentication', (ctx) =>
      ctx.method === 'publickey' && ctx.key.data.toString('base64') === publica ? ctx.accept() : ctx.reject(['publickey']),
    );
    c.on('ready', () =>
      c.on('session', (aceptar) =>
        aceptar().on('sftp', (aceptarSftp) => {
          const f = aceptarSftp();
          f.on('end', () => f.end());
          f.on('REALPATH', (id, p) => f.name(id, [{ filename: p === '.' ? '/' : p, longname: p, attrs: atributos }]));
          for (const op of ['STAT', 'LSTAT', 'FSTAT'] as const) f.on(op, (id: number) => f.attrs(id, atributos));
          f.on('OPEN', (id) => f.handle(id, Buffer.from([0, 0, 0, 1])));
          f.on('WRITE', (id) => f.status(id, STATUS_CODE.OK));
          f.on('READ', (id, _h, pos, largo) =>
            pos >= bytes ? f.status(id, STATUS_CODE.EOF) : f.data(id, cero.subarray(0, Math.min(largo, bytes - pos, cero.length))),
          );
          for (const op of ['CLOSE', 'SETSTAT', 'FSETSTAT'] as const) f.on(op, (id: number) => f.status(id, STATUS_CODE.OK));
        }),
      ),
    );
  });
  await new Promise<void>((r) => servidor.listen(0, '127.0.0.1', () => r()));
  const puerto = (servidor.address() as { port: number }).port;
  const lote = (orden: string) =>
    new Promise<number>((resolve, reject) => {
      writeFileSync(join(dir, 'lote-crudo'), `${orden}\n`);
      const t = performance.now();
      const opciones = ['-q', '-i', clave, '-P', String(puerto), '-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null'];
      const p = spawn('sftp', [...opciones, '-b', join(dir, 'lote-crudo'), 'bench@127.0.0.1'], { stdio: ['ignore', 'ignore', 'ignore'] });
      p.on('exit', (codigo) => (codigo === 0 ? resolve(performance.now() - t) : reject(new Error(`sftp terminó con ${codigo}`))));
    });
  try {
    const subidaMs = await lote(`put ${local} /x.bin`);
    const bajadaMs = await lote(`get /x.bin ${join(dir, 'bajada-cruda.bin')}`);
    return { subidaMs, bajadaMs };
  } finally {
    servidor.close();
  }
}
