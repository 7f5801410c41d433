/**
 * Network incidents management in the browser: the form checks what is typed with the
 * shared schema (a message per wrong supply point), a new incident appears on the public
 * /incidencias-red page, its state changes, and once closed it disappears from that page.
 * Accessibility at desktop and phone widths. Each test creates its own incident, in a municipality
 * named after the test run, so tests do not see each other's.
 */
import { mkdirSync } from 'node:fs';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { construirCups } from '../../src/lib/cups.ts';
import { entrar, expectNoAxeViolations, WIDTHS } from './support.ts';

const ADMIN = 'admin@electra.example';
const PANTALLA = '/administrador/incidencias';
const SHOTS = '/tmp/shots-f2';
mkdirSync(SHOTS, { recursive: true });

/** A municipality name no other test (or demo incident) uses. */
const municipioUnico = (base: string) => `${base} ${Math.random().toString(36).slice(2, 7)}`;

/** The row of an incident in the management list. */
const fila = (page: Page, municipio: string) =>
  page
    .getByRole('table', { name: /^Incidencias de red, página/ })
    .locator('tbody tr')
    .filter({ hasText: municipio });

/** Fills and sends the form for a valid new incident of EPD (times typed in Madrid time). */
async function crear(page: Page, municipio: string, inicio = '2030-05-04T08:30', finPrevisto = '2030-05-04T14:00'): Promise<void> {
  await page.getByRole('button', { name: 'Nueva incidencia' }).click();
  const formulario = page.getByRole('form', { name: 'Nueva incidencia' });
  await formulario.getByLabel(/^Distribuidora/).selectOption('epd');
  await formulario.getByLabel(/^Estado/).selectOption('Programada');
  await formulario.getByLabel(/^Descripción/).fill('Sustitución de un transformador del centro de transformación.');
  await formulario.getByLabel(/^Municipio/).fill(municipio);
  await formulario.getByLabel(/^Código INE/).fill('42173');
  await formulario.getByLabel(/^Provincia/).fill('Soria');
  await formulario.getByLabel(/^Códigos postales/).fill('42001, 42002');
  await formulario.getByLabel(/^CUPS afectados/).fill(construirCups('9901', 424242));
  await formulario.getByLabel(/^Inicio/).fill(inicio);
  await formulario.getByLabel(/^Fin previsto/).fill(finPrevisto);
  await formulario.getByRole('button', { name: 'Crear incidencia' }).click();
  await expect(page.getByText(`Incidencia de ${municipio} creada.`)).toBeVisible();
}

test('checks the form: a summary of every field, and one message per wrong supply point', async ({ page }) => {
  await entrar(page, ADMIN, undefined, PANTALLA);
  await page.getByRole('button', { name: 'Nueva incidencia' }).click();
  const formulario = page.getByRole('form', { name: 'Nueva incidencia' });
  await expect(page.getByRole('heading', { name: 'Nueva incidencia' })).toBeFocused();
  await formulario.getByLabel(/^Distribuidora/).selectOption('epd');
  await formulario.getByLabel(/^Municipio/).fill('Golmayo');
  const bueno = construirCups('9901', 1);
  const ajeno = construirCups('9902', 2);
  const malo = `${bueno.slice(0, 18)}${bueno.slice(18) === 'AA' ? 'BB' : 'AA'}`;
  await formulario.getByLabel(/^CUPS afectados/).fill(`${bueno}\n${ajeno}\n${malo}`);
  await formulario.getByRole('button', { name: 'Crear incidencia' }).click();

  const resumen = page.getByRole('group', { name: 'Revise los campos marcados' });
  await expect(resumen).toBeFocused();
  await expect(resumen.getByRole('link', { name: /^Descripción: Describa la incidencia\./ })).toBeVisible();
  await expect(resumen.getByRole('link', { name: /^Inicio: Indique la fecha y hora de inicio\./ })).toBeVisible();
  await expect(resumen.getByRole('link', { name: /^CUPS afectados: 2 CUPS de la lista no son válidos\./ })).toBeVisible();
  const porCups = page.getByRole('list', { name: 'CUPS no válidos' });
  await expect(porCups.getByRole('listitem')).toHaveCount(2);
  await expect(porCups).toContainText(`${ajeno}: no pertenece a esta distribuidora`);
  await expect(porCups).toContainText(`${malo}: Las dos letras de control`);
  // Values are kept, and the summary's link takes the user to the field.
  await expect(formulario.getByLabel(/^Municipio/)).toHaveValue('Golmayo');
  await resumen.getByRole('link', { name: /^Descripción/ }).click();
  await expect(formulario.getByLabel(/^Descripción/)).toBeFocused();
});

/** Whether the public interruptions page, seen by a new visitor (no HTTP cache: the list may be cached 60 s), lists a municipality. */
async function enPaginaPublica(browser: Browser, municipio: string): Promise<boolean> {
  const visitante = await browser.newPage();
  await visitante.goto('/incidencias-red');
  // The list has loaded once its count of interruptions is shown.
  await expect(visitante.getByText(/\d+ interrupci(ón|ones)/).first()).toBeVisible();
  const visible = (await visitante.getByText(municipio).count()) > 0;
  await visitante.context().close();
  return visible;
}

