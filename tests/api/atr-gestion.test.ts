/**
 * The distributor staff's half of ATR requests (docs/decisions/020): the queue of accepted requests
 * (overdue first), and the steps that carry them on, through HTTP on a real database. Each step's
 * message lands in the company's salida valid against its CNMC schema; activation changes the
 * supply point (retailer, powers, holder, end date) and, for C1 and C2, gives the outgoing company
 * its step 06; a rejection after the field work (04) closes the request; an incidence (03) keeps it
 * open with a new date. Only the administrators of the request's distributor see or act on it.
 */
import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ProcesoAtr } from '../../src/lib/atr/procesos.ts';
import { construirCups } from '../../src/lib/cups.ts';
import { fechaLocalDe } from '../../src/lib/medidas/horas.ts';
import { leerEntradas } from '../../src/server/atr/lector.ts';
import { xmlSolicitud, type DatosSolicitud } from '../../src/server/atr/solicitudes.ts';
import { leerMensaje, validar } from '../../src/server/atr/xml.ts';
import { expedienteEventos, expedientes, suministros, users } from '../../src/server/db/schema.ts';
import { abrir, guardar, type CuentaIntercambio } from '../../src/server/intercambio/almacen.ts';
import { createLogger } from '../../src/server/logger.ts';
import { guardarSuministros } from '../../src/server/suministros/service.ts';
import { administrador, cuenta, llamar, nuevoDni, sesion } from '../support/privado.ts';
import { servidorDelFichero } from '../support/server.ts';
import { suministroPrueba } from '../support/suministros.ts';

const server = servidorDelFichero();
const REE = '9811';
const SALIENTE = '0902';
let empresa: CuentaIntercambio;
let saliente: CuentaIntercambio;
let tokenEmpresa: string;
let tokenEpd: string;
let tokenEod: string;
const titular = nuevoDni();
let n = 0;
let codigo = 0;

async function punto(extra: Parameters<typeof suministroPrueba>[3] = {}): Promise<string> {
  const cups = construirCups('9901', 8_100_000 + ++n * 17 + Math.floor(Math.random() * 1000) * 1000);
  await guardarSuministros(server.database.db, [suministroPrueba(cups, 'epd', titular, { comercializadoraCodigo: SALIENTE, ...extra })]);
  return cups;
}

const deps = () => ({ db: server.database.db, clock: server.clock, logger: createLogger('silent') });

/** Sends a step 01 the way a company's system does, lets the reader answer it, and gives back the request's case. */
async function enviada(proceso: ProcesoAtr, cups: string, datos: Partial<DatosSolicitud> = {}) {
  const sol = `2026${String(++codigo).padStart(8, '0')}`;
  const ahora = server.clock.now();
  const xml = xmlSolicitud(
    proceso,
    { emisora: REE, destino: '9901', codigoSolicitud: sol, fecha: ahora.toISOString().slice(0, 19), cups },
    { activacion: 'A', titular: { nif: titular, nombre: 'Lucía', apellido1: 'Martín' }, ...datos },
  );
  const bytes = Buffer.from(xml);
  const recibido = { datos: bytes, bytes: bytes.byteLength, sha256: createHash('sha256').update(bytes).digest('hex') };
  await guardar(server.database.db, empresa, `/epd/entrada/${proceso}01_${sol}.xml`, recibido, ahora);
  await leerEntradas(deps());
  const [caso] = await server.database.db
    .select()
    .from(expedientes)
    .where(and(eq(expedientes.userId, empresa.id), sql`${expedientes.datos}->>'codigoSolicitud' = ${sol}`));
  return caso!;
}

/** Sends a step 01 that the distributor accepts, and gives back the request's id. */
async function aceptada(proceso: ProcesoAtr, cups: string, datos: Partial<DatosSolicitud> = {}): Promise<string> {
  const caso = await enviada(proceso, cups, datos);
  expect(caso.paso, `la solicitud ${proceso} se acepta`).toBe('aceptada');
  return caso.id;
}

