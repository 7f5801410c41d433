/**
 * The supply-point register in the CNMC SIPS layouts (docs/sector.md §3.2–§3.3; docs/decisions/016):
 * a SIPS2026 PS_ELECTRICIDAD row becomes a supply point of the portal, and a supply point becomes a
 * PS row again in either layout. The columns the portal models (holder, address, tariff, powers,
 * meter, retailer, dates) live in the `suministros` columns; every other SIPS2026 column is kept
 * by its CNMC name in `datos_sips`, so a distributor's file is written back as it came.
 *
 * What SIPS does not carry is not invented: the meter's serial number and the retailer's name stay
 * as they were (null for a new supply point), and a supply point that is "acogido a autoconsumo"
 * in SIPS2026 without the modality the v2 table 113 gives is recorded as `modalidad_no_informada`.
 */
import { conPunto } from '../../lib/formato/frases.ts';
import { errorCups, MENSAJES_CUPS, normalizarCups } from '../../lib/cups.ts';
import { DISTRIBUIDORAS, type Distribuidora } from '../../lib/distribuidoras.ts';
import { esCifValido, esDniValido, esNieValido, esNifPersonaEspecialValido, normalizarNif } from '../../lib/nif.ts';
import { CODIGO_TARIFA, PS_SIPS2026, TENSION_TABLA_64 } from '../../lib/sips/columnas.ts';
import type { FallaColumna } from '../../lib/sips/fila.ts';
import type { SuministroEntrada } from '../suministros/service.ts';

/** A row by CNMC column name. */
export type FilaSips = Readonly<Record<string, string>>;

/** The SIPS2026 columns kept in `datos_sips`: those the `suministros` columns do not hold. */
export const COLUMNAS_EN_DATOS = PS_SIPS2026.map((c) => c.nombre).filter(
  (n) =>
    ![
      'codigoEmpresaDistribuidora',
      'nombreEmpresaDistribuidora',
      'cups',
      'codigoProvinciaPS',
      'desProvinciaPS',
      'codigoMunicipioPS',
      'desMunicipioPS',
      'codigoPostalPS',
      'fechaAltaSuministro',
      'codigoTarifaATREnVigor',
      'potenciasContratadasEnWP1',
      'potenciasContratadasEnWP2',
      'potenciasContratadasEnWP3',
      'potenciasContratadasEnWP4',
      'potenciasContratadasEnWP5',
      'potenciasContratadasEnWP6',
      'codigoComercializadorVigente',
      'idTitular',
      'codigoFasesEquipoMedida',
      'acogimientoAutoconsumo',
      'codigoPeriodicidadFacturacion',
      'codigoModoControlPotencia',
      'codigoPropiedadEquipoMedida',
      'suspensionSuminstroImpago',
    ].includes(n),
);

/** A supply point as the register holds it: the portal's columns and the other SIPS columns. */
export type SuministroSips = Omit<SuministroEntrada, 'numeroContador' | 'comercializadoraNombre'> & {
  numeroContador?: string | null;
  comercializadoraNombre?: string | null;
  datosSips: Record<string, string>;
};

/** Tabla 12 street kinds in words, to write the address the portal shows. */
// prettier-ignore
const TIPO_VIA: Readonly<Record<string, string>> = {
  AC: 'Acceso', AD: 'Aldea', AF: 'Afueras', AG: 'Agrupación', AL: 'Alameda', AR: 'Arrabal', AU: 'Autovía', AV: 'Avenida',
  BC: 'Barranco', BD: 'Barriada', BL: 'Bloque', BO: 'Barrio', CA: 'Colonia', CF: 'Callejón', CH: 'Chalet', CI: 'Carril', CJ: 'Calleja',
  CL: 'Calle', CM: 'Complejo', CN: 'Camino', CO: 'Cooperativa', CR: 'Carretera', CS: 'Casa', CT: 'Cuesta', DI: 'Diseminado',
  ED: 'Edificio', EN: 'Entrada', FC: 'Finca', FI: '', GL: 'Glorieta', GR: 'Grupo', LG: 'Lugar', MA: 'Masía', MU: 'Muelle',
  MZ: 'Manzana', NU: 'Núcleo', OV: '', PA: 'Parque', PB: 'Poblado', PD: 'Partida', PE: 'Paseo', PI: 'Polígono industrial',
  PJ: 'Paraje', PL: 'Pantalán', PO: 'Polígono', PQ: 'Parque', PR: 'Prolongación', PS: 'Pasaje', PT: 'Plazoleta', PY: 'Playa',
  PZ: 'Plaza', RA: 'Rambla', RD: 'Ronda', RS: 'Residencial', SU: 'Subida', SD: 'Senda', TR: 'Travesía', UR: 'Urbanización', VI: 'Vial',
  ZN: 'Zona',
};

