/**
 * The SIPS API through HTTP (docs/decisions/016): a supply company of EPD lists and downloads
 * EPD's files and never EOD's, queries CUPS mixing good and bad ones (JSON and CSV), every
 * download and query is audited; an EPD administrator loads a register and writes the month's
 * files; nobody else can.
 */
import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { construirCups } from '../../src/lib/cups.ts';
import { cabeceraSips } from '../../src/server/sips/escritor.ts';
import { importarRegistroSips } from '../../src/server/sips/importar.ts';
import { generarMesSips, primerDiaDelMes } from '../../src/server/sips/ficheros.ts';
import { eq } from 'drizzle-orm';
import { suministros } from '../../src/server/db/schema.ts';
import { crearExpediente } from '../../src/server/expedientes/service.ts';
import { auditadas, cuenta, llamar, sesion, type CuentaPrueba } from '../support/privado.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { ficheroRegistro, filaRegistro } from '../support/sips.ts';

let server: TestServer;
let comercializadora: CuentaPrueba;
let tokenCom: string;
let tokenAdminEpd: string;
let tokenConsumidor: string;
let mes: string;
const EPD_1 = construirCups('9901', 9501);
const EPD_2 = construirCups('9901', 9502);
const EOD_1 = construirCups('9902', 9503);

beforeAll(async () => {
  server = await startTestServer();
  comercializadora = await cuenta(server, { extra: ['epd-comercializadora'], prefijo: 'comercializadora' });
  const adminEpd = await cuenta(server, { extra: ['epd-administrador'], prefijo: 'admin-epd' });
  const consumidor = await cuenta(server, { prefijo: 'consumidor' });
  tokenCom = (await sesion(server, comercializadora.email)).jwtToken;
  tokenAdminEpd = (await sesion(server, adminEpd.email)).jwtToken;
  tokenConsumidor = (await sesion(server, consumidor.email)).jwtToken;
  const eod = filaRegistro(9503, { cups: EOD_1, codigoEmpresaDistribuidora: '9902' });
  await server.database.db.transaction(async (tx) => {
    await importarRegistroSips(tx, new TextEncoder().encode(ficheroRegistro([filaRegistro(9501), filaRegistro(9502)])));
    await importarRegistroSips(tx, new TextEncoder().encode(ficheroRegistro([eod])));
  });
  mes = primerDiaDelMes(server.clock.now());
  await generarMesSips(server.database.db, 'epd', mes);
  await generarMesSips(server.database.db, 'eod', mes);
});
afterAll(async () => {
  await server.close();
});

interface Fichero {
  nombre: string;
  tipo: string;
  version: string;
  filas: number;
  bytesGzip: number;
  sha256: string;
}

describe('ficheros SIPS para comercializadoras', () => {
  it('lista los cuatro ficheros del mes de la distribuidora', async () => {
    const res = await llamar(server, 'GET', '/api/sips/epd', { token: tokenCom });
    expect(res.status).toBe(200);
    const lista = (await res.json()) as Fichero[];
    expect(lista.map((f) => `${f.tipo} ${f.version} ${f.filas}`).sort()).toEqual([
      'CONSUMOS_ELECTRICIDAD sips2026 0',
      'CONSUMOS_ELECTRICIDAD v2 0',
      'PS_ELECTRICIDAD sips2026 2',
      'PS_ELECTRICIDAD v2 2',
    ]);
  });

  it('la descarga es el CSV comprimido con gzip, con la huella de la lista', async () => {
    const lista = (await (await llamar(server, 'GET', '/api/sips/epd', { token: tokenCom })).json()) as Fichero[];
    const ps = lista.find((f) => f.tipo === 'PS_ELECTRICIDAD' && f.version === 'v2')!;
    const res = await llamar(server, 'GET', `/api/sips/epd/${ps.nombre}`, { token: tokenCom });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/gzip');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${ps.nombre}.gz"`);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.length).toBe(ps.bytesGzip);
    expect(createHash('sha256').update(gunzipSync(bytes)).digest('hex')).toBe(ps.sha256);
  });

  it('cada descarga queda en la auditoría con quién y qué fichero', async () => {
    const lista = (await (await llamar(server, 'GET', '/api/sips/epd', { token: tokenCom })).json()) as Fichero[];
    await llamar(server, 'GET', `/api/sips/epd/${lista[0]!.nombre}`, { token: tokenCom });
    const entradas = await auditadas(server, 'sips.descarga', { actor: comercializadora.id, objetivo: lista[0]!.nombre });
    expect(entradas.length).toBeGreaterThan(0);
    expect(entradas.at(-1)!.distribuidoras).toEqual(['epd']);
  });

  it.each([
    ['GET', '/api/sips/eod'],
    ['GET', '/api/sips/eod/{fichero}'],
    ['POST', '/api/sips/eod/consulta'],
  ])('%s %s de otra distribuidora responde 403', async (metodo, ruta) => {
    const res = await llamar(
      server,
      metodo,
      ruta.replace('{fichero}', `${mes.replace('-', '').slice(0, 6)}_SIPS2_PS_ELECTRICIDAD_eod.csv`),
      {
        token: tokenCom,
        body: metodo === 'POST' ? { cups: [EOD_1], formato: 'v2' } : undefined,
      },
    );
    expect(res.status).toBe(403);
  });

  it.each([
    ['GET', '/api/sips/epd'],
    ['POST', '/api/sips/epd/consulta'],
    ['POST', '/api/administrador/sips/epd/ficheros'],
  ])('%s %s sin sesión responde 401', async (metodo, ruta) => {
    expect((await llamar(server, metodo, ruta, { body: metodo === 'POST' ? {} : undefined })).status).toBe(401);
  });

  it('un fichero que no existe responde 404', async () => {
    const res = await llamar(server, 'GET', '/api/sips/epd/190001_SIPS2_PS_ELECTRICIDAD_epd.csv', { token: tokenCom });
    expect(res.status).toBe(404);
  });
});

