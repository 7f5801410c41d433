/**
 * The web form of a supply company's ATR request (docs/decisions/020): the step 01 of C1, C2, A3,
 * M1 and B1 as plain data, checked in the browser and again by the API with the same code. The body
 * of `POST /api/atr/solicitudes` (zod, Spanish messages), the code tables the form offers (CNMC
 * tables 7, 8, 10, 17 and 53), the form's fields as typed and the body built from them, and the rules
 * that need no supply point: powers (src/lib/modificaciones/reglas.ts, table 27 codes 15 and 52), the
 * activation date, and the tariff allowed at a supply voltage (table 27 code 17). The rules that need
 * the supply point and the cases open on it are the ATR reader's own (src/server/atr/lector.ts).
 * Plain TypeScript, no React.
 */
import { errorCups, MENSAJES_CUPS, normalizarCups } from '../cups.ts';
import { CODIGOS_DISTRIBUIDORA, type CodigoDistribuidora } from '../distribuidoras.ts';
import { numeroHasta } from '../formato/numeros.ts';
import { fechaSinDia } from '../medidas/pantalla/formato.ts';
import { esFechaLocal } from '../calendario/fechas.ts';
import { leerKw } from '../modificaciones/potencias.ts';
import { comprobarPotencias } from '../modificaciones/reglas.ts';
import { periodosDe, TARIFAS, type ContratoSolicitud, type Tarifa } from '../modificaciones/tipos.ts';
import { esNifValido, normalizarNif, tipoNif } from '../nif.ts';
import { z } from '../validacion/z.ts';
import type { ProcesoAtr } from './procesos.ts';

// ---------------------------------------------------------------------------------------------
// Code tables
// ---------------------------------------------------------------------------------------------

/** When the change takes effect (CNMC table 8). */
export const ACTIVACIONES = ['A', 'L', 'F'] as const;
export type Activacion = (typeof ACTIVACIONES)[number];
export const NOMBRE_ACTIVACION: Readonly<Record<Activacion, string>> = {
  A: 'Cuanto antes',
  L: 'Con la próxima lectura del ciclo',
  F: 'En una fecha fija',
};

/** Why the supply ends or is suspended, for a B1 (CNMC table 10). */
export const MOTIVOS_BAJA = ['01', '02', '03', '04'] as const;
export type MotivoBaja = (typeof MOTIVOS_BAJA)[number];
export const NOMBRE_MOTIVO_BAJA: Readonly<Record<MotivoBaja, string>> = {
  '01': 'Cese de actividad',
  '02': 'Fin del contrato de energía',
  '03': 'Corte de suministro',
  '04': 'Baja por impago',
};

/** What an M1 changes (CNMC table 7): N the tariff or powers, S administrative data only, A both. */
export const TIPOS_MODIFICACION = ['N', 'S', 'A'] as const;
export type TipoModificacion = (typeof TIPOS_MODIFICACION)[number];
export const NOMBRE_TIPO_MODIFICACION: Readonly<Record<TipoModificacion, string>> = {
  N: 'Tarifa o potencias',
  S: 'Datos administrativos (titular)',
  A: 'Ambas cosas',
};

/**
 * The administrative changes the form offers for an M1 (CNMC table 53): a new holder by transfer
 * (T) or by subrogation (S), other administrative data (A), a correction of the holder's data (C).
 * With T and S the holder written in the message is the new one.
 */
export const SOLICITUDES_ADMINISTRATIVAS = ['T', 'S', 'A', 'C'] as const;
export type SolicitudAdministrativa = (typeof SOLICITUDES_ADMINISTRATIVAS)[number];
export const NOMBRE_SOLICITUD_ADMINISTRATIVA: Readonly<Record<SolicitudAdministrativa, string>> = {
  T: 'Cambio de titular por traspaso',
  S: 'Cambio de titular por subrogación',
  A: 'Cambio de datos administrativos',
  C: 'Corrección de datos del cliente',
};

