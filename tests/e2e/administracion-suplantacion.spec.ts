/**
 * "Acceder como otro usuario" (decision 006) in the browser: the administrator finds a
 * user, confirms, acts as them with the banner on every screen, and returns to the administrator
 * session without typing the password; the audit log names both people. Accessibility at desktop
 * and phone widths.
 *
 * Accounts of this file (src/server/usuarios/demo.ts): cliente113 and cliente116.
 */
import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { entrar, expectNoAxeViolations, WIDTHS } from './support.ts';

const ADMIN = 'admin@electra.example';
const PANTALLA = '/administrador/acceso-como-usuario';
const SHOTS = '/tmp/shots-f2';
mkdirSync(SHOTS, { recursive: true });

const correo = (n: number) => `cliente${String(n).padStart(3, '0')}@correo.example`;

/** Searches a user on the impersonation screen and presses its "Acceder" button. */
async function elegir(page: Page, email: string): Promise<void> {
  await page.getByRole('searchbox', { name: 'Usuario' }).fill(email);
  await page.getByRole('button', { name: 'Buscar', exact: true }).click();
  const fila = page
    .getByRole('table', { name: /^Usuarios que coinciden/ })
    .locator('tbody tr')
    .filter({ hasText: email });
  await fila.getByRole('button', { name: /^Acceder como / }).click();
}

/** The banner of an impersonated session. */
const banner = (page: Page) => page.getByRole('region', { name: 'Sesión suplantada' });

test('acts as a user after confirming, with the banner, and returns to the administrator session', async ({ page }) => {
  const email = correo(113);
  await entrar(page, ADMIN, undefined, PANTALLA);
  await expect(page.getByRole('heading', { level: 1, name: 'Acceder como otro usuario' })).toBeVisible();
  await expect(page.getByText('Todo lo que haga quedará registrado con su usuario de administrador y el del usuario.')).toBeVisible();
  await elegir(page, email);

  const dialogo = page.getByRole('dialog', { name: 'Acceder como otro usuario' });
  await expect(dialogo).toContainText(email);
  await dialogo.getByRole('button', { name: 'Acceder como este usuario' }).click();

  await page.waitForURL((url) => url.pathname === '/inicio');
  await expect(banner(page)).toContainText('Está actuando como');
  await expect(banner(page)).toContainText(email);
  const menu = page.getByRole('navigation', { name: 'Área privada' });
  await expect(menu.getByRole('button', { name: 'Administración' })).toHaveCount(0);

  await banner(page).getByRole('button', { name: 'Volver a mi sesión de administrador' }).click();
  await page.waitForURL((url) => url.pathname === '/administrador/administrador-usuarios');
  await expect(page.getByRole('heading', { level: 1, name: 'Administración de usuarios' })).toBeVisible();
  await expect(banner(page)).toHaveCount(0);
  // Still the administrator: the list loads from the API.
  await expect(page.getByRole('table', { name: /^Usuarios, página 1 de/ })).toBeVisible();
});

test('refuses to act as another administrator and says why', async ({ page }) => {
  await entrar(page, ADMIN, undefined, PANTALLA);
  await page.getByRole('searchbox', { name: 'Usuario' }).fill('admin@electra.example');
  await page.getByRole('button', { name: 'Buscar', exact: true }).click();
  const fila = page
    .getByRole('table', { name: /^Usuarios que coinciden/ })
    .locator('tbody tr')
    .filter({ hasText: ADMIN });
  await expect(fila.getByText('No se puede acceder como otro administrador.')).toBeVisible();
  await expect(fila.getByRole('button')).toHaveCount(0);
});

test('asks for a longer search and says when nobody matches', async ({ page }) => {
  await entrar(page, ADMIN, undefined, PANTALLA);
  await page.getByRole('button', { name: 'Buscar', exact: true }).click();
  await expect(page.getByRole('searchbox', { name: 'Usuario' })).toBeFocused();
  await expect(page.getByRole('searchbox', { name: 'Usuario' })).toHaveAccessibleDescription(/Escriba al menos dos caracteres/);
  await page.getByRole('searchbox', { name: 'Usuario' }).fill('nadie-se-llama-asi');
  await page.getByRole('button', { name: 'Buscar', exact: true }).click();
  await expect(page.getByText('No hay usuarios que coincidan con «nadie-se-llama-asi».')).toBeVisible();
});

