/**
 * The private area's side menu and navigation (docs/producto.md §2 Layout, §6): sections by
 * permission, aria-current, collapsing, in-app routing versus full page loads, scroll restoration,
 * focus on the new heading, and the overlay below 992 px (focus trap, Escape, scroll lock).
 */
import { expect, test, type Page } from '@playwright/test';
import { entrar, watchCsp } from './support.ts';

const menu = (page: Page) => page.locator('#menu-privado');
const nav = (page: Page) => menu(page).getByRole('navigation', { name: 'Área privada' });
const botonMenu = (page: Page) => page.getByRole('banner').getByRole('button', { name: 'Menú' });

/** The texts of the section buttons in the menu. */
async function secciones(page: Page): Promise<string[]> {
  return nav(page).locator('.priv-menu__seccion').allInnerTexts();
}

/** Marks the window; the mark survives routing inside the app and is lost on a full page load. */
const marcar = (page: Page) => page.evaluate(() => ((window as unknown as { marca?: number }).marca = 1));
const marcada = (page: Page) => page.evaluate(() => (window as unknown as { marca?: number }).marca === 1);

test.describe('sections by permission', () => {
  test('a promoter sees access and connection and contact, nothing else', async ({ page }) => {
    await entrar(page, 'promotor@electra.example');
    await expect(menu(page).getByText('Bienvenido/a')).toBeVisible();
    expect(await secciones(page)).toEqual(['Acceso y conexión', 'Contacto']);
    const n = nav(page);
    await expect(n.getByRole('link', { name: 'Inicio' })).toHaveAttribute('aria-current', 'page');
    await expect(n.getByRole('link', { name: 'Solicitudes' })).toHaveAttribute('href', '/accesoyconexion/listado-de-solicitudes');
    await expect(n.getByRole('link', { name: 'Capacidad nodal EPD' })).toHaveAttribute('href', '/capacidad-nodal/epd');
    await expect(n.getByRole('link', { name: 'Capacidad nodal EOD' })).toHaveAttribute('href', '/capacidad-nodal/eod');
    await expect(n.getByRole('link', { name: 'Consultas y peticiones' })).toBeVisible();
    await expect(n.getByRole('link', { name: 'Reclamaciones' })).toBeVisible();
    for (const ausente of ['Administración de usuarios', 'Consumo horario', 'SIPS', 'FTP'])
      await expect(n.getByRole('link', { name: ausente })).toHaveCount(0);
    for (const fijo of ['Perfil', 'Información']) await expect(n.getByRole('link', { name: fijo, exact: true })).toBeVisible();
    await expect(n.getByRole('button', { name: 'Cerrar sesión' })).toBeVisible();
  });

  test('a supply company also sees its section, with the FTP screen inside the app', async ({ page }) => {
    await entrar(page, 'comercializadora@electra.example');
    await expect(menu(page).getByText('Energía Clara Comercializadora Demo, S.L.')).toBeVisible();
    expect(await secciones(page)).toEqual(['Acceso y conexión', 'Comercializadora', 'Contacto']);
    const ftp = nav(page).getByRole('link', { name: 'FTP', exact: true });
    await expect(ftp).toHaveAttribute('href', '/comercializadora/ftp');
    await expect(ftp).not.toHaveAttribute('target', /./);
    await expect(nav(page).getByRole('link', { name: 'Solicitudes ATR' })).toBeVisible();
  });

  test('an administrator sees every section', async ({ page }) => {
    await entrar(page, 'admin@electra.example');
    expect(await secciones(page)).toEqual(['Administración', 'Acceso y conexión', 'Consumidor', 'Comercializadora', 'Contacto']);
    for (const texto of [
      'Administración de usuarios',
      'Acceder como otro usuario',
      'Incidencias de red',
      'Registro de actividad',
      'Suministros',
      'Consumo horario',
      'Potencias máximas',
      'Certificado de consumo',
      'Lecturas programadas',
      'Estado del contador',
      'Modificaciones contractuales',
      'Interrupciones de red',
    ]) {
      await expect(nav(page).getByRole('link', { name: texto, exact: true })).toBeVisible();
    }
  });
});

