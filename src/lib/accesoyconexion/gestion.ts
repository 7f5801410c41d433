/**
 * The staff's side of access and connection requests (RD 1183/2020; docs/decisions/017), as the
 * screens /administrador/accesoyconexion and /administrador/accesoyconexion/:id need it, without
 * React: the queue's filters in the address and in the API call, the texts of whose turn it is and
 * of a deadline, the request's data by section, the timeline's sides and details, the documents
 * grouped by the step that brought them, and each action's form: its fields, the checks that
 * mirror the server's (src/server/accesoyconexion/service.ts) and the body it sends.
 */
import { MAX_MENSAJE } from '../expedientes/pantalla.ts';
import { urlApi } from '../api/rutas.ts';
import { formatearFecha } from '../administracion/fechas.ts';
import {
  comoParametros,
  consultaDePantalla,
  leerOpcion,
  leerPaginacion,
  leerTexto,
  PRIMERA_PAGINA,
  type DefinicionLista,
  type EntradaConsulta,
  type Paginacion,
  urlDeLista,
} from '../administracion/consulta.ts';
import { calendarioDe, CALENDARIO_NACIONAL } from '../expedientes/calendarios.ts';
import { estadoPlazo } from '../expedientes/plazos.ts';
import {
  ETIQUETAS_CLASE_DOCUMENTO,
  MAX_DOCUMENTO_BYTES,
  MENSAJE_DOCUMENTO_GRANDE,
  type ClaseDocumento,
} from '../expedientes/documentos.ts';
import { numero, numeroHasta } from '../formato/numeros.ts';
import { fechaSinDia } from '../formato/fechas.ts';
import {
  ACCIONES_DISTRIBUIDORA,
  MAX_SUBSANACIONES,
  MOTIVOS_DENEGACION,
  NOMBRE_ACCION,
  PASOS_ACCESO,
  type AccionDistribuidora,
  type MotivoDenegacion,
  type PasoAcceso,
} from './procedimiento.ts';
import type { AccionBody, SolicitudDetalle, SolicitudResumen } from './respuestas.ts';
import { esInyeccion, NOMBRE_SECCION, NOMBRE_TECNOLOGIA, NOMBRE_TIPO, TIPOS_SOLICITUD, type TipoSolicitud } from './solicitud.ts';

/* ------------------------------------------------------------------ The queue */

/** The steps staff may filter by: a draft is the applicant's alone, so it never reaches the queue. */
export const PASOS_COLA: readonly PasoAcceso[] = PASOS_ACCESO.filter((p) => p !== 'borrador');

/** The queue's filters as the address keeps them. */
export interface FiltrosAccesos extends Paginacion {
  /**
   * The distributor, among those the user administers; '' is the first of them (the API needs one:
   * the screen offers the choice only when there are several).
   */
  distribuidora: string;
  /** Step, or '' for every one. */
  paso: PasoAcceso | '';
  /** Kind of request, or '' for every one. */
  tipo: TipoSolicitud | '';
  /** The exact node identifier, as the distributor publishes it. */
  nudo: string;
  /** 'si': only the requests whose deadline has passed. */
  vencidas: 'si' | '';
}

/** No filter, first page. */
export const FILTROS_ACCESOS_VACIOS: FiltrosAccesos = { distribuidora: '', paso: '', tipo: '', nudo: '', vencidas: '', ...PRIMERA_PAGINA };

/** The API path of the queue. */
export const RUTA_COLA = urlApi('/administrador/accesoyconexion');

/** Longest node identifier (the form's, src/lib/accesoyconexion/solicitud.ts). */
export const MAX_NUDO = 40;

/**
 * The queue's definition for a user who administers `propias` (in the order the screen lists them):
 * the first one is the default and is written '' in the address, any other is named; a distributor
 * the user does not administer falls back to the default. The API is always told one distributor
 * (it requires one), `vencidas=true` for the overdue ones, and the page as every list names it
 * (`pagina`, `porPagina`: src/server/http/openapi.ts).
 */
