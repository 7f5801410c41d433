/**
 * The private area's route guard (docs/producto.md §6, decision 006) with the demo users: anonymous visitors
 * go to the login and come back; each rule lets in the users holding its permission and sends the
 * others to /inicio with a message.
 */
import { expect, test, type Page } from '@playwright/test';
import { entrar, esperarAppPrivada } from './support.ts';

const USUARIOS = {
  /** -accesoyconexion and -contacto (activation permissions) only. */
  promotor: 'promotor@electra.example',
  /** plus epd/eod-comercializadora. */
  comercializadora: 'comercializadora@electra.example',
  /** Every permission. */
  admin: 'admin@electra.example',
} as const;

/** Opens a private path with a full page load and waits for the app to settle on a screen. */
async function abrir(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await esperarAppPrivada(page);
}

/** The h1 of the screen shown. */
const titulo = (page: Page) => page.locator('main h1');

async function esperarDenegada(page: Page, nombre: string): Promise<void> {
  await expect(page).toHaveURL(/\/inicio$/);
  await expect(page.getByText(`No tiene permiso para acceder a «${nombre}».`, { exact: false })).toBeVisible();
  await expect(titulo(page)).toBeFocused();
}

test('an anonymous visitor goes to the login with the path as returnUrl, and back there after logging in', async ({ page }) => {
  await page.goto('/medidas/curvas?cups=ES0001&x=1');
  await page.waitForURL('**/sesion/login?**');
  const url = new URL(page.url());
  expect(url.pathname).toBe('/sesion/login');
  expect(url.searchParams.get('returnUrl')).toBe('/medidas/curvas?cups=ES0001&x=1');
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  await page.getByLabel('Correo electrónico o usuario').fill(USUARIOS.admin);
  await page.getByLabel('Contraseña', { exact: true }).fill('Demo1234');
  await page.getByRole('button', { name: 'Acceder' }).click();
  await page.waitForURL('**/medidas/curvas?cups=ES0001&x=1');
  await esperarAppPrivada(page);
  await expect(titulo(page)).toHaveText('Consumo horario');
  await expect(page).toHaveTitle('Consumo horario · Área privada | Grupo Electra Distribución');
});

test('the back button from the login does not loop into the private page', async ({ page }) => {
  await page.goto('/informacion');
  await page.goto('/perfil');
  await page.waitForURL('**/sesion/login?**');
  await page.goBack();
  await expect(page).toHaveURL(/\/informacion$/);
});

test('solicitud-atr and sips need -comercializadora', async ({ page }) => {
  await entrar(page, USUARIOS.comercializadora);
  await abrir(page, '/comercializadora/solicitud-atr');
  await expect(titulo(page)).toHaveText('Solicitudes ATR');
  await abrir(page, '/comercializadora/sips');
  await expect(titulo(page)).toHaveText('SIPS');

  await page.context().clearCookies();
  await entrar(page, USUARIOS.promotor);
  await abrir(page, '/comercializadora/solicitud-atr');
  await esperarDenegada(page, 'Solicitudes ATR');
  await abrir(page, '/comercializadora/sips');
  await esperarDenegada(page, 'SIPS');
});

test('potencia and curvas need -distribucion', async ({ page }) => {
  await entrar(page, USUARIOS.admin);
  await abrir(page, '/medidas/potencia');
  await expect(titulo(page)).toHaveText('Potencias máximas');

  await page.context().clearCookies();
  await entrar(page, USUARIOS.comercializadora);
  await abrir(page, '/medidas/curvas');
  await esperarDenegada(page, 'Consumo horario');
  await abrir(page, '/medidas/potencia');
  await esperarDenegada(page, 'Potencias máximas');
});

test('listado-de-solicitudes and solicitud need -accesoyconexion', async ({ page }) => {
  await entrar(page, USUARIOS.promotor);
  await abrir(page, '/accesoyconexion/listado-de-solicitudes');
  await expect(titulo(page)).toHaveText('Solicitudes de acceso y conexión');
  await abrir(page, '/accesoyconexion/solicitud');
  await expect(titulo(page)).toHaveText('Solicitud de acceso y conexión');
  // Every active account holds -accesoyconexion (docs/api.md activation permissions), so no demo
  // user lacks it; the refusal itself is covered by the unit tests of the guard.
});

test('any other private path is open once logged in, and administration needs -administrador', async ({ page }) => {
  await entrar(page, USUARIOS.promotor);
  await abrir(page, '/perfil');
  await expect(titulo(page)).toHaveText('Perfil');
  await abrir(page, '/administrador/administrador-usuarios');
  await esperarDenegada(page, 'Administración de usuarios');

  await page.context().clearCookies();
  await entrar(page, USUARIOS.admin, undefined, '/administrador/auditoria');
  await expect(page).toHaveURL(/\/administrador\/auditoria$/);
  await expect(titulo(page)).toHaveText('Registro de actividad');
});

test('a refusal inside the app keeps the history clean: back does not return to the refused page', async ({ page }) => {
  await entrar(page, USUARIOS.promotor);
  await abrir(page, '/perfil');
  await page.evaluate(() => {
    history.pushState(null, '', '/medidas/curvas');
    dispatchEvent(new PopStateEvent('popstate'));
  });
  await esperarDenegada(page, 'Consumo horario');
  await page.goBack();
  await expect(page).toHaveURL(/\/perfil$/);
  await expect(titulo(page)).toHaveText('Perfil');
});

test('a bare first segment opens its first screen, and an unknown private path says it does not exist', async ({ page }) => {
  await entrar(page, USUARIOS.admin);
  await abrir(page, '/medidas');
  await expect(page).toHaveURL(/\/medidas\/curvas$/);
  await expect(titulo(page)).toHaveText('Consumo horario');
  await abrir(page, '/medidas/no-existe');
  await expect(titulo(page)).toHaveText('Página no encontrada');
  await expect(page.getByRole('link', { name: 'Ir a Inicio' })).toHaveAttribute('href', '/inicio');
});

test('the ATR requests screen, once pending, now shows the requests', async ({ page }) => {
  await entrar(page, USUARIOS.comercializadora, undefined, '/comercializadora/solicitud-atr');
  const principal = page.getByRole('main');
  await expect(titulo(page)).toHaveText('Solicitudes ATR');
  await expect(principal.getByRole('search', { name: 'Filtrar solicitudes ATR' })).toBeVisible();
  await expect(principal.getByText('Este servicio todavía no está disponible.')).toHaveCount(0);
});
