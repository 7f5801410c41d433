/**
 * Migration 0025: contractual modification requests move onto the case core (docs/decisions/052).
 * A database as it was before (the requests' own two tables, filled as the portal filled them, and
 * an access case already holding the core's first numbers) runs the migration's own SQL; then the
 * holder's and the staff's functions read the moved requests with their old references, timelines
 * and effects, and a new request takes a number no old reference ever had.
 */
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { construirCups } from '../../src/lib/cups.ts';
import { todosLosPermisos } from '../../src/lib/permisos.ts';
import { queryRows } from '../../src/server/db/client.ts';
import { expedientes, users } from '../../src/server/db/schema.ts';
import { crearExpediente } from '../../src/server/expedientes/service.ts';
import type { AuthContext } from '../../src/server/http/context.ts';
import { listarSolicitudesAdmin } from '../../src/server/modificaciones/gestion.ts';
import {
  contextoParaFormulario,
  crearSolicitud,
  solicitudDelLector,
  solicitudesDelLector,
} from '../../src/server/modificaciones/service.ts';
import { guardarSuministros } from '../../src/server/suministros/service.ts';
import { baseDeDatosDelFichero } from '../support/database.ts';
import { suministroPrueba } from '../support/suministros.ts';

const database = baseDeDatosDelFichero();
const carpeta = new URL('../../src/server/db/migrations/', import.meta.url);
const sentencias = (fichero: string) => readFileSync(new URL(fichero, carpeta), 'utf8').split('--> statement-breakpoint');
const NIF = '12345678Z';
const CUPS_A = construirCups('9901', 71);
const CUPS_B = construirCups('9901', 72);
const ahora = new Date('2026-11-20T10:00:00Z');
const INFO = { ip: null, requestId: null };

