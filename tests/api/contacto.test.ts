/**
 * Queries and claims through HTTP (docs/decisions/018): every claim subtype of the CNMC's table 82
 * offered by the portal asks exactly its required fields (read from the table, not hand-picked),
 * each checked by its kind; the R1 steps with their deadlines across weekends and holidays with the
 * injected clock; the data protection request's one month; ownership (404) and distributor scope
 * for staff; mails, the closing answer's PDF, the rate limit and the audit trail.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CasoContactoDetalle, CasoContactoResumen } from '../../src/lib/contacto/respuestas.ts';
import {
  DEFINICION_CAMPOS,
  SUBTIPOS_RECLAMACION,
  type CampoReclamacion,
  type SubtipoReclamacion,
} from '../../src/lib/contacto/tablas-r1.ts';
import { construirCups } from '../../src/lib/cups.ts';
import { auditadas, cuenta, enviarCorreos, llamar, nuevoDni, sesion, type CuentaPrueba } from '../support/privado.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { puntoNuevo, titularConSuministros } from '../support/suministros.ts';

let server: TestServer;
let persona: CuentaPrueba;
let otro: CuentaPrueba;
let gestorEpd: CuentaPrueba;
let token: string;
let tokenOtro: string;
let gestorEcd: CuentaPrueba;
let tokenEcd: string;
let tokenEpd: string;

/** Thursday 3 December 2026, 10:00 in Madrid: the next Tuesday (8 December) is a national holiday. */
const JUEVES = new Date('2026-12-03T09:00:00Z');

beforeAll(async () => {
  server = await startTestServer();
  otro = await cuenta(server, { prefijo: 'otro' });
  gestorEcd = await cuenta(server, { prefijo: 'gestor-ecd', extra: ['ecd-administrador'] });
  gestorEpd = await cuenta(server, { prefijo: 'gestor-epd', extra: ['epd-administrador'] });
});
afterAll(async () => {
  await server.close();
});
beforeEach(async () => {
  server.clock.current = new Date(JUEVES);
  // An account of its own for each test: each account's steps are rate limited per hour.
  persona = await cuenta(server, { prefijo: 'persona' });
  await sesiones();
});

/** Fresh sessions of everyone at the clock's moment (a session issued at another moment has expired). */
async function sesiones() {
  const [a, b, c, d] = await Promise.all([persona, otro, gestorEcd, gestorEpd].map(async (u) => (await sesion(server, u.email)).jwtToken));
  [token, tokenOtro, tokenEcd, tokenEpd] = [a!, b!, c!, d!];
}

const reclamaciones = (metodo: string, ruta: string, body?: unknown, t = token) =>
  llamar(server, metodo, `/api/contacto/reclamaciones${ruta}`, { token: t, body });
const consultas = (metodo: string, ruta: string, body?: unknown, t = token) =>
  llamar(server, metodo, `/api/contacto/consultas${ruta}`, { token: t, body });
const gestion = (metodo: string, ruta: string, body?: unknown, t = tokenEcd) =>
  llamar(server, metodo, `/api/administrador/contacto${ruta}`, { token: t, body });
const json = async <T = CasoContactoDetalle>(res: Response) => (await res.json()) as T;

/** A valid value of each field kind, for a claim at ECD. */
function valorValido(campo: CampoReclamacion): string | number {
  const def = DEFINICION_CAMPOS[campo];
  switch (def.clase) {
    case 'nif':
      return nuevoDni();
    case 'telefono':
      return '600 123 456';
    case 'cups':
      return construirCups('9903', 4242);
    case 'fechaHora':
    case 'fecha':
      return '2026-11-30';
    case 'municipio':
      return '28005';
    case 'codigoPostal':
      return '28801';
    case 'cau':
      return `${construirCups('9903', 4242)}0FA001`;
    case 'importe':
      return 120.5;
    case 'numero':
      return 12_345;
    case 'iban':
      return 'ES91 2100 0418 4502 0005 1332';
    case 'codigo':
      return campo === 'ubicacionProvincia' ? '28' : Object.keys(def.tabla!)[0]!;
    case 'texto':
      return 'ABC123';
  }
}

/** Who claims each subtype in these tests: a supply company where only it may, else a representative. */
const rolPara = (s: SubtipoReclamacion) => (s.soloComercializadora ? '06' : '02');

