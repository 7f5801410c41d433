/**
 * The documents of a case through HTTP (docs/decisions/017): the applicant uploads PDF, JPEG and PNG
 * files and gets the same bytes back; the staff of the case's distributor reach a filed case's
 * documents and nobody else learns the case exists; files that are empty, too big or not what they
 * claim, and names with folders, are refused with a Spanish reason and leave nothing stored; a
 * pending document can be removed by its side, an attached one cannot; every upload, download and
 * removal is audited without the file's contents.
 */
import { createHash, randomBytes } from 'node:crypto';
import { count, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { MENSAJE_DOCUMENTO_GRANDE } from '../../src/lib/expedientes/documentos.ts';
import { MAX_DOCUMENTOS_EXPEDIENTE, MENSAJE_DOCUMENTOS_MAXIMO } from '../../src/lib/expedientes/limites.ts';
import { documentos, documentosTrozos, expedienteEventos, expedientes } from '../../src/server/db/schema.ts';
import { MENSAJE_DOCUMENTO_TIPO, MENSAJE_DOCUMENTO_VACIO } from '../../src/server/documentos/comprobar.ts';
import { unaVez } from '../support/ganchos.ts';
import { administrador, auditadas, cuentaConSesion } from '../support/privado.ts';
import { servidorDelFichero } from '../support/server.ts';

const server = servidorDelFichero();

/** The accounts of the file: an applicant, another user, and the staff of EPD and of EOD. */
const quien = unaVez(async () => {
  const solicitante = await cuentaConSesion(server, { prefijo: 'solicitante' });
  const otro = await cuentaConSesion(server, { prefijo: 'otro' });
  const epd = await administrador(server, ['epd-administrador']);
  const eod = await administrador(server, ['eod-administrador']);
  return { solicitante, otro, epd, eod };
});

/** A new access case of EPD for the applicant: a draft unless told otherwise. */
async function expediente(cambios: Partial<typeof expedientes.$inferInsert> = {}): Promise<string> {
  const [fila] = await server.database.db
    .insert(expedientes)
    .values({
      procedimiento: 'acceso',
      distribuidora: 'epd',
      userId: quien.solicitante.u.id,
      paso: 'borrador',
      turno: 'solicitante',
      ...cambios,
    })
    .returning({ id: expedientes.id });
  return fila!.id;
}

/** A filed case (staff see it). */
const presentado = () => expediente({ paso: 'presentada', turno: 'distribuidora', presentadoEn: new Date('2026-11-01T10:00:00Z') });

const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n%âãÏÓ\n1 0 obj <<>> endobj\n'), randomBytes(3000), Buffer.from('\n%%EOF\n')]);
const JPEG = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
  Buffer.from('JFIF\0'),
  randomBytes(2000),
  Buffer.from([0xff, 0xd9]),
]);
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(1500)]);
/** A Windows executable renamed to .pdf, and an ELF. */
const EXE = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(58), Buffer.from('This program cannot be run in DOS mode.')]);
const ELF = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01]), Buffer.alloc(100)]);

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** POST /api/expedientes/{id}/documentos with the raw bytes. */
function subir(
  token: string | undefined,
  id: string,
  cuerpo: BodyInit,
  {
    clase = 'memoria',
    nombre = 'memoria.pdf',
    cabeceras = {},
  }: { clase?: string; nombre?: string; cabeceras?: Record<string, string> } = {},
): Promise<Response> {
  const q = new URLSearchParams({ clase, nombre });
  return server.fetch(`/api/expedientes/${id}/documentos?${q}`, {
    method: 'POST',
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), 'Content-Type': 'application/octet-stream', ...cabeceras },
    body: cuerpo,
    ...(cuerpo instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);
}

