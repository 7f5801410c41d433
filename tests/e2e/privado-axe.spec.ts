/**
 * Accessibility of every private screen (docs/diseno.md "axe finds nothing on every page, public and
 * private") at desktop and phone widths, plus the states that only exist after an action: the menu
 * overlay, a form with errors, the impersonation banner. Each screen is also photographed into
 * SHOTS_DIR (default /tmp/shots-f1) for a person to look at.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { RUTAS_APP } from '../../src/lib/privado/rutas-app.ts';
import { DEMO_PASSWORD, entrar, esperarAppPrivada, expectNoAxeViolations, WIDTHS } from './support.ts';

const SHOTS = process.env.SHOTS_DIR ?? '/tmp/shots-f1';
mkdirSync(SHOTS, { recursive: true });

const basic = (u: string, p: string) => `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}`;

/** The id of some user, for the user detail screen, asked through the API as the administrator. */
async function idDeUnUsuario(page: Page): Promise<string> {
  const login = await page.request.post('/api/accesoUsuario', {
    headers: { Authorization: basic('admin@electra.example', DEMO_PASSWORD) },
  });
  const { jwtToken } = (await login.json()) as { jwtToken: string };
  const lista = await page.request.get('/api/listadoUsuarios?q=cliente001', { headers: { Authorization: `Bearer ${jwtToken}` } });
  const usuarios = (await lista.json()) as { id: string }[];
  return usuarios[0]!.id;
}

