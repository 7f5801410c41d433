/**
 * Supply points (docs/sector.md §1, §3.2): loading them, keeping the holders' `-distribucion`
 * permissions in step (docs/api.md "Permissions"), and reading them for their holder only.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import { cupsBase, errorCups } from '../../lib/cups.ts';
import { CODIGOS_DISTRIBUIDORA, type CodigoDistribuidora } from '../../lib/distribuidoras.ts';
import { parsePermiso } from '../../lib/permisos.ts';
import { pgArray } from '../db/arrays.ts';
import { queryRows, type Db } from '../db/client.ts';
import { suministros, userPermissions, users } from '../db/schema.ts';
import { valoresPropuestos } from '../db/upsert.ts';

/** A supply point as loaded (an import line, a demo row). */
export type SuministroEntrada = Omit<typeof suministros.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>;

/** A supply point as the API answers it. */
export type Suministro = typeof suministros.$inferSelect;

/** Tariffs and how many power periods each contracts (docs/sector.md §6). */
export const PERIODOS_POTENCIA: Record<string, number> = {
  '2.0TD': 2,
  '3.0TD': 6,
  '6.1TD': 6,
  '6.2TD': 6,
  '6.3TD': 6,
  '6.4TD': 6,
};

/** Why a supply point cannot be loaded, in Spanish; null when it can. */
export function errorSuministro(s: SuministroEntrada): string | null {
  const cups = errorCups(s.cups);
  if (cups) return cups;
  if (!(CODIGOS_DISTRIBUIDORA as readonly string[]).includes(s.distribuidora)) return `Distribuidora desconocida: ${s.distribuidora}.`;
  const periodos = PERIODOS_POTENCIA[s.tarifa];
  if (!periodos) return `Tarifa de acceso desconocida: ${s.tarifa}.`;
  if (s.potenciasW.length !== periodos)
    return `La tarifa ${s.tarifa} contrata ${periodos} potencias y la línea trae ${s.potenciasW.length}.`;
  if (s.potenciasW.some((p) => !Number.isInteger(p) || p <= 0))
    return 'Las potencias contratadas deben ser números enteros de vatios mayores que cero.';
  if (s.potenciasW.some((p) => p > s.potenciaMaximaW))
    return 'Una potencia contratada supera la potencia máxima admisible de la instalación.';
  if (!/^\d{5}$/.test(s.codigoIne)) return `Código INE de municipio no válido: ${s.codigoIne}.`;
  if (!/^\d{5}$/.test(s.codigoPostal)) return `Código postal no válido: ${s.codigoPostal}.`;
  return null;
}

/**
 * Inserts or updates supply points by CUPS and keeps `-distribucion` in step for every holder NIF
 * involved, old and new (a change of holder moves the permission). Runs in the caller's transaction.
 */
export async function guardarSuministros(tx: Db, filas: readonly SuministroEntrada[]): Promise<{ ids: Map<string, number> }> {
  const ids = new Map<string, number>();
  if (filas.length === 0) return { ids };
  const cupsList = filas.map((f) => f.cups);
  const anteriores = await tx
    .select({ cups: suministros.cups, titularNif: suministros.titularNif })
    .from(suministros)
    .where(inArray(suministros.cups, cupsList));
  const nifs = new Set<string>([...filas.map((f) => f.titularNif), ...anteriores.map((a) => a.titularNif)]);
  for (let i = 0; i < filas.length; i += 500) {
    const lote = filas.slice(i, i + 500);
    const rows = await tx
      .insert(suministros)
      .values(lote.map((f) => ({ ...f })))
      .onConflictDoUpdate({
        target: suministros.cups,
        set: {
          ...valoresPropuestos(suministros, [
            'distribuidora',
            'titularNif',
            'titularNombre',
            'direccion',
            'codigoPostal',
            'municipio',
            'codigoIne',
            'provincia',
            'tarifa',
            'potenciasW',
            'potenciaMaximaW',
            'tensionV',
            'contadorInteligente',
            'telegestionado',
            'propiedadContador',
            'numeroContador',
            'fasesContador',
            'resolucionMinutos',
            'modoControlPotencia',
            'autoconsumo',
            'comercializadoraCodigo',
            'comercializadoraNombre',
            'periodicidadFacturacion',
            'cicloLectura',
            'fechaUltimoCambioPotencia',
            'fechaAlta',
            'fechaBaja',
            'suspendidoDesde',
          ]),
          updatedAt: sql`now()`,
        },
      })
      .returning({ id: suministros.id, cups: suministros.cups });
    for (const r of rows) ids.set(r.cups, r.id);
  }
  await sincronizarPermisosDistribucion(tx, [...nifs]);
  return { ids };
}

/**
 * Grants `<d>-distribucion` to the active accounts of these NIFs for every distributor where they
 * hold a supply point in force, and revokes it where they no longer hold one. Only the given NIFs
 * are touched: an administrator's own grants elsewhere are left alone.
 */
