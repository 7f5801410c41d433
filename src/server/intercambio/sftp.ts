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
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import ssh2 from 'ssh2';
import type { Attributes, AuthContext, Connection, FileEntry, SFTPWrapper } from 'ssh2';
import type { SQL } from 'drizzle-orm';
import { audit, auditSql } from '../auditoria/service.ts';
import { cuentaDeLaPeticion } from '../auth/cuenta.ts';
import { comprobarCredenciales, familiaDeCanal, revocarFamilia } from '../auth/sesion.ts';
import { enUnaSentencia } from '../db/juntas.ts';
import type { AppDeps } from '../http/context.ts';
import { opcionesDeEscucha } from '../http/escucha.ts';
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
/** SSH_MSG_DISCONNECT reason codes (RFC 4253 §11.1), which ssh2 does not export. */
const DESCONEXION = { porLaAplicacion: 11, demasiadasConexiones: 12 } as const;

/** Where the generated host key is kept. */
const FICHERO_CLAVE = 'sftp_host_ed25519_key';

/**
 * A new ed25519 key pair in OpenSSH format whose private key ssh2 can read back. ssh2's own
 * generator writes, about once in 400 keys, one that its parser refuses as "Malformed OpenSSH
 * private key" (measured: 7 of 3,000), and a server or client given it does not start: such a key
 * is thrown away and another made.
 */
export function generarClaveSsh(comentario?: string): { private: string; public: string } {
  for (let intento = 0; intento < 50; intento++) {
    const par =
      comentario === undefined ? utils.generateKeyPairSync('ed25519') : utils.generateKeyPairSync('ed25519', { comment: comentario });
    if (!(utils.parseKey(par.private) instanceof Error)) return par;
  }
  throw new Error('no se pudo generar una clave SSH que ssh2 lea');
}

/**
 * The host key: SFTP_HOST_KEY, or the one generated into DATA_DIR the first time. A stored key that
 * ssh2 cannot read (written by an earlier version from a faulty generation) never let the server
 * start, so no client knows it: it is replaced.
 */
