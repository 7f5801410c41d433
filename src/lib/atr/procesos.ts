/**
 * The ATR processes a supply company starts with a distributor (docs/sector.md §4; the CNMC's
 * exchange formats, tables 2, 3 and 27): what each message is, which step answers which, and the
 * rejection reasons the portal gives. Plain data, read by the exchange's reader and by the screens.
 */

/** The processes a company starts (tabla 2). */
export const PROCESOS_ATR = ['C1', 'C2', 'A3', 'M1', 'B1'] as const;
export type ProcesoAtr = (typeof PROCESOS_ATR)[number];

/** A step's code (CNMC table 3): two digits. */
export type PasoAtr = `${number}${number}`;

/**
 * How one process runs, declared once (the CNMC's exchange formats; gisce/gestionatr's table of
 * messages per process and step, `gestionatr/input/messages/message.py`): its messages by root
 * element, its steps and their names, which step the distributor's field work writes, and the rules
 * the reader applies to its requests. Everything the reader, the staff's steps and the screens need
 * to know about a process is here, so a process cannot be half added.
 */
export interface DeclaracionProceso {
  /** Its name as the CNMC gives it (table 2). */
  nombre: string;
  /** The request (step 01): its root element and the element under it that carries its data. */
  solicitud: { raiz: string; cuerpo: string };
  /** The root element of its acceptance (step 02). */
  aceptacion: string;
  /** Its activation (step 05): root element and body element. */
  activacion: { raiz: string; cuerpo: string };
  /** The company's anulación, the distributor's answer to it, and the root of an accepted one. */
  anulacion: { paso: PasoAtr; respuesta: PasoAtr; aceptacion: string };
  /**
   * What the field work writes: an incidence (table 28, `IncidenciasATRDistribuidor`), which a C1
   * does not have (it changes no installation, so no visit can be delayed), and a rejection after
   * the field work. B1 numbers them 06 and 07, as its 03 and 04 are the anulación.
   */
  campo: { incidencia: PasoAtr | null; rechazo: PasoAtr };
  /** Every step the process has, with its name. */
  pasos: Readonly<Record<PasoAtr, string>>;
  /** Whether its request carries a tariff and powers (checked against the voltage, table 27 codes 17, 47, 48…). */
  conContrato: boolean;
  /**
   * Whether it works on a point whose contract has ended (A3; refused with 21 while one is in force);
   * the others are refused with 72 on such a point.
   */
  sobrePuntoDeBaja: boolean;
  /** Whether only the point's current retailer may send it (M1, B1; refused with 11 otherwise). */
  deSuComercializadora: boolean;
  /**
   * Whether it changes the point's retailer (C1, C2): refused with 11 from the retailer it already
   * has, and the outgoing one gets step 06.
   */
  cambioDeComercializador: boolean;
  /** Whether the NIF it names must be the holder's (03), save an M1 that changes the holder. */
  delTitular: boolean;
  /** The table 27 reason that refuses another request while one of this process is in progress. */
  motivoEnCurso: MotivoAtr | null;
  /** Business days the distributor has to answer a request (step 02), as gestionatr encodes the CNMC's deadlines. */
  habilesRespuesta: number;
}

const ANULACION_08 = { paso: '08', respuesta: '09', aceptacion: 'MensajeAceptacionAnulacion' } as const;
const ANULACION_06 = { paso: '06', respuesta: '07', aceptacion: 'MensajeAceptacionAnulacion' } as const;
const PASOS_COMUNES = {
  '01': 'Solicitud',
  '02': 'Aceptación o rechazo',
  '04': 'Rechazo tras actuaciones en campo',
  '05': 'Activación',
} as const;

