/**
 * E-mail alerts of network interruptions in the browser (docs/decisions/025-avisos-de-corte.md): the
 * demo household sees its Mérida supply point subscribed (demo data) and switches the other one on;
 * an administrator publishing an interruption that lists the Mérida supply point sees how many
 * holders will be told before saving and how many were after; the mailed stop link opens a page
 * that changes nothing until its button is pressed. Axe, CSP and the widths at each step. The
 * incident lives in a municipality named after the run and is closed at the end; the household's
 * switches are put back as the demo had them.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { E2E_PORT } from '../../playwright.config.ts';
import { CONSUMIDOR, clienteApi } from './medidas-support.ts';
import { DEMO_PASSWORD, entrar, revisarAnchos, watchCsp } from './support.ts';

/** Where the server writes its mails in the browser tests (playwright.config.ts DATA_DIR). */
const BUZON = join(tmpdir(), `portal-e2e-${E2E_PORT}`, 'outbox');
const ADMIN = 'admin@electra.example';
const INTERRUPCIONES = '/medidas/interrupciones';
const ETIQUETA = /^Avisarme por correo de los cortes que afecten a este suministro/;

interface Suministro {
  cups: string;
  direccion: string;
  municipio: string;
}

/** Decodes the quoted-printable body nodemailer writes, enough to read a link. */
function decodificarQp(texto: string): string {
  return texto.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}

