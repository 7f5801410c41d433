/**
 * The account journey against the real portal and a real SMTP server (smtp-server) started by the
 * test: register through the form, read the activation mail, activate, log in, reload and stay
 * logged in, log out; recover the password through the mailed link; the failure modals the server
 * can cause; returnUrl. And a fault found in testing: the SMTP server is down while a user registers and
 * comes back later; the registration succeeds at once and the mail arrives afterwards.
 *
 * Each worker starts its own portal (own port, own DATA_DIR) whose SMTP_URL points at the test's
 * SMTP server, so mails can be read as a user would read them.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test as base, type Page } from '@playwright/test';
import { SMTPServer } from 'smtp-server';
import { letraDni } from '../../src/lib/nif.ts';

/** Texts of docs/producto.md §8, written out again so a typo in the code fails here. */
const T = {
  cuentaCreadaTexto: 'Recibirá en su correo las instrucciones para la activación.Será redireccionado al inicio en breves momentos',
  loginFallido: 'Usuario o contraseña incorrecta',
  activacionFallida: 'No hemos podido validar su cuenta.Por favor, intentelo de nuevo, o pongase en contacto con nosotros.',
  peticionOkTexto: 'Le hemos enviado un correo electrónico con las instrucciones para recuperar su contraseña. Por favor, revíselo.',
  claveCambiadaTexto: 'Su contraseña ha sido actualizada. Recibirá un correo con la confirmación correspondiente.',
  claveNoCambiadaTexto: 'No hemos podido actualizar su contraseña, por favor, inténtelo de nuevo o mas tarde.',
};

// ---------------------------------------------------------------------------------------------
// A real SMTP server that keeps what it receives.

/** One received mail. */
interface Correo {
  /** Envelope recipients, lower case. */
  para: string[];
  /** The raw message, quoted-printable decoded (soft line breaks joined, =XX turned into bytes). */
  texto: string;
}

/** Undoes quoted-printable: soft line breaks (`=` at the end of a line) and `=XX` escapes such as =3D. */
function decodificarQp(crudo: string): string {
  const bytes = crudo.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** The SMTP server of a test and the mails it received. */
class Buzon {
  readonly correos: Correo[] = [];
  private esperas: { cumple: (c: Correo) => boolean; resolver: (c: Correo) => void }[] = [];
  private servidor: SMTPServer | null = null;
  /** The port it listens on, fixed before it starts so a portal can be pointed at it while it is down. */
  readonly puerto: number;

  constructor(puerto: number) {
    this.puerto = puerto;
  }

  /** Starts listening on the port. */
  async abrir(): Promise<void> {
    const servidor = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData: (stream, session, callback) => {
        const trozos: Buffer[] = [];
        stream.on('data', (b: Buffer) => trozos.push(b));
        stream.on('end', () => {
          const correo: Correo = {
            para: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            texto: decodificarQp(Buffer.concat(trozos).toString('latin1')),
          };
          this.correos.push(correo);
          for (const e of this.esperas.filter((e) => e.cumple(correo))) e.resolver(correo);
          this.esperas = this.esperas.filter((e) => !e.cumple(correo));
          callback();
        });
      },
    });
    await new Promise<void>((ok, ko) => {
      servidor.once('error', ko);
      servidor.listen(this.puerto, '127.0.0.1', () => ok());
    });
    this.servidor = servidor;
  }

  /** Stops listening. */
  async cerrar(): Promise<void> {
    const s = this.servidor;
    this.servidor = null;
    if (s) await new Promise<void>((ok) => s.close(() => ok()));
  }

  /** The first mail to `para` whose text matches, already received or the next one; an event, not a sleep. */
  esperar(para: string, patron: RegExp, timeoutMs = 30_000): Promise<Correo> {
    const cumple = (c: Correo) => c.para.includes(para.toLowerCase()) && patron.test(c.texto);
    const visto = this.correos.find(cumple);
    if (visto) return Promise.resolve(visto);
    return new Promise<Correo>((ok, ko) => {
      const reloj = setTimeout(() => ko(new Error(`No ha llegado a ${para} ningún correo que contenga ${patron}`)), timeoutMs);
      this.esperas.push({
        cumple,
        resolver: (c) => {
          clearTimeout(reloj);
          ok(c);
        },
      });
    });
  }
}

// ---------------------------------------------------------------------------------------------
// The portal, as an operator starts it.