/** Every process the exchange reads, declared. */
export const PROCESO: { readonly [P in ProcesoAtr]: DeclaracionProceso } = {
  C1: {
    nombre: 'Cambio de comercializador sin modificaciones en el contrato de acceso',
    solicitud: { raiz: 'MensajeCambiodeComercializadorSinCambios', cuerpo: 'CambiodeComercializadorSinCambios' },
    aceptacion: 'MensajeAceptacionCambiodeComercializadorSinCambios',
    activacion: { raiz: 'MensajeActivacionCambiodeComercializadorSinCambios', cuerpo: 'ActivacionCambiodeComercializadorSinCambios' },
    anulacion: ANULACION_08,
    campo: { incidencia: null, rechazo: '04' },
    pasos: {
      ...PASOS_COMUNES,
      '06': 'Aviso a la comercializadora saliente',
      '08': 'Anulación',
      '09': 'Aceptación o rechazo de la anulación',
    },
    conContrato: false,
    sobrePuntoDeBaja: false,
    deSuComercializadora: false,
    cambioDeComercializador: true,
    delTitular: true,
    motivoEnCurso: '38',
    habilesRespuesta: 5,
  },
  C2: {
    nombre: 'Cambio de comercializador con modificaciones en el contrato de acceso',
    solicitud: { raiz: 'MensajeCambiodeComercializadorConCambios', cuerpo: 'CambiodeComercializadorConCambios' },
    aceptacion: 'MensajeAceptacionCambiodeComercializadorConCambios',
    activacion: { raiz: 'MensajeActivacionCambiodeComercializadorConCambios', cuerpo: 'ActivacionCambiodeComercializadorConCambios' },
    anulacion: ANULACION_08,
    campo: { incidencia: '03', rechazo: '04' },
    pasos: {
      ...PASOS_COMUNES,
      '03': 'Incidencia',
      '06': 'Aviso a la comercializadora saliente',
      '08': 'Anulación',
      '09': 'Aceptación o rechazo de la anulación',
    },
    conContrato: true,
    sobrePuntoDeBaja: false,
    deSuComercializadora: false,
    cambioDeComercializador: true,
    delTitular: true,
    motivoEnCurso: '39',
    habilesRespuesta: 5,
  },
  A3: {
    nombre: 'Alta de un punto de suministro',
    solicitud: { raiz: 'MensajeAlta', cuerpo: 'Alta' },
    aceptacion: 'MensajeAceptacionAlta',
    activacion: { raiz: 'MensajeActivacionAlta', cuerpo: 'ActivacionAlta' },
    anulacion: ANULACION_06,
    campo: { incidencia: '03', rechazo: '04' },
    pasos: { ...PASOS_COMUNES, '03': 'Incidencia', '06': 'Anulación', '07': 'Aceptación o rechazo de la anulación' },
    conContrato: true,
    sobrePuntoDeBaja: true,
    deSuComercializadora: false,
    cambioDeComercializador: false,
    delTitular: false,
    motivoEnCurso: '37',
    habilesRespuesta: 5,
  },
  M1: {
    nombre: 'Modificación del contrato de acceso',
    solicitud: { raiz: 'MensajeModificacionDeATR', cuerpo: 'ModificacionDeATR' },
    aceptacion: 'MensajeAceptacionModificacionDeATR',
    activacion: { raiz: 'MensajeActivacionModificacionDeATR', cuerpo: 'ActivacionModificaciones' },
    anulacion: ANULACION_06,
    campo: { incidencia: '03', rechazo: '04' },
    pasos: { ...PASOS_COMUNES, '03': 'Incidencia', '06': 'Anulación', '07': 'Aceptación o rechazo de la anulación' },
    conContrato: true,
    sobrePuntoDeBaja: false,
    deSuComercializadora: true,
    cambioDeComercializador: false,
    delTitular: true,
    motivoEnCurso: '40',
    habilesRespuesta: 5,
  },
  B1: {
    nombre: 'Baja o suspensión del suministro',
    solicitud: { raiz: 'MensajeBajaSuspension', cuerpo: 'BajaSuspension' },
    aceptacion: 'MensajeAceptacionBajaSuspension',
    activacion: { raiz: 'MensajeActivacionBajaSuspension', cuerpo: 'ActivacionBaja' },
    anulacion: { paso: '03', respuesta: '04', aceptacion: 'MensajeAceptacionAnulacionBaja' },
    campo: { incidencia: '06', rechazo: '07' },
    pasos: {
      '01': 'Solicitud',
      '02': 'Aceptación o rechazo',
      '03': 'Anulación',
      '04': 'Aceptación o rechazo de la anulación',
      '05': 'Activación',
      '06': 'Incidencia',
      '07': 'Rechazo tras actuaciones en campo',
    },
    conContrato: false,
    sobrePuntoDeBaja: false,
    deSuComercializadora: true,
    cambioDeComercializador: false,
    delTitular: true,
    motivoEnCurso: null,
    habilesRespuesta: 5,
  },
};

