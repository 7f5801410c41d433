/**
 * When an authorisation is in force (docs/decisions/028-autorizaciones.md) and what it opens to the
 * authorised account's session: the `<distribuidora>-distribucion` of the supply points it may read,
 * so the consumer area (its menu, its screens, `requireArea('distribucion')`) opens to an account
 * that holds no supply point of its own. Those permissions are derived on every request and every
 * session, never stored: expiry and revocation close them at once. They open nothing by themselves:
 * every supply point route still checks the CUPS (src/server/suministros/acceso.ts).
 */
import { sql, type Placeholder, type SQLWrapper } from 'drizzle-orm';
import { fechaLocalDe, ZONA_MADRID } from '../../lib/calendario/hora-civil.ts';
import { parsePermiso, permiso, type Permiso } from '../../lib/permisos.ts';
import type { CodigoDistribuidora } from '../../lib/distribuidoras.ts';
import { queryRows, type Db } from '../db/client.ts';

/** The civil day in Spain (peninsular time) an instant falls on: authorisations run by whole days. */
export function hoyEnEspana(now: Date): string {
  return fechaLocalDe(now, ZONA_MADRID);
}

/**
 * The SQL condition of an authorisation `a` in force on `hoy` for supply point `s`: not revoked,
 * between its first and last day, and the supply point still held by the NIF that gave it (a change
 * of holder ends it, since the new holder never gave it). The database function
 * `distribuidoras_autorizadas` (migration 0020) applies the same condition: change both together.
 */
export function vigenteSql(hoy: string | Placeholder) {
  return sql`a.revocada_en is null and a.inicio <= ${hoy}::date and a.fin >= ${hoy}::date and s.titular_nif = a.titular_nif`;
}

/**
 * The distributors of the supply points `nif` may read on `hoy` through authorisations in force, as
 * an expression: one text of codes joined by commas, in order, or null for none (read it with
 * `distribuidorasDeTexto`). An expression, so that the query every authenticated request makes for
 * its account reads them in the same round trip (src/server/auth/cuenta.ts). It calls the database
 * function `distribuidoras_autorizadas` (migration 0020), which applies `vigenteSql`'s condition and
 * keeps its plan for the connection.
 */
export function distribuidorasAutorizadasSql(nif: SQLWrapper | string, hoy: string | Placeholder) {
  return sql<string | null>`distribuidoras_autorizadas(${nif}, ${hoy}::date)`;
}

/** The codes of `distribuidorasAutorizadasSql`'s text. */
export function distribuidorasDeTexto(texto: string | null): CodigoDistribuidora[] {
  return texto ? (texto.split(',') as CodigoDistribuidora[]) : [];
}

/** The distributors of the supply points `nif` may read today through authorisations in force. */
export async function distribuidorasAutorizadas(db: Db, nif: string | null, now: Date): Promise<CodigoDistribuidora[]> {
  if (!nif) return [];
  const [fila] = await queryRows<{ d: string | null }>(db, sql`select ${distribuidorasAutorizadasSql(nif, hoyEnEspana(now))} as d`);
  return distribuidorasDeTexto(fila?.d ?? null);
}

/** An account's permissions plus the `-distribucion` its authorisations in force open (sorted, without repeats). */
export function permisosConAutorizaciones(permisos: readonly Permiso[], distribuidoras: readonly CodigoDistribuidora[]): Permiso[] {
  const todos = new Set<Permiso>(permisos);
  for (const d of distribuidoras) todos.add(permiso(d, 'distribucion'));
  return [...todos].sort();
}

/** The distributors whose `-distribucion` only an authorisation opens (not the account's own permission). */
export function soloAutorizadas(permisos: readonly Permiso[], distribuidoras: readonly CodigoDistribuidora[]): CodigoDistribuidora[] {
  const propias = new Set(
    permisos
      .map((p) => parsePermiso(p))
      .filter((p) => p?.area === 'distribucion')
      .map((p) => p!.distribuidora),
  );
  return distribuidoras.filter((d) => !propias.has(d));
}
