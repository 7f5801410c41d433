/**
 * Claims a supply company files for its customer through the file exchange (R1, docs/decisions/046),
 * through HTTP on a real database: an R1 01 dropped into the company's `entrada` becomes a claim case
 * the staff work in their queue; accepting it writes the R1 02 acceptance, closing it the R1 05, and
 * rejecting it an R1 02 rejection, each in the company's `salida` and valid against the CNMC schema.
 * A request for a point the company does not supply, or one missing its subtype's fields, is
 * rejected at once; a request code used twice is set aside.
 */
import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { construirCups } from '../../src/lib/cups.ts';
import type { DatosReclamacion } from '../../src/lib/contacto/datos.ts';
import { leerEntradas } from '../../src/server/atr/lector.ts';
import { escribirMensaje, leerMensaje, validar } from '../../src/server/atr/xml.ts';
import { mensajeR101 } from '../../src/server/contacto/r1.ts';
import { expedientes, ficherosIntercambio, users } from '../../src/server/db/schema.ts';
import { abrir, guardar, type CuentaIntercambio } from '../../src/server/intercambio/almacen.ts';
import { createLogger } from '../../src/server/logger.ts';
import { guardarSuministros } from '../../src/server/suministros/service.ts';
import { administrador, cuenta, llamar, nuevoDni } from '../support/privado.ts';
import { servidorDelFichero } from '../support/server.ts';
import { suministroPrueba } from '../support/suministros.ts';

const server = servidorDelFichero();
const REE = '9811';
let empresa: CuentaIntercambio;
let tokenEpd: string;
let n = 0;
let codigo = 0;

async function punto(comercializadora: string): Promise<string> {
  const cups = construirCups('9901', 9_100_000 + ++n * 13 + Math.floor(Math.random() * 1000) * 1000);
  await guardarSuministros(server.database.db, [suministroPrueba(cups, 'epd', nuevoDni(), { comercializadoraCodigo: comercializadora })]);
  return cups;
}

/** An R1 01 as a company's system writes it (the portal's own writer, with the company as sender). */
function r101(cups: string, datos: Partial<DatosReclamacion> = {}): { xml: string; sol: string } {
  const numero = ++codigo;
  const xml = mensajeR101({
    referencia: `RC-2026-${String(500_000 + numero).padStart(6, '0')}`,
    distribuidora: 'epd',
    presentadoEn: server.clock.now().toISOString(),
    emisora: REE,
    reclamacion: {
      rol: '06',
      tipo: '02',
      subtipo: '006',
      campos: { cups: `${cups}0F`, nifTitular: '12345678Z', nombreTitular: 'Lucía Martín Gómez' },
      mensaje: 'El contrato de acceso de este cliente no se ha facturado desde su alta.',
      ...datos,
    },
  });
  return { xml, sol: /<CodigoDeSolicitud>(\d+)</.exec(xml)![1]! };
}

async function dejar(nombre: string, xml: string) {
  const bytes = Buffer.from(xml);
  const recibido = { datos: bytes, bytes: bytes.byteLength, sha256: createHash('sha256').update(bytes).digest('hex') };
  await guardar(server.database.db, empresa, `/epd/entrada/${nombre}`, recibido, server.clock.now());
  await leerEntradas({ db: server.database.db, clock: server.clock, logger: createLogger('silent') });
}

/** A file of the company's salida, valid against its CNMC schema. */
async function enSalida(nombre: string): Promise<string> {
  const l = await abrir(server.database.db, empresa, `/epd/salida/${nombre}`);
  const xml = (await l.leer(0, l.entrada.bytes)).toString('utf8');
  expect(await validar([leerMensaje(Buffer.from(xml))])).toEqual([[]]);
  return xml;
}

async function casoDe(sol: string) {
  const [e] = await server.database.db
    .select()
    .from(expedientes)
    .where(and(eq(expedientes.procedimiento, 'reclamacion'), sql`${expedientes.datos}->'intercambio'->>'codigoSolicitud' = ${sol}`));
  return e;
}

/** An R1 04 as the company's system writes it: its answer to the request for information. */
const r104 = (sol: string, cups: string, comentarios: string) =>
  escribirMensaje({
    n: 'MensajeEnvioInformacionReclamacion',
    h: [
      {
        n: 'CabeceraReclamacion',
        h: [
          { n: 'CodigoREEEmpresaEmisora', t: REE },
          { n: 'CodigoREEEmpresaDestino', t: '9901' },
          { n: 'CodigoDelProceso', t: 'R1' },
          { n: 'CodigoDePaso', t: '04' },
          { n: 'CodigoDeSolicitud', t: sol },
          { n: 'SecuencialDeSolicitud', t: '01' },
          { n: 'FechaSolicitud', t: '2026-12-01T10:00:00' },
          { n: 'CUPS', t: cups },
        ],
      },
      {
        n: 'EnvioInformacionReclamacion',
        h: [
          { n: 'DatosEnvioInformacion', h: [{ n: 'FechaInformacion', t: '2026-12-01' }] },
          { n: 'Comentarios', t: comentarios },
        ],
      },
    ],
  });

