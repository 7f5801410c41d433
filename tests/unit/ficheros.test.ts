/**
 * The shared file readers (src/server/ficheros): compression removed as a stream, encoding told
 * chunk by chunk, rows split with their physical line numbers, and the run-length record of the
 * intervals a measure file has given.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodificarFlujo, type EstadoCodificacion } from '../../src/server/ficheros/codificacion.ts';
import { abrirFichero } from '../../src/server/ficheros/comprimidos.ts';
import { filasCsv, filasCsvTexto, primeraLinea } from '../../src/server/ficheros/csv.ts';
import { ErrorFichero } from '../../src/server/ficheros/errores.ts';
import { IntervalosVistos } from '../../src/server/medidas/formatos/comun.ts';
import { leerFicheroMedidas } from '../../src/server/medidas/formatos/index.ts';
import { zip } from '../support/zip.ts';

const FIXTURES = new URL('../fixtures/medidas/', import.meta.url).pathname;
const P5D = 'P5D_9901_0762_20251101.0';

async function* trozos(...partes: (string | number[])[]): AsyncGenerator<Uint8Array> {
  for (const p of partes) yield typeof p === 'string' ? new TextEncoder().encode(p) : new Uint8Array(p);
}

async function texto(fuente: AsyncIterable<string>): Promise<string> {
  let t = '';
  for await (const s of fuente) t += s;
  return t;
}

async function bytes(fuente: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const partes: Buffer[] = [];
  for await (const b of fuente) partes.push(Buffer.from(b));
  return Buffer.concat(partes);
}

async function fallo(p: Promise<unknown>): Promise<ErrorFichero> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ErrorFichero);
  return err as ErrorFichero;
}

describe('the streaming decoder', () => {
  it('joins a UTF-8 character split between two chunks, and drops the BOM', async () => {
    const estado: EstadoCodificacion = { codificacion: 'iso-8859-15' };
    expect(await texto(decodificarFlujo(trozos([0xef, 0xbb, 0xbf], 'Mo', [0xc3], [0xb1], 'o'), estado))).toBe('Moño');
    expect(estado.codificacion).toBe('utf-8');
  });

  it('reads ISO-8859-15 when a byte is not UTF-8 after ASCII, the byte at a chunk end included', async () => {
    const estado: EstadoCodificacion = { codificacion: 'utf-8' };
    // "Método 20 €": é (0xE9) ends the first chunk; € is 0x80 as Windows-1252 writes it.
    expect(await texto(decodificarFlujo(trozos('M', [0xe9], 'todo 20 ', [0x80]), estado))).toBe('Método 20 €');
    expect(estado.codificacion).toBe('iso-8859-15');
  });

  it('reads a file that ends on a lone latin byte as ISO-8859-15', async () => {
    const estado: EstadoCodificacion = { codificacion: 'utf-8' };
    expect(await texto(decodificarFlujo(trozos('Ca', [0xf1]), estado))).toBe('Cañ');
    expect(estado.codificacion).toBe('iso-8859-15');
  });

  it('refuses UTF-8 followed by bytes that are not, rather than reading half in each', async () => {
    const err = await fallo(texto(decodificarFlujo(trozos('Espa', [0xc3, 0xb1], 'a;', [0xe9], ';'), { codificacion: 'utf-8' })));
    expect(err.motivo).toMatch(/mezcla codificaciones: hasta el byte 8 es UTF-8/);
  });
});

describe('opening compressed files as streams', () => {
  const plano = readFileSync(join(FIXTURES, P5D));
  const bz2 = readFileSync(join(FIXTURES, `${P5D}.bz2`));

  it('undoes bzip2, also several concatenated streams as pbzip2 writes them', async () => {
    const uno = await abrirFichero(bz2);
    expect(uno.comprimido).toBe('bzip2');
    expect((await bytes(uno.trozos)).equals(plano)).toBe(true);
    const dos = await abrirFichero(Buffer.concat([bz2, bz2]));
    expect((await bytes(dos.trozos)).equals(Buffer.concat([plano, plano]))).toBe(true);
  });

  it('undoes gzip of several members, read from a path', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ficheros-'));
    const ruta = join(dir, `${P5D}.gz`);
    writeFileSync(ruta, Buffer.concat([gzipSync(plano.subarray(0, 100)), gzipSync(plano.subarray(100))]));
    const abierto = await abrirFichero({ ruta });
    expect(abierto.comprimido).toBe('gzip');
    expect((await bytes(abierto.trozos)).equals(plano)).toBe(true);
  });

  it('reads the single file of a ZIP, deflated or stored, and names it', async () => {
    for (const guardado of [false, true]) {
      const abierto = await abrirFichero(zip([{ nombre: P5D, datos: plano }], guardado));
      expect(abierto).toMatchObject({ comprimido: 'zip', nombreInterior: P5D });
      expect((await bytes(abierto.trozos)).equals(plano)).toBe(true);
    }
  });

  it('refuses a ZIP of two files, and damaged or cut compressed files, with one reason each', async () => {
    const dos = await fallo(
      abrirFichero(
        zip([
          { nombre: 'a.0', datos: plano },
          { nombre: 'b.0', datos: plano },
        ]),
      ),
    );
    expect(dos.motivo).toBe('El fichero ZIP contiene 2 ficheros: debe contener uno solo. Importe cada fichero por separado.');
    const sinDirectorio = await fallo(abrirFichero(Buffer.from('PK\x03\x04 no es un zip')));
    expect(sinDirectorio.motivo).toMatch(/ZIP está dañado/);
    for (const roto of [bz2.subarray(0, bz2.length - 20), Buffer.from([0x42, 0x5a, 0x68, 0x39, 0x31]), gzipSync(plano).subarray(0, 60)]) {
      const abierto = await abrirFichero(roto);
      expect((await fallo(bytes(abierto.trozos))).motivo).toBe('El fichero comprimido está dañado o incompleto: no se puede descomprimir.');
    }
  });

  it('gives a measure file read from its path the same records as from its bytes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ficheros-'));
    const ruta = join(dir, `${P5D}.bz2`);
    writeFileSync(ruta, bz2);
    const desdeRuta = await leerFicheroMedidas(`${P5D}.bz2`, { ruta });
    const desdeBytes = await leerFicheroMedidas(P5D, plano);
    expect(desdeRuta.ok && desdeBytes.ok).toBe(true);
    if (desdeRuta.ok && desdeBytes.ok) expect(desdeRuta.registros).toEqual(desdeBytes.registros);
  });
});

describe('rows of a delimited file', () => {
  it('numbers rows by physical line across blank lines and CR, LF or CRLF ends, and unquotes fields', () => {
    expect(filasCsvTexto('a;b\r\n\r\n c ;"d;e"\r"f""g";\n', ';')).toEqual([
      { numero: 1, campos: ['a', 'b'] },
      { numero: 3, campos: ['c', 'd;e'] },
      { numero: 4, campos: ['f"g', ''] },
    ]);
  });

  it('blames a quote left open on the line where it opens, streamed or not', async () => {
    const t = 'a;b\n"c;d\ne;f\ng;h\n';
    expect(() => filasCsvTexto(t, ';')).toThrow(/se abren en la línea 2/);
    const err = await fallo(
      (async () => {
        for await (const _ of filasCsv(trozosTexto(t), ';')) void _;
      })(),
    );
    expect(err.linea).toBe(2);
    const quoted = 'a;b\nc;"d\ne";f\n';
    expect(() => filasCsvTexto(quoted, ';')).toThrow(/se abren en la línea 2 no se cierran en esa línea/);
  });

  it('stops at a line longer than any of the sector, having read only a little of it', async () => {
    // 3,200 chunks of 64 KiB: a line of 200 MB that is never whole in memory, and never asked for whole.
    let pedidos = 0;
    async function* lineaSinFin(): AsyncGenerator<string> {
      yield 'a;b\n';
      const trozo = 'x'.repeat(65_536);
      for (let i = 0; i < 3_200; i++) {
        pedidos++;
        yield trozo;
      }
      yield '\n';
    }
    const err = await fallo(
      (async () => {
        for await (const _ of filasCsv(lineaSinFin(), ';')) void _;
      })(),
    );
    expect(err.linea).toBe(2);
    expect(err.motivo).toMatch(/^La línea 2 tiene más de 65\.536 caracteres/);
    expect(pedidos).toBeLessThan(40);
  });

  it('finds the first line that is not blank and hands the whole text on', async () => {
    const { primera, textos } = await primeraLinea(trozosTexto('\n\n  \nCUPS;Fe', 'cha\nES;1\n'));
    expect(primera).toBe('CUPS;Fecha');
    expect(await texto(textos)).toBe('\n\n  \nCUPS;Fecha\nES;1\n');
  });
});

async function* trozosTexto(...partes: string[]): AsyncGenerator<string> {
  yield* partes;
}

describe('the intervals a measure file has given', () => {
  const h = (n: number) => Date.UTC(2025, 10, 1) + n * 3_600_000;

  it('answers the earlier line of a repeated interval, file ordered by supply point', () => {
    const v = new IntervalosVistos();
    for (let n = 0; n < 1000; n++) expect(v.anotar('A', h(n), 60, n + 1)).toBeNull();
    for (let n = 0; n < 1000; n++) expect(v.anotar('B', h(n), 60, 1001 + n)).toBeNull();
    expect(v.anotar('A', h(500), 60, 2001)).toBe(501);
    expect(v.anotar('B', h(999), 60, 2002)).toBe(2000);
  });

  it('does so for a file ordered hour by hour, out of order and with blank lines', () => {
    const v = new IntervalosVistos();
    // Three supply points per hour: each one's lines are three apart.
    for (let n = 0; n < 100; n++) for (const [i, c] of ['A', 'B', 'C'].entries()) expect(v.anotar(c, h(n), 60, 3 * n + i + 1)).toBeNull();
    expect(v.anotar('C', h(40), 60, 400)).toBe(123);
    expect(v.anotar('A', h(-5), 60, 401)).toBeNull();
    expect(v.anotar('A', h(-10), 60, 403)).toBeNull();
    expect(v.anotar('A', h(-5), 60, 404)).toBe(401);
    expect(v.anotar('A', h(-10), 60, 405)).toBe(403);
    expect(v.anotar('A', h(0), 60, 406)).toBe(1);
  });

  it('counts an hour and a quarter-hour starting at the same instant as the same interval', () => {
    const v = new IntervalosVistos();
    expect(v.anotar('A', h(3), 60, 7)).toBeNull();
    expect(v.anotar('A', h(3), 15, 8)).toBe(7);
    expect(v.anotar('A', h(3) + 900_000, 15, 9)).toBeNull();
    expect(v.anotar('A', h(3) + 900_000, 60, 10)).toBe(9);
  });
});
