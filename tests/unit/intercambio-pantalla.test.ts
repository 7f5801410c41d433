/**
 * The FTP screen's rules (src/lib/intercambio/pantalla.ts): the login's validity, sizes and dates,
 * the breadcrumb, what each folder allows, new names, move destinations, progress, and the API
 * client's handling of its own token (kept, sent, dropped on a 401; the portal's session untouched).
 */
import { describe, expect, it } from 'vitest';
import {
  borrarToken,
  CLAVE_TOKEN_FTP,
  CLAVE_USUARIO_FTP,
  crearClienteFtp,
  descripcionCarpeta,
  destinosMover,
  errorAntesDeSubir,
  errorCampoLogin,
  errorNuevoNombre,
  esCorreoValido,
  fechaHoraFtp,
  loginFtpValido,
  MAX_SUBIDA_BYTES,
  MENSAJE_SESION_FTP_TERMINADA,
  migasDe,
  motivoSinCarpeta,
  motivoSinSubida,
  porcentaje,
  reemplazaria,
  resultadoSubida,
  rutaMovida,
  rutaRenombrada,
  seleccionInicial,
  seProcesaAlSubir,
  tamanoFtp,
  textoProgreso,
  tokenGuardado,
  urlBorrar,
  urlFichero,
  urlListado,
  type AlmacenToken,
  type ElementoFtp,
} from '../../src/lib/intercambio/pantalla.ts';
import { MENSAJES_RUTA } from '../../src/lib/intercambio/rutas.ts';

const elemento = (id: string, extra: Partial<ElementoFtp> = {}): ElementoFtp => {
  const i = id.lastIndexOf('/');
  return {
    id,
    name: id.slice(i + 1),
    isFolder: false,
    parent: i <= 0 ? '/' : id.slice(0, i),
    size: 10,
    modified: '2026-03-01T10:00:00Z',
    fixed: false,
    fromDistributor: false,
    ...extra,
  };
};

/** A sessionStorage stand-in. */
function memoria(inicial: Record<string, string> = {}): AlmacenToken & { datos: Map<string, string> } {
  const datos = new Map(Object.entries(inicial));
  return {
    datos,
    getItem: (k) => datos.get(k) ?? null,
    setItem: (k, v) => void datos.set(k, v),
    removeItem: (k) => void datos.delete(k),
  };
}

/** A fetch that records its calls and answers from a list. */
function fetchFalso(respuestas: (Response | Error)[]) {
  const llamadas: { url: string; init: RequestInit }[] = [];
  const f = (async (url: string, init: RequestInit) => {
    llamadas.push({ url, init });
    const r = respuestas.shift();
    if (!r) throw new Error('sin respuesta preparada');
    if (r instanceof Error) throw r;
    return r;
  }) as unknown as typeof fetch;
  return { f, llamadas };
}

const json = (status: number, cuerpo: unknown) =>
  new Response(JSON.stringify(cuerpo), { status, headers: { 'Content-Type': 'application/json' } });

describe('the FTP login', () => {
  it('needs an e-mail of the usual shape and a password that is not empty', () => {
    expect(esCorreoValido('comercializadora@electra.example')).toBe(true);
    expect(esCorreoValido('  a@b.es ')).toBe(true);
    for (const malo of ['', 'a', 'a@', '@b.es', 'a@b', 'a b@c.es', 'a@b.', 'a@@b.es']) expect(esCorreoValido(malo), malo).toBe(false);
    expect(loginFtpValido('a@b.es', 'x')).toBe(true);
    expect(loginFtpValido('a@b.es', '')).toBe(false);
    expect(loginFtpValido('a@b', 'x')).toBe(false);
  });

  it('says what is wrong with each field', () => {
    expect(errorCampoLogin('email', '')).toBe('Introduzca su correo electrónico.');
    expect(errorCampoLogin('email', 'nombre')).toMatch(/^Escriba un correo electrónico válido/);
    expect(errorCampoLogin('email', 'a@b.es')).toBeNull();
    expect(errorCampoLogin('password', '')).toBe('Introduzca su contraseña.');
    expect(errorCampoLogin('password', ' ')).toBeNull();
  });
});

