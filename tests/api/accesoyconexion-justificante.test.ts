/**
 * The filing receipt of an access and connection request (Ley 39/2015 arts. 16.3 and 66.3; RD
 * 1183/2020 art. 7.1): the PDF read back with unpdf states the reference, the applicant, the
 * installation, the filing moment to the second in Madrid and UTC, and each filed document with its
 * SHA-256; only the owner and the distributor's staff get it, and a draft has none.
 */
import { createHash } from 'node:crypto';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SolicitudDetalle } from '../../src/lib/accesoyconexion/respuestas.ts';
import { datosCompletos, PDF, subirPdf } from '../support/accesoyconexion.ts';
import { cuenta, llamar, sesion, type CuentaPrueba } from '../support/privado.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

let server: TestServer;
let promotor: CuentaPrueba;
let tokenPromotor: string;
let tokenOtro: string;
let tokenEcd: string;
let tokenEpd: string;

/** Monday 2 November 2026, 10:00:07 in Madrid (CET, UTC+1). */
const MOMENTO = new Date('2026-11-02T09:00:07Z');

beforeAll(async () => {
  server = await startTestServer();
  const otro = await cuenta(server, { prefijo: 'otro' });
  const gestorEcd = await cuenta(server, { prefijo: 'gestor-ecd', extra: ['ecd-administrador'] });
  const gestorEpd = await cuenta(server, { prefijo: 'gestor-epd', extra: ['epd-administrador'] });
  tokenOtro = (await sesion(server, otro.email)).jwtToken;
  tokenEcd = (await sesion(server, gestorEcd.email)).jwtToken;
  tokenEpd = (await sesion(server, gestorEpd.email)).jwtToken;
});
afterAll(async () => {
  await server.close();
});
beforeEach(async () => {
  server.clock.current = new Date(MOMENTO);
  promotor = await cuenta(server, { prefijo: 'promotor', empresa: true });
  tokenPromotor = (await sesion(server, promotor.email)).jwtToken;
});

const solicitante = (metodo: string, ruta: string, body?: unknown) =>
  llamar(server, metodo, `/api/accesoyconexion/solicitudes${ruta}`, { token: tokenPromotor, body });
const justificante = (id: string, token?: string) =>
  llamar(server, 'GET', `/api/accesoyconexion/solicitudes/${id}/justificante.pdf`, token ? { token } : {});

async function borrador(): Promise<SolicitudDetalle> {
  const res = await solicitante('POST', '', { distribuidora: 'ecd' });
  expect(res.status).toBe(201);
  return (await res.json()) as SolicitudDetalle;
}

/** A complete request filed at ECD at MOMENTO. */
async function presentada(): Promise<SolicitudDetalle> {
  const b = await borrador();
  expect((await solicitante('PUT', `/${b.id}`, datosCompletos({ potenciaKw: 48.5 }))).status).toBe(200);
  for (const clase of ['memoria', 'planos']) expect((await subirPdf(server, tokenPromotor, b.id, clase)).status).toBe(201);
  const res = await solicitante('POST', `/${b.id}/presentar`, {});
  expect(res.status).toBe(200);
  return (await res.json()) as SolicitudDetalle;
}

/** The text of a PDF, whitespace collapsed to single spaces. */
async function textoPdf(bytes: Uint8Array): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true });
  return text.replace(/\s+/g, ' ');
}

describe('GET /api/accesoyconexion/solicitudes/{id}/justificante.pdf', () => {
  it('el solicitante descarga un PDF con la referencia', async () => {
    const p = await presentada();
    const res = await justificante(p.id, tokenPromotor);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="justificante-${p.referencia}.pdf"`);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(Buffer.from(bytes.subarray(0, 5)).toString()).toBe('%PDF-');
    expect(await textoPdf(bytes)).toContain(`Número de registro ${p.referencia}`);
  });

  it('dice el momento de la presentación al segundo, en hora de Madrid y en UTC', async () => {
    const p = await presentada();
    const texto = await textoPdf(new Uint8Array(await (await justificante(p.id, tokenPromotor)).arrayBuffer()));
    expect(texto).toContain('2 de noviembre de 2026, 10:00:07 (hora peninsular, UTC+1)');
    expect(texto).toContain('2026-11-02 09:00:07 UTC');
    expect(texto).toContain('Real Decreto 1183/2020, art. 7.1');
  });

  it('nombra al solicitante, la instalación y el nudo pedido', async () => {
    const p = await presentada();
    const texto = await textoPdf(new Uint8Array(await (await justificante(p.id, tokenPromotor)).arrayBuffer()));
    expect(texto).toContain('Talleres Prueba, S.L.');
    expect(texto).toContain(promotor.nif);
    expect(texto).toContain('Autoconsumo con excedentes');
    expect(texto).toContain('48,5 kW');
    expect(texto).toContain('Getafe');
    expect(texto).toContain('Nudo de conexión pedido');
  });

  it('lista los documentos presentados con su tamaño y su SHA-256', async () => {
    const p = await presentada();
    const texto = await textoPdf(new Uint8Array(await (await justificante(p.id, tokenPromotor)).arrayBuffer()));
    const sha = createHash('sha256').update(PDF).digest('hex');
    expect(texto).toContain('1. memoria.pdf');
    expect(texto).toContain('2. planos.pdf');
    expect(texto).toContain(`${PDF.length} bytes`);
    expect(texto.split(`SHA-256: ${sha}`).length - 1).toBe(2);
  });

  it('el personal de la distribuidora también lo descarga', async () => {
    const p = await presentada();
    expect((await justificante(p.id, tokenEcd)).status).toBe(200);
  });

  it.each([
    ['otra cuenta', () => tokenOtro],
    ['el gestor de otra distribuidora', () => tokenEpd],
  ])('%s recibe 404', async (_quien, token) => {
    const p = await presentada();
    expect((await justificante(p.id, token())).status).toBe(404);
  });

  it('un borrador no tiene justificante: 409 con el motivo', async () => {
    const b = await borrador();
    const res = await justificante(b.id, tokenPromotor);
    expect(res.status).toBe(409);
    expect(((await res.json()) as { message: string }).message).toBe(
      'La solicitud aún no está presentada: el justificante se obtiene cuando se presenta.',
    );
  });

  it('sin sesión, 401', async () => {
    const p = await presentada();
    expect((await justificante(p.id)).status).toBe(401);
  });
});
