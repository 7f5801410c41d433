/**
 * User administration (decision 006) in the browser, against the real portal with its demo
 * data: the list searched, filtered and paged by the server with the query kept in the address; a
 * user's detail; a permission granted that the user then sees in the menu; a deactivation that
 * ends the user's open session; a reactivation; the activation mail sent again; accessibility at
 * desktop and phone widths.
 *
 * Mutating tests each use their own generated account (src/server/usuarios/demo.ts): this file owns
 * cliente111, 112, 114, 121, 122 and 141 (read-only tests look at cliente118 and 119; cliente117 belongs to
 * autorizaciones.spec.ts).
 */
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { entrar, expectNoAxeViolations, WIDTHS } from './support.ts';

const ADMIN = 'admin@electra.example';
const LISTA = '/administrador/administrador-usuarios';
const SHOTS = '/tmp/shots-f2';
mkdirSync(SHOTS, { recursive: true });

/** The portal's mail folder: the e2e server writes each mail as an .eml file there (playwright.config.ts). */
const OUTBOX = join(tmpdir(), `portal-e2e-${process.env.E2E_PORT ?? 4399}`, 'outbox');

const correo = (n: number) => `cliente${String(n).padStart(3, '0')}@correo.example`;

/** The rows of the users table (header row excluded). */
const filas = (page: Page) => page.getByRole('table', { name: /^Usuarios, página/ }).locator('tbody tr');

/** Logs in as the administrator straight into the users list (or another admin path). */
async function entrarComoAdmin(page: Page, destino = LISTA): Promise<void> {
  await entrar(page, ADMIN, undefined, destino);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
}

/** Opens a user's detail from the list, found by e-mail. */
async function abrirDetalle(page: Page, email: string): Promise<void> {
  await page.goto(`${LISTA}?q=${encodeURIComponent(email)}`);
  await filas(page).first().waitFor();
  await filas(page).filter({ hasText: email }).getByRole('link').click();
  await expect(page.getByRole('heading', { level: 1, name: 'Detalle del usuario' })).toBeFocused();
  await expect(page.getByText(email).first()).toBeVisible();
}

/** A second, separate browser session (own cookies) logged in as `email`. */
async function otraSesion(browser: Browser, email: string, destino?: string): Promise<Page> {
  const contexto = await browser.newContext({ locale: 'es-ES', timezoneId: 'Europe/Madrid' });
  const page = await contexto.newPage();
  await entrar(page, email, undefined, destino);
  return page;
}

