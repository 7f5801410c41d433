/**
 * The CNMC's claim model (R1, "Reclamaciones", of the exchange formats between supply companies and
 * distributors; docs/sector.md §4.6): the claim types of table 81, the subtypes of table 82 with the
 * minimum fields each one requires, the claimant's role (table 83), the result of a closed claim
 * (table 80) and the code tables some fields take (77, 86, 87, 139, 140). Codes and names are the
 * CNMC's, as the XSDs of the formats list them (the gisce/gestionatr transcription:
 * `gestionatr/defs.py` SUBTYPES_R101 and TABLA_80…140). The field names are the portal's own.
 *
 * Which subtypes the portal offers:
 * - types 01–07 only: the subtypes of type 08 and 09 belong to types table 81 does not define;
 * - not 068 (the conversion factor or PCS of a gas bill): the electricity R1 schema
 *   (TipoMensajeR101.xsd, SubtipoReclamacionPeticion) does not list it;
 * - codes below 100: subtypes 100–114 are claims about the supply company's own contract, prices
 *   and billing (bono social, recobro, desistimiento…), which a consumer addresses to the supply
 *   company, not to the distributor;
 * - subtypes about the ATR exchange itself (a request code of the supply company, the ATR invoice
 *   or its XML file) are offered only to a claimant acting as supply company (role 06): a household
 *   has no ATR request code to give.
 * Plain data and functions, shared by the server (which checks) and the screens (which ask).
 */
import { esCupsValido, normalizarCups } from '../cups.ts';
import type { ReglaNumero } from '../formato/leer-numero.ts';
import { esNifValido, normalizarNif } from '../nif.ts';

/** Claim types (table 81). */
export const TIPOS_RECLAMACION = {
  '01': 'Atención personal',
  '02': 'Facturación y medida',
  '03': 'Contratación',
  '04': 'Gestión de acometidas',
  '05': 'Calidad de suministro',
  '06': 'Situación de instalaciones',
  '07': 'Atención reglamentaria',
} as const;
export type TipoReclamacion = keyof typeof TIPOS_RECLAMACION;
export const CODIGOS_TIPO = Object.keys(TIPOS_RECLAMACION) as TipoReclamacion[];

/** Result of a closed claim (table 80). */
export const RESULTADOS = {
  '01': 'Procedente / favorable',
  '02': 'Improcedente / desfavorable',
  '03': 'No gestionable',
  '04': 'Anulada',
  '05': 'Duplicada',
} as const;
export type ResultadoReclamacion = keyof typeof RESULTADOS;
export const CODIGOS_RESULTADO = Object.keys(RESULTADOS) as ResultadoReclamacion[];

/** Who claims (table 83). */
export const ROLES_RECLAMANTE = {
  '01': 'Titular del punto de suministro o usuario efectivo',
  '02': 'Representante legal',
  '03': 'Aseguradora',
  '04': 'Administración u organismo público',
  '06': 'Comercializador',
  '07': 'Juzgados',
  '08': 'Afectado no titular del punto de suministro',
  '09': 'Asociación de consumidores',
  '11': 'Junta Arbitral de Consumo',
} as const;
export type RolReclamante = keyof typeof ROLES_RECLAMANTE;
/** In the table's order (an object's integer-like keys would put '11' first). */
export const CODIGOS_ROL: readonly RolReclamante[] = ['01', '02', '03', '04', '06', '07', '08', '09', '11'];

/** Kind of incorrect attention (table 87), for subtype 001. */
export const TABLA_87 = {
  '01': 'Por personal de canales de atención',
  '02': 'Por operarios de equipos de medida',
  '03': 'Por operarios de nuevos suministros',
  '04': 'Por operarios de inspección',
  '05': 'Por operaciones (operación y mantenimiento de red, descargos)',
  '06': 'Por operarios de lecturas',
} as const;

/** Meter incident (table 86), for subtype 003. */
export const TABLA_86 = {
  '01': 'Comprobación del contador',
  '02': 'Verificación con patrón',
  '03': 'Contador robado o sin contador',
  '04': 'Contador averiado (parado, pantalla apagada, cuenta sin nada conectado, quemado, sin tensión)',
  '05': 'Incidencias del interruptor de control de potencia (ICP)',
  '06': 'Contador desprogramado (discriminación horaria o reloj)',
  '07': 'Incidencia en el equipo de telemedida',
} as const;

