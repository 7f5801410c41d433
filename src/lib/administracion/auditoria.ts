/**
 * The audit log view: its filters in the query string, the `GET /api/administrador/auditoria`
 * call they become, and how an entry reads on screen: who acted (and, in an impersonated session,
 * "<admin> como <usuario>"), what, on what, and the details as label–value pairs.
 */
import { urlApi } from '../api/rutas.ts';
import { NOMBRE_ACCION } from '../accesoyconexion/procedimiento.ts';
import { definirLista, leerTexto, PRIMERA_PAGINA, type Paginacion } from './consulta.ts';
import { esDiaValido, finDiaMadridIso, inicioDiaMadridIso } from './fechas.ts';

/** A user as an entry names them. */
export interface PersonaAuditoria {
  id: string;
  email: string;
  nombre: string;
}

/** One entry of the view. */
export interface EntradaAuditoria {
  id: number;
  at: string;
  accion: string;
  actor: PersonaAuditoria | null;
  suplantador: PersonaAuditoria | null;
  objetivo: { tipo: string; id: string } | null;
  ip: string | null;
  detalles: Record<string, unknown>;
}

/** `GET /api/administrador/auditoria`. */
export interface RespuestaAuditoria {
  /** Entries matching the filters, all pages. */
  total: number;
  /** This page. */
  entradas: EntradaAuditoria[];
}

/** The filters of the log. */
export interface FiltrosAuditoria extends Paginacion {
  /** First day, `YYYY-MM-DD` (Madrid), or ''. */
  desde: string;
  /** Last day included, `YYYY-MM-DD` (Madrid), or ''. */
  hasta: string;
  /** Action code, or ''. */
  accion: string;
  /** E-mail or id of the actor or impersonator, or ''. */
  usuario: string;
}

/** No filter, first page. */
export const FILTROS_AUDITORIA_VACIOS: FiltrosAuditoria = { desde: '', hasta: '', accion: '', usuario: '', ...PRIMERA_PAGINA };

/** The days of the range that are real dates: a wrong one in the address is dropped. */
function diaValido(p: URLSearchParams, nombre: string): string {
  const v = leerTexto(p, nombre, 10);
  return esDiaValido(v) ? v : '';
}

/**
 * The log: its filters in the screen's address and in `GET /api/administrador/auditoria`. Days are
 * Madrid days: the API is sent the instant the first day starts and the instant the day after the
 * last one starts, both in UTC, so the whole last day is included.
 */
export const LISTA_AUDITORIA = definirLista<FiltrosAuditoria, EntradaAuditoria>({
  ruta: urlApi('/administrador/auditoria'),
  vacios: FILTROS_AUDITORIA_VACIOS,
  leer: (p) => ({
    desde: diaValido(p, 'desde'),
    hasta: diaValido(p, 'hasta'),
    accion: leerTexto(p, 'accion', 100).replace(/[^\w.-]/g, ''),
    usuario: leerTexto(p, 'usuario', 200),
  }),
  pares: (f) => [
    ['desde', f.desde],
    ['hasta', f.hasta],
    ['accion', f.accion],
    ['usuario', f.usuario.trim()],
  ],
  paresApi: (f) => [
    ['desde', f.desde ? inicioDiaMadridIso(f.desde) : null],
    ['hasta', f.hasta ? finDiaMadridIso(f.hasta) : null],
    ['accion', f.accion],
    ['usuario', f.usuario.trim()],
  ],
});

/** The filters a query string names; invalid dates and unknown values are dropped. */
export const filtrosAuditoriaDesdeConsulta = LISTA_AUDITORIA.desdeConsulta;

/** The query string (no '?') of the screen's address: only what differs from the defaults. */
export const consultaDeFiltrosAuditoria = LISTA_AUDITORIA.consulta;

/** The API call of the log. */
export const urlAuditoria = LISTA_AUDITORIA.url;

/** Checks the date range; the Spanish message of what is wrong, or null. */
export function errorRangoFechas(desde: string, hasta: string): { campo: 'desde' | 'hasta'; mensaje: string } | null {
  if (desde && !esDiaValido(desde)) return { campo: 'desde', mensaje: 'La fecha «Desde» no es válida.' };
  if (hasta && !esDiaValido(hasta)) return { campo: 'hasta', mensaje: 'La fecha «Hasta» no es válida.' };
  if (desde && hasta && hasta < desde) return { campo: 'hasta', mensaje: 'La fecha «Hasta» no puede ser anterior a la fecha «Desde».' };
  return null;
}

