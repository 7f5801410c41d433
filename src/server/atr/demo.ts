/**
 * The demo supply company's ATR requests (docs/decisions/020), made the way real ones are: step 01
 * XML files (and one anulación, and one file that is no message) dropped into its entrada folders
 * at EPD and EOD, then read and answered by the same reader the portal runs. Each process appears:
 * switches accepted and refused, a change of contract and an end of supply of points it supplies,
 * a new supply refused because the contract is in force, one request anulled, one cut for
 * non-payment. Then the staff's steps, through the same service their screen calls: one switch
 * activated (05), one with an incidence (03), one rejected after the field work (04), the cut
 * carried out (the point is then suspended); the change of contract waits in the queue.
 * And one claim for a customer (R1 01), which becomes a claim case in the contact queue, and a
 * customer's self-reading (W1 01) accepted as the point's reading, with one refused; and the
 * distributor's notice that a meter it supplies stopped communicating (D1 01), which it accepts.
 */
import { and, asc, desc, eq, ne, sql } from 'drizzle-orm';
import { PROCESO, type ProcesoAtr } from '../../lib/atr/procesos.ts';
import { DISTRIBUIDORAS } from '../../lib/distribuidoras.ts';
import { fechaLocalDe } from '../../lib/calendario/hora-civil.ts';
import { createLogger } from '../logger.ts';
import type { Db } from '../db/client.ts';
import { estadosContador, expedientes, lecturasContador, notificacionesD1, suministros, users } from '../db/schema.ts';
import { sumarDias } from '../../lib/calendario/fechas.ts';
import { tipoDHDe, type AportacionW1 } from '../../lib/lecturas/w1.ts';
import { importarEstadosContador, zonaDe } from '../lecturas/service.ts';
import type { FilaContador } from '../lecturas/csv.ts';
import type { DemoStep } from '../demo/load.ts';
import { guardar, Recepcion, type CuentaIntercambio } from '../intercambio/almacen.ts';
import { SISTEMA } from '../expedientes/service.ts';
import { pasoDelPersonal } from './gestion.ts';
import type { AccionGestionAtr } from './procedimiento.ts';
import { leerEntradas } from './lector.ts';
import { codigoSolicitudR1, mensajeR101 } from '../contacto/r1.ts';
import { xmlAceptacionD1, xmlAnulacion, xmlAportacionLectura, xmlSolicitud, type DatosSolicitud } from './solicitudes.ts';

const EMPRESA = 'comercializadora@electra.example';

async function dejar(db: Db, cuenta: CuentaIntercambio, ruta: string, contenido: string, ahora: Date) {
  const r = await Recepcion.abrir();
  try {
    await r.escribir(0, Buffer.from(contenido));
    await guardar(db, cuenta, ruta, await r.terminar(), ahora);
  } finally {
    await r.descartar();
  }
}

type Punto = typeof suministros.$inferSelect;

/**
 * The self-reading a customer would take yesterday (or today): its last reading's registers, each grown at the
 * daily rate between its last two readings (the point's own consumption); null when it has fewer.
 */
async function autolecturaDemo(db: Db, p: Punto, now: Date): Promise<AportacionW1 | null> {
  const zona = zonaDe(p);
  const [ultima, anterior] = (
    await db
      .select({ momento: lecturasContador.momento, activaKwh: lecturasContador.activaKwh })
      .from(lecturasContador)
      .where(eq(lecturasContador.suministroId, p.id))
      .orderBy(desc(lecturasContador.momento))
      .limit(2)
  ).map((l) => ({ fecha: fechaLocalDe(l.momento, zona), activaKwh: l.activaKwh }));
  // Yesterday; today when the latest reading was yesterday's; none when it is today's (W1 refuses 79).
  const hoy = fechaLocalDe(now, zona);
  if (!ultima || !anterior || hoy <= ultima.fecha) return null;
  const fecha = sumarDias(hoy, -1) > ultima.fecha ? sumarDias(hoy, -1) : hoy;
  const dias = (Date.parse(fecha) - Date.parse(ultima.fecha)) / 86_400_000;
  const entre = (Date.parse(ultima.fecha) - Date.parse(anterior.fecha)) / 86_400_000;
  return {
    fecha,
    tipoDH: tipoDHDe(p.tarifa),
    lecturas: ultima.activaKwh.map((kwh, i) => ({
      integrador: 'AE',
      periodo: `A${i + 1}`,
      valor: kwh + Math.max(0, Math.round(((kwh - (anterior.activaKwh[i] ?? kwh)) / entre) * dias)),
    })),
  };
}

