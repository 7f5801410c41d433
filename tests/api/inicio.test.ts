/**
 * The dashboard's summary (docs/decisions/024-panel-de-inicio.md), through HTTP on the demo data:
 * the household sees its supply points' consumption (the same kWh the curve screen sums), the
 * scheduled works in Mérida tomorrow, its next reading and its claims awaiting it; a supply company
 * sees its ATR requests; no one sees another holder's data; without a session, 401.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { ResumenInicio } from '../../src/lib/inicio/respuestas.ts';
import { diasDelMes, fechaLocalDe, horasDelDia, sumarDias } from '../../src/lib/medidas/horas.ts';
import type { CurvaRespuesta } from '../../src/lib/medidas/respuestas.ts';
import { loadDemoData } from '../../src/server/demo/load.ts';
import { createLogger } from '../../src/server/logger.ts';
import { cuenta, llamar, sesion } from '../support/privado.ts';
import { servidorDelFichero } from '../support/server.ts';

const server = servidorDelFichero();
beforeAll(async () => {
  await loadDemoData(server.database.db, createLogger('silent'), { now: server.clock.now() });
}, 240_000);

const HOGAR = 'consumidor@electra.example';
const COMERCIALIZADORA = 'comercializadora@electra.example';
const cliente = (n: number) => `cliente${String(n).padStart(3, '0')}@correo.example`;

/** A demo account's token. */
const token = async (email: string) => (await sesion(server, email, 'Demo1234')).jwtToken;

/** The summary of a token. */
async function resumen(t: string): Promise<ResumenInicio> {
  const res = await llamar(server, 'GET', '/api/inicio/resumen', { token: t });
  const texto = await res.text();
  expect(res.status, texto).toBe(200);
  return JSON.parse(texto) as ResumenInicio;
}

/** The kWh the curve screen sums for a supply point between two civil dates (both included), and its hours with a measure. */
async function curva(t: string, cups: string, desde: string, hasta: string): Promise<{ kWh: number; horas: number }> {
  const q = new URLSearchParams({ cups, desde, hasta, resolucion: 'hora' });
  const res = await llamar(server, 'GET', `/api/medidas/curva?${q}`, { token: t });
  expect(res.status).toBe(200);
  const c = (await res.json()) as CurvaRespuesta;
  return { kWh: c.totales.importadaWh / 1000, horas: c.curva.calidad.replaceAll('-', '').length };
}

