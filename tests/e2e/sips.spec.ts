/**
 * SIPS through the browser (docs/decisions/016): the demo supply company sees EPD's and EOD's
 * monthly files, downloads one (gzip, read back and checked against the SHA-256 the list shows),
 * queries a list of CUPS mixing good and bad ones, downloads the rows as CSV; an EPD
 * administrator loads a register file with a faulty line and sees it named; axe on both screens
 * at desktop and phone widths.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { expect, request, test, type Page } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { E2E_PORT } from '../../playwright.config.ts';
import { clienteApi, CONSUMIDOR, foto, type SuministroApi } from './medidas-support.ts';
import { DEMO_PASSWORD, entrar, expectNoAxeViolations, WIDTHS } from './support.ts';

const COMERCIALIZADORA = 'comercializadora@electra.example';
const ADMIN_EPD = 'admin-epd@electra.example';

interface FicheroApi {
  nombre: string;
  mes: string;
  tipo: string;
  version: string;
  filas: number;
  sha256: string;
}

/** The bytes of a download of the API as a demo account (clienteApi reads JSON only). */
async function bytesDeApi(email: string, path: string): Promise<Buffer> {
  const ctx = await request.newContext({ baseURL: `http://127.0.0.1:${E2E_PORT}` });
  const basic = `Basic ${Buffer.from(`${email}:${DEMO_PASSWORD}`).toString('base64')}`;
  const login = await ctx.post('/api/accesoUsuario', { headers: { Authorization: basic } });
  const { jwtToken } = (await login.json()) as { jwtToken: string };
  const r = await ctx.get(path, { headers: { Authorization: `Bearer ${jwtToken}` } });
  expect(r.status()).toBe(200);
  return r.body();
}