/** A draft claim at ECD with `datos`. */
async function borrador(datos: Record<string, unknown>, t = token): Promise<CasoContactoDetalle> {
  const res = await reclamaciones('POST', '', { distribuidora: 'ecd', datos }, t);
  expect(res.status).toBe(201);
  return json(res);
}

/** A claim of subtype 022 (quality of supply, no compensation asked) sent at ECD by a representative. */
async function presentada(t = token): Promise<CasoContactoDetalle> {
  const s = SUBTIPOS_RECLAMACION.find((x) => x.codigo === '022')!;
  const b = await borrador(
    {
      rol: '02',
      tipo: s.tipo,
      subtipo: s.codigo,
      campos: Object.fromEntries(s.campos.map((c) => [c, valorValido(c)])),
      mensaje: 'Sin luz dos horas y media.',
    },
    t,
  );
  const res = await reclamaciones('POST', `/${b.id}/presentar`, {}, t);
  expect(res.status).toBe(200);
  return json(res);
}

describe('cada subtipo de la tabla 82 pide sus campos', () => {
  it('enviar sin datos lista exactamente los campos de su subtipo; con ellos válidos, se presenta', async () => {
    for (const s of SUBTIPOS_RECLAMACION) {
      // A claimant per subtype: each account may take 20 steps an hour.
      persona = await cuenta(server, { prefijo: 'reclamante' });
      token = (await sesion(server, persona.email)).jwtToken;
      const base = { rol: rolPara(s), tipo: s.tipo, subtipo: s.codigo, mensaje: `Reclamación del subtipo ${s.codigo}.` };
      const b = await borrador(base);
      const res = await reclamaciones('POST', `/${b.id}/presentar`, {});
      expect(res.status, s.codigo).toBe(422);
      const { faltan } = await json<{ faltan: { campo: string }[] }>(res);
      expect(faltan.map((f) => f.campo).sort(), s.codigo).toEqual(s.campos.filter((c) => !DEFINICION_CAMPOS[c].opcional).sort());
      const campos = Object.fromEntries(s.campos.map((c) => [c, valorValido(c)]));
      expect((await reclamaciones('PUT', `/${b.id}`, { ...base, campos })).status).toBe(200);
      const ok = await reclamaciones('POST', `/${b.id}/presentar`, {});
      expect([s.codigo, ok.status]).toEqual([s.codigo, 200]);
      expect((await json(ok)).paso).toBe('presentada');
    }
  }, 120_000);

  it('los subtipos del intercambio ATR no se ofrecen a quien no reclama como comercializador', async () => {
    const s = SUBTIPOS_RECLAMACION.find((x) => x.soloComercializadora)!;
    const b = await borrador({ rol: '01', tipo: s.tipo, subtipo: s.codigo, mensaje: 'x' });
    expect(b.faltan.map((f) => f.campo)).toContain('subtipo');
  });

  it('cada campo se comprueba por su clase: CUPS de otra distribuidora, IBAN y teléfono erróneos, fechas al revés', async () => {
    const b = await borrador({
      rol: '02',
      tipo: '03',
      subtipo: '014',
      campos: {
        cups: construirCups('9901', 7),
        telefono: '12',
        personaContacto: 'Ana',
        cuentaBancaria: 'ES00 1234',
        nifTitular: '1234',
        nombreTitular: 'Ana',
      },
      mensaje: 'Fianza.',
    });
    const mensajes = Object.fromEntries(b.faltan.map((f) => [f.campo, f.mensaje]));
    expect(mensajes).toEqual({
      cups: 'El CUPS no es de esta distribuidora (sus CUPS empiezan por ES9903).',
      telefono: 'Escriba un teléfono español de 9 cifras, o + con el prefijo del país y el número.',
      cuentaBancaria: 'La cuenta bancaria no es un IBAN válido.',
      nifTitular: 'El NIF, NIE o CIF del titular no es válido.',
    });
    const c = await borrador({
      rol: '02',
      tipo: '05',
      subtipo: '022',
      campos: { cups: construirCups('9903', 7), fechaDesde: '2026-11-30', fechaHasta: '2026-11-29' },
      mensaje: 'x',
    });
    expect(c.faltan).toEqual([{ campo: 'fechaHasta', mensaje: 'La fecha final es anterior a la inicial.' }]);
  });

  it('como titular, el CUPS debe ser uno de sus suministros en esa distribuidora', async () => {
    const t = await titularConSuministros(server, [(nif) => puntoNuevo(nif, 'ecd')]);
    const datos = (cups: string) => ({
      rol: '01',
      tipo: '05',
      subtipo: '022',
      campos: { cups, fechaDesde: '2026-11-30', fechaHasta: '2026-11-30' },
      mensaje: 'Sin luz.',
    });
    const ajeno = await borrador(datos(construirCups('9903', 99)), t.token);
    expect(ajeno.faltan).toEqual([{ campo: 'cups', mensaje: 'Como titular, elija uno de sus suministros en esta distribuidora.' }]);
    const propio = await borrador(datos(t.cups[0]!), t.token);
    expect(propio.faltan).toEqual([]);
  });

  it('al enviar solo viajan los campos del subtipo elegido', async () => {
    const b = await borrador({
      rol: '02',
      tipo: '05',
      subtipo: '022',
      campos: { cups: construirCups('9903', 7), fechaDesde: '2026-11-30', fechaHasta: '2026-11-30', numeroFactura: 'F-1' },
      mensaje: 'x',
    });
    const p = await json(await reclamaciones('POST', `/${b.id}/presentar`, {}));
    expect(Object.keys(p.reclamacion!.campos!).sort()).toEqual(['cups', 'fechaDesde', 'fechaHasta']);
  });
});

