/**
 * The demo register goes in as a real one does (docs/decisions/016): the demo generator's supply
 * points are written as a SIPS2026 PS_ELECTRICIDAD file and loaded through the register import,
 * and the demo's monthly SIPS files are written by the same code the monthly job runs.
 */
import { DISTRIBUIDORAS } from '../../lib/distribuidoras.ts';
import { CODIGO_TARIFA } from '../../lib/sips/columnas.ts';
import type { Db } from '../db/client.ts';
import type { DemoStep } from '../demo/load.ts';
import type { SuministroEntrada } from '../suministros/service.ts';
import { lineasSips } from './escritor.ts';
import { generarMesSips, mesMas, primerDiaDelMes } from './ficheros.ts';
import { importarRegistroSips, type ResultadoRegistro } from './importar.ts';
import { CODIGO_CONTROL, CODIGO_PROPIEDAD, type FilaSips } from './registro.ts';

/** Tabla 12 codes of the street kinds the demo's addresses use. */
const VIAS: readonly [string, string][] = [
  ['Avenida de ', 'AV'],
  ['Calle ', 'CL'],
  ['Plaza de ', 'PZ'],
  ['Paseo del ', 'PE'],
  ['Polígono ', 'PO'],
];

/** The SIPS2026 address parts of a demo address "Calle Mayor, 12[, 3.º B]". */
function partesDireccion(direccion: string): Record<string, string> {
  const [calle = '', numero = '', ...resto] = direccion.split(', ');
  const via = VIAS.find(([prefijo]) => calle.startsWith(prefijo));
  // "Avenida de la Constitución" is AV + "de la Constitución": the prefix's preposition stays with the name.
  const nombre = via ? calle.slice(via[0].indexOf(' ') + 1) : calle;
  return {
    tipoViaPS: via?.[1] ?? 'CL',
    viaPS: nombre,
    numFincaPS: numero,
    ...(resto.length ? { aclaradorFincaPS: resto.join(', ') } : {}),
  };
}

/** A CIF starts with a letter of a legal entity's kind (docs/sector.md §2.3). */
const esEmpresa = (nif: string) => /^[ABCDEFGHJNPQRSUVW]/.test(nif);

/** The SIPS2026 row a distributor's system would write for a demo supply point, its last reading on `ultimaLectura`. */
export function filaDemo(s: SuministroEntrada, ultimaLectura: string): FilaSips {
  const dist = DISTRIBUIDORAS.find((d) => d.codigo === s.distribuidora)!;
  const [nombre = '', apellido1 = '', ...apellido2] = s.titularNombre.split(' ');
  const titular = esEmpresa(s.titularNif)
    ? { tipoPersona: 'J', tipoIdTitular: 'NI', nombreTitular: s.titularNombre }
    : {
        tipoPersona: 'F',
        tipoIdTitular: /^[XYZ]/.test(s.titularNif) ? 'NE' : 'NI',
        nombreTitular: nombre,
        apellido1Titular: apellido1,
        apellido2Titular: apellido2.join(' '),
      };
  const potencias = Object.fromEntries(s.potenciasW.map((p, i) => [`potenciasContratadasEnWP${i + 1}`, String(p)]));
  const tension =
    s.tensionV === 230 ? (s.fasesContador === 'trifasico' ? '06' : '02') : s.tensionV === 400 ? '06' : s.tensionV === 20_000 ? '27' : '24';
  return {
    codigoEmpresaDistribuidora: dist.codigoREE,
    nombreEmpresaDistribuidora: dist.nombre,
    cups: s.cups,
    PaisPS: 'ESP',
    codigoProvinciaPS: s.codigoIne.slice(0, 2),
    desProvinciaPS: s.provincia,
    codigoMunicipioPS: s.codigoIne,
    desMunicipioPS: s.municipio,
    codigoPostalPS: s.codigoPostal,
    ...partesDireccion(s.direccion),
    fechaAltaSuministro: s.fechaAlta,
    codigoTarifaATREnVigor: CODIGO_TARIFA[s.tarifa]!,
    codigoTensionV: tension,
    potenciaMaximaBIEW: String(s.potenciaMaximaW),
    // Types 1–3 (tabla 30) register quarter-hours; a household is type 5.
    codigoClasificacionPS: s.resolucionMinutos === 15 ? '03' : '05',
    codigoPropiedadEquipoMedida: CODIGO_PROPIEDAD[s.propiedadContador] ?? '1',
    ...potencias,
    codigoComercializadorVigente: s.comercializadoraCodigo,
    fechaUltimaLectura: ultimaLectura,
    suspensionSuminstroImpago: s.suspendidoDesde ? 'S' : 'N',
    ...titular,
    idTitular: s.titularNif,
    PaisTitular: 'ESP',
    esViviendaHabitual: esEmpresa(s.titularNif) ? 'N' : 'S',
    codigoLecturaRemota: s.telegestionado ? '01' : '03',
    codigoFasesEquipoMedida: s.fasesContador === 'trifasico' ? 'T' : 'M',
    // SIPS2026 says only whether the supply point is acogido; the modality (v2's tabla 113) has no column.
    acogimientoAutoconsumo: s.autoconsumo === 'ninguno' ? 'N' : 'S',
    aplicacionBonoSocial: '0',
    suministroEsencial: 'N',
    codigoTipoContrato: '01',
    codigoPeriodicidadFacturacion: s.periodicidadFacturacion === 'bimestral' ? '02' : '01',
    codigoModoControlPotencia: CODIGO_CONTROL[s.modoControlPotencia] ?? '3',
    codigoDHEquipoDeMedida: s.tarifa === '2.0TD' ? '9' : 'A',
    codigoTipoSuministro: esEmpresa(s.titularNif) ? 'LC' : 'VI',
  };
}

/** The day of the last billing reading: the cycle day of the month before `ahora` (or of this month once passed). */
function ultimaLectura(ciclo: number, ahora: Date): string {
  const dia = String(ciclo).padStart(2, '0');
  const esteMes = primerDiaDelMes(ahora);
  return ahora.getUTCDate() > ciclo ? `${esteMes.slice(0, 8)}${dia}` : `${mesMas(esteMes, -1).slice(0, 8)}${dia}`;
}

/** Writes the demo supply points as a SIPS2026 file and loads it through the register import. */
export async function cargarRegistroDemo(db: Db, suministros: readonly SuministroEntrada[], ahora: Date): Promise<ResultadoRegistro> {
  const filas = suministros.map((s) => filaDemo(s, ultimaLectura(s.cicloLectura ?? 1, ahora)));
  const texto = [...lineasSips('PS_ELECTRICIDAD', 'sips2026', filas)].join('');
  return importarRegistroSips(db, new TextEncoder().encode(texto));
}

/** The monthly SIPS files of every distributor for the last three months, as the monthly job writes them. */
async function demoFicherosSips(db: Db, ahora: Date): Promise<number> {
  const mes = primerDiaDelMes(ahora);
  let n = 0;
  for (const d of DISTRIBUIDORAS) {
    for (const m of [mesMas(mes, -2), mesMas(mes, -1), mes]) n += (await generarMesSips(db, d.codigo, m)).length;
  }
  return n;
}

/** The demo step of the SIPS files: after the register, the measures and the readings are in. */
export const demoSips: DemoStep = async (db, _random, now) => ({ ficherosSips: await demoFicherosSips(db, now) });
