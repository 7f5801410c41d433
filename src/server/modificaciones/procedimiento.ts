/**
 * Contractual modification requests declared on the case core (docs/decisions/052): the steps and
 * transitions of `MODIFICACION` (src/lib/modificaciones/estados.ts), each action's checks (the
 * contract rules still hold, a rejection reason that applies, an activation day in range, the change
 * applied to the supply point through `guardarSuministros`), the 409's wording with its tabla 27
 * code, and the holder's mail after each step. The core takes the step, writes the timeline and the
 * audit entry, in one transaction.
 */
import { eq } from 'drizzle-orm';
import { fechaSinDia } from '../../lib/formato/fechas.ts';
import { fechaLocalDe } from '../../lib/calendario/hora-civil.ts';
import { errorFechaActivacion } from '../../lib/modificaciones/esquemas.ts';
import {
  ACCION_NUCLEO,
  accionDelNucleo,
  conflictoTransicion,
  MODIFICACION,
  type AccionSolicitud,
  type EstadoSolicitud,
} from '../../lib/modificaciones/estados.ts';
import { esCodigoMotivo, motivosAplicables, MOTIVOS_RECHAZO, textoMotivo, type TipoSolicitud } from '../../lib/modificaciones/motivos.ts';
import { referencia, urlSolicitud, urlSolicitudAdmin } from '../../lib/modificaciones/presentacion.ts';
import { comprobarSolicitud } from '../../lib/modificaciones/reglas.ts';
import { cambiaPotencias, type ContratoSolicitud, type Solicitado, type SolicitudAdminApi } from '../../lib/modificaciones/tipos.ts';
import type { Db } from '../db/client.ts';
import { suministros } from '../db/schema.ts';
import type { FilaExpediente } from '../expedientes/acceso.ts';
import { actuar, type Procedimiento, type Siguiente } from '../expedientes/procedimiento.ts';
import { conflict, ValidationError } from '../http/errors.ts';
import { errorSuministro, guardarSuministros, type Suministro, type SuministroEntrada } from '../suministros/service.ts';
import {
  avisar,
  contextoDe,
  datosDe,
  MENSAJES_MODIFICACIONES,
  numeroPublico,
  PROCEDIMIENTO,
  resumenAuditoria,
  vistas,
  type Actor,
  type DatosModificacion,
  type DepsModificaciones,
  type Origen,
} from './comun.ts';

/** What an action takes: a rejection's tabla 27 code, an activation's day. */
export interface CuerpoModificacion {
  mensaje?: undefined;
  codigo?: string;
  fecha?: string;
}

/** The supply point of a request, locked, and 409 if the rules no longer hold on it (another change came first). */
async function suministroVigente(tx: Db, e: FilaExpediente, hoy: string): Promise<Suministro> {
  const d = datosDe(e);
  const [s] = await tx.select().from(suministros).where(eq(suministros.id, d.suministroId)).for('update');
  const ctx = await contextoDe(tx, s!, hoy, e.id);
  const solicitado = d.solicitado;
  const entrada =
    solicitado.tipo === 'titular'
      ? solicitado
      : solicitado.tipo === 'potencia'
        ? { tipo: 'potencia' as const, potenciasW: solicitado.potenciasW }
        : { tipo: 'tarifa' as const, tarifa: solicitado.tarifa, potenciasW: solicitado.potenciasW };
  const errores = comprobarSolicitud(ctx, entrada);
  if (errores.length > 0) {
    throw conflict(
      MENSAJES_MODIFICACIONES.yaNoCumple(
        referencia(numeroPublico(e)),
        errores.map((x) => x.mensaje),
      ),
    );
  }
  return s!;
}

/** The supply point with the change applied, as `guardarSuministros` takes it. */
function conCambio(s: Suministro, solicitado: Solicitado, anterior: ContratoSolicitud, fecha: string): SuministroEntrada {
  const { id: _id, createdAt: _c, updatedAt: _u, ...actual } = s;
  switch (solicitado.tipo) {
    case 'potencia':
      return { ...actual, potenciasW: solicitado.potenciasW, fechaUltimoCambioPotencia: fecha };
    case 'tarifa':
      return {
        ...actual,
        tarifa: solicitado.tarifa,
        potenciasW: solicitado.potenciasW,
        fechaUltimoCambioPotencia: cambiaPotencias(anterior, solicitado) ? fecha : actual.fechaUltimoCambioPotencia,
      };
    case 'titular':
      return { ...actual, titularNif: solicitado.nif, titularNombre: solicitado.nombre };
  }
}

