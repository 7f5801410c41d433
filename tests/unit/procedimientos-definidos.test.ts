/**
 * Every procedure declared on the case core (docs/decisions/051 to 053) is a consistent definition:
 * its transitions go between its own steps, every action a side takes has a transition and a name,
 * every step has a name, a final step is nobody's turn and no action leaves it, and an open step
 * that an action leads to is someone's turn, so that no case is left waiting for no one.
 */
import { describe, expect, it } from 'vitest';
import { ACCESO } from '../../src/lib/accesoyconexion/procedimiento.ts';
import { ATR } from '../../src/lib/atr/estados.ts';
import { CONSULTA, RECLAMACION } from '../../src/lib/contacto/procedimientos.ts';
import type { DefinicionProcedimiento } from '../../src/lib/expedientes/procedimiento.ts';
import { MODIFICACION } from '../../src/lib/modificaciones/estados.ts';

const DEFINICIONES: [string, DefinicionProcedimiento<string, string>][] = [
  ['acceso', ACCESO],
  ['consulta', CONSULTA],
  ['reclamacion', RECLAMACION],
  ['modificacion', MODIFICACION],
  ['atr', ATR],
];

describe.each(DEFINICIONES)('la definición de %s', (_nombre, def) => {
  const pasos = new Set(def.pasos);
  const acciones = Object.keys(def.transiciones);

  it('va de sus pasos a sus pasos, y cada paso tiene nombre', () => {
    for (const a of acciones) {
      const t = def.transiciones[a]!;
      expect(pasos.has(t.hacia), `${a} → ${t.hacia}`).toBe(true);
      for (const d of t.desde) expect(pasos.has(d), `${d} → ${a}`).toBe(true);
    }
    for (const p of def.pasos) expect(def.nombrePaso[p], p).toBeTruthy();
    for (const f of def.finales) expect(pasos.has(f), f).toBe(true);
  });

  it('cada acción de un lado tiene su transición y su nombre', () => {
    for (const a of [...def.accionesSolicitante, ...def.accionesDistribuidora]) {
      expect(def.transiciones[a], a).toBeDefined();
      expect(def.nombreAccion[a], a).toBeTruthy();
    }
  });

  it('un paso final no es turno de nadie ni sale de él ninguna acción; uno abierto al que se llega es turno de alguien', () => {
    for (const f of def.finales) {
      expect(def.turno[f], f).toBeUndefined();
      for (const a of acciones) expect(def.transiciones[a]!.desde, `${a} desde ${f}`).not.toContain(f);
    }
    for (const a of acciones) {
      const hacia = def.transiciones[a]!.hacia;
      if (!def.finales.includes(hacia)) expect(def.turno[hacia], `${a} → ${hacia}`).toBeDefined();
    }
  });
});
