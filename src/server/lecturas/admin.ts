/**
 * Administration of meter states: find a supply point by CUPS and change the state of its
 * meter with a reason. Needs `<d>-administrador` for the supply point's distributor (the CUPS prefix
 * names it, so a CUPS of another distributor answers 403 without looking it up, which tells nothing
 * about whether it exists); refused to impersonated sessions (decision 006); every change is written
 * to the audit log with the state before and after.
 */
import { createRoute, z } from '@hono/zod-openapi';
import { eq } from 'drizzle-orm';
import { cupsBase, errorCups, MENSAJES_CUPS, normalizarCups } from '../../lib/cups.ts';
import {
  cambioEstadoSchema,
  distribuidoraDeCups,
  MENSAJES_CONTADORES,
  MENSAJES_ESTADO,
  motivoDe,
  ultimaComunicacionDe,
  type CambioEstado,
} from '../../lib/lecturas/estado-contador.ts';
import { audit } from '../auditoria/service.ts';
import { authOf, requireAdministracion, requireAuth } from '../auth/middleware.ts';
import { infoDe, soloJson } from '../http/peticion.ts';
import type { InfoPeticion } from '../auth/sesion.ts';
import type { Db } from '../db/client.ts';
import { suministros, users } from '../db/schema.ts';
import type { AuthContext, Clock } from '../http/context.ts';
import { forbidden, notFound, ValidationError } from '../http/errors.ts';
import {
  baseAdministracion,
  errorResponse,
  featureApp,
  jsonBody,
  jsonResponse,
  respuestasAdministracion,
  validationResponse,
} from '../http/openapi.ts';
import type { Suministro } from '../suministros/service.ts';
import { suministroContador } from './esquemas.ts';
import { notificacionesDe } from './d1.ts';
import { MOTIVOS_D1, textoRespuestaD1, type MotivoD1 } from '../../lib/lecturas/d1.ts';
import {
  estadoApi,
  estadosDe,
  guardarEstadosContador,
  lecturasApi,
  LECTURAS_MOSTRADAS,
  ultimasLecturas,
  type FilaEstado,
} from './service.ts';
import { AdminEstadoSchema, type EstadoAdminRespuesta } from '../../lib/lecturas/respuestas.ts';

/**
 * The supply point of a CUPS the caller administers: 400 for a malformed CUPS, 403 for one of a
 * distributor they do not administer, 404 when none exists. Locked for update inside a transaction.
 */
async function suministroAdministrado(db: Db, auth: AuthContext, cupsTexto: string, bloquear = false): Promise<Suministro> {
  const e = errorCups(cupsTexto);
  if (e) throw new ValidationError([MENSAJES_CUPS[e]]);
  const cups = normalizarCups(cupsTexto);
  const d = distribuidoraDeCups(cups);
  if (!d) throw notFound(MENSAJES_CONTADORES.noExiste);
  if (!auth.permisos.includes(`${d.codigo}-administrador`)) throw forbidden(MENSAJES_CONTADORES.ajena(d));
  const consulta = db
    .select()
    .from(suministros)
    .where(eq(suministros.cups, cupsBase(cups)));
  const [s] = bloquear ? await consulta.for('update') : await consulta;
  if (!s) throw notFound(MENSAJES_CONTADORES.noExiste);
  // The prefix and the row agree for every supply point the import accepts; checked again all the same.
  if (!auth.permisos.includes(`${s.distribuidora}-administrador` as never)) throw notFound(MENSAJES_CONTADORES.noExiste);
  return s;
}

/** The administration view of a supply point and its meter state. */
async function vistaAdmin(db: Db, s: Suministro, fila: FilaEstado | undefined): Promise<EstadoAdminRespuesta> {
  let actualizadoPor: { nombre: string; email: string } | null = null;
  if (fila?.actualizadoPor) {
    const [u] = await db
      .select({ email: users.email, nombre: users.nombre, apellido1: users.apellido1, razonSocial: users.razonSocial })
      .from(users)
      .where(eq(users.id, fila.actualizadoPor));
    if (u) actualizadoPor = { email: u.email, nombre: u.razonSocial || `${u.nombre} ${u.apellido1}`.trim() };
  }
  return {
    ...suministroContador(s),
    titular: s.titularNombre,
    estado: fila ? { ...estadoApi(fila), origen: fila.origen, actualizadoPor } : null,
    lecturas: lecturasApi(s, (await ultimasLecturas(db, [s.id], LECTURAS_MOSTRADAS + 1)).get(s.id) ?? []),
    notificaciones: (await notificacionesDe(db, s.id)).map((n) => ({
      enviadaEn: n.enviadaEn.toISOString(),
      codigoSolicitud: n.codigoSolicitud,
      comercializadora: n.comercializadora,
      motivo: n.motivo,
      motivoTexto: MOTIVOS_D1[n.motivo as MotivoD1] ?? n.motivo,
      respuesta: n.respuesta as 'aceptada' | 'rechazada' | null,
      respuestaTexto: textoRespuestaD1(n),
      respondidaEn: n.respondidaEn?.toISOString() ?? null,
    })),
  };
}

