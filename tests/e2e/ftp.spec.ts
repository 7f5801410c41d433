/**
 * The FTP screen of supply companies through the browser (/comercializadora/ftp): the second
 * login (the button waits for a valid e-mail and a password, a wrong password opens the
 * specification's modal), the distributors' folders, an upload with its progress bar into
 * epd/entrada, a new folder, a rename, a move, a download read back, a replace confirmation, a
 * delete; salida refuses uploads; a token the exchange refuses brings the login back, and "Cerrar
 * sesión FTP" forgets it. axe at desktop and phone widths, with photographs for a person to look at.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { DEMO_PASSWORD, entrar, expectNoAxeViolations, revisarAnchos } from './support.ts';

const COMERCIALIZADORA = 'comercializadora@electra.example';
const MODAL_FALLO = 'No se pudo acceder, por favor compruebe los datos y vuelva a intentarlo.';

/** The contents table of the folder shown. */
const tabla = (page: Page) => page.locator('table.ftp-tabla');
/** The row of an element by its name. */
const fila = (page: Page, nombre: string) =>
  tabla(page)
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: new RegExp(`^${nombre.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`) }) });
/** Opens a folder of the table by its name. */
async function abrir(page: Page, nombre: string, ruta: string) {
  await fila(page, nombre)
    .getByRole('button', { name: new RegExp(`^${nombre} \\(carpeta`) })
    .click();
  await expect(page.getByRole('heading', { level: 2, name: `Carpeta ${ruta}` })).toBeFocused();
  await expect(page.getByText('Cargando la carpeta…')).toHaveCount(0);
}

const revisar = (page: Page, nombre: string) =>
  revisarAnchos(page, `ftp-${nombre}`, [
    { name: 'escritorio', width: 1280, height: 900 },
    { name: 'movil', width: 375, height: 812 },
    { name: 'estrecho', width: 320, height: 812 },
  ]);

