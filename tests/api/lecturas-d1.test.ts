/**
 * D1, the distributor's notice to a supply company (docs/decisions/050): a telemanaged meter that
 * stops communicating, or does again, is notified to the point's company in its salida (table 109
 * reasons 02 and 01), valid against the CNMC schema, whether the staff change the state or a
 * telemanagement file does; the company's D1 02 (acceptance or rejection) is recorded on the notice
 * and read by the staff; answers to no notice, or a second answer, are set aside.
 */
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { construirCups } from '../../src/lib/cups.ts';
import type { EstadoAdminRespuesta } from '../../src/lib/lecturas/respuestas.ts';
import { leerEntradas } from '../../src/server/atr/lector.ts';
import { leerMensaje, validar } from '../../src/server/atr/xml.ts';
import { notificacionesD1, suministros, users } from '../../src/server/db/schema.ts';
import { abrir, guardar, listar, Recepcion, type CuentaIntercambio } from '../../src/server/intercambio/almacen.ts';
import { guardarEstadosContador, importarEstadosContador } from '../../src/server/lecturas/service.ts';
import { createLogger } from '../../src/server/logger.ts';
import { guardarSuministros } from '../../src/server/suministros/service.ts';
import { administrador, auditadas, cuenta, llamar, nuevoDni } from '../support/privado.ts';
import { servidorDelFichero } from '../support/server.ts';
import { suministroPrueba } from '../support/suministros.ts';

const server = servidorDelFichero();
const REE = '9815';
let empresa: CuentaIntercambio;
let admin: string;
let n = 0;

/** A telemanaged EPD point of the company (unless told), whose meter communicates. */
async function punto(extra: Parameters<typeof suministroPrueba>[3] = {}) {
  const cups = construirCups('9901', 8_300_000 + ++n * 19 + Math.floor(Math.random() * 1000) * 1000);
  await guardarSuministros(server.database.db, [suministroPrueba(cups, 'epd', nuevoDni(), { comercializadoraCodigo: REE, ...extra })]);
  const [s] = await server.database.db.select().from(suministros).where(eq(suministros.cups, cups));
  await guardarEstadosContador(
    server.database.db,
    [
      {
        suministroId: s!.id,
        comunica: true,
        ultimaComunicacion: null,
        interruptor: 'cerrado',
        estadoSuministro: 'con_suministro',
        motivo: null,
      },
    ],
    { origen: 'demo', actualizadoPor: null, ahora: server.clock.now() },
  );
  return { cups, id: s!.id };
}

beforeAll(async () => {
  const c = await cuenta(server, { extra: ['epd-comercializadora'], prefijo: 'comercializadora' });
  await server.database.db.update(users).set({ codigoRee: REE }).where(eq(users.id, c.id));
  empresa = { id: c.id, distribuidoras: ['epd'] };
  admin = (await administrador(server, ['epd-administrador'])).token;
});

const contador = (cups: string) => `/api/administrador/contadores/${cups}`;
const estado = (comunica: boolean) => ({ comunica, interruptor: 'cerrado', estadoSuministro: 'con_suministro' });
async function cambiar(cups: string, cuerpo: Record<string, unknown>): Promise<EstadoAdminRespuesta> {
  const res = await llamar(server, 'PUT', contador(cups), { token: admin, body: cuerpo });
  expect(res.status).toBe(200);
  return (await res.json()) as EstadoAdminRespuesta;
}

async function texto(ruta: string): Promise<string> {
  const l = await abrir(server.database.db, empresa, ruta);
  return (await l.leer(0, l.entrada.bytes)).toString('utf8');
}

/** The D1 01 of `codigo` in the company's salida, checked against its CNMC schema. */
async function d101(codigo: string): Promise<string> {
  const xml = await texto(`/epd/salida/D101_${codigo}_01.xml`);
  expect(await validar([leerMensaje(Buffer.from(xml))])).toEqual([[]]);
  return xml;
}

function respuesta(cups: string, codigo: string, rechazo: { codigo: string; comentario: string } | null) {
  const cabecera = `<Cabecera><CodigoREEEmpresaEmisora>${REE}</CodigoREEEmpresaEmisora><CodigoREEEmpresaDestino>9901</CodigoREEEmpresaDestino><CodigoDelProceso>D1</CodigoDelProceso><CodigoDePaso>02</CodigoDePaso><CodigoDeSolicitud>${codigo}</CodigoDeSolicitud><SecuencialDeSolicitud>01</SecuencialDeSolicitud><FechaSolicitud>2026-11-02T12:00:00</FechaSolicitud><CUPS>${cups}</CUPS></Cabecera>`;
  return rechazo
    ? `<?xml version="1.0" encoding="UTF-8"?><MensajeRechazoD1 xmlns="http://localhost/elegibilidad">${cabecera}<Rechazos><FechaRechazo>2026-11-02</FechaRechazo><Rechazo><Secuencial>1</Secuencial><CodigoMotivo>${rechazo.codigo}</CodigoMotivo><Comentarios>${rechazo.comentario}</Comentarios></Rechazo></Rechazos></MensajeRechazoD1>`
    : `<?xml version="1.0" encoding="UTF-8"?><MensajeAceptacionNotificacionCambiosATRDesdeDistribuidor xmlns="http://localhost/elegibilidad">${cabecera}<AceptacionNotificacionCambiosATRDesdeDistribuidor><DatosAceptacion><FechaAceptacion>2026-11-02</FechaAceptacion></DatosAceptacion></AceptacionNotificacionCambiosATRDesdeDistribuidor></MensajeAceptacionNotificacionCambiosATRDesdeDistribuidor>`;
}

