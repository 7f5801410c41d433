import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import {
  cuota,
  decimalesDe,
  fechaBreve,
  fechaEnPalabras,
  kw,
  kwh,
  kwhTotal,
  nombreMes,
  numero,
  rangoEnPalabras,
} from '../../src/lib/medidas/pantalla/formato.ts';
import { descargarDeApi, nombreDeDisposicion, tamanoLegible, type DependenciasDescarga } from '../../src/lib/medidas/pantalla/descarga.ts';
import {
  cupsLegible,
  descripcionContador,
  direccionCompleta,
  gruposContrato,
  potenciaUnica,
  textoPotencias,
  textoRangoMedidas,
  textoTension,
  type Suministro,
} from '../../src/lib/suministros/pantalla.ts';

describe('Spanish numbers and dates', () => {
  it('writes dates in words, whatever the viewer’s time zone', () => {
    expect(fechaEnPalabras('2025-11-03')).toBe('lunes, 3 de noviembre de 2025');
    expect(fechaEnPalabras('2025-10-26')).toBe('domingo, 26 de octubre de 2025');
    expect(fechaBreve('2025-11-03')).toBe('lun, 3 nov');
    expect(nombreMes('2026-01', true)).toBe('Enero de 2026');
  });

  it('writes ranges without repeating the month or year', () => {
    expect(rangoEnPalabras('2025-11-03', '2025-11-09')).toBe('del 3 al 9 de noviembre de 2025');
    expect(rangoEnPalabras('2025-10-27', '2025-11-02')).toBe('del 27 de octubre al 2 de noviembre de 2025');
    expect(rangoEnPalabras('2025-12-29', '2026-01-04')).toBe('del 29 de diciembre de 2025 al 4 de enero de 2026');
  });

  it('writes energy and power with decimal commas, grouping four-digit numbers too so columns read alike', () => {
    expect(kwh(187)).toBe('0,187');
    expect(kwh(4217)).toBe('4,217');
    expect(kwhTotal(30_125)).toBe('30,125');
    expect(kwhTotal(1_663_300)).toBe('1.663,3');
    expect(kwhTotal(14_217_500)).toBe('14.217,5');
    expect(kw(4.6)).toBe('4,6');
    expect(kw(80.888)).toBe('80,888');
    expect(numero(8784)).toBe('8.784');
    expect(numero(9815)).toBe('9.815');
    expect(numero(999)).toBe('999');
    expect(numero(17_499)).toBe('17.499');
  });

  it('writes shares with one decimal, and none of nothing', () => {
    expect(cuota(1, 3)).toBe('33,3\u00a0%');
    expect(cuota(0, 0)).toBe('—');
  });

  it('gives an axis step the decimals it needs', () => {
    expect(decimalesDe(5)).toBe(0);
    expect(decimalesDe(0.5)).toBe(1);
    expect(decimalesDe(0.25)).toBe(2);
    expect(decimalesDe(0.05)).toBe(2);
  });
});

