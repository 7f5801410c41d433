/**
 * Scheduled readings and meter state through the browser: the readings list and the month
 * calendar against the API (moving to the next month, reading a marked day), the iCalendar download
 * read back with ical.js, the advice of each meter state, an administrator changing the state of a
 * reserved account's meter and its holder seeing it, and axe on each new screen at 1280 and 390 px.
 * A calendar subscription made, read, copied and cancelled (decision 013).
 * Only cliente010…014 are changed (cliente013: the subscription); the others are read.
 */
import { readFileSync } from 'node:fs';
import { expect, request, test, type Browser, type Page } from '@playwright/test';
import ICAL from 'ical.js';
import { clienteApi, CONSUMIDOR, foto } from './medidas-support.ts';
import { DEMO_PASSWORD, entrar, expectNoAxeViolations, WIDTHS } from './support.ts';

const RUTA_LECTURAS = '/medidas/lecturas-programadas';
const RUTA_ESTADO = '/medidas/estado-contador';
const RUTA_ADMIN = '/administrador/contadores';
const ADMIN = 'admin@electra.example';
const cliente = (n: number) => `cliente${String(n).padStart(3, '0')}@correo.example`;

interface LecturaApi {
  fecha: string;
  fechaCiclo: string;
  tipo: 'cierre_remoto' | 'visita';
  autolectura: { desde: string; hasta: string } | null;
}
interface ProgramaApi {
  hoy: string;
  desde: string;
  hasta: string;
  suministros: { cups: string; direccion: string; lecturas: LecturaApi[] }[];
}

const fechaLarga = (f: string) =>
  new Intl.DateTimeFormat('es-ES', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${f}T12:00:00Z`),
  );
const mesAnio = (f: string) =>
  new Intl.DateTimeFormat('es-ES', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${f.slice(0, 7)}-15T12:00:00Z`));