test.describe('users list', () => {
  test('searches by e-mail on the server and keeps the search in the address across a reload', async ({ page }) => {
    await entrarComoAdmin(page);
    await expect(filas(page)).toHaveCount(25);
    await page.getByRole('searchbox', { name: 'Buscar' }).fill('cliente11');
    await page.getByRole('button', { name: 'Buscar', exact: true }).click();
    await expect(page).toHaveURL(/\?q=cliente11$/);
    await expect(page.getByRole('status').filter({ hasText: 'usuarios encontrados' })).toHaveText('10 usuarios encontrados.');
    await expect(filas(page)).toHaveCount(10);
    for (const email of await filas(page).locator('td.admin-correo').allTextContents())
      expect(email).toMatch(/^cliente11\d@correo\.example$/);

    await page.reload();
    await expect(page.getByRole('searchbox', { name: 'Buscar' })).toHaveValue('cliente11');
    await expect(filas(page)).toHaveCount(10);
  });

  test('filters by state and by permission area', async ({ page }) => {
    await entrarComoAdmin(page, `${LISTA}?estado=inactivo`);
    await expect(page.getByLabel('Estado')).toHaveValue('inactivo');
    await expect(filas(page).first()).toBeVisible();
    for (const estado of await filas(page).locator('.admin-estado').allTextContents()) expect(estado).toBe('Inactivo');

    await page.getByLabel('Estado').selectOption('');
    await page.getByLabel('Con permiso de').selectOption('administrador');
    await page.getByRole('button', { name: 'Buscar', exact: true }).click();
    await expect(page).toHaveURL(/\?area=administrador$/);
    await expect(filas(page).filter({ hasText: ADMIN })).toHaveCount(1);
    await expect(filas(page).filter({ hasText: 'cliente0' })).toHaveCount(0);
  });

  test('says so when nothing matches and clears the filters', async ({ page }) => {
    await entrarComoAdmin(page, `${LISTA}?q=nadie-se-llama-asi`);
    await expect(page.getByText('No hay usuarios que coincidan con la búsqueda y los filtros elegidos.')).toBeVisible();
    await page.getByRole('button', { name: 'Limpiar filtros' }).first().click();
    await expect(page).toHaveURL(new RegExp(`${LISTA}$`));
    await expect(filas(page)).toHaveCount(25);
  });

  test('says a page past the end does not exist, and leads to the first one', async ({ page }) => {
    await entrarComoAdmin(page, `${LISTA}?pagina=999`);
    await expect(page.getByText(/^Esta página no existe: la lista tiene \d+ páginas\.$/)).toBeVisible();
    await page.getByRole('button', { name: 'Ir a la primera página' }).click();
    await expect(page).toHaveURL(new RegExp(`${LISTA}$`));
    await expect(filas(page)).toHaveCount(25);
  });

  test('pages through the list, and back and forward return to each page', async ({ page }) => {
    await entrarComoAdmin(page);
    const paginador = page.getByRole('navigation', { name: 'Paginación de usuarios' });
    await expect(paginador.getByText(/^Página 1 de \d+/)).toBeVisible();
    const primera = await filas(page).locator('td.admin-correo').allTextContents();
    // Every state the DOM goes through on the way to page 2: the title and the first row's e-mail.
    await page.evaluate(() => {
      const vistos: string[] = [];
      (window as unknown as { vistos: string[] }).vistos = vistos;
      const anotar = () => {
        const titulo = document.querySelector('table caption')?.textContent ?? '';
        vistos.push(`${titulo}|${document.querySelector('tbody td.admin-correo')?.textContent ?? ''}`);
      };
      new MutationObserver(anotar).observe(document.body, { childList: true, subtree: true, characterData: true });
    });

    await paginador.getByRole('button', { name: 'Siguiente' }).click();
    await expect(page).toHaveURL(/\?pagina=2$/);
    await expect(page.getByRole('table', { name: /^Usuarios, página 2 de/ })).toBeVisible();
    // Page 1's rows never showed under page 2's title, not even for the one render before the load started.
    const vistos = await page.evaluate(() => (window as unknown as { vistos: string[] }).vistos);
    expect(vistos.filter((v) => v.startsWith('Usuarios, página 2 ') && v.endsWith(`|${primera[0]}`))).toEqual([]);
    const segunda = await filas(page).locator('td.admin-correo').allTextContents();
    expect(segunda).toHaveLength(25);
    expect(segunda.filter((e) => primera.includes(e))).toEqual([]);

    await paginador.getByLabel('Por página').selectOption('10');
    await expect(page).toHaveURL(/\?porPagina=10$/);
    await expect(filas(page)).toHaveCount(10);

    await page.goBack();
    await expect(page.getByRole('table', { name: /^Usuarios, página 2 de/ })).toBeVisible();
    await page.goBack();
    await expect(page.getByRole('table', { name: /^Usuarios, página 1 de/ })).toBeVisible();
    expect(await filas(page).locator('td.admin-correo').allTextContents()).toEqual(primera);
    await page.goForward();
    await expect(page.getByRole('table', { name: /^Usuarios, página 2 de/ })).toBeVisible();
  });
});

