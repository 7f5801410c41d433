/**
 * The CNMC SIPS file layouts (docs/sector.md §3.2–§3.4): the supply-point file (PS_ELECTRICIDAD)
 * and the monthly consumption file (CONSUMOS_ELECTRICIDAD), each in the v2 layout and in the
 * SIPS2026 (v3) layout, with the type of every column and the code tables it is checked against.
 * One definition serves the reader of a distributor's file, the writer of the monthly files and
 * the CUPS query, so the three can never disagree on a column.
 *
 * Column order and names follow gisce/sippers (`parsers/cnmc_v2.py`, `parsers/cnmc_v3.py`,
 * `models/cnmc_v2.py`, `models/cnmc_v3.py`); lengths and units follow the CNMC definition as
 * docs/sector.md §3.2 transcribes it. Powers are W and energies Wh (reactive VArh), integers;
 * dates are `AAAA-MM-DD`.
 */

/** Versions of the layout: v2 (RD 1074/2015, no holder data) and SIPS2026 (v3, with the holder). */
export const VERSIONES_SIPS = ['v2', 'sips2026'] as const;

/** A layout version. */
export type VersionSips = (typeof VERSIONES_SIPS)[number];

/** The two files of each month. */
export const TIPOS_FICHERO_SIPS = ['PS_ELECTRICIDAD', 'CONSUMOS_ELECTRICIDAD'] as const;

/** Kind of SIPS file. */
export type TipoFicheroSips = (typeof TIPOS_FICHERO_SIPS)[number];

/**
 * The code tables of the CNMC exchange formats a SIPS column is checked against (docs/sector.md §3.3,
 * §4.6, §6.4), as gisce/gestionatr `defs.py` and gisce/sippers `utils.py` list them.
 */
// prettier-ignore
export const TABLAS_SIPS = {
  /** Tabla 3 as sippers validates `cambio…EnCurso`. */
  3: ['01', '02'],
  /** Tabla 6: kind of identity document (NI NIF, NV NIVA, OT other, PS passport, NE NIE). */
  6: ['NI', 'NV', 'OT', 'PS', 'NE'],
  /** Tabla 9: contract type. */
  9: ['01', '02', '03', '05', '07', '08', '09', '10', '11', '12'],
  /** Tabla 12: kind of street. */
  12: [
    'AC', 'AD', 'AF', 'AG', 'AL', 'AR', 'AU', 'AV', 'BC', 'BD', 'BL', 'BO', 'CA', 'CF', 'CH', 'CI', 'CJ', 'CL', 'CM', 'CN', 'CO', 'CR',
    'CS', 'CT', 'DI', 'ED', 'EN', 'FC', 'FI', 'GL', 'GR', 'LG', 'MA', 'MU', 'MZ', 'NU', 'OV', 'PA', 'PB', 'PD', 'PE', 'PI', 'PJ', 'PL',
    'PO', 'PQ', 'PR', 'PS', 'PT', 'PY', 'PZ', 'RA', 'RD', 'RS', 'SU', 'SD', 'TR', 'UR', 'VI', 'ZN',
  ],
  /** Tabla 17: access tariff (018 2.0TD … 023 6.4TD, 024–029 the TDVE variants; older codes kept for old files). */
  17: [
    '001', '003', '004', '005', '006', '007', '008', '011', '012', '013', '014', '015', '016', '017', '018', '019', '020', '021', '022',
    '023', '024', '025', '026', '027', '028', '029',
  ],
  /** Tabla 26: S or N. */
  26: ['S', 'N'],
  /** Tabla 30: type of metering point (1 to 5). */
  30: ['01', '02', '03', '04', '05'],
  /** Tabla 32: who owns the meter or the ICP (1 distributor, 2 customer, 3 retailer, 4 others). */
  32: ['1', '2', '3', '4'],
  /** Tabla 35: time discrimination of the meter. */
  35: ['1', '2', '3', '4', '6', '8', '9', 'A'],
  /** Tabla 62: kind of supply. */
  62: [
    'AB', 'AH', 'AL', 'AN', 'AP', 'AS', 'AT', 'BA', 'CM', 'CP', 'DE', 'EA', 'ES', 'FT', 'FV', 'GA', 'GB', 'HP', 'HR', 'IC', 'IF', 'IH',
    'IN', 'IT', 'KC', 'LB', 'LC', 'OF', 'PC', 'PT', 'RA', 'RT', 'SA', 'SC', 'SE', 'SG', 'SM', 'SO', 'TL', 'TR', 'UF', 'UV', 'VI', 'VE',
  ],
  /** Tabla 64: supply voltage (01 1X220 … 49 3x260, 99 obsolete). */
  64: [...Array.from({ length: 49 }, (_, i) => String(i + 1).padStart(2, '0')), '99'],
  /** Tabla 108: billing periodicity (01 monthly, 02 every two months). */
  108: ['01', '02'],
  /** Tabla 111: telemanagement (01 with hourly curve, 02 without, 03 none). */
  111: ['01', '02', '03'],
  /** Tabla 113: self-consumption (00 none; 31–33 without surplus; 41–43 with compensation; 51–74 without). */
  113: [
    '00', '31', '32', '33', '41', '42', '43', '51', '52', '53', '54', '55', '56', '57', '58', '61', '62', '63', '64', '71', '72', '73',
    '74',
  ],
  /** Tabla 115: kind of person (F natural, J legal). */
  115: ['F', 'J'],
} as const satisfies Record<number, readonly string[]>;

