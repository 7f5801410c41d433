import { Writable } from 'node:stream';
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import { requestId } from 'hono/request-id';
import { describe, expect, it } from 'vitest';
import type { AppDeps, AppEnv } from '../../src/server/http/context.ts';
import { ValidationError, conflict, forbidden, handleError, tooManyRequests } from '../../src/server/http/errors.ts';
import { featureApp } from '../../src/server/http/openapi.ts';
import { createLogger } from '../../src/server/logger.ts';

/** A tiny app that goes through the real error pipeline. */
function appWith(lines: string[]) {
  const logger = createLogger(
    'info',
    new Writable({
      write(c: Buffer, _e, done) {
        lines.push(c.toString());
        done();
      },
    }),
  );
  const route = createRoute({
    method: 'post',
    path: '/eco',
    request: {
      body: {
        content: {
          'application/json': {
            schema: z.object({
              correo: z.email({ error: 'El correo electrónico no es válido.' }),
              edad: z.number({ error: 'La edad debe ser un número.' }),
            }),
          },
        },
      },
    },
    responses: { 200: { description: 'ok' } },
  });
  const feature = featureApp().openapi(route, (c) => c.json(c.req.valid('json'), 200));
  const app = new OpenAPIHono<AppEnv>();
  app.use('*', requestId());
  app.use('*', async (c, next) => {
    c.set('log', logger);
    c.set('deps', { logger } as unknown as AppDeps);
    await next();
  });
  app.route('/', feature);
  app.get('/prohibido', () => {
    throw forbidden();
  });
  app.get('/repetido', () => {
    throw conflict('Ya existe un usuario con ese NIF.');
  });
  app.get('/limite', () => {
    throw tooManyRequests(90);
  });
  app.get('/lista', () => {
    throw new ValidationError(['Uno.', 'Dos.']);
  });
  app.get('/roto', () => {
    throw new Error('detalle interno: select * from users');
  });
  app.onError(handleError);
  return app;
}

describe('the API error pipeline', () => {
  it('answers a schema failure with 400 and one Spanish message per field', async () => {
    const res = await appWith([]).request('/eco', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ correo: 'x', edad: 'y' }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual(['El correo electrónico no es válido.', 'La edad debe ser un número.']);
  });

  it('answers malformed JSON with a Spanish 400', async () => {
    const res = await appWith([]).request('/eco', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{roto' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toMatch(/JSON/);
  });

  it('answers a body that is not JSON with a Spanish 415', async () => {
    const res = await appWith([]).request('/eco', { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: 'hola' });
    expect(res.status).toBe(415);
    expect(await res.json()).toEqual({ message: 'El cuerpo de la petición debe enviarse como JSON (Content-Type: application/json).' });
  });

  it('maps domain errors to their status and a {message}', async () => {
    const app = appWith([]);
    expect((await app.request('/prohibido')).status).toBe(403);
    const rep = await app.request('/repetido');
    expect(rep.status).toBe(409);
    expect(await rep.json()).toEqual({ message: 'Ya existe un usuario con ese NIF.' });
    const lim = await app.request('/limite');
    expect(lim.status).toBe(429);
    expect(lim.headers.get('retry-after')).toBe('90');
    expect(await (await app.request('/lista')).json()).toEqual(['Uno.', 'Dos.']);
  });

  it('hides unexpected errors behind a Spanish 500 with the request id, and logs them', async () => {
    const lines: string[] = [];
    const res = await appWith(lines).request('/roto');
    expect(res.status).toBe(500);
    const body = (await res.json()) as { message: string };
    const id = res.headers.get('x-request-id')!;
    expect(body.message).toContain('error inesperado');
    expect(body.message).toContain(id);
    expect(JSON.stringify(body)).not.toContain('select');
    expect(lines.join('')).toContain('select * from users');
    expect(lines.join('')).toContain(id);
  });
});
