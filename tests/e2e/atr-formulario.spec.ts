/**
 * The web form of ATR requests (/comercializadora/solicitud-atr/nueva) through the browser, against
 * the real portal whose ATR reader runs every two seconds: a C1 filled in (the process chosen from
 * the keyboard) appears in the list accepted once the distributor's reader has answered it, and is
 * anulled from its detail after a confirmation; the form's own errors beside their fields and in the
 * summary; a request the distributor would refuse shows its table 27 reasons and keeps what was
 * typed. axe, no sideways scrolling at 375 and 1280 px, and screenshots in /tmp (SHOTS_DIR).
 *
 * The supply company is cliente022 (a generated account that holds an EPD supply point and no test
 * changes), made a supply company of EPD with its own REE code here, so the demo company's twelve
 * requests that tests/e2e/atr.spec.ts counts stay twelve. It asks to switch its own supply point.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, request as peticiones, test, type Page } from '@playwright/test';
import { E2E_PORT } from '../../playwright.config.ts';
import { letraDni, tipoNif } from '../../src/lib/nif.ts';
import { DEMO_PASSWORD, entrar, expectNoAxeViolations, revisarAnchos } from './support.ts';

const EMPRESA = 'cliente022@correo.example';
const REE = '9877';
const LISTA = '/comercializadora/solicitud-atr';
const NUEVA = `${LISTA}/nueva`;

const SHOTS = process.env.SHOTS_DIR ?? '/tmp';
mkdirSync(SHOTS, { recursive: true });

const ANCHOS = [
  { name: 'escritorio', width: 1280, height: 800 },
  { name: 'movil', width: 375, height: 740 },
] as const;

/** axe, no sideways scrolling and a screenshot at each of this screen's widths. */
const revisar = (page: Page, nombre: string) => revisarAnchos(page, `atr-formulario-${nombre}`, ANCHOS);

const basic = (u: string, p: string) => `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}`;

/** The supply point the company asks about, and its holder as the contract has it. */
let punto: { cups: string; nif: string; nombre: string };

test.describe.configure({ mode: 'serial' });
test.use({ viewport: { width: 1280, height: 800 } });

test.beforeAll(async () => {
  const api = await peticiones.newContext({ baseURL: `http://127.0.0.1:${E2E_PORT}` });
  const entrarApi = async (email: string) => {
    const r = await api.post('/api/accesoUsuario', { headers: { Authorization: basic(email, DEMO_PASSWORD) } });
    expect(r.status(), `login de ${email}`).toBe(200);
    return { Authorization: `Bearer ${((await r.json()) as { jwtToken: string }).jwtToken}` };
  };
  // The administrator makes the account a supply company of EPD, with its REE code (CNMC table 1).
  const admin = await entrarApi('admin@electra.example');
  const usuarios = (await (await api.get(`/api/listadoUsuarios?q=${encodeURIComponent(EMPRESA)}`, { headers: admin })).json()) as {
    id: string;
    email: string;
  }[];
  const id = usuarios.find((u) => u.email === EMPRESA)!.id;
  const permisos = await api.put(`/api/administrador/usuarios/${id}/permisos`, {
    headers: admin,
    data: { conceder: ['epd-comercializadora'] },
  });
  expect(permisos.status()).toBe(200);
  const ree = await api.put(`/api/administrador/usuarios/${id}/codigo-ree`, { headers: admin, data: { codigoRee: REE } });
  expect(ree.status()).toBe(200);
  // Its own supply point at EPD, as the holder sees it.
  const propios = (await (await api.get('/api/suministros', { headers: await entrarApi(EMPRESA) })).json()) as {
    cups: string;
    distribuidora: string;
    titular: { nif: string; nombre: string };
  }[];
  const s = propios.find((x) => x.distribuidora === 'epd')!;
  punto = { cups: s.cups, nif: s.titular.nif, nombre: s.titular.nombre };
  await api.dispose();
});

/** Fills the holder: a company's name with a CIF, a person's first name and surname otherwise. */
async function titular(page: Page, nif: string, nombre: string) {
  const main = page.getByRole('main');
  await main.getByLabel('NIF, NIE o CIF').fill(nif);
  if (tipoNif(nif) === 'CIF') await main.getByLabel('Razón social').fill(nombre);
  else {
    const [pila, ...apellidos] = nombre.split(' ');
    await main.getByLabel('Nombre', { exact: true }).fill(pila!);
    await main.getByLabel('Primer apellido').fill(apellidos.join(' ') || 'Demo');
  }
}