/** How a person is named in the log: name and e-mail, or the e-mail alone. */
export function nombrePersona(p: PersonaAuditoria): string {
  return p.nombre && p.nombre !== p.email ? `${p.nombre} (${p.email})` : p.email;
}

/** Who acted: "<admin> como <usuario>" in an impersonated session, the actor, or "Sistema". */
export function describirActor(e: Pick<EntradaAuditoria, 'actor' | 'suplantador'>): string {
  if (e.suplantador && e.actor) return `${nombrePersona(e.suplantador)} como ${nombrePersona(e.actor)}`;
  if (e.suplantador) return `${nombrePersona(e.suplantador)} como otro usuario`;
  if (e.actor) return nombrePersona(e.actor);
  return 'Sistema o visitante sin sesión';
}

/** Every action the server writes, in words (a test checks none is missing); an unknown one shows as its code. */
const ACCIONES: Record<string, string> = {
  'capacidad_demanda.importada': 'Importación de capacidad de acceso de demanda',
  'capacidad_nodal.importada': 'Importación de capacidad nodal',
  'certificado.emitido': 'Emisión de un certificado de consumo',
  'clave.recuperacion_solicitada': 'Solicitud de recuperación de contraseña',
  'clave.restablecida': 'Contraseña restablecida',
  'contador.estado': 'Cambio del estado de un contador',
  'contador.importacion': 'Importación de estados de contadores',
  'demo.cargada': 'Carga de datos de demostración',
  'incidencia.alta': 'Alta de incidencia de red',
  'incidencia.cambio': 'Cambio de incidencia de red',
  'autorizacion.creada': 'Autorización a un tercero para consultar datos de suministros',
  'autorizacion.revocada': 'Revocación de una autorización a un tercero',
  'autorizacion.lectura': 'Consulta de datos de un suministro con autorización del titular',
  'datadis.consulta': 'Consulta por la API compatible con Datadis',
  'averia.confirmada': 'Avisos de falta de suministro confirmados como incidencia de red',
  'averia.descartada': 'Aviso de falta de suministro descartado',
  'avisos_corte.alta': 'Activación de los avisos por correo de cortes de un suministro',
  'avisos_corte.baja': 'Desactivación de los avisos por correo de cortes de un suministro',
  'incidencia.cierre': 'Cierre de incidencia de red',
  'lecturas.suscripcion.anulada': 'Anulación de la suscripción de calendario',
  'lecturas.suscripcion.creada': 'Creación de la suscripción de calendario',
  'modificacion.solicitud': 'Solicitud de modificación contractual',
  'modificacion.aceptacion': 'Aceptación de una modificación contractual',
  'modificacion.rechazo': 'Rechazo de una modificación contractual',
  'modificacion.activacion': 'Activación de una modificación contractual',
  'modificacion.anulacion': 'Anulación de una modificación contractual',
  'perfil.cambio_email_solicitado': 'Solicitud de cambio de correo',
  'perfil.clave': 'Cambio de contraseña',
  'perfil.datos': 'Cambio de datos del perfil',
  'perfil.email_cambiado': 'Cambio de correo confirmado',
  'perfil.sesiones_cerradas': 'Cierre de las otras sesiones',
  'sesion.login': 'Inicio de sesión',
  'sesion.login_fallido': 'Inicio de sesión fallido',
  'sesion.login_pendiente': 'Inicio de sesión en una cuenta sin activar',
  'sesion.logout': 'Cierre de sesión',
  'sesion.refresco_reutilizado': 'Renovación de sesión con un testigo ya usado',
  'sips.consulta': 'Consulta del SIPS por CUPS',
  'sips.descarga': 'Descarga de un fichero SIPS',
  'sips.generacion': 'Generación de los ficheros SIPS de un mes',
  'sips.registro': 'Carga del registro de suministros (SIPS2026)',
  'suplantacion.inicio': 'Inicio de acceso como otro usuario',
  'suplantacion.fin': 'Fin de acceso como otro usuario',
  'suplantacion.peticion': 'Petición durante un acceso como otro usuario',
  'usuario.activacion': 'Activación de cuenta',
  'usuario.admin_inicial': 'Alta del administrador inicial',
  'usuario.alta': 'Alta de usuario',
  'usuario.borrado_sin_activar': 'Borrado de cuenta sin activar',
  'usuario.estado': 'Cambio de estado de usuario',
  'usuario.permisos': 'Cambio de permisos',
  'usuario.codigo_ree': 'Cambio del código REE de una comercializadora',
  'usuario.reenvio_activacion': 'Reenvío del correo de activación',
  'expediente.documento': 'Documento añadido a un expediente',
  'expediente.documento.descarga': 'Descarga de un documento de un expediente',
  'expediente.documento.borrado': 'Documento pendiente quitado de un expediente',
  'acceso.crear': 'Borrador de solicitud de acceso y conexión',
  'intercambio.subida': 'Fichero subido al intercambio',
  'intercambio.descarga': 'Fichero descargado del intercambio',
  'intercambio.carpeta': 'Carpeta creada en el intercambio',
  'intercambio.movido': 'Fichero o carpeta movido en el intercambio',
  'intercambio.borrado': 'Fichero o carpeta borrado del intercambio',
  'intercambio.medidas': 'Ficheros de medidas P5D o F5D enviados a una comercializadora',
  'perfil.clave_ssh': 'Alta de una clave SSH para el intercambio',
  'perfil.clave_ssh_borrada': 'Baja de una clave SSH del intercambio',
  'atr.recibir': 'Solicitud ATR recibida',
  'atr.aceptar': 'Solicitud ATR aceptada',
  'atr.rechazar': 'Solicitud ATR rechazada',
  'atr.anular': 'Solicitud ATR anulada',
  'atr.activar': 'Solicitud ATR activada por la distribuidora',
  'atr.rechazar_campo': 'Solicitud ATR rechazada tras la visita a campo',
  'atr.incidencia': 'Incidencia anotada en una solicitud ATR',
  'atr.reponer': 'Suministro repuesto tras un corte, a petición de su comercializadora',
  // Every step of an access and connection request (`acceso.<accion>`, src/server/expedientes/service.ts).
  ...Object.fromEntries(
    Object.entries(NOMBRE_ACCION).map(([accion, nombre]) => [
      `acceso.${accion}`,
      `Acceso y conexión: ${nombre.charAt(0).toLowerCase()}${nombre.slice(1)}`,
    ]),
  ),
};