/** Its name as the CNMC gives it. */
export const nombreProceso = (p: ProcesoAtr): string => PROCESO[p].nombre;

/** The root element of an anulación, the same for every process. */
export const RAIZ_ANULACION = 'MensajeAnulacionSolicitud';

/** The schema (XSD file) of each root element the exchange reads or writes. */
export const ESQUEMA_DE_RAIZ: Readonly<Record<string, string>> = {
  MensajeCambiodeComercializadorSinCambios: 'CambiodeComercializadorSinCambios.xsd',
  MensajeCambiodeComercializadorConCambios: 'CambiodeComercializadorConCambios.xsd',
  MensajeAlta: 'Alta.xsd',
  MensajeModificacionDeATR: 'ModificacionDeATR.xsd',
  MensajeBajaSuspension: 'BajaSuspension.xsd',
  MensajeAnulacionSolicitud: 'AnulacionSolicitud.xsd',
  MensajeAceptacionCambiodeComercializadorSinCambios: 'AceptacionCambiodeComercializadorSinCambios.xsd',
  MensajeAceptacionCambiodeComercializadorConCambios: 'AceptacionCambiodeComercializadorConCambios.xsd',
  MensajeAceptacionAlta: 'AceptacionAlta.xsd',
  MensajeAceptacionModificacionDeATR: 'AceptacionModificacionDeATR.xsd',
  MensajeAceptacionBajaSuspension: 'AceptacionBajaSuspension.xsd',
  MensajeAceptacionAnulacion: 'AceptacionAnulacion.xsd',
  MensajeAceptacionAnulacionBaja: 'AceptacionAnulacionBaja.xsd',
  MensajeRechazo: 'Rechazo.xsd',
  MensajeActivacionCambiodeComercializadorSinCambios: 'ActivacionCambiodeComercializadorSinCambios.xsd',
  MensajeActivacionCambiodeComercializadorConCambios: 'ActivacionCambiodeComercializadorConCambios.xsd',
  MensajeActivacionAlta: 'ActivacionAlta.xsd',
  MensajeActivacionModificacionDeATR: 'ActivacionModificacionDeATR.xsd',
  MensajeActivacionBajaSuspension: 'ActivacionBajaSuspension.xsd',
  MensajeActivacionComercializadorSaliente: 'ActivacionComercializadorSaliente.xsd',
  MensajeIncidenciasATRDistribuidor: 'IncidenciasATRDistribuidor.xsd',
  // R1, claims (src/server/contacto/r1.ts and r1-intercambio.ts): the request and the answers the portal writes.
  MensajeReclamacionPeticion: 'ReclamacionPeticion.xsd',
  MensajeAceptacionReclamacion: 'AceptacionReclamacion.xsd',
  MensajeRechazoReclamacion: 'RechazoReclamacion.xsd',
  MensajeCierreReclamacion: 'CierreReclamacion.xsd',
  MensajePeticionInformacionAdicionalReclamacion: 'PeticionInformacionAdicionalReclamacion.xsd',
  MensajeEnvioInformacionReclamacion: 'EnvioInformacionReclamacion.xsd',
  MensajeAnulacionSolicitudReclamacion: 'AnulacionSolicitudReclamacion.xsd',
  MensajeAceptacionAnulacionReclamacion: 'AceptacionAnulacionReclamacion.xsd',
  // W1, a customer's self-reading passed on by its company (src/server/lecturas/w1.ts), and its acceptance.
  MensajeSolicitudAportacionLectura: 'SolicitudAportacionLectura.xsd',
  AceptacionAportacionLectura: 'AceptacionAportacionLectura.xsd',
  // D1, the distributor's notice (src/server/lecturas/d1.ts), and the company's answers to it.
  MensajeNotificacionCambiosATRDesdeDistribuidor: 'NotificacionCambiosATRDesdeDistribuidor.xsd',
  MensajeAceptacionNotificacionCambiosATRDesdeDistribuidor: 'AceptacionD1.xsd',
  MensajeRechazoD1: 'RechazoD1.xsd',
};

