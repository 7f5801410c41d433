/** Starts the real portal process for a test, on its own port and data directory, and reads its JSON logs. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

/** A running portal process. */
export interface Proc {
  child: ChildProcessWithoutNullStreams;
  lines: Record<string, unknown>[];
  /** Resolves with the first log line whose message is `msg` (already seen or to come). */
  waitFor(msg: string): Promise<Record<string, unknown>>;
  exited: Promise<number | null>;
  /** SIGTERM and wait for the exit code. */
  stop(): Promise<number | null>;
}

/** Spawns `node src/server/main.ts` with the given environment on top of safe defaults. */
export function startServer(env: Record<string, string>): Proc {
  const child = spawn(process.execPath, ['src/server/main.ts'], {
    env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'info', DATABASE_URL: '', SFTP_PORT: '0', ...env },
  });
  const lines: Record<string, unknown>[] = [];
  const waiters: { msg: string; resolve: (l: Record<string, unknown>) => void }[] = [];
  let buffer = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const raw = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      try {
        const line = JSON.parse(raw) as Record<string, unknown>;
        lines.push(line);
        for (const w of waiters.filter((w) => w.msg === line.msg)) w.resolve(line);
      } catch {
        // not a log line
      }
    }
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    lines,
    exited,
    waitFor: (msg) => {
      const seen = lines.find((l) => l.msg === msg);
      return seen ? Promise.resolve(seen) : new Promise((resolve) => waiters.push({ msg, resolve }));
    },
    stop: async () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}