test("starts from a user's detail, and the audit log shows the impersonation with both users", async ({ page }) => {
  const email = correo(116);
  await entrar(page, ADMIN, undefined, `/administrador/administrador-usuarios?q=${email}`);
  await page
    .getByRole('table', { name: /^Usuarios, página/ })
    .locator('tbody tr')
    .filter({ hasText: email })
    .getByRole('link')
    .click();
  await expect(page.getByText(email).first()).toBeVisible();
  await page.getByRole('button', { name: 'Acceder como este usuario' }).click();
  await page.getByRole('dialog', { name: 'Acceder como otro usuario' }).getByRole('button', { name: 'Acceder como este usuario' }).click();
  await page.waitForURL((url) => url.pathname === '/inicio');
  await expect(banner(page)).toContainText(email);
  // A request made as the user: opening the profile calls the API, which logs it with both users.
  await page.getByRole('navigation', { name: 'Área privada' }).getByRole('link', { name: 'Perfil' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Perfil' })).toBeVisible();
  await banner(page).getByRole('button', { name: 'Volver a mi sesión de administrador' }).click();
  await page.waitForURL((url) => url.pathname === '/administrador/administrador-usuarios');

  await page.goto(`/administrador/auditoria?usuario=${encodeURIComponent(email)}`);
  const tabla = page.getByRole('table', { name: /^Registro de actividad, página/ });
  const inicio = tabla.locator('tbody tr').filter({ hasText: 'Inicio de acceso como otro usuario' });
  await expect(inicio.first()).toContainText(ADMIN);
  await expect(inicio.first()).toContainText(`como`);
  await expect(inicio.first()).toContainText(email);
  const peticion = tabla.locator('tbody tr').filter({ hasText: 'Petición durante un acceso como otro usuario' });
  await expect(peticion.first()).toContainText(ADMIN);
  await expect(peticion.first()).toContainText(email);
  await peticion.first().getByText('Ver detalles').click();
  await expect(peticion.first().locator('dl')).toContainText('/api/perfil');
});

test.describe('accessibility of the impersonation screen', () => {
  for (const ancho of WIDTHS) {
    test(`has no axe violations at ${ancho.width} px, with results and the confirmation open`, async ({ page }) => {
      // Several axe runs on a busy machine.
      test.slow();
      await page.setViewportSize({ width: ancho.width, height: ancho.height });
      await entrar(page, ADMIN, undefined, PANTALLA);
      await expectNoAxeViolations(page, `suplantación ${ancho.name}`);
      await page.getByRole('searchbox', { name: 'Usuario' }).fill('cliente11');
      await page.getByRole('button', { name: 'Buscar', exact: true }).click();
      await expect(page.getByRole('table', { name: /^Usuarios que coinciden/ })).toBeVisible();
      await expectNoAxeViolations(page, `suplantación con resultados ${ancho.name}`);
      await page.screenshot({ path: `${SHOTS}/suplantacion-${ancho.width}.png`, fullPage: true });
      await page
        .getByRole('table', { name: /^Usuarios que coinciden/ })
        .getByRole('button', { name: /^Acceder como / })
        .first()
        .click();
      await expect(page.getByRole('dialog', { name: 'Acceder como otro usuario' })).toBeVisible();
      await expectNoAxeViolations(page, `confirmación de suplantación ${ancho.name}`);
      await page.screenshot({ path: `${SHOTS}/suplantacion-dialogo-${ancho.width}.png` });
      await page.getByRole('dialog').getByRole('button', { name: 'Cancelar' }).click();
      await expect(page.getByRole('dialog')).toHaveCount(0);
    });
  }
});