/** What an audit entry records of a state (no personal data beyond the reason typed). */

const resumen = (f: Pick<FilaEstado, 'comunica' | 'interruptor' | 'estadoSuministro' | 'motivo'> | undefined) =>
  f ? { comunica: f.comunica, interruptor: f.interruptor, estadoSuministro: f.estadoSuministro, motivo: f.motivo } : null;

/** Changes the state of a supply point's meter as an administrator, and audits it. */
export async function cambiarEstadoContador(
  db: Db,
  clock: Clock,
  info: InfoPeticion,
  auth: AuthContext,
  cups: string,
  cambio: CambioEstado,
): Promise<EstadoAdminRespuesta> {
  const ahora = clock.now();
  const ultima = ultimaComunicacionDe(cambio, ahora);
  if (ultima && ultima > ahora) throw new ValidationError([MENSAJES_ESTADO.ultimaComunicacionFutura]);
  return db.transaction(async (tx) => {
    const s = await suministroAdministrado(tx, auth, cups, true);
    const antes = (await estadosDe(tx, [s.id])).get(s.id);
    await guardarEstadosContador(
      tx,
      [
        {
          suministroId: s.id,
          comunica: cambio.comunica,
          ultimaComunicacion: ultima,
          interruptor: cambio.interruptor,
          estadoSuministro: cambio.estadoSuministro,
          motivo: motivoDe(cambio),
        },
      ],
      { origen: 'administrador', actualizadoPor: auth.userId, ahora },
    );
    await audit(tx, {
      action: 'contador.estado',
      actorUserId: auth.userId,
      targetType: 'suministro',
      targetId: s.cups,
      ip: info.ip,
      requestId: info.requestId,
      details: { distribuidora: s.distribuidora, antes: resumen(antes), despues: resumen({ ...cambio, motivo: motivoDe(cambio) }) },
      distribuidoras: [s.distribuidora],
    });
    return vistaAdmin(tx, s, (await estadosDe(tx, [s.id])).get(s.id));
  });
}

const CupsParam = z.object({
  cups: z
    .string()
    .max(40)
    .openapi({
      param: { name: 'cups', in: 'path' },
      example: 'ES9901000000000001QY',
      description:
        'CUPS del suministro (se admiten espacios, guiones y minúsculas); su prefijo dice la distribuidora: ES9901 epd, ES9902 eod, ES9903 ecd.',
    }),
});
const comunes = {
  400: validationResponse('CUPS mal escrito o estado que no cumple las reglas'),
  ...respuestasAdministracion('el permiso de administración de la distribuidora del CUPS'),
  404: errorResponse(MENSAJES_CONTADORES.noExiste),
};
const base = baseAdministracion;

const ver = createRoute({
  ...base,
  method: 'get',
  path: '/administrador/contadores/{cups}',
  summary: 'Estado del contador de un suministro (gestión)',
  description:
    'El suministro del CUPS, su titular y el estado de su contador, con quién lo cambió por última vez. Necesita el permiso de administración de la distribuidora del CUPS.',
  middleware: [requireAuth(), requireAdministracion()] as const,
  request: { params: CupsParam },
  responses: { 200: jsonResponse(AdminEstadoSchema, 'El suministro y su estado'), ...comunes },
});

const cambiar = createRoute({
  ...base,
  method: 'put',
  path: '/administrador/contadores/{cups}',
  summary: 'Cambiar el estado del contador de un suministro',
  description:
    'Sustituye el estado: si comunica y su última comunicación (sin ella, ahora si comunica), el interruptor de control de potencia y el estado del suministro. El motivo es obligatorio para un corte, un suministro sin luz o un interruptor abierto a distancia: el titular lo ve. Queda en el registro de actividad.',
  middleware: [soloJson, requireAuth(), requireAdministracion()] as const,
  request: { params: CupsParam, ...jsonBody(cambioEstadoSchema) },
  responses: { 200: jsonResponse(AdminEstadoSchema, 'El estado guardado'), ...comunes },
});

/** The meter administration sub-app. */
export function adminContadoresRoutes() {
  return featureApp()
    .openapi(ver, async (c) => {
      const { db } = c.get('deps');
      const s = await suministroAdministrado(db, authOf(c), c.req.valid('param').cups);
      return c.json(await vistaAdmin(db, s, (await estadosDe(db, [s.id])).get(s.id)), 200);
    })
    .openapi(cambiar, async (c) => {
      const { db, clock } = c.get('deps');
      const r = await cambiarEstadoContador(db, clock, infoDe(c), authOf(c), c.req.valid('param').cups, c.req.valid('json'));
      return c.json(r, 200);
    });
}
