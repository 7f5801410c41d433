/**
 * The supply-point register loaded from a SIPS2026 PS_ELECTRICIDAD file (docs/sector.md §3.3,
 * docs/decisions/016), on a real database: what a file creates, that loading it again changes
 * nothing, and every kind of fault reported with its line and column.
 */
import { gzipSync } from 'node:zlib';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { construirCups } from '../../src/lib/cups.ts';
import { parse } from 'csv-parse/sync';
import { COLUMNAS_TITULAR_RESERVADAS, PS_SIPS2026 } from '../../src/lib/sips/columnas.ts';
import { lineaSips } from '../../src/lib/sips/fila.ts';
import { queryRows } from '../../src/server/db/client.ts';
import { consultaPs } from '../../src/server/sips/consultas.ts';
import { suministros, userPermissions } from '../../src/server/db/schema.ts';
import { comprobarRegistroSips, importarRegistroSips, RegistroRechazado } from '../../src/server/sips/importar.ts';
import { createUser } from '../../src/server/usuarios/service.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { filaRegistro as punto, ficheroRegistro } from '../support/sips.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.destroy();
});

const NIF = '12345678Z';
const CIF = 'B12345674';
/** The holder columns of a company. */
const EMPRESA = {
  tipoPersona: 'J',
  nombreTitular: 'Talleres Ejemplo, S.L.',
  apellido1Titular: '',
  apellido2Titular: '',
  PaisTitular: 'ESP',
  viaTitular: 'Olmo',
};
const texto = ficheroRegistro;
const bytes = (t: string) => new TextEncoder().encode(t);

/** Loads a file in a transaction of its own. */
const cargar = (fichero: Uint8Array) => database.db.transaction((tx) => importarRegistroSips(tx, fichero));

describe('registro de suministros desde un fichero SIPS2026', () => {
  it('crea cada suministro del fichero con los datos que trae', async () => {
    const fichero = bytes(
      texto([
        punto(7001),
        punto(7002, {
          codigoTarifaATREnVigor: '019',
          codigoTensionV: '06',
          potenciaMaximaBIEW: '30000',
          ...Object.fromEntries([1, 2, 3, 4, 5, 6].map((p) => [`potenciasContratadasEnWP${p}`, p === 6 ? '20000' : '15000'])),
        }),
      ]),
    );
    expect((await comprobarRegistroSips(fichero)).fallas).toEqual([]);
    const r = await cargar(fichero);
    expect(r).toEqual({ filas: 2, nuevos: 2, actualizados: 0, sinCambios: 0, conservados: 0 });
    const [s] = await database.db
      .select()
      .from(suministros)
      .where(eq(suministros.cups, construirCups('9901', 7001)));
    expect(s).toMatchObject({
      distribuidora: 'epd',
      titularNif: NIF,
      titularNombre: 'Lucía Martín Gómez',
      direccion: 'Calle Mayor, 12, 3.º B',
      codigoIne: '28005',
      municipio: 'Alcalá de Henares',
      tarifa: '2.0TD',
      potenciasW: [4600, 4600],
      tensionV: 230,
      telegestionado: true,
      cicloLectura: 7,
      numeroContador: null,
      comercializadoraNombre: null,
    });
    expect(s!.datosSips).toMatchObject({ nombreTitular: 'Lucía', esViviendaHabitual: 'S' });
  });

  it('cargar otra vez el mismo fichero no cambia nada', async () => {
    const fichero = bytes(texto([punto(7011), punto(7012)]));
    await cargar(fichero);
    const antes = await queryRows<{ updated_at: string }>(
      database.db,
      sql`select updated_at::text from suministros where cups like 'ES990100000000701%' order by cups`,
    );
    expect(await cargar(fichero)).toEqual({ filas: 2, nuevos: 0, actualizados: 0, sinCambios: 2, conservados: 0 });
    const despues = await queryRows<{ updated_at: string }>(
      database.db,
      sql`select updated_at::text from suministros where cups like 'ES990100000000701%' order by cups`,
    );
    expect(despues).toEqual(antes);
  });

  it('un cambio en el fichero actualiza solo ese suministro y conserva lo que SIPS no trae', async () => {
    await database.db
      .update(suministros)
      .set({ numeroContador: 'CNT-1' })
      .where(eq(suministros.cups, construirCups('9901', 7011)));
    const r = await cargar(
      bytes(texto([punto(7011, { potenciasContratadasEnWP1: '5750', potenciasContratadasEnWP2: '5750' }), punto(7012)])),
    );
    expect(r).toEqual({ filas: 2, nuevos: 0, actualizados: 1, sinCambios: 1, conservados: 0 });
    const [s] = await database.db
      .select()
      .from(suministros)
      .where(eq(suministros.cups, construirCups('9901', 7011)));
    expect(s).toMatchObject({ potenciasW: [5750, 5750], numeroContador: 'CNT-1' });
  });

  it('un suministro suspendido por impago (S) queda cortado desde la fecha del fichero, conserva su día y vuelve a N', async () => {
    const cups = construirCups('9901', 7051);
    const desde = async () =>
      (await database.db.select({ d: suministros.suspendidoDesde }).from(suministros).where(eq(suministros.cups, cups)))[0]!.d;
    await cargar(bytes(texto([punto(7051, { suspensionSuminstroImpago: 'S', fechaUltimoMovimientoContrato: '2026-03-04' })])));
    expect(await desde()).toBe('2026-03-04');
    // A later file that still says S keeps the day it was cut; one that says N puts it back in service.
    await cargar(bytes(texto([punto(7051, { suspensionSuminstroImpago: 'S', fechaUltimoMovimientoContrato: '2026-05-06' })])));
    expect(await desde()).toBe('2026-03-04');
    const [linea] = await queryRows<{ linea: string }>(database.db, consultaPs('sips2026', { distribuidora: 'epd', cups: [cups] }));
    const campos = parse(linea!.linea) as string[][];
    expect(campos[0]![PS_SIPS2026.findIndex((c) => c.nombre === 'suspensionSuminstroImpago')]).toBe('S');
    await cargar(bytes(texto([punto(7051, { suspensionSuminstroImpago: 'N', fechaUltimoMovimientoContrato: '2026-07-08' })])));
    expect(await desde()).toBeNull();
  });

  it('lee el fichero comprimido con gzip', async () => {
    const r = await cargar(gzipSync(bytes(texto([punto(7021)]))));
    expect(r.nuevos).toBe(1);
  });

  it('concede -distribucion a la cuenta activa del titular', async () => {
    const { id } = await createUser(database.db, {
      nif: '00000023T',
      email: 'titular-sips@example.com',
      password: 'Contraseña-de-prueba-1',
      nombre: 'Ana',
      apellido1: 'Ruiz',
      estado: 'activo',
    } as never);
    await cargar(bytes(texto([punto(7031, {}, '00000023T')])));
    const permisos = await database.db.select().from(userPermissions).where(eq(userPermissions.userId, id));
    expect(permisos.map((p) => `${p.distribuidora}-${p.area}`)).toContain('epd-distribucion');
  });

  it('rechaza un CUPS repetido nombrando las dos líneas', async () => {
    const fichero = bytes(texto([punto(7041), punto(7042), punto(7041)]));
    const error = await cargar(fichero).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RegistroRechazado);
    expect((error as RegistroRechazado).fallas).toEqual([
      {
        linea: 4,
        columna: 'cups',
        motivo: `El CUPS ${construirCups('9901', 7041)} ya aparece en la línea 2: cada suministro va una sola vez.`,
      },
    ]);
    expect(await database.db.$count(suministros, eq(suministros.cups, construirCups('9901', 7042)))).toBe(0);
  });
});

