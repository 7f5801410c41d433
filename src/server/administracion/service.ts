/**
 * User administration (decision 006): the paginated, searchable list of accounts, one account's
 * detail, its state, its activation mail and its permissions. Any `-administrador` permission opens
 * it; changing `<d>-<area>` needs `<d>-administrador`. `-distribucion` is never granted by hand.
 */
import { sincronizarPermisosDistribucionDeUsuario } from '../suministros/service.ts';
import { and, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { CODIGOS_DISTRIBUIDORA, DISTRIBUIDORAS, type CodigoDistribuidora } from '../../lib/distribuidoras.ts';
import { administraTodas, AREAS, distribuidorasAdministradas, parsePermiso, type Area, type Permiso } from '../../lib/permisos.ts';
import { audit } from '../auditoria/service.ts';
import { anularEnlaces, enviarNuevaActivacion } from '../auth/cuentas.ts';
import { revocarSesionesDeUsuario, revocarSuplantacionesDe, sesionesVivas, type AuthDeps, type InfoPeticion } from '../auth/sesion.ts';
import { queryRows, type Db } from '../db/client.ts';
import { auditLog, userPermissions, users, vectorNombresUsuario } from '../db/schema.ts';
import type { AuthContext } from '../http/context.ts';
import { conflict, forbidden, notFound, ValidationError } from '../http/errors.ts';
import { consumir, LIMITES, sujetoCuenta } from '../rate-limit/service.ts';
import {
  cambiarEstadoCuenta,
  findAccountById,
  grantPermissions,
  nombreVisible,
  permisosAlActivar,
  revokePermission,
  type EstadoCuenta,
} from '../usuarios/service.ts';
import type { PermisoDetalle, UsuarioDetalle, UsuarioResumen } from '../../lib/administracion/usuarios.ts';
import { condicionVisibles, exigirAmbito, huellaDe, MENSAJES_AMBITO, visible, type Huella } from './ambito.ts';
import { consultaPrefijos, palabrasBusqueda, prefijoEmail, prefijoNif } from './busqueda.ts';
import { empiezaPor } from '../db/busqueda.ts';

/** Spanish answers of user administration. */
export const MENSAJES_ADMINISTRACION = {
  noExiste: 'No existe ese usuario.',
  estadoPropio: 'No puede cambiar el estado de su propia cuenta: pídaselo a otro administrador.',
  reenvioNoPendiente: 'Solo se puede reenviar el correo de activación a una cuenta pendiente de activar.',
  reenviado: 'Hemos enviado un nuevo correo de activación; el enlace anterior ya no sirve.',
  distribucion: 'El permiso de distribución se concede automáticamente a los titulares de suministros.',
  ambos: 'Un mismo permiso no puede concederse y revocarse a la vez.',
  administradorPropio: 'No puede retirarse a sí mismo el permiso de administración: pídaselo a otro administrador.',
} as const;

export type { PermisoDetalle, UsuarioDetalle, UsuarioResumen };

/** Areas granted by the portal's own rules (activation, supply points): "automatic" when nobody granted them. */
const AREAS_AUTOMATICAS: readonly Area[] = ['distribucion', 'contacto', 'accesoyconexion'];

/** Filters and page of the user list. */
export interface FiltroUsuarios {
  q?: string | undefined;
  estado?: EstadoCuenta | undefined;
  area?: Area | undefined;
  distribuidora?: CodigoDistribuidora | undefined;
  pagina: number;
  porPagina: number;
}

/** Columns of a list row, as the search's subqueries and the page select them. */
const COLUMNAS_LISTA = sql`id, nif, email, nombre, apellido1, apellido2, razon_social, estado, created_at, activated_at, huella`;

/**
 * The rows a search may match, as a source aliased `u`: all users without a search; with one, the
 * UNION of an NIF-prefix, an e-mail-prefix and a name-words subquery. Each branch has its own index
 * (users_nif_prefijo_idx, users_email_prefijo_idx, users_nombres_idx); an OR of the three in one
 * WHERE lets the planner walk the date index and evaluate the name vector row by row instead, which
 * on 100,000 users takes seconds (docs/benchmarks.md "User search").
 */
function fuenteUsuarios(q: string | undefined): SQL {
  const texto = q?.trim();
  if (!texto) return sql`users u`;
  const ramas: SQL[] = [];
  const nif = prefijoNif(texto);
  if (nif) ramas.push(empiezaPor(sql`nif`, nif));
  const email = prefijoEmail(texto);
  if (email) ramas.push(empiezaPor(sql`email`, email));
  const consulta = texto.includes('@') ? null : consultaPrefijos(palabrasBusqueda(texto));
  if (consulta) ramas.push(sql`${vectorNombresUsuario(users)} @@ to_tsquery('simple'::regconfig, ${consulta})`);
  // A search that can match nothing (only punctuation, say) must not list everyone.
  if (ramas.length === 0) return sql`(select ${COLUMNAS_LISTA} from users where false) u`;
  return sql`(${sql.join(
    ramas.map((r) => sql`select ${COLUMNAS_LISTA} from users where ${r}`),
    sql` union `,
  )}) u`;
}

/** The filters other than the search, on the source `u`, within what the administrator may see. */
function filtrosUsuarios(admin: Pick<AuthContext, 'permisos'>, f: Omit<FiltroUsuarios, 'q' | 'pagina' | 'porPagina'>): SQL {
  const condiciones: SQL[] = [condicionVisibles(admin)];
  if (f.estado) condiciones.push(sql`u.estado = ${f.estado}`);
  if (f.area || f.distribuidora) {
    condiciones.push(
      sql`exists (select 1 from user_permissions p where p.user_id = u.id${f.area ? sql` and p.area = ${f.area}` : sql``}${
        f.distribuidora ? sql` and p.distribuidora = ${f.distribuidora}` : sql``
      })`,
    );
  }
  return sql.join(condiciones, sql` and `);
}

/**
 * The two statements of one list call: the page, newest first (created_at desc nulls last, id: the
 * order of `users_creado_idx`), and the total with the same filters.
 */
export function consultasListado(admin: Pick<AuthContext, 'permisos'>, f: FiltroUsuarios): { pagina: SQL; total: SQL } {
  const fuente = fuenteUsuarios(f.q);
  const where = filtrosUsuarios(admin, f);
  return {
    pagina: sql`select u.id, u.nif, u.email, u.nombre, u.apellido1, u.apellido2, u.razon_social, u.estado, u.created_at, u.activated_at
      from ${fuente} where ${where}
      order by u.created_at desc nulls last, u.id
      limit ${f.porPagina} offset ${(f.pagina - 1) * f.porPagina}`,
    total: sql`select count(*)::int as n from ${fuente} where ${where}`,
  };
}

/** Permission strings of some users, by user id. */
async function permisosDe(db: Db, ids: readonly string[]): Promise<Map<string, Permiso[]>> {
  const out = new Map<string, Permiso[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return out;
  const rows = await db
    .select({ userId: userPermissions.userId, distribuidora: userPermissions.distribuidora, area: userPermissions.area })
    .from(userPermissions)
    .where(inArray(userPermissions.userId, [...ids]));
  for (const r of rows) out.get(r.userId)?.push(`${r.distribuidora}-${r.area}` as Permiso);
  for (const list of out.values()) list.sort(ordenPermisos);
  return out;
}

/** Permissions in the matrix's order: distributor as docs/api.md lists them, then area as AREAS does. */
function ordenPermisos(a: string, b: string): number {
  const pa = parsePermiso(a)!;
  const pb = parsePermiso(b)!;
  return (
    CODIGOS_DISTRIBUIDORA.indexOf(pa.distribuidora) - CODIGOS_DISTRIBUIDORA.indexOf(pb.distribuidora) ||
    AREAS.indexOf(pa.area) - AREAS.indexOf(pb.area)
  );
}

const columnasResumen = {
  id: users.id,
  nif: users.nif,
  email: users.email,
  nombre: users.nombre,
  apellido1: users.apellido1,
  apellido2: users.apellido2,
  razonSocial: users.razonSocial,
  estado: users.estado,
  createdAt: users.createdAt,
  activatedAt: users.activatedAt,
};

/** A row of `columnasResumen`. */
type FilaUsuario = Pick<typeof users.$inferSelect, keyof typeof columnasResumen>;

/** A list row from a database row and its permissions. */
function resumen(u: FilaUsuario, permisos: Permiso[]): UsuarioResumen {
  return {
    id: u.id,
    nif: u.nif,
    email: u.email,
    nombre: nombreVisible(u),
    estado: u.estado as EstadoCuenta,
    creado: u.createdAt.toISOString(),
    permisos,
  };
}

/** A list row as the raw page query answers it (dates as Date or text, by driver). */
interface FilaLista {
  id: string;
  nif: string | null;
  email: string;
  nombre: string;
  apellido1: string;
  apellido2: string;
  razon_social: string;
  estado: string;
  created_at: Date | string;
  activated_at: Date | string | null;
}

/**
 * The permissions an administrator is shown of an account: those of the distributors it
 * administers (all of them for an administrator of every distributor).
 */
function permisosALaVista<T extends string>(admin: Pick<AuthContext, 'permisos'>, permisos: T[]): T[] {
  if (administraTodas(admin.permisos)) return permisos;
  const propias = new Set<string>(distribuidorasAdministradas(admin.permisos));
  return permisos.filter((p) => propias.has(p.slice(0, p.indexOf('-'))));
}

/** One page of the accounts the administrator may see, newest first (then by id), and the total that matches. */
export async function listarUsuarios(
  db: Db,
  admin: Pick<AuthContext, 'permisos'>,
  f: FiltroUsuarios,
): Promise<{ total: number; usuarios: UsuarioResumen[] }> {
  const consultas = consultasListado(admin, f);
  const [filas, [total]] = await Promise.all([queryRows<FilaLista>(db, consultas.pagina), queryRows<{ n: number }>(db, consultas.total)]);
  const permisos = await permisosDe(
    db,
    filas.map((u) => u.id),
  );
  return {
    total: Number(total?.n ?? 0),
    usuarios: filas.map((u) =>
      resumen(
        {
          id: u.id,
          nif: u.nif,
          email: u.email,
          nombre: u.nombre,
          apellido1: u.apellido1,
          apellido2: u.apellido2,
          razonSocial: u.razon_social,
          estado: u.estado,
          createdAt: new Date(u.created_at),
          activatedAt: u.activated_at === null ? null : new Date(u.activated_at),
        },
        permisosALaVista(admin, permisos.get(u.id) ?? []),
      ),
    ),
  };
}

/** Whether the administrator may act on an account (state, activation mail, impersonation), and why not. */
function accionesSobre(admin: Pick<AuthContext, 'permisos'>, huella: Huella): { permitidas: boolean; motivo: string | null } {
  try {
    exigirAmbito(admin, huella);
    return { permitidas: true, motivo: null };
  } catch (err) {
    return { permitidas: false, motivo: (err as Error).message };
  }
}

/**
 * The footprint of an account the administrator may see; the same 404 as an unknown id when it may
 * not, so ids of other distributors' accounts reveal nothing.
 */
async function huellaVisible(db: Db, admin: Pick<AuthContext, 'permisos'>, id: string): Promise<Huella> {
  const huella = UUID.test(id) ? await huellaDe(db, id) : undefined;
  if (!huella || !visible(admin, huella)) throw notFound(MENSAJES_ADMINISTRACION.noExiste);
  return huella;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The footprint of the account an action targets: 404 when there is none, 403 when it lies outside
 * the administrator's scope (random ids: the 403 tells nothing a list would not).
 */
async function huellaActuable(db: Db, admin: Pick<AuthContext, 'permisos'>, id: string): Promise<Huella> {
  const huella = UUID.test(id) ? await huellaDe(db, id) : undefined;
  if (!huella) throw notFound(MENSAJES_ADMINISTRACION.noExiste);
  exigirAmbito(admin, huella);
  return huella;
}

/** One account's detail at `now`, as the administrator may see it; 404 when there is no such account or it is out of scope. */
export async function detalleUsuario(db: Db, admin: Pick<AuthContext, 'permisos'>, id: string, now: Date): Promise<UsuarioDetalle> {
  const huella = await huellaVisible(db, admin, id);
  const cuenta = await findAccountById(db, id);
  if (!cuenta) throw notFound(MENSAJES_ADMINISTRACION.noExiste);
  const otorgante = alias(users, 'otorgante');
  const [[u], permisos, [acceso], sesiones] = await Promise.all([
    db.select(columnasResumen).from(users).where(eq(users.id, id)),
    db
      .select({
        distribuidora: userPermissions.distribuidora,
        area: userPermissions.area,
        grantedBy: userPermissions.grantedBy,
        grantedAt: userPermissions.grantedAt,
        otorgadoPor: otorgante.email,
      })
      .from(userPermissions)
      .leftJoin(otorgante, eq(otorgante.id, userPermissions.grantedBy))
      .where(eq(userPermissions.userId, id)),
    db
      .select({ at: auditLog.at })
      .from(auditLog)
      .where(and(eq(auditLog.actorUserId, id), eq(auditLog.action, 'sesion.login'), isNull(auditLog.impersonatorUserId)))
      .orderBy(desc(auditLog.at))
      .limit(1),
    sesionesVivas(db, id, now),
  ]);
  if (!u) throw notFound(MENSAJES_ADMINISTRACION.noExiste);
  const permisosDetalle: PermisoDetalle[] = permisosALaVista(
    admin,
    permisos.map((p) => `${p.distribuidora}-${p.area}`),
  )
    .map((permiso) => permisos.find((p) => `${p.distribuidora}-${p.area}` === permiso)!)
    .map((p) => ({
      permiso: `${p.distribuidora}-${p.area}` as Permiso,
      distribuidora: p.distribuidora as CodigoDistribuidora,
      area: p.area as Area,
      automatico: p.grantedBy === null && AREAS_AUTOMATICAS.includes(p.area as Area),
      otorgadoPor: p.otorgadoPor,
      otorgadoEn: p.grantedAt.toISOString(),
    }))
    .sort((a, b) => ordenPermisos(a.permiso, b.permiso));
  return {
    ...resumen(
      u,
      permisosDetalle.map((p) => p.permiso),
    ),
    nombrePila: u.nombre,
    apellido1: u.apellido1,
    apellido2: u.apellido2,
    razonSocial: u.razonSocial,
    activado: u.activatedAt?.toISOString() ?? null,
    ultimoAcceso: acceso?.at.toISOString() ?? null,
    sesionesActivas: sesiones.length,
    codigoRee: cuenta.codigoRee ?? null,
    permisosDetalle,
    acciones: accionesSobre(admin, huella),
  };
}

/**
 * Activates or deactivates an account. Activating one never activated grants the activation
 * permissions and voids its activation links; deactivating ends every session of the account and
 * every impersonation it runs, at once. Nobody changes their own state.
 */
export async function cambiarEstado(
  deps: AuthDeps,
  info: InfoPeticion,
  admin: AuthContext,
  id: string,
  estado: 'activo' | 'inactivo',
): Promise<UsuarioDetalle> {
  if (id === admin.userId && UUID.test(id)) throw conflict(MENSAJES_ADMINISTRACION.estadoPropio);
  await huellaActuable(deps.db, admin, id);
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const anterior = await cambiarEstadoCuenta(tx, id, estado, now);
    if (!anterior) throw notFound(MENSAJES_ADMINISTRACION.noExiste);
    if (anterior === estado) return;
    let sesionesCerradas = 0;
    if (estado === 'activo' && anterior === 'pendiente') {
      await grantPermissions(tx, id, permisosAlActivar(), null, now);
      await sincronizarPermisosDistribucionDeUsuario(tx, id);
      await anularEnlaces(tx, id, 'activacion', now);
    }
    if (estado === 'inactivo') {
      sesionesCerradas = await revocarSesionesDeUsuario(tx, id, now, 'desactivacion');
      sesionesCerradas += await revocarSuplantacionesDe(tx, id, now, 'desactivacion');
    }
    await audit(tx, {
      action: 'usuario.estado',
      actorUserId: admin.userId,
      targetType: 'usuario',
      targetId: id,
      ip: info.ip,
      requestId: info.requestId,
      details: { anterior, nuevo: estado, sesionesCerradas },
    });
  });
  return detalleUsuario(deps.db, admin, id, now);
}

/**
 * Mails a new activation link to an account still awaiting activation; the earlier links stop
 * working. At most LIMITES.reenvioActivacion per account and hour (someone's inbox is at stake).
 */
export async function reenviarActivacion(deps: AuthDeps, info: InfoPeticion, admin: AuthContext, id: string): Promise<void> {
  await huellaActuable(deps.db, admin, id);
  const cuenta = await findAccountById(deps.db, id);
  if (!cuenta) throw notFound(MENSAJES_ADMINISTRACION.noExiste);
  if (cuenta.estado !== 'pendiente') throw conflict(MENSAJES_ADMINISTRACION.reenvioNoPendiente);
  await consumir(deps, [{ limite: LIMITES.reenvioActivacion, sujeto: sujetoCuenta(id) }]);
  await enviarNuevaActivacion(deps, info, cuenta, admin.userId);
}

/** The permissions of a change, checked: each one real, none `-distribucion`, none in both lists. */
export function validarCambioPermisos(
  conceder: readonly string[],
  revocar: readonly string[],
): { conceder: Permiso[]; revocar: Permiso[] } {
  const errores = new Set<string>();
  for (const p of [...conceder, ...revocar]) {
    const parsed = parsePermiso(p);
    if (!parsed) errores.add(`«${p}» no es un permiso válido: use <distribuidora>-<área>, por ejemplo epd-comercializadora.`);
    else if (parsed.area === 'distribucion') errores.add(MENSAJES_ADMINISTRACION.distribucion);
  }
  if (conceder.some((p) => revocar.includes(p))) errores.add(MENSAJES_ADMINISTRACION.ambos);
  if (errores.size) throw new ValidationError([...errores]);
  return { conceder: [...new Set(conceder)] as Permiso[], revocar: [...new Set(revocar)] as Permiso[] };
}

/**
 * Grants and revokes permissions of an account. The caller needs `<d>-administrador` for every
 * distributor `<d>` the change touches (docs/api.md checks the distributor part), and may not take
 * their own `-administrador` away.
 */
export async function cambiarPermisos(
  deps: AuthDeps,
  info: InfoPeticion,
  admin: AuthContext,
  id: string,
  cambio: { conceder: string[]; revocar: string[] },
): Promise<UsuarioDetalle> {
  const { conceder, revocar } = validarCambioPermisos(cambio.conceder, cambio.revocar);
  const huella = UUID.test(id) ? await huellaDe(deps.db, id) : undefined;
  if (!huella) throw notFound(MENSAJES_ADMINISTRACION.noExiste);
  // Making or unmaking an administrator, or touching one, is for an administrator of every distributor;
  // anyone else's permissions only while the account is within the administrator's sight.
  const tocaAdministracion = [...conceder, ...revocar].some((p) => p.endsWith('-administrador'));
  if ((huella.administrador || tocaAdministracion) && !administraTodas(admin.permisos)) throw forbidden(MENSAJES_AMBITO.administrador);
  if (!visible(admin, huella)) exigirAmbito(admin, huella);
  const tocadas = new Set([...conceder, ...revocar].map((p) => parsePermiso(p)!.distribuidora));
  for (const d of CODIGOS_DISTRIBUIDORA) {
    if (tocadas.has(d) && !admin.permisos.includes(`${d}-administrador`)) {
      const nombre = DISTRIBUIDORAS.find((x) => x.codigo === d)!.nombre;
      throw forbidden(`Necesita el permiso de administración de ${nombre} para cambiar sus permisos.`);
    }
  }
  if (id === admin.userId && revocar.some((p) => p.endsWith('-administrador'))) {
    throw conflict(MENSAJES_ADMINISTRACION.administradorPropio);
  }
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const antes = new Set((await permisosDe(tx, [id])).get(id));
    await grantPermissions(tx, id, conceder, admin.userId, now);
    for (const p of revocar) {
      const { distribuidora, area } = parsePermiso(p)!;
      await revokePermission(tx, id, distribuidora, area);
    }
    await audit(tx, {
      action: 'usuario.permisos',
      actorUserId: admin.userId,
      targetType: 'usuario',
      targetId: id,
      ip: info.ip,
      requestId: info.requestId,
      details: {
        conceder,
        revocar,
        concedidos: conceder.filter((p) => !antes.has(p)),
        revocados: revocar.filter((p) => antes.has(p)),
      },
    });
  });
  return detalleUsuario(deps.db, admin, id, now);
}

