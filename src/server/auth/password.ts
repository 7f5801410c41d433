/**
 * Password hashing with argon2id at the OWASP Password Storage Cheat Sheet parameters, on a pool of
 * worker threads of its own (src/server/auth/password-worker.ts) that run at a lower CPU priority
 * than the event loop. Everything else a login does waits on the event loop; on a machine with as
 * many busy hashes as cores, the loop would otherwise get only its share among them, and hashes would
 * then wait for it in turn. Decision and figures: docs/decisions/031-hilos-de-clave.md.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Respuesta, Trabajo } from './password-worker.ts';

/** Nice value of the hashing threads (0 is the process's; 19 the lowest priority). */
const NICE = 10;

/** One thread per core: more would only take turns on the same cores. */
const NUCLEOS = availableParallelism();

interface Pendiente {
  trabajo: Trabajo;
  resolve: (valor: string | boolean) => void;
  reject: (err: Error) => void;
}

interface Hilo {
  worker: Worker;
  /** The job it is running, if any. */
  actual: Pendiente | null;
}

const hilos: Hilo[] = [];
const cola: Pendiente[] = [];
let siguienteId = 0;

function nuevoHilo(): Hilo {
  const worker = new Worker(new URL('./password-worker.ts', import.meta.url), {
    workerData: { nice: NICE },
    // None of the process's options: the thread needs none (Node 24 strips the types of its .ts file
    // by default), and some would break it (--input-type for code given with -e) or are refused in a
    // thread (--expose-gc).
    execArgv: [],
  });
  const hilo: Hilo = { worker, actual: null };
  worker.on('message', (r: Respuesta) => {
    const p = hilo.actual;
    hilo.actual = null;
    worker.unref();
    if (p && p.trabajo.id === r.id) {
      if (r.error !== undefined) p.reject(new Error(r.error));
      else p.resolve(r.valor!);
    }
    repartir();
  });
  const perder = (err: Error) => {
    // A thread that dies fails its job, leaves the pool, and is replaced at the next job.
    const i = hilos.indexOf(hilo);
    if (i >= 0) hilos.splice(i, 1);
    hilo.actual?.reject(err);
    hilo.actual = null;
    repartir();
  };
  worker.on('error', perder);
  worker.on('exit', (code) => perder(new Error(`el hilo de claves terminó (${code})`)));
  // An idle thread never keeps the process alive: a server or a script ends when its own work does.
  // After the listeners, which would otherwise hold the thread's message port; one with a job does.
  worker.unref();
  return hilo;
}

/** Gives queued jobs to idle threads, starting threads up to one per core. */
function repartir(): void {
  while (cola.length > 0) {
    let hilo = hilos.find((h) => h.actual === null);
    if (!hilo) {
      if (hilos.length >= NUCLEOS) return;
      hilo = nuevoHilo();
      hilos.push(hilo);
    }
    const p = cola.shift()!;
    hilo.actual = p;
    hilo.worker.ref();
    hilo.worker.postMessage(p.trabajo);
  }
}

function encargar(op: Trabajo['op'], clave: string, guardado?: string): Promise<string | boolean> {
  return new Promise((resolve, reject) => {
    cola.push({ trabajo: { id: ++siguienteId, op, clave, ...(guardado === undefined ? {} : { guardado }) }, resolve, reject });
    repartir();
  });
}

/** Hashes a password into a PHC string that carries its own salt and parameters. */
export async function hashPassword(password: string): Promise<string> {
  return (await encargar('hash', password)) as string;
}

/** Checks a password against a stored hash; false for a malformed hash rather than an error. */
export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return (await encargar('verify', password, stored)) === true;
  } catch {
    return false;
  }
}
