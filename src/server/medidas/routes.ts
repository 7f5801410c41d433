/**
 * Consumers' measures: the curve of one of their supply points over a range (JSON in
 * columns, for the chart and the table), its downloads (CSV in the consumer format plus explicit
 * times, and Excel), and the monthly maximum powers against the contracted ones. Only the holder's
 * own supply points, or those an authorisation in force opens for curves or maximum powers (each read
 * audited, docs/decisions/028): anyone else's CUPS answers 404 (src/server/suministros/acceso.ts).
 * Downloads are streamed a month at a time, so two years never sit whole in memory, in slices that
 * leave the event loop free, and only a few at once per process (./descargas.ts). Every interval of
 * the range that has ended gets a row, a gap included ("sin dato").
 */
import { PassThrough, Readable } from 'node:stream';
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { consultaCurvaSchema, errorRango, MAX_DIAS_CONSULTA } from '../../lib/consulta-medidas.ts';
import {
  cabeceraCsvDatadis,
  cabeceraCsvMedidas,
  celdasExcelMedidas,
  columnasExcelMedidas,
  conHuecosAsync,
  filaExportacion,
  lineaCsvDatadis,
  lineaCsvMedidas,
  nombreCsvDatadis,
  nombreCsvMedidas,
  type CeldaExcel,
} from '../../lib/medidas/exportacion.ts';
import { rangoDias } from '../../lib/calendario/hora-civil.ts';
import { diasCambioHora } from '../../lib/medidas/horas.ts';
import {
  celdasExcelPotencias,
  columnasExcelPotencias,
  csvPotencias,
  filasDescargaPotencias,
  modeloPotencias,
  nombreCsvPotencias,
  type PotenciasRespuesta,
} from '../../lib/medidas/pantalla/potencias.ts';
import { sumarPorDiaOMes } from '../../lib/medidas/serie.ts';
import { esCodigoTarifa, leyendaPeriodos, leyendaPeriodosPotencia, zonaHorariaDe, type CodigoTarifa } from '../../lib/medidas/periodos.ts';
import { requireArea, requireAuth } from '../auth/middleware.ts';
import { dbDeLectura, type AuthEnv } from '../http/context.ts';
import { ValidationError } from '../http/errors.ts';
import { respuestaJson } from '../http/compresion.ts';
import { errorResponse, featureApp, jsonResponse } from '../http/openapi.ts';
import { suministroLegible } from '../suministros/acceso.ts';
import type { Suministro } from '../suministros/service.ts';
import { escribirLibroExcel, LimiteSimultaneas, MAX_DESCARGAS_CSV, MAX_DESCARGAS_EXCEL, Tandas } from './descargas.ts';
import { zonaElectricaDeIne } from './potencias.ts';
import { densificar, leerCurvaHorariaTexto, serieDeTexto } from './meses.ts';
import { leerCurva, leerPotenciasMaximas, recorrerHoras } from './service.ts';
import { CurvaSchema, type CurvaRespuesta } from '../../lib/medidas/respuestas.ts';

const seguridad = [{ Bearer: [] }];
const errores = {
  400: errorResponse('Rango o resolución no válidos'),
  401: errorResponse('Sin sesión'),
  403: errorResponse('Sin permiso «-distribucion»'),
  404: errorResponse('No es un suministro del usuario ni uno que le autorizan a consultar'),
};

const curva = createRoute({
  method: 'get',
  path: '/medidas/curva',
  tags: ['Consumidores'],
  summary: 'Curva de consumo de un suministro',
  description: `Energía importada y exportada por hora (o cuarto de hora, o sumada por día o mes en hora de Madrid) entre dos fechas civiles incluidas, como máximo ${MAX_DIAS_CONSULTA} días; con los totales por periodo tarifario y los días de cambio de hora.`,
  security: seguridad,
  middleware: [requireAuth(), requireArea('distribucion')] as const,
  request: { query: consultaCurvaSchema },
  responses: { 200: jsonResponse(CurvaSchema, 'La curva'), ...errores },
});

/**
 * The downloads' query: the curve's, the same validation, with what `resolucion` means for a file
 * (rows are hours or quarter-hours; an hourly meter asked for quarter-hours gets hours, not a 400).
 */
