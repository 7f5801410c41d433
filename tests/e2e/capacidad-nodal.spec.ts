import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { SUBESTACIONES_DEMO } from '../../src/server/capacidad-nodal/demo.ts';
import { WIDTHS, expectNoAxeViolations, watchCsp } from './support.ts';

/** How many demo nodes a distributor has: one per voltage level of each demo substation. */
const demoNodes = (codigo: 'epd' | 'eod') => SUBESTACIONES_DEMO[codigo].reduce((n, s) => n + s.niveles.length, 0);

const rows = (page: Page) => page.locator('.cn-tabla tbody tr[id]');
const circles = (page: Page) => page.locator('svg.cn-puntos circle');
/** The numbers of one column of the table, by its header's position. */
async function columnNumbers(page: Page, column: number): Promise<number[]> {
  const texts = await page.locator(`.cn-tabla tbody tr[id] > :nth-child(${column})`).allInnerTexts();
  return texts.map((t) => Number(t.trim().replace(/\./g, '').replace(',', '.')));
}

async function openLoaded(page: Page, codigo: 'epd' | 'eod') {
  await page.goto(`/capacidad-nodal/${codigo}`);
  await expect(page.getByRole('status')).toContainText(`Se muestran ${demoNodes(codigo)} nudos`);
}

test('la página de EPD muestra la tabla con los nudos de demostración y sus avisos legales', async ({ page }) => {
  await openLoaded(page, 'epd');
  await expect(page).toHaveTitle(/^Capacidad de acceso — Electra Peninsular Distribución, S\.L\. \|/);
  await expect(page.locator('meta[name="portal-page"]')).toHaveAttribute('content', 'capacidad-nodal-epd');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Capacidad de acceso para generación y demanda');
  await expect(page.getByText('artículo 5 del Real Decreto 1183/2020')).toBeVisible();
  await expect(page.getByText('No son simultáneas ni se pueden sumar')).toBeVisible();
  await expect(rows(page)).toHaveCount(demoNodes('epd'));
  await expect(page.getByRole('row', { name: /Getafe Norte/ }).first()).toContainText('EPD-S03-66');
  await expect(page.locator('.cn-publicacion time')).toHaveAttribute('datetime', /^\d{4}-\d{2}$/);
});

test('ordena por capacidad disponible con el ratón y con el teclado', async ({ page }) => {
  await openLoaded(page, 'epd');
  const header = page.getByRole('columnheader', { name: /Disponible \(MW\)/ });
  await header.getByRole('button').click();
  await expect(header).toHaveAttribute('aria-sort', 'ascending');
  const asc = await columnNumbers(page, 3);
  expect(asc).toEqual([...asc].sort((a, b) => a - b));
  expect(asc[0]).toBe(0);

  await header.getByRole('button').focus();
  await page.keyboard.press('Enter');
  await expect(header).toHaveAttribute('aria-sort', 'descending');
  const desc = await columnNumbers(page, 3);
  expect(desc).toEqual([...asc].sort((a, b) => b - a));
  expect(desc[0]).toBeGreaterThan(0);
  await expect(page.getByRole('columnheader', { name: /Provincia/ })).not.toHaveAttribute('aria-sort');
});

test('los filtros reducen las filas y los puntos del mapa, y lo anuncian', async ({ page }) => {
  await openLoaded(page, 'epd');
  const total = demoNodes('epd');
  await expect(page.locator('svg.mapa-base .mapa-provincias path')).toHaveCount(52);
  await expect(circles(page)).toHaveCount(total);

  await page.getByLabel('Provincia').selectOption('Toledo');
  const toledo = SUBESTACIONES_DEMO.epd.filter((s) => s.provincia === 'Toledo').reduce((n, s) => n + s.niveles.length, 0);
  await expect(rows(page)).toHaveCount(toledo);
  await expect(circles(page)).toHaveCount(toledo);
  await expect(page.getByRole('status')).toContainText(`Se muestran ${toledo} nudos de ${total}`);
  for (const province of await page.locator('.cn-tabla tbody tr[id] > :nth-child(7)').allInnerTexts()) expect(province).toBe('Toledo');

  await page.getByRole('button', { name: 'Quitar filtros' }).first().click();
  await page.getByLabel('Disponible mínimo (MW)').fill('10');
  const count = await rows(page).count();
  expect(count).toBeGreaterThan(0);
  expect(count).toBeLessThan(total);
  await expect(circles(page)).toHaveCount(count);
  for (const mw of await columnNumbers(page, 3)) expect(mw).toBeGreaterThanOrEqual(10);

  await page.getByLabel('Disponible mínimo (MW)').fill('');
  await page.getByLabel('Subestación o municipio').fill('alcala');
  await expect(rows(page)).toHaveCount(2);
  await expect(rows(page).first()).toContainText('Alcalá de Henares');
});