describe('consulta por CUPS', () => {
  it('responde las filas de los CUPS buenos y el motivo de cada uno de los malos', async () => {
    const res = await llamar(server, 'POST', '/api/sips/epd/consulta', {
      token: tokenCom,
      body: { cups: [EPD_1, 'ES12', EOD_1, '', construirCups('9901', 1), EPD_1.toLowerCase()], formato: 'sips2026' },
    });
    expect(res.status).toBe(200);
    const r = (await res.json()) as {
      columnas: string[];
      filas: string[][];
      rechazados: { linea: number; cups: string; motivo: string }[];
    };
    expect(r.columnas).toHaveLength(103);
    expect(r.filas.map((f) => f[2])).toEqual([EPD_1]);
    expect(r.rechazados.map((x) => [x.linea, x.motivo.split(':')[0]!.split('.')[0]])).toEqual([
      [2, expect.any(String)],
      [3, 'Es un CUPS de otra distribuidora'],
      [5, 'Electra Peninsular Distribución, S'],
    ]);
  });

  it.each([
    ['JSON', {}],
    ['CSV', { Accept: 'text/csv' }],
  ])('en %s no da el NIF, el nombre ni la dirección de un titular persona física', async (_forma, headers) => {
    const res = await llamar(server, 'POST', '/api/sips/epd/consulta', {
      token: tokenCom,
      body: { cups: [EPD_1], formato: 'sips2026' },
      headers,
    });
    expect(res.status).toBe(200);
    const texto = await res.text();
    expect(texto).toContain(EPD_1);
    for (const dato of ['12345678Z', 'Lucía', 'Martín', 'Gómez']) expect(texto).not.toContain(dato);
  });

  it('un CUPS de 22 caracteres (con su punto frontera, 0F) responde el suministro de sus 20 primeros', async () => {
    const res = await llamar(server, 'POST', '/api/sips/epd/consulta', {
      token: tokenCom,
      body: { cups: [`${EPD_1}0F`, `${EPD_1.slice(0, 18)}AA0F`], formato: 'sips2026' },
    });
    expect(res.status).toBe(200);
    const r = (await res.json()) as { filas: string[][]; rechazados: { linea: number; cups: string }[] };
    expect(r.filas.map((f) => f[2])).toEqual([EPD_1]);
    expect(r.rechazados.map((x) => x.linea)).toEqual([2]);
  });

  it('con tipo CONSUMOS_ELECTRICIDAD responde las filas de consumo de esos CUPS', async () => {
    const res = await llamar(server, 'POST', '/api/sips/epd/consulta', {
      token: tokenCom,
      body: { cups: [EPD_1], formato: 'sips2026', tipo: 'CONSUMOS_ELECTRICIDAD' },
    });
    const r = (await res.json()) as { tipo: string; columnas: string[]; filas: string[][] };
    expect(r.tipo).toBe('CONSUMOS_ELECTRICIDAD');
    expect(r.columnas).toHaveLength(30);
    expect(r.filas).toEqual([]);
  });

  it('con Accept: text/csv responde el CSV del fichero pedido', async () => {
    const res = await llamar(server, 'POST', '/api/sips/epd/consulta', {
      token: tokenCom,
      body: { cups: [EPD_1, EPD_2], formato: 'v2' },
      headers: { Accept: 'text/csv' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    const lineas = (await res.text()).trimEnd().split('\r\n');
    expect(lineas[0]!.split(',')).toHaveLength(57);
    expect(lineas).toHaveLength(3);
  });

  it('queda en la auditoría con los CUPS consultados', async () => {
    await llamar(server, 'POST', '/api/sips/epd/consulta', { token: tokenCom, body: { cups: [EPD_2], formato: 'v2' } });
    const [ultima] = (await auditadas(server, 'sips.consulta', { actor: comercializadora.id })).slice(-1);
    expect(ultima!.details).toMatchObject({ formato: 'v2', tipo: 'PS_ELECTRICIDAD', cups: [EPD_2] });
  });

  it.each([
    [{ cups: [], formato: 'v2' }, 'Escriba al menos un CUPS.'],
    [{ cups: Array.from({ length: 1001 }, () => EPD_1), formato: 'v2' }, 'Consulte como mucho 1000 CUPS a la vez.'],
    [{ cups: [EPD_1], formato: 'v3' }, 'Elija el formato: v2 o sips2026.'],
  ])('rechaza %j con 400', async (body, mensaje) => {
    const res = await llamar(server, 'POST', '/api/sips/epd/consulta', { token: tokenCom, body });
    expect(res.status).toBe(400);
    expect(await res.json()).toContain(mensaje);
  });
});

describe('SIPS para el administrador de la distribuidora', () => {
  it('carga un registro y dice cuántos suministros son nuevos', async () => {
    const res = await server.fetch('/api/administrador/sips/epd/registro', {
      method: 'POST',
      headers: { Authorization: `Bearer ${tokenAdminEpd}`, 'Content-Type': 'application/octet-stream' },
      body: ficheroRegistro([filaRegistro(9601), filaRegistro(9501)]),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ filas: 2, nuevos: 1, actualizados: 0, sinCambios: 1, conservados: 0 });
  });

  describe('previa de la carga y modificaciones activadas después del fichero', () => {
    const CUPS = construirCups('9901', 9521);
    const POST = (ruta: string, body: string) =>
      server.fetch(`/api/administrador/sips/epd/${ruta}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${tokenAdminEpd}`, 'Content-Type': 'application/octet-stream' },
        body,
      });
    /** The register row of the supply point, its data as of `fecha`, in `via` street. */
    const fichero = (fecha: string, via: string) =>
      ficheroRegistro([filaRegistro(9521, { fechaUltimoMovimientoContrato: fecha, viaPS: via })]);
    const enRegistro = async () => {
      const [s] = await server.database.db.select().from(suministros).where(eq(suministros.cups, CUPS));
      return s!;
    };

    beforeAll(async () => {
      await server.database.db.transaction((tx) => importarRegistroSips(tx, new TextEncoder().encode(fichero('2024-01-01', 'Mayor'))));
      const s = await enRegistro();
      // MC: the household's power raised to 5,75 kW, activated on 10 November 2026, as the portal's activation leaves it.
      await crearExpediente(server.database.db, {
        procedimiento: 'modificacion',
        distribuidora: 'epd',
        userId: (await cuenta(server, { prefijo: 'titular-mc' })).id,
        paso: 'activada',
        tipo: 'potencia',
        datos: {
          suministroId: s.id,
          solicitado: { tipo: 'potencia', potenciasW: [5750, 5750] },
          anterior: { potenciasW: [4600, 4600] },
          fechaActivacion: '2026-11-10',
        },
      });
      await server.database.db
        .update(suministros)
        .set({ potenciasW: [5750, 5750] })
        .where(eq(suministros.id, s.id));
    });

    it('la previa dice qué cambia campo a campo y qué se conserva, y no cambia nada', async () => {
      const res = await POST('registro/previa', fichero('2026-06-01', 'Real'));
      expect(res.status).toBe(200);
      const r = (await res.json()) as Record<string, unknown>;
      expect(r).toMatchObject({ filas: 1, nuevos: 0, actualizados: 1, sinCambios: 0, conservados: 1 });
      expect(r.cambios).toEqual([
        {
          cups: CUPS,
          nuevo: false,
          campos: expect.arrayContaining([
            { campo: 'direccion', antes: 'Calle Mayor, 12, 3.º B', despues: 'Calle Real, 12, 3.º B' },
            { campo: 'viaPS', antes: 'Mayor', despues: 'Real' },
            { campo: 'fechaUltimoMovimientoContrato', antes: '2024-01-01', despues: '2026-06-01' },
          ]),
        },
      ]);
      expect((r.cambios as { campos: { campo: string }[] }[])[0]!.campos.map((c) => c.campo)).not.toContain('potencias_w');
      expect(r.camposConservados).toEqual([
        {
          cups: CUPS,
          campo: 'potencias_w',
          actual: '5750 / 5750',
          fichero: '4600 / 4600',
          motivo: expect.stringMatching(/^la modificación MC-\d{6} activada el 10\/11\/2026$/),
        },
      ]);
      expect(await enRegistro()).toMatchObject({ direccion: 'Calle Mayor, 12, 3.º B', potenciasW: [5750, 5750] });
    });

    it('la carga de un fichero anterior a la modificación activada no devuelve el contrato atrás', async () => {
      const res = await POST('registro', fichero('2026-06-01', 'Real'));
      expect(await res.json()).toEqual({ filas: 1, nuevos: 0, actualizados: 1, sinCambios: 0, conservados: 1 });
      expect(await enRegistro()).toMatchObject({ direccion: 'Calle Real, 12, 3.º B', potenciasW: [5750, 5750] });
    });

    it('un fichero con datos posteriores a la activación sí cambia lo activado', async () => {
      const res = await POST('registro', fichero('2026-11-20', 'Real'));
      expect(await res.json()).toEqual({ filas: 1, nuevos: 0, actualizados: 1, sinCambios: 0, conservados: 0 });
      expect((await enRegistro()).potenciasW).toEqual([4600, 4600]);
    });
  });

  it('la carga conserva lo que cambió una solicitud ATR activada después de los datos del fichero', async () => {
    const CUPS = construirCups('9901', 9522);
    const fila = (fecha: string, comercializadora = '0901') =>
      ficheroRegistro([filaRegistro(9522, { fechaUltimoMovimientoContrato: fecha, codigoComercializadorVigente: comercializadora })]);
    const previa = async (cuerpo: string) => {
      const res = await server.fetch('/api/administrador/sips/epd/registro/previa', {
        method: 'POST',
        headers: { Authorization: `Bearer ${tokenAdminEpd}`, 'Content-Type': 'application/octet-stream' },
        body: cuerpo,
      });
      expect(res.status).toBe(200);
      return (await res.json()) as { conservados: number; camposConservados: unknown[] };
    };
    await server.database.db.transaction((tx) => importarRegistroSips(tx, new TextEncoder().encode(fila('2024-01-01'))));
    // A C1 (change of retailer to 0902) activated on 10 November 2026, as the ATR reader leaves it.
    await crearExpediente(server.database.db, {
      procedimiento: 'atr',
      distribuidora: 'epd',
      userId: comercializadora.id,
      paso: 'activada',
      tipo: 'C1',
      datos: { cups: CUPS, proceso: 'C1', pasoCnmc: '05', activacion: '2026-11-10', codigoSolicitud: '000000000077' },
    });
    await server.database.db.update(suministros).set({ comercializadoraCodigo: '0902' }).where(eq(suministros.cups, CUPS));
    const antigua = await previa(fila('2026-06-01'));
    expect(antigua.conservados).toBe(1);
    expect(antigua.camposConservados).toEqual([
      {
        cups: CUPS,
        campo: 'comercializadora_codigo',
        actual: '0902',
        fichero: '0901',
        motivo: 'la solicitud ATR 000000000077 (C1) activada el 10/11/2026',
      },
    ]);
    // A file as old that already says what the activation set keeps nothing: nothing to count.
    expect(await previa(fila('2026-06-01', '0902'))).toMatchObject({ conservados: 0, camposConservados: [] });
  });

  it('un registro con errores responde 422 con cada línea y no cambia nada', async () => {
    const res = await server.fetch('/api/administrador/sips/epd/registro', {
      method: 'POST',
      headers: { Authorization: `Bearer ${tokenAdminEpd}`, 'Content-Type': 'application/octet-stream' },
      body: ficheroRegistro([filaRegistro(9701), filaRegistro(9702, { codigoPostalPS: '2880' })]),
    });
    expect(res.status).toBe(422);
    const r = (await res.json()) as { fallas: { linea: number; columna: string }[] };
    expect(r.fallas).toEqual([expect.objectContaining({ linea: 3, columna: 'codigoPostalPS' })]);
  });

  it('un gzip pequeño con una línea enorme responde 422 nombrando la línea, sin leerla entera', async () => {
    // 50 MB of one line compress to some 50 KB: what the reader holds must not follow the line.
    const bomba = gzipSync(Buffer.concat([Buffer.from(cabeceraSips('PS_ELECTRICIDAD', 'sips2026')), Buffer.alloc(50 * 1024 * 1024, 0x61)]));
    expect(bomba.length).toBeLessThan(100_000);
    const res = await server.fetch('/api/administrador/sips/epd/registro', {
      method: 'POST',
      headers: { Authorization: `Bearer ${tokenAdminEpd}`, 'Content-Type': 'application/octet-stream' },
      body: bomba,
    });
    expect(res.status).toBe(422);
    const r = (await res.json()) as { fallas: { linea: number; motivo: string }[] };
    expect(r.fallas).toEqual([
      expect.objectContaining({ linea: 2, motivo: expect.stringMatching(/^La línea 2 tiene más de 65\.536 caracteres/) }),
    ]);
  });

  it('una línea de otra distribuidora en el registro de EPD es un error', async () => {
    const res = await server.fetch('/api/administrador/sips/epd/registro', {
      method: 'POST',
      headers: { Authorization: `Bearer ${tokenAdminEpd}`, 'Content-Type': 'application/octet-stream' },
      body: ficheroRegistro([filaRegistro(9503, { cups: EOD_1, codigoEmpresaDistribuidora: '9902' })]),
    });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { fallas: { columna: string }[] }).fallas[0]!.columna).toBe('codigoEmpresaDistribuidora');
  });

  it('un CUPS repetido en el registro responde 422 con la línea que lo repite', async () => {
    const res = await server.fetch('/api/administrador/sips/epd/registro', {
      method: 'POST',
      headers: { Authorization: `Bearer ${tokenAdminEpd}`, 'Content-Type': 'application/octet-stream' },
      body: ficheroRegistro([filaRegistro(9801), filaRegistro(9801)]),
    });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { fallas: { linea: number; columna: string }[] }).fallas).toEqual([
      expect.objectContaining({ linea: 3, columna: 'cups' }),
    ]);
  });

  it('con Accept NDJSON cuenta el avance de la carga y termina con el resultado', async () => {
    const filas = Array.from({ length: 2100 }, (_, i) => filaRegistro(20_000 + i));
    const res = await server.fetch('/api/administrador/sips/epd/registro', {
      method: 'POST',
      headers: { Authorization: `Bearer ${tokenAdminEpd}`, 'Content-Type': 'application/octet-stream', Accept: 'application/x-ndjson' },
      body: ficheroRegistro(filas),
    });
    expect(res.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    const lineas = (await res.text())
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lineas).toEqual([
      { fase: 'cargando', filas: 0, total: 2100 },
      { fase: 'cargando', filas: 2000, total: 2100 },
      { fase: 'hecho', filas: 2100, nuevos: 2100, actualizados: 0, sinCambios: 0, conservados: 0 },
    ]);
  });

  it('con Accept NDJSON un registro con errores termina con cada error y no cambia nada', async () => {
    const res = await server.fetch('/api/administrador/sips/epd/registro', {
      method: 'POST',
      headers: { Authorization: `Bearer ${tokenAdminEpd}`, 'Content-Type': 'application/octet-stream', Accept: 'application/x-ndjson' },
      body: ficheroRegistro([filaRegistro(9901, { codigoPostalPS: '2880' })]),
    });
    const ultima = JSON.parse((await res.text()).trimEnd().split('\n').at(-1)!) as { fase: string; fallas: { linea: number }[] };
    expect(ultima).toMatchObject({ fase: 'rechazado', fallas: [{ linea: 2, columna: 'codigoPostalPS' }] });
  });

  it('genera los cuatro ficheros del mes a petición', async () => {
    const res = await llamar(server, 'POST', '/api/administrador/sips/epd/ficheros', { token: tokenAdminEpd, body: {} });
    expect(res.status).toBe(200);
    expect(((await res.json()) as Fichero[]).map((f) => f.nombre)).toHaveLength(4);
  });

  it.each([
    ['el administrador de EPD en EOD', () => tokenAdminEpd, '/api/administrador/sips/eod/ficheros'],
    ['una comercializadora', () => tokenCom, '/api/administrador/sips/epd/ficheros'],
    ['un consumidor', () => tokenConsumidor, '/api/administrador/sips/epd/ficheros'],
  ])('%s recibe 403', async (_quien, token, ruta) => {
    expect((await llamar(server, 'POST', ruta, { token: token(), body: {} })).status).toBe(403);
  });
});
