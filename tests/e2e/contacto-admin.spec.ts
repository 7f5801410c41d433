/**
 * Queries and claims from the distributor's side (docs/decisions/018), through the browser: EPD's
 * administrator finds the overdue claim first in the queue, flagged in words, filters the overdue
 * ones and never sees another distributor's cases (the administrator of all three switches between
 * them); takes a claim through acceptance, a request for information and its closing with a result
 * of table 80, a written answer and a document, confirmed first; and answers a query, which the
 * person then reads. The person's side is set up through the API. axe and no sideways scrolling at
 * 1280 and 375 px, with screenshots in /tmp/shots-contacto (SHOTS_DIR).
 */
import { mkdirSync } from 'node:fs';

import { expect, request, test, type Page } from '@playwright/test';
import { E2E_PORT } from '../../playwright.config.ts';
import { construirCups } from '../../src/lib/cups.ts';
import { DEMO_PASSWORD, entrar, habilesQuedanAlPresentar, revisarAnchos } from './support.ts';
import { apiComo, pdfPrueba } from './api-demo.ts';

const CONSUMIDOR = 'consumidor@electra.example';
const EMPRESA = 'empresa@electra.example';
const ADMIN_EPD = 'admin-epd@electra.example';
const ADMIN = 'admin@electra.example';
const COLA = '/administrador/contacto';
const CUPS_HOGAR_EPD = construirCups('9901', 1);

const SHOTS = process.env.SHOTS_DIR ?? '/tmp/shots-contacto';
mkdirSync(SHOTS, { recursive: true });

const ANCHOS = [
  { name: 'escritorio', width: 1280, height: 800 },
  { name: 'movil', width: 375, height: 740 },
] as const;

/** axe, no sideways scrolling and a screenshot at each of this screen's widths. */
const revisar = (page: Page, nombre: string) => revisarAnchos(page, `${nombre}`, ANCHOS);

/** A case filed by a demo account through the API (created with its data, then sent); its id and reference. */
async function casoPresentado(
  email: string,
  ruta: 'consultas' | 'reclamaciones',
  datos: unknown,
): Promise<{ id: string; referencia: string }> {
  const persona = await apiComo(email);
  const b = await persona.enviar<{ id: string }>('POST', `/api/contacto/${ruta}`, { distribuidora: 'epd', datos });
  const d = await persona.enviar<{ id: string; referencia: string }>('POST', `/api/contacto/${ruta}/${b.id}/presentar`, {});
  await persona.fin();
  return d;
}

const tablaCola = (page: Page, distribuidora = 'Electra Peninsular Distribución') =>
  page.getByRole('table', { name: new RegExp(`^Consultas y reclamaciones de ${distribuidora}`) });

