/**
 * /medidas/potencia ("Maximum powers") through the browser: the company's 6.1TD and 3.0TD
 * supply points, the default last twelve complete months, the table checked against the API, the
 * chart, an exceedance flagged in words and icon, the CSV the API writes, month range errors,
 * and axe at desktop and phone widths.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { EMPRESA, clienteApi, foto, type SuministroApi } from './medidas-support.ts';
import { DEMO_PASSWORD, entrar, expectNoAxeViolations, WIDTHS } from './support.ts';

const RUTA = '/medidas/potencia';

interface PotenciasApi {
  cups: string;
  contratadasKw: number[];
  periodos: { periodo: string; nombre: string }[];
  meses: { mes: string; periodos: { periodo: string; potenciaKw: number; excedida: boolean }[] }[];
}

/** The last twelve complete months before today, in Madrid. */
function ultimosDoceMeses(): { desde: string; hasta: string } {
  const hoy = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Madrid', year: 'numeric', month: '2-digit' }).format(new Date());
  const [a, m] = hoy.split('-').map(Number) as [number, number];
  const mes = (n: number) => {
    const d = new Date(Date.UTC(a, m - 1 + n, 1));
    return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
  };
  return { desde: mes(-12), hasta: mes(-1) };
}

const kw = (v: number) => new Intl.NumberFormat('es-ES', { maximumFractionDigits: 3, useGrouping: 'always' }).format(v);
const kw3 = (v: number) =>
  new Intl.NumberFormat('es-ES', { minimumFractionDigits: 3, maximumFractionDigits: 3, useGrouping: 'always' }).format(v);

async function esperar(page: Page) {
  await expect(page.locator('.med-resultado')).toHaveAttribute('aria-busy', 'false');
}

test('shows the last twelve complete months of the first supply point, as the API gives them', async ({ page }) => {
  const api = await clienteApi(EMPRESA);
  const lista = await api<SuministroApi[]>('/api/suministros');
  const { desde, hasta } = ultimosDoceMeses();
  await entrar(page, EMPRESA, DEMO_PASSWORD, RUTA);
  await expect(page).toHaveURL(new RegExp(`cups=${lista[0]!.cups}&desde=${desde}&hasta=${hasta}$`));
  await esperar(page);
  const datos = await api<PotenciasApi>(`/api/medidas/potencias?cups=${lista[0]!.cups}&desde=${desde}&hasta=${hasta}`);

  const tabla = page.getByRole('table', { name: 'Potencia máxima demandada por mes y periodo (kW)' });
  await expect(tabla.locator('tbody tr')).toHaveCount(12);
  await expect(tabla.locator('thead th')).toHaveCount(1 + datos.periodos.length);
  for (const [i, c] of datos.contratadasKw.entries()) {
    await expect(tabla.locator('thead th').nth(i + 1)).toContainText(`Contratada: ${kw(c)} kW`);
  }
  // Every maximum of the API is in its month's row and its period's column.
  const fila = (mes: string) =>
    (Number(mes.slice(0, 4)) - Number(desde.slice(0, 4))) * 12 + Number(mes.slice(5, 7)) - Number(desde.slice(5, 7));
  for (const m of datos.meses) {
    for (const p of m.periodos) {
      const col = datos.periodos.findIndex((x) => x.periodo === p.periodo);
      await expect(tabla.locator('tbody tr').nth(fila(m.mes)).locator('td').nth(col)).toContainText(`${kw3(p.potenciaKw)} kW`);
    }
  }
  await expect(page.locator('[data-grafico="potencias"] canvas')).toHaveCount(1);
  const excesos = datos.meses.flatMap((m) => m.periodos).filter((p) => p.excedida).length;
  await expect(
    page.getByText(excesos === 0 ? 'No ha superado la potencia contratada en estos meses.' : /^Ha superado la potencia contratada/),
  ).toBeVisible();
  await foto(page, 'potencias-1280');

  // The CSV: header and one line per month and period with data.
  const [descarga] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Descargar CSV' }).click()]);
  expect(descarga.suggestedFilename()).toBe(`potencias-maximas_${lista[0]!.cups}_${desde}_${hasta}.csv`);
  const bytes = readFileSync(await descarga.path());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lineas = bytes.toString('utf8').slice(1).trimEnd().split('\r\n');
  expect(lineas[0]).toBe('CUPS;Mes;Periodo;Potencia_maxima_kW;Potencia_contratada_kW;Excedida;Momento;Metodo');
  expect(lineas).toHaveLength(1 + datos.meses.reduce((n, m) => n + m.periodos.length, 0));
  expect(lineas[1]).toMatch(
    new RegExp(
      `^${lista[0]!.cups};\\d{4}-\\d{2};P\\d;\\d+(,\\d+)?;\\d+(,\\d+)?;[SN];\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:00\\+0[12]:00;(Real|Estimada)$`,
    ),
  );
  await expect(page.getByRole('status').filter({ hasText: 'Fichero descargado' })).toContainText(descarga.suggestedFilename());
});

