/**
 * `npm run carga -- jornada [--minutos N]`: hours of an ordinary day, compressed. 200 simulated
 * people of every role use the portal at once, each on its own loopback address and keep-alive
 * connection, pausing between pages as people do, for N minutes (30 by default), on PostgreSQL with
 * `WORKERS=2`:
 *
 *   - 140 households (the demo's generated accounts that hold supply points, several people each,
 *     as a family shares one): their dashboard, their supply points, a month
 *     of their hourly curve and its maximum powers, and now and then that month as CSV or Excel;
 *   - 25 people of the demo supply company: SIPS queries of 20 CUPS, their ATR requests, and five
 *     of them over SFTP: list `salida`, read a file of it, upload 64 KiB to a folder of their own
 *     under `entrada`, read it back and delete it;
 *   - 15 grid applicants: their requests and one's detail; five of them upload a PDF to an open
 *     request, download it and take it away again (a pending document, so nothing is left behind);
 *   - 20 distributor staff: the access, ATR and contact queues and a case of each.
 *
 * What it checks, and writes to docs/benchmarks.md (unless `--sin-documento`): no request answered
 * with an error or left unanswered; the memory of every process flat (the mean of the last fifth of
 * the run no more than 10 % over that of the second, the first being the warm-up; 50 % in a run
 * shorter than 10 minutes, where the JIT's warm-up is still a large part of it); open file descriptors of every
 * process and the database's connections not growing; and how much the database grew, table by
 * table, against what the run wrote. Only loopback addresses are used; the run ends by itself.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import ssh2 from 'ssh2';
import { construirCups } from '../../src/lib/cups.ts';
import { DEMO_PASSWORD } from '../../src/server/demo/accounts.ts';
import { CLIENTES_CON_SUMINISTRO } from '../../src/server/medidas/demo.ts';
import { basePostgresTemporal } from '../bench-bases.ts';
import { startServerChild } from '../bench-carga.ts';
import { buildIfNeeded } from '../build-if-needed.ts';
import { comprobarLoopback, conexionesAbiertas, direccionDe, jsonDe, pausa, Persona, reenvios, Registro, type Respuesta } from './motor.ts';
import { sumideroSmtp } from './fallos.ts';
import { descriptoresDe, memoriaDe, procesosDe } from './procesos.ts';

export interface OpcionesJornada {
  minutos: number;
  puerto: number;
  /** A PostgreSQL server the run may create a throw-away database on. */
  adminUrl: string;
}

export interface ResultadoJornada {
  informe: string;
  fallos: string[];
}

/** A PDF of a few hundred bytes: what an applicant attaches. */
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

/** The statuses a person's request may get in an ordinary day: anything else is an error of the run. */
const BIEN = new Set([200, 201, 204]);

