/**
 * Consumption certificates through the browser: a reserved demo account issues one, sees
 * it listed, downloads it (a PDF with its CUPS, read with unpdf), opens the public verification page
 * with its code, and checks the downloaded file there (and a modified copy); mistyped, unknown and
 * malformed codes; the month rules; axe at desktop and phone widths on both screens.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { extractText, getDocumentProxy } from 'unpdf';
import { CONSUMIDOR, clienteApi, foto, type SuministroApi } from './medidas-support.ts';
import { DEMO_PASSWORD, entrar, expectNoAxeViolations, WIDTHS } from './support.ts';

const RUTA = '/medidas/certificado-consumo';
/** Reserved for this spec: it issues certificates. */
const EMISOR = 'cliente020@correo.example';

async function axeEnAnchos(page: Page, nombre: string) {
  for (const w of WIDTHS) {
    await page.setViewportSize({ width: w.width, height: w.height });
    await expectNoAxeViolations(page, `${nombre} (${w.name})`);
    // Nothing wider than the screen: the page never scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(w.width);
    await foto(page, `${nombre}-${w.width}`);
  }
}

test('issues a certificate, lists it, downloads it, and the public page confirms its code and the very file', async ({ page }, info) => {
  test.setTimeout(60_000);
  const api = await clienteApi(EMISOR);
  const [suministro] = await api<SuministroApi[]>('/api/suministros');
  await entrar(page, EMISOR, DEMO_PASSWORD, RUTA);
  await expect(page.getByRole('heading', { level: 1, name: 'Certificado de consumo' })).toBeVisible();
  await expect(page.getByLabel('Suministro')).toHaveValue(suministro!.cups);

  await page.getByRole('button', { name: 'Emitir certificado' }).click();
  const estado = page.getByText(/^Certificado emitido con el código /);
  await expect(estado).toBeVisible({ timeout: 15_000 });
  const codigo = /código ([0-9A-Z]{4}(?:-[0-9A-Z]{4}){3})/.exec((await estado.textContent()) ?? '')![1]!;
  const tarjeta = page.locator(`[data-certificado="${codigo}"]`);
  await expect(tarjeta).toContainText(suministro!.cups);
  await expect(tarjeta).toContainText('Recién emitido');
  await expect(page.locator('[data-certificado]').first()).toHaveAttribute('data-certificado', codigo);
  await axeEnAnchos(page, 'certificados-lista');
  await page.setViewportSize({ width: 1280, height: 800 });

  const [descarga] = await Promise.all([page.waitForEvent('download'), tarjeta.getByRole('button', { name: 'Descargar el PDF' }).click()]);
  expect(descarga.suggestedFilename()).toMatch(new RegExp(`^certificado-consumo_${suministro!.cups}_\\d{4}-\\d{2}_\\d{4}-\\d{2}\\.pdf$`));
  const ruta = await descarga.path();
  const bytes = readFileSync(ruta);
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true });
  expect(text).toContain(suministro!.cups);
  expect(text).toContain(codigo);

  // The link of the card opens the public page, which checks the code at once.
  await tarjeta.getByRole('link', { name: /Verificar este certificado/ }).click();
  await expect(page).toHaveURL(new RegExp(`/verificar-certificado\\?codigo=${codigo}$`));
  await expect(page.getByRole('heading', { name: 'Certificado auténtico' })).toBeVisible();
  await expect(page.getByLabel('Código del certificado')).toHaveValue(codigo);
  await expect(page.locator('.verif-resultado')).toContainText(suministro!.cups);

  // The downloaded file is the one issued; a copy with one byte more is not.
  await page.getByLabel('Fichero PDF del certificado').setInputFiles(ruta);
  await expect(page.getByText('El fichero coincide:')).toBeVisible();
  const cambiado = info.outputPath('cambiado.pdf');
  writeFileSync(cambiado, Buffer.concat([bytes, Buffer.from('\n')]));
  await page.getByLabel('Fichero PDF del certificado').setInputFiles(cambiado);
  await expect(page.getByText('El fichero no coincide:')).toBeVisible();
  await axeEnAnchos(page, 'verificar-autentico');
});

test('reads a mistyped code, and answers an unknown or malformed one clearly', async ({ page }) => {
  const api = await clienteApi(CONSUMIDOR);
  const [demo] = await api<{ codigo: string; cups: string }[]>('/api/certificados');
  await page.goto('/verificar-certificado');
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  const campo = page.getByLabel('Código del certificado');

  await campo.fill(` ${demo!.codigo.toLowerCase().replace(/-/g, ' ')} `);
  await page.getByRole('button', { name: 'Verificar' }).click();
  await expect(page.getByRole('heading', { name: 'Certificado auténtico' })).toBeFocused();
  await expect(page.locator('.verif-resultado')).toContainText(demo!.cups);
  await expect(page.locator('.verif-resultado')).toContainText('NIF ***4567**');
  await expect(page).toHaveURL(new RegExp(`\\?codigo=${demo!.codigo}$`));

  await campo.fill('ZZZZ-ZZZZ-ZZZZ-ZZZZ');
  await page.getByRole('button', { name: 'Verificar' }).click();
  await expect(page.getByRole('heading', { name: 'Código no válido' })).toBeFocused();
  await expect(page.getByText(/^No hay ningún certificado con ese código/)).toBeVisible();
  await expect(page.getByText('Certificado auténtico')).toHaveCount(0);
  await axeEnAnchos(page, 'verificar-desconocido');

  await page.setViewportSize({ width: 1280, height: 800 });
  await campo.fill('7K2M-9QXD');
  await page.getByRole('button', { name: 'Verificar' }).click();
  const resumen = page.getByRole('group', { name: 'Revise el código:' });
  await expect(resumen).toBeFocused();
  await expect(resumen).toContainText('el que ha escrito tiene 8');
  await expect(campo).toHaveAttribute('aria-invalid', 'true');
});

test('shows the demo household its certificate, and refuses the month in progress before asking the server', async ({ page }) => {
  await entrar(page, CONSUMIDOR, DEMO_PASSWORD, RUTA);
  await expect(page.locator('[data-certificado]').first()).toBeVisible();
  const mes = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Madrid', year: 'numeric', month: '2-digit' }).format(new Date());
  await page.getByLabel('Hasta el mes').fill(mes);
  await page.getByRole('button', { name: 'Emitir certificado' }).click();
  const resumen = page.getByRole('group', { name: 'No hemos podido emitir el certificado:' });
  await expect(resumen).toBeFocused();
  await expect(resumen).toContainText('El mes en curso todavía no ha terminado');
  await resumen.getByRole('link').click();
  await expect(page.getByLabel('Hasta el mes')).toBeFocused();
  await foto(page, 'certificados-error-1280');
});
