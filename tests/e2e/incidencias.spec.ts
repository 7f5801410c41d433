/**
 * The network interruptions page against the demo data (src/server/incidencias/demo.ts): list,
 * filters, the query by CUPS, and accessibility at both widths. The home banner is tested with the
 * home page.
 */
import { expect, test, type Page } from '@playwright/test';
import { construirCups, MENSAJES_CUPS } from '../../src/lib/cups.ts';
import { WIDTHS, expectNoAxeViolations, watchCsp } from './support.ts';

/** EPD supply point 1: the demo lists it in the scheduled works at Alcalá de Henares. */
const CUPS_DEMO = construirCups('9901', 1);

/** Opens the page and waits until the list has arrived. */
async function abrir(page: Page): Promise<void> {
  await page.goto('/incidencias-red');
  await expect(page.locator('.listado .recuento')).toHaveText(/^Hay \d+ interrupciones programadas o activas\.$/);
}

const tarjetasDelListado = (page: Page) => page.locator('.listado .tarjeta');
const estadosDelListado = (page: Page) => page.locator('.listado .tarjeta .estado');

test('la lista muestra las interrupciones abiertas de la demostración, agrupadas por distribuidora', async ({ page }) => {
  await abrir(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Interrupciones de la red' })).toBeVisible();
  for (const nombre of ['Electra Peninsular', 'Electra Occidental', 'Electra Cantábrica']) {
    await expect(page.getByRole('heading', { level: 3, name: new RegExp(nombre) })).toBeVisible();
  }
  const aranjuez = tarjetasDelListado(page).filter({ hasText: 'Aranjuez' });
  await expect(aranjuez).toContainText('Activa');
  await expect(aranjuez).toContainText('Avería en línea de media tensión');
  await expect(aranjuez.locator('time').first()).toHaveText(/\d{1,2} \w+ \d{4}, \d{1,2}:\d{2}/);
  // Closed incidents are never published.
  await expect(tarjetasDelListado(page).filter({ hasText: 'Ávila' })).toHaveCount(0);
  const total = Number(/Hay (\d+)/.exec((await page.locator('.listado .recuento').textContent()) ?? '')?.[1]);
  await expect(tarjetasDelListado(page)).toHaveCount(total);
});

test('el filtro por distribuidora deja solo sus interrupciones y anuncia cuántas son', async ({ page }) => {
  await abrir(page);
  const total = await tarjetasDelListado(page).count();
  await page.getByLabel('Distribuidora').selectOption('eod');
  await expect(page.getByRole('heading', { level: 3 })).toHaveText([/^Electra Occidental Distribución/]);
  const visibles = await tarjetasDelListado(page).count();
  expect(visibles).toBeGreaterThan(0);
  expect(visibles).toBeLessThan(total);
  await expect(page.locator('.listado .recuento')).toHaveText(`Se muestran ${visibles} de ${total} interrupciones.`);
  await expect(page.locator('.listado .recuento')).toHaveAttribute('aria-live', 'polite');
});

test('el filtro por estado deja solo las interrupciones de ese estado', async ({ page }) => {
  await abrir(page);
  // Retrying assertions: each holds once the list has re-rendered for the chosen state.
  for (const estado of ['Programada', 'En curso']) {
    await page.getByLabel('Estado').selectOption(estado);
    await expect(estadosDelListado(page).first()).toBeVisible();
    await expect(estadosDelListado(page).filter({ hasNotText: estado })).toHaveCount(0);
  }
});

test('los filtros sin resultados lo dicen y se pueden quitar', async ({ page }) => {
  await abrir(page);
  const total = await tarjetasDelListado(page).count();
  // The demo has no fault at EOD.
  await page.getByLabel('Distribuidora').selectOption('eod');
  await page.getByLabel('Estado').selectOption('Activa');
  await expect(page.getByText('Ninguna interrupción coincide con los filtros elegidos.')).toBeVisible();
  await expect(tarjetasDelListado(page)).toHaveCount(0);
  await page.getByRole('button', { name: 'Quitar los filtros' }).click();
  await expect(tarjetasDelListado(page)).toHaveCount(total);
});

test('la búsqueda encuentra por municipio sin tildes y por código postal', async ({ page }) => {
  await abrir(page);
  const buscar = page.getByLabel('Municipio o código postal');
  await buscar.fill('alcala');
  await expect(tarjetasDelListado(page)).toHaveCount(1);
  await expect(tarjetasDelListado(page)).toContainText('Alcalá de Henares');
  await buscar.fill('39300');
  await expect(tarjetasDelListado(page)).toHaveCount(1);
  await expect(tarjetasDelListado(page)).toContainText('Torrelavega');
});

test('ordenar por municipio ordena cada distribuidora alfabéticamente', async ({ page }) => {
  await abrir(page);
  await page.getByLabel('Ordenar por').selectOption('municipio');
  const grupo = page.locator('.listado .grupo').first();
  const lugares = (await grupo.locator('.tarjeta__lugar').allTextContents()).map((t) => t.replace(/\s*\(.*\)$/, ''));
  expect(lugares).toEqual([...lugares].sort((a, b) => a.localeCompare(b, 'es')));
});

test('la consulta de un CUPS de la demostración muestra las interrupciones que le afectan', async ({ page }) => {
  await abrir(page);
  await page.getByLabel('CUPS del punto de suministro').fill(CUPS_DEMO.toLowerCase());
  await page.getByRole('button', { name: 'Consultar' }).click();
  const resultado = page.locator('.consulta__resultado');
  await expect(resultado).toContainText(`que afecta al punto de suministro ${CUPS_DEMO}`);
  await expect(resultado.locator('.tarjeta')).toHaveCount(1);
  await expect(resultado.locator('.tarjeta')).toContainText('Alcalá de Henares');
  await expect(resultado.locator('.tarjeta')).toContainText('Electra Peninsular Distribución, S.L.');
});

test('un CUPS válido que no aparece en ninguna interrupción lo dice', async ({ page }) => {
  await abrir(page);
  await page.getByLabel('CUPS del punto de suministro').fill(construirCups('9903', 987_654));
  await page.getByRole('button', { name: 'Consultar' }).click();
  await expect(page.locator('.consulta__resultado')).toHaveText(
    'No hay interrupciones programadas ni activas que afecten a este punto de suministro.',
  );
});

test('un CUPS mal formado se corrige en el navegador, sin llamar a la API', async ({ page }) => {
  await abrir(page);
  const consultas: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST') consultas.push(r.url());
  });
  const campo = page.getByLabel('CUPS del punto de suministro');
  await campo.fill('ES0021 0000');
  await page.getByRole('button', { name: 'Consultar' }).click();
  await expect(page.locator('.error-campo')).toHaveText(`Error: ${MENSAJES_CUPS.longitud}`);
  await expect(campo).toHaveAttribute('aria-invalid', 'true');
  await expect(campo).toHaveAccessibleDescription(new RegExp(MENSAJES_CUPS.longitud.slice(0, 30)));
  await expect(campo).toBeFocused();
  await expect(campo).toHaveValue('ES0021 0000');
  expect(consultas).toEqual([]);
});