/**
 * Sets (or with null, removes) a supply company's REE code (CNMC table 1): the
 * `CodigoREEEmpresaEmisora` its ATR messages must carry (docs/decisions/020). Only for an account
 * with some `-comercializadora`, by an administrator of one of those distributors; a code belongs
 * to one account.
 */
export async function cambiarCodigoRee(
  deps: AuthDeps,
  info: InfoPeticion,
  admin: AuthContext,
  id: string,
  codigo: string | null,
): Promise<UsuarioDetalle> {
  const huella = UUID.test(id) ? await huellaDe(deps.db, id) : undefined;
  if (!huella) throw notFound(MENSAJES_ADMINISTRACION.noExiste);
  if (!visible(admin, huella)) exigirAmbito(admin, huella);
  const suyos = ((await permisosDe(deps.db, [id])).get(id) ?? []).filter((p) => p.endsWith('-comercializadora'));
  if (suyos.length === 0) throw conflict('Solo las cuentas con permiso de comercializadora tienen código REE.');
  if (!suyos.some((p) => (admin.permisos as readonly string[]).includes(`${p.slice(0, -'-comercializadora'.length)}-administrador`))) {
    throw forbidden('Necesita el permiso de administración de una distribuidora de la que esta cuenta sea comercializadora.');
  }
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    if (codigo) {
      const [otra] = await tx.select({ id: users.id }).from(users).where(eq(users.codigoRee, codigo));
      if (otra && otra.id !== id) throw conflict(`El código REE ${codigo} ya es de otra cuenta.`);
    }
    await tx.update(users).set({ codigoRee: codigo, updatedAt: now }).where(eq(users.id, id));
    await audit(tx, {
      action: 'usuario.codigo_ree',
      actorUserId: admin.userId,
      targetType: 'usuario',
      targetId: id,
      ip: info.ip,
      requestId: info.requestId,
      details: { codigoRee: codigo },
    });
  });
  return detalleUsuario(deps.db, admin, id, now);
}
