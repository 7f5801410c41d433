/**
 * Queries and claims as cases run them (docs/decisions/018, on the case core of decision 017): their
 * steps, who acts in each, the actions that move a case and the deadline each step sets. Plain data
 * and functions, shared by the server (which enforces them) and the screens (which show them).
 *
 * Claims follow the CNMC's R1 process (docs/sector.md §4.3–4.5): 01 claim → 02 acceptance or
 * rejection → 03 request for more information → 04 information sent → 05 closing with a result of
 * table 80; 08 withdrawal. Deadlines of the R1 process:
 * - filed (01) → the distributor accepts or rejects it within 5 business days;
 * - accepted (02) → it resolves and closes within 15 business days;
 * - information asked (03) → the claimant has 20 calendar days to send it;
 * - information sent (04) → the resolution's clock, stopped while the claimant had the turn, runs
 *   again with the business days it had left (Ley 39/2015 art. 22.1.a: a request to the interested
 *   party to supply information suspends the time to resolve).
 * Queries carry no legal deadline, except a data protection request: one month from receipt,
 * extendable by two more months when the requests' complexity or number make it necessary (RGPD,
 * Regulation (EU) 2016/679, art. 12.3), telling the person within the first month.
 */
import { referenciaExpediente, type DefinicionProcedimiento, type LadoExpediente } from '../expedientes/procedimiento.ts';
import { RESULTADOS, type ResultadoReclamacion } from './tablas-r1.ts';

export type { DefinicionProcedimiento };

/** The two procedures of the contact area, as the case core names them. */
export const PROCEDIMIENTOS_CONTACTO = ['consulta', 'reclamacion'] as const;
export type ProcedimientoContacto = (typeof PROCEDIMIENTOS_CONTACTO)[number];

/** A side of a case. */
export type LadoContacto = LadoExpediente;

// ——— Queries and requests ———

/** The topics of a query. */
export const TEMAS_CONSULTA = {
  suministro: 'Suministro y contrato de acceso',
  medidas: 'Medidas y lecturas',
  conexion: 'Conexión y obras',
  calidad: 'Interrupciones y calidad del suministro',
  proteccion_datos: 'Protección de datos (derechos del RGPD)',
  otro: 'Otro asunto',
} as const;
export type TemaConsulta = keyof typeof TEMAS_CONSULTA;
export const CODIGOS_TEMA = Object.keys(TEMAS_CONSULTA) as TemaConsulta[];

/** The rights of a data protection request (RGPD arts. 15–18, 20 and 21). */
export const DERECHOS_RGPD = {
  acceso: 'Acceso a mis datos (art. 15)',
  rectificacion: 'Rectificación (art. 16)',
  supresion: 'Supresión (art. 17)',
  limitacion: 'Limitación del tratamiento (art. 18)',
  portabilidad: 'Portabilidad (art. 20)',
  oposicion: 'Oposición (art. 21)',
} as const;
export type DerechoRgpd = keyof typeof DERECHOS_RGPD;
export const CODIGOS_DERECHO = Object.keys(DERECHOS_RGPD) as DerechoRgpd[];

export const PASOS_CONSULTA = ['borrador', 'abierta', 'respondida', 'cerrada'] as const;
export type PasoConsulta = (typeof PASOS_CONSULTA)[number];
export const ACCIONES_SOLICITANTE_CONSULTA = ['presentar', 'replicar', 'dar_por_resuelta'] as const;
export const ACCIONES_DISTRIBUIDORA_CONSULTA = ['responder', 'prorrogar', 'cerrar'] as const;
export type AccionConsulta = (typeof ACCIONES_SOLICITANTE_CONSULTA)[number] | (typeof ACCIONES_DISTRIBUIDORA_CONSULTA)[number];

export const CONSULTA: DefinicionProcedimiento<PasoConsulta, AccionConsulta> = {
  pasos: PASOS_CONSULTA,
  finales: ['cerrada'],
  nombrePaso: { borrador: 'Borrador', abierta: 'Pendiente de respuesta', respondida: 'Respondida', cerrada: 'Cerrada' },
  turno: { borrador: 'solicitante', abierta: 'distribuidora', respondida: 'solicitante' },
  accionesSolicitante: ACCIONES_SOLICITANTE_CONSULTA,
  accionesDistribuidora: ACCIONES_DISTRIBUIDORA_CONSULTA,
  nombreAccion: {
    presentar: 'Consulta enviada',
    replicar: 'Nuevo mensaje del solicitante',
    dar_por_resuelta: 'El solicitante la dio por resuelta',
    responder: 'Respuesta de la distribuidora',
    prorrogar: 'Plazo prorrogado dos meses (RGPD, art. 12.3)',
    cerrar: 'Cerrada por la distribuidora',
  },
  transiciones: {
    presentar: { desde: ['borrador'], hacia: 'abierta' },
    replicar: { desde: ['abierta', 'respondida'], hacia: 'abierta' },
    dar_por_resuelta: { desde: ['abierta', 'respondida'], hacia: 'cerrada' },
    responder: { desde: ['abierta'], hacia: 'respondida' },
    prorrogar: { desde: ['abierta'], hacia: 'abierta' },
    cerrar: { desde: ['abierta', 'respondida'], hacia: 'cerrada' },
  },
  prefijo: 'CO',
};

/** Months for answering a data protection request, and the extension (RGPD art. 12.3). */
export const MESES_RGPD = 1;
export const MESES_PRORROGA_RGPD = 2;