/** Tabla 32 owner codes and the portal's words for them. */
export const PROPIEDAD: Readonly<Record<string, string>> = { '1': 'distribuidora', '2': 'cliente', '3': 'comercializadora', '4': 'otros' };
/** SIPS power control mode codes and the portal's words for them. */
export const CONTROL: Readonly<Record<string, string>> = { '1': 'icp', '2': 'maximetro', '3': 'telegestion', '4': 'sin_control' };
/** A code table read the other way round: the portal's word → the code. */
const invertir = (m: Readonly<Record<string, string>>) => Object.fromEntries(Object.entries(m).map(([k, v]) => [v, k]));
/** Tabla 32 code of each owner the portal records. */
export const CODIGO_PROPIEDAD: Readonly<Record<string, string>> = invertir(PROPIEDAD);
/** SIPS power control mode code of each mode the portal records. */
export const CODIGO_CONTROL: Readonly<Record<string, string>> = invertir(CONTROL);
const TARIFA_DE_CODIGO = invertir(CODIGO_TARIFA);

/** Tabla 113 code of each self-consumption modality the portal records (docs/sector.md §4.6). */
export const AUTOCONSUMO_113: Readonly<Record<string, string>> = {
  ninguno: '00',
  sin_excedentes: '31',
  con_excedentes_compensacion: '41',
  con_excedentes_sin_compensacion: '51',
};

/** The address line the portal shows, from the SIPS2026 parts: "Calle Mayor, 12, Esc. 1, 3.º B". */
export function direccionDeFila(f: FilaSips, sufijo: 'PS' | 'Titular'): string {
  const via = [TIPO_VIA[f[`tipoVia${sufijo}`] ?? ''] ?? '', f[`via${sufijo}`] ?? ''].filter(Boolean).join(' ');
  const numero = [f[`numFinca${sufijo}`], f[`duplicadorFinca${sufijo}`]].filter(Boolean).join(' ');
  const partes = [via, numero];
  if (f[`escalera${sufijo}`]) partes.push(`Esc. ${f[`escalera${sufijo}`]}`);
  const pisoPuerta = [f[`piso${sufijo}`] ? `${f[`piso${sufijo}`]}.º` : '', f[`puerta${sufijo}`] ?? ''].filter(Boolean).join(' ');
  if (pisoPuerta) partes.push(pisoPuerta);
  if (f[`aclaradorFinca${sufijo}`]) partes.push(f[`aclaradorFinca${sufijo}`]!);
  return partes.filter(Boolean).join(', ');
}

const entero = (v: string | undefined): number | null => (v === undefined || v === '' ? null : Number(v));

/**
 * A SIPS2026 PS row as a supply point of the portal, or the faults that stop it (column and
 * reason). The row's values have already passed the layout's checks (`fallasFilaSips`).
 */
