/**
 * W1, a customer's self-reading passed on by its supply company through the file exchange
 * (docs/decisions/049): accepted with W1 02 valid against the CNMC schema and stored as the point's
 * self-reading, which its holder then reads in «Estado del contador»; refused with the table 27
 * reasons the format gives W1 (66, 67, 73, 75, 77, 78, 79, and 01, 11); a repeated request set aside.
 */
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { construirCups } from '../../src/lib/cups.ts';
import { fechaLocalDe, inicioDiaLocal } from '../../src/lib/calendario/hora-civil.ts';
import { sumarDias } from '../../src/lib/calendario/fechas.ts';
import type { EstadoAdminRespuesta, EstadosRespuesta } from '../../src/lib/lecturas/respuestas.ts';
import { leerEntradas } from '../../src/server/atr/lector.ts';
import { leerMensaje, validar } from '../../src/server/atr/xml.ts';
import { lecturasContador, suministros, users } from '../../src/server/db/schema.ts';
import { abrir, guardar, listar, Recepcion, type CuentaIntercambio } from '../../src/server/intercambio/almacen.ts';
import { guardarLecturasContador } from '../../src/server/lecturas/service.ts';
import { createLogger } from '../../src/server/logger.ts';
import { guardarSuministros } from '../../src/server/suministros/service.ts';
import { administrador, auditadas, cuenta, cuentaConSesion, llamar } from '../support/privado.ts';
import { servidorDelFichero } from '../support/server.ts';
import { suministroPrueba } from '../support/suministros.ts';

const server = servidorDelFichero();
const REE = '9813';
let empresa: CuentaIntercambio;
let holder: { nif: string; token: string };
let n = 0;

/** A visited (not telemanaged) EPD point of the holder supplied by the company, with a real reading 30 days ago. */
async function punto(extra: Parameters<typeof suministroPrueba>[3] = {}, real: number[] | null = [1000, 800, 1500]) {
  const cups = construirCups('9901', 8_100_000 + ++n * 17 + Math.floor(Math.random() * 1000) * 1000);
  await guardarSuministros(server.database.db, [
    suministroPrueba(cups, 'epd', holder.nif, {
      comercializadoraCodigo: REE,
      telegestionado: false,
      contadorInteligente: false,
      modoControlPotencia: 'icp',
      ...extra,
    }),
  ]);
  const [s] = await server.database.db.select().from(suministros).where(eq(suministros.cups, cups));
  if (real) {
    await guardarLecturasContador(server.database.db, [
      { suministroId: s!.id, momento: inicioDiaLocal(dia(-30)), origen: 'real', activaKwh: real, exportadaKwh: null },
    ]);
  }
  return { cups, id: s!.id };
}

/** The civil day `d` days from the test clock's today. */
const dia = (d: number) => sumarDias(fechaLocalDe(server.clock.now()), d);

beforeAll(async () => {
  const c = await cuenta(server, { extra: ['epd-comercializadora'], prefijo: 'comercializadora' });
  await server.database.db.update(users).set({ codigoRee: REE }).where(eq(users.id, c.id));
  empresa = { id: c.id, distribuidoras: ['epd'] };
  const h = await cuentaConSesion(server);
  holder = { nif: h.u.nif, token: h.token };
});

let codigo = 0;
const nuevoCodigo = () => `2026${String(++codigo + 7000).padStart(8, '0')}`;

function w101(cups: string, solicitud: string, fecha: string, lecturas: [string, string, number][], emisora = REE) {
  return `<?xml version="1.0" encoding="UTF-8"?>
<MensajeSolicitudAportacionLectura xmlns="http://localhost/elegibilidad"><Cabecera><CodigoREEEmpresaEmisora>${emisora}</CodigoREEEmpresaEmisora><CodigoREEEmpresaDestino>9901</CodigoREEEmpresaDestino><CodigoDelProceso>W1</CodigoDelProceso><CodigoDePaso>01</CodigoDePaso><CodigoDeSolicitud>${solicitud}</CodigoDeSolicitud><SecuencialDeSolicitud>01</SecuencialDeSolicitud><FechaSolicitud>2026-11-01T10:00:00</FechaSolicitud><CUPS>${cups}</CUPS></Cabecera><DatosSolicitudAportacionLectura><FechaLectura>${fecha}</FechaLectura><TipoDHEdM>6</TipoDHEdM></DatosSolicitudAportacionLectura>${lecturas
    .map(
      ([i, p, v]) =>
        `<LecturaAportada><Integrador>${i}</Integrador><TipoCodigoPeriodoDH>${p}</TipoCodigoPeriodoDH><LecturaPropuesta>${v.toFixed(2)}</LecturaPropuesta></LecturaAportada>`,
    )
    .join('')}</MensajeSolicitudAportacionLectura>`;
}
const ae = (...v: number[]): [string, string, number][] => v.map((x, i) => ['AE', `A${i + 1}`, x]);