test('la cola muestra primero lo vencido, marcado con palabras, y nunca casos de otra distribuidora', async ({ page }) => {
  test.setTimeout(120_000);
  await entrar(page, ADMIN_EPD, DEMO_PASSWORD, COLA);
  await expect(page.getByRole('heading', { level: 1, name: 'Consultas y reclamaciones' })).toBeVisible();
  // One distributor administered: named, not offered as a choice.
  await expect(page.getByText('Distribuidora: Electra Peninsular Distribución, S.L.')).toBeVisible();
  await expect(page.getByLabel('Distribuidora', { exact: true })).toHaveCount(0);

  const filas = tablaCola(page).locator('tbody tr');
  await expect(filas.first()).toBeVisible();
  // The demo's overdue claim (a neighbour's, filed nine business days ago) comes first; no other row is overdue.
  await expect(filas.first().getByRole('cell').filter({ hasText: 'Vencido' })).toBeVisible();
  await expect(filas.first()).toContainText('026 · Reclamaciones sobre instalaciones');
  await expect(filas.filter({ hasText: 'Vencido' })).toHaveCount(1);
  // EOD's query of the household is not EPD's.
  await expect(tablaCola(page)).not.toContainText('Autoconsumo: energía vertida');
  await revisar(page, 'contacto-admin-cola');

  await page.getByLabel('Plazo').selectOption({ label: 'Solo los vencidos' });
  await page.getByRole('button', { name: 'Filtrar' }).click();
  await expect(page).toHaveURL(/\?vencidas=si$/);
  await expect(page.getByRole('status').filter({ hasText: '1 expediente.' })).toBeVisible();
  await expect(filas).toHaveCount(1);
  await filas.first().getByRole('link').click();
  await expect(page.getByRole('heading', { level: 2, name: /^Reclamación RC-/ })).toBeVisible();
  await expect(page.getByText('Plazo vencido.')).toBeVisible();
  await revisar(page, 'contacto-admin-vencida');
  await page.getByRole('link', { name: 'Volver a la cola' }).click();
  await expect(page).toHaveURL(/\?vencidas=si$/);

  // Only claims of type 05 (quality of supply): the subtype filter offers that type's subtypes.
  await page.getByRole('button', { name: 'Limpiar filtros' }).first().click();
  await page.getByLabel('Procedimiento').selectOption('reclamacion');
  await page.getByLabel('Tipo', { exact: true }).selectOption('05');
  await expect(page.getByLabel('Subtipo de reclamación').locator('option')).toHaveCount(6);
  await page.getByRole('button', { name: 'Filtrar' }).click();
  await expect(page).toHaveURL(/procedimiento=reclamacion&tipo=05/);
  for (const fila of await filas.all()) await expect(fila).toContainText('Calidad de suministro');

  // The administrator of all three chooses the distributor; each queue holds its own cases only.
  await page.context().clearCookies();
  await entrar(page, ADMIN, DEMO_PASSWORD, COLA);
  await expect(tablaCola(page).locator('tbody tr').first()).toBeVisible();
  await expect(tablaCola(page)).not.toContainText('Autoconsumo: energía vertida');
  await page.getByLabel('Distribuidora', { exact: true }).selectOption({ label: 'Electra Occidental Distribución, S.L.' });
  await page.getByRole('button', { name: 'Filtrar' }).click();
  const eod = tablaCola(page, 'Electra Occidental Distribución');
  await expect(eod).toContainText('Autoconsumo: energía vertida');
  await expect(eod).not.toContainText('026 · Reclamaciones sobre instalaciones');
  // The EPD administrator's API refuses EOD's queue.
  const gestor = await request.newContext({ baseURL: `http://127.0.0.1:${E2E_PORT}` });
  const login = await gestor.post('/api/accesoUsuario', {
    headers: { Authorization: `Basic ${Buffer.from(`${ADMIN_EPD}:${DEMO_PASSWORD}`).toString('base64')}` },
  });
  const token = ((await login.json()) as { jwtToken: string }).jwtToken;
  const ajena = await gestor.get('/api/administrador/contacto?distribuidora=eod', { headers: { Authorization: `Bearer ${token}` } });
  expect(ajena.status()).toBe(403);
  await gestor.dispose();
});

