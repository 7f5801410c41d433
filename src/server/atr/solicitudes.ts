/**
 * The step 01 message of each ATR process a supply company sends (docs/sector.md §4; the CNMC's
 * XSDs in ./xsd), and the anulación, written from plain data: what the web form and the demo data
 * write into the company's entrada folder, the same XML a company's own system would drop there.
 */
import { PROCESO, RAIZ_ANULACION, type ProcesoAtr } from '../../lib/atr/procesos.ts';
import { CODIGO_TARIFA } from '../../lib/sips/columnas.ts';
import { escribirMensaje, type Nodo } from './xml.ts';
import { RAIZ_W101, type AportacionW1 } from '../../lib/lecturas/w1.ts';
import { RAIZ_D102_ACEPTACION } from '../../lib/lecturas/d1.ts';

/** The header fields of a request. */
export interface CabeceraSolicitud {
  emisora: string;
  destino: string;
  codigoSolicitud: string;
  secuencial?: string;
  /** `YYYY-MM-DDTHH:MM:SS` (Madrid). */
  fecha: string;
  cups: string;
}

/** What a request carries, beyond its header. */
export interface DatosSolicitud {
  /** Table 8: A as soon as possible, L with the next reading, F on `fecha`. */
  activacion: 'A' | 'L' | 'F';
  fechaActivacion?: string;
  /** The holder (NIF, and name or company name). */
  titular: { nif: string; nombre: string; apellido1?: string; apellido2?: string; razonSocial?: string };
  /** For C2, A3 and M1: the tariff and powers asked for, in W. */
  contrato?: { tarifa: string; potenciasW: number[] };
  /** For A3: the activity (CNAE, four digits) and a contact telephone. */
  cnae?: string;
  telefono?: string;
  /** For M1: table 53 (T change of holder by transfer, S by subrogation, A administrative data…); absent for technical changes only. */
  solicitudAdministrativa?: string;
  /** For B1: table 10 (01 end of activity, 02 end of the energy contract, 03 supply cut, 04 non-payment). */
  motivoBaja?: '01' | '02' | '03' | '04';
}

function cabecera(proceso: ProcesoAtr | 'W1' | 'D1', paso: string, c: CabeceraSolicitud): Nodo {
  return {
    n: 'Cabecera',
    h: [
      { n: 'CodigoREEEmpresaEmisora', t: c.emisora },
      { n: 'CodigoREEEmpresaDestino', t: c.destino },
      { n: 'CodigoDelProceso', t: proceso },
      { n: 'CodigoDePaso', t: paso },
      { n: 'CodigoDeSolicitud', t: c.codigoSolicitud },
      { n: 'SecuencialDeSolicitud', t: c.secuencial ?? '01' },
      { n: 'FechaSolicitud', t: c.fecha },
      { n: 'CUPS', t: c.cups },
    ],
  };
}

/** Table 5 identifier kind of a NIF: NE for an NIE, NI otherwise (DNI or CIF). */
const tipoIdentificador = (nif: string) => (/^[XYZ]/.test(nif) ? 'NE' : 'NI');

function cliente(t: DatosSolicitud['titular'], conDireccion: boolean): Nodo {
  const nombre: Nodo = t.razonSocial
    ? { n: 'Nombre', h: [{ n: 'RazonSocial', t: t.razonSocial }] }
    : {
        n: 'Nombre',
        h: [
          { n: 'NombreDePila', t: t.nombre },
          { n: 'PrimerApellido', t: t.apellido1 ?? '' },
          t.apellido2 ? { n: 'SegundoApellido', t: t.apellido2 } : null,
        ],
      };
  return {
    n: 'Cliente',
    h: [
      {
        n: 'IdCliente',
        h: [
          { n: 'TipoIdentificador', t: tipoIdentificador(t.nif) },
          { n: 'Identificador', t: t.nif },
        ],
      },
      nombre,
      // The holder's address is the supply point's (table IndicadorTipoDireccion: S).
      conDireccion ? { n: 'IndicadorTipoDireccion', t: 'S' } : null,
    ],
  };
}

function contrato(c: NonNullable<DatosSolicitud['contrato']>, extra: Nodo[] = []): Nodo {
  return {
    n: 'Contrato',
    h: [
      { n: 'TipoContratoATR', t: '01' },
      {
        n: 'CondicionesContractuales',
        h: [
          { n: 'TarifaATR', t: CODIGO_TARIFA[c.tarifa] ?? '018' },
          { n: 'PotenciasContratadas', h: c.potenciasW.map((w, i) => ({ n: 'Potencia', a: { Periodo: String(i + 1) }, t: String(w) })) },
        ],
      },
      ...extra,
    ],
  };
}

