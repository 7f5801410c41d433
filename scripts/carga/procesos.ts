/**
 * The portal's processes as the kernel sees them (Linux /proc): the primary that `npm start` runs
 * and the workers it forked, with their memory and open file descriptors, for the load runs.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

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

/**
 * Open file descriptors of each process other than its sockets (files, pipes, the event loop's own),
 * and the sockets of all the processes together; a process that ended is left out. Sockets are
 * counted together because the primary hands each new client connection to either worker: a worker's
 * sockets rise and fall with where the users' keep-alive connections happen to land, while a file
 * left open stays with its process.
 */
export function descriptoresDe(procesos: Proceso[]): { porProceso: Map<string, number>; sockets: number } {
  const porProceso = new Map<string, number>();
  let sockets = 0;
  for (const p of procesos) {
    try {
      const dir = `/proc/${p.pid}/fd`;
      let n = 0;
      for (const fd of readdirSync(dir)) {
        try {
          if (readlinkSync(`${dir}/${fd}`).startsWith('socket:')) sockets++;
          else n++;
        } catch {
          // closed between the listing and the read
        }
      }
      porProceso.set(p.nombre, n);
    } catch {
      // ended
    }
  }
  return { porProceso, sockets };
}
