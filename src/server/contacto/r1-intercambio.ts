/**
 * Claims that a supply company files for its customer through the file exchange, as the CNMC's R1
 * process (formats of the exchange between supply companies and distributors; gisce/gestionatr's
 * schemas per step: 01 ReclamacionPeticion, 02 AceptacionReclamacion or RechazoReclamacion, 05
 * CierreReclamacion). An R1 01 dropped into `/<distribuidora>/entrada` joins the same claim cases
 * the portal's form creates (src/server/contacto/service.ts): it is read back into the portal's
 * claim model (the inverse of `r1.ts`), checked with the same rules as the form, and filed in the
 * company's name. The staff work it in their queue as any other claim; accepting or rejecting it
 * writes the R1 02 and closing it the R1 05 into the company's `salida` (docs/decisions/046).
 *
 * A company files for the points it supplies: where the form asks a holder (role 01) for one of
 * their own supply points, a claim from the exchange must name a point the company supplies at that
 * distributor, as the ATR processes ask of M1 and B1.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { DatosReclamacion } from '../../lib/contacto/datos.ts';
import type { CampoReclamacion } from '../../lib/contacto/tablas-r1.ts';
import { cupsBase, normalizarCups } from '../../lib/cups.ts';
import { diaDe } from '../../lib/expedientes/plazos.ts';
import type { Db } from '../db/client.ts';
import { expedientes, suministros } from '../db/schema.ts';
import type { FilaExpediente } from '../expedientes/acceso.ts';
import { depositar, type CuentaIntercambio } from '../intercambio/almacen.ts';
import { fechaHoraMadrid, rechazos } from '../atr/respuestas.ts';
import { escribirMensaje, lista, valor, type MensajeLeido, type Nodo } from '../atr/xml.ts';

/** The root elements of the R1 answers the portal writes (the request's is `RAIZ_R101` in r1.ts). */
export const RAIZ_R102_ACEPTACION = 'MensajeAceptacionReclamacion';
export const RAIZ_R102_RECHAZO = 'MensajeRechazoReclamacion';
export const RAIZ_R105 = 'MensajeCierreReclamacion';
export const RAIZ_R103 = 'MensajePeticionInformacionAdicionalReclamacion';
/** The company's answer to a request for information (R1 04), which the reader takes. */
export const RAIZ_R104 = 'MensajeEnvioInformacionReclamacion';
/** R1 08, the company's anulación of its claim, and R1 09, its acceptance (a rejection is a MensajeRechazoReclamacion). */
export const RAIZ_R108 = 'MensajeAnulacionSolicitudReclamacion';
export const RAIZ_R109_ACEPTACION = 'MensajeAceptacionAnulacionReclamacion';

/** Where a claim came from the exchange: what its answers need to name it. */
export interface OrigenIntercambio {
  /** The company's REE code (the request's sender) and the distributor's. */
  emisora: string;
  destino: string;
  codigoSolicitud: string;
  secuencial: string;
  /** The CUPS as the request wrote it (20 or 22 characters): answers use the same form. */
  cups: string;
  /** The file it came in. */
  ruta: string;
}

/** The header of an R1 message. */
export function cabeceraR1(m: MensajeLeido): OrigenIntercambio & { proceso: string; paso: string } {
  const v = (campo: string) => valor(m.arbol, 'CabeceraReclamacion', campo) ?? '';
  return {
    emisora: v('CodigoREEEmpresaEmisora'),
    destino: v('CodigoREEEmpresaDestino'),
    proceso: v('CodigoDelProceso'),
    paso: v('CodigoDePaso'),
    codigoSolicitud: v('CodigoDeSolicitud'),
    secuencial: v('SecuencialDeSolicitud') || '01',
    cups: normalizarCups(v('CUPS')),
    ruta: '',
  };
}

const numero = (t: string | undefined): number | undefined => {
  if (t === undefined || t.trim() === '') return undefined;
  const n = Number(t);
  return Number.isFinite(n) ? n : undefined;
};