/** The checks of an action and what it records: the columns it sets and the note of its timeline entry. */
async function decidir(
  tx: Db,
  e: FilaExpediente,
  accion: AccionSolicitud,
  body: CuerpoModificacion,
  hoy: string,
): Promise<{ cambios: Partial<DatosModificacion>; nota: string | null }> {
  const d = datosDe(e);
  switch (accion) {
    case 'anular':
      return { cambios: {}, nota: null };
    case 'aceptar':
      await suministroVigente(tx, e, hoy);
      return { cambios: {}, nota: null };
    case 'rechazar': {
      const codigo = body.codigo ?? '';
      const aplicables = motivosAplicables(e.tipo as TipoSolicitud, {
        tensionV: d.anterior.tensionV,
        modoControlPotencia: d.anterior.modoControlPotencia,
        fases: d.anterior.fases,
      });
      if (!esCodigoMotivo(codigo) || !aplicables.includes(codigo)) throw new ValidationError([MENSAJES_MODIFICACIONES.motivoNoAplicable]);
      return { cambios: { motivoRechazoCodigo: codigo, motivoRechazo: MOTIVOS_RECHAZO[codigo] }, nota: `Motivo: ${textoMotivo(codigo)}` };
    }
    case 'activar': {
      const fecha = body.fecha ?? '';
      const mal = errorFechaActivacion(fecha, fechaLocalDe(e.createdAt), hoy);
      if (mal) throw new ValidationError([mal]);
      const s = await suministroVigente(tx, e, hoy);
      const nuevo = conCambio(s, d.solicitado, d.anterior, fecha);
      const invalido = errorSuministro(nuevo);
      if (invalido) throw conflict(`No se puede aplicar la solicitud ${referencia(numeroPublico(e))} al suministro: ${invalido}`);
      await guardarSuministros(tx, [nuevo]);
      return { cambios: { fechaActivacion: fecha }, nota: `Activada con fecha ${fechaSinDia(fecha)}` };
    }
  }
}

/** The action of the status model a core action is (every one this procedure declares has one). */
const accionDe = (a: string): AccionSolicitud => {
  const x = accionDelNucleo(a);
  if (!x) throw new Error(`Acción de modificación desconocida: ${a}`);
  return x;
};

/** Contractual modification requests on the case core. */
export const MODIFICACIONES: Procedimiento<CuerpoModificacion, string> = {
  definiciones: { [PROCEDIMIENTO]: MODIFICACION },
  llamado: 'la solicitud',
  referencia: (e) => referencia(numeroPublico(e)),
  enlace: (publicUrl, e, lado) =>
    `${publicUrl}${(lado === 'solicitante' ? urlSolicitud : urlSolicitudAdmin)(referencia(numeroPublico(e)))}`,
  conflicto: (e, accion) => conflictoTransicion(accionDe(accion), e.paso as EstadoSolicitud, referencia(numeroPublico(e))) ?? '',
  async siguiente(tx, e, accion, body, ctx): Promise<Siguiente> {
    const { cambios, nota } = await decidir(tx, e, accionDe(accion), body, ctx.hoy);
    return {
      vence: null,
      regla: null,
      cambios,
      ...(nota ? { datos: { nota } } : {}),
      auditoria: { ...resumenAuditoria(e), estadoAnterior: e.paso, ...cambios },
    };
  },
  // The holder's mail says what changed before and after (`despues`), not the core's general one.
  hecho: () => null,
  async despues(tx, e, accion, _body, sig, ahora, publicUrl) {
    const paso = MODIFICACION.transiciones[accion as keyof typeof MODIFICACION.transiciones].hacia;
    await avisar(tx, publicUrl, { ...e, paso, datos: { ...e.datos, ...sig.cambios } }, paso, ahora);
  },
  resumen: (e) => e.id,
};

/**
 * Takes an action on a request from a side, as the holder's cancellation and the staff's decisions
 * all do: `buscar` finds the request (404 for one the caller may not reach), then the core takes the
 * step (409 when it does not suit the request's state), and the request's view is answered.
 */
export function tomarAccion(
  deps: DepsModificaciones,
  accion: AccionSolicitud,
  lado: 'solicitante' | 'distribuidora',
  actor: Actor,
  info: Origen,
  buscar: (tx: Db) => Promise<FilaExpediente>,
  body: CuerpoModificacion = {},
): Promise<SolicitudAdminApi> {
  return deps.db.transaction(async (tx) => {
    const e = await buscar(tx);
    await actuar(MODIFICACIONES, { ...deps, db: tx }, e.id, lado, ACCION_NUCLEO[accion], body, { ...actor, ...info });
    return (await vistas(tx, [e.id]))[0]!;
  });
}