describe('downloads with the session token', () => {
  it('reads the file name of Content-Disposition, the UTF-8 form first, never a path', () => {
    expect(nombreDeDisposicion('attachment; filename="consumos_ES99_2025-10-26_2025-10-26.csv"', 'x.csv')).toBe(
      'consumos_ES99_2025-10-26_2025-10-26.csv',
    );
    expect(nombreDeDisposicion("attachment; filename=a.csv; filename*=UTF-8''consumo%20oto%C3%B1o.csv", 'x.csv')).toBe('consumo otoño.csv');
    expect(nombreDeDisposicion('attachment; filename=plain.xlsx', 'x.csv')).toBe('plain.xlsx');
    expect(nombreDeDisposicion('attachment; filename="../../etc/passwd"', 'x.csv')).toBe('.._.._etc_passwd');
    expect(nombreDeDisposicion(null, 'x.csv')).toBe('x.csv');
    expect(nombreDeDisposicion('attachment', 'x.csv')).toBe('x.csv');
  });

  const deps = (respuesta: Response, token: string | null = 'tok') => {
    const fetch = vi.fn(async (_url: RequestInfo | URL, _init?: RequestInit) => respuesta);
    const cerrarSesion = vi.fn();
    return {
      deps: { fetch: fetch as unknown as typeof globalThis.fetch, token: () => token, cerrarSesion } satisfies DependenciasDescarga,
      fetch,
      cerrarSesion,
    };
  };

  it('sends the bearer token, reports progress and keeps the server’s name', async () => {
    const cuerpo = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode('\ufeffCUPS;Fecha\r\n'));
        c.enqueue(new TextEncoder().encode('ES99;26/10/2025\r\n'));
        c.close();
      },
    });
    const { deps: d, fetch } = deps(
      new Response(cuerpo, { headers: { 'Content-Type': 'text/csv', 'Content-Disposition': 'attachment; filename="c.csv"' } }),
    );
    const progreso: number[] = [];
    const r = await descargarDeApi(d, '/api/medidas/curva/csv?cups=X', 'defecto.csv', { alProgresar: (b) => progreso.push(b) });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.nombre).toBe('c.csv');
    const bytes = new Uint8Array(await r.blob.arrayBuffer());
    // The BOM's bytes reach the file untouched (Blob.text() would hide them).
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder().decode(bytes.slice(3))).toBe('CUPS;Fecha\r\nES99;26/10/2025\r\n');
    expect(progreso.length).toBe(2);
    expect(progreso[1]).toBe(r.blob.size);
    const init = fetch.mock.calls[0]![1]!;
    expect(new Headers(init.headers).get('Authorization')).toBe('Bearer tok');
    expect(fetch.mock.calls[0]![0]).toBe('/api/medidas/curva/csv?cups=X');
  });

  it('gives the API’s Spanish message on an error, and ends the session on a 401', async () => {
    const malo = deps(
      new Response(JSON.stringify({ message: 'El periodo consultado no puede superar los dos años.' }), {
        status: 400,
        headers: { 'Content-Type': 'application/json' },
      }),
    );
    expect(await descargarDeApi(malo.deps, '/api/x', 'x')).toEqual({
      ok: false,
      mensaje: 'El periodo consultado no puede superar los dos años.',
    });
    const caducada = deps(new Response('', { status: 401, statusText: 'Unauthorized' }));
    await descargarDeApi(caducada.deps, '/api/x', 'x');
    expect(caducada.cerrarSesion).toHaveBeenCalledOnce();
  });

  it('says so in Spanish when the portal cannot be reached', async () => {
    const d: DependenciasDescarga = {
      fetch: async () => Promise.reject(new TypeError('network')),
      token: () => 't',
      cerrarSesion: () => undefined,
    };
    const r = await descargarDeApi(d, '/api/x', 'x');
    expect(r.ok === false && r.mensaje).toMatch(/No se ha podido conectar/);
  });

  it('writes sizes in KB and MB', () => {
    expect(tamanoLegible(850 * 1024)).toBe('850 KB');
    expect(tamanoLegible(1.25 * 1024 * 1024)).toBe('1,3 MB');
  });
});

const suministro: Suministro = {
  autorizacion: null,
  suspendidoDesde: null,
  cups: 'ES9902000000000001KL',
  distribuidora: 'eod',
  distribuidoraNombre: 'Electra Occidental Distribución, S.L.',
  titular: { nif: '12345678Z', nombre: 'Lucía Martín Ortega' },
  direccion: 'Paseo del Prado, 92',
  codigoPostal: '10001',
  municipio: 'Cáceres',
  codigoIne: '10037',
  provincia: 'Cáceres',
  tarifa: '2.0TD',
  potenciasKw: [5.75, 5.75],
  potenciaMaximaKw: 9.2,
  tensionV: 230,
  contador: {
    inteligente: true,
    telegestionado: true,
    propiedad: 'distribuidora',
    numero: '990287405792',
    fases: 'monofasico',
    resolucionMinutos: 60,
  },
  modoControlPotencia: 'telegestion',
  autoconsumo: 'con_excedentes_compensacion',
  comercializadora: { codigo: '0901', nombre: 'Energía Clara Comercializadora Demo, S.L.' },
  periodicidadFacturacion: 'mensual',
  fechaAlta: '2015-02-01',
  fechaBaja: null,
};