describe('how the listing writes things', () => {
  it('writes sizes in bytes, KB, MB and GB with a decimal comma', () => {
    expect(tamanoFtp(0)).toBe('0 bytes');
    expect(tamanoFtp(1)).toBe('1 byte');
    expect(tamanoFtp(1023)).toBe('1.023 bytes');
    expect(tamanoFtp(1024)).toBe('1 KB');
    expect(tamanoFtp(12_800)).toBe('12,5 KB');
    expect(tamanoFtp(3.4 * 1024 * 1024)).toBe('3,4 MB');
    expect(tamanoFtp(MAX_SUBIDA_BYTES)).toBe('200 MB');
    expect(tamanoFtp(1.25 * 1024 ** 3)).toBe('1,25 GB');
  });

  it('writes dates as dd/mm/aaaa hh:mm in peninsular time, and nothing for the fixed folders', () => {
    expect(fechaHoraFtp('2026-03-01T10:05:00Z')).toBe('01/03/2026 11:05');
    expect(fechaHoraFtp('2026-07-31T22:30:00Z')).toBe('01/08/2026 00:30');
    expect(fechaHoraFtp('1970-01-01T00:00:00.000Z')).toBe('—');
    expect(fechaHoraFtp('no es una fecha')).toBe('—');
  });

  it('builds the breadcrumb from the top', () => {
    expect(migasDe('/')).toEqual([{ texto: 'Mis carpetas', ruta: '/' }]);
    expect(migasDe('/epd/entrada/lotes')).toEqual([
      { texto: 'Mis carpetas', ruta: '/' },
      { texto: 'epd', ruta: '/epd' },
      { texto: 'entrada', ruta: '/epd/entrada' },
      { texto: 'lotes', ruta: '/epd/entrada/lotes' },
    ]);
  });

  it('explains the fixed folders and only them', () => {
    expect(descripcionCarpeta('/epd')).toBe('Ficheros que intercambia con Electra Peninsular Distribución, S.L.');
    expect(descripcionCarpeta('/eod/entrada')).toMatch(/se procesan automáticamente/);
    expect(descripcionCarpeta('/eod/entrada/rechazados')).toMatch(/\.txt/);
    expect(descripcionCarpeta('/eod/salida')).toMatch(/no se pueden subir/);
    expect(descripcionCarpeta('/eod/entrada/lotes')).toBeNull();
    expect(descripcionCarpeta('/eod/salida/2026')).toBeNull();
  });
});

describe('what each folder allows', () => {
  it('refuses uploads at the top and anywhere inside salida', () => {
    expect(motivoSinSubida('/')).toMatch(/Entre en la carpeta de una distribuidora/);
    expect(motivoSinSubida('/epd/salida')).toMatch(/^La carpeta salida/);
    expect(motivoSinSubida('/epd/salida/2026')).toMatch(/^La carpeta salida/);
    expect(motivoSinSubida('/epd')).toBeNull();
    expect(motivoSinSubida('/epd/entrada')).toBeNull();
    expect(motivoSinSubida('/epd/salidas')).toBeNull();
  });

  it('makes folders anywhere but the top', () => {
    expect(motivoSinCarpeta('/')).not.toBeNull();
    expect(motivoSinCarpeta('/epd/salida')).toBeNull();
  });

  it('knows which uploads go straight to the distributor', () => {
    expect(seProcesaAlSubir('/epd/entrada')).toBe(true);
    expect(seProcesaAlSubir('/epd/entrada/lotes')).toBe(false);
    expect(seProcesaAlSubir('/epd')).toBe(false);
  });
});

