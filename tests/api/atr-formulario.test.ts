/**
 * The web form of ATR requests (docs/decisions/020): POST /api/atr/solicitudes writes the same step
 * 01 XML a company drops by SFTP into its entrada folder, after checking it as the ATR reader will;
 * the reader then answers it with its 02. A request the distributor would refuse is answered 422
 * with its table 27 codes and nothing is written. The anulación of an open request is written the
 * same way; of another company's request, 404; of a closed one, 409.
 */
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { construirCups } from '../../src/lib/cups.ts';
import type { SolicitudAtrEnviada } from '../../src/lib/atr/formulario.ts';
import { leerEntradas } from '../../src/server/atr/lector.ts';
import { leerMensaje, validar } from '../../src/server/atr/xml.ts';
import { auditLog, users } from '../../src/server/db/schema.ts';
import { abrir, listar, type CuentaIntercambio } from '../../src/server/intercambio/almacen.ts';
import { createLogger } from '../../src/server/logger.ts';
import { consumir, LIMITES, sujetoCuenta } from '../../src/server/rate-limit/service.ts';
import { guardarSuministros } from '../../src/server/suministros/service.ts';
import { GESTORA, cuenta, llamar, nuevoCif, nuevoDni, sesion, type CuentaPrueba } from '../support/privado.ts';
import { servidorDelFichero, unaHoraMasEnCadaTest } from '../support/server.ts';
import { EMPRESA_3_0TD, suministroPrueba } from '../support/suministros.ts';

const server = servidorDelFichero();
unaHoraMasEnCadaTest(server);
const REE = '9831';
const titular = nuevoDni();
let empresa: CuentaPrueba;
let cuentaEmpresa: CuentaIntercambio;
let token = '';

let n = 0;
/** A fresh EPD supply point of `titular`, supplied by the company unless told. */
async function punto(extra: Parameters<typeof suministroPrueba>[3] = {}): Promise<string> {
  const cups = construirCups('9901', 8_000_000 + ++n * 17 + Math.floor(Math.random() * 1000) * 1000);
  await guardarSuministros(server.database.db, [suministroPrueba(cups, 'epd', titular, { comercializadoraCodigo: REE, ...extra })]);
  return cups;
}
const ajeno = (extra: Parameters<typeof suministroPrueba>[3] = {}) => punto({ comercializadoraCodigo: '0901', ...extra });

beforeAll(async () => {
  empresa = await cuenta(server, { extra: ['epd-comercializadora'], prefijo: 'comercializadora', empresa: true });
  await server.database.db.update(users).set({ codigoRee: REE }).where(eq(users.id, empresa.id));
  cuentaEmpresa = { id: empresa.id, distribuidoras: ['epd'] };
});

// Rate-limit windows move with the clock: a fresh session per test.
const conSesion = async () => {
  token = (await sesion(server, empresa.email)).jwtToken;
};

const deps = () => ({ db: server.database.db, clock: server.clock, logger: createLogger('silent') });
const persona = (nif = titular) => ({ nif, nombre: 'Lucía', apellido1: 'Martín', apellido2: 'Ortega' });

/** A form body of `proceso` for `cups`, with `extra` on top. */
function cuerpo(proceso: string, cups: string, extra: Record<string, unknown> = {}) {
  return { proceso, distribuidora: 'epd', cups, titular: persona(), activacion: 'A', ...extra };
}

function enviar(body: unknown, t = token) {
  return llamar(server, 'POST', '/api/atr/solicitudes', { token: t, body });
}

async function enviada(body: unknown): Promise<SolicitudAtrEnviada> {
  const res = await enviar(body);
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as SolicitudAtrEnviada;
}

async function rechazada(body: unknown): Promise<string[]> {
  const antes = await nombresEntrada();
  const res = await enviar(body);
  expect(res.status, await res.clone().text()).toBe(422);
  const r = (await res.json()) as { message: string; motivos: { codigo: string; texto: string; comentario: string }[] };
  expect(r.message).toMatch(/rechazaría/);
  for (const m of r.motivos) {
    expect(m.texto.length).toBeGreaterThan(0);
    expect(m.comentario.length).toBeGreaterThan(0);
  }
  // Nothing was written.
  expect(await nombresEntrada()).toEqual(antes);
  return r.motivos.map((m) => m.codigo);
}

async function nombresEntrada(): Promise<string[]> {
  return (await listar(server.database.db, cuentaEmpresa, '/epd/entrada')).map((e) => e.nombre).sort();
}

