/**
 * Access and connection requests from the distributor's side (RD 1183/2020; docs/decisions/017),
 * through the browser: EPD's administrator opens the work queue and finds the overdue request
 * first, flagged in words (in its header too); filters the overdue ones (kept in the address);
 * opens an admitted request, backs out of a denial at its confirmation, sees the server's refusal beside a panel that
 * another administrator made stale (and reloads), uploads the propuesta previa PDF with the
 * conditions and sends it, and sees the step change, the result announced, the timeline and the
 * document. axe and no sideways scrolling at desktop, phone and 320 px widths, with screenshots.
 */
import { readFileSync } from 'node:fs';
import { expect, request, test, type Page } from '@playwright/test';
import { E2E_PORT } from '../../playwright.config.ts';
import { foto } from './medidas-support.ts';
import { DEMO_PASSWORD, entrar, revisarAnchos } from './support.ts';

const ADMIN_EPD = 'admin-epd@electra.example';
const COLA = '/administrador/accesoyconexion';

/** POSTs an action to the API as a demo account, as another administrator would from elsewhere. */
async function accionApi(email: string, path: string, cuerpo: unknown): Promise<void> {
  const ctx = await request.newContext({ baseURL: `http://127.0.0.1:${E2E_PORT}` });
  const basic = `Basic ${Buffer.from(`${email}:${DEMO_PASSWORD}`).toString('base64')}`;
  const login = await ctx.post('/api/accesoUsuario', { headers: { Authorization: basic } });
  const { jwtToken } = (await login.json()) as { jwtToken: string };
  const r = await ctx.post(path, { headers: { Authorization: `Bearer ${jwtToken}` }, data: cuerpo });
  expect(r.status(), await r.text()).toBe(200);
  await ctx.dispose();
}

const tablaCola = (page: Page) => page.getByRole('table', { name: /Solicitudes de Electra Peninsular Distribución/ });

test('la cola muestra primero la solicitud vencida, marcada con palabras, y filtra las vencidas', async ({ page }) => {
  test.setTimeout(90_000);
  await entrar(page, ADMIN_EPD, DEMO_PASSWORD, COLA);
  await expect(page.getByRole('heading', { level: 1, name: 'Solicitudes de acceso y conexión' })).toBeVisible();
  // One distributor administered: it is named, not offered as a choice.
  await expect(page.getByText('Distribuidora: Electra Peninsular Distribución, S.L.')).toBeVisible();
  await expect(page.getByLabel('Distribuidora')).toHaveCount(0);

  const filas = tablaCola(page).locator('tbody tr');
  await expect(filas.first()).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: /\d+ solicitudes\./ })).toBeVisible();
  const primera = filas.first();
  await expect(primera.getByRole('cell').filter({ hasText: 'Vencida' })).toBeVisible();
  await expect(primera).toContainText('Admitida a trámite');
  await expect(primera).toContainText('Distribuidora');
  // Drafts never reach the queue, and no other row is overdue.
  await expect(tablaCola(page)).not.toContainText('Borrador');
  await expect(filas.filter({ hasText: 'Vencida' })).toHaveCount(1);
  await revisarAnchos(page, 'accesos-admin-cola');

  await page.getByLabel('Plazo').selectOption({ label: 'Solo las vencidas' });
  await page.getByRole('button', { name: 'Filtrar' }).click();
  await expect(page).toHaveURL(/\?vencidas=si$/);
  await expect(page.getByRole('status').filter({ hasText: '1 solicitud.' })).toBeVisible();
  await expect(filas).toHaveCount(1);

  // A reload keeps the filter.
  await page.reload();
  await expect(page.getByLabel('Plazo')).toHaveValue('si');
  await expect(filas).toHaveCount(1);

  // The overdue request says so in its header too, in words.
  await filas.first().getByRole('link').click();
  await expect(page.getByRole('heading', { level: 2, name: /^Solicitud AC-/ })).toBeVisible();
  await expect(page.getByText('Plazo vencido.')).toBeVisible();
  await expect(page.getByText('Vencida', { exact: true })).toBeVisible();
  await revisarAnchos(page, 'accesos-admin-vencida');

  // «Volver» returns to the queue as it was filtered; clearing the filter brings the whole queue back.
  await page.getByRole('link', { name: 'Volver a las solicitudes' }).click();
  await expect(page).toHaveURL(/\?vencidas=si$/);
  await expect(page.getByLabel('Plazo')).toHaveValue('si');
  await expect(filas).toHaveCount(1);
  await page.getByRole('button', { name: 'Limpiar filtros' }).first().click();
  await expect(page).toHaveURL(new RegExp(`${COLA}$`));
  await expect(filas.nth(1)).toBeVisible();
});