const DescargaQuery = consultaCurvaSchema.safeExtend({
  resolucion: consultaCurvaSchema.shape.resolucion.openapi({
    description:
      'cuartohora: una fila por cuarto de hora si el contador los registra; con cualquier otro valor (hora por defecto, dia, mes), una fila por hora.',
  }),
});

/** The CSV download's query: the downloads', and which layout. */
const DescargaCsvQuery = DescargaQuery.extend({
  formato: z.enum(['portal', 'datadis'], { message: 'El formato debe ser «portal» o «datadis».' }).optional().openapi({
    description:
      'portal (por defecto): el formato de consumos de las distribuidoras con horas explícitas; datadis: las columnas de las descargas de datadis.es.',
  }),
});

const tipoXlsx = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** The 200 of a download. */
const fichero = (formato: 'csv' | 'xlsx') => ({
  description: 'El fichero',
  content: formato === 'csv' ? { 'text/csv': { schema: z.string() } } : { [tipoXlsx]: { schema: z.string() } },
});
const ocupado = errorResponse('Demasiadas descargas a la vez en este momento; Retry-After dice cuántos segundos esperar');

const descarga = (formato: 'csv' | 'xlsx') =>
  createRoute({
    method: 'get',
    path: `/medidas/curva/${formato}`,
    tags: ['Consumidores'],
    summary: formato === 'csv' ? 'Curva de consumo en CSV' : 'Curva de consumo en Excel',
    description:
      formato === 'csv'
        ? 'Con formato=portal (por defecto): columnas del formato de consumos de las distribuidoras (CUPS;Fecha;Hora;Consumo_kWh;Metodo_obtencion, Hora 1–25 como fin de hora) y además energía vertida, firmeza, periodo, franja horaria, inicio y fin en ISO 8601 con desfase, Hora_fin (HH:MM, hora de fin) y la energía reactiva inductiva y capacitiva en kVArh (vacías donde el contador no la mide). Cada intervalo ya terminado del periodo tiene su línea: uno sin medida va con el consumo vacío y el método «sin dato». «;», coma decimal, UTF-8 con BOM. Con formato=datadis: las columnas de las descargas de Datadis (cups;fecha;hora;consumo_kWh;metodoObtencion;energiaVertida_kWh), fecha AAAA/MM/DD, hora de fin 01:00–24:00, Real/Estimada, coma decimal, sin BOM y, como Datadis, solo los intervalos con medida. Se envía por partes.'
        : 'Las mismas filas en un libro de Excel (.xlsx): números, y fecha, inicio y fin como fechas de Excel en la hora local del suministro (Excel no tiene zonas horarias; la columna Desfase_UTC da el desfase). Escrito por partes.',
    security: seguridad,
    middleware: [requireAuth(), requireArea('distribucion')] as const,
    request: { query: formato === 'csv' ? DescargaCsvQuery : DescargaQuery },
    responses: { 200: fichero(formato), ...errores, 503: ocupado },
  });

const PotenciasQuery = z.object({
  cups: z.string().trim().min(20).max(22).openapi({ description: 'CUPS de uno de los suministros del usuario, de 20 o 22 caracteres.' }),
  desde: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'Indique el mes de inicio como AAAA-MM.')
    .openapi({ description: 'Primer mes, AAAA-MM.' }),
  hasta: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'Indique el mes de fin como AAAA-MM.')
    .openapi({ description: 'Último mes, incluido, AAAA-MM; como máximo 24 meses desde el primero.' }),
});

