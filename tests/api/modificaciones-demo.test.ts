/**
 * The demo data of contractual modifications, made through the service the API uses: the
 * household's activated power change in the past and its request in progress, and requests in every
 * state on generated homes, none on the homes the browser tests reserve (cliente010…024).
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { construirCups } from '../../src/lib/cups.ts';
import { queryRows } from '../../src/server/db/client.ts';
import { loadDemoData } from '../../src/server/demo/load.ts';
import { createLogger } from '../../src/server/logger.ts';
import { createTestDatabase } from '../support/database.ts';
import { unaVez } from '../support/ganchos.ts';

const ahora = new Date('2026-11-02T09:00:00Z');
/** A database with the demo loaded. */
const database = unaVez(
  async () => {
    const db = await createTestDatabase();
    await loadDemoData(db.db, createLogger('silent'), { now: ahora });
    return db;
  },
  (db) => db.destroy(),
  180_000,
);

describe('demo contractual modifications', () => {
  /** The household's requests, oldest first, with their supply point's powers and last power change. */
  const delHogar = unaVez(async () => ({
    filas: await queryRows<{
      cups: string;
      estado: string;
      fecha_activacion: string | null;
      potencias: number[];
      ultimo: string | null;
      eventos: string;
    }>(
      database.db,
      sql`select s.cups, m.paso as estado, m.datos->>'fechaActivacion' as fecha_activacion, s.potencias_w as potencias,
                 s.fecha_ultimo_cambio_potencia::text as ultimo,
                 (select string_agg(e.paso, ' ' order by e.momento, e.id) from expediente_eventos e where e.expediente_id = m.id) as eventos
          from expedientes m join suministros s on s.id = (m.datos->>'suministroId')::int
          where m.procedimiento = 'modificacion' and s.titular_nif = '12345678Z' order by m.numero`,
    ),
  }));

  it('gives the household an activated power change and an accepted one in progress', () => {
    expect(delHogar.filas.map((f) => [f.cups, f.estado, f.eventos])).toEqual([
      [construirCups('9902', 1), 'activada', 'enviada aceptada activada'],
      [construirCups('9901', 1), 'aceptada', 'enviada aceptada'],
    ]);
  });

  it('applied the activated change eight months ago: its powers and its date', () => {
    const [activada] = delHogar.filas;
    expect(activada!.potencias).toEqual([5750, 5750]);
    expect(activada!.ultimo).toBe(activada!.fecha_activacion);
    expect(activada!.fecha_activacion! < '2026-04-01').toBe(true);
  });

  it('has not applied the one in progress', () => {
    expect(delHogar.filas[1]!.potencias).toEqual([4600, 4600]);
  });

  it('has requests in every state and kind', async () => {
    const estados = await queryRows<{ estado: string; tipo: string }>(
      database.db,
      sql`select distinct paso as estado, tipo from expedientes where procedimiento = 'modificacion'`,
    );
    expect(new Set(estados.map((e) => e.estado))).toEqual(new Set(['enviada', 'aceptada', 'rechazada', 'activada', 'anulada']));
    expect(new Set(estados.map((e) => e.tipo))).toEqual(new Set(['potencia', 'titular']));
  });

  it('has none on the homes reserved for browser tests', async () => {
    const reservadas = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from expedientes m join users u on u.id = m.user_id
          where m.procedimiento = 'modificacion' and u.email ~ '^cliente0(1[0-9]|2[0-4])@'`,
    );
    expect(reservadas[0]!.n).toBe(0);
  });

  it('sends no mail for the demo requests', async () => {
    const correos = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from mail_outbox where subject like '%MC-%'`);
    expect(correos[0]!.n).toBe(0);
  });
});
