/**
 * The demo meters: reading cycles spread over the month, a state for the demo supply
 * points with one generated home per interesting state, and register readings that agree with the
 * consumption the curve screens show, period by period, to the kWh.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { sumarDias } from '../../src/lib/medidas/horas.ts';
import { loadDemoData } from '../../src/server/demo/load.ts';
import type { EstadosRespuesta, ProgramaRespuesta } from '../../src/lib/lecturas/respuestas.ts';
import { createLogger } from '../../src/server/logger.ts';
import type { CurvaRespuesta } from '../../src/lib/medidas/respuestas.ts';
import { llamar, sesion } from '../support/privado.ts';
import { servidorDelFichero } from '../support/server.ts';

const server = servidorDelFichero();
beforeAll(async () => {
  await loadDemoData(server.database.db, createLogger('silent'), { now: server.clock.now() });
}, 180_000);

/** A demo account's token. */
const token = async (email: string) => (await sesion(server, email, 'Demo1234')).jwtToken;

/** The meter state answer of a demo account. */
async function estadoDe(email: string): Promise<EstadosRespuesta['suministros']> {
  const res = await llamar(server, 'GET', '/api/estadoContador', { token: await token(email) });
  expect(res.status).toBe(200);
  return ((await res.json()) as EstadosRespuesta).suministros;
}

const cliente = (n: number) => `cliente${String(n).padStart(3, '0')}@correo.example`;

describe('demo meters', { timeout: 60_000 }, () => {
  it('spread the reading cycles over the month', async () => {
    const dias = new Set<number>();
    for (const n of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]) {
      const r = (await (
        await llamar(server, 'GET', '/api/lecturasProgramadas', { token: await token(cliente(n)) })
      ).json()) as ProgramaRespuesta;
      for (const s of r.suministros) dias.add(s.cicloLectura);
    }
    expect(dias.size).toBeGreaterThanOrEqual(6);
  });

  type Suministros = EstadosRespuesta['suministros'];
  it.each<[string, string, (s: Suministros) => void]>([
    [
      'a normal meter',
      cliente(1),
      (s) =>
        expect(s[0]!.estado).toMatchObject({ comunica: true, interruptor: 'cerrado', estadoSuministro: 'con_suministro', motivo: null }),
    ],
    [
      'a meter that stopped communicating',
      cliente(2),
      (s) => expect(s[0]!.estado).toMatchObject({ comunica: false, estadoSuministro: 'con_suministro' }),
    ],
    ['a switch open for excess power', cliente(3), (s) => expect(s[0]!.estado).toMatchObject({ interruptor: 'abierto_exceso' })],
    [
      'a supply cut for non-payment',
      cliente(4),
      (s) =>
        expect(s[0]!.estado).toMatchObject({
          interruptor: 'abierto_remoto',
          estadoSuministro: 'cortado',
          motivo: expect.stringContaining('impago'),
        }),
    ],
    [
      'a supply lost to a fault',
      cliente(5),
      (s) => expect(s[0]!.estado).toMatchObject({ estadoSuministro: 'sin_suministro', motivo: expect.stringContaining('Avería') }),
    ],
    [
      'a meter read by visits, which never communicates',
      cliente(6),
      (s) => expect(s[0]).toMatchObject({ telegestionado: false, estado: { comunica: false, ultimaComunicacion: null } }),
    ],
    ['a meter with no state yet', cliente(8), (s) => expect(s[0]!.estado).toBeNull()],
    [
      'meters without a switch',
      'empresa@electra.example',
      (s) => expect(s.map((x) => x.estado!.interruptor)).toEqual(['sin_elemento', 'sin_elemento']),
    ],
  ])('show %s (%s)', async (_, email, comprobar) => {
    comprobar(await estadoDe(email));
  });

  it('estimate the readings of a meter since it stopped communicating', async () => {
    const [s] = await estadoDe(cliente(2));
    const desde = Date.parse(s!.estado!.ultimaComunicacion!);
    for (const l of s!.lecturas) expect(l.origen).toBe(Date.parse(l.momento) > desde ? 'estimada' : 'real');
  });

  it('give readings whose differences are the consumption the curve shows, period by period', async () => {
    const t = await token('consumidor@electra.example');
    const suministros = await estadoDe('consumidor@electra.example');
    expect(suministros.length).toBe(2);
    for (const s of suministros) {
      expect(s.lecturas.length).toBe(6);
      const [ultima, anterior] = s.lecturas;
      // Remote closures at 00:00: the period is every civil day from the earlier closure to the day before the later.
      const q = new URLSearchParams({ cups: s.cups, desde: anterior!.fecha, hasta: sumarDias(ultima!.fecha, -1), resolucion: 'dia' });
      const res = await llamar(server, 'GET', `/api/medidas/curva?${q}`, { token: t });
      expect(res.status).toBe(200);
      const curva = (await res.json()) as CurvaRespuesta;
      curva.totales.porPeriodo.forEach((p, i) => {
        const diferencia = ultima!.periodos[i]!.kwh - anterior!.periodos[i]!.kwh;
        expect(Math.abs(diferencia - p.importadaWh / 1000), `${s.cups} ${p.periodo}`).toBeLessThan(1);
      });
      expect(ultima!.consumoKwh).toBe(ultima!.periodos.reduce((a, p) => a + p.kwh, 0) - anterior!.periodos.reduce((a, p) => a + p.kwh, 0));
    }
  });
});
