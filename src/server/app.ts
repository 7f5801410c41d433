/**
 * The app factory: `createApp(deps)` builds the whole HTTP surface from its dependencies, so tests
 * pass an in-memory database and a capturing mailer, and production passes the real ones.
 */
import { accesoyconexionAdminRoutes } from './accesoyconexion/admin.ts';
import { accesoyconexionRoutes } from './accesoyconexion/routes.ts';
import { contactoAdminRoutes } from './contacto/admin.ts';
import { contactoRoutes } from './contacto/routes.ts';
import { datadisRoutes } from './datadis/routes.ts';
import { OpenAPIHono } from '@hono/zod-openapi';
// Spanish messages for every schema check without its own (zod's global configuration).
import '../lib/validacion/mensajes-zod.ts';
import type { AppDeps, AppEnv } from './http/context.ts';
import { compresion } from './http/compresion.ts';
import { limiteCuerpos } from './http/cuerpo.ts';
import { entradaSinControl } from './http/entrada.ts';
import { handleError } from './http/errors.ts';
import { requestIdMiddleware, requestLog } from './http/logging.ts';
import { ponerCabecera, securityHeaders } from './http/security.ts';
import { administracionRoutes } from './administracion/routes.ts';
import { auditoriaRoutes } from './auditoria/routes.ts';
import { autorizacionesRoutes } from './autorizaciones/routes.ts';
import { averiasRoutes } from './averias/routes.ts';
import { avisosCorteRoutes } from './avisos-corte/routes.ts';
import { authRoutes } from './auth/routes.ts';
import { capacidadNodalRoutes } from './capacidad-nodal/routes.ts';
import { certificadosRoutes } from './certificados/routes.ts';
import { distribuidorasRoutes } from './distribuidoras/routes.ts';
import { documentosRoutes } from './documentos/routes.ts';
import { healthRoutes } from './health/routes.ts';
import { incidenciasAdminRoutes } from './incidencias/admin.ts';
import { incidenciasRoutes } from './incidencias/routes.ts';
import { inicioRoutes } from './inicio/routes.ts';
import { renderApiDocs, type OpenApiDoc } from './openapi/render.ts';
import { lecturasRoutes } from './lecturas/routes.ts';
import { medidasRoutes } from './medidas/routes.ts';
import { modificacionesAdminRoutes } from './modificaciones/admin.ts';
import { modificacionesRoutes } from './modificaciones/routes.ts';
import { perfilRoutes } from './perfil/routes.ts';
import { sipsAdminRoutes } from './sips/admin.ts';
import { sipsRoutes } from './sips/routes.ts';
import { intercambioRoutes } from './intercambio/routes.ts';
import { atrAdminRoutes } from './atr/admin.ts';
import { atrRoutes } from './atr/routes.ts';
import { siteRoutes } from './site/routes.ts';
import { suministrosRoutes } from './suministros/routes.ts';
import type { SiteIndex } from './site/static-files.ts';

/** The OpenAPI document's header. */
const API_INFO = {
  title: 'Portal de las distribuidoras de Grupo Electra Distribución',
  version: '1.0.0',
  description:
    'API del portal. Salvo las operaciones públicas, todas exigen Authorization: Bearer <jwtToken>. Los errores de validación responden 400 con una lista de mensajes en español; el resto, un objeto {message}.',
};

/** Builds the API: every feature mounted under /api, documented in OpenAPI. */
export function createApi() {
  // One sub-app per feature (src/server/<feature>/routes.ts).
  const api = new OpenAPIHono<AppEnv>()
    .route('/', healthRoutes())
    .route('/', authRoutes())
    .route('/', distribuidorasRoutes())
    .route('/', incidenciasRoutes())
    .route('/', perfilRoutes())
    .route('/', administracionRoutes())
    .route('/', incidenciasAdminRoutes())
    .route('/', auditoriaRoutes())
    .route('/', suministrosRoutes())
    .route('/', medidasRoutes())
    .route('/', capacidadNodalRoutes())
    .route('/', certificadosRoutes())
    .route('/', modificacionesRoutes())
    .route('/', modificacionesAdminRoutes())
    .route('/', lecturasRoutes())
    .route('/', sipsRoutes())
    .route('/', sipsAdminRoutes())
    .route('/', documentosRoutes())
    .route('/', accesoyconexionRoutes())
    .route('/', accesoyconexionAdminRoutes())
    .route('/', contactoRoutes())
    .route('/', contactoAdminRoutes())
    .route('/', intercambioRoutes())
    .route('/', atrRoutes())
    .route('/', atrAdminRoutes())
    .route('/', averiasRoutes())
    .route('/', inicioRoutes())
    .route('/', avisosCorteRoutes())
    .route('/', autorizacionesRoutes());

  api.openAPIRegistry.registerComponent('securitySchemes', 'Bearer', { type: 'http', scheme: 'bearer' });
  let cachedDoc: OpenApiDoc | undefined;
  const document = (): OpenApiDoc =>
    (cachedDoc ??= api.getOpenAPI31Document({
      openapi: '3.1.0',
      info: API_INFO,
      servers: [{ url: '/api' }],
    }) as unknown as OpenApiDoc);
  api.get('/openapi.json', (c) => c.json(document()));
  api.get('/docs', (c) => c.html(renderApiDocs(document())));
  // An unknown API path is an API error, never the home page.
  api.all('*', (c) => c.json({ message: 'No existe esa operación de la API.' }, 404));
  return api;
}

/** Builds the whole server: middleware, API under /api, and the site when one is given. */
export function createApp(deps: AppDeps, site?: SiteIndex) {
  const app = new OpenAPIHono<AppEnv>();
  app.use('*', requestIdMiddleware());
  app.use('*', async (c, next) => {
    c.set('deps', deps);
    await next();
  });
  app.use('*', requestLog());
  const hashes = site?.scriptHashes ?? [];
  app.use(
    '*',
    securityHeaders(() => hashes),
  );
  app.use('*', compresion());
  // Before any route reads a body: one limit for every route (src/server/http/cuerpo.ts).
  app.use('*', limiteCuerpos());
  // Control characters in an API address: 400 before any route (src/server/http/entrada.ts). Pages
  // keep docs/producto.md's rule: any other path shows the home page.
  app.use('/api/*', entradaSinControl());
  app.use('/api/*', async (c, next) => {
    await next();
    // API answers are personal or live: never stored by shared caches unless a route says otherwise.
    if (!c.res.headers.has('Cache-Control')) ponerCabecera(c, 'Cache-Control', 'no-store');
  });
  app.route('/api', createApi());
  // Datadis's private API at its own paths (docs/decisions/044), before the site, which would show them the home page.
  app.route('/', datadisRoutes());
  if (site) app.route('/', siteRoutes(site));
  app.onError(handleError);
  app.notFound((c) => c.json({ message: 'No encontrado.' }, 404));
  return app;
}
