/** Hooks that prepare something once for a block of tests, and let its tests read it. */
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';

/** An object that reads through to what `actual()` answers, once there is something. */
function leyendo<T extends object>(actual: () => T | undefined): T {
  return new Proxy({} as T, {
    get(_destino, clave) {
      const hecho = actual();
      if (!hecho) throw new Error('Todavía no está preparado: léalo dentro de un test o de un gancho.');
      return Reflect.get(hecho, clave) as unknown;
    },
  });
}

/**
 * What `preparar` answers, made once before the first test of the enclosing block (or file) and,
 * given `cerrar`, undone after its last. The object answered reads through to it, so a block names
 * what its tests share in one place, without a `let` for each part.
 */
export function unaVez<T extends object>(preparar: () => Promise<T>, cerrar?: (hecho: T) => Promise<void>, tiempoMs?: number): T {
  let hecho: T | undefined;
  beforeAll(async () => {
    hecho = await preparar();
  }, tiempoMs);
  if (cerrar) {
    afterAll(async () => {
      if (hecho) await cerrar(hecho);
    });
  }
  return leyendo(() => hecho);
}

/** Like `unaVez`, but made anew before each test of the enclosing block (or file) and undone after it. */
export function enCadaTest<T extends object>(preparar: () => Promise<T>, cerrar: (hecho: T) => Promise<void>): T {
  let hecho: T | undefined;
  beforeEach(async () => {
    hecho = await preparar();
  });
  afterEach(async () => {
    if (hecho) await cerrar(hecho);
    hecho = undefined;
  });
  return leyendo(() => hecho);
}