export async function sincronizarPermisosDistribucion(tx: Db, nifs: readonly string[]): Promise<void> {
  if (nifs.length === 0) return;
  const cuentas = await tx
    .select({ id: users.id, nif: users.nif })
    .from(users)
    .where(and(inArray(users.nif, [...nifs]), eq(users.estado, 'activo')));
  if (cuentas.length === 0) return;
  const tenencias = await queryRows<{ nif: string; distribuidora: CodigoDistribuidora }>(
    tx,
    sql`select distinct titular_nif as nif, distribuidora from suministros
        where titular_nif in ${[...new Set(cuentas.map((c) => c.nif!))]} and fecha_baja is null`,
  );
  for (const cuenta of cuentas) {
    const deberia = new Set(tenencias.filter((t) => t.nif === cuenta.nif).map((t) => t.distribuidora));
    for (const d of CODIGOS_DISTRIBUIDORA) {
      if (deberia.has(d)) {
        await tx.insert(userPermissions).values({ userId: cuenta.id, distribuidora: d, area: 'distribucion' }).onConflictDoNothing();
      } else {
        await tx
          .delete(userPermissions)
          .where(
            and(eq(userPermissions.userId, cuenta.id), eq(userPermissions.distribuidora, d), eq(userPermissions.area, 'distribucion')),
          );
      }
    }
  }
}

/** The distributors a NIF holds supply points in force of: the `-distribucion` an activation grants. */
export async function distribuidorasDeTitular(db: Db, nif: string | null): Promise<CodigoDistribuidora[]> {
  if (!nif) return [];
  const rows = await queryRows<{ distribuidora: CodigoDistribuidora }>(
    db,
    sql`select distinct distribuidora from suministros where titular_nif = ${nif} and fecha_baja is null order by 1`,
  );
  return rows.map((r) => r.distribuidora);
}

/** Who may read supply points: the holder's NIF and the distributors of their `-distribucion`. */
export interface Lector {
  nif: string | null;
  distribuidoras: readonly string[];
}

/**
 * An account as a reader of its own supply points: its NIF and the distributors of its `-distribucion`
 * permissions, less those only an authorisation opens (`soloAutorizadas`, docs/decisions/028).
 */
export function lectorDeCuenta(cuenta: { nif: string | null; permisos: readonly string[]; soloAutorizadas?: readonly string[] }): Lector {
  const ajenas = new Set(cuenta.soloAutorizadas ?? []);
  const distribuidoras = cuenta.permisos
    .map((p) => parsePermiso(p))
    .filter((p) => p?.area === 'distribucion' && !ajenas.has(p.distribuidora))
    .map((p) => p!.distribuidora);
  return { nif: cuenta.nif, distribuidoras };
}

/** The reader's own supply points, in the distributors they hold `-distribucion` of. */
export async function suministrosDe(db: Db, lector: Lector): Promise<Suministro[]> {
  if (!lector.nif || lector.distribuidoras.length === 0) return [];
  return db
    .select()
    .from(suministros)
    .where(and(eq(suministros.titularNif, lector.nif), inArray(suministros.distribuidora, [...lector.distribuidoras])))
    .orderBy(suministros.distribuidora, suministros.cups);
}

/** The ownership check of every supply point route, prepared once per database (planned once per connection). */
function prepararSuministroDe(db: Db) {
  return db
    .select()
    .from(suministros)
    .where(
      and(
        eq(suministros.cups, sql.placeholder('cups')),
        eq(suministros.titularNif, sql.placeholder('nif')),
        sql`${suministros.distribuidora} = any(${sql.placeholder('distribuidoras')}::text[])`,
      ),
    )
    .prepare('suministro_de_lector');
}
const suministrosDeLector = new WeakMap<Db, ReturnType<typeof prepararSuministroDe>>();

/** One supply point of the reader's, by CUPS; undefined for anyone else's (the caller answers 404). */
export async function suministroDe(db: Db, lector: Lector, cups: string): Promise<Suministro | undefined> {
  if (!lector.nif || lector.distribuidoras.length === 0) return undefined;
  let consulta = suministrosDeLector.get(db);
  if (!consulta) suministrosDeLector.set(db, (consulta = prepararSuministroDe(db)));
  const [row] = await consulta.execute({
    // A 22-character CUPS (with its border point) is the supply point of its first 20.
    cups: cupsBase(cups),
    nif: lector.nif,
    distribuidoras: pgArray([...lector.distribuidoras]),
  });
  return row;
}

/** Brings one account's `-distribucion` in step with its NIF's supply points (on activation, say). */
export async function sincronizarPermisosDistribucionDeUsuario(tx: Db, userId: string): Promise<void> {
  const [cuenta] = await tx.select({ nif: users.nif }).from(users).where(eq(users.id, userId));
  if (cuenta?.nif) await sincronizarPermisosDistribucion(tx, [cuenta.nif]);
}
