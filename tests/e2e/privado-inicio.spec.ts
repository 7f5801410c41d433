/**
 * The dashboard /inicio (docs/producto.md §1, §2): a welcome text and three feature cards, each
 * leading to its area with the permission and saying how to obtain it without.
 */
import { expect, test, type Page } from '@playwright/test';
import { entrar } from './support.ts';

const tarjeta = (page: Page, titulo: string) =>
  page
    .getByRole('main')
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { level: 2, name: titulo }) });

test('a promoter reaches access and connection, and is told how to obtain the other two', async ({ page }) => {
  await entrar(page, 'promotor@electra.example');
  await expect(page.locator('main h1')).toHaveText('Bienvenido/a, Solar Meseta Promociones Demo, S.L.');
  await expect(page.getByRole('main').getByText(/Desde su área privada puede/)).toBeVisible();

  const acceso = tarjeta(page, 'Acceso y conexión');
  await expect(acceso).toContainText('Tiene acceso');
  await expect(acceso.getByRole('link', { name: 'Mis solicitudes' })).toHaveAttribute('href', '/accesoyconexion/listado-de-solicitudes');
  await expect(acceso.getByRole('link', { name: 'Capacidad nodal EPD' })).toHaveAttribute('href', '/capacidad-nodal/epd');

  const consumidor = tarjeta(page, 'Consumidor');
  await expect(consumidor).toContainText('Sin acceso');
  await expect(consumidor).toContainText('se concede automáticamente cuando su NIF figura como titular de un punto de suministro');
  await expect(consumidor.getByRole('link', { name: 'Consumo horario' })).toHaveCount(0);

  const comercializadora = tarjeta(page, 'Comercializadora');
  await expect(comercializadora).toContainText('Sin acceso');
  await expect(comercializadora).toContainText(
    'La distribuidora concede este acceso a las comercializadoras que lo piden a través de Contacto.',
  );
  await expect(comercializadora.getByRole('link', { name: 'Ir a Contacto' })).toHaveAttribute('href', '/informacion');

  await acceso.getByRole('link', { name: 'Mis solicitudes' }).click();
  await expect(page.locator('main h1')).toHaveText('Solicitudes de acceso y conexión');
});

test('a supply company reaches its area from its card', async ({ page }) => {
  await entrar(page, 'comercializadora@electra.example');
  const comercializadora = tarjeta(page, 'Comercializadora');
  await expect(comercializadora).toContainText('Tiene acceso');
  await expect(comercializadora.getByRole('link', { name: 'FTP', exact: true })).toHaveAttribute('href', '/comercializadora/ftp');
  await comercializadora.getByRole('link', { name: 'Solicitudes ATR' }).click();
  await expect(page).toHaveURL(/\/comercializadora\/solicitud-atr$/);
  await expect(page.locator('main h1')).toHaveText('Solicitudes ATR');
});

test('an administrator has the three areas', async ({ page }) => {
  await entrar(page, 'admin@electra.example');
  for (const t of ['Acceso y conexión', 'Consumidor', 'Comercializadora']) await expect(tarjeta(page, t)).toContainText('Tiene acceso');
  await tarjeta(page, 'Consumidor').getByRole('link', { name: 'Consumo horario' }).click();
  await expect(page.locator('main h1')).toHaveText('Consumo horario');
});