/** Whether an M1's administrative change names a new holder (table 53 T or S). */
export const cambiaTitular = (s: string | undefined | null): boolean => s === 'T' || s === 'S';

/** The longest name, surname or company name a message carries (the CNMC's `NombreCliente`, X80). */
export const MAX_NOMBRE_ATR = 80;

// ---------------------------------------------------------------------------------------------
// Tariff and voltage (table 27 code 17)
// ---------------------------------------------------------------------------------------------

/**
 * The access tariffs a supply voltage admits (CNMC Circular 3/2020): 2.0TD and 3.0TD in low voltage
 * (below 1 kV), 6.1TD from 1 to 30 kV, 6.2TD to 72.5 kV, 6.3TD to 145 kV, 6.4TD above.
 */
export function tarifasParaTension(tensionV: number): readonly Tarifa[] {
  if (tensionV < 1_000) return ['2.0TD', '3.0TD'];
  if (tensionV < 30_000) return ['6.1TD'];
  if (tensionV < 72_500) return ['6.2TD'];
  if (tensionV < 145_000) return ['6.3TD'];
  return ['6.4TD'];
}

/** Why a tariff cannot be contracted at a supply's voltage (table 27 code 17), or null. */
export function errorTarifaTension(tarifa: string, tensionV: number): string | null {
  const posibles = tarifasParaTension(tensionV);
  if ((posibles as readonly string[]).includes(tarifa)) return null;
  const tension = tensionV < 1_000 ? `${tensionV} V` : `${numeroHasta(tensionV / 1000, 3)} kV`;
  return `El suministro es de ${tension} y la tarifa ${tarifa} no corresponde a esa tensión: admite ${posibles.join(' o ')}.`;
}

// ---------------------------------------------------------------------------------------------
// The body of POST /api/atr/solicitudes
// ---------------------------------------------------------------------------------------------

const texto = (que: string) =>
  z
    .string({ error: `${que} debe ser un texto.` })
    .trim()
    .max(MAX_NOMBRE_ATR, `${que} no puede superar ${MAX_NOMBRE_ATR} caracteres.`);

const titularSchema = z
  .object({
    nif: z
      .string({ error: 'Escriba el NIF, NIE o CIF del titular.' })
      .trim()
      .min(1, 'Escriba el NIF, NIE o CIF del titular.')
      .max(20, 'El NIF no puede superar 20 caracteres.')
      .refine((v) => esNifValido(normalizarNif(v)), 'El NIF no es un DNI, NIE ni CIF válido: compruebe las cifras y la letra de control.')
      .meta({ description: 'NIF, NIE o CIF del titular (tabla 5 de la CNMC: NI o NE).' }),
    nombre: texto('El nombre').optional().meta({ description: 'Nombre de pila de una persona; no con un CIF.' }),
    apellido1: texto('El primer apellido').optional().meta({ description: 'Primer apellido de una persona; no con un CIF.' }),
    apellido2: texto('El segundo apellido').optional().meta({ description: 'Segundo apellido de una persona (opcional).' }),
    razonSocial: texto('La razón social').optional().meta({ description: 'Razón social de una empresa (titular con CIF).' }),
  })
  .superRefine((t, ctx) => {
    const tipo = tipoNif(t.nif);
    if (tipo === 'CIF') {
      if (!t.razonSocial?.trim()) ctx.addIssue({ code: 'custom', path: ['razonSocial'], message: 'Escriba la razón social del titular.' });
    } else if (tipo === 'DNI') {
      if (!t.nombre?.trim()) ctx.addIssue({ code: 'custom', path: ['nombre'], message: 'Escriba el nombre del titular.' });
      if (!t.apellido1?.trim()) ctx.addIssue({ code: 'custom', path: ['apellido1'], message: 'Escriba el primer apellido del titular.' });
    }
  })
  .meta({
    description:
      'Titular del contrato: el actual en C1, C2, B1 y M1 (el nuevo en un cambio de titular, tabla 53 T o S), el del nuevo contrato en A3. Con un CIF, la razón social; con un DNI o NIE, nombre y primer apellido.',
  });

