/**
 * Demo contractual modifications, made through the service the API uses, on dates in the
 * past: the household of consumidor@electra.example has a power change activated eight months ago
 * at EOD (from 4,6 to 5,75 kW, the power its contract shows) and one accepted change in progress at
 * EPD; generated homes of cliente001…009 have requests in every state for the administration list.
 * cliente010…024 are left alone: the browser tests that change data use them. No mail is sent.
 */
import { eq, inArray } from 'drizzle-orm';
import { construirCups } from '../../lib/cups.ts';
import { fechaLocalDe } from '../../lib/calendario/hora-civil.ts';
import { letraDni } from '../../lib/nif.ts';
import { POTENCIAS_MONOFASICAS_W } from '../../lib/modificaciones/potencias.ts';
import { todosLosPermisos } from '../../lib/permisos.ts';
import type { Db } from '../db/client.ts';
import { suministros, users } from '../db/schema.ts';
import type { DemoStep } from '../demo/load.ts';
import { ApiError } from '../http/errors.ts';
import type { AuthContext } from '../http/context.ts';
import { guardarSuministros, type Lector, type Suministro } from '../suministros/service.ts';
import { correoClienteDemo } from '../usuarios/demo.ts';
import type { SolicitudEntrada } from '../../lib/modificaciones/esquemas.ts';
import type { Actor, DepsModificaciones } from './comun.ts';
import { aceptarSolicitud, activarSolicitud, rechazarSolicitud } from './gestion.ts';
import { anularSolicitud, crearSolicitud } from './service.ts';

const DIA = 24 * 60 * 60 * 1000;
const INFO = { ip: null, requestId: null };

/** Generated accounts whose homes get demo requests (010–024 are reserved for browser tests). */
const CLIENTES = 9;

/** One step of a demo request's life after it was sent. */
type Paso = { accion: 'aceptar' } | { accion: 'rechazar'; codigo: string } | { accion: 'activar' } | { accion: 'anular' };

/** A holder of the demo: account, reader and supply point. */
interface Titular {
  actor: Actor;
  lector: Lector;
  suministro: Suministro;
  nombre: string;
  apellido1: string;
  apellido2: string;
  razonSocial: string;
}

/** The next normalised single-phase power above the first period's. */
function subida(s: Suministro): number {
  return POTENCIAS_MONOFASICAS_W.find((p) => p > s.potenciasW[0]!) ?? s.potenciasW[0]!;
}

