/**
 * /medidas/curvas ("Hourly consumption") through the browser with the demo data: the chart
 * of the first supply point and its draw time, the range presets and previous/next, the totals
 * checked against the API's numbers, the 25-hour October day labelled, the table view, the CSV
 * downloads of 23-, 24- and 25-hour days checked line by line, quarter-hours for a company's meter,
 * empty states and range errors, and axe at desktop and phone widths.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import {
  CONSUMIDOR,
  EMPRESA,
  clienteApi,
  conMedida,
  fechaMadrid,
  foto,
  kwhTexto,
  masDias,
  ultimoCambioEntre,
  type CurvaApi,
  type SuministroApi,
} from './medidas-support.ts';
import { DEMO_PASSWORD, entrar, expectNoAxeViolations, WIDTHS } from './support.ts';

const RUTA = '/medidas/curvas';

/** The supply points of an account, the first one's detail, and its first and last day with measures. */
async function datosDe(email: string) {
  const api = await clienteApi(email);
  const lista = await api<SuministroApi[]>('/api/suministros');
  const detalle = await api<SuministroApi>(`/api/suministros/${lista[0]!.cups}`);
  const m = detalle.medidas!;
  return { api, lista, detalle, primero: fechaMadrid(Date.parse(m.desde)), ultimo: fechaMadrid(Date.parse(m.hasta)) };
}

/** The curve the API gives for what the address of the page says. */
async function curvaDeLaPagina(page: Page, api: Awaited<ReturnType<typeof clienteApi>>, resolucion = 'hora'): Promise<CurvaApi> {
  const u = new URL(page.url());
  const q = new URLSearchParams({
    cups: u.searchParams.get('cups')!,
    desde: u.searchParams.get('desde')!,
    hasta: u.searchParams.get('hasta')!,
    resolucion,
  });
  return api<CurvaApi>(`/api/medidas/curva?${q}`);
}

/** Waits until the screen shows the data of the range in its address. */
async function esperarDatos(page: Page): Promise<void> {
  await expect(page.locator('.med-resultado')).toHaveAttribute('aria-busy', 'false');
  await expect(page.locator('.med-datos-curva--cargando')).toHaveCount(0);
}

const cifra = (page: Page, etiqueta: string) => page.locator(`[data-cifra="${etiqueta}"]`);

/** Checks the figures and the totals per period against the API's answer. */
async function comprobarTotales(page: Page, c: CurvaApi): Promise<void> {
  await expect(cifra(page, 'Consumo del periodo')).toHaveText(kwhTexto(c.totales.importadaWh));
  await expect(cifra(page, 'Horas con medida')).toHaveText(
    `${c.totales.horasConDatos.toLocaleString('es-ES', { useGrouping: 'always' })} de ${c.totales.horasDelRango.toLocaleString('es-ES', { useGrouping: 'always' })}`,
  );
  const totales = page.getByRole('table', { name: /Consumo por periodo tarifario/ });
  for (const p of c.totales.porPeriodo) {
    await expect(totales.locator(`tr[data-periodo="${p.periodo}"] td`).first()).toHaveText(kwhTexto(p.importadaWh));
  }
  await expect(totales.locator('tr[data-periodo="total"] td').first()).toHaveText(kwhTexto(c.totales.importadaWh));
}

/** Downloads the CSV of the range shown and returns its lines (BOM checked and removed). */
async function descargarCsv(page: Page): Promise<{ nombre: string; lineas: string[] }> {
  const [descarga] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Descargar CSV' }).click()]);
  const bytes = readFileSync(await descarga.path());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  await expect(page.getByRole('status').filter({ hasText: 'Fichero descargado' })).toContainText(descarga.suggestedFilename());
  return { nombre: descarga.suggestedFilename(), lineas: bytes.toString('utf8').slice(1).trimEnd().split('\r\n') };
}

const CABECERA_CSV =
  'CUPS;Fecha;Hora;Consumo_kWh;Metodo_obtencion;Energia_vertida_kWh;Firme;Periodo;Franja_horaria;Inicio;Fin;Hora_fin;Reactiva_inductiva_kVArh;Reactiva_capacitiva_kVArh';

/** 1…n. */
const hastaN = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