/** An R1 08 as the company's system writes it: the anulación of its claim `sol`. */
const r108 = (sol: string, cups: string) =>
  escribirMensaje({
    n: 'MensajeAnulacionSolicitudReclamacion',
    h: [
      {
        n: 'CabeceraReclamacion',
        h: [
          { n: 'CodigoREEEmpresaEmisora', t: REE },
          { n: 'CodigoREEEmpresaDestino', t: '9901' },
          { n: 'CodigoDelProceso', t: 'R1' },
          { n: 'CodigoDePaso', t: '08' },
          { n: 'CodigoDeSolicitud', t: sol },
          { n: 'SecuencialDeSolicitud', t: '01' },
          { n: 'FechaSolicitud', t: '2026-12-01T10:00:00' },
          { n: 'CUPS', t: cups },
        ],
      },
    ],
  });

/** How many files whose name starts so were set aside in the company's `entrada/rechazados`. */
async function apartados(nombre: string): Promise<number> {
  const filas = await server.database.db
    .select({ ruta: ficherosIntercambio.ruta })
    .from(ficherosIntercambio)
    .where(and(eq(ficherosIntercambio.usuarioId, empresa.id), sql`${ficherosIntercambio.ruta} like ${`%rechazados/${nombre}%`}`));
  return filas.filter((f) => f.ruta.endsWith('.xml')).length;
}

const paso = (id: string, accion: string, cuerpo: unknown) =>
  llamar(server, 'POST', `/api/administrador/contacto/${id}/${accion}`, { token: tokenEpd, body: cuerpo });

beforeAll(async () => {
  const c = await cuenta(server, { extra: ['epd-comercializadora'], prefijo: 'comercializadora', empresa: true });
  await server.database.db.update(users).set({ codigoRee: REE }).where(eq(users.id, c.id));
  empresa = { id: c.id, distribuidoras: ['epd'] };
  tokenEpd = (await administrador(server, ['epd-administrador'])).token;
});