/** The action in words, with its code when it is a known one ("Cambio de permisos"); the code otherwise. */
export function nombreAccion(accion: string): string {
  return ACCIONES[accion] ?? accion;
}

/** A detail value as text: lists joined by commas, objects as compact JSON, empty as '—'. */
export function textoValor(v: unknown): string {
  if (v === null || v === undefined || v === '') return '—';
  if (Array.isArray(v))
    return v.length ? v.map((x) => (typeof x === 'object' && x !== null ? JSON.stringify(x) : String(x))).join(', ') : '—';
  if (typeof v === 'object') return JSON.stringify(v);
  if (typeof v === 'boolean') return v ? 'sí' : 'no';
  return String(v);
}

/** The details of an entry as label–value pairs, in the order the server wrote them. */
export function detallesLegibles(detalles: Record<string, unknown> | null | undefined): { clave: string; valor: string }[] {
  if (!detalles || typeof detalles !== 'object') return [];
  return Object.entries(detalles).map(([clave, valor]) => ({ clave, valor: textoValor(valor) }));
}

/** What an entry was done on, in words; `idUsuario` when it is an account (the view links to its detail). */
export function describirObjetivo(objetivo: EntradaAuditoria['objetivo']): { texto: string; idUsuario: string | null } {
  if (!objetivo) return { texto: '—', idUsuario: null };
  if (objetivo.tipo === 'usuario') return { texto: 'Cuenta de usuario', idUsuario: objetivo.id };
  if (objetivo.tipo === 'incidencia') return { texto: `Incidencia de red ${objetivo.id.slice(0, 8)}`, idUsuario: null };
  if (objetivo.tipo === 'sesion') return { texto: `Sesión ${objetivo.id.slice(0, 8)}`, idUsuario: null };
  return { texto: `${objetivo.tipo.replace(/_/g, ' ')}: ${objetivo.id}`, idUsuario: null };
}
