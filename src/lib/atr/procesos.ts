/**
 * The ATR processes a supply company starts with a distributor (docs/sector.md §4; the CNMC's
 * exchange formats, tables 2, 3 and 27): what each message is, which step answers which, and the
 * rejection reasons the portal gives. Plain data, read by the exchange's reader and by the screens.
 */

/** The processes a company starts (tabla 2). */
export const PROCESOS_ATR = ['C1', 'C2', 'A3', 'M1', 'B1'] as const;
export type ProcesoAtr = (typeof PROCESOS_ATR)[number];

/** Their names as the CNMC gives them. */
export const NOMBRE_PROCESO: Readonly<Record<ProcesoAtr, string>> = {
  C1: 'Cambio de comercializador sin modificaciones en el contrato de acceso',
  C2: 'Cambio de comercializador con modificaciones en el contrato de acceso',
  A3: 'Alta de un punto de suministro',
  M1: 'Modificación del contrato de acceso',
  B1: 'Baja o suspensión del suministro',
};

/**
 * Each process's messages, by the root element of its XML: the request (step 01), the acceptance
 * (02), and the step of the company's anulación and of the distributor's answer to it.
 */
export const MENSAJES_PROCESO: Readonly<
  Record<
    ProcesoAtr,
    { solicitud: string; aceptacion: string; pasoAnulacion: string; pasoRespuestaAnulacion: string; aceptacionAnulacion: string }
  >
> = {
  C1: {
    solicitud: 'MensajeCambiodeComercializadorSinCambios',
    aceptacion: 'MensajeAceptacionCambiodeComercializadorSinCambios',
    pasoAnulacion: '08',
    pasoRespuestaAnulacion: '09',
    aceptacionAnulacion: 'MensajeAceptacionAnulacion',
  },
  C2: {
    solicitud: 'MensajeCambiodeComercializadorConCambios',
    aceptacion: 'MensajeAceptacionCambiodeComercializadorConCambios',
    pasoAnulacion: '08',
    pasoRespuestaAnulacion: '09',
    aceptacionAnulacion: 'MensajeAceptacionAnulacion',
  },
  A3: {
    solicitud: 'MensajeAlta',
    aceptacion: 'MensajeAceptacionAlta',
    pasoAnulacion: '06',
    pasoRespuestaAnulacion: '07',
    aceptacionAnulacion: 'MensajeAceptacionAnulacion',
  },
  M1: {
    solicitud: 'MensajeModificacionDeATR',
    aceptacion: 'MensajeAceptacionModificacionDeATR',
    pasoAnulacion: '06',
    pasoRespuestaAnulacion: '07',
    aceptacionAnulacion: 'MensajeAceptacionAnulacion',
  },
  B1: {
    solicitud: 'MensajeBajaSuspension',
    aceptacion: 'MensajeAceptacionBajaSuspension',
    pasoAnulacion: '03',
    pasoRespuestaAnulacion: '04',
    aceptacionAnulacion: 'MensajeAceptacionAnulacionBaja',
  },
};

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
};

/** The process a request's root element starts. */
export function procesoDeSolicitud(raiz: string): ProcesoAtr | null {
  return PROCESOS_ATR.find((p) => MENSAJES_PROCESO[p].solicitud === raiz) ?? null;
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
  '43': 'No es posible la anulación: solicitud ya activada',
  '47': 'Potencias no normalizadas en suministro trifásico',
  '48': 'Potencias no normalizadas en suministro monofásico',
  '52': 'Tarifa no válida para las potencias solicitadas',
  '65': 'Más de una modificación de potencia en menos de 12 meses',
  '72': 'Contrato en baja',
  '85': 'Falta un campo obligatorio',
  A9: 'Potencia solicitada mayor que la potencia máxima autorizada en alta tensión',
  '99': 'Otros',
} as const;
export type MotivoAtr = keyof typeof MOTIVOS_ATR;

/** The table 27 code of a request already in progress on the supply point, by its process. */
export const MOTIVO_EN_CURSO: Readonly<Partial<Record<ProcesoAtr, MotivoAtr>>> = { A3: '37', C1: '38', C2: '39', M1: '40' };

/** Business days the distributor has to answer a request (step 02), as gestionatr encodes the CNMC's deadlines. */
export const HABILES_RESPUESTA: Readonly<Record<ProcesoAtr, number>> = { C1: 5, C2: 5, A3: 5, M1: 5, B1: 5 };

/** States of a request as the company follows them (from its steps, docs/sector.md §4.6). */
export const ESTADOS_ATR = ['aceptada', 'rechazada', 'activada', 'anulada', 'incidencia', 'rechazada_campo'] as const;
export type EstadoAtr = (typeof ESTADOS_ATR)[number];

/** The table 27 reasons a request is refused for after the field work (step 04): what the crew found on site. */
export const MOTIVOS_CAMPO = ['26', '27', '28', '29', '31', '99'] as const satisfies readonly MotivoAtr[];

/** Table 28: why the distributor's field work is delayed (step 03, an incidence that keeps the request open). */
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

/** The root element of each process's activation (step 05), and of the outgoing company's notice (step 06 of C1 and C2). */
export const ACTIVACION_PROCESO: Readonly<Record<ProcesoAtr, { raiz: string; cuerpo: string }>> = {
  C1: { raiz: 'MensajeActivacionCambiodeComercializadorSinCambios', cuerpo: 'ActivacionCambiodeComercializadorSinCambios' },
  C2: { raiz: 'MensajeActivacionCambiodeComercializadorConCambios', cuerpo: 'ActivacionCambiodeComercializadorConCambios' },
  A3: { raiz: 'MensajeActivacionAlta', cuerpo: 'ActivacionAlta' },
  M1: { raiz: 'MensajeActivacionModificacionDeATR', cuerpo: 'ActivacionModificaciones' },
  B1: { raiz: 'MensajeActivacionBajaSuspension', cuerpo: 'ActivacionBaja' },
};
export const RAIZ_SALIENTE = 'MensajeActivacionComercializadorSaliente';
export const RAIZ_INCIDENCIA = 'MensajeIncidenciasATRDistribuidor';
