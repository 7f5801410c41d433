/**
 * What the dashboard shows of GET /api/inicio/resumen (docs/decisions/024-panel-de-inicio.md): the
 * consumption of each supply point with its change against the same month a year earlier, and one
 * notice per thing that awaits the user, each with the screen it leads to. Plain TypeScript, no
 * React: the island only lays these out. Items with nothing to say are never built.
 */
import { numero } from '../formato/numeros.ts';
import { ruta } from '../privado/rutas-app.ts';
import type { ProblemaContador, ResumenInicio, SuministroResumen } from './respuestas.ts';

/** How much a notice matters; its word is shown before its title, so colour is never the only cue. */
export type NivelAviso = 'importante' | 'pendiente' | 'novedad' | 'info';

/** The word read before a notice of each level. */
export const PALABRA_NIVEL: Readonly<Record<NivelAviso, string>> = {
  importante: 'Importante',
  pendiente: 'Pendiente',
  novedad: 'Novedad',
  info: 'Información',
};

/** One notice: what, the detail, and the screen where it is dealt with. */
export interface AvisoInicio {
  clave: string;
  nivel: NivelAviso;
  titulo: string;
  detalle: string;
  enlace: { texto: string; href: string };
}

/** A supply point's consumption card. */
export interface TarjetaConsumo {
  cups: string;
  direccion: string;
  /** "Ayer, 14 de marzo". */
  etiquetaAyer: string;
  ayer: string;
  /** "Febrero de 2026". */
  etiquetaMes: string;
  mes: string;
  comparacion: string;
  lectura: string | null;
  enlace: { texto: string; href: string };
}

/** Formats dates and instants in Spanish, Madrid time (src/lib/inicio/fechas.ts). */
export interface Fechas {
  /** A civil date `YYYY-MM-DD`: "sábado 15 de marzo". */
  dia(fecha: string): string;
  /** An instant: its civil date in Madrid, `YYYY-MM-DD`. */
  diaDe(iso: string): string;
  /** An instant: its Madrid clock time, "8:00". */
  hora(iso: string): string;
  /** A month `YYYY-MM`: "febrero de 2026". */
  mes(mes: string): string;
}

/** The change of `actual` against `anterior`, in percent; null when there is nothing to compare with. */
export function variacion(actual: number, anterior: number): number | null {
  if (!(anterior > 0) || !Number.isFinite(actual)) return null;
  return ((actual - anterior) / anterior) * 100;
}

/** Whether a period has a measure for every one of its hours. */
const completo = (c: { horasMedidas: number; horasPeriodo: number }) => c.horasPeriodo > 0 && c.horasMedidas >= c.horasPeriodo;

/**
 * The share of a month's hours that must have a measure for two months to be compared: a few hours
 * missing (a meter that did not communicate one night) barely move a month's total; more would.
 */
export const COBERTURA_PARA_COMPARAR = 0.97;

const comparable = (c: { horasMedidas: number; horasPeriodo: number }) =>
  c.horasPeriodo > 0 && c.horasMedidas >= c.horasPeriodo * COBERTURA_PARA_COMPARAR;

const faltan = (c: { horasMedidas: number; horasPeriodo: number }) => {
  const n = c.horasPeriodo - c.horasMedidas;
  return `falta${n === 1 ? '' : 'n'} ${numero(n)} ${n === 1 ? 'hora' : 'horas'} por medir`;
};

/** Energy in kWh as the dashboard writes it: one decimal below 100 kWh, none above. */
export function kwh(valor: number): string {
  return `${numero(valor, Math.abs(valor) < 100 ? 1 : 0)} kWh`;
}

/** Last month against the same month a year earlier, in words; says why when they cannot be compared. */
export function textoComparacion(s: Pick<SuministroResumen, 'mes' | 'mesAnterior'>, f: Pick<Fechas, 'mes'>): string {
  const antes = f.mes(s.mesAnterior.mes);
  if (s.mes.kWh === null) return `Sin medidas de ${f.mes(s.mes.mes)}.`;
  if (s.mesAnterior.kWh === null) return `No hay datos de ${antes} para comparar.`;
  if (!comparable(s.mes) || !comparable(s.mesAnterior)) return `No se compara con ${antes}: faltan demasiadas horas por medir.`;
  const v = variacion(s.mes.kWh, s.mesAnterior.kWh);
  if (v === null) return `En ${antes} no consumió energía de la red: no hay porcentaje que comparar.`;
  const redondeado = Math.round(Math.abs(v) * 10) / 10;
  // This month's missing hours are told beside its kWh; the year-earlier month's, here.
  const nota = completo(s.mesAnterior) ? '' : ` En ${antes} faltan horas por medir.`;
  if (redondeado === 0) return `Lo mismo que en ${antes} (${kwh(s.mesAnterior.kWh)}).${nota}`;
  return `Un ${numero(redondeado, 1)} % ${v > 0 ? 'más' : 'menos'} que en ${antes} (${kwh(s.mesAnterior.kWh)}).${nota}`;
}