/** Number of a code table. */
export type TablaSips = keyof typeof TABLAS_SIPS;

/** What a column holds, and so how it is checked and written. */
export type TipoColumnaSips =
  | { tipo: 'texto'; max: number }
  | { tipo: 'entero'; digitos: number }
  | { tipo: 'decimal' }
  | { tipo: 'fecha' }
  | { tipo: 'codigo'; tabla: TablaSips }
  | { tipo: 'valores'; valores: readonly string[] };

/** One column of a layout. */
export interface ColumnaSips {
  /** The CNMC name, written in the header row. */
  nombre: string;
  tipo: TipoColumnaSips;
  /** Whether a row without it is faulty. */
  obligatoria?: boolean;
}

const texto = (max: number): TipoColumnaSips => ({ tipo: 'texto', max });
const entero = (digitos = 11): TipoColumnaSips => ({ tipo: 'entero', digitos });
const fecha: TipoColumnaSips = { tipo: 'fecha' };
const codigo = (tabla: TablaSips): TipoColumnaSips => ({ tipo: 'codigo', tabla });
const valores = (...v: string[]): TipoColumnaSips => ({ tipo: 'valores', valores: v });
const col = (nombre: string, tipo: TipoColumnaSips, obligatoria = false): ColumnaSips =>
  obligatoria ? { nombre, tipo, obligatoria } : { nombre, tipo };
const porPeriodo = (prefijo: string, tipo: TipoColumnaSips): ColumnaSips[] => [1, 2, 3, 4, 5, 6].map((p) => col(`${prefijo}${p}`, tipo));

/**
 * A country: the CNMC layout names the column without a code table, and distributors write either
 * an ISO code (`ESP`, `ES`) or the name (`España`); sippers reads any text. As long as a place name.
 */
const PAIS = (nombre: string): ColumnaSips => col(nombre, texto(60));

/** A CUPS: 20 characters, or 22 with a border-point suffix (docs/sector.md §1.1). */
const CUPS = col('cups', texto(22), true);

