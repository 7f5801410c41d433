/**
 * The filing receipt (justificante de presentación) of an access and connection request, as a PDF.
 * Ley 39/2015 arts. 16.3 and 66.3 give whoever files a request the right to a receipt stating the
 * date and time of filing and its registry number; RD 1183/2020 art. 7.1 ranks requests by time
 * (prelación temporal), so the moment the request came in matters to the applicant. The receipt
 * states the distributor, the reference, the applicant, the installation as filed, the moment to the
 * second (Madrid and UTC), the documents with their SHA-256, and the answers to requests for
 * corrections with their own moments. Same layout as the certificates (src/server/pdf/maqueta.ts).
 */
import { referenciaAcceso } from '../../lib/accesoyconexion/procedimiento.ts';
import { NOMBRE_TECNOLOGIA, NOMBRE_TIPO, type DatosSolicitud } from '../../lib/accesoyconexion/solicitud.ts';
import { identidadDistribuidora } from '../../lib/certificados/identidad.ts';
import type { CodigoDistribuidora } from '../../lib/distribuidoras.ts';
import type { FilaExpediente } from '../expedientes/acceso.ts';
import type { FilaDocumento, FilaEvento } from '../expedientes/service.ts';
import { conflict } from '../http/errors.ts';
import { abrirPdf, GRIS, parrafo, tablaDatos, tablaDistribuidora, titulo, type Doc, type Estructura } from '../pdf/maqueta.ts';

/** The account that filed the request, as the receipt names it. */
export interface CuentaSolicitante {
  nombre: string;
  apellido1: string;
  apellido2: string;
  razonSocial: string;
  nif: string | null;
}

/** Everything the receipt states. */
export interface DatosJustificante {
  expediente: FilaExpediente;
  datos: DatosSolicitud;
  cuenta: CuentaSolicitante;
  eventos: readonly FilaEvento[];
  documentos: readonly FilaDocumento[];
  /** The request's screen, for the verification note. */
  enlace: string;
}

const MADRID = new Intl.DateTimeFormat('es-ES', {
  timeZone: 'Europe/Madrid',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
  timeZoneName: 'longOffset',
});

/** An instant to the second, in Madrid's time (with its offset, winter UTC+1 or summer UTC+2) and in UTC. */
export function momentoJustificante(d: Date): { madrid: string; utc: string } {
  const p = Object.fromEntries(MADRID.formatToParts(d).map((x) => [x.type, x.value]));
  const desfase = /GMT([+-])0?(\d+)/.exec(p.timeZoneName ?? '');
  const utcMas = desfase ? `UTC${desfase[1]}${desfase[2]}` : 'UTC';
  return {
    madrid: `${p.day} de ${p.month} de ${p.year}, ${p.hour}:${p.minute}:${p.second} (hora peninsular, ${utcMas})`,
    utc: `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC`,
  };
}

const numero = (n: number, unidad: string) => `${n.toLocaleString('es-ES')} ${unidad}`;

const tamano = (bytes: number) =>
  bytes < 1024
    ? `${bytes} bytes`
    : `${(bytes / 1024).toLocaleString('es-ES', { maximumFractionDigits: 1 })} KB (${bytes.toLocaleString('es-ES')} bytes)`;

const nombreCuenta = (c: CuentaSolicitante) =>
  c.razonSocial.trim() ||
  [c.nombre, c.apellido1, c.apellido2]
    .map((x) => x.trim())
    .filter(Boolean)
    .join(' ');

/** The documents of one step, each with its size and SHA-256. */
function listaDocumentos(doc: Doc, raiz: Estructura, docs: readonly FilaDocumento[]): void {
  if (docs.length === 0) {
    parrafo(doc, raiz, 'No se acompañó ningún documento.');
    return;
  }
  docs.forEach((x, i) => {
    parrafo(doc, raiz, `${i + 1}. ${x.nombre}`, { negrita: true, tamano: 9.5 });
    parrafo(doc, raiz, `Clase: ${x.clase} · Tamaño: ${tamano(x.bytes)}`, { tamano: 9 });
    parrafo(doc, raiz, `SHA-256: ${x.sha256}`, { tamano: 8.5, color: GRIS });
  });
}

