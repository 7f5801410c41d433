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

  // The first lines of this month's SIPS2026 PS file, with one tariff code changed on line 3.
  const api = await clienteApi(ADMIN_EPD);
  const ficheros = await api<FicheroApi[]>('/api/sips/epd');
  const ps = ficheros.find((f) => f.tipo === 'PS_ELECTRICIDAD' && f.version === 'sips2026')!;
  const lineas = gunzipSync(await bytesDeApi(ADMIN_EPD, `/api/sips/epd/${ps.nombre}`))
    .toString('utf8')
    .split('\r\n')
    .slice(0, 3);
  lineas[2] = lineas[2]!.replace(/,0(18|19|20),/, ',099,');
  await page.getByLabel('Fichero SIPS2026 PS_ELECTRICIDAD').setInputFiles({
    name: 'registro.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(lineas.join('\r\n') + '\r\n'),
  });
  await page.getByRole('button', { name: 'Cargar el registro' }).click();
  const errores = page.getByRole('group', { name: 'Errores del fichero' });
  await expect(errores).toContainText('codigoTarifaATREnVigor');
  await expect(errores.getByRole('row').nth(1)).toContainText('3');
  await axeEnAnchos(page, 'sips-admin');
});

test('el administrador de EPD vuelve a cargar filas de su registro y ve que no cambia nada', async ({ page }) => {
  await entrar(page, ADMIN_EPD, DEMO_PASSWORD, '/administrador/sips');
  // The header and the first two lines of this month's SIPS2026 PS file: the register as it is.
  const api = await clienteApi(ADMIN_EPD);
  const ps = (await api<FicheroApi[]>('/api/sips/epd')).find((f) => f.tipo === 'PS_ELECTRICIDAD' && f.version === 'sips2026')!;
  const lineas = gunzipSync(await bytesDeApi(ADMIN_EPD, `/api/sips/epd/${ps.nombre}`))
    .toString('utf8')
    .split('\r\n')
    .slice(0, 3);
  await page.getByLabel('Fichero SIPS2026 PS_ELECTRICIDAD').setInputFiles({
    name: 'registro.csv.gz',
    mimeType: 'application/gzip',
    buffer: gzipSync(lineas.join('\r\n') + '\r\n'),
  });
  await page.getByRole('button', { name: 'Cargar el registro' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Registro cargado' })).toHaveText(
    'Registro cargado: 2 suministros, 0 nuevos, 0 actualizados y 2 sin cambios.',
  );
});
