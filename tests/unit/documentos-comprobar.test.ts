/**
 * The checks on a case's document: its type by its first bytes (never by its name), its name, the
 * Content-Disposition it is served with, and the reception of an upload into a temporary file,
 * which stops reading the moment the file is refused and leaves nothing behind.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLASES_DOCUMENTO, ETIQUETAS_CLASE_DOCUMENTO } from '../../src/lib/expedientes/documentos.ts';
import { DocumentoRechazado, recibirDocumento } from '../../src/server/documentos/almacen.ts';
import {
  disposicionAdjunto,
  errorNombreDocumento,
  MAX_DOCUMENTO_BYTES,
  MENSAJE_DOCUMENTO_GRANDE,
  MENSAJE_DOCUMENTO_TIPO,
  MENSAJE_DOCUMENTO_VACIO,
  tipoPorBytes,
} from '../../src/server/documentos/comprobar.ts';

const bytes = (...xs: (number | string)[]) =>
  new Uint8Array(xs.flatMap((x) => (typeof x === 'string' ? [...Buffer.from(x, 'latin1')] : [x])));

describe('tipo de un documento por sus primeros bytes', () => {
  it.each([
    ['un PDF', bytes('%PDF-1.7\n'), 'application/pdf'],
    ['un PDF 2.0', bytes('%PDF-2.0'), 'application/pdf'],
    ['un JPEG (JFIF)', bytes(0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46), 'image/jpeg'],
    ['un JPEG (Exif)', bytes(0xff, 0xd8, 0xff, 0xe1, 0x12, 0x34, 0x45, 0x78), 'image/jpeg'],
    ['un PNG', bytes(0x89, 'PNG', 0x0d, 0x0a, 0x1a, 0x0a), 'image/png'],
    ['un ejecutable de Windows renombrado a .pdf', bytes('MZ', 0x90, 0x00, 0x03, 0x00, 0x00, 0x00), null],
    ['un ELF', bytes(0x7f, 'ELF', 0x02, 0x01, 0x01, 0x00), null],
    ['un ZIP (un .docx)', bytes('PK', 0x03, 0x04, 0x14, 0x00, 0x06, 0x00), null],
    ['un GIF', bytes('GIF89a', 0x01, 0x00), null],
    ['un HTML', bytes('<html><b'), null],
    ['un PDF que no empieza por su firma', bytes(' %PDF-1.'), null],
    ['un PNG con la firma cortada', bytes(0x89, 'PNG', 0x0d, 0x0a, 0x1a, 0x00), null],
    ['nada', bytes(), null],
  ])('%s → %s', (_que, primeros, tipo) => {
    expect(tipoPorBytes(primeros)).toBe(tipo);
  });
});

describe('nombre de un documento', () => {
  it.each([
    ['Memoria técnica.pdf'],
    ['Autorización del titular (firmada).pdf'],
    ['Año 2026 — planos ñandú.PNG'],
    ['foto.jpeg'],
    ['.pdf'],
    ['a'.repeat(200)],
    ['á'.repeat(200)],
  ])('admite «%s»', (nombre) => {
    expect(errorNombreDocumento(nombre)).toBeNull();
  });

  it.each([
    ['', 'Indique el nombre del fichero.'],
    ['   ', 'Indique el nombre del fichero.'],
    ['a'.repeat(201), 'El nombre del fichero no puede superar 200 caracteres.'],
    ['../x.pdf', 'El nombre del fichero no puede llevar barras (/ ni \\): indique solo el nombre, sin carpetas.'],
    ['a/b.pdf', 'El nombre del fichero no puede llevar barras (/ ni \\): indique solo el nombre, sin carpetas.'],
    ['C:\\Users\\x.pdf', 'El nombre del fichero no puede llevar barras (/ ni \\): indique solo el nombre, sin carpetas.'],
    ['..', 'El nombre del fichero no puede llevar dos puntos seguidos (..).'],
    ['informe..pdf', 'El nombre del fichero no puede llevar dos puntos seguidos (..).'],
    ['. .', 'El nombre del fichero no puede ser solo puntos y espacios.'],
    ['a\u0000b.pdf', 'El nombre del fichero no puede llevar caracteres de control.'],
    ['a\nb.pdf', 'El nombre del fichero no puede llevar caracteres de control.'],
    ['a\tb.pdf', 'El nombre del fichero no puede llevar caracteres de control.'],
    ['a\u007fb.pdf', 'El nombre del fichero no puede llevar caracteres de control.'],
    ['a\u0085b.pdf', 'El nombre del fichero no puede llevar caracteres de control.'],
    ['factura\u202Efdp.exe', 'El nombre del fichero no puede llevar caracteres de control.'],
  ])('rechaza %j: %s', (nombre, mensaje) => {
    expect(errorNombreDocumento(nombre)).toBe(mensaje);
  });
});

describe('Content-Disposition de la descarga (RFC 6266)', () => {
  it.each([
    ['memoria.pdf', 'attachment; filename="memoria.pdf"'],
    ['Memoria técnica.pdf', `attachment; filename="Memoria tecnica.pdf"; filename*=UTF-8''Memoria%20t%C3%A9cnica.pdf`],
    ['Año (1).png', `attachment; filename="Ano (1).png"; filename*=UTF-8''A%C3%B1o%20%281%29.png`],
    ['dice "sí".pdf', `attachment; filename="dice _si_.pdf"; filename*=UTF-8''dice%20%22s%C3%AD%22.pdf`],
    ['100%.pdf', `attachment; filename="100_.pdf"; filename*=UTF-8''100%25.pdf`],
    ['plano 🏠.png', `attachment; filename="plano _.png"; filename*=UTF-8''plano%20%F0%9F%8F%A0.png`],
  ])('%s → %s', (nombre, cabecera) => {
    expect(disposicionAdjunto(nombre)).toBe(cabecera);
  });
});

describe('mensajes y clases', () => {
  it.each([
    [MENSAJE_DOCUMENTO_VACIO, /^El fichero está vacío\.$/],
    [MENSAJE_DOCUMENTO_GRANDE, /^El fichero pasa de 20 MB: /],
    [MENSAJE_DOCUMENTO_TIPO, /^El fichero no es un PDF, JPEG ni PNG: se comprueba por su contenido/],
  ])('«%s» explica el motivo', (mensaje, patron) => {
    expect(mensaje).toMatch(patron);
  });

  it.each(CLASES_DOCUMENTO.map((c) => [c]))('la clase %s tiene su nombre para las pantallas', (clase) => {
    expect(ETIQUETAS_CLASE_DOCUMENTO[clase]).toMatch(/^\p{Lu}/u);
  });
});

/** A body that serves `trozos` one per pull and counts how many were pulled. */
function cuerpo(trozos: Uint8Array[]): { stream: ReadableStream<Uint8Array>; leidos: () => number; cancelado: () => boolean } {
  let n = 0;
  let cancelado = false;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (n < trozos.length) controller.enqueue(trozos[n++]!);
        else controller.close();
      },
      cancel() {
        cancelado = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, leidos: () => n, cancelado: () => cancelado };
}

