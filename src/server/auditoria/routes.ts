/**
 * The audit log view: who did what and when, filterable by time, action and user, for
 * administrators in their own session. Entries name the actor and, in an impersonated session, the
 * administrator behind it.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { and, count, desc, eq, gte, lt, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { administraTodas, distribuidorasAdministradas } from '../../lib/permisos.ts';
import { authOf, requireAdministracion, requireAuth } from '../auth/middleware.ts';
import { pgArray } from '../db/arrays.ts';
import type { AuthContext } from '../http/context.ts';
import { queryRows, type Db } from '../db/client.ts';
import { auditLog, users } from '../db/schema.ts';
import { errorResponse, featureApp, jsonResponse, paginacionQuery, validationResponse } from '../http/openapi.ts';
import { findUserByEmail, nombreVisible } from '../usuarios/service.ts';
import type { EntradaAuditoria, PersonaAuditoria } from '../../lib/administracion/auditoria.ts';

export type { EntradaAuditoria, PersonaAuditoria };

/** Filters and page of the view. */
export interface FiltroAuditoria {
  desde?: string | undefined;
  hasta?: string | undefined;
  accion?: string | undefined;
  usuario?: string | undefined;
  pagina: number;
  porPagina: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The account id a `usuario` filter names (an id, or an e-mail in any case); null when none does. */
async function idDeUsuario(db: Db, usuario: string): Promise<string | null> {
  const v = usuario.trim();
  if (UUID.test(v)) return v.toLowerCase();
  return (await findUserByEmail(db, v))?.id ?? null;
}

/**
 * Which entries an administrator may read: every entry for an administrator of every distributor;
 * otherwise those wholly within the distributors it administers (an entry about no distributor
 * included), never one written before entries carried their distributors (docs/decisions/014).
 */
export function condicionAmbitoAuditoria(admin: Pick<AuthContext, 'permisos'>): SQL | undefined {
  if (administraTodas(admin.permisos)) return undefined;
  return sql`${auditLog.distribuidoras} is not null and ${auditLog.distribuidoras} <@ ${pgArray(distribuidorasAdministradas(admin.permisos))}::text[]`;
}

/**
 * One page of the log the administrator may read, newest first, and the total that matches: `desde`
 * inclusive, `hasta` exclusive (the front end sends the start of the day after the last one),
 * `usuario` as actor or impersonator.
 */
export async function listarAuditoria(
  db: Db,
  admin: Pick<AuthContext, 'permisos'>,
  f: FiltroAuditoria,
): Promise<{ total: number; entradas: EntradaAuditoria[] }> {
  const condiciones: (SQL | undefined)[] = [condicionAmbitoAuditoria(admin)];
  if (f.desde) condiciones.push(gte(auditLog.at, new Date(f.desde)));
  if (f.hasta) condiciones.push(lt(auditLog.at, new Date(f.hasta)));
  if (f.accion) condiciones.push(eq(auditLog.action, f.accion));
  if (f.usuario?.trim()) {
    const id = await idDeUsuario(db, f.usuario);
    if (!id) return { total: 0, entradas: [] };
    condiciones.push(or(eq(auditLog.actorUserId, id), eq(auditLog.impersonatorUserId, id)));
  }
  const where = and(...condiciones);
  const actor = alias(users, 'actor');
  const suplantador = alias(users, 'suplantador');
  const persona = (u: typeof actor | typeof suplantador) => ({
    id: u.id,
    email: u.email,
    nombre: u.nombre,
    apellido1: u.apellido1,
    razonSocial: u.razonSocial,
  });
  const [filas, [total]] = await Promise.all([
    db
      .select({ e: auditLog, actor: persona(actor), suplantador: persona(suplantador) })
      .from(auditLog)
      .leftJoin(actor, eq(actor.id, auditLog.actorUserId))
      .leftJoin(suplantador, eq(suplantador.id, auditLog.impersonatorUserId))
      .where(where)
      .orderBy(desc(auditLog.at), desc(auditLog.id))
      .limit(f.porPagina)
      .offset((f.pagina - 1) * f.porPagina),
    db.select({ n: count() }).from(auditLog).where(where),
  ]);
  const comoPersona = (
    p: { id: string | null; email: string | null; nombre: string | null; apellido1: string | null; razonSocial: string | null } | null,
  ) =>
    p?.id
      ? {
          id: p.id,
          email: p.email!,
          nombre: nombreVisible({
            nombre: p.nombre ?? '',
            apellido1: p.apellido1 ?? '',
            razonSocial: p.razonSocial ?? '',
            email: p.email!,
          }),
        }
      : null;
  return {
    total: total?.n ?? 0,
    entradas: filas.map(({ e, actor: a, suplantador: s }) => ({
      id: e.id,
      at: e.at.toISOString(),
      accion: e.action,
      actor: comoPersona(a),
      suplantador: comoPersona(s),
      objetivo: e.targetType && e.targetId ? { tipo: e.targetType, id: e.targetId } : null,
      ip: e.ip,
      detalles: e.details,
    })),
  };
}

/**
 * The distinct actions of the log, sorted. A loose index scan over `audit_log_action_idx` (one
 * index probe per action), so its cost follows the number of actions, not of entries.
 */
export async function accionesAuditoria(db: Db): Promise<string[]> {
  const rows = await queryRows<{ action: string }>(
    db,
    sql`with recursive acciones(action) as (
      (select action from audit_log order by action limit 1)
      union all
      select (select a.action from audit_log a where a.action > acciones.action order by a.action limit 1)
      from acciones where acciones.action is not null
    ) select action from acciones where action is not null`,
  );
  return rows.map((r) => r.action);
}

const fecha = (nombre: string) =>
  z
    .string()
    // Years 1900–9999 only: PostgreSQL has no year 0, and nothing in the log is older than the portal.
    .refine(
      (v) => /^(19|[2-9]\d)\d{2}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(v) && !Number.isNaN(Date.parse(v)),
      `«${nombre}» debe ser una fecha ISO 8601 (AAAA-MM-DD) desde el año 1900.`,
    )
    .optional();

const PersonaSchema = z
  .object({
    id: z.uuid().openapi({ description: 'Identificador de la cuenta (UUID).' }),
    email: z.string().openapi({ description: 'Correo electrónico de la cuenta.' }),
    nombre: z.string().openapi({
      description: 'Nombre para mostrar: la razón social, o el nombre y el primer apellido; el correo si no tiene ninguno.',
    }),
  })
  .nullable()
  .openapi('PersonaAuditoria');

const RespuestaSchema = z
  .object({
    total: z.number().int().nonnegative().openapi({ description: 'Entradas que cumplen los filtros, en todas las páginas.' }),
    entradas: z
      .array(
        z
          .object({
            id: z.number().int().openapi({ description: 'Número de la entrada, creciente en el orden en que se escribieron.' }),
            at: z.iso.datetime().openapi({ description: 'Cuándo ocurrió: instante UTC ISO 8601.' }),
            accion: z.string().openapi({
              example: 'usuario.permisos',
              description: 'Código de la acción, `<ámbito>.<acción>` (p. ej. `sesion.login`, `usuario.permisos`, `perfil.clave`).',
            }),
            actor: PersonaSchema,
            suplantador: PersonaSchema,
            objetivo: z
              .object({
                tipo: z.string().openapi({
                  description: 'Tipo del objeto: usuario, sesion, suministro, incidencia, expediente, certificado, capacidad_nodal…',
                }),
                id: z
                  .string()
                  .openapi({ description: 'Identificador del objeto según su tipo (UUID de la cuenta, CUPS del suministro…).' }),
              })
              .nullable()
              .openapi({ description: 'Sobre qué se hizo la acción; null si no tiene objeto.' }),
            ip: z.string().nullable().openapi({
              description: 'Dirección IP del cliente que hizo la petición; null si no consta (tareas del sistema, línea de órdenes).',
            }),
            detalles: z.record(z.string(), z.unknown()).openapi({
              description:
                'Datos propios de cada acción (p. ej. permisos concedidos, sesiones cerradas, campos cambiados); nunca contraseñas, tokens ni ids de enlaces.',
            }),
          })
          .openapi('EntradaAuditoria'),
      )
      .openapi({ description: 'Las entradas de esta página, de la más reciente a la más antigua.' }),
  })
  .openapi('Auditoria');

const base = {
  tags: ['Administración'],
  security: [{ Bearer: [] }],
};
const comunes = {
  401: errorResponse('Sin sesión'),
  403: errorResponse('Sin permiso de administración, o sesión suplantada'),
};

const listar = createRoute({
  ...base,
  method: 'get',
  path: '/administrador/auditoria',
  middleware: [requireAuth(), requireAdministracion()] as const,
  summary: 'Registro de auditoría',
  description:
    'De la más reciente a la más antigua. desde incluido y hasta excluido (ISO 8601); accion exacta; usuario (correo o id) como autor o como administrador que suplantaba. Un administrador de algunas distribuidoras solo ve las entradas que conciernen únicamente a ellas.',
  request: {
    query: z.object({
      desde: fecha('desde').openapi({
        description: 'Desde este instante, incluido: fecha ISO 8601 AAAA-MM-DD (00:00 UTC) o fecha y hora con zona, desde el año 1900.',
      }),
      hasta: fecha('hasta').openapi({ description: 'Hasta este instante, excluido; mismo formato que desde.' }),
      accion: z.string().max(100, 'La acción no puede superar 100 caracteres.').optional().openapi({
        description:
          'Solo las entradas de esta acción exacta (p. ej. `usuario.permisos`); la lista, en GET /api/administrador/auditoria/acciones.',
      }),
      usuario: z.string().max(200, 'El usuario no puede superar 200 caracteres.').optional().openapi({
        description: 'Correo electrónico o id (UUID) de una cuenta: sus entradas como autora o como administradora que suplantaba.',
      }),
      ...paginacionQuery,
    }),
  },
  responses: {
    200: jsonResponse(RespuestaSchema, 'Una página del registro'),
    400: validationResponse('Filtros no válidos'),
    ...comunes,
  },
});

const acciones = createRoute({
  ...base,
  method: 'get',
  path: '/administrador/auditoria/acciones',
  middleware: [requireAuth(), requireAdministracion()] as const,
  summary: 'Acciones del registro',
  description: 'Las acciones distintas que contiene el registro, ordenadas, para el filtro.',
  responses: {
    200: jsonResponse(z.array(z.string()), 'Acciones'),
    ...comunes,
  },
});

/** The audit view sub-app. */
export function auditoriaRoutes() {
  return featureApp()
    .openapi(listar, async (c) => c.json(await listarAuditoria(c.get('deps').db, authOf(c), c.req.valid('query')), 200))
    .openapi(acciones, async (c) => c.json(await accionesAuditoria(c.get('deps').db), 200));
}
