/**
 * Authorisations to third parties through the browser (docs/decisions/028-autorizaciones.md): a
 * demo holder reserved for this spec authorises another demo account by NIF on the «Autorizaciones»
 * screen and sees it listed; the authorised account sees the supply point marked in «Suministros»,
 * its curve, and the authorisation among those it received; the holder revokes it after confirming,
 * and the supply point is gone from the authorised side. Axe and widths on each screen.
 */
import { expect, test } from '@playwright/test';
import { clienteApi, type SuministroApi } from './medidas-support.ts';
import { DEMO_PASSWORD, entrar, revisarAnchos, WIDTHS } from './support.ts';

/** Reserved for this spec: a demo home (cliente010–024 are left for the browser tests to change). */
const TITULAR = 'cliente021@correo.example';
/** Reserved for this spec: an active demo account without supply points of its own. */
const AUTORIZADA = 'cliente117@correo.example';
const RUTA = '/medidas/autorizaciones';

test('a holder authorises a NIF, the authorised account reads the supply point, the holder revokes it', async ({ browser }) => {
  test.setTimeout(180_000);
  const [suministro] = await (await clienteApi(TITULAR))<SuministroApi[]>('/api/suministros');
  const { nif } = await (await clienteApi(AUTORIZADA))<{ nif: string }>('/api/perfil');
  const nombre = `Asesoría de prueba ${Date.now().toString(36)}`;

  // The holder: an empty form refused with the summary focused, then a valid authorisation.
  // One context per account: each keeps its own session cookie (and axe needs a page of a context).
  const titular = await (await browser.newContext()).newPage();
  await entrar(titular, TITULAR, DEMO_PASSWORD, RUTA);
  await expect(titular.getByRole('heading', { level: 1, name: 'Autorizaciones' })).toBeVisible();
  // Least by default: no data kind ticked, no end date chosen.
  for (const dato of [/Curvas de consumo/, /Potencias máximas/, /Certificados de consumo/]) {
    await expect(titular.getByRole('checkbox', { name: dato })).not.toBeChecked();
  }
  await expect(titular.getByLabel('Autorizado hasta el día (incluido)')).toHaveValue('');
  await titular.getByRole('button', { name: 'Autorizar' }).click();
  const resumen = titular.getByRole('group', { name: 'Revise los campos marcados' });
  await expect(resumen).toBeFocused();
  await expect(resumen.getByRole('link')).toHaveText([
    /NIF, NIE o CIF de la persona o empresa/,
    /nombre o la razón social/,
    'Elija al menos un suministro.',
    'Elija al menos un tipo de dato.',
    'Indique hasta qué fecha autoriza el acceso.',
  ]);
  await revisarAnchos(titular, 'autorizaciones-errores');

  await titular.getByLabel('NIF, NIE o CIF de la persona o empresa autorizada').fill(nif);
  await titular.getByLabel('Nombre o razón social').fill(nombre);
  await titular.getByRole('checkbox', { name: new RegExp(suministro!.cups) }).check();
  await titular.getByRole('checkbox', { name: /Curvas de consumo/ }).check();
  const fin = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
  await titular.getByLabel('Autorizado hasta el día (incluido)').fill(fin);
  await titular.getByRole('button', { name: 'Autorizar' }).click();
  // A summary of exactly what is given, to confirm.
  const confirmar = titular.getByRole('dialog', { name: 'Confirme la autorización' });
  await expect(confirmar).toContainText(`${nombre} (${nif})`);
  await expect(confirmar).toContainText(suministro!.cups);
  await expect(confirmar).toContainText('Datos del contrato, Curvas de consumo');
  await expect(confirmar).not.toContainText('Potencias máximas');
  await revisarAnchos(titular, 'autorizaciones-confirmacion', WIDTHS);
  await confirmar.getByRole('button', { name: 'Autorizar' }).click();
  await expect(titular.getByText(`Ha autorizado a ${nombre} hasta el`)).toBeVisible();
  // The authorised NIF has an account: no warning that nobody can read it yet.
  await expect(titular.getByText('aún no tiene cuenta en el portal')).toHaveCount(0);
  const tarjeta = titular.locator('.aut-tarjeta', { hasText: nombre });
  await expect(tarjeta).toContainText('Vigente');
  await expect(tarjeta).toContainText(suministro!.cups);
  await expect(tarjeta).toContainText('Curvas de consumo');
  // From the top: the sticky header must not sit over the result's close button while axe measures it.
  await titular.evaluate(() => window.scrollTo(0, 0));
  await revisarAnchos(titular, 'autorizaciones-titular');

  // The authorised account: the supply point marked, its curve, the authorisation received.
  const autorizada = await (await browser.newContext()).newPage();
  await entrar(autorizada, AUTORIZADA, DEMO_PASSWORD, '/informacionContrato/detalle-informacion-contrato');
  const ficha = autorizada.locator('.med-tarjeta', { hasText: suministro!.direccion });
  await expect(ficha).toContainText('Autorizado por');
  await expect(ficha.getByRole('link', { name: 'Consumo horario' })).toBeVisible();
  await expect(ficha.getByRole('link', { name: 'Potencias máximas' })).toHaveCount(0);
  await revisarAnchos(autorizada, 'autorizaciones-suministros-autorizado');
  // The menu offers only what the authorisation grants: the supply point and its curve, never the holder's procedures.
  const menu = autorizada.getByRole('navigation', { name: 'Área privada' });
  await expect(menu.getByRole('link', { name: 'Suministros' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Consumo horario' })).toBeVisible();
  for (const ajeno of [
    'Potencias máximas',
    'Certificado de consumo',
    'Modificaciones contractuales',
    'Lecturas programadas',
    'Estado del contador',
  ]) {
    await expect(menu.getByRole('link', { name: ajeno })).toHaveCount(0);
  }
  // Typed by hand, a screen it was not granted sends it to the start with the reason.
  await autorizada.goto('/modificacionesContractuales/modificaciones-contractuales');
  await expect(autorizada).toHaveURL(/\/inicio$/);
  await expect(autorizada.getByText('Sus autorizaciones no le permiten acceder a «Modificaciones contractuales»')).toBeVisible();
  await revisarAnchos(autorizada, 'autorizaciones-inicio-autorizado');
  await autorizada.goto('/informacionContrato/detalle-informacion-contrato');
  await ficha.getByRole('link', { name: 'Consumo horario' }).click();
  await expect(autorizada.getByRole('heading', { level: 1, name: 'Consumo horario' })).toBeVisible();
  await expect(autorizada.locator('.med-grafico, figure, svg').first()).toBeVisible({ timeout: 15_000 });
  await revisarAnchos(autorizada, 'autorizaciones-curva-autorizado');
  await autorizada.goto(RUTA);
  const recibida = autorizada.locator('.aut-tarjeta', { hasText: suministro!.cups });
  await expect(recibida).toBeVisible();
  await expect(autorizada.getByRole('heading', { name: 'Autorizaciones recibidas' })).toBeVisible();
  await revisarAnchos(autorizada, 'autorizaciones-recibidas');

  // The holder revokes, after confirming; the authorised side loses the supply point at once.
  await tarjeta.getByRole('button', { name: /Revocar/ }).click();
  const dialogo = titular.getByRole('dialog', { name: 'Revocar la autorización' });
  await expect(dialogo).toBeVisible();
  await dialogo.getByRole('button', { name: 'Revocar' }).click();
  await expect(titular.getByText(`Ha revocado la autorización a ${nombre}`)).toBeVisible();
  await expect(tarjeta).toContainText('Revocada');
  await expect(tarjeta.getByRole('button', { name: /Revocar/ })).toHaveCount(0);

  // With no supply point of its own and none authorised, the consumer area is closed to it again.
  const api = await clienteApi(AUTORIZADA);
  await expect(api(`/api/suministros/${suministro!.cups}`)).rejects.toThrow(/: 403 /);
  await autorizada.goto('/informacionContrato/detalle-informacion-contrato');
  await expect(autorizada.getByText(suministro!.direccion)).toHaveCount(0);
});

test('authorising a NIF without an account says so after a confirmation', async ({ page }) => {
  test.setTimeout(120_000);
  const [suministro] = await (await clienteApi(TITULAR))<SuministroApi[]>('/api/suministros');
  await entrar(page, TITULAR, DEMO_PASSWORD, RUTA);
  // A valid CIF that no demo account holds.
  const nif = 'B99999997';
  await page.getByLabel('NIF, NIE o CIF de la persona o empresa autorizada').fill(nif);
  await page.getByLabel('Nombre o razón social').fill('Empresa sin cuenta');
  await page.getByRole('checkbox', { name: new RegExp(suministro!.cups) }).check();
  await page.getByRole('checkbox', { name: /Potencias máximas/ }).check();
  await page.getByLabel('Autorizado hasta el día (incluido)').fill(new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10));
  await page.getByRole('button', { name: 'Autorizar' }).click();
  const confirmar = page.getByRole('dialog', { name: 'Confirme la autorización' });
  // Cancelling gives nothing.
  await confirmar.getByRole('button', { name: 'Cancelar' }).click();
  await expect(confirmar).toBeHidden();
  await expect(page.locator('.aut-tarjeta', { hasText: 'Empresa sin cuenta' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Autorizar' }).click();
  await confirmar.getByRole('button', { name: 'Autorizar' }).click();
  await expect(page.getByText(`El NIF ${nif} aún no tiene cuenta en el portal`)).toBeVisible();
  // Revoked again, so the demo holder is left as it was.
  const tarjeta = page.locator('.aut-tarjeta', { hasText: 'Empresa sin cuenta' });
  await tarjeta.getByRole('button', { name: /Revocar/ }).click();
  await page.getByRole('dialog', { name: 'Revocar la autorización' }).getByRole('button', { name: 'Revocar' }).click();
  await expect(tarjeta).toContainText('Revocada');
});
