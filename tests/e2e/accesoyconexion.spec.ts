/**
 * Access and connection requests from the applicant's side (RD 1183/2020; docs/decisions/017),
 * through the browser: the demo developer sees its requests with whose turn and the overdue one
 * flagged in words; starts a request at EPD, is told everything missing grouped by section, fills the
 * form (saved by itself: a reload keeps it), picks a saturated node and is warned, uploads its
 * documents, files it and finds it in the list; answers a request for corrections with a document;
 * accepts a propuesta previa after its confirmation, and sees the permits once the staff issue
 * them. axe and no sideways scrolling at desktop, phone and 320 px widths, with screenshots.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { DEMO_PASSWORD, entrar, habilesQuedanAlPresentar, revisarAnchos } from './support.ts';
import { apiComo, pdfPrueba } from './api-demo.ts';

const PROMOTOR = 'promotor@electra.example';
const LISTA = '/accesoyconexion/listado-de-solicitudes';
const EPD = 'Electra Peninsular Distribución, S.L.';

const tabla = (page: Page) => page.getByRole('table', { name: 'Sus solicitudes, la más reciente primero' });

test('la lista dice a quién le toca y marca con palabras el plazo vencido', async ({ page }) => {
  test.setTimeout(90_000);
  await entrar(page, PROMOTOR, DEMO_PASSWORD, LISTA);
  await expect(page.getByRole('heading', { level: 1, name: 'Solicitudes de acceso y conexión' })).toBeVisible();
  const filas = tabla(page).locator('tbody tr');
  await expect(filas.first()).toBeVisible();
  await expect(tabla(page).getByRole('row').filter({ hasText: 'Fuenlabrada' })).toContainText('Vencido');
  await expect(tabla(page).getByRole('row').filter({ hasText: 'Borrador' }).first()).toContainText('Le toca a usted');
  await expect(tabla(page).getByRole('row').filter({ hasText: 'Mérida' })).toContainText('Cerrada');
  await expect(tabla(page).getByRole('row').filter({ hasText: 'Getafe' })).toContainText('4.900 kW');
  await revisarAnchos(page, 'acceso-lista');
  // On a phone the same requests are cards.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('list', { name: 'Sus solicitudes, la más reciente primero' }).getByRole('listitem').first()).toBeVisible();
  await expect(tabla(page)).toBeHidden();
});

test('el promotor presenta una solicitud con sus documentos y la ve en la lista', async ({ page }) => {
  test.setTimeout(180_000);
  await entrar(page, PROMOTOR, DEMO_PASSWORD, LISTA);
  await page.getByRole('link', { name: 'Nueva solicitud' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Solicitud de acceso y conexión' })).toBeVisible();

  // Without a distributor, the summary says so and its link goes to the first option.
  await page.getByRole('button', { name: 'Empezar la solicitud' }).click();
  const resumenNueva = page.getByRole('group', { name: 'Revise esto antes de seguir:' });
  await expect(resumenNueva).toBeFocused();
  await revisarAnchos(page, 'acceso-nueva');
  await page.getByRole('radio', { name: EPD }).check();
  await page.getByRole('button', { name: 'Empezar la solicitud' }).click();
  await page.waitForURL(/\/accesoyconexion\/solicitud\/[0-9a-f-]{36}$/);
  const cabecera = page.getByRole('heading', { level: 2, name: /^Borrador AC-\d{4}-\d{6}$/ });
  await expect(cabecera).toBeVisible();
  const referencia = (await cabecera.textContent())!.replace('Borrador ', '').trim();

  // Filing at once: everything missing, grouped by section, the summary focused; its links focus each field.
  await page.getByRole('button', { name: 'Presentar la solicitud' }).click();
  const resumen = page.getByRole('group', { name: 'Para presentar la solicitud falta lo siguiente:' });
  await expect(resumen).toBeFocused();
  for (const s of ['Datos de la solicitud', 'Emplazamiento', 'Instalación', 'Nudo de conexión', 'Documentos']) {
    await expect(resumen.getByRole('heading', { level: 3, name: s })).toBeVisible();
  }
  await revisarAnchos(page, 'acceso-borrador-faltas');
  await resumen.getByRole('link', { name: 'Elija el tipo de solicitud.' }).click();
  await expect(page.getByLabel('Tipo de solicitud')).toBeFocused();
  await expect(page.getByLabel('Tipo de solicitud')).toHaveAttribute('aria-invalid', 'true');

  await page.getByLabel('Tipo de solicitud').selectOption({ label: 'Generación' });
  // The summary shrinks as things are fixed.
  await expect(resumen.getByRole('link', { name: 'Elija el tipo de solicitud.' })).toHaveCount(0);
  await page.getByLabel('Fecha prevista de puesta en servicio').fill('2027-06-30');
  await page.getByLabel('Persona de contacto').fill('Marta Ruiz Calvo');
  await page.getByLabel('Teléfono de contacto').fill('600 123 123');
  await page.getByLabel('Dirección', { exact: true }).fill('Polígono 3, parcela 21');
  await page.getByLabel('Municipio').fill('Pinto');
  await page.getByLabel('Provincia').fill('Madrid');
  await page.getByLabel('Código postal').fill('28320');
  await page.getByLabel('Referencia catastral').fill('28113A003000210000XY');
  await page.getByLabel('Latitud').fill('40,2415');
  // A value out of range is told beside the field once it is left, and is not saved.
  await page.getByLabel('Longitud').fill('-30');
  await page.getByLabel('Potencia a evacuar (kW)').focus();
  await expect(page.getByText(/La longitud debe estar entre −19 y 5 grados/)).toBeVisible();
  await page.getByLabel('Longitud').fill('-3,6991');
  await page.getByLabel('Potencia a evacuar (kW)').fill('2.500');
  await expect(page.getByText('Equivale a 2,5 MW.')).toBeVisible();
  await page.getByLabel('Tensión de conexión (kV)').fill('20');
  await page.getByLabel('Tecnología').selectOption({ label: 'Solar fotovoltaica' });

  // A node with no capacity today: a warning that does not block.
  const nudo = page.getByLabel('Nudo de la red al que pide conectarse');
  const saturado = await nudo.locator('option', { hasText: 'sin capacidad disponible hoy' }).first().getAttribute('value');
  await nudo.selectOption(saturado!);
  await expect(page.getByText(/pasa de la capacidad que la distribuidora publica hoy en este nudo/)).toBeVisible();

  // Generation needs the guarantee's receipt; each document is sent as soon as it is chosen.
  for (const [etiqueta, nombre] of [
    ['Resguardo de la garantía (art. 23 RD 1183/2020)', 'resguardo-garantia.pdf'],
    ['Memoria técnica', 'memoria-tecnica-pinto.pdf'],
    ['Planos de situación', 'planos-pinto.pdf'],
  ] as const) {
    await page.getByLabel(etiqueta, { exact: true }).setInputFiles(pdfPrueba(nombre));
    await expect(page.getByRole('status').filter({ hasText: `Adjuntado: ${nombre}.` })).toBeVisible();
  }
  // A file that is not a PDF, JPEG or PNG is refused before sending, beside its field.
  await page
    .getByLabel('Otro documento (opcional)', { exact: true })
    .setInputFiles({ name: 'notas.txt', mimeType: 'text/plain', buffer: Buffer.from('hola') });
  await expect(page.getByText('Solo se admiten ficheros PDF, JPEG o PNG.')).toBeVisible();

  // Saved by itself: a reload keeps what was typed.
  await expect(page.getByRole('status').filter({ hasText: /^Guardado a las \d{2}:\d{2}\.$/ })).toBeVisible();
  await revisarAnchos(page, 'acceso-borrador-completo');
  await page.reload();
  await expect(page.getByLabel('Municipio')).toHaveValue('Pinto');
  await expect(page.getByLabel('Longitud')).toHaveValue('-3,6991');
  await expect(page.getByLabel('Potencia a evacuar (kW)')).toHaveValue('2500');
  await expect(page.getByRole('list', { name: 'Memoria técnica: documentos adjuntos' })).toContainText('memoria-tecnica-pinto.pdf');

  // Filing asks for confirmation, then the detail announces it.
  await page.getByRole('button', { name: 'Presentar la solicitud' }).click();
  const dialogo = page.getByRole('dialog', { name: `Presentar la solicitud ${referencia}` });
  await expect(dialogo.getByRole('button', { name: 'Cancelar' })).toBeFocused();
  await dialogo.getByRole('button', { name: 'Presentar la solicitud' }).click();
  const anuncio = page.getByRole('status').filter({ hasText: `Hemos presentado su solicitud ${referencia} a ${EPD}` });
  await expect(anuncio).toBeVisible();
  await expect(anuncio).toBeFocused();
  await expect(page.getByRole('heading', { level: 2, name: referencia })).toBeVisible();
  await expect(page.getByText('Le toca a la distribuidora').first()).toBeVisible();
  const quedan = habilesQuedanAlPresentar(20, 'epd');
  await expect(page.getByText(new RegExp(`Hasta el .* \\(quedan ${quedan} días hábiles\\)`))).toBeVisible();
  const documentos = page.getByRole('list', { name: 'Documentos: Solicitud presentada' });
  await expect(documentos).toContainText('memoria-tecnica-pinto.pdf');
  const [descarga] = await Promise.all([
    page.waitForEvent('download'),
    documentos.getByRole('button', { name: /memoria-tecnica-pinto\.pdf/ }).click(),
  ]);
  expect(descarga.suggestedFilename()).toBe('memoria-tecnica-pinto.pdf');
  expect(
    readFileSync(await descarga.path())
      .subarray(0, 5)
      .toString('latin1'),
  ).toBe('%PDF-');
  await expect(page.getByRole('heading', { level: 3, name: 'Instalación' })).toBeVisible();
  await expect(page.getByText('2.500 kW (2,5 MW)')).toBeVisible();
  await revisarAnchos(page, 'acceso-presentada');

  await page.getByRole('link', { name: 'Volver a sus solicitudes' }).click();
  const fila = tabla(page).getByRole('row').filter({ hasText: referencia });
  await expect(fila).toContainText('Recibida');
  await expect(fila).toContainText('Le toca a la distribuidora');
  await expect(fila).toContainText('2.500 kW');
});

test('el promotor envía la subsanación que le pide la distribuidora', async ({ page }) => {
  test.setTimeout(90_000);
  await entrar(page, PROMOTOR, DEMO_PASSWORD, LISTA);
  await tabla(page).getByRole('row').filter({ hasText: 'Getafe' }).getByRole('link').click();
  await expect(page.getByRole('heading', { level: 2, name: 'Qué tiene que hacer ahora' })).toBeVisible();
  await expect(page.getByRole('figure', { name: 'Lo que le pide la distribuidora:' })).toContainText(
    'El resguardo de la garantía no indica la referencia catastral de la parcela.',
  );
  await expect(page.getByText(/Tiene 20 días hábiles para subsanar/)).toBeVisible();
  const form = page.getByRole('region', { name: 'Enviar la subsanación' });
  await form.getByRole('button', { name: 'Enviar la subsanación' }).click();
  await expect(form.getByRole('group', { name: 'Revise esto antes de enviar la subsanación:' })).toBeFocused();
  await revisarAnchos(page, 'acceso-subsanacion');

  await form.getByLabel('Documentación de la subsanación (opcional)').setInputFiles(pdfPrueba('resguardo-con-catastral.pdf'));
  await expect(form.getByRole('status').filter({ hasText: 'Adjuntado: resguardo-con-catastral.pdf.' })).toBeVisible();
  await form.getByLabel('Mensaje para la distribuidora').fill('Adjunto el resguardo con la referencia catastral.');
  await form.getByRole('button', { name: 'Enviar la subsanación' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Hemos enviado su subsanación a la distribuidora.' })).toBeFocused();
  await expect(page.getByRole('region', { name: 'Enviar la subsanación' })).toHaveCount(0);
  await expect(page.getByRole('list', { name: 'Documentos: Subsanación enviada' })).toContainText('resguardo-con-catastral.pdf');
  await expect(page.getByRole('list', { name: /^Historial de/ })).toContainText('«Adjunto el resguardo con la referencia catastral.»');
});

test('el promotor acepta la propuesta previa tras confirmarlo', async ({ page }) => {
  test.setTimeout(90_000);
  await entrar(page, PROMOTOR, DEMO_PASSWORD, LISTA);
  await tabla(page).getByRole('row').filter({ hasText: 'Valdemoro' }).getByRole('link').click();
  const propuesta = page.getByRole('region', { name: 'Propuesta previa' });
  await expect(propuesta).toContainText('186.400,00 €');
  await expect(propuesta).toContainText('14 meses');
  await expect(propuesta.getByRole('list', { name: 'Documentos de la propuesta previa' })).toContainText('propuesta-previa.pdf');
  await revisarAnchos(page, 'acceso-propuesta');

  await propuesta.getByRole('button', { name: 'Aceptar la propuesta previa' }).click();
  const dialogo = page.getByRole('dialog', { name: 'Aceptar la propuesta previa' });
  await expect(dialogo).toContainText('186.400,00 €');
  await dialogo.getByRole('button', { name: 'Aceptar la propuesta' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Ha aceptado la propuesta previa.' })).toBeFocused();
  await expect(page.getByText('Propuesta previa aceptada').first()).toBeVisible();
  await expect(propuesta.getByRole('button', { name: 'Aceptar la propuesta previa' })).toHaveCount(0);

  // EPD's staff issue the permits with their PDF (set up through the API), and the developer sees them.
  const id = new URL(page.url()).pathname.split('/').at(-1)!;
  const gestor = await apiComo('admin-epd@electra.example');
  await gestor.subir(id, 'permisos', 'permisos-acceso-conexion.pdf');
  await gestor.enviar('POST', `/api/administrador/accesoyconexion/${id}/emitir_permisos`, {});
  await gestor.fin();
  await page.reload();
  await expect(page.getByText('Permisos emitidos').first()).toBeVisible();
  await expect(page.getByRole('main')).toContainText('permisos-acceso-conexion.pdf');
});
