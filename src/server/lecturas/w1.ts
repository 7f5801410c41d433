/**
 * W1 through the file exchange (docs/decisions/049): a supply company passes on its customer's
 * self-reading (step 01, `MensajeSolicitudAportacionLectura`), and the distributor answers at once
 * in the company's salida with step 02: the acceptance (`AceptacionAportacionLectura`), having
 * stored the registers as the point's self-reading, or a `MensajeRechazo` with every table 27
 * reason found (the rules are `src/lib/lecturas/w1.ts`). The ATR reader routes the message here once
 * its header is checked (this company, this distributor, a valid CUPS); a W1 whose request code was
 * already accepted is set aside as a repeated request, as every process's is.
 */
import { and, desc, eq } from 'drizzle-orm';
import { cupsBase } from '../../lib/cups.ts';
import { fechaLocalDe, inicioDiaLocal } from '../../lib/calendario/hora-civil.ts';
import { MOTIVOS_ATR } from '../../lib/atr/procesos.ts';
import { motivosW1, RAIZ_W102, registrosW1, type AportacionW1, type MotivoW1 } from '../../lib/lecturas/w1.ts';
import { audit } from '../auditoria/service.ts';
import type { Db } from '../db/client.ts';
import { lecturasContador, suministros } from '../db/schema.ts';
import { depositar, type CuentaIntercambio } from '../intercambio/almacen.ts';
import { cabeceraRespuesta, rechazo, type Cabecera } from '../atr/respuestas.ts';
import { escribirMensaje, lista, valor, type MensajeLeido } from '../atr/xml.ts';
import { guardarLecturasContador, zonaDe } from './service.ts';

/** A W1 that cannot be answered at all (a repeated request code, a step that is not 01): set aside with this reason. */
export class W1Apartado extends Error {}

/** The self-reading a W1 01 carries (its schema already checked by the reader). */
export function aportacionDe(m: MensajeLeido): AportacionW1 {
  return {
    fecha: valor(m.arbol, 'DatosSolicitudAportacionLectura', 'FechaLectura') ?? '',
    tipoDH: valor(m.arbol, 'DatosSolicitudAportacionLectura', 'TipoDHEdM') ?? '',
    lecturas: lista(m.arbol, 'LecturaAportada').map((l) => ({
      integrador: valor(l, 'Integrador') ?? '',
      periodo: valor(l, 'TipoCodigoPeriodoDH') ?? '',
      valor: Number(valor(l, 'LecturaPropuesta') ?? NaN),
    })),
  };
}

/** What happened to a W1: accepted (with the reading's day) or rejected (with its reasons). */
export type ResultadoW1 = { aceptada: true; fecha: string } | { aceptada: false; motivos: MotivoW1[] };

/** Reads one W1 01 of `empresaRee` dropped at `p.ruta`, and answers it. Runs in the reader's savepoint. */
export async function recibirW101(
  tx: Db,
  p: { usuarioId: string; distribuidora: string; ruta: string },
  m: MensajeLeido,
  c: Cabecera,
  cuenta: CuentaIntercambio,
  ahora: Date,
): Promise<ResultadoW1> {
  if (c.proceso !== 'W1' || c.paso !== '01')
    throw new W1Apartado(`Una aportación de lectura es el proceso W1, paso 01, no ${c.proceso} ${c.paso}.`);
  const [s] = await tx
    .select()
    .from(suministros)
    .where(and(eq(suministros.cups, cupsBase(c.cups)), eq(suministros.distribuidora, p.distribuidora)))
    .for('update');
  if (s) {
    const [repetida] = await tx
      .select({ momento: lecturasContador.momento })
      .from(lecturasContador)
      .where(
        and(
          eq(lecturasContador.suministroId, s.id),
          eq(lecturasContador.aportadaPor, c.emisora),
          eq(lecturasContador.codigoSolicitud, c.solicitud),
        ),
      );
    if (repetida) {
      throw new W1Apartado(
        `La aportación de lectura ${c.solicitud} ya se aceptó (lectura del ${fechaLocalDe(repetida.momento, zonaDe(s))}): cada solicitud lleva su propio CodigoDeSolicitud.`,
      );
    }
  }
  const a = aportacionDe(m);
  const ruta = `/${p.distribuidora}/salida/W102_${c.solicitud}_${c.secuencial}.xml`;
  let resultado: ResultadoW1;
  if (!s) {
    resultado = {
      aceptada: false,
      motivos: [{ codigo: '01', comentario: `${MOTIVOS_ATR['01']}: la distribuidora no tiene el CUPS ${c.cups}.` }],
    };
  } else {
    const zona = zonaDe(s);
    const previas = (
      await tx
        .select({ momento: lecturasContador.momento, origen: lecturasContador.origen, activaKwh: lecturasContador.activaKwh })
        .from(lecturasContador)
        .where(eq(lecturasContador.suministroId, s.id))
        .orderBy(desc(lecturasContador.momento))
        .limit(24)
    ).map((l) => ({ fecha: fechaLocalDe(l.momento, zona), origen: l.origen, activaKwh: l.activaKwh }));
    const motivos = motivosW1(a, s, c.emisora, fechaLocalDe(ahora, zona), previas);
    resultado = motivos.length ? { aceptada: false, motivos } : { aceptada: true, fecha: a.fecha };
    if (resultado.aceptada) {
      const registros = registrosW1(a, s.tarifa)!;
      // Read on that day: stored at its 00:00 in the point's civil time, as the billing closures are.
      await guardarLecturasContador(tx, [
        {
          suministroId: s.id,
          momento: inicioDiaLocal(a.fecha, zona),
          origen: 'autolectura',
          activaKwh: registros.activaKwh,
          exportadaKwh: registros.exportadaKwh,
          aportadaPor: c.emisora,
          codigoSolicitud: c.solicitud,
        },
      ]);
    }
  }
  const xml = resultado.aceptada
    ? escribirMensaje({
        n: RAIZ_W102,
        h: [cabeceraRespuesta(c, '02', ahora), { n: 'DatosAceptacionLectura', h: [{ n: 'FechaAceptacion', t: fechaLocalDe(ahora) }] }],
      })
    : rechazo(c, '02', resultado.motivos, ahora);
  await depositar(tx, cuenta, ruta, Buffer.from(xml), ahora);
  await audit(tx, {
    action: resultado.aceptada ? 'lecturas.w1_aceptada' : 'lecturas.w1_rechazada',
    actorUserId: p.usuarioId,
    targetType: 'suministro',
    targetId: s ? String(s.id) : c.cups,
    distribuidoras: [p.distribuidora],
    details: {
      cups: c.cups,
      codigoSolicitud: c.solicitud,
      fechaLectura: a.fecha,
      ...(resultado.aceptada ? {} : { motivos: resultado.motivos.map((x) => x.codigo) }),
      respuesta: ruta,
    },
  });
  return resultado;
}
