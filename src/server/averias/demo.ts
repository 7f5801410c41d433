/**
 * Demo fault reports at EPD, registered through `registrarAviso` (the code the public form uses):
 * two homes of the same postal code (so the staff queue at /administrador/averias shows a group of
 * two) and one elsewhere, a little while before the loading moment.
 */
import { and, asc, eq, isNull, ne, or } from 'drizzle-orm';
import { estadosContador, suministros } from '../db/schema.ts';
import type { DemoStep } from '../demo/load.ts';
import { registrarAviso } from './service.ts';

const MINUTO = 60_000;

export const demoAverias: DemoStep = async (db, _random, now) => {
  const lista = await db
    .select()
    .from(suministros)
    .where(and(eq(suministros.distribuidora, 'epd'), isNull(suministros.fechaBaja)))
    .orderBy(asc(suministros.id));
  // Meters whose state explains a lack of power (a tripped or opened switch, a cut, a known fault):
  // the public form would have answered that and registered nothing, so they get no report.
  const explicados = await db
    .select({ id: estadosContador.suministroId })
    .from(estadosContador)
    .where(
      or(
        eq(estadosContador.interruptor, 'abierto_exceso'),
        eq(estadosContador.interruptor, 'abierto_remoto'),
        ne(estadosContador.estadoSuministro, 'con_suministro'),
      ),
    );
  const conEstado = new Set(explicados.map((e) => e.id));
  // Generated homes only (ids 100…): the named demo accounts keep their own story.
  const hogares = lista.filter((s) => Number(s.cups.slice(6, 18)) >= 100 && !conEstado.has(s.id));
  const porCp = new Map<string, typeof hogares>();
  for (const s of hogares) porCp.set(s.codigoPostal, [...(porCp.get(s.codigoPostal) ?? []), s]);
  const par = [...porCp.values()].find((g) => g.length >= 2);
  const elegidos = [...(par?.slice(0, 2) ?? hogares.slice(0, 2))];
  const otro = hogares.find((s) => !elegidos.includes(s) && s.codigoPostal !== elegidos[0]?.codigoPostal);
  if (otro) elegidos.push(otro);
  let n = 0;
  for (const [i, s] of elegidos.entries()) {
    await registrarAviso(db, new Date(now.getTime() - (40 - i * 15) * MINUTO), s, i === 0 ? { telefono: '600000001' } : {}, {
      origen: 'publico',
      userId: null,
    });
    n++;
  }
  return { averias: n };
};
