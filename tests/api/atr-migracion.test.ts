/**
 * Migration 0026: ATR requests declared on the case core (docs/decisions/053). A database holding
 * requests as the reader and the staff left them before (the CNMC step as the case's step, the
 * state in its data, each event's step a CNMC step) runs the migration's own SQL; then the staff's
 * and the company's functions read them with the same state, last step, messages and actions, and a
 * migrated request still accepted is activated through the core.
 */
import { readFileSync } from 'node:fs';
import { asc, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { construirCups } from '../../src/lib/cups.ts';
import { colaAtr, detalleGestionAtr, pasoDelPersonal } from '../../src/server/atr/gestion.ts';
import { xmlSolicitud } from '../../src/server/atr/solicitudes.ts';
import { detalleAtr, type DatosAtr } from '../../src/server/atr/vista.ts';
import { expedienteEventos, expedientes, suministros, users } from '../../src/server/db/schema.ts';
import { crearExpediente, SISTEMA } from '../../src/server/expedientes/service.ts';
import { guardarSuministros } from '../../src/server/suministros/service.ts';
import { baseDeDatosDelFichero } from '../support/database.ts';
import { suministroPrueba } from '../support/suministros.ts';

const database = baseDeDatosDelFichero();
const carpeta = new URL('../../src/server/db/migrations/', import.meta.url);
const sentencias = (fichero: string) => readFileSync(new URL(fichero, carpeta), 'utf8').split('--> statement-breakpoint');
const NIF = '12345678Z';
const CUPS_C1 = construirCups('9901', 81);
const CUPS_M1 = construirCups('9901', 82);
const CUPS_B1 = construirCups('9901', 83);
const ahora = new Date('2026-11-20T10:00:00Z');
const hoy = '2026-11-20';
const mensaje = (paso: string, ruta: string, lado: 'empresa' | 'distribuidora', xml = `<Mensaje paso="${paso}"/>`) => ({
  paso,
  nombre: ruta.split('/').pop(),
  lado,
  xml,
});

describe('migration 0026 (ATR requests on the case core)', () => {
  it('moves each request’s state into its step and keeps its last CNMC step, messages and actions', async () => {
    const { db } = database;
    const [empresa] = await db
      .insert(users)
      .values({
        email: 'atr@comercializadora.example',
        nombre: 'Comercializadora',
        apellido1: 'Prueba',
        razonSocial: 'Energía Prueba S.L.',
        codigoRee: '0902',
        passwordHash: 'x',
        estado: 'activo',
      })
      .returning();
    await guardarSuministros(db, [
      suministroPrueba(CUPS_C1, 'epd', NIF, { comercializadoraCodigo: '0901' }),
      suministroPrueba(CUPS_M1, 'epd', NIF, { comercializadoraCodigo: '0902' }),
      suministroPrueba(CUPS_B1, 'epd', NIF, { comercializadoraCodigo: '0902', suspendidoDesde: '2026-11-12' }),
    ]);
    // As the reader and the staff left them: the case's step a CNMC step, its state in its data.
    const viejo = async (
      proceso: string,
      cups: string,
      codigo: string,
      paso: string,
      datos: Partial<DatosAtr> & { estado: string },
      abierto: boolean,
      eventos: { accion: string; paso: string; lado: string; datos: Record<string, unknown> }[],
    ) => {
      const rutas = eventos.flatMap((ev) => (ev.datos.mensajes as { paso: string; nombre: string }[]).map((m) => m));
      const e = await crearExpediente(db, {
        procedimiento: 'atr',
        distribuidora: 'epd',
        userId: empresa!.id,
        paso,
        tipo: proceso,
        creado: new Date('2026-11-10T09:00:00Z'),
        datos: {
          proceso,
          codigoSolicitud: codigo,
          secuencial: '01',
          cups,
          ...datos,
          mensajes: rutas.map((m) => ({ paso: m.paso, ruta: `/epd/x/${m.nombre}` })),
        },
      });
      await db
        .update(expedientes)
        .set({
          presentadoEn: new Date('2026-11-10T09:00:00Z'),
          turno: abierto ? 'distribuidora' : null,
          vence: abierto ? '2026-11-19' : null,
          cerradoEn: abierto ? null : new Date('2026-11-12T09:00:00Z'),
        })
        .where(eq(expedientes.id, e.id));
      for (const [i, ev] of eventos.entries()) {
        await db.insert(expedienteEventos).values({ expedienteId: e.id, momento: new Date(Date.UTC(2026, 10, 10, 9, i)), ...ev });
      }
      return e.id;
    };
    // The request as the company sent it: the activation reads its holder there.
    const recibir = (p: 'C1' | 'M1' | 'B1', codigo: string, cups: string) => ({
      accion: 'recibir',
      paso: '01',
      lado: 'solicitante',
      datos: {
        mensajes: [
          mensaje(
            '01',
            `/epd/entrada/${p}01_${codigo}_01.xml`,
            'empresa',
            xmlSolicitud(
              p,
              { emisora: '0902', destino: '9901', codigoSolicitud: codigo, fecha: '2026-11-10T10:00:00', cups },
              { activacion: 'A', titular: { nif: NIF, nombre: 'Lucía', apellido1: 'Martín' }, ...(p === 'B1' ? { motivoBaja: '03' } : {}) },
            ),
          ),
        ],
      },
    });
    const de02 = (p: string, codigo: string, estado: string, extra: Record<string, unknown> = {}) => ({
      accion: estado === 'aceptada' ? 'aceptar' : 'rechazar',
      paso: '02',
      lado: 'distribuidora',
      datos: { estado, ...extra, mensajes: [mensaje('02', `/epd/salida/${p}02_${codigo}_01.xml`, 'distribuidora')] },
    });
    // A C1 accepted and overdue (planned for the 19th); an M1 rejected at step 02; a B1 (a cut,
    // table 10 reason 03) activated on the 12th, whose later anulación was rejected (43).
    const c1 = await viejo('C1', CUPS_C1, '202600000001', '02', { estado: 'aceptada', activacionPrevista: '2026-11-19' }, true, [
      recibir('C1', '202600000001', CUPS_C1),
      de02('C1', '202600000001', 'aceptada', { activacionPrevista: '2026-11-19' }),
    ]);
    const m1 = await viejo('M1', CUPS_M1, '202600000002', '02', { estado: 'rechazada' }, false, [
      recibir('M1', '202600000002', CUPS_M1),
      de02('M1', '202600000002', 'rechazada', { motivos: [{ codigo: '03', comentario: 'El NIF no es el del titular' }] }),
    ]);
    const b1 = await viejo('B1', CUPS_B1, '202600000003', '05', { estado: 'activada', activacion: '2026-11-12' }, false, [
      recibir('B1', '202600000003', CUPS_B1),
      de02('B1', '202600000003', 'aceptada'),
      {
        accion: 'activar',
        paso: '05',
        lado: 'distribuidora',
        datos: {
          estado: 'activada',
          activacion: '2026-11-12',
          mensajes: [mensaje('05', '/epd/salida/B105_202600000003_01.xml', 'distribuidora')],
        },
      },
      {
        accion: 'anulacion_rechazada',
        paso: '05',
        lado: 'distribuidora',
        datos: { motivos: [{ codigo: '43' }], mensajes: [mensaje('03', '/epd/entrada/B103_202600000003_01.xml', 'empresa')] },
      },
    ]);

    for (const s of sentencias('0026_atr_en_el_nucleo.sql')) await db.execute(sql.raw(s));

    const caso = async (id: string) => (await db.select().from(expedientes).where(eq(expedientes.id, id)))[0]!;
    const pasos = async (id: string) =>
      (
        await db
          .select({ paso: expedienteEventos.paso, datos: expedienteEventos.datos })
          .from(expedienteEventos)
          .where(eq(expedienteEventos.expedienteId, id))
          .orderBy(asc(expedienteEventos.momento))
      ).map((x) => x.paso);
    for (const [id, estado, pasoCnmc] of [
      [c1, 'aceptada', '02'],
      [m1, 'rechazada', '02'],
      [b1, 'activada', '05'],
    ] as const) {
      const e = await caso(id);
      expect(e.paso).toBe(estado);
      expect(e.datos).not.toHaveProperty('estado');
      expect(e.datos).toMatchObject({ pasoCnmc });
    }
    expect(await pasos(c1)).toEqual(['recibida', 'aceptada']);
    expect(await pasos(m1)).toEqual(['recibida', 'rechazada']);
    expect(await pasos(b1)).toEqual(['recibida', 'aceptada', 'activada', 'activada']);
    const [{ n } = { n: -1 }] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(expedienteEventos)
      .where(sql`${expedienteEventos.datos} ? 'estado'`);
    expect(n).toBe(0);

    // Both sides read them as before: state, last step, messages, reasons, the B1's reposición.
    const c1Staff = await detalleGestionAtr(db, await caso(c1), hoy);
    expect(c1Staff).toMatchObject({ estado: 'aceptada', paso: '02', vencida: true, acciones: ['activar', 'rechazar'], codigoRee: '0902' });
    expect(c1Staff.mensajes.map((m) => m.paso)).toEqual(['01', '02']);
    expect(await detalleAtr(db, await caso(m1))).toMatchObject({
      estado: 'rechazada',
      paso: '02',
      motivos: [{ codigo: '03' }],
      cerrada: '2026-11-12',
    });
    expect(await detalleAtr(db, await caso(b1))).toMatchObject({ estado: 'activada', paso: '05', reponible: true });

    // The staff queue finds them by state, and the open one in the queue itself, overdue.
    const deps = { db, clock: { now: () => ahora }, publicUrl: null };
    const enCola = await colaAtr(deps, { distribuidora: 'epd', page: 1, pageSize: 20 });
    expect(enCola.filas.map((f) => [f.id, f.vencida])).toEqual([[c1, true]]);
    expect((await colaAtr(deps, { distribuidora: 'epd', estado: 'rechazada', page: 1, pageSize: 20 })).filas.map((f) => f.id)).toEqual([
      m1,
    ]);
    expect((await colaAtr(deps, { distribuidora: 'epd', vencidas: true, page: 1, pageSize: 20 })).total).toBe(1);

    // The accepted C1 goes on through the core: activated, its step 05 written, the retailer changed.
    const activado = await pasoDelPersonal(deps, c1, { accion: 'activar', fecha: hoy }, SISTEMA);
    expect(activado.paso).toBe('activada');
    expect(activado.datos).toMatchObject({ pasoCnmc: '05', activacion: hoy });
    expect(await pasos(c1)).toEqual(['recibida', 'aceptada', 'activada']);
    const [s] = await db.select().from(suministros).where(eq(suministros.cups, CUPS_C1));
    expect(s!.comercializadoraCodigo).toBe('0902');
    expect((await detalleGestionAtr(db, activado, hoy)).mensajes.map((m) => m.paso)).toEqual(['01', '02', '05']);
  });
});