test('flags an exceedance in words and with an icon, not by colour alone', async ({ page }) => {
  // The demo 6.1TD supply contracts 88 kW in P1–P5 and its summer peaks pass it.
  const api = await clienteApi(EMPRESA);
  const lista = await api<SuministroApi[]>('/api/suministros');
  const { desde, hasta } = ultimosDoceMeses();
  const datos = await api<PotenciasApi>(`/api/medidas/potencias?cups=${lista[0]!.cups}&desde=${desde}&hasta=${hasta}`);
  const excesos = datos.meses.flatMap((m) => m.periodos).filter((p) => p.excedida).length;
  expect(excesos, 'excesos en los datos de demostración').toBeGreaterThan(0);
  await entrar(page, EMPRESA, DEMO_PASSWORD, RUTA);
  await esperar(page);
  await expect(page.getByText(/^Ha superado la potencia contratada/)).toBeVisible();
  const celda = page.locator('td.med-celda--exceso');
  await expect(celda).toHaveCount(excesos);
  await expect(celda.first()).toContainText('Supera la contratada');
  await expectNoAxeViolations(page, 'potencias con un exceso');
});

test('changes the supply point and the months, and refuses a bad range in Spanish', async ({ page }) => {
  const api = await clienteApi(EMPRESA);
  const lista = await api<SuministroApi[]>('/api/suministros');
  await entrar(page, EMPRESA, DEMO_PASSWORD, RUTA);
  await esperar(page);
  await page.getByLabel('Suministro', { exact: true }).selectOption(lista[1]!.cups);
  await expect(page).toHaveURL(new RegExp(`cups=${lista[1]!.cups}`));
  await esperar(page);
  await expect(page.getByRole('table', { name: /Potencia máxima demandada/ }).locator('thead')).toContainText(
    `Contratada: ${kw(lista[1]!.potenciasKw[0]!)} kW`,
  );

  const { hasta } = ultimosDoceMeses();
  await page.getByLabel('Desde', { exact: true }).fill(hasta);
  await page.getByLabel('Hasta', { exact: true }).fill(hasta);
  await page.getByRole('button', { name: 'Ver', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`desde=${hasta}&hasta=${hasta}`));
  await esperar(page);
  await expect(page.getByRole('table', { name: /Potencia máxima demandada/ }).locator('tbody tr')).toHaveCount(1);

  await page.getByLabel('Desde', { exact: true }).fill('2023-01');
  await page.getByRole('button', { name: 'Ver', exact: true }).click();
  const resumen = page.getByRole('group', { name: 'Revise los meses que quiere consultar:' });
  await expect(resumen).toBeFocused();
  await expect(resumen.getByRole('link', { name: 'Consulte como máximo 24 meses de potencias.' })).toBeVisible();
  await expect(page.getByLabel('Desde', { exact: true })).toHaveValue('2023-01');
});

for (const w of WIDTHS) {
  test(`passes axe at ${w.name} (${w.width} px)`, async ({ page }) => {
    await page.setViewportSize({ width: w.width, height: w.height });
    await entrar(page, EMPRESA, DEMO_PASSWORD, RUTA);
    await esperar(page);
    await expect(page.locator('[data-grafico="potencias"] canvas')).toHaveCount(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(w.width);
    await expectNoAxeViolations(page, `potencias ${w.name}`);
    await foto(page, `potencias-${w.width}`);
  });
}