/** A phone as the form takes it: Spanish numbers as their nine digits, others with their prefix. */
function telefonoDe(nodo: unknown): string | undefined {
  const prefijo = valor(nodo, 'PrefijoPais');
  const n = valor(nodo, 'Numero');
  if (!n) return undefined;
  return !prefijo || prefijo === '34' ? n : `+${prefijo} ${n}`;
}

/**
 * The claim an R1 01 carries, in the portal's claim model (src/lib/contacto/datos.ts): the inverse of
 * `mensajeR101` in r1.ts, element by element of `VariableDetalleReclamacion` (TipoMensajeR101.xsd).
 */
export function reclamacionDeR101(m: MensajeLeido): DatosReclamacion {
  const s = (...r: string[]) => valor(m.arbol, 'SolicitudReclamacion', ...r);
  const v = lista(m.arbol, 'SolicitudReclamacion', 'VariablesDetalleReclamacion', 'VariableDetalleReclamacion')[0];
  const x = (...r: string[]) => valor(v, ...r);
  const campos: Partial<Record<CampoReclamacion, string | number>> = {};
  const poner = (k: CampoReclamacion, valorCampo: string | number | undefined) => {
    if (valorCampo !== undefined && valorCampo !== '') campos[k] = valorCampo;
  };
  // The supply point's 20 characters: the request's own form (maybe 22) is kept for the answers.
  const cups = cabeceraR1(m).cups;
  poner('cups', cups ? cupsBase(cups) : undefined);
  poner('solicitudNuevoSuministro', x('NumExpedienteAcometida'));
  poner('expedienteFraude', x('NumExpedienteFraude'));
  poner('fechaIncidente', x('FechaIncidente'));
  poner('numeroFactura', x('NumFacturaATR'));
  poner('conceptoFacturado', x('TipoConceptoFacturado'));
  poner('fechaLectura', x('FechaLectura'));
  poner('cau', x('CAU'));
  // Readings of active energy entering, by period of the access tariff (table 42: A1…A6).
  const LECTURAS: readonly CampoReclamacion[] = ['lectura', 'lecturaP2', 'lecturaP3', 'lecturaP4', 'lecturaP5', 'lecturaP6'];
  for (const l of lista(v, 'LecturasAportadas', 'LecturaAportada')) {
    const periodo = /^A([1-6])$/.exec(valor(l, 'CodigoPeriodoDH') ?? '');
    if (periodo) poner(LECTURAS[Number(periodo[1]) - 1]!, numero(valor(l, 'LecturaPropuesta')));
  }
  poner('disconformidadAutoconsumo', x('DisconformidadAutoconsumo', 'TipoDisconformidadAutoconsumo'));
  poner('codigoIncidencia', x('CodigoIncidencia'));
  poner('codigoSolicitud', x('CodigoSolicitud'));
  poner('conceptoContratacion', x('ParametroContratacion'));
  poner('tipoAtencionIncorrecta', x('TipoDeAtencionIncorrecta'));
  poner('motivoConsulta', x('MotivoConsulta'));
  poner('cuentaBancaria', x('IBAN'));
  poner('personaContacto', x('Contacto', 'PersonaDeContacto'));
  poner(
    'telefono',
    telefonoDe(lista(v, 'Contacto', 'Telefono')[0]) ?? telefonoDe(lista(m.arbol, 'SolicitudReclamacion', 'Cliente', 'Telefono')[0]),
  );
  poner('reclamacionAnterior', x('CodigoSolicitudReclamacion'));
  poner('fechaDesde', x('FechaDesde'));
  poner('fechaHasta', x('FechaHasta'));
  poner('importeReclamado', numero(x('ImporteReclamado')));
  poner('ubicacion', x('UbicacionIncidencia', 'DesUbicacionIncidencia'));
  poner('ubicacionProvincia', x('UbicacionIncidencia', 'Provincia'));
  poner('ubicacionMunicipio', x('UbicacionIncidencia', 'Municipio'));
  poner('ubicacionCodigoPostal', x('UbicacionIncidencia', 'CodPostal'));
  poner('nifTitular', s('Cliente', 'IdCliente', 'Identificador'));
  const razon = s('Cliente', 'Nombre', 'RazonSocial');
  const persona = [
    s('Cliente', 'Nombre', 'NombreDePila'),
    s('Cliente', 'Nombre', 'PrimerApellido'),
    s('Cliente', 'Nombre', 'SegundoApellido'),
  ]
    .filter(Boolean)
    .join(' ');
  poner('nombreTitular', razon ?? (persona || undefined));
  return {
    rol: s('TipoReclamante') as DatosReclamacion['rol'],
    tipo: s('DatosSolicitud', 'Tipo') as DatosReclamacion['tipo'],
    subtipo: s('DatosSolicitud', 'Subtipo'),
    campos,
    // The form asks for a description; an R1 may come without comments, so its subtype's words stand in.
    mensaje: s('Comentarios') ?? 'Reclamación recibida por el intercambio de ficheros (R1), sin comentarios.',
  };
}

