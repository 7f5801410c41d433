/**
 * The state of a meter ("Meter state"): the codes the database keeps (`estado_contador`),
 * what they mean in plain Spanish, the rules a change must follow (one zod schema for the
 * administration form, the API and the CSV import), and what the holder should do in each case.
 */
import { z } from '../validacion/z.ts';
import { madridLocalAIso, isoAMadridLocal } from '../administracion/fechas.ts';
import { errorCups, MENSAJES_CUPS, normalizarCups } from '../cups.ts';
import { DISTRIBUIDORAS, type Distribuidora } from '../distribuidoras.ts';

/** States of the power control element. */
export const INTERRUPTORES = ['cerrado', 'abierto_exceso', 'abierto_remoto', 'sin_elemento'] as const;
/** One state of the power control element. */
export type Interruptor = (typeof INTERRUPTORES)[number];

/** States of the supply. */
export const ESTADOS_SUMINISTRO = ['con_suministro', 'sin_suministro', 'cortado'] as const;
/** One state of the supply. */
export type EstadoSuministro = (typeof ESTADOS_SUMINISTRO)[number];

/** The power control element in words, for the holder and the administrator. */
export const TEXTO_INTERRUPTOR: Readonly<Record<Interruptor, string>> = {
  cerrado: 'Cerrado: da paso a la potencia contratada',
  abierto_exceso: 'Abierto por exceso de potencia',
  abierto_remoto: 'Abierto a distancia por la distribuidora',
  sin_elemento: 'Sin interruptor de control (la potencia se controla con maxímetro)',
};

/** The supply in words. */
export const TEXTO_SUMINISTRO: Readonly<Record<EstadoSuministro, string>> = {
  con_suministro: 'Con suministro',
  sin_suministro: 'Sin suministro por una incidencia en la red',
  cortado: 'Suministro cortado',
};

/** Longest reason accepted. */
export const MAX_MOTIVO = 300;

/** Why a reason is required: the holder must be told why. */
export const MENSAJES_ESTADO = {
  motivoObligatorio: 'Indique el motivo: el titular lo verá junto al estado de su contador.',
  motivoLargo: `El motivo no puede superar ${MAX_MOTIVO} caracteres.`,
  interruptor: 'El interruptor debe ser cerrado, abierto_exceso, abierto_remoto o sin_elemento.',
  suministro: 'El estado del suministro debe ser con_suministro, sin_suministro o cortado.',
  comunica: 'Indique si el contador comunica (sí o no).',
  ultimaComunicacion: 'La última comunicación debe ser una fecha y hora ISO 8601 con zona (por ejemplo 2026-11-02T09:15:00+01:00).',
  ultimaComunicacionFutura: 'La última comunicación no puede ser posterior a este momento.',
} as const;

/** Whether a state needs a reason: a cut, a supply without power, or a switch opened by the distributor. */
export function requiereMotivo(e: { interruptor: Interruptor; estadoSuministro: EstadoSuministro }): boolean {
  return e.estadoSuministro !== 'con_suministro' || e.interruptor === 'abierto_remoto';
}

/** A change of state as the API, the form and the import send it. */
export const cambioEstadoSchema = z
  .object({
    comunica: z
      .boolean({ error: MENSAJES_ESTADO.comunica })
      .meta({ description: 'Si el contador comunica con el concentrador de la distribuidora.' }),
    ultimaComunicacion: z.iso.datetime({ offset: true, error: MENSAJES_ESTADO.ultimaComunicacion }).nullable().optional().meta({
      description:
        'Última comunicación, instante ISO 8601 con zona; sin ella o null: ahora si comunica, desconocida si no. No puede ser futura.',
    }),
    interruptor: z
      .enum(INTERRUPTORES, { error: MENSAJES_ESTADO.interruptor })
      .meta({ description: 'Interruptor del contador: cerrado, abierto_exceso, abierto_remoto o sin_elemento (maxímetro).' }),
    estadoSuministro: z
      .enum(ESTADOS_SUMINISTRO, { error: MENSAJES_ESTADO.suministro })
      .meta({ description: 'con_suministro, sin_suministro (avería en la red) o cortado.' }),
    motivo: z.string().trim().max(MAX_MOTIVO, MENSAJES_ESTADO.motivoLargo).nullable().optional().meta({
      description:
        'Motivo para el titular, hasta 300 caracteres; obligatorio con un corte, sin suministro o con el interruptor abierto a distancia.',
    }),
  })
  .superRefine((e, ctx) => {
    if (requiereMotivo(e) && !e.motivo) ctx.addIssue({ code: 'custom', path: ['motivo'], message: MENSAJES_ESTADO.motivoObligatorio });
  });

