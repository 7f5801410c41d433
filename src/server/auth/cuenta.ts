/**
 * The one query every authenticated request makes (`requireAuth`, src/server/auth/middleware.ts):
 * the account and its permissions, whether the token's session (its refresh family) is still open
 * (decision 005), and the distributors its authorisations in force open (decision 028), in one
 * round trip. It is prepared once per database: PostgreSQL plans it once per connection instead of
 * on every request, and Drizzle builds its text once.
 */
import { eq, sql } from 'drizzle-orm';
import type { CodigoDistribuidora } from '../../lib/distribuidoras.ts';
import type { Db } from '../db/client.ts';
import { refreshTokens, users } from '../db/schema.ts';
import { distribuidorasAutorizadasSql, distribuidorasDeTexto, hoyEnEspana } from '../autorizaciones/vigencia.ts';
import { consultaCuenta, cuentaDeFila, DE_USUARIO, identificadorDeAcceso, UUID, type CuentaConPermisos } from '../usuarios/service.ts';

function preparar(db: Db) {
  const familia = sql.placeholder('familia');
  return consultaCuenta(db, {
    // Without a family (tokens from before families existed) the session counts as open.
    sesionViva: sql<boolean>`(${familia}::uuid is null or exists(select 1 from ${refreshTokens} r where r.family_id = ${familia}::uuid and r.user_id = ${DE_USUARIO.id} and r.revoked_at is null and r.expires_at > ${sql.placeholder('ahora')}::timestamptz))`,
    autorizadas: distribuidorasAutorizadasSql(DE_USUARIO.nif, sql.placeholder('hoy')),
  })
    .where(eq(users.id, sql.placeholder('id')))
    .limit(1)
    .prepare('cuenta_de_la_peticion');
}
const preparadas = new WeakMap<Db, ReturnType<typeof preparar>>();

/** What `requireAuth` reads of the caller. */
export type CuentaDeLaPeticion = CuentaConPermisos & {
  /** Whether the token's session is still open. */
  sesionViva: boolean;
  /** Distributors whose supply points authorisations in force let the account read today (Spanish civil day). */
  autorizadas: CodigoDistribuidora[];
};

/** The account `id`, with its session `familia` and its authorisations at `now`; undefined when there is no such account. */
export async function cuentaDeLaPeticion(db: Db, id: string, familia: string | null, now: Date): Promise<CuentaDeLaPeticion | undefined> {
  if (!UUID.test(id)) return undefined;
  if (familia !== null && !UUID.test(familia)) return undefined;
  let consulta = preparadas.get(db);
  if (!consulta) preparadas.set(db, (consulta = preparar(db)));
  const [row] = await consulta.execute({ id, familia, ahora: now.toISOString(), hoy: hoyEnEspana(now) });
  if (!row) return undefined;
  const { autorizadas, ...cuenta } = row;
  return { ...cuentaDeFila(cuenta), sesionViva: cuenta.sesionViva === true, autorizadas: distribuidorasDeTexto(autorizadas) };
}

/** An account a login name designates, with what its authorisations open today. */
export type CuentaDeAcceso = CuentaConPermisos & { autorizadas: CodigoDistribuidora[] };

function prepararAcceso(db: Db, tipo: 'correo' | 'nif') {
  return consultaCuenta(db, { autorizadas: distribuidorasAutorizadasSql(DE_USUARIO.nif, sql.placeholder('hoy')) })
    .where(eq(tipo === 'correo' ? users.email : users.nif, sql.placeholder('valor')))
    .limit(1)
    .prepare(`cuenta_de_acceso_${tipo}`);
}
const preparadasAcceso = new WeakMap<Db, Record<'correo' | 'nif', ReturnType<typeof prepararAcceso>>>();

/**
 * The account a login name designates (e-mail, case-insensitive, or NIF), with its permissions and
 * the distributors its authorisations in force open at `now`, which the new session's permissions
 * include: one query, not two, prepared once per database like `cuentaDeLaPeticion`'s.
 */
export async function cuentaDeAcceso(db: Db, username: string, now: Date): Promise<CuentaDeAcceso | undefined> {
  const { tipo, valor } = identificadorDeAcceso(username);
  if (!valor) return undefined;
  let consultas = preparadasAcceso.get(db);
  if (!consultas) preparadasAcceso.set(db, (consultas = { correo: prepararAcceso(db, 'correo'), nif: prepararAcceso(db, 'nif') }));
  const [row] = await consultas[tipo].execute({ valor, hoy: hoyEnEspana(now) });
  if (!row) return undefined;
  const { autorizadas, ...cuenta } = row;
  return { ...cuentaDeFila(cuenta), autorizadas: distribuidorasDeTexto(autorizadas) };
}
