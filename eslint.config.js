// @ts-check
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';
import stylistic from '@stylistic/eslint-plugin';
import astro from 'eslint-plugin-astro';

/** The server layer, which src/lib and src/islands never import. */
const SIN_SERVIDOR = {
  group: ['**/server/**'],
  message: 'src/lib y src/islands no importan src/server: ponga lo compartido en src/lib/<funcionalidad>/.',
};
/** The React screens, which plain shared code never imports. */
const SIN_ISLAS = {
  group: ['**/islands/**'],
  message: 'src/lib no importa src/islands: lo que una pantalla y otra comparten va en src/lib/<funcionalidad>/.',
};
/** zod with its Spanish messages installed. */
const ZOD_EN_ESPANOL = { name: 'zod', message: 'Importe z de src/lib/validacion/z.ts: lleva los mensajes en español.' };

export default defineConfig(
  { ignores: ['dist/', 'node_modules/', 'data/', '.astro/', 'test-results/', 'playwright-report/', 'src/server/db/migrations/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  // Astro components: their frontmatter and scripts are linted like any TypeScript (eslint-plugin-astro's parser).
  ...astro.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs,astro}'],
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
    // server; they share answer schemas through src/lib/<feature>/respuestas.ts. The shared layer never
    // imports the screens either. Shared schemas take zod with its Spanish messages installed
    // (src/lib/validacion/z.ts). One block per set of files: a later block's options replace an earlier one's.
    files: ['src/islands/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [ZOD_EN_ESPANOL], patterns: [SIN_SERVIDOR] }] },
  },
  {
    files: ['src/lib/**'],
    ignores: ['src/lib/validacion/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [ZOD_EN_ESPANOL], patterns: [SIN_SERVIDOR, SIN_ISLAS] }] },
  },
  {
    files: ['src/lib/validacion/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [SIN_SERVIDOR, SIN_ISLAS] }] },
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
              // Any path that climbs out of the importing folder, from any depth (`../x/routes.ts`,
              // `../../x/routes.ts`), with or without the extension; a feature's own subfolder may
              // still reach its `../routes.ts`, and src/server/app.ts mounts them all with `./x/routes.ts`.
              group: ['../**/routes', '../**/routes.ts', '../**/admin', '../**/admin.ts', '!../routes.ts', '!../admin.ts'],
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
