// @ts-check
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';
import stylistic from '@stylistic/eslint-plugin';

export default defineConfig(
  { ignores: ['dist/', 'node_modules/', 'data/', '.astro/', 'test-results/', 'playwright-report/', 'src/server/db/migrations/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
    plugins: { '@stylistic': stylistic },
    rules: {
      // Prettier (npm run format) wraps code at 140; what it cannot wrap (comments, long messages) is kept
      // under 140 by hand. A Spanish sentence in one string stays whole, so it can be searched for.
      '@stylistic/max-len': [
        'error',
        { code: 140, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true, ignoreUrls: true },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['error', 'warn'] }],
      eqeqeq: ['error', 'always'],
    },
  },
  {
    // Layers point one way (docs/architecture.md): the shared layer and the screens never import the
    // server; they share answer schemas through src/lib/<feature>/respuestas.ts.
    files: ['src/lib/**', 'src/islands/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/server/**'],
              message: 'src/lib y src/islands no importan src/server: ponga lo compartido en src/lib/<funcionalidad>/.',
            },
          ],
        },
      ],
    },
  },
  {
    // Shared schemas take zod with its Spanish messages installed (src/lib/validacion/z.ts).
    files: ['src/lib/**', 'src/islands/**'],
    ignores: ['src/lib/validacion/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'zod', message: 'Importe z de src/lib/validacion/z.ts: lleva los mensajes en español.' }],
          patterns: [
            {
              group: ['**/server/**'],
              message: 'src/lib y src/islands no importan src/server: ponga lo compartido en src/lib/<funcionalidad>/.',
            },
          ],
        },
      ],
    },
  },
  {
    // A feature never imports another feature's routes: shared request helpers live in
    // src/server/http/, supply-point access in src/server/suministros/acceso.ts.
    files: ['src/server/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../*/routes.ts', '../*/admin.ts'],
              message: 'No importe las rutas de otra funcionalidad: lo compartido va a src/server/http/ o a un módulo de servicio.',
            },
          ],
        },
      ],
    },
  },
  {
    // Scripts and tests report to the terminal.
    files: ['scripts/**', 'tests/**'],
    rules: { 'no-console': 'off' },
  },
);