const activacion = (d: DatosSolicitud): Nodo[] =>
  d.activacion === 'F' && d.fechaActivacion
    ? [
        { n: 'IndActivacion', t: d.activacion },
        { n: 'FechaPrevistaAccion', t: d.fechaActivacion },
      ]
    : [{ n: 'IndActivacion', t: d.activacion }];

const condicionesIncondicionales: Nodo[] = [
  { n: 'ContratacionIncondicionalPS', t: 'S' },
  { n: 'ContratacionIncondicionalBS', t: 'N' },
];

/** The step 01 XML of a process. */
export function xmlSolicitud(proceso: ProcesoAtr, c: CabeceraSolicitud, d: DatosSolicitud): string {
  const raiz = PROCESO[proceso].solicitud.raiz;
  const cuerpo = raiz.replace(/^Mensaje/, '');
  const porProceso: Record<ProcesoAtr, () => Nodo[]> = {
    C1: () => [{ n: 'DatosSolicitud', h: [...activacion(d), ...condicionesIncondicionales] }, cliente(d.titular, false)],
    C2: () =>
      [
        { n: 'DatosSolicitud', h: [{ n: 'TipoModificacion', t: 'N' }, ...activacion(d), ...condicionesIncondicionales] },
        d.contrato ? contrato(d.contrato) : null,
        cliente(d.titular, true),
      ].filter((x): x is Nodo => x !== null),
    A3: () => [
      { n: 'DatosSolicitud', h: [{ n: 'CNAE', t: d.cnae ?? '9820' }, ...activacion(d)] },
      contrato(d.contrato!, [
        {
          n: 'Contacto',
          h: [
            { n: 'PersonaDeContacto', t: d.titular.razonSocial ?? `${d.titular.nombre} ${d.titular.apellido1 ?? ''}`.trim() },
            {
              n: 'Telefono',
              h: [
                { n: 'PrefijoPais', t: '34' },
                { n: 'Numero', t: d.telefono ?? '900000000' },
              ],
            },
          ],
        },
      ]),
      cliente(d.titular, true),
    ],
    M1: () =>
      [
        {
          n: 'DatosSolicitud',
          h: [
            { n: 'TipoModificacion', t: d.solicitudAdministrativa ? (d.contrato ? 'A' : 'S') : 'N' },
            d.solicitudAdministrativa ? { n: 'TipoSolicitudAdministrativa', t: d.solicitudAdministrativa } : null,
            ...activacion(d),
          ],
        },
        d.contrato ? contrato(d.contrato) : null,
        cliente(d.titular, true),
      ].filter((x): x is Nodo => x !== null),
    B1: () => [{ n: 'DatosSolicitud', h: [...activacion(d), { n: 'Motivo', t: d.motivoBaja ?? '02' }] }, cliente(d.titular, false)],
  };
  return escribirMensaje({ n: raiz, h: [cabecera(proceso, '01', c), { n: cuerpo, h: porProceso[proceso]() }] });
}

/** The anulación of a request (the step of each process: C1/C2 08, A3/M1 06, B1 03). */
export function xmlAnulacion(proceso: ProcesoAtr, c: CabeceraSolicitud): string {
  return escribirMensaje({ n: RAIZ_ANULACION, h: [cabecera(proceso, PROCESO[proceso].anulacion.paso, c)] });
}

/**
 * A W1 01 (`MensajeSolicitudAportacionLectura`, docs/decisions/049): the customer's self-reading
 * of day `a.fecha`, one `LecturaAportada` per register (table 43 magnitude, table 42 period).
 */
export function xmlAportacionLectura(c: CabeceraSolicitud, a: AportacionW1): string {
  return escribirMensaje({
    n: RAIZ_W101,
    h: [
      cabecera('W1', '01', c),
      {
        n: 'DatosSolicitudAportacionLectura',
        h: [
          { n: 'FechaLectura', t: a.fecha },
          { n: 'TipoDHEdM', t: a.tipoDH },
        ],
      },
      ...a.lecturas.map((l) => ({
        n: 'LecturaAportada',
        h: [
          { n: 'Integrador', t: l.integrador },
          { n: 'TipoCodigoPeriodoDH', t: l.periodo },
          { n: 'LecturaPropuesta', t: l.valor.toFixed(2) },
        ],
      })),
    ],
  });
}

/** A company's acceptance (D1 02) of the distributor's D1 notice `c.codigoSolicitud`, on day `fecha` (docs/decisions/050). */
export function xmlAceptacionD1(c: CabeceraSolicitud, fecha: string): string {
  return escribirMensaje({
    n: RAIZ_D102_ACEPTACION,
    h: [
      cabecera('D1', '02', c),
      { n: 'AceptacionNotificacionCambiosATRDesdeDistribuidor', h: [{ n: 'DatosAceptacion', h: [{ n: 'FechaAceptacion', t: fecha }] }] },
    ],
  });
}