test('la comercializadora entra en el FTP, sube, organiza, descarga y borra un fichero', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await entrar(page, COMERCIALIZADORA, DEMO_PASSWORD, '/comercializadora/ftp');
  await expect(page.getByRole('heading', { level: 1, name: 'FTP' })).toBeVisible();

  // The second login: the e-mail of the portal's session is already there; the button waits for both fields.
  const email = page.getByLabel('Correo electrónico');
  const clave = page.getByLabel('Contraseña', { exact: true });
  const boton = page.getByRole('button', { name: 'Entrar al FTP' });
  await expect(email).toHaveValue(COMERCIALIZADORA);
  await expect(boton).toBeDisabled();
  await email.fill('');
  await clave.fill('algo');
  await expect(boton).toBeDisabled();
  await email.fill('no-es-un-correo');
  await expect(boton).toBeDisabled();
  await email.fill(COMERCIALIZADORA);
  await expect(boton).toBeEnabled();
  await clave.fill('');
  await expect(boton).toBeDisabled();
  await expect(page.getByText('Introduzca su contraseña.')).toBeVisible();
  await revisar(page, 'login');

  await clave.fill('NoEsLaClave1');
  await boton.click();
  const modal = page.getByRole('dialog');
  await expect(modal).toContainText(MODAL_FALLO);
  await expectNoAxeViolations(page, 'fallo del login FTP');
  await modal.getByRole('button', { name: 'Cerrar' }).click();
  await expect(modal).toBeHidden();
  await expect(clave).toBeFocused();
  await expect(clave).toHaveValue('');
  expect(await page.evaluate(() => sessionStorage.getItem('jwTokenFtp'))).toBeNull();

  await clave.fill(DEMO_PASSWORD);
  await boton.click();
  await expect(page.getByRole('heading', { level: 2, name: 'Mis carpetas' })).toBeFocused();
  expect(await page.evaluate(() => sessionStorage.getItem('jwTokenFtp'))).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
  await expect(fila(page, 'epd')).toContainText('Electra Peninsular Distribución');
  await expect(fila(page, 'eod')).toContainText('Electra Occidental Distribución');
  await expect(fila(page, 'ecd')).toHaveCount(0);
  // Nothing can be uploaded or made at the top.
  await expect(page.getByRole('button', { name: 'Subir ficheros' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Nueva carpeta' })).toBeDisabled();

  await revisar(page, 'raiz');
  await abrir(page, 'epd', '/epd');
  await expect(fila(page, 'entrada')).toContainText('Carpeta fija');
  await revisar(page, 'distribuidora');
  await expect(fila(page, 'salida')).toContainText('Carpeta fija');
  await expect(fila(page, 'salida').getByRole('button', { name: /^Borrar/ })).toHaveCount(0);

  // salida is the distributor's: no uploads there.
  await abrir(page, 'salida', '/epd/salida');
  await expect(page).toHaveURL(/carpeta=%2Fepd%2Fsalida/);
  await expect(page.getByRole('button', { name: 'Subir ficheros' })).toBeDisabled();
  await expect(page.getByText('La carpeta salida es donde la distribuidora le deja sus ficheros')).toBeVisible();
  // Back with the browser, then into entrada.
  await page.goBack();
  await expect(page.getByRole('heading', { level: 2, name: 'Carpeta /epd' })).toBeVisible();
  await abrir(page, 'entrada', '/epd/entrada');
  await expect(page.getByRole('button', { name: 'Subir ficheros' })).toBeEnabled();

  // A folder to sort into.
  const carpeta = `lote-${Date.now()}`;
  await page.getByRole('button', { name: 'Nueva carpeta' }).click();
  const dialogoCarpeta = page.getByRole('dialog', { name: 'Nueva carpeta' });
  await expect(dialogoCarpeta.getByLabel('Nombre de la carpeta')).toBeFocused();
  await dialogoCarpeta.getByLabel('Nombre de la carpeta').fill('mal/nombre');
  await dialogoCarpeta.getByRole('button', { name: 'Crear la carpeta' }).click();
  await expect(dialogoCarpeta.getByText('El nombre no puede llevar barras')).toBeVisible();
  await dialogoCarpeta.getByLabel('Nombre de la carpeta').fill(carpeta);
  await dialogoCarpeta.getByRole('button', { name: 'Crear la carpeta' }).click();
  await expect(dialogoCarpeta).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: `Se ha creado la carpeta «${carpeta}».` })).toBeVisible();
  await expect(fila(page, carpeta)).toBeVisible();
  // A second one to move into. Files dropped directly into entrada are read as ATR messages by the
  // distributor (and this one is none), so the work happens in the company's own folders.
  const archivo = `archivo-${Date.now()}`;
  await page.getByRole('button', { name: 'Nueva carpeta' }).click();
  await page.getByLabel('Nombre de la carpeta').fill(archivo);
  await page.getByLabel('Nombre de la carpeta').press('Enter');
  await expect(fila(page, archivo)).toBeVisible();
  await abrir(page, carpeta, `/epd/entrada/${carpeta}`);

  // An upload through the file input, with its bar.
  const nombre = `prueba-${Date.now()}.txt`;
  const contenido = 'Fichero de prueba del intercambio.\n';
  await page.getByTestId('ftp-ficheros').setInputFiles({ name: nombre, mimeType: 'text/plain', buffer: Buffer.from(contenido) });
  await expect(page.getByRole('progressbar', { name: `Subida de ${nombre}` })).toHaveAttribute('aria-valuenow', '100');
  await expect(page.locator('.ftp-transferencias')).toContainText('Subido a /epd/entrada');
  await expect(fila(page, nombre)).toContainText(/\d+ bytes/);

  // The same name again: asked first, then replaced.
  await page.getByTestId('ftp-ficheros').setInputFiles({ name: nombre, mimeType: 'text/plain', buffer: Buffer.from(contenido) });
  const reemplazar = page.getByRole('dialog', { name: 'El fichero ya existe' });
  await expect(reemplazar).toContainText(`Ya existe «${nombre}». ¿Reemplazarlo?`);
  await expect(reemplazar.getByRole('button', { name: 'Cancelar' })).toBeFocused();
  await reemplazar.getByRole('button', { name: 'Reemplazarlo' }).click();
  await expect(page.locator('.ftp-transferencia--hecha')).toHaveCount(2);

  // Rename (the extension stays out of the selection), then move into the folder.
  const nuevo = `renombrado-${nombre}`;
  await fila(page, nombre)
    .getByRole('button', { name: `Renombrar ${nombre}` })
    .click();
  const renombrar = page.getByRole('dialog', { name: `Renombrar «${nombre}»` });
  await expect(renombrar.getByLabel('Nuevo nombre')).toBeFocused();
  await expectNoAxeViolations(page, 'diálogo de renombrar');
  await renombrar.getByLabel('Nuevo nombre').fill(nuevo);
  await renombrar.getByRole('button', { name: 'Renombrar' }).click();
  await expect(renombrar).toBeHidden();
  await expect(fila(page, nuevo)).toBeVisible();
  await expect(fila(page, nombre)).toHaveCount(0);

  await fila(page, nuevo)
    .getByRole('button', { name: `Mover ${nuevo}` })
    .click();
  const mover = page.getByRole('dialog', { name: `Mover «${nuevo}»` });
  const destino = mover.getByLabel('Carpeta de destino');
  await expect(destino).toBeVisible();
  // Not into salida from outside it, not where it is.
  await expect(destino.locator('option', { hasText: /^\/epd\/salida/ })).toHaveCount(0);
  await expect(destino.locator('option', { hasText: new RegExp(`^/epd/entrada/${carpeta}$`) })).toHaveCount(0);
  await destino.selectOption(`/epd/entrada/${archivo}`);
  await expectNoAxeViolations(page, 'diálogo de mover');
  await page.screenshot({ path: '/tmp/ftp-mover-1280.png' });
  await mover.getByRole('button', { name: 'Mover aquí' }).click();
  await expect(mover).toBeHidden();
  await expect(fila(page, nuevo)).toHaveCount(0);

  await page.getByRole('navigation', { name: 'Carpeta actual' }).getByRole('button', { name: 'entrada' }).click();
  await abrir(page, archivo, `/epd/entrada/${archivo}`);
  await expect(fila(page, nuevo)).toBeVisible();
  await revisar(page, 'carpeta');

  // Download: the same bytes come back.
  const [descarga] = await Promise.all([
    page.waitForEvent('download'),
    fila(page, nuevo)
      .getByRole('button', { name: `Descargar ${nuevo}` })
      .click(),
  ]);
  expect(descarga.suggestedFilename()).toBe(nuevo);
  expect(readFileSync(await descarga.path(), 'utf8')).toBe(contenido);
  await expect(page.getByRole('progressbar', { name: `Descarga de ${nuevo}` })).toHaveAttribute('aria-valuenow', '100');

  // Delete the file, then the folder from its parent (empty by then).
  await fila(page, nuevo)
    .getByRole('button', { name: `Borrar ${nuevo}` })
    .click();
  const borrar = page.getByRole('dialog', { name: '¿Borrar el fichero?' });
  await expect(borrar).toContainText(`Se borrará el fichero «${nuevo}»`);
  await borrar.getByRole('button', { name: 'Borrar' }).click();
  await expect(borrar).toBeHidden();
  await expect(page.getByText('Esta carpeta está vacía.')).toBeVisible();

  await page.getByRole('navigation', { name: 'Carpeta actual' }).getByRole('button', { name: 'entrada' }).click();
  for (const c of [carpeta, archivo]) {
    await fila(page, c)
      .getByRole('button', { name: `Borrar ${c}` })
      .click();
    const borrarCarpeta = page.getByRole('dialog', { name: '¿Borrar la carpeta?' });
    await expect(borrarCarpeta).toContainText('que está vacía');
    await borrarCarpeta.getByRole('button', { name: 'Borrar' }).click();
    await expect(fila(page, c)).toHaveCount(0);
  }
});

