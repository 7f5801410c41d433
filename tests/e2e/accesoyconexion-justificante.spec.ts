/**
 * The filing receipt of an access and connection request through the browser (Ley 39/2015 arts.
 * 16.3 and 66.3; RD 1183/2020 art. 7.1): on a filed demo request the applicant finds «Descargar
 * justificante (PDF)» and gets a PDF named after the reference; the distributor's staff download the
 * same receipt from the request in their queue. axe and no sideways scrolling at desktop, phone and
 * 320 px widths, with screenshots.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';

import { DEMO_PASSWORD, entrar, revisarAnchos } from './support.ts';

const LISTA = '/accesoyconexion/listado-de-solicitudes';

test('una solicitud presentada ofrece su justificante en PDF', async ({ page }) => {
  test.setTimeout(90_000);
  await entrar(page, 'promotor@electra.example', DEMO_PASSWORD, LISTA);
  // Mérida's request is closed: no other test changes it.
  const fila = page.getByRole('table', { name: 'Sus solicitudes, la más reciente primero' }).getByRole('row').filter({ hasText: 'Mérida' });
  const referencia = /AC-\d{4}-\d{6}/.exec((await fila.textContent()) ?? '')?.[0] ?? '';
  await fila.getByRole('link').click();
  expect(referencia).toMatch(/^AC-\d{4}-\d{6}$/);
  const boton = page.getByRole('button', { name: 'Descargar justificante (PDF)' });
  await expect(boton).toBeVisible();
  await revisarAnchos(page, 'acceso-justificante');
  const [descarga] = await Promise.all([page.waitForEvent('download'), boton.click()]);
  expect(descarga.suggestedFilename()).toBe(`justificante-${referencia}.pdf`);
  expect(
    readFileSync(await descarga.path())
      .subarray(0, 5)
      .toString('latin1'),
  ).toBe('%PDF-');
  await expect(page.getByRole('status').filter({ hasText: `Fichero descargado: justificante-${referencia}.pdf` })).toBeVisible();
});

test('el personal de la distribuidora descarga el mismo justificante desde su cola', async ({ page }) => {
  test.setTimeout(90_000);
  await entrar(page, 'admin-epd@electra.example', DEMO_PASSWORD, '/administrador/accesoyconexion');
  // Parla's request is filed (its step may change in another test; its receipt does not).
  const fila = page
    .getByRole('table', { name: /Solicitudes de Electra Peninsular Distribución/ })
    .locator('tbody tr')
    .filter({ hasText: 'Parla' });
  const referencia = (await fila.getByRole('link').textContent())!.trim();
  await fila.getByRole('link').click();
  await expect(page.getByRole('heading', { level: 2, name: `Solicitud ${referencia}` })).toBeVisible();
  const boton = page.getByRole('button', { name: 'Descargar justificante (PDF)' });
  const [descarga] = await Promise.all([page.waitForEvent('download'), boton.click()]);
  expect(descarga.suggestedFilename()).toBe(`justificante-${referencia}.pdf`);
  const pdf = readFileSync(await descarga.path()).toString('latin1');
  expect(pdf.slice(0, 5)).toBe('%PDF-');
  await expect(page.getByRole('status').filter({ hasText: `Fichero descargado: justificante-${referencia}.pdf` })).toBeVisible();
});
