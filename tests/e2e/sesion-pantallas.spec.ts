/**
 * The five session screens in the browser with the API answered by the test (page.route), so every
 * branch of docs/producto.md §5 and §8 is reached on purpose: validation, every modal text, the alert list,
 * returnUrl, redirects of a logged-in visitor, the header's logged-in variant, accessibility and
 * screenshots at both widths. The real journey against the server and a real SMTP server is in
 * sesion.spec.ts.
 */
import { mkdirSync } from 'node:fs';
import { expect, test, type Page, type Request, type Route } from '@playwright/test';
import { letraDni } from '../../src/lib/nif.ts';
import { MENSAJE_FORMULARIO_INVALIDO } from '../../src/lib/cuentas/reglas.ts';
import { WIDTHS, expectNoAxeViolations, watchCsp } from './support.ts';
import { CLAVE_PISTA_SESION } from '../../src/lib/sesion/pista.ts';

/** The exact texts of docs/producto.md §5 and §8, written out again here so a typo in the code fails a test. */
const T = {
  procesando: 'Procesando su solicitud...',
  loginFallido: 'Usuario o contraseña incorrecta',
  activacionFallida: 'No hemos podido validar su cuenta.Por favor, intentelo de nuevo, o pongase en contacto con nosotros.',
  altaPorDefecto: 'El usuario ya existe o faltan datos para el alta',
  cuentaCreadaTexto: 'Recibirá en su correo las instrucciones para la activación.Será redireccionado al inicio en breves momentos',
  claveCambiadaTexto: 'Su contraseña ha sido actualizada. Recibirá un correo con la confirmación correspondiente.',
  claveNoCambiadaTexto: 'No hemos podido actualizar su contraseña, por favor, inténtelo de nuevo o mas tarde.',
  peticionOkTexto: 'Le hemos enviado un correo electrónico con las instrucciones para recuperar su contraseña. Por favor, revíselo.',
  peticionKoTexto: 'No hemos podido procesar su petición, por favor, verifique los datos o inténtelo de nuevo o mas tarde.',
};

const CAPTURAS = '/tmp/sesion-capturas';
mkdirSync(CAPTURAS, { recursive: true });