async function dejar(nombre: string, contenido: string) {
  const r = await Recepcion.abrir();
  try {
    await r.escribir(0, Buffer.from(contenido));
    await guardar(server.database.db, empresa, `/epd/entrada/${nombre}`, await r.terminar(), server.clock.now());
  } finally {
    await r.descartar();
  }
}

async function texto(ruta: string): Promise<string> {
  const l = await abrir(server.database.db, empresa, ruta);
  return (await l.leer(0, l.entrada.bytes)).toString('utf8');
}

const leer = () => leerEntradas({ db: server.database.db, clock: server.clock, logger: createLogger('silent') });

/** Sends a W1 01 and returns its W1 02, checked against its CNMC schema. */
async function enviar(cups: string, fecha: string, lecturas: [string, string, number][], emisora = REE) {
  const sol = nuevoCodigo();
  await dejar(`W101_${sol}.xml`, w101(cups, sol, fecha, lecturas, emisora));
  // The request itself is valid against SolicitudAportacionLectura.xsd, or the test would prove nothing.
  expect(await leer()).toBe(1);
  const xml = await texto(`/epd/salida/W102_${sol}_01.xml`);
  expect(await validar([leerMensaje(Buffer.from(xml))])).toEqual([[]]);
  return { sol, xml };
}
const codigos = (xml: string) => [...xml.matchAll(/<CodigoMotivo>([^<]+)<\/CodigoMotivo>/g)].map((m) => m[1]);

