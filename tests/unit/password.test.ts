import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../../src/server/auth/password.ts';

/** This process's threads: name and nice value (proc(5), /proc/<pid>/task/<tid>/stat field 19). */
function hilos(): { nombre: string; nice: number }[] {
  return readdirSync('/proc/self/task').map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    const campos = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { nombre: readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim(), nice: Number(campos[16]) };
  });
}

describe('password hashing', () => {
  it('hashes with argon2id at the OWASP parameters and verifies only the right password', async () => {
    const guardado = await hashPassword('Clave-de-prueba-1');
    expect(guardado).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(guardado, 'Clave-de-prueba-1')).toBe(true);
    expect(await verifyPassword(guardado, 'Clave-de-prueba-2')).toBe(false);
  });

  it('answers false for a malformed stored hash, and goes on working', async () => {
    expect(await verifyPassword('no es un hash', 'x')).toBe(false);
    expect(await verifyPassword('$argon2id$v=19$m=19456,t=2,p=1$roto', 'x')).toBe(false);
    expect(await verifyPassword(await hashPassword('otra'), 'otra')).toBe(true);
  });

  it('answers every one of many jobs at once, each its own', async () => {
    const claves = Array.from({ length: 3 * availableParallelism() + 1 }, (_, i) => `clave-${i}`);
    const guardados = await Promise.all(claves.map((c) => hashPassword(c)));
    const bien = await Promise.all(guardados.map((g, i) => verifyPassword(g, claves[i]!)));
    const cruzadas = await Promise.all(guardados.map((g, i) => verifyPassword(g, claves[(i + 1) % claves.length]!)));
    expect(bien.every(Boolean)).toBe(true);
    expect(cruzadas.some(Boolean)).toBe(false);
  });

  it.runIf(process.platform === 'linux')('runs on at most one thread per core, below the priority of the event loop', async () => {
    await Promise.all(Array.from({ length: 2 * availableParallelism() }, (_, i) => hashPassword(`c${i}`)));
    // The pool's threads are the worker threads at nice 10; this test's own thread keeps its priority.
    const bajos = hilos().filter((h) => h.nice === 10);
    expect(bajos.length).toBeGreaterThan(0);
    expect(bajos.length).toBeLessThanOrEqual(availableParallelism());
    expect(bajos.every((h) => h.nombre === 'WorkerThread')).toBe(true);
    expect(readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1]!.split(' ')[16]).toBe('0');
  });

  it('does not keep a process alive once its work is done, whatever options the process was started with', () => {
    const codigo = `import { hashPassword } from ${JSON.stringify(new URL('../../src/server/auth/password.ts', import.meta.url).href)};
      console.log((await hashPassword('x')).slice(0, 9));`;
    // With options a worker thread refuses (--expose-gc, as npm run bench) or that break its file (--input-type).
    const hijo = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', codigo], { encoding: 'utf8', timeout: 20_000 });
    expect(hijo.stdout.trim(), hijo.stderr).toBe('$argon2id');
    expect(hijo.status).toBe(0);
  });
});