export function listaAccesos(propias: readonly string[]): DefinicionLista<FiltrosAccesos, SolicitudResumen> {
  const predeterminada = propias[0] ?? '';
  const pares = (f: FiltrosAccesos) =>
    [
      ['distribuidora', f.distribuidora],
      ['paso', f.paso],
      ['tipo', f.tipo],
      ['nudo', f.nudo.trim()],
      ['vencidas', f.vencidas],
    ] as const;
  return {
    vacios: FILTROS_ACCESOS_VACIOS,
    desdeConsulta: (entrada: EntradaConsulta) => {
      const p = comoParametros(entrada);
      const d = leerOpcion(p, 'distribuidora', propias);
      return {
        distribuidora: d === predeterminada ? '' : d,
        paso: leerOpcion(p, 'paso', PASOS_COLA),
        tipo: leerOpcion(p, 'tipo', TIPOS_SOLICITUD),
        nudo: leerTexto(p, 'nudo', MAX_NUDO),
        vencidas: leerOpcion(p, 'vencidas', ['si'] as const),
        ...leerPaginacion(p),
      };
    },
    consulta: (f) => consultaDePantalla(pares(f), f),
    url: (f) =>
      urlDeLista(
        RUTA_COLA,
        [
          ['distribuidora', f.distribuidora || predeterminada],
          ['paso', f.paso],
          ['tipo', f.tipo],
          ['nudo', f.nudo.trim()],
          ['vencidas', f.vencidas === 'si' ? 'true' : null],
        ],
        f,
      ),
  };
}

/** The screen of one request. */
export const urlSolicitudAdmin = (id: string) => `/administrador/accesoyconexion/${encodeURIComponent(id)}`;

/** The API address of one request, and of one of its actions. */
export const urlApiSolicitud = (id: string) => urlApi('/administrador/accesoyconexion/{id}', { path: { id } });
export const urlApiAccion = (id: string, accion: AccionDistribuidora) =>
  urlApi('/administrador/accesoyconexion/{id}/{accion}', { path: { id, accion } });

/* ------------------------------------------------------------------ Turns and deadlines */

/** Who must act, as a table cell says it. */
export function turnoCorto(turno: 'solicitante' | 'distribuidora' | null): string {
  if (turno === 'distribuidora') return 'Distribuidora';
  if (turno === 'solicitante') return 'Solicitante';
  return 'Nadie (cerrada)';
}

/** Who must act, as a sentence for the staff. */
export function turnoFrase(turno: 'solicitante' | 'distribuidora' | null): string {
  if (turno === 'distribuidora') return 'Le toca actuar a la distribuidora.';
  if (turno === 'solicitante') return 'Le toca actuar al solicitante: la distribuidora espera su respuesta.';
  return 'El procedimiento ha terminado: nadie tiene que actuar.';
}

