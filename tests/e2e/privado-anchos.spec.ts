/**
 * Every private screen fits at 320, 390 and 1280 px (WCAG 2.2 SC 1.4.10, reflow): no element is
 * wider than its box, so nothing is clipped, unless it is a region made to scroll (a wide table in
 * its labelled, focusable region) on a narrow screen; at 1280 px no table needs scrolling. Walked for the household, the company
 * and the administrator,
 * each on the screens its permissions open (the private routes table). Read-only.
 */
import { expect, test, type Page } from '@playwright/test';
import { RUTAS_APP } from '../../src/lib/privado/rutas-app.ts';
import { tieneArea } from '../../src/lib/permisos.ts';
import { entrar, esperarAppPrivada } from './support.ts';

const ANCHOS = [320, 390, 1280];

/**
 * The elements wider than their own box, in words, for the failure message. On a desktop screen
 * (`ancho` 1280) a region that scrolls sideways counts too: there is room to show the table whole.
 */
function desbordados(page: Page, ancho: number): Promise<string[]> {
  return page.evaluate((escritorio) => {
    const fuera: string[] = [];
    const raiz = document.documentElement;
    if (raiz.scrollWidth > raiz.clientWidth + 1) fuera.push(`la página (${raiz.scrollWidth} > ${raiz.clientWidth})`);
    for (const el of document.querySelectorAll<HTMLElement>('main *')) {
      if (el.closest('.visually-hidden') || el.matches('input, textarea, select, canvas, svg *')) continue;
      const estilo = getComputedStyle(el);
      // A region that scrolls on purpose shows all its content; only content cut off is a fault. A
      // box of 1 px is text kept for screen readers only (the visually-hidden pattern).
      const desplazable = estilo.overflowX === 'auto' || estilo.overflowX === 'scroll';
      if ((desplazable && !escritorio) || estilo.display === 'inline' || el.clientWidth <= 1) continue;
      if (el.scrollWidth > el.clientWidth + 1)
        fuera.push(
          `${el.tagName.toLowerCase()}${el.className ? `.${String(el.className).split(' ').join('.')}` : ''} (${el.scrollWidth} > ${el.clientWidth})`,
        );
    }
    return fuera.slice(0, 8);
  }, ancho >= 1280);
}

for (const cuenta of ['consumidor@electra.example', 'empresa@electra.example', 'admin@electra.example']) {
  test(`the private screens of ${cuenta} fit at ${ANCHOS.join(', ')} px`, async ({ page }) => {
    test.setTimeout(180_000);
    await entrar(page, cuenta);
    const permisos = await page.evaluate(async () => {
      const r = await fetch('/api/users/refresh-token', { method: 'POST', credentials: 'same-origin' });
      return ((await r.json()) as { Permisos: string[] }).Permisos;
    });
    // Screens without parameters that the account's permissions open.
    const rutas = RUTAS_APP.filter((r) => !r.patron.includes(':') && (r.area === null || tieneArea(permisos, r.area))).map((r) => r.patron);
    expect(rutas.length).toBeGreaterThan(3);
    const fallos: string[] = [];
    for (const ancho of ANCHOS) {
      await page.setViewportSize({ width: ancho, height: 900 });
      for (const ruta of rutas) {
        await page.goto(ruta);
        await esperarAppPrivada(page);
        await page.waitForLoadState('networkidle');
        for (const f of await desbordados(page, ancho)) fallos.push(`${ancho} px ${ruta}: ${f}`);
      }
    }
    expect(fallos).toEqual([]);
  });
}

test('the supply selector writes the chosen CUPS out in full at 320 px', async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 800 });
  await entrar(page, 'consumidor@electra.example', undefined, '/medidas/curvas');
  const cups = await page.getByLabel('Suministro', { exact: true }).inputValue();
  const escrito = page.locator('.med-campo__cups');
  await expect(escrito).toHaveText(`CUPS ${cups}`);
  const caja = (await escrito.boundingBox())!;
  expect(caja.x + caja.width).toBeLessThanOrEqual(320);
  await page.screenshot({ path: '/tmp/selector-320.png' });
});