describe('pasos y plazos de la reclamación (R1)', () => {
  it('aceptar en 5 días hábiles, saltando el fin de semana, el 7 de diciembre de Cantabria y el 8', async () => {
    const p = await presentada();
    expect([p.vence, p.turno, p.reglaPlazo?.includes('5 días hábiles')]).toEqual(['2026-12-14', 'distribuidora', true]);
  });

  it('aceptada: 15 días hábiles; la información pedida, 20 naturales; al llegar, el plazo sigue con los días que le quedaban', async () => {
    const p = await presentada();
    const a = await json(await gestion('POST', `/${p.id}/aceptar`, {}));
    // 15 business days from Thursday 3 December: 4, 9, 10, 11, 14…18, 21…24, 28, 29 (7 December is a holiday
    // in Cantabria, ECD's region, 8 and 25 national ones).
    expect([a.paso, a.vence]).toEqual(['aceptada', '2026-12-29']);
    server.clock.current = new Date('2026-12-10T09:00:00Z');
    await sesiones();
    const pedida = await json(await gestion('POST', `/${p.id}/pedir_informacion`, { mensaje: 'Indique la hora exacta del corte.' }));
    // 20 calendar days from 10 December end on 30 December (a Wednesday).
    expect([pedida.paso, pedida.turno, pedida.vence]).toEqual(['informacion_pedida', 'solicitante', '2026-12-30']);
    server.clock.current = new Date('2026-12-15T09:00:00Z');
    await sesiones();
    expect((await reclamaciones('POST', `/${p.id}/enviar_informacion`, {})).status).toBe(422);
    const enviada = await json(await reclamaciones('POST', `/${p.id}/enviar_informacion`, { mensaje: 'De 10:00 a 12:30.' }));
    // On 10 December 12 business days were left (11, 14–18, 21–24, 28, 29): counted again from 15 December,
    // past 1 January.
    expect(enviada.paso).toBe('informacion_enviada');
    expect(enviada.vence).toBe('2027-01-04');
  });

  it('el cierre guarda el resultado (tabla 80) y la respuesta, y el PDF la da a las dos partes y a nadie más', async () => {
    const p = await presentada();
    expect((await llamar(server, 'GET', `/api/contacto/reclamaciones/${p.id}/respuesta.pdf`, { token })).status).toBe(409);
    await gestion('POST', `/${p.id}/aceptar`, {});
    expect((await gestion('POST', `/${p.id}/cerrar`, { mensaje: 'Revisado.' })).status).toBe(422);
    const c = await json(
      await gestion('POST', `/${p.id}/cerrar`, { resultado: '02', mensaje: 'La interrupción fue un corte programado y avisado.' }),
    );
    expect([c.paso, c.turno, c.resultado, c.respuesta]).toEqual([
      'cerrada',
      null,
      { codigo: '02', nombre: 'Improcedente / desfavorable' },
      'La interrupción fue un corte programado y avisado.',
    ]);
    for (const t of [token, tokenEcd]) {
      const res = await llamar(server, 'GET', `/api/contacto/reclamaciones/${p.id}/respuesta.pdf`, { token: t });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/pdf');
      expect(
        Buffer.from(await res.arrayBuffer())
          .subarray(0, 5)
          .toString(),
      ).toBe('%PDF-');
    }
    for (const t of [tokenOtro, tokenEpd])
      expect((await llamar(server, 'GET', `/api/contacto/reclamaciones/${p.id}/respuesta.pdf`, { token: t })).status).toBe(404);
  });

  it('rechazar pide el motivo; anular deja el resultado 04; lo cerrado no admite más pasos', async () => {
    const p = await presentada();
    expect((await gestion('POST', `/${p.id}/rechazar`, {})).status).toBe(422);
    const r = await json(await gestion('POST', `/${p.id}/rechazar`, { mensaje: 'El CUPS no es de nuestra red.' }));
    expect([r.paso, r.turno]).toEqual(['rechazada', null]);
    expect((await reclamaciones('POST', `/${p.id}/desistir`, {})).status).toBe(409);
    const q = await presentada();
    const a = await json(await reclamaciones('POST', `/${q.id}/desistir`, {}));
    expect([a.paso, a.resultado?.codigo]).toEqual(['anulada', '04']);
  });

  it('cada paso avisa por correo a la otra parte, con el plazo cuando le toca actuar', async () => {
    const p = await presentada();
    await enviarCorreos(server);
    expect(server.mailer.sent.filter((m) => m.to === gestorEcd.email).at(-1)?.subject).toBe(`${p.referencia}: Ha recibido una reclamación`);
    await gestion('POST', `/${p.id}/aceptar`, {});
    await gestion('POST', `/${p.id}/pedir_informacion`, { mensaje: 'Envíe una foto del contador.' });
    await enviarCorreos(server);
    const correo = server.mailer.sent.filter((m) => m.to === persona.email).at(-1);
    expect(correo?.text).toContain('Envíe una foto del contador.');
    expect(correo?.text).toContain('Tiene hasta el 23/12/2026 para actuar.');
  });

  it('cada paso queda auditado con el expediente', async () => {
    const p = await presentada();
    await gestion('POST', `/${p.id}/aceptar`, {});
    for (const accion of ['reclamacion.crear', 'reclamacion.presentar', 'reclamacion.aceptar'])
      expect((await auditadas(server, accion, { objetivo: p.id })).length, accion).toBe(1);
    expect((await auditadas(server, 'reclamacion.aceptar', { objetivo: p.id }))[0]?.actorUserId).toBe(gestorEcd.id);
  });

  it('responde 429 al paso 21 de una cuenta en una hora, y un paso rechazado no cuenta', async () => {
    const b = await borrador({ rol: '02' });
    for (let i = 0; i < 21; i++) expect((await reclamaciones('POST', `/${b.id}/presentar`, {})).status).toBe(422);
    for (let i = 0; i < 10; i++) {
      const p = await presentada();
      expect((await reclamaciones('POST', `/${p.id}/desistir`, {})).status).toBe(200);
    }
    const res = await reclamaciones('POST', `/${b.id}/presentar`, {});
    expect([res.status, Number(res.headers.get('retry-after')) > 0]).toEqual([429, true]);
  });
});

