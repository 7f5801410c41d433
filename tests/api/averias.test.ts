/**
 * "No tengo luz" (docs/decisions/023): the public query answers a known incident in effect (with
 * its end), the meter's state (tripped switch, cut), or registers a report with its reference;
 * never the holder's data. Staff see reports grouped by area, confirm a group as an incident that
 * is then public, and nobody else's distributor's groups.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { construirCups, cupsBase } from '../../src/lib/cups.ts';
import { averias } from '../../src/server/db/schema.ts';
import { guardarEstadosContador } from '../../src/server/lecturas/service.ts';
import { crearIncidencia } from '../support/incidencias.ts';
import { administrador, cuenta, llamar, sesion } from '../support/privado.ts';
import { servidorDelFichero, unaHoraMasEnCadaTest } from '../support/server.ts';
import { puntoNuevo, titularConSuministros } from '../support/suministros.ts';

const server = servidorDelFichero();
unaHoraMasEnCadaTest(server);

let seqCp = 0;
/** A fresh postal code of Madrid province per supply point, so areas do not mix between tests. */
const nuevoCp = () => `28${String(500 + ++seqCp).padStart(3, '0')}`;

/** A holder named «Titular de prueba» with one EPD supply point at Calle Mayor, 1 in a fresh postal code; its CUPS and id. */
async function punto(extra: Parameters<typeof puntoNuevo>[2] = {}) {
  const codigoPostal = nuevoCp();
  const t = await titularConSuministros(server, [(nif) => puntoNuevo(nif, 'epd', { codigoPostal, ...extra })]);
  return { cups: t.cups[0]!, id: t.ids[0]!, codigoPostal, token: t.token };
}

type Respuesta = {
  resultado: string;
  municipio: string | null;
  distribuidora: { codigo: string; telefonoAverias: { texto: string } } | null;
  incidencia: { descripcion: string; finPrevisto: string | null; afecta: string } | null;
  situacionContador: string | null;
  aviso: { referencia: string; nuevo: boolean } | null;
  proximas: { descripcion: string }[];
};