/** Billed concepts (table 77), for subtype 008. */
export const TABLA_77 = {
  '01': 'Potencia',
  '02': 'Reactiva',
  '03': 'Penalización ICP',
  '04': 'Alquiler de equipo de medida',
  '05': 'Impuestos',
  '06': 'Excesos de potencia',
  '08': 'Depósito de garantía',
  '09': 'Verificación de equipos de medida',
  '10': 'Derechos de corte y reconexión',
  '11': 'Abono por calidad de suministro',
  '12': 'Abono por calidad individual',
  '13': 'Coste de reposición',
  '14': 'Refacturaciones regulatorias',
  '16': 'Derechos de acceso',
  '17': 'Derechos de extensión',
  '18': 'Derechos de enganche',
  '19': 'Derechos de actuación en equipo de medida',
  '20': 'Derechos de supervisión',
  '21': 'Tarifa',
  '22': 'Impuesto eléctrico',
  '23': 'Desglose suplemento territorial',
  '24': 'Pago por uso de la red (autoconsumo)',
  '26': 'Retardo en activación de autoconsumo',
  '27': 'Descuento por retardo en la activación de autoconsumo',
} as const;

/** What a self-consumption billing disagreement is about (table 139), for subtype 075. */
export const TABLA_139 = {
  '01': 'Tipo de autoconsumo',
  '02': 'Tipo de subsección',
  '03': 'Colectivo',
  '04': 'Tipo de CUPS',
  '05': 'Servicios auxiliares',
  '06': 'Único contrato',
  '07': 'Generación neta aplicada',
} as const;

/** Reason of a self-consumption follow-up query (table 140), for subtype 076. */
export const TABLA_140 = {
  '01': 'Contratación',
  '02': 'Conexiones',
  '03': 'Verificación del equipo',
} as const;

/** Contract parameters (table 79, ParametroContratacion), for subtypes 034 and 066. */
export const TABLA_79 = {
  '01': 'Potencia contratada',
  '02': 'Titular',
  '03': 'Tarifa de acceso',
  '04': 'Propiedad del equipo de medida',
  '05': 'Fecha de activación',
  '06': 'Tipo de contrato',
  '07': 'Modo de control de potencia',
  '08': 'Periodicidad de facturación',
  '09': 'Dirección del punto de suministro',
  '10': 'Tipo de autoconsumo',
  '11': 'Tipo de subsección de autoconsumo',
  '12': 'Colectivo',
  '13': 'Tipo de CUPS',
  '14': 'Servicios auxiliares',
  '15': 'Único contrato',
  '16': 'Acuerdo de reparto o fichero de coeficientes',
} as const;

/** Spanish provinces by their INE code, the first two digits of a municipality's code (CNMC R1 UbicacionIncidencia/Provincia). */
export const PROVINCIAS = {
  '01': 'Araba/Álava',
  '02': 'Albacete',
  '03': 'Alicante/Alacant',
  '04': 'Almería',
  '05': 'Ávila',
  '06': 'Badajoz',
  '07': 'Illes Balears',
  '08': 'Barcelona',
  '09': 'Burgos',
  '10': 'Cáceres',
  '11': 'Cádiz',
  '12': 'Castellón/Castelló',
  '13': 'Ciudad Real',
  '14': 'Córdoba',
  '15': 'A Coruña',
  '16': 'Cuenca',
  '17': 'Girona',
  '18': 'Granada',
  '19': 'Guadalajara',
  '20': 'Gipuzkoa',
  '21': 'Huelva',
  '22': 'Huesca',
  '23': 'Jaén',
  '24': 'León',
  '25': 'Lleida',
  '26': 'La Rioja',
  '27': 'Lugo',
  '28': 'Madrid',
  '29': 'Málaga',
  '30': 'Murcia',
  '31': 'Navarra',
  '32': 'Ourense',
  '33': 'Asturias',
  '34': 'Palencia',
  '35': 'Las Palmas',
  '36': 'Pontevedra',
  '37': 'Salamanca',
  '38': 'Santa Cruz de Tenerife',
  '39': 'Cantabria',
  '40': 'Segovia',
  '41': 'Sevilla',
  '42': 'Soria',
  '43': 'Tarragona',
  '44': 'Teruel',
  '45': 'Toledo',
  '46': 'Valencia/València',
  '47': 'Valladolid',
  '48': 'Bizkaia',
  '49': 'Zamora',
  '50': 'Zaragoza',
  '51': 'Ceuta',
  '52': 'Melilla',
} as const;

