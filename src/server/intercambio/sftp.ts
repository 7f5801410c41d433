/**
 * The SFTP server of the supply companies' file exchange (docs/decisions/019), inside the portal,
 * on SFTP_PORT: the same files as the FTP screen (almacen.ts), through ssh2, an SSH library in
 * JavaScript (its optional native parts are not built: package.json `allowScripts`).
 *
 * A company logs in with its portal e-mail (or NIF) and password, through the portal's own login
 * checks and rate limits, or with an SSH public key registered in its profile. Only accounts with
 * `-comercializadora` of some distributor get in, and only SFTP: no shell, no exec, no forwarding.
 * The tree is theirs alone (`/` lists their distributors); links do not exist; every path is
 * normalised and checked, a `..` that leaves the tree is an error. The host key is generated once
 * into DATA_DIR (`sftp_host_ed25519_key`), or given by SFTP_HOST_KEY.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import ssh2 from 'ssh2';
import type { Attributes, AuthContext, Connection, FileEntry, SFTPWrapper } from 'ssh2';
import { audit } from '../auditoria/service.ts';
import { comprobarCredenciales } from '../auth/sesion.ts';
import { enUnaSentencia } from '../db/juntas.ts';
import type { AppDeps } from '../http/context.ts';
import { findAccountById } from '../usuarios/service.ts';
import {
  abrir,
  borrar,
  comprobarEscritura,
  crearCarpeta,
  cuentaIntercambio,
  ErrorIntercambio,
  guardar,
  info,
  listar,
  mover,
  Recepcion,
  rutaDe,
  type CuentaIntercambio,
  type EntradaIntercambio,
  type Lectura,
} from './almacen.ts';
import { claveDe, marcarUso } from './claves.ts';

const { Server, utils } = ssh2;
const { OPEN_MODE, STATUS_CODE } = utils.sftp;

/** Where the generated host key is kept. */
const FICHERO_CLAVE = 'sftp_host_ed25519_key';

/** The host key: SFTP_HOST_KEY, or the one generated into DATA_DIR the first time. */
export function claveDeHost(dataDir: string, dada: string | null): string {
  if (dada) return dada;
  const fichero = join(dataDir, FICHERO_CLAVE);
  try {
    return readFileSync(fichero, 'utf8');
  } catch {
    const { private: privada } = utils.generateKeyPairSync('ed25519');
    mkdirSync(dataDir, { recursive: true });
    try {
      writeFileSync(fichero, privada, { mode: 0o600, flag: 'wx' });
      return privada;
    } catch {
      // Another process of the same DATA_DIR wrote it first: that one is the key.
      return readFileSync(fichero, 'utf8');
    }
  }
}

/** The SFTP status of an error: what the company may act on gets its Spanish message. */
function estadoDe(err: unknown): { codigo: number; mensaje: string } {
  if (err instanceof ErrorIntercambio) {
    const codigo =
      err.codigo === 'no_existe'
        ? STATUS_CODE.NO_SUCH_FILE
        : err.codigo === 'prohibido'
          ? STATUS_CODE.PERMISSION_DENIED
          : STATUS_CODE.FAILURE;
    return { codigo, mensaje: err.message };
  }
  return { codigo: STATUS_CODE.FAILURE, mensaje: 'Error interno del servidor.' };
}

/** SFTP attributes of an entry: folders 0755, files 0644, times in seconds. */
function atributos(e: EntradaIntercambio): Attributes {
  const t = Math.floor(e.modificadoEn.getTime() / 1000);
  return { mode: e.carpeta ? 0o040755 : 0o100644, uid: 0, gid: 0, size: e.bytes, atime: t, mtime: t };
}

const MESES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The `ls -l` line clients show. */
function lineaLarga(e: EntradaIntercambio): string {
  const d = e.modificadoEn;
  const fecha = `${MESES[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2)} ${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`;
  return `${e.carpeta ? 'drwxr-xr-x' : '-rw-r--r--'} 1 empresa empresa ${String(e.bytes).padStart(10)} ${fecha} ${e.nombre || '/'}`;
}