test('el personal envía la propuesta previa de una solicitud admitida y ve el cambio de paso', async ({ page }) => {
  test.setTimeout(120_000);
  await entrar(page, ADMIN_EPD, DEMO_PASSWORD, COLA);
  // The admitted request at Parla, still in time.
  const fila = tablaCola(page).locator('tbody tr').filter({ hasText: 'Parla' });
  await expect(fila).toContainText('Admitida a trámite');
  const referencia = (await fila.getByRole('link').textContent())!.trim();
  await fila.getByRole('link').click();

  await expect(page.getByRole('heading', { level: 1, name: 'Tramitar una solicitud de acceso y conexión' })).toBeVisible();
  const cabecera = page.getByRole('heading', { level: 2, name: `Solicitud ${referencia}` });
  await expect(cabecera).toBeVisible();
  await expect(page.getByText('Le toca actuar a la distribuidora.')).toBeVisible();
  await expect(page.getByText(/enviar la propuesta previa en 30 días hábiles/)).toBeVisible();
  // The applicant's data by section, with the node's capacity warning.
  for (const s of ['Datos de la solicitud', 'Titular', 'Emplazamiento', 'Correspondencia', 'Instalación', 'Nudo de conexión']) {
    await expect(page.getByRole('heading', { level: 3, name: s, exact: true })).toBeVisible();
  }
  await expect(page.getByText(/Capacidad del nudo: La potencia pedida/)).toBeVisible();
  // Only the actions of an admitted request.
  const propuesta = page.getByRole('region', { name: 'Enviar la propuesta previa' });
  await expect(propuesta).toBeVisible();
  await expect(page.getByRole('region', { name: 'Pedir el informe de aceptabilidad aguas arriba' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Denegar la solicitud' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Admitir a trámite' })).toHaveCount(0);
  await revisarAnchos(page, 'accesos-admin-solicitud');

  // Denying asks for confirmation first; cancelling leaves the request as it was.
  const denegar = page.getByRole('region', { name: 'Denegar la solicitud' });
  await denegar.getByLabel('Motivo de la denegación').selectOption('capacidad');
  await denegar.getByLabel(/Explicación para el solicitante/).fill('No hay capacidad.');
  await denegar.getByRole('button', { name: 'Denegar…' }).click();
  const dialogo = page.getByRole('dialog', { name: `Denegar la solicitud ${referencia}` });
  await expect(dialogo).toBeVisible();
  await expect(dialogo.getByRole('button', { name: 'Cancelar' })).toBeFocused();
  await dialogo.getByRole('button', { name: 'Cancelar' }).click();
  await expect(dialogo).toBeHidden();
  await expect(page.getByText('Le toca actuar a la distribuidora.')).toBeVisible();

  // Another administrator asks the upstream report meanwhile: this panel is stale, the server's refusal
  // shows beside it, and the request can be reloaded (the panel then goes, the step stays).
  const id = new URL(page.url()).pathname.split('/').at(-1)!;
  await accionApi(ADMIN_EPD, `/api/administrador/accesoyconexion/${id}/pedir_informe`, { tensionFronteraKv: 66 });
  const informe = page.getByRole('region', { name: 'Pedir el informe de aceptabilidad aguas arriba' });
  await informe.getByLabel(/^Tensión del punto frontera/).fill('66');
  await informe.getByRole('button', { name: 'Registrar la petición del informe' }).click();
  await expect(informe.getByRole('alert')).toContainText('No se puede «informe de aceptabilidad pedido al gestor aguas arriba» ahora');
  await foto(page, 'accesos-admin-error-servidor-1280');
  await informe.getByRole('button', { name: 'Ver la solicitud actualizada' }).click();
  await expect(informe).toHaveCount(0);
  await expect(cabecera).toBeFocused();
  await expect(page.getByRole('status').filter({ hasText: 'Actualizada: la solicitud está ahora en «Admitida a trámite»' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Historial' })).toContainText('Tensión del punto frontera');

  // Sending without the PDF and the conditions: the browser says what is missing, as the server would.
  await propuesta.getByRole('button', { name: 'Enviar la propuesta previa' }).click();
  const resumen = propuesta.getByRole('group', { name: 'Revise estos datos:' });
  await expect(resumen).toBeFocused();
  await expect(resumen).toContainText('Suba antes el PDF de la propuesta previa: elíjalo y pulse «Subir el PDF».');
  await expect(resumen).toContainText('Indique el punto de conexión.');

  // Upload the PDF: it waits, pending, for the action; focus goes on to the first condition.
  await propuesta.getByLabel('Documento PDF: propuesta previa').setInputFiles({
    name: 'propuesta-previa-parla.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n'),
  });
  await propuesta.getByRole('button', { name: 'Subir el PDF' }).click();
  await expect(propuesta.getByRole('list', { name: 'PDF subido, pendiente de enviar' })).toContainText('propuesta-previa-parla.pdf');
  await expect(propuesta.getByLabel(/^Punto de conexión/)).toBeFocused();

  await propuesta.getByLabel(/^Punto de conexión/).fill('Celda de línea 2, barra de 20 kV de la subestación Arganda');
  await propuesta
    .getByLabel(/^Condiciones técnicas/)
    .fill('Línea subterránea de 20 kV de 800 m; protección de interconexión a cargo del solicitante.');
  await propuesta.getByLabel(/^Importe/).fill('12.500,00');
  await propuesta.getByLabel(/^Plazo de ejecución/).fill('6');
  await propuesta.getByRole('button', { name: 'Enviar la propuesta previa' }).click();

  // The step changes, the result is announced and the focus returns to the request's header.
  await expect(
    page.getByRole('status').filter({ hasText: `La solicitud ${referencia} está ahora en «Propuesta previa enviada»` }),
  ).toBeVisible();
  await expect(cabecera).toBeFocused();
  await expect(page.getByText('Le toca actuar al solicitante: la distribuidora espera su respuesta.')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Enviar la propuesta previa' })).toHaveCount(0);
  await expect(page.getByText(/Ahora le toca al solicitante\. Cuando responda/)).toBeVisible();

  const historial = page.getByRole('list', { name: 'Historial' });
  const paso = historial.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Propuesta previa enviada' }) });
  await expect(paso).toContainText('Distribuidora');
  await expect(paso).toContainText('12.500,00 €');
  await expect(paso).toContainText('6 meses');
  await expect(paso).toContainText('propuesta-previa-parla.pdf');

  const deLaDistribuidora = page.getByRole('list', { name: 'De la distribuidora' });
  await expect(deLaDistribuidora).toContainText('propuesta-previa-parla.pdf');
  const [descarga] = await Promise.all([
    page.waitForEvent('download'),
    deLaDistribuidora.getByRole('button', { name: 'Descargar propuesta-previa-parla.pdf' }).click(),
  ]);
  expect(descarga.suggestedFilename()).toBe('propuesta-previa-parla.pdf');
  expect(
    readFileSync(await descarga.path())
      .subarray(0, 5)
      .toString('latin1'),
  ).toBe('%PDF-');
  await revisarAnchos(page, 'accesos-admin-propuesta-enviada');

  // Back in the queue, the request shows its new step and the applicant's turn.
  await page.getByRole('link', { name: 'Volver a las solicitudes' }).click();
  const despues = tablaCola(page).locator('tbody tr').filter({ hasText: referencia });
  await expect(despues).toContainText('Propuesta previa enviada');
  await expect(despues).toContainText('Solicitante');
});
