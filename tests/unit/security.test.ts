import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cacheControlFor } from '../../src/server/site/static-files.ts';
import { contentSecurityPolicy, inlineScriptHashes } from '../../src/server/http/security.ts';

describe('CSP', () => {
  it('hashes inline scripts exactly as browsers do, and ignores external and JSON scripts', () => {
    const html =
      '<script>a()</script><script src="/x.js"></script><script type="application/ld+json">{}</script><script type="module">b()</script>';
    const sha = (s: string) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`;
    expect(inlineScriptHashes(html)).toEqual([sha('a()'), sha('b()')]);
  });

  it('never allows unsafe-inline or eval scripts, and forbids framing', () => {
    const csp = contentSecurityPolicy(["'sha256-abc'"], false);
    const script = csp.split('; ').find((d) => d.startsWith('script-src'))!;
    expect(script).toBe("script-src 'self' 'wasm-unsafe-eval' 'sha256-abc'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("'unsafe-eval'");
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(contentSecurityPolicy([], true)).toContain('upgrade-insecure-requests');
  });
});

describe('cache policy', () => {
  it.each(['/_astro/index.Ab12Cd.js', '/pagefind/fragment/es_1a2b.pf_fragment'])('is immutable for the hashed asset %s', (ruta) => {
    expect(cacheControlFor(ruta)).toContain('immutable');
  });

  it.each([
    ['/index.html', 'no-cache'],
    ['/media/hero.mp4', 'public, max-age=86400, must-revalidate'],
  ])('is, for %s, %s', (ruta, politica) => {
    expect(cacheControlFor(ruta)).toBe(politica);
  });
});