export const demoAtr: DemoStep = async (db, _random, now) => {
  const [empresa] = await db.select({ id: users.id, ree: users.codigoRee }).from(users).where(eq(users.email, EMPRESA));
  if (!empresa?.ree) return { solicitudesAtr: 0 };
  const fecha = now.toISOString().slice(0, 19);
  let n = 0;
  for (const d of DISTRIBUIDORAS.filter((x) => x.codigo !== 'ecd')) {
    const cuenta: CuentaIntercambio = { id: empresa.id, distribuidoras: [d.codigo] };
    const puntos = (propios: boolean, cuantos: number) =>
      db
        .select()
        .from(suministros)
        .where(
          and(
            eq(suministros.distribuidora, d.codigo),
            sql`${suministros.fechaBaja} is null`,
            propios ? eq(suministros.comercializadoraCodigo, empresa.ree!) : ne(suministros.comercializadoraCodigo, empresa.ree!),
            // Changes of contract on telemanaged meters; the visited meter the company supplies gets its customer's self-reading (W1).
            eq(suministros.telegestionado, true),
          ),
        )
        .orderBy(asc(suministros.cups))
        .limit(cuantos);
    const ajenos = await puntos(false, 5);
    const propios = await puntos(true, 3);
    // The company's header of a message about `cups`: a new request code unless it answers one (D1 02).
    const cabecera = (cups: string, codigoSolicitud = `${now.getUTCFullYear()}${String(++n).padStart(8, '0')}`) => ({
      emisora: empresa.ree!,
      destino: d.codigoREE,
      codigoSolicitud,
      fecha,
      cups,
    });
    const titular = (p: Punto): DatosSolicitud['titular'] => ({ nif: p.titularNif, nombre: p.titularNombre, apellido1: '.' });
    const solicitud = async (proceso: ProcesoAtr, p: Punto | undefined, datos: Partial<DatosSolicitud> = {}, anular = false) => {
      if (!p) return;
      const c = cabecera(p.cups);
      const codigo = c.codigoSolicitud;
      const xml = xmlSolicitud(proceso, c, { activacion: 'A', titular: titular(p), ...datos });
      await dejar(db, cuenta, `/${d.codigo}/entrada/${proceso}01_${codigo}.xml`, xml, now);
      if (anular) {
        // Read first, so the anulación finds the request accepted.
        await leerEntradas({ db, clock: { now: () => now }, logger: createLogger('silent') });
        await dejar(
          db,
          cuenta,
          `/${d.codigo}/entrada/${proceso}${PROCESO[proceso].anulacion.paso}_${codigo}.xml`,
          xmlAnulacion(proceso, c),
          now,
        );
      }
    };
    // A switch accepted; one refused because the holder's NIF is not the contract's (03); one with changes to the contract.
    await solicitud('C1', ajenos[0]);
    await solicitud('C1', ajenos[1], { titular: { nif: '00000000T', nombre: 'Otra', apellido1: 'Persona' } });
    const c2 = ajenos[2];
    if (c2) await solicitud('C2', c2, { contrato: { tarifa: c2.tarifa, potenciasW: c2.potenciasW } });
    // A new supply where a contract is in force: refused (21).
    await solicitud('A3', ajenos[3], { cnae: '9820', contrato: { tarifa: '2.0TD', potenciasW: [4600, 4600] } });
    // A change of contracted power and an end of supply (then anulled) of points it supplies.
    const propio = propios[0];
    if (propio) {
      const potencias = propio.tarifa === '2.0TD' ? [5750, 5750] : propio.potenciasW;
      await solicitud('M1', propio, { contrato: { tarifa: propio.tarifa, potenciasW: potencias } });
    }
    await solicitud('B1', propios[1], { motivoBaja: '02' }, true);
    // A cut for non-payment (table 10 reason 03), activated below: the point shows as suspended
    // (on the point whose end of supply was anulled when the company supplies only two).
    await solicitud('B1', propios[2] ?? propios[1], { motivoBaja: '03' });
    // A file that is no message: it goes to entrada/rechazados with its reason.
    await dejar(db, cuenta, `/${d.codigo}/entrada/notas.xml`, 'Esto no es un mensaje ATR', now);
    // A switch the field crew could not carry out (04).
    await solicitud('C1', ajenos[4]);
    // A claim for a customer whose access contract goes unbilled (R1 01, subtype 006): it joins the
    // claims queue of the contact feature, where the staff answer it (docs/decisions/046).
    const reclamado = propios[0];
    if (reclamado) {
      const referencia = `RC-${now.getUTCFullYear()}-${String(++n).padStart(6, '0')}`;
      const xml = mensajeR101({
        referencia,
        distribuidora: d.codigo,
        presentadoEn: now.toISOString(),
        emisora: empresa.ree,
        reclamacion: {
          rol: '06',
          tipo: '02',
          subtipo: '006',
          campos: { cups: reclamado.cups, nifTitular: reclamado.titularNif, nombreTitular: reclamado.titularNombre },
          mensaje: 'Nuestro cliente no ha recibido la factura de acceso de los dos últimos meses; pedimos que se revise y se facture.',
        },
      });
      await dejar(db, cuenta, `/${d.codigo}/entrada/R101_${codigoSolicitudR1(referencia)}.xml`, xml, now);
    }
    // The self-reading of a customer with a visited meter, passed on (W1 01) and accepted; the same
    // for a telemanaged meter, refused with table 27 code 66 (docs/decisions/049).
    const [visitado] = await db
      .select()
      .from(suministros)
      .where(
        and(
          eq(suministros.distribuidora, d.codigo),
          sql`${suministros.fechaBaja} is null`,
          eq(suministros.comercializadoraCodigo, empresa.ree),
          eq(suministros.telegestionado, false),
        ),
      )
      .orderBy(asc(suministros.cups))
      .limit(1);
    for (const p of [visitado, propios[0]]) {
      const a = p ? await autolecturaDemo(db, p, now) : null;
      if (!p || !a) continue;
      const c = cabecera(p.cups);
      await dejar(db, cuenta, `/${d.codigo}/entrada/W101_${c.codigoSolicitud}.xml`, xmlAportacionLectura(c, a), now);
    }
    // The distributor's telemanagement file says the meter of a point the company supplies stopped
    // communicating: the company gets a D1 01 (table 109 reason 02) and accepts it (D1 02, docs/decisions/050).
    const avisado = propios[0];
    const [e] = avisado ? await db.select().from(estadosContador).where(eq(estadosContador.suministroId, avisado.id)) : [];
    if (avisado && e?.comunica) {
      const fila: FilaContador = {
        linea: 2,
        cups: avisado.cups,
        comunica: false,
        ultimaComunicacion: new Date(now.getTime() - 3 * 86_400_000),
        interruptor: e.interruptor as FilaContador['interruptor'],
        estadoSuministro: e.estadoSuministro as FilaContador['estadoSuministro'],
        motivo: e.motivo,
      };
      await importarEstadosContador(db, [fila], now);
      const [aviso] = await db
        .select({ codigo: notificacionesD1.codigoSolicitud })
        .from(notificacionesD1)
        .where(eq(notificacionesD1.suministroId, avisado.id))
        .orderBy(desc(notificacionesD1.id))
        .limit(1);
      if (aviso) {
        const c = cabecera(avisado.cups, aviso.codigo);
        await dejar(db, cuenta, `/${d.codigo}/entrada/D102_${aviso.codigo}.xml`, xmlAceptacionD1(c, fechaLocalDe(now)), now);
      }
    }
    await leerEntradas({ db, clock: { now: () => now }, logger: createLogger('silent') });

    const aceptadas = await db
      .select({ id: expedientes.id, tipo: expedientes.tipo })
      .from(expedientes)
      .where(and(eq(expedientes.procedimiento, 'atr'), eq(expedientes.distribuidora, d.codigo), eq(expedientes.paso, 'aceptada')))
      .orderBy(asc(expedientes.numero));
    const hoy = fechaLocalDe(now);
    const pasos: [ProcesoAtr, number, AccionGestionAtr][] = [
      ['C1', 0, { accion: 'activar', fecha: hoy }],
      ['C1', 1, { accion: 'rechazar', codigo: '29', comentario: 'En la visita no había caja para el contador en el punto de suministro.' }],
      ['C2', 0, { accion: 'incidencia', codigo: '08', comentario: 'Cita concertada con el cliente para cambiar el contador.' }],
      ['B1', 0, { accion: 'activar', fecha: hoy }],
    ];
    for (const [proceso, i, accion] of pasos) {
      const caso = aceptadas.filter((a) => a.tipo === proceso)[i];
      if (caso) await pasoDelPersonal({ db, clock: { now: () => now }, publicUrl: null }, caso.id, accion, SISTEMA);
    }
  }
  return { solicitudesAtr: n };
};
