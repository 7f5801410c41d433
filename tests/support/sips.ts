/** SIPS2026 register rows for tests (docs/sector.md §3.3): a household of EPD unless told otherwise. */
import { construirCups } from '../../src/lib/cups.ts';
import { lineasSips } from '../../src/server/sips/escritor.ts';
import type { FilaSips } from '../../src/server/sips/registro.ts';

/** A SIPS2026 PS row of supply point `n` of EPD held by `nif`, address and holder's name in parts; `extra` overrides any column. */
export function filaRegistro(n: number, extra: Record<string, string> = {}, nif = '12345678Z'): FilaSips {
  return {
    codigoEmpresaDistribuidora: '9901',
    nombreEmpresaDistribuidora: 'Electra Peninsular Distribución, S.L.',
    cups: construirCups('9901', n),
    PaisPS: 'ESP',
    codigoProvinciaPS: '28',
    desProvinciaPS: 'Madrid',
    codigoMunicipioPS: '28005',
    desMunicipioPS: 'Alcalá de Henares',
    codigoPostalPS: '28801',
    tipoViaPS: 'CL',
    viaPS: 'Mayor',
    numFincaPS: '12',
    pisoPS: '3',
    puertaPS: 'B',
    fechaAltaSuministro: '2020-01-01',
    codigoTarifaATREnVigor: '018',
    codigoTensionV: '02',
    potenciaMaximaBIEW: '9200',
    codigoClasificacionPS: '05',
    codigoPropiedadEquipoMedida: '1',
    potenciasContratadasEnWP1: '4600',
    potenciasContratadasEnWP2: '4600',
    fechaUltimoCambioComercializador: '2024-03-01',
    codigoComercializadorVigente: '0901',
    fechaUltimaLectura: '2026-10-07',
    suspensionSuminstroImpago: 'N',
    tipoPersona: 'F',
    tipoIdTitular: 'NI',
    idTitular: nif,
    nombreTitular: 'Lucía',
    apellido1Titular: 'Martín',
    apellido2Titular: 'Gómez',
    esViviendaHabitual: 'S',
    codigoLecturaRemota: '01',
    codigoFasesEquipoMedida: 'M',
    acogimientoAutoconsumo: 'N',
    aplicacionBonoSocial: '0',
    suministroEsencial: 'N',
    cnae: '9820',
    codigoTipoContrato: '01',
    codigoPeriodicidadFacturacion: '01',
    codigoModoControlPotencia: '3',
    codigoDHEquipoDeMedida: '9',
    codigoTipoSuministro: 'VI',
    ...extra,
  };
}

/** A whole SIPS2026 PS file of these rows, as text. */
export const ficheroRegistro = (filas: FilaSips[]): string => [...lineasSips('PS_ELECTRICIDAD', 'sips2026', filas)].join('');
