/**
 * Management of network incidents: list, create, edit and close the incidents that feed
 * the home banner and /incidencias-red. Each incident belongs to one distributor; the caller needs
 * `<d>-administrador` for it, and an incident of a distributor they do not administer answers 404.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { and, asc, count, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import { CODIGOS_DISTRIBUIDORA, type CodigoDistribuidora } from '../../lib/distribuidoras.ts';
import {
  cierreIncidenciaSchema,
  ESTADOS_INCIDENCIA_ADMIN,
  incidenciaEntradaSchema,
  type IncidenciaEntrada,
} from '../../lib/incidencias/gestion.ts';
import { distribuidorasAdministradas } from '../../lib/permisos.ts';
import { audit } from '../auditoria/service.ts';
import { avisarCorte, cambioAvisable, type Avisados, type ConfigAvisos, type EventoAvisoCorte } from '../avisos-corte/service.ts';
import { authOf, requireAdministracion, requireAuth } from '../auth/middleware.ts';
import { infoDe, respuestaPagina, soloJson } from '../http/peticion.ts';
import type { InfoPeticion } from '../auth/sesion.ts';
import { distribuidorasDeLaLista } from '../administracion/ambito.ts';
import type { Db } from '../db/client.ts';
import { incidenciasRed } from '../db/schema.ts';
import type { AuthContext, Clock } from '../http/context.ts';
import { conflict, forbidden, notFound, ValidationError } from '../http/errors.ts';
import {
  baseAdministracion,
  errorResponse,
  featureApp,
  jsonBody,
  jsonResponse,
  pageResponse,
  paginacionQuery,
  respuestasAdministracion,
  uuidParams,
  validationResponse,
} from '../http/openapi.ts';
import type { IncidenciaAdmin } from '../../lib/incidencias/lista-gestion.ts';
import { contiene } from '../db/busqueda.ts';

export type { IncidenciaAdmin };

/** Spanish answers of incident management. */
export const MENSAJES_INCIDENCIAS = {
  noExiste: 'No existe esa incidencia.',
  cerrada: 'La incidencia está cerrada y ya no se puede modificar.',
  finAntesDeInicio: 'El fin no puede ser anterior al inicio de la incidencia.',
} as const;

/** A management row from a database row. */
function comoAdmin(r: typeof incidenciasRed.$inferSelect): IncidenciaAdmin {
  return {
    id: r.id,
    distribuidora: r.distribuidora as CodigoDistribuidora,
    estado: r.estado as IncidenciaAdmin['estado'],
    descripcion: r.descripcion,
    municipio: r.municipio,
    codigoIne: r.codigoIne,
    provincia: r.provincia,
    codigosPostales: r.codigosPostales,
    cups: r.cups,
    clientesAfectados: r.clientesAfectados,
    inicio: r.inicio.toISOString(),
    finPrevisto: r.finPrevisto?.toISOString() ?? null,
    fin: r.fin?.toISOString() ?? null,
    creado: r.createdAt.toISOString(),
    actualizado: r.updatedAt.toISOString(),
  };
}

/** Filters and page of the management list. */
export interface FiltroIncidencias {
  estado?: IncidenciaAdmin['estado'] | undefined;
  distribuidora?: CodigoDistribuidora | undefined;
  q?: string | undefined;
  pagina: number;
  porPagina: number;
}

/** One page of the caller's distributors' incidents (closed ones included), open first, newest start first. */
export async function listarIncidenciasAdmin(
  db: Db,
  auth: AuthContext,
  f: FiltroIncidencias,
): Promise<{ total: number; incidencias: IncidenciaAdmin[] }> {
  const condiciones: (SQL | undefined)[] = [inArray(incidenciasRed.distribuidora, distribuidorasDeLaLista(auth, f.distribuidora))];
  if (f.estado) condiciones.push(eq(incidenciasRed.estado, f.estado));
  const q = f.q?.trim();
  if (q) {
    condiciones.push(
      or(
        contiene(incidenciasRed.municipio, q),
        contiene(incidenciasRed.provincia, q),
        contiene(incidenciasRed.descripcion, q),
        sql`${incidenciasRed.codigoIne} = ${q}`,
        sql`${q} = any(${incidenciasRed.codigosPostales})`,
      ),
    );
  }
  const where = and(...condiciones);
  const [filas, [total]] = await Promise.all([
    db
      .select()
      .from(incidenciasRed)
      .where(where)
      .orderBy(sql`case when ${incidenciasRed.estado} = 'Cerrada' then 1 else 0 end`, desc(incidenciasRed.inicio), asc(incidenciasRed.id))
      .limit(f.porPagina)
      .offset((f.pagina - 1) * f.porPagina),
    db.select({ n: count() }).from(incidenciasRed).where(where),
  ]);
  return { total: total?.n ?? 0, incidencias: filas.map(comoAdmin) };
}

