/**
 * Set-up through the API for browser tests: a demo account's session in a request context of its own
 * (the page's would carry the session cookie), to prepare or move a case as another person would from
 * elsewhere, and a small PDF to upload.
 */
import { expect, request, type APIRequestContext } from '@playwright/test';
import { E2E_PORT } from '../../playwright.config.ts';
import { DEMO_PASSWORD } from './support.ts';

/** A small valid-looking PDF, as a file input takes it. */
export const pdfPrueba = (name: string) => ({
  name,
  mimeType: 'application/pdf',
  buffer: Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n'),
});

/** The API as a demo account: JSON calls that must succeed, a document upload, and `fin` to close it. */
export async function apiComo(email: string) {
  const ctx: APIRequestContext = await request.newContext({ baseURL: `http://127.0.0.1:${E2E_PORT}` });
  const login = await ctx.post('/api/accesoUsuario', {
    headers: { Authorization: `Basic ${Buffer.from(`${email}:${DEMO_PASSWORD}`).toString('base64')}` },
  });
  expect(login.status()).toBe(200);
  const auth = { Authorization: `Bearer ${((await login.json()) as { jwtToken: string }).jwtToken}` };
  return {
    async enviar<T>(metodo: 'GET' | 'POST' | 'PUT', path: string, data?: unknown): Promise<T> {
      const r = await ctx.fetch(path, { method: metodo, headers: auth, ...(data === undefined ? {} : { data }) });
      expect(r.status(), `${metodo} ${path}: ${await r.text()}`).toBeLessThan(300);
      return (await r.json()) as T;
    },
    async subir(id: string, clase: string, nombre: string) {
      const r = await ctx.post(`/api/expedientes/${id}/documentos?clase=${clase}&nombre=${encodeURIComponent(nombre)}`, {
        headers: { ...auth, 'Content-Type': 'application/octet-stream' },
        data: pdfPrueba(nombre).buffer,
      });
      expect(r.status(), await r.text()).toBe(201);
    },
    fin: () => ctx.dispose(),
  };
}