async function texto(ruta: string): Promise<string> {
  const l = await abrir(server.database.db, cuentaEmpresa, ruta);
  return (await l.leer(0, l.entrada.bytes)).toString('utf8');
}

/** A file the portal or the reader wrote, checked against its CNMC schema. */
async function valido(ruta: string): Promise<string> {
  const xml = await texto(ruta);
  expect(await validar([leerMensaje(Buffer.from(xml))])).toEqual([[]]);
  return xml;
}

/** The reader's answer (step 02) to a request the form sent. */
async function contestacion(e: SolicitudAtrEnviada): Promise<string> {
  return valido(`/epd/salida/${e.proceso}02_${e.codigoSolicitud}_01.xml`);
}

async function solicitudDe(codigo: string, t = token) {
  const lista = (await (await llamar(server, 'GET', `/api/atr/solicitudes?q=${codigo}`, { token: t })).json()) as {
    id: string;
    estado: string;
  }[];
  expect(lista).toHaveLength(1);
  return lista[0]!;
}

describe('POST /api/atr/solicitudes', () => {
  it('escribe el paso 01 de cada proceso en entrada y el lector lo contesta con su aceptación', async () => {
    await conSesion();
    const enBaja = await punto({ fechaBaja: '2025-12-31' });
    const envios = {
      C1: await enviada(cuerpo('C1', await ajeno())),
      C2: await enviada(
        cuerpo('C2', await ajeno({ ...EMPRESA_3_0TD }), { tarifa: '3.0TD', potenciasW: [25000, 25000, 25000, 25000, 25000, 40000] }),
      ),
      A3: await enviada(
        cuerpo('A3', enBaja, {
          titular: { nif: nuevoCif(), razonSocial: 'Panadería Nueva, S.L.' },
          tarifa: '2.0TD',
          potenciasW: [4600, 4600],
          cnae: '1071',
          telefono: '600111222',
        }),
      ),
      M1: await enviada(cuerpo('M1', await punto(), { tipoModificacion: 'N', tarifa: '2.0TD', potenciasW: [5750, 5750] })),
      M1titular: await enviada(
        cuerpo('M1', await punto(), { tipoModificacion: 'S', solicitudAdministrativa: 'T', titular: persona(nuevoDni()) }),
      ),
      B1: await enviada(cuerpo('B1', await punto(), { motivoBaja: '01', activacion: 'F', fechaActivacion: '2026-12-15' })),
    };
    const codigos = Object.values(envios).map((e) => e.codigoSolicitud);
    for (const c of codigos) expect(c).toMatch(/^2026\d{8}$/);
    expect(new Set(codigos).size).toBe(codigos.length);

    // Each file waits in entrada under the CNMC's name, valid against its schema, as the company's own.
    const entrada = await nombresEntrada();
    for (const e of Object.values(envios)) {
      expect(e.fichero).toBe(`${e.proceso}01_${e.codigoSolicitud}_01.xml`);
      expect(e.ruta).toBe(`/epd/entrada/${e.fichero}`);
      expect(entrada).toContain(e.fichero);
      const xml = await valido(e.ruta);
      expect(xml).toContain(`<CodigoREEEmpresaEmisora>${REE}</CodigoREEEmpresaEmisora>`);
      expect(xml).toContain('<CodigoREEEmpresaDestino>9901</CodigoREEEmpresaDestino>');
      expect(xml).toContain(`<CodigoDeSolicitud>${e.codigoSolicitud}</CodigoDeSolicitud>`);
    }
    expect(await texto(envios.C1.ruta)).toContain('<SegundoApellido>Ortega</SegundoApellido>');
    const a3 = await texto(envios.A3.ruta);
    expect(a3).toContain('<CNAE>1071</CNAE>');
    expect(a3).toContain('<Numero>600111222</Numero>');
    expect(a3).toContain('<RazonSocial>Panadería Nueva, S.L.</RazonSocial>');
    expect(await texto(envios.M1titular.ruta)).toContain('<TipoSolicitudAdministrativa>T</TipoSolicitudAdministrativa>');
    const b1 = await texto(envios.B1.ruta);
    expect(b1).toContain('<IndActivacion>F</IndActivacion>');
    expect(b1).toContain('<FechaPrevistaAccion>2026-12-15</FechaPrevistaAccion>');

    expect(await leerEntradas(deps())).toBe(6);
    expect(await contestacion(envios.C1)).toContain('<MensajeAceptacionCambiodeComercializadorSinCambios');
    expect(await contestacion(envios.C2)).toContain('<MensajeAceptacionCambiodeComercializadorConCambios');
    expect(await contestacion(envios.A3)).toContain('<MensajeAceptacionAlta');
    expect(await contestacion(envios.M1)).toContain('<MensajeAceptacionModificacionDeATR');
    expect(await contestacion(envios.M1titular)).toContain('<MensajeAceptacionModificacionDeATR');
    const b102 = await contestacion(envios.B1);
    expect(b102).toContain('<MensajeAceptacionBajaSuspension');
    expect(b102).toContain('<TipoActivacionPrevista>F0</TipoActivacionPrevista>');
    for (const e of Object.values(envios)) expect((await solicitudDe(e.codigoSolicitud)).estado).toBe('aceptada');

    // Written through the form: the exchange's upload in the audit log.
    const auditadas = await server.database.db.select().from(auditLog).where(eq(auditLog.actorUserId, empresa.id));
    expect(auditadas.filter((a) => a.action === 'intercambio.subida' && a.targetId === envios.C1.ruta)).toHaveLength(1);
  });

  it('rechaza con 422 y el código 03 un titular que no es el del contrato, sin escribir nada', async () => {
    await conSesion();
    const cups = await ajeno();
    expect(await rechazada(cuerpo('C1', cups, { titular: persona(nuevoDni()) }))).toEqual(['03']);
    // With the holder's NIF it goes.
    await enviada(cuerpo('C1', cups));
  });

  it('rechaza un CUPS que la distribuidora no tiene (01)', async () => {
    await conSesion();
    expect(await rechazada(cuerpo('C1', construirCups('9901', 6_543_219)))).toEqual(['01']);
  });

  it('rechaza las potencias en orden decreciente (15), por encima de la máxima (14) y una tarifa que la tensión no admite (17)', async () => {
    await conSesion();
    const tresCero = await punto({ ...EMPRESA_3_0TD });
    expect(
      await rechazada(
        cuerpo('M1', tresCero, { tipoModificacion: 'N', tarifa: '3.0TD', potenciasW: [40000, 30000, 30000, 30000, 30000, 30000] }),
      ),
    ).toEqual(['15']);
    // 10,35 kW is a normalised single-phase power, over the installation's 9,2 kW.
    expect(await rechazada(cuerpo('M1', await punto(), { tipoModificacion: 'N', tarifa: '2.0TD', potenciasW: [10350, 10350] }))).toEqual([
      '14',
    ]);
    // A high-voltage tariff on a low-voltage supply.
    expect(
      await rechazada(
        cuerpo('C2', await ajeno({ ...EMPRESA_3_0TD }), { tarifa: '6.1TD', potenciasW: [30000, 30000, 30000, 30000, 30000, 50000] }),
      ),
    ).toEqual(['17']);
  });

  it('rechaza una solicitud sobre un suministro con otra en curso: A3 (37), C2 (39), M1 (40); y un contrato en baja (72)', async () => {
    await conSesion();
    const enBaja = await punto({ fechaBaja: '2025-06-30' });
    const c2 = await ajeno({ ...EMPRESA_3_0TD });
    const m1 = await punto();
    await enviada(cuerpo('A3', enBaja, { tarifa: '2.0TD', potenciasW: [4600, 4600], cnae: '9820', telefono: '600111222' }));
    await enviada(cuerpo('C2', c2, { tarifa: '3.0TD', potenciasW: [20000, 20000, 25000, 25000, 25000, 40000] }));
    await enviada(cuerpo('M1', m1, { tipoModificacion: 'N', tarifa: '2.0TD', potenciasW: [5750, 5750] }));
    await leerEntradas(deps());

    expect(
      await rechazada(cuerpo('A3', enBaja, { tarifa: '2.0TD', potenciasW: [4600, 4600], cnae: '9820', telefono: '600111222' })),
    ).toEqual(['37']);
    expect(await rechazada(cuerpo('C1', c2))).toEqual(['39']);
    expect(await rechazada(cuerpo('B1', m1, { motivoBaja: '02' }))).toEqual(['40']);
    // A supply point whose contract ended: a switch is refused (72); the A3 in progress adds 37.
    expect((await rechazada(cuerpo('C1', enBaja))).sort()).toEqual(['37', '72']);
    expect(await rechazada(cuerpo('C1', await ajeno({ fechaBaja: '2025-01-31' })))).toEqual(['72']);
  });

  it('valida el formulario con los mensajes en español: NIF, CUPS, potencias por tarifa, fecha de activación', async () => {
    await conSesion();
    const cups = await ajeno();
    const mensajes = async (body: unknown) => {
      const res = await enviar(body);
      expect(res.status).toBe(400);
      return ((await res.json()) as string[]).join(' ');
    };
    expect(await mensajes(cuerpo('C1', cups, { titular: persona('12345678A') }))).toMatch(/no es un DNI, NIE ni CIF válido/);
    expect(await mensajes(cuerpo('C1', 'ES9901000000000001XX'))).toMatch(/letras de control/);
    expect(await mensajes(cuerpo('C1', cups, { titular: { nif: nuevoCif() } }))).toMatch(/razón social/);
    expect(await mensajes(cuerpo('C2', cups, { tarifa: '2.0TD', potenciasW: [4600, 4600, 4600] }))).toMatch(/contrata 2 potencias/);
    expect(await mensajes(cuerpo('A3', cups, { tarifa: '2.0TD', potenciasW: [4600, 4600], cnae: '98', telefono: '12' }))).toMatch(
      /CNAE son cuatro cifras.*teléfono/,
    );
    expect(await mensajes(cuerpo('M1', cups, { tipoModificacion: 'S' }))).toMatch(/cambio administrativo/);
    expect(await mensajes(cuerpo('C1', cups, { activacion: 'F' }))).toMatch(/Indique la fecha/);
    expect(await mensajes(cuerpo('C1', cups, { activacion: 'F', fechaActivacion: '2026-11-02' }))).toMatch(/posterior a hoy/);
    expect(await mensajes({ ...cuerpo('C1', cups), proceso: 'R1' })).toMatch(/Elija el proceso/);
  });

  it('responde 403 sin permiso de comercializadora, a otra distribuidora o suplantando, y 422 sin código REE', async () => {
    await conSesion();
    const cups = await ajeno();
    const hogar = await cuenta(server, { prefijo: 'consumidor' });
    expect((await enviar(cuerpo('C1', cups), (await sesion(server, hogar.email)).jwtToken)).status).toBe(403);
    expect((await enviar({ ...cuerpo('C1', cups), distribuidora: 'eod' })).status).toBe(403);

    const sinRee = await cuenta(server, { extra: ['epd-comercializadora'], prefijo: 'comercializadora' });
    const res = await enviar(cuerpo('C1', cups), (await sesion(server, sinRee.email)).jwtToken);
    expect(res.status).toBe(422);
    expect(((await res.json()) as { message: string }).message).toMatch(/no tiene código REE/);

    const admin = await cuenta(server, GESTORA);
    const propia = await sesion(server, admin.email);
    const sup = await llamar(server, 'POST', '/api/accesoUsuarioSuplantacion', {
      token: propia.jwtToken,
      body: { username: empresa.email },
    });
    expect(sup.status).toBe(200);
    const suplantada = ((await sup.json()) as { jwtToken: string }).jwtToken;
    const r = await enviar(cuerpo('C1', cups), suplantada);
    expect(r.status).toBe(403);
    expect(((await r.json()) as { message: string }).message).toMatch(/actúa como otro usuario/);
  });

  it('limita los envíos por cuenta y hora, contando también los rechazados', async () => {
    const otra = await cuenta(server, { extra: ['epd-comercializadora'], prefijo: 'comercializadora' });
    await server.database.db.update(users).set({ codigoRee: '9832' }).where(eq(users.id, otra.id));
    const t = (await sesion(server, otra.email)).jwtToken;
    const body = cuerpo('C1', construirCups('9901', 6_543_227));
    expect((await enviar(body, t)).status).toBe(422);
    // The other 59 of the hour, taken straight from the counter the route uses.
    const limites = { db: server.database.db, clock: server.clock, config: server.config };
    for (let i = 1; i < LIMITES.solicitudAtr.max; i++)
      await consumir(limites, [{ limite: LIMITES.solicitudAtr, sujeto: sujetoCuenta(otra.id) }]);
    const res = await enviar(body, t);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await llamar(server, 'POST', '/api/atr/solicitudes/00000000-0000-4000-8000-000000000000/anulacion', { token: t })).status).toBe(
      429,
    );
  });
});

