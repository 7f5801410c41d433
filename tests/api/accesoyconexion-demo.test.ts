/**
 * The demo access and connection requests, written through the services the API uses: the demo
 * developer has one at every step at EPD and EOD, with documents; EPD's queue has work, one of it
 * overdue; the request awaiting corrections has four business days left. And the demo queries and
 * claims (docs/decisions/018), loaded in the same database.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { faltanReclamacion, type DatosReclamacion } from '../../src/lib/contacto/datos.ts';
import { referenciaContacto } from '../../src/lib/contacto/procedimientos.ts';
import { DISTRIBUIDORAS } from '../../src/lib/distribuidoras.ts';
import { venceEnHabiles } from '../../src/lib/expedientes/plazos.ts';
import { validarConEsquema } from '../../src/server/atr/xml.ts';
import { ESQUEMA_R101, mensajeR101 } from '../../src/server/contacto/r1.ts';
import { queryRows } from '../../src/server/db/client.ts';
import { loadDemoData } from '../../src/server/demo/load.ts';
import { createLogger } from '../../src/server/logger.ts';
import { createTestDatabase } from '../support/database.ts';
import { unaVez } from '../support/ganchos.ts';

const ahora = new Date('2026-11-25T09:00:00Z');
const database = unaVez(
  async () => {
    const db = await createTestDatabase();
    await loadDemoData(db.db, createLogger('silent'), { now: ahora });
    return db;
  },
  (db) => db.destroy(),
  180_000,
);

const solicitudes = unaVez(async () => ({
  filas: await queryRows<{ distribuidora: string; paso: string; vence: string | null; documentos: number }>(
    database.db,
    sql`select e.distribuidora, e.paso, e.vence::text as vence, (select count(*)::int from documentos d where d.expediente_id = e.id) as documentos
        from expedientes e join users u on u.id = e.user_id
        where u.email = 'promotor@electra.example' and e.procedimiento = 'acceso' order by e.numero`,
  ),
}));

describe('demo access and connection requests', () => {
  it('the developer has one at every step, at EPD and EOD', () => {
    expect(solicitudes.filas.map((s) => `${s.distribuidora} ${s.paso}`)).toEqual([
      'epd borrador',
      'epd subsanacion',
      'epd admitida',
      'epd propuesta',
      'epd admitida',
      'eod permisos',
      'eod denegada',
      'eod presentada',
    ]);
  });

  it('the request awaiting corrections has four business days left', () => {
    expect(solicitudes.filas[1]!.vence).toBe(venceEnHabiles('2026-11-25', 4));
  });

  it('one of EPD’s admitted requests is overdue', () => {
    expect(solicitudes.filas.filter((s) => s.distribuidora === 'epd' && s.vence !== null && s.vence < '2026-11-25')).toHaveLength(1);
  });

  it('every filed request carries its documents', () => {
    expect(solicitudes.filas.slice(1).every((s) => s.documentos >= 2)).toBe(true);
  });
});

const contacto = unaVez(async () => ({
  filas: await queryRows<{
    email: string;
    procedimiento: string;
    paso: string;
    subtipo: string | null;
    resultado: string | null;
    vence: string | null;
    documentos: number;
  }>(
    database.db,
    sql`select u.email, e.procedimiento, e.paso, e.datos->>'subtipo' as subtipo, e.datos->>'resultado' as resultado, e.vence::text as vence,
          (select count(*)::int from documentos d where d.expediente_id = e.id) as documentos
        from expedientes e join users u on u.id = e.user_id
        where e.procedimiento in ('consulta', 'reclamacion') order by e.numero`,
  ),
}));

describe('demo queries and claims', () => {
  it('the household has a claim about its interruption awaiting information, a billing claim not upheld and a query answered', () => {
    const hogar = contacto.filas.filter((f) => f.email === 'consumidor@electra.example');
    expect(hogar.map((f) => [f.procedimiento, f.paso, f.subtipo, f.resultado])).toEqual([
      ['reclamacion', 'informacion_pedida', '022', null],
      ['reclamacion', 'cerrada', '009', '02'],
      ['consulta', 'respondida', null, null],
    ]);
    expect(hogar.slice(0, 2).every((f) => f.documentos >= 1)).toBe(true);
  });

  it('the company has a data protection request open with its month', () => {
    const empresa = contacto.filas.filter((f) => f.email === 'empresa@electra.example');
    expect(empresa.map((f) => [f.procedimiento, f.paso])).toEqual([['consulta', 'abierta']]);
    expect(empresa[0]!.vence! > '2026-11-25').toBe(true);
  });

  it('EPD’s queue has an overdue claim', () => {
    expect(
      contacto.filas.filter(
        (f) => f.procedimiento === 'reclamacion' && f.vence !== null && f.vence < '2026-11-25' && f.paso === 'presentada',
      ),
    ).toHaveLength(1);
  });
});

describe('demo claims as R1 messages (docs/decisions/039)', () => {
  it('every filed demo claim is complete and writes an R1 01 valid against the CNMC schema', async () => {
    const filas = await queryRows<{ numero: number; creado: string; presentado: string; distribuidora: string; datos: DatosReclamacion }>(
      database.db,
      sql`select e.numero, e.created_at as creado, e.presentado_en as presentado, e.distribuidora, e.datos
          from expedientes e where e.procedimiento = 'reclamacion' and e.presentado_en is not null order by e.numero`,
    );
    expect(filas.length).toBeGreaterThanOrEqual(3);
    const textos = filas.map((f) => {
      const prefijo = DISTRIBUIDORAS.find((d) => d.codigo === f.distribuidora)!.prefijoCups;
      expect(faltanReclamacion(f.datos, prefijo, [String(f.datos.campos?.cups ?? '')])).toEqual([]);
      return mensajeR101({
        referencia: referenciaContacto('reclamacion', f.numero, new Date(f.creado).toISOString()),
        distribuidora: f.distribuidora,
        presentadoEn: new Date(f.presentado).toISOString(),
        reclamacion: f.datos,
      });
    });
    expect((await validarConEsquema(ESQUEMA_R101, textos)).flat()).toEqual([]);
  });
});

describe('demo ATR requests (docs/decisions/020)', () => {
  it('the supply company has requests of each process at EPD and EOD, answered by the reader and carried on by the staff', async () => {
    const filas = await queryRows<{ d: string; tipo: string; estado: string }>(
      database.db,
      sql`select e.distribuidora as d, e.tipo, e.paso as estado
          from expedientes e join users u on u.id = e.user_id
          where u.email = 'comercializadora@electra.example' and e.procedimiento = 'atr' order by e.numero`,
    );
    for (const d of ['epd', 'eod']) {
      expect(filas.filter((f) => f.d === d).map((f) => `${f.tipo} ${f.estado}`)).toEqual([
        'C1 activada',
        'C1 rechazada',
        'C2 incidencia',
        'A3 rechazada',
        'M1 aceptada',
        'B1 anulada',
        'B1 activada',
        'C1 rechazada_campo',
      ]);
    }
    // The activated B1 is a cut for non-payment: its supply point is suspended since that day.
    const cortados = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from suministros s join expedientes e on e.datos->>'cups' = s.cups
          where e.procedimiento = 'atr' and e.tipo = 'B1' and e.paso = 'activada' and s.suspendido_desde = (e.datos->>'activacion')::date`,
    );
    expect(cortados[0]!.n).toBe(2);
    const ficheros = await queryRows<{ ruta: string }>(
      database.db,
      sql`select f.ruta from ficheros_intercambio f join users u on u.id = f.usuario_id
          where u.email = 'comercializadora@electra.example' and f.ruta like '/epd/%' order by f.ruta`,
    );
    const rutas = ficheros.map((f) => f.ruta);
    expect(rutas).toContain('/epd/entrada/rechazados/notas.xml');
    expect(rutas).toContain('/epd/entrada/rechazados/notas.xml.txt');
    // Every request's 02, the anulación's answer, and the staff's 05 (C1 and the cut's B1), 03 and 04 (the measure files aside).
    const salida = '/epd/salida/';
    const atr = rutas.filter((r) => r.startsWith(salida) && /^[A-Z]\d{3}_/.test(r.slice(salida.length))).map((r) => r.slice(12, 16));
    expect(atr.sort()).toEqual([
      'A302',
      'B102',
      'B102',
      'B104',
      'B105',
      'C102',
      'C102',
      'C102',
      'C104',
      'C105',
      'C202',
      'C203',
      'D101',
      'M102',
      'W102',
      'W102',
    ]);
    // The self-reading of the visited meter it supplies, accepted (W1 02) and stored as the point's; the other W1, refused.
    const w1 = await queryRows<{ accion: string; n: number }>(
      database.db,
      sql`select action as accion, count(*)::int as n from audit_log where action like 'lecturas.w1%' group by 1 order by 1`,
    );
    expect(w1.find((x) => x.accion === 'lecturas.w1_aceptada')?.n).toBe(1);
    // A telemanaged meter's at EPD, and at EOD when that point's last closure is before yesterday.
    expect(w1.find((x) => x.accion === 'lecturas.w1_rechazada')?.n).toBeGreaterThanOrEqual(1);
    const aportadas = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from lecturas_contador where origen = 'autolectura' and aportada_por = '9811' and codigo_solicitud is not null`,
    );
    expect(aportadas[0]!.n).toBe(1);
    // The meter of one of its points stopped communicating (a telemanagement file): a D1 at each distributor, accepted.
    const d1 = await queryRows<{ d: string; motivo: string; respuesta: string }>(
      database.db,
      sql`select distribuidora as d, motivo, respuesta from notificaciones_d1 order by distribuidora`,
    );
    expect(d1).toEqual([
      { d: 'eod', motivo: '02', respuesta: 'aceptada' },
      { d: 'epd', motivo: '02', respuesta: 'aceptada' },
    ]);
  });
});
