/**
 * The access and connection request form (docs/sector.md §8, the sections distributors' forms
 * have): its data as a draft keeps it (every field optional, saved as the applicant goes), and the
 * check that runs on filing and lists everything missing, by section.
 *
 * The guarantee (RD 1183/2020 art. 23) is asked of generation, storage and hybrid requests, and of
 * self-consumption with surplus above 100 kW (RDL 29/2021: up to 100 kW is exempt). Installations
 * without surplus, and those of up to 15 kW on urbanised land, need no access permit at all
 * (docs/sector.md §8 row 0b): the form says so.
 */
import { esNifValido, normalizarNif } from '../nif.ts';
import { z } from '../validacion/z.ts';

export const TIPOS_SOLICITUD = ['demanda', 'generacion', 'autoconsumo', 'almacenamiento', 'hibrida'] as const;
export type TipoSolicitud = (typeof TIPOS_SOLICITUD)[number];

export const NOMBRE_TIPO: Readonly<Record<TipoSolicitud, string>> = {
  demanda: 'Consumo (demanda)',
  generacion: 'Generación',
  autoconsumo: 'Autoconsumo con excedentes',
  almacenamiento: 'Almacenamiento',
  hibrida: 'Híbrida (generación y almacenamiento)',
};

export const TECNOLOGIAS = ['fotovoltaica', 'eolica', 'hidraulica', 'cogeneracion', 'biomasa', 'baterias', 'otra'] as const;
export const NOMBRE_TECNOLOGIA: Readonly<Record<(typeof TECNOLOGIAS)[number], string>> = {
  fotovoltaica: 'Solar fotovoltaica',
  eolica: 'Eólica',
  hidraulica: 'Hidráulica',
  cogeneracion: 'Cogeneración',
  biomasa: 'Biomasa',
  baterias: 'Baterías',
  otra: 'Otra',
};

const texto = (max: number) => z.string().trim().max(max);

/** A request's data as the draft keeps it: every field may still be empty. */
export const DatosSolicitudSchema = z
  .object({
    // 1. The request.
    tipo: z
      .enum(TIPOS_SOLICITUD)
      .optional()
      .meta({ description: 'Tipo: demanda, generacion, autoconsumo (con excedentes), almacenamiento o hibrida.' }),
    fechaPuestaServicio: z.iso.date().optional().meta({ description: 'Fecha prevista de puesta en servicio, AAAA-MM-DD.' }),
    contactoNombre: texto(120).optional().meta({ description: 'Persona de contacto para la distribuidora.' }),
    contactoTelefono: texto(20).optional().meta({ description: 'Teléfono de contacto (9 a 15 cifras, con prefijo si no es español).' }),
    // 2. The holder: the account itself, or a holder it represents (with the authorisation document).
    enNombrePropio: z
      .boolean()
      .optional()
      .meta({ description: 'true si la cuenta solicita en su nombre; false si lo hace en nombre de otro titular (con su autorización).' }),
    titularNif: texto(9).optional().meta({ description: 'NIF, NIE o CIF del titular representado.' }),
    titularNombre: texto(160).optional().meta({ description: 'Nombre o razón social del titular representado.' }),
    // 3. The site.
    direccion: texto(200).optional().meta({ description: 'Dirección del emplazamiento (calle y número, o polígono y parcela).' }),
    municipio: texto(80).optional().meta({ description: 'Municipio del emplazamiento.' }),
    provincia: texto(60).optional().meta({ description: 'Provincia del emplazamiento.' }),
    codigoPostal: texto(5).optional().meta({ description: 'Código postal, 5 cifras.' }),
    referenciaCatastral: texto(20).optional().meta({ description: 'Referencia catastral de la parcela: 20 letras y cifras.' }),
    latitud: z.number().min(27).max(44).optional().meta({ description: 'Latitud del emplazamiento, grados decimales ETRS89.' }),
    longitud: z
      .number()
      .min(-19)
      .max(5)
      .optional()
      .meta({ description: 'Longitud del emplazamiento, grados decimales ETRS89 (negativa al oeste).' }),
    sueloUrbanizado: z
      .boolean()
      .optional()
      .meta({ description: 'Si está en suelo urbanizado (un autoconsumo de hasta 15 kW allí no necesita permiso).' }),
    // 4. Correspondence.
    correspondenciaMisma: z.boolean().optional().meta({ description: 'true si la correspondencia va a la dirección del emplazamiento.' }),
    correspondenciaDireccion: texto(300).optional().meta({ description: 'Dirección de correspondencia, si es otra.' }),
    // 5. The installation.
    potenciaKw: z
      .number()
      .positive()
      .max(1_000_000)
      .optional()
      .meta({ description: 'Potencia a evacuar (generación, almacenamiento) o a demandar (consumo), en kW.' }),
    tecnologia: z.enum(TECNOLOGIAS).optional().meta({ description: 'Tecnología de la generación o del almacenamiento.' }),
    tensionKv: z.number().positive().max(400).optional().meta({ description: 'Tensión de conexión, en kV (0,4 en baja tensión).' }),
    almacenamientoKw: z.number().nonnegative().max(1_000_000).optional().meta({ description: 'Potencia del almacenamiento, en kW.' }),
    almacenamientoKwh: z.number().nonnegative().max(10_000_000).optional().meta({ description: 'Capacidad del almacenamiento, en kWh.' }),
    // 6. The connection node, from the distributor's published nodal capacity.
    nudo: texto(40).optional().meta({ description: 'Identificador del nudo de conexión elegido entre los que publica la distribuidora.' }),
  })
  .meta({ id: 'DatosSolicitudAcceso' });
