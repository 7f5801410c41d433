/**
 * Loads the demo data into an empty database, through the same services and import code that real
 * data uses. Each feature adds its own generator to DEMO_STEPS.
 */
import type { Logger } from 'pino';
import { eq } from 'drizzle-orm';
import { demoAccesoyconexion } from '../accesoyconexion/demo.ts';
import { demoContacto } from '../contacto/demo.ts';
import { demoAtr } from '../atr/demo.ts';
import { demoAutorizaciones } from '../autorizaciones/demo.ts';
import { demoAverias } from '../averias/demo.ts';
import { demoAvisosCorte } from '../avisos-corte/demo.ts';
import { audit } from '../auditoria/service.ts';
import { demoCapacidadNodal } from '../capacidad-nodal/demo.ts';
import { demoCertificados } from '../certificados/demo.ts';
import type { Db } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { demoIncidencias } from '../incidencias/demo.ts';
import { demoMedidasDiarias } from '../intercambio/medidas-diarias.ts';
import { demoLecturas } from '../lecturas/demo.ts';
import { demoMedidas } from '../medidas/demo.ts';
import { demoModificaciones } from '../modificaciones/demo.ts';
import { demoSips } from '../sips/demo.ts';
import { demoClientes } from '../usuarios/demo.ts';
import { createUser, grantPermissions, hasNoUsers, permisosAlActivar } from '../usuarios/service.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './accounts.ts';
import { createRandom, type Random } from './random.ts';

/** What some generators need from the configuration: the origin printed in certificates. */
export interface ContextoDemo {
  publicUrl: string;
}

/** One generator: writes its part of the demo data inside the loading transaction. */
export type DemoStep = (db: Db, random: Random, now: Date, contexto: ContextoDemo) => Promise<Record<string, number>>;

/** The demo accounts, active, with the automatic permissions plus their extra ones. */
const accounts: DemoStep = async (db) => {
  for (const account of DEMO_ACCOUNTS) {
    const { id } = await createUser(db, { ...account, password: DEMO_PASSWORD, estado: 'activo' });
    await grantPermissions(db, id, [...permisosAlActivar(), ...account.extra]);
    if (account.codigoRee) await db.update(users).set({ codigoRee: account.codigoRee }).where(eq(users.id, id));
  }
  return { cuentas: DEMO_ACCOUNTS.length };
};

/** Generators in order; later features append theirs. */
const DEMO_STEPS: DemoStep[] = [
  accounts,
  demoIncidencias,
  demoCapacidadNodal,
  demoClientes,
  demoMedidas,
  demoModificaciones,
  demoCertificados,
  demoLecturas,
  demoAccesoyconexion,
  demoContacto,
  demoAtr,
  demoMedidasDiarias,
  // After the ATR steps, which change supply points: the month's SIPS files show the register as it is.
  demoSips,
  demoAverias,
  demoAvisosCorte,
  demoAutorizaciones,
];

/** Loads every generator's data when the database has no account yet. Deterministic for a given seed. */
export async function loadDemoData(
  db: Db,
  logger: Logger,
  options: { seed?: number; now?: Date; publicUrl?: string } = {},
): Promise<boolean> {
  if (!(await hasNoUsers(db))) return false;
  const random = createRandom(options.seed ?? 20_250_428);
  const now = options.now ?? new Date();
  const contexto: ContextoDemo = { publicUrl: options.publicUrl ?? 'http://localhost:4321' };
  const counts: Record<string, number> = {};
  await db.transaction(async (tx) => {
    for (const step of DEMO_STEPS) Object.assign(counts, await step(tx, random, now, contexto));
    await audit(tx, { action: 'demo.cargada', details: counts });
  });
  logger.info(counts, 'datos de demostración cargados');
  return true;
}