const consultas: string[] = [];
async function consultar(body: unknown, desde = '127.0.0.1'): Promise<Respuesta> {
  const res = await server.fetchFrom(desde, '/api/averias/consulta', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const texto = await res.text();
  expect(res.status, texto).toBe(200);
  consultas.push(texto);
  return JSON.parse(texto) as Respuesta;
}

async function estado(id: number, cambios: Partial<Parameters<typeof guardarEstadosContador>[1][number]>) {
  await guardarEstadosContador(
    server.database.db,
    [
      {
        suministroId: id,
        comunica: true,
        ultimaComunicacion: server.clock.now(),
        interruptor: 'cerrado',
        estadoSuministro: 'con_suministro',
        motivo: null,
        ...cambios,
      },
    ],
    { origen: 'administrador', actualizadoPor: null, ahora: server.clock.now() },
  );
}

describe('POST /api/averias/consulta', () => {
  it('answers an active incident of the area with its expected end, and registers nothing', async () => {
    const p = await punto();
    const fin = new Date(server.clock.now().getTime() + 3 * 3_600_000);
    await crearIncidencia(server.database.db, {
      estado: 'Activa',
      descripcion: 'Avería en la línea de prueba A.',
      municipio: 'Alcalá de Henares',
      codigoIne: '28005',
      codigosPostales: [p.codigoPostal],
      inicio: new Date(server.clock.now().getTime() - 3_600_000),
      finPrevisto: fin,
    });
    const r = await consultar({ cups: p.cups });
    expect(r.resultado).toBe('incidencia');
    expect(r.incidencia).toMatchObject({ descripcion: 'Avería en la línea de prueba A.', finPrevisto: fin.toISOString(), afecta: 'zona' });
    expect(r.aviso).toBeNull();
    expect(r.distribuidora).toMatchObject({ codigo: 'epd', telefonoAverias: { texto: '900 000 001' } });
  });

  it('answers a scheduled incident once it has started, listing the supply point', async () => {
    const p = await punto();
    await crearIncidencia(server.database.db, {
      descripcion: 'Trabajos programados de prueba B.',
      cups: [p.cups],
      codigosPostales: ['28999'],
      inicio: new Date(server.clock.now().getTime() - 600_000),
      finPrevisto: new Date(server.clock.now().getTime() + 3_600_000),
    });
    const r = await consultar({ cups: p.cups });
    expect(r.resultado).toBe('incidencia');
    expect(r.incidencia).toMatchObject({ descripcion: 'Trabajos programados de prueba B.', afecta: 'suministro' });
  });

  it('does not take works that have not started as the cause: it registers a report and tells of them', async () => {
    const p = await punto();
    await crearIncidencia(server.database.db, {
      descripcion: 'Trabajos futuros de prueba C.',
      codigosPostales: [p.codigoPostal],
      inicio: new Date(server.clock.now().getTime() + 2 * 86_400_000),
      finPrevisto: null,
    });
    const r = await consultar({ cups: p.cups });
    expect(r.resultado).toBe('aviso');
    expect(r.proximas.map((i) => i.descripcion)).toEqual(['Trabajos futuros de prueba C.']);
  });

  it('answers a tripped power control switch with what to do', async () => {
    const p = await punto();
    await estado(p.id, { interruptor: 'abierto_exceso' });
    const r = await consultar({ cups: p.cups });
    expect(r).toMatchObject({ resultado: 'contador', situacionContador: 'icp', aviso: null });
  });

  it('registers the report anyway when asked after a tripped switch', async () => {
    const p = await punto();
    await estado(p.id, { interruptor: 'abierto_exceso' });
    const r = await consultar({ cups: p.cups, avisar: true });
    expect(r.resultado).toBe('aviso');
    expect(r.aviso?.referencia).toMatch(/^AV-2026-\d{6}$/);
  });

  it('answers a cut supply without its reason, and never registers it even when asked', async () => {
    const p = await punto();
    await estado(p.id, { interruptor: 'abierto_remoto', estadoSuministro: 'cortado', motivo: 'Corte por impago de prueba.' });
    const r = await consultar({ cups: p.cups, avisar: true });
    expect(r).toMatchObject({ resultado: 'contador', situacionContador: 'cortado', aviso: null });
    expect(JSON.stringify(r)).not.toContain('impago');
  });

  it('registers a report with a reference and answers the same one while it is pending', async () => {
    const p = await punto();
    const r = await consultar({ cups: p.cups, telefono: '600000000', email: 'vecina@correo.example' });
    expect(r.resultado).toBe('aviso');
    expect(r.aviso).toMatchObject({ nuevo: true });
    expect(r.aviso!.referencia).toMatch(/^AV-2026-\d{6}$/);
    expect(r.municipio).toBe('Alcalá de Henares');
    const otra = await consultar({ cups: p.cups.toLowerCase().replace(/(.{4})/g, '$1 ') });
    expect(otra.aviso).toEqual({ referencia: r.aviso!.referencia, nuevo: false });
  });

  it('stores one report when many people of one supply point report at the same instant, and all get its reference', async () => {
    // Several supply points at once, each reported from many addresses (a household's phones): the
    // limit per address is not what stops them, and the requests overlap on the database's connections.
    const puntos = await Promise.all([punto(), punto(), punto(), punto()]);
    const respuestas = await Promise.all(
      puntos.flatMap((p, n) =>
        Array.from({ length: 10 }, (_, i) => consultar({ cups: p.cups }, `127.0.${9 + n}.${i + 1}`).then((r) => ({ p, r }))),
      ),
    );
    for (const p of puntos) {
      const suyas = respuestas.filter((x) => x.p === p).map((x) => x.r);
      const referencias = new Set(suyas.map((r) => r.aviso?.referencia));
      expect(referencias.size).toBe(1);
      expect(suyas.filter((r) => r.aviso?.nuevo)).toHaveLength(1);
      const filas = await server.database.db
        .select()
        .from(averias)
        .where(eq(averias.cups, cupsBase(p.cups)));
      expect(filas.map((f) => [f.referencia, f.estado])).toEqual([[[...referencias][0], 'pendiente']]);
    }
  });
  it('answers the same shape for an unknown CUPS of ours and for another company’s', async () => {
    const nuestro = await consultar({ cups: construirCups('9901', 987_654_321) });
    const ajeno = await consultar({ cups: construirCups('0031', 123_456) });
    expect(nuestro).toEqual({
      resultado: 'desconocido',
      distribuidora: null,
      municipio: null,
      incidencia: null,
      situacionContador: null,
      aviso: null,
      proximas: [],
    });
    expect(ajeno).toEqual(nuestro);
  });

  it('answers 400 in Spanish for a CUPS with wrong check letters', async () => {
    const res = await llamar(server, 'POST', '/api/averias/consulta', { body: { cups: 'ES9901000000000001AA' } });
    expect(res.status).toBe(400);
    expect(await res.json()).toContain(
      'Las dos letras de control del CUPS no corresponden a sus cifras. Revise que lo ha copiado bien de su factura.',
    );
  });

  it('answers 400 for a contact phone that is not one', async () => {
    const p = await punto();
    const res = await llamar(server, 'POST', '/api/averias/consulta', { body: { cups: p.cups, telefono: 'llámame' } });
    expect(res.status).toBe(400);
  });

  it('answers 429 past 10 queries from one address in 15 minutes', async () => {
    const cups = construirCups('9901', 555_000_111);
    for (let i = 0; i < 10; i++) await consultar({ cups }, '127.0.0.77');
    const res = await server.fetchFrom('127.0.0.77', '/api/averias/consulta', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ cups }),
    });
    expect(res.status).toBe(429);
    expect(res.headers.get('Retry-After')).toBeTruthy();
    // Another address is not affected.
    await consultar({ cups }, '127.0.0.78');
  });

  it('never answers the holder’s name, NIF or street address', () => {
    expect(consultas.length).toBeGreaterThan(5);
    for (const texto of consultas) {
      expect(texto).not.toContain('Titular de prueba');
      expect(texto).not.toContain('Calle Mayor');
      expect(texto).not.toMatch(/titular|nif|direccion/i);
    }
  });
});

