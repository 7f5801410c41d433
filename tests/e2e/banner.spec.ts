/**
 * The home page's interruption banner in each of its states, driven through the database: each test
 * writes its incidents into a fresh embedded database, starts the real portal on it and reads the
 * banner as a visitor sees it.
 */
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { openPglite } from '../../src/server/db/client.ts';
import { migrate } from '../../src/server/db/migrate.ts';
import { incidenciasRed } from '../../src/server/db/schema.ts';
import { syncDistribuidoras } from '../../src/server/distribuidoras/service.ts';
import { startServer, type Proc } from './proceso.ts';

type Estado = 'Programada' | 'En curso' | 'Activa' | 'Cerrada';

// Starting a database and a server per state is slow on a loaded 2-core machine.
test.describe.configure({ timeout: 120_000 });

/** A migrated, empty data directory, made once and copied by each test (creating one takes seconds). */
let template = '';
test.beforeAll(async () => {
  template = mkdtempSync(join(tmpdir(), 'portal-banner-plantilla-'));
  const database = await openPglite(join(template, 'pglite'));
  await migrate(database);
  await syncDistribuidoras(database.db);
  await database.close();
});

/** A data directory whose database holds exactly these incidents. */
async function dataDirWith(estados: Estado[]): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'portal-banner-'));
  cpSync(template, dir, { recursive: true });
  const database = await openPglite(join(dir, 'pglite'));
  const now = Date.now();
  if (estados.length) {
    await database.db.insert(incidenciasRed).values(
      estados.map((estado, i) => ({
        distribuidora: 'epd',
        estado,
        descripcion: `Incidencia de prueba ${i + 1}`,
        municipio: 'Getafe',
        codigoIne: '28065',
        provincia: 'Madrid',
        inicio: new Date(now + (estado === 'Programada' ? 1 : -1) * 3_600_000 * (i + 1)),
        fin: estado === 'Cerrada' ? new Date(now - 60_000) : null,
      })),
    );
  }
  await database.close();
  return dir;
}

let proc: Proc | undefined;
let port = 0;
test.afterEach(async () => {
  await proc?.stop();
  proc = undefined;
});

async function serve(estados: Estado[]) {
  port = 4470 + test.info().workerIndex * 3 + (test.info().retry % 3);
  proc = startServer({ PORT: String(port), DATA_DIR: await dataDirWith(estados), DEMO_DATA: '0', LOG_LEVEL: 'info' });
  await proc.waitFor('portal disponible');
  return `http://127.0.0.1:${port}/`;
}

// One case per colour, with closed incidents that must not count; every wording is unit-tested in
// tests/unit/incidencias-banner.test.ts.
const CASOS: { estados: Estado[]; texto: string; nivel: 'azul' | 'amarillo' | 'rojo' }[] = [
  { estados: ['Cerrada'], texto: 'Actualmente no existen interrupciones programadas o activas', nivel: 'azul' },
  { estados: ['Programada', 'Programada', 'Programada'], texto: 'Existen 3 interrupciones programadas', nivel: 'amarillo' },
  {
    estados: ['Programada', 'Programada', 'En curso', 'Activa', 'Activa', 'Cerrada'],
    texto: 'Existen 2 programadas y 3 activas',
    nivel: 'rojo',
  },
];

for (const caso of CASOS) {
  test(`banner con [${caso.estados.join(', ') || 'ninguna'}]: «${caso.texto}», ${caso.nivel}`, async ({ page }) => {
    await page.goto(await serve(caso.estados));
    const banner = page.locator('.banner-incidencias');
    await expect(banner.getByRole('status')).toContainText(caso.texto);
    await expect(banner).toHaveAttribute('data-nivel', caso.nivel);
    await expect(banner.getByRole('link', { name: /Ver detalle/ })).toHaveAttribute('href', '/incidencias-red');
  });
}

test('mientras consulta y si la consulta falla, lo dice sin mover la página', async ({ page }) => {
  const base = '/';
  let release: () => void = () => undefined;
  const held = new Promise<void>((r) => (release = r));
  await page.route('**/api/incidenciasRed', async (route) => {
    await held;
    await route.abort('failed');
  });
  await page.goto(base);
  const banner = page.locator('.banner-incidencias');
  await expect(banner.getByRole('status')).toHaveText('Consultando el estado de la red…');
  const before = await banner.boundingBox();
  const nextTop = await page.locator('.aviso').boundingBox();
  release();
  await expect(banner.getByRole('status')).toHaveText('No se ha podido consultar el estado de la red. Inténtelo más tarde.');
  expect((await banner.boundingBox())?.height).toBe(before?.height);
  expect((await page.locator('.aviso').boundingBox())?.y).toBe(nextTop?.y);
});
