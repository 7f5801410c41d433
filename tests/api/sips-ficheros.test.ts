/**
 * The monthly SIPS files (docs/sector.md §3.2–§3.4, docs/decisions/016) on a real database: each
 * file read back by the strict reader of the CNMC columns, the consumption of a month from the
 * measures with what the portal lacks left empty, and what the file's record says of it.
 */
import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { construirCups } from '../../src/lib/cups.ts';
import { columnasSips, type TipoFicheroSips, type VersionSips } from '../../src/lib/sips/columnas.ts';
import type { RegistroMedida } from '../../src/lib/medidas/tipos.ts';
import { eq } from 'drizzle-orm';
import { rangoMes } from '../../src/lib/medidas/horas.ts';
import { suministros } from '../../src/server/db/schema.ts';
import { importarMedidas } from '../../src/server/medidas/importar.ts';
import { leerCurvaHorariaTexto } from '../../src/server/medidas/meses.ts';
import { reactivaPorMes } from '../../src/server/medidas/reactiva.ts';
import { ficherosDe, generarFicheroSips, generarMesSips, mesMas, trozosDe } from '../../src/server/sips/ficheros.ts';
import { importarRegistroSips } from '../../src/server/sips/importar.ts';
import { filasSips, type FilaLeida } from '../../src/server/sips/lector.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { ficheroRegistro, filaRegistro } from '../support/sips.ts';

let database: TestDatabase;
const MES = '2026-11-01';
const HOGAR = construirCups('9901', 8001);
const EMPRESA = construirCups('9901', 8002);
const OTRA = construirCups('9902', 8003);

/**
 * Every hour from 2026-09-30 22:00 UTC (00:00 of 1 October in Madrid) to 2026-11-01 01:00 UTC: the
 * civil month of October and the hours around it that UTC and Madrid months place differently.
 * Each hour's Wh differs, and the hours at the month's ends are far larger than the rest.
 */
function octubre(cups: string, wh: number, reactiva = false): RegistroMedida[] {
  const desde = Date.UTC(2026, 8, 30, 22);
  const horas = 747;
  return Array.from({ length: horas }, (_, h) => ({
    cups,
    inicio: new Date(desde + h * 3_600_000),
    minutos: 60,
    importadaWh: h < 2 || h >= horas - 3 ? wh * 40 + h : wh + (h % 7) * 10,
    exportadaWh: null,
    // As an F5D gives a 3.0TD meter's reactive energy: inductive every hour, capacitive in some, both
    // far larger at the month's ends, where the civil month and the UTC month part.
    ...(reactiva
      ? { reactivas: { r1: h < 2 || h >= horas - 3 ? 9_000 + h : 100 + (h % 5) * 3, r2: 0, r3: 0, r4: h % 3 === 0 ? 700 + h : 0 } }
      : {}),
    metodo: 'real',
    firme: true,
    origen: 'P5D',
  }));
}

beforeAll(async () => {
  database = await createTestDatabase();
  const registro = ficheroRegistro([
    filaRegistro(8001, { viaPS: 'Mayor, 3 "B"' }),
    filaRegistro(8002, {
      codigoTarifaATREnVigor: '019',
      codigoTensionV: '06',
      potenciaMaximaBIEW: '60000',
      codigoClasificacionPS: '03',
      tipoPersona: 'J',
      idTitular: 'B12345674',
      nombreTitular: 'Talleres Ejemplo, S.L.',
      apellido1Titular: '',
      apellido2Titular: '',
      ...Object.fromEntries([1, 2, 3, 4, 5, 6].map((p) => [`potenciasContratadasEnWP${p}`, '30000'])),
    }),
  ]);
  const otra = ficheroRegistro([
    filaRegistro(8003, {
      cups: OTRA,
      codigoEmpresaDistribuidora: '9902',
      nombreEmpresaDistribuidora: 'Electra Occidental Distribución, S.L.',
    }),
  ]);
  await database.db.transaction(async (tx) => {
    await importarRegistroSips(tx, new TextEncoder().encode(registro));
    await importarRegistroSips(tx, new TextEncoder().encode(otra));
  });
  const r = await importarMedidas(database.db, [...octubre(HOGAR, 500), ...octubre(EMPRESA, 20_000, true)]);
  expect(r.ok).toBe(true);
});
afterAll(async () => {
  await database.destroy();
});

