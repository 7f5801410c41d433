/**
 * The engine of `npm run carga`: simulated people, each with its own loopback address and its own
 * keep-alive connection (as a browser keeps one to a site), sending the requests a page makes and
 * pausing between pages as a person does; and the record of what every request met.
 *
 * Requests go only to loopback addresses (127.0.0.0/8), and every run ends by itself: the address of
 * the portal is checked before the first request.
 */
import { Agent, request } from 'node:http';
import { readFileSync } from 'node:fs';
import { brotliDecompressSync, gunzipSync, inflateSync, zstdDecompressSync } from 'node:zlib';

/** What a request met: its route (a name for the table), status, time, and the refusal's details. */
export interface Medida {
  ruta: string;
  estado: number;
  ms: number;
  /** A 429 or 503 carried Retry-After. */
  reintento?: boolean;
  /** The body of a 429 or 503 was Spanish text (a `message` in the portal's shape). */
  texto?: boolean;
  /** A socket error or the client's time limit: the request never got an answer. */
  error?: string;
  /** When it ended (performance.now()). */
  fin: number;
}

/** An answer as the wire carried it. */
export interface Respuesta {
  estado: number;
  cabeceras: Record<string, string | string[] | undefined>;
  cuerpo: Buffer;
}

/** The body of an answer as text, decompressed as its Content-Encoding says. */
export function textoDe(r: Respuesta): string {
  const codificacion = String(r.cabeceras['content-encoding'] ?? '');
  const cuerpo =
    codificacion === 'zstd'
      ? zstdDecompressSync(r.cuerpo)
      : codificacion === 'br'
        ? brotliDecompressSync(r.cuerpo)
        : codificacion === 'gzip'
          ? gunzipSync(r.cuerpo)
          : codificacion === 'deflate'
            ? inflateSync(r.cuerpo)
            : r.cuerpo;
  return cuerpo.toString('utf8');
}

/** The JSON of an answer. */
export const jsonDe = <T>(r: Respuesta): T => JSON.parse(textoDe(r)) as T;

/** Refuses a target outside 127.0.0.0/8: load and surge runs stay on this machine. */
export function comprobarLoopback(url: URL): void {
  if (!/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(url.hostname)) {
    throw new Error(`La carga solo se envía a direcciones de loopback (127.0.0.0/8), no a ${url.hostname}.`);
  }
}

/**
 * The loopback address of simulated person `n` (0, 1, …): 127.16.0.1 onwards, a new address for
 * each, so the portal's limits per address see many people, as after a real blackout.
 */
export function direccionDe(n: number): string {
  const k = n % (240 * 254 * 254);
  return `127.${16 + Math.floor(k / (254 * 254))}.${(Math.floor(k / 254) % 254) + 1}.${(k % 254) + 1}`;
}

/** Requests sent again because the kept-alive connection they were sent on had just been closed by the server. */
export const reenvios = { n: 0 };

/**
 * Sends one request on `agente`'s connection; never rejects: a failure is an answer with status 0.
 * A request that meets the reset of a kept-alive connection the server closed as it was being
 * reused is sent once more on a new one, as browsers do (Node's documentation of
 * `request.reusedSocket` gives the same pattern): the server's idle timeout and a person's pause
 * may end at the same moment, and nobody sees that as an error.
 */
export async function pedir(
  base: URL,
  agente: Agent,
  p: { metodo: 'GET' | 'POST' | 'PATCH' | 'DELETE'; camino: string; cabeceras?: Record<string, string>; cuerpo?: string | Buffer },
  limiteMs = 30_000,
): Promise<Respuesta & { error?: string }> {
  const r = await pedirUnaVez(base, agente, p, limiteMs);
  if (!r.reutilizada || !r.error || !/ECONNRESET|EPIPE|socket hang up/.test(r.error)) return r;
  reenvios.n++;
  return pedirUnaVez(base, agente, p, limiteMs);
}

