import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

// The API suite runs on embedded PGlite always, and again on PostgreSQL when TEST_DATABASE_URL is set (CI).
// Files named `*.pg.test.ts` test what only a PostgreSQL server does (a backend ended under the
// portal): they belong to the PostgreSQL run alone, rather than showing as skipped on PGlite.
const apiOn = (name: string, driver: 'pglite' | 'postgres') => ({
  test: {
    name,
    include: ['tests/api/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...(driver === 'pglite' ? ['tests/api/**/*.pg.test.ts'] : [])],
    env: { TEST_DRIVER: driver },
    // One migrated database that every test database copies (tests/support/plantilla.ts).
    globalSetup: ['tests/support/plantilla.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: one on CI's two cores, where the API files
    // spend much of their time waiting on PostgreSQL. Two files at once took the suite from 30 to 22
    // minutes on a 2-core machine, with every test passing.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      { test: { name: 'unit', include: ['tests/unit/**/*.test.ts'] } },
      apiOn('api', 'pglite'),
      ...(process.env.TEST_DATABASE_URL ? [apiOn('api-pg', 'postgres')] : []),
    ],
  },
});