test('un fichero que no es un mensaje ATR, dejado en entrada, pasa a entrada/rechazados con su motivo', async ({ page }) => {
  await entrar(page, COMERCIALIZADORA, DEMO_PASSWORD, '/comercializadora/ftp?carpeta=%2Fepd%2Fentrada');
  await page.getByLabel('Contraseña', { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Entrar al FTP' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Carpeta /epd/entrada' })).toBeVisible();
  const nombre = `nota-${Date.now()}.txt`;
  await page.getByTestId('ftp-ficheros').setInputFiles({ name: nombre, mimeType: 'text/plain', buffer: Buffer.from('Esto no es XML') });
  await expect(page.locator('.ftp-transferencias')).toContainText('Subido a /epd/entrada');
  // The distributor's reader looks every 2 s: the file leaves entrada for rechazados.
  await abrir(page, 'rechazados', '/epd/entrada/rechazados');
  await expect(async () => {
    await page.getByRole('button', { name: 'Recargar' }).click();
    await expect(fila(page, `${nombre}.txt`)).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  // The file itself and its reason beside it.
  await expect(fila(page, nombre)).toHaveCount(2);
  const [motivo] = await Promise.all([
    page.waitForEvent('download'),
    fila(page, `${nombre}.txt`)
      .getByRole('button', { name: `Descargar ${nombre}.txt` })
      .click(),
  ]);
  expect(readFileSync(await motivo.path(), 'utf8')).toContain('El fichero no es XML.');
});

test('un token que el intercambio rechaza vuelve al acceso, y «Cerrar sesión FTP» lo olvida', async ({ page }) => {
  await entrar(page, COMERCIALIZADORA, DEMO_PASSWORD, '/comercializadora/ftp?carpeta=%2Feod');
  await page.getByLabel('Contraseña', { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Entrar al FTP' }).click();
  // The folder of the address opens after the login.
  await expect(page.getByRole('heading', { level: 2, name: 'Carpeta /eod' })).toBeVisible();

  // A folder with something inside asks before deleting it all.
  const carpeta = `con-cosas-${Date.now()}`;
  await page.getByRole('button', { name: 'Nueva carpeta' }).click();
  await page.getByLabel('Nombre de la carpeta').fill(carpeta);
  await page.getByLabel('Nombre de la carpeta').press('Enter');
  await abrir(page, carpeta, `/eod/${carpeta}`);
  await page.getByTestId('ftp-ficheros').setInputFiles({ name: 'a.txt', mimeType: 'text/plain', buffer: Buffer.from('a') });
  await expect(fila(page, 'a.txt')).toBeVisible();
  await page.getByRole('navigation', { name: 'Carpeta actual' }).getByRole('button', { name: 'eod' }).click();
  await fila(page, carpeta)
    .getByRole('button', { name: `Borrar ${carpeta}` })
    .click();
  const borrar = page.getByRole('dialog', { name: '¿Borrar la carpeta?' });
  await expect(borrar).toContainText(`La carpeta «${carpeta}» contiene un elemento. Se borrará con todo lo que contiene`);
  await borrar.getByRole('button', { name: 'Borrar la carpeta y su contenido' }).click();
  await expect(fila(page, carpeta)).toHaveCount(0);

  // The token is no longer valid: the next call brings the login back, with a notice.
  await page.evaluate(() => sessionStorage.setItem('jwTokenFtp', 'caducado.caducado.caducado'));
  await page.getByRole('button', { name: 'Recargar' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Acceso al FTP' })).toBeFocused();
  await expect(page.getByText('Su sesión del FTP ha terminado')).toBeVisible();
  expect(await page.evaluate(() => sessionStorage.getItem('jwTokenFtp'))).toBeNull();

  await page.getByLabel('Contraseña', { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Entrar al FTP' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Carpeta /eod' })).toBeFocused();
  // The token lasts while the tab does: a reload keeps the FTP open.
  await page.reload();
  await expect(page.getByRole('heading', { level: 2, name: 'Carpeta /eod' })).toBeVisible();

  await page.getByRole('button', { name: 'Cerrar sesión FTP' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Acceso al FTP' })).toBeFocused();
  await expect(page.getByText('Ha cerrado la sesión del FTP.')).toBeVisible();
  expect(await page.evaluate(() => sessionStorage.getItem('jwTokenFtp'))).toBeNull();
});
