/** ADMIN_EMAIL / ADMIN_PASSWORD: an administrator with every permission, created once at start. */
import type { Logger } from 'pino';
import { todosLosPermisos } from '../../lib/permisos.ts';
import { audit } from '../auditoria/service.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { createUser, findUserByEmail, grantPermissions } from './service.ts';

/** Creates the administrator of the environment when both variables are set and no such user exists. */
export async function bootstrapAdmin(db: Db, config: Config, logger: Logger): Promise<'created' | 'exists' | 'skipped'> {
  if (!config.adminEmail || !config.adminPassword) return 'skipped';
  if (await findUserByEmail(db, config.adminEmail)) return 'exists';
  const { id } = await db.transaction(async (tx) => {
    const user = await createUser(tx, {
      nif: null,
      email: config.adminEmail!,
      nombre: 'Administrador',
      password: config.adminPassword!,
      estado: 'activo',
    });
    await grantPermissions(tx, user.id, todosLosPermisos());
    await audit(tx, { action: 'usuario.admin_inicial', targetType: 'usuario', targetId: user.id });
    return user;
  });
  logger.info({ userId: id }, 'administrador inicial creado');
  return 'created';
}