/** 403 unless the caller administers `distribuidora`. */
function exigirDistribuidora(auth: AuthContext, distribuidora: string): void {
  if (!auth.permisos.includes(`${distribuidora}-administrador` as never)) {
    throw forbidden('Necesita el permiso de administración de esa distribuidora para gestionar sus incidencias.');
  }
}

/** An incident the caller administers, locked for update; 404 otherwise (another distributor's id is not theirs). */
async function incidenciaPropia(tx: Db, auth: AuthContext, id: string): Promise<typeof incidenciasRed.$inferSelect> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) throw notFound(MENSAJES_INCIDENCIAS.noExiste);
  const [row] = await tx.select().from(incidenciasRed).where(eq(incidenciasRed.id, id)).for('update');
  if (!row || !distribuidorasAdministradas(auth.permisos).includes(row.distribuidora as CodigoDistribuidora)) {
    throw notFound(MENSAJES_INCIDENCIAS.noExiste);
  }
  return row;
}

/** Columns written from a validated entry. */
function columnas(e: IncidenciaEntrada) {
  return {
    distribuidora: e.distribuidora,
    estado: e.estado,
    descripcion: e.descripcion,
    municipio: e.municipio,
    codigoIne: e.codigoIne,
    provincia: e.provincia,
    codigosPostales: e.codigosPostales,
    cups: e.cups,
    clientesAfectados: e.clientesAfectados,
    inicio: new Date(e.inicio),
    finPrevisto: e.finPrevisto ? new Date(e.finPrevisto) : null,
  };
}

/** What an incident's audit entry records: never its CUPS list (personal data of many). */
const resumenAuditoria = (e: IncidenciaEntrada | typeof incidenciasRed.$inferSelect) => ({
  distribuidora: e.distribuidora,
  estado: e.estado,
  municipio: e.municipio,
  cups: e.cups.length,
});

/** A saved incident and how many supply points and holders its e-mail alerts went to (decision 025). */
export type IncidenciaGuardada = IncidenciaAdmin & { avisados: Avisados };

/**
 * The alert a change of an open incident causes (docs/decisions/025-avisos-de-corte.md): closing a
 * scheduled one before its start cancels it, closing any other ends it; a scheduled one that becomes
 * En curso or Activa starts; an edit of a scheduled one that changes what the alert says or whom it
 * concerns is a change, one per saved instant. Anything else mails nobody.
 */
function eventoDeCambio(
  antes: typeof incidenciasRed.$inferSelect,
  despues: typeof incidenciasRed.$inferSelect,
  now: Date,
): { evento: EventoAvisoCorte; version?: string; antes?: typeof incidenciasRed.$inferSelect } | null {
  if (despues.estado === 'Cerrada') return { evento: antes.estado === 'Programada' && now < antes.inicio ? 'cancelada' : 'termina' };
  if (antes.estado !== 'Programada') return null;
  if (despues.estado !== 'Programada') return { evento: 'comienza' };
  return cambioAvisable(antes, despues) ? { evento: 'cambiada', version: now.toISOString(), antes } : null;
}

/**
 * Creates an incident of a distributor the caller administers. A scheduled one is published to the
 * holders who asked for alerts; any other starts now. `avisos` null mails nobody.
 */
export async function crearIncidencia(
  db: Db,
  clock: Clock,
  info: InfoPeticion,
  auth: AuthContext,
  e: IncidenciaEntrada,
  avisos: ConfigAvisos | null,
): Promise<IncidenciaGuardada> {
  exigirDistribuidora(auth, e.distribuidora);
  const now = clock.now();
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(incidenciasRed)
      .values({ ...columnas(e), createdAt: now, updatedAt: now, createdBy: auth.userId })
      .returning();
    await audit(tx, {
      action: 'incidencia.alta',
      actorUserId: auth.userId,
      targetType: 'incidencia',
      targetId: row!.id,
      ip: info.ip,
      requestId: info.requestId,
      details: resumenAuditoria(e),
      distribuidoras: [e.distribuidora],
    });
    const avisados = await avisarCorte(tx, avisos, now, row!.estado === 'Programada' ? 'publicada' : 'comienza', row!);
    return { ...comoAdmin(row!), avisados };
  });
}