const mayuscula = (t: string) => t.charAt(0).toUpperCase() + t.slice(1);

/** A day relative to today: "hoy", "mañana" or "el sábado 15 de marzo". */
export function diaRelativo(fecha: string, hoy: string, f: Pick<Fechas, 'dia'>): string {
  if (fecha === hoy) return 'hoy';
  const manana = new Date(Date.parse(`${hoy}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  if (fecha === manana) return `mañana, ${f.dia(fecha)}`;
  return `el ${f.dia(fecha)}`;
}

/** When an interruption happens, in words. */
export function textoHorario(
  i: { estadoIncidenciaRed: string; inicio: string; finPrevisto: string | null },
  hoy: string,
  f: Fechas,
): string {
  const diaInicio = f.diaDe(i.inicio);
  const desde = diaRelativo(diaInicio, hoy, f);
  if (i.estadoIncidenciaRed === 'Programada') {
    if (!i.finPrevisto) return mayuscula(`${desde}, a partir de las ${f.hora(i.inicio)}`);
    const diaFin = f.diaDe(i.finPrevisto);
    if (diaFin === diaInicio) return mayuscula(`${desde}, de ${f.hora(i.inicio)} a ${f.hora(i.finPrevisto)}`);
    return mayuscula(`${desde} a las ${f.hora(i.inicio)}, hasta ${diaRelativo(diaFin, hoy, f)} a las ${f.hora(i.finPrevisto)}`);
  }
  const inicio = `Desde ${desde} a las ${f.hora(i.inicio)}`;
  if (!i.finPrevisto) return `${inicio}; aún no sabemos cuándo terminará`;
  return `${inicio}; prevemos terminar ${diaRelativo(f.diaDe(i.finPrevisto), hoy, f)} a las ${f.hora(i.finPrevisto)}`;
}

/** The title of each meter problem (the same words as the meter state screen). */
function tituloProblema(p: ProblemaContador, ultimaComunicacion: string | null, f: Fechas): string {
  switch (p) {
    case 'cortado':
      return 'El suministro está cortado';
    case 'sin_suministro':
      return 'Su suministro está sin luz por una incidencia en nuestra red';
    case 'icp':
      return 'Ha saltado el interruptor de control de potencia';
    case 'abierto_remoto':
      return 'Hemos abierto a distancia el interruptor de su contador';
    case 'sin_comunicacion':
      return ultimaComunicacion
        ? `Su contador no comunica con nosotros desde el ${f.dia(f.diaDe(ultimaComunicacion))}`
        : 'Su contador todavía no ha comunicado con nosotros';
  }
}

const DETALLE_PROBLEMA: Readonly<Record<ProblemaContador, string>> = {
  cortado: 'Póngase en contacto con su comercializadora: nos pedirá la reconexión cuando se resuelva la causa.',
  sin_suministro: 'Ya lo sabemos y estamos trabajando para reponerlo.',
  icp: 'Desconecte algún aparato de mucho consumo; el contador vuelve a dar la luz en unos segundos.',
  abierto_remoto: 'Lo volveremos a cerrar en cuanto termine la causa.',
  sin_comunicacion: 'No tiene que hacer nada: mientras tanto, sus lecturas y su consumo pueden ser estimados.',
};

/** Whose supply point a notice is about, in one phrase. */
const deSuministro = (s: Pick<SuministroResumen, 'direccion' | 'cups'>) => `Suministro de ${s.direccion} (CUPS ${s.cups}).`;

const ESTADO_MODIFICACION = { aceptada: 'aceptada', rechazada: 'rechazada', activada: 'activada' } as const;

/** Every notice of a summary, most urgent first: supply points, then procedures, then the supply company's. */
export function avisosDe(r: ResumenInicio, f: Fechas): AvisoInicio[] {
  const avisos: AvisoInicio[] = [];
  const c = r.consumidor;
  if (c) {
    // An interruption affecting several of the user's supply points is told once, naming them all.
    const vistas = new Map<string, { aviso: AvisoInicio; suministros: SuministroResumen[] }>();
    for (const s of c.suministros) {
      for (const i of s.interrupciones) {
        const previa = vistas.get(i.id);
        if (previa) {
          previa.suministros.push(s);
          continue;
        }
        const programada = i.estadoIncidenciaRed === 'Programada';
        const aviso: AvisoInicio = {
          clave: `incidencia-${i.id}`,
          nivel: 'importante',
          titulo: `${programada ? 'Corte de luz programado' : 'Interrupción del suministro en curso'} en ${i.municipio}`,
          detalle: '',
          enlace: { texto: 'Ver las interrupciones de sus suministros', href: ruta('interrupciones').patron },
        };
        vistas.set(i.id, { aviso, suministros: [s] });
        avisos.push(aviso);
        aviso.detalle = `${textoHorario(i, r.hoy, f)}. ${i.afecta === 'suministro' ? 'Afecta a' : 'Es en la zona de'} su suministro de ${s.direccion}. ${i.descripcion}`;
      }
    }
    for (const { aviso, suministros } of vistas.values()) {
      if (suministros.length > 1) {
        aviso.detalle = aviso.detalle.replace(
          /(Afecta a|Es en la zona de) su suministro de [^.]*\./,
          (_, verbo: string) => `${verbo} sus suministros de ${suministros.map((s) => s.direccion).join('; ')}.`,
        );
      }
    }
    for (const s of c.suministros) {
      for (const p of s.contador.problemas) {
        avisos.push({
          clave: `contador-${s.cups}-${p}`,
          nivel: p === 'sin_comunicacion' ? 'info' : 'importante',
          titulo: tituloProblema(p, s.contador.ultimaComunicacion, f),
          detalle: `${deSuministro(s)} ${DETALLE_PROBLEMA[p]}`,
          enlace: { texto: 'Ver el estado del contador y qué hacer', href: ruta('estadoContador').patron },
        });
      }
    }
    for (const m of c.modificaciones) {
      const detalle =
        m.estado === 'rechazada'
          ? `Motivo: ${m.motivoRechazo ?? 'consulte la solicitud'}. Puede presentar una nueva solicitud corregida.`
          : m.estado === 'activada'
            ? `El cambio está en vigor${m.fechaActivacion ? ` desde el ${f.dia(m.fechaActivacion)}` : ''}. CUPS ${m.cups}.`
            : `La distribuidora la activará en el plazo reglamentario. CUPS ${m.cups}.`;
      avisos.push({
        clave: `modificacion-${m.numero}`,
        nivel: m.estado === 'rechazada' ? 'pendiente' : 'novedad',
        titulo: `Solicitud de modificación ${m.referencia} ${ESTADO_MODIFICACION[m.estado]}`,
        detalle,
        enlace: { texto: `Ver la solicitud ${m.referencia}`, href: `${ruta('modificaciones').patron}/${m.numero}` },
      });
    }
  }
  for (const k of r.contacto) {
    const nombre = k.procedimiento === 'consulta' ? 'consulta' : 'reclamación';
    const href = k.procedimiento === 'consulta' ? `/contacto/consulta/${k.id}` : `/contacto/detalleReclamacion/${k.id}`;
    const sobre = k.asunto ? `«${k.asunto}»` : k.referencia;
    avisos.push(
      k.motivo === 'pide_informacion'
        ? {
            clave: `contacto-${k.id}`,
            nivel: 'pendiente',
            titulo: `La distribuidora le pide información sobre su ${nombre} ${k.referencia}`,
            detalle: `${mayuscula(nombre)} ${sobre}.${k.vence ? ` Responda hasta el ${f.dia(k.vence)}.` : ''}`,
            enlace: { texto: `Responder a la ${nombre} ${k.referencia}`, href },
          }
        : {
            clave: `contacto-${k.id}`,
            nivel: 'novedad',
            titulo: `Respuesta a su ${nombre} ${k.referencia}`,
            detalle:
              k.procedimiento === 'consulta'
                ? `Consulta ${sobre}. Si la respuesta la resuelve, puede darla por resuelta; si no, puede replicar.`
                : `Reclamación ${sobre}, cerrada el ${f.dia(f.diaDe(k.fecha))} con su respuesta.`,
            enlace: { texto: `Leer la respuesta a la ${nombre} ${k.referencia}`, href },
          },
    );
  }
  for (const a of r.accesos) {
    const plazo = a.vence ? (a.vencido ? ` El plazo terminó el ${f.dia(a.vence)}.` : ` Tiene hasta el ${f.dia(a.vence)}.`) : '';
    avisos.push({
      clave: `acceso-${a.id}`,
      nivel: 'pendiente',
      titulo:
        a.paso === 'subsanacion'
          ? `La distribuidora pide subsanar su solicitud de acceso ${a.referencia}`
          : `La propuesta previa de su solicitud ${a.referencia} espera su respuesta`,
      detalle: `${a.emplazamiento ? `Instalación en ${a.emplazamiento}.` : ''}${plazo}`.trim(),
      enlace: { texto: `Ver la solicitud ${a.referencia}`, href: `/accesoyconexion/solicitud/${a.id}` },
    });
  }
  const com = r.comercializadora;
  if (com) {
    for (const a of com.atr) {
      const d = a.distribuidoraNombre;
      avisos.push({
        clave: `atr-${a.id}`,
        nivel: a.estado === 'incidencia' ? 'pendiente' : 'importante',
        titulo:
          a.estado === 'incidencia'
            ? `Incidencia en la solicitud ATR ${a.referencia} (${a.proceso})`
            : `Solicitud ATR ${a.referencia} (${a.proceso}) rechazada${a.estado === 'rechazada_campo' ? ' tras la visita' : ''}`,
        detalle: `${d}, CUPS ${a.cups}. ${
          a.estado === 'incidencia'
            ? 'La distribuidora ha comunicado una incidencia que retrasa la actuación.'
            : 'Consulte los motivos del rechazo.'
        }`,
        enlace: { texto: `Ver la solicitud ${a.referencia}`, href: `${ruta('solicitudesAtr').patron}/${a.id}` },
      });
    }
    for (const x of com.intercambio) {
      const d = x.distribuidoraNombre;
      avisos.push({
        clave: `intercambio-${x.distribuidora}`,
        nivel: 'novedad',
        titulo: `${x.ficheros === 1 ? 'Un fichero nuevo' : `${numero(x.ficheros)} ficheros nuevos`} de ${d} en su carpeta de salida`,
        detalle: `En los últimos 7 días; el más reciente llegó el ${f.dia(f.diaDe(x.ultimo))} a las ${f.hora(x.ultimo)}.`,
        enlace: { texto: `Abrir la carpeta de salida de ${d}`, href: ruta('ftp').patron },
      });
    }
    for (const s of com.sips) {
      avisos.push(
        s.disponible
          ? {
              clave: `sips-${s.distribuidora}`,
              nivel: 'novedad',
              titulo: `Ficheros SIPS de ${f.mes(s.mes)} de ${s.distribuidoraNombre} disponibles`,
              detalle: 'Ya puede descargar los ficheros del mes.',
              enlace: { texto: `Descargar los ficheros SIPS de ${s.distribuidoraNombre}`, href: ruta('sips').patron },
            }
          : {
              clave: `sips-${s.distribuidora}`,
              nivel: 'info',
              titulo: `Los ficheros SIPS de ${f.mes(s.mes)} de ${s.distribuidoraNombre} aún no están disponibles`,
              detalle: s.ultimoMes ? `Los más recientes son de ${f.mes(s.ultimoMes)}.` : 'Todavía no hay ningún fichero.',
              enlace: { texto: `Ver los ficheros SIPS de ${s.distribuidoraNombre}`, href: ruta('sips').patron },
            },
      );
    }
  }
  return avisos;
}

/** The consumption card of each supply point. */
export function tarjetasConsumo(r: ResumenInicio, f: Fechas): TarjetaConsumo[] {
  return (r.consumidor?.suministros ?? []).map((s) => {
    const ayer =
      s.ayer.kWh === null
        ? 'Aún no tenemos la medida de ayer.'
        : completo(s.ayer)
          ? kwh(s.ayer.kWh)
          : `${kwh(s.ayer.kWh)} (${faltan(s.ayer)})`;
    const mes = s.mes.kWh === null ? 'Sin medidas del mes.' : completo(s.mes) ? kwh(s.mes.kWh) : `${kwh(s.mes.kWh)} (${faltan(s.mes)})`;
    const l = s.proximaLectura;
    return {
      cups: s.cups,
      direccion: s.direccion,
      etiquetaAyer: `Ayer, ${f.dia(s.ayer.fecha).replace(/^\S+ /, '')}`,
      ayer,
      etiquetaMes: mayuscula(f.mes(s.mes.mes)),
      mes,
      comparacion: s.mes.kWh === null ? '' : textoComparacion(s, f),
      lectura: l
        ? `${mayuscula(diaRelativo(l.fecha, r.hoy, f))}, ${l.tipo === 'visita' ? 'con visita del lector' : 'a distancia'}${
            l.autolectura ? `; autolectura del ${f.dia(l.autolectura.desde)} al ${f.dia(l.autolectura.hasta)}` : ''
          }.`
        : null,
      enlace: {
        texto: `Ver el consumo hora a hora de ${s.direccion}`,
        href: `${ruta('curvas').patron}?cups=${encodeURIComponent(s.cups)}`,
      },
    };
  });
}

/** Whether a summary has anything at all to show. */
export function hayAlgo(r: ResumenInicio, avisos: readonly AvisoInicio[]): boolean {
  return avisos.length > 0 || (r.consumidor?.suministros.length ?? 0) > 0;
}

/** The sentence shown when nothing awaits the user. */
export const NADA_PENDIENTE = 'No tiene nada pendiente. Cuando algo requiera su atención, lo verá aquí.';
