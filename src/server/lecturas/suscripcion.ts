/**
 * Calendar subscription to the scheduled readings (decision 013): a secret address a holder pastes
 * into their calendar program, which then fetches the same iCalendar as the download on its own, so
 * a moved visit or a new supply point shows up without importing the file again.
 *
 * - One address per account, made (or replaced) by the holder, never through an impersonated
 *   session; only the SHA-256 of its token is stored, so it is shown once, when it is made.
 * - The address answers with what the account holds *when it is read*: an account that stops being
 *   active, loses its `-distribucion` permissions or the supply points gets an empty or 404 feed.
 * - Unknown tokens count against a limit per address (guessing 256-bit tokens is hopeless anyway,
 *   the limit keeps the attempts from costing anything); the token never reaches the logs
 *   (src/server/http/logging.ts).
 */
import { createHash, randomBytes } from 'node:crypto';
import { createRoute, z } from '@hono/zod-openapi';
import { eq } from 'drizzle-orm';
import { audit } from '../auditoria/service.ts';
import { authOf, requireArea, requireAuth, requireNoSuplantado } from '../auth/middleware.ts';
import type { Db } from '../db/client.ts';
import { suscripcionesCalendario } from '../db/schema.ts';
import { notFound } from '../http/errors.ts';
import { errorResponse, featureApp, jsonResponse } from '../http/openapi.ts';
import { addressKey, clientAddress } from '../http/cliente.ts';
import { consumir, devolver, LIMITES, type RateLimitDeps } from '../rate-limit/service.ts';
import { lectorDeCuenta, suministrosDe, type Lector } from '../suministros/service.ts';
import { findAccountById } from '../usuarios/service.ts';
import { calendarioDeSuministros } from './calendario.ts';

/** The public path of a subscription, before its token. */
export const RUTA_CALENDARIO = '/api/calendarioLecturas/';

/** A token: 32 random bytes, base64url (43 characters), and the `.ics` calendar programs like to see. */
const FICHERO = /^([A-Za-z0-9_-]{43})\.ics$/;

const huella = (token: string) => createHash('sha256').update(token).digest('hex');

/** When the account's address was made and last read; null without one. */
export async function estadoSuscripcion(db: Db, userId: string): Promise<{ creadaEn: Date; usadaEn: Date | null } | null> {
  const [fila] = await db
    .select({ creadaEn: suscripcionesCalendario.creadoEn, usadaEn: suscripcionesCalendario.usadoEn })
    .from(suscripcionesCalendario)
    .where(eq(suscripcionesCalendario.userId, userId));
  return fila ?? null;
}

/** Makes the account's address, replacing any earlier one (which stops working); answers its token. */
export async function crearSuscripcion(db: Db, userId: string, ahora: Date): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db
    .insert(suscripcionesCalendario)
    .values({ userId, tokenHash: huella(token), creadoEn: ahora })
    .onConflictDoUpdate({ target: suscripcionesCalendario.userId, set: { tokenHash: huella(token), creadoEn: ahora, usadoEn: null } });
  return token;
}

/** Removes the account's address; whether there was one. */
export async function revocarSuscripcion(db: Db, userId: string): Promise<boolean> {
  const borradas = await db
    .delete(suscripcionesCalendario)
    .where(eq(suscripcionesCalendario.userId, userId))
    .returning({ userId: suscripcionesCalendario.userId });
  return borradas.length > 0;
}

/**
 * The holder behind a token, as a reader of supply points, or null. Each call that finds no address
 * takes a unit of the per-address limit (429 past it), before looking, so guessing cannot go faster.
 */
export async function lectorDeToken(deps: RateLimitDeps, token: string, direccion: string): Promise<Lector | null> {
  const consumos = await consumir(deps, [{ limite: LIMITES.calendarioDesconocido, sujeto: direccion }]);
  const [fila] = await deps.db
    .update(suscripcionesCalendario)
    .set({ usadoEn: deps.clock.now() })
    .where(eq(suscripcionesCalendario.tokenHash, huella(token)))
    .returning({ userId: suscripcionesCalendario.userId });
  if (!fila) return null;
  await devolver(deps, consumos);
  const cuenta = await findAccountById(deps.db, fila.userId);
  if (!cuenta || cuenta.estado !== 'activo') return null;
  return lectorDeCuenta(cuenta);
}