const comunes = {
  distribuidora: z
    .enum(CODIGOS_DISTRIBUIDORA, { error: 'Elija la distribuidora.' })
    .meta({ description: 'Distribuidora a la que se envía: una de las que la cuenta es comercializadora.' }),
  cups: z
    .string({ error: MENSAJES_CUPS.vacio })
    .max(30, MENSAJES_CUPS.longitud)
    .superRefine((v, ctx) => {
      const e = errorCups(v);
      if (e) ctx.addIssue({ code: 'custom', message: MENSAJES_CUPS[e] });
    })
    .meta({ description: 'CUPS del punto de suministro (20 o 22 caracteres, con sus letras de control).' }),
  titular: titularSchema,
  activacion: z
    .enum(ACTIVACIONES, { error: 'Elija cuándo se activa: cuanto antes, con la próxima lectura o en una fecha fija.' })
    .meta({ description: 'Activación (tabla 8 de la CNMC): A cuanto antes, L con la próxima lectura del ciclo, F en la fecha indicada.' }),
  fechaActivacion: z
    .string({ error: 'La fecha de activación debe ser una fecha AAAA-MM-DD.' })
    .refine(esFechaLocal, 'La fecha de activación debe ser una fecha válida.')
    .optional()
    .meta({ description: 'Fecha de activación pedida (AAAA-MM-DD), posterior a hoy; solo con activación F.' }),
};

const tarifa = z
  .enum(TARIFAS as [Tarifa, ...Tarifa[]], { error: 'Elija la tarifa de acceso.' })
  .meta({ description: 'Tarifa de acceso pedida (tabla 17 de la CNMC): 2.0TD, 3.0TD o 6.1TD a 6.4TD.' });

const potenciasW = z
  .array(
    z
      .number({ error: 'Cada potencia debe ser un número de vatios.' })
      .int('Cada potencia debe ser un número entero de vatios.')
      .positive('Cada potencia debe ser mayor que cero.')
      .max(1_000_000_000, 'Esa potencia no es posible.'),
    { error: 'Indique las potencias, una por periodo.' },
  )
  .min(1, 'Indique las potencias, una por periodo.')
  .max(6, 'Como mucho se contratan seis potencias, de P1 a P6.')
  .meta({ description: 'Potencias pedidas en W, una por periodo de la tarifa (2 en 2.0TD, 6 en las demás), P1 primero.' });

/** The powers match the tariff's periods. */
function periodosCorrectos(o: { tarifa?: string | undefined; potenciasW?: readonly number[] | undefined }, ctx: z.RefinementCtx) {
  if (!o.tarifa || !o.potenciasW) return;
  const n = periodosDe(o.tarifa);
  if (o.potenciasW.length !== n) {
    ctx.addIssue({
      code: 'custom',
      path: ['potenciasW'],
      message: `La tarifa ${o.tarifa} contrata ${n} potencias, una por periodo (P1 a P${n}); indique ${n}.`,
    });
  }
}

const proceso = <P extends ProcesoAtr>(p: P) => z.literal(p).meta({ description: `Proceso ${p} (tabla 2 de la CNMC).` });

