/**
 * One thread of the password-hashing pool (src/server/auth/password.ts). It hashes and verifies
 * synchronously, one job at a time, at a lower CPU priority than the server's event loop: on Linux
 * a thread's nice value is set through its thread id (setpriority(2), PRIO_PROCESS). Why: docs/decisions/031.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { hashSync, verifySync } from '@node-rs/argon2';

/** argon2id, m = 19 MiB, t = 2, p = 1 (OWASP Password Storage Cheat Sheet, first recommended configuration). */
const OPTIONS = { algorithm: 2 /* Argon2id */, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** A job from the pool. */
export interface Trabajo {
  id: number;
  /** `hash`: `clave` only; `verify`: `clave` against `guardado`. */
  op: 'hash' | 'verify';
  clave: string;
  guardado?: string;
}

/** Its answer: the PHC string, whether the password matched, or the error's message. */
export interface Respuesta {
  id: number;
  valor?: string | boolean;
  error?: string;
}

/** Lowers this thread's priority; where threads have no id of their own in /proc (not Linux), nothing changes. */
function bajarPrioridad(nice: number): void {
  try {
    // "/proc/thread-self" links to "<pid>/task/<tid>".
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, nice);
  } catch {
    // No /proc, or not allowed: the thread keeps the process's priority.
  }
}

bajarPrioridad((workerData as { nice: number }).nice);

parentPort!.on('message', (t: Trabajo) => {
  let r: Respuesta;
  try {
    r = { id: t.id, valor: t.op === 'hash' ? hashSync(t.clave, OPTIONS) : verifySync(t.guardado!, t.clave) };
  } catch (err) {
    // A malformed stored hash: the caller treats it as a wrong password.
    r = { id: t.id, error: err instanceof Error ? err.message : String(err) };
  }
  parentPort!.postMessage(r);
});