/** The fields a subtype may require (the R1 message's minimum fields, under the portal's names). */
export const CAMPOS_RECLAMACION = [
  'nifTitular',
  'nombreTitular',
  'telefono',
  'personaContacto',
  'cups',
  'fechaIncidente',
  'tipoAtencionIncorrecta',
  'codigoIncidencia',
  'importeReclamado',
  'numeroFactura',
  'conceptoFacturado',
  'codigoSolicitud',
  'cuentaBancaria',
  'solicitudNuevoSuministro',
  'fechaDesde',
  'fechaHasta',
  'reclamacionAnterior',
  'ubicacion',
  'ubicacionProvincia',
  'ubicacionMunicipio',
  'ubicacionCodigoPostal',
  'conceptoContratacion',
  'lectura',
  'lecturaP2',
  'lecturaP3',
  'lecturaP4',
  'lecturaP5',
  'lecturaP6',
  'fechaLectura',
  'expedienteFraude',
  'disconformidadAutoconsumo',
  'motivoConsulta',
  'cau',
] as const;
export type CampoReclamacion = (typeof CAMPOS_RECLAMACION)[number];

/** How a field is asked and checked. */
export type ClaseCampo =
  | 'texto'
  | 'nif'
  | 'telefono'
  | 'cups'
  | 'fechaHora'
  | 'fecha'
  | 'importe'
  | 'numero'
  | 'iban'
  | 'codigo'
  | 'municipio'
  | 'codigoPostal'
  | 'cau';

/** One field: its label, its kind, its help and, for a code, its table. */
export interface DefinicionCampo {
  etiqueta: string;
  clase: ClaseCampo;
  ayuda?: string;
  tabla?: Readonly<Record<string, string>>;
  max?: number;
  /** How a number is typed and read (src/lib/formato/leer-numero.ts), for amounts and readings. */
  regla?: ReglaNumero;
  /** Not required by the subtype that lists it: checked only when given. */
  opcional?: boolean;
}

/** A meter reading, in whole kWh as the energy registers show them (CNMC R1 LecturaPropuesta, Decimal10V2). */
const LECTURA = { decimales: 0, max: 9_999_999_999, unidad: 'kWh' } as const;

