/**
 * A claim filed on the portal as the CNMC's R1 step 01 message (MensajeReclamacionPeticion, the
 * schema ReclamacionPeticion.xsd of the exchange formats between supply companies and distributors;
 * docs/decisions/018 and 039): what the distributor handles with the rest of its claims, without
 * retyping. Every claim the portal accepts (src/lib/contacto/datos.ts `faltanReclamacion`) writes a
 * message valid against that schema (tests/api/contacto-r1.test.ts checks each subtype).
 *
 * Where the schema wants something the portal does not hold, the choice made:
 * - the header's company codes are the distributor's REE code on both sides: the claim reaches the
 *   distributor through its own portal, not from another company;
 * - the request code (CodigoDeSolicitud, 12 digits) is the reference's year and number:
 *   RC-2026-000123 is 202600000123;
 * - the holder's name is a company name (RazonSocial) for a legal person's CIF, or when it is one
 *   word; else its last two words are the surnames (one when it has two words), as Spanish names are
 *   written;
 * - the readings are active energy entering (integrator AE, table 43) of periods P1–P6 of the access
 *   tariffs of Circular 3/2020 (codes A1–A6 of table 42).
 */
import { isoAMadridLocal } from '../../lib/administracion/fechas.ts';
import type { DatosReclamacion } from '../../lib/contacto/datos.ts';
import { telefonoR1, type CampoReclamacion } from '../../lib/contacto/tablas-r1.ts';
import { DISTRIBUIDORAS } from '../../lib/distribuidoras.ts';
import { escribirMensaje, type Nodo } from '../atr/xml.ts';

/** The root element of R1 step 01 and its schema in src/server/atr/xsd. */
export const RAIZ_R101 = 'MensajeReclamacionPeticion';
export const ESQUEMA_R101 = 'ReclamacionPeticion.xsd';

/** What the message is written from: a claim once filed. */
export interface ReclamacionPresentada {
  referencia: string;
  distribuidora: string;
  /** When it was filed (ISO 8601). */
  presentadoEn: string;
  reclamacion: DatosReclamacion;
  /** The sender's REE code: a supply company filing for its customer; the distributor's own by default. */
  emisora?: string;
}

/** The readings' fields, in the order of their periods (table 42, codes A1–A6). */
const LECTURAS: readonly CampoReclamacion[] = ['lectura', 'lecturaP2', 'lecturaP3', 'lecturaP4', 'lecturaP5', 'lecturaP6'];

const hoja = (n: string, v: string | number | undefined | null): Nodo | null =>
  v === undefined || v === null || v === '' ? null : { n, t: String(v) };

/** The request code of a reference: RC-2026-000123 → 202600000123. */
export function codigoSolicitudR1(referencia: string): string {
  const m = /^[A-Z]{2}-(\d{4})-(\d{1,8})$/.exec(referencia);
  if (!m) throw new Error(`Referencia de reclamación no reconocida: ${referencia}`);
  return `${m[1]}${m[2]!.padStart(8, '0')}`;
}

/** A CIF's first letter: a legal person (Orden EHA/451/2008); NIF and NIE are natural persons. */
const esPersonaJuridica = (nif: string) => /^[ABCDEFGHJNPQRSUVW]/.test(nif);

function nombre(nif: string, texto: string): Nodo {
  const palabras = texto.trim().split(/\s+/);
  if (esPersonaJuridica(nif) || palabras.length < 2) return { n: 'Nombre', h: [{ n: 'RazonSocial', t: texto.trim() }] };
  const apellidos = palabras.length >= 3 ? palabras.slice(-2) : palabras.slice(-1);
  return {
    n: 'Nombre',
    h: [
      { n: 'NombreDePila', t: palabras.slice(0, palabras.length - apellidos.length).join(' ') },
      { n: 'PrimerApellido', t: apellidos[0]! },
      hoja('SegundoApellido', apellidos[1]),
    ],
  };
}

function telefono(valor: string | undefined): Nodo | null {
  const t = valor ? telefonoR1(valor) : null;
  return t
    ? {
        n: 'Telefono',
        h: [
          { n: 'PrefijoPais', t: t.prefijo },
          { n: 'Numero', t: t.numero },
        ],
      }
    : null;
}

const fecha = (v: string | number | undefined) => (typeof v === 'string' ? v.slice(0, 10) : undefined);