test('menu links route inside the app, mark the current entry, focus the new heading and set the title', async ({ page }) => {
  const violacionesCsp = await watchCsp(page);
  await entrar(page, 'admin@electra.example');
  await marcar(page);
  await nav(page).getByRole('link', { name: 'Potencias máximas' }).click();
  await expect(page).toHaveURL(/\/medidas\/potencia$/);
  await expect(page.locator('main h1')).toHaveText('Potencias máximas');
  await expect(page.locator('main h1')).toBeFocused();
  await expect(page).toHaveTitle('Potencias máximas · Área privada | Grupo Electra Distribución');
  await expect(nav(page).getByRole('link', { name: 'Potencias máximas' })).toHaveAttribute('aria-current', 'page');
  await expect(nav(page).getByRole('link', { name: 'Inicio' })).not.toHaveAttribute('aria-current', /.*/);
  expect(await marcada(page)).toBe(true);
  // The header's "Mi área" is an app link too.
  await page.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: 'Mi área' }).click();
  await expect(page).toHaveURL(/\/inicio$/);
  expect(await marcada(page)).toBe(true);
  // The shell runs under the site's CSP: Astro's hashed island loader and bundled modules only.
  expect(await violacionesCsp()).toEqual([]);
});

test('links leaving the private area make a full page load', async ({ page }) => {
  await entrar(page, 'admin@electra.example');
  for (const [texto, path, id] of [
    ['Información', '/informacion', 'informacion'],
    ['Interrupciones de red', '/incidencias-red', 'incidencias-red'],
    ['Capacidad nodal EPD', '/capacidad-nodal/epd', 'capacidad-nodal'],
  ] as const) {
    await page.goto('/inicio');
    await expect(nav(page)).toBeVisible();
    await marcar(page);
    await nav(page).getByRole('link', { name: texto, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`${path}$`));
    await expect(page.locator('meta[name="portal-page"]')).toHaveAttribute('content', new RegExp(id));
    expect(await marcada(page), texto).toBe(false);
  }
});

test('sections fold and unfold, and the sidebar hides from the header button', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await entrar(page, 'admin@electra.example');
  const seccion = nav(page).getByRole('button', { name: 'Consumidor' });
  await expect(seccion).toHaveAttribute('aria-expanded', 'true');
  await seccion.click();
  await expect(seccion).toHaveAttribute('aria-expanded', 'false');
  await expect(nav(page).getByRole('link', { name: 'Consumo horario' })).toBeHidden();
  await seccion.click();
  await expect(nav(page).getByRole('link', { name: 'Consumo horario' })).toBeVisible();

  await expect(botonMenu(page)).toHaveAttribute('aria-expanded', 'true');
  await expect(botonMenu(page)).toHaveAttribute('aria-controls', 'menu-privado');
  await botonMenu(page).click();
  await expect(botonMenu(page)).toHaveAttribute('aria-expanded', 'false');
  await expect(menu(page)).toBeHidden();
  await botonMenu(page).click();
  await expect(nav(page)).toBeVisible();
});

test('back and forward restore the scroll position; a new navigation starts at the top', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 600 });
  await entrar(page, 'admin@electra.example', undefined, '/perfil');
  await expect(page.getByRole('heading', { name: 'Sesiones abiertas' })).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, 700));
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(700);
  await nav(page).getByRole('link', { name: 'Estado del contador' }).click();
  await expect(page.locator('main h1')).toHaveText('Estado del contador');
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  await page.goBack();
  await expect(page.locator('main h1')).toHaveText('Perfil');
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(700);
  await expect(page.locator('main h1')).toBeFocused();
  await page.goForward();
  await expect(page.locator('main h1')).toHaveText('Estado del contador');
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
});