export const demoModificaciones: DemoStep = async (db, _random, now) => {
  const hace = (dias: number) => new Date(now.getTime() - dias * DIA);
  const deps = (dbx: Db, momento: Date): DepsModificaciones => ({ db: dbx, clock: { now: () => momento }, publicUrl: null });
  const [admin] = await db
    .select({ id: users.id, email: users.email, nif: users.nif })
    .from(users)
    .where(eq(users.email, 'admin@electra.example'));
  if (!admin) throw new Error('Falta la cuenta admin@electra.example para los datos de demostración de modificaciones.');
  const gestor: AuthContext = {
    userId: admin.id,
    email: admin.email,
    nif: admin.nif,
    permisos: todosLosPermisos(),
    impersonatorUserId: null,
    sesionId: null,
  };

  /** Sends a request `dias` days ago and takes its later steps one day apart, all in `dbx`. */
  async function solicitud(dbx: Db, t: Titular, entrada: SolicitudEntrada, dias: number, pasos: Paso[]): Promise<void> {
    const creada = await crearSolicitud(deps(dbx, hace(dias)), t.actor, t.lector, entrada, INFO);
    for (const [i, paso] of pasos.entries()) {
      const d = deps(dbx, hace(dias - i - 1));
      if (paso.accion === 'aceptar') await aceptarSolicitud(d, gestor, creada.numero, INFO);
      if (paso.accion === 'rechazar') await rechazarSolicitud(d, gestor, creada.numero, paso.codigo, INFO);
      if (paso.accion === 'activar') await activarSolicitud(d, gestor, creada.numero, fechaLocalDe(d.clock.now()), INFO);
      if (paso.accion === 'anular') await anularSolicitud(d, t.actor, t.lector, creada.numero, INFO);
    }
  }

  // The household: EOD had 4,6 kW until a change eight months ago brought the 5,75 kW it has now.
  const hogar = await titulares(db, ['consumidor@electra.example']);
  const eod = hogar.find((t) => t.suministro.cups === construirCups('9902', 1));
  const epd = hogar.find((t) => t.suministro.cups === construirCups('9901', 1));
  if (!eod || !epd) throw new Error('Faltan los suministros del hogar de demostración.');
  const { id: _id, createdAt: _c, updatedAt: _u, ...antes } = eod.suministro;
  await guardarSuministros(db, [{ ...antes, potenciasW: [4600, 4600] }]);
  eod.suministro = { ...eod.suministro, potenciasW: [4600, 4600] };
  await solicitud(db, eod, { cups: eod.suministro.cups, tipo: 'potencia', potenciasKw: [5.75, 5.75] }, 245, [
    { accion: 'aceptar' },
    { accion: 'activar' },
  ]);
  await solicitud(db, epd, { cups: epd.suministro.cups, tipo: 'potencia', potenciasKw: [5.75, 5.75] }, 3, [{ accion: 'aceptar' }]);
  let total = 2;

  // Generated homes: one request in each state and kind for the administration list.
  const potencia = (t: Titular): SolicitudEntrada => ({
    cups: t.suministro.cups,
    tipo: 'potencia',
    potenciasKw: Array(2).fill(subida(t.suministro) / 1000),
  });
  const correccion = (t: Titular): SolicitudEntrada | null =>
    t.razonSocial
      ? null
      : { cups: t.suministro.cups, tipo: 'titular', modo: 'correccion', nif: '', nombre: `${t.nombre} ${t.apellido1} ${t.apellido2}` };
  const cambio =
    (n: number, nombre: string) =>
    (t: Titular): SolicitudEntrada => {
      const numero = `00${String(990_000 + n).padStart(6, '0')}`;
      return { cups: t.suministro.cups, tipo: 'titular', modo: 'cambio', nif: `${numero}${letraDni(Number(numero))}`, nombre };
    };
  const escenarios: { entrada: (t: Titular) => SolicitudEntrada | null; dias: number; pasos: Paso[] }[] = [
    { entrada: potencia, dias: 2, pasos: [] },
    { entrada: correccion, dias: 1, pasos: [] },
    { entrada: cambio(1, 'Marta Sanz Ibáñez'), dias: 4, pasos: [] },
    { entrada: potencia, dias: 9, pasos: [{ accion: 'aceptar' }] },
    { entrada: potencia, dias: 20, pasos: [{ accion: 'rechazar', codigo: '53' }] },
    { entrada: cambio(2, 'Alberto Ruiz Prieto'), dias: 30, pasos: [{ accion: 'rechazar', codigo: '99' }] },
    { entrada: potencia, dias: 60, pasos: [{ accion: 'aceptar' }, { accion: 'activar' }] },
    { entrada: correccion, dias: 40, pasos: [{ accion: 'aceptar' }, { accion: 'activar' }] },
    { entrada: potencia, dias: 15, pasos: [{ accion: 'anular' }] },
  ];
  const libres = await titulares(
    db,
    Array.from({ length: CLIENTES }, (_, i) => correoClienteDemo(i + 1)),
  );
  for (const e of escenarios) {
    // The first home left that takes this request (one whose data another demo changed may not), in
    // a savepoint of its own so that a refused request leaves nothing behind.
    for (const [i, t] of libres.entries()) {
      const entrada = e.entrada(t);
      if (!entrada) continue;
      try {
        await db.transaction((tx) => solicitud(tx, t, entrada, e.dias, e.pasos));
      } catch (err) {
        if (err instanceof ApiError) continue;
        throw err;
      }
      libres.splice(i, 1);
      total++;
      break;
    }
  }
  return { solicitudesModificacion: total };
};

/** The demo holders of these accounts, one per supply point they hold. */
async function titulares(db: Db, emails: string[]): Promise<Titular[]> {
  const cuentas = await db.select().from(users).where(inArray(users.email, emails));
  cuentas.sort((a, b) => a.email.localeCompare(b.email));
  const out: Titular[] = [];
  for (const u of cuentas) {
    if (!u.nif) continue;
    const puntos = await db.select().from(suministros).where(eq(suministros.titularNif, u.nif)).orderBy(suministros.cups);
    for (const s of puntos) {
      out.push({
        actor: { userId: u.id, impersonatorUserId: null },
        lector: { nif: u.nif, distribuidoras: [...new Set(puntos.map((p) => p.distribuidora))] },
        suministro: s,
        nombre: u.nombre,
        apellido1: u.apellido1,
        apellido2: u.apellido2,
        razonSocial: u.razonSocial,
      });
    }
  }
  return out;
}