/** What a change of an open incident writes, and what its audit entry records. */
interface CambioIncidencia {
  action: 'incidencia.cambio' | 'incidencia.cierre';
  columnas: Partial<typeof incidenciasRed.$inferInsert>;
  details: Record<string, unknown>;
  distribuidoras: string[];
}

/**
 * Changes an open incident the caller administers, in one transaction: locks it (404 for another
 * distributor's), 409 once it is closed, writes what `cambio` decides and audits it.
 */
async function cambiarAbierta(
  db: Db,
  clock: Clock,
  info: InfoPeticion,
  auth: AuthContext,
  id: string,
  cambio: (antes: typeof incidenciasRed.$inferSelect, now: Date) => CambioIncidencia,
  avisos: ConfigAvisos | null,
): Promise<IncidenciaGuardada> {
  const now = clock.now();
  return db.transaction(async (tx) => {
    const antes = await incidenciaPropia(tx, auth, id);
    if (antes.estado === 'Cerrada') throw conflict(MENSAJES_INCIDENCIAS.cerrada);
    const { action, columnas: valores, details, distribuidoras } = cambio(antes, now);
    const [row] = await tx
      .update(incidenciasRed)
      .set({ ...valores, updatedAt: now })
      .where(eq(incidenciasRed.id, id))
      .returning();
    await audit(tx, {
      action,
      actorUserId: auth.userId,
      targetType: 'incidencia',
      targetId: id,
      ip: info.ip,
      requestId: info.requestId,
      details,
      distribuidoras,
    });
    const evento = eventoDeCambio(antes, row!, now);
    const avisados = evento
      ? await avisarCorte(tx, avisos, now, evento.evento, row!, {
          ...(evento.version ? { version: evento.version } : {}),
          ...(evento.antes ? { antes: evento.antes } : {}),
        })
      : { suministros: 0, titulares: 0 };
    return { ...comoAdmin(row!), avisados };
  });
}

/** Replaces an open incident's data (its state among the open ones included); 409 once it is closed. */
export async function editarIncidencia(
  db: Db,
  clock: Clock,
  info: InfoPeticion,
  auth: AuthContext,
  id: string,
  e: IncidenciaEntrada,
  avisos: ConfigAvisos | null,
): Promise<IncidenciaGuardada> {
  return cambiarAbierta(
    db,
    clock,
    info,
    auth,
    id,
    (antes) => {
      // Moving it to another distributor needs that one's permission too.
      exigirDistribuidora(auth, e.distribuidora);
      return {
        action: 'incidencia.cambio',
        columnas: columnas(e),
        details: { antes: resumenAuditoria(antes), despues: resumenAuditoria(e) },
        distribuidoras: [...new Set([antes.distribuidora, e.distribuidora])],
      };
    },
    avisos,
  );
}

/**
 * Closes an incident at `fin`: it leaves the public list. Without `fin` it ends now, or at its start
 * when it had not started yet (scheduled works called off: they lasted nothing).
 */
export async function cerrarIncidencia(
  db: Db,
  clock: Clock,
  info: InfoPeticion,
  auth: AuthContext,
  id: string,
  fin: string | undefined,
  avisos: ConfigAvisos | null,
): Promise<IncidenciaGuardada> {
  return cambiarAbierta(
    db,
    clock,
    info,
    auth,
    id,
    (antes, now) => {
      const finFecha = fin ? new Date(fin) : now < antes.inicio ? antes.inicio : now;
      if (finFecha < antes.inicio) throw new ValidationError([MENSAJES_INCIDENCIAS.finAntesDeInicio]);
      return {
        action: 'incidencia.cierre',
        columnas: { estado: 'Cerrada', fin: finFecha },
        details: { distribuidora: antes.distribuidora, estadoAnterior: antes.estado, fin: finFecha.toISOString() },
        distribuidoras: [antes.distribuidora],
      };
    },
    avisos,
  );
}