const MIB = 1024 * 1024;
const pdf = (tamano: number) => {
  const b = new Uint8Array(tamano).fill(0x41);
  b.set(Buffer.from('%PDF-1.7\n'));
  return b;
};

describe('recepción de un documento en un fichero temporal', () => {
  let carpeta: string;
  let tmpAntes: string | undefined;
  beforeAll(() => {
    // A private TMPDIR for this file: what is left in it after a refusal is what recibirDocumento left.
    carpeta = mkdtempSync(join(tmpdir(), 'prueba-documentos-'));
    tmpAntes = process.env.TMPDIR;
    process.env.TMPDIR = carpeta;
  });
  afterAll(() => {
    if (tmpAntes === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = tmpAntes;
    rmSync(carpeta, { recursive: true, force: true });
  });

  it('guarda el fichero con su tamaño, su huella y su tipo', async () => {
    const datos = pdf(3 * MIB + 17);
    const trozos = [datos.subarray(0, 3), datos.subarray(3, 5), datos.subarray(5, MIB), datos.subarray(MIB)];
    const r = await recibirDocumento(cuerpo(trozos).stream);
    expect(r).toMatchObject({ bytes: datos.length, tipoMime: 'application/pdf' });
    expect(r.sha256).toBe(createHash('sha256').update(datos).digest('hex'));
    expect(readFileSync(r.ruta).equals(Buffer.from(datos))).toBe(true);
    await r.borrar();
    expect(readdirSync(carpeta)).toEqual([]);
  });

  it('admite un fichero de 20 MB justos', async () => {
    const r = await recibirDocumento(cuerpo([pdf(MAX_DOCUMENTO_BYTES)]).stream);
    expect(r.bytes).toBe(MAX_DOCUMENTO_BYTES);
    await r.borrar();
  });

  it('deja de leer en cuanto pasa de 20 MB y no deja nada', async () => {
    const c = cuerpo(Array.from({ length: 40 }, (_, i) => (i === 0 ? pdf(MIB) : new Uint8Array(MIB))));
    await expect(recibirDocumento(c.stream)).rejects.toThrow(new DocumentoRechazado(MENSAJE_DOCUMENTO_GRANDE));
    expect(c.leidos()).toBe(21);
    expect(c.cancelado()).toBe(true);
    expect(readdirSync(carpeta)).toEqual([]);
  });

  it('deja de leer en cuanto ve que no es un PDF, JPEG ni PNG y no deja nada', async () => {
    const c = cuerpo([bytes('MZ', 0x90, 0x00), bytes(0x03, 0x00, 0x00, 0x00), new Uint8Array(MIB), new Uint8Array(MIB)]);
    const error = await recibirDocumento(c.stream).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DocumentoRechazado);
    expect(error).toMatchObject({ status: 422, message: MENSAJE_DOCUMENTO_TIPO });
    expect(c.leidos()).toBe(2);
    expect(readdirSync(carpeta)).toEqual([]);
  });

  it('rechaza un fichero vacío y no deja nada', async () => {
    await expect(recibirDocumento(cuerpo([]).stream)).rejects.toThrow(MENSAJE_DOCUMENTO_VACIO);
    expect(readdirSync(carpeta)).toEqual([]);
  });

  it('un cuerpo que falla a medias no deja nada', async () => {
    let n = 0;
    const roto = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (n++ === 0) controller.enqueue(pdf(1024));
        else controller.error(new Error('conexión cortada'));
      },
    });
    await expect(recibirDocumento(roto)).rejects.toThrow('conexión cortada');
    expect(readdirSync(carpeta)).toEqual([]);
  });
});
