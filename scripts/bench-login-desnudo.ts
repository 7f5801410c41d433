/**
 * The login bench's reference: a bare node:http server that answers every request with a small JSON
 * after one verification of an argon2id hash on the portal's own hashing threads
 * (src/server/auth/password.ts), and does nothing else: no framework, no database, no token. What it
 * reaches is what HTTP and the hash alone allow on this machine; the portal's logins are compared
 * with it in docs/benchmarks.md. Run by scripts/bench.ts: `node scripts/bench-login-desnudo.ts PORT`;
 * prints `listo` once listening.
 */
import { createServer } from 'node:http';
import { hashPassword, verifyPassword } from '../src/server/auth/password.ts';

const CLAVE = 'Bench-desnudo-Clave1';
const guardado = await hashPassword(CLAVE);

createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    void verifyPassword(guardado, CLAVE).then((ok) => {
      const cuerpo = JSON.stringify({ ok });
      res.writeHead(ok ? 200 : 401, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(cuerpo) });
      res.end(cuerpo);
    });
  });
}).listen(Number(process.argv[2]), '127.0.0.1', () => process.stdout.write('listo\n'));