// ——— Claims (R1) ———

export const PASOS_RECLAMACION = [
  'borrador',
  'presentada',
  'aceptada',
  'informacion_pedida',
  'informacion_enviada',
  'cerrada',
  'rechazada',
  'anulada',
] as const;
export type PasoReclamacion = (typeof PASOS_RECLAMACION)[number];
export const ACCIONES_SOLICITANTE_RECLAMACION = ['presentar', 'enviar_informacion', 'desistir'] as const;
export const ACCIONES_DISTRIBUIDORA_RECLAMACION = ['aceptar', 'rechazar', 'pedir_informacion', 'cerrar'] as const;
export type AccionReclamacion = (typeof ACCIONES_SOLICITANTE_RECLAMACION)[number] | (typeof ACCIONES_DISTRIBUIDORA_RECLAMACION)[number];

export const RECLAMACION: DefinicionProcedimiento<PasoReclamacion, AccionReclamacion> = {
  pasos: PASOS_RECLAMACION,
  finales: ['cerrada', 'rechazada', 'anulada'],
  nombrePaso: {
    borrador: 'Borrador',
    presentada: 'Presentada',
    aceptada: 'Aceptada, en estudio',
    informacion_pedida: 'Información pedida al reclamante',
    informacion_enviada: 'Información recibida, en estudio',
    cerrada: 'Cerrada',
    rechazada: 'Rechazada',
    anulada: 'Anulada por el reclamante',
  },
  turno: {
    borrador: 'solicitante',
    presentada: 'distribuidora',
    aceptada: 'distribuidora',
    informacion_pedida: 'solicitante',
    informacion_enviada: 'distribuidora',
  },
  accionesSolicitante: ACCIONES_SOLICITANTE_RECLAMACION,
  accionesDistribuidora: ACCIONES_DISTRIBUIDORA_RECLAMACION,
  nombreAccion: {
    presentar: 'Reclamación presentada',
    enviar_informacion: 'Información enviada por el reclamante',
    desistir: 'El reclamante la anuló',
    aceptar: 'Reclamación aceptada',
    rechazar: 'Reclamación rechazada',
    pedir_informacion: 'Información adicional pedida',
    cerrar: 'Reclamación cerrada con respuesta',
  },
  transiciones: {
    presentar: { desde: ['borrador'], hacia: 'presentada' },
    enviar_informacion: { desde: ['informacion_pedida'], hacia: 'informacion_enviada' },
    desistir: { desde: ['presentada', 'aceptada', 'informacion_pedida', 'informacion_enviada'], hacia: 'anulada' },
    aceptar: { desde: ['presentada'], hacia: 'aceptada' },
    rechazar: { desde: ['presentada'], hacia: 'rechazada' },
    pedir_informacion: { desde: ['aceptada', 'informacion_enviada'], hacia: 'informacion_pedida' },
    cerrar: { desde: ['aceptada', 'informacion_pedida', 'informacion_enviada'], hacia: 'cerrada' },
  },
  prefijo: 'RC',
};

/** Business days to accept or reject a filed claim (R1 step 01). */
export const DIAS_ACEPTACION = 5;
/** Business days to resolve an accepted claim (R1 step 02). */
export const DIAS_RESOLUCION = 15;
/** Calendar days the claimant has to send the information asked (R1 step 03). */
export const DIAS_NATURALES_INFORMACION = 20;

/** The rule of each open step's deadline, as both sides read it. */
export function reglaPlazoReclamacion(paso: PasoReclamacion): string | null {
  switch (paso) {
    case 'presentada':
      return `La distribuidora debe aceptar o rechazar la reclamación en ${DIAS_ACEPTACION} días hábiles desde su recepción (formato R1 de la CNMC, paso 01).`;
    case 'aceptada':
      return `La distribuidora debe resolver la reclamación en ${DIAS_RESOLUCION} días hábiles desde su aceptación (formato R1 de la CNMC, paso 02).`;
    case 'informacion_pedida':
      return `Tiene ${DIAS_NATURALES_INFORMACION} días naturales para enviar la información pedida (formato R1 de la CNMC, paso 03). Mientras tanto, el plazo de resolución queda en suspenso.`;
    case 'informacion_enviada':
      return 'El plazo de resolución sigue con los días hábiles que le quedaban al pedir la información (Ley 39/2015, art. 22.1.a).';
    default:
      return null;
  }
}

/** The rule of a query's deadline: only data protection requests have one. */
export function reglaPlazoConsulta(tema: string | undefined, prorrogada: boolean): string | null {
  if (tema !== 'proteccion_datos') return null;
  return prorrogada
    ? 'Plazo prorrogado: la distribuidora debe responder en tres meses desde la recepción (RGPD, art. 12.3).'
    : 'La distribuidora debe responder en un mes desde la recepción; puede prorrogarlo dos meses más si lo justifica (RGPD, art. 12.3).';
}

/** The result of a closed claim in words. */
export const nombreResultado = (codigo: string) => RESULTADOS[codigo as ResultadoReclamacion] ?? codigo;

/** The public reference of a case: its procedure's prefix, the year and the number. */
export const referenciaContacto = (p: ProcedimientoContacto, numero: number, creado: string) =>
  referenciaExpediente((p === 'consulta' ? CONSULTA : RECLAMACION).prefijo, numero, creado);
