/**
 * The background ATR reader (src/server/atr/trabajo.ts, docs/decisions/020) runs in every process
 * without a request: the modules it loads at run time stay free of accounts and passwords
 * (src/server/auth/, src/server/usuarios/service.ts), which it never uses. Type-only imports are
 * erased and do not count.
 */
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/** The repository's modules a module loads at run time, followed from `inicio` through relative imports. */
function cargados(inicio: string): string[] {
  const vistos = new Set<string>();
  const pendientes = [resolve(inicio)];
  const importacion = /^\s*(?:import|export)\s+(?!type\b)([^;]*?)\s*from\s+'(\.[^']+)'|^\s*import\s+'(\.[^']+)'/gm;
  while (pendientes.length) {
    const fichero = pendientes.pop()!;
    if (vistos.has(fichero) || !/\.tsx?$/.test(fichero)) continue;
    vistos.add(fichero);
    for (const m of readFileSync(fichero, 'utf8').matchAll(importacion)) {
      const nombres = /^\{([^}]*)\}$/.exec((m[1] ?? '').trim());
      const soloTipos = nombres && nombres[1]!.split(',').every((n) => !n.trim() || n.trim().startsWith('type '));
      if (!soloTipos) pendientes.push(resolve(dirname(fichero), (m[2] ?? m[3])!));
    }
  }
  return [...vistos].map((f) => relative(process.cwd(), f));
}

describe('dependencias del lector ATR', () => {
  it('no carga las cuentas ni las contraseñas', () => {
    const modulos = cargados('src/server/atr/trabajo.ts');
    expect(modulos).toContain('src/server/atr/lector.ts');
    expect(modulos).toContain('src/server/suministros/contrato.ts');
    expect(modulos.filter((m) => m.startsWith('src/server/auth/') || m === 'src/server/usuarios/service.ts')).toEqual([]);
  });
});