export const DEFINICION_CAMPOS: Readonly<Record<CampoReclamacion, DefinicionCampo>> = {
  nifTitular: { etiqueta: 'NIF, NIE o CIF del titular', clase: 'nif' },
  // CNMC R1 NombreCliente: a company name, or given name and surnames, of at most 80 characters each.
  nombreTitular: { etiqueta: 'Nombre o razón social del titular', clase: 'texto', max: 80 },
  telefono: {
    etiqueta: 'Teléfono de contacto',
    clase: 'telefono',
    ayuda: 'Las 9 cifras de un teléfono español, o + con el prefijo del país y el número (por ejemplo, +33 612345678).',
  },
  personaContacto: { etiqueta: 'Persona de contacto', clase: 'texto', max: 120 },
  cups: { etiqueta: 'Punto de suministro (CUPS)', clase: 'cups' },
  fechaIncidente: { etiqueta: 'Fecha del incidente', clase: 'fecha' },
  tipoAtencionIncorrecta: { etiqueta: 'Tipo de atención incorrecta', clase: 'codigo', tabla: TABLA_87 },
  codigoIncidencia: { etiqueta: 'Incidencia en el equipo de medida', clase: 'codigo', tabla: TABLA_86 },
  importeReclamado: { etiqueta: 'Importe reclamado (€)', clase: 'importe', regla: { decimales: 2, max: 10_000_000, unidad: '€' } },
  numeroFactura: { etiqueta: 'Número de factura', clase: 'texto', max: 26 },
  conceptoFacturado: { etiqueta: 'Concepto facturado con el que no está conforme', clase: 'codigo', tabla: TABLA_77 },
  codigoSolicitud: { etiqueta: 'Código de la solicitud ATR', clase: 'texto', max: 12, ayuda: 'Los 12 caracteres del código de solicitud.' },
  cuentaBancaria: { etiqueta: 'Cuenta bancaria (IBAN)', clase: 'iban' },
  // CNMC R1 NumExpedienteAcometida: X20.
  solicitudNuevoSuministro: { etiqueta: 'Referencia de la solicitud de nuevo suministro', clase: 'texto', max: 20 },
  // CNMC R1 FechaDesde and FechaHasta are dates (xs:date), without a time.
  fechaDesde: { etiqueta: 'Desde (fecha)', clase: 'fecha' },
  fechaHasta: { etiqueta: 'Hasta (fecha)', clase: 'fecha' },
  // CNMC R1 CodigoSolicitudReclamacion: X12, the request code of the earlier claim.
  reclamacionAnterior: {
    etiqueta: 'Código de la reclamación anterior',
    clase: 'texto',
    max: 12,
    ayuda: 'Sus 12 caracteres. En una reclamación de este portal, el año y el número: RC-2026-000123 es 202600000123.',
  },
  // CNMC R1 UbicacionIncidencia: a description of 45 characters, INE province and municipality, postal code.
  ubicacion: {
    etiqueta: 'Lugar de la incidencia',
    clase: 'texto',
    max: 45,
    ayuda: 'Calle y número, o el paraje o la carretera y el kilómetro; hasta 45 caracteres.',
  },
  ubicacionProvincia: { etiqueta: 'Provincia', clase: 'codigo', tabla: PROVINCIAS },
  ubicacionMunicipio: {
    etiqueta: 'Código INE del municipio',
    clase: 'municipio',
    ayuda: 'Sus 5 cifras: las 2 de la provincia y las 3 del municipio (Alcalá de Henares es 28005). Figura en ine.es.',
  },
  ubicacionCodigoPostal: { etiqueta: 'Código postal (opcional)', clase: 'codigoPostal', opcional: true },
  conceptoContratacion: { etiqueta: 'Dato del contrato con el que no está conforme', clase: 'codigo', tabla: TABLA_79 },
  // CNMC R1 LecturasAportadas: one reading of active energy (integrator AE) per period of the access tariff.
  lectura: { etiqueta: 'Lectura P1 (kWh)', clase: 'numero', regla: LECTURA },
  lecturaP2: { etiqueta: 'Lectura P2 (kWh, opcional)', clase: 'numero', regla: LECTURA, opcional: true },
  lecturaP3: { etiqueta: 'Lectura P3 (kWh, opcional)', clase: 'numero', regla: LECTURA, opcional: true },
  lecturaP4: { etiqueta: 'Lectura P4 (kWh, opcional)', clase: 'numero', regla: LECTURA, opcional: true },
  lecturaP5: { etiqueta: 'Lectura P5 (kWh, opcional)', clase: 'numero', regla: LECTURA, opcional: true },
  lecturaP6: { etiqueta: 'Lectura P6 (kWh, opcional)', clase: 'numero', regla: LECTURA, opcional: true },
  fechaLectura: { etiqueta: 'Fecha de la lectura', clase: 'fecha' },
  // CNMC R1 NumExpedienteFraude: X16.
  expedienteFraude: { etiqueta: 'Número del expediente de anomalía o fraude', clase: 'texto', max: 16 },
  disconformidadAutoconsumo: { etiqueta: 'Con qué no está conforme del autoconsumo facturado', clase: 'codigo', tabla: TABLA_139 },
  motivoConsulta: { etiqueta: 'Motivo de la consulta', clase: 'codigo', tabla: TABLA_140 },
  cau: { etiqueta: 'Código de autoconsumo (CAU)', clase: 'cau', ayuda: 'Sus 26 letras y cifras: el CUPS seguido de A y tres cifras.' },
};

/** A subtype (table 82): its code, its type and the fields it requires besides the description. */
export interface SubtipoReclamacion {
  codigo: string;
  tipo: TipoReclamacion;
  nombre: string;
  campos: readonly CampoReclamacion[];
  /** Offered only to a claimant acting as supply company (role 06). */
  soloComercializadora: boolean;
}

/** Where an incident is, as CNMC R1 UbicacionIncidencia takes it. */
const UBICACION: readonly CampoReclamacion[] = ['ubicacion', 'ubicacionProvincia', 'ubicacionMunicipio', 'ubicacionCodigoPostal'];
/** The readings of periods P1–P6 (CNMC R1 LecturasAportadas; P1 required, the others as the tariff has them). */
const LECTURAS: readonly CampoReclamacion[] = ['lectura', 'lecturaP2', 'lecturaP3', 'lecturaP4', 'lecturaP5', 'lecturaP6'];

/**
 * The subtypes of table 82 the portal offers, with their minimum fields (the description is always
 * required). Three lists go beyond table 82 where the R1 schema needs it to hold the data: a contact
 * person travels with a phone (ContactoRecl), so 024 asks one; a holder's identity travels with the
 * name (ClienteConDireccion), so 013 and 042 ask it.
 */