test('draws the chart of the first supply point and records how long the draw took', async ({ page }) => {
  const { lista } = await datosDe(CONSUMIDOR);
  await entrar(page, CONSUMIDOR, DEMO_PASSWORD, RUTA);
  await expect(page.getByLabel('Suministro', { exact: true })).toHaveValue(lista[0]!.cups);
  // The last seven complete days: a week that ends yesterday, the last day with measures in the demo.
  await expect(page).toHaveURL(new RegExp(`cups=${lista[0]!.cups}&rango=personalizado&desde=\\d{4}-\\d{2}-\\d{2}&hasta=`));
  const q = new URL(page.url()).searchParams;
  expect(Date.parse(`${q.get('hasta')}T00:00:00Z`) - Date.parse(`${q.get('desde')}T00:00:00Z`)).toBe(6 * 86_400_000);
  await esperarDatos(page);
  const grafico = page.locator('[data-grafico="curva"]');
  await expect(grafico.locator('canvas')).toHaveCount(1);
  await expect(grafico).toHaveAttribute('data-dibujo-ms', /^\d+(\.\d)?$/);
  const medidas = await page.evaluate(() => performance.getEntriesByName('grafico-curva').map((e) => e.duration));
  expect(medidas.length).toBeGreaterThan(0);
  await expect(page.getByRole('list', { name: 'Leyenda del gráfico' })).toContainText('Punta (P1)');
  await expect(page.getByRole('list', { name: 'Leyenda del gráfico' })).toContainText('Energía vertida');
});

test('draws a year of hours (8,784 in the range) and exposes the draw measure', async ({ page }) => {
  const { detalle, ultimo } = await datosDe(CONSUMIDOR);
  // 366 days with one March and one October change: 8,784 hours.
  const desde = masDias(ultimo, -365);
  await entrar(
    page,
    CONSUMIDOR,
    DEMO_PASSWORD,
    `${RUTA}?cups=${detalle.cups}&rango=personalizado&desde=${desde}&hasta=${ultimo}&resolucion=hora`,
  );
  await esperarDatos(page);
  await expect(cifra(page, 'Horas con medida')).toContainText('de 8.784');
  const grafico = page.locator('[data-grafico="curva"]');
  await expect(grafico).toHaveAttribute('data-dibujo-ms', /\d/);
  const puntos = Number(await grafico.getAttribute('data-puntos'));
  expect(puntos).toBeGreaterThan(8700);
  // Two more draws of the same year (daily sums in between): the first one also pays for warming up.
  for (let i = 0; i < 2; i++) {
    await page.getByRole('radio', { name: 'Días', exact: true }).check();
    await esperarDatos(page);
    await page.getByRole('radio', { name: 'Horas', exact: true }).check();
    await esperarDatos(page);
    await expect(grafico).toHaveAttribute('data-puntos', String(puntos));
  }
  const medidas = await page.evaluate(() => performance.getEntriesByName('grafico-curva').map((e) => e.duration));
  expect(medidas.length).toBeGreaterThanOrEqual(5);
  const anuales = [medidas[0]!, medidas[2]!, medidas[4]!].map((m) => m.toFixed(1));
  test.info().annotations.push({ type: 'grafico-curva', description: `${puntos} barras: ${anuales.join(', ')} ms` });
  console.log(`grafico-curva: ${puntos} barras dibujadas en ${anuales.join(', ')} ms`);
});

