// @ts-check
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  { ignores: ['dist/', 'node_modules/', 'data/', '.astro/', 'test-results/', 'playwright-report/', 'src/server/db/migrations/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['error', 'warn'] }],
      eqeqeq: ['error', 'always'],
    },
  },
  {
    // Shared schemas take zod with its Spanish messages installed (src/lib/validacion/z.ts).
    files: ['src/lib/**', 'src/islands/**'],
    ignores: ['src/lib/validacion/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'zod', message: "Importe z de src/lib/validacion/z.ts: lleva los mensajes en español." }] }],
    },
  },
  {
    // Scripts and tests report to the terminal.
    files: ['scripts/**', 'tests/**'],
    rules: { 'no-console': 'off' },
  },
);
