/**
 * The portal's processes as the kernel sees them (Linux /proc): the primary that `npm start` runs
 * and the workers it forked, with their memory and open file descriptors, for the load runs.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** A process of the portal: `primario` or `trabajador N`. */
export interface Proceso {
  nombre: string;
  pid: number;
}

/** The children of a process (every thread's list). */
function hijos(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((t) =>
      readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
}

/** The primary `pid` and the workers it forked. */
export function procesosDe(pid: number): Proceso[] {
  return [{ nombre: 'primary', pid }, ...hijos(pid).map((h, i) => ({ nombre: `worker ${i + 1}`, pid: h }))];
}

/** Resident memory of each process in KiB (VmRSS); a process that ended is left out. */
export function memoriaDe(procesos: Proceso[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const p of procesos) {
    try {
      const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${p.pid}/status`, 'utf8'))?.[1];
      if (kb) m.set(p.nombre, Number(kb));
    } catch {
      // ended
    }
  }
  return m;
}

/** Open file descriptors of each process; a process that ended is left out. */
export function descriptoresDe(procesos: Proceso[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const p of procesos) {
    try {
      m.set(p.nombre, readdirSync(`/proc/${p.pid}/fd`).length);
    } catch {
      // ended
    }
  }
  return m;
}