export async function jornada(o: OpcionesJornada): Promise<ResultadoJornada> {
  const duracionMs = o.minutos * 60_000;
  const base = new URL(`http://127.0.0.1:${o.puerto}`);
  comprobarLoopback(base);
  buildIfNeeded();
  const smtp = await sumideroSmtp(o.puerto + 1_000);
  const puertoSftp = o.puerto + 2_000;
  const bd = await basePostgresTemporal(o.adminUrl, 'jornada');
  const datos = mkdtempSync(join(tmpdir(), 'portal-jornada-'));
  let servidor: Awaited<ReturnType<typeof startServerChild>> | undefined;
  const fallos: string[] = [];
  try {
    servidor = await startServerChild(datos, o.puerto, {
      DATABASE_URL: bd.url,
      WORKERS: '2',
      DEMO_DATA: '1',
      SFTP_PORT: String(puertoSftp),
      SMTP_URL: `smtp://127.0.0.1:${smtp.puerto}`,
    });
    const procesos = () => procesosDe(servidor!.child.pid!);
    const cliente = new pg.Client({ connectionString: bd.url });
    await cliente.connect();

    const registro = new Registro();
    /** Every answer that is not what an ordinary day gives, by route and status. */
    const errores = new Map<string, number>();
    const anotar = (ruta: string, r: Respuesta & { error?: string }) => {
      if (!BIEN.has(r.estado)) {
        const clave = `${ruta}: ${r.error ?? r.estado}`;
        errores.set(clave, (errores.get(clave) ?? 0) + 1);
      }
      return r;
    };
    const fin = performance.now() + duracionMs;
    const sigue = () => performance.now() < fin;
    // The last full month, as a household asks for it.
    const hoy = new Date();
    const desde = new Date(Date.UTC(hoy.getUTCFullYear(), hoy.getUTCMonth() - 1, 1)).toISOString().slice(0, 10);
    const hasta = new Date(Date.UTC(hoy.getUTCFullYear(), hoy.getUTCMonth(), 0)).toISOString().slice(0, 10);
    const mes = desde.slice(0, 7);

    /** One person: logs in (again when the access token has expired) and asks with its token. */
    class Usuario {
      readonly p: Persona;
      readonly email: string;
      private token = '';
      constructor(n: number, email: string) {
        this.email = email;
        this.p = new Persona(base, direccionDe(n), registro);
      }
      async entrar(): Promise<void> {
        const r = anotar(
          'POST /api/accesoUsuario (login)',
          await this.p.pedir('POST /api/accesoUsuario (login)', {
            metodo: 'POST',
            camino: '/api/accesoUsuario',
            cabeceras: { Authorization: `Basic ${Buffer.from(`${this.email}:${DEMO_PASSWORD}`).toString('base64')}` },
          }),
        );
        this.token = r.estado === 200 ? jsonDe<{ jwtToken: string }>(r).jwtToken : '';
      }
      async pedir(
        ruta: string,
        metodo: 'GET' | 'POST' | 'DELETE',
        camino: string,
        extra: { cuerpo?: string | Buffer; cabeceras?: Record<string, string> } = {},
      ) {
        if (!this.token) await this.entrar();
        const una = () =>
          this.p.pedir(ruta, {
            metodo,
            camino,
            cabeceras: { Authorization: `Bearer ${this.token}`, ...extra.cabeceras },
            ...(extra.cuerpo === undefined ? {} : { cuerpo: extra.cuerpo }),
          });
        let r = await una();
        // The access token lives ten minutes: a person's browser gets a new one and asks again.
        if (r.estado === 401) {
          await this.entrar();
          r = await una();
        }
        return anotar(ruta, r);
      }
    }

    const hogar = async (u: Usuario) => {
      const r = await u.pedir('GET /api/suministros', 'GET', '/api/suministros');
      const cups = r.estado === 200 ? (jsonDe<{ cups: string }[]>(r)[0]?.cups ?? null) : null;
      while (sigue()) {
        await u.pedir('GET /api/inicio/resumen', 'GET', '/api/inicio/resumen');
        await pausa(4, 12);
        if (!cups) continue;
        const q = `cups=${cups}&desde=${desde}&hasta=${hasta}`;
        await u.pedir('GET /api/medidas/curva (a month, hourly)', 'GET', `/api/medidas/curva?${q}`);
        await pausa(4, 12);
        await u.pedir('GET /api/medidas/potencias', 'GET', `/api/medidas/potencias?cups=${cups}&desde=${mes}&hasta=${mes}`);
        const tirada = Math.random();
        if (tirada < 0.2) await u.pedir('GET /api/medidas/curva/csv (a month)', 'GET', `/api/medidas/curva/csv?${q}`);
        else if (tirada < 0.27) await u.pedir('GET /api/medidas/curva/xlsx (a month)', 'GET', `/api/medidas/curva/xlsx?${q}`);
        await pausa(4, 12);
      }
    };

    const empresa = async (u: Usuario, n: number) => {
      while (sigue()) {
        const lista = Array.from({ length: 20 }, () => construirCups('9901', 1 + Math.floor(Math.random() * 130)));
        await u.pedir('POST /api/sips/epd/consulta (20 CUPS)', 'POST', '/api/sips/epd/consulta', {
          cuerpo: JSON.stringify({ cups: lista, formato: 'sips2026' }),
          cabeceras: { 'Content-Type': 'application/json' },
        });
        await pausa(4, 12);
        await u.pedir('GET /api/atr/solicitudes', 'GET', '/api/atr/solicitudes');
        await pausa(4, 12);
        if (n < 5) await sftp(u, n);
      }
    };

    /** One SFTP session of a company's person, as a company's batch job opens one: its time is recorded as one request. */
    const sftp = async (u: Usuario, n: number) => {
      const t0 = performance.now();
      const ruta = 'SFTP session (list, read, upload 64 KiB, read back, delete)';
      const cuerpo = Buffer.alloc(64 * 1024, n);
      let error: string | undefined;
      try {
        await sesionSftp(puertoSftp, u.email, u.p.direccion, async (s) => {
          const salida = await new Promise<ssh2.FileEntryWithStats[]>((resolve, reject) =>
            s.readdir('/epd/salida', (e, l) => (e ? reject(e) : resolve(l))),
          );
          const fichero = salida.find((f) => f.longname.startsWith('-'));
          if (fichero) await leer(s, `/epd/salida/${fichero.filename}`);
          const propio = `/epd/entrada/jornada/persona-${n}.bin`;
          await new Promise<void>((resolve, reject) => {
            const w = s.createWriteStream(propio);
            w.on('error', reject).on('close', () => resolve());
            w.end(cuerpo);
          });
          if (!(await leer(s, propio)).equals(cuerpo)) throw new Error('el fichero leído no es el subido');
          await new Promise<void>((resolve, reject) => s.unlink(propio, (e) => (e ? reject(e) : resolve())));
        });
      } catch (e) {
        error = e instanceof Error ? e.message : String(e);
      }
      const fin = performance.now();
      registro.anotar({ ruta, estado: error ? 0 : 200, ms: fin - t0, fin, ...(error ? { error } : {}) });
      if (error) errores.set(`${ruta}: ${error}`, (errores.get(`${ruta}: ${error}`) ?? 0) + 1);
      await pausa(4, 12);
    };

    const solicitante = async (u: Usuario, n: number, abierta: string | null) => {
      while (sigue()) {
        const r = await u.pedir('GET /api/accesoyconexion/solicitudes', 'GET', '/api/accesoyconexion/solicitudes');
        const ids = r.estado === 200 ? jsonDe<{ id: string }[]>(r).map((x) => x.id) : [];
        await pausa(4, 12);
        const id = ids[Math.floor(Math.random() * ids.length)];
        if (id) await u.pedir('GET /api/accesoyconexion/solicitudes/{id}', 'GET', `/api/accesoyconexion/solicitudes/${id}`);
        await pausa(4, 12);
        if (n < 5 && abierta) {
          const s = await u.pedir(
            'POST /api/expedientes/{id}/documentos (PDF)',
            'POST',
            `/api/expedientes/${abierta}/documentos?clase=otro&nombre=jornada-${n}.pdf`,
            {
              cuerpo: PDF,
              cabeceras: { 'Content-Type': 'application/octet-stream' },
            },
          );
          if (s.estado === 201) {
            const doc = jsonDe<{ id: string }>(s).id;
            await u.pedir('GET /api/expedientes/{id}/documentos/{doc}', 'GET', `/api/expedientes/${abierta}/documentos/${doc}`);
            await u.pedir('DELETE /api/expedientes/{id}/documentos/{doc}', 'DELETE', `/api/expedientes/${abierta}/documentos/${doc}`);
          }
          await pausa(4, 12);
        }
      }
    };

    const personal = async (u: Usuario) => {
      const colas = [
        ['GET /api/administrador/accesoyconexion', '/api/administrador/accesoyconexion'],
        ['GET /api/administrador/atr', '/api/administrador/atr'],
        ['GET /api/administrador/contacto', '/api/administrador/contacto'],
      ] as const;
      while (sigue()) {
        for (const [ruta, camino] of colas) {
          if (!sigue()) break;
          const r = await u.pedir(ruta, 'GET', `${camino}?distribuidora=epd`);
          const primero = r.estado === 200 ? jsonDe<{ id: string }[]>(r)[0]?.id : undefined;
          await pausa(4, 12);
          if (primero) await u.pedir(`${ruta}/{id}`, 'GET', `${camino}/${primero}`);
          await pausa(4, 12);
        }
      }
    };

    // Set-up, by the people themselves: the companies' SFTP folder, and an open request an applicant can attach to.
    await sesionSftp(puertoSftp, 'comercializadora@electra.example', '127.0.0.1', async (s) => {
      await new Promise<void>((resolve, reject) => s.mkdir('/epd/entrada/jornada', (e) => (e ? reject(e) : resolve())));
    });
    const promotor = new Usuario(1, 'promotor@electra.example');
    const solicitudes = jsonDe<{ id: string }[]>(await promotor.pedir('set-up', 'GET', '/api/accesoyconexion/solicitudes'));
    let abierta: string | null = null;
    for (const s of solicitudes) {
      const r = await promotor.pedir('set-up', 'POST', `/api/expedientes/${s.id}/documentos?clase=otro&nombre=prueba.pdf`, {
        cuerpo: PDF,
        cabeceras: { 'Content-Type': 'application/octet-stream' },
      });
      if (r.estado === 201) {
        await promotor.pedir('set-up', 'DELETE', `/api/expedientes/${s.id}/documentos/${jsonDe<{ id: string }>(r).id}`);
        abierta = s.id;
        break;
      }
    }
    promotor.p.cerrar();
    if (!abierta) throw new Error('el promotor de la demo no tiene ninguna solicitud abierta a la que aportar documentos');
    errores.clear();

    // The people, arriving over the first 20 s.
    const gente: Promise<void>[] = [];
    let n = 10;
    const llega = async (f: () => Promise<void>) => {
      await new Promise((r) => setTimeout(r, Math.random() * 20_000));
      await f();
    };
    for (let i = 0; i < 140; i++) {
      // The generated accounts that hold supply points with measures (the demo's first CLIENTES_CON_SUMINISTRO).
      const u = new Usuario(n++, `cliente${String((i % CLIENTES_CON_SUMINISTRO) + 1).padStart(3, '0')}@correo.example`);
      gente.push(llega(() => hogar(u)));
    }
    for (let i = 0; i < 25; i++) {
      const u = new Usuario(n++, 'comercializadora@electra.example');
      gente.push(llega(() => empresa(u, i)));
    }
    for (let i = 0; i < 15; i++) {
      const u = new Usuario(n++, 'promotor@electra.example');
      gente.push(llega(() => solicitante(u, i, abierta)));
    }
    for (let i = 0; i < 20; i++) {
      const u = new Usuario(n++, i % 2 ? 'admin@electra.example' : 'admin-epd@electra.example');
      gente.push(llega(() => personal(u)));
    }

    // Samples every 5 s: memory and descriptors of each process, the database's connections and size.
    const t0 = performance.now();
    const muestras: {
      t: number;
      memoria: Map<string, number>;
      fds: Map<string, number>;
      sockets: number;
      conexionesBd: number;
      tcp: number;
    }[] = [];
    const conexionesBd = async () =>
      Number(
        (
          await cliente.query<{ n: string }>(
            `select count(*) as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`,
          )
        ).rows[0]!.n,
      );
    const tamanos = async () =>
      new Map(
        (
          await cliente.query<{ tabla: string; bytes: string }>(
            `select c.relname as tabla, pg_total_relation_size(c.oid) as bytes from pg_class c join pg_namespace s on s.oid = c.relnamespace
             where c.relkind = 'r' and s.nspname = 'public'`,
          )
        ).rows.map((r) => [r.tabla, Number(r.bytes)]),
      );
    const filas = async () =>
      new Map(
        (await cliente.query<{ tabla: string; n: string }>(`select relname as tabla, n_tup_ins as n from pg_stat_user_tables`)).rows.map(
          (r) => [r.tabla, Number(r.n)],
        ),
      );
    let tamanoInicial: Map<string, number> | null = null;
    let insertadosInicial: Map<string, number> | null = null;
    const calentamiento = duracionMs / 5;
    const muestreo = (async () => {
      while (sigue()) {
        const t = performance.now() - t0;
        if (!tamanoInicial && t >= calentamiento) {
          tamanoInicial = await tamanos();
          insertadosInicial = await filas();
        }
        const descriptores = descriptoresDe(procesos());
        muestras.push({
          t,
          memoria: memoriaDe(procesos()),
          fds: descriptores.porProceso,
          sockets: descriptores.sockets,
          conexionesBd: await conexionesBd(),
          tcp: conexionesAbiertas(o.puerto),
        });
        await new Promise((r) => setTimeout(r, 5_000));
      }
    })();
    await Promise.all(gente);
    await muestreo;
    const segundos = (performance.now() - t0) / 1000;
    // Statistics are sent by each backend when it goes idle: a moment for the last ones to arrive.
    await new Promise((r) => setTimeout(r, 1_500));
    const tamanoFinal = await tamanos();
    const insertadosFinal = await filas();
    await cliente.end();

    // The verdicts.
    const sinRespuesta = registro.filas().reduce((s, f) => s + f.sinRespuesta, 0);
    const nErrores = [...errores.values()].reduce((a, b) => a + b, 0);
    if (nErrores > 0)
      fallos.push(`${nErrores} respuestas de error o sin respuesta: ${[...errores.entries()].map(([k, v]) => `${v} × ${k}`).join('; ')}`);
    const tolerancia = o.minutos >= 10 ? 0.1 : 0.5;
    const tramo = (desdeF: number, hastaF: number) => muestras.filter((m) => m.t >= desdeF * duracionMs && m.t < hastaF * duracionMs);
    const primero = tramo(0.2, 0.4);
    const ultimo = tramo(0.8, 1.01);
    const media = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
    const nombres = [...new Set(muestras.flatMap((m) => [...m.memoria.keys()]))];
    const memoria = nombres.map((nombre) => {
      const a = media(primero.map((m) => m.memoria.get(nombre) ?? 0)) / 1024;
      const b = media(ultimo.map((m) => m.memoria.get(nombre) ?? 0)) / 1024;
      return { nombre, a, b, cambio: (b - a) / a };
    });
    // Memory that falls is the heap giving back what the start-up (the demo data's load) used: only growth is a leak.
    for (const m of memoria) {
      if (!(m.cambio <= tolerancia))
        fallos.push(
          `memoria de ${m.nombre}: ${m.a.toFixed(0)} → ${m.b.toFixed(0)} MB (${(m.cambio * 100).toFixed(0)} %, tolerancia ${tolerancia * 100} %)`,
        );
    }
    const maximo = (xs: number[]) => Math.max(...xs);
    const fds = nombres.map((nombre) => ({
      nombre,
      a: maximo(primero.map((m) => m.fds.get(nombre) ?? 0)),
      b: maximo(ultimo.map((m) => m.fds.get(nombre) ?? 0)),
    }));
    // Descriptors and connections come and go with the people's requests: growth beyond what was
    // open at the busiest moment of the second fifth is a leak.
    for (const f of fds) if (f.b > f.a + 20) fallos.push(`descriptores de ${f.nombre}: ${f.a} → ${f.b}`);
    const socketsA = maximo(primero.map((m) => m.sockets));
    const socketsB = maximo(ultimo.map((m) => m.sockets));
    if (socketsB > socketsA + 20) fallos.push(`sockets de los procesos del portal: ${socketsA} → ${socketsB}`);
    const bdA = maximo(primero.map((m) => m.conexionesBd));
    const bdB = maximo(ultimo.map((m) => m.conexionesBd));
    if (bdB > bdA + 4) fallos.push(`conexiones a la base de datos: ${bdA} → ${bdB}`);
    const tcpA = maximo(primero.map((m) => m.tcp));
    const tcpB = maximo(ultimo.map((m) => m.tcp));

    const crecimiento = [...tamanoFinal.entries()]
      .map(([tabla, bytes]) => ({
        tabla,
        bytes: bytes - (tamanoInicial?.get(tabla) ?? bytes),
        filas: (insertadosFinal.get(tabla) ?? 0) - (insertadosInicial?.get(tabla) ?? 0),
      }))
      .filter((x) => x.bytes !== 0 || x.filas !== 0)
      .sort((a, b) => b.bytes - a.bytes);
    const totalCrecido = crecimiento.reduce((s, x) => s + x.bytes, 0);
    const mb = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MB`;
    const porTabla = crecimiento
      .slice(0, 8)
      .map((x) => `${x.tabla} ${mb(x.bytes)} (${x.filas.toLocaleString('en')} rows)`)
      .join(', ');
    const informe = [
      `200 people (140 households, 25 supply company, 15 applicants, 20 staff) for ${segundos.toFixed(0)} s: ${registro.total.toLocaleString('en')} requests (${reenvios.n} sent again on a new connection after the server had closed the kept-alive one, as browsers do); ${tcpA}–${tcpB} connections open to the portal (busiest moment of the second and the last fifth).`,
      '',
      registro.tabla(),
      '',
      `- **Errors:** ${nErrores === 0 ? 'none' : [...errores.entries()].map(([k, v]) => `${v} × ${k}`).join('; ')}${sinRespuesta ? ` (${sinRespuesta} unanswered)` : ''}.`,
      `- **Memory (RSS), mean of the second fifth → mean of the last fifth:** ${memoria.map((m) => `${m.nombre} ${m.a.toFixed(0)} → ${m.b.toFixed(0)} MB (${m.cambio >= 0 ? '+' : ''}${(m.cambio * 100).toFixed(1)} %)`).join(', ')}; growth allowed: ${tolerancia * 100} %.`,
      `- **Open file descriptors other than sockets, most in the second fifth → most in the last fifth:** ${fds.map((f) => `${f.nombre} ${f.a} → ${f.b}`).join(', ')}; **sockets of all the processes** ${socketsA} → ${socketsB}; **database connections** ${bdA} → ${bdB}.`,
      `- **Database growth after the warm-up:** ${mb(totalCrecido)} in all; by table (bytes, rows inserted): ${porTabla}. What grows is what the portal records as it works (its audit entries, a refresh token per login); the SFTP uploads and the applicants' documents were deleted again, so what they leave is space for PostgreSQL to reuse.`,
      `- **Verdict:** ${fallos.length === 0 ? 'every goal met' : fallos.join('; ')}.`,
    ].join('\n');
    return { informe, fallos };
  } finally {
    await servidor?.stop();
    await smtp.cerrar();
    await bd.borrar();
    rmSync(datos, { recursive: true, force: true });
  }
}

/** A file of an SFTP session, read whole. */
function leer(s: ssh2.SFTPWrapper, ruta: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const partes: Buffer[] = [];
    s.createReadStream(ruta)
      .on('data', (d: Buffer) => partes.push(d))
      .on('error', reject)
      .on('end', () => resolve(Buffer.concat(partes)));
  });
}

/** Opens an SFTP session as `email` from `direccion`, runs `f` on it and closes it. */
async function sesionSftp(puerto: number, email: string, direccion: string, f: (s: ssh2.SFTPWrapper) => Promise<void>): Promise<void> {
  const c = new ssh2.Client();
  try {
    await new Promise<void>((resolve, reject) =>
      c
        .on('ready', () => resolve())
        .on('error', reject)
        .connect({
          host: '127.0.0.1',
          port: puerto,
          username: email,
          password: DEMO_PASSWORD,
          localAddress: direccion,
          readyTimeout: 30_000,
        }),
    );
    await f(await new Promise<ssh2.SFTPWrapper>((resolve, reject) => c.sftp((e, x) => (e ? reject(e) : resolve(x)))));
  } finally {
    c.end();
  }
}
