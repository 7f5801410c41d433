/**
 * Queries and claims from the person's side (docs/decisions/018), through the browser: the demo
 * household files a claim with a document (role, type and subtype, only the subtype's fields, a
 * wrong field told beside it and fixed), answers the information the distributor asks with a
 * message and a document, reads the closing answer and downloads its PDF; the demo company sends a
 * query with a document, reads the distributor's answer and replies; and the claim link of
 * "Interrupciones en mis suministros" opens the form prefilled. The distributor's side of each is
 * set up through the API. axe and no sideways scrolling at 1280 and 375 px, with screenshots in
 * /tmp/shots-contacto (SHOTS_DIR).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { construirCups } from '../../src/lib/cups.ts';
import { DEMO_PASSWORD, entrar, habilesQuedanAlPresentar, revisarAnchos } from './support.ts';
import { apiComo, pdfPrueba } from './api-demo.ts';

const CONSUMIDOR = 'consumidor@electra.example';
const EMPRESA = 'empresa@electra.example';
const ADMIN_EPD = 'admin-epd@electra.example';
/** The household's supply point at EPD (src/server/suministros/demo.ts). */
const CUPS_HOGAR_EPD = construirCups('9901', 1);
const EPD = 'Electra Peninsular Distribución, S.L.';

const SHOTS = process.env.SHOTS_DIR ?? '/tmp/shots-contacto';
mkdirSync(SHOTS, { recursive: true });

/** The widths every screen is checked at: desktop and a small phone. */
const ANCHOS = [
  { name: 'escritorio', width: 1280, height: 800 },
  { name: 'movil', width: 375, height: 740 },
] as const;

/** axe, no sideways scrolling and a screenshot at each of this screen's widths. */
const revisar = (page: Page, nombre: string) => revisarAnchos(page, `${nombre}`, ANCHOS);

/** A claim about an interruption at EPD filed by the household through the API; its id and reference. */
async function reclamacionPresentada(mensaje: string): Promise<{ id: string; referencia: string }> {
  const hogar = await apiComo(CONSUMIDOR);
  const b = await hogar.enviar<{ id: string }>('POST', '/api/contacto/reclamaciones', {
    distribuidora: 'epd',
    datos: {
      rol: '01',
      tipo: '05',
      subtipo: '022',
      campos: { cups: CUPS_HOGAR_EPD, fechaDesde: '2026-10-05', fechaHasta: '2026-10-05' },
      mensaje,
    },
  });
  const d = await hogar.enviar<{ id: string; referencia: string }>('POST', `/api/contacto/reclamaciones/${b.id}/presentar`, {});
  await hogar.fin();
  return d;
}

/** EPD's staff take steps on a case through the API: actions, or documents uploaded (they go with the next action). */
async function pasosDistribuidora(id: string, pasos: ([string, Record<string, unknown>] | { clase: string; nombre: string })[]) {
  const gestor = await apiComo(ADMIN_EPD);
  for (const p of pasos) {
    if ('clase' in p) await gestor.subir(id, p.clase, p.nombre);
    else await gestor.enviar('POST', `/api/administrador/contacto/${id}/${p[0]}`, p[1]);
  }
  await gestor.fin();
}