describe('new names', () => {
  it('refuses what the exchange refuses, with its messages', () => {
    expect(errorNuevoNombre('')).toBe(MENSAJES_RUTA.vacia);
    for (const malo of ['a/b', 'a\\b', '.', '..', 'a\u0000b', 'tab\there'])
      expect(errorNuevoNombre(malo), malo).toBe(MENSAJES_RUTA.caracteres);
    expect(errorNuevoNombre('a'.repeat(255))).toBeNull();
    expect(errorNuevoNombre('a'.repeat(256))).toBe(MENSAJES_RUTA.larga);
    // 255 bytes, not characters: "ñ" takes two.
    expect(errorNuevoNombre('ñ'.repeat(128))).toBe(MENSAJES_RUTA.larga);
    expect(errorNuevoNombre('informe ñ.xml')).toBeNull();
  });

  it('refuses a name already in the folder, except the element own one', () => {
    expect(errorNuevoNombre('x.xml', ['x.xml', 'y'])).toBe('Ya existe un fichero o carpeta con ese nombre.');
    expect(errorNuevoNombre('x.xml', ['x.xml'], 'x.xml')).toBeNull();
  });

  it('selects the name without its extension for a rename', () => {
    expect(seleccionInicial('informe.xml', false)).toEqual([0, 7]);
    expect(seleccionInicial('.bashrc', false)).toEqual([0, 7]);
    expect(seleccionInicial('lotes.2026', true)).toEqual([0, 10]);
    expect(seleccionInicial('sin-extension', false)).toEqual([0, 13]);
  });

  it('builds the paths of a rename and a move', () => {
    expect(rutaRenombrada('/epd/entrada/x.xml', 'y.xml')).toBe('/epd/entrada/y.xml');
    expect(rutaMovida('/epd/entrada/x.xml', '/epd/lotes')).toBe('/epd/lotes/x.xml');
  });
});

describe('move destinations', () => {
  const carpetas = [
    '/epd',
    '/epd/entrada',
    '/epd/entrada/rechazados',
    '/epd/salida',
    '/epd/salida/2026',
    '/epd/lotes',
    '/epd/lotes/enero',
    '/eod',
    '/eod/entrada',
  ];

  it('offers the folders of the same distributor, outside salida, but not the one it is in', () => {
    expect(destinosMover(elemento('/epd/entrada/x.xml'), carpetas)).toEqual([
      '/epd',
      '/epd/entrada/rechazados',
      '/epd/lotes',
      '/epd/lotes/enero',
    ]);
  });

  it('never offers a folder inside itself', () => {
    expect(destinosMover(elemento('/epd/lotes', { isFolder: true }), carpetas)).toEqual(['/epd/entrada', '/epd/entrada/rechazados']);
  });

  it('lets what is already in salida move within it and out of it', () => {
    expect(destinosMover(elemento('/epd/salida/r.xml', { fromDistributor: true }), carpetas)).toContain('/epd/salida/2026');
    expect(destinosMover(elemento('/epd/salida/r.xml'), carpetas)).toContain('/epd/lotes');
  });

  it('offers nothing for a path outside every distributor', () => {
    expect(destinosMover({ id: '/', parent: '/', isFolder: true }, carpetas)).toEqual([]);
  });
});

describe('progress', () => {
  it('gives whole percents, and none without a total', () => {
    expect(porcentaje(0, 100)).toBe(0);
    expect(porcentaje(999, 1000)).toBe(99);
    expect(porcentaje(2000, 1000)).toBe(100);
    expect(porcentaje(5, null)).toBeNull();
    expect(porcentaje(5, 0)).toBeNull();
    expect(textoProgreso(1024 * 1024, 4 * 1024 * 1024)).toBe('1 MB de 4 MB (25 %)');
    expect(textoProgreso(2048, null)).toBe('2 KB');
  });
});

describe('uploads', () => {
  const lista = [elemento('/epd/entrada/x.xml'), elemento('/epd/entrada/lotes', { isFolder: true })];

  it('refuses before sending a file too big, a bad name, or the name of a folder', () => {
    expect(errorAntesDeSubir({ name: 'ok.xml', size: MAX_SUBIDA_BYTES }, lista)).toBeNull();
    expect(errorAntesDeSubir({ name: 'big.xml', size: MAX_SUBIDA_BYTES + 1 }, lista)).toBe('Pasa del tamaño máximo de 200 MB por fichero.');
    expect(errorAntesDeSubir({ name: 'lotes', size: 1 }, lista)).toBe('Ya hay una carpeta llamada «lotes».');
    expect(errorAntesDeSubir({ name: '..', size: 1 }, lista)).toBe(MENSAJES_RUTA.caracteres);
  });

  it('asks before replacing a file, not for new names', () => {
    expect(reemplazaria('x.xml', lista)).toBe(true);
    expect(reemplazaria('y.xml', lista)).toBe(false);
    expect(reemplazaria('lotes', lista)).toBe(false);
  });

  it('reads the answer of the upload request', () => {
    const e = elemento('/epd/entrada/y.xml');
    expect(resultadoSubida(201, JSON.stringify(e))).toEqual({ ok: true, datos: e });
    expect(resultadoSubida(413, JSON.stringify({ message: 'El fichero pasa del tamaño máximo de 200 MB.' }))).toEqual({
      ok: false,
      status: 413,
      mensaje: 'El fichero pasa del tamaño máximo de 200 MB.',
      sesion: false,
    });
    expect(resultadoSubida(401, '{"message":"x"}')).toMatchObject({ ok: false, sesion: true, mensaje: MENSAJE_SESION_FTP_TERMINADA });
    expect(resultadoSubida(0, '')).toMatchObject({ ok: false, status: 0, sesion: false });
    expect(resultadoSubida(502, '<html>')).toMatchObject({ ok: false, mensaje: expect.stringMatching(/error 502/) });
  });

  it('encodes the paths in the URLs', () => {
    expect(urlListado('/epd/entrada')).toBe('/api/ftp?carpeta=%2Fepd%2Fentrada');
    expect(urlFichero('/epd/entrada/a b&c.xml')).toBe('/api/ftp/fichero?ruta=%2Fepd%2Fentrada%2Fa%20b%26c.xml');
    expect(urlBorrar('/epd/lotes')).toBe('/api/ftp?ruta=%2Fepd%2Flotes&recursivo=1');
  });
});