describe('POST /api/averias/suministros/consulta', () => {
  it('answers for one of the holder’s supply points and 404 for another CUPS', async () => {
    const p = await punto();
    const otro = await punto();
    const ok = await llamar(server, 'POST', '/api/averias/suministros/consulta', { token: p.token, body: { cups: p.cups } });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as Respuesta).resultado).toBe('aviso');
    const ajeno = await llamar(server, 'POST', '/api/averias/suministros/consulta', { token: p.token, body: { cups: otro.cups } });
    expect(ajeno.status).toBe(404);
  });
});

type Grupo = {
  clave: string;
  codigoPostal: string;
  total: number;
  ultimo: string;
  avisos: { id: string; referencia: string; creado: string }[];
};

describe('staff queue', () => {
  it('groups pending reports by area, newest first, confirms a group as a public incident', async () => {
    const { token } = await administrador(server, ['epd-administrador']);
    const cp = nuevoCp();
    const a = await punto({ codigoPostal: cp });
    const b = await punto({ codigoPostal: cp });
    const suelto = await punto();
    await consultar({ cups: a.cups });
    server.clock.advance(60_000);
    await consultar({ cups: suelto.cups });
    server.clock.advance(60_000);
    const ultimo = await consultar({ cups: b.cups });
    const res = await llamar(server, 'GET', '/api/administrador/averias?distribuidora=epd', { token });
    expect(res.status).toBe(200);
    const grupos = (await res.json()) as Grupo[];
    const grupo = grupos.find((g) => g.codigoPostal === cp)!;
    expect(grupo.total).toBe(2);
    expect(grupo.avisos[0]!.referencia).toBe(ultimo.aviso!.referencia);
    expect(grupos[0]!.clave).toBe(grupo.clave);
    for (let i = 1; i < grupos.length; i++) expect(grupos[i - 1]!.ultimo >= grupos[i]!.ultimo).toBe(true);

    const conf = await llamar(server, 'POST', '/api/administrador/averias/confirmacion', {
      token,
      body: { clave: grupo.clave, descripcion: 'Avería confirmada desde los avisos de prueba.' },
    });
    expect(conf.status, await conf.clone().text()).toBe(201);
    type Publica = { descripcion: string; codigosPostales: string[] };
    const publicas = (await (await llamar(server, 'GET', '/api/incidenciasRed')).json()) as Publica[];
    expect(publicas.find((i) => i.descripcion === 'Avería confirmada desde los avisos de prueba.')?.codigosPostales).toEqual([cp]);
    const despues = (await (await llamar(server, 'GET', '/api/administrador/averias', { token })).json()) as Grupo[];
    expect(despues.find((g) => g.codigoPostal === cp)).toBeUndefined();
    // The neighbours now get the incident as the answer.
    expect((await consultar({ cups: a.cups })).resultado).toBe('incidencia');
  });

  it('dismisses a report; another distributor’s administrator gets 404 for the group and the report', async () => {
    const epd = await administrador(server, ['epd-administrador']);
    const eod = await administrador(server, ['eod-administrador']);
    const p = await punto();
    await consultar({ cups: p.cups });
    const grupos = (await (await llamar(server, 'GET', '/api/administrador/averias', { token: epd.token })).json()) as Grupo[];
    const grupo = grupos.find((g) => g.codigoPostal === p.codigoPostal)!;
    const ajenos = (await (await llamar(server, 'GET', '/api/administrador/averias', { token: eod.token })).json()) as Grupo[];
    expect(ajenos.find((g) => g.codigoPostal === p.codigoPostal)).toBeUndefined();
    expect(
      (await llamar(server, 'POST', '/api/administrador/averias/confirmacion', { token: eod.token, body: { clave: grupo.clave } })).status,
    ).toBe(404);
    const id = grupo.avisos[0]!.id;
    expect((await llamar(server, 'POST', `/api/administrador/averias/${id}/descarte`, { token: eod.token })).status).toBe(404);
    expect((await llamar(server, 'POST', `/api/administrador/averias/${id}/descarte`, { token: epd.token })).status).toBe(204);
    expect((await llamar(server, 'POST', `/api/administrador/averias/${id}/descarte`, { token: epd.token })).status).toBe(404);
  });

  it('answers 403 to an impersonated session and to an account without administration', async () => {
    const admin = await cuenta(server, { nombre: 'Ana', apellido1: 'Gestora', extra: ['epd-administrador'], prefijo: 'admin' });
    const usuario = await cuenta(server);
    const propia = await sesion(server, admin.email);
    const res = await llamar(server, 'POST', '/api/accesoUsuarioSuplantacion', {
      token: propia.jwtToken,
      body: { username: usuario.email },
    });
    expect(res.status).toBe(200);
    const { jwtToken } = (await res.json()) as { jwtToken: string };
    const r = await llamar(server, 'POST', '/api/administrador/averias/confirmacion', {
      token: jwtToken,
      body: { clave: 'epd|28801|28005' },
    });
    expect(r.status).toBe(403);
    const sin = await sesion(server, usuario.email);
    expect((await llamar(server, 'GET', '/api/administrador/averias', { token: sin.jwtToken })).status).toBe(403);
  });
});