/** A validated change of state. */
export type CambioEstado = z.output<typeof cambioEstadoSchema>;

/** The instant of the last communication a change states: the one given, now when it communicates, else none. */
export function ultimaComunicacionDe(c: Pick<CambioEstado, 'comunica' | 'ultimaComunicacion'>, ahora: Date): Date | null {
  if (c.ultimaComunicacion) return new Date(c.ultimaComunicacion);
  return c.comunica ? ahora : null;
}

/** The reason of a change as stored: trimmed, null when empty. */
export function motivoDe(c: Pick<CambioEstado, 'motivo'>): string | null {
  return c.motivo?.trim() || null;
}

/** The state of a meter as the API answers it. */
export interface EstadoContador {
  comunica: boolean;
  /** UTC ISO; null when it never communicated. */
  ultimaComunicacion: string | null;
  interruptor: Interruptor;
  estadoSuministro: EstadoSuministro;
  motivo: string | null;
  /** When the state was last written (UTC ISO). */
  actualizadoEn: string;
}

/** How serious a piece of advice is: the colour and the role of its box, and the word before it. */
export type NivelConsejo = 'correcto' | 'info' | 'aviso' | 'error';

/** One piece of advice: a heading and the steps, and whether the fault line helps. */
export interface Consejo {
  nivel: NivelConsejo;
  titulo: string;
  pasos: string[];
  /** Show the distributor's 24-hour fault telephone. */
  llamarAverias: boolean;
  /** Show the link to the network interruptions page. */
  verInterrupciones?: boolean;
  /** Show the link to the scheduled readings. */
  verLecturas?: boolean;
}

/** What the advice needs besides the state. */
export interface ContextoConsejo {
  /** Whether the meter is integrated in telemanagement. */
  telegestionado: boolean;
  /** The retailer's name, whom a cut supply must contact. */
  comercializadora: string;
  /** Formats an instant for the text ("3 nov 2026, 10:15"). */
  formatearFechaHora: (iso: string) => string;
}

/**
 * What the holder should do, most urgent first. A meter without a known state says so; a meter
 * that is fine says there is nothing to do.
 */
