/**
 * GET /api/averias/avisos ("my fault reports"): a holder finds again the reports of their supply
 * points — also one filed on the public page without a session — and those filed while logged in
 * as them; never another account's, and never the contact left on the form.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { suministros } from '../../src/server/db/schema.ts';
import { llamar } from '../support/privado.ts';
import { servidorDelFichero, unaHoraMasEnCadaTest } from '../support/server.ts';
import { guardasDeTitular, puntoNuevo, titularConSuministros } from '../support/suministros.ts';

const server = servidorDelFichero();
unaHoraMasEnCadaTest(server);

type MiAviso = { referencia: string; cups: string; distribuidora: string; creado: string; estado: string; resuelto: string | null };

async function avisoPublico(cups: string, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await llamar(server, 'POST', '/api/averias/consulta', { body: { cups, ...extra } });
  const r = (await res.json()) as { aviso: { referencia: string } | null };
  expect(r.aviso, 'a report is registered').not.toBeNull();
  return r.aviso!.referencia;
}

async function mios(token: string): Promise<MiAviso[]> {
  const res = await llamar(server, 'GET', '/api/averias/avisos', { token });
  expect(res.status).toBe(200);
  return (await res.json()) as MiAviso[];
}

describe('GET /api/averias/avisos', () => {
  guardasDeTitular(server, [['GET', '/api/averias/avisos']]);

  it('lists a report filed without a session on the public page for a supply point the account holds', async () => {
    const t = await titularConSuministros(server, [(nif) => puntoNuevo(nif, 'eod')]);
    const referencia = await avisoPublico(t.cups[0]!, { telefono: '600111222', email: 'vecina@correo.example' });
    const lista = await mios(t.token);
    expect(lista).toEqual([
      {
        referencia,
        cups: t.cups[0],
        distribuidora: 'eod',
        municipio: expect.any(String),
        creado: server.clock.now().toISOString(),
        estado: 'pendiente',
        resuelto: null,
      },
    ]);
    // The contact may be someone else's who filed it for this supply point: never answered.
    expect(JSON.stringify(lista)).not.toMatch(/600111222|vecina/);
  });

  it('never lists the report of a supply point another account holds', async () => {
    const yo = await titularConSuministros(server, [(nif) => puntoNuevo(nif)]);
    const otra = await titularConSuministros(server, [(nif) => puntoNuevo(nif)]);
    const mia = await avisoPublico(yo.cups[0]!);
    const ajena = await avisoPublico(otra.cups[0]!);
    expect((await mios(yo.token)).map((a) => a.referencia)).toEqual([mia]);
    expect((await mios(otra.token)).map((a) => a.referencia)).toEqual([ajena]);
  });

  it('matches a 22-character supply point on its 20-character base', async () => {
    const t = await titularConSuministros(server, [(nif) => ({ ...puntoNuevo(nif), cups: `${puntoNuevo(nif).cups}0F` })]);
    const referencia = await avisoPublico(t.cups[0]!);
    expect((await mios(t.token)).map((a) => [a.referencia, a.cups])).toEqual([[referencia, t.cups[0]!.slice(0, 20)]]);
  });

  it('keeps listing a report filed while logged in after the supply point changes holder', async () => {
    const t = await titularConSuministros(server, [(nif) => puntoNuevo(nif)]);
    const res = await llamar(server, 'POST', '/api/averias/suministros/consulta', { token: t.token, body: { cups: t.cups[0] } });
    const { aviso } = (await res.json()) as { aviso: { referencia: string } };
    await server.database.db.update(suministros).set({ titularNif: '00000000T' }).where(eq(suministros.cups, t.cups[0]!));
    expect((await mios(t.token)).map((a) => a.referencia)).toEqual([aviso.referencia]);
  });

  it('answers 401 without a session', async () => {
    const res = await llamar(server, 'GET', '/api/averias/avisos');
    expect(res.status).toBe(401);
  });
});