const FILAS: readonly [string, TipoReclamacion, string, readonly CampoReclamacion[]][] = [
  [
    '001',
    '01',
    'Atención incorrecta',
    ['nifTitular', 'nombreTitular', 'telefono', 'cups', 'fechaIncidente', 'personaContacto', 'tipoAtencionIncorrecta'],
  ],
  ['002', '01', 'Privacidad de los datos', ['nifTitular', 'nombreTitular', 'cups']],
  ['003', '02', 'Incidencia en equipos de medida', ['nifTitular', 'nombreTitular', 'telefono', 'cups', 'codigoIncidencia']],
  [
    '004',
    '02',
    'Daños originados por equipo de medida',
    ['nifTitular', 'nombreTitular', 'telefono', 'cups', 'fechaIncidente', 'importeReclamado'],
  ],
  ['005', '02', 'Contador en factura no corresponde con instalado', ['nifTitular', 'nombreTitular', 'telefono', 'cups']],
  ['006', '02', 'Contratos ATR que no se facturan', ['nifTitular', 'nombreTitular', 'cups']],
  [
    '007',
    '02',
    'CUPS no pertenece a comercializadora o no vigente en periodo de factura',
    ['nifTitular', 'nombreTitular', 'cups', 'numeroFactura'],
  ],
  ['008', '02', 'Disconformidad con conceptos facturados', ['nifTitular', 'nombreTitular', 'cups', 'numeroFactura', 'conceptoFacturado']],
  ['009', '02', 'Disconformidad con lectura facturada', ['nifTitular', 'nombreTitular', 'cups', 'numeroFactura']],
  ['010', '02', 'Disconformidad en factura anomalía / fraude', ['nifTitular', 'nombreTitular', 'cups', 'numeroFactura']],
  ['011', '02', 'Reclamación factura pago duplicado', ['nifTitular', 'nombreTitular', 'cups', 'numeroFactura']],
  ['012', '02', 'Refacturación no recibida', ['nifTitular', 'nombreTitular', 'cups', 'numeroFactura']],
  ['013', '03', 'Disconformidad con cambio de suministrador', ['nifTitular', 'nombreTitular', 'cups', 'codigoSolicitud']],
  [
    '014',
    '03',
    'Requerimiento de fianza / depósito de garantía',
    ['nifTitular', 'nombreTitular', 'telefono', 'cups', 'personaContacto', 'cuentaBancaria'],
  ],
  ['015', '03', 'Retraso corte de suministro', ['cups', 'codigoSolicitud']],
  ['018', '04', 'Disconformidad con criterios económicos / cobros', ['nombreTitular', 'telefono', 'solicitudNuevoSuministro']],
  ['019', '04', 'Disconformidad con criterios técnicos / obra ejecutada', ['nombreTitular', 'telefono', 'solicitudNuevoSuministro']],
  ['020', '05', 'Calidad de onda', ['cups', 'fechaDesde', 'fechaHasta']],
  ['021', '05', 'Con petición de indemnización', ['cups', 'fechaDesde', 'fechaHasta', 'importeReclamado']],
  ['022', '05', 'Sin petición de indemnización', ['cups', 'fechaDesde', 'fechaHasta']],
  ['023', '05', 'Retraso en pago indemnización', ['cups', 'reclamacionAnterior']],
  ['024', '06', 'Daños a terceros por instalaciones', ['telefono', 'personaContacto', 'fechaDesde', 'fechaHasta', ...UBICACION]],
  ['025', '06', 'Impacto ambiental instalaciones', ['telefono', 'personaContacto', 'fechaDesde', 'fechaHasta']],
  ['026', '06', 'Reclamaciones sobre instalaciones', UBICACION],
  ['027', '07', 'Disconformidad descuento servicio individual', ['cups']],
  ['028', '07', 'Ejecución indebida de corte', ['cups']],
  ['029', '07', 'Retraso en la atención a reclamaciones', ['reclamacionAnterior']],
  ['030', '07', 'Retraso plazo de contestación nuevos suministros', ['solicitudNuevoSuministro']],
  ['031', '07', 'Retraso plazo de ejecución nuevo suministro', ['solicitudNuevoSuministro']],
  ['032', '07', 'Retraso reenganche tras corte', ['cups', 'codigoSolicitud']],
  ['034', '03', 'Disconformidad con conceptos de contratación ATR-peaje', ['cups', 'codigoSolicitud', 'conceptoContratacion']],
  ['035', '03', 'Disconformidad rechazo solicitud ATR-peaje', ['cups', 'codigoSolicitud']],
  [
    '036',
    '02',
    'Petición de refacturación aportando lectura',
    ['nifTitular', 'nombreTitular', 'cups', 'numeroFactura', ...LECTURAS, 'fechaLectura'],
  ],
  ['037', '02', 'Fichero XML incorrecto', ['cups']],
  ['038', '01', 'Privacidad de los datos', ['nifTitular', 'nombreTitular', 'cups']],
  ['039', '05', 'Solicitud de certificado / informe de calidad', ['cups', 'fechaDesde', 'fechaHasta']],
  ['040', '02', 'Solicitud de duplicado de factura', ['nifTitular', 'nombreTitular', 'cups', 'numeroFactura']],
  ['041', '06', 'Solicitud de actuación sobre instalaciones', ['telefono', 'personaContacto', ...UBICACION]],
  ['042', '06', 'Solicitud de descargo', ['nifTitular', 'nombreTitular', 'telefono', 'cups', 'personaContacto']],
  ['043', '06', 'Petición de precintado / desprecintado de equipos', ['telefono', 'cups', 'personaContacto']],
  ['044', '06', 'Peticiones con origen en campañas de telegestión', ['telefono', 'cups', 'personaContacto']],
  ['045', '03', 'Actualización dirección punto de suministro', ['cups']],
  ['046', '02', 'Certificado de lectura', ['cups', 'fechaDesde', 'fechaHasta']],
  ['047', '02', 'Solicitud recálculo CCH sin modificación cierre ATR', ['cups', 'numeroFactura']],
  ['048', '03', 'Petición información adicional rechazo', ['cups', 'codigoSolicitud']],
  ['049', '02', 'Falta fichero medida', ['cups', 'fechaDesde', 'fechaHasta']],
  [
    '057',
    '02',
    'Disconformidad con expediente de anomalía y fraude (sin factura emitida)',
    ['nifTitular', 'nombreTitular', 'expedienteFraude'],
  ],
  ['058', '03', 'Retraso en plazo aceptación cambio de comercializador', ['cups', 'codigoSolicitud']],
  ['059', '03', 'Retraso en plazo activación cambio de comercializador', ['cups', 'codigoSolicitud']],
  ['060', '03', 'Retraso en plazo aceptación modificación contractual', ['cups', 'codigoSolicitud']],
  ['061', '03', 'Retraso en plazo activación modificación contractual', ['cups', 'codigoSolicitud']],
  ['062', '03', 'Retraso en plazo aceptación alta de un nuevo suministro', ['cups', 'codigoSolicitud']],
  ['063', '03', 'Retraso en plazo activación alta de un nuevo suministro', ['cups', 'codigoSolicitud']],
  ['064', '03', 'Retraso en plazo aceptación de una baja de un suministro', ['cups', 'codigoSolicitud']],
  ['065', '03', 'Retraso en plazo activación baja de un suministro', ['cups', 'codigoSolicitud']],
  ['066', '03', 'Información/validación sobre datos del contrato ATR/peaje', ['cups', 'codigoSolicitud', 'conceptoContratacion']],
  ['067', '02', 'Verificación de contador', ['telefono', 'cups', 'personaContacto']],
  ['069', '02', 'Copia F1 en PDF', ['cups', 'numeroFactura']],
  ['070', '01', 'Retraso en la atención a reclamaciones no sujetas a atención reglamentaria', ['reclamacionAnterior']],
  ['071', '03', 'Retraso en plazo aceptación desistimiento', ['cups', 'codigoSolicitud']],
  ['072', '03', 'Retraso en plazo activación desistimiento', ['cups', 'codigoSolicitud']],
  ['073', '02', 'Parámetros de comunicación', ['nifTitular', 'nombreTitular', 'telefono', 'cups']],
  ['074', '03', 'Retraso plazo aceptación anulación', ['cups', 'codigoSolicitud', 'reclamacionAnterior']],
  [
    '075',
    '02',
    'Disconformidad con autoconsumo facturado',
    ['nifTitular', 'nombreTitular', 'cups', 'numeroFactura', 'disconformidadAutoconsumo'],
  ],
  [
    '076',
    '03',
    'Consulta seguimiento autoconsumo',
    ['nifTitular', 'nombreTitular', 'telefono', 'cups', 'personaContacto', 'solicitudNuevoSuministro', 'motivoConsulta'],
  ],
  ['077', '03', 'Retraso en plazo activación unidireccional autoconsumo', ['cups', 'codigoSolicitud', 'cau']],
  ['078', '03', 'Retraso en plazo activación baja unidireccional distribuidora', ['cups', 'codigoSolicitud']],
  ['079', '03', 'Solicitud contrato de acceso', ['nifTitular', 'nombreTitular', 'cups']],
  ['080', '03', 'Retraso en plazo de aceptación reposición', ['cups', 'codigoSolicitud']],
  ['081', '03', 'Retraso en plazo de activación reposición', ['cups', 'codigoSolicitud']],
  ['082', '03', 'Petición de documentación del expediente de anomalía y fraude', ['nifTitular', 'nombreTitular', 'expedienteFraude']],
  [
    '083',
    '03',
    'Solicitud de devolución de fianza/depósito de garantía',
    ['nifTitular', 'nombreTitular', 'telefono', 'cups', 'personaContacto', 'cuentaBancaria'],
  ],
];