describe('GET /api/inicio/resumen', { timeout: 60_000 }, () => {
  it('answers 401 without a session', async () => {
    const res = await llamar(server, 'GET', '/api/inicio/resumen');
    expect(res.status).toBe(401);
  });

  it("shows the household's consumption, the same kWh as the curve screen, and compares with a year earlier", async () => {
    const t = await token(HOGAR);
    const r = await resumen(t);
    const hoy = fechaLocalDe(server.clock.now());
    expect(r.hoy).toBe(hoy);
    const c = r.consumidor!;
    expect(c.totalSuministros).toBe(2);
    expect(c.suministros).toHaveLength(2);
    for (const s of c.suministros) {
      // The same sums and the same hours with a measure as the curve screen, day and months in Madrid time.
      expect(s.ayer.fecha).toBe(sumarDias(hoy, -1));
      const ayer = await curva(t, s.cups, s.ayer.fecha, s.ayer.fecha);
      expect(s.ayer).toMatchObject({ horasMedidas: ayer.horas, horasPeriodo: horasDelDia(s.ayer.fecha) });
      expect(s.ayer.kWh).toBeCloseTo(ayer.kWh, 3);
      const [a, m] = s.mes.mes.split('-').map(Number) as [number, number];
      const mes = await curva(t, s.cups, `${s.mes.mes}-01`, `${s.mes.mes}-${diasDelMes(a, m)}`);
      expect(s.mes.horasPeriodo).toBeGreaterThanOrEqual(diasDelMes(a, m) * 24 - 1);
      expect(s.mes.horasMedidas).toBe(mes.horas);
      expect(s.mes.kWh).toBeCloseTo(mes.kWh, 3);
      expect(s.mes.kWh!).toBeGreaterThan(0);
      // Two years of demo data: the same month a year earlier is there to compare with.
      expect(s.mesAnterior.mes).toBe(`${a - 1}-${String(m).padStart(2, '0')}`);
      const antes = await curva(t, s.cups, `${s.mesAnterior.mes}-01`, `${s.mesAnterior.mes}-${diasDelMes(a - 1, m)}`);
      expect(s.mesAnterior.horasMedidas).toBe(antes.horas);
      expect(s.mesAnterior.kWh).toBeCloseTo(antes.kWh, 3);
      expect(s.mesAnterior.kWh!).toBeGreaterThan(0);
    }
  });

  it('shows the scheduled works in Mérida tomorrow and the next reading of each supply point', async () => {
    const r = await resumen(await token(HOGAR));
    const manana = sumarDias(r.hoy, 1);
    const interrupciones = r.consumidor!.suministros.flatMap((s) =>
      s.interrupciones.map((i) => ({ ...i, municipio: i.municipio, cups: s.cups })),
    );
    const merida = interrupciones.find((i) => i.municipio === 'Mérida');
    expect(merida, JSON.stringify(interrupciones)).toBeDefined();
    expect(merida!.estadoIncidenciaRed).toBe('Programada');
    expect(fechaLocalDe(new Date(merida!.inicio))).toBe(manana);
    expect(merida!.cups.startsWith('ES9902')).toBe(true);
    for (const s of r.consumidor!.suministros) {
      expect(s.proximaLectura, s.cups).not.toBeNull();
      expect(s.proximaLectura!.fecha >= r.hoy).toBe(true);
    }
  });

  it('lists the claim where the distributor asks the household for information, and the answered query', async () => {
    const r = await resumen(await token(HOGAR));
    expect(r.contacto.some((k) => k.procedimiento === 'reclamacion' && k.motivo === 'pide_informacion')).toBe(true);
    expect(r.contacto.some((k) => k.procedimiento === 'consulta' && k.motivo === 'respondida')).toBe(true);
    // Only its own cases: each one opens for it.
    const t = await token(HOGAR);
    for (const k of r.contacto) {
      const api = k.procedimiento === 'consulta' ? '/api/contacto/consultas' : '/api/contacto/reclamaciones';
      expect((await llamar(server, 'GET', `${api}/${k.id}`, { token: t })).status).toBe(200);
    }
    expect(r.comercializadora).toBeNull();
  });

  it("shows a supply company its ATR requests with an incidence, and this month's SIPS files", async () => {
    const { jwtToken: t, Permisos } = await sesion(server, COMERCIALIZADORA, 'Demo1234');
    const r = await resumen(t);
    const com = r.comercializadora!;
    expect(com.atr.some((a) => a.estado === 'incidencia' && a.proceso === 'C2')).toBe(true);
    for (const a of com.atr) {
      const res = await llamar(server, 'GET', `/api/atr/solicitudes/${a.id}`, { token: t });
      expect(res.status, a.referencia).toBe(200);
      expect(((await res.json()) as { estado: string }).estado).toBe(a.estado);
    }
    const suyas = Permisos.filter((p) => p.endsWith('-comercializadora')).map((p) => p.split('-')[0]);
    expect(suyas.length).toBeGreaterThan(0);
    expect(com.sips.map((s) => s.distribuidora).sort()).toEqual(suyas.sort());
    expect(com.sips.every((s) => s.mes === r.hoy.slice(0, 7))).toBe(true);
    // A supply company holds no supply points: no consumer part.
    expect(r.consumidor).toBeNull();
  });

  it("never shows another holder's supply points, cases or incidents", async () => {
    const hogar = await resumen(await token(HOGAR));
    const otro = await resumen(await token(cliente(1)));
    const cupsHogar = new Set(hogar.consumidor!.suministros.map((s) => s.cups));
    expect(otro.consumidor!.suministros.length).toBeGreaterThan(0);
    for (const s of otro.consumidor!.suministros) expect(cupsHogar.has(s.cups)).toBe(false);
    const casosHogar = new Set(hogar.contacto.map((k) => k.id));
    for (const k of otro.contacto) expect(casosHogar.has(k.id)).toBe(false);
    // Three months of demo data: last month is there, the same month a year earlier is not.
    const s = otro.consumidor!.suministros[0]!;
    expect(s.mes.kWh).not.toBeNull();
    expect(s.mesAnterior.kWh).toBeNull();
    expect(s.mesAnterior.horasMedidas).toBe(0);
  });

  it('answers an account with nothing pending with empty lists', async () => {
    const nueva = await cuenta(server);
    const t = (await sesion(server, nueva.email)).jwtToken;
    const r = await resumen(t);
    expect(r).toMatchObject({ consumidor: null, contacto: [], accesos: [], comercializadora: null });
  });
});