/** Supply-point file, v2: 57 columns (docs/sector.md §3.2). No holder name, no street address. */
export const PS_V2: readonly ColumnaSips[] = [
  col('codigoEmpresaDistribuidora', texto(4), true),
  CUPS,
  col('nombreEmpresaDistribuidora', texto(60)),
  col('codigoPostalPS', texto(5)),
  col('municipioPS', texto(5)),
  col('codigoProvinciaPS', texto(2)),
  col('fechaAltaSuministro', fecha),
  col('codigoTarifaATREnVigor', codigo(17), true),
  col('codigoTensionV', codigo(64)),
  col('potenciaMaximaBIEW', entero()),
  col('potenciaMaximaAPMW', entero()),
  col('codigoClasificacionPS', codigo(30)),
  col('codigoDisponibilidadICP', texto(1)),
  col('tipoPerfilConsumo', valores('Pa', 'Pb', 'Pc', 'Pd')),
  col('valorDerechosExtensionW', entero()),
  col('valorDerechosAccesoW', entero()),
  col('codigoPropiedadEquipoMedida', codigo(32)),
  col('codigoPropiedadICP', codigo(32)),
  ...porPeriodo('potenciasContratadasEnWP', entero(14)),
  col('fechaUltimoMovimientoContrato', fecha),
  col('fechaUltimoCambioComercializador', fecha),
  col('fechaLimiteDerechosReconocidos', fecha),
  col('fechaUltimaLectura', fecha),
  col('informacionImpagos', texto(255)),
  col('importeDepositoGarantiaEuros', { tipo: 'decimal' }),
  col('tipoIdTitular', codigo(6)),
  col('esViviendaHabitual', codigo(26)),
  col('codigoComercializadora', texto(4)),
  col('codigoTelegestion', codigo(111)),
  col('codigoFasesEquipoMedida', valores('M', 'T')),
  col('codigoAutoconsumo', codigo(113)),
  col('codigoTipoContrato', codigo(9)),
  col('codigoPeriodicidadFacturacion', codigo(108)),
  col('codigoBIE', texto(30)),
  col('fechaEmisionBIE', fecha),
  col('fechaCaducidadBIE', fecha),
  col('codigoAPM', texto(30)),
  col('fechaEmisionAPM', fecha),
  col('fechaCaducidadAPM', fecha),
  col('relacionTransformacionIntensidad', texto(15)),
  col('CNAE', texto(4)),
  col('codigoModoControlPotencia', valores('1', '2', '3', '4')),
  col('potenciaCGPW', entero()),
  col('codigoDHEquipoDeMedida', codigo(35)),
  col('codigoAccesibilidadContador', valores('1', '2', '3')),
  col('codigoPSContratable', valores('0', '1')),
  col('motivoEstadoNoContratable', texto(255)),
  col('codigoTensionMedida', codigo(64)),
  col('codigoClaseExpediente', valores('I', 'N')),
  col('codigoMotivoExpediente', texto(2)),
  col('codigoTipoSuministro', codigo(62)),
  col('aplicacionBonoSocial', valores('0', '1')),
];

/** The address columns of a place (the supply point `PS` or the holder `Titular`) in SIPS2026, in file order. */
const direccion = (sufijo: 'PS' | 'Titular'): ColumnaSips[] => [
  col(`codigoProvincia${sufijo}`, texto(2)),
  col(`desProvincia${sufijo}`, texto(60)),
  col(`codigoMunicipio${sufijo}`, texto(5)),
  col(`desMunicipio${sufijo}`, texto(60)),
  col(`Poblacion${sufijo}`, texto(11)),
  col(`desPoblacion${sufijo}`, texto(60)),
  col(`codigoPostal${sufijo}`, texto(5)),
  col(`tipoVia${sufijo}`, codigo(12)),
  col(`via${sufijo}`, texto(100)),
  col(`numFinca${sufijo}`, texto(10)),
  col(`duplicadorFinca${sufijo}`, texto(10)),
  col(`escalera${sufijo}`, texto(10)),
  col(`piso${sufijo}`, texto(10)),
  col(`puerta${sufijo}`, texto(10)),
  col(`tipoAclaradorFinca${sufijo}`, texto(10)),
  col(`aclaradorFinca${sufijo}`, texto(100)),
];

/**
 * Supply-point file, SIPS2026: 103 columns (docs/sector.md §3.3). The column sippers spells
 * `fiesuministroEsencialld82` is written with its meaning, `suministroEsencial`; the reader accepts both.
 */
