import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';

/** Port of the server the browser tests start (the site must be built first: scripts/test.ts does it once). */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 4399);
const dataDir = join(tmpdir(), `portal-e2e-${E2E_PORT}`);

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  workers: 2,
  forbidOnly: !!process.env.CI,
  retries: 0,
  // Many tests walk a whole task with axe and screenshots at three widths: 20–30 s on a quiet 2-core
  // machine with two workers, so 30 s timed out on a loaded one. A hung test still fails in a minute.
  timeout: 60_000,
  // The private area renders once the session is refreshed and the screen's first data has come: at
  // the start of a run, while the server still loads its demo jobs, that took more than 5 s.
  expect: { timeout: 10_000 },
  reporter: [
    ['list'],
    ['html', { open: 'never', outputFolder: 'playwright-report' }],
    ['json', { outputFile: 'test-results/playwright.json' }],
  ],
  outputDir: 'test-results/e2e',
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    locale: 'es-ES',
    timezoneId: 'Europe/Madrid',
    // Recording a trace of every test only to throw it away when it passes cost a fifth of the suite's
    // time on a 2-core machine (sesion-pantallas: 3.0 → 2.5 min). PW_TRACE=1 records them to debug; a
    // failure always leaves its screenshot and error context.
    trace: process.env.PW_TRACE ? 'retain-on-failure' : 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      // Debian's Chromium: npm cannot download browsers on these machines.
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        // Spanish UI: date and month inputs show dd/mm/aaaa as a Spanish user's browser would.
        '--lang=es-ES',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    // process.execPath: the Node 24 running Playwright, not whichever `node` is on PATH.
    command: `rm -rf ${dataDir} && "${process.execPath}" src/server/main.ts`,
    url: `http://127.0.0.1:${E2E_PORT}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(E2E_PORT),
      // The file exchange's SFTP server, on a port of its own per run (runs with another E2E_PORT may share the machine).
      SFTP_PORT: String(E2E_PORT + 20000),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      DEMO_DATA: '1',
      DIST_DIR: process.env.DIST_DIR ?? 'dist',
      DATABASE_URL: '',
    },
  },
});