export function claveDeHost(dataDir: string, dada: string | null): string {
  if (dada) return dada;
  const fichero = join(dataDir, FICHERO_CLAVE);
  let guardada: string | null = null;
  try {
    guardada = readFileSync(fichero, 'utf8');
  } catch {
    // None yet.
  }
  if (guardada !== null && !(utils.parseKey(guardada) instanceof Error)) return guardada;
  const privada = generarClaveSsh().private;
  mkdirSync(dataDir, { recursive: true });
  if (guardada !== null) {
    writeFileSync(fichero, privada, { mode: 0o600 });
    return privada;
  }
  try {
    writeFileSync(fichero, privada, { mode: 0o600, flag: 'wx' });
    return privada;
  } catch {
    // Another process of the same DATA_DIR wrote it first: that one is the key.
    return readFileSync(fichero, 'utf8');
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

/**
 * What one client may take of the portal (docs/decisions/034). Every open handle is a database
 * read or a temporary file (a file descriptor), every channel a set of them: without bounds one
 * connection took every descriptor of the process and the HTTP side stopped answering. Counted per
 * process: several processes (WORKERS) each bound what they serve.
 */
export interface LimitesSftp {
  /** Connections at once from one address, logged in or not. */
  conexionesPorDireccion: number;
  /** Connections at once of one account (its SFTP sessions). */
  sesionesPorCuenta: number;
  /** SSH channels (SFTP subsystems) open at once in one connection. */
  canalesPorConexion: number;
  /** Handles (open files and folders) of one account at once, over all its connections. */
  manejadoresPorCuenta: number;
  /** A connection that has not logged in by then is closed (OpenSSH's LoginGraceTime). */
  graciaLoginMs: number;
  /** A logged-in connection without any SFTP request for this long is closed. */
  inactividadMs: number;
  /** How often an idle connection asks the database whether its session is still open. */
  comprobacionMs: number;
}

export const LIMITES_SFTP: LimitesSftp = {
  conexionesPorDireccion: 10,
  sesionesPorCuenta: 8,
  canalesPorConexion: 4,
  manejadoresPorCuenta: 64,
  graciaLoginMs: 30_000,
  inactividadMs: 15 * 60_000,
  comprobacionMs: 30_000,
};

/** Ends a connection with an SSH disconnect reason that clients print (OpenSSH: "Received disconnect … 12"). */
function desconectar(cliente: Connection, motivo: number): void {
  const interno = cliente as unknown as { _protocol?: { disconnect(r: number): void }; _sock?: { end(): void; destroy(): void } };
  if (motivo === DESCONEXION.porLaAplicacion || !interno._protocol || !interno._sock) return void cliente.end();
  try {
    interno._protocol.disconnect(motivo);
    interno._sock.end();
  } catch {
    interno._sock.destroy();
  }
}

/** What a channel needs of its connection. */
interface Conexion {
  /** Marks the connection as in use (the idle limit counts from the last request). */
  actividad(): void;
  cerrar(): void;
  /** The session family opened at login. */
  familia(): string | null;
  /** Channels open now. */
  canales: number;
}

/** A running SFTP server. */
export interface ServidorSftp {
  puerto: number;
  cerrar(): Promise<void>;
}

/** Starts the SFTP server on `puerto` (0: any free port) of `host`. */
export async function iniciarSftp(
  deps: AppDeps,
  opciones: { puerto: number; host: string; claveHost: string; limites?: Partial<LimitesSftp> },
): Promise<ServidorSftp> {
  const log = deps.logger.child({ modulo: 'sftp' });
  const limites: LimitesSftp = { ...LIMITES_SFTP, ...opciones.limites };
  /** Every TCP connection, from its first byte: what the address limit and the login grace time count. */
  const sockets = new Map<string, { socket: Socket; gracia: NodeJS.Timeout }>();
  /** Open connections by address, sessions and handles by account: what the limits count. */
  const porDireccion = new Map<string, number>();
  const sesionesDe = new Map<string, number>();
  const manejadoresDe = new Map<string, number>();
  const sumar = (m: Map<string, number>, k: string, n: number) => {
    const v = (m.get(k) ?? 0) + n;
    if (v <= 0) m.delete(k);
    else m.set(k, v);
  };
  const servidor = new Server(
    {
      hostKeys: [opciones.claveHost],
      ident: 'portal-intercambio',
      // AES-GCM first and ChaCha20-Poly1305 not offered: OpenSSH's client prefers ChaCha20, which
      // ssh2 runs in JavaScript, while AES-GCM runs in Node's crypto (measured: 25 % more throughput).
      algorithms: { cipher: ['aes128-gcm@openssh.com', 'aes256-gcm@openssh.com', 'aes128-ctr', 'aes192-ctr', 'aes256-ctr'] },
    },
    (cliente, infoCliente) => {
      const socketTcp = sockets.get(`${infoCliente.ip}|${infoCliente.port}`);
      // SFTP is request and answer: Nagle's algorithm would hold each small answer for the client's delayed ACK (40 ms).
      (cliente as unknown as { setNoDelay(v: boolean): void }).setNoDelay(true);
      const ip = infoCliente.ip;
      let usuarioId: string | null = null;
      /** The session family this connection opened at login: revoked, it ends the connection. */
      let familia: string | null = null;
      let terminada = false;
      const requestId = `sftp-${randomBytes(6).toString('hex')}`;
      let ultimaActividad = Date.now();
      const conexion: Conexion = {
        actividad: () => {
          ultimaActividad = Date.now();
        },
        cerrar: () => cliente.end(),
        familia: () => familia,
        canales: 0,
      };
      cliente.on('close', () => {
        if (terminada) return;
        terminada = true;
        clearInterval(vigilancia);
        if (usuarioId) sumar(sesionesDe, usuarioId, -1);
        // The connection's own session ends with it: it does not linger among the account's sessions.
        if (familia)
          void revocarFamilia(deps.db, familia, deps.clock.now(), 'sftp_fin').catch((err) =>
            log.error({ err }, 'error al cerrar la sesión SFTP'),
          );
      });
      cliente.on('error', (err) => log.debug({ err, ip }, 'conexión SFTP con error'));
      let vigilancia: NodeJS.Timeout | undefined;

      /** Whether the session is still open and the account still may use the exchange (any process may have ended it). */
      const vigente = async (): Promise<boolean> => {
        if (!usuarioId || !familia) return false;
        const c = await cuentaDeLaPeticion(deps.db, usuarioId, familia, deps.clock.now());
        return !!c && c.estado === 'activo' && c.sesionViva && cuentaIntercambio(c.id, c.permisos).distribuidoras.length > 0;
      };

      /** Once logged in: the session's checks, and the idle limit. */
      const vigilar = () => {
        vigilancia = setInterval(
          () => {
            if (Date.now() - ultimaActividad >= limites.inactividadMs) {
              log.info({ ip, usuarioId }, 'conexión SFTP cerrada por inactividad');
              return void cliente.end();
            }
            void vigente()
              .then((ok) => {
                if (!ok && !terminada) {
                  log.info({ ip, usuarioId }, 'conexión SFTP cerrada: su sesión ha terminado');
                  cliente.end();
                }
              })
              .catch((err) => log.error({ err }, 'error al comprobar una sesión SFTP'));
          },
          Math.min(limites.comprobacionMs, limites.inactividadMs),
        );
        vigilancia.unref();
      };

      /** Opens the connection's session family with the login's writes; false when the account has all the sessions it may. */
      const entrar = async (id: string, escrituras: readonly SQL[]): Promise<boolean> => {
        if ((sesionesDe.get(id) ?? 0) >= limites.sesionesPorCuenta) return false;
        sumar(sesionesDe, id, 1);
        const f = familiaDeCanal(deps.db, deps.clock.now(), id, { ip, requestId, userAgent: null });
        try {
          await enUnaSentencia(deps.db, [...escrituras, ...f.escrituras]);
        } catch (err) {
          sumar(sesionesDe, id, -1);
          throw err;
        }
        usuarioId = id;
        familia = f.familyId;
        if (terminada) {
          // Gone while logging in: its session must not stay open.
          sumar(sesionesDe, id, -1);
          void revocarFamilia(deps.db, f.familyId, deps.clock.now(), 'sftp_fin').catch(() => undefined);
          return true;
        }
        if (socketTcp) clearTimeout(socketTcp.gracia);
        conexion.actividad();
        vigilar();
        return true;
      };

      /** The account already has every session it may: the login is refused with "too many connections". */
      const demasiadas = () => {
        log.warn({ ip }, 'conexión SFTP rechazada: la cuenta tiene demasiadas sesiones abiertas');
        desconectar(cliente, DESCONEXION.demasiadasConexiones);
      };

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
            if (!(await entrar(cuenta.id, escrituras('sftp')))) return demasiadas();
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
          const login = auditSql(deps.db, {
            action: 'sesion.login',
            actorUserId: cuenta.id,
            ip,
            requestId,
            details: { con: 'clave_ssh', canal: 'sftp' },
          });
          if (!(await entrar(cuenta.id, [login]))) return demasiadas();
          await marcarUso(deps.db, cuenta.id, registrada.huella, deps.clock.now());
          return ctx.accept();
        }
        return ctx.reject(['password', 'publickey']);
      };

      cliente.on('ready', () => {
        cliente.on('session', (aceptar, rechazar) => {
          // Each channel holds handles and buffers: a connection opens a few at most (OpenSSH's
          // client opens one; the refusal reads "open failed" there).
          if (conexion.canales >= limites.canalesPorConexion) return rechazar();
          conexion.canales++;
          const sesion = aceptar();
          sesion.on('close', () => conexion.canales--);
          // SFTP only: a shell, a command or a terminal is refused.
          sesion.on('pty', (_a, rechazar) => rechazar?.());
          sesion.on('shell', (_a, rechazar) => rechazar());
          sesion.on('exec', (_a, rechazar) => rechazar());
          sesion.on('sftp', (aceptarSftp) => atender(aceptarSftp(), usuarioId!, conexion));
        });
        cliente.on('tcpip', (_a, rechazar) => rechazar());
        cliente.on('request', (_a, rechazar) => rechazar?.());
      });
    },
  );

  /** Serves one SFTP channel of an authenticated account. */
  function atender(sftp: SFTPWrapper, usuarioId: string, conexion: Conexion) {
    const manejadores = new Map<number, Manejador & { cola: Promise<unknown> }>();
    let siguiente = 1;
    const info_ = { ip: null as string | null, requestId: `sftp-${randomBytes(6).toString('hex')}` };

    /**
     * The account as it is now, in the same query that asks whether its session is still open: a
     * permission revoked closes its folders at once, and a session ended (in any process) ends the connection.
     */
    const cuenta = async (): Promise<CuentaIntercambio> => {
      conexion.actividad();
      const c = await cuentaDeLaPeticion(deps.db, usuarioId, conexion.familia(), deps.clock.now());
      if (c && !c.sesionViva) {
        conexion.cerrar();
        throw new ErrorIntercambio('prohibido', 'Su sesión ha terminado: vuelva a conectarse.');
      }
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
      conexion.actividad();
      void op().catch((err) => {
        if (!(err instanceof ErrorIntercambio)) log.error({ err }, 'error en una operación SFTP');
        const { codigo, mensaje } = estadoDe(err);
        sftp.status(reqId, codigo, mensaje);
      });
    };

    let cerrado = false;
    /**
     * Takes one of the account's handles before anything is opened (a temporary file, a read), so a
     * refusal leaves nothing behind; `nuevo` gives it a number, `soltar` gives it back.
     */
    const reservar = () => {
      if ((manejadoresDe.get(usuarioId) ?? 0) >= limites.manejadoresPorCuenta)
        // SSH_FX_FAILURE, as OpenSSH's sftp-server answers when its handles run out ("Failure" in its client).
        throw new ErrorIntercambio('cuota', 'Demasiados ficheros abiertos a la vez: cierre alguno antes de abrir otro.');
      sumar(manejadoresDe, usuarioId, 1);
    };
    const soltar = () => sumar(manejadoresDe, usuarioId, -1);
    /** Runs `abrir` on a reserved handle; what it opened is released if it fails or the channel closed meanwhile. */
    const conReserva = async (reqId: number, abrir: () => Promise<Manejador>) => {
      reservar();
      let m: Manejador;
      try {
        m = await abrir();
      } catch (err) {
        soltar();
        throw err;
      }
      if (cerrado) {
        soltar();
        if (m.tipo === 'escritura') await m.recepcion.descartar();
        return;
      }
      const id = siguiente++;
      manejadores.set(id, { ...m, cola: Promise.resolve() });
      const h = Buffer.alloc(4);
      h.writeUInt32BE(id);
      sftp.handle(reqId, h);
    };
    const idDe = (h: Buffer) => (h.length === 4 ? h.readUInt32BE(0) : -1);

    /** Operations on one handle run in the order they came (a CLOSE after its WRITEs). */
    const enOrden = (reqId: number, h: Buffer, op: (m: Manejador) => Promise<void>) => {
      conexion.actividad();
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
        const c = await cuenta();
        await conReserva(reqId, async () => ({ tipo: 'carpeta', entradas: await listar(deps.db, c, rutaDe(ruta)) }));
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
          return conReserva(reqId, async () => ({ tipo: 'escritura', ruta: r, recepcion: await Recepcion.abrir() }));
        }
        await conReserva(reqId, async () => {
          const lectura = await abrir(deps.db, c, r);
          await auditar('intercambio.descarga', r, { bytes: lectura.entrada.bytes, sha256: lectura.sha256 });
          return { tipo: 'lectura', ruta: r, lectura };
        });
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
        if (manejadores.delete(idDe(h))) soltar();
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
      cerrado = true;
      for (const m of manejadores.values()) {
        soltar();
        if (m.tipo === 'escritura') void m.recepcion.descartar();
      }
      manejadores.clear();
    });
  }

  // The TCP side is ours, and each socket is handed to ssh2 (`injectSocket`): ssh2 tells of a
  // connection only once the client has sent its version line, so a half-open connection, which
  // never does, would escape both the address limit and the login grace time. As OpenSSH's
  // MaxStartups, a refused connection is closed before the version exchange (its client prints
  // "kex_exchange_identification: Connection closed by remote host").
  const tcp = createServer((socket) => {
    const ip = socket.remoteAddress ?? '';
    const clave = `${ip}|${socket.remotePort}`;
    if ((porDireccion.get(ip) ?? 0) >= limites.conexionesPorDireccion) {
      log.warn({ ip }, 'conexión SFTP rechazada: demasiadas conexiones desde la dirección');
      return void socket.destroy();
    }
    sumar(porDireccion, ip, 1);
    const gracia = setTimeout(() => {
      log.info({ ip }, 'conexión SFTP cerrada: no inició sesión a tiempo');
      socket.destroy();
    }, limites.graciaLoginMs);
    gracia.unref();
    sockets.set(clave, { socket, gracia });
    socket.once('close', () => {
      clearTimeout(gracia);
      sockets.delete(clave);
      sumar(porDireccion, ip, -1);
    });
    servidor.injectSocket(socket);
  });

  await new Promise<void>((resolve, reject) => {
    tcp.once('error', reject);
    tcp.listen({ port: opciones.puerto, host: opciones.host, ...opcionesDeEscucha() }, () => {
      tcp.off('error', reject);
      resolve();
    });
  });
  tcp.on('error', (err) => log.error({ err }, 'error del servidor SFTP'));
  const puerto = (tcp.address() as AddressInfo).port;
  log.info({ puerto }, 'servidor SFTP del intercambio de ficheros escuchando');
  return {
    puerto,
    cerrar: () =>
      new Promise<void>((resolve) => {
        tcp.close(() => resolve());
        for (const { socket } of sockets.values()) socket.destroy();
      }),
  };
}