export function consejosEstado(e: EstadoContador | null, c: ContextoConsejo): Consejo[] {
  if (!e) {
    return [
      {
        nivel: 'info',
        titulo: 'Todavía no conocemos el estado de este contador',
        pasos: [
          'Aparecerá aquí en cuanto recibamos la primera comunicación del contador o lo revisemos.',
          'Si se ha quedado sin luz, llame a nuestro teléfono de averías: atendemos las 24 horas.',
        ],
        llamarAverias: true,
      },
    ];
  }
  const consejos: Consejo[] = [];
  if (e.estadoSuministro === 'cortado') {
    consejos.push({
      nivel: 'error',
      titulo: 'El suministro está cortado',
      pasos: [
        'El corte se hace a petición de su comercializadora (por ejemplo, por impago o por la baja del contrato) o por una orden de la administración.',
        `Póngase en contacto con su comercializadora, ${c.comercializadora}: cuando se resuelva la causa, nos pedirá la reconexión y la haremos en el plazo reglamentario.`,
        'No manipule la instalación ni el contador para reconectarla.',
      ],
      llamarAverias: false,
    });
  } else if (e.estadoSuministro === 'sin_suministro') {
    consejos.push({
      nivel: 'error',
      titulo: 'Su suministro está sin luz por una incidencia en nuestra red',
      pasos: [
        'Ya lo sabemos y estamos trabajando para reponerlo. Puede ver si hay una interrupción en su zona y cuándo prevemos terminar.',
        'Si necesita avisarnos de algo o lleva mucho tiempo sin luz, llame a nuestro teléfono de averías, gratuito, las 24 horas.',
        'Si ve un peligro (un cable caído, chispas), aléjese y llame también al 112.',
      ],
      llamarAverias: true,
      verInterrupciones: true,
    });
  }
  if (e.estadoSuministro !== 'cortado' && e.interruptor === 'abierto_remoto') {
    consejos.push({
      nivel: 'aviso',
      titulo: 'Hemos abierto a distancia el interruptor de su contador',
      pasos: [
        'Lo hacemos para trabajar con seguridad en la red o por una orden que debemos cumplir; el motivo se indica arriba.',
        'Lo volveremos a cerrar en cuanto termine la causa. Si no sabe por qué está abierto, llame a nuestro teléfono de averías.',
      ],
      llamarAverias: true,
    });
  }
  if (e.estadoSuministro !== 'cortado' && e.interruptor === 'abierto_exceso') {
    consejos.push({
      nivel: 'aviso',
      titulo: 'Ha saltado el interruptor de control de potencia',
      pasos: [
        'Ha conectado a la vez más aparatos de los que permite la potencia que tiene contratada.',
        'Desconecte alguno de mucho consumo (horno, placa, lavadora, calefacción o aire acondicionado).',
        'El contador vuelve a dar la luz por sí solo en unos segundos; si no lo hace, pulse el botón de rearme del contador o suba el interruptor general de su cuadro eléctrico.',
        'Si no vuelve la luz, llame a nuestro teléfono de averías. Si salta a menudo, valore con su comercializadora aumentar la potencia contratada.',
      ],
      llamarAverias: true,
    });
  }
  if (c.telegestionado && !e.comunica) {
    consejos.push({
      nivel: 'info',
      titulo: e.ultimaComunicacion
        ? `Su contador no comunica con nosotros desde el ${c.formatearFechaHora(e.ultimaComunicacion)}`
        : 'Su contador todavía no ha comunicado con nosotros',
      pasos: [
        'No tiene que hacer nada: lo revisamos a distancia y, si hace falta, un técnico irá a verlo.',
        'Mientras tanto, sus lecturas y su consumo horario pueden ser estimados. Los corregiremos con los datos reales en cuanto vuelva a comunicar.',
      ],
      llamarAverias: false,
    });
  }
  if (!c.telegestionado) {
    consejos.push({
      nivel: 'info',
      titulo: 'Su contador no está integrado en la telegestión',
      pasos: [
        'Un lector de la distribuidora lo visita en cada fecha de lectura programada.',
        'Si el contador no está accesible, puede comunicarnos su lectura (autolectura) en el plazo que indicamos para cada visita.',
      ],
      llamarAverias: false,
      verLecturas: true,
    });
  }
  if (consejos.length === 0) {
    consejos.push({
      nivel: 'correcto',
      titulo: 'Todo en orden',
      pasos: ['Su contador comunica con nosotros y tiene suministro. No tiene que hacer nada.'],
      llamarAverias: false,
    });
  }
  return consejos;
}

/** The meter's communication in words. */
export function textoComunicacion(e: EstadoContador, telegestionado: boolean, formatear: (iso: string) => string): string {
  if (!telegestionado) return 'No se lee a distancia: lo visita un lector';
  if (e.comunica) return e.ultimaComunicacion ? `Comunica (última comunicación: ${formatear(e.ultimaComunicacion)})` : 'Comunica';
  return e.ultimaComunicacion ? `No comunica desde el ${formatear(e.ultimaComunicacion)}` : 'No ha comunicado todavía';
}

/** The state as label and value pairs, for the holder's screen and the administrator's. */
export function filasEstado(
  e: EstadoContador,
  telegestionado: boolean,
  formatear: (iso: string) => string,
): { etiqueta: string; valor: string }[] {
  return [
    { etiqueta: 'Comunicación del contador', valor: textoComunicacion(e, telegestionado, formatear) },
    { etiqueta: 'Interruptor de control de potencia', valor: TEXTO_INTERRUPTOR[e.interruptor] },
    { etiqueta: 'Suministro', valor: TEXTO_SUMINISTRO[e.estadoSuministro] },
    ...(e.motivo ? [{ etiqueta: 'Motivo', valor: e.motivo }] : []),
  ];
}

/** Origins of a register reading in words. */
export const TEXTO_ORIGEN_LECTURA: Readonly<Record<string, string>> = {
  real: 'Real',
  estimada: 'Estimada',
  autolectura: 'Autolectura',
};

/** Who reads a reading's origin: its holder, or the distributor's staff. */
export type VistaLectura = 'titular' | 'personal';

/**
 * A reading's origin in words; a self-reading that the supply company passed on by a W1 says so,
 * to the staff with the company's REE code.
 */