const IncidenciaAdminSchema = z
  .object({
    id: z.uuid().openapi({ description: 'Identificador (uuid) de la incidencia.' }),
    distribuidora: z.enum(CODIGOS_DISTRIBUIDORA).openapi({ description: 'Código de la distribuidora: epd, eod o ecd.' }),
    estado: z.enum(ESTADOS_INCIDENCIA_ADMIN).openapi({ description: 'Programada, En curso, Activa o Cerrada.' }),
    descripcion: z.string().openapi({ description: 'Qué ocurre, en español, tal como se publica.' }),
    municipio: z.string().openapi({ description: 'Nombre del municipio afectado.' }),
    codigoIne: z.string().openapi({ example: '28005', description: 'Código INE del municipio, 5 cifras.' }),
    provincia: z.string().openapi({ description: 'Nombre de la provincia del municipio.' }),
    codigosPostales: z
      .array(z.string())
      .openapi({ example: ['28801'], description: 'Códigos postales afectados; lista vacía si no se indican.' }),
    cups: z.array(z.string()).openapi({
      example: ['ES9901000000000001QY'],
      description: 'CUPS afectados, en su forma de 20 caracteres; lista vacía si no se conocen uno a uno. No se publican.',
    }),
    clientesAfectados: z
      .number()
      .int()
      .nullable()
      .openapi({ description: 'Número estimado de suministros afectados; null si no se ha estimado.' }),
    inicio: z.iso.datetime().openapi({ description: 'Inicio de la incidencia, instante UTC ISO 8601.' }),
    finPrevisto: z.iso.datetime().nullable().openapi({ description: 'Fin previsto, instante UTC ISO 8601; null si no se conoce.' }),
    fin: z.iso
      .datetime()
      .nullable()
      .openapi({ description: 'Fin real, instante UTC ISO 8601, fijado al cerrarla; null mientras está abierta.' }),
    creado: z.iso.datetime().openapi({ description: 'Momento del alta, instante UTC ISO 8601.' }),
    actualizado: z.iso.datetime().openapi({ description: 'Momento de la última modificación (o del cierre), instante UTC ISO 8601.' }),
  })
  .openapi('IncidenciaAdmin');

/** A saved incident with the count of the e-mail alerts it caused. */
const IncidenciaGuardadaSchema = IncidenciaAdminSchema.extend({
  avisados: z
    .object({
      suministros: z.number().int().openapi({ description: 'Suministros con avisos por correo activados a los que se ha avisado.' }),
      titulares: z.number().int().openapi({ description: 'Titulares (direcciones de correo) a los que se ha avisado.' }),
    })
    .openapi({
      description:
        'Avisos por correo que ha causado este cambio (decisión 025): alta, cambio de una programada, comienzo, anulación o fin. Cero si no causa ninguno o si ya se enviaron.',
    }),
}).openapi('IncidenciaGuardada');

const comunes = respuestasAdministracion('el permiso de administración de la distribuidora');
const base = baseAdministracion;
const idParam = uuidParams('Identificador (uuid) de la incidencia; una de otra distribuidora, o que no existe, responde 404.');

const listar = createRoute({
  ...base,
  method: 'get',
  path: '/administrador/incidencias',
  summary: 'Incidencias de red (gestión)',
  description:
    'Las incidencias de las distribuidoras que administra el usuario, cerradas incluidas: primero las abiertas, después por inicio descendente. q busca en municipio, provincia y descripción (contiene), o el código INE o un código postal exactos. El total va en X-Total-Count.',
  middleware: [requireAuth(), requireAdministracion()] as const,
  request: {
    query: z.object({
      estado: z
        .enum(ESTADOS_INCIDENCIA_ADMIN, { error: 'El estado debe ser Programada, En curso, Activa o Cerrada.' })
        .optional()
        .openapi({ description: 'Solo las de este estado: Programada, En curso, Activa o Cerrada.' }),
      distribuidora: z.enum(CODIGOS_DISTRIBUIDORA, { error: 'La distribuidora debe ser epd, eod o ecd.' }).optional().openapi({
        description: 'Solo las de esta distribuidora (epd, eod o ecd), que el usuario debe administrar; sin ella, todas las suyas.',
      }),
      q: z.string().max(100, 'La búsqueda no puede superar 100 caracteres.').optional().openapi({
        description: 'Texto contenido en municipio, provincia o descripción, o código INE o código postal exactos; hasta 100 caracteres.',
      }),
      ...paginacionQuery,
    }),
  },
  responses: {
    200: pageResponse(IncidenciaAdminSchema, 'Una página de incidencias', 'Total de incidencias que cumplen el filtro'),
    400: validationResponse('Filtros no válidos'),
    ...comunes,
  },
});