/** A free TCP port on loopback (asked of the kernel, then released). */
async function puertoLibre(): Promise<number> {
  const s = createServer();
  await new Promise<void>((ok) => s.listen(0, '127.0.0.1', () => ok()));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((ok) => s.close(() => ok()));
  return port;
}

/** A running portal. */
interface Portal {
  /** Its origin, also its PUBLIC_URL. */
  url: string;
  /** Stops it with SIGTERM and waits for the exit. */
  parar(): Promise<void>;
}

/** Starts `node src/server/main.ts` on its own port and data directory, mailing through `smtpPuerto`. */
async function arrancarPortal(smtpPuerto: number): Promise<Portal> {
  const puerto = await puertoLibre();
  const url = `http://127.0.0.1:${puerto}`;
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, ['src/server/main.ts'], {
    env: {
      ...process.env,
      PORT: String(puerto),
      HOST: '127.0.0.1',
      SFTP_PORT: '0',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'portal-sesion-e2e-')),
      DATABASE_URL: '',
      DEMO_DATA: '1',
      SMTP_URL: `smtp://127.0.0.1:${smtpPuerto}`,
      PUBLIC_URL: url,
      LOG_LEVEL: 'info',
      DIST_DIR: process.env.DIST_DIR ?? 'dist',
    },
  });
  const salida = new Promise<number | null>((ok) => child.on('exit', (code) => ok(code)));
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  await new Promise<void>((ok, ko) => {
    let buffer = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const linea = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        try {
          if ((JSON.parse(linea) as { msg?: string }).msg === 'portal disponible') ok();
        } catch {
          // not a log line
        }
      }
    });
    void salida.then((code) => ko(new Error(`El portal terminó al arrancar (código ${code}): ${stderr.slice(-2000)}`)));
  });
  return {
    url,
    parar: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await salida;
    },
  };
}

/** Each worker's portal and mailbox, shared by its tests (each test makes its own accounts). */
const test = base.extend<{ portal: Portal; buzon: Buzon }, { entorno: { portal: Portal; buzon: Buzon } }>({
  entorno: [
    // Playwright reads a fixture's dependencies from the destructuring pattern: this one has none.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const buzon = new Buzon(await puertoLibre());
      await buzon.abrir();
      const portal = await arrancarPortal(buzon.puerto);
      await use({ portal, buzon });
      await portal.parar();
      await buzon.cerrar();
    },
    { scope: 'worker', timeout: 180_000 },
  ],
  portal: async ({ entorno }, use) => use(entorno.portal),
  buzon: async ({ entorno }, use) => use(entorno.buzon),
});

test.setTimeout(120_000);

// ---------------------------------------------------------------------------------------------
// Helpers of the journeys.

let serie = 0;
/** An unused e-mail address and a valid DNI for this test. */
function nuevaPersona(): { correo: string; nif: string } {
  const n = (Date.now() % 90_000_000) + 10_000_000 + ++serie * 7919 + process.pid;
  const numero = n % 100_000_000;
  return { correo: `persona.${numero}.${serie}@example.com`, nif: `${String(numero).padStart(8, '0')}${letraDni(numero)}` };
}

/** The link of a mail to a session page of this portal. */
function enlace(correo: Correo, portal: Portal, pagina: 'activar-usuario' | 'nueva-clave'): string {
  const m = new RegExp(`${portal.url.replace(/[.:/]/g, '\\$&')}/sesion/${pagina}/[A-Za-z0-9_-]+`).exec(correo.texto);
  if (!m) throw new Error(`El correo no lleva el enlace de ${pagina}: ${correo.texto.slice(0, 2000)}`);
  return m[0];
}

/** Opens a page of the portal and waits until its islands hydrated. */
async function abrir(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
}

async function esperarModal(page: Page, titulo: string, texto: string): Promise<void> {
  const d = page.getByRole('dialog');
  await expect(d).toHaveAccessibleName(titulo);
  await expect(d).toHaveAccessibleDescription(texto);
}