/** An unsigned JWT with `exp` (the browser reads it, never verifies it). */
function jwt(segundos = 900): string {
  const b64u = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${b64u({ alg: 'HS256', typ: 'JWT' })}.${b64u({ sub: 'u1', exp: Math.floor(Date.now() / 1000) + segundos })}.firma`;
}
const sesion = () => ({ jwtToken: jwt(), Permisos: ['epd-contacto', 'epd-accesoyconexion'], username: 'ana@example.com', nombre: 'Ana' });

const json = (route: Route, status: number, cuerpo: unknown, headers: Record<string, string> = {}) =>
  route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(cuerpo), headers });

/** No session: the startup refresh answers 401, as for any anonymous visitor. */
async function anonimo(page: Page): Promise<void> {
  await page.route('**/api/users/refresh-token', (r) => json(r, 401, { message: 'Inicie sesión.' }));
}

/** Records the JSON bodies posted to an endpoint and answers them. */
async function capturar(page: Page, endpoint: string, responder: (route: Route, req: Request) => Promise<void>): Promise<unknown[]> {
  const cuerpos: unknown[] = [];
  await page.route(`**/api/${endpoint}`, async (route, req) => {
    cuerpos.push(req.postDataJSON());
    await responder(route, req);
  });
  return cuerpos;
}

const dialogo = (page: Page) => page.getByRole('dialog');

/** Opens a session page and waits until its island has hydrated (Astro drops `ssr` then). */
async function abrir(page: Page, ruta: string): Promise<void> {
  await page.goto(ruta);
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
}

async function esperarModal(page: Page, titulo: string, texto: string): Promise<void> {
  const d = dialogo(page);
  await expect(d).toBeVisible();
  await expect(d).toHaveAccessibleName(titulo);
  await expect(d).toHaveAccessibleDescription(texto);
  await expect(d.getByRole('heading', { name: titulo })).toBeVisible();
  await expect(d.getByText(texto, { exact: true })).toBeVisible();
}

/**
 * Fakes the page's clock and stops it, so timers fire only when the test says (page.clock.runFor).
 * Must run before the page is opened.
 */
async function congelarReloj(page: Page): Promise<void> {
  const ahora = Date.now();
  await page.clock.install({ time: ahora });
  await page.clock.pauseAt(ahora + 1_000);
}

/** A valid DNI for a test. */
const dni = (n: number) => `${String(n).padStart(8, '0')}${letraDni(n)}`;

test.describe('accesibilidad y capturas', () => {
  const paginas = [
    { nombre: 'login', ruta: '/sesion/login', h1: 'Acceso' },
    { nombre: 'crear-cuenta', ruta: '/sesion/crear-cuenta', h1: 'Registro' },
    { nombre: 'recordar-clave', ruta: '/sesion/recordar-clave', h1: 'Recuperar la contraseña' },
    { nombre: 'nueva-clave', ruta: '/sesion/nueva-clave/abc123', h1: 'Nueva contraseña' },
    { nombre: 'activar-usuario', ruta: '/sesion/activar-usuario/abc123', h1: 'Confirmando su dirección' },
  ];
  for (const p of paginas) {
    for (const size of WIDTHS) {
      test(`${p.ruta} a ${size.width} px no tiene fallos de axe ni de CSP`, async ({ page }) => {
        await page.setViewportSize({ width: size.width, height: size.height });
        await anonimo(page);
        // The activation call is held, so the page is checked as it confirms (spinner up), not while it leaves.
        let soltar: () => void = () => undefined;
        await page.route('**/api/activarUsuario', async (r) => {
          await new Promise<void>((ok) => (soltar = ok));
          await json(r, 200, {});
        });
        const csp = await watchCsp(page);
        await abrir(page, p.ruta);
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(p.h1);
        if (p.nombre === 'activar-usuario') await expect(dialogo(page)).toHaveAccessibleName(T.procesando);
        else await expect(page.locator('form')).toBeVisible();
        // Nothing wider than the viewport (320 px and up).
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);
        await expectNoAxeViolations(page, `${p.ruta} (${size.name})`);
        await page.screenshot({ path: `${CAPTURAS}/${p.nombre}-${size.width}.png`, fullPage: true });
        if (p.nombre === 'activar-usuario') {
          soltar();
          await expect(page.getByText('Su cuenta se ha activado correctamente.')).toBeVisible();
          await page.screenshot({ path: `${CAPTURAS}/${p.nombre}-activada-${size.width}.png` });
        }
        expect(await csp()).toEqual([]);
      });
    }
  }

  test('a 320 px ninguna pantalla se sale por el lado', async ({ page }) => {
    await page.setViewportSize({ width: 320, height: 640 });
    await anonimo(page);
    await page.route('**/api/activarUsuario', (r) => json(r, 400, {}));
    for (const p of paginas) {
      await abrir(page, p.ruta);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), p.ruta).toBeLessThanOrEqual(320);
    }
    await page.screenshot({ path: `${CAPTURAS}/activar-usuario-error-320.png` });
  });

  for (const size of WIDTHS) {
    test(`el acceso con errores y con el modal a ${size.width} px no tiene fallos de axe`, async ({ page }) => {
      await page.setViewportSize({ width: size.width, height: size.height });
      await anonimo(page);
      await page.route('**/api/accesoUsuario', (r) => json(r, 401, { message: 'Credenciales incorrectas' }));
      await abrir(page, '/sesion/login');
      await page.getByRole('button', { name: 'Acceder' }).click();
      await expect(page.getByRole('group', { name: 'Revise los campos marcados' })).toBeFocused();
      await expectNoAxeViolations(page, `login con errores (${size.name})`);
      await page.screenshot({ path: `${CAPTURAS}/login-errores-${size.width}.png`, fullPage: true });
      await page.getByLabel('Correo electrónico o usuario').fill('ana@example.com');
      await page.getByLabel('Contraseña', { exact: true }).fill('Mala1234');
      await page.getByRole('button', { name: 'Acceder' }).click();
      await esperarModal(page, 'Error', T.loginFallido);
      await expectNoAxeViolations(page, `login con el modal (${size.name})`);
      await page.screenshot({ path: `${CAPTURAS}/login-modal-${size.width}.png` });
    });

    test(`el registro con errores y con avisos a ${size.width} px no tiene fallos de axe`, async ({ page }) => {
      test.setTimeout(60_000);
      await page.setViewportSize({ width: size.width, height: size.height });
      await anonimo(page);
      await page.route('**/api/altaUsuario', (r) =>
        json(r, 400, ['El NIF ya está registrado.', 'El correo electrónico ya está registrado.']),
      );
      await abrir(page, '/sesion/crear-cuenta');
      await page.getByRole('button', { name: 'Crear cuenta' }).click();
      await expect(page.getByRole('group', { name: MENSAJE_FORMULARIO_INVALIDO })).toBeFocused();
      await expectNoAxeViolations(page, `registro con errores (${size.name})`);
      await page.screenshot({ path: `${CAPTURAS}/crear-cuenta-errores-${size.width}.png`, fullPage: true });
      await rellenarPersona(page, dni(12345678));
      await page.getByRole('button', { name: 'Crear cuenta' }).click();
      await expect(page.getByRole('alert')).toHaveCount(2);
      await expectNoAxeViolations(page, `registro con avisos (${size.name})`);
      await page.screenshot({ path: `${CAPTURAS}/crear-cuenta-avisos-${size.width}.png`, fullPage: true });
    });

    test(`el spinner y el modal con botón propio a ${size.width} px no tienen fallos de axe`, async ({ page }) => {
      await page.setViewportSize({ width: size.width, height: size.height });
      let soltar: () => void = () => undefined;
      await page.route('**/api/actualizarClave', async (r) => {
        await new Promise<void>((ok) => (soltar = ok));
        await json(r, 200, {});
      });
      await abrir(page, '/sesion/nueva-clave/abc123');
      await page.getByLabel('Nueva contraseña', { exact: true }).fill('Nueva1234');
      await page.getByLabel('Repita la nueva contraseña').fill('Nueva1234');
      await page.getByRole('button', { name: 'Cambiar la contraseña' }).click();
      await expect(dialogo(page)).toHaveAccessibleName(T.procesando);
      await expectNoAxeViolations(page, `spinner (${size.name})`);
      await page.screenshot({ path: `${CAPTURAS}/spinner-${size.width}.png` });
      soltar();
      await esperarModal(page, 'Contraseña cambiada', T.claveCambiadaTexto);
      await expectNoAxeViolations(page, `modal con botón propio (${size.name})`);
      await page.screenshot({ path: `${CAPTURAS}/nueva-clave-cambiada-${size.width}.png` });
    });
  }
});

async function rellenarPersona(page: Page, nif: string, correo = 'ana@example.com'): Promise<void> {
  await page.getByLabel('NIF/CIF').fill(nif);
  await page.getByLabel('Nombre', { exact: true }).fill('Ana');
  await page.getByLabel('Primer apellido').fill('Ruiz');
  await page.getByLabel('Segundo apellido').fill('Gil');
  await page.getByLabel('Correo electrónico').fill(correo);
  await page.getByLabel('Contraseña', { exact: true }).fill('Secreta1');
}

test.describe('acceso', () => {
  test.beforeEach(async ({ page }) => anonimo(page));

  test('sin nadie conectado, la página no pide renovar la sesión ni deja errores en la consola', async ({ page }) => {
    const errores: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errores.push(m.text());
    });
    const renovaciones: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/users/refresh-token')) renovaciones.push(r.url());
    });
    await page.unroute('**/api/users/refresh-token');
    await page.goto('/sesion/login');
    await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Acceder' })).toBeVisible();
    // Give a refresh, if any, time to be made.
    await page.waitForTimeout(500);
    expect(renovaciones).toEqual([]);
    expect(errores).toEqual([]);
  });

  test('los dos campos son obligatorios: resumen enfocado, enlaces a cada campo y mensajes junto a ellos', async ({ page }) => {
    await abrir(page, '/sesion/login');
    await page.getByRole('button', { name: 'Acceder' }).click();
    const resumen = page.getByRole('group', { name: 'Revise los campos marcados' });
    await expect(resumen).toBeFocused();
    await expect(resumen.getByRole('link')).toHaveText(['Introduzca su correo electrónico o usuario.', 'Introduzca su contraseña.']);
    await expect(page.getByLabel('Correo electrónico o usuario')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel('Correo electrónico o usuario')).toHaveAccessibleDescription(/Introduzca su correo electrónico o usuario/);
    await resumen.getByRole('link', { name: 'Introduzca su contraseña.' }).click();
    await expect(page.getByLabel('Contraseña', { exact: true })).toBeFocused();
  });

  test('tiene autocompletado, enlaces a crear cuenta y recuperar la contraseña y la flecha al inicio', async ({ page }) => {
    await abrir(page, '/sesion/login');
    await expect(page.getByLabel('Correo electrónico o usuario')).toHaveAttribute('autocomplete', 'username');
    await expect(page.getByLabel('Contraseña', { exact: true })).toHaveAttribute('autocomplete', 'current-password');
    await expect(page.locator('form')).toHaveAttribute('novalidate', '');
    await expect(page.getByRole('link', { name: 'Crear una cuenta' })).toHaveAttribute('href', '/sesion/crear-cuenta');
    await expect(page.getByRole('link', { name: 'Recuperar la contraseña' })).toHaveAttribute('href', '/sesion/recordar-clave');
    await page.getByRole('link', { name: 'Volver al inicio', exact: true }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('el botón muestra y oculta la contraseña', async ({ page }) => {
    await abrir(page, '/sesion/login');
    const campo = page.getByLabel('Contraseña', { exact: true });
    const boton = page.getByRole('button', { name: 'Mostrar contraseña' });
    await expect(campo).toHaveAttribute('type', 'password');
    await boton.click();
    await expect(campo).toHaveAttribute('type', 'text');
    await expect(boton).toHaveAttribute('aria-pressed', 'true');
    await boton.click();
    await expect(campo).toHaveAttribute('type', 'password');
  });

  test('un fallo abre el modal Error; Escape lo cierra y el foco vuelve al botón', async ({ page }) => {
    await page.route('**/api/accesoUsuario', (r) => json(r, 401, { message: 'Credenciales incorrectas' }));
    await abrir(page, '/sesion/login');
    await page.getByLabel('Correo electrónico o usuario').fill('ana@example.com');
    await page.getByLabel('Contraseña', { exact: true }).fill('Mala1234');
    await page.getByRole('button', { name: 'Acceder' }).click();
    await esperarModal(page, 'Error', T.loginFallido);
    await expect(dialogo(page).getByRole('button', { name: 'Cerrar' })).toBeFocused();
    // The page behind is inert: Tab never reaches it (it goes to the browser's own controls and back).
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('Tab');
      expect(
        await page.evaluate(
          () => !document.activeElement || document.activeElement === document.body || !!document.activeElement.closest('dialog'),
        ),
      ).toBe(true);
    }
    await dialogo(page).getByRole('button', { name: 'Cerrar' }).focus();
    await page.keyboard.press('Escape');
    await expect(dialogo(page)).toBeHidden();
    await expect(page.getByRole('button', { name: 'Acceder' })).toBeFocused();
  });

  test('un 429 muestra el mensaje del servidor', async ({ page }) => {
    await page.route('**/api/accesoUsuario', (r) =>
      json(r, 429, { message: 'Demasiados intentos. Espere 5 minutos.' }, { 'Retry-After': '300' }),
    );
    await abrir(page, '/sesion/login');
    await page.getByLabel('Correo electrónico o usuario').fill('ana@example.com');
    await page.getByLabel('Contraseña', { exact: true }).fill('Mala1234');
    await page.getByRole('button', { name: 'Acceder' }).click();
    await esperarModal(page, 'Error', 'Demasiados intentos. Espere 5 minutos.');
  });

  test('envía Basic auth en UTF-8 y, mientras espera, muestra el spinner, que Escape no cierra', async ({ page }) => {
    let soltar: () => void = () => undefined;
    const cabeceras: string[] = [];
    await page.route('**/api/accesoUsuario', async (route, req) => {
      cabeceras.push(req.headers()['authorization'] ?? '');
      await new Promise<void>((r) => (soltar = r));
      await json(route, 401, {});
    });
    await abrir(page, '/sesion/login');
    await page.getByLabel('Correo electrónico o usuario').fill('íñigo@example.com');
    await page.getByLabel('Contraseña', { exact: true }).fill('Contraseña1');
    await page.getByRole('button', { name: 'Acceder' }).click();
    await expect(dialogo(page)).toHaveAccessibleName(T.procesando);
    await page.keyboard.press('Escape');
    await expect(dialogo(page)).toHaveAccessibleName(T.procesando);
    expect(cabeceras).toEqual([`Basic ${Buffer.from('íñigo@example.com:Contraseña1', 'utf8').toString('base64')}`]);
    soltar();
    await esperarModal(page, 'Error', T.loginFallido);
  });

  for (const [returnUrl, destino] of [
    ['/medidas/curvas?año=2025', '/medidas/curvas?a%C3%B1o=2025'],
    ['https://malo.example/inicio', '/inicio'],
    ['//malo.example', '/inicio'],
    ['/\\malo.example', '/inicio'],
    [null, '/inicio'],
  ] as const) {
    test(`tras entrar con returnUrl=${returnUrl} va a ${destino}`, async ({ page }) => {
      await page.route('**/api/accesoUsuario', (r) => json(r, 200, sesion()));
      await abrir(page, returnUrl === null ? '/sesion/login' : `/sesion/login?returnUrl=${encodeURIComponent(returnUrl)}`);
      await page.getByLabel('Correo electrónico o usuario').fill('ana@example.com');
      await page.getByLabel('Contraseña', { exact: true }).fill('Demo1234');
      await page.getByRole('button', { name: 'Acceder' }).click();
      await page.waitForURL((u) => `${u.pathname}${u.search}` === destino);
      // The token is in memory only. Read once the page answers: the destination may still be loading,
      // or go on to another page (only the login is mocked), which would end a read in flight.
      const guardado = () => page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
      await expect.poll(() => guardado().catch(() => 'eyJ (navegando)')).not.toContain('eyJ');
    });
  }
});

test.describe('con la sesión ya abierta', () => {
  for (const [ruta, destino] of [
    ['/sesion/login', '/inicio'],
    ['/sesion/crear-cuenta', '/accesoyconexion/listado-de-solicitudes'],
    ['/sesion/recordar-clave', '/accesoyconexion/listado-de-solicitudes'],
  ] as const) {
    test(`${ruta} lleva a ${destino}`, async ({ page }) => {
      // A browser with a session keeps the logged-in hint its login set; only then is the refresh tried.
      await page.addInitScript((clave) => localStorage.setItem(clave, '1'), CLAVE_PISTA_SESION);
      await page.route('**/api/users/refresh-token', (r) => json(r, 200, sesion()));
      await page.goto(ruta);
      await page.waitForURL(`**${destino}`);
    });
  }
});

test.describe('registro', () => {
  test.beforeEach(async ({ page }) => anonimo(page));

  test('el NIF se escribe en mayúsculas y se clasifica; un CIF vacía y desactiva nombre y apellidos', async ({ page }) => {
    await abrir(page, '/sesion/crear-cuenta');
    const nif = page.getByLabel('NIF/CIF');
    await page.getByLabel('Nombre', { exact: true }).fill('Ana');
    await expect(page.getByLabel('Razón social')).toBeDisabled();
    await nif.pressSequentially('b0000101');
    await expect(nif).toHaveValue('B0000101');
    await expect(page.locator('[data-tipo-nif]')).toHaveText('incompleto o no válido');
    await nif.press('6');
    await expect(page.locator('[data-tipo-nif]')).toHaveText('CIF de una empresa');
    for (const campo of ['Nombre', 'Primer apellido', 'Segundo apellido']) {
      await expect(page.getByLabel(campo, { exact: true })).toBeDisabled();
      await expect(page.getByLabel(campo, { exact: true })).toHaveValue('');
    }
    await expect(page.getByLabel('Razón social')).toBeEnabled();
  });

  test('un DNI o NIE vacía y desactiva la razón social; la razón social con valor desactiva los nombres', async ({ page }) => {
    await abrir(page, '/sesion/crear-cuenta');
    await page.getByLabel('Razón social').fill('Talleres, S.L.');
    await expect(page.getByLabel('Nombre', { exact: true })).toBeDisabled();
    await page.getByLabel('NIF/CIF').fill('x1234567l');
    await expect(page.getByLabel('NIF/CIF')).toHaveValue('X1234567L');
    await expect(page.locator('[data-tipo-nif]')).toHaveText('DNI o NIE de una persona');
    await expect(page.getByLabel('Razón social')).toBeDisabled();
    await expect(page.getByLabel('Razón social')).toHaveValue('');
    await expect(page.getByLabel('Nombre', { exact: true })).toBeEnabled();
    // Back to an incomplete NIF with no values: everything enabled.
    await page.getByLabel('NIF/CIF').fill('X12');
    await expect(page.getByLabel('Razón social')).toBeEnabled();
    await expect(page.getByLabel('Nombre', { exact: true })).toBeEnabled();
  });

  test('un formulario inválido muestra el mensaje de docs/producto.md, los errores de cada campo y conserva los valores', async ({
    page,
  }) => {
    await abrir(page, '/sesion/crear-cuenta');
    await page.getByLabel('NIF/CIF').fill(dni(1));
    await page.getByLabel('Nombre', { exact: true }).fill('Ana');
    await page.getByLabel('Correo electrónico').fill('no-es-un-correo');
    await page.getByLabel('Contraseña', { exact: true }).fill('abc');
    await page.getByRole('button', { name: 'Crear cuenta' }).click();
    const resumen = page.getByRole('group', { name: MENSAJE_FORMULARIO_INVALIDO });
    await expect(resumen).toBeFocused();
    await expect(resumen.getByRole('link')).toHaveText([
      'Introduzca el primer apellido.',
      'Introduzca el segundo apellido.',
      'El correo electrónico no tiene un formato válido.',
      'La contraseña debe tener entre 3 y 30 caracteres, con al menos una letra mayúscula, una minúscula y un número.',
    ]);
    await expect(page.getByLabel('Nombre', { exact: true })).toHaveValue('Ana');
    await expect(page.getByLabel('Correo electrónico')).toHaveValue('no-es-un-correo');
    await expect(page.getByLabel('Primer apellido')).toHaveAccessibleDescription(/Introduzca el primer apellido/);
  });

  test('una persona envía la razón social vacía y host = origen + /sesion; luego Cuenta creada y a Acceso a los 7 s', async ({ page }) => {
    await congelarReloj(page);
    const cuerpos = await capturar(page, 'altaUsuario', (r) => json(r, 200, {}));
    await abrir(page, '/sesion/crear-cuenta');
    const origen = new URL(page.url()).origin;
    await rellenarPersona(page, dni(23456789).toLowerCase(), 'ana@example.com');
    await page.getByRole('button', { name: 'Crear cuenta' }).click();
    await esperarModal(page, 'Cuenta creada', T.cuentaCreadaTexto);
    expect(cuerpos).toEqual([
      {
        nif: dni(23456789),
        razonSocial: '',
        nombre: 'Ana',
        apellido1: 'Ruiz',
        apellido2: 'Gil',
        password: 'Secreta1',
        correoElectronico: 'ana@example.com',
        host: `${origen}/sesion`,
      },
    ]);
    await page.clock.runFor(6_900);
    expect(new URL(page.url()).pathname).toBe('/sesion/crear-cuenta');
    await page.clock.runFor(100);
    await page.waitForURL('**/sesion/login');
  });

  test('una empresa envía los nombres vacíos', async ({ page }) => {
    const cuerpos = await capturar(page, 'altaUsuario', (r) => json(r, 200, {}));
    await abrir(page, '/sesion/crear-cuenta');
    await page.getByLabel('NIF/CIF').fill('B00001016');
    await page.getByLabel('Razón social').fill('Talleres, S.L.');
    await page.getByLabel('Correo electrónico').fill('talleres@example.com');
    await page.getByLabel('Contraseña', { exact: true }).fill('Secreta1');
    await page.getByRole('button', { name: 'Crear cuenta' }).click();
    await esperarModal(page, 'Cuenta creada', T.cuentaCreadaTexto);
    expect(cuerpos[0]).toMatchObject({ nif: 'B00001016', razonSocial: 'Talleres, S.L.', nombre: '', apellido1: '', apellido2: '' });
  });

  test('una lista de errores del servidor va a la lista de avisos, cada uno con su cruz', async ({ page }) => {
    await page.route('**/api/altaUsuario', (r) =>
      json(r, 400, ['El NIF ya está registrado.', 'El correo electrónico ya está registrado.']),
    );
    await abrir(page, '/sesion/crear-cuenta');
    await rellenarPersona(page, dni(34567890));
    await page.getByRole('button', { name: 'Crear cuenta' }).click();
    const avisos = page.getByRole('alert');
    await expect(avisos).toHaveText(['Error: El NIF ya está registrado.', 'Error: El correo electrónico ya está registrado.']);
    await expect(dialogo(page)).toBeHidden();
    await page.getByRole('button', { name: 'Cerrar aviso' }).first().click();
    await expect(avisos).toHaveText(['Error: El correo electrónico ya está registrado.']);
    await expect(page.getByRole('button', { name: 'Cerrar aviso' })).toBeFocused();
    await page.getByRole('button', { name: 'Cerrar aviso' }).click();
    await expect(avisos).toHaveCount(0);
    await expect(page.getByLabel('Nombre', { exact: true })).toHaveValue('Ana');
  });

  test('un texto del servidor va al modal Error', async ({ page }) => {
    await page.route('**/api/altaUsuario', (r) => json(r, 409, { message: 'El usuario ya existe o faltan datos para el alta' }));
    await abrir(page, '/sesion/crear-cuenta');
    await rellenarPersona(page, dni(45678901));
    await page.getByRole('button', { name: 'Crear cuenta' }).click();
    await esperarModal(page, 'Error', 'El usuario ya existe o faltan datos para el alta');
  });

  test('sin texto del servidor el modal Error dice el texto por defecto', async ({ page }) => {
    await page.route('**/api/altaUsuario', (r) => r.fulfill({ status: 409, body: '' }));
    await abrir(page, '/sesion/crear-cuenta');
    await rellenarPersona(page, dni(56789012));
    await page.getByRole('button', { name: 'Crear cuenta' }).click();
    await esperarModal(page, 'Error', T.altaPorDefecto);
  });

  test('tiene la flecha a Acceso y el autocompletado de correo y contraseña nueva', async ({ page }) => {
    await abrir(page, '/sesion/crear-cuenta');
    await expect(page.getByLabel('Correo electrónico')).toHaveAttribute('autocomplete', 'email');
    await expect(page.getByLabel('Contraseña', { exact: true })).toHaveAttribute('autocomplete', 'new-password');
    await page.getByRole('link', { name: 'Volver a Acceso' }).click();
    await page.waitForURL('**/sesion/login');
  });
});

test.describe('activación', () => {
  test('confirma la dirección, lo dice y va a Acceso a los 5 s', async ({ page }) => {
    await congelarReloj(page);
    const cuerpos = await capturar(page, 'activarUsuario', (r) => json(r, 200, {}));
    await abrir(page, '/sesion/activar-usuario/id-de-prueba_123');
    await expect(page.getByRole('heading', { level: 1, name: 'Confirmando su dirección' })).toBeVisible();
    await expect(page.getByText('Será redireccionado a la página de acceso en 5 segundos.', { exact: false })).toBeVisible();
    expect(cuerpos).toEqual([{ id: 'id-de-prueba_123' }]);
    await page.clock.runFor(4_900);
    expect(new URL(page.url()).pathname).toBe('/sesion/activar-usuario/id-de-prueba_123');
    await page.clock.runFor(100);
    await page.waitForURL('**/sesion/login');
  });

  test('un enlace no válido abre el modal Error con el texto de docs/producto.md', async ({ page }) => {
    await page.route('**/api/activarUsuario', (r) => json(r, 400, { message: 'El enlace no es válido o ha caducado.' }));
    await abrir(page, '/sesion/activar-usuario/caducado');
    await esperarModal(page, 'Error', T.activacionFallida);
  });
});

test.describe('recuperar la contraseña', () => {
  test.beforeEach(async ({ page }) => anonimo(page));

  test('correo obligatorio y válido, NIF obligatorio', async ({ page }) => {
    await abrir(page, '/sesion/recordar-clave');
    await page.getByRole('button', { name: 'Enviar' }).click();
    const resumen = page.getByRole('group', { name: 'Revise los campos marcados' });
    await expect(resumen).toBeFocused();
    await expect(resumen.getByRole('link')).toHaveText(['Introduzca el correo electrónico.', 'Introduzca el NIF, NIE o CIF.']);
    await page.getByLabel('Correo electrónico').fill('ana@');
    await page.getByLabel('NIF/CIF').fill('123');
    await page.getByRole('button', { name: 'Enviar' }).click();
    await expect(resumen.getByRole('link')).toHaveText(['El correo electrónico no tiene un formato válido.']);
  });

  test('un 200 abre Petición procesada correctamente, con el NIF en mayúsculas y host = origen + /sesion', async ({ page }) => {
    const cuerpos = await capturar(page, 'recuperarClave', (r) => json(r, 200, {}));
    await abrir(page, '/sesion/recordar-clave');
    await page.getByLabel('Correo electrónico').fill('ana@example.com');
    await page.getByLabel('NIF/CIF').fill('54362315k');
    await page.getByRole('button', { name: 'Enviar' }).click();
    await esperarModal(page, 'Petición procesada correctamente', T.peticionOkTexto);
    expect(cuerpos).toEqual([{ nif: '54362315K', correoElectronico: 'ana@example.com', host: `${new URL(page.url()).origin}/sesion` }]);
  });

  test('otra respuesta abre Error al procesar la petición', async ({ page }) => {
    await page.route('**/api/recuperarClave', (r) => json(r, 500, { message: 'Error interno' }));
    await abrir(page, '/sesion/recordar-clave');
    await page.getByLabel('Correo electrónico').fill('ana@example.com');
    await page.getByLabel('NIF/CIF').fill('54362315K');
    await page.getByRole('button', { name: 'Enviar' }).click();
    await esperarModal(page, 'Error al procesar la petición', T.peticionKoTexto);
  });
});

test.describe('nueva contraseña', () => {
  async function enviar(page: Page, a: string, b: string) {
    await page.getByLabel('Nueva contraseña', { exact: true }).fill(a);
    await page.getByLabel('Repita la nueva contraseña').fill(b);
    await page.getByRole('button', { name: 'Cambiar la contraseña' }).click();
  }

  test('comprueba vacíos, luego que coincidan, luego el patrón, cada uno con su modal', async ({ page }) => {
    const cuerpos = await capturar(page, 'actualizarClave', (r) => json(r, 200, {}));
    await abrir(page, '/sesion/nueva-clave/abc123');
    await expect(page.getByRole('note')).toContainText('La contraseña debe tener entre 3 y 30 caracteres');
    await enviar(page, '', 'Nueva1234');
    await esperarModal(page, 'Campos vacíos', 'Por favor, rellene los campos vacíos y vuelva a intentarlo.');
    await dialogo(page).getByRole('button', { name: 'Cerrar' }).click();
    await enviar(page, 'nueva', 'otra');
    await esperarModal(page, 'Contraseña erronea', 'Las contraseñas no coinciden, compruebe ambos campos y vuelva a intentarlo.');
    await page.keyboard.press('Escape');
    await enviar(page, 'nueva', 'nueva');
    await esperarModal(
      page,
      'Los campos no cumplen los requisitos',
      'Por favor, compruebe que las contraseñas cumplen con el patrón determinado.',
    );
    await page.keyboard.press('Escape');
    expect(cuerpos).toEqual([]);
  });

  test('los dos campos tienen su botón de mostrar y autocompletado de contraseña nueva', async ({ page }) => {
    await abrir(page, '/sesion/nueva-clave/abc123');
    for (const [campo, boton] of [
      ['Nueva contraseña', 'Mostrar la nueva contraseña'],
      ['Repita la nueva contraseña', 'Mostrar la contraseña repetida'],
    ] as const) {
      const input = page.getByLabel(campo, { exact: true });
      await expect(input).toHaveAttribute('autocomplete', 'new-password');
      await page.getByRole('button', { name: boton }).click();
      await expect(input).toHaveAttribute('type', 'text');
    }
  });

  test('un 200 abre Contraseña cambiada, envía la URL de la página como host y ofrece ir a Acceso', async ({ page }) => {
    const cuerpos = await capturar(page, 'actualizarClave', (r) => json(r, 200, {}));
    await abrir(page, '/sesion/nueva-clave/abc123');
    await enviar(page, 'Nueva1234', 'Nueva1234');
    await esperarModal(page, 'Contraseña cambiada', T.claveCambiadaTexto);
    expect(cuerpos).toEqual([{ password: 'Nueva1234', passwordCopy: 'Nueva1234', host: page.url() }]);
    await dialogo(page).getByRole('button', { name: 'Ir a Acceso' }).click();
    await page.waitForURL('**/sesion/login');
  });

  test('otra respuesta abre Error al cambiar contraseña', async ({ page }) => {
    await page.route('**/api/actualizarClave', (r) => json(r, 400, { message: 'El enlace ha caducado.' }));
    await abrir(page, '/sesion/nueva-clave/abc123');
    await enviar(page, 'Nueva1234', 'Nueva1234');
    await esperarModal(page, 'Error al cambiar contraseña', T.claveNoCambiadaTexto);
  });
});

test.describe('cabecera con sesión', () => {
  test('con la pista de sesión muestra Mi área y Cerrar sesión, que revoca y vuelve al inicio', async ({ page }) => {
    const revocaciones: string[] = [];
    await page.route('**/api/users/revoke-token', async (r, req) => {
      revocaciones.push(req.method());
      await r.fulfill({ status: 204 });
    });
    await page.goto('/informacion');
    const nav = page.getByRole('navigation', { name: 'Principal' });
    await expect(nav.getByRole('link', { name: 'Área privada' })).toHaveAttribute('href', '/sesion/login');
    await expect(nav.getByRole('button', { name: 'Cerrar sesión' })).toBeHidden();
    await page.evaluate(() => localStorage.setItem('portal-sesion-activa', '1'));
    await page.reload();
    await expect(nav.getByRole('link', { name: 'Mi área' })).toHaveAttribute('href', '/inicio');
    await nav.getByRole('button', { name: 'Cerrar sesión' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await expect(nav.getByRole('link', { name: 'Área privada' })).toBeVisible();
    expect(revocaciones).toEqual(['POST']);
    expect(await page.evaluate(() => localStorage.getItem('portal-sesion-activa'))).toBeNull();
  });

  test('un cierre de sesión en otra pestaña devuelve la cabecera a Área privada', async ({ context }) => {
    await context.route('**/api/users/revoke-token', (r) => r.fulfill({ status: 204 }));
    const a = await context.newPage();
    await a.goto('/');
    await a.evaluate(() => localStorage.setItem('portal-sesion-activa', '1'));
    const b = await context.newPage();
    await b.goto('/incidencias-red');
    await expect(b.getByRole('link', { name: 'Mi área' })).toBeVisible();
    await a.reload();
    await a.getByRole('button', { name: 'Cerrar sesión' }).click();
    await expect(b.getByRole('link', { name: 'Área privada' })).toBeVisible();
    await expect(b.getByRole('button', { name: 'Cerrar sesión' })).toBeHidden();
  });

  test('en un teléfono de 320 px, Mi área y Cerrar sesión caben enteros en la primera fila', async ({ page }) => {
    await page.setViewportSize({ width: 320, height: 700 });
    await page.goto('/incidencias-red');
    await page.evaluate(() => localStorage.setItem('portal-sesion-activa', '1'));
    await page.reload();
    const nav = page.getByRole('navigation', { name: 'Principal' });
    const miArea = (await nav.getByRole('link', { name: 'Mi área' }).boundingBox())!;
    const cerrar = (await nav.getByRole('button', { name: 'Cerrar sesión' }).boundingBox())!;
    expect(cerrar.x + cerrar.width).toBeLessThanOrEqual(320);
    expect(Math.abs(cerrar.y - miArea.y)).toBeLessThan(miArea.height);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(320);
  });

  test('las páginas sin JavaScript siguen sin scripts aunque haya sesión', async ({ page }) => {
    await page.goto('/');
    await page.evaluate(() => localStorage.setItem('portal-sesion-activa', '1'));
    await page.goto('/legal/aviso-legal');
    expect(await page.locator('script').count()).toBe(0);
    await expect(page.getByRole('link', { name: 'Área privada' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Cerrar sesión' })).toHaveCount(0);
  });
});
