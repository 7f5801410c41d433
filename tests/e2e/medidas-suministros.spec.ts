/**
 * /informacionContrato/detalle-informacion-contrato ("Suministros / contract detail")
 * through the browser: the household's two supply points as cards, the contract detail chosen by
 * CUPS in the address (kept on reload, left with back), its links to the measures screens, an
 * unknown CUPS, the empty state, and axe at desktop and phone widths.
 */
import { expect, test } from '@playwright/test';
import { CONSUMIDOR, EMPRESA, clienteApi, foto, type SuministroApi } from './medidas-support.ts';
import { DEMO_PASSWORD, entrar, esperarAppPrivada, expectNoAxeViolations, WIDTHS } from './support.ts';

const RUTA = '/informacionContrato/detalle-informacion-contrato';

test('lists the supply points and opens the whole contract of one, kept on reload and left with back', async ({ page }) => {
  const api = await clienteApi(CONSUMIDOR);
  const lista = await api<SuministroApi[]>('/api/suministros');
  const solar = lista.find((s) => s.autoconsumo !== 'ninguno')!;
  await entrar(page, CONSUMIDOR, DEMO_PASSWORD, RUTA);
  const tarjetas = page.locator('.med-tarjeta');
  await expect(tarjetas).toHaveCount(lista.length);
  for (const s of lista) await expect(page.getByText(s.cups, { exact: true })).toBeVisible();
  await expect(tarjetas.first()).toContainText('Contador inteligente telegestionado');

  await page.getByRole('link', { name: new RegExp(solar.direccion) }).click();
  await expect(page).toHaveURL(new RegExp(`\\?cups=${solar.cups}$`));
  const titulo = page.getByRole('heading', { level: 2, name: new RegExp(solar.direccion) });
  await expect(titulo).toBeFocused();
  const detalle = page.getByRole('article');
  await expect(detalle.getByRole('heading', { name: 'Medidas disponibles' })).toBeVisible();
  await expect(detalle).toContainText(/Del \d+ de \w+ de \d{4} al \d+ de \w+ de \d{4} \([\d.]+ horas con medida\)/);
  // The register comes from a SIPS2026 file, which says only "acogido" and carries no meter number (docs/decisions/016).
  for (const texto of [
    'Acogido a autoconsumo (la modalidad no consta en el registro)',
    'No consta',
    'Contador inteligente telegestionado',
    'Tarifa de acceso (peaje)',
    'NIF del titular',
    '12345678Z',
    'En vigor',
  ]) {
    await expect(detalle).toContainText(texto);
  }
  await foto(page, 'suministros-detalle-1280');

  await page.reload();
  await esperarAppPrivada(page);
  await expect(page.getByRole('heading', { level: 2, name: new RegExp(solar.direccion) })).toBeVisible();

  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`${RUTA}$`));
  await expect(tarjetas).toHaveCount(lista.length);

  await page.getByRole('link', { name: new RegExp(solar.direccion) }).click();
  await page.getByRole('link', { name: 'Volver a sus suministros' }).click();
  await expect(page.getByRole('link', { name: new RegExp(solar.direccion) })).toBeFocused();
});

test('leads from a contract to its hourly consumption and its maximum powers', async ({ page }) => {
  const api = await clienteApi(EMPRESA);
  const lista = await api<SuministroApi[]>('/api/suministros');
  const s = lista[1]!;
  await entrar(page, EMPRESA, DEMO_PASSWORD, `${RUTA}?cups=${s.cups}`);
  await expect(page.getByRole('article')).toContainText('Cada cuarto de hora (y por horas)');
  await page.getByRole('link', { name: 'Ver consumo horario' }).click();
  await expect(page).toHaveURL(new RegExp(`/medidas/curvas\\?cups=${s.cups}`));
  await expect(page.getByLabel('Suministro', { exact: true })).toHaveValue(s.cups);
  await page.goBack();
  await page.getByRole('link', { name: 'Ver potencias máximas' }).click();
  await expect(page).toHaveURL(new RegExp(`/medidas/potencia\\?cups=${s.cups}`));
  await expect(page.getByLabel('Suministro', { exact: true })).toHaveValue(s.cups);
});

test('says when the CUPS in the address is not one of the user’s', async ({ page }) => {
  await entrar(page, CONSUMIDOR, DEMO_PASSWORD, `${RUTA}?cups=ES9901000000000002QF`);
  await expect(page.getByRole('alert')).toContainText('No encontramos el suministro ES9901000000000002QF entre los suyos');
  await expect(page.locator('.med-tarjeta')).toHaveCount(2);
});

test('explains how supply points appear when the account has none', async ({ page }) => {
  // An account whose NIF holds no supply point: the list answer is empty.
  await page.route('**/api/suministros', (route) => route.fulfill({ json: [] }));
  await entrar(page, CONSUMIDOR, DEMO_PASSWORD, RUTA);
  await expect(page.getByRole('heading', { name: 'Todavía no tiene suministros en el portal' })).toBeVisible();
  await expect(page.getByText(/aparecen aquí automáticamente cuando el NIF de su cuenta figura como titular/)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Consultas y peticiones' }).last()).toHaveAttribute(
    'href',
    '/contacto/consultas-y-peticiones',
  );
  await expectNoAxeViolations(page, 'suministros vacío');
});

for (const w of WIDTHS) {
  test(`passes axe in the list and the detail at ${w.name} (${w.width} px)`, async ({ page }) => {
    await page.setViewportSize({ width: w.width, height: w.height });
    await entrar(page, CONSUMIDOR, DEMO_PASSWORD, RUTA);
    await expect(page.locator('.med-tarjeta')).toHaveCount(2);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(w.width);
    await expectNoAxeViolations(page, `suministros ${w.name}`);
    await foto(page, `suministros-${w.width}`);
    await page.locator('.med-tarjeta__titulo a').first().click();
    await expect(page.getByRole('heading', { name: 'Medidas disponibles' })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(w.width);
    await expectNoAxeViolations(page, `suministros detalle ${w.name}`);
    await foto(page, `suministros-detalle-${w.width}`);
  });
}
