/** A readable, script-free HTML page generated from the OpenAPI document. */

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

interface Operation {
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: Json }[];
  requestBody?: { content?: Record<string, { schema?: Json }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: Json }> }>;
  security?: unknown[];
}

/** The parts of an OpenAPI 3.1 document the page shows. */
export interface OpenApiDoc {
  info: { title: string; version: string; description?: string };
  paths?: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Json> };
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** Escapes text for HTML. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

function schemaBlock(schema: Json | undefined): string {
  if (schema === undefined) return '';
  return `<pre>${escapeHtml(JSON.stringify(schema, null, 2))}</pre>`;
}

function operationHtml(path: string, method: string, op: Operation): string {
  const id = `${method}-${path}`.replace(/[^a-zA-Z0-9]+/g, '-');
  const params = (op.parameters ?? [])
    .map(
      (p) =>
        `<li><code>${escapeHtml(p.name)}</code> (${escapeHtml(p.in)}${p.required ? ', obligatorio' : ''})${
          p.description ? ': ' + escapeHtml(p.description) : ''
        }</li>`,
    )
    .join('');
  const body = Object.entries(op.requestBody?.content ?? {})
    .map(([type, c]) => `<h4>Cuerpo (${escapeHtml(type)})</h4>${schemaBlock(c.schema)}`)
    .join('');
  const responses = Object.entries(op.responses ?? {})
    .map(
      ([status, r]) =>
        `<li><strong>${escapeHtml(status)}</strong> ${escapeHtml(r.description ?? '')}${Object.entries(r.content ?? {})
          .map(([, c]) => `<details><summary>Esquema</summary>${schemaBlock(c.schema)}</details>`)
          .join('')}</li>`,
    )
    .join('');
  return `<section id="${id}" aria-labelledby="${id}-h">
<h3 id="${id}-h"><span class="m m-${method}">${method.toUpperCase()}</span> <code>/api${escapeHtml(path)}</code></h3>
${op.summary ? `<p>${escapeHtml(op.summary)}</p>` : ''}${op.description ? `<p>${escapeHtml(op.description)}</p>` : ''}
${op.security?.length ? '<p>Requiere <code>Authorization: Bearer &lt;jwtToken&gt;</code>.</p>' : ''}
${params ? `<h4>Parámetros</h4><ul>${params}</ul>` : ''}${body}
<h4>Respuestas</h4><ul>${responses}</ul></section>`;
}

/** Renders the whole page: an index of operations, then each one with its schemas. */
export function renderApiDocs(doc: OpenApiDoc): string {
  const ops: { path: string; method: string; op: Operation }[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (op) ops.push({ path, method, op });
    }
  }
  ops.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
  const index = ops
    .map(({ path, method, op }) => {
      const id = `${method}-${path}`.replace(/[^a-zA-Z0-9]+/g, '-');
      return `<li><a href="#${id}">${method.toUpperCase()} /api${escapeHtml(path)}</a>${op.summary ? ` — ${escapeHtml(op.summary)}` : ''}</li>`;
    })
    .join('');
  return `<!doctype html>
<html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>API del portal — ${escapeHtml(doc.info.title)}</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:0 auto;padding:1rem;color:#1a1a1a}
pre{background:#f4f5f7;padding:.75rem;overflow:auto;font-size:.85rem}
section{border-top:1px solid #ccd;padding:.5rem 0}
.m{display:inline-block;min-width:4.5rem;padding:0 .4rem;border-radius:4px;color:#fff;font-size:.9rem;text-align:center}
.m-get{background:#1f6f3f}.m-post{background:#1d4f91}.m-put,.m-patch{background:#7a4a00}.m-delete{background:#a11}
a{color:#0b4f9c}
</style></head><body><main>
<h1>${escapeHtml(doc.info.title)} <small>v${escapeHtml(doc.info.version)}</small></h1>
${doc.info.description ? `<p>${escapeHtml(doc.info.description)}</p>` : ''}
<p>Descripción en formato OpenAPI 3.1: <a href="/api/openapi.json">/api/openapi.json</a>.</p>
<nav aria-label="Operaciones"><h2>Operaciones</h2><ul>${index}</ul></nav>
<h2>Detalle</h2>
${ops.map(({ path, method, op }) => operationHtml(path, method, op)).join('\n')}
</main></body></html>`;
}
