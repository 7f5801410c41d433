/**
 * The measure downloads from the screens: the Datadis-compatible CSV of the curve screen and the
 * maximum powers workbook, checked against the API's own answers; and the download controls at
 * phone and desktop widths (screenshots for a person to look at).
 */
import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { expect, test, type Page } from '@playwright/test';
import { join } from 'node:path';
import {
  CONSUMIDOR,
  EMPRESA,
  SHOTS,
  clienteApi,
  conMedida,
  fechaMadrid,
  ultimoCambioEntre,
  type CurvaApi,
  type SuministroApi,
} from './medidas-support.ts';
import { DEMO_PASSWORD, entrar, expectNoAxeViolations, WIDTHS } from './support.ts';

interface PotenciasApi {
  meses: { mes: string; periodos: { periodo: string; potenciaKw: number; momento: string }[] }[];
}

/** Downloads what a button gives and returns its name and bytes, once the screen says it is done. */
async function descargar(page: Page, boton: string): Promise<{ nombre: string; bytes: Buffer }> {
  const [descarga] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: boton, exact: true }).click()]);
  await expect(page.getByRole('status').filter({ hasText: 'Fichero descargado' })).toContainText(descarga.suggestedFilename());
  return { nombre: descarga.suggestedFilename(), bytes: readFileSync(await descarga.path()) };
}

test('downloads the Datadis CSV of the October day and the maximum powers workbook', async ({ page }) => {
  const api = await clienteApi(CONSUMIDOR);
  const [s] = await api<SuministroApi[]>('/api/suministros');
  const detalle = await api<SuministroApi>(`/api/suministros/${s!.cups}`);
  const octubre = ultimoCambioEntre(10, fechaMadrid(Date.parse(detalle.medidas!.desde)), fechaMadrid(Date.parse(detalle.medidas!.hasta)))!;
  await entrar(page, CONSUMIDOR, DEMO_PASSWORD, `/medidas/curvas?cups=${s!.cups}&rango=dia&desde=${octubre}&hasta=${octubre}`);
  await expect(page.locator('.med-resultado')).toHaveAttribute('aria-busy', 'false');
  const c = await api<CurvaApi>(
    `/api/medidas/curva?${new URLSearchParams({ cups: s!.cups, desde: octubre, hasta: octubre, resolucion: 'hora' })}`,
  );

  const datadis = await descargar(page, 'CSV formato Datadis');
  expect(datadis.nombre).toBe(`consumos_${s!.cups}_${octubre}_${octubre}_datadis.csv`);
  expect(datadis.bytes.subarray(0, 4).toString('latin1')).toBe('cups');
  const lineas = datadis.bytes.toString('utf8').trimEnd().split('\r\n');
  expect(lineas[0]).toBe('cups;fecha;hora;consumo_kWh;metodoObtencion;energiaVertida_kWh');
  // Only the hours with a measure, as Datadis; the repeated hour ends at 03:00 twice.
  expect(lineas).toHaveLength(1 + conMedida(c));
  const fecha = octubre.replaceAll('-', '/');
  for (const l of lineas.slice(1))
    expect(l).toMatch(new RegExp(`^${s!.cups};${fecha};(0[1-9]|1\\d|2[0-4]):00;\\d+,\\d{3};(Real|Estimada);(\\d+,\\d{3})?$`));
  const horas = lineas.slice(1).map((l) => l.split(';')[2]);
  if (c.curva.importadaWh[2] !== null && c.curva.importadaWh[3] !== null) expect(horas.filter((h) => h === '03:00')).toHaveLength(2);
  expect(lineas.slice(1).reduce((t, l) => t + Number(l.split(';')[3]!.replace(',', '.')) * 1000, 0)).toBeCloseTo(c.totales.importadaWh, 0);

  // The maximum powers of the company's first supply point, as a workbook.
  const empresa = await clienteApi(EMPRESA);
  const [e] = await empresa<SuministroApi[]>('/api/suministros');
  await page.context().clearCookies();
  await entrar(page, EMPRESA, DEMO_PASSWORD, '/medidas/potencia');
  await expect(page.locator('.med-resultado')).toHaveAttribute('aria-busy', 'false');
  const u = new URL(page.url());
  const desde = u.searchParams.get('desde')!;
  const hasta = u.searchParams.get('hasta')!;
  const datos = await empresa<PotenciasApi>(`/api/medidas/potencias?cups=${e!.cups}&desde=${desde}&hasta=${hasta}`);
  const libro = await descargar(page, 'Descargar Excel');
  expect(libro.nombre).toBe(`potencias-maximas_${e!.cups}_${desde}_${hasta}.xlsx`);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(libro.bytes as unknown as ArrayBuffer);
  const hoja = wb.getWorksheet('Potencias máximas')!;
  expect(hoja.getRow(1).getCell(7).value).toBe('Momento (hora local de Madrid)');
  const esperadas = datos.meses.flatMap((m) => m.periodos.map((p) => ({ mes: m.mes, ...p })));
  expect(hoja.rowCount).toBe(1 + esperadas.length);
  const primera = esperadas[0]!;
  const fila = hoja.getRow(2);
  expect(fila.getCell(2).value).toEqual(new Date(`${primera.mes}-01T00:00:00Z`));
  expect(fila.getCell(3).value).toBe(primera.periodo);
  expect(fila.getCell(4).value).toBe(primera.potenciaKw);
  // The moment as the clocks in Madrid read it, with its offset beside it.
  const momento = fila.getCell(7).value as Date;
  const desfase = String(fila.getCell(8).value);
  expect(desfase).toMatch(/^\+0[12]:00$/);
  expect(momento.getTime() - Number(desfase.slice(1, 3)) * 3_600_000).toBe(Date.parse(primera.momento));
});

for (const w of WIDTHS) {
  test(`shows the download controls at ${w.name} (${w.width} px)`, async ({ page }) => {
    await page.setViewportSize({ width: w.width, height: w.height });
    await entrar(page, CONSUMIDOR, DEMO_PASSWORD, '/medidas/curvas');
    await expect(page.locator('.med-resultado')).toHaveAttribute('aria-busy', 'false');
    const panel = page.locator('section[aria-labelledby="med-descargas-titulo"]');
    await panel.scrollIntoViewIfNeeded();
    await expect(panel.getByRole('button')).toHaveText(['Descargar CSV', 'Descargar Excel', 'CSV formato Datadis']);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(w.width);
    await panel.screenshot({ path: join(SHOTS, `descargas-curvas-${w.width}.png`) });
    await expectNoAxeViolations(page, `descargas de curvas ${w.name}`);

    await page.goto('/medidas/potencia');
    await expect(page.locator('.med-resultado')).toHaveAttribute('aria-busy', 'false');
    const pot = page.locator('section[aria-labelledby="pot-descargas-titulo"]');
    await pot.scrollIntoViewIfNeeded();
    await expect(pot.getByRole('button')).toHaveText(['Descargar CSV', 'Descargar Excel']);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(w.width);
    await pot.screenshot({ path: join(SHOTS, `descargas-potencias-${w.width}.png`) });
  });
}
