/**
 * The measure downloads section of `npm run bench` (`--only descargas`): what one quarter-hourly
 * year (35,040 rows) costs the server's event loop. The app is served in this process on an
 * embedded database, so the event loop measured is the server's: a 5 ms interval timer records the
 * longest stretch without a turn (the event-loop delay a request arriving then would wait), and
 * /api/health is asked every 20 ms meanwhile. The body is read as it arrives, as a browser does.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, cpus } from 'node:os';
import { serve } from '@hono/node-server';
import { construirCups } from '../src/lib/cups.ts';
import { rangoDias } from '../src/lib/calendario/hora-civil.ts';
import type { RegistroMedida } from '../src/lib/medidas/tipos.ts';
import { createApp } from '../src/server/app.ts';
import { loadConfig } from '../src/server/config.ts';
import { openPglite } from '../src/server/db/client.ts';
import { migrate } from '../src/server/db/migrate.ts';
import { syncDistribuidoras } from '../src/server/distribuidoras/service.ts';
import { createLogger } from '../src/server/logger.ts';
import type { Mailer } from '../src/server/mail/transports.ts';
import { MAX_DESCARGAS_CSV, MAX_DESCARGAS_EXCEL, MS_POR_TANDA } from '../src/server/medidas/descargas.ts';
import { importarMedidas } from '../src/server/medidas/importar.ts';
import { guardarSuministros, sincronizarPermisosDistribucion } from '../src/server/suministros/service.ts';
import { createUser } from '../src/server/usuarios/service.ts';

const NIF = '12345678Z';
const EMAIL = 'bench-descargas@correo.example';
const CLAVE = 'Bench1234';

/** One download measured: total time, longest event-loop stall, slowest /api/health. */
interface Medida {
  ms: number;
  retrasoMax: number;
  saludMax: number;
  bytes: number;
  estados: number[];
}