/** POST /api/atr/solicitudes: the step 01 of a process, with only that process's fields. */
export const solicitudAtrSchema = z.discriminatedUnion(
  'proceso',
  [
    z.object({ proceso: proceso('C1'), ...comunes }),
    z.object({ proceso: proceso('C2'), ...comunes, tarifa, potenciasW }).superRefine(periodosCorrectos),
    z
      .object({
        proceso: proceso('A3'),
        ...comunes,
        tarifa,
        potenciasW,
        cnae: z
          .string({ error: 'Escriba el CNAE de la actividad.' })
          .regex(/^\d{4}$/, 'El CNAE son cuatro cifras (por ejemplo, 9820 para una vivienda).')
          .meta({ description: 'CNAE de la actividad del nuevo suministro, cuatro cifras (9820: vivienda).' }),
        telefono: z
          .string({ error: 'Escriba un teléfono de contacto.' })
          .regex(/^\d{6,12}$/, 'Escriba el teléfono de contacto con sus cifras (de 6 a 12), sin prefijo internacional.')
          .meta({ description: 'Teléfono de contacto para el alta, de 6 a 12 cifras, sin el prefijo +34.' }),
      })
      .superRefine(periodosCorrectos),
    z
      .object({
        proceso: proceso('M1'),
        ...comunes,
        tipoModificacion: z
          .enum(TIPOS_MODIFICACION, { error: 'Elija qué modifica: la tarifa o las potencias, los datos administrativos o ambas cosas.' })
          .meta({ description: 'Qué se modifica (tabla 7 de la CNMC): N tarifa o potencias, S datos administrativos, A ambas.' }),
        tarifa: tarifa.optional(),
        potenciasW: potenciasW.optional(),
        solicitudAdministrativa: z.enum(SOLICITUDES_ADMINISTRATIVAS, { error: 'Elija el cambio administrativo.' }).optional().meta({
          description:
            'Cambio administrativo (tabla 53 de la CNMC): T cambio de titular por traspaso, S por subrogación, A datos administrativos, C corrección de datos; con S o A en tipoModificacion.',
        }),
      })
      .superRefine((o, ctx) => {
        const tecnica = o.tipoModificacion !== 'S';
        const administrativa = o.tipoModificacion !== 'N';
        if (tecnica && !o.tarifa) ctx.addIssue({ code: 'custom', path: ['tarifa'], message: 'Elija la tarifa de acceso.' });
        if (tecnica && !o.potenciasW)
          ctx.addIssue({ code: 'custom', path: ['potenciasW'], message: 'Indique las potencias, una por periodo.' });
        if (administrativa && !o.solicitudAdministrativa) {
          ctx.addIssue({ code: 'custom', path: ['solicitudAdministrativa'], message: 'Elija el cambio administrativo.' });
        }
        periodosCorrectos(o, ctx);
      }),
    z.object({
      proceso: proceso('B1'),
      ...comunes,
      motivoBaja: z.enum(MOTIVOS_BAJA, { error: 'Elija el motivo de la baja.' }).meta({
        description: 'Motivo de la baja (tabla 10 de la CNMC): 01 cese de actividad, 02 fin del contrato de energía, 03 corte, 04 impago.',
      }),
    }),
  ],
  { error: 'Elija el proceso: C1, C2, A3, M1 o B1.' },
);

/** The body of POST /api/atr/solicitudes. */
export type SolicitudAtrEntrada = z.infer<typeof solicitudAtrSchema>;

/** One message of a field of the form: the field, and the Spanish text. */
export interface ErrorCampoAtr {
  campo: CampoAtr;
  mensaje: string;
  /** The table 27 code the distributor would refuse it with, when there is one. */
  codigo?: string | null;
}

/**
 * The rules of a body that need today's date and are not shapes: a fixed activation (table 8 F)
 * needs its date, after today (the reader takes an earlier one as "as soon as possible").
 */
export function erroresSolicitudAtr(e: Pick<SolicitudAtrEntrada, 'activacion' | 'fechaActivacion'>, hoy: string): ErrorCampoAtr[] {
  if (e.activacion !== 'F') return [];
  if (!e.fechaActivacion) return [{ campo: 'fechaActivacion', mensaje: 'Indique la fecha en que quiere la activación.' }];
  if (!esFechaLocal(e.fechaActivacion)) return [{ campo: 'fechaActivacion', mensaje: 'La fecha de activación debe ser una fecha válida.' }];
  if (e.fechaActivacion <= hoy) {
    return [{ campo: 'fechaActivacion', mensaje: `La fecha de activación debe ser posterior a hoy (${fechaSinDia(hoy)}).` }];
  }
  return [];
}