/** The process a request's root element starts. */
export function procesoDeSolicitud(raiz: string): ProcesoAtr | null {
  return PROCESOS_ATR.find((p) => PROCESO[p].solicitud.raiz === raiz) ?? null;
}

/** The rejection reasons of CNMC table 27 the exchange gives, with their titles. */
export const MOTIVOS_ATR = {
  '01': 'No existe punto de suministro asociado al CUPS',
  '02': 'Inexistencia de contrato de ATR previo en vigor',
  '03': 'NIF-CIF no coincide con el del contrato en vigor',
  '11': 'Comercializadora incorrecta',
  '12': 'Contrato cortado por impago',
  '14': 'Potencia solicitada mayor que la potencia máxima autorizada en baja tensión',
  '15': 'Secuencia de potencias incorrecta (Pi > Pi+1)',
  '17': 'Tarifa no válida para la tensión de suministro',
  '21': 'Existencia de contrato previo en vigor',
  '26': 'Acceso imposibilitado más de dos veces por causas ajenas a la distribuidora',
  '27': 'Caja ICP no válida o inexistente',
  '28': 'Rechazo por anormalidad',
  '29': 'Falta equipo del cliente',
  '31': 'Impedimento del titular',
  '37': 'Existencia de solicitud previa en curso A3',
  '38': 'Existencia de solicitud previa en curso C1',
  '39': 'Existencia de solicitud previa en curso C2',
  '40': 'Existencia de solicitud previa en curso M1',
  '42': 'No es posible la anulación: trabajo ya en campo o acciones no anulables en una reclamación',
  '43': 'No es posible la anulación: solicitud ya activada',
  '47': 'Potencias no normalizadas en suministro trifásico',
  '48': 'Potencias no normalizadas en suministro monofásico',
  '52': 'Tarifa no válida para las potencias solicitadas',
  '65': 'Más de una modificación de potencia en menos de 12 meses',
  '66': 'Suministro telegestionado',
  '67': 'Suministro con maxímetro',
  '72': 'Contrato en baja',
  '73': 'Suministro con potencia mayor de 15 kW',
  '75': 'Discrepancia entre información de lecturas y número de integradores',
  '77': 'Lectura menor que la última real',
  '78': 'Consumo excesivo',
  '79': 'Periodo de lectura inferior',
  '85': 'Falta un campo obligatorio',
  D2: 'No es posible la anulación: no existe solicitud previa',
  A9: 'Potencia solicitada mayor que la potencia máxima autorizada en alta tensión',
  '99': 'Otros',
} as const;
export type MotivoAtr = keyof typeof MOTIVOS_ATR;

/** States of a request as the company follows them (from its steps, docs/sector.md §4.6). */
export const ESTADOS_ATR = ['aceptada', 'rechazada', 'activada', 'anulada', 'incidencia', 'rechazada_campo'] as const;
export type EstadoAtr = (typeof ESTADOS_ATR)[number];

/** The table 27 reasons a request is refused for after the field work (`campo.rechazo`): what the crew found on site. */
export const MOTIVOS_CAMPO = ['26', '27', '28', '29', '31', '99'] as const satisfies readonly MotivoAtr[];

/** Table 28: why the distributor's field work is delayed (`campo.incidencia`, an incidence that keeps the request open). */
export const INCIDENCIAS_ATR = {
  '01': 'Cliente ausente',
  '06': 'El cliente no ha puesto el equipo de su propiedad a disposición de la distribuidora',
  '08': 'Cita concertada',
  '09': 'Deficiencia subsanable en la instalación',
  '10': 'Deficiencia subsanable en el equipo de medida',
  '11': 'Trabajos pendientes de finalizar',
  '12': 'Teléfono de contacto erróneo',
  '13': 'El consumidor en campo no quiere la baja',
} as const;
export type IncidenciaAtr = keyof typeof INCIDENCIAS_ATR;

/** The root element of the outgoing company's notice (step 06 of C1 and C2), and of an incidence. */
export const RAIZ_SALIENTE = 'MensajeActivacionComercializadorSaliente';
export const RAIZ_INCIDENCIA = 'MensajeIncidenciasATRDistribuidor';