export function suministroDeFilaSips(f: FilaSips): { suministro: SuministroSips } | { fallas: FallaColumna[] } {
  const fallas: FallaColumna[] = [];
  const falla = (columna: string, motivo: string) => fallas.push({ columna, motivo });

  const dist: Distribuidora | undefined = DISTRIBUIDORAS.find((d) => d.codigoREE === f.codigoEmpresaDistribuidora);
  if (!dist) falla('codigoEmpresaDistribuidora', `«${f.codigoEmpresaDistribuidora}» no es una distribuidora de este portal.`);
  const cups = normalizarCups(f.cups ?? '');
  const errCups = errorCups(cups);
  if (errCups) falla('cups', MENSAJES_CUPS[errCups]);
  else if (dist && !cups.startsWith(dist.prefijoCups))
    falla('cups', conPunto(`El CUPS no empieza por ${dist.prefijoCups}, el prefijo de ${dist.nombre}`));

  const nif = normalizarNif(f.idTitular ?? '');
  if (!nif) falla('idTitular', 'Falta el NIF, NIE o CIF del titular.');
  else if (!(esDniValido(nif) || esNieValido(nif) || esNifPersonaEspecialValido(nif) || esCifValido(nif))) {
    falla('idTitular', `«${nif}» no es un NIF, NIE ni CIF válido (la letra o el dígito de control no cuadran).`);
  }
  const nombre =
    f.tipoPersona === 'J' ? (f.nombreTitular ?? '') : [f.nombreTitular, f.apellido1Titular, f.apellido2Titular].filter(Boolean).join(' ');
  if (!nombre.trim()) falla('nombreTitular', 'Falta el nombre o la razón social del titular.');

  const tarifa = TARIFA_DE_CODIGO[f.codigoTarifaATREnVigor ?? ''];
  if (!tarifa) {
    falla('codigoTarifaATREnVigor', `La tarifa ${f.codigoTarifaATREnVigor} no es una de las que admite el portal (018 2.0TD a 023 6.4TD).`);
  }
  const todas = [1, 2, 3, 4, 5, 6].map((p) => entero(f[`potenciasContratadasEnWP${p}`]));
  const periodos = tarifa === '2.0TD' ? 2 : 6;
  const potenciasW = todas.slice(0, periodos);
  potenciasW.forEach((p, i) => {
    if (p === null || p <= 0)
      falla(`potenciasContratadasEnWP${i + 1}`, `La tarifa ${tarifa ?? ''} contrata ${periodos} potencias y falta la P${i + 1}.`);
  });
  todas.slice(periodos).forEach((p, i) => {
    if (p) falla(`potenciasContratadasEnWP${periodos + i + 1}`, `La tarifa ${tarifa} contrata ${periodos} potencias; esta debe ir vacía.`);
  });
  const maxima = Math.max(entero(f.potenciaMaximaBIEW) ?? 0, entero(f.potenciaMaximaAPMW) ?? 0);
  if (maxima <= 0) falla('potenciaMaximaBIEW', 'Falta la potencia máxima admisible (potenciaMaximaBIEW o potenciaMaximaAPMW).');
  else if (potenciasW.some((p) => p !== null && p > maxima)) {
    falla('potenciaMaximaBIEW', 'Una potencia contratada supera la potencia máxima admisible de la instalación.');
  }
  const tensionV = TENSION_TABLA_64[f.codigoTensionV ?? ''];
  if (!tensionV)
    falla(
      'codigoTensionV',
      `Falta la tensión de suministro o su código (${f.codigoTensionV || 'vacío'}) no corresponde a una tensión en uso.`,
    );

  const provincia = f.codigoProvinciaPS ?? '';
  const municipioIne = f.codigoMunicipioPS?.length === 3 ? `${provincia}${f.codigoMunicipioPS}` : (f.codigoMunicipioPS ?? '');
  if (!/^\d{5}$/.test(municipioIne) || (provincia && !municipioIne.startsWith(provincia))) {
    falla('codigoMunicipioPS', 'El código INE del municipio debe tener 5 cifras (o 3 tras las 2 de codigoProvinciaPS).');
  }
  if (!/^\d{5}$/.test(f.codigoPostalPS ?? '')) falla('codigoPostalPS', 'El código postal debe tener 5 cifras.');
  if (!f.desMunicipioPS) falla('desMunicipioPS', 'Falta el nombre del municipio del suministro.');
  if (!f.fechaAltaSuministro) falla('fechaAltaSuministro', 'Falta la fecha de alta del suministro.');
  if (!f.codigoComercializadorVigente) falla('codigoComercializadorVigente', 'Falta el código de la comercializadora vigente.');
  const direccion = direccionDeFila(f, 'PS');
  if (!direccion) falla('viaPS', 'Falta la dirección del suministro.');
  if (fallas.length > 0 || !dist || !tarifa || !tensionV) return { fallas };

  const telegestionado = f.codigoLecturaRemota === '01' || f.codigoLecturaRemota === '02';
  const ultimaLectura = f.fechaUltimaLectura ? Number(f.fechaUltimaLectura.slice(8, 10)) : 1;
  const clasificacion = f.codigoClasificacionPS ?? '';
  const datosSips: Record<string, string> = {};
  for (const n of COLUMNAS_EN_DATOS) if (f[n]) datosSips[n] = f[n];
  return {
    suministro: {
      // The register keys a supply point by its 20 characters; a 22-character CUPS (with its border point) is the same one.
      cups: cups.slice(0, 20),
      distribuidora: dist.codigo,
      titularNif: nif,
      titularNombre: nombre.trim(),
      direccion,
      codigoPostal: f.codigoPostalPS!,
      municipio: f.desMunicipioPS!,
      codigoIne: municipioIne,
      provincia: f.desProvinciaPS || provincia,
      tarifa,
      potenciasW: potenciasW as number[],
      potenciaMaximaW: maxima,
      tensionV,
      contadorInteligente: telegestionado,
      telegestionado,
      propiedadContador: PROPIEDAD[f.codigoPropiedadEquipoMedida ?? ''] ?? 'distribuidora',
      fasesContador: f.codigoFasesEquipoMedida === 'T' ? 'trifasico' : 'monofasico',
      // Metering points of types 1 to 3 register quarter-hours; types 4 and 5 hours (docs/sector.md §3.2, tabla 30).
      resolucionMinutos: ['01', '02', '03'].includes(clasificacion) ? 15 : 60,
      modoControlPotencia: CONTROL[f.codigoModoControlPotencia ?? ''] ?? (telegestionado ? 'telegestion' : 'icp'),
      autoconsumo: f.acogimientoAutoconsumo === 'S' ? 'modalidad_no_informada' : 'ninguno',
      comercializadoraCodigo: f.codigoComercializadorVigente!,
      periodicidadFacturacion: f.codigoPeriodicidadFacturacion === '02' ? 'bimestral' : 'mensual',
      // The billing reading is taken on the cycle day: the day of the last firm reading (1–28).
      cicloLectura: Math.min(Math.max(ultimaLectura, 1), 28),
      fechaAlta: f.fechaAltaSuministro!,
      fechaBaja: null,
      // SIPS2026 says only S or N; the day is the one the file dates its data by, or else the contract's start.
      suspendidoDesde: f.suspensionSuminstroImpago === 'S' ? f.fechaUltimoMovimientoContrato || f.fechaAltaSuministro! : null,
      datosSips,
    },
  };
}