/** A file of `c`'s salida, checked against its CNMC schema. */
async function enSalida(c: CuentaIntercambio, nombre: string): Promise<string> {
  const l = await abrir(server.database.db, c, `/epd/salida/${nombre}`);
  const xml = (await l.leer(0, l.entrada.bytes)).toString('utf8');
  expect(await validar([leerMensaje(Buffer.from(xml))])).toEqual([[]]);
  return xml;
}

const paso = (id: string, cuerpo: unknown, token = tokenEpd) =>
  llamar(server, 'POST', `/api/administrador/atr/${id}`, { token, body: cuerpo });
const hoy = () => fechaLocalDe(server.clock.now());
const codigoDe = async (id: string) => {
  const [e] = await server.database.db.select().from(expedientes).where(eq(expedientes.id, id));
  return (e!.datos as { codigoSolicitud: string }).codigoSolicitud;
};
const suministro = async (cups: string) => (await server.database.db.select().from(suministros).where(eq(suministros.cups, cups)))[0]!;

beforeAll(async () => {
  const c = await cuenta(server, { extra: ['epd-comercializadora'], prefijo: 'comercializadora', empresa: true });
  const s = await cuenta(server, { extra: ['epd-comercializadora'], prefijo: 'saliente', empresa: true });
  await server.database.db.update(users).set({ codigoRee: REE }).where(eq(users.id, c.id));
  await server.database.db.update(users).set({ codigoRee: SALIENTE }).where(eq(users.id, s.id));
  empresa = { id: c.id, distribuidoras: ['epd'] };
  saliente = { id: s.id, distribuidoras: ['epd'] };
  tokenEmpresa = (await sesion(server, c.email)).jwtToken;
  tokenEpd = (await administrador(server, ['epd-administrador'])).token;
  tokenEod = (await administrador(server, ['eod-administrador'])).token;
});

describe('cola de solicitudes ATR de la distribuidora', () => {
  it('lista las aceptadas con su activación prevista, primero las vencidas', async () => {
    const [a, b] = [await aceptada('C1', await punto()), await aceptada('C1', await punto())];
    await server.database.db.update(expedientes).set({ vence: '2020-01-02' }).where(eq(expedientes.id, b));
    const res = await llamar(server, 'GET', '/api/administrador/atr?distribuidora=epd&porPagina=100', { token: tokenEpd });
    expect(res.status).toBe(200);
    const filas = (await res.json()) as { id: string; vencida: boolean; estado: string; empresa: string; codigoRee: string }[];
    expect(filas[0]!.id).toBe(b);
    expect(filas[0]!.vencida).toBe(true);
    const fa = filas.find((f) => f.id === a)!;
    expect(fa).toMatchObject({ vencida: false, estado: 'aceptada', codigoRee: REE });
    const vencidas = (await (
      await llamar(server, 'GET', '/api/administrador/atr?distribuidora=epd&vencidas=true', { token: tokenEpd })
    ).json()) as { id: string }[];
    expect(vencidas.map((f) => f.id)).toEqual([b]);
  });

  it('busca % y _ como lo que son, no como comodines que encuentran todas las solicitudes', async () => {
    const id = await aceptada('C1', await punto());
    const sol = await codigoDe(id);
    const cola = async (consulta: string, token = tokenEpd) =>
      (await (await llamar(server, 'GET', `/api/administrador/atr?distribuidora=epd&porPagina=100&${consulta}`, { token })).json()) as {
        id: string;
      }[];
    expect((await cola(`q=${sol}`)).map((f) => f.id)).toEqual([id]);
    expect(await cola('q=%25')).toEqual([]);
    expect(await cola('q=_')).toEqual([]);
    expect(await cola(`q=${sol.slice(0, 4)}%25${sol.slice(5)}`)).toEqual([]);
    // The company's own list searches the same way.
    const suyas = async (consulta: string) =>
      (await (await llamar(server, 'GET', `/api/atr/solicitudes?${consulta}`, { token: tokenEmpresa })).json()) as { id: string }[];
    expect((await suyas(`q=${sol}`)).map((f) => f.id)).toEqual([id]);
    expect(await suyas('q=%25')).toEqual([]);
    expect(await suyas('q=_')).toEqual([]);
  });

  it('no deja ver ni tocar las solicitudes de otra distribuidora, ni a quien no administra', async () => {
    const id = await aceptada('C1', await punto());
    expect((await llamar(server, 'GET', '/api/administrador/atr?distribuidora=epd', { token: tokenEod })).status).toBe(403);
    expect((await llamar(server, 'GET', `/api/administrador/atr/${id}`, { token: tokenEod })).status).toBe(404);
    expect((await paso(id, { accion: 'activar', fecha: hoy() }, tokenEod)).status).toBe(404);
    expect((await paso(id, { accion: 'activar', fecha: hoy() }, tokenEmpresa)).status).toBe(403);
    expect((await llamar(server, 'GET', `/api/administrador/atr/${id}`)).status).toBe(401);
  });
});

