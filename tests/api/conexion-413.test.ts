/**
 * A body refused before it is read (413 on its declared size) closes its keep-alive connection:
 * the unread bytes would otherwise be read as the next request (RFC 9112 §9.6), and that request
 * would fail. A client with a keep-alive agent sends its next request on a new connection.
 */
import { request, Agent } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_CUERPO } from '../../src/server/http/cuerpo.ts';
import { servidorDelFichero } from '../support/server.ts';

const server = servidorDelFichero();
const agente = new Agent({ keepAlive: true, maxSockets: 1 });
afterAll(() => agente.destroy());

interface Respuesta {
  status: number;
  cabeceras: Record<string, string | string[] | undefined>;
  cuerpo: string;
  puerto: number | undefined;
}

/** A request through the keep-alive agent: the body's declared size is sent, only `enviados` bytes of it. */
function pedir(metodo: string, ruta: string, declarados = 0, enviados = 0): Promise<Respuesta> {
  return new Promise((resolve, reject) => {
    const url = new URL(server.url + ruta);
    const req = request(
      {
        agent: agente,
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: metodo,
        headers: declarados ? { 'Content-Type': 'application/json', 'Content-Length': String(declarados) } : {},
      },
      (res) => {
        let cuerpo = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (cuerpo += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, cabeceras: res.headers, cuerpo, puerto: req.socket?.localPort }));
      },
    );
    req.on('error', reject);
    // Part of the body only, as a client does that sends while it waits: the rest never comes.
    if (enviados) req.write(Buffer.alloc(enviados, 0x20));
    req.flushHeaders();
  });
}

describe('un 413 antes de leer el cuerpo', () => {
  it('dice Connection: close y cierra la conexión, y la siguiente petición del cliente va bien', async () => {
    const antes = await pedir('GET', '/api/health');
    expect(antes.status).toBe(200);
    const rechazo = await pedir('POST', '/api/auth/login', MAX_CUERPO * 4, 1024);
    expect(rechazo.status).toBe(413);
    expect(rechazo.cabeceras.connection).toBe('close');
    const despues = await pedir('GET', '/api/health');
    expect(despues.status).toBe(200);
    expect(JSON.parse(despues.cuerpo)).toEqual({ status: 'ok' });
  });
});
