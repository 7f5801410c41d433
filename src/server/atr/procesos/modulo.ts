/**
 * What each ATR process writes of its own, as one module per process (`c1.ts` … `b1.ts`): the body
 * of its acceptance (step 02) and of its activation (step 05). The CNMC's schemas give each process
 * its own elements there (TipoMensajeC105.xsd, TipoMensajeB105.xsd…); everything the processes share
 * (headers, rejections, incidences, anulaciones) is written once in `../respuestas.ts`, and what a
 * process is (steps, messages, the reader's rules) is declared in `src/lib/atr/procesos.ts`.
 * `index.ts` maps every process to its module, so a process declared without one fails to compile.
 */
import type { Suministro } from '../../suministros/service.ts';
import { condicionesActivacion, idContrato, puntosDeMedida } from '../respuestas.ts';
import type { Nodo } from '../xml.ts';

/** What an acceptance is written from. */
export interface DatosAceptacionProceso {
  /** The day it is accepted (Madrid). */
  hoy: string;
  s: Suministro;
  /** The contract's conditions as requested (CondicionesContractuales). */
  condiciones: Nodo;
  /** The planned activation: its kind (table 55) and date. */
  activacion: { tipo: string; fecha: string };
  /** The day of the point's last firm reading. */
  ultimaLectura: string;
}

/** What an activation is written from: the supply point as it now is, and the day. */
export interface DatosActivacionProceso {
  s: Suministro;
  fecha: string;
}

/** One process's own elements. */
export interface ModuloProceso {
  /** The children of the acceptance's body element. */
  aceptacion(d: DatosAceptacionProceso): Nodo[];
  /** The children of the activation's body element. */
  activacion(d: DatosActivacionProceso): Nodo[];
}

/** The requested contract of an acceptance, with its planned activation (C1, C2, M1; A3 without TipoContratoATR). */
export function contratoAceptado(d: DatosAceptacionProceso, conTipoContrato = true): Nodo {
  return {
    n: 'Contrato',
    h: [
      conTipoContrato ? { n: 'TipoContratoATR', t: '01' } : null,
      d.condiciones,
      { n: 'TipoActivacionPrevista', t: d.activacion.tipo },
      { n: 'FechaActivacionPrevista', t: d.activacion.fecha },
    ],
  };
}

/**
 * The activation of a contract in force (C1, C2, A3, M1): the day, the essential-supply flag (Ley
 * 24/2013 art. 52: 00, not essential; the portal records no essential supplies), the contract as it
 * now is and its measure point, registered (A) or modified (M).
 */
export function activacionDeContrato(d: DatosActivacionProceso, movimiento: 'A' | 'M'): Nodo[] {
  return [
    {
      n: 'DatosActivacion',
      h: [
        { n: 'Fecha', t: d.fecha },
        { n: 'IndEsencial', t: '00' },
        { n: 'FechaUltimoMovimientoIndEsencial', t: d.s.fechaAlta },
      ],
    },
    { n: 'Contrato', h: [idContrato(d.s), { n: 'TipoContratoATR', t: '01' }, condicionesActivacion(d.s)] },
    puntosDeMedida(d.s, movimiento, d.fecha),
  ];
}
