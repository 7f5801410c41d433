/** Loads the demo data into an empty database, through the same services real data uses. */
import type { Logger } from 'pino';
import { audit } from '../audit/service.ts';
import type { Db } from '../db/client.ts';
import { createUser, grantPermissions, hasNoUsers, permisosAlActivar } from '../users/service.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './accounts.ts';

/** Creates the demo accounts, active, with the automatic permissions plus their extra ones. */
export async function loadDemoData(db: Db, logger: Logger): Promise<boolean> {
  if (!(await hasNoUsers(db))) return false;
  await db.transaction(async (tx) => {
    for (const account of DEMO_ACCOUNTS) {
      const { id } = await createUser(tx, { ...account, password: DEMO_PASSWORD, estado: 'activo' });
      await grantPermissions(tx, id, [...permisosAlActivar(), ...account.extra]);
    }
    await audit(tx, { action: 'demo.cargada', details: { cuentas: DEMO_ACCOUNTS.length } });
  });
  logger.info({ cuentas: DEMO_ACCOUNTS.map((a) => a.email) }, 'datos de demostración cargados');
  return true;
}