export const PS_SIPS2026: readonly ColumnaSips[] = [
  col('codigoEmpresaDistribuidora', texto(4), true),
  col('nombreEmpresaDistribuidora', texto(60)),
  CUPS,
  col('referenciaCatastralPS', texto(20)),
  col('XPS', { tipo: 'decimal' }),
  col('YPS', { tipo: 'decimal' }),
  col('HusoPS', texto(2)),
  col('BandaPS', texto(1)),
  PAIS('PaisPS'),
  ...direccion('PS'),
  col('fechaAltaSuministro', fecha),
  col('codigoTarifaATREnVigor', codigo(17), true),
  col('codigoSegmentoCargoEnVigor', texto(2)),
  col('codigoTensionV', codigo(64)),
  col('potenciaMaximaBIEW', entero()),
  col('potenciaMaximaAPMW', entero()),
  col('codigoClasificacionPS', codigo(30)),
  col('tipoControDelPotencia', texto(2)),
  col('tipoPerfilConsumo', valores('Pa', 'Pb', 'Pc', 'Pd')),
  col('valorDerechosExtensionW', entero()),
  col('valorDerechosAccesoW', entero()),
  col('codigoPropiedadEquipoMedida', codigo(32)),
  col('codigoPropiedadICP', codigo(32)),
  ...porPeriodo('potenciasContratadasEnWP', entero(14)),
  col('fechaUltimoMovimientoContrato', fecha),
  col('fechaUltimoCambioComercializador', fecha),
  col('cambioComercializadorEnCurso', codigo(3)),
  col('codigoComercializadorVigente', texto(4)),
  col('fechaUltimoCambioAgregadorIndependiente', fecha),
  col('cambioAgregadorIndependienteEnCurso', codigo(3)),
  col('codigoAgregadorIndependienteVigente', texto(4)),
  col('fechaLimiteDerechosReconocidos', fecha),
  col('fechaUltimaLectura', fecha),
  col('suspensionSuminstroImpago', codigo(26)),
  col('tipoPersona', codigo(115)),
  col('tipoIdTitular', codigo(6)),
  col('idTitular', texto(14)),
  col('nombreTitular', texto(100)),
  col('apellido1Titular', texto(50)),
  col('apellido2Titular', texto(50)),
  PAIS('PaisTitular'),
  ...direccion('Titular'),
  col('esViviendaHabitual', codigo(26)),
  col('codigoLecturaRemota', codigo(111)),
  col('codigoFasesEquipoMedida', valores('M', 'T')),
  col('acogimientoAutoconsumo', codigo(26)),
  col('aplicacionBonoSocial', valores('0', '1')),
  col('suministroEsencial', codigo(26)),
  col('cnae', texto(4)),
  col('codigoTipoContrato', codigo(9)),
  col('codigoPeriodicidadFacturacion', codigo(108)),
  col('codigoBIE', texto(30)),
  col('fechaEmisionBIE', fecha),
  col('fechaCaducidadBIE', fecha),
  col('codigoAPM', texto(30)),
  col('fechaEmisionAPM', fecha),
  col('fechaCaducidadAPM', fecha),
  col('relacionTransformacionIntensidad', texto(15)),
  col('codigoModoControlPotencia', valores('1', '2', '3', '4')),
  col('potenciaCGPW', entero()),
  col('codigoDHEquipoDeMedida', codigo(35)),
  col('codigoAccesibilidadContador', valores('1', '2', '3')),
  col('codigoPSContratable', valores('0', '1')),
  col('motivoEstadoNoContratable', texto(255)),
  col('codigoTensionMedida', codigo(64)),
  col('codigoClaseExpediente', valores('I', 'N')),
  col('codigoMotivoExpediente', texto(2)),
  col('codigoTipoSuministro', codigo(62)),
];

/**
 * The SIPS2026 columns of the holder's identity and address, from `idTitular` to
 * `aclaradorFincaTitular`. For a natural person (`tipoPersona` F) they are left empty in what supply
 * companies receive (files and CUPS query): personal data of natural persons are not in SIPS
 * without the consumer's consent (RD 1435/2002 art. 7 as RD 1074/2015 left it; RGPD art. 5.1.c).
 * A legal person's CIF, name and address are kept. docs/decisions/036.
 */
export const COLUMNAS_TITULAR_RESERVADAS: readonly string[] = PS_SIPS2026.slice(
  PS_SIPS2026.findIndex((c) => c.nombre === 'idTitular'),
  PS_SIPS2026.findIndex((c) => c.nombre === 'aclaradorFincaTitular') + 1,
).map((c) => c.nombre);

