/**
 * What a query and a claim hold (docs/decisions/018): their data as a draft keeps it (every field
 * optional, saved as the user goes) and the check that runs when they are sent, listing everything
 * missing. A claim asks the fields of its subtype (table 82, src/lib/contacto/tablas-r1.ts) and only
 * those; the server checks them against the same table.
 */
import { z } from '../validacion/z.ts';
import { CODIGOS_DERECHO, CODIGOS_TEMA } from './procedimientos.ts';
import {
  CAMPOS_RECLAMACION,
  CODIGOS_ROL,
  CODIGOS_TIPO,
  DEFINICION_CAMPOS,
  errorCampo,
  subtipo,
  subtiposDe,
  type CampoReclamacion,
} from './tablas-r1.ts';

const texto = (max: number) => z.string().trim().max(max);

export const DatosConsultaSchema = z
  .object({
    tema: z.enum(CODIGOS_TEMA).optional().meta({ description: 'Tema: suministro, medidas, conexion, calidad, proteccion_datos u otro.' }),
    derecho: z
      .enum(CODIGOS_DERECHO)
      .optional()
      .meta({ description: 'En protección de datos: acceso, rectificacion, supresion, limitacion, portabilidad u oposicion.' }),
    cups: texto(22).optional().meta({ description: 'Uno de los suministros de la cuenta, si la consulta trata de él.' }),
    asunto: texto(120).optional().meta({ description: 'Asunto, en una línea.' }),
    mensaje: texto(4000).optional().meta({ description: 'La consulta o petición.' }),
  })
  .meta({ id: 'DatosConsulta' });
export type DatosConsulta = z.infer<typeof DatosConsultaSchema>;

const ValorCampo = z.union([z.string().trim().max(200), z.number()]);

/** The fields a subtype may require, each optional in a draft and described by its label. */
const CamposSchema = z.object(
  Object.fromEntries(
    CAMPOS_RECLAMACION.map((c) => [c, ValorCampo.optional().meta({ description: DEFINICION_CAMPOS[c].etiqueta })]),
  ) as Record<CampoReclamacion, z.ZodOptional<typeof ValorCampo>>,
);

export const DatosReclamacionSchema = z
  .object({
    rol: z.enum(CODIGOS_ROL).optional().meta({ description: 'Quién reclama (tabla 83 de la CNMC): 01 titular, 02 representante…' }),
    tipo: z.enum(CODIGOS_TIPO).optional().meta({ description: 'Tipo de reclamación (tabla 81): 01 a 07.' }),
    subtipo: z.string().trim().max(3).optional().meta({ description: 'Subtipo (tabla 82), de tres cifras.' }),
    campos: CamposSchema.optional().meta({
      description: 'Los datos que pide el subtipo (cups, fechaDesde, numeroFactura, importeReclamado…).',
    }),
    mensaje: texto(4000).optional().meta({ description: 'La descripción de la reclamación.' }),
  })
  .meta({ id: 'DatosReclamacion' });
export type DatosReclamacion = z.infer<typeof DatosReclamacionSchema>;

/** Something missing or wrong for sending: the field and the reason, in Spanish. */
export interface FaltaContacto {
  campo: string;
  mensaje: string;
}

/** What a query lacks to be sent. `cupsPropios` are the account's supply points at that distributor. */
export function faltanConsulta(d: DatosConsulta, cupsPropios: readonly string[]): FaltaContacto[] {
  const f: FaltaContacto[] = [];
  if (!d.tema) f.push({ campo: 'tema', mensaje: 'Elija el tema de la consulta.' });
  if (d.tema === 'proteccion_datos' && !d.derecho) f.push({ campo: 'derecho', mensaje: 'Elija qué derecho quiere ejercer.' });
  if (d.cups && !cupsPropios.includes(d.cups))
    f.push({ campo: 'cups', mensaje: 'Ese suministro no es de su cuenta en esta distribuidora.' });
  if (!d.asunto) f.push({ campo: 'asunto', mensaje: 'Escriba el asunto.' });
  if (!d.mensaje) f.push({ campo: 'mensaje', mensaje: 'Escriba su consulta.' });
  return f;
}