function pedirUnaVez(
  base: URL,
  agente: Agent,
  p: { metodo: 'GET' | 'POST' | 'PATCH' | 'DELETE'; camino: string; cabeceras?: Record<string, string>; cuerpo?: string | Buffer },
  limiteMs: number,
): Promise<Respuesta & { error?: string; reutilizada?: boolean }> {
  return new Promise((resolve) => {
    let hecho = false;
    const fin = (r: Respuesta & { error?: string; reutilizada?: boolean }) => {
      if (!hecho) {
        hecho = true;
        resolve(r);
      }
    };
    const cuerpo = p.cuerpo === undefined ? undefined : Buffer.from(p.cuerpo);
    const req = request(
      {
        host: base.hostname,
        port: base.port,
        method: p.metodo,
        path: p.camino,
        agent: agente,
        headers: {
          'Accept-Encoding': 'gzip, deflate, br, zstd',
          ...(cuerpo ? { 'Content-Type': 'application/json', 'Content-Length': String(cuerpo.byteLength) } : {}),
          ...p.cabeceras,
        },
      },
      (res) => {
        const trozos: Buffer[] = [];
        res.on('data', (t: Buffer) => trozos.push(t));
        res.on('error', (e) => fin({ estado: 0, cabeceras: {}, cuerpo: Buffer.alloc(0), error: e.message }));
        res.on('end', () => fin({ estado: res.statusCode ?? 0, cabeceras: res.headers, cuerpo: Buffer.concat(trozos) }));
      },
    );
    req.setTimeout(limiteMs, () => {
      req.destroy(new Error(`sin respuesta en ${limiteMs / 1000} s`));
    });
    req.on('error', (e) => fin({ estado: 0, cabeceras: {}, cuerpo: Buffer.alloc(0), error: e.message, reutilizada: req.reusedSocket }));
    req.end(cuerpo);
  });
}

/** A simulated person: one address, one keep-alive connection, its requests recorded. */
export class Persona {
  readonly agente: Agent;
  readonly base: URL;
  readonly direccion: string;
  private readonly registro: Registro;
  constructor(base: URL, direccion: string, registro: Registro) {
    this.base = base;
    this.direccion = direccion;
    this.registro = registro;
    this.agente = new Agent({ keepAlive: true, maxSockets: 1, localAddress: direccion });
  }

  /** Sends a request and records it under `ruta`; answers what came back. */
  async pedir(
    ruta: string,
    p: { metodo: 'GET' | 'POST' | 'PATCH' | 'DELETE'; camino: string; cabeceras?: Record<string, string>; cuerpo?: string | Buffer },
  ): Promise<Respuesta & { error?: string }> {
    const t0 = performance.now();
    const r = await pedir(this.base, this.agente, p);
    const fin = performance.now();
    const m: Medida = { ruta, estado: r.estado, ms: fin - t0, fin };
    if (r.error) m.error = r.error;
    if (r.estado === 429 || r.estado === 503) {
      m.reintento = r.cabeceras['retry-after'] !== undefined;
      m.texto = textoEspanol(r);
    }
    this.registro.anotar(m);
    return r;
  }

  /** Closes the connection, as a browser does when the person leaves. */
  cerrar(): void {
    this.agente.destroy();
  }
}

/** Whether a refusal's body is the portal's Spanish message. */
function textoEspanol(r: Respuesta): boolean {
  try {
    const cuerpo = jsonDe<{ message?: unknown }>(r);
    return typeof cuerpo.message === 'string' && /[a-záéíóúñ]{3,}/i.test(cuerpo.message) && !/too many|unavailable/i.test(cuerpo.message);
  } catch {
    return false;
  }
}

/** A pause of a person between pages: uniform between `min` and `max` seconds. */
export const pausa = (min: number, max: number) => new Promise((r) => setTimeout(r, 1000 * (min + Math.random() * (max - min))));

/** The p-th percentile of sorted values. */
const percentil = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.max(0, Math.ceil((p / 100) * xs.length) - 1))] ?? NaN;

/** One row of the table of a run: a route's requests and what they met. */
export interface FilaRuta {
  ruta: string;
  peticiones: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  /** Answered after more than 2 s. */
  lentas: number;
  /** 5xx answers. */
  errores5xx: number;
  /** 429 and 503 answers, and how many of them lacked Retry-After or the Spanish text. */
  rechazos: number;
  rechazosSinReintento: number;
  rechazosSinTexto: number;
  /** Requests that got no answer (socket error, client time limit). */
  sinRespuesta: number;
}