const FECHA_CORTA = new Intl.DateTimeFormat('es-ES', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

/** A civil date (AAAA-MM-DD) as a table writes it: "3 nov 2026"; '—' when there is none. */
export function fechaCorta(fecha: string | null | undefined): string {
  if (!fecha || !/^\d{4}-\d{2}-\d{2}/.test(fecha)) return '—';
  return FECHA_CORTA.format(new Date(`${fecha.slice(0, 10)}T12:00:00Z`));
}

/** How a deadline stands, in words: the date, whether it has passed, and what is left. */
export interface TextoPlazo {
  /** "3 nov 2026", or "Sin plazo". */
  fecha: string;
  /** "3 de noviembre de 2026", or "Sin plazo". */
  fechaLarga: string;
  /** The deadline passed with the turn still open (the server's `vencido`). */
  vencido: boolean;
  /** "Vencida", "Vence hoy", "Queda 1 día hábil", "Quedan 4 días hábiles"; null without a deadline. */
  estado: string | null;
}

/**
 * A deadline as the screens write it. `vencido` is the server's flag (it knows the day the request
 * was read); the business days left are counted from `hoy` on the distributor's calendar when it is
 * given (its region's holidays, as the server counts the deadline), else with the national holidays.
 */
export function textoPlazo(vence: string | null, vencido: boolean, hoy: string, distribuidora?: string): TextoPlazo {
  if (!vence) return { fecha: 'Sin plazo', fechaLarga: 'Sin plazo', vencido: false, estado: null };
  const base = { fecha: fechaCorta(vence), fechaLarga: fechaSinDia(vence) };
  if (vencido) return { ...base, vencido: true, estado: 'Vencida' };
  const cal = distribuidora ? calendarioDe({ distribuidora }) : CALENDARIO_NACIONAL;
  const { vencido: pasado, habilesRestantes } = estadoPlazo(vence, hoy, cal);
  if (pasado) return { ...base, vencido: false, estado: null };
  const estado =
    habilesRestantes === 0 ? 'Vence hoy' : habilesRestantes === 1 ? 'Queda 1 día hábil' : `Quedan ${numero(habilesRestantes)} días hábiles`;
  return { ...base, vencido: false, estado };
}

/** A power in kW as the screens write it ("4,6 kW"); '—' when absent. */
export function textoPotencia(kw: number | null | undefined): string {
  return kw === null || kw === undefined ? '—' : `${numeroHasta(kw, 3)} kW`;
}

/** An amount in euros ("12.345,60 €"). */
export const textoEuros = (euros: number) => `${numero(euros, 2)} €`;

/** The kind of a request in words; '—' when a request has none. */
export const textoTipo = (tipo: TipoSolicitud | null | undefined) => (tipo ? NOMBRE_TIPO[tipo] : '—');

/** A filing instant as a day ("3 nov 2026"), in Madrid. */
export const textoPresentada = (iso: string | null) => formatearFecha(iso);

/* ------------------------------------------------------------------ The request's data */

/** A row of a section: a term and its value. */
export type FilaDato = readonly [string, string];

/** A section of the applicant's data, read-only. */
export interface SeccionDatos {
  /** The section's key (the form's sections). */
  clave: 'solicitud' | 'titular' | 'emplazamiento' | 'correspondencia' | 'instalacion' | 'nudo';
  /** Its heading. */
  titulo: string;
  /** Its rows, in the form's order. */
  filas: FilaDato[];
  /** A warning to show with it (the node's capacity). */
  aviso: string | null;
}

const NO_INDICADO = 'No indicado';
const siNo = (v: boolean | undefined) => (v === undefined ? NO_INDICADO : v ? 'Sí' : 'No');
const o = (v: string | undefined | null) => (v && v.trim() ? v : NO_INDICADO);
const decimal = (v: number | undefined, max: number, unidad = '') => (v === undefined ? NO_INDICADO : `${numeroHasta(v, max)}${unidad}`);

/** The request's data by section (docs/sector.md §8, the sections of the applicant's form). */
export function seccionesDatos(s: Pick<SolicitudDetalle, 'datos' | 'solicitante' | 'necesitaGarantia' | 'nudoElegido'>): SeccionDatos[] {
  const d = s.datos;
  const propio = d.enNombrePropio !== false;
  const inyeccion = esInyeccion(d);
  const instalacion: FilaDato[] = [
    [inyeccion ? 'Potencia a evacuar' : d.tipo ? 'Potencia a demandar' : 'Potencia', decimal(d.potenciaKw, 3, ' kW')],
  ];
  if (inyeccion || d.tecnologia) instalacion.push(['Tecnología', d.tecnologia ? NOMBRE_TECNOLOGIA[d.tecnologia] : NO_INDICADO]);
  instalacion.push(['Tensión de conexión', decimal(d.tensionKv, 3, ' kV')]);
  if (d.tipo === 'almacenamiento' || d.tipo === 'hibrida' || d.almacenamientoKw !== undefined) {
    instalacion.push(['Potencia del almacenamiento', decimal(d.almacenamientoKw, 3, ' kW')]);
    instalacion.push(['Capacidad del almacenamiento', decimal(d.almacenamientoKwh, 3, ' kWh')]);
  }
  const n = s.nudoElegido;
  const nudo: FilaDato[] = n
    ? [
        ['Nudo', n.nudo],
        ['Subestación', n.subestacion],
        ['Tensión del nudo', `${numeroHasta(n.tensionKv, 3)} kV`],
        // A demand request's node is in the firm demand list (`listaNudosDe`), the others' in the generation list.
        [
          d.tipo === 'demanda' ? 'Capacidad firme de demanda disponible publicada hoy' : 'Capacidad disponible publicada hoy',
          `${numeroHasta(n.disponibleMw, 3)} MW`,
        ],
      ]
    : [['Nudo', d.nudo ? `${d.nudo} (la distribuidora ya no lo publica)` : NO_INDICADO]];
  return [
    {
      clave: 'solicitud',
      titulo: NOMBRE_SECCION.solicitud,
      filas: [
        ['Tipo de solicitud', textoTipo(d.tipo)],
        ['Puesta en servicio prevista', d.fechaPuestaServicio ? fechaSinDia(d.fechaPuestaServicio) : NO_INDICADO],
        ['Persona de contacto', o(d.contactoNombre)],
        ['Teléfono de contacto', o(d.contactoTelefono)],
        ['Garantía (art. 23 RD 1183/2020)', s.necesitaGarantia ? 'Necesaria: el resguardo va con la solicitud' : 'No necesaria'],
      ],
      aviso: null,
    },
    {
      clave: 'titular',
      titulo: NOMBRE_SECCION.titular,
      filas: propio
        ? [
            ['Solicita', 'En su propio nombre'],
            ['Titular', o(s.solicitante)],
          ]
        : [
            ['Solicita', 'En nombre de otro titular, con su autorización'],
            ['Titular', o(d.titularNombre)],
            ['NIF del titular', o(d.titularNif)],
          ],
      aviso: null,
    },
    {
      clave: 'emplazamiento',
      titulo: NOMBRE_SECCION.emplazamiento,
      filas: [
        ['Dirección', o(d.direccion)],
        ['Municipio', o(d.municipio)],
        ['Provincia', o(d.provincia)],
        ['Código postal', o(d.codigoPostal)],
        ['Referencia catastral', o(d.referenciaCatastral)],
        [
          'Coordenadas (latitud, longitud)',
          d.latitud !== undefined && d.longitud !== undefined ? `${numeroHasta(d.latitud, 6)}, ${numeroHasta(d.longitud, 6)}` : NO_INDICADO,
        ],
        ['Suelo urbanizado', siNo(d.sueloUrbanizado)],
      ],
      aviso: null,
    },
    {
      clave: 'correspondencia',
      titulo: 'Correspondencia',
      filas: [
        ['Dirección de correspondencia', d.correspondenciaMisma === false ? o(d.correspondenciaDireccion) : 'La misma del emplazamiento'],
      ],
      aviso: null,
    },
    { clave: 'instalacion', titulo: NOMBRE_SECCION.instalacion, filas: instalacion, aviso: null },
    { clave: 'nudo', titulo: NOMBRE_SECCION.nudo, filas: nudo, aviso: n?.aviso ?? null },
  ];
}

/* ------------------------------------------------------------------ The timeline and the documents */

type Evento = SolicitudDetalle['eventos'][number];
type Documento = SolicitudDetalle['documentos'][number];

/** Who took a step, as the timeline says it. */
export const LADO_EVENTO: Readonly<Record<Evento['lado'], string>> = {
  solicitante: 'Solicitante',
  distribuidora: 'Distribuidora',
  sistema: 'Automático',
};

/** Who brought a document. */
export const LADO_DOCUMENTO: Readonly<Record<Documento['lado'], string>> = {
  solicitante: 'Del solicitante',
  distribuidora: 'De la distribuidora',
};

/** What a step recorded besides its message, as term and value (unknown data is left out). */
export function detallesEvento(e: Pick<Evento, 'datos'>): FilaDato[] {
  const d = e.datos ?? {};
  const filas: FilaDato[] = [];
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  const motivo = d['motivo'];
  if (typeof motivo === 'string') {
    const texto =
      typeof d['motivoTexto'] === 'string'
        ? d['motivoTexto']
        : Object.hasOwn(MOTIVOS_DENEGACION, motivo)
          ? MOTIVOS_DENEGACION[motivo as MotivoDenegacion]
          : null;
    if (texto) filas.push(['Motivo', texto]);
  }
  const tension = num(d['tensionFronteraKv']);
  if (tension !== null) filas.push(['Tensión del punto frontera', `${numeroHasta(tension, 3)} kV`]);
  const diasInforme = num(d['diasInforme']);
  if (diasInforme !== null) filas.push(['Días hábiles añadidos por el informe', numero(diasInforme)]);
  const diasPropuesta = num(d['diasPropuesta']);
  if (diasPropuesta !== null) filas.push(['Plazo de la propuesta previa', `${numero(diasPropuesta)} días hábiles`]);
  const p = d['propuesta'];
  if (p && typeof p === 'object') {
    const q = p as Record<string, unknown>;
    if (typeof q['puntoConexion'] === 'string') filas.push(['Punto de conexión', q['puntoConexion']]);
    if (typeof q['condicionesTecnicas'] === 'string') filas.push(['Condiciones técnicas', q['condicionesTecnicas']]);
    const importe = num(q['importeEuros']);
    if (importe !== null) filas.push(['Importe', textoEuros(importe)]);
    const meses = num(q['plazoObrasMeses']);
    if (meses !== null) filas.push(['Plazo de las obras', meses === 1 ? '1 mes' : `${numero(meses)} meses`]);
  }
  return filas;
}

/** The documents as the screen lists them: each step's, the staff's pending ones, and each side's. */
export interface DocumentosAgrupados {
  /** The documents each step brought, by the step's id. */
  porEvento: ReadonlyMap<number, Documento[]>;
  /** The staff's documents not sent yet: they go with their next action. */
  pendientes: Documento[];
  /** Every sent document, by side, oldest first. */
  porLado: Readonly<Record<Documento['lado'], Documento[]>>;
}

/** Groups a request's documents by the step that brought them, pending apart, and by side. */
export function agruparDocumentos(documentos: readonly Documento[]): DocumentosAgrupados {
  const orden = [...documentos].sort((a, b) => a.subidoEn.localeCompare(b.subidoEn));
  const porEvento = new Map<number, Documento[]>();
  const pendientes: Documento[] = [];
  const porLado: Record<Documento['lado'], Documento[]> = { solicitante: [], distribuidora: [] };
  for (const d of orden) {
    if (d.pendiente || d.eventoId === null) {
      if (d.lado === 'distribuidora') pendientes.push(d);
      continue;
    }
    porEvento.set(d.eventoId, [...(porEvento.get(d.eventoId) ?? []), d]);
    porLado[d.lado].push(d);
  }
  return { porEvento, pendientes, porLado };
}

/** The staff's pending documents of one class (the one an action needs). */
export const pendientesDeClase = (documentos: readonly Documento[], clase: ClaseDocumento) =>
  agruparDocumentos(documentos).pendientes.filter((d) => d.clase === clase);

/** A document's class in words; the raw class when it is one the portal does not know. */
export const textoClase = (clase: string) => ETIQUETAS_CLASE_DOCUMENTO[clase as ClaseDocumento] ?? clase;

/** The timeline oldest first (the server's order when two share an instant). */
export function eventosEnOrden(eventos: readonly Evento[]): Evento[] {
  return eventos
    .map((e, i) => [e, i] as const)
    .sort(([a, i], [b, j]) => a.momento.localeCompare(b.momento) || i - j)
    .map(([e]) => e);
}

/* ------------------------------------------------------------------ The actions */

/** The staff's actions in the order their panels are shown: the one that moves the request on first. */
export const ORDEN_ACCIONES: readonly AccionDistribuidora[] = [
  'admitir',
  'pedir_subsanacion',
  'inadmitir',
  'enviar_propuesta',
  'pedir_informe',
  'denegar',
  'emitir_permisos',
];

/** Actions that end the procedure: they ask for a confirmation. */
export const ACCIONES_FINALES: readonly AccionDistribuidora[] = ['inadmitir', 'denegar', 'emitir_permisos'];

/** The PDF an action sends, uploaded first as a pending document. */
export const DOCUMENTO_ACCION: Readonly<Partial<Record<AccionDistribuidora, 'propuesta_previa' | 'permisos'>>> = {
  enviar_propuesta: 'propuesta_previa',
  emitir_permisos: 'permisos',
};

/** Actions whose message is required (the server refuses them without one). */
export const MENSAJE_OBLIGATORIO: readonly AccionDistribuidora[] = ['pedir_subsanacion', 'inadmitir', 'denegar'];

/** The staff's actions a detail offers, in the panels' order (an applicant's, if any, are left out). */
export function accionesDeGestion(acciones: readonly string[]): AccionDistribuidora[] {
  return ORDEN_ACCIONES.filter((a) => acciones.includes(a) && (ACCIONES_DISTRIBUIDORA as readonly string[]).includes(a));
}

/** Longest message and texts (src/lib/accesoyconexion/respuestas.ts). */
export { MAX_MENSAJE };
export const MAX_PUNTO_CONEXION = 200;
export const MAX_CONDICIONES = 4000;

/** An action's form as typed: every field a string. */
export interface ValoresAccion {
  mensaje: string;
  motivo: string;
  tensionFronteraKv: string;
  puntoConexion: string;
  condicionesTecnicas: string;
  importeEuros: string;
  plazoObrasMeses: string;
}

/** A field of an action's form, or its document. */
export type CampoAccion = keyof ValoresAccion | 'documento';

/** An empty form. */
export const VALORES_VACIOS: ValoresAccion = {
  mensaje: '',
  motivo: '',
  tensionFronteraKv: '',
  puntoConexion: '',
  condicionesTecnicas: '',
  importeEuros: '',
  plazoObrasMeses: '',
};

/** The fields each action's form shows, in order. */
export const CAMPOS_ACCION: Readonly<Record<AccionDistribuidora, readonly CampoAccion[]>> = {
  admitir: ['mensaje'],
  pedir_subsanacion: ['mensaje'],
  inadmitir: ['mensaje'],
  pedir_informe: ['tensionFronteraKv', 'mensaje'],
  enviar_propuesta: ['documento', 'puntoConexion', 'condicionesTecnicas', 'importeEuros', 'plazoObrasMeses', 'mensaje'],
  denegar: ['motivo', 'mensaje'],
  emitir_permisos: ['documento', 'mensaje'],
};

/** What each action is called and says on its panel. */
export interface TextosAccion {
  /** The panel's heading. */
  titulo: string;
  /** What it does, in one or two sentences. */
  descripcion: string;
  /** The submit button. */
  boton: string;
  /** The message's label and hint. */
  etiquetaMensaje: string;
  ayudaMensaje: string;
}

/** The texts of each action's panel. */
export const TEXTOS_ACCION: Readonly<Record<AccionDistribuidora, TextosAccion>> = {
  admitir: {
    titulo: 'Admitir a trámite',
    descripcion:
      'La solicitud está completa. Al admitirla gana su orden de prelación y empieza a contar el plazo de la propuesta previa (RD 1183/2020, arts. 7 y 13).',
    boton: 'Admitir a trámite',
    etiquetaMensaje: 'Mensaje para el solicitante',
    ayudaMensaje: 'Opcional. Se le envía por correo con el aviso de la admisión.',
  },
  pedir_subsanacion: {
    titulo: 'Pedir subsanación',
    descripcion: `Indique al solicitante qué debe corregir o añadir. Tendrá 20 días hábiles para hacerlo; si no, la solicitud se inadmite. Se puede pedir como mucho ${MAX_SUBSANACIONES} veces.`,
    boton: 'Pedir la subsanación',
    etiquetaMensaje: 'Qué debe subsanar',
    ayudaMensaje: 'Obligatorio. Sea concreto: el dato o el documento que falta y por qué.',
  },
  inadmitir: {
    titulo: 'Inadmitir la solicitud',
    descripcion: 'La solicitud no se admite a trámite y el procedimiento termina. El solicitante recibe el motivo por correo.',
    boton: 'Inadmitir…',
    etiquetaMensaje: 'Motivo de la inadmisión',
    ayudaMensaje: 'Obligatorio. Explique al solicitante por qué no se admite.',
  },
  pedir_informe: {
    titulo: 'Pedir el informe de aceptabilidad aguas arriba',
    descripcion:
      'Si la conexión puede afectar a la red de otro gestor, pídale su informe de aceptabilidad en los 10 días hábiles siguientes a la admisión (RD 1183/2020, art. 11.4). El plazo de la propuesta previa se amplía con el tiempo que ese gestor tiene para responder. Solo se pide una vez.',
    boton: 'Registrar la petición del informe',
    etiquetaMensaje: 'Nota para el expediente',
    ayudaMensaje: 'Opcional. Por ejemplo, a qué gestor se ha pedido el informe.',
  },
  enviar_propuesta: {
    titulo: 'Enviar la propuesta previa',
    descripcion:
      'Suba el PDF de la propuesta previa y resuma sus condiciones: el solicitante la recibirá por correo y podrá aceptarla o rechazarla.',
    boton: 'Enviar la propuesta previa',
    etiquetaMensaje: 'Mensaje para el solicitante',
    ayudaMensaje: 'Opcional.',
  },
  denegar: {
    titulo: 'Denegar la solicitud',
    descripcion: 'Deniega el acceso y la conexión por uno de los motivos del art. 9 del RD 1183/2020. El procedimiento termina.',
    boton: 'Denegar…',
    etiquetaMensaje: 'Explicación para el solicitante',
    ayudaMensaje: 'Obligatorio. Detalle los motivos de la denegación.',
  },
  emitir_permisos: {
    titulo: 'Emitir los permisos de acceso y conexión',
    descripcion: 'Suba el PDF con los permisos. Al emitirlos el procedimiento termina y el solicitante los recibe.',
    boton: 'Emitir los permisos…',
    etiquetaMensaje: 'Mensaje para el solicitante',
    ayudaMensaje: 'Opcional. Por ejemplo, los siguientes pasos (contrato técnico de acceso, obras).',
  },
};

/** Labels of the fields other than the message. */
export const ETIQUETAS_CAMPO: Readonly<Record<Exclude<CampoAccion, 'mensaje'>, string>> = {
  documento: 'Documento PDF',
  motivo: 'Motivo de la denegación',
  tensionFronteraKv: 'Tensión del punto frontera (kV)',
  puntoConexion: 'Punto de conexión',
  condicionesTecnicas: 'Condiciones técnicas de acceso y conexión',
  importeEuros: 'Importe de las condiciones económicas (€)',
  plazoObrasMeses: 'Plazo de ejecución de las obras (meses)',
};

/** The title and the sentence of the confirmation of a final action. */
export function textoConfirmacion(
  accion: AccionDistribuidora,
  referencia: string,
): { titulo: string; cuerpo: string; boton: string } | null {
  switch (accion) {
    case 'inadmitir':
      return {
        titulo: `Inadmitir la solicitud ${referencia}`,
        cuerpo:
          'La solicitud quedará inadmitida y el procedimiento terminará: no se puede deshacer. El solicitante recibirá el motivo por correo.',
        boton: 'Inadmitir la solicitud',
      };
    case 'denegar':
      return {
        titulo: `Denegar la solicitud ${referencia}`,
        cuerpo:
          'La solicitud quedará denegada y el procedimiento terminará: no se puede deshacer. El solicitante recibirá el motivo y la explicación por correo.',
        boton: 'Denegar la solicitud',
      };
    case 'emitir_permisos':
      return {
        titulo: `Emitir los permisos de ${referencia}`,
        cuerpo:
          'Se enviarán al solicitante los permisos de acceso y conexión del PDF subido y el procedimiento terminará: no se puede deshacer.',
        boton: 'Emitir los permisos',
      };
    default:
      return null;
  }
}

/**
 * A number typed the Spanish way or the plain way: "1.234,5", "1234,5", "1234.5", "1 234". Dots
 * followed by groups of three digits are thousands; a lone dot or comma is the decimal mark. Null
 * when it is not a number.
 */
export function leerNumero(texto: string): number | null {
  const t = texto.replace(/[\s\u00a0\u202f]/g, '').replace(/€$/, '');
  let normal: string;
  if (/^\d{1,3}(\.\d{3})+(,\d+)?$/.test(t)) normal = t.replace(/\./g, '').replace(',', '.');
  else if (/^\d+(,\d+)?$/.test(t)) normal = t.replace(',', '.');
  else if (/^\d+\.\d+$/.test(t)) normal = t;
  else return null;
  const n = Number(normal);
  return Number.isFinite(n) ? n : null;
}

/** How many decimals a number typed as `leerNumero` reads it has ("12.500" none, "12,5" one). */
export function cifrasDecimales(texto: string): number {
  const t = texto.replace(/[\s\u00a0\u202f]/g, '').replace(/€$/, '');
  if (/^\d{1,3}(\.\d{3})+(,\d+)?$/.test(t)) return t.split(',')[1]?.length ?? 0;
  return /[.,](\d+)$/.exec(t)?.[1]?.length ?? 0;
}

/** What the context of a request tells the checks. */
export interface ContextoAccion {
  /** Corrections asked so far. */
  subsanaciones: number;
  /** The staff's pending documents of the class the action sends. */
  documentosPendientes: number;
}

/** One wrong field: its key and the message. */
export interface ErrorAccion {
  campo: CampoAccion;
  mensaje: string;
}

/** The message of a required message, by action. */
const FALTA_MENSAJE: Readonly<Partial<Record<AccionDistribuidora, string>>> = {
  pedir_subsanacion: 'Escriba qué debe corregir o añadir el solicitante.',
  inadmitir: 'Escriba por qué no se admite la solicitud.',
  denegar: 'Explique al solicitante los motivos de la denegación.',
};

/**
 * Checks an action's form as the server will (src/server/accesoyconexion/service.ts and the body's
 * schema) and builds its body: the errors in the form's order, or the body to send.
 */
export function comprobarAccion(
  accion: AccionDistribuidora,
  v: ValoresAccion,
  ctx: ContextoAccion,
): { ok: true; cuerpo: AccionBody } | { ok: false; errores: ErrorAccion[] } {
  const errores: Partial<Record<CampoAccion, string>> = {};
  const cuerpo: AccionBody = {};
  const campos = CAMPOS_ACCION[accion];

  const mensaje = v.mensaje.trim();
  if (mensaje.length > MAX_MENSAJE) errores.mensaje = `El mensaje no puede pasar de ${numero(MAX_MENSAJE)} caracteres.`;
  else if (!mensaje && FALTA_MENSAJE[accion]) errores.mensaje = FALTA_MENSAJE[accion];
  else if (mensaje) cuerpo.mensaje = mensaje;

  if (accion === 'pedir_subsanacion' && ctx.subsanaciones >= MAX_SUBSANACIONES) {
    errores.mensaje = `Ya se han pedido ${MAX_SUBSANACIONES} subsanaciones, el máximo del RD 1183/2020: admita o inadmita la solicitud.`;
  }

  if (campos.includes('documento') && ctx.documentosPendientes === 0) {
    errores.documento =
      DOCUMENTO_ACCION[accion] === 'permisos'
        ? 'Suba antes el PDF de los permisos de acceso y conexión: elíjalo y pulse «Subir el PDF».'
        : 'Suba antes el PDF de la propuesta previa: elíjalo y pulse «Subir el PDF».';
  }

  if (accion === 'denegar') {
    if (!Object.hasOwn(MOTIVOS_DENEGACION, v.motivo)) errores.motivo = 'Elija el motivo de la denegación.';
    else cuerpo.motivo = v.motivo as MotivoDenegacion;
  }

  if (accion === 'pedir_informe') {
    const t = v.tensionFronteraKv.trim();
    const kv = leerNumero(t);
    if (!t) errores.tensionFronteraKv = 'Indique la tensión del punto frontera con la red aguas arriba, en kV.';
    else if (kv === null || kv <= 0 || kv > 400)
      errores.tensionFronteraKv = 'La tensión debe ser un número de kV mayor que 0 y no mayor que 400 (por ejemplo, 66 o 13,2).';
    else cuerpo.tensionFronteraKv = kv;
  }

  if (accion === 'enviar_propuesta') {
    const punto = v.puntoConexion.trim();
    const condiciones = v.condicionesTecnicas.trim();
    const importe = v.importeEuros.trim();
    const meses = v.plazoObrasMeses.trim();
    if (!punto) errores.puntoConexion = 'Indique el punto de conexión.';
    else if (punto.length > MAX_PUNTO_CONEXION)
      errores.puntoConexion = `El punto de conexión no puede pasar de ${MAX_PUNTO_CONEXION} caracteres.`;
    if (!condiciones) errores.condicionesTecnicas = 'Indique las condiciones técnicas de acceso y conexión.';
    else if (condiciones.length > MAX_CONDICIONES)
      errores.condicionesTecnicas = `Las condiciones técnicas no pueden pasar de ${numero(MAX_CONDICIONES)} caracteres.`;
    const euros = leerNumero(importe);
    if (!importe) errores.importeEuros = 'Indique el importe en euros; escriba 0 si no hay coste para el solicitante.';
    else if (euros === null || euros > 1_000_000_000 || cifrasDecimales(importe) > 2)
      errores.importeEuros =
        'El importe debe ser una cantidad en euros, sin signo y con dos decimales como mucho (por ejemplo, 12.500,00).';
    let plazo: number | undefined;
    if (meses) {
      const m = /^\d{1,3}$/.test(meses) ? Number(meses) : NaN;
      if (!(m >= 1 && m <= 120)) errores.plazoObrasMeses = 'El plazo de las obras debe ser un número entero de meses, de 1 a 120.';
      else plazo = m;
    }
    if (!errores.puntoConexion && !errores.condicionesTecnicas && !errores.importeEuros && !errores.plazoObrasMeses && euros !== null) {
      cuerpo.propuesta = {
        puntoConexion: punto,
        condicionesTecnicas: condiciones,
        importeEuros: euros,
        ...(plazo ? { plazoObrasMeses: plazo } : {}),
      };
    }
  }

  const lista = campos.filter((c) => errores[c]).map((c) => ({ campo: c, mensaje: errores[c]! }));
  return lista.length ? { ok: false, errores: lista } : { ok: true, cuerpo };
}

/** What the live region says after an action: what was done and where the request stands now. */
export function mensajeHecho(accion: AccionDistribuidora, s: Pick<SolicitudDetalle, 'referencia' | 'pasoNombre' | 'turno'>): string {
  const tras =
    s.turno === 'solicitante'
      ? ' Ahora le toca al solicitante; se le ha avisado por correo.'
      : s.turno === 'distribuidora'
        ? ' Sigue siendo el turno de la distribuidora.'
        : ' El procedimiento ha terminado y se ha avisado al solicitante.';
  return `${NOMBRE_ACCION[accion]}. La solicitud ${s.referencia} está ahora en «${s.pasoNombre}».${accion === 'pedir_informe' ? ' El plazo de la propuesta previa se ha ampliado.' : tras}`;
}

/* ------------------------------------------------------------------ Documents */

/** The address of an upload of a document of `clase` named `nombre` to a case. */
export const urlSubidaDocumento = (id: string, clase: ClaseDocumento, nombre: string) =>
  urlApi('/expedientes/{id}/documentos', {
    path: { id },
    query: { clase: clase || undefined, nombre: nombre || undefined },
    formulario: true,
  });

/** The address of one document of a case (download, or delete while pending). */
export const urlDocumento = (id: string, docId: string) =>
  urlApi('/expedientes/{id}/documentos/{documentoId}', { path: { id, documentoId: docId } });

/** Longest name a document may have (the server's rule). */
export const MAX_NOMBRE_FICHERO = 200;

/**
 * What is wrong with a file chosen for an action's PDF, or null: it must be a PDF (the server checks
 * its first bytes; the screen checks what the browser says), not empty, and at most 20 MB.
 */
export function errorFicheroPdf(f: { name: string; size: number; type: string } | null | undefined): string | null {
  if (!f) return 'Elija el fichero PDF.';
  if (f.type !== 'application/pdf' && !/\.pdf$/i.test(f.name)) return 'El documento debe ser un PDF.';
  if (f.size === 0) return 'El fichero está vacío.';
  if ([...f.name].length > MAX_NOMBRE_FICHERO)
    return `El nombre del fichero no puede superar ${MAX_NOMBRE_FICHERO} caracteres: cámbielo antes de subirlo.`;
  if (f.size > MAX_DOCUMENTO_BYTES) return MENSAJE_DOCUMENTO_GRANDE;
  return null;
}
