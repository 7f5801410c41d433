/**
 * The SSH keys of a supply company's SFTP access, in /perfil: how to connect, a private key refused
 * with the server's message beside the field, a public key added and listed with its fingerprint,
 * then deleted after the confirmation. A household never sees the block (nor asks the API for it).
 */
import { createHash } from 'node:crypto';
import { expect, test, type Locator, type Page } from '@playwright/test';
import ssh2 from 'ssh2';
import { E2E_PORT } from '../../playwright.config.ts';
import { generarClaveSsh } from '../../src/server/intercambio/sftp.ts';
import { DEMO_PASSWORD, entrar, expectNoAxeViolations } from './support.ts';

const TITULO = 'Acceso SFTP con clave SSH';
const bloque = (page: Page) => page.getByRole('region', { name: TITULO });

/** `SHA256:` and the unpadded base64 of the key blob's SHA-256, as `ssh-keygen -lf` prints it. */
function huella(lineaPublica: string): string {
  const blob = Buffer.from(lineaPublica.trim().split(/\s+/)[1]!, 'base64');
  return `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
}

/** Today as dd/mm/aaaa in Madrid. */
const hoy = () =>
  new Intl.DateTimeFormat('es-ES', { timeZone: 'Europe/Madrid', day: '2-digit', month: '2-digit', year: 'numeric' }).format(new Date());

/** Logs in to the portal's SFTP server (playwright.config.ts SFTP_PORT) with a private key, and leaves. */
function entrarPorSftp(usuario: string, privateKey: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const c = new ssh2.Client();
    c.on('ready', () => {
      c.end();
      resolve();
    })
      .on('error', reject)
      .connect({ host: '127.0.0.1', port: E2E_PORT + 20000, username: usuario, privateKey, readyTimeout: 15_000 });
  });
}

/** A screenshot of the viewport with `desde` at its top, below the sticky header. */
async function foto(page: Page, desde: Locator, path: string): Promise<void> {
  await desde.evaluate((el) => {
    el.scrollIntoView();
    window.scrollBy(0, -90);
  });
  await page.screenshot({ path });
}

/** Whether the page scrolls sideways. */
const desborda = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth + 1);

test('a supply company adds an SSH public key, is refused a private one, and deletes the key', async ({ page }) => {
  const par = generarClaveSsh('e2e');
  const publica = par.public;
  const sha = huella(publica);

  await page.setViewportSize({ width: 1280, height: 900 });
  await entrar(page, 'comercializadora@electra.example', DEMO_PASSWORD, '/perfil');
  const claves = bloque(page);
  await expect(claves).toBeVisible();
  const host = new URL(page.url()).hostname;
  await expect(claves.getByText(`sftp -P ${E2E_PORT + 20000} comercializadora@electra.example@${host}`)).toBeVisible();
  await expect(claves.getByText(/con la contraseña del portal/)).toBeVisible();
  await expect(claves.getByText(/No tiene ninguna clave registrada/)).toBeVisible();

  const campo = claves.getByRole('textbox', { name: 'Clave pública (contenido del fichero .pub)' });
  const anadir = claves.getByRole('button', { name: 'Añadir clave' });

  // Nothing pasted: caught before sending.
  await anadir.click();
  const resumen = claves.getByRole('group', { name: 'Revise los campos marcados' });
  await expect(resumen).toBeFocused();
  await expect(resumen).toContainText('Pegue el contenido de su fichero de clave pública (.pub).');

  // A private key: refused in the browser, never sent; said beside the field and in the focused summary.
  const envios: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith('/api/perfil/claves-ssh')) envios.push(r.postData() ?? '');
  });
  await campo.fill(par.private);
  await anadir.click();
  await expect(resumen).toContainText('Eso es una clave privada');
  await expect(resumen).toBeFocused();
  await expect(campo).toHaveAttribute('aria-invalid', 'true');
  await expect(campo).toHaveAccessibleDescription(/Eso es una clave privada/);
  await expect(campo).toHaveValue('');
  expect(envios).toEqual([]);
  await foto(page, claves.getByRole('heading', { name: 'Añadir una clave' }), '/tmp/claves-1280-error.png');
  await resumen.getByRole('link', { name: /Eso es una clave privada/ }).click();
  await expect(campo).toBeFocused();

  // The public key: listed with its fingerprint, never used yet.
  await campo.fill(publica);
  await expect(campo).not.toHaveAttribute('aria-invalid', 'true');
  await anadir.click();
  await expect(claves.getByRole('status').filter({ hasText: `Clave añadida. Su huella es ${sha}.` })).toBeVisible();
  await expect(campo).toHaveValue('');
  await expect(resumen).toHaveCount(0);
  const lista = claves.getByRole('list', { name: 'Claves registradas' });
  const fila = lista.getByRole('listitem').filter({ hasText: sha });
  await expect(fila).toHaveCount(1);
  await expect(fila).toContainText('ssh-ed25519');
  await expect(fila).toContainText('e2e');
  await expect(fila).toContainText(`Añadida el ${hoy()}`);
  await expect(fila).toContainText('Sin usar');
  await expect(fila.locator('code')).toHaveText(sha);

  // Used once to log in by SFTP: the list, read again, says when.
  await entrarPorSftp('comercializadora@electra.example', par.private);
  await page.reload();
  await expect(fila).toContainText(new RegExp(`Último uso el ${hoy()} a las \\d{2}:\\d{2}`));
  await expect(fila).not.toContainText('Sin usar');

  // The same key twice: the server says so.
  await campo.fill(publica);
  await anadir.click();
  await expect(resumen).toContainText('Esa clave ya está registrada en su cuenta.');
  await expect(campo).toHaveAccessibleDescription(/ya está registrada/);
  await expectNoAxeViolations(page, 'perfil de la comercializadora con una clave y un error');
  await campo.fill('');
  await campo.blur();

  await foto(page, claves.getByRole('heading', { name: TITULO }), '/tmp/claves-1280.png');

  await page.setViewportSize({ width: 375, height: 1000 });
  expect(await desborda(page)).toBe(false);
  await foto(page, claves.getByRole('heading', { name: TITULO }), '/tmp/claves-375.png');
  await expectNoAxeViolations(page, 'perfil de la comercializadora a 375 px');

  // Refused again, then the key is deleted below: the refusal must not outlive the key.
  await page.setViewportSize({ width: 1280, height: 800 });
  await campo.fill(publica);
  await anadir.click();
  await expect(resumen).toContainText('Esa clave ya está registrada en su cuenta.');

  // "Borrar" asks first; Cancelar (or Escape) keeps the key and returns the focus to the button.
  const borrar = fila.getByRole('button', { name: /^Borrar/ });
  await expect(borrar).toHaveAccessibleName('Borrar la clave «e2e»');
  await borrar.click();
  const dialogo = page.getByRole('dialog', { name: 'Borrar la clave SSH' });
  await expect(dialogo).toBeVisible();
  await expect(dialogo).toContainText(sha);
  await expect(dialogo.getByRole('button', { name: 'Cancelar' })).toBeFocused();
  await page.screenshot({ path: '/tmp/claves-375-dialogo.png' });
  await expectNoAxeViolations(page, 'confirmación de borrar la clave');
  await page.keyboard.press('Escape');
  await expect(dialogo).toBeHidden();
  await expect(borrar).toBeFocused();
  await expect(fila).toHaveCount(1);

  // Confirmed: gone, and the focus on the list's heading.
  await page.keyboard.press('Enter');
  await dialogo.getByRole('button', { name: 'Borrar la clave' }).click();
  await expect(fila).toHaveCount(0);
  await expect(claves.getByRole('status').filter({ hasText: 'Hemos borrado la clave «e2e»' })).toBeVisible();
  await expect(claves.getByRole('heading', { name: 'Claves registradas' })).toBeFocused();
  await expect(claves.getByText(/No tiene ninguna clave registrada/)).toBeVisible();
  // The earlier «ya está registrada» no longer holds once the key is gone: nothing of it stays on screen.
  await expect(claves.getByText('Esa clave ya está registrada en su cuenta.')).toHaveCount(0);

  await page.reload();
  await expect(bloque(page).getByText(/No tiene ninguna clave registrada/)).toBeVisible();
});

test('a household does not see the SFTP block, nor asks for SSH keys', async ({ page }) => {
  const pedidas: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/perfil/claves-ssh')) pedidas.push(r.url());
  });
  await entrar(page, 'consumidor@electra.example', DEMO_PASSWORD, '/perfil');
  await expect(page.getByRole('region', { name: 'Sesiones abiertas' }).getByRole('listitem').first()).toBeVisible();
  await expect(bloque(page)).toHaveCount(0);
  await expect(page.getByText(/sftp -P/)).toHaveCount(0);
  expect(pedidas).toEqual([]);
  await expectNoAxeViolations(page, 'perfil del hogar');
});
