/** A supply point for tests: a 2.0TD household in Alcalá de Henares unless told otherwise. */
import { construirCups } from '../../src/lib/cups.ts';
import { guardarSuministros, type SuministroEntrada } from '../../src/server/suministros/service.ts';
import { cuenta, sesion, type CuentaPrueba } from './privado.ts';
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

let seq = 0;

/** A supply point of `nif` at a distributor with a fresh random CUPS (`extra` overrides any field). */
export function puntoNuevo(nif: string, d: 'epd' | 'eod' | 'ecd' = 'epd', extra: Partial<SuministroEntrada> = {}): SuministroEntrada {
  const ree = { epd: '9901', eod: '9902', ecd: '9903' }[d];
  return suministroPrueba(construirCups(ree, 900_000 + ++seq + Math.floor(Math.random() * 1e6) * 10), d, nif, extra);
}

/** A new active account holding the supply points `puntos` make from its NIF, logged in. */
export async function titularConSuministros(
  server: TestServer,
  puntos: ((nif: string) => SuministroEntrada)[],
): Promise<{ u: CuentaPrueba; token: string; cups: string[] }> {
  const u = await cuenta(server);
  const lista = puntos.map((p) => p(u.nif));
  await guardarSuministros(server.database.db, lista);
  const { jwtToken } = await sesion(server, u.email);
  return { u, token: jwtToken, cups: lista.map((s) => s.cups) };
}