/** Subtypes about the ATR exchange between supply company and distributor, besides those that ask an ATR request code. */
const DEL_INTERCAMBIO = new Set(['006', '007', '037', '047', '069', '073']);

export const SUBTIPOS_RECLAMACION: readonly SubtipoReclamacion[] = FILAS.map(([codigo, tipo, nombre, campos]) => ({
  codigo,
  tipo,
  nombre,
  campos,
  soloComercializadora: DEL_INTERCAMBIO.has(codigo) || campos.includes('codigoSolicitud'),
}));

const POR_CODIGO = new Map(SUBTIPOS_RECLAMACION.map((s) => [s.codigo, s]));

/** A subtype by its code. */
export const subtipo = (codigo: string): SubtipoReclamacion | undefined => POR_CODIGO.get(codigo);

/** The subtypes a claimant in `rol` may choose, of one type. */
export function subtiposDe(tipo: string, rol: string | undefined): SubtipoReclamacion[] {
  return SUBTIPOS_RECLAMACION.filter((s) => s.tipo === tipo && (rol === '06' || !s.soloComercializadora));
}

/** The subtype as the screens name it: its code and name. */
export const nombreSubtipo = (codigo: string) => {
  const s = subtipo(codigo);
  return s ? `${s.codigo} · ${s.nombre}` : codigo;
};

