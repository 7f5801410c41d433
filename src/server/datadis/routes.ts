/**
 * The Datadis-compatible API (docs/decisions/044; reactive energy, 054): datadis.es's private API at the same paths —
 * `POST /nikola-auth/tokens/login` (form fields `username`, the NIF or e-mail, and `password`; the
 * token answered as plain text) and `GET /api-private/api/get-…` — so Datadis clients (python-edata
 * and the Home Assistant integrations on it, ctr-datadis, datadis-php-client) read the portal by
 * changing only their base address. The token is a JWT of its own audience that opens these routes
 * and nothing else, lives 24 hours like Datadis's, and ends with the session family its login
 * opened (logout everywhere, a password change). Every supply point is checked on the server: the
 * caller's own, or, with `authorizedNif`, one that holder has authorised the caller to read
 * (docs/decisions/028); anything else answers 404 and no data. Every data call is audited and
 * counted per NIF and per address (429 with Retry-After). These paths are outside `/api`, so they
 * are described in docs/decisions/044 rather than in the OpenAPI document (whose server is `/api`).
 */
import { Hono, type Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { z } from 'zod';
import { normalizarNif } from '../../lib/nif.ts';
import type { DatoLeido } from '../../lib/autorizaciones.ts';
import { audit } from '../auditoria/service.ts';
import { cuentaDeLaPeticion } from '../auth/cuenta.ts';
import { firmarTokenDatadis, verificarTokenDatadis } from '../auth/jwt.ts';
import { comprobarCredenciales, familiaDeCanal, MAX_PASSWORD_LENGTH } from '../auth/sesion.ts';
import {
  accesoAutorizado,
  accesosAutorizados,
  auditarLectura,
  autorizacionesDadas,
  autorizacionesRecibidas,
} from '../autorizaciones/service.ts';
import { permisosConAutorizaciones, soloAutorizadas } from '../autorizaciones/vigencia.ts';
import { enUnaSentencia } from '../db/juntas.ts';
import { addressKey, clientAddress } from '../http/cliente.ts';
import { dbDeLectura, type AppEnv, type AuthEnv } from '../http/context.ts';
import { entradaSinControl } from '../http/entrada.ts';
import { ApiError, CONTROL_NO_ADMITIDO, handleError, MENSAJE_CONTROL, notFound, ValidationError } from '../http/errors.ts';
import { infoDe } from '../http/peticion.ts';
import { ponerCabecera } from '../http/security.ts';
import { consumir, LIMITES } from '../rate-limit/service.ts';
import { lectorAutorizadoDe, lectorDe } from '../suministros/acceso.ts';
import { suministroDe, suministrosDe, type Suministro } from '../suministros/service.ts';
import {
  CODIGO_DATADIS,
  consumosDatadis,
  contratoDatadis,
  distribuidoraDeCodigo,
  autorizacionesDatadis,
  potenciasDatadis,
  reactivaDatadis,
  suministroDatadis,
  type MesDatadis,
} from './service.ts';

/** Where Datadis's private API lives; the login is apart. */
export const PREFIJO_DATADIS = '/api-private/api';
export const RUTA_LOGIN_DATADIS = '/nikola-auth/tokens/login';

/** Months a curve call may span: two years of hours, six months of quarter-hours (a few MB of JSON at most). */
export const MAX_MESES_HORAS = 24;
export const MAX_MESES_CUARTOS = 6;

const MENSAJE_SIN_TOKEN = 'Falta el token o ha caducado: obténgalo de nuevo en /nikola-auth/tokens/login con su NIF y contraseña.';
const NO_ENCONTRADO =
  'No encontramos ese suministro entre los suyos ni entre los que le han autorizado a consultar. Compruebe el CUPS, el distribuidor y authorizedNif.';

/** The reasons of the statuses these routes answer, as Datadis's (Spring) error bodies name them. */
const RAZON: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  503: 'Service Unavailable',
};

/**
 * Errors in the shape Datadis answers them (`timestamp`, `status`, `error`, `message`, `path`), the
 * message in Spanish; statuses and headers (Retry-After) are the portal's error pipeline's.
 */