const entradaDe = (e: EntradaIntercambio): FileEntry => ({ filename: e.nombre, longname: lineaLarga(e), attrs: atributos(e) });

/** An open handle: a file being read, a file being received, or a folder listed once. */
type Manejador =
  | { tipo: 'lectura'; ruta: string; lectura: Lectura }
  | { tipo: 'escritura'; ruta: string; recepcion: Recepcion }
  | { tipo: 'carpeta'; entradas: EntradaIntercambio[] | null };

/** Most handles a session keeps open at once. */
const MAX_MANEJADORES = 64;

/** A running SFTP server. */
export interface ServidorSftp {
  puerto: number;
  cerrar(): Promise<void>;
}

/** Starts the SFTP server on `puerto` (0: any free port) of `host`. */
export async function iniciarSftp(deps: AppDeps, opciones: { puerto: number; host: string; claveHost: string }): Promise<ServidorSftp> {
  const log = deps.logger.child({ modulo: 'sftp' });
  const conexiones = new Set<Connection>();
  const servidor = new Server(
    {
      hostKeys: [opciones.claveHost],
      ident: 'portal-intercambio',
      // AES-GCM first and ChaCha20-Poly1305 not offered: OpenSSH's client prefers ChaCha20, which
      // ssh2 runs in JavaScript, while AES-GCM runs in Node's crypto (measured: 25 % more throughput).
      algorithms: { cipher: ['aes128-gcm@openssh.com', 'aes256-gcm@openssh.com', 'aes128-ctr', 'aes192-ctr', 'aes256-ctr'] },
    },
    (cliente, infoCliente) => {
      conexiones.add(cliente);
      // SFTP is request and answer: Nagle's algorithm would hold each small answer for the client's delayed ACK (40 ms).
      (cliente as unknown as { setNoDelay(v: boolean): void }).setNoDelay(true);
      const ip = infoCliente.ip;
      let usuarioId: string | null = null;
      const requestId = `sftp-${randomBytes(6).toString('hex')}`;
      cliente.on('close', () => conexiones.delete(cliente));
      cliente.on('error', (err) => log.debug({ err, ip }, 'conexión SFTP con error'));

      cliente.on('authentication', (ctx: AuthContext) => {
        void autenticar(ctx).catch((err) => {
          log.error({ err }, 'error al autenticar en SFTP');
          ctx.reject();
        });
      });

      const autenticar = async (ctx: AuthContext) => {
        if (ctx.method === 'password') {
          try {
            const { cuenta, escrituras } = await comprobarCredenciales(
              deps,
              { ip, requestId, userAgent: null },
              ctx.username,
              ctx.password,
              'sftp',
            );
            if (cuentaIntercambio(cuenta.id, cuenta.permisos).distribuidoras.length === 0) return ctx.reject(['password', 'publickey']);
            await enUnaSentencia(deps.db, escrituras('sftp'));
            usuarioId = cuenta.id;
            return ctx.accept();
          } catch (err) {
            if (err instanceof Error && 'status' in err) return ctx.reject(['password', 'publickey']);
            throw err;
          }
        }
        if (ctx.method === 'publickey') {
          const registrada = await claveDe(deps.db, ctx.username, ctx.key.data);
          if (!registrada) return ctx.reject(['password', 'publickey']);
          // Without a signature the client only asks whether the key would do.
          if (!ctx.signature || !ctx.blob) return ctx.accept();
          const clave = utils.parseKey(registrada.linea);
          if (clave instanceof Error || clave.verify(ctx.blob, ctx.signature, ctx.hashAlgo) !== true)
            return ctx.reject(['password', 'publickey']);
          const id = registrada.usuarioId;
          const cuenta = await findAccountById(deps.db, id);
          if (!cuenta || cuenta.estado !== 'activo' || cuentaIntercambio(cuenta.id, cuenta.permisos).distribuidoras.length === 0) {
            return ctx.reject(['password', 'publickey']);
          }
          await marcarUso(deps.db, cuenta.id, registrada.huella, deps.clock.now());
          await audit(deps.db, {
            action: 'sesion.login',
            actorUserId: cuenta.id,
            ip,
            requestId,
            details: { con: 'clave_ssh', canal: 'sftp' },
          });
          usuarioId = cuenta.id;
          return ctx.accept();
        }
        return ctx.reject(['password', 'publickey']);
      };

      cliente.on('ready', () => {
        cliente.on('session', (aceptar) => {
          const sesion = aceptar();
          // SFTP only: a shell, a command or a terminal is refused.
          sesion.on('pty', (_a, rechazar) => rechazar?.());
          sesion.on('shell', (_a, rechazar) => rechazar());
          sesion.on('exec', (_a, rechazar) => rechazar());
          sesion.on('sftp', (aceptarSftp) => atender(aceptarSftp(), usuarioId!));
        });
        cliente.on('tcpip', (_a, rechazar) => rechazar());
        cliente.on('request', (_a, rechazar) => rechazar?.());
      });
    },
  );

  /** Serves one SFTP channel of an authenticated account. */
  function atender(sftp: SFTPWrapper, usuarioId: string) {
    const manejadores = new Map<number, Manejador & { cola: Promise<unknown> }>();
    let siguiente = 1;
    const info_ = { ip: null as string | null, requestId: `sftp-${randomBytes(6).toString('hex')}` };

    /** The account as it is now: a permission revoked closes its folders at once. */
    const cuenta = async (): Promise<CuentaIntercambio> => {
      const c = await findAccountById(deps.db, usuarioId);
      return c && c.estado === 'activo' ? cuentaIntercambio(c.id, c.permisos) : { id: usuarioId, distribuidoras: [] };
    };

    const auditar = (action: string, ruta: string, details: Record<string, unknown> = {}) =>
      audit(deps.db, {
        action,
        actorUserId: usuarioId,
        targetType: 'fichero_intercambio',
        targetId: ruta,
        ip: info_.ip,
        requestId: info_.requestId,
        details: { canal: 'sftp', ...details },
        distribuidoras: [ruta.split('/')[1]!],
      });

    /** Runs an operation; any refusal becomes its SFTP status with the Spanish reason. */
    const hacer = (reqId: number, op: () => Promise<void>) => {
      void op().catch((err) => {
        if (!(err instanceof ErrorIntercambio)) log.error({ err }, 'error en una operación SFTP');
        const { codigo, mensaje } = estadoDe(err);
        sftp.status(reqId, codigo, mensaje);
      });
    };

    const nuevo = (m: Manejador): Buffer => {
      if (manejadores.size >= MAX_MANEJADORES) throw new ErrorIntercambio('prohibido', 'Demasiados ficheros abiertos a la vez.');
      const id = siguiente++;
      manejadores.set(id, { ...m, cola: Promise.resolve() });
      const h = Buffer.alloc(4);
      h.writeUInt32BE(id);
      return h;
    };
    const idDe = (h: Buffer) => (h.length === 4 ? h.readUInt32BE(0) : -1);

    /** Operations on one handle run in the order they came (a CLOSE after its WRITEs). */
    const enOrden = (reqId: number, h: Buffer, op: (m: Manejador) => Promise<void>) => {
      const m = manejadores.get(idDe(h));
      if (!m) return sftp.status(reqId, STATUS_CODE.FAILURE, 'Manejador no válido.');
      m.cola = m.cola.then(() =>
        op(m).catch((err) => {
          if (!(err instanceof ErrorIntercambio)) log.error({ err }, 'error en una operación SFTP');
          const { codigo, mensaje } = estadoDe(err);
          sftp.status(reqId, codigo, mensaje);
        }),
      );
    };

    sftp.on('REALPATH', (reqId, ruta) =>
      hacer(reqId, async () => {
        const r = rutaDe(ruta || '.');
        const e = await info(deps.db, await cuenta(), r).catch(() => null);
        sftp.name(reqId, [{ filename: r, longname: e ? lineaLarga(e) : r, attrs: e ? atributos(e) : ({} as Attributes) }]);
      }),
    );
    const estado = (reqId: number, ruta: string) =>
      hacer(reqId, async () => {
        sftp.attrs(reqId, atributos(await info(deps.db, await cuenta(), rutaDe(ruta))));
      });
    sftp.on('STAT', estado);
    sftp.on('LSTAT', estado);
    sftp.on('OPENDIR', (reqId, ruta) =>
      hacer(reqId, async () => {
        const entradas = await listar(deps.db, await cuenta(), rutaDe(ruta));
        sftp.handle(reqId, nuevo({ tipo: 'carpeta', entradas }));
      }),
    );
    sftp.on('READDIR', (reqId, h) =>
      enOrden(reqId, h, async (m) => {
        if (m.tipo !== 'carpeta') throw new ErrorIntercambio('no_es_carpeta', 'No es una carpeta.');
        if (!m.entradas) return void sftp.status(reqId, STATUS_CODE.EOF);
        const lista = m.entradas.map(entradaDe);
        m.entradas = null;
        sftp.name(reqId, lista);
      }),
    );
    sftp.on('OPEN', (reqId, ruta, flags) =>
      hacer(reqId, async () => {
        const r = rutaDe(ruta);
        const c = await cuenta();
        if (flags & OPEN_MODE.APPEND) throw new ErrorIntercambio('prohibido', 'No se puede añadir a un fichero: súbalo entero.');
        if (flags & OPEN_MODE.WRITE) {
          if (flags & OPEN_MODE.EXCL && (await info(deps.db, c, r).catch(() => null)))
            throw new ErrorIntercambio('existe', 'Ya existe un fichero con ese nombre.');
          await comprobarEscritura(deps.db, c, r);
          sftp.handle(reqId, nuevo({ tipo: 'escritura', ruta: r, recepcion: await Recepcion.abrir() }));
          return;
        }
        const lectura = await abrir(deps.db, c, r);
        await auditar('intercambio.descarga', r, { bytes: lectura.entrada.bytes, sha256: lectura.sha256 });
        sftp.handle(reqId, nuevo({ tipo: 'lectura', ruta: r, lectura }));
      }),
    );
    sftp.on('READ', (reqId, h, posicion, largo) =>
      enOrden(reqId, h, async (m) => {
        if (m.tipo !== 'lectura') throw new ErrorIntercambio('prohibido', 'El fichero no está abierto para leer.');
        const datos = await m.lectura.leer(posicion, largo);
        if (datos.byteLength === 0) sftp.status(reqId, STATUS_CODE.EOF);
        else sftp.data(reqId, datos);
      }),
    );
    sftp.on('WRITE', (reqId, h, posicion, datos) =>
      enOrden(reqId, h, async (m) => {
        if (m.tipo !== 'escritura') throw new ErrorIntercambio('prohibido', 'El fichero no está abierto para escribir.');
        await m.recepcion.escribir(posicion, datos);
        sftp.status(reqId, STATUS_CODE.OK);
      }),
    );
    const atributosDeManejador = (reqId: number, h: Buffer) =>
      enOrden(reqId, h, async (m) => {
        if (m.tipo === 'lectura') sftp.attrs(reqId, atributos(m.lectura.entrada));
        else if (m.tipo === 'escritura') sftp.attrs(reqId, { mode: 0o100644, uid: 0, gid: 0, size: 0, atime: 0, mtime: 0 });
        else sftp.attrs(reqId, { mode: 0o040755, uid: 0, gid: 0, size: 0, atime: 0, mtime: 0 });
      });
    sftp.on('FSTAT', atributosDeManejador);
    sftp.on('CLOSE', (reqId, h) =>
      enOrden(reqId, h, async (m) => {
        manejadores.delete(idDe(h));
        if (m.tipo !== 'escritura') return void sftp.status(reqId, STATUS_CODE.OK);
        try {
          const guardado = await guardar(deps.db, await cuenta(), m.ruta, await m.recepcion.terminar(), deps.clock.now());
          await auditar('intercambio.subida', m.ruta, { bytes: guardado.bytes });
          sftp.status(reqId, STATUS_CODE.OK);
        } finally {
          await m.recepcion.descartar();
        }
      }),
    );
    // Times and modes are the exchange's own: a client that sets them is told it went well.
    sftp.on('SETSTAT', (reqId) => sftp.status(reqId, STATUS_CODE.OK));
    sftp.on('FSETSTAT', (reqId) => sftp.status(reqId, STATUS_CODE.OK));
    sftp.on('MKDIR', (reqId, ruta) =>
      hacer(reqId, async () => {
        const r = rutaDe(ruta);
        await crearCarpeta(deps.db, await cuenta(), r, deps.clock.now());
        await auditar('intercambio.carpeta', r);
        sftp.status(reqId, STATUS_CODE.OK);
      }),
    );
    sftp.on('RMDIR', (reqId, ruta) =>
      hacer(reqId, async () => {
        const r = rutaDe(ruta);
        await borrar(deps.db, await cuenta(), r, { soloCarpeta: true });
        await auditar('intercambio.borrado', r, { carpeta: true });
        sftp.status(reqId, STATUS_CODE.OK);
      }),
    );
    sftp.on('REMOVE', (reqId, ruta) =>
      hacer(reqId, async () => {
        const r = rutaDe(ruta);
        const e = await borrar(deps.db, await cuenta(), r, { soloFichero: true });
        await auditar('intercambio.borrado', r, { carpeta: false, bytes: e.bytes });
        sftp.status(reqId, STATUS_CODE.OK);
      }),
    );
    sftp.on('RENAME', (reqId, origen, destino) =>
      hacer(reqId, async () => {
        const de = rutaDe(origen);
        const a = rutaDe(destino);
        await mover(deps.db, await cuenta(), de, a, deps.clock.now());
        await auditar('intercambio.movido', a, { origen: de });
        sftp.status(reqId, STATUS_CODE.OK);
      }),
    );
    // There are no links in the exchange.
    sftp.on('READLINK', (reqId) => sftp.status(reqId, STATUS_CODE.OP_UNSUPPORTED, 'No hay enlaces.'));
    sftp.on('SYMLINK', (reqId) => sftp.status(reqId, STATUS_CODE.OP_UNSUPPORTED, 'No se pueden crear enlaces.'));
    sftp.on('EXTENDED', (reqId) => sftp.status(reqId, STATUS_CODE.OP_UNSUPPORTED));
    // The client's EOF ends the subsystem, as OpenSSH's sftp-server exits on it: without our end and
    // close, `sftp -b` and other clients that wait for the channel to close would hang on exit.
    sftp.on('end', () => sftp.end());
    sftp.on('close', () => {
      for (const m of manejadores.values()) if (m.tipo === 'escritura') void m.recepcion.descartar();
      manejadores.clear();
    });
  }

  await new Promise<void>((resolve, reject) => {
    servidor.once('error', reject);
    servidor.listen(opciones.puerto, opciones.host, () => {
      servidor.off('error', reject);
      resolve();
    });
  });
  const puerto = (servidor.address() as AddressInfo).port;
  log.info({ puerto }, 'servidor SFTP del intercambio de ficheros escuchando');
  return {
    puerto,
    cerrar: () =>
      new Promise<void>((resolve) => {
        for (const c of conexiones) c.end();
        servidor.close(() => resolve());
      }),
  };
}