/** The supply points at a distributor that a company supplies (its REE code): the ones it may claim for. */
export async function cupsSuministrados(db: Db, distribuidora: string, ree: string): Promise<string[]> {
  const filas = await db
    .select({ cups: suministros.cups })
    .from(suministros)
    .where(and(eq(suministros.distribuidora, distribuidora), eq(suministros.comercializadoraCodigo, ree)));
  return filas.map((f) => f.cups);
}

/** The claim case an R1 01 of this company already created, if any (each request has its own code). */
export async function reclamacionDeSolicitud(db: Db, usuarioId: string, codigo: string): Promise<FilaExpediente | undefined> {
  const [e] = await db
    .select()
    .from(expedientes)
    .where(
      and(
        eq(expedientes.procedimiento, 'reclamacion'),
        eq(expedientes.userId, usuarioId),
        sql`${expedientes.datos}->'intercambio'->>'codigoSolicitud' = ${codigo}`,
      ),
    );
  return e;
}

/** The header of the distributor's answer to the request `o`, at step `paso`. */
function cabecera(o: OrigenIntercambio, paso: string, ahora: Date): Nodo {
  return {
    n: 'CabeceraReclamacion',
    h: [
      { n: 'CodigoREEEmpresaEmisora', t: o.destino },
      { n: 'CodigoREEEmpresaDestino', t: o.emisora },
      { n: 'CodigoDelProceso', t: 'R1' },
      { n: 'CodigoDePaso', t: paso },
      { n: 'CodigoDeSolicitud', t: o.codigoSolicitud },
      { n: 'SecuencialDeSolicitud', t: o.secuencial },
      { n: 'FechaSolicitud', t: fechaHoraMadrid(ahora) },
      o.cups ? { n: 'CUPS', t: o.cups } : null,
    ],
  };
}

/** An R1 rejection (step 02 of a request, 09 of an anulación): the table 27 reasons, each with its comment. */
export function rechazoR1(
  o: OrigenIntercambio,
  motivos: readonly { codigo: string; comentario: string }[],
  ahora: Date,
  paso: '02' | '09' = '02',
): string {
  return escribirMensaje({
    n: RAIZ_R102_RECHAZO,
    h: [cabecera(o, paso, ahora), rechazos(motivos, ahora)],
  });
}

/** R1 09 acceptance of the company's anulación (AceptacionAnulacionReclamacion.xsd). */
export function aceptacionAnulacionR1(o: OrigenIntercambio, ahora: Date): string {
  return escribirMensaje({
    n: RAIZ_R109_ACEPTACION,
    h: [cabecera(o, '09', ahora), { n: 'AceptacionAnulacion', h: [{ n: 'FechaAceptacion', t: diaDe(ahora) }] }],
  });
}