async function registrarPorFormulario(page: Page, portal: Portal, p: { correo: string; nif: string }, password: string): Promise<void> {
  await abrir(page, `${portal.url}/sesion/crear-cuenta`);
  await page.getByLabel('NIF/CIF').fill(p.nif);
  await page.getByLabel('Nombre', { exact: true }).fill('Lucía');
  await page.getByLabel('Primer apellido').fill('Martín');
  await page.getByLabel('Segundo apellido').fill('Peña');
  await page.getByLabel('Correo electrónico').fill(p.correo);
  await page.getByLabel('Contraseña', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Crear cuenta' }).click();
}

async function entrar(page: Page, portal: Portal, usuario: string, password: string, query = ''): Promise<void> {
  await abrir(page, `${portal.url}/sesion/login${query}`);
  await page.getByLabel('Correo electrónico o usuario').fill(usuario);
  await page.getByLabel('Contraseña', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Acceder' }).click();
}

/** An active account made through the API and the mailed link, for tests about what comes after. */
async function cuentaActiva(page: Page, portal: Portal, buzon: Buzon, password: string): Promise<{ correo: string; nif: string }> {
  const p = nuevaPersona();
  const alta = await page.request.post(`${portal.url}/api/altaUsuario`, {
    data: {
      nif: p.nif,
      razonSocial: '',
      nombre: 'Pedro',
      apellido1: 'Sanz',
      apellido2: 'Ruiz',
      password,
      correoElectronico: p.correo,
      host: `${portal.url}/sesion`,
    },
  });
  expect(alta.status()).toBe(200);
  const id = enlace(await buzon.esperar(p.correo, /activar-usuario/), portal, 'activar-usuario')
    .split('/')
    .pop();
  expect((await page.request.post(`${portal.url}/api/activarUsuario`, { data: { id } })).status()).toBe(200);
  return p;
}

const DEMO = { usuario: 'consumidor@electra.example', password: 'Demo1234' };

// ---------------------------------------------------------------------------------------------

test('registro, correo de activación, activación, acceso, recarga con la sesión y cierre de sesión', async ({
  page,
  context,
  portal,
  buzon,
}) => {
  await page.clock.install();
  const persona = nuevaPersona();

  // Register through the form.
  await registrarPorFormulario(page, portal, persona, 'Segura123');
  await esperarModal(page, 'Cuenta creada', T.cuentaCreadaTexto);
  await page.screenshot({ path: '/tmp/sesion-capturas/real-cuenta-creada.png' });
  expect(new URL(page.url()).pathname).toBe('/sesion/crear-cuenta');
  await page.clock.runFor(7_000);
  await page.waitForURL(`${portal.url}/sesion/login`);

  // The activation mail, read from the SMTP server, links to this portal's PUBLIC_URL.
  const primero = await buzon.esperar(persona.correo, /activar-usuario/);

  // Not yet active: a wrong password reads as any other; the right one says the account awaits
  // activation and offers the mail again, which replaces the first link.
  await entrar(page, portal, persona.correo, 'Otra12345');
  await esperarModal(page, 'Error', T.loginFallido);
  await page.getByRole('dialog').getByRole('button', { name: 'Cerrar' }).click();
  await entrar(page, portal, persona.correo, 'Segura123');
  const pendiente = page.getByRole('dialog');
  await expect(pendiente).toHaveAccessibleName('Cuenta pendiente de activación');
  await expect(pendiente).toContainText('Su cuenta todavía no está activada');
  await pendiente.getByRole('button', { name: 'Reenviar el correo de activación' }).click();
  await expect(page.getByRole('dialog')).toHaveAccessibleName('Correo de activación enviado');
  await expect
    .poll(() => buzon.correos.filter((c) => c.para.includes(persona.correo.toLowerCase()) && /activar-usuario/.test(c.texto)).length)
    .toBe(2);
  const correo = buzon.correos.filter((c) => c.para.includes(persona.correo.toLowerCase()) && /activar-usuario/.test(c.texto)).at(-1)!;
  const activacion = enlace(correo, portal, 'activar-usuario');
  expect(activacion).not.toBe(enlace(primero, portal, 'activar-usuario'));
  await page.getByRole('dialog').getByRole('button', { name: 'Cerrar' }).click();

  // Open the link.
  await abrir(page, activacion);
  await expect(page.getByRole('heading', { level: 1, name: 'Confirmando su dirección' })).toBeVisible();
  await expect(page.getByText('Su cuenta se ha activado correctamente.')).toBeVisible();
  await expect(page.getByText(/redireccionado a la página de acceso en 5 segundos/)).toBeVisible();
  await page.clock.runFor(5_000);
  await page.waitForURL(`${portal.url}/sesion/login`);

  // Log in (the NIF works as the user too, in lower case) and reach the private area.
  await page.getByLabel('Correo electrónico o usuario').fill(persona.nif.toLowerCase());
  await page.getByLabel('Contraseña', { exact: true }).fill('Segura123');
  await page.getByRole('button', { name: 'Acceder' }).click();
  await page.waitForURL(`${portal.url}/inicio`);
  const nav = page.getByRole('navigation', { name: 'Principal' });
  await expect(nav.getByRole('link', { name: 'Mi área' })).toHaveAttribute('href', '/inicio');
  await expect(nav.getByRole('button', { name: 'Cerrar sesión' })).toBeVisible();
  // The access token never reaches Web Storage.
  expect(await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }))).not.toMatch(/eyJ/);

  // Reload, then open the login: the startup refresh restores the session and sends the user on to /inicio.
  await page.reload();
  await abrir(page, `${portal.url}/sesion/login`);
  await page.waitForURL(`${portal.url}/inicio`);

  // A new tab restores it too, and both tabs keep it (neither logs the other out).
  const otra = await context.newPage();
  await otra.goto(`${portal.url}/sesion/crear-cuenta`);
  await otra.waitForURL(`${portal.url}/accesoyconexion/listado-de-solicitudes`);
  await abrir(page, `${portal.url}/sesion/recordar-clave`);
  await page.waitForURL(`${portal.url}/accesoyconexion/listado-de-solicitudes`);
  await otra.close();

  // Log out from the header: back on / with the anonymous header.
  await page.getByRole('navigation', { name: 'Principal' }).getByRole('button', { name: 'Cerrar sesión' }).click();
  await page.clock.runFor(100);
  await page.waitForURL(`${portal.url}/`);
  await expect(nav.getByRole('link', { name: 'Área privada' })).toHaveAttribute('href', '/sesion/login');
  await expect(nav.getByRole('button', { name: 'Cerrar sesión' })).toBeHidden();

  // The refresh cookie was revoked, and the logged-in hint went with it: the login page tries no
  // refresh and stays.
  const refrescos: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/api/users/refresh-token')) refrescos.push(r.url());
  });
  await abrir(page, `${portal.url}/sesion/login`);
  await expect(page.getByRole('heading', { level: 1, name: 'Acceso' })).toBeVisible();
  expect(new URL(page.url()).pathname).toBe('/sesion/login');
  expect(refrescos).toEqual([]);
  expect((await page.request.post(`${portal.url}/api/users/refresh-token`)).status()).toBe(401);
});

