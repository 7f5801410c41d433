/** The API client (src/lib/api/cliente.ts): headers of docs/producto.md §7 and error handling of docs/producto.md §8. */
import { describe, expect, it, vi } from 'vitest';
import { crearApiFetch, mensajeDeError, mensajesDeError, rutaApi, seIntercepta, MENSAJE_SIN_CONEXION } from '../../src/lib/api/cliente.ts';

function cliente(respuesta: Response | (() => Promise<Response>), token: string | null = 'tok.en.x') {
  const fetch = vi.fn<typeof globalThis.fetch>(typeof respuesta === 'function' ? respuesta : async () => respuesta);
  const cerrarSesion = vi.fn();
  const apiFetch = crearApiFetch({ fetch, token: () => token, cerrarSesion });
  const cabeceras = () => new Headers(fetch.mock.calls[0]![1]?.headers);
  return { apiFetch, fetch, cerrarSesion, cabeceras };
}

const json = (status: number, cuerpo: unknown, statusText = '') =>
  new Response(JSON.stringify(cuerpo), { status, statusText, headers: { 'Content-Type': 'application/json; charset=utf-8' } });

describe('paths', () => {
  it('prefixes /api/ to a bare endpoint name and keeps full API paths', () => {
    expect(rutaApi('altaUsuario')).toBe('/api/altaUsuario');
    expect(rutaApi('/api/users/refresh-token')).toBe('/api/users/refresh-token');
  });

  it.each([
    ['/api/capacidadNodal/epd', false],
    ['capacidadNodal', false],
    ['/api/distribuidoras', false],
    ['/api/distribuidoras?x=1', false],
    ['/api/distribuidorasExtra', true],
    ['/api/listadoUsuarios', true],
  ])('intercepts %s: %s (it leaves out capacidadNodal and distribuidoras only)', (ruta, intercepta) => {
    expect(seIntercepta(ruta)).toBe(intercepta);
  });
});

describe('headers (docs/producto.md §7)', () => {
  it('adds the bearer token and the no-cache headers while logged in', async () => {
    const c = cliente(json(200, []));
    await c.apiFetch('listadoUsuarios');
    expect(c.fetch.mock.calls[0]![0]).toBe('/api/listadoUsuarios');
    expect(c.cabeceras().get('Authorization')).toBe('Bearer tok.en.x');
    expect(c.cabeceras().get('Cache-Control')).toBe('no-cache');
    expect(c.cabeceras().get('Pragma')).toBe('no-cache');
  });

  it('adds none of them to capacidadNodal and distribuidoras', async () => {
    for (const path of ['/api/capacidadNodal/eod', '/api/distribuidoras']) {
      const c = cliente(json(200, []));
      await c.apiFetch(path);
      expect(c.cabeceras().get('Authorization')).toBeNull();
      expect(c.cabeceras().get('Cache-Control')).toBeNull();
      expect(c.cabeceras().get('Pragma')).toBeNull();
    }
  });

  it('adds no Authorization header without a session', async () => {
    const c = cliente(json(200, {}), null);
    await c.apiFetch('recuperarClave', { method: 'POST', json: { nif: 'X' } });
    expect(c.cabeceras().get('Authorization')).toBeNull();
  });

  it('sends a json body with its content type and keeps caller headers', async () => {
    const c = cliente(json(200, { ok: 1 }));
    const r = await c.apiFetch<{ ok: number }>('altaUsuario', { method: 'POST', json: { a: 'ñ' }, headers: { 'X-Prueba': '1' } });
    expect(r).toEqual({ ok: true, status: 200, datos: { ok: 1 } });
    const init = c.fetch.mock.calls[0]![1]!;
    expect(init.method).toBe('POST');
    expect(init.body).toBe('{"a":"ñ"}');
    expect(init.credentials).toBe('same-origin');
    expect(c.cabeceras().get('Content-Type')).toBe('application/json');
    expect(c.cabeceras().get('X-Prueba')).toBe('1');
  });
});

