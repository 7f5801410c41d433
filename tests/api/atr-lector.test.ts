/**
 * The ATR reader of the file exchange (docs/decisions/020): step 01 of C1, C2, A3, M1 and B1
 * dropped into entrada/ is answered in salida/ with its step 02, valid against the CNMC schema of
 * that message; each refusal carries its table 27 code; an anulación is accepted or refused; and a
 * malformed or hostile file goes to entrada/rechazados with a .txt that says why, without stopping
 * the files after it.
 */
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { construirCups } from '../../src/lib/cups.ts';
import { AUDITORIA_ABANDONO, AUDITORIA_FALLO, INTENTOS_LECTOR, leerEntradas } from '../../src/server/atr/lector.ts';
import { leerMensaje, validar } from '../../src/server/atr/xml.ts';
import { ficherosIntercambio, lecturasContador, suministros, users } from '../../src/server/db/schema.ts';
import { abrir, crearCarpeta, guardar, listar, Recepcion, type CuentaIntercambio } from '../../src/server/intercambio/almacen.ts';
import { createLogger } from '../../src/server/logger.ts';
import { guardarSuministros } from '../../src/server/suministros/service.ts';
import { auditadas, cuenta, llamar, nuevoDni, sesion } from '../support/privado.ts';
import { servidorDelFichero } from '../support/server.ts';
import { EMPRESA_3_0TD, suministroPrueba } from '../support/suministros.ts';

const server = servidorDelFichero();
const REE = '9811';
let empresa: CuentaIntercambio;
let empresaCorreo: string;
const titular = nuevoDni();
let n = 0;
/** A fresh EPD supply point of `titular`, supplied by the company unless told. */
async function punto(extra: Parameters<typeof suministroPrueba>[3] = {}): Promise<string> {
  const cups = construirCups('9901', 7_000_000 + ++n * 13 + Math.floor(Math.random() * 1000) * 1000);
  await guardarSuministros(server.database.db, [suministroPrueba(cups, 'epd', titular, { comercializadoraCodigo: REE, ...extra })]);
  return cups;
}

beforeAll(async () => {
  const c = await cuenta(server, { extra: ['epd-comercializadora'], prefijo: 'comercializadora' });
  await server.database.db.update(users).set({ codigoRee: REE }).where(eq(users.id, c.id));
  empresa = { id: c.id, distribuidoras: ['epd'] };
  empresaCorreo = c.email;
});

const deps = () => ({ db: server.database.db, clock: server.clock, logger: createLogger('silent') });
let codigo = 0;
const nuevoCodigo = () => `2026${String(++codigo).padStart(8, '0')}`;

function cabecera(proceso: string, paso: string, cups: string, solicitud: string, emisora = REE, destino = '9901') {
  return `<Cabecera><CodigoREEEmpresaEmisora>${emisora}</CodigoREEEmpresaEmisora><CodigoREEEmpresaDestino>${destino}</CodigoREEEmpresaDestino><CodigoDelProceso>${proceso}</CodigoDelProceso><CodigoDePaso>${paso}</CodigoDePaso><CodigoDeSolicitud>${solicitud}</CodigoDeSolicitud><SecuencialDeSolicitud>01</SecuencialDeSolicitud><FechaSolicitud>2026-11-20T10:00:00</FechaSolicitud><CUPS>${cups}</CUPS></Cabecera>`;
}
const cliente = (nif: string) =>
  `<Cliente><IdCliente><TipoIdentificador>NI</TipoIdentificador><Identificador>${nif}</Identificador></IdCliente><Nombre><NombreDePila>Lucía</NombreDePila><PrimerApellido>Martín</PrimerApellido></Nombre></Cliente>`;

function c101(cups: string, solicitud: string, nif = titular, opciones: { emisora?: string; ind?: string } = {}) {
  return `<?xml version="1.0" encoding="UTF-8"?>
<MensajeCambiodeComercializadorSinCambios xmlns="http://localhost/elegibilidad">${cabecera('C1', '01', cups, solicitud, opciones.emisora)}<CambiodeComercializadorSinCambios><DatosSolicitud><IndActivacion>${opciones.ind ?? 'A'}</IndActivacion><ContratacionIncondicionalPS>S</ContratacionIncondicionalPS><ContratacionIncondicionalBS>N</ContratacionIncondicionalBS></DatosSolicitud>${cliente(nif)}</CambiodeComercializadorSinCambios></MensajeCambiodeComercializadorSinCambios>`;
}