/** Runs `n` downloads of `ruta` at once and measures the event loop meanwhile. */
async function medir(url: string, token: string, ruta: string, n = 1): Promise<Medida> {
  let previo = performance.now();
  let retrasoMax = 0;
  const reloj = setInterval(() => {
    const ahora = performance.now();
    retrasoMax = Math.max(retrasoMax, ahora - previo);
    previo = ahora;
  }, 5);
  let sondeando = true;
  let saludMax = 0;
  const sonda = (async () => {
    while (sondeando) {
      const t = performance.now();
      await (await fetch(`${url}/api/health`)).arrayBuffer();
      saludMax = Math.max(saludMax, performance.now() - t);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const t0 = performance.now();
  const respuestas = await Promise.all(
    Array.from({ length: n }, async () => {
      const res = await fetch(url + ruta, { headers: { Authorization: `Bearer ${token}`, 'Accept-Encoding': 'identity' } });
      let bytes = 0;
      for await (const trozo of res.body as unknown as AsyncIterable<Uint8Array>) bytes += trozo.length;
      return { estado: res.status, bytes };
    }),
  );
  const ms = performance.now() - t0;
  sondeando = false;
  await sonda;
  clearInterval(reloj);
  return { ms, retrasoMax, saludMax, bytes: Math.max(...respuestas.map((r) => r.bytes)), estados: respuestas.map((r) => r.estado).sort() };
}

/** The section's Markdown. */
export async function descargasSection(): Promise<string> {
  const database = await openPglite(null);
  await migrate(database);
  await syncDistribuidoras(database.db);
  const cups = construirCups('9901', 424242);
  await guardarSuministros(database.db, [
    {
      cups,
      distribuidora: 'epd',
      titularNif: NIF,
      titularNombre: 'Bench',
      direccion: 'Calle Mayor, 1',
      codigoPostal: '28801',
      municipio: 'Alcalá de Henares',
      codigoIne: '28005',
      provincia: 'Madrid',
      tarifa: '3.0TD',
      potenciasW: [15000, 15000, 15000, 15000, 15000, 20000],
      potenciaMaximaW: 40000,
      tensionV: 400,
      contadorInteligente: true,
      telegestionado: true,
      propiedadContador: 'distribuidora',
      numeroContador: '990112345678',
      fasesContador: 'trifasico',
      resolucionMinutos: 15,
      modoControlPotencia: 'maximetro',
      autoconsumo: 'ninguno',
      comercializadoraCodigo: '0901',
      comercializadoraNombre: 'Comercializadora',
      periodicidadFacturacion: 'mensual',
      fechaAlta: '2020-01-01',
      fechaBaja: null,
    },
  ]);
  await createUser(database.db, {
    nif: NIF,
    email: EMAIL,
    nombre: 'Bench',
    apellido1: 'Bench',
    apellido2: '',
    password: CLAVE,
    estado: 'activo',
  });
  await sincronizarPermisosDistribucion(database.db, [NIF]);
  const cuartos: RegistroMedida[] = [];
  const { inicio, fin } = rangoDias('2025-01-01', '2025-12-31');
  for (let t = inicio.getTime(), i = 0; t < fin.getTime(); t += 900_000, i++) {
    cuartos.push({
      cups,
      inicio: new Date(t),
      minutos: 15,
      importadaWh: 400 + ((i * 37) % 900),
      exportadaWh: null,
      metodo: i % 97 === 0 ? 'estimada' : 'real',
      firme: true,
      origen: 'F5D',
    });
  }
  const carga = await importarMedidas(database.db, cuartos);
  if (!carga.ok) throw new Error('no se han podido cargar las medidas del banco de pruebas');

  const config = loadConfig({
    DATA_DIR: '/tmp/portal-bench-unused',
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret-00',
    PUBLIC_URL: 'http://bench.test',
  });
  const mailer = { send: async () => undefined } as unknown as Mailer;
  const app = createApp({ db: database.db, mailer, clock: { now: () => new Date() }, config, logger: createLogger('silent') });
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const login = await fetch(`${url}/api/accesoUsuario`, {
      method: 'POST',
      headers: { Authorization: `Basic ${Buffer.from(`${EMAIL}:${CLAVE}`).toString('base64')}` },
    });
    const { jwtToken } = (await login.json()) as { jwtToken: string };
    const ruta = (f: string) => `/api/medidas/curva/${f}?cups=${cups}&desde=2025-01-01&hasta=2025-12-31&resolucion=cuartohora`;
    const filas: string[] = [];
    const fila = (nombre: string, m: Medida) =>
      filas.push(
        `| ${nombre} | ${(m.bytes / 1024 / 1024).toFixed(1)} MB | ${m.ms.toFixed(0)} ms | **${m.retrasoMax.toFixed(0)} ms** | ${m.saludMax.toFixed(0)} ms | ${m.estados.join(', ')} |`,
      );
    fila('Excel, first of the process (loads exceljs)', await medir(url, jwtToken, ruta('xlsx')));
    const excel: Medida[] = [];
    for (let i = 0; i < 3; i++) excel.push(await medir(url, jwtToken, ruta('xlsx')));
    excel.sort((a, b) => a.retrasoMax - b.retrasoMax);
    fila('Excel (median of 3 by delay)', excel[1]!);
    fila(
      `Excel, ${MAX_DESCARGAS_EXCEL + 2} asked at once (${MAX_DESCARGAS_EXCEL} run, the rest 503)`,
      await medir(url, jwtToken, ruta('xlsx'), MAX_DESCARGAS_EXCEL + 2),
    );
    fila('CSV', await medir(url, jwtToken, ruta('csv')));
    fila('CSV, Datadis variant', await medir(url, jwtToken, `${ruta('csv')}&formato=datadis`));
    return [
      '## Measure downloads',
      '',
      `One quarter-hourly year (35,040 rows, 3.0TD) downloaded from \`GET /api/medidas/curva/{xlsx,csv}\` (\`npm run bench -- --only descargas\`), the app served in the bench process on an embedded PGlite database, so the event loop measured is the server's. "Event-loop delay": the longest stretch a 5 ms interval timer went without running, i.e. how long a request arriving then would wait before being looked at. \`/api/health\` is asked every 20 ms meanwhile. The Excel writer works in slices of at most ${MS_POR_TANDA} ms and then gives the loop a turn (setImmediate); at most ${MAX_DESCARGAS_EXCEL} workbooks and ${MAX_DESCARGAS_CSV} CSV files run at once per process, beyond that 503 with Retry-After (src/server/medidas/descargas.ts). Before the slicing, the same Excel export ran as one stretch of about 1.4 s on this machine (4 s on a busy one). The first workbook of a process also loads exceljs (about 130 ms of module evaluation, once). ${availableParallelism()} CPUs (${cpus()[0]?.model.trim() ?? 'unknown'}).`,
      '',
      '| download | size | total time | max event-loop delay | slowest /api/health | statuses |',
      '|---|---:|---:|---:|---:|---|',
      ...filas,
    ].join('\n');
  } finally {
    const cerrado = new Promise<void>((r) => server.close(() => r()));
    // fetch keeps connections alive: close them so close() does not wait for their timeout.
    (server as Server).closeAllConnections();
    await cerrado;
    await database.close();
  }
}