async function responder(nombre: string, xml: string) {
  const r = await Recepcion.abrir();
  try {
    await r.escribir(0, Buffer.from(xml));
    await guardar(server.database.db, empresa, `/epd/entrada/${nombre}`, await r.terminar(), server.clock.now());
  } finally {
    await r.descartar();
  }
  expect(await leerEntradas({ db: server.database.db, clock: server.clock, logger: createLogger('silent') })).toBe(1);
}

async function apartado(nombre: string): Promise<string> {
  const l = await listar(server.database.db, empresa, '/epd/entrada/rechazados');
  expect(l.map((e) => e.nombre)).toContain(`${nombre}.txt`);
  return texto(`/epd/entrada/rechazados/${nombre}.txt`);
}

describe('D1: avisos de telegestión a la comercializadora', () => {
  it('avisa con un D1 01 (motivo 02) cuando el contador deja de comunicar, y registra su rechazo', async () => {
    const p = await punto();
    const tras = await cambiar(p.cups, estado(false));
    expect(tras.notificaciones).toHaveLength(1);
    const aviso = tras.notificaciones[0]!;
    expect(aviso).toMatchObject({
      motivo: '02',
      comercializadora: REE,
      respuesta: null,
      respuestaTexto: 'Sin respuesta de la comercializadora',
    });
    expect(aviso.codigoSolicitud).toMatch(/^2026\d{8}$/);
    const xml = await d101(aviso.codigoSolicitud);
    expect(xml).toMatch(/<CodigoREEEmpresaEmisora>9901<\/CodigoREEEmpresaEmisora>\s*<CodigoREEEmpresaDestino>9815</);
    expect(xml).toContain('<MotivoCambioATRDesdeDistribuidora>02</MotivoCambioATRDesdeDistribuidora>');
    expect(xml).toContain(`<CUPS>${p.cups}0F</CUPS>`);
    expect(await auditadas(server, 'lecturas.d1_enviada', { objetivo: String(p.id) })).toHaveLength(1);

    // A change that leaves the communication as it was sends nothing.
    await cambiar(p.cups, { ...estado(false), interruptor: 'abierto_exceso' });
    expect(await server.database.db.select().from(notificacionesD1).where(eq(notificacionesD1.suministroId, p.id))).toHaveLength(1);

    const nombre = `D102_${aviso.codigoSolicitud}.xml`;
    await responder(
      nombre,
      respuesta(p.cups, aviso.codigoSolicitud, { codigo: 'F1', comentario: 'El cliente dice que el contador comunica.' }),
    );
    const leido = (await (await llamar(server, 'GET', contador(p.cups), { token: admin })).json()) as EstadoAdminRespuesta;
    expect(leido.notificaciones[0]).toMatchObject({
      respuesta: 'rechazada',
      respuestaTexto: 'Rechazada por la comercializadora (F1: El cliente dice que el contador comunica.)',
    });
    expect(await auditadas(server, 'lecturas.d1_rechazada', { objetivo: String(p.id) })).toHaveLength(1);

    // A second answer to the same notice is set aside.
    await responder(`otra-${nombre}`, respuesta(p.cups, aviso.codigoSolicitud, null));
    expect(await apartado(`otra-${nombre}`)).toContain(`La notificación D1 ${aviso.codigoSolicitud} ya se respondió`);
  });

  it('avisa con motivo 01 cuando vuelve a comunicar, y registra su aceptación', async () => {
    const p = await punto();
    await cambiar(p.cups, estado(false));
    const tras = await cambiar(p.cups, estado(true));
    expect(tras.notificaciones.map((x) => x.motivo)).toEqual(['01', '02']);
    const codigo = tras.notificaciones[0]!.codigoSolicitud;
    expect(await d101(codigo)).toContain('<MotivoCambioATRDesdeDistribuidora>01</MotivoCambioATRDesdeDistribuidora>');
    await responder(`D102_${codigo}.xml`, respuesta(p.cups, codigo, null));
    const leido = (await (await llamar(server, 'GET', contador(p.cups), { token: admin })).json()) as EstadoAdminRespuesta;
    expect(leido.notificaciones[0]).toMatchObject({ respuesta: 'aceptada', respuestaTexto: 'Aceptada por la comercializadora' });
  });

  it('un fichero de telegestión que cambia la comunicación también avisa', async () => {
    const p = await punto();
    await importarEstadosContador(
      server.database.db,
      [
        {
          linea: 2,
          cups: p.cups,
          comunica: false,
          ultimaComunicacion: null,
          interruptor: 'cerrado',
          estadoSuministro: 'con_suministro',
          motivo: null,
        },
      ],
      server.clock.now(),
    );
    const filas = await server.database.db.select().from(notificacionesD1).where(eq(notificacionesD1.suministroId, p.id));
    expect(filas.map((f) => f.motivo)).toEqual(['02']);
    await d101(filas[0]!.codigoSolicitud);
  });

  it('no avisa a una comercializadora sin cuenta de intercambio, ni por un contador sin telegestión', async () => {
    const otra = await punto({ comercializadoraCodigo: '0901' });
    expect((await cambiar(otra.cups, estado(false))).notificaciones).toEqual([]);
    const visitado = await punto({ telegestionado: false, modoControlPotencia: 'icp' });
    expect((await cambiar(visitado.cups, estado(false))).notificaciones).toEqual([]);
  });

  it('aparta la respuesta a una notificación que no existe', async () => {
    const p = await punto();
    await responder('D102_202699999999.xml', respuesta(p.cups, '202699999999', null));
    expect(await apartado('D102_202699999999.xml')).toContain('No le hemos enviado ninguna notificación D1 con el código 202699999999');
  });
});