const siguienteMes = (mes: string) => {
  const d = new Date(`${mes}-15T12:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + 1);
  return d.toISOString().slice(0, 7);
};

/** A page of its own, logged in as `email` on `ruta`. */
async function como(browser: Browser, email: string, ruta: string): Promise<Page> {
  const page = await (await browser.newContext({ locale: 'es-ES', timezoneId: 'Europe/Madrid' })).newPage();
  await entrar(page, email, DEMO_PASSWORD, ruta);
  return page;
}

test('opens on the next reading, lists the next ones and moves the calendar to a later month, where a marked day reads in words', async ({
  page,
}) => {
  // cliente006's home is read by a visiting reader every two months: visits, moved days and self-reading windows.
  const api = await clienteApi(cliente(6));
  const programa = await api<ProgramaApi>('/api/lecturasProgramadas');
  const s = programa.suministros[0]!;
  await entrar(page, cliente(6), DEMO_PASSWORD, RUTA_LECTURAS);

  const lista = page.getByRole('list', { name: `Próximas lecturas de ${s.direccion}` });
  await expect(lista.getByRole('listitem')).toHaveCount(s.lecturas.length);
  for (const [i, l] of s.lecturas.entries()) {
    const item = lista.getByRole('listitem').nth(i);
    await expect(item.locator('time')).toHaveAttribute('datetime', l.fecha);
    await expect(item).toContainText('Visita del lector');
  }
  // The calendar opens on the month of the next reading, which the page names first.
  const abierto = s.lecturas[0]!.fecha.slice(0, 7);
  await expect(page.getByRole('table', { name: new RegExp(`^Lecturas de ${mesAnio(abierto)}`) })).toBeVisible();
  await expect(page.locator('.lect-proxima')).toContainText(
    `Su próxima lectura: ${fechaLarga(s.lecturas[0]!.fecha).replace(/^./, (c) => c.toUpperCase())}`,
  );
  await foto(page, 'lecturas-1280');

  // The first month after that one with a visit: move there with "Siguiente".
  // (one whose self-reading window starts in its own month, so both show in that month's grid)
  const visita = s.lecturas.find((l) => l.fecha.slice(0, 7) > abierto && l.autolectura?.desde.slice(0, 7) === l.fecha.slice(0, 7))!;
  let mes = abierto;
  const siguiente = page.getByRole('button', { name: /^Mes siguiente: / });
  while (mes < visita.fecha.slice(0, 7)) {
    await expect(siguiente).toHaveAccessibleName(`Mes siguiente: ${mesAnio(siguienteMes(mes))}`);
    await siguiente.click();
    mes = siguienteMes(mes);
    await expect(page).toHaveURL(new RegExp(`mes=${mes}$`));
    // Moving between months is no change of screen: focus stays on the button.
    await expect(siguiente).toBeFocused();
  }
  const tabla = page.getByRole('table', { name: new RegExp(`^Lecturas de ${mesAnio(mes)}: 1 lectura$`) });
  const celda = tabla.getByRole('cell', { name: new RegExp(`^${fechaLarga(visita.fecha)}`) });
  await expect(celda).toContainText('Lectura');
  await expect(celda).toContainText(`visita del lector en ${s.direccion}`);
  await expect(page.getByRole('status').filter({ hasText: `${mesAnio(mes)}: 1 lectura.` })).toHaveCount(1);
  // A day of its self-reading window is marked in words too.
  const plazo = tabla.getByRole('cell', { name: new RegExp(`^${fechaLarga(visita.autolectura!.desde)}`) });
  await expect(plazo).toContainText('Plazo');
  await expect(page.locator('.lect-del-mes li').first()).toContainText(fechaLarga(visita.fecha).replace(/^./, (c) => c.toUpperCase()));
  await foto(page, 'lecturas-siguiente-1280');
});

test('downloads the readings as an iCalendar file whose events are the API readings', async ({ page }) => {
  const api = await clienteApi(CONSUMIDOR);
  const programa = await api<ProgramaApi>('/api/lecturasProgramadas');
  await entrar(page, CONSUMIDOR, DEMO_PASSWORD, RUTA_LECTURAS);
  const [descarga] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Descargar todas las lecturas (.ics)' }).click(),
  ]);
  expect(descarga.suggestedFilename()).toBe('lecturas-programadas.ics');
  await expect(page.getByText('Fichero descargado: lecturas-programadas.ics')).toBeVisible();
  const texto = readFileSync(await descarga.path(), 'utf8');
  const eventos = new ICAL.Component(ICAL.parse(texto)).getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
  const esperadas = programa.suministros.flatMap((s) => s.lecturas.map((l) => `${s.cups} ${l.fecha}`)).sort();
  expect(eventos.map((e) => `${/ES\d{16}[A-Z]{2}/.exec(e.uid)![0]} ${e.startDate.toString()}`).sort()).toEqual(esperadas);
  expect(eventos.every((e) => e.startDate.isDate && e.summary.startsWith('Cierre de lectura del contador'))).toBe(true);

  // One supply point's own file, from its list.
  const s = programa.suministros[1]!;
  const [una] = await Promise.all([
    page.waitForEvent('download'),
    page.locator(`section[aria-labelledby="lect-${s.cups}"]`).getByRole('button', { name: 'Descargar sus lecturas (.ics)' }).click(),
  ]);
  expect(una.suggestedFilename()).toBe(`lecturas-${s.cups}.ics`);
});

test('makes a calendar subscription address that a calendar reads without a session, copies it, and cancels it', async ({ browser }) => {
  const titular = cliente(13);
  const contexto = await browser.newContext({ locale: 'es-ES', timezoneId: 'Europe/Madrid' });
  await contexto.grantPermissions(['clipboard-read', 'clipboard-write']);
  const page = await contexto.newPage();
  await entrar(page, titular, DEMO_PASSWORD, RUTA_LECTURAS);
  const bloque = page.locator('.lect-suscripcion');
  await bloque.getByRole('button', { name: 'Crear la dirección de suscripción' }).click();

  const campo = bloque.getByRole('textbox', { name: 'Su dirección de suscripción' });
  await expect(campo).toBeFocused();
  await expect(campo).toHaveAccessibleDescription(/no la volveremos a mostrar/);
  const url = await campo.inputValue();
  expect(url).toMatch(/\/api\/calendarioLecturas\/[A-Za-z0-9_-]{43}\.ics$/);
  await expect(bloque.getByRole('link', { name: 'Abrir en mi programa de calendario' })).toHaveAttribute(
    'href',
    url.replace(/^https?:/, 'webcal:'),
  );
  await expectNoAxeViolations(page, 'lecturas programadas con la dirección nueva');
  await foto(page, 'lecturas-suscripcion-nueva');

  // A calendar program: no session, no cookie; the same events as the holder's readings.
  const calendario = await request.newContext({ baseURL: new URL(page.url()).origin });
  const leida = await calendario.get(new URL(url).pathname);
  expect(leida.status()).toBe(200);
  expect(leida.headers()['content-type']).toBe('text/calendar; charset=utf-8');
  const programa = await (await clienteApi(titular))<ProgramaApi>('/api/lecturasProgramadas');
  const eventos = new ICAL.Component(ICAL.parse(await leida.text())).getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
  expect(eventos.map((e) => `${/ES\d{16}[A-Z]{2}/.exec(e.uid)![0]} ${e.startDate.toString()}`).sort()).toEqual(
    programa.suministros.flatMap((s) => s.lecturas.map((l) => `${s.cups} ${l.fecha}`)).sort(),
  );

  await bloque.getByRole('button', { name: 'Copiar la dirección' }).click();
  await expect(bloque.getByRole('status')).toHaveText('Dirección copiada.');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);

  // After a reload the address is not shown again; when a calendar last read it is.
  await page.reload();
  await expect(bloque.getByText(/^Tiene una dirección creada el .+ Un calendario la consultó por última vez el /)).toBeVisible();
  await expect(bloque.getByRole('textbox')).toHaveCount(0);
  expect(await page.content()).not.toContain(new URL(url).pathname);

  page.once('dialog', (d) => void d.accept());
  await bloque.getByRole('button', { name: 'Anular la dirección' }).click();
  await expect(bloque.getByRole('status')).toHaveText('Dirección anulada. Puede quitar la suscripción de su calendario.');
  await expect(bloque.getByRole('button', { name: 'Crear la dirección de suscripción' })).toBeVisible();
  expect((await calendario.get(new URL(url).pathname)).status()).toBe(404);
  await calendario.dispose();
  await contexto.close();
});

const CASOS_ESTADO = [
  { email: CONSUMIDOR, titulo: 'Correcto: Todo en orden', telefono: false },
  { email: cliente(2), titulo: /^Información: Su contador no comunica con nosotros desde el/, telefono: false },
  { email: cliente(3), titulo: 'Aviso: Ha saltado el interruptor de control de potencia', telefono: true },
  { email: cliente(4), titulo: 'Importante: El suministro está cortado', telefono: false },
  { email: cliente(5), titulo: 'Importante: Su suministro está sin luz por una incidencia en nuestra red', telefono: true },
  { email: cliente(6), titulo: 'Información: Su contador no está integrado en la telegestión', telefono: false },
  { email: cliente(8), titulo: 'Información: Todavía no conocemos el estado de este contador', telefono: true },
];

for (const c of CASOS_ESTADO) {
  test(`tells ${c.email} what to do about the state of the meter${c.telefono ? ', with the fault telephone' : ''}`, async ({ page }) => {
    await entrar(page, c.email, DEMO_PASSWORD, RUTA_ESTADO);
    const principal = page.getByRole('main');
    await expect(principal.getByRole('heading', { level: 3, name: c.titulo }).first()).toBeVisible();
    const tel = principal.locator('a[href^="tel:+349000"]');
    if (c.telefono) await expect(tel.first()).toHaveText(/^900 000 00[123]$/);
    else await expect(tel).toHaveCount(0);
    if (c.email === cliente(4)) await expect(principal).toContainText('Corte por impago solicitado por su comercializadora.');
    if (c.email === cliente(5))
      await expect(principal.getByRole('link', { name: 'Ver las interrupciones de red' })).toHaveAttribute('href', '/incidencias-red');
    if (c.email === CONSUMIDOR) {
      const tabla = principal.getByRole('table', { name: 'Últimas lecturas del contador (kWh acumulados por periodo)' }).first();
      await expect(tabla.locator('tbody tr')).toHaveCount(6);
      await expect(tabla.locator('thead')).toContainText('Punta (P1)');
    }
    await foto(page, `estado-${c.email.split('@')[0]}-1280`);
  });
}

test("an administrator changes the state of a holder's meter, and the holder sees it", async ({ browser }) => {
  const titular = cliente(11);
  const [suministro] = await (await clienteApi(titular))<{ cups: string; direccion: string }[]>('/api/suministros');
  const admin = await como(browser, ADMIN, RUTA_ADMIN);
  await admin.getByLabel('CUPS del suministro').fill(suministro!.cups.toLowerCase());
  await admin.getByRole('button', { name: 'Buscar' }).click();
  await expect(admin).toHaveURL(new RegExp(`cups=${suministro!.cups}$`));
  await expect(admin.getByRole('heading', { level: 2, name: new RegExp(`^${suministro!.direccion}`) })).toBeFocused();

  // A supply without power needs a reason: the summary says so and takes the focus.
  await admin.getByLabel('Suministro', { exact: true }).selectOption('sin_suministro');
  await admin.getByRole('button', { name: 'Guardar estado' }).click();
  const resumen = admin.getByRole('group', { name: 'Revise los campos marcados' });
  await expect(resumen).toBeFocused();
  await expect(resumen.getByRole('link')).toHaveText(
    'Motivo para el titular: Indique el motivo: el titular lo verá junto al estado de su contador.',
  );
  await resumen.getByRole('link').click();
  const motivo = admin.getByLabel(/^Motivo para el titular/);
  await expect(motivo).toBeFocused();
  await motivo.fill('Avería en el centro de transformación de su barrio. Calculamos reponerlo esta tarde.');
  await admin.getByRole('button', { name: 'Guardar estado' }).click();
  await expect(admin.getByText(`Estado del contador de ${suministro!.direccion} guardado.`, { exact: false })).toBeVisible();
  await expect(admin.getByText(/, por .*\(admin@electra\.example\)$/)).toBeVisible();
  await foto(admin, 'admin-contadores-1280');
  await admin.context().close();

  const page = await como(browser, titular, RUTA_ESTADO);
  await expect(
    page.getByRole('heading', { level: 3, name: 'Importante: Su suministro está sin luz por una incidencia en nuestra red' }),
  ).toBeVisible();
  await expect(page.getByRole('main')).toContainText('Avería en el centro de transformación de su barrio.');
  await page.context().close();
});

test("a self-reading the supply company passed on (W1) reads as such to the holder and, with the company's code, to the staff", async ({
  browser,
}) => {
  // The demo company supplies cliente007's visited meter and passed on its self-reading of yesterday
  // (or today, when the reader visited it yesterday): no self-reading can follow one taken today.
  const titular = cliente(7);
  const { suministros } = await (
    await clienteApi(titular)
  )<{
    suministros: { cups: string; lecturas: { fecha: string; origen: string; comercializadora: string | null }[] }[];
  }>('/api/estadoContador');
  const s = suministros[0]!;
  const hoy = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Madrid' }).format(new Date());
  const ultima = s.lecturas[0]!;
  if (ultima.fecha === hoy && !ultima.comercializadora) {
    expect(s.lecturas.some((l) => l.comercializadora)).toBe(false);
    return;
  }
  expect(ultima).toMatchObject({ origen: 'autolectura', comercializadora: '9811' });
  const page = await como(browser, titular, RUTA_ESTADO);
  const tabla = page.getByRole('table', { name: 'Últimas lecturas del contador (kWh acumulados por periodo)' });
  await expect(tabla.locator('tbody tr').first()).toContainText('Autolectura enviada por su comercializadora');
  await page.context().close();
  const admin = await como(browser, ADMIN, `${RUTA_ADMIN}?cups=${s.cups}`);
  const filas = admin.getByRole('table', { name: 'Últimas lecturas del contador (kWh acumulados por periodo)' }).locator('tbody tr');
  await expect(filas.first()).toContainText('Autolectura (W1 de la comercializadora 9811)');
  await expect(filas).toHaveCount(s.lecturas.length);
  await admin.context().close();
});

test("the supply company finds the D1 notice of a meter that stopped communicating in its salida, and the staff read it with the company's acceptance", async ({
  browser,
}) => {
  // As the company's own system would: the exchange's token, the salida's list, the file.
  const empresa = await request.newContext({ baseURL: test.info().project.use.baseURL! });
  const acceso = await empresa.post('/api/ftpConnect', { data: { username: 'comercializadora@electra.example', password: DEMO_PASSWORD } });
  expect(acceso.status()).toBe(200);
  const cabeceras = { Authorization: `Bearer ${((await acceso.json()) as { token: string }).token}` };
  const salida = (await (await empresa.get('/api/ftp?carpeta=/epd/salida', { headers: cabeceras })).json()) as {
    elementos: { name: string; fromDistributor: boolean }[];
  };
  const d101 = salida.elementos.find((e) => /^D101_\d{12}_01\.xml$/.test(e.name));
  expect(d101, 'un D1 01 en /epd/salida').toMatchObject({ fromDistributor: true });
  const xml = await (await empresa.get(`/api/ftp/fichero?ruta=/epd/salida/${d101!.name}`, { headers: cabeceras })).text();
  expect(xml).toContain('<MotivoCambioATRDesdeDistribuidora>02</MotivoCambioATRDesdeDistribuidora>');
  const cups = /<CUPS>(ES\w{18})0F<\/CUPS>/.exec(xml)![1]!;
  await empresa.dispose();

  const admin = await como(browser, ADMIN, `${RUTA_ADMIN}?cups=${cups}`);
  const aviso = admin.getByRole('listitem').filter({ hasText: 'Telegestión no operativa (motivo 02), a la comercializadora 9811' });
  await expect(aviso).toContainText('Aceptada por la comercializadora');
  await foto(admin, 'admin-contadores-d1-1280');
  await admin.context().close();
});

test('the administration refuses a CUPS of a distributor the administrator does not manage before asking the API', async ({ page }) => {
  await entrar(page, ADMIN, DEMO_PASSWORD, RUTA_ADMIN);
  await page.getByLabel('CUPS del suministro').fill('ES9901000000000001XX');
  await page.getByRole('button', { name: 'Buscar' }).click();
  await expect(page.getByRole('group', { name: 'Revise el CUPS:' })).toBeFocused();
  await expect(page.getByLabel('CUPS del suministro')).toHaveAttribute('aria-invalid', 'true');
});

for (const w of WIDTHS) {
  test(`has no axe violations on the three screens at ${w.width} px`, async ({ browser }) => {
    const pantallas = [
      { email: cliente(6), ruta: RUTA_LECTURAS, nombre: 'lecturas' },
      { email: cliente(5), ruta: RUTA_ESTADO, nombre: 'estado' },
      {
        email: ADMIN,
        ruta: `${RUTA_ADMIN}?cups=${(await (await clienteApi(cliente(12)))<{ cups: string }[]>('/api/suministros'))[0]!.cups}`,
        nombre: 'admin-contadores',
      },
    ];
    for (const p of pantallas) {
      const ctx = await browser.newContext({
        locale: 'es-ES',
        timezoneId: 'Europe/Madrid',
        viewport: { width: w.width, height: w.height },
      });
      const page = await ctx.newPage();
      await entrar(page, p.email, DEMO_PASSWORD, p.ruta);
      await expect(page.locator('.med-cargando, .admin-cargando')).toHaveCount(0);
      if (p.nombre === 'admin-contadores') await expect(page.getByRole('button', { name: 'Guardar estado' })).toBeVisible();
      await expectNoAxeViolations(page, `${p.nombre} a ${w.width} px`);
      await foto(page, `${p.nombre}-${w.width}`);
      await ctx.close();
    }
  });
}

test('at 320 px the calendar, the lists and the meter state fit the width', async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 640 });
  await entrar(page, cliente(6), DEMO_PASSWORD, RUTA_LECTURAS);
  await expect(page.getByRole('table', { name: /^Lecturas de / })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  await foto(page, 'lecturas-320');
  await page.goto(RUTA_ESTADO);
  await expect(page.getByRole('heading', { level: 3, name: /telegestión/ })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  await foto(page, 'estado-320');
});
