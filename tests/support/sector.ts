/** Files of `../shared/fixtures/`: sector files the project reads where they are and must not copy (see their README). */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The path of a sector fixture: next to the repository, or where the workplace keeps it; throws naming both when absent. */
export function fixtureDelSector(relativa: string): string {
  const lugares = [join(ROOT, '..', 'shared', 'fixtures', relativa), join('/work/shared/fixtures', relativa)];
  const hallado = lugares.find((p) => existsSync(p));
  if (!hallado) throw new Error(`No encuentro el fichero del sector ${relativa}; lo he buscado en ${lugares.join(' y ')}.`);
  return hallado;
}