/** The R1 01 message of a filed claim, as UTF-8 XML text. */
export function mensajeR101(r: ReclamacionPresentada): string {
  const d = r.reclamacion;
  const c = (d.campos ?? {}) as Partial<Record<CampoReclamacion, string | number>>;
  const texto = (k: CampoReclamacion) => (c[k] === undefined || c[k] === '' ? undefined : String(c[k]).trim());
  const ree = DISTRIBUIDORAS.find((x) => x.codigo === r.distribuidora)?.codigoREE;
  if (!ree) throw new Error(`Distribuidora desconocida: ${r.distribuidora}`);

  const nif = texto('nifTitular');
  const nombreTitular = texto('nombreTitular');
  const cliente: Nodo | null =
    nif && nombreTitular
      ? {
          n: 'Cliente',
          h: [
            {
              n: 'IdCliente',
              h: [
                { n: 'TipoIdentificador', t: /^[XYZ]/.test(nif) ? 'NE' : 'NI' },
                { n: 'Identificador', t: nif },
                { n: 'TipoPersona', t: esPersonaJuridica(nif) ? 'J' : 'F' },
              ],
            },
            nombre(nif, nombreTitular),
            telefono(texto('telefono')),
            // Table 11: S, the fiscal address is the supply point's (the claim gives no other).
            { n: 'IndicadorTipoDireccion', t: 'S' },
          ],
        }
      : null;

  // CNMC R1 ContactoRecl: a person with a phone; without a contact person, the holder named.
  const persona = texto('personaContacto') ?? (cliente ? undefined : nombreTitular);
  const contacto: Nodo | null =
    persona && texto('telefono') ? { n: 'Contacto', h: [{ n: 'PersonaDeContacto', t: persona }, telefono(texto('telefono'))] } : null;

  const lecturas = LECTURAS.map((k, i): Nodo | null =>
    typeof c[k] === 'number'
      ? {
          n: 'LecturaAportada',
          h: [
            { n: 'Integrador', t: 'AE' },
            { n: 'CodigoPeriodoDH', t: `A${i + 1}` },
            { n: 'LecturaPropuesta', t: (c[k] as number).toFixed(2) },
          ],
        }
      : null,
  ).filter((x): x is Nodo => x !== null);

  const provincia = texto('ubicacionProvincia');
  const municipio = texto('ubicacionMunicipio');
  const lugar = texto('ubicacion');
  const ubicacion: Nodo | null =
    lugar && provincia && municipio
      ? {
          n: 'UbicacionIncidencia',
          h: [
            { n: 'DesUbicacionIncidencia', t: lugar },
            { n: 'Provincia', t: provincia },
            { n: 'Municipio', t: municipio },
            hoja('CodPostal', texto('ubicacionCodigoPostal')),
          ],
        }
      : null;

  const importe = c.importeReclamado;
  // The schema's order of VariableDetalleReclamacion (TipoMensajeR101.xsd).
  const variables = [
    hoja('NumExpedienteAcometida', texto('solicitudNuevoSuministro')),
    hoja('NumExpedienteFraude', texto('expedienteFraude')),
    hoja('FechaIncidente', fecha(c.fechaIncidente)),
    hoja('NumFacturaATR', texto('numeroFactura')),
    hoja('TipoConceptoFacturado', texto('conceptoFacturado')),
    hoja('FechaLectura', fecha(c.fechaLectura)),
    hoja('CAU', texto('cau')?.toUpperCase()),
    lecturas.length ? { n: 'LecturasAportadas', h: lecturas } : null,
    texto('disconformidadAutoconsumo')
      ? { n: 'DisconformidadAutoconsumo', h: [{ n: 'TipoDisconformidadAutoconsumo', t: texto('disconformidadAutoconsumo')! }] }
      : null,
    hoja('CodigoIncidencia', texto('codigoIncidencia')),
    hoja('CodigoSolicitud', texto('codigoSolicitud')),
    hoja('ParametroContratacion', texto('conceptoContratacion')),
    hoja('TipoDeAtencionIncorrecta', texto('tipoAtencionIncorrecta')),
    hoja('MotivoConsulta', texto('motivoConsulta')),
    hoja('IBAN', texto('cuentaBancaria')?.replace(/\s/g, '').toUpperCase()),
    contacto,
    hoja('CodigoSolicitudReclamacion', texto('reclamacionAnterior')),
    hoja('FechaDesde', fecha(c.fechaDesde)),
    hoja('FechaHasta', fecha(c.fechaHasta)),
    hoja('ImporteReclamado', typeof importe === 'number' ? importe.toFixed(2) : undefined),
    ubicacion,
  ].filter((x): x is Nodo => x !== null);

  const fechaSolicitud = `${isoAMadridLocal(r.presentadoEn)}:00`;
  return escribirMensaje({
    n: RAIZ_R101,
    h: [
      {
        n: 'CabeceraReclamacion',
        h: [
          { n: 'CodigoREEEmpresaEmisora', t: r.emisora ?? ree },
          { n: 'CodigoREEEmpresaDestino', t: ree },
          { n: 'CodigoDelProceso', t: 'R1' },
          { n: 'CodigoDePaso', t: '01' },
          { n: 'CodigoDeSolicitud', t: codigoSolicitudR1(r.referencia) },
          { n: 'SecuencialDeSolicitud', t: '01' },
          { n: 'FechaSolicitud', t: fechaSolicitud },
          hoja('CUPS', texto('cups')),
        ],
      },
      {
        n: 'SolicitudReclamacion',
        h: [
          {
            n: 'DatosSolicitud',
            h: [
              { n: 'Tipo', t: d.tipo ?? '' },
              { n: 'Subtipo', t: d.subtipo ?? '' },
            ],
          },
          variables.length ? { n: 'VariablesDetalleReclamacion', h: [{ n: 'VariableDetalleReclamacion', h: variables }] } : null,
          cliente,
          { n: 'TipoReclamante', t: d.rol ?? '' },
          hoja('Comentarios', d.mensaje),
        ],
      },
    ],
  });
}