/**
 * What a claim lacks to be sent: the role, type and subtype (one of the type, offered to that role),
 * every field the subtype requires, checked by its kind, and the description. A holder (role 01)
 * claims about one of its own supply points.
 */
export function faltanReclamacion(d: DatosReclamacion, prefijoCups: string, cupsPropios: readonly string[]): FaltaContacto[] {
  const f: FaltaContacto[] = [];
  if (!d.rol) f.push({ campo: 'rol', mensaje: 'Indique en calidad de qué reclama.' });
  if (!d.tipo) f.push({ campo: 'tipo', mensaje: 'Elija el tipo de reclamación.' });
  const s = d.subtipo ? subtipo(d.subtipo) : undefined;
  if (!d.subtipo) f.push({ campo: 'subtipo', mensaje: 'Elija el subtipo de reclamación.' });
  else if (!s || (d.tipo && !subtiposDe(d.tipo, d.rol).some((x) => x.codigo === s.codigo)))
    f.push({ campo: 'subtipo', mensaje: 'Ese subtipo no corresponde al tipo elegido o a quien reclama.' });
  if (s) {
    for (const campo of s.campos) {
      const valor = d.campos?.[campo];
      if (DEFINICION_CAMPOS[campo].opcional && (valor === undefined || valor === '')) continue;
      const error = errorCampo(campo, valor, prefijoCups);
      if (error) f.push({ campo, mensaje: error });
      else if (campo === 'cups' && d.rol === '01' && !cupsPropios.includes(String(d.campos?.cups).trim().toUpperCase()))
        f.push({ campo, mensaje: 'Como titular, elija uno de sus suministros en esta distribuidora.' });
    }
    const desde = d.campos?.fechaDesde;
    const hasta = d.campos?.fechaHasta;
    if (s.campos.includes('fechaHasta') && typeof desde === 'string' && typeof hasta === 'string' && desde && hasta && hasta < desde)
      f.push({ campo: 'fechaHasta', mensaje: 'La fecha final es anterior a la inicial.' });
    const provincia = d.campos?.ubicacionProvincia;
    const municipio = d.campos?.ubicacionMunicipio;
    const postal = d.campos?.ubicacionCodigoPostal;
    // CNMC R1 UbicacionIncidencia: the municipality's INE code and the postal code begin with the province's.
    if (s.campos.includes('ubicacionMunicipio') && typeof provincia === 'string' && provincia) {
      if (typeof municipio === 'string' && /^\d{5}$/.test(municipio) && !municipio.startsWith(provincia))
        f.push({
          campo: 'ubicacionMunicipio',
          mensaje: `Ese municipio no es de la provincia elegida: su código empieza por ${provincia}.`,
        });
      if (typeof postal === 'string' && /^\d{5}$/.test(postal) && !postal.startsWith(provincia))
        f.push({ campo: 'ubicacionCodigoPostal', mensaje: `Ese código postal no es de la provincia elegida: empieza por ${provincia}.` });
    }
  }
  if (!d.mensaje) f.push({ campo: 'mensaje', mensaje: 'Describa su reclamación.' });
  return f;
}

/** Only the fields of the chosen subtype are kept when a claim is sent: the rest of the form does not travel. */
export function camposDelSubtipo(d: DatosReclamacion): DatosReclamacion {
  const s = d.subtipo ? subtipo(d.subtipo) : undefined;
  if (!s || !d.campos) return d;
  const campos: Partial<Record<CampoReclamacion, string | number>> = {};
  for (const c of s.campos) if (d.campos[c] !== undefined) campos[c] = d.campos[c];
  return { ...d, campos };
}
