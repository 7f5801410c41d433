/**
 * The supply companies' daily measure files (docs/decisions/021): the P5D of the day before and the
 * F5D of the billing periods that closed, written into each company's `/<d>/salida` from 06:00 Madrid,
 * with only its own supply points, once; read back from the exchange and fed to the portal's own
 * importer of REE curve files, which must give back the stored hours, the clock-change days included.
 */
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { construirCups } from '../../src/lib/cups.ts';
import { rangoDias } from '../../src/lib/medidas/horas.ts';
import type { RegistroMedida } from '../../src/lib/medidas/tipos.ts';
import { queryRows } from '../../src/server/db/client.ts';
import { pgArray } from '../../src/server/db/arrays.ts';
import { users } from '../../src/server/db/schema.ts';
import { loadDemoData } from '../../src/server/demo/load.ts';
import { abrir, borrar, listar, type CuentaIntercambio } from '../../src/server/intercambio/almacen.ts';
import { ACCION_MEDIDAS_DIARIAS, escribirMedidasDiarias, type EntregaMedidas } from '../../src/server/intercambio/medidas-diarias.ts';
import { createJobs } from '../../src/server/jobs/scheduler.ts';
import { createLogger } from '../../src/server/logger.ts';
import { leerFicheroMedidas, leerNombreRee, recorrerFicheroMedidas } from '../../src/server/medidas/formatos/index.ts';
import { importarMedidas } from '../../src/server/medidas/importar.ts';
import { guardarSuministros, type SuministroEntrada } from '../../src/server/suministros/service.ts';
import { registrosDeDias, horasGuardadas } from '../support/medidas.ts';
import { auditadas, cuenta, nuevoDni } from '../support/privado.ts';
import { servidorDelFichero, type TestServer } from '../support/server.ts';
import { suministroPrueba } from '../support/suministros.ts';

/** An hour stored for a supply point, as the files must carry it. */
interface Hora {
  inicio: number;
  importadaWh: number;
  exportadaWh: number | null;
  real: boolean;
  firme: boolean | null;
}

/** The hours stored for a CUPS in [desde, hasta) (UTC ms), in order. */
async function horasDe(server: TestServer, cups: string, desde: number, hasta: number): Promise<Hora[]> {
  const filas = await queryRows<{ t: string | number; imp: number; exp: number | null; real: boolean; firme: boolean | null }>(
    server.database.db,
    sql`select (extract(epoch from h.inicio) * 1000)::bigint as t, h.importada_wh as imp, h.exportada_wh as exp, h.real, h.firme
        from medidas_horarias h join suministros s on s.id = h.suministro_id
        where s.cups = ${cups} and h.inicio >= ${new Date(desde).toISOString()}::timestamptz and h.inicio < ${new Date(hasta).toISOString()}::timestamptz
        order by h.inicio`,
  );
  return filas.map((f) => ({ inicio: Number(f.t), importadaWh: Number(f.imp), exportadaWh: f.exp, real: f.real, firme: f.firme }));
}

/** The records of a CUPS, as `Hora`s, in order. */
const deCups = (registros: RegistroMedida[], cups: string): Hora[] =>
  registros
    .filter((r) => r.cups === cups)
    .map((r) => ({
      inicio: r.inicio.getTime(),
      importadaWh: r.importadaWh,
      exportadaWh: r.exportadaWh,
      real: r.metodo === 'real',
      firme: r.firme,
    }));

/** Values only (what a P5D carries: no method, no firmness). */
const valores = (horas: Hora[]) => horas.map(({ inicio, importadaWh, exportadaWh }) => ({ inicio, importadaWh, exportadaWh }));

/** Madrid civil day [desde, hasta] as UTC ms. */
function dias(desde: string, hasta: string): [number, number] {
  const r = rangoDias(desde, hasta);
  return [r.inicio.getTime(), r.fin.getTime()];
}