const crear = createRoute({
  ...base,
  method: 'post',
  path: '/administrador/incidencias',
  summary: 'Dar de alta una incidencia',
  description: 'Aparece en la lista pública (GET /api/incidenciasRed) y en el aviso de la portada mientras no se cierre.',
  middleware: [soloJson, requireAuth(), requireAdministracion()] as const,
  request: jsonBody(incidenciaEntradaSchema),
  responses: {
    201: jsonResponse(IncidenciaGuardadaSchema, 'Incidencia creada'),
    400: validationResponse('Campos que no cumplen las reglas (un mensaje por CUPS erróneo)'),
    ...comunes,
  },
});

const editar = createRoute({
  ...base,
  method: 'put',
  path: '/administrador/incidencias/{id}',
  summary: 'Modificar una incidencia abierta',
  description: 'Sustituye sus datos, el estado incluido (Programada, En curso o Activa). Una incidencia cerrada no se modifica: 409.',
  middleware: [soloJson, requireAuth(), requireAdministracion()] as const,
  request: { params: idParam, ...jsonBody(incidenciaEntradaSchema) },
  responses: {
    200: jsonResponse(IncidenciaGuardadaSchema, 'Incidencia modificada'),
    400: validationResponse('Campos que no cumplen las reglas'),
    ...comunes,
    404: errorResponse(MENSAJES_INCIDENCIAS.noExiste),
    409: errorResponse(MENSAJES_INCIDENCIAS.cerrada),
  },
});

const cerrar = createRoute({
  ...base,
  method: 'post',
  path: '/administrador/incidencias/{id}/cierre',
  summary: 'Cerrar una incidencia',
  description:
    'Estado Cerrada con la hora de fin indicada, que no puede ser anterior al inicio. Sin ella, ahora; o el inicio, si aún no había empezado (trabajos programados que se anulan). Deja de publicarse.',
  middleware: [soloJson, requireAuth(), requireAdministracion()] as const,
  request: {
    params: idParam,
    body: { required: false, content: { 'application/json': { schema: cierreIncidenciaSchema } } },
  },
  responses: {
    200: jsonResponse(IncidenciaGuardadaSchema, 'Incidencia cerrada'),
    400: validationResponse('Fecha no válida o anterior al inicio'),
    ...comunes,
    404: errorResponse(MENSAJES_INCIDENCIAS.noExiste),
    409: errorResponse(MENSAJES_INCIDENCIAS.cerrada),
  },
});

/** The incident management sub-app. */
export function incidenciasAdminRoutes() {
  return featureApp()
    .openapi(listar, async (c) => {
      const { db } = c.get('deps');
      const { total, incidencias } = await listarIncidenciasAdmin(db, authOf(c), c.req.valid('query'));
      return respuestaPagina(c, total, incidencias);
    })
    .openapi(crear, async (c) => {
      const { db, clock, config } = c.get('deps');
      return c.json(await crearIncidencia(db, clock, infoDe(c), authOf(c), c.req.valid('json'), config), 201);
    })
    .openapi(editar, async (c) => {
      const { db, clock, config } = c.get('deps');
      const { id } = c.req.valid('param');
      return c.json(await editarIncidencia(db, clock, infoDe(c), authOf(c), id, c.req.valid('json'), config), 200);
    })
    .openapi(cerrar, async (c) => {
      const { db, clock, config } = c.get('deps');
      const { id } = c.req.valid('param');
      // The body is optional: an empty one means "now".
      const texto = await c.req.text();
      let fin: string | undefined;
      if (texto.trim()) {
        let cuerpo: unknown;
        try {
          cuerpo = JSON.parse(texto);
        } catch {
          throw new ValidationError(['El cuerpo no es JSON válido.']);
        }
        const r = cierreIncidenciaSchema.safeParse(cuerpo);
        if (!r.success) throw new ValidationError(r.error.issues.map((i) => i.message));
        fin = r.data.fin;
      }
      return c.json(await cerrarIncidencia(db, clock, infoDe(c), authOf(c), id, fin, config), 200);
    });
}
