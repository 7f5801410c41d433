/**
 * The layering rules of eslint.config.js (docs/architecture.md, «Layers»), run on small texts as if
 * they were files of the repository: a feature reaching another's routes.ts or admin.ts from any
 * depth, src/lib reaching src/islands or src/server, are refused; what the layers allow is not.
 */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

/** The no-restricted-imports messages for `codigo` linted as the file `ruta`. */
async function refusados(ruta: string, codigo: string): Promise<number> {
  const [r] = await eslint.lintText(codigo, { filePath: ruta });
  return r!.messages.filter((m) => m.ruleId === 'no-restricted-imports').length;
}

describe('capas', () => {
  it('una funcionalidad no importa routes.ts ni admin.ts de otra, desde ninguna profundidad', async () => {
    expect(await refusados('src/server/medidas/x.ts', "export { a } from '../atr/routes.ts';\n")).toBe(1);
    expect(await refusados('src/server/medidas/formatos/x.ts', "export { a } from '../../atr/routes.ts';\n")).toBe(1);
    expect(await refusados('src/server/medidas/formatos/x.ts', "export { a } from '../../atr/admin';\n")).toBe(1);
    expect(await refusados('src/server/medidas/formatos/x.ts', "export { a } from '../../../server/atr/admin.ts';\n")).toBe(1);
    // Its own routes from a subfolder, its own services, and the app mounting every feature are allowed.
    expect(await refusados('src/server/medidas/formatos/x.ts', "export { a } from '../routes.ts';\n")).toBe(0);
    expect(await refusados('src/server/medidas/x.ts', "export { a } from '../atr/service.ts';\n")).toBe(0);
    expect(await refusados('src/server/app.ts', "export { a } from './atr/routes.ts';\n")).toBe(0);
  });

  it('src/lib no importa src/islands ni src/server', async () => {
    expect(await refusados('src/lib/x.ts', "export { a } from '../islands/privado/AppPrivada.tsx';\n")).toBe(1);
    expect(await refusados('src/lib/validacion/x.ts', "export { a } from '../../islands/x.tsx';\n")).toBe(1);
    expect(await refusados('src/lib/x/y.ts', "export { a } from '../../server/atr/service.ts';\n")).toBe(1);
    expect(await refusados('src/islands/x.tsx', "export { a } from './privado/AppPrivada.tsx';\n")).toBe(0);
  });
});
