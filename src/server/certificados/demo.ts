/**
 * Demo certificate: the household of consumidor@electra.example has one certificate of its
 * EPD supply point for the last twelve complete months, issued through `emitirCertificado`, the path
 * every certificate takes, as if asked at load time.
 */
import { eq } from 'drizzle-orm';
import { periodoPorDefecto, mesEnCurso } from '../../lib/certificados/periodo.ts';
import { construirCups } from '../../lib/cups.ts';
import type { DemoStep } from '../demo/load.ts';
import { suministros, users } from '../db/schema.ts';
import { emitirCertificado } from './service.ts';

/** The demo household's account and its EPD supply point (CUPS id 1, src/server/suministros/demo.ts). */
const CORREO = 'consumidor@electra.example';
const CUPS = construirCups('9901', 1);

/** Issues the demo household's certificate. */
export const demoCertificados: DemoStep = async (db, _random, now, contexto) => {
  const [cuenta] = await db.select({ id: users.id }).from(users).where(eq(users.email, CORREO));
  const [s] = await db.select().from(suministros).where(eq(suministros.cups, CUPS));
  if (!cuenta || !s) throw new Error(`Falta la cuenta ${CORREO} o su suministro ${CUPS} para el certificado de demostración.`);
  const { desde, hasta } = periodoPorDefecto(mesEnCurso(now));
  await emitirCertificado(
    { db, clock: { now: () => now }, config: { publicUrl: contexto.publicUrl } },
    s,
    { desdeMes: desde, hastaMes: hasta },
    { userId: cuenta.id, suplantadoPor: null },
  );
  return { certificados: 1 };
};