/** Opens a path inside the running app (no reload, so no new refresh per screen) and waits until it settled. */
async function irDentro(page: Page, path: string, titulo: string | RegExp): Promise<void> {
  await page.evaluate((p) => {
    history.pushState(null, '', p);
    dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await esperarAppPrivada(page);
  await expect(page.locator('main h1')).toHaveText(titulo);
  // Screens that load data say "Cargando…" meanwhile; check them once they have their content.
  await expect(page.getByRole('main').getByText(/^Cargando/)).toHaveCount(0, { timeout: 10_000 });
}

/**
 * The screens in groups of this many, one test per group and width: each test logs in once, the two
 * workers share the groups, and a slow machine never has one test walk all 42 screens against one
 * timeout.
 */
const POR_GRUPO = 7;
const GRUPOS = Array.from({ length: Math.ceil(RUTAS_APP.length / POR_GRUPO) }, (_, i) =>
  RUTAS_APP.slice(i * POR_GRUPO, (i + 1) * POR_GRUPO),
);

for (const w of WIDTHS) {
  GRUPOS.forEach((grupo, g) => {
    const ultimo = g === GRUPOS.length - 1;
    test(`private screens ${g * POR_GRUPO + 1}–${g * POR_GRUPO + grupo.length} pass axe at ${w.name} (${w.width} px)`, async ({ page }) => {
      test.setTimeout(120_000);
      await page.setViewportSize({ width: w.width, height: w.height });
      const id = grupo.some((r) => r.id === 'adminUsuario') ? await idDeUnUsuario(page) : '';
      await page.context().clearCookies();
      await entrar(page, 'admin@electra.example');
      for (const r of grupo) {
        const path = r.patron
          .replace(':id?', '')
          .replace(':id', r.id === 'adminUsuario' ? id : '1')
          .replace(/\/$/, '');
        const titulo = r.id === 'inicio' ? /^Bienvenido\/a/ : r.id === 'adminUsuario' ? /.+/ : r.titulo;
        await irDentro(page, path, titulo);
        await expectNoAxeViolations(page, `${path} a ${w.width} px`);
        await page.screenshot({ path: join(SHOTS, `${w.name}-${r.id}.png`), fullPage: true });
      }
      if (ultimo) {
        await irDentro(page, '/medidas/nada', 'Página no encontrada');
        await expectNoAxeViolations(page, `no encontrada a ${w.width} px`);
      }
    });
  });
}

test('the menu overlay passes axe on a phone', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await entrar(page, 'comercializadora@electra.example');
  await page.getByRole('button', { name: 'Menú' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await expectNoAxeViolations(page, 'menú abierto a 390 px');
  await page.screenshot({ path: join(SHOTS, 'movil-menu-abierto.png') });
});

test('the profile with errors, and the dashboard of a user without some areas, pass axe', async ({ page }) => {
  await entrar(page, 'promotor@electra.example');
  await page.screenshot({ path: join(SHOTS, 'escritorio-inicio-promotor.png'), fullPage: true });
  await expectNoAxeViolations(page, 'inicio del promotor');
  await page.goto('/perfil');
  await esperarAppPrivada(page);
  const clave = page.getByRole('region', { name: 'Cambiar la contraseña' });
  await clave.getByRole('button', { name: 'Cambiar la contraseña' }).click();
  await expect(clave.getByRole('group', { name: 'Revise los campos marcados' })).toBeFocused();
  await expectNoAxeViolations(page, 'perfil con errores');
  await page.screenshot({ path: join(SHOTS, 'escritorio-perfil-errores.png'), fullPage: true });
});

test('at 320 px the private screens fit the width (no sideways scrolling)', async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 640 });
  await entrar(page, 'comercializadora@electra.example');
  for (const [path, titulo] of [
    ['/inicio', /^Bienvenido\/a/],
    ['/perfil', 'Perfil'],
    ['/comercializadora/sips', 'SIPS'],
    ['/comercializadora/ftp', 'FTP'],
  ] as const) {
    await irDentro(page, path, titulo);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(320);
    await page.screenshot({ path: join(SHOTS, `320-${path.split('/').pop()}.png`), fullPage: true });
  }
  await page.getByRole('button', { name: 'Menú' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await page.screenshot({ path: join(SHOTS, '320-menu.png') });
});

/** The cases of a demo account, asked through the API with its own token. */
async function casos(page: Page, email: string, path: string): Promise<{ id: string; paso: string }[]> {
  const login = await page.request.post('/api/accesoUsuario', { headers: { Authorization: basic(email, DEMO_PASSWORD) } });
  const { jwtToken } = (await login.json()) as { jwtToken: string };
  const r = await page.request.get(path, { headers: { Authorization: `Bearer ${jwtToken}` } });
  return (await r.json()) as { id: string; paso: string }[];
}

/** Each case screen of a list: its path, the heading it shows, and the screenshot's name. */
const pantallas = (prefijo: string, lista: { id: string; paso: string }[], titulo: string) =>
  lista.map((c) => [`${prefijo}/${c.id}`, titulo, `${prefijo.split('/').pop()}-${c.paso}`] as const);

/** Opens each screen in the running app, runs axe on it and photographs it. */
async function revisarPantallas(
  page: Page,
  ancho: { name: string; width: number },
  lista: readonly (readonly [string, string, string])[],
  prefijoFoto: string,
) {
  for (const [path, titulo, nombre] of lista) {
    await irDentro(page, path, titulo);
    await expectNoAxeViolations(page, `${path} a ${ancho.width} px`);
    await page.screenshot({ path: join(SHOTS, `${ancho.name}-${prefijoFoto}-${nombre}.png`), fullPage: true });
  }
}

for (const w of WIDTHS) {
  test(`the consumer's query and claim screens with their data pass axe at ${w.name} (${w.width} px)`, async ({ page }) => {
    test.setTimeout(120_000);
    const reclamaciones = await casos(page, 'consumidor@electra.example', '/api/contacto/reclamaciones');
    const consultas = await casos(page, 'consumidor@electra.example', '/api/contacto/consultas');
    await page.context().clearCookies();
    await page.setViewportSize({ width: w.width, height: w.height });
    await entrar(page, 'consumidor@electra.example');
    await revisarPantallas(
      page,
      w,
      [
        ['/contacto/nueva-reclamacion?distribuidora=epd&subtipo=022', 'Nueva reclamación', 'nueva-reclamacion'],
        ...pantallas('/contacto/detalleReclamacion', reclamaciones, 'Detalle de la reclamación'),
        ...pantallas('/contacto/consulta', consultas, 'Consulta o petición'),
      ],
      'contacto',
    );
  });

  test(`the staff's query and claim screens with their data pass axe at ${w.name} (${w.width} px)`, async ({ page }) => {
    test.setTimeout(120_000);
    const cola = await casos(page, 'admin@electra.example', '/api/administrador/contacto?distribuidora=epd');
    await page.context().clearCookies();
    await page.setViewportSize({ width: w.width, height: w.height });
    await entrar(page, 'admin@electra.example');
    await revisarPantallas(page, w, pantallas('/administrador/contacto', cola, 'Tramitar una consulta o reclamación'), 'admin');
  });
}