test('cada punto del mapa tiene nombre accesible y lleva a su fila de la tabla', async ({ page }) => {
  await openLoaded(page, 'epd');
  const point = page.getByRole('link', { name: /^Getafe Norte 66 kV \(Getafe\): [\d,]+ MW disponibles para generación$/ });
  await expect(point).toHaveCount(1);
  await point.focus();
  await page.keyboard.press('Enter');
  const row = page.getByRole('row', { name: /Getafe Norte EPD-S03-66/ });
  await expect(row).toBeFocused();
  await expect(row).toHaveClass(/cn-fila--activa/);
});

test('el enlace Descargar CSV descarga la publicación para Excel', async ({ page }) => {
  await openLoaded(page, 'epd');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Descargar CSV' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^capacidad-nodal-epd-\d{4}-\d{2}\.csv$/);
  const bytes = readFileSync(await download.path());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = bytes.toString('utf8').slice(1).trimEnd().split('\r\n');
  expect(lines[0]).toMatch(/^Comunidad Autónoma;Provincia;Municipio;Subestación;Identificador del Punto de Conexión;/);
  expect(lines).toHaveLength(demoNodes('epd') + 1);
  expect(lines.find((l) => l.includes(';EPD-S03-66;'))).toMatch(
    /^Comunidad de Madrid;Madrid;Getafe;Getafe Norte;EPD-S03-66;40,\d+;-3,\d+;66;[\d,]+;[\d,]+;[\d,]+;Villaverde 220;/,
  );
});

test('la página de EOD carga sus nudos', async ({ page }) => {
  await openLoaded(page, 'eod');
  await expect(page).toHaveTitle(/^Capacidad de acceso — Electra Occidental Distribución, S\.L\. \|/);
  await expect(rows(page)).toHaveCount(demoNodes('eod'));
  await expect(circles(page)).toHaveCount(demoNodes('eod'));
  await expect(page.getByRole('link', { name: 'Descargar CSV' })).toHaveAttribute('href', '/api/capacidadNodal/eod/csv');
});

test('si la API falla lo dice, y Reintentar vuelve a cargar los nudos', async ({ page }) => {
  let fail = true;
  await page.route('**/api/capacidadNodal/epd', (route) =>
    fail
      ? route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ message: 'Servicio en mantenimiento.' }) })
      : route.continue(),
  );
  await page.goto('/capacidad-nodal/epd');
  await expect(page.getByRole('alert')).toContainText(
    'No se ha podido cargar la capacidad de generación publicada. Servicio en mantenimiento.',
  );
  fail = false;
  await page.getByRole('button', { name: 'Reintentar' }).click();
  await expect(rows(page)).toHaveCount(demoNodes('epd'));
});

for (const size of WIDTHS) {
  test(`capacidad nodal de EPD a ${size.width} px: sin fallos de axe ni de CSP, tabla desplazable`, async ({ page }, info) => {
    // axe over a table of fifty rows and a map of fifty links takes a while on a busy machine.
    test.setTimeout(90_000);
    await page.setViewportSize({ width: size.width, height: size.height });
    const csp = await watchCsp(page);
    await openLoaded(page, 'epd');
    await expectNoAxeViolations(page, `capacidad nodal EPD (${size.name})`);
    // The page itself never scrolls sideways; only the table's own region may.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);
    await page.locator('.cn-mapa-y-leyenda').scrollIntoViewIfNeeded();
    await page.screenshot({ path: info.outputPath(`capacidad-nodal-epd-${size.width}.png`) });
    expect(await csp()).toEqual([]);
  });
}
