/**
 * The file exchange's SFTP server for a test file: on a free loopback port, with a host key made for
 * the run, on the test server's database, mail and clock (src/server/intercambio/sftp.ts).
 */
import { generarClaveSsh, iniciarSftp, type LimitesSftp, type ServidorSftp } from '../../src/server/intercambio/sftp.ts';
import { createLogger } from '../../src/server/logger.ts';
import type { TestServer } from './server.ts';

let claveHost: string | undefined;

/** Starts an SFTP server beside `server`; the caller closes it (`cerrar`). */
export function sftpDePrueba(server: TestServer, limites: Partial<LimitesSftp> = {}): Promise<ServidorSftp> {
  claveHost ??= generarClaveSsh().private;
  return iniciarSftp(
    { db: server.database.db, mailer: server.mailer, clock: server.clock, config: server.config, logger: createLogger('silent') },
    { puerto: 0, host: '127.0.0.1', claveHost, limites },
  );
}
