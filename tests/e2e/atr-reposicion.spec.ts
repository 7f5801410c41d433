/**
 * A supply cut for non-payment and its reposición (docs/decisions/048), through the browser on the
 * demo data: the demo company's B1 with reason 03 at EPD, activated by the staff, keeps the supply
 * point ES9901000000000118KP cut. Its holder (cliente019, generated home 19) reads that on the
 * supply's card and detail; the company asks for the reposición from the B1's detail; the reader
 * answers it within seconds, and the holder then reads the supply in service. axe, no sideways
 * scrolling and screenshots at each width (SHOTS_DIR).
 */
import { expect, test, type Page } from '@playwright/test';
import { entrar, revisarAnchos } from './support.ts';

const TITULAR = 'cliente019@correo.example';
const EMPRESA = 'comercializadora@electra.example';
const CUPS = 'ES9901000000000118KP';
const SUMINISTROS = '/informacionContrato/detalle-informacion-contrato';

test.describe.configure({ mode: 'serial' });
test.use({ viewport: { width: 1280, height: 800 } });

/** The holder's card of the cut supply point. */
const tarjeta = (page: Page) => page.locator('.med-tarjeta').filter({ hasText: CUPS });

test('el titular lee que su suministro está cortado, desde cuándo y qué hacer', async ({ page }) => {
  test.setTimeout(90_000);
  await entrar(page, TITULAR, undefined, SUMINISTROS);
  const aviso = tarjeta(page).locator('.med-suspendido');
  await expect(aviso).toContainText('Suministro cortado.');
  await expect(aviso).toContainText('póngase en contacto con su comercializadora');
  await revisarAnchos(page, 'reposicion-titular-lista');

  await tarjeta(page).getByRole('link').first().click();
  const detalle = page.locator('.med-detalle');
  await expect(detalle.locator('.med-suspendido')).toContainText('El contrato sigue en vigor');
  const estado = detalle.locator('div:has(> dt)').filter({ has: page.locator('dt', { hasText: /^Estado del suministro$/ }) });
  await expect(estado.locator('dd')).toHaveText(/^Cortado desde el [a-zé]+, \d+ de [a-z]+ de \d{4}$/);
  await revisarAnchos(page, 'reposicion-titular-detalle');
});

test('la comercializadora pide la reposición desde el B1 que lo cortó, y la distribuidora la acepta', async ({ page }) => {
  test.setTimeout(90_000);
  await entrar(page, EMPRESA, undefined, '/comercializadora/solicitud-atr?distribuidora=epd&proceso=B1&estado=activada');
  const principal = page.getByRole('main');
  const filas = principal.locator('.atr-tabla tbody tr');
  await expect(filas).toHaveCount(1);
  await filas.getByRole('link').click();

  const seccion = principal.locator('section.atr-anulacion');
  await expect(seccion.getByRole('heading', { level: 2 })).toHaveText('Reposición del suministro');
  await expect(seccion).toContainText('El suministro sigue cortado');
  await revisarAnchos(page, 'reposicion-empresa-antes');
  await seccion.getByRole('button', { name: 'Pedir la reposición' }).click();
  const dialogo = page.getByRole('dialog', { name: '¿Pedir la reposición del suministro?' });
  await expect(dialogo).toContainText(CUPS);
  await dialogo.getByRole('button', { name: 'Pedir la reposición' }).click();

  await expect(seccion).toContainText('Reposición pedida');
  // The portal's reader runs every two seconds: the answer arrives within the screen's wait.
  await expect(seccion).toContainText('La distribuidora ya la ha contestado', { timeout: 30_000 });
  const repuesto = principal.locator('div:has(> dt)').filter({ has: page.locator('dt', { hasText: /^Suministro repuesto$/ }) });
  await expect(repuesto.locator('dd')).toHaveText(/\d/);
  await expect(principal.getByText(/B104_/).first()).toBeVisible();
  await revisarAnchos(page, 'reposicion-empresa-despues');
});

test('repuesto el suministro, el titular lo ve en servicio', async ({ page }) => {
  await entrar(page, TITULAR, undefined, `${SUMINISTROS}?cups=${CUPS}`);
  const detalle = page.locator('.med-detalle');
  const estado = detalle.locator('div:has(> dt)').filter({ has: page.locator('dt', { hasText: /^Estado del suministro$/ }) });
  await expect(estado.locator('dd')).toHaveText('En servicio');
  await expect(detalle.locator('.med-suspendido')).toHaveCount(0);
});