test('una comercializadora envía un C1 desde el formulario, lo ve aceptado en la lista y lo anula desde su detalle', async ({ page }) => {
  // Two sessions (or a form, a list and a detail) with axe on each: more than the default 30 s on a loaded 2-core machine.
  test.setTimeout(90_000);
  await entrar(page, EMPRESA, DEMO_PASSWORD, LISTA);
  const main = page.getByRole('main');
  await expect(main.locator('h1')).toHaveText('Solicitudes ATR');
  await main.getByRole('link', { name: 'Nueva solicitud', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`${NUEVA}$`));
  await expect(main.locator('h1')).toHaveText('Nueva solicitud ATR');

  // Only the process at first; choosing C1 (from the keyboard) shows its fields and no others.
  await expect(main.getByLabel('CUPS')).toHaveCount(0);
  const c1 = main.getByRole('radio', { name: /^C1 · Cambio de comercializador sin modificaciones/ });
  await c1.focus();
  await page.keyboard.press('Space');
  await expect(c1).toBeChecked();
  await expect(main.getByLabel('CUPS')).toBeVisible();
  await expect(main.getByLabel('Distribuidora')).toHaveValue('epd');
  await expect(main.getByLabel(/^Tarifa de acceso/)).toHaveCount(0);
  await expect(main.getByLabel(/^Motivo de la baja/)).toHaveCount(0);
  await expect(main.getByRole('radio', { name: 'Cuanto antes' })).toBeChecked();

  await main.getByLabel('CUPS').fill(punto.cups);
  await titular(page, punto.nif, punto.nombre);
  await revisar(page, 'c1');

  // Enter in a field sends the form.
  await main.getByLabel('CUPS').press('Enter');
  await expect(page).toHaveURL(new RegExp(`${LISTA}$`), { timeout: 15_000 });
  const aviso = main.locator('.atr-aviso');
  await expect(aviso).toContainText('Solicitud enviada: la distribuidora la contestará en su carpeta de salida');
  const codigo = (await aviso.locator('.atr-codigo').first().textContent())!.trim();
  expect(codigo).toMatch(/^\d{12}$/);
  await expect(aviso.locator('.atr-codigo').nth(1)).toHaveText(`C101_${codigo}_01.xml`);

  // The reader answers within seconds: the request is in the list, accepted.
  await expect(aviso).toContainText('Ya está contestada', { timeout: 20_000 });
  const fila = main.locator('.atr-tabla tbody tr', { hasText: codigo });
  await expect(fila).toHaveCount(1);
  await expect(fila.locator('.atr-estado')).toHaveText('Aceptada');
  await expect(fila).toContainText(punto.cups);
  await revisar(page, 'lista-enviada');

  // Its detail, and its anulación once confirmed.
  await aviso.getByRole('link').click();
  await expect(main.locator('h1')).toHaveText('Solicitud ATR');
  await expect(main.locator('.atr-cabecera .atr-estado')).toHaveText('Aceptada');
  const anular = main.getByRole('button', { name: 'Anular solicitud' });
  await anular.click();
  const dialogo = page.getByRole('dialog', { name: '¿Anular la solicitud?' });
  await expect(dialogo).toBeVisible();
  await expect(dialogo).toContainText(codigo);
  await expect(dialogo.getByRole('button', { name: 'Cancelar' })).toBeFocused();
  await expectNoAxeViolations(page, 'confirmación de la anulación');
  await page.screenshot({ path: join(SHOTS, 'atr-formulario-anular-1280.png') });
  // Escape backs out; nothing is sent.
  await page.keyboard.press('Escape');
  await expect(dialogo).toBeHidden();
  await expect(anular).toBeFocused();
  await anular.click();
  await dialogo.getByRole('button', { name: 'Anular solicitud' }).click();

  const avisoAnulacion = main.locator('.atr-aviso');
  await expect(avisoAnulacion).toContainText('Anulación enviada: la distribuidora la contestará en su carpeta de salida');
  await expect(avisoAnulacion).toContainText(`C108_${codigo}_01.xml`);
  await expect(avisoAnulacion).toContainText('La distribuidora ya la ha contestado', { timeout: 20_000 });
  await expect(main.locator('.atr-cabecera .atr-estado')).toHaveText('Anulada');
  const pasos = main.locator('.atr-mensaje h3');
  await expect(pasos).toHaveText([
    'Paso 01 · Solicitud',
    'Paso 02 · Aceptación o rechazo',
    'Paso 08 · Anulación',
    'Paso 09 · Aceptación o rechazo de la anulación',
  ]);
  await expect(main.getByRole('button', { name: 'Anular solicitud' })).toHaveCount(0);
  await revisar(page, 'anulada');

  // Opened again, a closed request offers no anulación.
  await page.reload();
  await expect(main.locator('.atr-cabecera .atr-estado')).toHaveText('Anulada');
  await expect(main.getByRole('heading', { name: 'Anulación', exact: true })).toHaveCount(0);
});