describe('ficheros de medidas diarios en salida', () => {
  const server = servidorDelFichero();
  const titular = nuevoDni();
  const empresa: Record<'a' | 'b' | 'c', CuentaIntercambio> = {} as never;
  /** A supply point of each case: a1, a2 (22 characters), a3 (EOD) of company A, b1 of B, x1 of a retailer with no account. */
  const cups = {
    a1: construirCups('9901', 4_100_001),
    a2: `${construirCups('9901', 4_100_002)}0F`,
    a3: construirCups('9902', 4_100_003),
    b1: construirCups('9901', 4_100_004),
    x1: construirCups('9901', 4_100_005),
  };
  const ejecutar = (iso: string, opciones: Parameters<typeof escribirMedidasDiarias>[2] = {}) => {
    server.clock.current = new Date(iso);
    return escribirMedidasDiarias(server.database.db, server.clock.now(), opciones);
  };
  const nombres = async (c: CuentaIntercambio, d: string) => (await listar(server.database.db, c, `/${d}/salida`)).map((e) => e.nombre);
  async function bytesDe(c: CuentaIntercambio, ruta: string): Promise<Buffer> {
    const partes: Uint8Array[] = [];
    for await (const p of (await abrir(server.database.db, c, ruta)).todo()) partes.push(p);
    return Buffer.concat(partes);
  }
  async function leer(c: CuentaIntercambio, ruta: string) {
    const bytes = await bytesDe(c, ruta);
    const r = await leerFicheroMedidas(ruta.slice(ruta.lastIndexOf('/') + 1), bytes);
    if (!r.ok) throw new Error(`El portal no lee ${ruta}: ${JSON.stringify(r.errores.slice(0, 3))}`);
    return { ...r, bytes };
  }
  const resumen = (e: EntregaMedidas[]) => e.map((x) => `${x.tipo} ${x.rutas.join(',')}`).sort();
  const idDe = (c: CuentaIntercambio) => c.id;

  beforeAll(async () => {
    const db = server.database.db;
    const conCodigo = async (ree: string | null, extra: ('epd-comercializadora' | 'eod-comercializadora')[]) => {
      const c = await cuenta(server, { empresa: true, extra, prefijo: 'comercializadora' });
      if (ree) await db.update(users).set({ codigoRee: ree }).where(eq(users.id, c.id));
      return { id: c.id, distribuidoras: extra.map((p) => p.slice(0, 3)) };
    };
    empresa.a = await conCodigo('9811', ['epd-comercializadora', 'eod-comercializadora']);
    empresa.b = await conCodigo('0762', ['epd-comercializadora']);
    empresa.c = await conCodigo(null, ['epd-comercializadora']);
    const punto = (c: string, d: 'epd' | 'eod', comercializadora: string, extra: Partial<SuministroEntrada>) =>
      suministroPrueba(c, d, titular, { comercializadoraCodigo: comercializadora, ...extra });
    await guardarSuministros(db, [
      // a1 closes its billing period at 00:00 of the 27th: the period to 27 October holds the 25-hour day.
      punto(cups.a1, 'epd', '9811', { cicloLectura: 27, autoconsumo: 'con_excedentes_compensacion' }),
      punto(cups.a2, 'epd', '9811', { cicloLectura: 5 }),
      punto(cups.a3, 'eod', '9811', { cicloLectura: 15, codigoIne: '06083', codigoPostal: '06800' }),
      punto(cups.b1, 'epd', '0762', { cicloLectura: 27 }),
      punto(cups.x1, 'epd', '0901', { cicloLectura: 27 }),
    ]);
    // Every hour a different value, so an hour written one off would not read back the same; a1 has
    // estimated hours (firmness unknown) and surplus; a2 lacks one hour of the October day.
    const curva = (
      c: string,
      desde: string,
      hasta: string,
      base: number,
      forma: (i: number) => Partial<RegistroMedida> | null = () => ({}),
    ) =>
      registrosDeDias(c, desde, hasta, (i) => {
        const cambio = forma(i);
        return cambio && { importadaWh: base + i, ...cambio };
      });
    const a1 = (i: number): Partial<RegistroMedida> => ({
      ...(i % 10 === 3 ? { metodo: 'estimada', firme: null } : {}),
      ...(i % 7 === 0 ? { exportadaWh: 500 + (i % 50) } : {}),
    });
    const huecoA2 = rangoDias('2025-10-26', '2025-10-26').inicio.getTime() + 5 * 3_600_000;
    for (const registros of [
      curva(cups.a1, '2025-09-20', '2025-10-28', 1_000, a1),
      registrosDeDias(cups.a2, '2025-09-20', '2025-10-28', (i, t) => (t === huecoA2 ? null : { importadaWh: 20_000 + i })),
      curva(cups.a3, '2025-09-20', '2025-10-28', 30_000),
      curva(cups.b1, '2025-09-20', '2025-10-28', 40_000),
      curva(cups.x1, '2025-09-20', '2025-10-28', 50_000),
      curva(cups.a1, '2026-03-20', '2026-03-31', 60_000, a1),
      curva(cups.b1, '2026-03-20', '2026-04-01', 70_000),
    ]) {
      const r = await importarMedidas(db, registros);
      if (!r.ok) throw new Error(JSON.stringify(r.errores.slice(0, 3)));
    }
  }, 120_000);

  it('no escribe nada antes de las 06:00 de Madrid', async () => {
    // 05:30 in Madrid (CET) on 27 October 2025.
    expect(await ejecutar('2025-10-27T04:30:00Z')).toEqual([]);
    expect(await nombres(empresa.a, 'epd')).toEqual([]);
  });

  it('deja el P5D del día anterior (25 horas en octubre) con solo los suministros de la empresa, y el portal lo lee con los mismos valores', async () => {
    const entregas = await ejecutar('2025-10-27T05:30:00Z');
    expect(resumen(entregas)).toEqual([
      'P5D /eod/salida/P5D_9902_9811_20251027.0',
      'P5D /epd/salida/P5D_9901_0762_20251027.0',
      'P5D /epd/salida/P5D_9901_9811_20251027.0',
    ]);
    const ruta = '/epd/salida/P5D_9901_9811_20251027.0';
    expect(leerNombreRee(ruta)).toEqual({ tipo: 'P5D', distribuidora: '9901', comercializadora: '9811', fecha: '2025-10-27', version: 0 });
    const { registros, resumen: r, bytes } = await leer(empresa.a, ruta);
    expect(r.formato).toBe('P5D');
    expect(r.cups).toEqual([cups.a1, cups.a2]);
    expect(r.diasCambioHora).toEqual(['2025-10-26']);
    const [desde, hasta] = dias('2025-10-26', '2025-10-26');
    const a1 = await horasDe(server, cups.a1, desde, hasta);
    expect(a1).toHaveLength(25);
    expect(valores(deCups(registros, cups.a1))).toEqual(valores(a1));
    expect(a1.some((h) => h.exportadaWh !== null)).toBe(true);
    // Only the hours stored: a2 lacks one.
    const a2 = await horasDe(server, cups.a2, desde, hasta);
    expect(a2).toHaveLength(24);
    expect(valores(deCups(registros, cups.a2))).toEqual(valores(a2));
    // The layout of docs/sector.md §5.1: ASCII (ISO-8859-15), no header, `;` and CRLF, the repeated hour told by its season.
    const texto = bytes.toString('latin1');
    expect([...bytes].every((b) => b < 0x80)).toBe(true);
    expect(texto.split('\r\n').filter(Boolean)).toHaveLength(49);
    expect(texto).toMatch(new RegExp(`^${cups.a1};2025/10/26 01:00;1;\\d+;\\d*;\r\n`));
    expect(texto).toContain(`${cups.a1};2025/10/26 02:00;1;`);
    expect(texto).toContain(`${cups.a1};2025/10/26 02:00;0;`);
    expect(texto).not.toContain(`${cups.a1};2025/10/26 03:00;1;`);
    expect(texto).toContain(`${cups.a1};2025/10/27 00:00;0;`);

    // Company B finds only its supply point; the retailer with no account, nobody.
    const b = await leer(empresa.b, '/epd/salida/P5D_9901_0762_20251027.0');
    expect(b.resumen.cups).toEqual([cups.b1]);
    expect(valores(deCups(b.registros, cups.b1))).toEqual(valores(await horasDe(server, cups.b1, desde, hasta)));
    expect(`${texto}${b.bytes.toString('latin1')}`).not.toContain(cups.x1);
    const eod = await leer(empresa.a, '/eod/salida/P5D_9902_9811_20251027.0');
    expect(eod.resumen.cups).toEqual([cups.a3]);
  });

  it('una comercializadora sin código REE no recibe nada', async () => {
    expect(await nombres(empresa.c, 'epd')).toEqual([]);
    const entradas = await auditadas(server, ACCION_MEDIDAS_DIARIAS, { objetivo: empresa.c.id });
    expect(entradas).toEqual([]);
  });

  it('ejecutado otra vez el mismo día no duplica, ni vuelve a mandar lo que la empresa ya se llevó', async () => {
    expect(await ejecutar('2025-10-27T06:30:00Z')).toEqual([]);
    expect(await nombres(empresa.a, 'epd')).toEqual(['P5D_9901_9811_20251027.0']);
    await borrar(server.database.db, empresa.a, '/epd/salida/P5D_9901_9811_20251027.0');
    expect(await ejecutar('2025-10-27T09:30:00Z')).toEqual([]);
    expect(await nombres(empresa.a, 'epd')).toEqual([]);
    const entradas = await auditadas(server, ACCION_MEDIDAS_DIARIAS, { objetivo: idDe(empresa.a) });
    expect(entradas.map((e) => [e.details.tipo, e.details.distribuidora, e.details.desde, e.details.hasta])).toEqual([
      ['P5D', 'eod', '2025-10-26', '2025-10-26'],
      ['P5D', 'epd', '2025-10-26', '2025-10-26'],
    ]);
  });

  it('el F5D lleva la curva facturada del periodo que cerró, con su día de 25 horas, y vuelve al importador sin cambiar nada', async () => {
    const entregas = await ejecutar('2025-10-28T06:30:00Z');
    expect(resumen(entregas)).toEqual([
      'F5D /epd/salida/F5D_9901_0762_20251028.0',
      'F5D /epd/salida/F5D_9901_9811_20251028.0',
      'P5D /eod/salida/P5D_9902_9811_20251028.0',
      'P5D /epd/salida/P5D_9901_0762_20251028.0',
      'P5D /epd/salida/P5D_9901_9811_20251028.0',
    ]);
    const ruta = '/epd/salida/F5D_9901_9811_20251028.0';
    const { registros, resumen: r, bytes } = await leer(empresa.a, ruta);
    expect(r.formato).toBe('F5D');
    // Only a1 closed on the 27th (a2's cycle is the 5th): its period from 00:00 on 27 September to 00:00 on 27 October.
    expect(r.cups).toEqual([cups.a1]);
    expect(r.diasCambioHora).toEqual(['2025-10-26']);
    const [desde, hasta] = dias('2025-09-27', '2025-10-26');
    const guardadas = await horasDe(server, cups.a1, desde, hasta);
    expect(guardadas).toHaveLength(30 * 24 + 1);
    const leidas = deCups(registros, cups.a1);
    expect(valores(leidas)).toEqual(valores(guardadas));
    // Method and firmness: real firm hours stay so; estimated ones whose firmness was unknown come back estimated, not firm.
    expect(leidas.map((h) => h.real)).toEqual(guardadas.map((h) => h.real));
    expect(leidas.map((h) => h.firme)).toEqual(guardadas.map((h) => h.firme ?? h.real));
    expect(guardadas.some((h) => !h.real)).toBe(true);
    expect(bytes.toString('latin1').split('\r\n')[0]).toMatch(new RegExp(`^${cups.a1};2025/09/27 01:00;1;\\d+;\\d*;;;;;1;1;;$`));

    // Fed to the importer, as a retailer's own portal would: accepted, and not one stored hour changes.
    const antes = await horasGuardadas(server.database.db, cups.a1);
    const importado = await importarMedidas(server.database.db, recorrerFicheroMedidas('F5D_9901_9811_20251028.0', bytes));
    expect(importado).toMatchObject({ ok: true, suministros: 1, horas: { nuevas: 0 } });
    expect(await horasGuardadas(server.database.db, cups.a1)).toEqual(antes);
    expect(valores(await horasDe(server, cups.a1, desde, hasta))).toEqual(valores(guardadas));

    // At EOD nothing closed: no F5D there.
    expect(await nombres(empresa.a, 'eod')).toEqual(['P5D_9902_9811_20251027.0', 'P5D_9902_9811_20251028.0']);
  });

  it('tras días sin ejecutarse manda los que faltan en un fichero, con el día de 23 horas de marzo', async () => {
    // 07:30 in Madrid (CEST) on Monday 30 March 2026: the last file covered 27 October; a week back at most.
    const entregas = await ejecutar('2026-03-30T05:30:00Z');
    const p5d = entregas.find((e) => e.usuarioId === empresa.a.id && e.tipo === 'P5D' && e.distribuidora === 'epd')!;
    expect(p5d).toMatchObject({ desde: '2026-03-23', hasta: '2026-03-29', rutas: ['/epd/salida/P5D_9901_9811_20260330.0'] });
    const { registros, resumen: r } = await leer(empresa.a, p5d.rutas[0]!);
    expect(r.diasCambioHora).toEqual(['2026-03-29']);
    expect(r.cups).toEqual([cups.a1]);
    const [desde, hasta] = dias('2026-03-23', '2026-03-29');
    const guardadas = await horasDe(server, cups.a1, desde, hasta);
    expect(guardadas).toHaveLength(6 * 24 + 23);
    expect(valores(deCups(registros, cups.a1))).toEqual(valores(guardadas));
    // The F5D of the period that closed on the 27th is the whole billed curve (docs/decisions/038): the
    // hours stored in it (from the 20th) as they are, every other hour estimated, method 5, not firm.
    const f5d = entregas.find((e) => e.usuarioId === empresa.a.id && e.tipo === 'F5D')!;
    expect(f5d).toMatchObject({ desde: '2026-03-23', hasta: '2026-03-29', suministros: 1, lineas: 28 * 24 });
    const facturada = await leer(empresa.a, f5d.rutas[0]!);
    const [inicioPeriodo, finPeriodo] = dias('2026-02-27', '2026-03-26');
    const leidas = facturada.registros.filter((x) => x.cups === cups.a1);
    expect(leidas.map((x) => x.inicio.getTime())).toEqual(Array.from({ length: 28 * 24 }, (_, i) => inicioPeriodo + i * 3_600_000));
    const enPeriodo = new Map((await horasDe(server, cups.a1, inicioPeriodo, finPeriodo)).map((h) => [h.inicio, h]));
    expect(enPeriodo.size).toBe(7 * 24);
    for (const x of leidas) {
      const g = enPeriodo.get(x.inicio.getTime());
      if (g)
        expect([x.importadaWh, x.exportadaWh, x.metodo, x.firme]).toEqual([
          g.importadaWh,
          g.exportadaWh,
          g.real ? 'real' : 'estimada',
          g.real || g.firme === true,
        ]);
      else expect(x).toMatchObject({ metodo: 'estimada', codigoMetodo: 5, firme: false });
    }
  });

  it('parte en versiones un fichero que pasaría del tamaño máximo, sin partir un suministro', async () => {
    const db = server.database.db;
    const c = await cuenta(server, { empresa: true, extra: ['epd-comercializadora'], prefijo: 'comercializadora' });
    await db.update(users).set({ codigoRee: '0555' }).where(eq(users.id, c.id));
    const grande: CuentaIntercambio = { id: c.id, distribuidoras: ['epd'] };
    const suyos = [4_200_001, 4_200_002, 4_200_003].map((n) => construirCups('9901', n));
    await guardarSuministros(
      db,
      suyos.map((s) => suministroPrueba(s, 'epd', titular, { comercializadoraCodigo: '0555' })),
    );
    for (const [i, s] of suyos.entries())
      expect(
        (
          await importarMedidas(
            db,
            registrosDeDias(s, '2026-03-30', '2026-03-30', () => ({ importadaWh: 100 * i })),
          )
        ).ok,
      ).toBe(true);
    // A supply point's day is 24 lines of 45 to 47 bytes: two fit in 2,400 bytes, three do not.
    const entregas = await ejecutar('2026-03-31T05:30:00Z', { maxBytes: 2_400 });
    const suya = entregas.find((e) => e.usuarioId === c.id)!;
    expect(suya.rutas).toEqual(['/epd/salida/P5D_9901_0555_20260331.0', '/epd/salida/P5D_9901_0555_20260331.1']);
    const partes = await Promise.all(suya.rutas.map((r) => leer(grande, r)));
    expect(partes.map((p) => p.resumen.cups)).toEqual([suyos.slice(0, 2), suyos.slice(2)]);
    expect(partes.every((p) => p.bytes.byteLength <= 2_400)).toBe(true);
    expect(partes.map((p) => p.registros.length)).toEqual([48, 24]);
    const [entrada] = await auditadas(server, ACCION_MEDIDAS_DIARIAS, { objetivo: c.id });
    expect(entrada!.details).toMatchObject({
      tipo: 'P5D',
      ficheros: ['P5D_9901_0555_20260331.0', 'P5D_9901_0555_20260331.1'],
      suministros: 3,
      lineas: 72,
    });
  });

  it('las tareas periódicas del portal lo ejecutan', async () => {
    server.clock.current = new Date('2026-04-01T05:30:00Z');
    const jobs = createJobs({ db: server.database.db, clock: server.clock, logger: createLogger('silent') });
    // Started (its first timed run is 30 s away) so a run is not taken for one while stopping.
    jobs.start();
    await jobs.runOnce();
    await jobs.stop();
    expect(await nombres(empresa.b, 'epd')).toContain('P5D_9901_0762_20260401.0');
    const b = await leer(empresa.b, '/epd/salida/P5D_9901_0762_20260401.0');
    expect(valores(deCups(b.registros, cups.b1))).toEqual(valores(await horasDe(server, cups.b1, ...dias('2026-03-31', '2026-03-31'))));
    expect(await nombres(empresa.c, 'epd')).toEqual([]);
  });

  it('dos procesos a la vez escriben cada fichero una sola vez, y un día sin ejecutarse no pierde el primer F5D', async () => {
    // No run on 2 April. On the 3rd: B's P5D of the 1st and 2nd (it has hours on the 1st), and the first
    // F5D of the large company, whose supply points closed on the 1st (cycle day 1), found although it
    // had never received one, from the day after its last P5D.
    server.clock.current = new Date('2026-04-03T05:30:00Z');
    const ahora = server.clock.now();
    const [x, y] = await Promise.all([
      escribirMedidasDiarias(server.database.db, ahora),
      escribirMedidasDiarias(server.database.db, ahora),
    ]);
    expect(resumen([...x, ...y])).toEqual(['F5D /epd/salida/F5D_9901_0555_20260403.0', 'P5D /epd/salida/P5D_9901_0762_20260403.0']);
    // Their March (743 hours) is billed whole: 24 measured hours (the 30th) and 719 estimated each.
    expect([...x, ...y].map((e) => [e.tipo, e.desde, e.hasta, e.lineas])).toContainEqual(['F5D', '2026-03-31', '2026-04-02', 3 * 743]);
    const [grande] = await queryRows<{ id: string }>(server.database.db, sql`select id from users where codigo_ree = '0555'`);
    const facturada = await leer({ id: grande!.id, distribuidoras: ['epd'] }, '/epd/salida/F5D_9901_0555_20260403.0');
    const marzo = dias('2026-03-01', '2026-03-31');
    expect(facturada.resumen.cups).toHaveLength(3);
    for (const [i, c] of facturada.resumen.cups.entries()) {
      const suyas = facturada.registros.filter((r) => r.cups === c);
      expect(suyas.map((r) => r.inicio.getTime())).toEqual(Array.from({ length: 743 }, (_, k) => marzo[0] + k * 3_600_000));
      const medidas = suyas.filter((r) => r.metodo === 'real');
      expect(medidas.map((r) => r.inicio.getTime())).toEqual(
        Array.from({ length: 24 }, (_, k) => dias('2026-03-30', '2026-03-30')[0] + k * 3_600_000),
      );
      expect(medidas.every((r) => r.firme === true && r.codigoMetodo === 1)).toBe(true);
      expect(suyas.filter((r) => r.metodo === 'estimada').every((r) => r.firme === false && r.codigoMetodo === 5)).toBe(true);
      // Each supply point measured the same value every hour: the estimate, and so the month, follow it.
      expect(suyas.reduce((a, r) => a + r.importadaWh, 0)).toBe(743 * 100 * i);
    }
    expect((await nombres(empresa.b, 'epd')).filter((n) => n.includes('20260403'))).toEqual(['P5D_9901_0762_20260403.0']);
    const entradas = await auditadas(server, ACCION_MEDIDAS_DIARIAS, { objetivo: empresa.b.id });
    expect(entradas.filter((e) => e.details.hasta === '2026-04-02')).toHaveLength(1);
    const b = await leer(empresa.b, '/epd/salida/P5D_9901_0762_20260403.0');
    expect(valores(deCups(b.registros, cups.b1))).toEqual(valores(await horasDe(server, cups.b1, ...dias('2026-04-01', '2026-04-02'))));
  });
});