describe('the contract in plain Spanish', () => {
  it('names every field of the API with a label and a readable value', () => {
    const datos = Object.fromEntries(gruposContrato(suministro).flatMap((g) => g.datos.map((d) => [d.etiqueta, d.valor])));
    expect(datos).toMatchObject({
      CUPS: 'ES9902000000000001KL',
      Municipio: 'Cáceres (código INE 10037)',
      'NIF del titular': '12345678Z',
      Comercializadora: 'Energía Clara Comercializadora Demo, S.L. (código 0901)',
      'Fecha de alta': 'domingo, 1 de febrero de 2015',
      'Fecha de baja': 'En vigor',
      Facturación: 'Mensual',
      'Potencia contratada P1': '5,75 kW',
      'Potencia contratada P2': '5,75 kW',
      'Potencia máxima admisible de la instalación': '9,2 kW',
      'Tensión de suministro': '230 V (baja tensión)',
      'Control de potencia': 'Por el contador telegestionado',
      Autoconsumo: 'Autoconsumo con excedentes acogido a compensación',
      Tipo: 'Contador inteligente telegestionado',
      Propiedad: 'De la distribuidora (en alquiler)',
      Conexión: 'Monofásico',
      'Registra el consumo': 'Cada hora',
    });
    const campos = gruposContrato(suministro).flatMap((g) => g.datos);
    expect(campos.every((d) => d.valor.trim().length > 0)).toBe(true);
  });

  it('describes meters, voltages and powers', () => {
    expect(descripcionContador({ ...suministro.contador, inteligente: false, telegestionado: false })).toBe(
      'Contador no inteligente (lectura presencial)',
    );
    expect(textoTension(20_000)).toBe('20 kV (alta tensión)');
    expect(potenciaUnica([4.6, 4.6])).toBe(4.6);
    expect(potenciaUnica([20, 20, 25, 25, 25, 40])).toBeNull();
    expect(textoPotencias([20, 40])).toBe('P1: 20 kW · P2: 40 kW');
    expect(direccionCompleta(suministro)).toBe('Paseo del Prado, 92, 10001 Cáceres');
    expect(direccionCompleta({ ...suministro, municipio: 'Alcalá de Henares', provincia: 'Madrid' })).toBe(
      'Paseo del Prado, 92, 10001 Alcalá de Henares (Madrid)',
    );
    expect(cupsLegible('ES9902000000000001KL')).toBe('ES99 0200 0000 0000 01KL');
  });

  it('shows an unknown code as it is rather than an empty cell', () => {
    const datos = gruposContrato({ ...suministro, autoconsumo: 'colectivo_nuevo' }).flatMap((g) => g.datos);
    expect(datos.find((d) => d.etiqueta === 'Autoconsumo')?.valor).toBe('colectivo_nuevo');
  });

  it('states the measures available', () => {
    expect(textoRangoMedidas({ desde: 'x', hasta: 'y', horas: 17_499 }, { primero: '2024-11-22', ultimo: '2026-11-21' })).toBe(
      'Del 22 de noviembre de 2024 al 21 de noviembre de 2026 (17.499 horas con medida).',
    );
    expect(textoRangoMedidas(null, null)).toBeNull();
  });
});

describe('one number format for the whole interface', () => {
  it('is the only place that formats numbers in src/lib and src/islands', () => {
    const raiz = new URL('../../src/', import.meta.url).pathname;
    const fuera: string[] = [];
    for (const carpeta of ['lib', 'islands']) {
      for (const e of readdirSync(join(raiz, carpeta), { recursive: true, withFileTypes: true })) {
        if (!e.isFile() || !/\.(ts|tsx)$/.test(e.name) || e.name === 'numeros.ts') continue;
        const texto = readFileSync(join(e.parentPath, e.name), 'utf8');
        if (/new Intl\.NumberFormat|\.toLocaleString\(/.test(texto)) fuera.push(join(carpeta, e.name));
      }
    }
    expect(fuera).toEqual([]);
  });
});
