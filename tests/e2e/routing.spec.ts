import { expect, test } from '@playwright/test';

test('una ruta desconocida muestra la página de inicio', async ({ page }) => {
  const res = await page.goto('/esta/ruta/no-existe');
  expect(res?.status()).toBe(404);
  await expect(page).toHaveTitle(/^Inicio \|/);
  await expect(page.locator('meta[name="portal-page"]')).toHaveAttribute('content', 'home');
});

test('una ruta del área privada carga el contenedor del área privada', async ({ page }) => {
  const res = await page.request.get('/medidas/curvas');
  expect(res.status()).toBe(200);
  expect(await res.text()).toContain('<meta name="portal-page" content="private-shell">');
  // Without a session the private app sends the visitor to the login, to come back afterwards.
  await page.goto('/medidas/curvas');
  await page.waitForURL('**/sesion/login?returnUrl=%2Fmedidas%2Fcurvas');
});

test('los enlaces de activación y de nueva contraseña llevan a sus páginas', async ({ page }) => {
  await page.goto('/sesion/activar-usuario/abc123');
  await expect(page.locator('meta[name="portal-page"]')).toHaveAttribute('content', 'activar-usuario');
  await page.goto('/sesion/nueva-clave/abc123');
  await expect(page.locator('meta[name="portal-page"]')).toHaveAttribute('content', 'nueva-clave');
});

test('la documentación de la API se lee en el navegador', async ({ page }) => {
  await page.goto('/api/docs');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Portal de las distribuidoras');
  await expect(page.getByRole('link', { name: /GET \/api\/distribuidoras/ })).toBeVisible();
});