test('recuperación: petición, correo, los tres avisos de validación, cambio y acceso con la contraseña nueva', async ({
  page,
  portal,
  buzon,
}) => {
  const persona = await cuentaActiva(page, portal, buzon, 'Antigua123');

  await abrir(page, `${portal.url}/sesion/recordar-clave`);
  await page.getByLabel('Correo electrónico').fill(persona.correo.toUpperCase());
  await page.getByLabel('NIF/CIF').fill(persona.nif.toLowerCase());
  await page.getByRole('button', { name: 'Enviar' }).click();
  await esperarModal(page, 'Petición procesada correctamente', T.peticionOkTexto);

  const reset = enlace(await buzon.esperar(persona.correo, /nueva-clave/), portal, 'nueva-clave');
  await abrir(page, reset);
  await expect(page.getByRole('heading', { level: 1, name: 'Nueva contraseña' })).toBeVisible();
  const nueva = page.getByLabel('Nueva contraseña', { exact: true });
  const repetida = page.getByLabel('Repita la nueva contraseña');
  const cambiar = page.getByRole('button', { name: 'Cambiar la contraseña' });
  const cerrar = page.getByRole('dialog').getByRole('button', { name: 'Cerrar' });

  await nueva.fill('Nueva1234');
  await cambiar.click();
  await esperarModal(page, 'Campos vacíos', 'Por favor, rellene los campos vacíos y vuelva a intentarlo.');
  await cerrar.click();
  await repetida.fill('Nueva12345');
  await cambiar.click();
  await esperarModal(page, 'Contraseña erronea', 'Las contraseñas no coinciden, compruebe ambos campos y vuelva a intentarlo.');
  await cerrar.click();
  await nueva.fill('nueva');
  await repetida.fill('nueva');
  await cambiar.click();
  await esperarModal(
    page,
    'Los campos no cumplen los requisitos',
    'Por favor, compruebe que las contraseñas cumplen con el patrón determinado.',
  );
  await cerrar.click();

  await nueva.fill('Nueva1234');
  await repetida.fill('Nueva1234');
  await cambiar.click();
  await esperarModal(page, 'Contraseña cambiada', T.claveCambiadaTexto);
  await buzon.esperar(persona.correo, /contrase/i);

  // The link is single use.
  await page.getByRole('dialog').press('Escape');
  await nueva.fill('Otra12345');
  await repetida.fill('Otra12345');
  await cambiar.click();
  await esperarModal(page, 'Error al cambiar contraseña', T.claveNoCambiadaTexto);
  await cerrar.click();

  // The old password no longer works; the new one does.
  await entrar(page, portal, persona.correo, 'Antigua123');
  await esperarModal(page, 'Error', T.loginFallido);
  await entrar(page, portal, persona.correo, 'Nueva1234');
  await page.waitForURL(`${portal.url}/inicio`);
});