/** The receipt of a filed request; 409 for a draft (nothing has been filed yet). */
export async function pdfJustificante(j: DatosJustificante): Promise<Buffer> {
  const e = j.expediente;
  const presentar = j.eventos.find((x) => x.accion === 'presentar');
  if (!e.presentadoEn || !presentar) {
    throw conflict('La solicitud aún no está presentada: el justificante se obtiene cuando se presenta.');
  }
  const referencia = referenciaAcceso(e.numero, e.createdAt.toISOString());
  const distribuidora = identidadDistribuidora(e.distribuidora as CodigoDistribuidora);
  const d = j.datos;
  const momento = momentoJustificante(e.presentadoEn);
  const { doc, raiz, terminar } = abrirPdf({
    Title: `Justificante de presentación de la solicitud ${referencia}`,
    Author: distribuidora.nombre,
    Subject: `Solicitud de acceso y conexión ${referencia}, presentada el ${momento.madrid}`,
    Keywords: `acceso y conexión, justificante, ${referencia}, RD 1183/2020`,
    CreationDate: e.presentadoEn,
  });
  doc.font('Negrita').fontSize(10).fillColor(GRIS);
  doc.text(distribuidora.nombre.toUpperCase(), { structParent: raiz, structType: 'P', characterSpacing: 0.3 });
  doc.moveDown(0.6);
  titulo(doc, raiz, 1, 'Justificante de presentación');
  parrafo(doc, raiz, `Solicitud de acceso y conexión ${referencia}`, { negrita: true, tamano: 11 });

  titulo(doc, raiz, 2, 'Momento de la presentación');
  tablaDatos(doc, raiz, [
    ['Número de registro', referencia],
    ['Fecha y hora (Madrid)', momento.madrid],
    ['Fecha y hora (UTC)', momento.utc],
  ]);
  doc.moveDown(0.5);
  parrafo(
    doc,
    raiz,
    'Este es el momento en que la distribuidora recibió la solicitud. Las solicitudes se ordenan por prelación temporal (Real Decreto 1183/2020, art. 7.1): si la solicitud estaba completa, este momento fija su orden de prelación para la capacidad de acceso; si la distribuidora le pide subsanarla, cuenta el momento en que la complete, que figura más abajo.',
  );

  titulo(doc, raiz, 2, 'Distribuidora');
  tablaDistribuidora(doc, raiz, distribuidora);

  titulo(doc, raiz, 2, 'Solicitante');
  const cuenta = nombreCuenta(j.cuenta);
  const representado = d.enNombrePropio === false && !!d.titularNombre;
  tablaDatos(doc, raiz, [
    ...(representado
      ? ([
          ['Titular', d.titularNombre ?? ''],
          ['NIF del titular', d.titularNif ?? ''],
          ['Presentada por', `${cuenta}${j.cuenta.nif ? ` (NIF ${j.cuenta.nif})` : ''}, en representación del titular`],
        ] as [string, string][])
      : ([
          ['Nombre o razón social', cuenta],
          ['NIF', j.cuenta.nif ?? ''],
        ] as [string, string][])),
    ...(d.contactoNombre ? [['Persona de contacto', d.contactoNombre] as [string, string]] : []),
  ]);

  titulo(doc, raiz, 2, 'Instalación');
  const filas: [string, string][] = [];
  if (d.tipo) filas.push(['Tipo de solicitud', NOMBRE_TIPO[d.tipo]]);
  if (d.potenciaKw !== undefined) filas.push(['Potencia', numero(d.potenciaKw, 'kW')]);
  if (d.tecnologia) filas.push(['Tecnología', NOMBRE_TECNOLOGIA[d.tecnologia]]);
  if (d.tensionKv !== undefined) filas.push(['Tensión de conexión', numero(d.tensionKv, 'kV')]);
  if (d.almacenamientoKw !== undefined) filas.push(['Almacenamiento', numero(d.almacenamientoKw, 'kW')]);
  if (d.almacenamientoKwh !== undefined) filas.push(['Capacidad de almacenamiento', numero(d.almacenamientoKwh, 'kWh')]);
  const lugar = [d.direccion, [d.codigoPostal, d.municipio].filter(Boolean).join(' '), d.provincia].filter(Boolean).join(', ');
  if (lugar) filas.push(['Emplazamiento', lugar]);
  if (d.referenciaCatastral) filas.push(['Referencia catastral', d.referenciaCatastral]);
  if (d.latitud !== undefined && d.longitud !== undefined)
    filas.push(['Coordenadas (ETRS89)', `${d.latitud.toLocaleString('es-ES')}, ${d.longitud.toLocaleString('es-ES')}`]);
  if (d.fechaPuestaServicio) filas.push(['Puesta en servicio prevista', d.fechaPuestaServicio]);
  filas.push(['Nudo de conexión pedido', d.nudo ?? 'No indicado']);
  tablaDatos(doc, raiz, filas);

  titulo(doc, raiz, 2, 'Documentos presentados con la solicitud');
  const deEvento = (id: number) => j.documentos.filter((x) => x.eventoId === id && x.lado === 'solicitante');
  listaDocumentos(doc, raiz, deEvento(presentar.id));

  const subsanaciones = j.eventos.filter((x) => x.accion === 'responder_subsanacion');
  if (subsanaciones.length > 0) {
    titulo(doc, raiz, 2, 'Subsanaciones presentadas');
    subsanaciones.forEach((s, i) => {
      const m = momentoJustificante(s.momento);
      parrafo(doc, raiz, `Subsanación ${i + 1}: ${m.madrid} · ${m.utc}`, { negrita: true });
      listaDocumentos(doc, raiz, deEvento(s.id));
    });
  }

  titulo(doc, raiz, 2, 'Verificación');
  parrafo(
    doc,
    raiz,
    `La distribuidora conserva el historial de la solicitud con estos momentos y documentos. Puede comprobar este justificante en el portal, en la página de la solicitud (${j.enlace}), y cada documento calculando la huella SHA-256 del fichero que conserva: si coincide con la de arriba, es el mismo que se presentó.`,
    { tamano: 9 },
  );
  parrafo(
    doc,
    raiz,
    'Recibo de presentación en los términos de la Ley 39/2015, del Procedimiento Administrativo Común, arts. 16.3 y 66.3: fecha y hora de presentación y número de registro.',
    {
      tamano: 8.5,
      color: GRIS,
    },
  );
  return terminar((pagina, total) => `${distribuidora.nombre} · Justificante de ${referencia} · Página ${pagina} de ${total}`);
}