/** Other spellings a reader accepts for a SIPS2026 column: sippers' header list carries a typo. */
export const ALIAS_COLUMNAS_SIPS: Readonly<Record<string, string>> = { fiesuministroEsencialld82: 'suministroEsencial' };

const CABECERA_CONSUMOS: ColumnaSips[] = [
  CUPS,
  col('fechaInicioMesConsumo', fecha, true),
  col('fechaFinMesConsumo', fecha, true),
  col('codigoTarifaATR', codigo(17)),
  ...porPeriodo('consumoEnergiaActivaEnWhP', entero(14)),
];

/** Consumption file, v2: 24 columns, one reactive energy per period (docs/sector.md §3.4). */
export const CONSUMOS_V2: readonly ColumnaSips[] = [
  ...CABECERA_CONSUMOS,
  ...porPeriodo('consumoEnergiaReactivaEnVArhP', entero(14)),
  ...porPeriodo('potenciaDemandadaEnWP', entero(11)),
  col('codigoDHEquipoDeMedida', codigo(35)),
  col('codigoTipoLectura', valores('0', '1', '2')),
];

/** Consumption file, SIPS2026: 30 columns, reactive energy split into inductive and capacitive (docs/sector.md §3.4). */
export const CONSUMOS_SIPS2026: readonly ColumnaSips[] = [
  ...CABECERA_CONSUMOS,
  ...porPeriodo('consumoEnergíaReactivaInductivaEnVArhP', entero(14)),
  ...porPeriodo('consumoEnergíaReactivaCapacitivaEnVArhP', entero(14)),
  ...porPeriodo('potenciaDemandadaEnWP', entero(11)),
  col('codigoDHEquipoDeMedida', codigo(35)),
  col('codigoTipoLectura', valores('0', '1', '2')),
];

/** The layout of a kind of file in a version. */
export function columnasSips(tipo: TipoFicheroSips, version: VersionSips): readonly ColumnaSips[] {
  if (tipo === 'PS_ELECTRICIDAD') return version === 'v2' ? PS_V2 : PS_SIPS2026;
  return version === 'v2' ? CONSUMOS_V2 : CONSUMOS_SIPS2026;
}

/**
 * The CNMC name of a monthly file (docs/sector.md §3.1): `YYYYMM_SIPS2_PS_ELECTRICIDAD_<x>.csv`
 * or `YYYYMM_SIPS2026_…`, `<x>` being the distributor, in lower case as sippers' patterns expect.
 */
export function nombreFicheroSips(mes: string, tipo: TipoFicheroSips, version: VersionSips, distribuidora: string): string {
  const yyyymm = mes.replace('-', '').slice(0, 6);
  return `${yyyymm}_${version === 'v2' ? 'SIPS2' : 'SIPS2026'}_${tipo}_${distribuidora.toLowerCase()}.csv`;
}

/** Tariff names (docs/sector.md §6) and their tabla 17 codes, for the tariffs the portal supplies. */
export const CODIGO_TARIFA: Readonly<Record<string, string>> = {
  '2.0TD': '018',
  '3.0TD': '019',
  '6.1TD': '020',
  '6.2TD': '021',
  '6.3TD': '022',
  '6.4TD': '023',
};

/** Tabla 64 voltage codes of the usual supply voltages, in volts; other codes are read as not known to the portal. */
export const TENSION_TABLA_64: Readonly<Record<string, number>> = {
  '01': 220,
  '02': 230,
  '03': 380,
  '04': 380,
  '05': 400,
  '06': 400,
  '07': 127,
  '08': 133,
  '09': 220,
  '10': 230,
  '11': 220,
  '12': 220,
  '13': 230,
  '14': 230,
  '15': 5000,
  '16': 6000,
  '17': 7200,
  '18': 8000,
  '19': 10000,
  '20': 11000,
  '21': 12000,
  '22': 13000,
  '23': 13200,
  '24': 15000,
  '25': 16500,
  '26': 17000,
  '27': 20000,
  '28': 22000,
  '29': 25000,
  '30': 26500,
  '31': 30000,
  '32': 36000,
  '33': 44000,
  '34': 45000,
  '35': 66000,
  '36': 110000,
  '37': 132000,
  '38': 220000,
  '39': 400000,
};