/** The CSV of a stored file, decompressed. */
async function csvDe(id: number): Promise<Buffer> {
  const trozos: Uint8Array[] = [];
  for await (const t of trozosDe(database.db, id)) trozos.push(t);
  return gunzipSync(Buffer.concat(trozos));
}

/** Every row of a file, read by the strict reader of its layout. */
async function leer(csv: Buffer, tipo: TipoFicheroSips, version: VersionSips): Promise<FilaLeida[]> {
  const filas: FilaLeida[] = [];
  for await (const f of filasSips(new Uint8Array(csv), columnasSips(tipo, version))) filas.push(f);
  return filas;
}

describe('ficheros SIPS del mes', () => {
  it.each([
    ['PS_ELECTRICIDAD', 'v2', '202611_SIPS2_PS_ELECTRICIDAD_epd.csv', 2],
    ['PS_ELECTRICIDAD', 'sips2026', '202611_SIPS2026_PS_ELECTRICIDAD_epd.csv', 2],
    ['CONSUMOS_ELECTRICIDAD', 'v2', '202611_SIPS2_CONSUMOS_ELECTRICIDAD_epd.csv', 2],
    ['CONSUMOS_ELECTRICIDAD', 'sips2026', '202611_SIPS2026_CONSUMOS_ELECTRICIDAD_epd.csv', 2],
  ] as const)('%s %s se llama %s y el lector estricto lee sus %i filas sin un error', async (tipo, version, nombre, filas) => {
    const f = await generarFicheroSips(database.db, { distribuidora: 'epd', mes: MES, tipo, version });
    expect(f).toMatchObject({ nombre, estado: 'listo', filas });
    const csv = await csvDe(f.id);
    const leidas = await leer(csv, tipo, version);
    expect(leidas).toHaveLength(filas);
    expect(leidas.flatMap((l) => l.fallas)).toEqual([]);
  });

  it('guarda el número de filas, el tamaño y el SHA-256 del CSV', async () => {
    const f = await generarFicheroSips(database.db, { distribuidora: 'epd', mes: MES, tipo: 'PS_ELECTRICIDAD', version: 'sips2026' });
    const csv = await csvDe(f.id);
    expect(f.bytes).toBe(csv.length);
    expect(f.sha256).toBe(createHash('sha256').update(csv).digest('hex'));
    expect(f.bytesGzip).toBeLessThan(csv.length);
  });

  it('el consumo de un mes es la energía activa por periodo en Wh, y lo que no hay va vacío', async () => {
    const f = await generarFicheroSips(database.db, { distribuidora: 'epd', mes: MES, tipo: 'CONSUMOS_ELECTRICIDAD', version: 'sips2026' });
    const [hogar] = (await leer(await csvDe(f.id), 'CONSUMOS_ELECTRICIDAD', 'sips2026')).map((l) => l.fila);
    expect(hogar).toMatchObject({
      cups: HOGAR,
      fechaInicioMesConsumo: '2026-10-01',
      fechaFinMesConsumo: '2026-10-31',
      codigoTarifaATR: '018',
    });
    const activa = [1, 2, 3].map((p) => Number(hogar![`consumoEnergiaActivaEnWhP${p}`]));
    expect(activa.reduce((a, b) => a + b)).toBe(
      octubre(HOGAR, 500)
        .slice(0, 745)
        .reduce((t, r) => t + r.importadaWh, 0),
    );
    expect([4, 5, 6].map((p) => hogar![`consumoEnergiaActivaEnWhP${p}`])).toEqual(['', '', '']);
    expect(hogar!.consumoEnergíaReactivaInductivaEnVArhP1).toBe('');
    expect(hogar!.codigoTipoLectura).toBe('');
  });

  it.each([
    [HOGAR, '2.0TD', 3],
    [EMPRESA, '3.0TD', 6],
  ] as const)(
    'el consumo de octubre de %s (%s) por periodo es la suma de la curva del portal en el mes civil de Madrid',
    async (cups, tarifa, n) => {
      const f = await generarFicheroSips(database.db, { distribuidora: 'epd', mes: MES, tipo: 'CONSUMOS_ELECTRICIDAD', version: 'v2' });
      const fila = (await leer(await csvDe(f.id), 'CONSUMOS_ELECTRICIDAD', 'v2')).map((l) => l.fila).find((x) => x.cups === cups)!;
      const [s] = await database.db.select({ id: suministros.id }).from(suministros).where(eq(suministros.cups, cups));
      const { inicio, fin } = rangoMes(2026, 10);
      const curva = await leerCurvaHorariaTexto(database.db, s!.id, inicio, fin, tarifa, 'peninsula');
      expect(curva.total.intervalos).toBe(745);
      const delFichero = Array.from({ length: n }, (_, i) => Number(fila[`consumoEnergiaActivaEnWhP${i + 1}`]));
      expect(delFichero).toEqual(curva.periodos.map((p) => p.importadaWh));
    },
  );

  it('la energía reactiva de octubre de la empresa (3.0TD) por periodo es la de sus horas en el mes civil, inductiva y capacitiva', async () => {
    const [s] = await database.db.select().from(suministros).where(eq(suministros.cups, EMPRESA));
    const { inicio, fin } = rangoMes(2026, 10);
    const [mes] = await reactivaPorMes(database.db, s!, 'peninsula', inicio, fin);
    expect(mes!.mes).toBe('2026-10');
    // The hours at either end of the civil month (far larger) are counted in it, not in the UTC month.
    expect(mes!.inductivaVarh.reduce((a, b) => a + b)).toBe(
      octubre(EMPRESA, 0, true)
        .slice(0, 745)
        .reduce((t, r) => t + r.reactivas!.r1!, 0),
    );
    const f = await generarFicheroSips(database.db, { distribuidora: 'epd', mes: MES, tipo: 'CONSUMOS_ELECTRICIDAD', version: 'sips2026' });
    const fila = (await leer(await csvDe(f.id), 'CONSUMOS_ELECTRICIDAD', 'sips2026')).map((l) => l.fila).find((x) => x.cups === EMPRESA)!;
    const columnas = (prefijo: string) => [1, 2, 3, 4, 5, 6].map((p) => Number(fila[`${prefijo}${p}`]));
    expect(columnas('consumoEnergíaReactivaInductivaEnVArhP')).toEqual(mes!.inductivaVarh);
    expect(columnas('consumoEnergíaReactivaCapacitivaEnVArhP')).toEqual(mes!.capacitivaVarh);
    expect(mes!.capacitivaVarh.some((v) => v > 0)).toBe(true);
    // SIPS2 has one reactive figure per period: the inductive.
    const v2 = await generarFicheroSips(database.db, { distribuidora: 'epd', mes: MES, tipo: 'CONSUMOS_ELECTRICIDAD', version: 'v2' });
    const filaV2 = (await leer(await csvDe(v2.id), 'CONSUMOS_ELECTRICIDAD', 'v2')).map((l) => l.fila).find((x) => x.cups === EMPRESA)!;
    expect([1, 2, 3, 4, 5, 6].map((p) => Number(filaV2[`consumoEnergiaReactivaEnVArhP${p}`]))).toEqual(mes!.inductivaVarh);
  });

  it('un mes fuera de los 24 anteriores no aparece en el fichero', async () => {
    const f = await generarFicheroSips(database.db, {
      distribuidora: 'epd',
      mes: '2029-01-01',
      tipo: 'CONSUMOS_ELECTRICIDAD',
      version: 'v2',
    });
    expect(f.filas).toBe(0);
  });

  it('el fichero de una distribuidora no lleva suministros de otra', async () => {
    const f = await generarFicheroSips(database.db, { distribuidora: 'eod', mes: MES, tipo: 'PS_ELECTRICIDAD', version: 'v2' });
    const filas = await leer(await csvDe(f.id), 'PS_ELECTRICIDAD', 'v2');
    expect(filas.map((l) => l.fila.cups)).toEqual([OTRA]);
  });

  it('generar otra vez un mes sustituye sus ficheros y se conservan doce meses', async () => {
    for (let i = 13; i >= 0; i--)
      await generarFicheroSips(database.db, { distribuidora: 'ecd', mes: mesMas(MES, -i), tipo: 'PS_ELECTRICIDAD', version: 'v2' });
    await generarMesSips(database.db, 'ecd', MES);
    const lista = await ficherosDe(database.db, 'ecd');
    const meses = [...new Set(lista.map((f) => f.mes))];
    expect(meses).toHaveLength(12);
    expect(meses[0]).toBe(MES);
    expect(lista.filter((f) => f.mes === MES)).toHaveLength(4);
  });
});