const TELEFONO_ES = /^(\+34|0034)?[6789]\d{8}$/;
const TELEFONO_INT = /^(\+|00)\d{8,15}$/;
const FECHA = /^\d{4}-\d{2}-\d{2}$/;
const FECHA_HORA = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;

/** Whether an IBAN's check digits are right (ISO 13616: mod 97 of the rearranged number is 1). */
export function esIbanValido(valor: string): boolean {
  const iban = valor.replace(/\s/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/.test(iban)) return false;
  if (iban.startsWith('ES') && iban.length !== 24) return false;
  const numerico = (iban.slice(4) + iban.slice(0, 4)).replace(/[A-Z]/g, (l) => String(l.charCodeAt(0) - 55));
  let resto = 0;
  for (const c of numerico) resto = (resto * 10 + Number(c)) % 97;
  return resto === 1;
}

/**
 * A label as it reads inside a sentence: its first letter in lower case, unless its first word is an
 * acronym (IBAN, CAU); acronyms and units later in it (CUPS, kWh) keep their spelling.
 */
export function etiquetaEnFrase(etiqueta: string): string {
  const primera = etiqueta.split(/[\s(]/, 1)[0] ?? '';
  if (primera.length > 1 && primera === primera.toUpperCase()) return etiqueta;
  return etiqueta.charAt(0).toLowerCase() + etiqueta.slice(1);
}

/** What is wrong with a field's value, in Spanish, or null. `prefijoCups` is the distributor's. */
export function errorCampo(campo: CampoReclamacion, valor: unknown, prefijoCups: string): string | null {
  const def = DEFINICION_CAMPOS[campo];
  const v = typeof valor === 'string' ? valor.trim() : valor;
  if (v === undefined || v === null || v === '') return `Indique: ${etiquetaEnFrase(def.etiqueta)}.`;
  switch (def.clase) {
    case 'texto':
      return typeof v === 'string' && v.length <= (def.max ?? 200) ? null : `${def.etiqueta}: como mucho ${def.max ?? 200} caracteres.`;
    case 'nif':
      return typeof v === 'string' && esNifValido(normalizarNif(v)) ? null : 'El NIF, NIE o CIF del titular no es válido.';
    case 'telefono':
      return typeof v === 'string' && telefonoR1(v)
        ? null
        : 'Escriba un teléfono español de 9 cifras, o + con el prefijo del país y el número.';
    case 'cups': {
      if (typeof v !== 'string' || !esCupsValido(v)) return 'El CUPS no es válido: compruebe sus letras de control.';
      return normalizarCups(v).startsWith(prefijoCups)
        ? null
        : `El CUPS no es de esta distribuidora (sus CUPS empiezan por ${prefijoCups}).`;
    }
    case 'fechaHora':
      return typeof v === 'string' && FECHA_HORA.test(v) && !Number.isNaN(Date.parse(`${v}:00Z`))
        ? null
        : `${def.etiqueta}: indique fecha y hora.`;
    case 'fecha':
      return typeof v === 'string' && FECHA.test(v) && !Number.isNaN(Date.parse(v)) ? null : `${def.etiqueta}: indique una fecha.`;
    case 'importe':
      return typeof v === 'number' && Number.isFinite(v) && v > 0 && v <= 10_000_000 && Math.round(v * 100) === v * 100
        ? null
        : 'El importe reclamado debe ser mayor que cero, en euros con como mucho dos decimales.';
    case 'numero':
      return typeof v === 'number' &&
        Number.isFinite(v) &&
        v >= 0 &&
        v <= (def.regla?.max ?? Infinity) &&
        Number.isInteger(v * 10 ** (def.regla?.decimales ?? 0))
        ? null
        : `${def.etiqueta}: indique un número${def.regla?.decimales === 0 ? ' entero' : ''}.`;
    case 'iban':
      return typeof v === 'string' && esIbanValido(v) ? null : 'La cuenta bancaria no es un IBAN válido.';
    case 'codigo':
      return typeof v === 'string' && def.tabla && v in def.tabla ? null : `Elija una opción de «${def.etiqueta}».`;
    case 'municipio':
      return typeof v === 'string' && /^\d{5}$/.test(v) && v.slice(0, 2) in PROVINCIAS
        ? null
        : 'El código INE del municipio tiene 5 cifras, y las 2 primeras son las de su provincia.';
    case 'codigoPostal':
      return typeof v === 'string' && /^\d{5}$/.test(v) && v.slice(0, 2) in PROVINCIAS
        ? null
        : 'El código postal tiene 5 cifras, y las 2 primeras son las de su provincia.';
    case 'cau':
      return typeof v === 'string' && /^[A-Z0-9]{26}$/i.test(v) ? null : 'El CAU tiene 26 letras y cifras.';
  }
}

/** Country calling codes of one and two digits (ITU-T E.164 assignments); every other one has three. */
const PREFIJOS_CORTOS = new Set([
  '1',
  '7',
  '20',
  '27',
  '30',
  '31',
  '32',
  '33',
  '34',
  '36',
  '39',
  '40',
  '41',
  '43',
  '44',
  '45',
  '46',
  '47',
  '48',
  '49',
  '51',
  '52',
  '53',
  '54',
  '55',
  '56',
  '57',
  '58',
  '60',
  '61',
  '62',
  '63',
  '64',
  '65',
  '66',
  '81',
  '82',
  '84',
  '86',
  '90',
  '91',
  '92',
  '93',
  '94',
  '95',
  '98',
]);

/**
 * A phone as the CNMC R1 schema takes it (TelefonoInternacional: a country prefix of 1–4 digits and a
 * number of 6–12): 9 Spanish digits are +34; "+" or "00" is followed by the country's E.164 code.
 * Null when it cannot be split that way.
 */
export function telefonoR1(valor: string): { prefijo: string; numero: string } | null {
  const t = valor.replace(/[\s().-]/g, '');
  if (TELEFONO_ES.test(t)) return { prefijo: '34', numero: t.slice(-9) };
  if (!TELEFONO_INT.test(t)) return null;
  const cifras = t.replace(/^(\+|00)/, '');
  const largo = PREFIJOS_CORTOS.has(cifras.slice(0, 1)) ? 1 : PREFIJOS_CORTOS.has(cifras.slice(0, 2)) ? 2 : 3;
  const numero = cifras.slice(largo);
  return numero.length >= 6 && numero.length <= 12 ? { prefijo: cifras.slice(0, largo), numero } : null;
}
