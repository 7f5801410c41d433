/**
 * /medidas/interrupciones ("My interruptions") through the browser: the demo household's two
 * supply points with the incidents the API gives for each (the EPD one in Alcalá is listed in the
 * scheduled works there), why each concerns it and the fault line, reached from the side menu, and
 * axe at desktop and phone widths.
 */
import { expect, test } from '@playwright/test';
import { CONSUMIDOR, clienteApi, foto } from './medidas-support.ts';
import { DEMO_PASSWORD, entrar, expectNoAxeViolations, WIDTHS } from './support.ts';

const RUTA = '/medidas/interrupciones';

interface Respuesta {
  cups: string;
  direccion: string;
  municipio: string;
  incidencias: { descripcion: string; afecta: 'suministro' | 'zona'; municipio: string }[];
}

test('shows each supply point with the interruptions that concern it, as the API gives them', async ({ page }) => {
  const api = await clienteApi(CONSUMIDOR);
  await entrar(page, CONSUMIDOR, DEMO_PASSWORD, '/inicio');
  await page.getByRole('navigation').getByRole('link', { name: 'Interrupciones en mis suministros' }).click();
  await expect(page).toHaveURL(RUTA);
  await expect(page.getByRole('heading', { level: 1, name: 'Interrupciones en mis suministros' })).toBeFocused();
  await expect(page.getByRole('status').filter({ hasText: /interrupci/ })).toBeVisible();
  const datos = await api<Respuesta[]>('/api/incidenciasRed/suministros');
  expect(datos).toHaveLength(2);

  for (const s of datos) {
    const seccion = page.getByRole('region', { name: `${s.direccion}, ${s.municipio}` });
    await expect(seccion).toContainText(s.cups);
    await expect(seccion.getByRole('article')).toHaveCount(s.incidencias.length);
    for (const i of s.incidencias) await expect(seccion).toContainText(i.descripcion);
    if (s.incidencias.length === 0)
      await expect(seccion).toContainText('No hay interrupciones programadas ni activas que afecten a este suministro.');
  }
  // The demo's scheduled works in Alcalá list the household's EPD supply point.
  const alcala = datos.find((s) => s.municipio === 'Alcalá de Henares')!;
  const listada = alcala.incidencias.find((i) => i.afecta === 'suministro');
  expect(listada).toBeDefined();
  const tarjeta = page.getByRole('article').filter({ hasText: listada!.descripcion });
  await expect(tarjeta).toContainText('Su suministro está entre los afectados por estos trabajos.');
  await expect(tarjeta.getByRole('link', { name: '900 000 001' })).toHaveAttribute('href', 'tel:+34900000001');

  await page.getByRole('link', { name: 'Interrupciones de red' }).first().click();
  await expect(page).toHaveURL('/incidencias-red');
});

for (const w of WIDTHS) {
  test(`passes axe at ${w.name} (${w.width} px)`, async ({ page }) => {
    await page.setViewportSize({ width: w.width, height: w.height });
    await entrar(page, CONSUMIDOR, DEMO_PASSWORD, RUTA);
    await expect(page.getByRole('status').filter({ hasText: /interrupci/ })).toBeVisible();
    await foto(page, `interrupciones-${w.width}`);
    await expectNoAxeViolations(page, `${RUTA} a ${w.width} px`);
    // Nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(w.width);
  });
}
