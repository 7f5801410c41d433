/**
 * Vitest's global setup for the API projects: one migrated database that every test database of the
 * run starts from, because an empty PGlite (initdb inside WebAssembly) and the migrations cost
 * seconds each and the suite opens a database for every file. On PGlite the template is a dumped
 * data directory in a temporary file; on PostgreSQL it is a database used as `CREATE DATABASE …
 * TEMPLATE`. Built at the start of every run, so it always has the current migrations.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { openPglite, openPostgres } from '../../src/server/db/client.ts';
import { migrate } from '../../src/server/db/migrate.ts';
import { syncDistribuidoras } from '../../src/server/distribuidoras/service.ts';
import { ordenar } from './postgres-admin.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The dumped data directory (an uncompressed tar) every in-memory PGlite test database loads. */
    plantillaPglite: string;
    /** The migrated data directory that the command-line tests copy for their child processes. */
    plantillaPgliteCarpeta: string;
    /** The database every PostgreSQL test database copies. */
    plantillaPostgres: string;
  }
}

export default async function preparar(project: TestProject): Promise<() => Promise<void>> {
  if (project.config.env?.TEST_DRIVER === 'postgres') {
    const adminUrl = process.env.TEST_DATABASE_URL;
    if (!adminUrl) throw new Error('TEST_DRIVER=postgres necesita TEST_DATABASE_URL');
    const nombre = `portal_plantilla_${randomBytes(6).toString('hex')}`;
    await ordenar(adminUrl, `create database ${nombre}`);
    const url = new URL(adminUrl);
    url.pathname = `/${nombre}`;
    const database = await openPostgres(url.toString(), 2);
    await migrate(database);
    await syncDistribuidoras(database.db);
    await database.close();
    project.provide('plantillaPostgres', nombre);
    return () => ordenar(adminUrl, `drop database if exists ${nombre} with (force)`);
  }
  // Migrated on disk, then dumped from a plain PGlite on that directory.
  const carpeta = mkdtempSync(join(tmpdir(), 'portal-plantilla-'));
  const database = await openPglite(join(carpeta, 'datos'));
  await migrate(database);
  await syncDistribuidoras(database.db);
  await database.close();
  const cliente = await PGlite.create(join(carpeta, 'datos'));
  const volcado = await cliente.dumpDataDir('none');
  await cliente.close();
  const fichero = join(carpeta, 'plantilla.tar');
  writeFileSync(fichero, Buffer.from(await volcado.arrayBuffer()));
  project.provide('plantillaPglite', fichero);
  project.provide('plantillaPgliteCarpeta', join(carpeta, 'datos'));
  return async () => rmSync(carpeta, { recursive: true, force: true });
}