async function errorDatadis(err: Error, c: Context<AppEnv>): Promise<Response> {
  const res = handleError(err, c);
  const cuerpo = (await res
    .clone()
    .json()
    .catch(() => null)) as unknown;
  const message = Array.isArray(cuerpo)
    ? cuerpo.join(' ')
    : cuerpo && typeof cuerpo === 'object' && 'message' in cuerpo
      ? String((cuerpo as { message: unknown }).message)
      : '';
  const headers = new Headers(res.headers);
  headers.set('Content-Type', 'application/json');
  const body = JSON.stringify({
    timestamp: c.get('deps').clock.now().toISOString(),
    status: res.status,
    error: RAZON[res.status] ?? '',
    message,
    path: c.req.path,
  });
  return new Response(body, { status: res.status, headers });
}

/**
 * Admits a Datadis-compatible token of an active account whose session is still open, and sets
 * `auth` as `requireAuth` does (without impersonation: this token is always the account's own), so
 * the supply point checks of src/server/suministros/acceso.ts apply unchanged.
 */
const requireDatadis = () =>
  createMiddleware<AuthEnv>(async (c, next) => {
    const { db, clock, config } = c.get('deps');
    const m = /^Bearer[ ]+([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)[ ]*$/.exec(c.req.header('authorization') ?? '');
    const token = m ? await verificarTokenDatadis(config.jwtSecret, m[1]!, clock.now()) : null;
    const cuenta = token ? await cuentaDeLaPeticion(db, token.userId, token.familyId, clock.now()) : undefined;
    if (!cuenta || cuenta.estado !== 'activo' || !cuenta.sesionViva) {
      throw new ApiError(401, MENSAJE_SIN_TOKEN, { 'WWW-Authenticate': 'Bearer realm="datadis"' });
    }
    const solo = soloAutorizadas(cuenta.permisos, cuenta.autorizadas);
    c.set('auth', {
      userId: cuenta.id,
      email: cuenta.email,
      nif: cuenta.nif,
      permisos: permisosConAutorizaciones(cuenta.permisos, cuenta.autorizadas),
      ...(solo.length ? { soloAutorizadas: solo } : {}),
      autorizadas: cuenta.autorizadas,
      impersonatorUserId: null,
      sesionId: token!.familyId,
    });
    // Counted per NIF (the account when it has none) and per address before any data is read.
    try {
      await consumir(c.get('deps'), [
        { limite: LIMITES.datadisCuenta, sujeto: `nif:${cuenta.nif ?? cuenta.id}` },
        { limite: LIMITES.datadisDireccion, sujeto: addressKey(clientAddress(c)) },
      ]);
    } catch (err) {
      if (err instanceof ApiError && err.status === 429) {
        const espera = Number(err.headers['Retry-After'] ?? '60');
        throw new ApiError(
          429,
          `Ha hecho demasiadas consultas a la API compatible con Datadis. Espere ${Math.ceil(espera / 60)} minuto(s) y vuelva a intentarlo.`,
          err.headers,
        );
      }
      throw err;
    }
    await next();
  });

/** A month `AAAA/MM` (a day after it, `AAAA/MM/DD`, is accepted and ignored, as some clients send it). */
const mes = (campo: string) =>
  z
    .string({ error: `Falta ${campo} (AAAA/MM).` })
    .regex(/^\d{4}[/-](0[1-9]|1[0-2])([/-]\d{2})?$/, `${campo} debe ser un mes AAAA/MM.`)
    .transform((t): MesDatadis => ({ anio: Number(t.slice(0, 4)), mes: Number(t.slice(5, 7)) }));

const texto = (max: number) =>
  z
    .string()
    .max(max)
    .refine((t) => !CONTROL_NO_ADMITIDO.test(t), MENSAJE_CONTROL);

const SuministrosQuery = z.object({
  authorizedNif: texto(20).optional(),
  distributorCode: texto(10).optional(),
});

const PuntoQuery = SuministrosQuery.extend({
  cups: z.string({ error: 'Falta el CUPS.' }).min(1, 'Falta el CUPS.').max(30, 'El CUPS no es válido.'),
});

const PeriodoQuery = PuntoQuery.extend({ startDate: mes('startDate'), endDate: mes('endDate') });

const ConsumoQuery = PeriodoQuery.extend({
  measurementType: z.enum(['0', '1'], { error: 'measurementType debe ser 0 (horario) o 1 (cuartohorario).' }).default('0'),
  pointType: z
    .string()
    .regex(/^[1-5]$/, 'pointType debe ser un tipo de punto de 1 a 5.')
    .optional(),
});

function leer<T extends z.ZodType>(c: Context, esquema: T): z.infer<T> {
  const r = esquema.safeParse(c.req.query());
  if (!r.success) throw new ValidationError(r.error.issues.map((i) => i.message));
  return r.data;
}

/** Months from `desde` to `hasta`, both included; a 400 when backwards or longer than `max`. */
function comprobarMeses(desde: MesDatadis, hasta: MesDatadis, max: number): void {
  const n = (hasta.anio - desde.anio) * 12 + (hasta.mes - desde.mes) + 1;
  if (n < 1) throw new ValidationError(['endDate no puede ser anterior a startDate.']);
  if (n > max) throw new ValidationError([`Consulte como máximo ${max} meses por llamada.`]);
}

/**
 * The supply point a call names, checked on the server: without `authorizedNif`, one the caller
 * holds; with it, one that holder has authorised the caller to read `dato` of, today (each read
 * audited as the portal's reads through authorisations are). A `distributorCode` must name its
 * distributor. Anything else is the same 404.
 */
async function puntoLegible(
  c: Context<AuthEnv>,
  q: { cups: string; distributorCode?: string | undefined; authorizedNif?: string | undefined },
  dato: DatoLeido,
): Promise<{ s: Suministro; titular: boolean }> {
  const { db, clock } = c.get('deps');
  const auth = c.get('auth');
  const autorizante = q.authorizedNif ? normalizarNif(q.authorizedNif) : null;
  const deSuDistribuidora = (s: Suministro) => !q.distributorCode || distribuidoraDeCodigo(q.distributorCode) === s.distribuidora;
  if (!autorizante || autorizante === auth.nif) {
    const s = await suministroDe(db, lectorDe(c), q.cups);
    if (s && deSuDistribuidora(s)) return { s, titular: true };
  } else {
    const acceso = await accesoAutorizado(db, auth.nif, q.cups, dato, clock.now());
    if (acceso && acceso.suministro.titularNif === autorizante && deSuDistribuidora(acceso.suministro)) {
      await auditarLectura(db, lectorAutorizadoDe(c), acceso, dato);
      return { s: acceso.suministro, titular: false };
    }
  }
  throw notFound(NO_ENCONTRADO);
}

/** The caller's supply points as `get-supplies` lists them: their own, or those `authorizedNif` authorised them to read. */
async function puntosDe(c: Context<AuthEnv>, q: z.infer<typeof SuministrosQuery>): Promise<Suministro[]> {
  const { db, clock } = c.get('deps');
  const auth = c.get('auth');
  const autorizante = q.authorizedNif ? normalizarNif(q.authorizedNif) : null;
  const distribuidora = q.distributorCode ? distribuidoraDeCodigo(q.distributorCode) : undefined;
  const pedida = (s: Suministro) => !q.distributorCode || s.distribuidora === distribuidora;
  if (!autorizante || autorizante === auth.nif) return (await suministrosDe(db, lectorDe(c))).filter(pedida);
  const accesos = (await accesosAutorizados(db, auth.nif, clock.now())).filter(
    (a) => a.suministro.titularNif === autorizante && pedida(a.suministro),
  );
  // Each supply point listed through an authorisation is audited, as the portal's own list does.
  for (const a of accesos) await auditarLectura(db, lectorAutorizadoDe(c), a, 'contrato');
  return accesos.map((a) => a.suministro);
}

/** One audit entry per data call: who, which operation, which supply point and months. */
async function auditar(c: Context<AuthEnv>, operacion: string, detalles: Record<string, unknown>, s?: Suministro): Promise<void> {
  const auth = c.get('auth');
  await audit(c.get('deps').db, {
    action: 'datadis.consulta',
    actorUserId: auth.userId,
    ...(s ? { targetType: 'suministro', targetId: s.cups, distribuidoras: [s.distribuidora] } : {}),
    ip: clientAddress(c),
    requestId: c.get('requestId') ?? null,
    details: { operacion, ...detalles },
  });
}

const mesTexto = (m: MesDatadis) => `${m.anio}-${String(m.mes).padStart(2, '0')}`;

/** The credentials of the login: a form (urlencoded or multipart), as Datadis takes them, or JSON. */
async function credenciales(c: Context<AppEnv>): Promise<{ username: string; password: string }> {
  const tipo = c.req.header('content-type') ?? '';
  let campos: Record<string, unknown>;
  if (/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(tipo)) {
    campos = ((await c.req.json().catch(() => null)) ?? {}) as Record<string, unknown>;
  } else if (/^(application\/x-www-form-urlencoded|multipart\/form-data)\s*(;|$)/i.test(tipo)) {
    campos = await c.req.parseBody();
  } else {
    throw new ApiError(415, 'Envíe username y password como formulario (application/x-www-form-urlencoded).');
  }
  const { username, password } = campos;
  if (typeof username !== 'string' || typeof password !== 'string' || !username.trim() || !password) {
    throw new ValidationError(['Indique username (su NIF) y password.']);
  }
  if (username.length > 254 || password.length > MAX_PASSWORD_LENGTH) throw new ApiError(401, 'Usuario o contraseña incorrecta');
  if (CONTROL_NO_ADMITIDO.test(username) || CONTROL_NO_ADMITIDO.test(password)) throw new ValidationError([MENSAJE_CONTROL]);
  return { username, password };
}

/** The Datadis-compatible sub-app; mounted at the root, before the site (src/server/app.ts). */
export function datadisRoutes() {
  const app = new Hono<AppEnv>();
  app.onError(errorDatadis);
  for (const ruta of [`${PREFIJO_DATADIS}/*`, RUTA_LOGIN_DATADIS]) {
    // The same address check as /api (src/server/http/entrada.ts), and answers no cache keeps.
    app.use(ruta, entradaSinControl());
    app.use(ruta, async (c, next) => {
      await next();
      if (!c.res.headers.has('Cache-Control')) ponerCabecera(c, 'Cache-Control', 'no-store');
    });
  }

  app.post(RUTA_LOGIN_DATADIS, async (c) => {
    const { username, password } = await credenciales(c);
    const deps = c.get('deps');
    const { cuenta, escrituras } = await comprobarCredenciales(deps, infoDe(c), username, password, 'datadis');
    // A session family of its own: listed with the account's sessions, and ended like any other.
    const now = deps.clock.now();
    const familia = familiaDeCanal(deps.db, now, cuenta.id, infoDe(c));
    await enUnaSentencia(deps.db, [...escrituras('datadis'), ...familia.escrituras]);
    const token = await firmarTokenDatadis(deps.config.jwtSecret, now, cuenta.id, familia.familyId);
    return c.text(token, 200, { 'Content-Type': 'text/plain;charset=UTF-8' });
  });
  app.all(RUTA_LOGIN_DATADIS, () => {
    throw new ApiError(405, 'El acceso se pide con POST y un formulario con username y password.', { Allow: 'POST' });
  });

  const api = new Hono<AuthEnv>();
  api.use('*', requireDatadis());

  const suministros = async (c: Context<AuthEnv>) => {
    const q = leer(c, SuministrosQuery);
    const puntos = await puntosDe(c, q);
    await auditar(c, 'get-supplies', {
      suministros: puntos.length,
      ...(q.authorizedNif ? { authorizedNif: normalizarNif(q.authorizedNif) } : {}),
    });
    return puntos.map(suministroDatadis);
  };
  api.get('/get-supplies', async (c) => c.json(await suministros(c)));
  api.get('/get-supplies-v2', async (c) => c.json({ supplies: await suministros(c), distributorError: [] }));

  const contrato = async (c: Context<AuthEnv>) => {
    const q = leer(c, PuntoQuery);
    const { s, titular } = await puntoLegible(c, q, 'contrato');
    await auditar(c, 'get-contract-detail', {}, s);
    return [contratoDatadis(s, titular)];
  };
  api.get('/get-contract-detail', async (c) => c.json(await contrato(c)));
  api.get('/get-contract-detail-v2', async (c) => c.json({ contract: await contrato(c), distributorError: [] }));

  const consumos = async (c: Context<AuthEnv>) => {
    const q = leer(c, ConsumoQuery);
    const cuartos = q.measurementType === '1';
    comprobarMeses(q.startDate, q.endDate, cuartos ? MAX_MESES_CUARTOS : MAX_MESES_HORAS);
    const { s } = await puntoLegible(c, q, 'curvas');
    if (cuartos && s.resolucionMinutos !== 15) {
      throw new ValidationError(['El contador de este suministro no registra cuartos de hora: pida measurementType=0 (horario).']);
    }
    await auditar(c, 'get-consumption-data', { desde: mesTexto(q.startDate), hasta: mesTexto(q.endDate), cuartohoraria: cuartos }, s);
    return consumosDatadis(dbDeLectura(c.get('deps')), s, q.startDate, q.endDate, cuartos);
  };
  api.get('/get-consumption-data', async (c) => c.json(await consumos(c)));
  api.get('/get-consumption-data-v2', async (c) => c.json({ timeCurve: await consumos(c), distributorError: [] }));

  const potencias = async (c: Context<AuthEnv>) => {
    const q = leer(c, PeriodoQuery);
    comprobarMeses(q.startDate, q.endDate, MAX_MESES_HORAS);
    const { s } = await puntoLegible(c, q, 'potencias');
    await auditar(c, 'get-max-power', { desde: mesTexto(q.startDate), hasta: mesTexto(q.endDate) }, s);
    return potenciasDatadis(dbDeLectura(c.get('deps')), s, q.startDate, q.endDate);
  };
  api.get('/get-max-power', async (c) => c.json(await potencias(c)));
  api.get('/get-max-power-v2', async (c) => c.json({ maxPower: await potencias(c), distributorError: [] }));

  // Datadis has this call in its v2 only.
  api.get('/get-reactive-data-v2', async (c) => {
    const q = leer(c, PeriodoQuery);
    comprobarMeses(q.startDate, q.endDate, MAX_MESES_HORAS);
    const { s } = await puntoLegible(c, q, 'curvas');
    await auditar(c, 'get-reactive-data', { desde: mesTexto(q.startDate), hasta: mesTexto(q.endDate) }, s);
    return c.json({ reactiveEnergy: await reactivaDatadis(dbDeLectura(c.get('deps')), s, q.startDate, q.endDate), distributorError: [] });
  });

  const distribuidoras = async (c: Context<AuthEnv>) => {
    const q = leer(c, SuministrosQuery);
    const puntos = await puntosDe(c, { ...q, distributorCode: undefined });
    await auditar(c, 'get-distributors-with-supplies', {});
    return { distributorCodes: [...new Set(puntos.map((s) => CODIGO_DATADIS[s.distribuidora as keyof typeof CODIGO_DATADIS]))].sort() };
  };
  api.get('/get-distributors-with-supplies', async (c) => c.json([await distribuidoras(c)]));
  api.get('/get-distributors-with-supplies-v2', async (c) => c.json({ distExistenceUser: await distribuidoras(c), distributorError: [] }));

  // The authorisations the caller gave as a holder (any state) and those in force it received, the
  // portal's own (docs/decisions/028 and 054); `ownerNif` keeps those of one holder.
  api.get('/list-authorization', async (c) => {
    const q = leer(c, z.object({ ownerNif: texto(20).optional() }));
    const { db, clock } = c.get('deps');
    const nif = c.get('auth').nif;
    const dueno = q.ownerNif ? normalizarNif(q.ownerNif) : null;
    const todas = [...(await autorizacionesDadas(db, nif, clock.now())), ...(await autorizacionesRecibidas(db, nif, clock.now()))];
    const lista = autorizacionesDatadis(todas.filter((a) => !dueno || a.titular.nif === dueno));
    await auditar(c, 'list-authorization', { autorizaciones: lista.length, ...(dueno ? { ownerNif: dueno } : {}) });
    return c.json(lista);
  });

  // Asking a holder for an authorisation, or giving it up, is done in the portal (decision 028): the
  // holder gives it there. These answer so in Spanish, never the home page.
  for (const operacion of ['new-authorization', 'cancel-authorization']) {
    api.all(`/${operacion}`, () => {
      throw new ApiError(
        501,
        'Las autorizaciones las da y las retira el titular en el portal (Mi área › Autorizaciones); esta API solo las lista (list-authorization).',
      );
    });
  }

  // Any other path under the prefix: Datadis's shape of a 404, never the home page.
  api.all('*', () => {
    throw notFound('No existe esa operación de la API compatible con Datadis.');
  });

  app.route(PREFIJO_DATADIS, api);
  return app;
}