describe('POST /api/atr/solicitudes/{id}/anulacion', () => {
  it('escribe la anulación de una solicitud abierta, que el lector acepta; cerrada, 409; de otra empresa, 404', async () => {
    await conSesion();
    const e = await enviada(cuerpo('C1', await ajeno()));
    await leerEntradas(deps());
    const { id } = await solicitudDe(e.codigoSolicitud);
    const detalle = async () =>
      (await (await llamar(server, 'GET', `/api/atr/solicitudes/${id}`, { token })).json()) as { abierta: boolean; estado: string };
    expect(await detalle()).toMatchObject({ abierta: true, estado: 'aceptada' });

    // Another company's request is not there for it.
    const otra = await cuenta(server, { extra: ['epd-comercializadora'], prefijo: 'comercializadora' });
    await server.database.db.update(users).set({ codigoRee: '9833' }).where(eq(users.id, otra.id));
    const tokenOtra = (await sesion(server, otra.email)).jwtToken;
    expect((await llamar(server, 'POST', `/api/atr/solicitudes/${id}/anulacion`, { token: tokenOtra })).status).toBe(404);
    expect((await llamar(server, 'POST', '/api/atr/solicitudes/00000000-0000-4000-8000-000000000000/anulacion', { token })).status).toBe(
      404,
    );
    const hogar = await cuenta(server, { prefijo: 'consumidor' });
    const tokenHogar = (await sesion(server, hogar.email)).jwtToken;
    expect((await llamar(server, 'POST', `/api/atr/solicitudes/${id}/anulacion`, { token: tokenHogar })).status).toBe(403);

    const res = await llamar(server, 'POST', `/api/atr/solicitudes/${id}/anulacion`, { token });
    expect(res.status).toBe(201);
    const anulacion = (await res.json()) as SolicitudAtrEnviada;
    expect(anulacion.fichero).toBe(`C108_${e.codigoSolicitud}_01.xml`);
    const xml = await valido(anulacion.ruta);
    expect(xml).toContain('<MensajeAnulacionSolicitud');
    expect(xml).toContain('<CodigoDePaso>08</CodigoDePaso>');
    // Sent twice before the reader reads it: one file, the second refused.
    expect((await llamar(server, 'POST', `/api/atr/solicitudes/${id}/anulacion`, { token })).status).toBe(409);

    await leerEntradas(deps());
    expect(await valido(`/epd/salida/C109_${e.codigoSolicitud}_01.xml`)).toContain('<MensajeAceptacionAnulacion');
    expect(await detalle()).toMatchObject({ abierta: false, estado: 'anulada' });
    const cerrada = await llamar(server, 'POST', `/api/atr/solicitudes/${id}/anulacion`, { token });
    expect(cerrada.status).toBe(409);
    expect(((await cerrada.json()) as { message: string }).message).toMatch(/ya está cerrada/);
  });

  it('anula un B1 con su paso 03 y un M1 con su paso 06', async () => {
    await conSesion();
    const b1 = await enviada(cuerpo('B1', await punto(), { motivoBaja: '02' }));
    const m1 = await enviada(cuerpo('M1', await punto(), { tipoModificacion: 'N', tarifa: '2.0TD', potenciasW: [5750, 5750] }));
    await leerEntradas(deps());
    for (const [e, paso, respuesta, raiz] of [
      [b1, '03', '04', 'MensajeAceptacionAnulacionBaja'],
      [m1, '06', '07', 'MensajeAceptacionAnulacion'],
    ] as const) {
      const { id } = await solicitudDe(e.codigoSolicitud);
      const res = await llamar(server, 'POST', `/api/atr/solicitudes/${id}/anulacion`, { token });
      expect(res.status).toBe(201);
      expect(((await res.json()) as SolicitudAtrEnviada).fichero).toBe(`${e.proceso}${paso}_${e.codigoSolicitud}_01.xml`);
      await leerEntradas(deps());
      const xml = await texto(`/epd/salida/${e.proceso}${respuesta}_${e.codigoSolicitud}_01.xml`);
      expect(xml).toContain(`<${raiz}`);
      // Valid against the CNMC schema of the anulación's acceptance (B1 has its own).
      expect(await validar([leerMensaje(Buffer.from(xml))])).toEqual([[]]);
      expect((await solicitudDe(e.codigoSolicitud)).estado).toBe('anulada');
    }
  });
});
