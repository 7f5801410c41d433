/**
 * The read replica (DATABASE_READ_URL, docs/escala.md): the consumers' curve, its downloads and the
 * maximum powers are read from it, while the session, the supply point and its ownership are read
 * from the primary. A second database stands in for the replica, holding the same supply point
 * but measures the primary does not have: what the answers show says where they were read.
 */
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { importarMedidas } from '../../src/server/medidas/importar.ts';
import { guardarSuministros } from '../../src/server/suministros/service.ts';
import { llamar } from '../support/privado.ts';
import { horasGuardadas, registrosDeDias } from '../support/medidas.ts';
import { potenciasMaximas } from '../../src/server/db/schema.ts';
import { servidorDelFichero } from '../support/server.ts';
import { puntoNuevo, titularConSuministros } from '../support/suministros.ts';

const server = servidorDelFichero({ conReplica: true });

it('lee la curva, su CSV y las potencias de la réplica, y el suministro y su titular de la principal', async () => {
  const t = await titularConSuministros(server, [(nif) => puntoNuevo(nif, 'epd')]);
  // The replica holds the same point (as streaming replication would), with its October measures.
  const { ids } = await guardarSuministros(server.replica!.db, [{ ...puntoNuevo('X0000000T', 'epd'), cups: t.cups[0]! }]);
  expect(ids.get(t.cups[0]!)).toBe(t.ids[0]);
  await server
    .replica!.db.insert(potenciasMaximas)
    .values({ suministroId: t.ids[0]!, mes: '2026-10-01', periodo: 1, potenciaW: 3210, momento: new Date('2026-10-01T18:00:00Z') });
  const registros = registrosDeDias(t.cups[0]!, '2026-10-01', '2026-10-02', () => ({ importadaWh: 500 }));
  expect((await importarMedidas(server.replica!.db, registros)).ok).toBe(true);

  const curva = await llamar(server, 'GET', `/api/medidas/curva?cups=${t.cups[0]}&desde=2026-10-01&hasta=2026-10-01&resolucion=hora`, {
    token: t.token,
  });
  expect(curva.status).toBe(200);
  const cuerpo = (await curva.json()) as { curva: { importadaWh: (number | null)[] } };
  expect(cuerpo.curva.importadaWh).toHaveLength(24);
  expect(cuerpo.curva.importadaWh.every((w) => w === 500)).toBe(true);

  const csv = await llamar(server, 'GET', `/api/medidas/curva/csv?cups=${t.cups[0]}&desde=2026-10-01&hasta=2026-10-01`, { token: t.token });
  expect(csv.status).toBe(200);
  expect((await csv.text()).split('\n').filter((l) => l.includes('0,5'))).toHaveLength(24);

  // The holder is the primary's: the replica's row names another NIF, and the answer is still the holder's.
  const otro = await titularConSuministros(server, [(nif) => puntoNuevo(nif, 'epd')]);
  const ajena = await llamar(server, 'GET', `/api/medidas/curva?cups=${t.cups[0]}&desde=2026-10-01&hasta=2026-10-01`, {
    token: otro.token,
  });
  expect(ajena.status).toBe(404);

  const potencias = await llamar(server, 'GET', `/api/medidas/potencias?cups=${t.cups[0]}&desde=2026-10&hasta=2026-10`, { token: t.token });
  expect(potencias.status).toBe(200);
  // The import derived October's maximum from the replica's hours (500 Wh in each).
  expect(((await potencias.json()) as { meses: { periodos: { potenciaKw: number }[] }[] }).meses[0]!.periodos[0]!.potenciaKw).toBe(0.5);

  // The primary has none of it.
  expect((await horasGuardadas(server.database.db, t.cups[0]!)).horas).toBe(0);
  expect(await server.database.db.select().from(potenciasMaximas).where(eq(potenciasMaximas.suministroId, t.ids[0]!))).toEqual([]);
});
