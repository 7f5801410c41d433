/**
 * The OpenAPI document describes every field where integrators read it: each property of each
 * schema, each parameter, in Spanish. The test walks the served document and lists what lacks a
 * description, so a new field without one fails with its place named.
 */
import { describe, expect, it } from 'vitest';
import { unaVez } from '../support/ganchos.ts';
import { servidorDelFichero } from '../support/server.ts';

interface Esquema {
  $ref?: string;
  description?: string;
  properties?: Record<string, Esquema>;
  items?: Esquema;
  allOf?: Esquema[];
  anyOf?: Esquema[];
  oneOf?: Esquema[];
}

interface Documento {
  components: { schemas: Record<string, Esquema> };
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { name: string; in: string; description?: string }[];
        requestBody?: { content: Record<string, { schema: Esquema }> };
        responses?: Record<string, { content?: Record<string, { schema: Esquema }> }>;
      }
    >
  >;
}

/** Where each property without a description is, as `Esquema.campo.subcampo`. */
function sinDescripcion(esquema: Esquema | undefined, donde: string, faltan: string[]): void {
  if (!esquema || esquema.$ref) return;
  for (const [nombre, propiedad] of Object.entries(esquema.properties ?? {})) {
    // A property that is a reference is described by the schema it names.
    if (!propiedad.$ref && !propiedad.description?.trim()) faltan.push(`${donde}.${nombre}`);
    sinDescripcion(propiedad, `${donde}.${nombre}`, faltan);
  }
  sinDescripcion(esquema.items, `${donde}[]`, faltan);
  for (const lista of [esquema.allOf, esquema.anyOf, esquema.oneOf]) for (const parte of lista ?? []) sinDescripcion(parte, donde, faltan);
}

const server = servidorDelFichero();
const doc = unaVez(async () => (await (await server.fetch('/api/openapi.json')).json()) as Documento);

describe('the OpenAPI document', () => {
  it('describes every property of every named schema', () => {
    const faltan: string[] = [];
    for (const [nombre, esquema] of Object.entries(doc.components.schemas)) sinDescripcion(esquema, nombre, faltan);
    expect(faltan).toEqual([]);
  });

  it('describes every parameter, and every property of the bodies and answers written in place', () => {
    const faltan: string[] = [];
    for (const [ruta, operaciones] of Object.entries(doc.paths)) {
      for (const [metodo, op] of Object.entries(operaciones)) {
        const donde = `${metodo.toUpperCase()} ${ruta}`;
        for (const p of op.parameters ?? []) if (!p.description?.trim()) faltan.push(`${donde} (${p.in}) ${p.name}`);
        for (const c of Object.values(op.requestBody?.content ?? {})) sinDescripcion(c.schema, `${donde} cuerpo`, faltan);
        for (const [codigo, r] of Object.entries(op.responses ?? {})) {
          for (const c of Object.values(r.content ?? {})) sinDescripcion(c.schema, `${donde} ${codigo}`, faltan);
        }
      }
    }
    expect(faltan).toEqual([]);
  });
});