/**
 * The power rules that hold whatever the supply point (src/lib/modificaciones/reglas.ts): a readable
 * number of watts per period, 2.0TD up to 15 kW and 3.0TD above it somewhere (52), and in the
 * six-period tariffs no period below the one before (15). Normalised values and the installation's
 * maximum (47, 48, 14) depend on the supply point: the API checks them with its data.
 */
export function reglasPotenciasAtr(tarifa: string, potenciasW: readonly (number | null)[]): ErrorCampoAtr[] {
  const sinLimites: ContratoSolicitud = {
    tarifa,
    potenciasW: [],
    potenciaMaximaW: Number.POSITIVE_INFINITY,
    tensionV: 400,
    fases: 'trifasico',
    modoControlPotencia: 'maximetro',
    titularNif: '',
    titularNombre: '',
  };
  return comprobarPotencias(sinLimites, tarifa, potenciasW).map((e) => ({
    campo: e.campo as CampoAtr,
    mensaje: e.mensaje,
    codigo: e.codigo,
  }));
}

// ---------------------------------------------------------------------------------------------
// The form as typed
// ---------------------------------------------------------------------------------------------

/** A field of the form (the summary links to its control). */
export type CampoAtr =
  | 'proceso'
  | 'distribuidora'
  | 'cups'
  | 'nif'
  | 'nombre'
  | 'apellido1'
  | 'apellido2'
  | 'razonSocial'
  | 'tipoModificacion'
  | 'solicitudAdministrativa'
  | 'tarifa'
  | 'p1'
  | 'p2'
  | 'p3'
  | 'p4'
  | 'p5'
  | 'p6'
  | 'cnae'
  | 'telefono'
  | 'motivoBaja'
  | 'activacion'
  | 'fechaActivacion';

/** The fields in the order the form shows them: the error summary follows it. */
export const ORDEN_CAMPOS_ATR: readonly CampoAtr[] = [
  'proceso',
  'distribuidora',
  'cups',
  'tipoModificacion',
  'solicitudAdministrativa',
  'nif',
  'razonSocial',
  'nombre',
  'apellido1',
  'apellido2',
  'tarifa',
  'p1',
  'p2',
  'p3',
  'p4',
  'p5',
  'p6',
  'cnae',
  'telefono',
  'motivoBaja',
  'activacion',
  'fechaActivacion',
];

/** The id of each field's control (of the first radio button of a group). */
export function idCampoAtr(campo: CampoAtr): string {
  return `atr-form-${campo}`;
}

/** The form's values as typed. */
export interface FormularioAtr {
  proceso: ProcesoAtr | '';
  distribuidora: string;
  cups: string;
  nif: string;
  nombre: string;
  apellido1: string;
  apellido2: string;
  razonSocial: string;
  tipoModificacion: TipoModificacion | '';
  solicitudAdministrativa: string;
  tarifa: string;
  /** Up to six powers in kW as typed ("4,6"), P1 first. */
  potencias: string[];
  cnae: string;
  telefono: string;
  motivoBaja: string;
  activacion: Activacion | '';
  fechaActivacion: string;
}

/** An empty form; the distributor preselected when the company works with only one. */
export function formularioAtrVacio(distribuidoras: readonly string[]): FormularioAtr {
  return {
    proceso: '',
    distribuidora: distribuidoras.length === 1 ? distribuidoras[0]! : '',
    cups: '',
    nif: '',
    nombre: '',
    apellido1: '',
    apellido2: '',
    razonSocial: '',
    tipoModificacion: '',
    solicitudAdministrativa: '',
    tarifa: '',
    potencias: ['', '', '', '', '', ''],
    cnae: '',
    telefono: '',
    motivoBaja: '',
    activacion: 'A',
    fechaActivacion: '',
  };
}

/** Whether the form asks for the tariff and powers (C2, A3, and an M1 that changes them). */
export function pideContrato(f: Pick<FormularioAtr, 'proceso' | 'tipoModificacion'>): boolean {
  if (f.proceso === 'M1') return f.tipoModificacion === 'N' || f.tipoModificacion === 'A';
  return f.proceso === 'C2' || f.proceso === 'A3';
}