describe('pasos de la distribuidora', () => {
  it('activa un C1 (05): cambia la comercializadora del suministro y avisa a la saliente con su 06', async () => {
    const cups = await punto();
    const id = await aceptada('C1', cups);
    const sol = await codigoDe(id);
    const res = await paso(id, { accion: 'activar', fecha: hoy() });
    expect(res.status).toBe(200);
    const d = (await res.json()) as { estado: string; acciones: string[]; activacion: string };
    expect(d).toMatchObject({ estado: 'activada', acciones: [], activacion: hoy() });
    const xml = await enSalida(empresa, `C105_${sol}_01.xml`);
    expect(xml).toContain('<MensajeActivacionCambiodeComercializadorSinCambios');
    expect(xml).toContain(`<Fecha>${hoy()}</Fecha>`);
    const aviso = await enSalida(saliente, `C106_${sol}_01.xml`);
    expect(aviso).toContain(`<CodigoREEEmpresaDestino>${SALIENTE}</CodigoREEEmpresaDestino>`);
    expect((await suministro(cups)).comercializadoraCodigo).toBe(REE);
    // The company reads the activation among its request's messages.
    const suya = (await (await llamar(server, 'GET', `/api/atr/solicitudes/${id}`, { token: tokenEmpresa })).json()) as {
      estado: string;
      mensajes: { paso: string }[];
    };
    expect(suya.estado).toBe('activada');
    expect(suya.mensajes.map((m) => m.paso)).toEqual(['01', '02', '05']);
    // A second activation is refused: the request no longer waits for the distributor.
    expect((await paso(id, { accion: 'activar', fecha: hoy() })).status).toBe(409);
  });

  it('activa un C2 con el contrato pedido, y la saliente recibe su C206', async () => {
    const cups = await punto({ potenciasW: [3450, 3450] });
    const id = await aceptada('C2', cups, { contrato: { tarifa: '2.0TD', potenciasW: [4600, 4600] } });
    expect((await paso(id, { accion: 'activar', fecha: hoy() })).status).toBe(200);
    expect(await suministro(cups)).toMatchObject({ comercializadoraCodigo: REE, potenciasW: [4600, 4600] });
    const sol = await codigoDe(id);
    expect(await enSalida(empresa, `C205_${sol}_01.xml`)).toContain('<MensajeActivacionCambiodeComercializadorConCambios');
    expect(await enSalida(saliente, `C206_${sol}_01.xml`)).toContain('<MensajeActivacionComercializadorSaliente');
  });

  it('activa un M1 con las potencias pedidas y un B1 con la fecha de baja', async () => {
    const cups = await punto({ comercializadoraCodigo: REE, potenciasW: [3450, 3450] });
    const m1 = await aceptada('M1', cups, { contrato: { tarifa: '2.0TD', potenciasW: [5750, 5750] } });
    expect((await paso(m1, { accion: 'activar', fecha: hoy() })).status).toBe(200);
    const s = await suministro(cups);
    expect(s.potenciasW).toEqual([5750, 5750]);
    expect(s.fechaUltimoCambioPotencia).toBe(hoy());
    expect(await enSalida(empresa, `M105_${await codigoDe(m1)}_01.xml`)).toContain('<Potencia Periodo="1">5750</Potencia>');

    const otro = await punto({ comercializadoraCodigo: REE });
    const b1 = await aceptada('B1', otro, { motivoBaja: '02' });
    expect((await paso(b1, { accion: 'activar', fecha: hoy() })).status).toBe(200);
    expect((await suministro(otro)).fechaBaja).toBe(hoy());
    expect(await enSalida(empresa, `B105_${await codigoDe(b1)}_01.xml`)).toContain('<TipoMovimiento>B</TipoMovimiento>');
  });

  it('activa un B1 por corte de suministro (motivo 03) sin dar de baja el contrato: lo siguiente no se rechaza con 72', async () => {
    const cups = await punto({ comercializadoraCodigo: REE, potenciasW: [3450, 3450] });
    const b1 = await aceptada('B1', cups, { motivoBaja: '03' });
    expect((await paso(b1, { accion: 'activar', fecha: hoy() })).status).toBe(200);
    expect(await suministro(cups)).toMatchObject({ fechaBaja: null, comercializadoraCodigo: REE });
    // Its B105 keeps the measure point installed: a modification of the point, with no end date.
    const b105 = await enSalida(empresa, `B105_${await codigoDe(b1)}_01.xml`);
    expect(b105).toContain('<TipoMovimiento>M</TipoMovimiento>');
    expect(b105).not.toContain('<FechaBaja>');
    // The contract is still in force: its retailer can change it (accepted, not «72 contrato en baja»).
    const m1 = await aceptada('M1', cups, { contrato: { tarifa: '2.0TD', potenciasW: [4600, 4600] } });
    expect((await paso(m1, { accion: 'activar', fecha: hoy() })).status).toBe(200);
  });

  it('un B1 por corte deja el suministro cortado hasta que su comercializadora anula ese B1: entonces se repone y se acepta (B1 04)', async () => {
    const cups = await punto({ comercializadoraCodigo: REE });
    const b1 = await aceptada('B1', cups, { motivoBaja: '03' });
    expect((await paso(b1, { accion: 'activar', fecha: hoy() })).status).toBe(200);
    expect((await suministro(cups)).suspendidoDesde).toBe(hoy());
    const sips = async () => {
      const r = (await (
        await llamar(server, 'POST', '/api/sips/epd/consulta', { token: tokenEmpresa, body: { cups: [cups], formato: 'sips2026' } })
      ).json()) as { columnas: string[]; filas: string[][] };
      return r.filas[0]![r.columnas.indexOf('suspensionSuminstroImpago')];
    };
    expect(await sips()).toBe('S');
    const detalle = async () =>
      (await (await llamar(server, 'GET', `/api/atr/solicitudes/${b1}`, { token: tokenEmpresa })).json()) as {
        abierta: boolean;
        reponible: boolean;
        repuesto: string | null;
      };
    expect(await detalle()).toMatchObject({ abierta: false, reponible: true, repuesto: null });
    // A supply already cut is not cut again: table 27 code 12.
    const otra = await enviada('B1', cups, { motivoBaja: '03' });
    expect(otra.paso).toBe('rechazada');
    expect(await enSalida(empresa, `B102_${(otra.datos as { codigoSolicitud: string }).codigoSolicitud}_01.xml`)).toContain(
      '<CodigoMotivo>12</CodigoMotivo>',
    );

    // The company asks for the reposición: the anulación of the B1 that cut it.
    const res = await llamar(server, 'POST', `/api/atr/solicitudes/${b1}/anulacion`, { token: tokenEmpresa });
    expect(res.status).toBe(201);
    await leerEntradas(deps());
    const b104 = await enSalida(empresa, `B104_${await codigoDe(b1)}_01.xml`);
    expect(b104).toContain('<AceptacionAnulacion>');
    expect((await suministro(cups)).suspendidoDesde).toBeNull();
    expect(await sips()).toBe('N');
    expect(await detalle()).toMatchObject({ reponible: false, repuesto: hoy() });
    const [ev] = await server.database.db
      .select()
      .from(expedienteEventos)
      .where(and(eq(expedienteEventos.expedienteId, b1), eq(expedienteEventos.accion, 'reponer')));
    expect(ev!.lado).toBe('distribuidora');
    // Once back in service, the finished B1 is anulled no more.
    expect((await llamar(server, 'POST', `/api/atr/solicitudes/${b1}/anulacion`, { token: tokenEmpresa })).status).toBe(409);
  });

  it('un cambio de comercializadora activado sobre un suministro cortado empieza en servicio; una baja definitiva quita el corte', async () => {
    const a = await punto({ suspendidoDesde: '2026-01-10' });
    const c1 = await aceptada('C1', a);
    expect((await paso(c1, { accion: 'activar', fecha: hoy() })).status).toBe(200);
    expect(await suministro(a)).toMatchObject({ comercializadoraCodigo: REE, suspendidoDesde: null });
    const b = await punto({ comercializadoraCodigo: REE, suspendidoDesde: '2026-01-10' });
    const b1 = await aceptada('B1', b, { motivoBaja: '01' });
    expect((await paso(b1, { accion: 'activar', fecha: hoy() })).status).toBe(200);
    expect(await suministro(b)).toMatchObject({ fechaBaja: hoy(), suspendidoDesde: null });
  });

  it('activa un A3 sobre un suministro de baja: vuelve a estar en vigor con el titular y la comercializadora nuevos', async () => {
    const cups = await punto({ fechaBaja: '2026-01-31' });
    const id = await aceptada('A3', cups, { cnae: '9820', contrato: { tarifa: '2.0TD', potenciasW: [4600, 4600] } });
    expect((await paso(id, { accion: 'activar', fecha: hoy() })).status).toBe(200);
    const s = await suministro(cups);
    expect(s).toMatchObject({ fechaBaja: null, fechaAlta: hoy(), comercializadoraCodigo: REE, titularNif: titular });
    expect(s.potenciasW).toEqual([4600, 4600]);
    expect(await enSalida(empresa, `A305_${await codigoDe(id)}_01.xml`)).toContain('<TipoMovimiento>A</TipoMovimiento>');
  });

  it('no activa en una fecha futura ni anterior a la solicitud', async () => {
    const id = await aceptada('C1', await punto());
    expect((await paso(id, { accion: 'activar', fecha: '2099-01-01' })).status).toBe(400);
    expect((await paso(id, { accion: 'activar', fecha: '2001-01-01' })).status).toBe(400);
    expect((await paso(id, { accion: 'activar', fecha: 'mañana' })).status).toBe(400);
  });

  it('rechaza tras la visita a campo (04) con un motivo de campo de la tabla 27, y cierra la solicitud', async () => {
    const cups = await punto();
    const id = await aceptada('C1', cups);
    expect((await paso(id, { accion: 'rechazar', codigo: '03', comentario: 'No es un motivo de campo' })).status).toBe(400);
    expect((await paso(id, { accion: 'rechazar', codigo: '29', comentario: '' })).status).toBe(400);
    const res = await paso(id, { accion: 'rechazar', codigo: '29', comentario: 'El cliente no tiene la caja del contador instalada.' });
    expect(res.status).toBe(200);
    const d = (await res.json()) as { estado: string; motivos: { codigo: string }[] };
    expect(d.estado).toBe('rechazada_campo');
    expect(d.motivos.map((m) => m.codigo)).toEqual(['29']);
    const xml = await enSalida(empresa, `C104_${await codigoDe(id)}_01.xml`);
    expect(xml).toContain('<CodigoDePaso>04</CodigoDePaso>');
    expect(xml).toContain('<CodigoMotivo>29</CodigoMotivo>');
    expect((await suministro(cups)).comercializadoraCodigo).toBe(SALIENTE);
  });

  it('registra incidencias (03) que dejan la solicitud abierta con la nueva fecha, y después se activa', async () => {
    const id = await aceptada('C2', await punto(), { contrato: { tarifa: '2.0TD', potenciasW: [4600, 4600] } });
    const sol = await codigoDe(id);
    const nueva = '2099-12-01';
    const res = await paso(id, { accion: 'incidencia', codigo: '01', comentario: 'Cliente ausente en la visita.', fechaPrevista: nueva });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ estado: 'incidencia', vence: nueva, acciones: ['activar', 'rechazar', 'incidencia'] });
    expect(await enSalida(empresa, `C203_${sol}_01.xml`)).toContain('<CodigoMotivo>01</CodigoMotivo>');
    expect((await paso(id, { accion: 'incidencia', codigo: '08', comentario: 'Cita concertada con el cliente.' })).status).toBe(200);
    expect(await enSalida(empresa, `C203_${sol}_01_2.xml`)).toContain('<CodigoMotivo>08</CodigoMotivo>');
    expect((await paso(id, { accion: 'incidencia', codigo: '99', comentario: 'Código que no es de la tabla 28.' })).status).toBe(400);
    expect((await paso(id, { accion: 'activar', fecha: hoy() })).status).toBe(200);
  });

  it('un C1 no tiene incidencias (no hay actuación en campo que aplazar): no se ofrecen y se rechazan con 409', async () => {
    const id = await aceptada('C1', await punto());
    const detalle = await llamar(server, 'GET', `/api/administrador/atr/${id}`, { token: tokenEpd });
    expect(((await detalle.json()) as { acciones: string[] }).acciones).toEqual(['activar', 'rechazar']);
    const res = await paso(id, { accion: 'incidencia', codigo: '01', comentario: 'Cliente ausente en la visita.' });
    expect(res.status).toBe(409);
    expect(JSON.stringify(await res.json())).toContain('no tiene paso de incidencias');
  });

  it('en un B1 la incidencia es el paso 06 y el rechazo tras la visita el 07: su 03 y su 04 son la anulación', async () => {
    const cups = await punto({ comercializadoraCodigo: REE });
    const id = await aceptada('B1', cups, { motivoBaja: '02' });
    const sol = await codigoDe(id);
    expect((await paso(id, { accion: 'incidencia', codigo: '13', comentario: 'El consumidor no quiere la baja.' })).status).toBe(200);
    const b106 = await enSalida(empresa, `B106_${sol}_01.xml`);
    expect(b106).toContain('<CodigoDePaso>06</CodigoDePaso>');
    expect(b106).toContain('<MensajeIncidenciasATRDistribuidor');
    expect((await paso(id, { accion: 'rechazar', codigo: '31', comentario: 'El titular impide el acceso al equipo.' })).status).toBe(200);
    const b107 = await enSalida(empresa, `B107_${sol}_01.xml`);
    expect(b107).toContain('<CodigoDePaso>07</CodigoDePaso>');
    expect(b107).toContain('<CodigoMotivo>31</CodigoMotivo>');
    expect((await suministro(cups)).fechaBaja).toBeNull();
  });
});

