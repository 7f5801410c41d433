/**
 * /perfil (decision 006) through the browser, one generated demo account per test
 * (cliente101…110@correo.example, src/server/usuarios/demo.ts): names and company name, the password
 * change, the sessions list, and the e-mail change confirmed by the mailed link.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { E2E_PORT } from '../../playwright.config.ts';
import { DEMO_PASSWORD, entrar, esperarAppPrivada } from './support.ts';

/** Where the server writes its mails in the browser tests (playwright.config.ts DATA_DIR). */
const BUZON = join(tmpdir(), `portal-e2e-${E2E_PORT}`, 'outbox');

const bloque = (page: Page, nombre: string) => page.getByRole('region', { name: nombre });
const saludo = (page: Page) => page.locator('#menu-privado .priv-menu__saludo');

/** Decodes the quoted-printable body nodemailer writes, enough to read a link. */
function decodificarQp(texto: string): string {
  return texto.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}

/** The confirmation link of the newest mail sent to `destino`, once the outbox worker wrote it. */
async function enlaceConfirmacion(destino: string): Promise<string> {
  let enlace: string | null = null;
  await expect
    .poll(
      () => {
        if (!existsSync(BUZON)) return null;
        for (const f of readdirSync(BUZON).sort().reverse()) {
          const texto = decodificarQp(readFileSync(join(BUZON, f), 'utf8'));
          if (!new RegExp(`^To: .*${destino.replace(/[.]/g, '\\.')}`, 'mi').test(texto)) continue;
          const m = /https?:\/\/[^\s"<>]*\/sesion\/confirmar-email\/[^\s"<>]+/.exec(texto);
          if (m) return (enlace = m[0]);
        }
        return null;
      },
      { timeout: 15_000 },
    )
    .not.toBeNull();
  return enlace!;
}

test('a person edits their names; the NIF is shown and cannot be edited', async ({ page }) => {
  await entrar(page, 'cliente101@correo.example', DEMO_PASSWORD, '/perfil');
  const cuenta = bloque(page, 'Datos de la cuenta');
  await expect(cuenta.getByText('NIF', { exact: true })).toBeVisible();
  await expect(cuenta.getByText(/El NIF no se puede cambiar desde aquí/)).toBeVisible();
  await expect(page.getByRole('textbox', { name: /NIF/ })).toHaveCount(0);

  const datos = bloque(page, 'Nombre y apellidos');
  await expect(datos.getByRole('textbox', { name: 'Razón social' })).toHaveCount(0);
  const apellido = await datos.getByLabel('Primer apellido').inputValue();
  await datos.getByLabel('Nombre', { exact: true }).fill('');
  await datos.getByRole('button', { name: 'Guardar los datos' }).click();
  const resumen = datos.getByRole('group', { name: 'Revise los campos marcados' });
  await expect(resumen).toBeFocused();
  await resumen.getByRole('link', { name: 'Introduzca el nombre.' }).click();
  await expect(datos.getByLabel('Nombre', { exact: true })).toBeFocused();
  await expect(datos.getByLabel('Primer apellido')).toHaveValue(apellido);

  await datos.getByLabel('Nombre', { exact: true }).fill('Antoñito');
  await datos.getByLabel('Segundo apellido').fill('Núñez de Arce');
  await datos.getByRole('button', { name: 'Guardar los datos' }).click();
  await expect(datos.getByText('Sus datos se han guardado.')).toBeVisible();
  await expect(saludo(page)).toContainText('Antoñito');

  await page.reload();
  await esperarAppPrivada(page);
  await expect(bloque(page, 'Nombre y apellidos').getByLabel('Nombre', { exact: true })).toHaveValue('Antoñito');
  await expect(bloque(page, 'Nombre y apellidos').getByLabel('Segundo apellido')).toHaveValue('Núñez de Arce');
});

test('a company edits its company name only', async ({ page }) => {
  await entrar(page, 'cliente104@correo.example', DEMO_PASSWORD, '/perfil');
  const datos = bloque(page, 'Razón social');
  await expect(datos.getByLabel('Nombre', { exact: true })).toHaveCount(0);
  await datos.getByRole('textbox', { name: 'Razón social' }).fill('x'.repeat(151));
  await datos.getByRole('button', { name: 'Guardar los datos' }).click();
  await expect(datos.getByRole('group', { name: 'Revise los campos marcados' })).toContainText('150 caracteres');
  await datos.getByRole('textbox', { name: 'Razón social' }).fill('Panadería Nueva del Tajo Demo, S.L.');
  await datos.getByRole('button', { name: 'Guardar los datos' }).click();
  await expect(datos.getByText('Sus datos se han guardado.')).toBeVisible();
  await page.reload();
  await esperarAppPrivada(page);
  await expect(bloque(page, 'Razón social').getByRole('textbox', { name: 'Razón social' })).toHaveValue(
    'Panadería Nueva del Tajo Demo, S.L.',
  );
});