describe('consultas', () => {
  it('una consulta va y vuelve hasta que se cierra, sin plazo legal', async () => {
    const b = await json(
      await consultas('POST', '', { distribuidora: 'ecd', datos: { tema: 'medidas', asunto: 'Lectura', mensaje: '¿Cuándo leen?' } }),
    );
    const p = await json(await consultas('POST', `/${b.id}/presentar`, {}));
    expect([p.paso, p.turno, p.vence, p.referencia.startsWith('CO-2026-')]).toEqual(['abierta', 'distribuidora', null, true]);
    const r = await json(await gestion('POST', `/${p.id}/responder`, { mensaje: 'El día 15.' }));
    expect([r.paso, r.turno]).toEqual(['respondida', 'solicitante']);
    const v = await json(await consultas('POST', `/${p.id}/replicar`, { mensaje: '¿Y la próxima?' }));
    expect(v.eventos.map((e) => [e.lado, e.mensaje])).toEqual([
      ['solicitante', null],
      ['distribuidora', 'El día 15.'],
      ['solicitante', '¿Y la próxima?'],
    ]);
    const c = await json(await consultas('POST', `/${p.id}/dar_por_resuelta`, {}));
    expect([c.paso, c.turno]).toEqual(['cerrada', null]);
  });

  it('una solicitud de protección de datos tiene un mes (RGPD art. 12.3), prorrogable una vez dos meses', async () => {
    server.clock.current = new Date('2026-01-30T09:00:00Z');
    await sesiones();
    const b = await json(
      await consultas('POST', '', {
        distribuidora: 'ecd',
        datos: { tema: 'proteccion_datos', asunto: 'Mis datos', mensaje: 'Quiero una copia.' },
      }),
    );
    expect(b.faltan).toEqual([{ campo: 'derecho', mensaje: 'Elija qué derecho quiere ejercer.' }]);
    await consultas('PUT', `/${b.id}`, { tema: 'proteccion_datos', derecho: 'acceso', asunto: 'Mis datos', mensaje: 'Quiero una copia.' });
    const p = await json(await consultas('POST', `/${b.id}/presentar`, {}));
    // 30 January + one month: 28 February 2026 has no 30th; the last day (a Saturday) moves to Monday 2 March.
    expect(p.vence).toBe('2026-03-02');
    expect((await gestion('POST', `/${p.id}/prorrogar`, {})).status).toBe(422);
    const pr = await json(await gestion('POST', `/${p.id}/prorrogar`, { mensaje: 'Hay que reunir datos de varios sistemas.' }));
    expect([pr.vence, pr.acciones.includes('prorrogar')]).toEqual(['2026-04-30', false]);
  });

  it('la consulta sobre un suministro solo puede ser de uno propio', async () => {
    const b = await json(
      await consultas('POST', '', {
        distribuidora: 'ecd',
        datos: { tema: 'suministro', asunto: 'x', mensaje: 'y', cups: construirCups('9903', 5) },
      }),
    );
    expect(b.faltan).toEqual([{ campo: 'cups', mensaje: 'Ese suministro no es de su cuenta en esta distribuidora.' }]);
  });
});

