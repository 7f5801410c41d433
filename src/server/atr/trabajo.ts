/**
 * The ATR reader running (docs/decisions/020): every process of the portal looks for files waiting
 * in the companies' entrada folders every LECTOR_CADA_MS and reads them in batches until none is
 * left. Batches are taken with SKIP LOCKED, so processes share the work without reading a file twice.
 */
import type { Logger } from 'pino';
import type { Db } from '../db/client.ts';
import type { Clock } from '../http/context.ts';
import { leerEntradas } from './lector.ts';

/** How often the reader looks: a file dropped into entrada is answered within about this time. */
export const LECTOR_CADA_MS = 2_000;

/** The running reader. */
export interface LectorAtr {
  start(): void;
  /** Cancels future runs and waits for the one in flight. */
  stop(): Promise<void>;
  /** Reads what is waiting now (after any run in flight); answers how many files it read. */
  runOnce(): Promise<number>;
}

export function createLectorAtr(deps: { db: Db; clock: Clock; logger: Logger; publicUrl?: string | null }): LectorAtr {
  const log = deps.logger.child({ componente: 'lector-atr' });
  let timer: NodeJS.Timeout | undefined;
  let parado = false;
  let cadena: Promise<number> = Promise.resolve(0);

  const runOnce = () => {
    cadena = cadena.then(async () => {
      let total = 0;
      try {
        for (let n = await leerEntradas(deps); n > 0 && !parado; n = await leerEntradas(deps)) total += n;
      } catch (err) {
        log.error({ err }, 'error al leer los mensajes ATR');
      }
      return total;
    });
    return cadena;
  };

  const programar = () => {
    if (parado) return;
    timer = setTimeout(() => void runOnce().finally(programar), LECTOR_CADA_MS);
    timer.unref();
  };

  return {
    start: programar,
    runOnce,
    async stop() {
      parado = true;
      clearTimeout(timer);
      await cadena;
    },
  };
}
