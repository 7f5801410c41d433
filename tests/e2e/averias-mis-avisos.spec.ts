/**
 * A fault report filed at the public "No tengo luz" page, without a session, is found again in the
 * private area: the demo household's interruptions screen lists it under «Mis avisos de avería» with
 * its reference, supply point, filing time, status and what happens next. axe and no sideways
 * scrolling at desktop and phone widths, with screenshots.
 *
 * The household's Mérida supply point (EOD, CUPS id 1) has nothing that explains a lack of power
 * (tests/e2e/averias.spec.ts), so the public query registers a report, or answers the pending one.
 */
import { expect, test } from '@playwright/test';
import { construirCups } from '../../src/lib/cups.ts';
import { CONSUMIDOR, foto } from './medidas-support.ts';
import { DEMO_PASSWORD, entrar, expectNoAxeViolations, WIDTHS } from './support.ts';

const MERIDA_CONSUMIDOR = construirCups('9902', 1);

for (const w of WIDTHS) {
  test(`el hogar encuentra en el área privada el aviso que dio en la página pública (${w.width} px)`, async ({ page }) => {
    test.setTimeout(60_000);
    await page.setViewportSize({ width: w.width, height: w.height });
    await page.goto('/no-tengo-luz');
    await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
    await page.getByLabel('CUPS del punto de suministro').fill(MERIDA_CONSUMIDOR);
    await page.getByRole('button', { name: 'Consultar' }).click();
    // The second width finds the first one's report pending: the same reference is answered.
    const linea = page.getByText(/^Referencia: AV-\d{4}-\d{6}\./);
    await expect(linea).toBeVisible();
    const texto = await linea.textContent();
    const referencia = /AV-\d{4}-\d{6}/.exec(texto!)![0];

    await entrar(page, CONSUMIDOR, DEMO_PASSWORD, '/medidas/interrupciones');
    const avisos = page.getByRole('region', { name: 'Mis avisos de avería' });
    const aviso = avisos.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 3, name: `Aviso ${referencia}` }) });
    await expect(aviso).toHaveCount(1);
    await expect(aviso).toContainText(MERIDA_CONSUMIDOR);
    await expect(aviso).toContainText('En revisión');
    await expect(aviso.locator('time')).toHaveText(/^\d{1,2} de [a-z]+ de \d{4}, \d{2}:\d{2}$/);
    await expect(aviso.getByRole('link', { name: /^\d{3} \d{3} \d{3}$/ })).toHaveAttribute('href', /^tel:\+34\d{9}$/);
    await expect(page.getByRole('status').filter({ hasText: /interrupci/ })).toBeVisible();
    await aviso.scrollIntoViewIfNeeded();
    await foto(page, `mis-avisos-${w.width}`);
    await expectNoAxeViolations(page, `/medidas/interrupciones con avisos a ${w.width} px`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(w.width);
  });
}
