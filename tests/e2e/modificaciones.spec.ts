/**
 * Contractual modifications through the browser: a reserved household asks for a power
 * that is not normalised (the rule's message beside the field and in the summary), then a right one,
 * and follows it in its list; the administrator accepts and activates it; the holder sees it
 * activated and the new power on the Suministros screen. Also the cancellation, the 12-month rule on
 * the demo household, and axe at 1280 and 390 px on the four screens.
 */
import { expect, test, type Browser, type Page } from '@playwright/test';
import { clienteApi, CONSUMIDOR, foto, type SuministroApi } from './medidas-support.ts';
import { entrar, expectNoAxeViolations, WIDTHS } from './support.ts';

const RUTA = '/modificacionesContractuales/modificaciones-contractuales';
const ADMIN = 'admin@electra.example';

/** The normalised single-phase powers (kW) a demo home can contract, up to its 9,2 kW installation. */
const NORMALIZADAS = [3.45, 4.6, 5.75, 6.9, 8.05, 9.2];
const kw = (v: number) => v.toLocaleString('es-ES', { maximumFractionDigits: 3, useGrouping: 'always' });

/** A request as the tests read it from the API. */
interface SolicitudApi {
  numero: number;
  referencia: string;
  estado: string;
  cups: string;
}

/** A second browser session (own cookies) logged in as `email`. */
async function otraSesion(browser: Browser, email: string, destino?: string): Promise<Page> {
  const contexto = await browser.newContext({ locale: 'es-ES', timezoneId: 'Europe/Madrid' });
  const page = await contexto.newPage();
  await entrar(page, email, undefined, destino);
  return page;
}