test('a new incident appears on the public page, and disappears from it once closed', async ({ page, browser }) => {
  const municipio = municipioUnico('Villanueva de Prueba');
  await entrar(page, ADMIN, undefined, PANTALLA);
  // Started in the past (a winter date), so closing it now is a valid end.
  await crear(page, municipio, '2025-01-10T08:30', '');
  await expect(fila(page, municipio)).toContainText('Programada');
  // Madrid time typed, shown back the same.
  await expect(fila(page, municipio)).toContainText('10 ene 2025, 8:30');

  expect(await enPaginaPublica(browser, municipio)).toBe(true);

  await fila(page, municipio)
    .getByRole('button', { name: `Cerrar la incidencia de ${municipio}` })
    .click();
  const dialogo = page.getByRole('dialog', { name: 'Cerrar la incidencia' });
  await expect(dialogo).toContainText('dejará de mostrarse');
  await dialogo.getByRole('button', { name: 'Cerrar incidencia' }).click();
  await expect(page.getByText(`La incidencia de ${municipio} está cerrada`)).toBeVisible();
  await expect(fila(page, municipio)).toContainText('Cerrada');

  expect(await enPaginaPublica(browser, municipio)).toBe(false);
});

test('edits an incident and changes its state', async ({ page }) => {
  const municipio = municipioUnico('Quintana de Prueba');
  await entrar(page, ADMIN, undefined, PANTALLA);
  await crear(page, municipio);

  await fila(page, municipio)
    .getByRole('button', { name: `Editar la incidencia de ${municipio}` })
    .click();
  const formulario = page.getByRole('form', { name: `Editar la incidencia de ${municipio}` });
  await expect(formulario.getByLabel(/^Inicio/)).toHaveValue('2030-05-04T08:30');
  await formulario.getByLabel(/^Clientes afectados/).fill('321');
  await formulario.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(page.getByText(`Incidencia de ${municipio} guardada.`)).toBeVisible();
  await expect(fila(page, municipio)).toContainText('321 clientes');

  await fila(page, municipio)
    .getByRole('button', { name: `Cambiar el estado de la incidencia de ${municipio}` })
    .click();
  const dialogo = page.getByRole('dialog', { name: 'Cambiar el estado de la incidencia' });
  await dialogo.getByLabel('Nuevo estado').selectOption('Activa');
  await dialogo.getByRole('button', { name: 'Guardar estado' }).click();
  await expect(page.getByText(`La incidencia de ${municipio} está ahora «Activa».`)).toBeVisible();
  await expect(fila(page, municipio)).toContainText('Activa');

  // The state filter, closed ones included, is kept in the address.
  await page.getByLabel('Estado', { exact: true }).selectOption('Activa');
  await page.getByRole('button', { name: 'Filtrar' }).click();
  await expect(page).toHaveURL(/\?estado=Activa$/);
  await expect(fila(page, municipio)).toHaveCount(1);

  // It starts in 2030: closing it now would end it before it starts, which the dialog says at once.
  await fila(page, municipio)
    .getByRole('button', { name: `Cerrar la incidencia de ${municipio}` })
    .click();
  const cierre = page.getByRole('dialog', { name: 'Cerrar la incidencia' });
  await cierre.getByRole('button', { name: 'Cerrar incidencia' }).click();
  await expect(cierre.getByLabel('Fin de la incidencia')).toBeFocused();
  await expect(cierre.getByLabel('Fin de la incidencia')).toHaveAccessibleDescription(
    /El fin no puede ser anterior al inicio de la incidencia \(4 may 2030, 8:30\)/,
  );
  await cierre.getByRole('button', { name: 'Cancelar' }).click();
  await expect(fila(page, municipio)).toContainText('Activa');
});

test.describe('accessibility of incidents management', () => {
  for (const ancho of WIDTHS) {
    test(`has no axe violations at ${ancho.width} px, list and form`, async ({ page }) => {
      // Several axe runs on a busy machine.
      test.slow();
      await page.setViewportSize({ width: ancho.width, height: ancho.height });
      await entrar(page, ADMIN, undefined, PANTALLA);
      await expect(page.getByRole('table', { name: /^Incidencias de red, página/ })).toBeVisible();
      await expectNoAxeViolations(page, `incidencias ${ancho.name}`);
      await page.screenshot({ path: `${SHOTS}/incidencias-${ancho.width}.png`, fullPage: true });
      await page.getByRole('button', { name: 'Nueva incidencia' }).click();
      await page.getByRole('form', { name: 'Nueva incidencia' }).getByRole('button', { name: 'Crear incidencia' }).click();
      await expect(page.getByRole('group', { name: 'Revise los campos marcados' })).toBeFocused();
      await expectNoAxeViolations(page, `formulario de incidencia con errores ${ancho.name}`);
      await page.screenshot({ path: `${SHOTS}/incidencia-formulario-${ancho.width}.png`, fullPage: true });
      await page
        .getByRole('form', { name: 'Nueva incidencia' })
        .locator('..')
        .screenshot({ path: `${SHOTS}/incidencia-formulario-seccion-${ancho.width}.png` });
      await page
        .getByRole('region', { name: /^Incidencias de red, página/ })
        .screenshot({ path: `${SHOTS}/incidencias-tabla-${ancho.width}.png` });
    });
  }
});