describe('errors (docs/producto.md §8)', () => {
  it('logs out on a 401 or a 403 while logged in', async () => {
    for (const status of [401, 403]) {
      const c = cliente(json(status, { message: 'No autorizado' }));
      const r = await c.apiFetch('listadoUsuarios');
      expect(r).toEqual({ ok: false, status, error: { status, mensaje: 'No autorizado', delServidor: true } });
      expect(c.cerrarSesion).toHaveBeenCalledOnce();
    }
  });

  it('does not log out the current session for the 401 of a call made under a session since replaced', async () => {
    let token = 'suplantada';
    let responder!: (r: Response) => void;
    const fetch = vi.fn<typeof globalThis.fetch>(() => new Promise<Response>((r) => (responder = r)));
    const cerrarSesion = vi.fn();
    const apiFetch = crearApiFetch({ fetch, token: () => token, cerrarSesion });
    const enCurso = apiFetch('inicio/resumen');
    // The administrator goes back to their own session while the call is in flight.
    token = 'administrador';
    responder(json(401, { message: 'Su sesión ya no es válida.' }));
    expect((await enCurso).status).toBe(401);
    expect(cerrarSesion).not.toHaveBeenCalled();
  });

  it('does not log out an anonymous visitor on a 401', async () => {
    const c = cliente(json(401, { message: 'Inicie sesión' }), null);
    await c.apiFetch('listadoUsuarios');
    expect(c.cerrarSesion).not.toHaveBeenCalled();
  });

  it('does not log out on other errors', async () => {
    const c = cliente(json(404, { message: 'No existe' }));
    await c.apiFetch('x');
    expect(c.cerrarSesion).not.toHaveBeenCalled();
  });

  it('takes the message from the body, else the status text', async () => {
    expect((await cliente(json(409, { message: 'El correo ya está registrado.' })).apiFetch('altaUsuario')).ok).toBe(false);
    const r = await cliente(json(409, { message: 'El correo ya está registrado.' })).apiFetch('altaUsuario');
    expect(!r.ok && r.error).toEqual({ status: 409, mensaje: 'El correo ya está registrado.', delServidor: true });
    const sinMensaje = await cliente(new Response(null, { status: 404, statusText: 'Not Found' })).apiFetch('x');
    expect(!sinMensaje.ok && sinMensaje.error).toEqual({ status: 404, mensaje: 'Not Found', delServidor: false });
  });

  it('passes the whole body on for a 400 (an array of messages) and a 500', async () => {
    const lista = ['Introduzca el nombre.', 'El NIF, NIE o CIF no es válido.'];
    const r = await cliente(json(400, lista)).apiFetch('altaUsuario');
    expect(!r.ok && r.error.cuerpo).toEqual(lista);
    expect(!r.ok && mensajesDeError(r.error)).toEqual(lista);
    const r500 = await cliente(json(500, { message: 'Error interno', requestId: 'abc' })).apiFetch('x');
    expect(!r500.ok && r500.error).toEqual({
      status: 500,
      mensaje: 'Error interno',
      cuerpo: { message: 'Error interno', requestId: 'abc' },
      delServidor: true,
    });
    expect(!r500.ok && mensajesDeError(r500.error)).toEqual(['Error interno']);
  });

  it('reads a plain-text error body', async () => {
    const r = await cliente(new Response('El enlace ha caducado.', { status: 400, headers: { 'Content-Type': 'text/plain' } })).apiFetch(
      'activarUsuario',
    );
    expect(!r.ok && r.error).toEqual({
      status: 400,
      mensaje: 'El enlace ha caducado.',
      cuerpo: 'El enlace ha caducado.',
      delServidor: true,
    });
  });

  it('answers status 0 with a Spanish sentence when the portal cannot be reached', async () => {
    const r = await cliente(async () => {
      throw new TypeError('Failed to fetch');
    }).apiFetch('x');
    expect(r).toEqual({ ok: false, status: 0, error: { status: 0, mensaje: MENSAJE_SIN_CONEXION, delServidor: false } });
  });

  it('reads an empty 200 and a 204 as null data', async () => {
    expect(await cliente(new Response(null, { status: 204 })).apiFetch('x')).toEqual({ ok: true, status: 204, datos: null });
    expect(await cliente(new Response('', { status: 200 })).apiFetch('x')).toEqual({ ok: true, status: 200, datos: null });
  });

  it('mensajeDeError prefers message, then text, then status text', () => {
    expect(mensajeDeError(429, 'Too Many Requests', { message: 'Espere un minuto.' })).toBe('Espere un minuto.');
    expect(mensajeDeError(429, 'Too Many Requests', { message: '' })).toBe('Too Many Requests');
    expect(mensajeDeError(400, '', ['a', 'b'])).toBe('a b');
    expect(mensajeDeError(502, '', null)).toBe('Error 502');
  });
});