test('el formulario dice cada error junto a su campo, y los motivos por los que la distribuidora la rechazaría', async ({ page }) => {
  await entrar(page, EMPRESA, DEMO_PASSWORD, NUEVA);
  const main = page.getByRole('main');
  await expect(main.locator('h1')).toHaveText('Nueva solicitud ATR');

  // Nothing chosen: the summary takes the focus and links to the process.
  await main.getByRole('button', { name: 'Enviar solicitud' }).click();
  const resumen = main.getByRole('group', { name: 'Revise estos datos antes de enviar la solicitud:' });
  await expect(resumen).toBeFocused();
  await expect(resumen.getByRole('link')).toHaveText(['Elija el proceso de la solicitud.']);

  // A C2 with what is wrong in it: each message beside its field, tied by aria-describedby.
  await main.getByRole('radio', { name: /^C2 · / }).check();
  await main.getByLabel('CUPS').fill('ES9901000000000001XX');
  await main.getByLabel('NIF, NIE o CIF').fill('12345678A');
  await main.getByLabel(/^Tarifa de acceso/).selectOption('3.0TD');
  for (const [i, kw] of ['20', '25', '20', '25', '25', '30'].entries()) await main.getByLabel(`Potencia P${i + 1} (kW)`).fill(kw);
  await main.getByRole('button', { name: 'Enviar solicitud' }).click();
  await expect(resumen).toBeFocused();
  await expect(resumen.getByRole('link')).toHaveText([
    /letras de control del CUPS/,
    /no es un DNI, NIE ni CIF válido/,
    /^15 · Secuencia de potencias incorrecta/,
  ]);
  const cups = main.getByLabel('CUPS');
  await expect(cups).toHaveAttribute('aria-invalid', 'true');
  await expect(cups).toHaveAccessibleDescription(/no corresponden a sus cifras/);
  await expect(main.getByLabel('Potencia P3 (kW)')).toHaveAccessibleDescription(/P3 \(20 kW\) es menor que P2 \(25 kW\)/);
  await revisar(page, 'errores');
  // A summary link takes the keyboard to its field.
  await resumen.getByRole('link', { name: /no es un DNI/ }).click();
  await expect(main.getByLabel('NIF, NIE o CIF')).toBeFocused();

  // Now a C1 the distributor would refuse: a valid DNI that is not the holder's (03). Nothing is sent, and nothing typed is lost.
  await main.getByRole('radio', { name: /^C1 · / }).check();
  await cups.fill(punto.cups);
  const otro = 98_765_432;
  const nifAjeno = `${otro}${letraDni(otro)}`;
  expect(nifAjeno).not.toBe(punto.nif);
  await titular(page, nifAjeno, 'Otra Persona');
  await main.getByRole('button', { name: 'Enviar solicitud' }).click();
  const rechazo = main.getByRole('group', { name: /La distribuidora rechazaría esta solicitud/ });
  // The server writes the message and checks it against the CNMC schema first: allow for a busy machine.
  await expect(rechazo).toBeVisible({ timeout: 15_000 });
  await expect(rechazo).toBeFocused();
  await expect(rechazo.getByRole('listitem')).toHaveText([/^03 · NIF-CIF no coincide con el del contrato en vigor/]);
  await expect(page).toHaveURL(new RegExp(`${NUEVA}$`));
  await expect(cups).toHaveValue(punto.cups);
  await expect(main.getByLabel('NIF, NIE o CIF')).toHaveValue(nifAjeno);
  await expect(main.getByLabel('NIF, NIE o CIF')).toHaveAccessibleDescription(/03 · NIF-CIF no coincide/);
  await revisar(page, 'rechazo');

  // The list has no request of it.
  await page.goto(`${LISTA}?q=${encodeURIComponent(punto.cups)}&estado=rechazada`);
  await expect(main.getByText('No hay solicitudes que coincidan con los filtros elegidos.')).toBeVisible();
});
