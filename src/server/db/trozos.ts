/**
 * Files kept in the database as `bytea` pieces (docs/decisions/016, 017 and 019): every server
 * process on every machine that shares the database serves every file. A file received into a
 * temporary file is copied in pieces, one INSERT each, with one buffer for every piece.
 */
import { open } from 'node:fs/promises';
import { is, sql, type SQL } from 'drizzle-orm';
import { PgliteDatabase, PgliteTransaction } from 'drizzle-orm/pglite';
import type { Db } from './client.ts';

/**
 * A piece as the `bytea` value to insert. node-postgres sends a Buffer as it is, in binary; PGlite's
 * own `bytea` conversion builds an array of every byte and a string for each (four times slower for
 * a 20 MB document, with tens of MB of garbage), so on PGlite the piece goes as hexadecimal text
 * (`decode(…, 'hex')`), which Node writes natively. Pieces are read back as hexadecimal on both
 * (`encode(…, 'hex')`): node-postgres reads `bytea` as hexadecimal text anyway.
 */
export function valorTrozo(tx: Db, datos: Buffer): Buffer | SQL {
  return is(tx, PgliteTransaction) || is(tx, PgliteDatabase) ? sql`decode(${datos.toString('hex')}, 'hex')` : datos;
}

/**
 * Reads the first `bytes` bytes of the file at `ruta` in pieces of `tamano` and hands each to
 * `guardar` in order (the buffer is reused: `guardar` must have sent it when it resolves).
 */
export async function porTrozos(
  ruta: string,
  bytes: number,
  tamano: number,
  guardar: (n: number, datos: Buffer) => Promise<void>,
): Promise<void> {
  const entrada = await open(ruta, 'r');
  try {
    const datos = Buffer.allocUnsafe(Math.max(1, Math.min(tamano, bytes)));
    let posicion = 0;
    for (let n = 0; posicion < bytes; n++) {
      const largo = Math.min(tamano, bytes - posicion);
      for (let leido = 0; leido < largo;) {
        const { bytesRead } = await entrada.read(datos, leido, largo - leido, posicion + leido);
        if (bytesRead === 0) throw new Error('El fichero temporal es más corto de lo recibido.');
        leido += bytesRead;
      }
      await guardar(n, datos.subarray(0, largo));
      posicion += largo;
    }
  } finally {
    await entrada.close();
  }
}
