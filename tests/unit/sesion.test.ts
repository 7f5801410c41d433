/**
 * The browser session store (src/lib/sesion/gestor.ts) with a fake clock, a fake fetch, an in-memory
 * BroadcastChannel and an in-memory Web Locks: timing of refreshes, logout, and several tabs.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  crearGestorSesion,
  sesionDeRespuesta,
  type CanalSesion,
  type CerrojosSesion,
  type DependenciasSesion,
  type GestorSesion,
  type MensajeCanal,
} from '../../src/lib/sesion/gestor.ts';
import { base64Utf8, cabeceraBasic, decodificarBase64Url, expDeJwt } from '../../src/lib/sesion/codificacion.ts';

const T0 = Date.UTC(2026, 0, 15, 9, 0, 0);

/** An unsigned JWT whose payload carries `exp` (the browser never checks signatures). */
function jwt(payload: Record<string, unknown>): string {
  const b64u = (o: unknown) => base64Utf8(JSON.stringify(o)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  return `${b64u({ alg: 'HS256', typ: 'JWT' })}.${b64u(payload)}.firma`;
}

/** A session answer whose token expires `segundos` after now. */
function respuestaSesion(segundos: number, extra: Record<string, unknown> = {}) {
  const exp = Math.floor(Date.now() / 1000) + segundos;
  return {
    jwtToken: jwt({ sub: 'u1', exp, n: Math.random() }),
    Permisos: ['epd-contacto'],
    username: 'ana@example.com',
    nombre: 'Ana',
    ...extra,
  };
}

const json = (status: number, cuerpo: unknown) =>
  new Response(cuerpo === undefined ? null : JSON.stringify(cuerpo), { status, headers: { 'Content-Type': 'application/json' } });

/** Messages posted on a channel reach every other channel of the same bus, asynchronously like the real one. */
function busCanales() {
  const canales: CanalSesion[] = [];
  return () => {
    const canal: CanalSesion = {
      onmessage: null,
      postMessage(m: MensajeCanal) {
        const copia = structuredClone(m);
        for (const otro of canales) if (otro !== canal) queueMicrotask(() => otro.onmessage?.({ data: copia }));
      },
    };
    canales.push(canal);
    return canal;
  };
}

/** An exclusive lock shared by the "tabs" of a test, granted in request order like navigator.locks. */
function cerrojosCompartidos(): CerrojosSesion {
  let cola: Promise<unknown> = Promise.resolve();
  return {
    request<T>(_nombre: string, fn: () => Promise<T>): Promise<T> {
      const turno = cola.then(() => fn());
      cola = turno.catch(() => undefined);
      return turno;
    },
  };
}

interface Pestana {
  gestor: GestorSesion;
  fetch: ReturnType<typeof vi.fn<typeof fetch>>;
  irA: ReturnType<typeof vi.fn<(url: string) => void>>;
  pista: { valor: string | null };
}

function pestana(
  opciones: {
    fetch?: typeof fetch;
    cerrojos?: CerrojosSesion | null;
    abrirCanal?: () => CanalSesion | null;
    pista?: { valor: string | null };
  } = {},
): Pestana {
  const fetchFalso = vi.fn<typeof fetch>(opciones.fetch ?? (async () => json(401, { message: 'Sin sesión' })));
  const irA = vi.fn<(url: string) => void>();
  const pista = opciones.pista ?? { valor: null };
  const deps: DependenciasSesion = {
    fetch: fetchFalso,
    reloj: {
      ahora: () => Date.now(),
      programar: (fn, ms) => setTimeout(fn, ms),
      cancelar: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
    },
    cerrojos: opciones.cerrojos ?? null,
    abrirCanal: opciones.abrirCanal ?? (() => null),
    pista: { marcar: () => void (pista.valor = '1'), borrar: () => void (pista.valor = null) },
    irA,
  };
  return { gestor: crearGestorSesion(deps), fetch: fetchFalso, irA, pista };
}

const llamadasA = (f: Pestana['fetch'], ruta: string) => f.mock.calls.filter(([url]) => url === ruta);

beforeEach(() => {
  vi.useFakeTimers({ now: T0 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('encodings', () => {
  it('encodes Basic credentials as UTF-8 before base64', () => {
    expect(cabeceraBasic('ana@example.com', 'Abc1')).toBe(`Basic ${btoa('ana@example.com:Abc1')}`);
    const cabecera = cabeceraBasic('ñandú@example.com', 'Contraseña1€');
    const decodificado = new TextDecoder().decode(Uint8Array.from(atob(cabecera.slice(6)), (c) => c.charCodeAt(0)));
    expect(decodificado).toBe('ñandú@example.com:Contraseña1€');
  });

  it('reads exp from a JWT payload in base64url', () => {
    expect(expDeJwt(jwt({ exp: 1_900_000_000, nombre: 'Íñigo ~~~ ???' }))).toBe(1_900_000_000);
  });

  it('returns null for tokens without a numeric exp or that are not JWTs', () => {
    expect(expDeJwt(jwt({ sub: 'x' }))).toBeNull();
    expect(expDeJwt(jwt({ exp: '1900000000' }))).toBeNull();
    expect(expDeJwt('no-es-un-jwt')).toBeNull();
    expect(expDeJwt('a.b+/.c')).toBeNull();
    expect(expDeJwt(`a.${base64Utf8('[1]')}.c`)).toBeNull();
    expect(decodificarBase64Url('%%%')).toBeNull();
  });

  it('builds a session from a login answer and refuses answers without a usable token', () => {
    const r = respuestaSesion(900);
    expect(sesionDeRespuesta(r)).toEqual({ ...r, exp: Math.floor(T0 / 1000) + 900, suplantadoPor: null, datosAutorizados: null });
    expect(sesionDeRespuesta({ ...r, nombre: undefined })?.nombre).toBe('');
    expect(sesionDeRespuesta({ ...r, jwtToken: 'x' })).toBeNull();
    expect(sesionDeRespuesta(null)).toBeNull();
    expect(sesionDeRespuesta([])).toBeNull();
  });
});

describe('login', () => {
  it('sends Basic auth, keeps the session in memory only and marks the header hint', async () => {
    const r = respuestaSesion(900);
    const t = pestana({ fetch: async () => json(200, r) });
    const res = await t.gestor.login('ana@example.com', 'Abc1');
    expect(res.ok).toBe(true);
    const [url, init] = t.fetch.mock.calls[0]!;
    expect(url).toBe('/api/accesoUsuario');
    expect(init?.method).toBe('POST');
    expect(new Headers(init?.headers).get('Authorization')).toBe(cabeceraBasic('ana@example.com', 'Abc1'));
    expect(t.gestor.$session.get()?.jwtToken).toBe(r.jwtToken);
    expect(t.gestor.$permisos.get()).toEqual(['epd-contacto']);
    expect(t.pista.valor).toBe('1');
  });

  it('reports the status and the server message of a refused login', async () => {
    const t = pestana({ fetch: async () => json(429, { message: 'Demasiados intentos. Espere 5 minutos.' }) });
    expect(await t.gestor.login('ana@example.com', 'mal')).toEqual({
      ok: false,
      status: 429,
      mensaje: 'Demasiados intentos. Espere 5 minutos.',
    });
    expect(t.gestor.$session.get()).toBeNull();
    expect(t.pista.valor).toBeNull();
  });

  it('reports status 0 when the portal cannot be reached', async () => {
    const t = pestana({
      fetch: async () => {
        throw new TypeError('Failed to fetch');
      },
    });
    expect(await t.gestor.login('a', 'b')).toEqual({ ok: false, status: 0, mensaje: null });
  });
});

describe('refresh scheduling', () => {
  it('refreshes exactly 60 s before exp', async () => {
    const t = pestana({ fetch: async (url) => json(200, url === '/api/accesoUsuario' ? respuestaSesion(900) : respuestaSesion(900)) });
    await t.gestor.login('ana@example.com', 'Abc1');
    await vi.advanceTimersByTimeAsync(840_000 - 1);
    expect(llamadasA(t.fetch, '/api/users/refresh-token')).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(llamadasA(t.fetch, '/api/users/refresh-token')).toHaveLength(1);
    expect(t.fetch.mock.calls[1]![1]?.credentials).toBe('same-origin');
  });

  it('reschedules from the new token after each refresh', async () => {
    const t = pestana({ fetch: async (url) => json(200, url === '/api/accesoUsuario' ? respuestaSesion(300) : respuestaSesion(600)) });
    await t.gestor.login('ana@example.com', 'Abc1');
    await vi.advanceTimersByTimeAsync(240_000);
    expect(llamadasA(t.fetch, '/api/users/refresh-token')).toHaveLength(1);
    const segundo = t.gestor.$session.get()!;
    expect(segundo.exp).toBe(Math.floor((T0 + 240_000) / 1000) + 600);
    await vi.advanceTimersByTimeAsync(540_000 - 1);
    expect(llamadasA(t.fetch, '/api/users/refresh-token')).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(llamadasA(t.fetch, '/api/users/refresh-token')).toHaveLength(2);
  });

  it('never refreshes in a loop when a token lives less than a minute', async () => {
    const t = pestana({ fetch: async () => json(200, respuestaSesion(30)) });
    await t.gestor.login('ana@example.com', 'Abc1');
    await vi.advanceTimersByTimeAsync(4_999);
    expect(llamadasA(t.fetch, '/api/users/refresh-token')).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(llamadasA(t.fetch, '/api/users/refresh-token')).toHaveLength(1);
  });

  it('ends the session when the refresh answers 401', async () => {
    const t = pestana({
      fetch: async (url) => (url === '/api/accesoUsuario' ? json(200, respuestaSesion(120)) : json(401, { message: 'Sesión caducada' })),
    });
    await t.gestor.login('ana@example.com', 'Abc1');
    expect(t.pista.valor).toBe('1');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(t.gestor.$session.get()).toBeNull();
    expect(t.gestor.$permisos.get()).toEqual([]);
    expect(t.pista.valor).toBeNull();
    // Nothing is scheduled any more.
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(llamadasA(t.fetch, '/api/users/refresh-token')).toHaveLength(1);
    expect(t.irA).not.toHaveBeenCalled();
  });

  it('keeps the session through a network failure while the token lives, and retries', async () => {
    let caido = true;
    const t = pestana({
      fetch: async (url) => {
        if (url === '/api/accesoUsuario') return json(200, respuestaSesion(120));
        if (caido) throw new TypeError('Failed to fetch');
        return json(200, respuestaSesion(900));
      },
    });
    await t.gestor.login('ana@example.com', 'Abc1');
    const primero = t.gestor.$session.get()!.jwtToken;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(t.gestor.$session.get()?.jwtToken).toBe(primero);
    expect(t.pista.valor).toBe('1');
    caido = false;
    await vi.advanceTimersByTimeAsync(15_000);
    expect(llamadasA(t.fetch, '/api/users/refresh-token')).toHaveLength(2);
    expect(t.gestor.$session.get()?.jwtToken).not.toBe(primero);
  });

  it('drops the session from memory once the token expired without a refresh, but keeps the hint', async () => {
    const t = pestana({
      fetch: async (url) => (url === '/api/accesoUsuario' ? json(200, respuestaSesion(65)) : json(503, { message: 'En mantenimiento' })),
    });
    await t.gestor.login('ana@example.com', 'Abc1');
    await vi.advanceTimersByTimeAsync(66_000);
    expect(t.gestor.$session.get()).toBeNull();
    expect(t.pista.valor).toBe('1');
  });
});

describe('startup refresh', () => {
  it('restores the session from the refresh cookie, once per page', async () => {
    const t = pestana({ fetch: async () => json(200, respuestaSesion(900)) });
    const [a, b] = await Promise.all([t.gestor.restaurarSesion(), t.gestor.restaurarSesion()]);
    expect(a).not.toBeNull();
    expect(b).toBe(a);
    expect(await t.gestor.restaurarSesion()).toBe(a);
    expect(llamadasA(t.fetch, '/api/users/refresh-token')).toHaveLength(1);
    expect(t.gestor.$session.get()).toBe(a);
  });

  it('leaves an anonymous visitor anonymous and removes a stale hint', async () => {
    const t = pestana({ pista: { valor: '1' } });
    expect(await t.gestor.restaurarSesion()).toBeNull();
    expect(t.pista.valor).toBeNull();
  });
});

describe('logout', () => {
  it('revokes fire-and-forget, clears the user at once and loads / after 100 ms', async () => {
    let revocar: (r: Response) => void = () => undefined;
    const t = pestana({
      fetch: async (url) =>
        url === '/api/users/revoke-token' ? new Promise<Response>((r) => (revocar = r)) : json(200, respuestaSesion(900)),
    });
    await t.gestor.login('ana@example.com', 'Abc1');
    t.gestor.logout();
    const revoke = llamadasA(t.fetch, '/api/users/revoke-token');
    expect(revoke).toHaveLength(1);
    expect(revoke[0]![1]).toMatchObject({ method: 'POST', credentials: 'same-origin', keepalive: true });
    expect(t.gestor.$session.get()).toBeNull();
    expect(t.pista.valor).toBeNull();
    await vi.advanceTimersByTimeAsync(99);
    expect(t.irA).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(t.irA).toHaveBeenCalledExactlyOnceWith('/');
    revocar(new Response(null, { status: 204 }));
    // The scheduled refresh died with the session.
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(llamadasA(t.fetch, '/api/users/refresh-token')).toHaveLength(0);
  });

  it('does not wait for nor fail on a revoke that cannot reach the server', async () => {
    const t = pestana({
      fetch: async (url) => {
        if (url === '/api/users/revoke-token') throw new TypeError('Failed to fetch');
        return json(200, respuestaSesion(900));
      },
    });
    await t.gestor.login('ana@example.com', 'Abc1');
    expect(() => t.gestor.logout()).not.toThrow();
    await vi.advanceTimersByTimeAsync(100);
    expect(t.irA).toHaveBeenCalledWith('/');
  });
});

describe('several tabs', () => {
  /** A cookie jar as the server sees it: each refresh rotates; presenting an old cookie revokes everything. */
  function servidorConRotacion() {
    let vigente = 1;
    let revocado = false;
    const enviados: number[] = [];
    const atender = async (cookie: number) => {
      enviados.push(cookie);
      if (revocado || cookie !== vigente) {
        revocado = true;
        return json(401, { message: 'Sesión caducada' });
      }
      vigente += 1;
      return json(200, respuestaSesion(900));
    };
    return { atender, enviados, revocado: () => revocado, vigente: () => vigente };
  }

  it('serialise their startup refreshes so none presents a rotated cookie', async () => {
    const servidor = servidorConRotacion();
    // The browser's cookie jar is shared by the tabs: each request carries the cookie current when it is sent.
    const fetchCompartido: typeof fetch = async () => servidor.atender(servidor.vigente());
    const cerrojos = cerrojosCompartidos();
    const canal = busCanales();
    const a = pestana({ fetch: fetchCompartido, cerrojos, abrirCanal: canal });
    const b = pestana({ fetch: fetchCompartido, cerrojos, abrirCanal: canal });
    const [sa, sb] = await Promise.all([a.gestor.restaurarSesion(), b.gestor.restaurarSesion()]);
    expect(sa).not.toBeNull();
    expect(sb).not.toBeNull();
    expect(servidor.revocado()).toBe(false);
  });

  it('adopt the session another tab refreshed instead of refreshing themselves', async () => {
    const cerrojos = cerrojosCompartidos();
    const canal = busCanales();
    let dentro = false;
    const respuesta: typeof fetch = async (url) =>
      dentro || url === '/api/accesoUsuario' ? json(200, respuestaSesion(300)) : json(401, {});
    const a = pestana({ fetch: respuesta, cerrojos, abrirCanal: canal });
    const b = pestana({ fetch: respuesta, cerrojos, abrirCanal: canal });
    // B was open, anonymous, before A logged in.
    expect(await b.gestor.restaurarSesion()).toBeNull();
    await a.gestor.login('ana@example.com', 'Abc1');
    dentro = true;
    await vi.advanceTimersByTimeAsync(0);
    // B took the session A logged in with.
    expect(b.gestor.$session.get()?.jwtToken).toBe(a.gestor.$session.get()?.jwtToken);
    // Both schedule the same refresh; only one tab calls the server, the other adopts.
    const refrescos = () => llamadasA(a.fetch, '/api/users/refresh-token').length + llamadasA(b.fetch, '/api/users/refresh-token').length;
    const antes = refrescos();
    await vi.advanceTimersByTimeAsync(240_000);
    expect(refrescos() - antes).toBe(1);
    expect(b.gestor.$session.get()?.jwtToken).toBe(a.gestor.$session.get()?.jwtToken);
    expect(b.gestor.$session.get()!.exp).toBe(Math.floor((T0 + 240_000) / 1000) + 300);
  });

  it('a tab waiting for the lock does not refresh again when another tab just did', async () => {
    const cerrojos = cerrojosCompartidos();
    const canal = busCanales();
    let soltar: () => void = () => undefined;
    const lento = async () => {
      await new Promise<void>((r) => (soltar = r));
      return json(200, respuestaSesion(900));
    };
    const a = pestana({ fetch: lento, cerrojos, abrirCanal: canal });
    const b = pestana({ fetch: async () => json(200, respuestaSesion(900)), cerrojos, abrirCanal: canal });
    const pa = a.gestor.refresh();
    const pb = b.gestor.refresh();
    await vi.advanceTimersByTimeAsync(0);
    soltar();
    const [sa, sb] = await Promise.all([pa, pb]);
    expect(sb?.jwtToken).toBe(sa?.jwtToken);
    expect(llamadasA(b.fetch, '/api/users/refresh-token')).toHaveLength(0);
  });

  it('a logout in one tab logs out the others that had a session', async () => {
    const canal = busCanales();
    const respuesta = async () => json(200, respuestaSesion(900));
    const a = pestana({ fetch: respuesta, abrirCanal: canal });
    const b = pestana({ fetch: respuesta, abrirCanal: canal });
    await a.gestor.login('ana@example.com', 'Abc1');
    await b.gestor.restaurarSesion();
    await vi.advanceTimersByTimeAsync(0);
    a.gestor.logout();
    await vi.advanceTimersByTimeAsync(0);
    expect(b.gestor.$session.get()).toBeNull();
    await vi.advanceTimersByTimeAsync(100);
    expect(b.irA).toHaveBeenCalledWith('/');
    expect(a.irA).toHaveBeenCalledWith('/');
  });

  it("a tab that showed nothing private is not navigated away by another tab's logout", async () => {
    const canal = busCanales();
    const anonima = pestana({ abrirCanal: canal });
    expect(await anonima.gestor.restaurarSesion()).toBeNull();
    canal().postMessage({ tipo: 'cierre' });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(anonima.irA).not.toHaveBeenCalled();
  });

  it('ignores foreign messages on the channel', async () => {
    const canal = busCanales();
    const b = pestana({ fetch: async () => json(200, respuestaSesion(900)), abrirCanal: canal });
    await b.gestor.restaurarSesion();
    const intruso = canal();
    intruso.postMessage({ tipo: 'sesion', sesion: { jwtToken: 'falso' } } as unknown as MensajeCanal);
    intruso.postMessage({ tipo: 'otra-cosa' } as unknown as MensajeCanal);
    await vi.advanceTimersByTimeAsync(0);
    expect(b.gestor.$session.get()).not.toBeNull();
  });

  it('without Web Locks one tab still makes a single call for concurrent refreshes', async () => {
    const t = pestana({ fetch: async () => json(200, respuestaSesion(900)), cerrojos: null });
    const [x, y] = await Promise.all([t.gestor.refresh(), t.gestor.refresh()]);
    expect(x).toBe(y);
    expect(llamadasA(t.fetch, '/api/users/refresh-token')).toHaveLength(1);
  });
});

describe('impersonation', () => {
  const admin = { username: 'admin@example.com', nombre: 'Ana Gestora' };

  it('reads suplantadoPor from the answer, and null when absent or malformed', () => {
    expect(sesionDeRespuesta(respuestaSesion(900, { suplantadoPor: admin }))?.suplantadoPor).toEqual(admin);
    expect(sesionDeRespuesta(respuestaSesion(900, { suplantadoPor: null }))?.suplantadoPor).toBeNull();
    expect(sesionDeRespuesta(respuestaSesion(900, { suplantadoPor: { nombre: 'sin correo' } }))?.suplantadoPor).toBeNull();
    expect(sesionDeRespuesta(respuestaSesion(900, { suplantadoPor: 'admin' }))?.suplantadoPor).toBeNull();
  });

  it('starts with the bearer token and the user name, and adopts the answer as the session', async () => {
    const comoAdmin = respuestaSesion(900, { username: 'admin@example.com', Permisos: ['epd-administrador'] });
    const comoOtro = respuestaSesion(900, { username: 'luis@example.com', Permisos: ['epd-contacto'], suplantadoPor: admin });
    const t = pestana({ fetch: async (url) => json(200, url === '/api/accesoUsuario' ? comoAdmin : comoOtro) });
    await t.gestor.login('admin@example.com', 'Abc1');
    const r = await t.gestor.iniciarSuplantacion('luis@example.com');
    expect(r.ok).toBe(true);
    const [url, init] = llamadasA(t.fetch, '/api/accesoUsuarioSuplantacion')[0]!;
    expect(url).toBe('/api/accesoUsuarioSuplantacion');
    expect(init?.method).toBe('POST');
    expect(init?.credentials).toBe('same-origin');
    expect(new Headers(init?.headers).get('Authorization')).toBe(`Bearer ${comoAdmin.jwtToken}`);
    expect(JSON.parse(String(init?.body))).toEqual({ username: 'luis@example.com' });
    expect(t.gestor.$session.get()).toMatchObject({ username: 'luis@example.com', jwtToken: comoOtro.jwtToken, suplantadoPor: admin });
    expect(t.gestor.$permisos.get()).toEqual(['epd-contacto']);
  });

  it('reports the status and message of a refused impersonation and keeps the administrator session', async () => {
    const comoAdmin = respuestaSesion(900, { username: 'admin@example.com' });
    const t = pestana({
      fetch: async (url) =>
        url === '/api/accesoUsuario' ? json(200, comoAdmin) : json(404, { message: 'No existe ningún usuario con ese correo.' }),
    });
    await t.gestor.login('admin@example.com', 'Abc1');
    expect(await t.gestor.iniciarSuplantacion('nadie@example.com')).toEqual({
      ok: false,
      status: 404,
      mensaje: 'No existe ningún usuario con ese correo.',
    });
    expect(t.gestor.$session.get()?.jwtToken).toBe(comoAdmin.jwtToken);
  });

  it('does not call the server without a session', async () => {
    const t = pestana();
    expect(await t.gestor.iniciarSuplantacion('luis@example.com')).toMatchObject({ ok: false, status: 401 });
    expect(t.fetch).not.toHaveBeenCalled();
  });

  it('reports status 0 when the portal cannot be reached', async () => {
    const t = pestana({
      fetch: async (url) => {
        if (url === '/api/accesoUsuario') return json(200, respuestaSesion(900));
        throw new TypeError('Failed to fetch');
      },
    });
    await t.gestor.login('admin@example.com', 'Abc1');
    expect(await t.gestor.iniciarSuplantacion('luis@example.com')).toEqual({ ok: false, status: 0, mensaje: null });
  });

  it('tells the other tabs about the impersonated session', async () => {
    const canal = busCanales();
    const comoOtro = respuestaSesion(900, { username: 'luis@example.com', suplantadoPor: admin });
    const a = pestana({
      fetch: async (url) => json(200, url === '/api/accesoUsuario' ? respuestaSesion(900) : comoOtro),
      abrirCanal: canal,
    });
    const b = pestana({ fetch: async () => json(200, respuestaSesion(900)), abrirCanal: canal });
    await b.gestor.restaurarSesion();
    await a.gestor.login('admin@example.com', 'Abc1');
    await a.gestor.iniciarSuplantacion('luis@example.com');
    await vi.advanceTimersByTimeAsync(0);
    expect(b.gestor.$session.get()).toMatchObject({ jwtToken: comoOtro.jwtToken, suplantadoPor: admin });
  });

  it('ends with the refresh cookie and adopts the administrator session', async () => {
    const comoOtro = respuestaSesion(900, { username: 'luis@example.com', suplantadoPor: admin });
    const deVuelta = respuestaSesion(900, { username: 'admin@example.com', suplantadoPor: null });
    const t = pestana({ fetch: async (url) => json(200, url === '/api/users/fin-suplantacion' ? deVuelta : comoOtro) });
    await t.gestor.restaurarSesion();
    expect(t.gestor.$session.get()?.suplantadoPor).toEqual(admin);
    const r = await t.gestor.terminarSuplantacion();
    expect(r.ok).toBe(true);
    const [, init] = llamadasA(t.fetch, '/api/users/fin-suplantacion')[0]!;
    expect(init).toMatchObject({ method: 'POST', credentials: 'same-origin' });
    expect(new Headers(init?.headers).has('Authorization')).toBe(false);
    expect(t.gestor.$session.get()).toMatchObject({ username: 'admin@example.com', suplantadoPor: null, jwtToken: deVuelta.jwtToken });
  });

  it('keeps the impersonated session when the return is refused', async () => {
    const comoOtro = respuestaSesion(900, { suplantadoPor: admin });
    const t = pestana({
      fetch: async (url) => (url === '/api/users/fin-suplantacion' ? json(401, { message: 'Sesión caducada' }) : json(200, comoOtro)),
    });
    await t.gestor.restaurarSesion();
    expect(await t.gestor.terminarSuplantacion()).toEqual({ ok: false, status: 401, mensaje: 'Sesión caducada' });
    expect(t.gestor.$session.get()?.jwtToken).toBe(comoOtro.jwtToken);
  });
});