describe('el registro escrito de nuevo en los formatos de la CNMC', () => {
  it('la línea SIPS2026 que escribe la base de datos es la del fichero importado (titulares personas jurídicas)', async () => {
    const filas = [punto(7201, EMPRESA, CIF), punto(7202, { ...EMPRESA, viaPS: 'Real, "la del pozo"', acogimientoAutoconsumo: 'S' }, CIF)];
    await cargar(bytes(texto(filas)));
    const lineas = await queryRows<{ linea: string }>(
      database.db,
      consultaPs('sips2026', { distribuidora: 'epd', cups: filas.map((f) => f.cups!) }),
    );
    expect(lineas.map((l) => l.linea).join('')).toBe(texto(filas).slice(texto([]).length));
  });

  it.each(['csv', 'json'] as const)(
    'en SIPS2026 (%s) el titular persona física va sin NIF, nombre, apellidos ni dirección; el resto de la fila, tal cual',
    async (forma) => {
      const fila = punto(7211, { PaisTitular: 'ESP', viaTitular: 'Olmo', numFincaTitular: '4', codigoPostalTitular: '28802' });
      await cargar(bytes(texto([fila])));
      const [l] = await queryRows<{ linea: string }>(
        database.db,
        consultaPs('sips2026', { distribuidora: 'epd', cups: [fila.cups!] }, forma),
      );
      const campos = forma === 'csv' ? (parse(l!.linea) as string[][])[0]! : (JSON.parse(l!.linea) as string[]);
      const valor = (n: string) => campos[PS_SIPS2026.findIndex((c) => c.nombre === n)];
      for (const n of COLUMNAS_TITULAR_RESERVADAS) expect([n, valor(n)]).toEqual([n, '']);
      expect(l!.linea).not.toContain(NIF);
      expect(l!.linea).not.toContain('Lucía');
      expect([valor('tipoPersona'), valor('tipoIdTitular'), valor('viaPS'), valor('esViviendaHabitual')]).toEqual([
        'F',
        'NI',
        'Mayor',
        'S',
      ]);
      // The register keeps it all for the distributor's staff.
      const [s] = await database.db.select().from(suministros).where(eq(suministros.cups, fila.cups!));
      expect([s!.titularNif, s!.titularNombre, s!.datosSips.viaTitular]).toEqual([NIF, 'Lucía Martín Gómez', 'Olmo']);
    },
  );

  it('la línea v2 no lleva el nombre ni la dirección del titular', async () => {
    const [l] = await queryRows<{ linea: string }>(
      database.db,
      consultaPs('v2', { distribuidora: 'epd', cups: [construirCups('9901', 7201)] }),
    );
    const campos = parse(l!.linea) as string[][];
    expect(campos[0]).toHaveLength(57);
    expect(l!.linea).not.toContain('Talleres');
    expect(l!.linea).not.toContain('Mayor');
    expect(campos[0]!.slice(0, 8)).toEqual([
      '9901',
      construirCups('9901', 7201),
      'Electra Peninsular Distribución, S.L.',
      '28801',
      '28005',
      '28',
      '2020-01-01',
      '018',
    ]);
  });
});

