/**
 * The audit log view in the browser: filters by action, user and date range kept in the
 * address, a range that ends before it starts refused beside the field, details readable, and
 * accessibility at desktop and phone widths. (The impersonation entries with both users are
 * checked in administracion-suplantacion.spec.ts, which creates them.)
 */
import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { entrar, expectNoAxeViolations, WIDTHS } from './support.ts';

const ADMIN = 'admin@electra.example';
const PANTALLA = '/administrador/auditoria';
const SHOTS = '/tmp/shots-f2';
mkdirSync(SHOTS, { recursive: true });

const tabla = (page: Page) => page.getByRole('table', { name: /^Registro de actividad, página/ });

test('filters by action and user, keeps the filters in the address, and shows the details', async ({ page }) => {
  await entrar(page, ADMIN, undefined, PANTALLA);
  await expect(tabla(page)).toBeVisible();
  await page.getByLabel('Acción').selectOption('sesion.login');
  await page.getByLabel('Usuario', { exact: true }).fill(ADMIN);
  await page.getByRole('button', { name: 'Filtrar' }).click();
  await expect(page).toHaveURL(/\?accion=sesion\.login&usuario=admin%40electra\.example$/);
  const filas = tabla(page).locator('tbody tr');
  await expect(filas.first()).toBeVisible();
  for (const texto of await filas.allTextContents()) {
    expect(texto).toContain('Inicio de sesión');
    expect(texto).toContain(ADMIN);
  }
  await filas.first().getByText('Ver detalles').click();
  await expect(filas.first().locator('dl')).toContainText('con');

  await page.reload();
  await expect(page.getByLabel('Acción')).toHaveValue('sesion.login');
  await expect(page.getByLabel('Usuario', { exact: true })).toHaveValue(ADMIN);
});

test("includes today's entries for a range ending today, and refuses a range that ends before it starts", async ({ page }) => {
  await entrar(page, ADMIN, undefined, PANTALLA);
  const hoy = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Madrid' }).format(new Date());
  await page.getByLabel('Desde').fill(hoy);
  await page.getByLabel('Hasta (incluido)').fill(hoy);
  await page.getByLabel('Acción').selectOption('sesion.login');
  await page.getByRole('button', { name: 'Filtrar' }).click();
  await expect(tabla(page).locator('tbody tr').first()).toBeVisible();

  await page.getByLabel('Desde').fill('2025-02-10');
  await page.getByLabel('Hasta (incluido)').fill('2025-02-01');
  await page.getByRole('button', { name: 'Filtrar' }).click();
  await expect(page.getByLabel('Hasta (incluido)')).toBeFocused();
  await expect(page.getByLabel('Hasta (incluido)')).toHaveAccessibleDescription(/no puede ser anterior/);
  await expect(page).toHaveURL(new RegExp(`desde=${hoy}`));
});

test('says so when no entry matches', async ({ page }) => {
  await entrar(page, ADMIN, undefined, `${PANTALLA}?usuario=nadie%40correo.example`);
  await expect(page.getByText('No hay entradas que coincidan con los filtros elegidos.')).toBeVisible();
});

test.describe('accessibility of the audit log', () => {
  for (const ancho of WIDTHS) {
    test(`has no axe violations at ${ancho.width} px`, async ({ page }) => {
      // Several axe runs on a busy machine.
      test.slow();
      await page.setViewportSize({ width: ancho.width, height: ancho.height });
      await entrar(page, ADMIN, undefined, PANTALLA);
      await expect(tabla(page)).toBeVisible();
      await tabla(page).getByText('Ver detalles').first().click();
      // From the top: a control scrolled under the shell's sticky header would count as covered.
      await page.evaluate(() => window.scrollTo(0, 0));
      await expectNoAxeViolations(page, `auditoría ${ancho.name}`);
      await page.screenshot({ path: `${SHOTS}/auditoria-${ancho.width}.png`, fullPage: true });
    });
  }
});
