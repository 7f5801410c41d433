/**
 * The production process as an operator meets it: started with `node src/server/main.ts`, stopped
 * with SIGTERM, started on PostgreSQL. These tests need no browser.
 */
import { DEMO_ACCOUNTS } from '../../src/server/demo/accounts.ts';
import { mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import pg from 'pg';
import { startServer } from './proceso.ts';

/** A port for one test, away from the browser tests' server. */
const port = (offset: number) => String(4400 + offset + (test.info().workerIndex % 10) * 10);

/** Runs `fn` with the URL of a new, empty PostgreSQL database on the TEST_DATABASE_URL server, dropped afterwards. */
async function conBaseTemporal(admin: string, fn: (url: URL) => Promise<void>): Promise<void> {
  const name = `portal_e2e_${randomBytes(5).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`create database ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  try {
    await fn(url);
  } finally {
    await client.query(`drop database if exists ${name} with (force)`);
    await client.end();
  }
}

test('SIGTERM lets a request in flight finish, closes the database and exits 0', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-sigterm-'));
  const p = port(1);
  const proc = startServer({ PORT: p, DATA_DIR: dataDir, DEMO_DATA: '0', ADMIN_EMAIL: 'jefe@example.com', ADMIN_PASSWORD: 'Secreta123' });
  await proc.waitFor('portal disponible');

  // A request whose headers are only half sent when the signal arrives.
  const socket = connect(Number(p), '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  let response = '';
  socket.on('data', (d) => (response += d.toString()));
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.write('GET /api/health HTTP/1.1\r\nHost: localhost\r\n');

  proc.child.kill('SIGTERM');
  await proc.waitFor('deteniendo: se terminan las peticiones en curso');
  socket.write('\r\n');
  await closed;

  expect(response).toMatch(/^HTTP\/1\.1 200/);
  expect(response).toContain('{"status":"ok"}');
  expect(await proc.exited).toBe(0);
  expect(proc.lines.some((l) => l.msg === 'detenido')).toBe(true);

  // Nothing written is lost: the same data directory starts again with the administrator in it.
  const again = startServer({ PORT: p, DATA_DIR: dataDir, DEMO_DATA: '0', ADMIN_EMAIL: 'jefe@example.com', ADMIN_PASSWORD: 'Secreta123' });
  await again.waitFor('portal disponible');
  expect(again.lines.some((l) => l.msg === 'administrador inicial creado')).toBe(false);
  const health = await fetch(`http://127.0.0.1:${p}/api/health`);
  expect(health.status).toBe(200);
  again.child.kill('SIGTERM');
  expect(await again.exited).toBe(0);
});

test('refuses to start with a bad variable and says which', async () => {
  const proc = startServer({ PORT: 'no-es-un-puerto', DATA_DIR: mkdtempSync(join(tmpdir(), 'portal-bad-')) });
  let stderr = '';
  proc.child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  expect(await proc.exited).toBe(1);
  expect(stderr).toContain('PORT');
});

test('starts on PostgreSQL when DATABASE_URL is set', async () => {
  const admin = process.env.TEST_DATABASE_URL;
  // Skipped only on a developer machine without PostgreSQL: .ci/run always starts one and sets
  // TEST_DATABASE_URL, so CI runs it (0 skipped there); the PGlite start is tested above.
  test.skip(!admin, 'needs TEST_DATABASE_URL (set by .ci/run); the PGlite start is covered above');
  const p = port(2);
  await conBaseTemporal(admin!, async (url) => {
    const proc = startServer({ PORT: p, DATA_DIR: mkdtempSync(join(tmpdir(), 'portal-pg-')), DATABASE_URL: url.toString() });
    const ready = await proc.waitFor('base de datos preparada');
    expect(ready.driver).toBe('postgres');
    await proc.waitFor('portal disponible');
    const res = await fetch(`http://127.0.0.1:${p}/api/health`);
    expect(await res.json()).toEqual({ status: 'ok' });
    const d = await fetch(`http://127.0.0.1:${p}/api/distribuidoras`);
    expect(((await d.json()) as unknown[]).length).toBe(3);
    // On PostgreSQL demo data is off by default (docs/api.md).
    const users = await new pg.Client({ connectionString: url.toString() });
    await users.connect();
    const { rows } = await users.query('select count(*)::int as n from users');
    await users.end();
    expect(rows[0].n).toBe(0);
    proc.child.kill('SIGTERM');
    expect(await proc.exited).toBe(0);
  });
});

test('with WORKERS=2 on PostgreSQL prepares the database once, replaces a worker that dies, and stops every process on SIGTERM', async () => {
  const admin = process.env.TEST_DATABASE_URL;
  // Skipped only on a developer machine without PostgreSQL, like the test above; CI runs it.
  test.skip(!admin, 'needs TEST_DATABASE_URL (set by .ci/run)');
  test.setTimeout(120_000);
  const p = port(3);
  await conBaseTemporal(admin!, async (url) => {
    // Demo data on: two processes loading it at once would collide; the primary loads it before forking.
    const proc = startServer({
      PORT: p,
      DATA_DIR: mkdtempSync(join(tmpdir(), 'portal-w2-')),
      DATABASE_URL: url.toString(),
      WORKERS: '2',
      DEMO_DATA: '1',
    });
    const listo = await proc.waitFor('portal disponible');
    expect(listo.procesos).toBe(2);
    const pids = () => proc.lines.filter((l) => l.msg === 'proceso del portal escuchando').map((l) => l.pid as number);
    // Each worker's own line may reach stdout just after the primary's (which hears them over IPC).
    await expect.poll(() => new Set(pids()).size, { timeout: 10_000 }).toBe(2);
    expect(await (await fetch(`http://127.0.0.1:${p}/api/health`)).json()).toEqual({ status: 'ok' });
    const cuentas = new pg.Client({ connectionString: url.toString() });
    await cuentas.connect();
    const { rows } = await cuentas.query("select count(*)::int as n from users where email like '%@electra.example'");
    await cuentas.end();
    expect(rows[0].n).toBe(DEMO_ACCOUNTS.filter((a) => a.email.endsWith('@electra.example')).length);

    // A worker that dies is replaced; the portal keeps answering meanwhile.
    const [primero] = pids();
    process.kill(primero!, 'SIGKILL');
    await proc.waitFor('un proceso del portal terminó: se arranca otro');
    await expect.poll(() => new Set(pids()).size, { timeout: 30_000 }).toBe(3);
    expect((await fetch(`http://127.0.0.1:${p}/api/health`)).status).toBe(200);

    proc.child.kill('SIGTERM');
    expect(await proc.exited).toBe(0);
    const vivo = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    expect(pids().filter(vivo)).toEqual([]);
  });
});
