import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.ts';

const tmp = () => mkdtempSync(join(tmpdir(), 'cfg-'));

describe('configuration from the environment (docs/api.md)', () => {
  it('has the contract defaults', () => {
    const dir = tmp();
    const c = loadConfig({ DATA_DIR: dir });
    expect(c).toMatchObject({
      port: 4321,
      host: '127.0.0.1',
      dataDir: dir,
      databaseUrl: null,
      smtpUrl: null,
      publicUrl: 'http://localhost:4321',
      adminEmail: null,
      demoData: true,
      logLevel: 'info',
    });
    expect(c.mailFrom).toContain('no-responder@localhost');
  });

  it('loads demo data by default only on the embedded database', () => {
    expect(loadConfig({ DATA_DIR: tmp() }).demoData).toBe(true);
    expect(loadConfig({ DATA_DIR: tmp(), DATABASE_URL: 'postgres://u@h/db' }).demoData).toBe(false);
    expect(loadConfig({ DATA_DIR: tmp(), DATABASE_URL: 'postgres://u@h/db', DEMO_DATA: '1' }).demoData).toBe(true);
    expect(loadConfig({ DATA_DIR: tmp(), DEMO_DATA: '0' }).demoData).toBe(false);
  });

  it('derives PUBLIC_URL from PORT and keeps only the origin of a given one', () => {
    expect(loadConfig({ DATA_DIR: tmp(), PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
    expect(loadConfig({ DATA_DIR: tmp(), PUBLIC_URL: 'https://portal.example/ruta/' }).publicUrl).toBe('https://portal.example');
  });

  it('generates the JWT secret once and keeps it in DATA_DIR', () => {
    const dir = tmp();
    const first = loadConfig({ DATA_DIR: dir }).jwtSecret;
    const second = loadConfig({ DATA_DIR: dir }).jwtSecret;
    expect(first.length).toBe(32);
    expect(Buffer.from(second).equals(Buffer.from(first))).toBe(true);
    expect(readFileSync(join(dir, 'jwt-secret'), 'utf8').length).toBeGreaterThan(40);
  });

  it('uses JWT_SECRET when given', () => {
    const c = loadConfig({ DATA_DIR: tmp(), JWT_SECRET: 'a'.repeat(40) });
    expect(new TextDecoder().decode(c.jwtSecret)).toBe('a'.repeat(40));
  });

  it('explains bad values in Spanish, naming the variable', () => {
    expect(() => loadConfig({ DATA_DIR: tmp(), PORT: 'abc' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATA_DIR: tmp(), DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL debe empezar por postgres/);
    expect(() => loadConfig({ DATA_DIR: tmp(), JWT_SECRET: 'corto' })).toThrow(/al menos 32/);
    expect(() => loadConfig({ DATA_DIR: tmp(), SMTP_URL: 'http://x' })).toThrow(/SMTP_URL/);
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ DATA_DIR: tmp(), DATABASE_URL: '', PORT: '' }).databaseUrl).toBeNull();
  });

  it('runs one server process unless WORKERS asks for more, and more only on PostgreSQL', () => {
    const pg = { DATA_DIR: '/tmp/x', JWT_SECRET: 'x'.repeat(32), DATABASE_URL: 'postgres://u@h/db' };
    expect(loadConfig({ DATA_DIR: '/tmp/x', JWT_SECRET: 'x'.repeat(32) }).workers).toBe(1);
    expect(loadConfig({ ...pg, WORKERS: '2' }).workers).toBe(2);
    expect(loadConfig({ ...pg, WORKERS: 'auto' }).workers).toBe(availableParallelism());
    expect(() => loadConfig({ DATA_DIR: '/tmp/x', JWT_SECRET: 'x'.repeat(32), WORKERS: '2' })).toThrow(
      /WORKERS: varios procesos necesitan DATABASE_URL/,
    );
    expect(() => loadConfig({ ...pg, WORKERS: '0' })).toThrow(/WORKERS/);
    expect(() => loadConfig({ ...pg, WORKERS: 'muchos' })).toThrow(/WORKERS/);
  });

  it('takes a read replica only beside a PostgreSQL primary', () => {
    const base = { DATA_DIR: '/tmp/x', JWT_SECRET: 'x'.repeat(32) };
    expect(loadConfig({ ...base, DATABASE_URL: 'postgres://u@h/db' }).databaseReadUrl).toBeNull();
    expect(loadConfig({ ...base, DATABASE_URL: 'postgres://u@h/db', DATABASE_READ_URL: 'postgres://u@r/db' }).databaseReadUrl).toBe(
      'postgres://u@r/db',
    );
    expect(() => loadConfig({ ...base, DATABASE_READ_URL: 'postgres://u@r/db' })).toThrow(
      /DATABASE_READ_URL: una réplica de lectura necesita DATABASE_URL/,
    );
    expect(() => loadConfig({ ...base, DATABASE_URL: 'postgres://u@h/db', DATABASE_READ_URL: 'mysql://r' })).toThrow(/DATABASE_READ_URL/);
  });
});