/** R1 02 acceptance, naming the claim by the portal's reference (CodigoReclamacionDistribuidora, X26). */
export function aceptacionR1(o: OrigenIntercambio, referencia: string, ahora: Date): string {
  return escribirMensaje({
    n: RAIZ_R102_ACEPTACION,
    h: [
      cabecera(o, '02', ahora),
      {
        n: 'AceptacionReclamacion',
        h: [
          {
            n: 'DatosAceptacion',
            h: [
              { n: 'FechaAceptacion', t: diaDe(ahora) },
              { n: 'CodigoReclamacionDistribuidora', t: referencia },
            ],
          },
        ],
      },
    ],
  });
}

/**
 * R1 03: the staff ask the claimant for more information (table 84, 01), by the date the claim's
 * deadline gives. The staff's screen does not ask which kind of table 85 it is: «04, contacto y
 * documentos» is the one that covers any answer in words and documents.
 */
export function peticionInformacionR1(o: OrigenIntercambio, r: { referencia: string; texto: string; hasta: string }, ahora: Date): string {
  return escribirMensaje({
    n: RAIZ_R103,
    h: [
      cabecera(o, '03', ahora),
      {
        n: 'InformacionAdicional',
        h: [
          {
            n: 'DatosInformacion',
            h: [
              { n: 'TipoComunicacion', t: '01' },
              { n: 'CodigoReclamacionDistribuidora', t: r.referencia },
            ],
          },
          {
            n: 'SolicitudesInformacionAdicional',
            h: [
              {
                n: 'SolicitudInformacionAdicional',
                h: [
                  { n: 'TipoInformacionAdicional', t: '04' },
                  { n: 'DescPeticionInformacion', t: r.texto.slice(0, 255) },
                  { n: 'FechaLimiteEnvio', t: r.hasta },
                ],
              },
            ],
          },
          { n: 'Comentarios', t: r.texto.slice(0, 4000) },
        ],
      },
    ],
  });
}

/** What an R1 04 says, as one text for the claim's timeline: its comments and each piece of information it brings. */
export function informacionDeR104(m: MensajeLeido): string {
  const partes = lista(m.arbol, 'EnvioInformacionReclamacion', 'VariablesAportacionInformacion', 'VariableAportacionInformacion')
    .map((v) => [valor(v, 'DescPeticionInformacion'), valor(v, 'Valor')].filter(Boolean).join(': '))
    .filter(Boolean);
  return [valor(m.arbol, 'EnvioInformacionReclamacion', 'Comentarios') ?? '', ...partes].filter(Boolean).join('\n');
}

/** R1 05: the claim closed with its result (table 80) and the staff's answer. */
export function cierreR1(
  o: OrigenIntercambio,
  r: { referencia: string; tipo: string; subtipo: string; resultado: string; respuesta: string },
  ahora: Date,
): string {
  const momento = fechaHoraMadrid(ahora);
  return escribirMensaje({
    n: RAIZ_R105,
    h: [
      cabecera(o, '05', ahora),
      {
        n: 'CierreReclamacion',
        h: [
          {
            n: 'DatosCierre',
            h: [
              { n: 'Fecha', t: momento.slice(0, 10) },
              { n: 'Hora', t: momento.slice(11, 19) },
              { n: 'Tipo', t: r.tipo },
              { n: 'Subtipo', t: r.subtipo },
              { n: 'CodigoReclamacionDistribuidora', t: r.referencia },
              { n: 'ResultadoReclamacion', t: r.resultado },
            ],
          },
          { n: 'Comentarios', t: r.respuesta.slice(0, 4000) },
        ],
      },
    ],
  });
}

/** Writes an answer of step `paso` into the company's `salida`, named as the ATR answers are. */
export async function dejarRespuestaR1(
  tx: Db,
  cuenta: CuentaIntercambio,
  distribuidora: string,
  o: OrigenIntercambio,
  paso: string,
  xml: string,
  ahora: Date,
): Promise<string> {
  const ruta = `/${distribuidora}/salida/R1${paso}_${o.codigoSolicitud}_${o.secuencial}.xml`;
  await depositar(tx, cuenta, ruta, Buffer.from(xml), ahora);
  return ruta;
}

/** The first 20 characters name the supply point (a request may add the measure point's two). */
export const mismoPunto = (a: string, b: string) => cupsBase(a) === cupsBase(b);