/** Whether the form asks for the administrative change of an M1 (table 53). */
export function pideSolicitudAdministrativa(f: Pick<FormularioAtr, 'proceso' | 'tipoModificacion'>): boolean {
  return f.proceso === 'M1' && (f.tipoModificacion === 'S' || f.tipoModificacion === 'A');
}

/** How the form asks for the holder: a company's name with a CIF, a person's otherwise. */
export function titularEsEmpresa(nif: string): boolean {
  return tipoNif(nif) === 'CIF';
}

/** How many power fields the form shows (none until a tariff is chosen). */
export function periodosFormularioAtr(f: Pick<FormularioAtr, 'proceso' | 'tipoModificacion' | 'tarifa'>): number {
  return pideContrato(f) && f.tarifa ? periodosDe(f.tarifa) : 0;
}

/** The label of a power field: 2.0TD names what each period covers. */
export function etiquetaPotenciaAtr(tarifa: string, i: number): string {
  if (tarifa === '2.0TD') return i === 0 ? 'Potencia P1, punta y llano (kW)' : 'Potencia P2, valle (kW)';
  return `Potencia P${i + 1} (kW)`;
}

/** A telephone as typed, in the digits the message carries: no spaces or dashes, no Spanish prefix. */
export function normalizarTelefono(t: string): string {
  return t.replace(/[\s.()-]/g, '').replace(/^(\+|00)34(?=\d{9}$)/, '');
}

/** The body the form sends; powers that cannot be read as kW go as null (the rules say why). */
export function cuerpoSolicitudAtr(f: FormularioAtr): Record<string, unknown> {
  const nif = normalizarNif(f.nif);
  const titular = titularEsEmpresa(nif)
    ? { nif, razonSocial: f.razonSocial.trim() }
    : { nif, nombre: f.nombre.trim(), apellido1: f.apellido1.trim(), ...(f.apellido2.trim() ? { apellido2: f.apellido2.trim() } : {}) };
  const cuerpo: Record<string, unknown> = {
    proceso: f.proceso,
    distribuidora: f.distribuidora,
    cups: normalizarCups(f.cups),
    titular,
    activacion: f.activacion,
    ...(f.activacion === 'F' ? { fechaActivacion: f.fechaActivacion } : {}),
  };
  if (f.proceso === 'M1') {
    cuerpo['tipoModificacion'] = f.tipoModificacion;
    if (pideSolicitudAdministrativa(f)) cuerpo['solicitudAdministrativa'] = f.solicitudAdministrativa;
  }
  if (pideContrato(f)) {
    cuerpo['tarifa'] = f.tarifa;
    if (f.tarifa) cuerpo['potenciasW'] = f.potencias.slice(0, periodosDe(f.tarifa)).map(leerKw);
  }
  if (f.proceso === 'A3') {
    cuerpo['cnae'] = f.cnae.trim();
    cuerpo['telefono'] = normalizarTelefono(f.telefono);
  }
  if (f.proceso === 'B1') cuerpo['motivoBaja'] = f.motivoBaja;
  return cuerpo;
}

/** The form field a zod issue's path names. */
function campoDeRuta(ruta: readonly PropertyKey[]): CampoAtr {
  const [a, b] = ruta;
  if (a === 'titular') return typeof b === 'string' && ORDEN_CAMPOS_ATR.includes(b as CampoAtr) ? (b as CampoAtr) : 'nif';
  if (a === 'potenciasW') return typeof b === 'number' ? (`p${Math.min(b, 5) + 1}` as CampoAtr) : 'p1';
  return typeof a === 'string' && ORDEN_CAMPOS_ATR.includes(a as CampoAtr) ? (a as CampoAtr) : 'proceso';
}

/**
 * Every problem of the form, one message per field in the form's order (the summary's entries);
 * empty when it may be sent, with `cuerpo` the body to send.
 */