describe('la demostración', () => {
  const server = servidorDelFichero();
  beforeAll(async () => {
    await loadDemoData(server.database.db, createLogger('silent'), { now: server.clock.now() });
  }, 180_000);

  it('deja P5D y F5D en la carpeta salida de la comercializadora de demostración', async () => {
    const [empresa] = await server.database.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, 'comercializadora@electra.example'));
    for (const d of ['epd', 'eod']) {
      const c: CuentaIntercambio = { id: empresa!.id, distribuidoras: [d] };
      const lista = (await listar(server.database.db, c, `/${d}/salida`)).map((e) => e.nombre);
      const p5d = lista.filter((n) => n.startsWith('P5D_'));
      expect(p5d.length).toBeGreaterThanOrEqual(28);
      expect(lista.some((n) => n.startsWith('F5D_'))).toBe(true);
      // The latest is the day before's curve, and the portal reads it.
      const ultimo = p5d.sort().at(-1)!;
      const partes: Uint8Array[] = [];
      for await (const p of (await abrir(server.database.db, c, `/${d}/salida/${ultimo}`)).todo()) partes.push(p);
      const r = await leerFicheroMedidas(ultimo, Buffer.concat(partes));
      expect(r.ok).toBe(true);
    }
  });

  it('sus F5D llevan cada hora del periodo facturado, las reales firmes y las que faltaban estimadas y no firmes', async () => {
    const [empresa] = await server.database.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, 'comercializadora@electra.example'));
    let estimadas = 0;
    let reales = 0;
    for (const d of ['epd', 'eod']) {
      const c: CuentaIntercambio = { id: empresa!.id, distribuidoras: [d] };
      for (const nombre of (await listar(server.database.db, c, `/${d}/salida`)).map((e) => e.nombre).filter((n) => n.startsWith('F5D_'))) {
        const partes: Uint8Array[] = [];
        for await (const p of (await abrir(server.database.db, c, `/${d}/salida/${nombre}`)).todo()) partes.push(p);
        const r = await leerFicheroMedidas(nombre, Buffer.concat(partes));
        if (!r.ok) throw new Error(JSON.stringify(r.errores.slice(0, 3)));
        for (const cups of r.resumen.cups) {
          const horas = r.registros.filter((x) => x.cups === cups).map((x) => x.inicio.getTime());
          // One billing period per supply point and file: every hour from its first to its last, once.
          expect(horas).toEqual(Array.from({ length: horas.length }, (_, k) => horas[0]! + k * 3_600_000));
        }
        for (const x of r.registros) {
          expect(x.firme).toBe(x.metodo === 'real');
          if (x.metodo === 'real') reales++;
          else estimadas++;
        }
      }
    }
    // The demo's curves have gaps and estimated runs: some hours are estimated, most are real.
    expect(estimadas).toBeGreaterThan(0);
    expect(reales).toBeGreaterThan(estimadas);
  });

  it('sus F5D llevan la energía reactiva guardada de cada hora de un 3.0TD o 6.xTD, la misma al VArh', async () => {
    const [empresa] = await server.database.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, 'comercializadora@electra.example'));
    let conReactiva = 0;
    for (const d of ['epd', 'eod']) {
      const c: CuentaIntercambio = { id: empresa!.id, distribuidoras: [d] };
      for (const nombre of (await listar(server.database.db, c, `/${d}/salida`)).map((e) => e.nombre).filter((n) => n.startsWith('F5D_'))) {
        const partes: Uint8Array[] = [];
        for await (const p of (await abrir(server.database.db, c, `/${d}/salida/${nombre}`)).todo()) partes.push(p);
        const r = await leerFicheroMedidas(nombre, Buffer.concat(partes));
        if (!r.ok) throw new Error(JSON.stringify(r.errores.slice(0, 3)));
        const leidas = r.registros.filter((x) => x.reactivas);
        if (!leidas.length) continue;
        const guardadas = new Map(
          (
            await queryRows<{ t: string; cups: string; r1: number; r2: number; r3: number; r4: number }>(
              server.database.db,
              sql`select (extract(epoch from m.inicio) * 1000)::bigint::text as t, s.cups, m.reactiva_r1_varh as r1, m.reactiva_r2_varh as r2,
                    m.reactiva_r3_varh as r3, m.reactiva_r4_varh as r4
                  from medidas_horarias m join suministros s on s.id = m.suministro_id
                  where s.cups = any(${pgArray([...new Set(leidas.map((x) => x.cups.slice(0, 20)))])}::text[]) and m.reactiva_r1_varh is not null`,
            )
          ).map((g) => [`${g.cups}:${g.t}`, { r1: g.r1, r2: g.r2, r3: g.r3, r4: g.r4 }]),
        );
        // Every line with reactive energy is a stored hour's, to the VArh (an hour the F5D estimates itself has none).
        for (const x of leidas)
          expect(x.reactivas, `${x.cups} ${x.inicio.toISOString()}`).toEqual(guardadas.get(`${x.cups.slice(0, 20)}:${x.inicio.getTime()}`));
        conReactiva += leidas.length;
      }
    }
    expect(conReactiva).toBeGreaterThan(0);
  });
});