test('un CUPS con letras de control erróneas muestra su mensaje', async ({ page }) => {
  await abrir(page);
  const erroneo = CUPS_DEMO.slice(0, 18) + (CUPS_DEMO[18] === 'T' ? 'R' : 'T') + CUPS_DEMO[19];
  const campo = page.getByLabel('CUPS del punto de suministro');
  await campo.fill(erroneo);
  await campo.press('Enter');
  await expect(page.locator('.error-campo')).toContainText(MENSAJES_CUPS.control);
  await expect(campo).toBeFocused();
  await expect(campo).toHaveValue(erroneo);
});

test('el mensaje de un 400 del servidor aparece junto al campo', async ({ page }) => {
  await page.route('**/api/incidenciasRed', async (route) => {
    if (route.request().method() !== 'POST') return route.fallback();
    await route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify(['Mensaje del servidor.']) });
  });
  await abrir(page);
  const campo = page.getByLabel('CUPS del punto de suministro');
  await campo.fill(CUPS_DEMO);
  await page.getByRole('button', { name: 'Consultar' }).click();
  await expect(page.locator('.error-campo')).toHaveText('Error: Mensaje del servidor.');
  await expect(campo).toBeFocused();
});

test('si la API no responde, la lista lo dice y permite reintentar', async ({ page }) => {
  let fallar = true;
  await page.route('**/api/incidenciasRed', (route) => (fallar ? route.fulfill({ status: 503, body: '' }) : route.fallback()));
  await page.goto('/incidencias-red');
  await expect(page.getByText('No se ha podido consultar el estado de la red. Inténtelo más tarde.')).toBeVisible();
  fallar = false;
  await page.getByRole('button', { name: 'Reintentar' }).click();
  await expect(page.locator('.listado .recuento')).toHaveText(/^Hay \d+ interrupciones/);
});

for (const size of WIDTHS) {
  test(`la página es accesible a ${size.width} px, con la lista, un resultado y un error`, async ({ page }) => {
    // Four axe passes and three screenshots: more than the default budget on a busy machine.
    test.slow();
    await page.setViewportSize({ width: size.width, height: size.height });
    const csp = await watchCsp(page);
    await abrir(page);
    await expectNoAxeViolations(page, `incidencias-red con la lista (${size.name})`);
    await page.screenshot({ path: `/tmp/incidencias-red-${size.width}.png`, fullPage: true });

    await page.getByLabel('CUPS del punto de suministro').fill(CUPS_DEMO);
    await page.getByRole('button', { name: 'Consultar' }).click();
    await expect(page.locator('.consulta__resultado .tarjeta')).toHaveCount(1);
    await expectNoAxeViolations(page, `incidencias-red con un resultado (${size.name})`);
    await page.locator('.consulta').screenshot({ path: `/tmp/incidencias-red-${size.width}-resultado.png` });

    await page.getByLabel('CUPS del punto de suministro').fill('XX12');
    await page.getByRole('button', { name: 'Consultar' }).click();
    await expect(page.locator('.error-campo')).toBeVisible();
    await expectNoAxeViolations(page, `incidencias-red con un error (${size.name})`);
    await page.locator('.consulta').screenshot({ path: `/tmp/incidencias-red-${size.width}-error.png` });

    await page.getByLabel('Distribuidora').selectOption('eod');
    await page.getByLabel('Estado').selectOption('Activa');
    await expect(page.getByText('Ninguna interrupción coincide con los filtros elegidos.')).toBeVisible();
    await expectNoAxeViolations(page, `incidencias-red sin resultados (${size.name})`);
    expect(await csp()).toEqual([]);
  });
}
