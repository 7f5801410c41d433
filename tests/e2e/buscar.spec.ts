import { expect, test } from '@playwright/test';

test('la búsqueda encuentra textos públicos y enlaza a su página', async ({ page }) => {
  await page.goto('/buscar');
  await page.getByLabel('¿Qué busca?').fill('reclamaciones');
  await page.getByRole('button', { name: 'Buscar' }).click();
  await expect(page.getByText(/\d+ resultados? para «reclamaciones»/)).toBeVisible();
  const primero = page.locator('.resultados li a').first();
  await expect(primero).toBeVisible();
  await expect(page.locator('.resultados mark').first()).toBeVisible();
  expect(new URL(page.url()).searchParams.get('q')).toBe('reclamaciones');
});

test('una búsqueda sin resultados lo dice', async ({ page }) => {
  await page.goto('/buscar?q=zzxxqqw');
  await expect(page.getByText('No hay resultados para «zzxxqqw». Pruebe con otras palabras.')).toBeVisible();
});

test('la búsqueda alcanza los textos legales y el aviso del apagón', async ({ page }) => {
  await page.goto('/buscar?q=LOPDGDD');
  await expect(page.locator('.resultados a[href^="/legal/proteccion-datos"]')).toBeVisible();
  await page.goto('/buscar?q=Portugal');
  await expect(page.locator('.resultados a[href^="/avisos/apagon-28-abril-2025"]')).toBeVisible();
});

test('el aviso del apagón es el primer resultado de «apagón»', async ({ page }) => {
  await page.goto('/buscar?q=apag%C3%B3n');
  await expect(page.locator('.resultados li a').first()).toHaveAttribute('href', /^\/avisos\/apagon-28-abril-2025/);
});

test('las páginas de capacidad de cada distribuidora tienen títulos distintos', async ({ page }) => {
  await page.goto('/buscar?q=capacidad');
  const epd = page.locator('.resultados a[href^="/capacidad-nodal/epd"]');
  const eod = page.locator('.resultados a[href^="/capacidad-nodal/eod"]');
  await expect(epd).toHaveText(/Electra Peninsular/);
  await expect(eod).toHaveText(/Electra Occidental/);
});