export function textoOrigenLectura(l: { origen: string; comercializadora: string | null }, vista: VistaLectura): string {
  if (l.origen === 'autolectura' && l.comercializadora) {
    return vista === 'titular'
      ? 'Autolectura enviada por su comercializadora'
      : `Autolectura (W1 de la comercializadora ${l.comercializadora})`;
  }
  return TEXTO_ORIGEN_LECTURA[l.origen] ?? l.origen;
}

/** The distributor a CUPS belongs to by its prefix (docs/api.md: ES9901 epd, ES9902 eod, ES9903 ecd), or null. */
export function distribuidoraDeCups(cups: string): Distribuidora | null {
  return DISTRIBUIDORAS.find((d) => normalizarCups(cups).startsWith(d.prefijoCups)) ?? null;
}

/** Spanish answers of the administration of meters, shared by the API and its screen. */
export const MENSAJES_CONTADORES = {
  noExiste: 'No existe ningún suministro con ese CUPS.',
  otraEmpresa: 'Ese CUPS no es de ninguna de nuestras distribuidoras: los suyos empiezan por ES9901, ES9902 o ES9903.',
  ajena: (d: Pick<Distribuidora, 'nombre'>) =>
    `Ese CUPS es de ${d.nombre}: necesita su permiso de administración para ver o cambiar el estado de sus contadores.`,
} as const;

/** Why the administration screen cannot look a CUPS up for these permissions, or null when it can. */
export function errorCupsAdministrado(texto: string, permisos: readonly string[]): string | null {
  const e = errorCups(texto);
  if (e) return MENSAJES_CUPS[e];
  const d = distribuidoraDeCups(texto);
  if (!d) return MENSAJES_CONTADORES.otraEmpresa;
  if (!permisos.includes(`${d.codigo}-administrador`)) return MENSAJES_CONTADORES.ajena(d);
  return null;
}

/** The administration form as typed: selects and a `datetime-local` in peninsular time. */
export interface FormularioEstado {
  comunica: 'si' | 'no';
  /** `YYYY-MM-DDTHH:mm`, Madrid time; empty: now if it communicates, unknown otherwise. */
  ultimaComunicacion: string;
  interruptor: Interruptor;
  estadoSuministro: EstadoSuministro;
  motivo: string;
}

/** The fields of the form, in order (the error summary follows it). */
export const CAMPOS_ESTADO = ['comunica', 'ultimaComunicacion', 'interruptor', 'estadoSuministro', 'motivo'] as const;
/** One field of the form. */
export type CampoEstado = (typeof CAMPOS_ESTADO)[number];

/** The form filled with a stored state, or with a working meter when there is none. */
export function formularioDeEstado(e: EstadoContador | null): FormularioEstado {
  if (!e) return { comunica: 'si', ultimaComunicacion: '', interruptor: 'cerrado', estadoSuministro: 'con_suministro', motivo: '' };
  return {
    comunica: e.comunica ? 'si' : 'no',
    ultimaComunicacion: isoAMadridLocal(e.ultimaComunicacion),
    interruptor: e.interruptor,
    estadoSuministro: e.estadoSuministro,
    motivo: e.motivo ?? '',
  };
}

/** Checks the form with the API's own rules: the body to send, or a message per field. */
export function validarFormularioEstado(
  f: FormularioEstado,
  ahora: Date,
): { ok: true; cuerpo: z.input<typeof cambioEstadoSchema> } | { ok: false; errores: Partial<Record<CampoEstado, string>> } {
  const errores: Partial<Record<CampoEstado, string>> = {};
  const ultima = f.ultimaComunicacion.trim() ? madridLocalAIso(f.ultimaComunicacion) : null;
  if (f.ultimaComunicacion.trim() && !ultima) errores.ultimaComunicacion = 'La fecha y hora no es válida.';
  else if (ultima && Date.parse(ultima) > ahora.getTime()) errores.ultimaComunicacion = MENSAJES_ESTADO.ultimaComunicacionFutura;
  const cuerpo = {
    comunica: f.comunica === 'si',
    ultimaComunicacion: ultima,
    interruptor: f.interruptor,
    estadoSuministro: f.estadoSuministro,
    motivo: f.motivo.trim() || null,
  };
  const r = cambioEstadoSchema.safeParse(cuerpo);
  if (!r.success) {
    for (const i of r.error.issues) {
      const campo = i.path[0] as CampoEstado;
      if (CAMPOS_ESTADO.includes(campo) && !errores[campo]) errores[campo] = i.message;
    }
  }
  return Object.keys(errores).length ? { ok: false, errores } : { ok: true, cuerpo };
}