export function validarFormularioAtr(f: FormularioAtr, hoy: string): { errores: ErrorCampoAtr[]; cuerpo: SolicitudAtrEntrada | null } {
  if (!f.proceso) return { errores: [{ campo: 'proceso', mensaje: 'Elija el proceso de la solicitud.' }], cuerpo: null };
  const cuerpo = cuerpoSolicitudAtr(f);
  const todos: ErrorCampoAtr[] = [];
  // The power rules first: their messages say more than the shape's.
  const potencias = cuerpo['potenciasW'] as (number | null)[] | undefined;
  if (potencias && f.tarifa) todos.push(...reglasPotenciasAtr(f.tarifa, potencias));
  const r = solicitudAtrSchema.safeParse(cuerpo);
  if (!r.success) for (const i of r.error.issues) todos.push({ campo: campoDeRuta(i.path), mensaje: i.message });
  todos.push(...erroresSolicitudAtr({ activacion: (f.activacion || 'A') as Activacion, fechaActivacion: f.fechaActivacion }, hoy));
  const errores: ErrorCampoAtr[] = [];
  for (const e of todos) if (!errores.some((x) => x.campo === e.campo)) errores.push(e);
  errores.sort((a, b) => ORDEN_CAMPOS_ATR.indexOf(a.campo) - ORDEN_CAMPOS_ATR.indexOf(b.campo));
  return { errores, cuerpo: errores.length === 0 && r.success ? r.data : null };
}

// ---------------------------------------------------------------------------------------------
// The API's answers
// ---------------------------------------------------------------------------------------------

/** A request written into the exchange (201 of POST /api/atr/solicitudes and of its anulación). */
export interface SolicitudAtrEnviada {
  proceso: ProcesoAtr;
  distribuidora: CodigoDistribuidora;
  codigoSolicitud: string;
  /** The file's name in the entrada folder. */
  fichero: string;
  /** Its whole path ("/epd/entrada/C101_202600000001_01.xml"). */
  ruta: string;
}

/** A reason the distributor would refuse the request for (table 27). */
export interface MotivoFormularioAtr {
  codigo: string;
  texto: string;
  /** What exactly fails here. */
  comentario: string;
}

/** The 422 of POST /api/atr/solicitudes: nothing was written, and why. */
export interface RechazoFormularioAtr {
  message: string;
  motivos: MotivoFormularioAtr[];
}

/**
 * What a reason's comment adds to its title: the comment without the code and title it may start
 * with ("15 · Secuencia …: en la tarifa 3.0TD …" → "en la tarifa 3.0TD …"); empty when it only repeats them.
 */
export function detalleMotivoAtr(m: MotivoFormularioAtr): string {
  let d = m.comentario.trim();
  if (d.startsWith(`${m.codigo} · `)) d = d.slice(m.codigo.length + 3);
  if (d.startsWith(m.texto)) d = d.slice(m.texto.length).replace(/^[\s:.,]+/, '');
  return d;
}

/** A reason in one sentence, for the field it concerns: "03 · NIF-CIF no coincide …", with its detail after a colon. */
export function textoMotivoFormularioAtr(m: MotivoFormularioAtr): string {
  const d = detalleMotivoAtr(m);
  return d ? `${m.codigo} · ${m.texto}: ${d}` : `${m.codigo} · ${m.texto}.`;
}

/** Reads the table 27 reasons of a 422 body; empty when it has none. */
export function motivosDeRespuesta(cuerpo: unknown): MotivoFormularioAtr[] {
  if (typeof cuerpo !== 'object' || cuerpo === null) return [];
  const m = (cuerpo as { motivos?: unknown }).motivos;
  if (!Array.isArray(m)) return [];
  return m.filter(
    (x): x is MotivoFormularioAtr =>
      typeof x === 'object' &&
      x !== null &&
      typeof (x as MotivoFormularioAtr).codigo === 'string' &&
      typeof (x as MotivoFormularioAtr).texto === 'string',
  );
}
