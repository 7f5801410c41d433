/**
 * The impersonation banner of the private app (decision 006): while an administrator acts
 * as another user every screen says so, the banner cannot be closed, the profile's own-account
 * actions are disabled, and one button returns to the administrator's session. The impersonation is
 * started through the API in the browser's own cookie jar (the administration screen that starts it
 * is tested with the administration screens).
 */
import { expect, test, type Page } from '@playwright/test';
import { DEMO_PASSWORD, esperarAppPrivada, expectNoAxeViolations } from './support.ts';

const basic = (u: string, p: string) => `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}`;

/** Logs in as the administrator and starts acting as `username`; the browser context holds the impersonation cookie. */
async function suplantar(page: Page, username: string): Promise<void> {
  const login = await page.request.post('/api/accesoUsuario', {
    headers: { Authorization: basic('admin@electra.example', DEMO_PASSWORD) },
  });
  expect(login.status()).toBe(200);
  const { jwtToken } = (await login.json()) as { jwtToken: string };
  const r = await page.request.post('/api/accesoUsuarioSuplantacion', {
    headers: { Authorization: `Bearer ${jwtToken}` },
    data: { username },
  });
  expect(r.status()).toBe(200);
  expect(((await r.json()) as { suplantadoPor: { username: string } }).suplantadoPor.username).toBe('admin@electra.example');
}

test('an impersonated session shows a banner that cannot be closed, and returns to the administrator', async ({ page }) => {
  await suplantar(page, 'cliente106@correo.example');
  await page.goto('/inicio');
  await esperarAppPrivada(page);

  const banner = page.getByRole('region', { name: 'Sesión suplantada' });
  await expect(banner).toContainText(/Está actuando como .+ \(cliente106@correo\.example\)/);
  await expect(banner.getByRole('button')).toHaveCount(1);
  // The impersonated user's menu: no administration.
  await expect(page.locator('#menu-privado').getByRole('button', { name: 'Administración' })).toHaveCount(0);
  await expectNoAxeViolations(page, 'inicio suplantado');
  await page.screenshot({ path: '/tmp/shots-f1/escritorio-suplantacion.png' });

  // The banner stays on every screen.
  await page.locator('#menu-privado').getByRole('link', { name: 'Perfil' }).click();
  await expect(page.locator('main h1')).toHaveText('Perfil');
  await expect(banner).toBeVisible();
  await expect(page.getByText('Está actuando como este usuario.')).toBeVisible();
  for (const nombre of ['Cambiar el correo electrónico', 'Cambiar la contraseña']) {
    const bloque = page.getByRole('region', { name: nombre });
    await expect(bloque.getByText('No disponible mientras actúa como otro usuario.')).toBeVisible();
    await expect(bloque.getByRole('button', { name: /Enviar el enlace|Cambiar la contraseña/ })).toBeDisabled();
  }
  await expect(page.getByRole('button', { name: 'Cerrar las demás sesiones' })).toBeDisabled();
  await expect(page.getByRole('region', { name: 'Sesiones abiertas' }).getByText('Abierta por un administrador')).toBeVisible();
  await expectNoAxeViolations(page, 'perfil suplantado');

  await banner.getByRole('button', { name: 'Volver a mi sesión de administrador' }).click();
  await expect(page).toHaveURL(/\/administrador\/administrador-usuarios$/);
  await expect(banner).toHaveCount(0);
  await expect(page.locator('#menu-privado')).toContainText('Ana Gestora');
  await expect(page.locator('#menu-privado').getByRole('button', { name: 'Administración' })).toBeVisible();

  // A reload keeps the administrator's own session.
  await page.reload();
  await esperarAppPrivada(page);
  await expect(page.getByRole('region', { name: 'Sesión suplantada' })).toHaveCount(0);
  await expect(page.locator('main h1')).toHaveText('Administración de usuarios');
});
