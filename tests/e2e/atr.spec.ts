/**
 * The supply company's ATR requests (/comercializadora/solicitud-atr), through the browser: the
 * demo company's fourteen requests (seven at EPD, seven at EOD, made by the demo as real XML files), the
 * filters kept in the address, the request refused for the holder's NIF with its reason, its two
 * messages, the rejection's XML read and downloaded. axe and no sideways scrolling at 320, 375 and
 * 1280 px, with screenshots in /tmp (SHOTS_DIR).
 */
import { mkdirSync, readFileSync } from 'node:fs';

import { expect, test, type Page } from '@playwright/test';
import { entrar, revisarAnchos } from './support.ts';

const EMPRESA = 'comercializadora@electra.example';
const LISTA = '/comercializadora/solicitud-atr';

const SHOTS = process.env.SHOTS_DIR ?? '/tmp';
mkdirSync(SHOTS, { recursive: true });

/** The widths every screen is checked at: desktop and two phones. */
const ANCHOS = [
  { name: 'escritorio', width: 1280, height: 800 },
  { name: 'movil', width: 375, height: 740 },
  { name: 'pequeno', width: 320, height: 640 },
] as const;

/** axe, no sideways scrolling and a screenshot at each of this screen's widths. */
const revisar = (page: Page, nombre: string) => revisarAnchos(page, `atr-${nombre}`, ANCHOS);

test.use({ viewport: { width: 1280, height: 800 } });

test('a supply company lists its ATR requests, filters them and reads a rejection with its XML', async ({ page }) => {
  // Three widths of axe and screenshots: more than the default 30 s on a loaded 2-core machine.
  test.setTimeout(90_000);
  await entrar(page, EMPRESA, undefined, LISTA);
  const principal = page.getByRole('main');
  await expect(principal.locator('h1')).toHaveText('Solicitudes ATR');
  await expect(principal.getByRole('link', { name: 'FTP', exact: true })).toHaveAttribute('href', '/comercializadora/ftp');

  // The demo's eight requests at EPD and eight at EOD.
  await expect(principal.getByRole('status').filter({ hasText: 'solicitudes' })).toHaveText('16 solicitudes.');
  const filas = principal.locator('.atr-tabla tbody tr');
  await expect(filas).toHaveCount(16);
  await revisar(page, 'lista');
  // On a phone the same requests are cards.
  await page.setViewportSize({ width: 375, height: 740 });
  await expect(principal.locator('.atr-tarjeta')).toHaveCount(16);
  await expect(filas.first()).toBeHidden();
  await page.setViewportSize({ width: 1280, height: 800 });

  // EPD's refused requests: the C1 of another holder's NIF (03) and the A3 where a contract is in force (21).
  await principal.getByLabel('Distribuidora').selectOption('epd');
  await principal.getByLabel('Estado').selectOption('rechazada');
  await principal.getByRole('button', { name: 'Filtrar' }).click();
  await expect(page).toHaveURL(/[?&]distribuidora=epd/);
  await expect(page).toHaveURL(/[?&]estado=rechazada/);
  await expect(filas).toHaveCount(2);
  await expect(principal.getByRole('status').filter({ hasText: 'solicitud' })).toHaveText('2 solicitudes.');
  for (const f of await filas.all()) await expect(f.locator('.atr-estado')).toHaveText('Rechazada');
  await revisar(page, 'lista-filtrada');

  // A reload keeps the filters.
  await page.reload();
  await expect(filas).toHaveCount(2);
  await expect(principal.getByLabel('Estado')).toHaveValue('rechazada');

  const c1 = filas.filter({ has: page.locator('abbr', { hasText: /^C1$/ }) });
  await expect(c1).toHaveCount(1);
  const referencia = (await c1.getByRole('link').textContent())!.trim();
  await c1.getByRole('link').click();

  await expect(page).toHaveURL(/\/comercializadora\/solicitud-atr\/[^/?]+$/);
  await expect(principal.locator('h1')).toHaveText('Solicitud ATR');
  await expect(principal.locator('h1')).toBeFocused();
  await expect(principal.getByRole('heading', { level: 2, name: referencia })).toBeVisible();
  await expect(principal.locator('.atr-cabecera .atr-estado')).toHaveText('Rechazada');
  await expect(principal.getByRole('region', { name: 'Motivo del rechazo' })).toContainText(
    '03 · NIF-CIF no coincide con el del contrato en vigor',
  );

  const mensajes = principal.locator('.atr-mensaje');
  await expect(mensajes).toHaveCount(2);
  await expect(mensajes.nth(0).locator('h3')).toHaveText('Paso 01 · Solicitud');
  await expect(mensajes.nth(0)).toContainText('Su empresa');
  await expect(mensajes.nth(1).locator('h3')).toHaveText('Paso 02 · Aceptación o rechazo');
  await expect(mensajes.nth(1)).toContainText('La distribuidora');

  // The rejection's XML, opened from the keyboard.
  const respuesta = mensajes.nth(1);
  const xml = respuesta.locator('pre');
  await expect(xml).toBeHidden();
  await respuesta.locator('summary').focus();
  await page.keyboard.press('Enter');
  await expect(xml).toBeVisible();
  await expect(xml).toContainText('<CodigoMotivo>03</CodigoMotivo>');

  // Downloaded under the message's own name.
  const nombre = (await respuesta.locator('.atr-mensaje__datos .atr-codigo').textContent())!.trim();
  const [descarga] = await Promise.all([page.waitForEvent('download'), respuesta.getByRole('button', { name: /^Descargar/ }).click()]);
  expect(descarga.suggestedFilename()).toBe(nombre.split('/').pop());
  const contenido = readFileSync((await descarga.path())!, 'utf8');
  expect(contenido).toContain('<CodigoMotivo>03</CodigoMotivo>');
  expect(contenido.startsWith('<?xml')).toBe(true);

  await revisar(page, 'detalle');

  // Back to the list, with its filters.
  await principal.getByRole('link', { name: 'Volver a las solicitudes ATR' }).click();
  await expect(page).toHaveURL(/[?&]estado=rechazada/);
  await expect(filas).toHaveCount(2);
});

test('another company’s request, or one that does not exist, is not shown', async ({ page }) => {
  await entrar(page, EMPRESA, undefined, `${LISTA}/00000000-0000-4000-8000-000000000000`);
  const principal = page.getByRole('main');
  await expect(principal.locator('h1')).toHaveText('Solicitud ATR');
  await expect(principal.getByRole('alert')).toContainText('No encontramos esta solicitud');
  await expect(principal.getByRole('link', { name: 'Vuelva a la lista' })).toHaveAttribute('href', LISTA);
});