describe('reclamaciones R1 de una comercializadora por el intercambio', () => {
  it('un R1 01 se presenta como reclamación; aceptarla escribe el R1 02 y cerrarla el R1 05', async () => {
    const cups = await punto(REE);
    const { xml, sol } = r101(cups);
    await dejar(`R101_${sol}.xml`, xml);
    const caso = await casoDe(sol);
    expect(caso).toMatchObject({ userId: empresa.id, paso: 'presentada', distribuidora: 'epd' });
    expect((caso!.datos as { campos: { cups: string } }).campos.cups).toBe(cups);

    const detalle = await llamar(server, 'GET', `/api/administrador/contacto/${caso!.id}`, { token: tokenEpd });
    expect(detalle.status).toBe(200);
    const referencia = ((await detalle.json()) as { referencia: string }).referencia;

    expect((await paso(caso!.id, 'aceptar', { mensaje: '' })).status).toBe(200);
    const r102 = await enSalida(`R102_${sol}_01.xml`);
    expect(r102).toContain('<MensajeAceptacionReclamacion');
    expect(r102).toContain(`<CodigoReclamacionDistribuidora>${referencia}</CodigoReclamacionDistribuidora>`);
    // The answer names the point as the request did, with its measure point's two characters.
    expect(r102).toContain(`<CUPS>${cups}0F</CUPS>`);

    // Closing as «anulada» is the company's own anulación, never an R1 05.
    expect((await paso(caso!.id, 'cerrar', { resultado: '04', mensaje: 'Anulada.' })).status).toBe(422);
    const cierre = await paso(caso!.id, 'cerrar', { resultado: '01', mensaje: 'Se ha facturado el contrato y se le enviará la factura.' });
    expect(cierre.status).toBe(200);
    const r105 = await enSalida(`R105_${sol}_01.xml`);
    expect(r105).toContain('<ResultadoReclamacion>01</ResultadoReclamacion>');
    expect(r105).toContain('<Subtipo>006</Subtipo>');
  });

  it('pedir información escribe el R1 03, y el R1 04 de la comercializadora la envía', async () => {
    const cups = await punto(REE);
    const { xml, sol } = r101(cups);
    await dejar(`R101_${sol}.xml`, xml);
    const caso = await casoDe(sol);
    // An answer nobody asked for is set aside with its reason.
    await dejar(`R104_${sol}_antes.xml`, r104(sol, cups, 'Adjuntamos la factura.'));
    expect(await apartados(`R104_${sol}_antes`)).toBe(1);

    expect((await paso(caso!.id, 'aceptar', { mensaje: '' })).status).toBe(200);
    const pedir = await paso(caso!.id, 'pedir_informacion', { mensaje: 'Envíen la última factura de acceso que el cliente recibió.' });
    expect(pedir.status).toBe(200);
    const r103 = await enSalida(`R103_${sol}_01.xml`);
    expect(r103).toContain('<MensajePeticionInformacionAdicionalReclamacion');
    expect(r103).toContain('<TipoComunicacion>01</TipoComunicacion>');
    expect(r103).toContain(`<FechaLimiteEnvio>${((await pedir.json()) as { vence: string }).vence}</FechaLimiteEnvio>`);

    await dejar(`R104_${sol}.xml`, r104(sol, cups, 'La última factura de acceso es de septiembre.'));
    const despues = await casoDe(sol);
    expect(despues!.paso).toBe('informacion_enviada');
    const detalle = await llamar(server, 'GET', `/api/administrador/contacto/${caso!.id}`, { token: tokenEpd });
    const eventos = ((await detalle.json()) as { eventos: { accion: string; mensaje: string | null }[] }).eventos;
    expect(eventos.at(-1)).toMatchObject({ accion: 'enviar_informacion', mensaje: 'La última factura de acceso es de septiembre.' });
  });

  it('el R1 08 de la comercializadora anula la reclamación en curso y recibe el R1 09; una cerrada o desconocida, su rechazo', async () => {
    const cups = await punto(REE);
    const { xml, sol } = r101(cups);
    await dejar(`R101_${sol}.xml`, xml);
    const caso = await casoDe(sol);
    expect((await paso(caso!.id, 'aceptar', { mensaje: '' })).status).toBe(200);
    await dejar(`R108_${sol}.xml`, r108(sol, cups));
    const r109 = await enSalida(`R109_${sol}_01.xml`);
    expect(r109).toContain('<MensajeAceptacionAnulacionReclamacion');
    expect(r109).toContain('<CodigoDePaso>09</CodigoDePaso>');
    expect((await casoDe(sol))!.paso).toBe('anulada');
    // The staff's view of the case ends with the claimant's anulación.
    const detalle = await llamar(server, 'GET', `/api/administrador/contacto/${caso!.id}`, { token: tokenEpd });
    const eventos = ((await detalle.json()) as { eventos: { accion: string }[] }).eventos;
    expect(eventos.at(-1)!.accion).toBe('desistir');

    // Anulled already: an R1 09 rejection with table 27 code 42, and the case stays as it is.
    await dejar(`R108_${sol}_otra.xml`, r108(sol, cups));
    const rechazo = await enSalida(`R109_${sol}_01.xml`);
    expect(rechazo).toContain('<MensajeRechazoReclamacion');
    expect(rechazo).toContain('<CodigoMotivo>42</CodigoMotivo>');
    // A request code the company never used: D2, nothing to anul.
    await dejar('R108_desconocida.xml', r108('209999999999', cups));
    const d2 = await enSalida('R109_209999999999_01.xml');
    expect(d2).toContain('<CodigoMotivo>D2</CodigoMotivo>');
  });

  it('rechazarla escribe el R1 02 de rechazo con el motivo del personal', async () => {
    const { xml, sol } = r101(await punto(REE));
    await dejar(`R101_${sol}.xml`, xml);
    const caso = await casoDe(sol);
    expect((await paso(caso!.id, 'rechazar', { mensaje: 'El contrato se factura desde el mes pasado.' })).status).toBe(200);
    const r102 = await enSalida(`R102_${sol}_01.xml`);
    expect(r102).toContain('<MensajeRechazoReclamacion');
    expect(r102).toContain('El contrato se factura desde el mes pasado.');
  });

  it('un suministro de otra comercializadora se rechaza al momento (11) y no abre reclamación', async () => {
    const { xml, sol } = r101(await punto('0902'));
    await dejar(`R101_${sol}.xml`, xml);
    expect(await casoDe(sol)).toBeUndefined();
    const r102 = await enSalida(`R102_${sol}_01.xml`);
    expect(r102).toContain('<CodigoMotivo>11</CodigoMotivo>');
  });

  it('sin los datos que pide su subtipo se rechaza al momento (85)', async () => {
    const { xml, sol } = r101(await punto(REE), { subtipo: '007' });
    await dejar(`R101_${sol}.xml`, xml);
    expect(await casoDe(sol)).toBeUndefined();
    const r102 = await enSalida(`R102_${sol}_01.xml`);
    expect(r102).toContain('<CodigoMotivo>85</CodigoMotivo>');
    expect(r102).toContain('numeroFactura');
  });

  it('el mismo código de solicitud dos veces se aparta con su motivo', async () => {
    const { xml, sol } = r101(await punto(REE));
    await dejar(`R101_${sol}.xml`, xml);
    await dejar(`R101_${sol}_otra.xml`, xml);
    expect(await apartados(`R101_${sol}_otra`)).toBeGreaterThan(0);
  });
});