function anulacion(proceso: string, paso: string, cups: string, solicitud: string) {
  return `<?xml version="1.0" encoding="UTF-8"?>
<MensajeAnulacionSolicitud xmlns="http://localhost/elegibilidad">${cabecera(proceso, paso, cups, solicitud)}</MensajeAnulacionSolicitud>`;
}

/** A holder with its address (ClienteConDireccion): the supply point's address (IndicadorTipoDireccion S). */
const clienteConDireccion = (nif: string) =>
  cliente(nif).replace('</Cliente>', '<IndicadorTipoDireccion>S</IndicadorTipoDireccion></Cliente>');
const contrato = (tarifa: string, potencias: number[], extra = '') =>
  `<Contrato><TipoContratoATR>01</TipoContratoATR><CondicionesContractuales><TarifaATR>${tarifa}</TarifaATR><PotenciasContratadas>${potencias.map((w, i) => `<Potencia Periodo="${i + 1}">${w}</Potencia>`).join('')}</PotenciasContratadas></CondicionesContractuales>${extra}</Contrato>`;
const contacto =
  '<Contacto><PersonaDeContacto>Lucía Martín</PersonaDeContacto><Telefono><PrefijoPais>34</PrefijoPais><Numero>600000000</Numero></Telefono></Contacto>';

function mensaje(proceso: 'C2' | 'A3' | 'M1' | 'B1', cups: string, solicitud: string, cuerpo: string) {
  const raiz = { C2: 'CambiodeComercializadorConCambios', A3: 'Alta', M1: 'ModificacionDeATR', B1: 'BajaSuspension' }[proceso];
  return `<?xml version="1.0" encoding="UTF-8"?><Mensaje${raiz} xmlns="http://localhost/elegibilidad">${cabecera(proceso, '01', cups, solicitud)}<${raiz}>${cuerpo}</${raiz}></Mensaje${raiz}>`;
}

async function dejar(nombre: string, contenido: string | Buffer) {
  const r = await Recepcion.abrir();
  try {
    await r.escribir(0, typeof contenido === 'string' ? Buffer.from(contenido) : contenido);
    await guardar(server.database.db, empresa, `/epd/entrada/${nombre}`, await r.terminar(), server.clock.now());
  } finally {
    await r.descartar();
  }
}

async function rechazos(): Promise<string> {
  const l = await listar(server.database.db, empresa, '/epd/entrada/rechazados');
  const t: string[] = [];
  for (const e of l) if (e.nombre.endsWith('.txt')) t.push(await texto(`/epd/entrada/rechazados/${e.nombre}`));
  return t.join('\n');
}

async function texto(ruta: string): Promise<string> {
  const l = await abrir(server.database.db, empresa, ruta);
  return (await l.leer(0, l.entrada.bytes)).toString('utf8');
}

/** The answer in salida/, checked against its CNMC schema. */
async function respuesta(nombre: string): Promise<string> {
  const xml = await texto(`/epd/salida/${nombre}`);
  const m = leerMensaje(Buffer.from(xml));
  expect(await validar([m])).toEqual([[]]);
  return xml;
}