describe('errores de un fichero SIPS2026', () => {
  /** A valid file whose data line 2 has `columna` replaced by `valor`. */
  function conValor(columna: string, valor: string): Uint8Array {
    const filas = parse(texto([punto(7101), punto(7102)])) as string[][];
    filas[2]![PS_SIPS2026.findIndex((c) => c.nombre === columna)] = valor;
    return bytes(filas.map((f) => lineaSips(f)).join(''));
  }

  it.each([
    ['cups', 'ES0099000000007102XX', 'cups', 'letras de control'],
    ['cups', construirCups('9902', 7102), 'cups', 'ES9901'],
    ['codigoTarifaATREnVigor', '099', 'codigoTarifaATREnVigor', 'tabla 17'],
    ['codigoTarifaATREnVigor', '001', 'codigoTarifaATREnVigor', 'no es una de las que admite'],
    ['idTitular', '12345678A', 'idTitular', 'no es un NIF'],
    ['potenciasContratadasEnWP2', '', 'potenciasContratadasEnWP2', 'falta la P2'],
    ['potenciasContratadasEnWP1', '4,6', 'potenciasContratadasEnWP1', ''],
    ['fechaAltaSuministro', '2020-02-30', 'fechaAltaSuministro', 'AAAA-MM-DD'],
    ['codigoTensionV', '77', 'codigoTensionV', 'tabla 64'],
    ['codigoPeriodicidadFacturacion', '03', 'codigoPeriodicidadFacturacion', 'tabla 108'],
    ['tipoPersona', 'X', 'tipoPersona', 'tabla 115'],
    ['codigoPropiedadEquipoMedida', '7', 'codigoPropiedadEquipoMedida', 'tabla 32'],
    ['codigoDHEquipoDeMedida', '5', 'codigoDHEquipoDeMedida', 'tabla 35'],
  ])('%s = «%s» se señala en la línea 3, columna %s', async (columna, valor, esperada, motivo) => {
    const r = await comprobarRegistroSips(conValor(columna, valor));
    expect(r.fallas.length).toBeGreaterThan(0);
    expect(r.fallas[0]).toMatchObject({ linea: 3, columna: esperada === '' ? expect.any(String) : esperada });
    expect(r.fallas[0]!.motivo).toContain(motivo);
  });

  it('el CUPS de otra distribuidora se explica en una frase con un solo punto final, tras «S.L.»', async () => {
    const r = await comprobarRegistroSips(conValor('cups', construirCups('9902', 7102)));
    expect(r.fallas[0]!.motivo).toBe('El CUPS no empieza por ES9901, el prefijo de Electra Peninsular Distribución, S.L.');
  });

  it('una dirección entre comillas con comas se lee como un solo campo', async () => {
    const t = texto([punto(7111, { viaPS: 'Mayor, esquina Real' })]);
    expect(t).toContain('"Mayor, esquina Real"');
    expect((await comprobarRegistroSips(bytes(t))).fallas).toEqual([]);
  });

  it('el país escrito con su nombre, como lo escriben distribuidoras y lectores del sector, se admite', async () => {
    const t = texto([punto(7112, { PaisPS: 'España', PaisTitular: 'Reino de España' })]);
    expect((await comprobarRegistroSips(bytes(t))).fallas).toEqual([]);
  });

  it('una cabecera con otra columna se rechaza en la línea 1', async () => {
    const t = texto([punto(7121)]).replace('codigoTarifaATREnVigor', 'tarifa');
    const r = await comprobarRegistroSips(bytes(t));
    expect(r.fallas).toEqual([
      { linea: 0, columna: '', motivo: expect.stringContaining('La columna 27 debe llamarse codigoTarifaATREnVigor y se llama tarifa') },
    ]);
  });

  it('una línea con campos de menos se señala con su número', async () => {
    const t = texto([punto(7131)]) + 'ES0099,solo,tres\r\n';
    const r = await comprobarRegistroSips(bytes(t));
    expect(r.fallas).toEqual([{ linea: 3, columna: '', motivo: 'La línea tiene 3 campos y el formato tiene 103.' }]);
  });
});