test('switches day → week → month → custom, with previous/next, and the totals match the API', async ({ page }) => {
  const { api, detalle, ultimo } = await datosDe(CONSUMIDOR);
  // Forty days back: its month is complete, so it opens as daily sums.
  const dia = masDias(ultimo, -40);
  await entrar(page, CONSUMIDOR, DEMO_PASSWORD, `${RUTA}?cups=${detalle.cups}&rango=dia&desde=${dia}&hasta=${dia}`);
  await esperarDatos(page);
  await expect(
    page.getByRole('heading', { level: 2, name: /^(Lunes|Martes|Miércoles|Jueves|Viernes|Sábado|Domingo), \d+ de/ }),
  ).toBeVisible();
  await comprobarTotales(page, await curvaDeLaPagina(page, api));

  await page.getByRole('button', { name: 'Día anterior' }).click();
  await expect(page).toHaveURL(new RegExp(`desde=${masDias(dia, -1)}&hasta=${masDias(dia, -1)}`));
  await esperarDatos(page);
  await comprobarTotales(page, await curvaDeLaPagina(page, api));

  await page.getByRole('radio', { name: 'Semana', exact: true }).check();
  await expect(page).toHaveURL(/rango=semana/);
  await esperarDatos(page);
  const semana = new URL(page.url()).searchParams;
  expect(new Date(`${semana.get('desde')}T12:00:00Z`).getUTCDay()).toBe(1);
  await expect(page.getByRole('heading', { level: 2, name: /^Semana del / })).toBeVisible();
  await comprobarTotales(page, await curvaDeLaPagina(page, api));

  await page.getByRole('radio', { name: 'Mes', exact: true }).check();
  await expect(page).toHaveURL(/rango=mes&desde=\d{4}-\d{2}-01&/);
  await esperarDatos(page);
  // A month opens as daily sums, with a switch to hours.
  await expect(page.getByRole('radio', { name: 'Días', exact: true })).toBeChecked();
  await comprobarTotales(page, await curvaDeLaPagina(page, api, 'dia'));
  await page.getByRole('button', { name: 'Mes anterior' }).click();
  await esperarDatos(page);
  await comprobarTotales(page, await curvaDeLaPagina(page, api, 'dia'));
  await page.getByRole('radio', { name: 'Horas', exact: true }).check();
  await expect(page).toHaveURL(/resolucion=hora/);
  await esperarDatos(page);
  const puntos = Number(await page.locator('[data-grafico="curva"]').getAttribute('data-puntos'));
  expect(puntos).toBe(conMedida(await curvaDeLaPagina(page, api)));

  await page.getByRole('radio', { name: 'Personalizado', exact: true }).check();
  await expect(page).toHaveURL(/rango=personalizado/);
  const desde = masDias(ultimo, -20);
  const hasta = masDias(ultimo, -14);
  await page.getByLabel('Desde', { exact: true }).fill(desde);
  await page.getByLabel('Hasta', { exact: true }).fill(hasta);
  await page.getByRole('button', { name: 'Ver', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`desde=${desde}&hasta=${hasta}`));
  await esperarDatos(page);
  await comprobarTotales(page, await curvaDeLaPagina(page, api));

  // Back returns to the previous range, as the address holds it.
  await page.goBack();
  await expect(page).toHaveURL(/rango=personalizado/);
  await expect(page).not.toHaveURL(new RegExp(`desde=${desde}`));
  await foto(page, 'curvas-personalizado-1280');
});