export type DatosSolicitud = z.infer<typeof DatosSolicitudSchema>;

/** Something missing or wrong for filing: the section, the field and the reason. */
export interface Falta {
  seccion: 'solicitud' | 'titular' | 'emplazamiento' | 'correspondencia' | 'instalacion' | 'nudo' | 'documentos';
  campo: string;
  mensaje: string;
}

export const NOMBRE_SECCION: Readonly<Record<Falta['seccion'], string>> = {
  solicitud: 'Datos de la solicitud',
  titular: 'Titular',
  emplazamiento: 'Emplazamiento',
  correspondencia: 'Dirección de correspondencia',
  instalacion: 'Instalación',
  nudo: 'Nudo de conexión',
  documentos: 'Documentos',
};

/** Whether the request must carry the guarantee's receipt (art. 23; exempt self-consumption ≤ 100 kW; demand none). */
export function necesitaGarantia(d: DatosSolicitud): boolean {
  if (!d.tipo || d.tipo === 'demanda') return false;
  if (d.tipo === 'autoconsumo') return (d.potenciaKw ?? 0) > 100;
  return true;
}

/** Why no access permit is needed at all, or null (self-consumption of up to 15 kW on urbanised land). */
export function sinPermisoNecesario(d: DatosSolicitud): string | null {
  if (d.tipo === 'autoconsumo' && d.potenciaKw !== undefined && d.potenciaKw <= 15 && d.sueloUrbanizado) {
    return 'Una instalación de autoconsumo de hasta 15 kW en suelo urbanizado no necesita permiso de acceso y conexión (RD 1183/2020); tampoco la que no vierte excedentes. Puede presentar la solicitud igualmente si la distribuidora se lo ha pedido.';
  }
  return null;
}

/** Whether the power is injected (generation, storage) rather than drawn. */
export const esInyeccion = (d: DatosSolicitud) => d.tipo !== undefined && d.tipo !== 'demanda';

/**
 * Which published list a request chooses its node from: a demand request (consumption) from the firm
 * DEMAND access capacity (Circular 1/2024 art. 16, harmonised format of the CNMC resolution of
 * 30-04-2025); every other kind (generation, self-consumption, storage, hybrid) injects power and
 * chooses from the GENERATION access capacity (Circular 1/2021). RD 1183/2020 art. 7 has access
 * requested for the node where the installation connects, so the node must be one the distributor
 * publishes for that use. Before a kind is chosen, the generation list, as always.
 */
export type ListaNudos = 'generacion' | 'demanda';

/** The list of nodes for a kind of request. */
export const listaNudosDe = (tipo: TipoSolicitud | '' | undefined): ListaNudos => (tipo === 'demanda' ? 'demanda' : 'generacion');

const CATASTRAL = /^[0-9A-Z]{20}$/;
const CP = /^(0[1-9]|[1-4]\d|5[0-2])\d{3}$/;
const TELEFONO = /^\+?\d{9,15}$/;

/**
 * Everything missing or wrong for filing, in the form's order. `documentos` are the classes of the
 * documents the applicant has attached; `nudos` the node identifiers the distributor publishes in
 * the list the request's kind chooses from (`listaNudosDe`: firm demand capacity for
 * a demand request, generation capacity for the rest), empty when it publishes none: then the node is optional.
 */