/** Every request of a run, by route. */
export class Registro {
  private readonly porRuta = new Map<string, Medida[]>();
  readonly inicio = performance.now();

  anotar(m: Medida): void {
    let lista = this.porRuta.get(m.ruta);
    if (!lista) this.porRuta.set(m.ruta, (lista = []));
    lista.push(m);
  }

  get total(): number {
    let n = 0;
    for (const l of this.porRuta.values()) n += l.length;
    return n;
  }

  /** Requests of `ruta` that got no answer and ended outside [desde, hasta] (performance.now() times). */
  sinRespuestaFuera(ruta: string, desde: number, hasta: number): number {
    return (this.porRuta.get(ruta) ?? []).filter((m) => m.error !== undefined && (m.fin < desde || m.fin > hasta)).length;
  }

  /** The requests that got no answer, by the whole second since `desde` (performance.now()) they ended in. */
  sinRespuestaPorSegundo(desde: number): Map<number, number> {
    const m = new Map<number, number>();
    for (const l of this.porRuta.values())
      for (const x of l)
        if (x.error !== undefined) {
          const s = Math.floor((x.fin - desde) / 1000);
          m.set(s, (m.get(s) ?? 0) + 1);
        }
    return new Map([...m.entries()].sort((a, b) => a[0] - b[0]));
  }

  /** The requests that got no answer, by what the client saw. */
  sinRespuestaPorCausa(): Map<string, number> {
    const m = new Map<string, number>();
    for (const l of this.porRuta.values()) for (const x of l) if (x.error !== undefined) m.set(x.error, (m.get(x.error) ?? 0) + 1);
    return m;
  }

  filas(): FilaRuta[] {
    return [...this.porRuta.entries()].map(([ruta, l]) => {
      const ms = l.filter((m) => !m.error).map((m) => m.ms);
      ms.sort((a, b) => a - b);
      const rechazos = l.filter((m) => m.estado === 429 || m.estado === 503);
      return {
        ruta,
        peticiones: l.length,
        p50: percentil(ms, 50),
        p95: percentil(ms, 95),
        p99: percentil(ms, 99),
        max: ms.at(-1) ?? NaN,
        lentas: ms.filter((x) => x > 2000).length,
        errores5xx: l.filter((m) => m.estado >= 500 && m.estado !== 503).length,
        rechazos: rechazos.length,
        rechazosSinReintento: rechazos.filter((m) => !m.reintento).length,
        rechazosSinTexto: rechazos.filter((m) => !m.texto).length,
        sinRespuesta: l.filter((m) => m.error !== undefined).length,
      };
    });
  }

  /** The table of a run, in Markdown. */
  tabla(): string {
    const f = (x: number) => (Number.isNaN(x) ? '–' : x < 10 ? x.toFixed(1) : x.toFixed(0));
    return [
      '| Route | Requests | p50 ms | p95 ms | p99 ms | max ms | > 2 s | 5xx | 429/503 (without Retry-After, without text) | no answer |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
      ...this.filas().map(
        (r) =>
          `| ${r.ruta} | ${r.peticiones} | ${f(r.p50)} | ${f(r.p95)} | ${f(r.p99)} | ${f(r.max)} | ${r.lentas} | ${r.errores5xx} | ${r.rechazos} (${r.rechazosSinReintento}, ${r.rechazosSinTexto}) | ${r.sinRespuesta} |`,
      ),
    ].join('\n');
  }
}

/**
 * Established TCP connections to `puerto` on this machine, counted from the kernel's table (both
 * ends of a loopback connection appear in it; the server's end is the one whose local port it is).
 */
export function conexionesAbiertas(puerto: number): number {
  const hex = puerto.toString(16).toUpperCase().padStart(4, '0');
  let n = 0;
  for (const fichero of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let texto: string;
    try {
      texto = readFileSync(fichero, 'utf8');
    } catch {
      continue;
    }
    for (const linea of texto.split('\n')) {
      const campos = linea.trim().split(/\s+/);
      // local_address is IP:PORT in hex; st 01 is ESTABLISHED.
      if (campos[1]?.endsWith(`:${hex}`) && campos[3] === '01') n++;
    }
  }
  return n;
}