describe('solicitudes ATR por el intercambio', () => {
  it('acepta un C1 correcto con su C102 válido según el esquema de la CNMC, y abre la solicitud', async () => {
    const cups = await punto({ comercializadoraCodigo: '0901' });
    const sol = nuevoCodigo();
    await dejar(`C101_${sol}.xml`, c101(cups, sol));
    expect(await leerEntradas(deps())).toBe(1);
    const xml = await respuesta(`C102_${sol}_01.xml`);
    expect(xml).toContain('<MensajeAceptacionCambiodeComercializadorSinCambios');
    expect(xml).toContain('<CodigoREEEmpresaEmisora>9901</CodigoREEEmpresaEmisora>');
    expect(xml).toContain('<TarifaATR>018</TarifaATR>');
    // A file is read once.
    expect(await leerEntradas(deps())).toBe(0);
  });

  it('acepta un C1 con el CUPS de 22 caracteres (con su punto frontera, 0F) y responde en esa forma', async () => {
    const cups = await punto({ comercializadoraCodigo: '0901' });
    const sol = nuevoCodigo();
    await dejar(`C101_${sol}.xml`, c101(`${cups}0F`, sol));
    expect(await leerEntradas(deps())).toBe(1);
    const xml = await respuesta(`C102_${sol}_01.xml`);
    expect(xml).toContain('<MensajeAceptacionCambiodeComercializadorSinCambios');
    expect(xml).toContain(`<CUPS>${cups}0F</CUPS>`);
    // The same supply point written with 20 characters is the same one: its request is in progress (38).
    const otra = nuevoCodigo();
    await dejar(`C101_${otra}.xml`, c101(cups, otra));
    await leerEntradas(deps());
    const segunda = await respuesta(`C102_${otra}_01.xml`);
    expect(segunda).toMatch(/<CodigoMotivo>38<\/CodigoMotivo>/);
    expect(segunda).toContain(`<CUPS>${cups}</CUPS>`);
  });

  it('rechaza con el código de la tabla 27: CUPS inexistente (01), NIF distinto (03), solicitud en curso (38)', async () => {
    const cups = await punto({ comercializadoraCodigo: '0901' });
    const inexistente = construirCups('9901', 6_543_210);
    const [a, b, c] = [nuevoCodigo(), nuevoCodigo(), nuevoCodigo()];
    await dejar(`a_${a}.xml`, c101(inexistente, a));
    await dejar(`b_${b}.xml`, c101(cups, b, nuevoDni()));
    await dejar(`c_${c}.xml`, c101(cups, c));
    await leerEntradas(deps());
    expect(await respuesta(`C102_${a}_01.xml`)).toMatch(/<CodigoMotivo>01<\/CodigoMotivo>/);
    expect(await respuesta(`C102_${b}_01.xml`)).toMatch(/<CodigoMotivo>03<\/CodigoMotivo>/);
    // c is accepted; the same CUPS asked again while it is in progress is refused with 38.
    expect(await respuesta(`C102_${c}_01.xml`)).toContain('MensajeAceptacion');
    const d = nuevoCodigo();
    await dejar(`d_${d}.xml`, c101(cups, d));
    await leerEntradas(deps());
    expect(await respuesta(`C102_${d}_01.xml`)).toMatch(/<CodigoMotivo>38<\/CodigoMotivo>/);
  });

  it('acepta la anulación de una solicitud aceptada y rechaza (43) la de una ya cerrada', async () => {
    const cups = await punto({ comercializadoraCodigo: '0901' });
    const sol = nuevoCodigo();
    await dejar(`C101_${sol}.xml`, c101(cups, sol));
    await leerEntradas(deps());
    await dejar(`C108_${sol}.xml`, anulacion('C1', '08', cups, sol));
    await leerEntradas(deps());
    expect(await respuesta(`C109_${sol}_01.xml`)).toContain('<MensajeAceptacionAnulacion');
    await dejar(`C108_${sol}_otra.xml`, anulacion('C1', '08', cups, sol));
    await leerEntradas(deps());
    expect(await respuesta(`C109_${sol}_01.xml`)).toMatch(/<CodigoMotivo>43<\/CodigoMotivo>/);
  });

  it('aparta a entrada/rechazados, con un .txt que dice por qué, lo que no es un mensaje que se pueda tramitar', async () => {
    const cups = await punto();
    const bomba = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]><MensajeAlta>&lol2;</MensajeAlta>`;
    const externa = `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><MensajeAlta>&e;</MensajeAlta>`;
    const casos: [string, string | Buffer, RegExp][] = [
      ['bomba.xml', bomba, /DOCTYPE o entidades/],
      ['externa.xml', externa, /DOCTYPE o entidades/],
      ['texto.xml', 'esto no es XML', /no es XML/],
      ['roto.xml', '<MensajeAlta><Cabecera></MensajeAlta>', /bien formado/],
      ['grande.xml', Buffer.alloc(2 * 1024 * 1024, 0x20), /no pasa de 1 MB/],
      ['otro.xml', '<?xml version="1.0"?><Factura/>', /no es un mensaje ATR/],
      ['esquema.xml', c101(cups, nuevoCodigo(), titular, { ind: 'Z' }), /esquema de la CNMC[\s\S]*IndActivacion/],
      ['emisora.xml', c101(cups, nuevoCodigo(), titular, { emisora: '1234' }), /CodigoREEEmpresaEmisora es 1234/],
    ];
    for (const [nombre, contenido] of casos) await dejar(nombre, contenido);
    const bueno = nuevoCodigo();
    await dejar(`zz_${bueno}.xml`, c101(await punto({ comercializadoraCodigo: '0901' }), bueno));
    await leerEntradas(deps());
    const apartados = (await listar(server.database.db, empresa, '/epd/entrada/rechazados')).map((e) => e.nombre);
    for (const [nombre, , motivo] of casos) {
      expect(apartados).toContain(nombre);
      expect(await texto(`/epd/entrada/rechazados/${nombre}.txt`)).toMatch(motivo);
    }
    // The good file after them was answered.
    expect(await respuesta(`C102_${bueno}_01.xml`)).toContain('MensajeAceptacion');
  });

  it('responde con un 02 válido según su esquema a cada proceso: C2, A3, M1 y B1, y comprueba sus reglas', async () => {
    const tresCero = await punto({ ...EMPRESA_3_0TD, comercializadoraCodigo: '0901' });
    const enBaja = await punto({ fechaBaja: '2025-12-31' });
    const propio = await punto();
    const ajeno = await punto({ comercializadoraCodigo: '0901' });
    const k = { C2: nuevoCodigo(), A3: nuevoCodigo(), M1: nuevoCodigo(), B1: nuevoCodigo(), M1mal: nuevoCodigo(), B1ajeno: nuevoCodigo() };
    const datos =
      '<IndActivacion>A</IndActivacion><ContratacionIncondicionalPS>S</ContratacionIncondicionalPS><ContratacionIncondicionalBS>N</ContratacionIncondicionalBS>';
    await dejar(
      'c2.xml',
      mensaje(
        'C2',
        tresCero,
        k.C2,
        `<DatosSolicitud><TipoModificacion>N</TipoModificacion>${datos}</DatosSolicitud>${contrato('019', [25000, 25000, 25000, 25000, 25000, 40000])}${clienteConDireccion(titular)}`,
      ),
    );
    await dejar(
      'a3.xml',
      mensaje(
        'A3',
        enBaja,
        k.A3,
        `<DatosSolicitud><CNAE>9820</CNAE><IndActivacion>A</IndActivacion></DatosSolicitud>${contrato('018', [4600, 4600], contacto)}${clienteConDireccion(titular)}`,
      ),
    );
    const m1 = (potencias: number[]) =>
      `<DatosSolicitud><TipoModificacion>N</TipoModificacion><IndActivacion>A</IndActivacion></DatosSolicitud>${contrato('018', potencias)}${clienteConDireccion(titular)}`;
    await dejar('m1.xml', mensaje('M1', propio, k.M1, m1([5750, 5750])));
    await dejar(
      'b1.xml',
      mensaje(
        'B1',
        await punto(),
        k.B1,
        `<DatosSolicitud><IndActivacion>A</IndActivacion><Motivo>01</Motivo></DatosSolicitud>${cliente(titular)}`,
      ),
    );
    // Powers in the wrong order (15) on a supply point of its own; a B1 of a supply point another company supplies (11).
    await dejar(
      'm1mal.xml',
      mensaje(
        'M1',
        await punto({ ...EMPRESA_3_0TD }),
        k.M1mal,
        m1([40000, 30000, 30000, 30000, 30000, 30000]).replace('<TarifaATR>018', '<TarifaATR>019'),
      ),
    );
    await dejar(
      'b1ajeno.xml',
      mensaje(
        'B1',
        ajeno,
        k.B1ajeno,
        `<DatosSolicitud><IndActivacion>A</IndActivacion><Motivo>01</Motivo></DatosSolicitud>${cliente(titular)}`,
      ),
    );
    await leerEntradas(deps());
    expect(await rechazos()).not.toMatch(/c2\.xml|a3\.xml|m1\.xml|b1\.xml/);
    expect(await respuesta(`C202_${k.C2}_01.xml`)).toContain('<MensajeAceptacionCambiodeComercializadorConCambios');
    expect(await respuesta(`A302_${k.A3}_01.xml`)).toContain('<MensajeAceptacionAlta');
    expect(await respuesta(`M102_${k.M1}_01.xml`)).toContain('<MensajeAceptacionModificacionDeATR');
    expect(await respuesta(`B102_${k.B1}_01.xml`)).toContain('<MensajeAceptacionBajaSuspension');
    expect(await respuesta(`M102_${k.M1mal}_01.xml`)).toMatch(/<CodigoMotivo>15<\/CodigoMotivo>/);
    expect(await respuesta(`B102_${k.B1ajeno}_01.xml`)).toMatch(/<CodigoMotivo>11<\/CodigoMotivo>/);
  });
});

describe('semántica ATR', () => {
  it('rechaza con el código 11 de la tabla 27 el C1 de la comercializadora que ya suministra el punto', async () => {
    const sol = nuevoCodigo();
    await dejar(`C101_${sol}.xml`, c101(await punto(), sol));
    await leerEntradas(deps());
    const xml = await respuesta(`C102_${sol}_01.xml`);
    expect(xml).toContain('<MensajeRechazo');
    expect(xml).toMatch(/<CodigoMotivo>11<\/CodigoMotivo>\s*<Comentarios>[^<]*ya suministra este punto/);
  });

  it('da como FechaUltimaLecturaFirme la de la última lectura real del contador, no la de hoy ni una estimada', async () => {
    const cups = await punto({ comercializadoraCodigo: '0901' });
    const [s] = await server.database.db.select().from(suministros).where(eq(suministros.cups, cups));
    // Billing closures at 00:00 Madrid time (UTC+1 in winter): a real one, then a later estimate.
    await server.database.db.insert(lecturasContador).values([
      { suministroId: s!.id, momento: new Date('2026-09-30T22:00:00Z'), origen: 'real', activaKwh: [100, 200, 300] },
      { suministroId: s!.id, momento: new Date('2026-10-31T23:00:00Z'), origen: 'estimada', activaKwh: [150, 250, 350] },
    ]);
    const sol = nuevoCodigo();
    await dejar(`C101_${sol}.xml`, c101(cups, sol));
    await leerEntradas(deps());
    expect(await respuesta(`C102_${sol}_01.xml`)).toContain('<FechaUltimaLecturaFirme>2026-10-01</FechaUltimaLecturaFirme>');
  });

  it('responde con su rechazo (D2 de la tabla 27) la anulación de una solicitud que no existe, sin apartarla', async () => {
    const cups = await punto({ comercializadoraCodigo: '0901' });
    const sol = nuevoCodigo();
    await dejar(`C108_${sol}.xml`, anulacion('C1', '08', cups, sol));
    await leerEntradas(deps());
    const xml = await respuesta(`C109_${sol}_01.xml`);
    expect(xml).toContain('<MensajeRechazo');
    expect(xml).toMatch(/<CodigoDePaso>09<\/CodigoDePaso>/);
    expect(xml).toMatch(/<CodigoMotivo>D2<\/CodigoMotivo>/);
    const apartados = (await listar(server.database.db, empresa, '/epd/entrada/rechazados')).map((e) => e.nombre);
    expect(apartados).not.toContain(`C108_${sol}.xml`);
  });

  it('explica en español un XML mal formado, con el elemento sin cerrar y sin la pila del analizador', async () => {
    await dejar('abierto.xml', '<MensajeAlta><Cabecera>');
    await leerEntradas(deps());
    const porque = await texto('/epd/entrada/rechazados/abierto.xml.txt');
    expect(porque).toMatch(/sin cerrar los elementos «MensajeAlta», «Cabecera»/);
    expect(porque).not.toMatch(/Invalid|\[|found/);
  });

  it('explica en español lo que incumple el esquema, por elemento y regla, sin nombres de ficheros internos', async () => {
    const sol = nuevoCodigo();
    await dejar('mal_esquema.xml', c101(await punto({ comercializadoraCodigo: '0901' }), sol, titular, { ind: 'Z' }));
    await leerEntradas(deps());
    const porque = await texto('/epd/entrada/rechazados/mal_esquema.xml.txt');
    expect(porque).toMatch(/IndActivacion vale «Z», que no es ninguno de los valores admitidos/);
    expect(porque).not.toMatch(/m\d+\.xml|fails to validate|facet|Element '/);
  });
});

describe('un fichero que no se puede tramitar ni apartar no detiene los de otras empresas', () => {
  /** Another supply company, with its own REE code, and its exchange account. */
  async function otraEmpresa(ree: string): Promise<CuentaIntercambio> {
    const c = await cuenta(server, { extra: ['epd-comercializadora'], prefijo: 'comercializadora' });
    await server.database.db.update(users).set({ codigoRee: ree }).where(eq(users.id, c.id));
    return { id: c.id, distribuidoras: ['epd'] };
  }
  async function dejarDe(quien: CuentaIntercambio, nombre: string, contenido: string) {
    const r = await Recepcion.abrir();
    try {
      await r.escribir(0, Buffer.from(contenido));
      await guardar(server.database.db, quien, `/epd/entrada/${nombre}`, await r.terminar(), server.clock.now());
    } finally {
      await r.descartar();
    }
  }

  it('aparta con otro nombre el fichero cuyo nombre es una carpeta en rechazados, y responde el C1 de otra empresa', async () => {
    const mala = await otraEmpresa('9813');
    const ahora = server.clock.now();
    // Folders named as the file and as its .txt: setting it aside under its own name cannot work.
    await crearCarpeta(server.database.db, mala, '/epd/entrada/rechazados/x.xml', ahora);
    await crearCarpeta(server.database.db, mala, '/epd/entrada/rechazados/x.xml.txt', ahora);
    await dejarDe(mala, 'x.xml', 'esto no es XML');
    const sol = nuevoCodigo();
    await dejar(`C101_${sol}.xml`, c101(await punto({ comercializadoraCodigo: '0901' }), sol));
    await leerEntradas(deps());
    expect(await respuesta(`C102_${sol}_01.xml`)).toContain('MensajeAceptacion');
    const apartados = await listar(server.database.db, mala, '/epd/entrada/rechazados');
    const fichero = apartados.find((e) => !e.carpeta && e.nombre.startsWith('x-') && e.nombre.endsWith('.xml'));
    expect(fichero, JSON.stringify(apartados.map((e) => e.nombre))).toBeDefined();
    const l = await abrir(server.database.db, mala, `/epd/entrada/rechazados/${fichero!.nombre}.txt`);
    const porque = (await l.leer(0, l.entrada.bytes)).toString('utf8');
    expect(porque).toMatch(/Fichero: x\.xml/);
    expect(porque).toMatch(/no es XML/);
    expect((await listar(server.database.db, mala, '/epd/entrada')).map((e) => e.nombre)).not.toContain('x.xml');
  });

  it('tras INTENTOS_LECTOR intentos deja el fichero que no puede apartar, y lo anota en la auditoría de la distribuidora', async () => {
    const mala = await otraEmpresa('9814');
    // An unforeseen failure of the store whenever this company's file is set aside.
    await server.database.db.execute(
      sql.raw(`create or replace function falla_apartar() returns trigger language plpgsql as $$
        begin
          if new.usuario_id = '${mala.id}' and new.ruta like '%/rechazados/%' then raise exception 'almacén no disponible'; end if;
          return new;
        end $$`),
    );
    await server.database.db.execute(
      sql.raw(
        `create trigger falla_apartar before insert or update on ficheros_intercambio for each row execute function falla_apartar();`,
      ),
    );
    try {
      await dejarDe(mala, 'veneno.xml', 'esto no es XML');
      const sol = nuevoCodigo();
      await dejar(`C101_${sol}.xml`, c101(await punto({ comercializadoraCodigo: '0901' }), sol));
      await leerEntradas(deps());
      // The other company's request is answered at the first reading.
      expect(await respuesta(`C102_${sol}_01.xml`)).toContain('MensajeAceptacion');
      const [f] = await server.database.db
        .select()
        .from(ficherosIntercambio)
        .where(and(eq(ficherosIntercambio.usuarioId, mala.id), eq(ficherosIntercambio.ruta, '/epd/entrada/veneno.xml')));
      for (let i = 1; i < INTENTOS_LECTOR; i++) await leerEntradas(deps());
      expect(await auditadas(server, AUDITORIA_FALLO, { objetivo: String(f!.id) })).toHaveLength(INTENTOS_LECTOR);
      const [abandono] = await auditadas(server, AUDITORIA_ABANDONO, { objetivo: String(f!.id) });
      expect(abandono?.distribuidoras).toEqual(['epd']);
      expect(abandono?.details).toMatchObject({ ruta: '/epd/entrada/veneno.xml', intento: INTENTOS_LECTOR });
      // Given up: it is read no more.
      expect(await leerEntradas(deps())).toBe(0);
      expect(await auditadas(server, AUDITORIA_FALLO, { objetivo: String(f!.id) })).toHaveLength(INTENTOS_LECTOR);
    } finally {
      await server.database.db.execute(sql.raw('drop trigger falla_apartar on ficheros_intercambio'));
    }
  });
});

describe('la pantalla de solicitudes ATR', () => {
  it('lista las de la empresa con su estado y da cada mensaje con su XML; de otra empresa, 404; sin ser comercializadora, 403', async () => {
    const cups = await punto({ comercializadoraCodigo: '0901' });
    const [buena, mala] = [nuevoCodigo(), nuevoCodigo()];
    await dejar(`s_${buena}.xml`, c101(cups, buena));
    await dejar(`s_${mala}.xml`, c101(construirCups('9901', 6_543_211), mala));
    await leerEntradas(deps());
    const { jwtToken } = await sesion(server, empresaCorreo);
    const res = await llamar(server, 'GET', `/api/atr/solicitudes?q=${buena}`, { token: jwtToken });
    expect(res.status).toBe(200);
    const [fila] = (await res.json()) as { id: string; estado: string; proceso: string; cups: string }[];
    expect(fila).toMatchObject({ estado: 'aceptada', proceso: 'C1', cups });
    const detalle = (await (await llamar(server, 'GET', `/api/atr/solicitudes/${fila!.id}`, { token: jwtToken })).json()) as {
      mensajes: { paso: string; lado: string; xml: string }[];
    };
    expect(detalle.mensajes.map((m) => `${m.paso} ${m.lado}`)).toEqual(['01 empresa', '02 distribuidora']);
    expect(detalle.mensajes[1]!.xml).toContain('<MensajeAceptacionCambiodeComercializadorSinCambios');
    const rechazadas = (await (
      await llamar(server, 'GET', `/api/atr/solicitudes?estado=rechazada&q=${mala}`, { token: jwtToken })
    ).json()) as {
      id: string;
    }[];
    const rechazada = (await (await llamar(server, 'GET', `/api/atr/solicitudes/${rechazadas[0]!.id}`, { token: jwtToken })).json()) as {
      motivos: { codigo: string }[];
    };
    expect(rechazada.motivos.map((m) => m.codigo)).toEqual(['01']);

    const otra = await cuenta(server, { extra: ['epd-comercializadora'], prefijo: 'comercializadora' });
    const { jwtToken: tokenOtra } = await sesion(server, otra.email);
    expect((await llamar(server, 'GET', `/api/atr/solicitudes/${fila!.id}`, { token: tokenOtra })).status).toBe(404);
    expect(((await (await llamar(server, 'GET', '/api/atr/solicitudes', { token: tokenOtra })).json()) as unknown[]).length).toBe(0);
    const hogar = await cuenta(server, { prefijo: 'consumidor' });
    const { jwtToken: tokenHogar } = await sesion(server, hogar.email);
    expect((await llamar(server, 'GET', '/api/atr/solicitudes', { token: tokenHogar })).status).toBe(403);
  });
});

// Last in the file: it moves the shared clock forward.
describe('la activación prevista en días hábiles del calendario del suministro', () => {
  it('un C1 «cuanto antes» del viernes 4 de diciembre de 2026 en Madrid se prevé el 9, tras su festivo del 7 y el nacional del 8', async () => {
    server.clock.current = new Date('2026-12-04T10:00:00Z');
    const cups = await punto({ comercializadoraCodigo: '0901' });
    const sol = nuevoCodigo();
    await dejar(`C101_${sol}.xml`, c101(cups, sol));
    await leerEntradas(deps());
    const xml = await respuesta(`C102_${sol}_01.xml`);
    // The national calendar alone would give Monday the 7th, a holiday of the Comunidad de Madrid in 2026.
    expect(xml).toContain('<FechaActivacionPrevista>2026-12-09</FechaActivacionPrevista>');
  });
});
