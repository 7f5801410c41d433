/**
 * The scheduled readings of some supply points as iCalendar text: what the download
 * (`/api/lecturasProgramadas.ics`) and the subscription address (suscripcion.ts) both answer.
 */
import { CONTACTOS } from '../../lib/contacto.ts';
import type { CodigoDistribuidora } from '../../lib/distribuidoras.ts';
import { calendarioLecturas } from '../../lib/lecturas/textos.ts';
import type { Db } from '../db/client.ts';
import { suministroApi } from '../suministros/acceso.ts';
import type { Suministro } from '../suministros/service.ts';
import { programasDe } from './service.ts';

/** The calendar of the readings of `lista` from `ahora` on. */
export async function calendarioDeSuministros(db: Db, lista: readonly Suministro[], ahora: Date): Promise<string> {
  const programas = await programasDe(db, [...lista], ahora);
  return calendarioLecturas(
    lista.map((s) => ({
      cups: s.cups,
      direccion: s.direccion,
      municipio: s.municipio,
      distribuidoraNombre: suministroApi(s).distribuidoraNombre,
      telefonoAtencion: CONTACTOS[s.distribuidora as CodigoDistribuidora].atencion.texto,
      lecturas: programas.get(s.id)!.lecturas,
    })),
    ahora,
  );
}