/** The full address of a token, on this portal. */
export function urlSuscripcion(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, '')}${RUTA_CALENDARIO}${token}.ics`;
}

const SuscripcionSchema = z
  .object({
    activa: z.boolean().openapi({ description: 'Si el usuario tiene una dirección de suscripción en vigor.' }),
    creadaEn: z.string().nullable().openapi({ description: 'Cuándo se creó la dirección, instante UTC ISO 8601; null si no hay ninguna.' }),
    usadaEn: z.string().nullable().openapi({
      description:
        'Cuándo la leyó un programa de calendario por última vez, instante UTC ISO 8601; null si nunca se ha leído o no hay dirección.',
    }),
  })
  .openapi('SuscripcionCalendario');

const SuscripcionNuevaSchema = z
  .object({
    url: z.string().openapi({
      description:
        'Dirección secreta que se pega en un programa de calendario para suscribirse. Solo se muestra en esta respuesta: el portal guarda únicamente su huella SHA-256.',
    }),
    webcal: z.string().openapi({
      description: 'La misma dirección con el esquema webcal:, que abre el programa de calendario para suscribirse.',
    }),
    creadaEn: z.string().openapi({ description: 'Cuándo se creó la dirección, instante UTC ISO 8601.' }),
  })
  .openapi('SuscripcionCalendarioNueva');

const seguridad = [{ Bearer: [] }];
const PATH = '/lecturasProgramadas/suscripcion';
const errores = { 401: errorResponse('Sin sesión'), 403: errorResponse('Sin permiso «-distribucion», o sesión suplantada') };

const consultar = createRoute({
  method: 'get',
  path: PATH,
  tags: ['Consumidores'],
  summary: 'Suscripción de calendario a las lecturas programadas',
  description:
    'Si el usuario tiene una dirección de suscripción, cuándo la creó y cuándo la leyó un calendario por última vez. La dirección no se puede volver a ver: solo se guarda su huella.',
  security: seguridad,
  middleware: [requireAuth(), requireArea('distribucion')] as const,
  responses: { 200: jsonResponse(SuscripcionSchema, 'El estado de la suscripción'), ...errores },
});

const crear = createRoute({
  method: 'post',
  path: PATH,
  tags: ['Consumidores'],
  summary: 'Crear la dirección de suscripción de calendario',
  description:
    'Crea una dirección secreta que cualquier programa de calendario puede leer sin sesión para mantener al día las lecturas programadas de todos los suministros del usuario. Sustituye a la anterior, que deja de funcionar. Se muestra solo en esta respuesta. No disponible en una sesión suplantada.',
  security: seguridad,
  middleware: [requireAuth(), requireArea('distribucion'), requireNoSuplantado()] as const,
  responses: { 201: jsonResponse(SuscripcionNuevaSchema, 'La dirección nueva'), ...errores },
});

const revocar = createRoute({
  method: 'delete',
  path: PATH,
  tags: ['Consumidores'],
  summary: 'Anular la dirección de suscripción de calendario',
  description: 'La dirección deja de funcionar al momento (los calendarios suscritos reciben 404). No disponible en una sesión suplantada.',
  security: seguridad,
  middleware: [requireAuth(), requireArea('distribucion'), requireNoSuplantado()] as const,
  responses: { 204: { description: 'Anulada, o no había ninguna' }, ...errores },
});

const feed = createRoute({
  method: 'get',
  path: '/calendarioLecturas/{fichero}',
  tags: ['Consumidores'],
  summary: 'Calendario de lecturas por suscripción',
  description:
    'Pública, con el secreto en la dirección: el mismo iCalendar que /api/lecturasProgramadas.ics para todos los suministros que el titular de la suscripción tiene en el momento de leerla. Las direcciones que no existen cuentan para un límite por dirección IP (20 cada 15 minutos; 429).',
  request: {
    params: z.object({
      fichero: z
        .string()
        .max(60)
        .openapi({
          param: { name: 'fichero', in: 'path' },
          example: 'b3Jx…43 caracteres….ics',
          description: 'El secreto de la suscripción (43 caracteres base64url) seguido de .ics, tal como aparece en la dirección creada.',
        }),
    }),
  },
  responses: {
    200: { description: 'El calendario', content: { 'text/calendar': { schema: z.string() } } },
    404: errorResponse('La dirección no existe o se ha anulado'),
    429: errorResponse('Demasiadas direcciones desconocidas desde esta dirección IP'),
  },
});

const NO_EXISTE = 'Esta dirección de calendario no existe o se ha anulado. Cree una nueva en «Lecturas programadas» del área privada.';

/** The subscription sub-app (joined to the meters' one). */
export function suscripcionRoutes() {
  return featureApp()
    .openapi(consultar, async (c) => {
      const e = await estadoSuscripcion(c.get('deps').db, authOf(c).userId);
      return c.json({ activa: !!e, creadaEn: e?.creadaEn.toISOString() ?? null, usadaEn: e?.usadaEn?.toISOString() ?? null }, 200);
    })
    .openapi(crear, async (c) => {
      const deps = c.get('deps');
      const auth = authOf(c);
      const ahora = deps.clock.now();
      const token = await crearSuscripcion(deps.db, auth.userId, ahora);
      await audit(deps.db, {
        action: 'lecturas.suscripcion.creada',
        actorUserId: auth.userId,
        ip: clientAddress(c),
        requestId: c.get('requestId') ?? null,
      });
      const url = urlSuscripcion(deps.config.publicUrl, token);
      return c.json({ url, webcal: url.replace(/^https?:/, 'webcal:'), creadaEn: ahora.toISOString() }, 201);
    })
    .openapi(revocar, async (c) => {
      const deps = c.get('deps');
      const auth = authOf(c);
      if (await revocarSuscripcion(deps.db, auth.userId)) {
        await audit(deps.db, {
          action: 'lecturas.suscripcion.anulada',
          actorUserId: auth.userId,
          ip: clientAddress(c),
          requestId: c.get('requestId') ?? null,
        });
      }
      return c.body(null, 204);
    })
    .openapi(feed, async (c) => {
      const deps = c.get('deps');
      const token = FICHERO.exec(c.req.valid('param').fichero)?.[1];
      const lector = token ? await lectorDeToken(deps, token, addressKey(clientAddress(c))) : null;
      if (!lector) throw notFound(NO_EXISTE);
      const texto = await calendarioDeSuministros(deps.db, await suministrosDe(deps.db, lector), deps.clock.now());
      return c.body(texto, 200, {
        'Content-Type': 'text/calendar; charset=utf-8',
        // Calendar programs poll on their own schedule; nobody in between keeps a copy.
        'Cache-Control': 'private, no-store',
        'X-Robots-Tag': 'noindex',
      });
    });
}