/** Uploads and answers the new document's id, expecting 201. */
async function subido(
  token: string,
  id: string,
  cuerpo: BodyInit = PDF,
  opciones: { clase?: string; nombre?: string } = {},
): Promise<string> {
  const res = await subir(token, id, cuerpo, opciones);
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

function descargar(token: string | undefined, id: string, documentoId: string): Promise<Response> {
  return server.fetch(`/api/expedientes/${id}/documentos/${documentoId}`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
}

function quitar(token: string | undefined, id: string, documentoId: string): Promise<Response> {
  return server.fetch(`/api/expedientes/${id}/documentos/${documentoId}`, {
    method: 'DELETE',
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
}

/** How many document rows and pieces the whole database holds. */
async function almacenado(): Promise<{ documentos: number; trozos: number }> {
  const [d] = await server.database.db.select({ n: count() }).from(documentos);
  const [t] = await server.database.db.select({ n: count() }).from(documentosTrozos);
  return { documentos: Number(d!.n), trozos: Number(t!.n) };
}

const NO_EXISTE = 'No existe ese documento en el expediente.';

describe('subir y descargar', () => {
  it.each([
    ['un PDF', PDF, 'application/pdf', 'memoria.pdf'],
    ['un JPEG', JPEG, 'image/jpeg', 'foto.jpg'],
    ['un PNG', PNG, 'image/png', 'plano.png'],
  ])('el solicitante sube %s y lo descarga con los mismos bytes y su tipo', async (_que, datos, tipo, nombre) => {
    const id = await expediente();
    const documentoId = await subido(quien.solicitante.token, id, datos, { nombre });
    const res = await descargar(quien.solicitante.token, id, documentoId);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(tipo);
    expect(Buffer.from(await res.arrayBuffer()).equals(datos)).toBe(true);
  });

  it('la subida responde el documento pendiente, de la parte solicitante, con su tamaño y su huella', async () => {
    const id = await expediente();
    const res = await subir(quien.solicitante.token, id, PDF, { clase: 'autorizacion', nombre: 'Autorización.pdf' });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      clase: 'autorizacion',
      nombre: 'Autorización.pdf',
      tipoMime: 'application/pdf',
      bytes: PDF.length,
      sha256: sha(PDF),
      lado: 'solicitante',
      subidoEn: server.clock.now().toISOString(),
      pendiente: true,
    });
  });

  it('la descarga lleva su tamaño, nosniff, no se guarda en cachés y se descarga como adjunto', async () => {
    const id = await expediente();
    const documentoId = await subido(quien.solicitante.token, id, PDF, { nombre: 'memoria.pdf' });
    const res = await descargar(quien.solicitante.token, id, documentoId);
    expect(
      Object.fromEntries(
        ['content-length', 'content-disposition', 'x-content-type-options', 'cache-control'].map((h) => [h, res.headers.get(h)]),
      ),
    ).toEqual({
      'content-length': String(PDF.length),
      'content-disposition': 'attachment; filename="memoria.pdf"',
      'x-content-type-options': 'nosniff',
      'cache-control': 'private, no-store',
    });
    await res.arrayBuffer();
  });

  it('un nombre con acentos se descarga con filename* en UTF-8 (RFC 6266)', async () => {
    const id = await expediente();
    const documentoId = await subido(quien.solicitante.token, id, PDF, { nombre: 'Memoria técnica nº 2.pdf' });
    const res = await descargar(quien.solicitante.token, id, documentoId);
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="Memoria tecnica no 2.pdf"; filename*=UTF-8''Memoria%20t%C3%A9cnica%20n%C2%BA%202.pdf`,
    );
    await res.arrayBuffer();
  });

  it('un fichero de varios trozos de 256 KiB se guarda por trozos y se descarga entero', async () => {
    const id = await expediente();
    const grande = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(1024 * 1024 + 5)]);
    const documentoId = await subido(quien.solicitante.token, id, grande);
    const trozos = await server.database.db
      .select({ n: documentosTrozos.n, bytes: sql<number>`length(${documentosTrozos.datos})` })
      .from(documentosTrozos)
      .where(eq(documentosTrozos.documentoId, documentoId))
      .orderBy(documentosTrozos.n);
    expect(trozos.map((t) => Number(t.bytes))).toEqual([262144, 262144, 262144, 262144, 14]);
    const res = await descargar(quien.solicitante.token, id, documentoId);
    expect(sha(Buffer.from(await res.arrayBuffer()))).toBe(sha(grande));
  });

  it('un fichero enviado por trozos, sin Content-Length, se guarda igual', async () => {
    const id = await expediente();
    const res = await subir(quien.solicitante.token, id, new Blob([PDF]).stream());
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ bytes: PDF.length, sha256: sha(PDF) });
  });
});

describe('quién ve los documentos', () => {
  it('el personal de EPD descarga un documento de un expediente presentado de EPD', async () => {
    const id = await presentado();
    const documentoId = await subido(quien.solicitante.token, id);
    const res = await descargar(quien.epd.token, id, documentoId);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(PDF)).toBe(true);
  });

  it('el personal de EPD sube un documento como parte distribuidora', async () => {
    const id = await presentado();
    const res = await subir(quien.epd.token, id, PDF, { clase: 'propuesta_previa', nombre: 'Propuesta previa.pdf' });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ lado: 'distribuidora', clase: 'propuesta_previa' });
  });

  it.each([
    ['el personal de EOD', () => quien.eod.token],
    ['otro usuario', () => quien.otro.token],
  ])('%s recibe 404 al descargar, subir o quitar, con el mismo mensaje', async (_quien, token) => {
    const id = await presentado();
    const documentoId = await subido(quien.solicitante.token, id);
    const respuestas = [await descargar(token(), id, documentoId), await subir(token(), id, PDF), await quitar(token(), id, documentoId)];
    expect(respuestas.map((r) => r.status)).toEqual([404, 404, 404]);
    const mensajes = await Promise.all(respuestas.map(async (r) => ((await r.json()) as { message: string }).message));
    expect(mensajes).toEqual([NO_EXISTE, 'No existe ese expediente.', NO_EXISTE]);
  });

  it('el personal de EPD no ve los documentos de un borrador', async () => {
    const id = await expediente();
    const documentoId = await subido(quien.solicitante.token, id);
    const res = await descargar(quien.epd.token, id, documentoId);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: NO_EXISTE });
  });

  it('un documento de otro expediente responde 404 con el mismo mensaje', async () => {
    const [a, b] = [await expediente(), await expediente()];
    const documentoId = await subido(quien.solicitante.token, a);
    const res = await descargar(quien.solicitante.token, b, documentoId);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: NO_EXISTE });
  });

  it.each(['no-es-un-uuid', '00000000-0000-4000-8000-000000000000'])('el documento %s responde 404', async (documentoId) => {
    const id = await expediente();
    const res = await descargar(quien.solicitante.token, id, documentoId);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: NO_EXISTE });
  });

  it.each([
    ['subir', (id: string) => subir(undefined, id, PDF)],
    ['descargar', (id: string) => descargar(undefined, id, '00000000-0000-4000-8000-000000000000')],
    ['quitar', (id: string) => quitar(undefined, id, '00000000-0000-4000-8000-000000000000')],
  ])('%s sin sesión responde 401', async (_que, llamada) => {
    expect((await llamada(await expediente())).status).toBe(401);
  });

  it.each([
    ['una solicitud de modificación contractual', 'modificacion', 'enviada'],
    ['una solicitud ATR', 'atr', 'recibida'],
  ])(
    'los casos de %s no llevan documentos: ni su titular ni el personal suben o descargan nada (404)',
    async (_que, procedimiento, paso) => {
      const id = await expediente({ procedimiento, paso, turno: 'distribuidora', presentadoEn: new Date('2026-11-01T10:00:00Z') });
      const antes = await almacenado();
      for (const token of [quien.solicitante.token, quien.epd.token]) {
        const res = await subir(token, id, PDF);
        expect(res.status).toBe(404);
        expect(await res.json()).toEqual({ message: 'No existe ese expediente.' });
        expect((await descargar(token, id, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
      }
      expect(await almacenado()).toEqual(antes);
    },
  );

  it('quien no ve el expediente recibe 404 aunque el fichero no valga: no se lee antes de comprobar el acceso', async () => {
    const id = await presentado();
    const res = await subir(quien.otro.token, id, EXE);
    expect(res.status).toBe(404);
  });
});

describe('ficheros rechazados', () => {
  it.each([
    ['un ejecutable de Windows renombrado a .pdf', EXE, 422, MENSAJE_DOCUMENTO_TIPO],
    ['un ELF', ELF, 422, MENSAJE_DOCUMENTO_TIPO],
    ['un fichero vacío', Buffer.alloc(0), 422, MENSAJE_DOCUMENTO_VACIO],
  ])('%s responde %i con el motivo y no guarda nada', async (_que, datos, estado, mensaje) => {
    const id = await expediente();
    const antes = await almacenado();
    const res = await subir(quien.solicitante.token, id, datos);
    expect(res.status).toBe(estado);
    expect(await res.json()).toEqual({ message: mensaje });
    expect(await almacenado()).toEqual(antes);
  });

  it('un fichero de 21 MB responde 413 «El fichero pasa de 20 MB» y no guarda nada', async () => {
    const id = await expediente();
    const antes = await almacenado();
    const grande = Buffer.alloc(21 * 1024 * 1024, 0x41);
    grande.write('%PDF-1.7\n');
    const res = await subir(quien.solicitante.token, id, grande);
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ message: MENSAJE_DOCUMENTO_GRANDE });
    expect(await almacenado()).toEqual(antes);
  });

  it('un fichero de 21 MB enviado por trozos, sin Content-Length, responde 413 y no guarda nada', async () => {
    const id = await expediente();
    const antes = await almacenado();
    const mib = Buffer.alloc(1024 * 1024, 0x41);
    let n = 0;
    const cuerpo = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (n === 21) return controller.close();
        controller.enqueue(n++ === 0 ? Buffer.concat([Buffer.from('%PDF-1.7\n'), mib.subarray(9)]) : mib);
      },
    });
    const res = await subir(quien.solicitante.token, id, cuerpo);
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ message: MENSAJE_DOCUMENTO_GRANDE });
    expect(await almacenado()).toEqual(antes);
  });

  it.each([
    ['../x.pdf', 'El nombre del fichero no puede llevar barras (/ ni \\): indique solo el nombre, sin carpetas.'],
    ['a/b.pdf', 'El nombre del fichero no puede llevar barras (/ ni \\): indique solo el nombre, sin carpetas.'],
    ['..', 'El nombre del fichero no puede llevar dos puntos seguidos (..).'],
    ['a\tb.pdf', 'El nombre del fichero no puede llevar caracteres de control.'],
    ['x'.repeat(201), 'El nombre del fichero no puede superar 200 caracteres.'],
  ])('el nombre %j responde 400 con el motivo y no guarda nada', async (nombre, mensaje) => {
    const id = await expediente();
    const antes = await almacenado();
    const res = await subir(quien.solicitante.token, id, PDF, { nombre });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual([mensaje]);
    expect(await almacenado()).toEqual(antes);
  });

  it('una clase desconocida responde 400 con las clases que hay y no guarda nada', async () => {
    const id = await expediente();
    const antes = await almacenado();
    const res = await subir(quien.solicitante.token, id, PDF, { clase: 'contrato' });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual([
      'Indique qué documento es: autorizacion, garantia, memoria, planos, subsanacion, propuesta_previa, permisos, informe, reclamacion, factura, informacion, respuesta, otro.',
    ]);
    expect(await almacenado()).toEqual(antes);
  });

  it('un expediente cerrado responde 409 y no guarda nada', async () => {
    const id = await expediente({ paso: 'desistida', turno: null, cerradoEn: new Date('2026-11-01T12:00:00Z') });
    const antes = await almacenado();
    const res = await subir(quien.solicitante.token, id, PDF);
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ message: 'El expediente está cerrado: ya no admite documentos.' });
    expect(await almacenado()).toEqual(antes);
  });

  it('un expediente admite 60 documentos: el 61.º responde 409 con el máximo y no guarda nada', async () => {
    expect(MAX_DOCUMENTOS_EXPEDIENTE).toBe(60);
    const id = await presentado();
    // 59 already there, of both sides: the cap counts the whole case.
    await server.database.db.insert(documentos).values(
      Array.from({ length: 59 }, (_, i) => ({
        expedienteId: id,
        lado: i % 2 ? 'solicitante' : 'distribuidora',
        clase: 'memoria',
        nombre: `anexo-${i}.pdf`,
        tipoMime: 'application/pdf',
        bytes: PDF.byteLength,
        sha256: sha(PDF),
      })),
    );
    await subido(quien.solicitante.token, id, PDF, { nombre: 'sexagesimo.pdf' });
    const antes = await almacenado();
    const res = await subir(quien.epd.token, id, PDF, { clase: 'propuesta_previa', nombre: 'uno-mas.pdf' });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ message: MENSAJE_DOCUMENTOS_MAXIMO });
    expect(MENSAJE_DOCUMENTOS_MAXIMO).toContain('60 documentos');
    expect(await almacenado()).toEqual(antes);
  });
});

/** Attaches a document to a new step of its case, as taking a step does. */
async function incorporar(id: string, documentoId: string): Promise<void> {
  const [evento] = await server.database.db
    .insert(expedienteEventos)
    .values({ expedienteId: id, accion: 'presentar', paso: 'presentada', lado: 'solicitante' })
    .returning({ id: expedienteEventos.id });
  await server.database.db.update(documentos).set({ eventoId: evento!.id }).where(eq(documentos.id, documentoId));
}

describe('quitar un documento', () => {
  it('el solicitante quita un documento pendiente suyo: 204, y se van la fila y sus bytes', async () => {
    const id = await expediente();
    const documentoId = await subido(quien.solicitante.token, id);
    const res = await quitar(quien.solicitante.token, id, documentoId);
    expect(res.status).toBe(204);
    const trozos = await server.database.db.select().from(documentosTrozos).where(eq(documentosTrozos.documentoId, documentoId));
    expect([await server.database.db.select().from(documentos).where(eq(documentos.id, documentoId)), trozos]).toEqual([[], []]);
  });

  it('un documento ya incorporado a un paso no se puede quitar: 409', async () => {
    const id = await expediente();
    const documentoId = await subido(quien.solicitante.token, id);
    await incorporar(id, documentoId);
    const res = await quitar(quien.solicitante.token, id, documentoId);
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ message: 'Este documento ya forma parte del expediente y no se puede quitar.' });
  });

  it('un documento de la otra parte no se puede quitar: 409', async () => {
    const id = await presentado();
    const documentoId = await subido(quien.epd.token, id);
    const res = await quitar(quien.solicitante.token, id, documentoId);
    expect(res.status).toBe(409);
    expect(((await res.json()) as { message: string }).message).toMatch(/otra parte/);
  });

  it('en un expediente cerrado no se quita nada: 409', async () => {
    const id = await expediente();
    const documentoId = await subido(quien.solicitante.token, id);
    await server.database.db.update(expedientes).set({ cerradoEn: new Date(), turno: null }).where(eq(expedientes.id, id));
    const res = await quitar(quien.solicitante.token, id, documentoId);
    expect(res.status).toBe(409);
  });
});

describe('auditoría', () => {
  it('la subida queda con el expediente, nombre, clase, tamaño y huella, sin el contenido', async () => {
    const id = await expediente();
    const secreto = Buffer.concat([Buffer.from('%PDF-1.7\nCONTENIDO-QUE-NO-SE-AUDITA'), randomBytes(64)]);
    const documentoId = await subido(quien.solicitante.token, id, secreto, { clase: 'garantia', nombre: 'Garantía.pdf' });
    const [entrada] = await auditadas(server, 'expediente.documento', { actor: quien.solicitante.u.id, objetivo: id });
    expect(entrada).toMatchObject({ targetType: 'expediente', distribuidoras: ['epd'] });
    expect(entrada!.details).toEqual({
      documento: documentoId,
      nombre: 'Garantía.pdf',
      clase: 'garantia',
      bytes: secreto.length,
      sha256: sha(secreto),
      lado: 'solicitante',
    });
    expect(JSON.stringify(entrada)).not.toContain('CONTENIDO-QUE-NO-SE-AUDITA');
  });

  it('cada descarga queda con quién descargó qué documento', async () => {
    const id = await presentado();
    const documentoId = await subido(quien.solicitante.token, id);
    await (await descargar(quien.epd.token, id, documentoId)).arrayBuffer();
    const entradas = await auditadas(server, 'expediente.documento.descarga', { actor: quien.epd.a.id, objetivo: id });
    expect(entradas.map((e) => (e.details as { documento: string }).documento)).toEqual([documentoId]);
  });

  it('quitar un documento queda en la auditoría', async () => {
    const id = await expediente();
    const documentoId = await subido(quien.solicitante.token, id);
    await quitar(quien.solicitante.token, id, documentoId);
    const entradas = await auditadas(server, 'expediente.documento.borrado', { actor: quien.solicitante.u.id, objetivo: id });
    expect(entradas.map((e) => (e.details as { documento: string }).documento)).toEqual([documentoId]);
  });
});