const PotenciasSchema = z
  .object({
    cups: z.string().openapi({ description: 'CUPS del suministro.' }),
    tarifa: z.string().openapi({ description: 'Tarifa de acceso del suministro (2.0TD, 3.0TD, 6.1TD…).' }),
    contratadasKw: z.array(z.number()).openapi({
      description: 'Potencia contratada por periodo de potencia, en kW, P1 primero: 2 valores en la 2.0TD, 6 en las demás.',
    }),
    periodos: z
      .array(
        z.object({
          periodo: z.string().openapi({ description: 'Periodo de potencia: P1 a P6.' }),
          nombre: z.string().openapi({ description: 'Nombre del periodo: Punta o Valle en la 2.0TD; «Periodo n» en las demás.' }),
          color: z.string().openapi({ description: 'Color del periodo para gráficos y leyendas, hexadecimal #rrggbb.' }),
        }),
      )
      .openapi({ description: 'Periodos de potencia de la tarifa, P1 primero.' }),
    meses: z
      .array(
        z.object({
          mes: z.string().openapi({ description: 'Mes, AAAA-MM.' }),
          periodos: z
            .array(
              z.object({
                periodo: z.string().openapi({ description: 'Periodo de potencia: P1 a P6.' }),
                potenciaKw: z.number().openapi({
                  description:
                    'Potencia máxima demandada en el mes y periodo, en kW: la media del intervalo (cuarto de hora u hora) de más consumo.',
                }),
                contratadaKw: z.number().openapi({ description: 'Potencia contratada en ese periodo, en kW.' }),
                momento: z.string().openapi({ description: 'Inicio del intervalo en que se alcanzó el máximo, instante UTC ISO 8601.' }),
                metodo: z.string().openapi({
                  description: 'real (medida real de un contador cuartohorario) o estimada (media de una hora, o medida estimada).',
                }),
                excedida: z.boolean().openapi({ description: 'Si la potencia máxima supera la contratada.' }),
              }),
            )
            .openapi({ description: 'El máximo de cada periodo con dato en el mes, P1 primero.' }),
        }),
      )
      .openapi({ description: 'Meses del rango con alguna medida, del más antiguo al más reciente; los meses sin dato no aparecen.' }),
  })
  .openapi('PotenciasMaximas');

const potencias = createRoute({
  method: 'get',
  path: '/medidas/potencias',
  tags: ['Consumidores'],
  summary: 'Potencias máximas demandadas por mes y periodo',
  security: seguridad,
  middleware: [requireAuth(), requireArea('distribucion')] as const,
  request: { query: PotenciasQuery },
  responses: { 200: jsonResponse(PotenciasSchema, 'Las potencias'), ...errores },
});

const descargaPotencias = (formato: 'csv' | 'xlsx') =>
  createRoute({
    method: 'get',
    path: `/medidas/potencias/${formato}`,
    tags: ['Consumidores'],
    summary: formato === 'csv' ? 'Potencias máximas en CSV' : 'Potencias máximas en Excel',
    description:
      formato === 'csv'
        ? 'Una línea por mes y periodo con dato: CUPS;Mes;Periodo;Potencia_maxima_kW;Potencia_contratada_kW;Excedida;Momento;Metodo, con el momento en ISO 8601 con desfase. «;», coma decimal, UTF-8 con BOM.'
        : 'Las mismas filas en un libro de Excel (.xlsx), con el mes y el momento como fechas de Excel en la hora local del suministro.',
    security: seguridad,
    middleware: [requireAuth(), requireArea('distribucion')] as const,
    request: { query: PotenciasQuery },
    responses: { 200: fichero(formato), ...errores },
  });

/** The tariff of a supply point as the period tables know it (every stored tariff is one). */
function tarifaDe(s: Suministro): CodigoTarifa {
  if (!esCodigoTarifa(s.tarifa)) throw new Error(`Tarifa sin tabla de periodos: ${s.tarifa}`);
  return s.tarifa;
}

/** Parses and checks the query the same way for the JSON and the downloads. */
function consulta<E extends AuthEnv>(c: Context<E>) {
  const q = DescargaCsvQuery.safeParse(c.req.query());
  if (!q.success) throw new ValidationError(q.error.issues.map((i) => i.message));
  return q.data;
}

/** The supply point, its tariff and zone, and the UTC bounds of the asked range. */
async function contexto<E extends AuthEnv>(c: Context<E>) {
  const q = consulta(c);
  const s = await suministroLegible(c, q.cups, 'curvas');
  const zonaElectrica = zonaElectricaDeIne(s.codigoIne);
  const zona = zonaHorariaDe(zonaElectrica);
  const rango = rangoDias(q.desde, q.hasta, zona);
  return { q, s, tarifa: tarifaDe(s), zonaElectrica, zona, rango };
}