test('la contraseña cambiada ofrece ir a Acceso', async ({ page, portal, buzon }) => {
  const persona = await cuentaActiva(page, portal, buzon, 'Antigua123');
  const r = await page.request.post(`${portal.url}/api/recuperarClave`, {
    data: { nif: persona.nif, correoElectronico: persona.correo, host: `${portal.url}/sesion` },
  });
  expect(r.status()).toBe(200);
  await abrir(page, enlace(await buzon.esperar(persona.correo, /nueva-clave/), portal, 'nueva-clave'));
  await page.getByLabel('Nueva contraseña', { exact: true }).fill('Nueva1234');
  await page.getByLabel('Repita la nueva contraseña').fill('Nueva1234');
  await page.getByRole('button', { name: 'Cambiar la contraseña' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Ir a Acceso' }).click();
  await page.waitForURL(`${portal.url}/sesion/login`);
});

test('un acceso con la contraseña equivocada abre el modal Error', async ({ page, portal }) => {
  await entrar(page, portal, DEMO.usuario, 'Equivocada1');
  await esperarModal(page, 'Error', T.loginFallido);
  expect(new URL(page.url()).pathname).toBe('/sesion/login');
});

test('un enlace de activación desconocido abre el modal Error', async ({ page, portal }) => {
  await abrir(page, `${portal.url}/sesion/activar-usuario/no-existe-este-enlace`);
  await esperarModal(page, 'Error', T.activacionFallida);
});

test('un correo ya registrado abre el modal Error con el texto del servidor', async ({ page, portal }) => {
  const p = nuevaPersona();
  await registrarPorFormulario(page, portal, { ...p, correo: DEMO.usuario }, 'Segura123');
  const d = page.getByRole('dialog');
  await expect(d).toHaveAccessibleName('Error');
  const texto = (await d.locator('.modal__cuerpo').textContent())?.trim() ?? '';
  expect(texto.length).toBeGreaterThan(0);
  expect(texto).not.toBe('Conflict');
});

test('returnUrl de este sitio se respeta y uno externo se ignora', async ({ page, portal }) => {
  await entrar(page, portal, DEMO.usuario, DEMO.password, `?returnUrl=${encodeURIComponent('/medidas/curvas')}`);
  await page.waitForURL(`${portal.url}/medidas/curvas`);
  await page.getByRole('navigation', { name: 'Principal' }).getByRole('button', { name: 'Cerrar sesión' }).click();
  await page.waitForURL(`${portal.url}/`);
  await entrar(page, portal, DEMO.usuario, DEMO.password, `?returnUrl=${encodeURIComponent('https://malo.example/robar')}`);
  await page.waitForURL(`${portal.url}/inicio`);
});

test('con el SMTP caído el alta se confirma al momento y el correo llega cuando vuelve', async ({ page }) => {
  // A portal of its own, whose SMTP server is not listening yet.
  const buzon = new Buzon(await puertoLibre());
  const portal = await arrancarPortal(buzon.puerto);
  try {
    const persona = nuevaPersona();
    await registrarPorFormulario(page, portal, persona, 'Segura123');
    await esperarModal(page, 'Cuenta creada', T.cuentaCreadaTexto);
    expect(buzon.correos).toEqual([]);

    // The SMTP server comes back on the same port: the outbox worker's next retry delivers the mail.
    await buzon.abrir();
    const correo = await buzon.esperar(persona.correo, /activar-usuario/, 90_000);
    await abrir(page, enlace(correo, portal, 'activar-usuario'));
    await expect(page.getByText('Su cuenta se ha activado correctamente.')).toBeVisible();
  } finally {
    await portal.parar();
    await buzon.cerrar();
  }
});