describe('W1: aportación de lectura por el intercambio', () => {
  it('acepta la autolectura, la guarda como autolectura del suministro y el titular la ve con su consumo', async () => {
    const p = await punto();
    const fecha = dia(-1);
    const { sol, xml } = await enviar(p.cups, fecha, ae(1100.75, 850, 1600));
    expect(xml).toContain('<AceptacionAportacionLectura');
    expect(xml).toMatch(/<CodigoDelProceso>W1<\/CodigoDelProceso>\s*<CodigoDePaso>02<\/CodigoDePaso>/);
    const [l] = await server.database.db
      .select()
      .from(lecturasContador)
      .where(and(eq(lecturasContador.suministroId, p.id), eq(lecturasContador.origen, 'autolectura')));
    expect(l).toMatchObject({ activaKwh: [1100, 850, 1600], aportadaPor: REE, codigoSolicitud: sol, exportadaKwh: null });
    expect(fechaLocalDe(l!.momento)).toBe(fecha);
    expect(await auditadas(server, 'lecturas.w1_aceptada', { objetivo: String(p.id) })).toHaveLength(1);

    const res = await llamar(server, 'GET', `/api/estadoContador?cups=${p.cups}`, { token: holder.token });
    expect(res.status).toBe(200);
    const [s] = ((await res.json()) as EstadosRespuesta).suministros;
    expect(s!.lecturas[0]).toMatchObject({ fecha, origen: 'autolectura', comercializadora: REE, consumoKwh: 250 });
    // The distributor's staff read it on the meter's screen, with the company that sent it.
    const { token } = await administrador(server, ['epd-administrador']);
    const admin = await llamar(server, 'GET', `/api/administrador/contadores/${p.cups}`, { token });
    expect(admin.status).toBe(200);
    expect(((await admin.json()) as EstadoAdminRespuesta).lecturas.map((x) => [x.fecha, x.origen, x.comercializadora])).toEqual([
      [fecha, 'autolectura', REE],
      [dia(-30), 'real', null],
    ]);

    // The same request again is set aside, never stored twice.
    await dejar(`W101_${sol}-bis.xml`, w101(p.cups, sol, fecha, ae(1100, 850, 1600)));
    expect(await leer()).toBe(1);
    const apartados = await listar(server.database.db, empresa, '/epd/entrada/rechazados');
    const txt = apartados.find((e) => e.nombre === `W101_${sol}-bis.xml.txt`);
    expect(txt).toBeDefined();
    expect(await texto(`/epd/entrada/rechazados/${txt!.nombre}`)).toContain(`La aportación de lectura ${sol} ya se aceptó`);
  });

  it('rechaza la de un contador telegestionado con maxímetro y más de 15 kW (66, 67, 73), y no guarda nada', async () => {
    const p = await punto({
      telegestionado: true,
      modoControlPotencia: 'maximetro',
      tarifa: '3.0TD',
      potenciasW: [20000, 20000, 20000, 20000, 20000, 20000],
    });
    const { xml } = await enviar(p.cups, dia(-1), ae(1100, 900, 1600, 10, 10, 10));
    expect(xml).toContain('<MensajeRechazo');
    expect(codigos(xml)).toEqual(['66', '67', '73']);
    const filas = await server.database.db.select().from(lecturasContador).where(eq(lecturasContador.suministroId, p.id));
    expect(filas.map((f) => f.origen)).toEqual(['real']);
    expect(await auditadas(server, 'lecturas.w1_rechazada', { objetivo: String(p.id) })).toHaveLength(1);
  });

  it('rechaza lecturas que no encajan con los periodos de la tarifa (75) o con la energía exportada sin autoconsumo', async () => {
    const p = await punto();
    expect(codigos((await enviar(p.cups, dia(-1), ae(1100, 900))).xml)).toEqual(['75']);
    expect(codigos((await enviar(p.cups, dia(-1), [...ae(1100, 900, 1600), ['AS', 'A1', 40]])).xml)).toEqual(['75']);
    expect(codigos((await enviar(p.cups, dia(-1), [...ae(1100, 900), ['AE', 'A2', 950]])).xml)).toEqual(['75']);
  });

  it('acepta la energía exportada (AS) de un suministro con autoconsumo', async () => {
    const p = await punto({ autoconsumo: 'con_excedentes_compensacion' });
    const { xml } = await enviar(p.cups, dia(-2), [...ae(1100, 900, 1600), ['AS', 'A1', 30], ['AS', 'A2', 12.9]]);
    expect(xml).toContain('<AceptacionAportacionLectura');
    const [l] = await server.database.db
      .select()
      .from(lecturasContador)
      .where(and(eq(lecturasContador.suministroId, p.id), eq(lecturasContador.origen, 'autolectura')));
    expect(l!.exportadaKwh).toBe(42);
  });

  it('rechaza una lectura menor que la última real (77), anterior a la última lectura (79) o futura (99)', async () => {
    const p = await punto();
    const menor = await enviar(p.cups, dia(-1), ae(999, 900, 1600));
    expect(codigos(menor.xml)).toEqual(['77']);
    expect(menor.xml).toContain('P1 999 kWh &lt; 1000 kWh');
    expect(codigos((await enviar(p.cups, dia(-30), ae(1100, 900, 1600))).xml)).toEqual(['79']);
    expect(codigos((await enviar(p.cups, dia(-45), ae(1100, 900, 1600))).xml)).toEqual(['79']);
    expect(codigos((await enviar(p.cups, dia(2), ae(1100, 900, 1600))).xml)).toEqual(['99']);
  });

  it('rechaza un consumo mayor que el que la potencia contratada permite desde la última lectura real (78)', async () => {
    // 4.6 kW for 29 days are at most 3,202 kWh.
    const p = await punto();
    expect(codigos((await enviar(p.cups, dia(-1), ae(1000 + 3200, 800, 1500))).xml)).toEqual([]);
    const q = await punto();
    const { xml } = await enviar(q.cups, dia(-1), ae(1000 + 3203, 800, 1500));
    expect(codigos(xml)).toEqual(['78']);
    expect(xml).toContain('3203 kWh desde la lectura real');
  });

  it('rechaza la de un suministro de otra comercializadora (11), de baja (72) o que no existe (01)', async () => {
    const ajeno = await punto({ comercializadoraCodigo: '0901' });
    expect(codigos((await enviar(ajeno.cups, dia(-1), ae(1100, 900, 1600))).xml)).toEqual(['11']);
    const baja = await punto({ fechaBaja: dia(-10) });
    expect(codigos((await enviar(baja.cups, dia(-1), ae(1100, 900, 1600))).xml)).toEqual(['72']);
    const inexistente = construirCups('9901', 8_999_999);
    expect(codigos((await enviar(inexistente, dia(-1), ae(1100, 900, 1600))).xml)).toEqual(['01']);
  });
});
