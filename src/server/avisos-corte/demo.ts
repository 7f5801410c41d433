/**
 * Demo alerts (docs/decisions/025-avisos-de-corte.md): the demo household, consumidor@electra.example,
 * has asked to be told of the interruptions of its Mérida supply point, where the demo incidents
 * schedule works for tomorrow. Turned on through `cambiarSuscripcion`, the code the private screen
 * uses; no mail goes out, since the demo incidents are written before and publish nothing.
 */
import type { DemoStep } from '../demo/load.ts';
import { lectorDeCuenta, suministrosDe } from '../suministros/service.ts';
import { findAccountForLogin } from '../usuarios/service.ts';
import { cambiarSuscripcion } from './service.ts';

/** The demo household's login. */
const HOGAR = 'consumidor@electra.example';

export const demoAvisosCorte: DemoStep = async (db, _random, now) => {
  const cuenta = await findAccountForLogin(db, HOGAR);
  if (!cuenta) return { avisosCorte: 0 };
  const merida = (await suministrosDe(db, lectorDeCuenta(cuenta))).find((s) => s.municipio === 'Mérida');
  if (!merida) return { avisosCorte: 0 };
  await cambiarSuscripcion(db, now, null, { userId: cuenta.id }, merida, true);
  return { avisosCorte: 1 };
};