test('refuses a bad custom range with Spanish errors linked to the fields, keeping the values', async ({ page }) => {
  const { detalle, ultimo } = await datosDe(CONSUMIDOR);
  await entrar(
    page,
    CONSUMIDOR,
    DEMO_PASSWORD,
    `${RUTA}?cups=${detalle.cups}&rango=personalizado&desde=${masDias(ultimo, -6)}&hasta=${ultimo}`,
  );
  await esperarDatos(page);
  await page.getByLabel('Desde', { exact: true }).fill('2024-05-10');
  await page.getByLabel('Hasta', { exact: true }).fill('2024-05-01');
  await page.getByRole('button', { name: 'Ver', exact: true }).click();
  const resumen = page.getByRole('group', { name: 'Revise el periodo que quiere consultar:' });
  await expect(resumen).toBeFocused();
  await resumen.getByRole('link', { name: 'La fecha de fin es anterior a la de inicio.' }).click();
  await expect(page.getByLabel('Hasta', { exact: true })).toBeFocused();
  await expect(page.getByLabel('Hasta', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Desde', { exact: true })).toHaveValue('2024-05-10');

  await page.getByLabel('Desde', { exact: true }).fill('2022-01-01');
  await page.getByLabel('Hasta', { exact: true }).fill('2024-05-01');
  await page.getByRole('button', { name: 'Ver', exact: true }).click();
  await expect(resumen.getByRole('link', { name: 'El periodo consultado no puede superar los dos años.' })).toBeVisible();
  await expectNoAxeViolations(page, 'curvas con errores');
});

test('labels the 25-hour October day, shows its 25 hours in the table and downloads 25 CSV rows', async ({ page }) => {
  const { api, detalle, primero, ultimo } = await datosDe(CONSUMIDOR);
  const octubre = ultimoCambioEntre(10, primero, ultimo);
  if (!octubre) throw new Error('the demo range must include an October change');
  await entrar(page, CONSUMIDOR, DEMO_PASSWORD, `${RUTA}?cups=${detalle.cups}&rango=dia&desde=${octubre}&hasta=${octubre}`);
  await esperarDatos(page);
  await expect(page.locator(`[data-dia-especial="${octubre}"]`)).toContainText(
    'Cambio al horario de invierno: día de 25 horas (la hora de 02:00 a 03:00 se repite)',
  );
  const c = await curvaDeLaPagina(page, api);
  expect(c.totales.horasDelRango).toBe(25);
  await comprobarTotales(page, c);
  await expect(cifra(page, 'Horas con medida')).toHaveText(`${c.totales.horasConDatos} de 25`);
  await foto(page, 'curvas-dia-25h-1280');

  await page.getByRole('radio', { name: 'Tabla', exact: true }).check();
  await expect(page).toHaveURL(/vista=tabla/);
  const tabla = page.getByRole('table', { name: /Consumo por horas/ });
  await expect(tabla.locator('tbody tr')).toHaveCount(conMedida(c));
  await expect(tabla.getByRole('rowheader', { name: '02:00–03:00 (horario de verano)' })).toBeVisible();
  await expect(tabla.getByRole('rowheader', { name: '02:00–03:00 (horario de invierno)' })).toBeVisible();
  await expect(tabla).toContainText('día de 25 horas');

  const { nombre, lineas } = await descargarCsv(page);
  expect(nombre).toBe(`consumos_${detalle.cups}_${octubre}_${octubre}.csv`);
  expect(lineas[0]).toBe(CABECERA_CSV);
  // Every hour 1–25 has a row; one the demo left without a measure says «sin dato».
  expect(lineas).toHaveLength(25 + 1);
  const [d, m, a] = [octubre.slice(8, 10), octubre.slice(5, 7), octubre.slice(0, 4)];
  expect(lineas.slice(1).map((l) => l.split(';').slice(1, 3).join(';'))).toEqual(hastaN(25).map((h) => `${d}/${m}/${a};${h}`));
  const sinDato = hastaN(25).filter((h) => !horasConMedida(c).includes(h));
  expect(
    lineas
      .slice(1)
      .filter((l) => l.split(';')[4] === 'sin dato')
      .map((l) => Number(l.split(';')[2])),
  ).toEqual(sinDato);
  // The end of the first 02:00–03:00 is the instant the clocks go back: 02:00 in winter time.
  const fila = (h: number) => lineas.find((l) => l.split(';')[2] === String(h));
  expect(fila(3)).toContain(`;02:00–03:00 (horario de verano);${octubre}T02:00:00+02:00;${octubre}T02:00:00+01:00;03:00`);
  expect(fila(4)).toContain(`;02:00–03:00 (horario de invierno);${octubre}T02:00:00+01:00;${octubre}T03:00:00+01:00;03:00`);
});

/** The hour numbers (1 for the first hour of the day) that have a measure in a day's curve. */
function horasConMedida(c: CurvaApi): number[] {
  return c.curva.importadaWh.flatMap((v, i) => (v === null ? [] : [i + 1]));
}

test('downloads 23 rows for the March day and 24 for an ordinary day', async ({ page }) => {
  const { api, detalle, primero, ultimo } = await datosDe(CONSUMIDOR);
  const marzo = ultimoCambioEntre(3, primero, ultimo)!;
  await entrar(page, CONSUMIDOR, DEMO_PASSWORD, `${RUTA}?cups=${detalle.cups}&rango=dia&desde=${marzo}&hasta=${marzo}`);
  await esperarDatos(page);
  await expect(page.locator(`[data-dia-especial="${marzo}"]`)).toContainText('día de 23 horas (no existe la hora de 02:00 a 03:00)');
  const c = await curvaDeLaPagina(page, api);
  expect(c.totales.horasDelRango).toBe(23);
  const v = await descargarCsv(page);
  expect(v.lineas[0]).toBe(CABECERA_CSV);
  // One row per hour, numbered up to 23, a gap of the demo included as «sin dato».
  expect(v.lineas.slice(1).map((l) => Number(l.split(';')[2]))).toEqual(hastaN(23));
  expect(v.lineas.slice(1).filter((l) => l.split(';')[4] !== 'sin dato')).toHaveLength(conMedida(c));

  await page.getByRole('button', { name: 'Día siguiente' }).click();
  await expect(page).toHaveURL(new RegExp(`desde=${masDias(marzo, 1)}`));
  await esperarDatos(page);
  await expect(page.locator('[data-dia-especial]')).toHaveCount(0);
  const n = await curvaDeLaPagina(page, api);
  expect(n.totales.horasDelRango).toBe(24);
  const normal = await descargarCsv(page);
  expect(normal.lineas.slice(1).map((l) => Number(l.split(';')[2]))).toEqual(hastaN(24));
  expect(normal.lineas.slice(1).filter((l) => l.split(';')[4] !== 'sin dato')).toHaveLength(conMedida(n));
  expect(normal.lineas[1]).toMatch(new RegExp(`^${detalle.cups};\\d{2}/\\d{2}/\\d{4};1;(\\d+,\\d{3};[RE]|;sin dato);`));
});

test('opens the hours of a day from the daily table of a month', async ({ page }) => {
  const { api, detalle, primero, ultimo } = await datosDe(CONSUMIDOR);
  const octubre = ultimoCambioEntre(10, primero, ultimo)!;
  await entrar(
    page,
    CONSUMIDOR,
    DEMO_PASSWORD,
    `${RUTA}?cups=${detalle.cups}&rango=mes&desde=${octubre.slice(0, 8)}01&hasta=${octubre.slice(0, 8)}31&vista=tabla`,
  );
  await esperarDatos(page);
  const tabla = page.getByRole('table', { name: /Consumo por días/ });
  await expect(tabla.locator(':scope > tbody > tr')).toHaveCount(31);
  const boton = tabla.getByRole('button', { name: new RegExp(`^Horas del Domingo, ${Number(octubre.slice(8))} de octubre`) });
  await boton.click();
  await expect(boton).toHaveAttribute('aria-expanded', 'true');
  const horas = page.getByRole('table', { name: /Horas del domingo/ });
  // Its 25 hours, less any the demo left without a measure (its gaps fall on random days).
  const dia = await api<CurvaApi>(
    `/api/medidas/curva?${new URLSearchParams({ cups: detalle.cups, desde: octubre, hasta: octubre, resolucion: 'hora' })}`,
  );
  expect(dia.totales.horasDelRango).toBe(25);
  await expect(horas.locator('tbody tr')).toHaveCount(conMedida(dia));
  await expectNoAxeViolations(page, 'tabla de un mes con un día abierto');
});

test('shows quarter-hours for a quarter-hourly meter', async ({ page }) => {
  const { api, lista, ultimo } = await datosDe(EMPRESA);
  const cups = lista.find((s) => s.tarifa === '3.0TD')!.cups;
  const dia = masDias(ultimo, -3);
  await entrar(page, EMPRESA, DEMO_PASSWORD, `${RUTA}?cups=${cups}&rango=dia&desde=${dia}&hasta=${dia}`);
  await esperarDatos(page);
  await page.getByRole('radio', { name: 'Cuartos de hora', exact: true }).check();
  await expect(page).toHaveURL(/resolucion=cuartohora/);
  await esperarDatos(page);
  const c = await curvaDeLaPagina(page, api, 'cuartohora');
  await expect(page.locator('[data-grafico="curva"]')).toHaveAttribute('data-puntos', String(conMedida(c)));
  expect(conMedida(c)).toBeGreaterThan(90);
  await comprobarTotales(page, c);
  await expect(page.getByRole('list', { name: 'Leyenda del gráfico' })).toContainText('Periodo');
  // Its meter measures reactive energy: the figure with the power factor, and two more columns per period.
  expect(c.totales.reactivaInductivaVarh).toBeGreaterThan(0);
  await expect(cifra(page, 'Energía reactiva inductiva')).toHaveText(kwhTexto(c.totales.reactivaInductivaVarh!));
  await expect(page.getByText(/factor de potencia 0,\d\d/)).toBeVisible();
  const totales = page.getByRole('table', { name: /Consumo por periodo tarifario/ });
  await expect(totales.getByRole('columnheader', { name: 'Reactiva inductiva (kVArh)' })).toBeVisible();
  for (const p of c.totales.porPeriodo) {
    await expect(totales.locator(`tr[data-periodo="${p.periodo}"] td`).nth(2)).toHaveText(kwhTexto(p.reactivaInductivaVarh!));
  }
});

test('explains that the days after the last received have not arrived yet', async ({ page }) => {
  const { detalle, ultimo } = await datosDe(CONSUMIDOR);
  const hoy = masDias(ultimo, 1);
  await entrar(page, CONSUMIDOR, DEMO_PASSWORD, `${RUTA}?cups=${detalle.cups}&rango=dia&desde=${hoy}&hasta=${hoy}`);
  await esperarDatos(page);
  await expect(page.getByRole('heading', { name: 'Aún no hemos recibido las medidas de estos días' })).toBeVisible();
  await page.getByRole('button', { name: 'Ver el último día con medidas' }).click();
  await expect(page).toHaveURL(new RegExp(`desde=${ultimo}&hasta=${ultimo}`));
  await esperarDatos(page);
  await expect(cifra(page, 'Consumo del periodo')).toBeVisible();
});

test('keeps the supply point and range on reload, and changes supply point from the selector', async ({ page }) => {
  const { lista } = await datosDe(CONSUMIDOR);
  await entrar(page, CONSUMIDOR, DEMO_PASSWORD, RUTA);
  await esperarDatos(page);
  await page.getByLabel('Suministro', { exact: true }).selectOption(lista[1]!.cups);
  await expect(page).toHaveURL(new RegExp(`cups=${lista[1]!.cups}`));
  await esperarDatos(page);
  await page.getByRole('radio', { name: 'Tabla', exact: true }).check();
  const url = page.url();
  await page.reload();
  await expect(page.getByLabel('Suministro', { exact: true })).toHaveValue(lista[1]!.cups);
  await expect(page.getByRole('radio', { name: 'Tabla', exact: true })).toBeChecked();
  expect(page.url()).toBe(url);
});

for (const w of WIDTHS) {
  test(`passes axe in chart and table views at ${w.name} (${w.width} px)`, async ({ page }) => {
    await page.setViewportSize({ width: w.width, height: w.height });
    const { detalle, primero, ultimo } = await datosDe(CONSUMIDOR);
    const octubre = ultimoCambioEntre(10, primero, ultimo)!;
    await entrar(
      page,
      CONSUMIDOR,
      DEMO_PASSWORD,
      `${RUTA}?cups=${detalle.cups}&rango=semana&desde=${masDias(octubre, -6)}&hasta=${octubre}`,
    );
    await esperarDatos(page);
    const ancho = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(ancho).toBeLessThanOrEqual(w.width);
    await expectNoAxeViolations(page, `curvas gráfico ${w.name}`);
    await foto(page, `curvas-grafico-${w.width}`);
    await page.getByRole('radio', { name: 'Tabla', exact: true }).check();
    await expect(page.getByRole('table', { name: /Consumo por días/ })).toBeVisible();
    await expectNoAxeViolations(page, `curvas tabla ${w.name}`);
    await foto(page, `curvas-tabla-${w.width}`);
  });
}

test('says why a range in the address cannot be shown, and shows the last seven complete days instead', async ({ page }) => {
  const { detalle } = await datosDe(CONSUMIDOR);
  await entrar(page, CONSUMIDOR, DEMO_PASSWORD, `${RUTA}?cups=${detalle.cups}&rango=personalizado&desde=2020-01-01&hasta=2025-06-30`);
  await esperarDatos(page);
  await expect(page.getByRole('status').filter({ hasText: 'No podemos mostrar el periodo de la dirección' })).toContainText(
    'no puede superar los dos años',
  );
  await expect(page).toHaveURL(/rango=personalizado/);
  await expect(page).not.toHaveURL(/desde=2020-01-01/);
});