describe('propiedad y ámbito', () => {
  it('otra cuenta y el personal de otra distribuidora reciben 404; un borrador no lo ve el personal', async () => {
    const p = await presentada();
    expect((await reclamaciones('GET', `/${p.id}`, undefined, tokenOtro)).status).toBe(404);
    expect((await reclamaciones('POST', `/${p.id}/desistir`, {}, tokenOtro)).status).toBe(404);
    expect((await gestion('GET', `/${p.id}`, undefined, tokenEpd)).status).toBe(404);
    expect((await gestion('POST', `/${p.id}/aceptar`, {}, tokenEpd)).status).toBe(404);
    const b = await borrador({ rol: '02' });
    expect((await gestion('GET', `/${b.id}`)).status).toBe(404);
    // A claim is not a query: its id under the other procedure's routes is not found.
    expect((await consultas('GET', `/${p.id}`)).status).toBe(404);
  });

  it('la cola es de una distribuidora que se administra, con las vencidas primero', async () => {
    expect((await gestion('GET', '?distribuidora=ecd', undefined, tokenEpd)).status).toBe(403);
    const vieja = await presentada();
    server.clock.current = new Date('2026-12-21T09:00:00Z');
    await sesiones();
    const nueva = await presentada();
    const res = await gestion('GET', '?distribuidora=ecd&procedimiento=reclamacion&subtipo=022&porPagina=100');
    const filas = await json<CasoContactoResumen[]>(res);
    expect(Number(res.headers.get('x-total-count'))).toBeGreaterThanOrEqual(2);
    const i = filas.findIndex((f) => f.id === vieja.id);
    const j = filas.findIndex((f) => f.id === nueva.id);
    expect([filas[i]!.vencido, filas[j]!.vencido, i < j]).toEqual([true, false, true]);
    const vencidas = await json<CasoContactoResumen[]>(await gestion('GET', '?distribuidora=ecd&vencidas=true&porPagina=100'));
    expect(vencidas.every((f) => f.vencido && f.distribuidora === 'ecd')).toBe(true);
  });
});
