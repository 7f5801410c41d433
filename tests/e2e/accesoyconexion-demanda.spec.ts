/**
 * A demand request chooses its connection node from the firm DEMAND access capacity the distributor
 * publishes (Circular 1/2024, harmonised format; docs/decisions/022), not from the generation list
 * (RD 1183/2020 art. 7): the demo developer starts a draft at EPD, picks a generation node, changes
 * the kind to consumption and is told the node was cleared; the select then lists the demand nodes
 * with their firm MW, the chosen node shows its firm capacity and the map link opens the demand
 * view. axe and no sideways scrolling at each width, with screenshots.
 */
import { expect, test } from '@playwright/test';
import type { CapacidadDemandaRespuesta } from '../../src/lib/capacidad-nodal/respuestas.ts';

import { DEMO_PASSWORD, entrar, revisarAnchos } from './support.ts';

const LISTA = '/accesoyconexion/listado-de-solicitudes';
const mw = (n: number) => new Intl.NumberFormat('es-ES', { maximumFractionDigits: 3 }).format(n);

test('una solicitud de consumo elige el nudo entre los de demanda, con su capacidad firme', async ({ page }) => {
  test.setTimeout(120_000);
  const demanda = (await (await page.request.get('/api/capacidadNodal/epd/demanda')).json()) as CapacidadDemandaRespuesta;
  const conCapacidad = demanda.nudos.find((n) => n.disponibleMw > 0)!;
  expect(conCapacidad).toBeDefined();

  await entrar(page, 'promotor@electra.example', DEMO_PASSWORD, LISTA);
  await page.getByRole('link', { name: 'Nueva solicitud' }).click();
  await page.getByRole('radio', { name: 'Electra Peninsular Distribución, S.L.' }).check();
  await page.getByRole('button', { name: 'Empezar la solicitud' }).click();
  await page.waitForURL(/\/accesoyconexion\/solicitud\/[0-9a-f-]{36}$/);

  // A generation node first.
  const tipo = page.getByLabel('Tipo de solicitud');
  await tipo.selectOption({ label: 'Generación' });
  const nudo = page.getByLabel('Nudo de la red al que pide conectarse');
  const deGeneracion = await nudo
    .locator('option', { hasText: / disponibles? hoy$/ })
    .first()
    .getAttribute('value');
  await nudo.selectOption(deGeneracion!);
  await expect(page.getByRole('link', { name: 'página de capacidad nodal' })).toHaveAttribute('href', '/capacidad-nodal/epd');

  // Consumption: the node from the generation list is cleared, and the form says so.
  await tipo.selectOption({ label: 'Consumo (demanda)' });
  await expect(page.getByText(`hemos quitado el nudo ${deGeneracion} que había elegido`)).toBeVisible();
  await expect(nudo).toHaveValue('');
  // Full-page screenshots: from the top, so the sticky header covers no field while axe measures targets.
  await page.evaluate(() => window.scrollTo(0, 0));
  await revisarAnchos(page, 'acceso-demanda-nudo-quitado');
  await expect(nudo.locator('option', { hasText: 'firmes disponibles hoy' }).first()).toBeAttached();
  await expect(nudo.locator('option', { hasText: / · \d[\d.,]* MW disponibles hoy$/ })).toHaveCount(0);
  await expect(page.getByText(/con su capacidad de acceso firme de demanda disponible hoy/)).toBeVisible();
  await expect(page.getByRole('link', { name: 'página de capacidad nodal' })).toHaveAttribute('href', '/capacidad-nodal/epd?tipo=demanda');

  // A demand node with firm capacity: its MW in the option and beside the select.
  const opcion = nudo.locator(`option[value="${conCapacidad.nudo}"]`);
  await expect(opcion).toHaveText(new RegExp(`· ${mw(conCapacidad.disponibleMw).replace('.', '\\.')} MW firmes disponibles hoy$`));
  await nudo.selectOption(conCapacidad.nudo);
  await expect(page.getByText('Capacidad firme de demanda disponible hoy')).toBeVisible();
  await expect(page.getByText('Ha cambiado el tipo de solicitud')).toHaveCount(0);
  await page.evaluate(() => window.scrollTo(0, 0));
  await revisarAnchos(page, 'acceso-demanda-nudo');

  // The draft goes away again, so the other tests see the demo list as it was.
  await page.getByRole('button', { name: 'Borrar el borrador' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Borrar el borrador' }).click();
  await page.waitForURL((url) => url.pathname === LISTA);
});