/** The stop link of the mail to `destino` that names `municipio`, once the outbox worker wrote it. */
async function enlaceBaja(destino: string, municipio: string): Promise<string> {
  let enlace: string | null = null;
  await expect
    .poll(
      () => {
        if (!existsSync(BUZON)) return null;
        for (const f of readdirSync(BUZON).sort().reverse()) {
          const texto = decodificarQp(readFileSync(join(BUZON, f), 'utf8'));
          if (!new RegExp(`^To: .*${destino.replace(/[.]/g, '\\.')}`, 'mi').test(texto) || !texto.includes(municipio)) continue;
          const m = /https?:\/\/[^\s"<>]*\/avisos-corte\/baja#[0-9a-f]{32}\.[A-Za-z0-9_-]{43}/.exec(texto);
          if (m) return (enlace = m[0]);
        }
        return null;
      },
      { timeout: 20_000 },
    )
    .not.toBeNull();
  return enlace!;
}

/** The switch of one supply point's section on «Mis interrupciones». */
const interruptor = (page: Page, s: Suministro) =>
  page.getByRole('region', { name: `${s.direccion}, ${s.municipio}` }).getByRole('switch', { name: ETIQUETA });

test('a holder switches alerts on, the administrator sees whom a publication tells, and the stop link works', async ({ page, browser }) => {
  // Three people's screens, each checked with axe and photographed at two widths: about two minutes on a 2-core machine.
  test.setTimeout(240_000);
  const api = await clienteApi(CONSUMIDOR);
  const suministros = await api<Suministro[]>('/api/incidenciasRed/suministros');
  const merida = suministros.find((s) => s.municipio === 'Mérida')!;
  const otro = suministros.find((s) => s.municipio !== 'Mérida')!;
  expect(merida).toBeDefined();

  // The holder: the demo subscribed the Mérida supply point; they switch the other one on.
  await entrar(page, CONSUMIDOR, DEMO_PASSWORD, INTERRUPCIONES);
  await expect(interruptor(page, merida)).toBeChecked();
  await expect(interruptor(page, otro)).not.toBeChecked();
  await interruptor(page, otro).focus();
  await page.keyboard.press('Space');
  const seccionOtro = page.getByRole('region', { name: `${otro.direccion}, ${otro.municipio}` });
  await expect(seccionOtro.getByRole('status').filter({ hasText: /Guardado\. Le avisaremos por correo/ })).toBeVisible();
  await expect(interruptor(page, otro)).toBeChecked();
  await page.reload();
  await expect(interruptor(page, otro)).toBeChecked();
  await revisarAnchos(page, 'avisos-corte-interrupciones');

  // The administrator publishes works that list the Mérida supply point, in a municipality of this run.
  const municipio = `Prueba avisos ${Math.random().toString(36).slice(2, 7)}`;
  const admin = await (await browser.newContext()).newPage();
  await entrar(admin, ADMIN, DEMO_PASSWORD, '/administrador/incidencias');
  await admin.getByRole('button', { name: 'Nueva incidencia' }).click();
  const formulario = admin.getByRole('form', { name: 'Nueva incidencia' });
  const prevision = formulario.getByRole('status').filter({ hasText: /avisar|Avisos por correo|Ningún titular/ });
  await expect(prevision).toHaveText('Indique la distribuidora y el código INE para saber a quién se avisará por correo.');
  await formulario.getByLabel(/^Distribuidora/).selectOption('eod');
  await formulario.getByLabel(/^Estado/).selectOption('Programada');
  await formulario.getByLabel(/^Descripción/).fill('Revisión de la línea subterránea de baja tensión de la calle.');
  await formulario.getByLabel(/^Municipio/).fill(municipio);
  // An INE and postal code no supply point has: only the listed CUPS is concerned.
  await formulario.getByLabel(/^Código INE/).fill('06999');
  await formulario.getByLabel(/^Provincia/).fill('Badajoz');
  await formulario.getByLabel(/^Códigos postales/).fill('06999');
  await expect(prevision).toHaveText('Ningún titular de esta zona tiene activados los avisos por correo.');
  await formulario.getByLabel(/^CUPS afectados/).fill(merida.cups);
  await expect(prevision).toHaveText('Avisos por correo: 1 titular (1 suministro) de esta zona los tienen activados.');
  await formulario.getByLabel(/^Inicio/).fill('2030-06-04T08:30');
  await formulario.getByLabel(/^Fin previsto/).fill('2030-06-04T12:00');
  await revisarAnchos(admin, 'avisos-corte-formulario');
  await formulario.getByRole('button', { name: 'Crear incidencia' }).click();
  await expect(admin.getByText(`Incidencia de ${municipio} creada. Se ha avisado por correo a 1 titular (1 suministro).`)).toBeVisible();

  // The mail's stop link: opening it changes nothing.
  const enlace = await enlaceBaja(CONSUMIDOR, municipio);
  const publica = await (await browser.newContext()).newPage();
  const violaciones = await watchCsp(publica);
  await publica.goto(enlace.replace(/^https?:\/\/[^/]+/, ''));
  await expect(publica.getByRole('heading', { level: 1, name: 'Dejar de recibir avisos de cortes' })).toBeVisible();
  const boton = publica.getByRole('button', { name: 'Dejar de recibir estos avisos' });
  await expect(boton).toBeVisible();
  expect(await api<{ cups: string[] }>('/api/avisosCorte/suscripciones')).toEqual({ cups: [merida.cups, otro.cups].sort() });
  await revisarAnchos(publica, 'avisos-corte-baja-pregunta');
  await boton.click();
  const hecho = publica.getByText('Hecho. Ya no recibirá avisos por correo de los cortes de su suministro de Mérida.');
  await expect(hecho).toBeVisible();
  await revisarAnchos(publica, 'avisos-corte-baja-hecha');
  expect(await api<{ cups: string[] }>('/api/avisosCorte/suscripciones')).toEqual({ cups: [otro.cups] });
  // The same link again: already stopped.
  await publica.reload();
  await publica.getByRole('button', { name: 'Dejar de recibir estos avisos' }).click();
  await expect(publica.getByText('Estos avisos ya estaban desactivados:')).toBeVisible();
  // A link cut short is said to be so.
  await publica.goto('/avisos-corte/baja#0123456789abcdef0123456789abcdef.x');
  await publica.getByRole('button', { name: 'Dejar de recibir estos avisos' }).click();
  await expect(publica.getByText('No reconocemos este enlace.')).toBeVisible();
  await revisarAnchos(publica, 'avisos-corte-baja-desconocido');
  expect(await violaciones()).toEqual([]);

  // Back on the holder's screen the Mérida switch is off; the demo's state is put back.
  await page.reload();
  await expect(interruptor(page, merida)).not.toBeChecked();
  await interruptor(page, merida).check();
  await expect(interruptor(page, merida)).toBeChecked();
  await interruptor(page, otro).uncheck();
  await expect(seccionOtro.getByRole('status').filter({ hasText: 'Ya no le avisaremos' })).toBeVisible();

  // The administrator closes the incident (works called off): the confirmation says whom it told.
  await admin.getByRole('button', { name: `Cerrar la incidencia de ${municipio}` }).click();
  const cierre = admin.getByRole('dialog', { name: 'Cerrar la incidencia' });
  // Works that have not begun are called off: no end time is asked, the dialog says so.
  await expect(cierre).toContainText('Los trabajos programados no han empezado');
  await expect(cierre.getByLabel('Fin de la incidencia')).toHaveCount(0);
  await cierre.getByRole('button', { name: 'Cerrar incidencia' }).click();
  await expect(
    admin.getByText(new RegExp(`La incidencia de ${municipio} está cerrada\\..*Se ha avisado por correo a 1 titular`)),
  ).toBeVisible();
  expect(await enlaceBaja(CONSUMIDOR, `Anulado el corte de luz programado en ${municipio}`)).toMatch(/\/avisos-corte\/baja#/);
});
