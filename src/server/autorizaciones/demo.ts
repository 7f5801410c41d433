/**
 * Demo authorisation (docs/decisions/028-autorizaciones.md): the demo household,
 * consumidor@electra.example, authorises the demo company, empresa@electra.example (CIF B00004010),
 * to read its Alcalá de Henares supply point for one year. Given through `crearAutorizacion`, the
 * code the private screen uses; no mail goes out for demo data.
 */
import { DATOS_AUTORIZACION } from '../../lib/autorizaciones.ts';
import { sumarDias } from '../../lib/calendario/fechas.ts';
import type { DemoStep } from '../demo/load.ts';
import { lectorDeCuenta, suministrosDe } from '../suministros/service.ts';
import { findAccountForLogin, nombreVisible } from '../usuarios/service.ts';
import { crearAutorizacion } from './service.ts';
import { hoyEnEspana } from './vigencia.ts';

const HOGAR = 'consumidor@electra.example';
const EMPRESA = 'empresa@electra.example';

export const demoAutorizaciones: DemoStep = async (db, _random, now, contexto) => {
  const [hogar, empresa] = await Promise.all([findAccountForLogin(db, HOGAR), findAccountForLogin(db, EMPRESA)]);
  if (!hogar || !empresa?.nif) return { autorizaciones: 0 };
  const lector = lectorDeCuenta(hogar);
  const alcala = (await suministrosDe(db, lector)).find((s) => s.municipio === 'Alcalá de Henares');
  if (!alcala) return { autorizaciones: 0 };
  await crearAutorizacion(
    { db, clock: { now: () => now }, config: contexto },
    { userId: hogar.id, lector, nombre: nombreVisible(hogar), email: hogar.email, impersonatorUserId: null, ip: null, requestId: null },
    {
      nif: empresa.nif,
      nombre: nombreVisible(empresa),
      cups: [alcala.cups],
      datos: [...DATOS_AUTORIZACION],
      fin: sumarDias(hoyEnEspana(now), 365),
    },
    { correo: false },
  );
  return { autorizaciones: 1 };
};
