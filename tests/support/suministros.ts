/** A supply point for tests: a 2.0TD household in Alcalá de Henares unless told otherwise. */
import { expect, it } from 'vitest';
import { construirCups } from '../../src/lib/cups.ts';
import { guardarSuministros, type SuministroEntrada } from '../../src/server/suministros/service.ts';
import { cuenta, cuentaConSesion, llamar, sesion, type CuentaPrueba } from './privado.ts';
import type { TestServer } from './server.ts';

/** The supply point of `cups` held by `nif`; `extra` overrides any field. */
export function suministroPrueba(
  cups: string,
  distribuidora: 'epd' | 'eod' | 'ecd',
  nif: string,
  extra: Partial<SuministroEntrada> = {},
): SuministroEntrada {
  return {
    cups,
    distribuidora,
    titularNif: nif,
    titularNombre: 'Titular de prueba',
    direccion: 'Calle Mayor, 1',
    codigoPostal: '28801',
    municipio: 'Alcalá de Henares',
    codigoIne: '28005',
    provincia: 'Madrid',
    tarifa: '2.0TD',
    potenciasW: [4600, 4600],
    potenciaMaximaW: 9200,
    tensionV: 230,
    contadorInteligente: true,
    telegestionado: true,
    propiedadContador: 'distribuidora',
    numeroContador: '990112345678',
    fasesContador: 'monofasico',
    resolucionMinutos: 60,
    modoControlPotencia: 'telegestion',
    autoconsumo: 'ninguno',
    comercializadoraCodigo: '0901',
    comercializadoraNombre: 'Comercializadora de prueba',
    periodicidadFacturacion: 'mensual',
    fechaAlta: '2020-01-01',
    fechaBaja: null,
    ...extra,
  };
}

/** What makes a supply point a 3.0TD business metered every quarter-hour, 15 kW in P1–P5 and 20 kW in P6. */
export const TRES_CERO_TD_CUARTOHORARIO: Partial<SuministroEntrada> = {
  tarifa: '3.0TD',
  potenciasW: [15000, 15000, 15000, 15000, 15000, 20000],
  potenciaMaximaW: 40000,
  resolucionMinutos: 15,
};

/** What makes a supply point a 3.0TD business in low voltage, three-phase with a maximeter: 20 to 40 kW. */
export const EMPRESA_3_0TD: Partial<SuministroEntrada> = {
  tarifa: '3.0TD',
  potenciasW: [20000, 20000, 25000, 25000, 25000, 40000],
  potenciaMaximaW: 55000,
  tensionV: 400,
  fasesContador: 'trifasico',
  modoControlPotencia: 'maximetro',
};

/** What makes a supply point a 6.1TD industry in high voltage (20 kV) with a maximeter: 88 to 100 kW, 250 kW at most. */
export const ALTA_TENSION_6_1TD: Partial<SuministroEntrada> = {
  ...EMPRESA_3_0TD,
  tarifa: '6.1TD',
  potenciasW: [88000, 88000, 88000, 88000, 88000, 100000],
  potenciaMaximaW: 250000,
  tensionV: 20000,
};

let seq = 0;

/** A supply point of `nif` at a distributor with a fresh random CUPS (`extra` overrides any field). */
export function puntoNuevo(nif: string, d: 'epd' | 'eod' | 'ecd' = 'epd', extra: Partial<SuministroEntrada> = {}): SuministroEntrada {
  const ree = { epd: '9901', eod: '9902', ecd: '9903' }[d];
  return suministroPrueba(construirCups(ree, 900_000 + ++seq + Math.floor(Math.random() * 1e6) * 10), d, nif, extra);
}

/** A new active account holding the supply points `puntos` make from its NIF, logged in; their CUPS and ids in that order. */
export async function titularConSuministros(
  server: TestServer,
  puntos: ((nif: string) => SuministroEntrada)[],
): Promise<{ u: CuentaPrueba; token: string; cups: string[]; ids: number[] }> {
  const u = await cuenta(server);
  const lista = puntos.map((p) => p(u.nif));
  const { ids } = await guardarSuministros(server.database.db, lista);
  const { jwtToken } = await sesion(server, u.email);
  return { u, token: jwtToken, cups: lista.map((s) => s.cups), ids: lista.map((s) => ids.get(s.cups)!) };
}

/**
 * The guards of a holder's calls, a test for each call and status: 401 without a session, 403 to an
 * account that holds no supply point. Each call is [method, path, body?].
 */
export function guardasDeTitular(server: TestServer, llamadas: [string, string, unknown?][]): void {
  it.each(llamadas)('answers 401 to %s %s without a session', async (metodo, ruta, cuerpo) => {
    expect((await llamar(server, metodo, ruta, { body: cuerpo })).status).toBe(401);
  });
  it.each(llamadas)('answers 403 to %s %s from an account that holds no supply point', async (metodo, ruta, cuerpo) => {
    const { token } = await cuentaConSesion(server);
    expect((await llamar(server, metodo, ruta, { token, body: cuerpo })).status).toBe(403);
  });
}
