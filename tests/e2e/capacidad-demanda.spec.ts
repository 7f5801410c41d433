import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { SUBESTACIONES_DEMO } from '../../src/server/capacidad-nodal/demo.ts';
import { revisarAnchos, watchCsp } from './support.ts';

/** Demand is published for the same nodes as generation: one per voltage level of each demo substation. */
const demoNodes = (codigo: 'epd' | 'eod') => SUBESTACIONES_DEMO[codigo].reduce((n, s) => n + s.niveles.length, 0);
const rows = (page: Page) => page.locator('.cn-tabla tbody tr[id]');
const circles = (page: Page) => page.locator('svg.cn-puntos circle');

async function openDemanda(page: Page, codigo: 'epd' | 'eod') {
  await page.goto(`/capacidad-nodal/${codigo}?tipo=demanda`);
  await expect(page.getByRole('status')).toContainText(`Se muestran ${demoNodes(codigo)} nudos`);
  await expect(page.getByRole('status')).toContainText('firme disponible para consumo');
}

test('?tipo=demanda abre la capacidad de demanda con sus columnas, marcas y puntos del mapa', async ({ page }) => {
  await openDemanda(page, 'epd');
  const nav = page.getByRole('navigation', { name: 'Tipo de capacidad' });
  await expect(nav.getByRole('link', { name: 'Demanda' })).toHaveAttribute('aria-current', 'page');
  await expect(nav.getByRole('link', { name: 'Generación' })).not.toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('columnheader', { name: /Firme disponible \(MW\)/ })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: /Admitida y no evaluada \(MW\)/ })).toBeVisible();
  await expect(rows(page)).toHaveCount(demoNodes('epd'));
  await expect(circles(page)).toHaveCount(demoNodes('epd'));
  await expect(page.getByRole('heading', { name: 'Capacidad firme disponible de demanda' })).toBeVisible();
  // Each point names the node's demand figure.
  await expect(page.getByRole('link', { name: /^Getafe Norte 66 kV \(Getafe\): [\d,]+ MW disponibles para consumo$/ })).toHaveCount(1);
  // The figures are the demand publication's, not generation's.
  const api = (await (await page.request.get('/api/capacidadNodal/epd/demanda')).json()) as {
    nudos: { nudo: string; ocupadaMw: number; nudoCero: boolean }[];
  };
  const getafe = api.nudos.find((n) => n.nudo === 'EPD-S03-66')!;
  const fila = page.getByRole('row', { name: /Getafe Norte EPD-S03-66/ });
  await expect(fila.locator('td').nth(2)).toHaveText(new Intl.NumberFormat('es-ES', { maximumFractionDigits: 2 }).format(getafe.ocupadaMw));
  const cero = api.nudos.filter((n) => n.nudoCero).length;
  await expect(page.locator('.cn-etiqueta', { hasText: 'Nudo 0*' })).toHaveCount(cero);
});

test('el selector Generación | Demanda cambia la tabla y la URL, y Atrás vuelve', async ({ page }) => {
  await page.goto('/capacidad-nodal/epd');
  await expect(page.getByRole('status')).toContainText('disponible para generación');
  await expect(page.getByRole('columnheader', { name: /^Disponible \(MW\)/ })).toBeVisible();
  const demanda = page.getByRole('navigation', { name: 'Tipo de capacidad' }).getByRole('link', { name: 'Demanda' });
  await demanda.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/capacidad-nodal\/epd\?tipo=demanda$/);
  await expect(page.getByRole('status')).toContainText('firme disponible para consumo');
  await expect(page.getByRole('link', { name: 'Descargar CSV de demanda' })).toHaveAttribute('href', '/api/capacidadNodal/epd/demanda/csv');
  await page.goBack();
  await expect(page).toHaveURL(/\/capacidad-nodal\/epd$/);
  await expect(page.getByRole('status')).toContainText('disponible para generación');
  await expect(page.getByRole('link', { name: 'Descargar CSV de generación' })).toHaveAttribute('href', '/api/capacidadNodal/epd/csv');
});

test('Descargar CSV de demanda descarga el formato armonizado', async ({ page }) => {
  await openDemanda(page, 'eod');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Descargar CSV de demanda' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^capacidad-demanda-eod-\d{4}-\d{2}\.csv$/);
  const lines = readFileSync(await download.path())
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split('\r\n');
  expect(lines[0]).toMatch(/^Gestor de Red;Provincia;Municipio;Coordenada UTM X;Coordenada UTM Y;Huso;Subestación;/);
  expect(lines).toHaveLength(demoNodes('eod') + 1);
});

test('capacidad de demanda a 1280 y 390 px: sin fallos de axe ni de CSP, sin desplazamiento lateral', async ({ page }) => {
  test.setTimeout(120_000);
  const csp = await watchCsp(page);
  await openDemanda(page, 'epd');
  await revisarAnchos(page, 'capacidad-demanda-epd', [
    { name: 'escritorio', width: 1280, height: 800 },
    { name: 'móvil', width: 390, height: 844 },
  ]);
  expect(await csp()).toEqual([]);
});
