/**
 * /inicio's "Lo que le espera" (docs/decisions/024-panel-de-inicio.md) as the demo household reads
 * it: the scheduled works in Mérida tomorrow, the consumption of its supply points, and links that
 * lead to their screens; the welcome and the three cards stay; axe and no sideways scroll at 1280,
 * 390 and 320 px. Only demo data is counted.
 */
import { expect, test } from '@playwright/test';
import { CONSUMIDOR } from './medidas-support.ts';
import { entrar, revisarAnchos } from './support.ts';

test('el inicio del hogar muestra el corte de Mérida, su consumo y enlaces a cada pantalla', async ({ page }) => {
  test.setTimeout(90_000);
  await entrar(page, CONSUMIDOR);
  await expect(page).toHaveURL(/\/inicio$/);
  const principal = page.getByRole('main');
  await expect(principal.getByRole('heading', { level: 1, name: /^Bienvenido\/a, / })).toBeVisible();
  const resumen = principal.getByRole('region', { name: 'Lo que le espera' });
  await expect(resumen.getByRole('status')).toHaveCount(0, { timeout: 20_000 });

  // The scheduled works of tomorrow in Mérida, with the word that says how much they matter.
  const corte = resumen.getByRole('listitem').filter({ has: page.getByRole('heading', { name: /Corte de luz programado en Mérida/ }) });
  await expect(corte).toHaveCount(1);
  await expect(corte.getByRole('heading')).toContainText('Importante:');
  await expect(corte).toContainText(/Mañana, \S+ \d{1,2} de \S+, de \d{1,2}:\d{2} a \d{1,2}:\d{2}\./);
  await expect(corte.getByRole('link', { name: 'Ver las interrupciones de sus suministros' })).toHaveAttribute(
    'href',
    '/medidas/interrupciones',
  );

  // Each supply point's consumption: yesterday and last month in kWh, compared with a year earlier.
  await expect(resumen.getByRole('heading', { level: 3, name: 'Consumo de sus suministros' })).toBeVisible();
  const tarjetas = resumen.getByRole('list', { name: 'Consumo de sus suministros' }).getByRole('listitem');
  await expect(tarjetas).toHaveCount(2);
  const primera = tarjetas.first();
  await expect(primera.getByText(/^Ayer, \d{1,2} de /)).toBeVisible();
  await expect(primera.locator('dd').first()).toHaveText(/^\d{1,3}(\.\d{3})*(,\d)? kWh/);
  // Compared with a year earlier, or told why not (the demo curves have a few hours without measure).
  await expect(primera).toContainText(/(más|menos) que en \S+ de \d{4}|Lo mismo que en|No se compara con|No hay datos de/);
  await expect(primera.getByText('Próxima lectura')).toBeVisible();

  // Pending procedures: the claim where the distributor asks for information.
  await expect(resumen.getByRole('heading', { name: /La distribuidora le pide información sobre su reclamación/ })).toBeVisible();

  // The welcome text and the three cards are still there.
  await expect(principal.getByRole('heading', { level: 2, name: 'Acceso y conexión' })).toBeVisible();
  await expect(principal.getByRole('heading', { level: 2, name: 'Consumidor' })).toBeVisible();
  await expect(principal.getByRole('heading', { level: 2, name: 'Comercializadora' })).toBeVisible();

  await revisarAnchos(page, 'inicio-hogar');

  // A link leads to its screen.
  await primera.getByRole('link', { name: /^Ver el consumo hora a hora de / }).click();
  await expect(page).toHaveURL(/\/medidas\/curvas\?.*cups=ES99/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.goBack();
  await resumen.getByRole('link', { name: 'Ver las interrupciones de sus suministros' }).first().click();
  await expect(page).toHaveURL(/\/medidas\/interrupciones$/);
  await expect(
    page
      .getByRole('main')
      .getByText(/Mérida/)
      .first(),
  ).toBeVisible();
});

test('si el resumen falla, el inicio sigue mostrando la bienvenida y las tarjetas, y ofrece reintentar', async ({ page }) => {
  test.setTimeout(60_000);
  let fallar = true;
  await page.route('**/api/inicio/resumen', (route) =>
    fallar
      ? route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ message: 'Error interno.' }) })
      : route.continue(),
  );
  await entrar(page, CONSUMIDOR);
  const principal = page.getByRole('main');
  const resumen = principal.getByRole('region', { name: 'Lo que le espera' });
  await expect(resumen.getByRole('alert')).toContainText('No hemos podido cargar su resumen.');
  await expect(principal.getByRole('heading', { level: 2, name: 'Consumidor' })).toBeVisible();
  fallar = false;
  await resumen.getByRole('button', { name: 'Reintentar' }).click();
  await expect(resumen.getByRole('heading', { name: /Corte de luz programado en Mérida/ })).toBeVisible();
});