test('the password changes with the current one and the rule, and the new one logs in', async ({ page }) => {
  await entrar(page, 'cliente102@correo.example', DEMO_PASSWORD, '/perfil');
  const clave = bloque(page, 'Cambiar la contraseña');
  await expect(clave.getByText(/Requisitos de la contraseña/)).toBeVisible();

  // Different copies: caught before sending.
  await clave.getByLabel('Contraseña actual').fill(DEMO_PASSWORD);
  await clave.getByLabel('Nueva contraseña', { exact: true }).fill('Nueva1234');
  await clave.getByLabel('Repita la nueva contraseña').fill('Nueva12345');
  await clave.getByRole('button', { name: 'Cambiar la contraseña' }).click();
  await expect(clave.getByRole('group', { name: 'Revise los campos marcados' })).toContainText('Las contraseñas no coinciden.');

  // The show/hide toggle reveals the field.
  const verNueva = clave.getByRole('button', { name: 'Mostrar la nueva contraseña' });
  await verNueva.click();
  await expect(verNueva).toHaveAttribute('aria-pressed', 'true');
  await expect(clave.getByLabel('Nueva contraseña', { exact: true })).toHaveAttribute('type', 'text');

  // A wrong current password: the server says so.
  await clave.getByLabel('Contraseña actual').fill('Equivocada1');
  await clave.getByLabel('Repita la nueva contraseña').fill('Nueva1234');
  await clave.getByRole('button', { name: 'Cambiar la contraseña' }).click();
  await expect(clave.getByText('La contraseña actual no es correcta.')).toBeVisible();
  await expect(clave.getByLabel('Contraseña actual')).toHaveValue('');

  await clave.getByLabel('Contraseña actual').fill(DEMO_PASSWORD);
  await clave.getByRole('button', { name: 'Cambiar la contraseña' }).click();
  await expect(clave.getByText(/Su contraseña ha sido actualizada/)).toBeVisible();
  await expect(clave.getByLabel('Nueva contraseña', { exact: true })).toHaveValue('');

  // This session stays; a new login needs the new password.
  await page.reload();
  await esperarAppPrivada(page);
  await expect(page.locator('main h1')).toHaveText('Perfil');
  await page.context().clearCookies();
  await entrar(page, 'cliente102@correo.example', 'Nueva1234');
  await expect(page.locator('main h1')).toContainText('Bienvenido/a');
});

test('the sessions list shows this session and closes the others', async ({ page, browser }) => {
  const otro = await browser.newContext();
  const otraPagina = await otro.newPage();
  await entrar(otraPagina, 'cliente103@correo.example');
  await entrar(page, 'cliente103@correo.example', DEMO_PASSWORD, '/perfil');

  const sesiones = bloque(page, 'Sesiones abiertas');
  const lista = sesiones.getByRole('list', { name: 'Lista de sesiones abiertas' });
  await expect(lista.getByRole('listitem')).toHaveCount(2);
  await expect(lista.getByRole('listitem').filter({ hasText: 'Esta sesión' })).toHaveCount(1);
  await expect(lista.getByRole('listitem').first()).toContainText('Chrome en Linux');

  await sesiones.getByRole('button', { name: 'Cerrar las demás sesiones' }).click();
  await expect(sesiones.getByText('Hemos cerrado 1 sesión.')).toBeVisible();
  await expect(lista.getByRole('listitem')).toHaveCount(1);
  await expect(sesiones.getByRole('button', { name: 'Cerrar las demás sesiones' })).toBeDisabled();

  // The other browser's refresh cookie is dead: its next page load goes to the login.
  await otraPagina.goto('/perfil');
  await otraPagina.waitForURL('**/sesion/login?returnUrl=%2Fperfil');
  await otro.close();
});

test('an e-mail change takes effect when the new address confirms the mailed link', async ({ page }) => {
  const nuevo = `cliente105.nuevo.${Date.now()}@correo.example`;
  await entrar(page, 'cliente105@correo.example', DEMO_PASSWORD, '/perfil');
  const email = bloque(page, 'Cambiar el correo electrónico');
  await expect(email.getByText(/Le enviaremos un enlace a la nueva dirección/)).toBeVisible();

  await email.getByRole('button', { name: 'Enviar el enlace de confirmación' }).click();
  await expect(email.getByRole('group', { name: 'Revise los campos marcados' })).toBeFocused();

  await email.getByLabel('Nuevo correo electrónico').fill(nuevo);
  await email.getByLabel('Contraseña actual').fill(DEMO_PASSWORD);
  await email.getByRole('button', { name: 'Enviar el enlace de confirmación' }).click();
  await expect(email.getByText(`Le hemos enviado un enlace a ${nuevo}.`, { exact: false })).toBeVisible();
  await expect(email.getByText(/Cambio pendiente de confirmar/)).toContainText(nuevo);
  // Until confirmed, the login name is still the old address.
  await expect(bloque(page, 'Datos de la cuenta')).toContainText('cliente105@correo.example');

  const enlace = await enlaceConfirmacion(nuevo);
  await page.goto(new URL(enlace).pathname);
  await expect(page.getByText('Su nueva dirección de correo electrónico ha quedado confirmada.')).toBeVisible();

  // Every session ended with the change; the new address logs in.
  await page.goto('/perfil');
  await page.waitForURL('**/sesion/login?**');
  await entrar(page, nuevo, DEMO_PASSWORD, '/perfil');
  await expect(bloque(page, 'Datos de la cuenta')).toContainText(nuevo);
  await expect(bloque(page, 'Cambiar el correo electrónico').getByText(/Cambio pendiente/)).toHaveCount(0);

  // The link works once.
  await page.goto(new URL(enlace).pathname);
  await expect(page.getByText('No hemos podido confirmar el cambio de correo electrónico.')).toBeVisible();
});
