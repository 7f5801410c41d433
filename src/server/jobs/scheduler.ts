/**
 * Periodic jobs of the process: the hourly clean-up (limpieza.ts), the sums per period of packed
 * months that have none yet (a database upgraded through migration 0007, docs/decisions/012), and
 * the month's SIPS files (sips/ficheros.ts, docs/decisions/016), and the deadlines that run out in
 * every procedure declared on the case core (an access request's admission by silence or
 * inadmission; docs/decisions/017 and 051). Started by main.ts after the server listens and stopped
 * before the database closes; `stop()` waits for a run in flight.
 */
import type { Logger } from 'pino';
import type { Db } from '../db/client.ts';
import type { Clock } from '../http/context.ts';
import { CODIGOS_DISTRIBUIDORA } from '../../lib/distribuidoras.ts';
import { completarTotalesMeses } from '../medidas/meses.ts';
import { ACCESO_EXPEDIENTE } from '../accesoyconexion/service.ts';
import { CONTACTO_EXPEDIENTE } from '../contacto/service.ts';
import { nombresDe, vencerPlazos, type DepsExpediente } from '../expedientes/procedimiento.ts';
import { generarSipsPendientes } from '../sips/ficheros.ts';
import { escribirMedidasDiarias } from '../intercambio/medidas-diarias.ts';
import { limpiar } from './limpieza.ts';

/** The procedures on the case core whose declared deadlines the jobs apply. */
const PLAZOS: readonly { procedimientos: string[]; vencer: (deps: DepsExpediente) => Promise<number> }[] = [
  { procedimientos: nombresDe(ACCESO_EXPEDIENTE), vencer: (d) => vencerPlazos(ACCESO_EXPEDIENTE, d) },
  { procedimientos: nombresDe(CONTACTO_EXPEDIENTE), vencer: (d) => vencerPlazos(CONTACTO_EXPEDIENTE, d) },
];

/** Period of the clean-up. */
export const LIMPIEZA_CADA_MS = 60 * 60 * 1000;
/** First run shortly after start, not during it, so the start stays fast. */
const PRIMERA_EJECUCION_MS = 30_000;

/** The running jobs. */
export interface Jobs {
  /** Schedules the jobs. */
  start(): void;
  /** Cancels future runs and waits for the one in flight. */
  stop(): Promise<void>;
  /** Runs the clean-up now (after any run in flight). */
  runOnce(): Promise<void>;
}

/** Creates the jobs; nothing runs until `start()` or `runOnce()`. */
export function createJobs(deps: {
  db: Db;
  clock: Clock;
  logger: Logger;
  /** The portal's address for the links in the mails the deadlines send; null sends none. */
  publicUrl?: string | null;
}): Jobs {
  const log = deps.logger.child({ componente: 'tareas' });
  let timer: NodeJS.Timeout | undefined;
  let stopped = true;
  let chain: Promise<void> = Promise.resolve();

  const runOnce = () => {
    chain = chain.then(async () => {
      try {
        await limpiar(deps.db, deps.clock.now(), log);
      } catch (err) {
        log.error({ err }, 'error en la limpieza periódica');
      }
      try {
        // The month's SIPS files appear on the first run of the month (docs/decisions/016); the
        // months' sums are completed first, so the consumption files read whole months.
        const meses = await completarTotalesMeses(deps.db, 2_000, () => !stopped);
        if (meses > 0) log.info({ meses }, 'totales por periodo de los meses empaquetados completados');
      } catch (err) {
        log.error({ err }, 'error al completar los totales de los meses empaquetados');
      }
      try {
        const ficheros = await generarSipsPendientes(deps.db, deps.clock.now(), CODIGOS_DISTRIBUIDORA);
        if (ficheros > 0) log.info({ ficheros }, 'ficheros SIPS del mes generados');
      } catch (err) {
        log.error({ err }, 'error al generar los ficheros SIPS del mes');
      }
      try {
        // The supply companies' P5D and F5D of the day before, from 06:00 Madrid (docs/decisions/021).
        const entregas = await escribirMedidasDiarias(deps.db, deps.clock.now(), { seguir: () => !stopped });
        if (entregas.length > 0) log.info({ entregas: entregas.length }, 'ficheros de medidas diarios escritos en las carpetas salida');
      } catch (err) {
        log.error({ err }, 'error al escribir los ficheros de medidas diarios');
      }
      for (const { procedimientos, vencer } of PLAZOS) {
        try {
          const movidas = await vencer({ db: deps.db, clock: deps.clock, publicUrl: deps.publicUrl ?? null });
          if (movidas > 0) log.info({ movidas, procedimientos }, 'plazos vencidos de expedientes aplicados');
        } catch (err) {
          log.error({ err, procedimientos }, 'error al aplicar los plazos vencidos de los expedientes');
        }
      }
    });
    return chain;
  };

  const schedule = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      void runOnce().finally(() => schedule(LIMPIEZA_CADA_MS));
    }, ms);
    timer.unref();
  };

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      schedule(PRIMERA_EJECUCION_MS);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await chain;
    },
    runOnce,
  };
}