async function axeEnAnchos(page: Page, nombre: string) {
  for (const w of WIDTHS) {
    await page.setViewportSize({ width: w.width, height: w.height });
    await expectNoAxeViolations(page, `${nombre} (${w.name})`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(w.width);
    await foto(page, `${nombre}-${w.width}`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('la comercializadora descarga un fichero mensual y su SHA-256 es el de la lista', async ({ page }) => {
  test.setTimeout(60_000);
  const api = await clienteApi(COMERCIALIZADORA);
  const ficheros = await api<FicheroApi[]>('/api/sips/epd');
  expect(new Set(ficheros.map((f) => f.mes)).size).toBe(3);
  const ps = ficheros.find((f) => f.tipo === 'PS_ELECTRICIDAD' && f.version === 'sips2026')!;

  await entrar(page, COMERCIALIZADORA, DEMO_PASSWORD, '/comercializadora/sips');
  await expect(page.getByRole('heading', { level: 1, name: 'SIPS' })).toBeVisible();
  await expect(page.getByLabel('Distribuidora')).toHaveValue('epd');
  const mes = page.locator('li.med-tarjeta').first();
  await expect(mes.getByRole('rowheader', { name: ps.nombre })).toBeVisible();
  await axeEnAnchos(page, 'sips-ficheros');

  const [descarga] = await Promise.all([
    page.waitForEvent('download'),
    mes.getByRole('button', { name: 'Puntos de suministro, SIPS2026' }).click(),
  ]);
  expect(descarga.suggestedFilename()).toBe(`${ps.nombre}.gz`);
  const csv = gunzipSync(readFileSync(await descarga.path()));
  expect(createHash('sha256').update(csv).digest('hex')).toBe(ps.sha256);
  expect(csv.toString('utf8').split('\r\n')[0]).toMatch(/^codigoEmpresaDistribuidora,nombreEmpresaDistribuidora,cups,/);

  // EOD's files are there too; ECD's are not offered.
  await page.getByLabel('Distribuidora').selectOption('eod');
  await expect(page.getByRole('heading', { name: /Ficheros mensuales de Electra Occidental/ })).toBeVisible();
  await expect(page.getByLabel('Distribuidora').locator('option')).toHaveCount(2);
});

test('la consulta por CUPS responde los buenos y explica cada uno de los malos', async ({ page }) => {
  test.setTimeout(60_000);
  const suyos = await (await clienteApi(CONSUMIDOR))<(SuministroApi & { distribuidora: string })[]>('/api/suministros');
  const epd = suyos.find((s) => s.distribuidora === 'epd')!.cups;
  const eod = suyos.find((s) => s.distribuidora === 'eod')!.cups;
  await entrar(page, COMERCIALIZADORA, DEMO_PASSWORD, '/comercializadora/sips');
  await page.getByLabel('CUPS que quiere consultar').fill([epd, 'ES1234', eod, 'ES9901999999999999ZZ'].join('\n'));
  await page.getByRole('button', { name: 'Consultar' }).click();

  await expect(page.getByRole('status').filter({ hasText: 'Un suministro encontrado' })).toBeVisible();
  const rechazados = page.locator('.sips-rechazados');
  await expect(rechazados).toContainText('Línea 2');
  await expect(rechazados).toContainText(`Línea 3: ${eod}. Es un CUPS de otra distribuidora`);
  await expect(rechazados).toContainText('Línea 4');
  await expect(page.getByRole('table', { name: /Suministros encontrados/ }).getByRole('rowheader', { name: epd })).toBeVisible();
  await axeEnAnchos(page, 'sips-consulta');

  const [descarga] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Descargar los suministros en CSV' }).click(),
  ]);
  expect(descarga.suggestedFilename()).toBe('consulta_SIPS2026_PS_ELECTRICIDAD_epd.csv');
  const lineas = readFileSync(await descarga.path(), 'utf8')
    .trimEnd()
    .split('\r\n');
  expect(lineas).toHaveLength(2);
  expect(lineas[1]).toContain(epd);
});

test('una comercializadora sin EPD no ve sus ficheros (403)', async () => {
  const api = await clienteApi(CONSUMIDOR);
  await expect(api('/api/sips/epd')).rejects.toThrow(/403/);
});

test('el administrador de EPD carga un registro con un error y ve la línea y la columna', async ({ page }) => {
  test.setTimeout(60_000);
  await entrar(page, ADMIN_EPD, DEMO_PASSWORD, '/administrador/sips');
  await expect(page.getByRole('heading', { level: 1, name: 'SIPS' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Electra Peninsular Distribución, S.L.' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: /Occidental/ })).toHaveCount(0);

  // Two lines of companies of this month's SIPS2026 PS file, with one tariff code changed on line 3.
  const lineas = await lineasDeEmpresas(2);
  lineas[2] = lineas[2]!.replace(/,0(18|19|20),/, ',099,');
  await page.getByLabel('Fichero SIPS2026 PS_ELECTRICIDAD').setInputFiles({
    name: 'registro.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(lineas.join('\r\n') + '\r\n'),
  });
  await page.getByRole('button', { name: 'Revisar los cambios' }).click();
  const errores = page.getByRole('group', { name: 'Errores del fichero' });
  await expect(errores).toContainText('codigoTarifaATREnVigor');
  await expect(errores.getByRole('row').nth(1)).toContainText('3');
  await axeEnAnchos(page, 'sips-admin');
});

/**
 * The header and the first `n` rows of companies (tipoPersona J) of this month's SIPS2026 PS file of
 * EPD: the register as it is (a household's row goes out without its holder, decision 036).
 */
async function lineasDeEmpresas(n: number): Promise<string[]> {
  // Written again first: browser tests running before this one change supply points (an ATR
  // activation, a modification), and the file written at start would then differ from the register.
  const ctx = await request.newContext({ baseURL: `http://127.0.0.1:${E2E_PORT}` });
  const login = await ctx.post('/api/accesoUsuario', {
    headers: { Authorization: `Basic ${Buffer.from(`${ADMIN_EPD}:${DEMO_PASSWORD}`).toString('base64')}` },
  });
  const { jwtToken } = (await login.json()) as { jwtToken: string };
  const generado = await ctx.post('/api/administrador/sips/epd/ficheros', { headers: { Authorization: `Bearer ${jwtToken}` }, data: {} });
  expect(generado.ok(), await generado.text()).toBe(true);
  await ctx.dispose();
  const api = await clienteApi(ADMIN_EPD);
  const ps = (await api<FicheroApi[]>('/api/sips/epd')).find((f) => f.tipo === 'PS_ELECTRICIDAD' && f.version === 'sips2026')!;
  const lineas = gunzipSync(await bytesDeApi(ADMIN_EPD, `/api/sips/epd/${ps.nombre}`))
    .toString('utf8')
    .split('\r\n');
  const persona = lineas[0]!.split(',').indexOf('tipoPersona');
  const empresas = lineas.slice(1).filter((l) => l && (parse(l) as string[][])[0]![persona] === 'J');
  expect(empresas.length).toBeGreaterThanOrEqual(n);
  return [lineas[0]!, ...empresas.slice(0, n)];
}

test('el administrador de EPD vuelve a cargar filas de su registro: la previa dice que no cambia nada y la carga lo confirma', async ({
  page,
}) => {
  await entrar(page, ADMIN_EPD, DEMO_PASSWORD, '/administrador/sips');
  const lineas = await lineasDeEmpresas(2);
  await page.getByLabel('Fichero SIPS2026 PS_ELECTRICIDAD').setInputFiles({
    name: 'registro.csv.gz',
    mimeType: 'application/gzip',
    buffer: gzipSync(lineas.join('\r\n') + '\r\n'),
  });
  await page.getByRole('button', { name: 'Revisar los cambios' }).click();
  await expect(page.getByText('El fichero no cambia nada del registro.')).toBeVisible();
  await page.getByRole('button', { name: 'Cargar el registro' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Registro cargado' })).toHaveText(
    'Registro cargado: 2 suministros, 0 nuevos, 0 actualizados y 2 sin cambios.',
  );
});

test('antes de cargar, el administrador ve qué cambia en cada suministro y puede cancelar', async ({ page }) => {
  test.setTimeout(60_000);
  await entrar(page, ADMIN_EPD, DEMO_PASSWORD, '/administrador/sips');
  const lineas = await lineasDeEmpresas(2);
  const cabecera = lineas[0]!.split(',');
  const campos = (parse(lineas[1]!) as string[][])[0]!;
  const cups = campos[cabecera.indexOf('cups')]!;
  const antes = campos[cabecera.indexOf('codigoPostalPS')]!;
  campos[cabecera.indexOf('codigoPostalPS')] = antes === '28999' ? '28998' : '28999';
  lineas[1] = campos.map((c) => (/[",]/.test(c) ? `"${c.replaceAll('"', '""')}"` : c)).join(',');
  await page.getByLabel('Fichero SIPS2026 PS_ELECTRICIDAD').setInputFiles({
    name: '202611_SIPS2026_PS_ELECTRICIDAD_registro_de_suministros_de_electra_peninsular.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(lineas.join('\r\n') + '\r\n'),
  });
  await page.getByRole('button', { name: 'Revisar los cambios' }).click();
  const previa = page.locator('.sips-previa');
  await expect(previa.getByRole('heading', { name: /Qué cambiaría al cargar/ })).toBeFocused();
  await expect(previa).toContainText('1 cambia');
  await expect(previa).toContainText('1 sin cambios');
  const cambios = page.getByRole('table', { name: 'Cambios por suministro' });
  const fila = cambios.getByRole('row').filter({ hasText: 'Código postal' });
  await expect(fila).toContainText(cups);
  await expect(fila).toContainText(antes);
  await expect(fila).toContainText(campos[cabecera.indexOf('codigoPostalPS')]!);
  for (const w of WIDTHS) {
    await page.setViewportSize({ width: w.width, height: w.height });
    await expectNoAxeViolations(page, `sips-previa (${w.name})`);
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(w.width);
    await foto(page, `sips-previa-${w.width}`);
  }
  await page.getByRole('button', { name: 'Cancelar' }).click();
  await expect(previa).toHaveCount(0);
});

test('a 390 px la pantalla SIPS de la comercializadora no se sale de lado, la consulta está arriba y cada acción borra la anterior', async ({
  page,
}) => {
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 390, height: 844 });
  const suyos = await (await clienteApi(CONSUMIDOR))<(SuministroApi & { distribuidora: string })[]>('/api/suministros');
  const epd = suyos.find((s) => s.distribuidora === 'epd')!.cups;
  await entrar(page, COMERCIALIZADORA, DEMO_PASSWORD, '/comercializadora/sips');
  await expect(page.getByRole('heading', { level: 1, name: 'SIPS' })).toBeVisible();
  const ancho = () => page.evaluate(() => document.scrollingElement!.scrollWidth);

  // The query is reached from the top: its link is in the first screen, and the form not far below.
  const enlace = page.getByRole('navigation', { name: 'En esta página' }).getByRole('link', { name: 'Consulta por CUPS' });
  expect((await enlace.boundingBox())!.y).toBeLessThan(844);
  const campo = page.getByLabel('CUPS que quiere consultar');
  expect((await campo.boundingBox())!.y).toBeLessThan(1200);

  // A download with a long name leaves the page as wide as the screen.
  const mes = page.locator('li.med-tarjeta').first();
  await Promise.all([page.waitForEvent('download'), mes.getByRole('button', { name: 'Consumos de 24 meses, SIPS2026' }).click()]);
  await expect(mes.getByRole('status')).toContainText('Fichero descargado');
  expect(await ancho()).toBeLessThanOrEqual(390);

  await campo.fill(epd);
  await page.getByRole('button', { name: 'Consultar' }).click();
  const tabla = page.getByRole('table', { name: /Suministros encontrados/ });
  await expect(tabla.getByRole('rowheader', { name: epd })).toBeVisible();
  expect(await ancho()).toBeLessThanOrEqual(390);
  await foto(page, 'sips-comercializadora-390');

  // A new query that fails leaves no rows of the last one, and its headings do not skip a level.
  await campo.fill('');
  await page.getByRole('button', { name: 'Consultar' }).click();
  await expect(page.getByRole('heading', { name: 'No hemos podido hacer la consulta:' })).toBeVisible();
  await expect(tabla).toHaveCount(0);
  const niveles = await page
    .locator('main')
    .evaluate((m) => [...m.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((h) => Number(h.tagName[1])));
  niveles.forEach((n, i) => expect(n - (niveles[i - 1] ?? 0), `encabezados ${niveles.join(', ')}`).toBeLessThanOrEqual(1));
  await expectNoAxeViolations(page, 'sips-consulta-error (movil)');
  expect(await ancho()).toBeLessThanOrEqual(390);

  // The page's index jumps within the page, as any link to a fragment does: no new screen, no jump to the top.
  await page.getByRole('navigation', { name: 'En esta página' }).getByRole('link', { name: 'Ficheros mensuales' }).click();
  await expect(page).toHaveURL(/\/comercializadora\/sips#sips-ficheros$/);
  await expect(page.getByRole('heading', { level: 2, name: /^Ficheros mensuales de/ })).toBeInViewport();
});