/** The rows of a curve download: every interval of the range that has ended, gaps included. */
async function intervalosDescarga<E extends AuthEnv>(c: Context<E>) {
  const { q, s, tarifa, zonaElectrica, rango } = await contexto(c);
  const deps = c.get('deps');
  const cuartos = q.resolucion === 'cuartohora' && s.resolucionMinutos === 15;
  const medidas = (async function* () {
    for await (const m of recorrerHoras(
      dbDeLectura(deps),
      s.id,
      rango.inicio,
      rango.fin,
      cuartos ? 'medidas_cuartohorarias' : 'medidas_horarias',
    )) {
      yield {
        cups: s.cups,
        inicio: m.inicio,
        minutos: cuartos ? 15 : 60,
        importadaWh: m.importadaWh,
        exportadaWh: m.exportadaWh,
        metodo: m.real ? 'real' : 'estimada',
        firme: m.firme,
        ...(m.reactivas ? { reactivas: m.reactivas } : {}),
      } as const;
    }
  })();
  const intervalos = conHuecosAsync(medidas, {
    cups: s.cups,
    inicio: rango.inicio,
    fin: rango.fin,
    minutos: cuartos ? 15 : 60,
    hasta: deps.clock.now(),
  });
  return { q, s, opciones: { tarifa, zona: zonaElectrica }, intervalos };
}

/** The maximum powers answer of a supply point for the months asked. */
async function potenciasDe<E extends AuthEnv>(
  c: Context<E>,
  q: z.infer<typeof PotenciasQuery>,
): Promise<PotenciasRespuesta & { tarifa: CodigoTarifa; zona: ReturnType<typeof zonaHorariaDe> }> {
  const s = await suministroLegible(c, q.cups, 'potencias');
  const e = errorRango(`${q.desde}-01`, `${q.hasta}-01`);
  if (e) throw new ValidationError([e.replace('fecha', 'mes')]);
  const [ad, md] = q.desde.split('-').map(Number) as [number, number];
  const [ah, mh] = q.hasta.split('-').map(Number) as [number, number];
  if ((ah - ad) * 12 + (mh - md) + 1 > 24) throw new ValidationError(['Consulte como máximo 24 meses de potencias.']);
  const tarifa = tarifaDe(s);
  const filas = await leerPotenciasMaximas(dbDeLectura(c.get('deps')), s.id, `${q.desde}-01`, `${q.hasta}-01`);
  const leyenda = leyendaPeriodosPotencia(tarifa);
  const contratadasKw = s.potenciasW.map((w) => w / 1000);
  const meses = new Map<string, PotenciasMaximasPorMes>();
  for (const f of filas) {
    const contratadaKw = contratadasKw[f.periodo - 1] ?? contratadasKw[contratadasKw.length - 1]!;
    const potenciaKw = f.potenciaW / 1000;
    const lista = meses.get(f.mes) ?? [];
    lista.push({
      periodo: `P${f.periodo}`,
      potenciaKw,
      contratadaKw,
      momento: f.momento,
      metodo: f.metodo,
      excedida: potenciaKw > contratadaKw,
    });
    meses.set(f.mes, lista);
  }
  return {
    cups: s.cups,
    tarifa,
    zona: zonaHorariaDe(zonaElectricaDeIne(s.codigoIne)),
    contratadasKw,
    periodos: leyenda.map((p) => ({ periodo: p.periodo, nombre: p.nombre, color: p.color })),
    meses: [...meses].map(([mes, periodos]) => ({ mes, periodos })),
  };
}

/** Headers of a file download. */
const cabecerasFichero = (tipo: string, nombre: string) => ({
  'Content-Type': tipo,
  'Content-Disposition': `attachment; filename="${nombre}"`,
  'Cache-Control': 'no-store',
});

