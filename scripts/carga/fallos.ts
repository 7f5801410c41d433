/**
 * The faults `npm run carga -- apagon --fallos` causes during the surge: a worker killed with
 * SIGKILL, the SMTP server gone for a while, PostgreSQL restarted. Each acts only on what the run
 * itself started (its own PostgreSQL cluster, its own SMTP server on loopback, its own portal).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { SMTPServer } from 'smtp-server';

/** An SMTP server on loopback that keeps the recipients of what it receives, and can go away and come back. */
export interface SumideroSmtp {
  puerto: number;
  /** Recipients of every message received, one entry per message and recipient. */
  recibidos: string[];
  cerrar(): Promise<void>;
  abrir(): Promise<void>;
}

export async function sumideroSmtp(puerto: number): Promise<SumideroSmtp> {
  const recibidos: string[] = [];
  let servidor: SMTPServer | null = null;
  const abrir = async () => {
    const s = new SMTPServer({
      disabledCommands: ['STARTTLS', 'AUTH'],
      authOptional: true,
      logger: false,
      onData(stream, session, callback) {
        stream.on('data', () => undefined);
        stream.on('end', () => {
          for (const r of session.envelope.rcptTo) recibidos.push(r.address.toLowerCase());
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => s.listen(puerto, '127.0.0.1', () => resolve()));
    servidor = s;
  };
  await abrir();
  return {
    puerto,
    recibidos,
    abrir,
    async cerrar() {
      const s = servidor;
      servidor = null;
      if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
    },
  };
}

/** Debian's PostgreSQL binaries, newest version. */
function binariosPostgres(): string {
  const base = '/usr/lib/postgresql';
  const version = readdirSync(base)
    .sort((a, b) => Number(a) - Number(b))
    .at(-1);
  if (!version) throw new Error('PostgreSQL no está instalado (apt-get install postgresql)');
  return `${base}/${version}/bin`;
}

/**
 * Restarts the cluster in `carpeta` (`pg_ctl restart -m fast`: open connections are ended, as a
 * failover or a crash would end them), with the options it was started with; resolves once it
 * accepts connections again. Run as the `postgres` user when this process is root, as
 * scripts/ci/start-postgres.sh starts it.
 */
export function reiniciarPostgres(carpeta: string): void {
  const orden = `${binariosPostgres()}/pg_ctl -D ${carpeta} restart -m fast -w`;
  if (process.getuid?.() === 0) execFileSync('su', ['postgres', '-s', '/bin/bash', '-c', orden], { stdio: 'ignore' });
  else execFileSync('bash', ['-c', orden], { stdio: 'ignore' });
}

/** Kills process `pid` with SIGKILL, as the kernel's out-of-memory killer would. */
export function matar(pid: number): void {
  process.kill(pid, 'SIGKILL');
}