describe('the token', () => {
  it('is kept for the portal user who obtained it, and dropped for another', () => {
    const a = memoria({ [CLAVE_TOKEN_FTP]: 't', [CLAVE_USUARIO_FTP]: 'ana@x.es' });
    expect(tokenGuardado(a, 'ana@x.es')).toBe('t');
    expect(tokenGuardado(a, 'otro@x.es')).toBeNull();
    expect(a.datos.size).toBe(0);
    expect(tokenGuardado(memoria(), 'ana@x.es')).toBeNull();
    const b = memoria({ [CLAVE_TOKEN_FTP]: 't' });
    borrarToken(b);
    expect(b.datos.size).toBe(0);
  });
});

describe('the API client', () => {
  it('logs in, keeps the token under jwTokenFtp and sends it with every call', async () => {
    const almacen = memoria();
    const { f, llamadas } = fetchFalso([json(200, { token: 'tok' }), json(200, { carpeta: '/', elementos: [] })]);
    const c = crearClienteFtp({ fetch: f, almacen });
    expect(await c.conectar('ana@x.es', 'clave', 'ana@x.es')).toEqual({ ok: true, datos: { token: 'tok' } });
    expect(JSON.parse(String(llamadas[0]!.init.body))).toEqual({ username: 'ana@x.es', password: 'clave' });
    expect(llamadas[0]!.url).toBe('/api/ftpConnect');
    expect(almacen.getItem(CLAVE_TOKEN_FTP)).toBe('tok');
    expect(almacen.getItem(CLAVE_USUARIO_FTP)).toBe('ana@x.es');
    expect(await c.listar('/')).toEqual({ ok: true, datos: { carpeta: '/', elementos: [] } });
    expect(llamadas[1]!.url).toBe('/api/ftp?carpeta=%2F');
    expect(new Headers(llamadas[1]!.init.headers).get('Authorization')).toBe('Bearer tok');
  });

  it("sends the portal session's access token with the login, so the FTP token ends with that session", async () => {
    const { f, llamadas } = fetchFalso([json(200, { token: 'tok' }), json(200, { token: 'tok2' })]);
    await crearClienteFtp({ fetch: f, almacen: memoria(), sesionPortal: () => 'portal' }).conectar('ana@x.es', 'clave', 'ana@x.es');
    expect(new Headers(llamadas[0]!.init.headers).get('Authorization')).toBe('Bearer portal');
    await crearClienteFtp({ fetch: f, almacen: memoria(), sesionPortal: () => null }).conectar('ana@x.es', 'clave', null);
    expect(new Headers(llamadas[1]!.init.headers).get('Authorization')).toBeNull();
  });

  it('keeps nothing when the login is refused, and says why', async () => {
    const almacen = memoria();
    const { f } = fetchFalso([json(401, { message: 'Usuario o contraseña incorrectos.' }), json(429, { message: 'Espere 60 s.' })]);
    const c = crearClienteFtp({ fetch: f, almacen });
    expect(await c.conectar('a@b.es', 'x', null)).toMatchObject({ ok: false, status: 401, sesion: false });
    expect(await c.conectar('a@b.es', 'x', null)).toMatchObject({ ok: false, status: 429, mensaje: 'Espere 60 s.' });
    expect(almacen.datos.size).toBe(0);
  });

  it('drops the token on a 401 and reports the session ended; other refusals keep it', async () => {
    const almacen = memoria({ [CLAVE_TOKEN_FTP]: 'tok' });
    const { f, llamadas } = fetchFalso([
      json(403, {
        message: 'Las carpetas de cada distribuidora (entrada, salida y entrada/rechazados) no se pueden borrar, mover ni renombrar.',
      }),
      json(409, { message: 'Ya existe un fichero o carpeta con ese nombre.' }),
      new Response(null, { status: 204 }),
      json(401, { message: 'La sesión FTP ha terminado.' }),
    ]);
    const c = crearClienteFtp({ fetch: f, almacen });
    expect(await c.mover('/epd/entrada', '/epd/x')).toMatchObject({
      ok: false,
      status: 403,
      mensaje: expect.stringMatching(/^Las carpetas/),
    });
    expect(await c.crearCarpeta('/epd/x')).toMatchObject({ ok: false, status: 409, sesion: false });
    expect(JSON.parse(String(llamadas[1]!.init.body))).toEqual({ ruta: '/epd/x' });
    expect(await c.borrar('/epd/x')).toEqual({ ok: true, datos: null });
    expect(llamadas[2]!.init.method).toBe('DELETE');
    expect(llamadas[2]!.url).toBe('/api/ftp?ruta=%2Fepd%2Fx&recursivo=1');
    expect(almacen.getItem(CLAVE_TOKEN_FTP)).toBe('tok');
    expect(await c.listar('/epd')).toMatchObject({ ok: false, status: 401, sesion: true, mensaje: MENSAJE_SESION_FTP_TERMINADA });
    expect(almacen.getItem(CLAVE_TOKEN_FTP)).toBeNull();
  });

  it('says so when the portal cannot be reached', async () => {
    const { f } = fetchFalso([new TypeError('Failed to fetch')]);
    const c = crearClienteFtp({ fetch: f, almacen: memoria({ [CLAVE_TOKEN_FTP]: 'tok' }) });
    expect(await c.listar('/')).toMatchObject({
      ok: false,
      status: 0,
      sesion: false,
      mensaje: expect.stringMatching(/No se ha podido conectar/),
    });
  });

  it('downloads a file reporting the bytes against Content-Length', async () => {
    const bytes = new Uint8Array(3000).fill(7);
    const cuerpo = new ReadableStream<Uint8Array>({
      start(control) {
        control.enqueue(bytes.slice(0, 1000));
        control.enqueue(bytes.slice(1000));
        control.close();
      },
    });
    const { f, llamadas } = fetchFalso([new Response(cuerpo, { status: 200, headers: { 'Content-Length': '3000' } })]);
    const c = crearClienteFtp({ fetch: f, almacen: memoria({ [CLAVE_TOKEN_FTP]: 'tok' }) });
    const avances: [number, number | null][] = [];
    const r = await c.descargar('/epd/salida/r.xml', { alProgresar: (h, t) => avances.push([h, t]) });
    expect(r.ok).toBe(true);
    if (r.ok) expect(new Uint8Array(await r.blob.arrayBuffer())).toEqual(bytes);
    expect(avances).toEqual([
      [0, 3000],
      [1000, 3000],
      [3000, 3000],
    ]);
    expect(llamadas[0]!.url).toBe('/api/ftp/fichero?ruta=%2Fepd%2Fsalida%2Fr.xml');
    expect(new Headers(llamadas[0]!.init.headers).get('Authorization')).toBe('Bearer tok');
  });

  it('passes on the refusal of a download, and an unknown length as null', async () => {
    const { f } = fetchFalso([json(404, { message: 'No existe ese fichero o carpeta.' }), new Response('abc', { status: 200 })]);
    const c = crearClienteFtp({ fetch: f, almacen: memoria({ [CLAVE_TOKEN_FTP]: 'tok' }) });
    expect(await c.descargar('/epd/x')).toMatchObject({ ok: false, status: 404, mensaje: 'No existe ese fichero o carpeta.' });
    const totales: (number | null)[] = [];
    await c.descargar('/epd/y', { alProgresar: (_h, t) => totales.push(t) });
    expect(totales.every((t) => t === null || t === 3)).toBe(true);
  });
});
