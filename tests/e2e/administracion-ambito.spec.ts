/**
 * Administration scoped by distributor (docs/decisions/014) as an administrator of EPD alone meets
 * it: a household with supply points at EPD and EOD shows in the list, but its detail says why its
 * state cannot be changed nor the account entered, instead of offering the buttons; only EPD's
 * permissions show. Read-only: no demo data changes.
 */
import { expect, test } from '@playwright/test';
import { entrar, expectNoAxeViolations } from './support.ts';

const LISTA = '/administrador/administrador-usuarios';

test('an EPD administrator sees why it cannot act on a household that is also EOD’s', async ({ page }) => {
  await entrar(page, 'admin-epd@electra.example', undefined, `${LISTA}?q=consumidor%40electra.example`);
  const filas = page.getByRole('table', { name: /^Usuarios, página/ }).locator('tbody tr');
  await expect(filas).toHaveCount(1);
  await filas.first().getByRole('link').click();
  await expect(page.getByRole('heading', { level: 1, name: 'Detalle del usuario' })).toBeFocused();
  const motivo = 'Esta cuenta tiene suministros o permisos en Electra Occidental Distribución, S.L., que usted no administra';
  await expect(page.getByText(motivo).first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Desactivar cuenta' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Acceder como este usuario' })).toHaveCount(0);
  await expect(page.getByRole('table', { name: 'Permisos por distribuidora y área' })).not.toContainText('Electra Occidental');
  await expectNoAxeViolations(page, 'detalle de usuario fuera del ámbito');
});

test('an EPD administrator does not see the all-distributor administrator’s EOD and ECD permissions, nor may act on it', async ({
  page,
}) => {
  await entrar(page, 'admin-epd@electra.example', undefined, `${LISTA}?q=admin%40electra.example`);
  const filas = page.getByRole('table', { name: /^Usuarios, página/ }).locator('tbody tr');
  await expect(filas).toHaveCount(1);
  await filas.first().getByRole('link').click();
  await expect(
    page.getByText('Solo un administrador de todas las distribuidoras puede actuar sobre la cuenta de otro administrador.').first(),
  ).toBeVisible();
});
