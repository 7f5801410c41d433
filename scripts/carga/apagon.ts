/**
 * `npm run carga -- apagon`: the day of a blackout. On 28 April 2025 every household of peninsular
 * Spain lost power at once, and when the mobile network came back people opened their distributor's
 * page. This run replays that on this machine, on PostgreSQL with `WORKERS=2`:
 *
 *   1. staff (`admin@electra.example`) open the blackout as an active incident in every municipality
 *      of the three distributors, through the staff API;
 *   2. within ten minutes 100,000 people, each from its own loopback address on its own keep-alive
 *      connection, read the home page (with its style sheets and scripts) and the banner's list,
 *      many also `/incidencias-red` and the check of their CUPS; 20,000 use «No tengo luz»; 5,000 log
 *      in and read their dashboard. They pause 3–5 s between pages, as people do, so that at the peak
 *      about 2,000 connections are open at once;
 *   3. a third of the way in, power comes back in three municipalities and staff close those
 *      incidents: every process must answer the new list within 2 s (polled on new connections, which
 *      the primary hands to both workers), and from then on «No tengo luz» there registers a fault
 *      report, which must be stored exactly once per supply point, however many people report it.
 *
 * What it checks and writes to docs/benchmarks.md: no 5xx; the public pages' p99 under 2 s; every
 * refusal a 429 or 503 with Retry-After and the Spanish text, never a time-out; the fault reports
 * counted in the database after the run against the answers people got; the banner's delay; the
 * connections open at the peak, and the memory of every process.
 *
 * `--escala F` scales the number of people and the duration together (the rate and the peak stay the
 * same): `--escala 0.1` is 10,000 people in one minute. The portal, its throw-away database and
 * everything the run started stop when it ends. Only loopback addresses are used.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { construirCups } from '../../src/lib/cups.ts';
import { DISTRIBUIDORAS } from '../../src/lib/distribuidoras.ts';
import { openPostgres } from '../../src/server/db/client.ts';
import { DEMO_PASSWORD } from '../../src/server/demo/accounts.ts';
import { createRandom } from '../../src/server/demo/random.ts';
import { configuracionDemoAleatoria } from '../../src/server/medidas/demo-perfiles.ts';
import { suministroDeEscala, type LugarEscala } from '../../src/server/medidas/escala.ts';
import { guardarSuministros } from '../../src/server/suministros/service.ts';
import { basePostgresTemporal } from '../bench-bases.ts';
import { startServerChild } from '../bench-carga.ts';
import { buildIfNeeded } from '../build-if-needed.ts';
import { comprobarLoopback, conexionesAbiertas, direccionDe, jsonDe, pausa, pedir, Persona, Registro, textoDe } from './motor.ts';
import { matar, reiniciarPostgres, sumideroSmtp } from './fallos.ts';
import { memoriaDe, procesosDe } from './procesos.ts';

/** The municipalities of the run: where each distributor has supply points (INE codes and a postal code each). */
const MUNICIPIOS: (Omit<LugarEscala, 'distribuidora'> & { distribuidora: string; restablecido: boolean })[] = [
  { distribuidora: 'epd', municipio: 'Madrid', codigoIne: '28079', provincia: 'Madrid', codigoPostal: '28001', restablecido: false },
  {
    distribuidora: 'epd',
    municipio: 'Alcalá de Henares',
    codigoIne: '28005',
    provincia: 'Madrid',
    codigoPostal: '28801',
    restablecido: false,
  },
  { distribuidora: 'epd', municipio: 'Getafe', codigoIne: '28065', provincia: 'Madrid', codigoPostal: '28901', restablecido: true },
  { distribuidora: 'eod', municipio: 'Mérida', codigoIne: '06083', provincia: 'Badajoz', codigoPostal: '06800', restablecido: false },
  { distribuidora: 'eod', municipio: 'Badajoz', codigoIne: '06015', provincia: 'Badajoz', codigoPostal: '06001', restablecido: true },
  { distribuidora: 'eod', municipio: 'Cáceres', codigoIne: '10037', provincia: 'Cáceres', codigoPostal: '10001', restablecido: false },
  { distribuidora: 'ecd', municipio: 'Santander', codigoIne: '39075', provincia: 'Cantabria', codigoPostal: '39001', restablecido: false },
  { distribuidora: 'ecd', municipio: 'Torrelavega', codigoIne: '39087', provincia: 'Cantabria', codigoPostal: '39300', restablecido: true },
];

