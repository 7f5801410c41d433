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

for (const w of WIDTHS) {
  test(`every private screen passes axe at ${w.name} (${w.width} px)`, async ({ page }) => {
    test.setTimeout(240_000);
    await page.setViewportSize({ width: w.width, height: w.height });
    const id = await idDeUnUsuario(page);
    await page.context().clearCookies();
    await entrar(page, 'admin@electra.example');
    for (const r of RUTAS_APP) {
      const path = r.patron
        .replace(':id?', '')
        .replace(':id', r.id === 'adminUsuario' ? id : '1')
        .replace(/\/$/, '');
      const titulo = r.id === 'inicio' ? /^Bienvenido\/a/ : r.id === 'adminUsuario' ? /.+/ : r.titulo;
      await irDentro(page, path, titulo);
      await expectNoAxeViolations(page, `${path} a ${w.width} px`);
      await page.screenshot({ path: join(SHOTS, `${w.name}-${r.id}.png`), fullPage: true });
    }
    await irDentro(page, '/medidas/nada', 'Página no encontrada');
    await expectNoAxeViolations(page, `no encontrada a ${w.width} px`);
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

test('the query and claim screens with their data pass axe at desktop and phone widths', async ({ page }) => {
  test.setTimeout(180_000);
  /** The cases of a demo account, asked through the API with its own token. */
  const casos = async (email: string, path: string) => {
    const login = await page.request.post('/api/accesoUsuario', { headers: { Authorization: basic(email, DEMO_PASSWORD) } });
    const { jwtToken } = (await login.json()) as { jwtToken: string };
    const r = await page.request.get(path, { headers: { Authorization: `Bearer ${jwtToken}` } });
    return (await r.json()) as { id: string; paso: string }[];
  };
  const reclamaciones = await casos('consumidor@electra.example', '/api/contacto/reclamaciones');
  const consultas = await casos('consumidor@electra.example', '/api/contacto/consultas');
  const cola = await casos('admin@electra.example', '/api/administrador/contacto?distribuidora=epd');
  await page.context().clearCookies();
  const pantallas = (prefijo: string, lista: { id: string; paso: string }[], titulo: string) =>
    lista.map((c) => [`${prefijo}/${c.id}`, titulo, `${prefijo.split('/').pop()}-${c.paso}`] as const);
  for (const w of WIDTHS) {
    await page.setViewportSize({ width: w.width, height: w.height });
    await entrar(page, 'consumidor@electra.example');
    for (const [path, titulo, nombre] of [
      ['/contacto/nueva-reclamacion?distribuidora=epd&subtipo=022', 'Nueva reclamación', 'nueva-reclamacion'],
      ...pantallas('/contacto/detalleReclamacion', reclamaciones, 'Detalle de la reclamación'),
      ...pantallas('/contacto/consulta', consultas, 'Consulta o petición'),
    ] as const) {
      await irDentro(page, path, titulo);
      await expectNoAxeViolations(page, `${path} a ${w.width} px`);
      await page.screenshot({ path: join(SHOTS, `${w.name}-contacto-${nombre}.png`), fullPage: true });
    }
    await page.context().clearCookies();
    await entrar(page, 'admin@electra.example');
    for (const [path, titulo, nombre] of pantallas('/administrador/contacto', cola, 'Tramitar una consulta o reclamación')) {
      await irDentro(page, path, titulo);
      await expectNoAxeViolations(page, `${path} a ${w.width} px`);
      await page.screenshot({ path: join(SHOTS, `${w.name}-admin-${nombre}.png`), fullPage: true });
    }
    await page.context().clearCookies();
  }
});
