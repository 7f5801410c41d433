/**
 * Demo supply points and their measures (docs/api.md demo accounts): two years of hourly data for the
 * household of consumidor@electra.example (one supply with solar surplus), a year of quarter-hourly
 * data for the two supplies of empresa@electra.example, and three months for each generated client
 * that has a home. The curves come from the seeded generator (demo-perfiles.ts) and go through
 * `importarMedidas`, the path every real file takes.
 */
import { sumarDias } from '../../lib/calendario/fechas.ts';
import { fechaLocalDe } from '../../lib/calendario/hora-civil.ts';
import type { DemoStep } from '../demo/load.ts';
import { suministrosDemo } from '../suministros/demo.ts';
import { generarSerieDemo } from './demo-perfiles.ts';
import { importarMedidas } from './importar.ts';

/** Generated clients (cliente001…) that get a home with measures. */
export const CLIENTES_CON_SUMINISTRO = 24;

/** Loads the demo supply points and their measures; fails loudly if the generator produces a faulty record. */
export const demoMedidas: DemoStep = async (db, random, now) => {
  const puntos = await suministrosDemo(db, random, CLIENTES_CON_SUMINISTRO, now);
  const hasta = sumarDias(fechaLocalDe(now), -1);
  let medidas = 0;
  for (const [i, p] of puntos.entries()) {
    const nif = p.suministro.titularNif;
    const propio = nif === '12345678Z' || nif === 'B00004010';
    const quince = p.suministro.resolucionMinutos === 15;
    const dias = propio ? (quince ? 365 : 730) : 91;
    const registros = [
      ...generarSerieDemo({
        cups: p.suministro.cups,
        perfil: p.perfil,
        desde: sumarDias(hasta, -dias + 1),
        hasta,
        semilla: 7_000 + i,
        minutos: quince ? 15 : 60,
      }),
    ];
    const r = await importarMedidas(db, registros);
    if (!r.ok) throw new Error(`Medidas de demostración no válidas para ${p.suministro.cups}: ${r.errores[0]?.motivo ?? ''}`);
    medidas += registros.length;
  }
  return { suministros: puntos.length, medidas };
};
