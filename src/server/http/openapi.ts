/** Helpers so every feature builds its sub-app the same way. */
import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from './context.ts';
import { validationHook } from './errors.ts';

/** A sub-app whose routes join the OpenAPI description; schema failures go to the error pipeline. */
export function featureApp(): OpenAPIHono<AppEnv> {
  return new OpenAPIHono<AppEnv>({ defaultHook: (result) => validationHook(result) });
}

/** The body of every non-validation error. */
export const ErrorSchema = z
  .object({
    message: z.string().openapi({
      example: 'No tiene permiso para realizar esta operación.',
      description: 'Qué ha fallado y, si procede, qué hacer, en español: se puede mostrar tal cual a la persona usuaria.',
    }),
  })
  .openapi('Error');

/** The body of a 400: one Spanish message per failed rule. */
export const ValidationErrorSchema = z.array(z.string()).openapi('ErroresValidacion', {
  example: ['El correo electrónico no es válido.'],
  description: 'Un mensaje en español por cada regla de validación incumplida.',
});

/** Response entry for an error status, for route definitions. */
export const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: ErrorSchema } },
});

/** Response entry of a JSON answer, for route definitions. */
/** The OpenAPI tag and security of every staff operation. */
export const baseAdministracion = { tags: ['Administración'], security: [{ Bearer: [] }] };

/** The 401 and 403 of a staff operation; `falta` names what a 403 lacks («el permiso de administración de esa distribuidora»). */
export const respuestasAdministracion = (falta: string) => ({
  401: errorResponse('Sin sesión'),
  403: errorResponse(`Sin ${falta}, o sesión suplantada`),
});

/** Response entry of a PDF to download. */
export const pdfResponse = { description: 'El PDF', content: { 'application/pdf': { schema: z.string().openapi({ format: 'binary' }) } } };

export const jsonResponse = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

/** Response entry of a 400 that lists the failed rules. */
export const validationResponse = (description: string) => jsonResponse(ValidationErrorSchema, description);

/** Response entry of one page of a paginated list: the JSON array, and the total in `X-Total-Count`. */
export const pageResponse = <T extends z.ZodType>(schema: T, description: string, total: string) => ({
  ...jsonResponse(z.array(schema), description),
  headers: { 'X-Total-Count': { description: total, schema: { type: 'integer' as const } } },
});

/** The `{id}` path parameter of a route on one row named by its UUID. */
export const uuidParams = (description: string) =>
  z.object({
    id: z.string().openapi({ param: { name: 'id', in: 'path' }, example: '0b9f5c1e-6c1a-4c55-9d8e-2f1f6a0c3d21', description }),
  });

/** The `request` part of a route that takes a JSON body (the body is required). */
export const jsonBody = <T extends z.ZodType>(schema: T) => ({
  body: { required: true, content: { 'application/json': { schema } } },
});

/** The page fields of a paginated list's query: `pagina` from 1, `porPagina` 1–100 (25 by default). */
export const paginacionQuery = {
  pagina: z.coerce
    .number({ error: 'La página debe ser un número.' })
    .int()
    .min(1, 'La página empieza en 1.')
    .default(1)
    .openapi({ param: { description: 'Número de página que se pide, empezando por 1 (1 si se omite).' } }),
  porPagina: z.coerce
    .number({ error: 'porPagina debe ser un número.' })
    .int()
    .min(1, 'porPagina debe ser al menos 1.')
    .max(100, 'porPagina no puede superar 100.')
    .default(25)
    .openapi({ param: { description: 'Elementos por página, de 1 a 100 (25 si se omite).' } }),
};