/** The measures sub-app. Each instance bounds its own downloads (one per process in production). */
export function medidasRoutes() {
  const limiteExcel = new LimiteSimultaneas(MAX_DESCARGAS_EXCEL);
  const limiteCsv = new LimiteSimultaneas(MAX_DESCARGAS_CSV);
  return featureApp()
    .openapi(curva, async (c) => {
      const { q, s, tarifa, zonaElectrica, zona, rango } = await contexto(c);
      const cuartos = q.resolucion === 'cuartohora';
      if (cuartos && s.resolucionMinutos !== 15) {
        throw new ValidationError(['El contador de este suministro no registra cuartos de hora: consulte la curva horaria.']);
      }
      const db = dbDeLectura(c.get('deps'));
      const horas = await leerCurvaHorariaTexto(db, s.id, rango.inicio, rango.fin, tarifa, zonaElectrica);
      const leyenda = leyendaPeriodos(tarifa);
      // Hours go out as the stored text (curva-texto.ts); the other resolutions are computed from them.
      let curvaJson: string;
      if (q.resolucion === 'hora') {
        curvaJson = `{"minutos":60,"desde":${rango.inicio.getTime()},"inicio":null,"importadaWh":${horas.importadaJson},"exportadaWh":${horas.exportadaJson ?? 'null'},"calidad":${JSON.stringify(horas.calidad)}}`;
      } else {
        const datos = cuartos
          ? densificar(await leerCurva(db, s.id, rango.inicio, rango.fin, 'cuartohora'), rango.inicio, rango.fin, 15)
          : sumarPorDiaOMes(serieDeTexto(horas, rango.inicio), q.resolucion as 'dia' | 'mes', zonaElectrica, rango.fin.getTime());
        curvaJson = JSON.stringify(datos satisfies CurvaRespuesta['curva']);
      }
      const resto: Omit<CurvaRespuesta, 'curva'> = {
        cups: s.cups,
        tarifa,
        zona: zonaElectrica,
        resolucion: q.resolucion,
        desde: q.desde,
        hasta: q.hasta,
        inicioUtc: rango.inicio.toISOString(),
        finUtc: rango.fin.toISOString(),
        totales: {
          importadaWh: horas.total.importadaWh,
          exportadaWh: horas.exportadaJson !== null ? horas.total.exportadaWh : null,
          porPeriodo: leyenda.map((p, i) => ({
            periodo: p.periodo,
            nombre: p.nombre,
            color: p.color,
            importadaWh: horas.periodos[i]!.importadaWh,
            reactivaInductivaVarh: horas.reactiva ? horas.reactiva.inductivaVarh[i]! : null,
            reactivaCapacitivaVarh: horas.reactiva ? horas.reactiva.capacitivaVarh[i]! : null,
          })),
          reactivaInductivaVarh: horas.reactiva ? horas.reactiva.inductivaVarh.reduce((a, b) => a + b, 0) : null,
          reactivaCapacitivaVarh: horas.reactiva ? horas.reactiva.capacitivaVarh.reduce((a, b) => a + b, 0) : null,
          horasConDatos: horas.total.intervalos,
          horasEstimadas: horas.total.estimadas,
          horasDelRango: Math.round((rango.fin.getTime() - rango.inicio.getTime()) / 3_600_000),
        },
        diasEspeciales: diasCambioHora(q.desde, q.hasta, zona),
      };
      // The curve is spliced in as text after the rest: the same JSON document c.json would write.
      return respuestaJson(c, `${JSON.stringify(resto).slice(0, -1)},"curva":${curvaJson}}`) as never;
    })
    .openapi(descarga('csv'), async (c) => {
      const { q, s, opciones, intervalos } = await intervalosDescarga(c);
      const datadis = q.formato === 'datadis';
      const devolver = limiteCsv.tomar();
      // The client may go while the body is still being written: the request's signal says so even
      // when a layer in between (compression) does not pass the cancellation on to this stream.
      const senal = c.req.raw.signal;
      const abandonada = () => {
        devolver();
        void intervalos.return(undefined);
      };
      senal.addEventListener('abort', abandonada, { once: true });
      const encoder = new TextEncoder();
      const tandas = new Tandas();
      let cabecera = false;
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          try {
            if (senal.aborted) {
              controller.close();
              return;
            }
            if (!cabecera) {
              cabecera = true;
              controller.enqueue(encoder.encode(datadis ? cabeceraCsvDatadis() : cabeceraCsvMedidas()));
            }
            // Up to a few hundred rows per chunk: the consumer's pace sets the database's.
            let texto = '';
            for (let n = 0; n < 500; n++) {
              const r = await intervalos.next();
              if (r.done) {
                if (texto) controller.enqueue(encoder.encode(texto));
                controller.close();
                devolver();
                senal.removeEventListener('abort', abandonada);
                return;
              }
              const f = filaExportacion(r.value, opciones);
              texto += datadis ? lineaCsvDatadis(f) : lineaCsvMedidas(f);
              await tandas.tras();
            }
            controller.enqueue(encoder.encode(texto));
          } catch (err) {
            devolver();
            throw err;
          }
        },
        async cancel() {
          devolver();
          await intervalos.return(undefined);
        },
      });
      return c.body(
        body,
        200,
        cabecerasFichero(
          'text/csv; charset=utf-8',
          datadis ? nombreCsvDatadis(s.cups, q.desde, q.hasta) : nombreCsvMedidas(s.cups, q.desde, q.hasta),
        ),
      );
    })
    .openapi(descarga('xlsx'), async (c) => {
      const { q, s, opciones, intervalos } = await intervalosDescarga(c);
      const devolver = limiteExcel.tomar();
      const salida = new PassThrough();
      salida.once('close', devolver);
      // A client that goes stops the writer (and frees its place) whatever sits between.
      c.req.raw.signal.addEventListener('abort', () => salida.destroy(), { once: true });
      const filas = (async function* (): AsyncGenerator<CeldaExcel[]> {
        for await (const m of intervalos) yield celdasExcelMedidas(filaExportacion(m, opciones));
      })();
      // Written in the background; the response streams what the writer produces.
      escribirLibroExcel(salida, 'Consumos', columnasExcelMedidas(opciones.zona), filas)
        .catch((err: unknown) => c.get('log').error({ err }, 'descarga Excel interrumpida'))
        .finally(devolver);
      return c.body(
        Readable.toWeb(salida) as unknown as ReadableStream<Uint8Array>,
        200,
        cabecerasFichero(tipoXlsx, nombreCsvMedidas(s.cups, q.desde, q.hasta).replace(/\.csv$/, '.xlsx')),
      );
    })
    .openapi(potencias, async (c) => {
      const { tarifa, zona: _zona, ...r } = await potenciasDe(c, c.req.valid('query'));
      return c.json({ ...r, tarifa }, 200);
    })
    .openapi(descargaPotencias('csv'), async (c) => {
      const q = c.req.valid('query');
      const r = await potenciasDe(c, q);
      const texto = csvPotencias(r, modeloPotencias(r, q.desde, q.hasta, r.zona), r.zona);
      return c.body(texto, 200, cabecerasFichero('text/csv; charset=utf-8', nombreCsvPotencias(r.cups, q.desde, q.hasta)));
    })
    .openapi(descargaPotencias('xlsx'), async (c) => {
      const q = c.req.valid('query');
      const r = await potenciasDe(c, q);
      const salida = new PassThrough();
      const filas = filasDescargaPotencias(r, modeloPotencias(r, q.desde, q.hasta, r.zona), r.zona);
      // At most 24 months × 6 periods: the workbook is small, so it is not counted against the bound.
      escribirLibroExcel(
        salida,
        'Potencias máximas',
        columnasExcelPotencias(r.zona),
        (async function* () {
          for (const f of filas) yield celdasExcelPotencias(f);
        })(),
      ).catch((err: unknown) => c.get('log').error({ err }, 'descarga Excel interrumpida'));
      return c.body(
        Readable.toWeb(salida) as unknown as ReadableStream<Uint8Array>,
        200,
        cabecerasFichero(tipoXlsx, nombreCsvPotencias(r.cups, q.desde, q.hasta).replace(/\.csv$/, '.xlsx')),
      );
    });
}

/** One period of one month in the maximum powers answer. */
type PotenciasMaximasPorMes = {
  periodo: string;
  potenciaKw: number;
  contratadaKw: number;
  momento: string;
  metodo: string;
  excedida: boolean;
}[];