export interface OpcionesApagon {
  escala: number;
  puerto: number;
  /** A PostgreSQL server the run may create a throw-away database on. */
  adminUrl: string;
  /**
   * The faults of a bad day, during the surge: a worker killed with SIGKILL, the SMTP server gone
   * for a while, and this cluster (the run's own, its data directory) restarted.
   */
  fallos: { carpetaPostgres: string } | null;
}

/** What the run measured, for the document and for the checks. */
export interface ResultadoApagon {
  informe: string;
  fallos: string[];
}

export async function apagon(o: OpcionesApagon): Promise<ResultadoApagon> {
  const personas = Math.round(100_000 * o.escala);
  const duracionS = 600 * o.escala;
  const suministros = Math.max(2_000, Math.round(50_000 * o.escala));
  const fallos: string[] = [];
  const base = new URL(`http://127.0.0.1:${o.puerto}`);
  // The portal sends its mails to an SMTP server of the run's own, so that what it received can be counted.
  const smtp = await sumideroSmtp(o.puerto + 1_000);
  comprobarLoopback(base);
  buildIfNeeded();

  const bd = await basePostgresTemporal(o.adminUrl, 'apagon');
  const datos = mkdtempSync(join(tmpdir(), 'portal-apagon-'));
  let servidor: Awaited<ReturnType<typeof startServerChild>> | undefined;
  try {
    servidor = await startServerChild(datos, o.puerto, {
      DATABASE_URL: bd.url,
      WORKERS: '2',
      DEMO_DATA: '1',
      SFTP_PORT: '0',
      SMTP_URL: `smtp://127.0.0.1:${smtp.puerto}`,
    });
    const procesos = () => procesosDe(servidor!.child.pid!);

    // The supply points, through the import's own service, in the municipalities above.
    const database = await openPostgres(bd.url, 2);
    const random = createRandom(2025_04_28);
    const cupsDe = new Map<string, (typeof MUNICIPIOS)[number]>();
    for (let i = 0; i < suministros; i += 1_000) {
      const lote = Array.from({ length: Math.min(1_000, suministros - i) }, (_, j) => {
        const m = MUNICIPIOS[(i + j) % MUNICIPIOS.length]!;
        const lugar = { ...m, distribuidora: DISTRIBUIDORAS.find((d) => d.codigo === m.distribuidora)! };
        const s = suministroDeEscala(50_000_000 + i + j, configuracionDemoAleatoria(random), lugar);
        cupsDe.set(s.cups, m);
        return s;
      });
      await guardarSuministros(database.db, lote);
    }
    await database.close();
    const todosLosCups = [...cupsDe.keys()];

    // 1. Staff open the blackout.
    const staff = new Persona(base, '127.0.0.1', new Registro());
    const token = await entrar(staff, 'admin@electra.example');
    const inicioApagon = new Date(Date.now() - 5 * 60_000).toISOString();
    const incidencias = new Map<string, string>();
    for (const m of MUNICIPIOS) {
      const r = await staff.pedir('staff', {
        metodo: 'POST',
        camino: '/api/administrador/incidencias',
        cabeceras: { Authorization: `Bearer ${token}` },
        cuerpo: JSON.stringify({
          distribuidora: m.distribuidora,
          estado: 'Activa',
          descripcion: 'Cero de tensión en la red peninsular. Se está reponiendo el suministro por zonas.',
          municipio: m.municipio,
          codigoIne: m.codigoIne,
          provincia: m.provincia,
          inicio: inicioApagon,
        }),
      });
      if (r.estado !== 201 && r.estado !== 200)
        throw new Error(`no se pudo abrir la incidencia de ${m.municipio}: ${r.estado} ${textoDe(r)}`);
      incidencias.set(m.municipio, jsonDe<{ id: string }>(r).id);
    }

    // The page assets a first visit loads (style sheets and module scripts of the home page and of /incidencias-red).
    const recursos = async (camino: string) => {
      const r = await pedir(base, staff.agente, { metodo: 'GET', camino, cabeceras: { 'Accept-Encoding': 'identity' } });
      const html = r.cuerpo.toString('utf8');
      return [...html.matchAll(/<(?:link[^>]+rel="stylesheet"[^>]+href|script[^>]+src)="(\/[^"]+)"/g)].map((x) => x[1]!);
    };
    const recursosInicio = await recursos('/');
    const recursosIncidencias = await recursos('/incidencias-red');

    // 2. The people. Fault reports stored from now on are theirs (the demo data has its own, older).
    const comienzo = new Date();
    const registro = new Registro();
    const altas: string[] = [];
    const cuentas = Array.from({ length: 120 }, (_, i) => `cliente${String(i + 1).padStart(3, '0')}@correo.example`);
    const avisos = new Map<string, { referencias: Set<string>; nuevos: number }>();
    let vivas = 0;
    let maxVivas = 0;
    const cupsAlAzar = () => {
      if (Math.random() < 0.7) return todosLosCups[Math.floor(Math.random() * todosLosCups.length)]!;
      // A CUPS of ours that is no supply point (a typo, an old bill): the same answer as an unknown one.
      const d = DISTRIBUIDORAS[Math.floor(Math.random() * 3)]!;
      return construirCups(d.codigoREE, 90_000_000 + Math.floor(Math.random() * 1e6));
    };

    const visita = async (n: number) => {
      const p = new Persona(base, direccionDe(n), registro);
      vivas++;
      maxVivas = Math.max(maxVivas, vivas);
      try {
        await Promise.all([
          p.pedir('GET / (home page)', { metodo: 'GET', camino: '/' }),
          p.pedir('GET /api/incidenciasRed (banner)', { metodo: 'GET', camino: '/api/incidenciasRed' }),
        ]);
        for (const r of recursosInicio) await p.pedir('page assets (CSS, JS)', { metodo: 'GET', camino: r });
        const tirada = Math.random();
        if (tirada < 0.05) {
          await pausa(3, 5);
          const t = await entrar(p, cuentas[n % cuentas.length]!);
          if (t)
            await p.pedir('GET /api/inicio/resumen (after login)', {
              metodo: 'GET',
              camino: '/api/inicio/resumen',
              cabeceras: { Authorization: `Bearer ${t}` },
            });
        } else if (tirada < 0.06) {
          // Some create an account, which sends its activation mail.
          await pausa(3, 5);
          await p.pedir('GET /sesion/crear-cuenta', { metodo: 'GET', camino: '/sesion/crear-cuenta' });
          await pausa(3, 5);
          const correo = `alta${n}@apagon.example`;
          const dni = 10_000_000 + ((n * 7_919) % 80_000_000);
          const r = await p.pedir('POST /api/altaUsuario (registration)', {
            metodo: 'POST',
            camino: '/api/altaUsuario',
            cuerpo: JSON.stringify({
              nif: `${dni}${'TRWAGMYFPDXBNJZSQVHLCKE'[dni % 23]}`,
              razonSocial: '',
              nombre: 'Persona',
              apellido1: 'De',
              apellido2: 'Prueba',
              password: 'Clave123',
              correoElectronico: correo,
              host: `${base.origin}/sesion`,
            }),
          });
          if (r.estado === 200) altas.push(correo);
        } else if (tirada < 0.26) {
          await pausa(3, 5);
          await p.pedir('GET /no-tengo-luz', { metodo: 'GET', camino: '/no-tengo-luz' });
          await pausa(3, 5);
          const cups = cupsAlAzar();
          const r = await p.pedir('POST /api/averias/consulta (No tengo luz)', {
            metodo: 'POST',
            camino: '/api/averias/consulta',
            cuerpo: JSON.stringify({ cups, telefono: '600000000' }),
          });
          if (r.estado === 200) {
            const cuerpo = jsonDe<{ aviso: { referencia: string; nuevo: boolean } | null }>(r);
            if (cuerpo.aviso) {
              const a = avisos.get(cups) ?? { referencias: new Set(), nuevos: 0 };
              a.referencias.add(cuerpo.aviso.referencia);
              if (cuerpo.aviso.nuevo) a.nuevos++;
              avisos.set(cups, a);
            }
          }
        } else if (tirada < 0.76) {
          await pausa(3, 5);
          await Promise.all([
            p.pedir('GET /incidencias-red', { metodo: 'GET', camino: '/incidencias-red' }),
            p.pedir('GET /api/incidenciasRed (list)', { metodo: 'GET', camino: '/api/incidenciasRed' }),
          ]);
          for (const r of recursosIncidencias) await p.pedir('page assets (CSS, JS)', { metodo: 'GET', camino: r });
          await pausa(3, 5);
          await p.pedir('POST /api/incidenciasRed (CUPS check)', {
            metodo: 'POST',
            camino: '/api/incidenciasRed',
            cuerpo: JSON.stringify({ cups: cupsAlAzar() }),
          });
        }
        await pausa(3, 5);
      } finally {
        p.cerrar();
        vivas--;
      }
    };

    // Arrivals: up to the full rate over the first tenth of the run, then steady until everyone has come.
    const tasa = personas / (0.8 * duracionS);
    const t0 = performance.now();
    // The people run in this process, on the same two cores as the portal: how late its own event
    // loop ran says how much of a time in the table is the load generator's, not the portal's.
    const retrasoPropio = monitorEventLoopDelay({ resolution: 10 });
    retrasoPropio.enable();
    const cpuPropia = process.cpuUsage();
    const enCurso = new Set<Promise<void>>();
    let llegados = 0;
    let conexionesMax = 0;
    const memoriaMax = new Map<string, number>();
    const muestras = setInterval(() => {
      conexionesMax = Math.max(conexionesMax, conexionesAbiertas(o.puerto));
      for (const [nombre, kb] of memoriaDe(procesos())) memoriaMax.set(nombre, Math.max(memoriaMax.get(nombre) ?? 0, kb));
    }, 1_000);
    let banner: { ms: number; rondas: number } | null = null;
    const enElMomento = (u: number) => new Promise((r) => setTimeout(r, Math.max(0, u * duracionS * 1000 - (performance.now() - t0))));
    const sucesos: string[] = [];
    const suceso = (texto: string) => sucesos.push(`${((performance.now() - t0) / 1000).toFixed(1)} s: ${texto}`);
    let muerte = Number.POSITIVE_INFINITY;
    const averias = (async () => {
      if (!o.fallos) return;
      await enElMomento(0.45);
      const trabajador = procesos().find((x) => x.nombre !== 'primary');
      if (trabajador) {
        muerte = performance.now();
        matar(trabajador.pid);
        suceso(`${trabajador.nombre} (pid ${trabajador.pid}) killed with SIGKILL`);
      }
      await enElMomento(0.55);
      await smtp.cerrar();
      suceso('SMTP server gone');
      await enElMomento(0.6);
      const r0 = performance.now();
      reiniciarPostgres(o.fallos.carpetaPostgres);
      suceso(`PostgreSQL restarted (pg_ctl restart -m fast, ${((performance.now() - r0) / 1000).toFixed(1)} s)`);
      await enElMomento(0.7);
      await smtp.abrir();
      suceso('SMTP server back');
    })();
    const momentoBanner = o.fallos ? 0.75 : 0.35;
    const restablecer = (async () => {
      await enElMomento(momentoBanner);
      banner = await cerrarYEsperar(
        staff,
        token,
        base,
        MUNICIPIOS.filter((m) => m.restablecido).map((m) => incidencias.get(m.municipio)!),
      );
    })();
    while (llegados < personas) {
      const t = (performance.now() - t0) / 1000;
      const debidos = Math.min(personas, Math.floor(tasa * (t < 0.1 * duracionS ? (t * t) / (0.2 * duracionS) : t - 0.05 * duracionS)));
      while (llegados < debidos) {
        const v = visita(llegados++);
        enCurso.add(v);
        void v.finally(() => enCurso.delete(v));
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    await Promise.all(enCurso);
    await restablecer;
    await averias;
    clearInterval(muestras);
    const segundos = (performance.now() - t0) / 1000;
    retrasoPropio.disable();
    const cpu = process.cpuUsage(cpuPropia);
    const generador = `the load generator (this process) used ${((cpu.user + cpu.system) / 1e4 / segundos).toFixed(0)} % of one core, and its event loop ran late by ${(retrasoPropio.percentile(99) / 1e6).toFixed(0)} ms at p99 and ${(retrasoPropio.max / 1e6).toFixed(0)} ms at most: a request's time in the table includes that wait`;

    // Every accepted registration's activation mail, delivered once (the mail queue retries while SMTP is gone).
    const t1 = performance.now();
    const pendientes = () => altas.filter((c) => !smtp.recibidos.includes(c)).length;
    while (pendientes() > 0 && performance.now() - t1 < 240_000) await new Promise((r) => setTimeout(r, 1_000));
    const correosSinLlegar = pendientes();
    const correosDobles = altas.filter((c) => smtp.recibidos.filter((x) => x === c).length > 1).length;
    const esperaCorreo = (performance.now() - t1) / 1000;

    // 3. The fault reports in the database against what people were told.
    const cliente = new pg.Client({ connectionString: bd.url });
    await cliente.connect();
    const filas = (
      await cliente.query<{ cups: string; referencia: string }>(`select cups, referencia from averias where created_at >= $1`, [comienzo])
    ).rows;
    const cuentasGuardadas = Number(
      (await cliente.query<{ n: string }>(`select count(*) as n from users where email = any($1)`, [altas])).rows[0]!.n,
    );
    await cliente.end();
    const porCups = new Map<string, string[]>();
    for (const f of filas) porCups.set(f.cups, [...(porCups.get(f.cups) ?? []), f.referencia]);
    const dobles = [...porCups.values()].filter((r) => r.length > 1).length;
    const sinFila = [...avisos.entries()].filter(
      ([cups, a]) => ![...a.referencias].every((ref) => porCups.get(cups)?.includes(ref)),
    ).length;
    const variasReferencias = [...avisos.values()].filter((a) => a.referencias.size > 1).length;
    const avisosPersonas = [...avisos.values()].reduce((n, a) => n + a.nuevos, 0);

    // The verdicts.
    const filasRuta = registro.filas();
    for (const r of filasRuta) {
      if (r.errores5xx > 0) fallos.push(`${r.ruta}: ${r.errores5xx} respuestas 5xx`);
      // A worker killed with SIGKILL takes the requests it was answering with it: only those may go unanswered.
      const sinExcusa = registro.sinRespuestaFuera(r.ruta, muerte, muerte + 2_000);
      if (sinExcusa > 0) fallos.push(`${r.ruta}: ${sinExcusa} peticiones sin respuesta`);
      if (r.rechazosSinReintento > 0 || r.rechazosSinTexto > 0) fallos.push(`${r.ruta}: rechazos sin Retry-After o sin texto`);
      if (!r.ruta.includes('login') && !r.ruta.includes('after login') && r.p99 > 2_000)
        fallos.push(`${r.ruta}: p99 ${r.p99.toFixed(0)} ms (objetivo < 2 s)`);
    }
    if (correosSinLlegar > 0 || correosDobles > 0 || cuentasGuardadas !== altas.length) {
      fallos.push(
        `altas: ${altas.length} aceptadas, ${cuentasGuardadas} cuentas guardadas, ${correosSinLlegar} correos sin llegar, ${correosDobles} correos repetidos`,
      );
    }
    if (dobles > 0 || sinFila > 0 || variasReferencias > 0)
      fallos.push(`avisos: ${dobles} puntos con dos filas, ${sinFila} referencias sin fila, ${variasReferencias} con varias referencias`);
    const b = banner as { ms: number; rondas: number } | null;
    if (!b || b.ms > 2_000)
      fallos.push(`banner: el cambio tardó ${b ? b.ms.toFixed(0) : '∞'} ms en verse en todos los procesos (objetivo ≤ 2 s)`);

    const porCausa = registro.sinRespuestaPorCausa();
    const porSegundo = registro.sinRespuestaPorSegundo(t0);
    const informe = [
      `${personas.toLocaleString('en')} people in ${segundos.toFixed(0)} s (arrivals at up to ${tasa.toFixed(0)} per second), ${suministros.toLocaleString('en')} supply points, ${registro.total.toLocaleString('en')} requests; at most ${maxVivas.toLocaleString('en')} people at once and **${conexionesMax.toLocaleString('en')} connections open at once** (counted in the kernel's table every second).`,
      '',
      registro.tabla(),
      '',
      ...(o.fallos ? [`- **Faults during the surge:** ${sucesos.join('; ')}.`] : []),
      `- **Registrations:** ${altas.length} accepted, ${cuentasGuardadas} accounts stored; every activation mail delivered once: ${correosSinLlegar === 0 && correosDobles === 0 ? 'yes' : `no (${correosSinLlegar} missing, ${correosDobles} twice)`}, the last ${esperaCorreo.toFixed(0)} s after the last person left.`,
      `- **Banner:** staff closed ${MUNICIPIOS.filter((m) => m.restablecido).length} incidents ${(momentoBanner * duracionS).toFixed(0)} s in; every process answered the new list ${b ? `${b.ms.toFixed(0)} ms after the close returned (${b.rondas} rounds of 20 new connections)` : 'never'}.`,
      `- **Fault reports:** ${filas.length} stored for ${porCups.size} supply points; ${avisosPersonas} answers said «new»; ${dobles} supply points stored twice, ${sinFila} references told to people without their row, ${variasReferencias} supply points with two references.`,
      `- **Measuring on the same machine:** ${generador}.`,
      `- **Unanswered requests:** ${porCausa.size === 0 ? 'none' : [...porCausa.entries()].map(([causa, n]) => `${n} × «${causa}»`).join(', ')}${porSegundo.size === 0 ? '' : `; when, in seconds since the start: ${[...porSegundo.entries()].map(([s, n]) => `${s} s: ${n}`).join(', ')}`}.`,
      `- **Memory at its peak (RSS):** ${[...memoriaMax.entries()].map(([n, kb]) => `${n} ${(kb / 1024).toFixed(0)} MB`).join(', ')}.`,
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

/** Logs `email` in with the demo password; answers the access token, or '' when refused. */
async function entrar(p: Persona, email: string): Promise<string> {
  const r = await p.pedir('POST /api/accesoUsuario (login)', {
    metodo: 'POST',
    camino: '/api/accesoUsuario',
    cabeceras: { Authorization: `Basic ${Buffer.from(`${email}:${DEMO_PASSWORD}`).toString('base64')}` },
  });
  if (r.estado !== 200) return '';
  return jsonDe<{ jwtToken: string }>(r).jwtToken;
}

/**
 * Closes incidents `ids` and polls the public list on new connections (20 at a time, every 100 ms)
 * until a whole round answers without them: how long after the last close that took.
 */
async function cerrarYEsperar(staff: Persona, token: string, base: URL, ids: string[]): Promise<{ ms: number; rondas: number } | null> {
  for (const id of ids) {
    const r = await staff.pedir('staff', {
      metodo: 'POST',
      camino: `/api/administrador/incidencias/${id}/cierre`,
      cabeceras: { Authorization: `Bearer ${token}` },
      cuerpo: '{}',
    });
    if (r.estado !== 200) throw new Error(`no se pudo cerrar la incidencia ${id}: ${r.estado} ${textoDe(r)}`);
  }
  const t0 = performance.now();
  for (let ronda = 1; performance.now() - t0 < 30_000; ronda++) {
    const respuestas = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const agente = new Agent({ keepAlive: false });
        const r = await pedir(base, agente, { metodo: 'GET', camino: '/api/incidenciasRed', cabeceras: { 'Accept-Encoding': 'identity' } });
        agente.destroy();
        return r.estado === 200 && !ids.some((id) => r.cuerpo.toString().includes(id));
      }),
    );
    if (respuestas.every(Boolean)) return { ms: performance.now() - t0, rondas: ronda };
    await new Promise((r) => setTimeout(r, 100));
  }
  return null;
}