describe('plazo de respuesta del lector', () => {
  it('cuenta los días hábiles con los festivos de la comunidad del suministro (Ley 39/2015 art. 30.6)', async () => {
    // Tuesday 1 December 2026 in Madrid: 7 December is a holiday of the Comunidad de Madrid and 8
    // December a national one, so 5 business days end on Thursday 10, not on Wednesday 9.
    const ahora = new Date('2026-12-01T09:00:00Z');
    const cups = await punto();
    const sol = `2026${String(++codigo).padStart(8, '0')}`;
    const xml = xmlSolicitud(
      'C1',
      { emisora: REE, destino: '9901', codigoSolicitud: sol, fecha: ahora.toISOString().slice(0, 19), cups },
      { activacion: 'A', titular: { nif: titular, nombre: 'Lucía', apellido1: 'Martín' } },
    );
    const bytes = Buffer.from(xml);
    const recibido = { datos: bytes, bytes: bytes.byteLength, sha256: createHash('sha256').update(bytes).digest('hex') };
    await guardar(server.database.db, empresa, `/epd/entrada/C101_${sol}.xml`, recibido, ahora);
    await leerEntradas({ db: server.database.db, clock: { now: () => ahora }, logger: createLogger('silent') });
    const [recibida] = await server.database.db
      .select({ vence: expedienteEventos.vence })
      .from(expedienteEventos)
      .innerJoin(expedientes, eq(expedientes.id, expedienteEventos.expedienteId))
      .where(and(sql`${expedientes.datos}->>'codigoSolicitud' = ${sol}`, eq(expedienteEventos.accion, 'recibir')));
    expect(recibida?.vence).toBe('2026-12-10');
  });
});
