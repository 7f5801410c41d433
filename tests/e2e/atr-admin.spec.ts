/**
 * ATR requests from the distributor's side (docs/decisions/020), through the browser: EPD's
 * administrator opens the queue of accepted requests (the demo's change of contract, M1, and the
 * switch with an incidence, C2), opens the C2, is told in the field why a future activation date is
 * refused, activates it today and reads the activation (05) among its messages; the queue then
 * holds only the M1. (The C2's supply point is not among the first of EPD's register, which the
 * SIPS spec reloads expecting no change.) axe and no sideways scrolling at desktop, phone and 320 px, with screenshots.
 */
import { expect, test } from '@playwright/test';
import { foto } from './medidas-support.ts';
import { DEMO_PASSWORD, entrar, revisarAnchos } from './support.ts';

const ADMIN_EPD = 'admin-epd@electra.example';
const COLA = '/administrador/atr';

/** Today in Madrid, as the date field takes it. */
const hoy = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Madrid' }).format(new Date());

test('la distribuidora activa una solicitud ATR de su cola y la comercializadora tiene el 05', async ({ page }) => {
  test.setTimeout(90_000);
  await entrar(page, ADMIN_EPD, DEMO_PASSWORD, COLA);
  const principal = page.getByRole('main');
  await expect(principal.getByRole('heading', { level: 1, name: 'Solicitudes ATR' })).toBeVisible();
  // The demo company's (REE 9811): other specs' companies may have requests in the same queue.
  const filas = principal
    .getByRole('table', { name: /Solicitudes ATR de Electra Peninsular/ })
    .locator('tbody tr')
    .filter({ hasText: 'REE 9811' });
  await expect(filas).toHaveCount(2);
  const m1 = filas.filter({ has: page.locator('abbr', { hasText: /^M1$/ }) });
  await expect(m1).toContainText('Aceptada');
  await expect(m1).toContainText('REE 9811');
  await revisarAnchos(page, 'atr-admin-cola');

  const c2 = filas.filter({ has: page.locator('abbr', { hasText: /^C2$/ }) });
  await expect(c2).toContainText('Con incidencia');
  await c2.getByRole('link').click();
  await expect(principal.getByRole('heading', { level: 1, name: 'Tramitar una solicitud ATR' })).toBeVisible();
  await expect(principal.getByText('Contrato hoy')).toBeVisible();
  // The staff read who sent each message from their side: the company's request, not «Su empresa».
  const primero = principal.locator('.atr-mensaje').first();
  await expect(primero).toContainText('La comercializadora');
  await expect(principal.locator('.atr-mensaje', { hasText: 'Su empresa' })).toHaveCount(0);
  // The incidence's reason in words, not only inside its XML (table 28, code 08).
  await expect(principal.locator('.atr-mensaje', { hasText: 'Paso 03' })).toContainText(
    'Motivo de la incidencia08 · Cita concertada. Cita concertada con el cliente para cambiar el contador.',
  );
  await revisarAnchos(page, 'atr-admin-detalle');

  await principal.getByRole('button', { name: 'Activar…' }).click();
  const dialogo = page.getByRole('dialog', { name: /Activar la solicitud ATR-/ });
  await expect(dialogo).toContainText('La comercializadora pasa a ser la solicitante');
  const fecha = dialogo.getByLabel('Fecha de activación');
  await fecha.fill('2099-01-01');
  await dialogo.getByRole('button', { name: 'Activar y cambiar el contrato' }).click();
  await expect(dialogo.getByText(/no puede ser posterior a hoy/)).toBeVisible();
  await expect(fecha).toBeFocused();
  await foto(page, 'atr-admin-activar-error-1280');

  await fecha.fill(hoy());
  await dialogo.getByRole('button', { name: 'Activar y cambiar el contrato' }).click();
  await expect(
    principal
      .getByRole('alert')
      .or(principal.getByRole('status'))
      .filter({ hasText: /activada/ }),
  ).toBeVisible();
  await expect(principal.locator('.atr-estado').first()).toHaveText('Activada');
  await expect(principal.getByRole('heading', { level: 3, name: '05 · Activación' })).toBeVisible();
  await expect(principal.getByRole('button', { name: 'Activar…' })).toHaveCount(0);
  await foto(page, 'atr-admin-activada-1280');

  await principal.getByRole('link', { name: /Volver a la cola/ }).click();
  await expect(filas).toHaveCount(1);
  await expect(filas.first()).toContainText('Aceptada');
});