describe('migration 0025 (modification requests on the case core)', () => {
  it('moves every request with its number, timeline, rejection and activation, and numbers new cases above them', async () => {
    const { db } = database;
    // The database as it was before: the two tables as migration 0005 made them, without the new indexes.
    for (const s of sentencias('0005_servicios_consumidor.sql').filter((x) => x.includes('"solicitudes_modificacion'))) {
      await db.execute(sql.raw(s));
    }
    for (const i of ['suministro', 'numero_anterior']
      .map((x) => `expedientes_modificacion_${x}_idx`)
      .concat('expedientes_modificacion_idx')) {
      await db.execute(sql.raw(`drop index ${i}`));
    }
    const [u] = await db
      .insert(users)
      .values({ email: 'titular@correo.example', nif: NIF, nombre: 'Lucía', apellido1: 'Pérez', passwordHash: 'x', estado: 'activo' })
      .returning();
    const [admin] = await db
      .insert(users)
      .values({ email: 'gestor@correo.example', nombre: 'Ana', apellido1: 'Gestora', passwordHash: 'x', estado: 'activo' })
      .returning();
    await guardarSuministros(db, [
      suministroPrueba(CUPS_A, 'epd', NIF, { potenciasW: [5750, 5750] }),
      suministroPrueba(CUPS_B, 'epd', NIF),
    ]);
    const ids = await queryRows<{ id: number; cups: string }>(db, sql`select id, cups from suministros order by cups`);
    const idDe = (cups: string) => ids.find((x) => x.cups === cups)!.id;
    // Three access cases already hold the core's numbers 1 to 3.
    for (let i = 0; i < 3; i++)
      await crearExpediente(db, { procedimiento: 'acceso', distribuidora: 'epd', userId: u!.id, paso: 'borrador' });
    const anterior = (cups: string) =>
      JSON.stringify({ ...suministroPrueba(cups, 'epd', NIF), titularNif: NIF, titularNombre: 'Titular de prueba' });
    // MC-000001: a power change activated on 10 November, typed by an administrator for the holder.
    // MC-000002: a power change rejected with reason 53. MC-000003: one still enviada.
    await db.execute(sql`
      insert into solicitudes_modificacion (id, suministro_id, distribuidora, user_id, suplantado_por, tipo, estado, solicitado, anterior,
        motivo_rechazo_codigo, motivo_rechazo, fecha_activacion, created_at, updated_at)
      overriding system value values
      ('00000000-0000-4000-8000-000000000001', ${idDe(CUPS_A)}, 'epd', ${u!.id}, ${admin!.id}, 'potencia', 'activada',
        '{"tipo":"potencia","potenciasW":[5750,5750]}', ${anterior(CUPS_A)}::jsonb, null, null, '2026-11-10',
        '2026-11-02T09:00:00Z', '2026-11-10T09:00:00Z'),
      ('00000000-0000-4000-8000-000000000002', ${idDe(CUPS_B)}, 'epd', ${u!.id}, null, 'potencia', 'rechazada',
        '{"tipo":"potencia","potenciasW":[6928,6928]}', ${anterior(CUPS_B)}::jsonb, '53', 'Potencia no normalizada', null,
        '2026-11-03T09:00:00Z', '2026-11-04T09:00:00Z'),
      ('00000000-0000-4000-8000-000000000003', ${idDe(CUPS_B)}, 'epd', ${u!.id}, null, 'potencia', 'enviada',
        '{"tipo":"potencia","potenciasW":[5750,5750]}', ${anterior(CUPS_B)}::jsonb, null, null, null,
        '2026-11-05T09:00:00Z', '2026-11-05T09:00:00Z')`);
    await db.execute(sql`
      insert into solicitudes_modificacion_eventos (solicitud_id, estado, momento, actor_user_id, nota) values
      ('00000000-0000-4000-8000-000000000001', 'enviada', '2026-11-02T09:00:00Z', ${u!.id}, null),
      ('00000000-0000-4000-8000-000000000001', 'aceptada', '2026-11-03T09:00:00Z', ${admin!.id}, null),
      ('00000000-0000-4000-8000-000000000001', 'activada', '2026-11-10T09:00:00Z', ${admin!.id}, 'Activada con fecha 10/11/2026'),
      ('00000000-0000-4000-8000-000000000002', 'enviada', '2026-11-03T09:00:00Z', ${u!.id}, null),
      ('00000000-0000-4000-8000-000000000002', 'rechazada', '2026-11-04T09:00:00Z', ${admin!.id}, 'Motivo: 53 · Potencia no normalizada'),
      ('00000000-0000-4000-8000-000000000003', 'enviada', '2026-11-05T09:00:00Z', ${u!.id}, null)`);

    for (const s of sentencias('0025_modificaciones_en_el_nucleo.sql')) await db.execute(sql.raw(s));

    const lector = { nif: NIF, distribuidoras: ['epd' as const] };
    const activada = await solicitudDelLector(db, lector, 1);
    expect(activada).toMatchObject({
      numero: 1,
      referencia: 'MC-000001',
      estado: 'activada',
      fechaActivacion: '2026-11-10',
      creada: '2026-11-02T09:00:00.000Z',
      solicitado: { tipo: 'potencia', potenciasKw: [5.75, 5.75] },
    });
    expect(activada.eventos).toEqual([
      { estado: 'enviada', momento: '2026-11-02T09:00:00.000Z', nota: null },
      { estado: 'aceptada', momento: '2026-11-03T09:00:00.000Z', nota: null },
      { estado: 'activada', momento: '2026-11-10T09:00:00.000Z', nota: 'Activada con fecha 10/11/2026' },
    ]);
    expect(await solicitudDelLector(db, lector, 2)).toMatchObject({
      referencia: 'MC-000002',
      estado: 'rechazada',
      motivoRechazo: { codigo: '53' },
    });
    expect((await solicitudesDelLector(db, lector)).map((s) => s.referencia)).toEqual(['MC-000003', 'MC-000002', 'MC-000001']);

    // The staff see who asked and that an administrator typed the first; the search finds an old number.
    const gestor: AuthContext = {
      userId: admin!.id,
      email: admin!.email,
      nif: null,
      permisos: todosLosPermisos(),
      impersonatorUserId: null,
      sesionId: null,
    };
    const lista = await listarSolicitudesAdmin(db, gestor, { q: 'MC-000001', pagina: 1, porPagina: 10 });
    expect(lista.solicitudes.map((s) => [s.referencia, s.suplantada, s.solicitante?.email])).toEqual([
      ['MC-000001', true, 'titular@correo.example'],
    ]);

    // The rules still see the one in progress and the activation's day.
    const clock = { now: () => ahora };
    expect(await contextoParaFormulario(db, clock, lector, CUPS_B)).toMatchObject({ solicitudEnCurso: { referencia: 'MC-000003' } });
    expect(await contextoParaFormulario(db, clock, lector, CUPS_A)).toMatchObject({ ultimoCambioPotencia: '2026-11-10' });

    // The moved cases and any new one are numbered above every old number and every case before.
    const nueva = await crearSolicitud(
      { db, clock, publicUrl: null },
      { userId: u!.id, impersonatorUserId: null },
      lector,
      { cups: CUPS_A, tipo: 'titular', modo: 'correccion', nif: '', nombre: 'Lucía Pérez Gil' },
      INFO,
    );
    const numeros = (await db.select({ n: expedientes.numero, p: expedientes.procedimiento }).from(expedientes)).map((x) => x.n);
    expect(nueva.numero).toBe(Math.max(...numeros));
    expect(nueva.numero).toBeGreaterThan(6);
    expect((await solicitudesDelLector(db, lector, CUPS_A)).map((s) => s.referencia)).toEqual([nueva.referencia, 'MC-000001']);
    // Nothing is left of the old tables.
    expect(await queryRows(db, sql`select 1 from information_schema.tables where table_name like 'solicitudes_modificacion%'`)).toEqual([]);
  });
});
