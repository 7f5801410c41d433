/**
 * The HTTP server, and the built site's files answered in node:http's own callback, before a
 * request becomes a web Request for Hono (docs/decisions/029).
 *
 * A page or an asset is a buffer already in memory, with its compressed bodies made once
 * (src/server/site/static-files.ts). Through Hono, every such answer still paid for a web Request,
 * a web Response and the middleware chain, several times the cost of writing the buffer. Here it is
 * written at once, with exactly the answer Hono would give: the same content headers
 * (`cabecerasDeFichero`), the same security headers (`cabecerasDeSeguridad`), the same request id
 * rule and the same log line. Whatever is not that plain case goes to Hono unchanged: other methods,
 * the API, percent-encoded or unusual paths, a body, a Range, and a compressed body not yet made.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { getRequestListener } from '@hono/node-server';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { DIRECCION_DESCONOCIDA, esHttpsDe, normalizeAddress } from '../http/cliente.ts';
import { elegirCodificacion, type Codificacion } from '../http/compresion.ts';
import { opcionesDeEscucha } from '../http/escucha.ts';
import { escribirLinea, idDePeticion } from '../http/logging.ts';
import { cabecerasDeSeguridad } from '../http/security.ts';
import { cabecerasDeFichero, resolvePageRecordada } from './routes.ts';
import { coincideEtag, type SiteIndex, type StaticFile } from './static-files.ts';

/**
 * Paths answered directly: unreserved characters and `/` only, with no empty segment and no segment
 * starting with a dot. A path with `%`, `./`, `../` or anything else is decoded, normalised (WHATWG
 * URL) and routed by Hono, so there is one set of decoding rules.
 */
const CAMINO_LLANO = /^(?!.*\/[/.])\/[A-Za-z0-9\-._~/]*$/;

/** What the direct answers need from the portal. */
export interface Contexto {
  config: Pick<Config, 'proxiesDeConfianza' | 'publicUrl'>;
  logger: Logger;
}

/** One header's value, as node:http gives it. */
const uno = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v.join(', ') : v);

/** The socket's peer, written as `clientAddress` writes it. */
function peer(req: IncomingMessage): string {
  const address = req.socket.remoteAddress;
  return address ? normalizeAddress(address) : DIRECCION_DESCONOCIDA;
}

/**
 * Answers `req` from the built site when it is the plain case; returns false, having written
 * nothing, when Hono must answer it.
 */
export function respuestaDirecta(site: SiteIndex, contexto: Contexto): (req: IncomingMessage, res: ServerResponse) => boolean {
  const seguridad = cabecerasDeSeguridad(() => site.scriptHashes);
  // Every header but X-Request-Id, flat (name, value, name, value…), per file and case: made once.
  const hechas = new WeakMap<StaticFile, Map<string, string[]>>();
  const cabeceras = (entry: StaticFile, codificacion: Codificacion | null, https: boolean, conCuerpo: boolean): string[] => {
    let porCaso = hechas.get(entry);
    if (!porCaso) hechas.set(entry, (porCaso = new Map()));
    const caso = `${codificacion ?? ''}|${https ? 1 : 0}|${conCuerpo ? 1 : 0}`;
    let lista = porCaso.get(caso);
    if (!lista) {
      const propias = cabecerasDeFichero(entry, codificacion);
      if (conCuerpo) {
        if (codificacion) propias['Content-Encoding'] = codificacion;
        propias['Content-Length'] = String(codificacion ? entry.comprimidos[codificacion]!.byteLength : entry.size);
      }
      lista = [...Object.entries(propias), ...seguridad(https)].flat();
      porCaso.set(caso, lista);
    }
    return lista;
  };

  return (req, res) => {
    const inicio = performance.now();
    const metodo = req.method;
    if (metodo !== 'GET' && metodo !== 'HEAD') return false;
    const url = req.url ?? '';
    const q = url.indexOf('?');
    const camino = q === -1 ? url : url.slice(0, q);
    if (!CAMINO_LLANO.test(camino) || camino === '/api' || camino.startsWith('/api/')) return false;
    // The Datadis-compatible API (docs/decisions/044) answers its own paths, never a page.
    if (camino.startsWith('/api-private/') || camino.startsWith('/nikola-auth/')) return false;
    const h = req.headers;
    if (h.range !== undefined || h['transfer-encoding'] !== undefined || (h['content-length'] ?? '0') !== '0') return false;
    const { key, status } = resolvePageRecordada(site, camino);
    const entry = site.files.get(key);
    if (!entry) return false;
    const codificacion = entry.compresible ? elegirCodificacion(uno(h['accept-encoding'])) : null;
    // Until its turn in the background comes, a body is compressed as it goes by the middleware.
    if (codificacion && !entry.comprimidos[codificacion]) return false;

    const https = esHttpsDe(contexto.config, () => peer(req), uno(h['x-forwarded-proto']), (req.socket as TLSSocket).encrypted === true);
    const id = idDePeticion(uno(h['x-request-id']));
    const noModificado = status === 200 && coincideEtag(uno(h['if-none-match']), entry);
    const estado = noModificado ? 304 : status;
    res.writeHead(estado, [...cabeceras(entry, codificacion, https, !noModificado), 'X-Request-Id', id]);
    if (noModificado || metodo === 'HEAD') res.end();
    else res.end(codificacion ? entry.comprimidos[codificacion] : entry.bytes);
    escribirLinea(contexto.logger, id, metodo, camino, estado, inicio);
    return true;
  };
}

/** The app as the HTTP server calls it. */
export interface Aplicacion {
  fetch: Parameters<typeof getRequestListener>[0];
}

/**
 * A refusal answered before its request's body has all arrived (a 413 on the declared
 * Content-Length, a 401 or 404 before an upload is read) says `Connection: close`, and Node closes
 * the connection once the answer is sent: otherwise the body's remaining bytes would be read as the
 * next request on a keep-alive connection, and that request would fail (RFC 9112 §9.6, §9.3).
 */
function cerrarSiQuedaCuerpo(req: IncomingMessage, res: ServerResponse): void {
  // A request without a body (most GETs) is complete as soon as its headers are: nothing to close for.
  const conCuerpo = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
  if (!conCuerpo) return;
  const writeHead = res.writeHead;
  res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse['writeHead']>) {
    const estado = args[0];
    if (estado >= 400 && !req.complete && !res.headersSent) res.setHeader('Connection', 'close');
    return writeHead.apply(this, args);
  } as ServerResponse['writeHead'];
}

/**
 * Starts the HTTP server on `port` and `hostname`: the built site's plain answers directly, every
 * other request through the app. Resolves once it listens.
 */
export function escuchar(
  app: Aplicacion,
  opciones: { port: number; hostname: string; site?: SiteIndex | undefined; contexto: Contexto },
): Promise<Server> {
  const hono = getRequestListener(app.fetch, { hostname: opciones.hostname });
  const directa = opciones.site ? respuestaDirecta(opciones.site, opciones.contexto) : null;
  const server = createServer((req, res) => {
    cerrarSiQuedaCuerpo(req, res);
    try {
      if (directa?.(req, res)) return;
    } catch (err) {
      // Never expected; the request is not lost: Hono answers it when nothing was written yet.
      opciones.contexto.logger.error({ err }, 'respuesta directa fallida');
      if (res.headersSent) return void res.destroy();
    }
    void hono(req, res);
  });
  return new Promise((resolve) =>
    server.listen({ port: opciones.port, host: opciones.hostname, ...opcionesDeEscucha() }, () => resolve(server)),
  );
}