test.describe('user detail', () => {
  test("shows the account's data, state and permission matrix, with the automatic permission locked", async ({ page }) => {
    await entrarComoAdmin(page);
    await abrirDetalle(page, correo(118));
    await expect(page.locator('.admin-datos').getByText('Activo', { exact: true })).toBeVisible();
    const matriz = page.getByRole('table', { name: 'Permisos por distribuidora y área' });
    await expect(matriz.getByRole('checkbox')).toHaveCount(15);
    await expect(matriz.getByRole('checkbox', { name: /Contacto en Electra Peninsular/ })).toBeChecked();
    const distribucion = matriz.getByRole('checkbox', { name: /Consumidor \(distribución\) en Electra Peninsular/ });
    await expect(distribucion).toBeDisabled();
    await expect(distribucion).toHaveAccessibleDescription(/se concede automáticamente a los titulares de suministros/);
    await expect(page.getByRole('button', { name: 'Guardar cambios de permisos' })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Acceder como este usuario' })).toBeVisible();

    await page.getByRole('link', { name: 'Volver a la lista de usuarios' }).click();
    await expect(page).toHaveURL(new RegExp(`${LISTA}\\?q=`));
  });

  test("sets a supply company's REE code, which only supply companies have", async ({ page }) => {
    test.setTimeout(90_000);
    // An account of this file made a supply company here: the demo company's code is read by specs
    // that run at the same time (its ATR requests), so it is never changed.
    const email = correo(114);
    await entrarComoAdmin(page);
    await abrirDetalle(page, email);
    await expect(page.getByRole('heading', { name: 'Código REE de comercializadora' })).toHaveCount(0);
    await page.getByRole('checkbox', { name: /Comercializadora en Electra Peninsular/ }).check();
    await page.getByRole('button', { name: 'Guardar cambios de permisos' }).click();
    await expect(page.getByText(/Permisos guardados \(concedidos: epd-comercializadora\)/)).toBeVisible();
    await abrirDetalle(page, email);
    const seccion = page.locator('section.admin-seccion', { has: page.getByRole('heading', { name: 'Código REE de comercializadora' }) });
    const campo = seccion.getByLabel('Código REE (cuatro cifras; vacío para retirarlo)');
    await expect(campo).toHaveValue('');
    await expect(seccion.getByRole('button', { name: 'Guardar código REE' })).toBeDisabled();
    await campo.fill('98A');
    await expect(seccion.getByText('El código REE son cuatro cifras.')).toBeVisible();
    await expect(campo).toHaveAttribute('aria-invalid', 'true');
    await campo.fill('9821');
    await seccion.getByRole('button', { name: 'Guardar código REE' }).click();
    await expect(seccion.getByText('Código REE guardado: 9821.')).toBeVisible();
    await expectNoAxeViolations(page, 'código REE');
    mkdirSync(SHOTS, { recursive: true });
    await seccion.screenshot({ path: join(SHOTS, 'codigo-ree.png') });
  });

  test('does not let the administrator deactivate themself or drop their own administration', async ({ page }) => {
    await entrarComoAdmin(page);
    await abrirDetalle(page, ADMIN);
    await expect(page.getByText('No puede desactivar su propia cuenta.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Desactivar cuenta' })).toHaveCount(0);
    const propio = page.getByRole('checkbox', { name: /Administración en Electra Peninsular/ });
    await expect(propio).toBeDisabled();
    await expect(propio).toHaveAccessibleDescription('No puede retirarse a sí mismo el permiso de administración.');
  });

  test('grants a permission that the user then sees as a menu section', async ({ page, browser }) => {
    const email = correo(111);
    await entrarComoAdmin(page);
    await abrirDetalle(page, email);
    const casilla = page.getByRole('checkbox', { name: /Comercializadora en Electra Peninsular/ });
    await expect(casilla).not.toBeChecked();
    await casilla.check();
    await expect(page.getByText('Se concederá 1 permiso.')).toBeVisible();
    await page.getByRole('button', { name: 'Guardar cambios de permisos' }).click();
    await expect(page.getByText(/Permisos guardados \(concedidos: epd-comercializadora\)/)).toBeVisible();
    await expect(casilla).toBeChecked();
    await expect(page.getByText('No hay cambios pendientes.')).toBeVisible();

    const usuario = await otraSesion(browser, email);
    const menu = usuario.getByRole('navigation', { name: 'Área privada' });
    await expect(menu.getByRole('button', { name: 'Comercializadora' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'SIPS' })).toBeVisible();
    await usuario.context().close();
  });

  test("deactivates an account after confirming, and the user's open session ends at once", async ({ page, browser }) => {
    // Two sessions (or a form, a list and a detail) with axe on each: more than the default 30 s on a loaded 2-core machine.
    test.setTimeout(90_000);
    const email = correo(112);
    const usuario = await otraSesion(browser, email);
    await expect(usuario.getByRole('heading', { level: 1 })).toBeVisible();

    await entrarComoAdmin(page);
    await abrirDetalle(page, email);
    await page.getByRole('button', { name: 'Desactivar cuenta' }).click();
    const dialogo = page.getByRole('dialog', { name: 'Desactivar la cuenta' });
    await expect(dialogo).toContainText('terminarán en este mismo momento');
    await expect(dialogo.getByRole('button', { name: 'Cancelar' })).toBeFocused();
    await dialogo.getByRole('button', { name: 'Desactivar cuenta' }).click();
    await expect(page.getByText(/La cuenta está desactivada y sus sesiones se han cerrado/)).toBeVisible();
    await expect(page.locator('.admin-datos').getByText('Inactivo', { exact: true })).toBeVisible();

    // The user's next call to the API is refused and the portal logs them out (docs/producto.md §8).
    await usuario.getByRole('navigation', { name: 'Área privada' }).getByRole('link', { name: 'Perfil' }).click();
    await usuario.waitForURL((url) => url.pathname === '/');
    // And the session cannot come back from the refresh cookie.
    await usuario.goto('/inicio');
    await usuario.waitForURL((url) => url.pathname === '/sesion/login');
    await usuario.context().close();
  });

  test('reactivates an inactive account, which can then log in', async ({ page, browser }) => {
    const email = correo(141);
    await entrarComoAdmin(page);
    await abrirDetalle(page, email);
    await expect(page.getByText('La cuenta está desactivada: el usuario no puede entrar hasta que se active de nuevo.')).toBeVisible();
    await page.getByRole('button', { name: 'Activar cuenta' }).click();
    await page.getByRole('dialog', { name: 'Activar la cuenta' }).getByRole('button', { name: 'Activar cuenta' }).click();
    await expect(page.getByText('La cuenta está activa. El usuario ya puede entrar en el área privada.')).toBeVisible();

    const usuario = await otraSesion(browser, email);
    await expect(usuario).toHaveURL(/\/inicio$/);
    await usuario.context().close();
  });

  test('activates a pending account with the activation permissions', async ({ page }) => {
    await entrarComoAdmin(page);
    await abrirDetalle(page, correo(122));
    await page.getByRole('button', { name: 'Activar cuenta' }).click();
    const dialogo = page.getByRole('dialog', { name: 'Activar la cuenta' });
    await expect(dialogo).toContainText('permisos de contacto y de acceso y conexión');
    await dialogo.getByRole('button', { name: 'Activar cuenta' }).click();
    await expect(page.locator('.admin-datos').getByText('Activo', { exact: true })).toBeVisible();
    await expect(page.getByRole('checkbox', { name: /Acceso y conexión en Electra Cantábrica/ })).toBeChecked();
  });

  test('sends the activation mail again to a pending account', async ({ page }) => {
    const email = correo(121);
    const antes = new Set(existentes());
    await entrarComoAdmin(page);
    await abrirDetalle(page, email);
    await page.getByRole('button', { name: 'Reenviar correo de activación' }).click();
    await expect(page.getByRole('list', { name: 'Avisos del estado de la cuenta' }).getByRole('status')).toBeVisible();

    // The outbox worker writes the new mail, with a fresh activation link, for that address.
    await expect
      .poll(() =>
        existentes()
          .filter((f) => !antes.has(f))
          .map((f) => readFileSync(join(OUTBOX, f), 'utf8'))
          .some((m) => m.includes(email) && /sesion\/activar-usuario\//.test(m.replace(/=\r?\n/g, ''))),
      )
      .toBe(true);
  });
});

/** The .eml files in the outbox now. */
function existentes(): string[] {
  try {
    return readdirSync(OUTBOX).filter((f) => f.endsWith('.eml'));
  } catch {
    return [];
  }
}

test.describe('accessibility of user administration', () => {
  for (const ancho of WIDTHS) {
    test(`list and detail have no axe violations at ${ancho.width} px`, async ({ page }) => {
      // Several axe runs on a busy machine.
      test.slow();
      await page.setViewportSize({ width: ancho.width, height: ancho.height });
      await entrarComoAdmin(page);
      await expect(filas(page)).toHaveCount(25);
      await expectNoAxeViolations(page, `lista de usuarios ${ancho.name}`);
      await page.screenshot({ path: `${SHOTS}/usuarios-${ancho.width}.png`, fullPage: true });
      await page.screenshot({ path: `${SHOTS}/usuarios-vista-${ancho.width}.png` });

      await abrirDetalle(page, correo(119));
      await expectNoAxeViolations(page, `detalle de usuario ${ancho.name}`);
      await page.screenshot({ path: `${SHOTS}/usuario-detalle-${ancho.width}.png`, fullPage: true });
      await page
        .getByRole('region', { name: 'Permisos por distribuidora y área' })
        .screenshot({ path: `${SHOTS}/usuario-matriz-${ancho.width}.png` });

      await page.getByRole('button', { name: 'Desactivar cuenta' }).click();
      await expect(page.getByRole('dialog', { name: 'Desactivar la cuenta' })).toBeVisible();
      await expectNoAxeViolations(page, `diálogo de desactivación ${ancho.name}`);
      await page.screenshot({ path: `${SHOTS}/usuario-desactivar-${ancho.width}.png` });
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toHaveCount(0);
      await expect(page.getByRole('button', { name: 'Desactivar cuenta' })).toBeFocused();
    });
  }
});
