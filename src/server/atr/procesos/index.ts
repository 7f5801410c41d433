/** Every ATR process's own module (see `modulo.ts`): one per process of `PROCESOS_ATR`, or `tsc` fails. */
import type { ProcesoAtr } from '../../../lib/atr/procesos.ts';
import { a3 } from './a3.ts';
import { b1 } from './b1.ts';
import { c1 } from './c1.ts';
import { c2 } from './c2.ts';
import { m1 } from './m1.ts';
import type { ModuloProceso } from './modulo.ts';

export const MODULO: { readonly [P in ProcesoAtr]: ModuloProceso } = { C1: c1, C2: c2, A3: a3, M1: m1, B1: b1 };
