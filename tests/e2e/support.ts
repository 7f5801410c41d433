/** Helpers shared by the browser tests. */
import { mkdirSync, readdirSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import { calendarioDe } from '../../src/lib/expedientes/calendarios.ts';
import { diaDe, esHabil } from '../../src/lib/expedientes/plazos.ts';

/** The widths every public page is checked at: desktop and a phone. */
export const WIDTHS = [
  { name: 'escritorio', width: 1280, height: 800 },
  { name: 'movil', width: 390, height: 844 },
] as const;

/** A width a screen is checked at. */
export interface Ancho {
  name: string;
  width: number;
  height: number;
}

/** The widths a private screen is checked at: desktop, a phone, and the narrowest phone the portal supports. */
export const ANCHOS_REVISION: readonly Ancho[] = [...WIDTHS, { name: 'estrecho', width: 320, height: 720 }];

/**
 * axe, no sideways scrolling of the page, and a full-page screenshot (`<SHOTS_DIR>/<nombre>-<width>.png`,
 * /tmp/shots-e2e by default) at every width; the page is left at 1280 × 800.
 */
export async function revisarAnchos(page: Page, nombre: string, anchos: readonly Ancho[] = ANCHOS_REVISION): Promise<void> {
  const dir = process.env['SHOTS_DIR'] ?? '/tmp/shots-e2e';
  mkdirSync(dir, { recursive: true });
  for (const w of anchos) {
    await page.setViewportSize({ width: w.width, height: w.height });
    await expectNoAxeViolations(page, `${nombre} (${w.name})`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `${nombre} a ${w.width} px`).toBeLessThanOrEqual(w.width);
    await page.screenshot({ path: join(dir, `${nombre}-${w.width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** Paths of every built page, read from dist/ (the shell pages by a path that reaches them). */
export function builtPages(): string[] {
  const dist = resolve(process.env.DIST_DIR ?? 'dist');
  const pages = readdirSync(dist, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name === 'index.html')
    .map((e) => '/' + relative(dist, e.parentPath).split(sep).join('/'))
    .map((p) => (p === '/' ? '/' : p.replace(/\/$/, '')));
  return pages
    .map((p) =>
      p === '/area-privada-shell'
        ? '/inicio'
        : p.startsWith('/sesion/activar-usuario') || p.startsWith('/sesion/nueva-clave') || p.startsWith('/sesion/confirmar-email')
          ? `${p}/id-de-prueba`
          : p,
    )
    .sort();
}

/** Records Content-Security-Policy violations in the page, so a test can assert there were none. */
export async function watchCsp(page: Page): Promise<() => Promise<string[]>> {
  const violations: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error' && /Content Security Policy/i.test(msg.text())) violations.push(msg.text());
  });
  return async () => violations;
}

/** Runs axe with the WCAG 2.2 A/AA rules and fails with the list of violations. */
export async function expectNoAxeViolations(page: Page, label: string): Promise<void> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    // Only the violations are read: axe then skips collecting every passing and incomplete node, a
    // fifth to a third of each run measured on these pages (axe-core's documented `resultTypes`).
    .options({ resultTypes: ['violations'] })
    .analyze();
  const summary = results.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(summary, `axe en ${label}`).toEqual([]);
}

/** Password of every demo account (src/server/demo/accounts.ts). */
export const DEMO_PASSWORD = 'Demo1234';

/**
 * Logs in as the browser does (`POST /api/accesoUsuario`, which sets the refresh cookie in this
 * page's context), then opens `destino` (/inicio by default) and waits until the private app shows
 * it: the app restores the session from the cookie, as after a reload (the app's root carries
 * `data-estado="listo"` once the session is known and the page rendered). The login page itself is
 * tested by typing into it in sesion.spec.ts and sesion-pantallas.spec.ts; doing it before every
 * other test only spent a page load and a hydration each.
 */
export async function entrar(page: Page, email: string, password: string = DEMO_PASSWORD, destino?: string): Promise<void> {
  const r = await page.request.post('/api/accesoUsuario', {
    headers: { Authorization: `Basic ${Buffer.from(`${email}:${password}`, 'utf8').toString('base64')}` },
  });
  expect(r.status(), `login de ${email}`).toBe(200);
  await page.goto(destino ?? '/inicio');
  await esperarAppPrivada(page);
}

/** Waits until the private app has restored the session and rendered a screen. */
export async function esperarAppPrivada(page: Page): Promise<void> {
  await expect(page.locator('[data-app-privada][data-estado="listo"]')).toBeVisible();
  // Screens load lazily: until the screen's code arrives the app shows its own loading state, with
  // no heading yet (axe once ran there and found no h1).
  await expect(page.locator('.priv-cargando')).toHaveCount(0);
}

/**
 * The business days a deadline of `dias` filed today at a distributor shows left: a filing on a
 * non-business day counts from the next business day (Ley 39/2015 art. 31.2.b), which is then left
 * too. The browser tests run on the real date, so what they expect follows the day they run on.
 */
export function habilesQuedanAlPresentar(dias: number, distribuidora: string): number {
  return esHabil(diaDe(Date.now()), calendarioDe({ distribuidora })) ? dias : dias + 1;
}