test('a screen that replaces its title when its data arrives leaves the focus on the new title', async ({ page }) => {
  await entrar(page, 'admin@electra.example', undefined, '/administrador/modificaciones');
  // The detail's data is held back until the loading state has been seen with the focus on its title.
  let soltar!: () => void;
  const retenida = new Promise<void>((r) => (soltar = r));
  await page.route(/\/api\/administrador\/modificaciones\/[^/?]+$/, async (route) => {
    await retenida;
    await route.continue();
  });
  await page
    .getByRole('main')
    .getByRole('link', { name: /^MC-\d{6}$/ })
    .first()
    .click();
  await expect(page.getByText('Cargando la solicitud…')).toBeVisible();
  await expect(page.locator('main h1')).toBeFocused();
  soltar();
  await expect(page.getByRole('main').getByRole('heading', { level: 2, name: /^MC-\d{6}/ })).toBeVisible();
  await expect(page.locator('main h1')).toHaveText('Tramitar una solicitud de modificación');
  await expect(page.locator('main h1')).toBeFocused();
});

test.describe('below 992 px', () => {
  test.use({ viewport: { width: 800, height: 600 } });

  test('the menu is an overlay that traps focus, locks scrolling and closes with Escape', async ({ page }) => {
    await entrar(page, 'admin@electra.example');
    await expect(menu(page)).toBeHidden();
    await expect(botonMenu(page)).toHaveAttribute('aria-expanded', 'false');
    // The page is taller than the window, so a scroll lock can be told from a page that cannot scroll.
    expect(await page.evaluate(() => document.documentElement.scrollHeight > window.innerHeight)).toBe(true);

    await botonMenu(page).click();
    const dialogo = page.getByRole('dialog', { name: 'Menú del área privada' });
    await expect(dialogo).toBeVisible();
    await expect(botonMenu(page)).toHaveAttribute('aria-expanded', 'true');
    await expect(dialogo.getByRole('button', { name: 'Cerrar menú' })).toBeFocused();

    // Focus stays inside, forwards and backwards.
    const dentro = () => page.evaluate(() => document.getElementById('menu-privado')!.contains(document.activeElement));
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      expect(await dentro(), `Tab ${i + 1}`).toBe(true);
    }
    await dialogo.getByRole('button', { name: 'Cerrar menú' }).focus();
    await page.keyboard.press('Shift+Tab');
    await expect(dialogo.getByRole('button', { name: 'Cerrar sesión' })).toBeFocused();

    // Page and body do not scroll; the rest of the page is inert.
    const estado = await page.evaluate(() => ({
      html: getComputedStyle(document.documentElement).overflow,
      body: getComputedStyle(document.body).overflow,
      mainInerte: document.querySelector('main')!.closest('[inert]') !== null,
      pieInerte: document.querySelector('.site-footer')!.closest('[inert]') !== null,
    }));
    expect(estado).toEqual({ html: 'hidden', body: 'hidden', mainInerte: true, pieInerte: true });
    await page.mouse.move(700, 300);
    await page.mouse.wheel(0, 600);
    await page.keyboard.press('PageDown');
    expect(await page.evaluate(() => window.scrollY)).toBe(0);

    await page.keyboard.press('Escape');
    await expect(menu(page)).toBeHidden();
    await expect(botonMenu(page)).toBeFocused();
    await expect(botonMenu(page)).toHaveAttribute('aria-expanded', 'false');
    expect(
      await page.evaluate(() => ({
        html: getComputedStyle(document.documentElement).overflow,
        body: getComputedStyle(document.body).overflow,
        inertes: document.querySelectorAll('[inert]').length,
      })),
    ).toEqual({ html: 'visible', body: 'visible', inertes: 0 });
  });

  test('choosing an entry closes the overlay and focuses the new page', async ({ page }) => {
    await entrar(page, 'admin@electra.example');
    await botonMenu(page).click();
    await page.getByRole('dialog').getByRole('link', { name: 'Perfil' }).click();
    await expect(page).toHaveURL(/\/perfil$/);
    await expect(menu(page)).toBeHidden();
    await expect(page.locator('main h1')).toBeFocused();
    expect(await page.evaluate(() => document.querySelectorAll('[inert]').length)).toBe(0);
  });

  test('a click on the dimmed page beside the panel closes it', async ({ page }) => {
    await entrar(page, 'admin@electra.example');
    await botonMenu(page).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await page.mouse.click(780, 300);
    await expect(menu(page)).toBeHidden();
    await expect(botonMenu(page)).toBeFocused();
  });
});