test('el hogar presenta una reclamación con un documento, viendo solo los datos de su subtipo', async ({ page }) => {
  test.setTimeout(120_000);
  await entrar(page, CONSUMIDOR, DEMO_PASSWORD, '/contacto/reclamaciones');
  await expect(page.getByRole('heading', { level: 1, name: 'Reclamaciones' })).toBeVisible();
  // The demo's claims: the one closed says its result.
  await expect(page.getByRole('table', { name: 'Sus reclamaciones, la más reciente primero' })).toContainText('Improcedente');
  await revisar(page, 'reclamaciones-lista');

  await page.getByRole('link', { name: 'Nueva reclamación' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Nueva reclamación' })).toBeVisible();
  // Sending at once: everything missing, in a summary that takes focus.
  await page.getByRole('button', { name: 'Presentar la reclamación' }).click();
  const resumen = page.getByRole('group', { name: 'Para presentar la reclamación falta lo siguiente:' });
  await expect(resumen).toBeFocused();
  await expect(resumen).toContainText('Indique en calidad de qué reclama.');
  await revisar(page, 'reclamacion-nueva-faltas');

  // The household's supply points are at EPD and EOD: EPD, the first, is chosen for it.
  await expect(page.getByRole('radio', { name: EPD })).toBeChecked();
  await page.getByLabel('¿En calidad de qué reclama?').selectOption({ label: 'Titular del punto de suministro o usuario efectivo' });
  await page.getByLabel('Tipo de reclamación').selectOption({ label: 'Facturación y medida' });
  const subtipo = page.getByLabel('Subtipo', { exact: true });
  // Only the subtypes a holder may choose, as «código · nombre» (the ATR ones are the supply company's).
  await expect(subtipo.locator('option', { hasText: '004 · Daños originados por equipo de medida' })).toHaveCount(1);
  await expect(subtipo.locator('option', { hasText: '037 · Fichero XML incorrecto' })).toHaveCount(0);
  await subtipo.selectOption('004');

  // Only the subtype's fields; the holder's NIF and name come from the account.
  const datos = page.getByRole('group', { name: 'Datos de la reclamación' });
  await expect(datos.getByLabel('NIF, NIE o CIF del titular')).toHaveValue('12345678Z');
  await expect(datos.getByLabel('Nombre o razón social del titular')).toHaveValue('Lucía Martín Ortega');
  for (const etiqueta of ['Teléfono de contacto', 'Punto de suministro (CUPS)', 'Fecha del incidente', 'Importe reclamado (€)'])
    await expect(datos.getByLabel(etiqueta)).toBeVisible();
  await expect(page.getByLabel('Número de factura')).toHaveCount(0);
  await expect(page.getByLabel('Desde (fecha)')).toHaveCount(0);

  // A wrong phone is told beside it once the field is left, and the message goes once it is fixed.
  const telefono = datos.getByLabel('Teléfono de contacto');
  await telefono.fill('12');
  await datos.getByLabel('Importe reclamado (€)').focus();
  await expect(datos.getByText('Escriba un teléfono español de 9 cifras, o + con el prefijo del país y el número.')).toBeVisible();
  await expect(telefono).toHaveAttribute('aria-invalid', 'true');
  await revisar(page, 'reclamacion-nueva-error-campo');
  await telefono.fill('600 123 123');
  await expect(datos.getByText('Escriba un teléfono español de 9 cifras, o + con el prefijo del país y el número.')).toHaveCount(0);

  await datos.getByLabel('Punto de suministro (CUPS)').selectOption(CUPS_HOGAR_EPD);
  await datos.getByLabel('Fecha del incidente').fill('2026-10-05');
  await datos.getByLabel('Importe reclamado (€)').fill('120,50');
  await page
    .getByLabel('Describa su reclamación')
    .fill('Tras cambiar el contador se quemó el frigorífico. Adjunto la factura de la reparación.');
  await page.getByLabel('Qué documento va a añadir').selectOption({ label: 'Factura' });
  await page.getByLabel('Añadir un documento (opcional)').setInputFiles(pdfPrueba('factura-reparacion.pdf'));
  await expect(page.getByRole('list', { name: 'Documentos que se enviarán' })).toContainText('Factura: factura-reparacion.pdf');
  // A file that is not a PDF, JPEG or PNG is refused before sending, beside its field.
  await page
    .getByLabel('Añadir un documento (opcional)')
    .setInputFiles({ name: 'nota.txt', mimeType: 'text/plain', buffer: Buffer.from('x') });
  await expect(page.getByText('No se ha añadido «nota.txt»: Solo se admiten ficheros PDF, JPEG o PNG.')).toBeVisible();
  await revisar(page, 'reclamacion-nueva-completa');

  await page.getByRole('button', { name: 'Presentar la reclamación' }).click();
  await page.waitForURL(/\/contacto\/detalleReclamacion\/[0-9a-f-]{36}$/);
  const anuncio = page.getByRole('status').filter({ hasText: /Hemos presentado su reclamación RC-\d{4}-\d{6} a Electra Peninsular/ });
  await expect(anuncio).toBeFocused();
  const referencia = /RC-\d{4}-\d{6}/.exec((await anuncio.textContent())!)![0];
  await expect(page.getByRole('heading', { level: 2, name: referencia })).toBeVisible();
  await expect(page.getByText('Le toca a la distribuidora').first()).toBeVisible();
  await expect(page.getByText(`quedan ${habilesQuedanAlPresentar(5, 'epd')} días hábiles`).first()).toBeVisible();
  const lo = page.getByRole('region', { name: 'Lo que reclamó' });
  await expect(lo).toContainText('004 · Daños originados por equipo de medida');
  await expect(lo).toContainText('120,50 €');
  await expect(page.getByRole('list', { name: 'Documentos: Reclamación presentada' })).toContainText('factura-reparacion.pdf');
  await revisar(page, 'reclamacion-presentada');

  await page.getByRole('link', { name: 'Volver a sus reclamaciones' }).click();
  await expect(
    page.getByRole('table', { name: 'Sus reclamaciones, la más reciente primero' }).getByRole('row').filter({ hasText: referencia }),
  ).toContainText('Presentada');
});

test('el reclamante envía la información que le pide la distribuidora, con un documento', async ({ page }) => {
  test.setTimeout(90_000);
  const { id, referencia } = await reclamacionPresentada('Se fue la luz toda la tarde del 5 de octubre.');
  await pasosDistribuidora(id, [
    ['aceptar', {}],
    ['pedir_informacion', { mensaje: 'Indique si saltó el interruptor general de su vivienda.' }],
  ]);
  await entrar(page, CONSUMIDOR, DEMO_PASSWORD, `/contacto/detalleReclamacion/${id}`);
  await expect(page.getByRole('heading', { level: 2, name: referencia })).toBeVisible();
  const queHacer = page.getByRole('region', { name: 'Qué tiene que hacer ahora' });
  await expect(queHacer).toContainText('Envíe la información que le pide la distribuidora');
  await expect(queHacer.getByRole('figure')).toContainText('Indique si saltó el interruptor general de su vivienda.');
  await expect(queHacer).toContainText(/quedan \d+ días/);

  const caja = page.getByRole('region', { name: 'Enviar la información' });
  await caja.getByRole('button', { name: 'Enviar la información' }).click();
  await expect(caja.getByRole('group', { name: 'Revise esto antes de enviar:' })).toBeFocused();
  await revisar(page, 'reclamacion-informacion-pedida');
  await caja.getByLabel('Documento con la información (opcional)').setInputFiles(pdfPrueba('foto-cuadro-electrico.pdf'));
  await expect(caja.getByRole('status').filter({ hasText: 'Adjuntado: foto-cuadro-electrico.pdf.' })).toBeVisible();
  await caja.getByLabel('Su respuesta').fill('Sí, saltó el general; la luz volvió a las 21:30.');
  await caja.getByRole('button', { name: 'Enviar la información' }).click();

  await expect(page.getByRole('status').filter({ hasText: 'Hemos enviado la información a la distribuidora.' })).toBeFocused();
  await expect(page.getByRole('region', { name: 'Enviar la información' })).toHaveCount(0);
  await expect(page.getByText('Información recibida, en estudio').first()).toBeVisible();
  await expect(page.getByRole('list', { name: 'Documentos: Información enviada por el reclamante' })).toContainText(
    'foto-cuadro-electrico.pdf',
  );
  await expect(page.getByRole('list', { name: /^Historial de RC-/ })).toContainText('Sí, saltó el general; la luz volvió a las 21:30.');
});

test('el reclamante lee la respuesta de cierre y descarga su PDF', async ({ page }) => {
  test.setTimeout(90_000);
  const { id, referencia } = await reclamacionPresentada('La tensión bajó varias veces durante la tarde.');
  await pasosDistribuidora(id, [
    ['aceptar', {}],
    { clase: 'respuesta', nombre: 'informe-revision.pdf' },
    [
      'cerrar',
      { resultado: '01', mensaje: 'Hemos sustituido el fusible de la línea. Le abonaremos la compensación en la próxima factura.' },
    ],
  ]);
  await entrar(page, CONSUMIDOR, DEMO_PASSWORD, '/contacto/reclamaciones');
  const fila = page
    .getByRole('table', { name: 'Sus reclamaciones, la más reciente primero' })
    .getByRole('row')
    .filter({ hasText: referencia });
  await expect(fila).toContainText('Procedente / favorable');
  await fila.getByRole('link', { name: referencia }).click();

  const respuesta = page.getByRole('region', { name: 'Respuesta de la distribuidora' });
  await expect(respuesta).toContainText('Procedente / favorable');
  await expect(respuesta).toContainText('Hemos sustituido el fusible de la línea.');
  await expect(page.getByRole('region', { name: 'Anular la reclamación' })).toHaveCount(0);
  await expect(page.getByRole('list', { name: 'Documentos: Reclamación cerrada con respuesta' })).toContainText('informe-revision.pdf');
  await revisar(page, 'reclamacion-cerrada');
  const [descarga] = await Promise.all([
    page.waitForEvent('download'),
    respuesta.getByRole('button', { name: 'Descargar la respuesta (PDF)' }).click(),
  ]);
  expect(
    readFileSync(await descarga.path())
      .subarray(0, 4)
      .toString('latin1'),
  ).toBe('%PDF');
  await expect(respuesta.getByRole('status')).toContainText('Fichero descargado');
});

test('el reclamante anula una reclamación tras confirmarlo', async ({ page }) => {
  const { id } = await reclamacionPresentada('Quiero que revisen el contador.');
  await entrar(page, CONSUMIDOR, DEMO_PASSWORD, `/contacto/detalleReclamacion/${id}`);
  await page.getByRole('button', { name: 'Anular la reclamación' }).click();
  const dialogo = page.getByRole('dialog', { name: /^Anular la reclamación RC-/ });
  await expect(dialogo.getByRole('button', { name: 'Cancelar' })).toBeFocused();
  await dialogo.getByLabel('Mensaje para la distribuidora (opcional)').fill('Ya lo han arreglado.');
  await dialogo.getByRole('button', { name: 'Anular la reclamación' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Ha anulado su reclamación.' })).toBeFocused();
  await expect(page.getByText('Anulada por el reclamante').first()).toBeVisible();
});

test('la empresa envía una consulta, lee la respuesta y contesta', async ({ page }) => {
  test.setTimeout(120_000);
  await entrar(page, EMPRESA, DEMO_PASSWORD, '/contacto/consultas-y-peticiones');
  await expect(page.getByRole('heading', { level: 1, name: 'Consultas y peticiones' })).toBeVisible();
  await revisar(page, 'consultas-lista');
  await page.getByRole('link', { name: 'Nueva consulta' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Consulta o petición' })).toBeVisible();

  // A data protection request asks the right and says its one-month deadline.
  // The company's supply points are at EPD and EOD: EPD, first in the portal's order, is chosen for it.
  await expect(page.getByRole('radio', { name: EPD })).toBeChecked();
  await page.getByLabel('Tema').selectOption({ label: 'Protección de datos (derechos del RGPD)' });
  await expect(page.getByText(/Plazo legal: un mes\./)).toBeVisible();
  await page.getByRole('button', { name: 'Enviar la consulta' }).click();
  const resumen = page.getByRole('group', { name: 'Para enviar la consulta falta lo siguiente:' });
  await expect(resumen).toBeFocused();
  await expect(resumen).toContainText('Elija qué derecho quiere ejercer.');
  await revisar(page, 'consulta-nueva-faltas');
  await resumen.getByRole('link', { name: 'Escriba el asunto.' }).click();
  await expect(page.getByLabel('Asunto')).toBeFocused();

  await page.getByLabel('Tema').selectOption({ label: 'Medidas y lecturas' });
  await expect(page.getByLabel('Derecho que quiere ejercer')).toHaveCount(0);
  await page.getByLabel('Suministro al que se refiere (opcional)').selectOption({ index: 1 });
  await page.getByLabel('Asunto').fill('Lecturas del maxímetro');
  await page.getByLabel('Su consulta o petición').fill('¿Cada cuánto se leen las potencias del maxímetro de la nave?');
  await page.getByLabel('Añadir un documento (opcional)').setInputFiles(pdfPrueba('foto-maximetro.pdf'));
  await page.getByRole('button', { name: 'Enviar la consulta' }).click();
  await page.waitForURL(/\/contacto\/consulta\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('status').filter({ hasText: /Hemos enviado su consulta CO-\d{4}-\d{6}/ })).toBeFocused();
  const mensajes = page.getByRole('list', { name: /^Mensajes de CO-/ });
  await expect(mensajes).toContainText('¿Cada cuánto se leen las potencias del maxímetro de la nave?');
  await expect(mensajes).toContainText('foto-maximetro.pdf');
  await expect(page.getByText('Pendiente de respuesta').first()).toBeVisible();

  // EPD's staff answer; the company reads the answer and replies.
  const id = new URL(page.url()).pathname.split('/').at(-1)!;
  await pasosDistribuidora(id, [['responder', { mensaje: 'Se leen cada mes por telegestión; las verá en «Potencias máximas».' }]]);
  await page.reload();
  await expect(mensajes).toContainText('Se leen cada mes por telegestión');
  await expect(page.getByRole('region', { name: 'Qué tiene que hacer ahora' })).toContainText('La distribuidora le ha respondido');
  await revisar(page, 'consulta-respondida');
  const caja = page.getByRole('region', { name: 'Responder a la distribuidora' });
  await caja.getByLabel('Su mensaje').fill('Gracias. ¿Y las del periodo P6?');
  await caja.getByRole('button', { name: 'Enviar el mensaje' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Hemos enviado su mensaje a la distribuidora.' })).toBeFocused();
  await expect(mensajes.getByRole('listitem').last()).toContainText('Gracias. ¿Y las del periodo P6?');
  await expect(page.getByText('Pendiente de respuesta').first()).toBeVisible();

  // Given up as solved, after a confirmation.
  await page.getByRole('button', { name: 'Dar por resuelta' }).click();
  await page
    .getByRole('dialog', { name: /^Dar por resuelta la consulta CO-/ })
    .getByRole('button', { name: 'Dar por resuelta' })
    .click();
  await expect(page.getByRole('status').filter({ hasText: 'Ha dado por resuelta su consulta.' })).toBeFocused();
  await expect(page.getByRole('region', { name: 'Responder a la distribuidora' })).toHaveCount(0);
});

test('si el portal rechaza el envío, el mensaje va junto a su campo, nada se pierde y el borrador se termina después', async ({ page }) => {
  test.setTimeout(90_000);
  await entrar(page, EMPRESA, DEMO_PASSWORD, '/contacto/consulta');
  await page.getByLabel('Tema').selectOption({ label: 'Suministro y contrato de acceso' });
  await page.getByLabel('Asunto').fill('Cambio de titular de la nave');
  await page.getByLabel('Su consulta o petición').fill('¿Qué documentos necesito para el cambio de titular?');
  await page.getByLabel('Añadir un documento (opcional)').setInputFiles(pdfPrueba('escritura.pdf'));
  // The server refuses the sending (422) with what it finds missing, as another check than the browser's would.
  const falta = { campo: 'asunto', mensaje: 'El asunto no puede ser solo un nombre propio.' };
  await page.route('**/api/contacto/consultas/*/presentar', (route) =>
    route.fulfill({ status: 422, json: { message: falta.mensaje, faltan: [falta] } }),
  );
  await page.route(/\/api\/contacto\/consultas\/[0-9a-f-]{36}$/, async (route) => {
    if (route.request().method() !== 'GET') return route.fallback();
    const respuesta = await route.fetch();
    return route.fulfill({ response: respuesta, json: { ...(await respuesta.json()), faltan: [falta] } });
  });
  await page.getByRole('button', { name: 'Enviar la consulta' }).click();
  const resumen = page.getByRole('group', { name: 'Para enviar la consulta falta lo siguiente:' });
  await expect(resumen).toBeFocused();
  await expect(resumen).toContainText(falta.mensaje);
  await expect(page.getByLabel('Asunto')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Su consulta o petición')).toHaveValue('¿Qué documentos necesito para el cambio de titular?');
  await expect(page.getByRole('list', { name: 'Documentos que se enviarán:' })).toContainText('escritura.pdf');
  await revisar(page, 'consulta-rechazada');
  await page.unrouteAll({ behavior: 'wait' });

  // The draft stays in the list; opened, its form holds the data and the document already attached.
  await page.getByRole('link', { name: 'Volver a sus consultas' }).click();
  const fila = page
    .getByRole('table', { name: 'Sus consultas, la más reciente primero' })
    .getByRole('row')
    .filter({ hasText: 'Cambio de titular de la nave' });
  await expect(fila).toContainText('Borrador');
  await fila.getByRole('link').click();
  await expect(page.getByRole('heading', { level: 2, name: /^Borrador CO-/ })).toBeVisible();
  await expect(page.getByLabel('Asunto')).toHaveValue('Cambio de titular de la nave');
  await expect(page.getByRole('list', { name: 'Documentos ya adjuntos' })).toContainText('escritura.pdf');
  await revisar(page, 'consulta-borrador');
  await page.getByLabel('Asunto').fill('Cambio de titular de la nave de Alcalá');
  await page.getByRole('button', { name: 'Enviar la consulta' }).click();
  await expect(page.getByRole('status').filter({ hasText: /Hemos enviado su consulta CO-/ })).toBeFocused();
  await expect(page.getByRole('list', { name: /^Mensajes de CO-/ })).toContainText('escritura.pdf');
});

test('desde «Interrupciones en mis suministros» se abre la reclamación ya rellena', async ({ page }) => {
  // Three widths of axe and screenshots: more than the default 30 s on a loaded 2-core machine.
  test.setTimeout(90_000);
  await entrar(page, CONSUMIDOR, DEMO_PASSWORD, '/medidas/interrupciones');
  const enlace = page.getByRole('link', { name: /^Reclamar por esta interrupción/ }).first();
  await expect(enlace).toBeVisible();
  const href = new URL((await enlace.getAttribute('href'))!, 'http://x');
  expect(href.pathname).toBe('/contacto/nueva-reclamacion');
  expect(href.searchParams.get('subtipo')).toBe('022');
  const desde = href.searchParams.get('desde')!;
  expect(desde).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  await page.screenshot({ path: join(SHOTS, 'interrupciones-enlace-1280.png'), fullPage: true });
  await enlace.click();

  await expect(page.getByRole('heading', { level: 1, name: 'Nueva reclamación' })).toBeVisible();
  await expect(page.getByLabel('¿En calidad de qué reclama?')).toHaveValue('01');
  await expect(page.getByLabel('Tipo de reclamación')).toHaveValue('05');
  await expect(page.getByLabel('Subtipo', { exact: true })).toHaveValue('022');
  await expect(page.getByLabel('Punto de suministro (CUPS)')).toHaveValue(href.searchParams.get('cups')!);
  await expect(page.getByLabel('Desde (fecha)')).toHaveValue(desde);
  if (href.searchParams.get('hasta')) await expect(page.getByLabel('Hasta (fecha)')).toHaveValue(href.searchParams.get('hasta')!);
  await revisar(page, 'reclamacion-desde-interrupcion');
});

/** The widths the claim form is looked at: desktop and a common phone. */
const ANCHOS_FORMULARIO = [
  { name: 'escritorio', width: 1280, height: 800 },
  { name: 'movil', width: 390, height: 844 },
] as const;

test('una lectura escrita a la española (12.345) se muestra como la ha leído el portal y se guarda como 12345', async ({ page }) => {
  test.setTimeout(90_000);
  // The household's supply points are held back until the form is filled this far: the CUPS field
  // is the list it will be, disabled and saying it is loading, never a text box that turns into a list.
  let soltar!: () => void;
  const suministrosRetenidos = new Promise<void>((r) => (soltar = r));
  await page.route('**/api/suministros', async (ruta) => {
    await suministrosRetenidos;
    await ruta.continue();
  });
  await entrar(page, CONSUMIDOR, DEMO_PASSWORD, '/contacto/nueva-reclamacion');
  await page.getByLabel('¿En calidad de qué reclama?').selectOption({ label: 'Titular del punto de suministro o usuario efectivo' });
  await page.getByLabel('Tipo de reclamación').selectOption({ label: 'Facturación y medida' });
  await page.getByLabel('Subtipo', { exact: true }).selectOption('036');
  const datos = page.getByRole('group', { name: 'Datos de la reclamación' });
  const cups = datos.getByRole('combobox', { name: 'Punto de suministro (CUPS)' });
  await expect(cups).toBeDisabled();
  await expect(cups).toContainText('Cargando sus suministros…');
  await cups.scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(SHOTS, 'reclamacion-cups-cargando-1280.png') });
  soltar();
  await expect(cups).toBeEnabled();
  await cups.selectOption(CUPS_HOGAR_EPD);
  await datos.getByLabel('Número de factura').fill('FE26-0081234');
  const p1 = datos.getByLabel('Lectura P1 (kWh)');
  // Ambiguous: refused beside the field with how to write it.
  await p1.fill('1,234');
  await datos.getByLabel('Fecha de la lectura').focus();
  await expect(datos.getByText(/se puede leer de dos maneras/)).toBeVisible();
  await p1.fill('12.345');
  await expect(datos.getByText('Equivale a 12.345 kWh.')).toBeVisible();
  await datos.getByLabel('Lectura P2 (kWh, opcional)').fill('2300');
  await datos.getByLabel('Fecha de la lectura').fill('2026-10-31');
  await page.getByLabel('Describa su reclamación').fill('La lectura de la factura no es la del contador: adjunto la real.');
  await revisarAnchos(page, 'reclamacion-lectura', ANCHOS_FORMULARIO);
  // The readings themselves, in the viewport (the full-page shot has the sticky header over them).
  for (const w of ANCHOS_FORMULARIO) {
    await page.setViewportSize({ width: w.width, height: w.height });
    await page.getByRole('group', { name: 'Lecturas del contador por periodo' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, `reclamacion-lecturas-${w.width}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.getByRole('button', { name: 'Presentar la reclamación' }).click();
  await page.waitForURL(/\/contacto\/detalleReclamacion\/[0-9a-f-]{36}$/);
  const id = /detalleReclamacion\/([0-9a-f-]{36})$/.exec(page.url())![1]!;
  await expect(page.getByRole('region', { name: 'Lo que reclamó' })).toContainText('12.345 kWh');
  const hogar = await apiComo(CONSUMIDOR);
  const d = await hogar.enviar<{ reclamacion: { campos: Record<string, unknown> } }>('GET', `/api/contacto/reclamaciones/${id}`);
  expect(d.reclamacion.campos['lectura']).toBe(12345);
  expect(d.reclamacion.campos['lecturaP2']).toBe(2300);
  await hogar.fin();
});

test('el lugar de una incidencia en instalaciones se pide como lo lleva el R1: provincia, municipio INE y código postal', async ({
  page,
}) => {
  await entrar(page, CONSUMIDOR, DEMO_PASSWORD, '/contacto/nueva-reclamacion?rol=08&tipo=06&subtipo=041');
  const datos = page.getByRole('group', { name: 'Datos de la reclamación' });
  await datos.getByLabel('Lugar de la incidencia').fill('Calle de los Colegios, 14');
  await datos.getByLabel('Provincia').selectOption({ label: 'Madrid' });
  await datos.getByLabel('Código INE del municipio').fill('08019');
  await datos.getByLabel('Código postal (opcional)').focus();
  await expect(datos.getByText('Ese municipio no es de la provincia elegida: su código empieza por 28.')).toBeVisible();
  await datos.getByLabel('Código INE del municipio').fill('28005');
  await datos.getByLabel('Código postal (opcional)').fill('28801');
  await revisarAnchos(page, 'reclamacion-ubicacion', ANCHOS_FORMULARIO);
});