test('el personal acepta una reclamación, pide información y la cierra con resultado y respuesta', async ({ page }) => {
  test.setTimeout(150_000);
  const { id, referencia } = await casoPresentado(CONSUMIDOR, 'reclamaciones', {
    rol: '01',
    tipo: '05',
    subtipo: '022',
    campos: { cups: CUPS_HOGAR_EPD, fechaDesde: '2026-10-12', fechaHasta: '2026-10-12' },
    mensaje: 'Se fue la luz a primera hora sin aviso.',
  });
  await entrar(page, ADMIN_EPD, DEMO_PASSWORD, COLA);
  const fila = tablaCola(page).locator('tbody tr').filter({ hasText: referencia });
  await expect(fila).toContainText('Presentada');
  await expect(fila).toContainText(`Quedan ${habilesQuedanAlPresentar(5, 'epd')} días hábiles`);
  await fila.getByRole('link', { name: referencia }).click();

  await expect(page.getByRole('heading', { level: 1, name: 'Tramitar una consulta o reclamación' })).toBeVisible();
  const cabecera = page.getByRole('heading', { level: 2, name: `Reclamación ${referencia}` });
  await expect(cabecera).toBeVisible();
  await expect(page.getByText('Le toca actuar a la distribuidora.')).toBeVisible();
  await expect(page.getByText(/aceptar o rechazar la reclamación en 5 días hábiles/).first()).toBeVisible();
  await expect(page.getByRole('list', { name: /^Historial y mensajes de RC-/ })).toContainText('Se fue la luz a primera hora sin aviso.');
  await expect(page.getByRole('region', { name: 'Rechazar la reclamación' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Cerrar con respuesta' })).toHaveCount(0);
  await revisar(page, 'contacto-admin-reclamacion-presentada');

  // Rejecting asks the reason and a confirmation; cancelling leaves the claim as it was.
  const rechazar = page.getByRole('region', { name: 'Rechazar la reclamación' });
  await rechazar.getByRole('button', { name: 'Rechazar…' }).click();
  await expect(rechazar.getByRole('group', { name: 'Revise estos datos:' })).toBeFocused();
  await rechazar.getByLabel(/^Motivo del rechazo/).fill('No es de nuestra red.');
  await rechazar.getByRole('button', { name: 'Rechazar…' }).click();
  const dialogo = page.getByRole('dialog', { name: `Rechazar la reclamación ${referencia}` });
  await expect(dialogo.getByRole('button', { name: 'Cancelar' })).toBeFocused();
  await dialogo.getByRole('button', { name: 'Cancelar' }).click();
  await expect(dialogo).toBeHidden();

  await page.getByRole('region', { name: 'Aceptar la reclamación' }).getByRole('button', { name: 'Aceptar la reclamación' }).click();
  await expect(page.getByRole('status').filter({ hasText: `${referencia} está ahora en «Aceptada, en estudio»` })).toBeVisible();
  await expect(cabecera).toBeFocused();

  const pedir = page.getByRole('region', { name: 'Pedir información al reclamante' });
  await pedir.getByLabel(/^Qué información necesita/).fill('¿A qué hora volvió la luz en su vivienda?');
  await pedir.getByRole('button', { name: 'Pedir la información' }).click();
  await expect(page.getByRole('status').filter({ hasText: '«Información pedida al reclamante»' })).toBeVisible();
  await expect(page.getByText('Le toca actuar al solicitante: la distribuidora espera su respuesta.')).toBeVisible();

  // The claimant answers (through the API); the staff close it with a result, the written answer and a document.
  const hogar = await apiComo(CONSUMIDOR);
  await hogar.enviar('POST', `/api/contacto/reclamaciones/${id}/enviar_informacion`, { mensaje: 'Volvió a las 9:15.' });
  await hogar.fin();
  await page.reload();
  await expect(page.getByText('Información recibida, en estudio').first()).toBeVisible();
  await page.getByLabel('Respuesta de la distribuidora (opcional)').setInputFiles(pdfPrueba('informe-calidad.pdf'));
  await expect(page.getByRole('status').filter({ hasText: 'Adjuntado: informe-calidad.pdf.' })).toBeVisible();
  const cerrar = page.getByRole('region', { name: 'Cerrar con respuesta' });
  await cerrar.getByRole('button', { name: 'Cerrar la reclamación…' }).click();
  const resumen = cerrar.getByRole('group', { name: 'Revise estos datos:' });
  await expect(resumen).toBeFocused();
  await expect(resumen).toContainText('Elija el resultado de la reclamación.');
  await revisar(page, 'contacto-admin-reclamacion-cerrar');
  await cerrar.getByLabel(/^Resultado/).selectOption('01');
  await cerrar.getByLabel(/^Respuesta escrita al reclamante/).fill('El corte se debió a una avería en la línea; queda reparada.');
  await cerrar.getByRole('button', { name: 'Cerrar la reclamación…' }).click();
  await page
    .getByRole('dialog', { name: `Cerrar la reclamación ${referencia}` })
    .getByRole('button', { name: 'Cerrar la reclamación' })
    .click();
  await expect(page.getByRole('status').filter({ hasText: `${referencia} está ahora en «Cerrada»` })).toBeVisible();
  await expect(page.getByText('El expediente está cerrado: nadie tiene que actuar.')).toBeVisible();
  await expect(page.getByRole('list', { name: 'De la distribuidora' })).toContainText('informe-calidad.pdf');
  await revisar(page, 'contacto-admin-reclamacion-cerrada');

  // The claimant's detail carries the result, the answer and its PDF.
  const despues = await apiComo(CONSUMIDOR);
  const d = await despues.enviar<{ resultado: { codigo: string }; respuesta: string; respuestaPdf: boolean }>(
    'GET',
    `/api/contacto/reclamaciones/${id}`,
  );
  await despues.fin();
  expect(d).toMatchObject({
    resultado: { codigo: '01' },
    respuesta: 'El corte se debió a una avería en la línea; queda reparada.',
    respuestaPdf: true,
  });
});

test('el personal responde una consulta y el solicitante ve la respuesta', async ({ page }) => {
  test.setTimeout(90_000);
  const { id, referencia } = await casoPresentado(EMPRESA, 'consultas', {
    tema: 'conexion',
    asunto: 'Obra en la acera',
    mensaje: '¿Cuándo terminan la zanja frente a la nave?',
  });
  await entrar(page, ADMIN_EPD, DEMO_PASSWORD, `${COLA}/${id}`);
  await expect(page.getByRole('heading', { level: 2, name: `Consulta ${referencia}` })).toBeVisible();
  // A query that is not a data protection request has no deadline to extend.
  await expect(page.getByRole('region', { name: 'Prorrogar el plazo dos meses' })).toHaveCount(0);
  const responder = page.getByRole('region', { name: 'Responder' });
  await responder.getByRole('button', { name: 'Enviar la respuesta' }).click();
  await expect(responder.getByRole('group', { name: 'Revise estos datos:' })).toContainText('Escriba la respuesta.');
  await responder.getByLabel(/^Respuesta/).fill('Terminamos el viernes y reponemos la acera la semana siguiente.');
  await responder.getByRole('button', { name: 'Enviar la respuesta' }).click();
  await expect(page.getByRole('status').filter({ hasText: `${referencia} está ahora en «Respondida»` })).toBeVisible();
  await revisar(page, 'contacto-admin-consulta-respondida');

  const empresa = await apiComo(EMPRESA);
  const d = await empresa.enviar<{ paso: string; eventos: { accion: string; mensaje: string | null }[] }>(
    'GET',
    `/api/contacto/consultas/${id}`,
  );
  await empresa.fin();
  expect(d.paso).toBe('respondida');
  expect(d.eventos.at(-1)).toMatchObject({
    accion: 'responder',
    mensaje: 'Terminamos el viernes y reponemos la acera la semana siguiente.',
  });

  // The demo company's data protection request can be extended, once.
  await page.goto(`${COLA}?procedimiento=consulta&tipo=proteccion_datos`);
  await tablaCola(page).locator('tbody tr').filter({ hasText: 'Acceso a los datos de la empresa' }).getByRole('link').click();
  await expect(page.getByRole('region', { name: 'Prorrogar el plazo dos meses' })).toBeVisible();
  await expect(page.getByText(/debe responder en un mes desde la recepción/).first()).toBeVisible();
});

test('una reclamación que la comercializadora envió por el intercambio (R1) se tramita en la misma cola', async ({ page }) => {
  test.setTimeout(90_000);
  await entrar(page, ADMIN_EPD, DEMO_PASSWORD, COLA);
  // The demo company's R1 01, read by the exchange's reader when the demo was loaded.
  const fila = tablaCola(page).locator('tbody tr').filter({ hasText: '006 · Contratos ATR que no se facturan' });
  await expect(fila).toHaveCount(1);
  await fila.getByRole('link').click();
  await expect(page.getByRole('heading', { level: 2, name: /^Reclamación RC-/ })).toBeVisible();
  await expect(page.getByText(/R1 01 de la comercializadora 9811, solicitud \d{12}/)).toBeVisible();
  await expect(page.getByRole('region', { name: 'Aceptar la reclamación' })).toBeVisible();
});