test('a holder asks for a power change, the administrator accepts and activates it, and the new power shows', async ({ page, browser }) => {
  test.setTimeout(90_000);
  const titular = 'cliente015@correo.example';
  const [s] = await (await clienteApi(titular))<SuministroApi[]>('/api/suministros');
  const actual = s!.potenciasKw[0]!;
  const nueva = NORMALIZADAS.find((p) => p > actual)!;

  await entrar(page, titular, undefined, RUTA);
  await expect(page.getByRole('heading', { level: 2, name: 'Sus solicitudes' })).toBeVisible();
  await page.getByRole('button', { name: 'Nueva solicitud' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Nueva solicitud' })).toBeFocused();
  await expect(page.getByRole('heading', { name: 'Su contrato ahora' })).toBeVisible();
  await page.getByRole('radio', { name: 'Potencia contratada' }).check();
  await expect(page.getByText(/solo admite potencias normalizadas/)).toBeVisible();

  // A value that is not normalised: the rule's code and message beside the field and in the summary.
  await page.getByLabel('Potencia P1, punta y llano (kW)').fill('5');
  await page.getByLabel('Potencia P2, valle (kW)').fill(kw(nueva));
  await page.getByRole('button', { name: 'Enviar solicitud' }).click();
  const resumen = page.locator('.resumen-errores');
  await expect(resumen).toBeFocused();
  await expect(resumen).toContainText('48 · Potencias no normalizadas en suministro monofásico: 5 kW en P1');
  await expect(page.locator('#mod-p1-error')).toContainText('48 · Potencias no normalizadas en suministro monofásico');
  await expect(page.getByLabel('Potencia P1, punta y llano (kW)')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Potencia P2, valle (kW)')).toHaveValue(kw(nueva));
  await foto(page, 'modificaciones-error-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await foto(page, 'modificaciones-error-390');
  await page.setViewportSize({ width: 1280, height: 800 });
  await resumen.getByRole('link').first().click();
  await expect(page.getByLabel('Potencia P1, punta y llano (kW)')).toBeFocused();

  // A right one: sent, announced, and in the list with its timeline.
  await page.getByLabel('Potencia P1, punta y llano (kW)').fill(kw(nueva));
  await page.getByRole('button', { name: 'Enviar solicitud' }).click();
  const aviso = page.getByRole('status').filter({ hasText: 'Hemos recibido su solicitud' });
  await expect(aviso).toBeFocused();
  const referencia = (await aviso.textContent())!.match(/MC-\d{6}/)![0];
  const tarjeta = page.locator('.mod-tarjeta').filter({ hasText: referencia });
  await expect(tarjeta).toContainText('Cambio de potencia');
  await expect(tarjeta).toContainText(`Potencia: de ${kw(actual)} kW a ${kw(nueva)} kW`);
  await expect(tarjeta.locator('.mod-estado')).toHaveText('Enviada');
  await expect(tarjeta.getByRole('list', { name: `Historial de ${referencia}` }).getByRole('listitem')).toHaveCount(1);
  await foto(page, 'modificaciones-enviada-1280');

  // The administrator finds it, accepts it and activates it today.
  const admin = await otraSesion(browser, ADMIN, `/administrador/modificaciones?q=${referencia}`);
  await expect(admin.getByRole('status').filter({ hasText: 'solicitud' })).toHaveText('1 solicitud.');
  await admin.getByRole('link', { name: referencia }).click();
  await expect(admin.getByRole('heading', { level: 1, name: 'Tramitar una solicitud de modificación' })).toBeFocused();
  await expect(admin.getByRole('table')).toContainText(`${kw(nueva)} kW`);
  await admin.getByRole('button', { name: 'Aceptar', exact: true }).click();
  const dialogo = admin.getByRole('dialog');
  await expect(dialogo).toContainText(`Aceptar la solicitud ${referencia}`);
  await dialogo.getByRole('button', { name: 'Aceptar la solicitud' }).click();
  await expect(admin.getByText(`Solicitud ${referencia} aceptada.`)).toBeVisible();
  await admin.getByRole('button', { name: 'Activar…' }).click();
  await expect(dialogo.getByLabel('Fecha de activación')).not.toHaveValue('');
  await foto(admin, 'modificaciones-admin-activar-1280');
  await dialogo.getByRole('button', { name: 'Activar y aplicar el cambio' }).click();
  await expect(admin.getByText(`Solicitud ${referencia} activada`)).toBeVisible();
  await expect(admin.locator('.mod-estado').first()).toHaveText('Activada');
  await expect(admin.getByRole('list', { name: `Historial de ${referencia}` }).getByRole('listitem')).toHaveCount(3);
  await foto(admin, 'modificaciones-admin-detalle-1280');
  await admin.context().close();

  // The holder sees it activated, and the new power on the Suministros screen.
  await page.reload();
  await expect(tarjeta.locator('.mod-estado')).toHaveText('Activada');
  await expect(tarjeta.getByRole('list', { name: `Historial de ${referencia}` })).toContainText(/Enviada.*Aceptada.*Activada/);
  await page.getByRole('link', { name: new RegExp(referencia) }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Solicitud de modificación' })).toBeFocused();
  await expect(page.getByRole('article')).toContainText('Activada con fecha');
  await foto(page, 'modificaciones-detalle-1280');
  await page.goto('/informacionContrato/detalle-informacion-contrato');
  await expect(page.locator('.med-tarjeta').first()).toContainText(`${kw(nueva)} kW (todos los periodos)`);
});

test('a holder cancels a request still enviada', async ({ page }) => {
  const titular = 'cliente016@correo.example';
  await entrar(page, titular, undefined, RUTA);
  await page.getByRole('button', { name: 'Nueva solicitud' }).click();
  await page.getByRole('radio', { name: 'Datos del titular' }).check();
  await page.getByRole('radio', { name: 'Corregir el nombre del titular' }).check();
  await page.getByLabel('Nombre y apellidos o razón social corregidos').fill('');
  await page.getByRole('button', { name: 'Enviar solicitud' }).click();
  await expect(page.locator('#mod-nombre-error')).toContainText('85 · Falta un campo obligatorio');
  await page.getByLabel('Nombre y apellidos o razón social corregidos').fill('Nombre Corregido De Prueba');
  await page.getByRole('button', { name: 'Enviar solicitud' }).click();
  const aviso = page.getByRole('status').filter({ hasText: 'Hemos recibido su solicitud' });
  const referencia = (await aviso.textContent())!.match(/MC-\d{6}/)![0];
  await aviso.getByRole('link', { name: 'su detalle' }).click();
  await expect(page.getByRole('heading', { level: 2, name: new RegExp(referencia) })).toBeVisible();
  await page.getByRole('button', { name: 'Anular la solicitud' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Anular la solicitud' }).click();
  await expect(page.getByText(`La solicitud ${referencia} está anulada.`)).toBeVisible();
  await expect(page.locator('.mod-estado')).toHaveText('Anulada');
  await expect(page.getByRole('button', { name: 'Anular la solicitud' })).toHaveCount(0);
});

test('tells the demo household when its last power change was, and refuses another (65)', async ({ page }) => {
  const lista = await (await clienteApi(CONSUMIDOR))<SuministroApi[]>('/api/suministros');
  const eod = lista.find((s) => s.cups.startsWith('ES9902'))!;
  await entrar(page, CONSUMIDOR, undefined, `${RUTA}?cups=${eod.cups}`);
  await expect(page.getByRole('heading', { level: 2, name: 'Nueva solicitud' })).toBeVisible();
  await expect(page.getByLabel('Suministro')).toHaveValue(eod.cups);
  await expect(page.getByText('Último cambio de potencia')).toBeVisible();
  await page.getByRole('radio', { name: 'Potencia contratada' }).check();
  await page.getByLabel('Potencia P1, punta y llano (kW)').fill('6,9');
  await page.getByLabel('Potencia P2, valle (kW)').fill('6,9');
  await page.getByRole('button', { name: 'Enviar solicitud' }).click();
  await expect(page.locator('#mod-suministro-error')).toContainText('65 · Más de una modificación de potencia en menos de 12 meses');
  // The demo's accepted request at EPD shows in the list with its timeline.
  const enCurso = page.locator('.mod-tarjeta').filter({ has: page.locator('.mod-estado', { hasText: 'Aceptada' }) });
  await expect(enCurso).toHaveCount(1);
  await expect(enCurso.getByRole('listitem')).toHaveCount(2);
});

for (const w of WIDTHS) {
  test(`passes axe on the four screens at ${w.name} (${w.width} px)`, async ({ page, browser }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width: w.width, height: w.height });
    const solicitudes = await (await clienteApi(CONSUMIDOR))<SolicitudApi[]>('/api/modificaciones');
    const activada = solicitudes.find((s) => s.estado === 'activada')!;
    const enCurso = solicitudes.find((s) => s.estado === 'aceptada')!;

    await entrar(page, CONSUMIDOR, undefined, RUTA);
    await expect(page.locator('.mod-tarjeta')).toHaveCount(solicitudes.length);
    await expectNoAxeViolations(page, `lista a ${w.width} px`);
    await foto(page, `modificaciones-lista-${w.width}`);
    await page.getByRole('button', { name: 'Nueva solicitud' }).click();
    await page.getByRole('radio', { name: 'Tarifa de acceso' }).check();
    await page.getByRole('button', { name: 'Enviar solicitud' }).click();
    await expect(page.locator('.resumen-errores')).toBeVisible();
    await expectNoAxeViolations(page, `formulario con errores a ${w.width} px`);
    await foto(page, `modificaciones-formulario-${w.width}`);

    await page.goto(`${RUTA}/${activada.referencia}`);
    await expect(page.getByRole('heading', { level: 2, name: new RegExp(activada.referencia) })).toBeVisible();
    await expectNoAxeViolations(page, `detalle a ${w.width} px`);
    await foto(page, `modificaciones-detalle-demo-${w.width}`);

    const admin = await otraSesion(browser, ADMIN, '/administrador/modificaciones');
    await admin.setViewportSize({ width: w.width, height: w.height });
    await expect(admin.locator('tbody tr').first()).toBeVisible();
    await expectNoAxeViolations(admin, `lista de gestión a ${w.width} px`);
    await foto(admin, `modificaciones-admin-lista-${w.width}`);
    await admin.goto(`/administrador/modificaciones/${enCurso.referencia}`);
    await expect(admin.getByRole('heading', { level: 2, name: new RegExp(enCurso.referencia) })).toBeVisible();
    await expectNoAxeViolations(admin, `detalle de gestión a ${w.width} px`);
    await admin.getByRole('button', { name: 'Rechazar…' }).click();
    await admin.getByRole('dialog').getByRole('button', { name: 'Rechazar la solicitud' }).click();
    await expect(admin.getByRole('dialog')).toContainText('Elija el motivo del rechazo.');
    await expectNoAxeViolations(admin, `rechazo a ${w.width} px`);
    await foto(admin, `modificaciones-admin-rechazo-${w.width}`);
    await admin.getByRole('dialog').getByRole('button', { name: 'Cancelar' }).click();
    await admin.context().close();
  });
}