export function faltanParaPresentar(d: DatosSolicitud, documentos: readonly string[], nudos: readonly string[]): Falta[] {
  const f: Falta[] = [];
  const falta = (seccion: Falta['seccion'], campo: string, mensaje: string) => f.push({ seccion, campo, mensaje });
  if (!d.tipo) falta('solicitud', 'tipo', 'Elija el tipo de solicitud.');
  if (!d.fechaPuestaServicio) falta('solicitud', 'fechaPuestaServicio', 'Indique la fecha prevista de puesta en servicio.');
  if (!d.contactoNombre) falta('solicitud', 'contactoNombre', 'Indique la persona de contacto.');
  if (!d.contactoTelefono) falta('solicitud', 'contactoTelefono', 'Indique el teléfono de contacto.');
  else if (!TELEFONO.test(d.contactoTelefono.replace(/[\s-]/g, '')))
    falta('solicitud', 'contactoTelefono', 'El teléfono debe tener entre 9 y 15 cifras.');
  if (d.enNombrePropio === undefined) falta('titular', 'enNombrePropio', 'Diga si solicita en su nombre o en el de otro titular.');
  if (d.enNombrePropio === false) {
    if (!d.titularNif || !esNifValido(normalizarNif(d.titularNif)))
      falta('titular', 'titularNif', 'Indique un NIF, NIE o CIF válido del titular.');
    if (!d.titularNombre) falta('titular', 'titularNombre', 'Indique el nombre o la razón social del titular.');
    if (!documentos.includes('autorizacion'))
      falta('documentos', 'autorizacion', 'Adjunte la autorización del titular para actuar en su nombre.');
  }
  if (!d.direccion) falta('emplazamiento', 'direccion', 'Indique la dirección del emplazamiento.');
  if (!d.municipio) falta('emplazamiento', 'municipio', 'Indique el municipio.');
  if (!d.provincia) falta('emplazamiento', 'provincia', 'Indique la provincia.');
  if (!d.codigoPostal || !CP.test(d.codigoPostal)) falta('emplazamiento', 'codigoPostal', 'Indique un código postal de 5 cifras.');
  if (!d.referenciaCatastral || !CATASTRAL.test(d.referenciaCatastral.toUpperCase()))
    falta('emplazamiento', 'referenciaCatastral', 'Indique la referencia catastral: 20 letras y cifras.');
  if (d.latitud === undefined || d.longitud === undefined)
    falta('emplazamiento', 'coordenadas', 'Indique la latitud y la longitud del emplazamiento.');
  if (d.correspondenciaMisma === false && !d.correspondenciaDireccion)
    falta('correspondencia', 'correspondenciaDireccion', 'Indique la dirección de correspondencia.');
  if (!d.potenciaKw)
    falta('instalacion', 'potenciaKw', esInyeccion(d) ? 'Indique la potencia a evacuar, en kW.' : 'Indique la potencia a demandar, en kW.');
  if (esInyeccion(d) && !d.tecnologia) falta('instalacion', 'tecnologia', 'Elija la tecnología.');
  if (!d.tensionKv) falta('instalacion', 'tensionKv', 'Indique la tensión de conexión, en kV.');
  if ((d.tipo === 'almacenamiento' || d.tipo === 'hibrida') && !d.almacenamientoKw)
    falta('instalacion', 'almacenamientoKw', 'Indique la potencia del almacenamiento, en kW.');
  if (nudos.length > 0) {
    if (!d.nudo) falta('nudo', 'nudo', 'Elija el nudo de conexión entre los que publica la distribuidora.');
    else if (!nudos.includes(d.nudo))
      falta(
        'nudo',
        'nudo',
        d.tipo === 'demanda'
          ? 'Ese nudo no está entre los que publica la distribuidora con capacidad de acceso firme de demanda: elija uno de esa lista.'
          : 'Ese nudo no está entre los que publica la distribuidora.',
      );
  }
  if (necesitaGarantia(d) && !documentos.includes('garantia'))
    falta('documentos', 'garantia', 'Adjunte el resguardo de la garantía depositada ante la administración (art. 23 RD 1183/2020).');
  if (!documentos.includes('memoria')) falta('documentos', 'memoria', 'Adjunte la memoria técnica de la instalación.');
  if (!documentos.includes('planos')) falta('documentos', 'planos', 'Adjunte los planos de situación.');
  return f;
}
