/**
 * Consumers' measures (issue 6): the curve of one of their supply points over a range (JSON in
 * columns, for the chart and the table), its downloads (CSV in the consumer format plus explicit
 * times, and Excel), and the monthly maximum powers against the contracted ones. Only the holder's
 * own supply points: anyone else's CUPS answers 404 (see src/server/suministros/routes.ts).
 * Downloads are streamed a month at a time, so two years never sit whole in memory.
 */
import { PassThrough, Readable } from 'node:stream';
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { consultaCurvaSchema, errorRango, MAX_DIAS_CONSULTA } from '../../lib/consulta-medidas.ts';
import { cabeceraCsvMedidas, COLUMNAS_CSV_MEDIDAS, filaCsvMedidas, nombreCsvMedidas } from '../../lib/medidas/exportacion.ts';
import { diasCambioHora, etiquetaIntervalo, isoConDesfase, posicionIntervalo, rangoDias } from '../../lib/medidas/horas.ts';
import { sumarPorDiaOMes } from '../../lib/medidas/serie.ts';
import { esCodigoTarifa, leyendaPeriodos, leyendaPeriodosPotencia, periodoEnergia, zonaHorariaDe, type CodigoTarifa } from '../../lib/medidas/periodos.ts';
import { requireArea, requireAuth } from '../auth/middleware.ts';
import type { AuthEnv } from '../http/context.ts';
import { ValidationError } from '../http/errors.ts';
import { respuestaJson } from '../http/compresion.ts';
import { errorResponse, featureApp } from '../http/openapi.ts';
import { suministroDelLector } from '../suministros/routes.ts';
import type { Suministro } from '../suministros/service.ts';
import { zonaElectricaDeIne } from './potencias.ts';
import { densificar, leerCurvaHorariaTexto, serieDeTexto } from './meses.ts';
import { leerCurva, leerPotenciasMaximas, recorrerHoras } from './service.ts';

const CurvaSchema = z
  .object({
    cups: z.string(),
    tarifa: z.string(),
    /** Electrical zone (peninsula, baleares, canarias, ceuta, melilla): sets the periods and the clock. */
    zona: z.string(),
    resolucion: z.enum(['cuartohora', 'hora', 'dia', 'mes']),
    desde: z.string(),
    hasta: z.string(),
    /** UTC bounds of the range [inicioUtc, finUtc). */
    inicioUtc: z.string(),
    finUtc: z.string(),
    /**
     * The curve in dense columns (docs/decisions/008): one slot per interval of the range. Hours and
     * quarter-hours are regular, slot i starts at inicioUtc + i × minutos; sums per day or month list
     * their starts in `inicio`. A slot without a measure is null, with quality '-'.
     */
    curva: z.object({
      /** 60 or 15; null for sums per day or month. */
      minutos: z.number().nullable(),
      /** Start of slot 0, ms since the epoch (UTC). */
      desde: z.number(),
      /** Start of each slot (ms, UTC) for sums per day or month; null for hours and quarter-hours. */
      inicio: z.array(z.number()).nullable(),
      /** Energy taken from the grid, Wh. */
      importadaWh: z.array(z.number().nullable()),
      /** Surplus fed into the grid, Wh; null when the range has none. */
      exportadaWh: z.array(z.number().nullable()).nullable(),
      /** One letter per slot: '-' no measure; real F (firm), N (not firm), R (not said); estimated f, n, e. */
      calidad: z.string(),
    }),
    totales: z.object({
      importadaWh: z.number(),
      /** Null when the supply point has no generation. */
      exportadaWh: z.number().nullable(),
      porPeriodo: z.array(z.object({ periodo: z.string(), nombre: z.string(), color: z.string(), importadaWh: z.number() })),
      /** Hours with data, of them estimated, and hours the range has (23-, 24- and 25-hour days counted). */
      horasConDatos: z.number(),
      horasEstimadas: z.number(),
      horasDelRango: z.number(),
    }),
    /** Days of the range whose clock changes (23 or 25 hours), with a Spanish label. */
    diasEspeciales: z.array(z.object({ fecha: z.string(), horas: z.number(), etiqueta: z.string() })),
  })
  .openapi('Curva');

/** The body of GET /api/medidas/curva. */
export type CurvaRespuesta = z.infer<typeof CurvaSchema>;

const seguridad = [{ Bearer: [] }];
const errores = {
  400: errorResponse('Rango o resolución no válidos'),
  401: errorResponse('Sin sesión'),
  403: errorResponse('Sin permiso «-distribucion»'),
  404: errorResponse('No es un suministro del usuario'),
};

const curva = createRoute({
  method: 'get',
  path: '/medidas/curva',
  tags: ['Consumidores'],
  summary: 'Curva de consumo de un suministro',
  description: `Energía importada y exportada por hora (o cuarto de hora, o sumada por día o mes en hora de Madrid) entre dos fechas civiles incluidas, como máximo ${MAX_DIAS_CONSULTA} días; con los totales por periodo tarifario y los días de cambio de hora.`,
  security: seguridad,
  request: { query: consultaCurvaSchema },
  responses: { 200: { description: 'La curva', content: { 'application/json': { schema: CurvaSchema } } }, ...errores },
});

const descarga = (formato: 'csv' | 'xlsx') =>
  createRoute({
    method: 'get',
    path: `/medidas/curva/${formato}`,
    tags: ['Consumidores'],
    summary: formato === 'csv' ? 'Curva de consumo en CSV' : 'Curva de consumo en Excel',
    description:
      formato === 'csv'
        ? 'Columnas del formato de consumos de las distribuidoras (CUPS;Fecha;Hora;Consumo_kWh;Metodo_obtencion, Hora 1–25 como fin de hora) y además energía vertida, firmeza, periodo, franja horaria e inicio y fin en ISO 8601 con desfase. «;», coma decimal, UTF-8 con BOM. Se envía por partes.'
        : 'Las mismas columnas en un libro de Excel (.xlsx) con números, escrito por partes.',
    security: seguridad,
    request: { query: consultaCurvaSchema },
    responses: {
      200: {
        description: 'El fichero',
        content:
          formato === 'csv'
            ? { 'text/csv': { schema: z.string() } }
            : { 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': { schema: z.string() } },
      },
      ...errores,
    },
  });

const PotenciasQuery = z.object({
  cups: z.string().trim().min(20).max(22),
  /** First and last month, YYYY-MM, at most 24 months. */
  desde: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'Indique el mes de inicio como AAAA-MM.'),
  hasta: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'Indique el mes de fin como AAAA-MM.'),
});

const PotenciasSchema = z
  .object({
    cups: z.string(),
    tarifa: z.string(),
    /** Contracted power per power period, kW (P1 first). */
    contratadasKw: z.array(z.number()),
    periodos: z.array(z.object({ periodo: z.string(), nombre: z.string(), color: z.string() })),
    meses: z.array(
      z.object({
        mes: z.string(),
        periodos: z.array(
          z.object({
            periodo: z.string(),
            potenciaKw: z.number(),
            contratadaKw: z.number(),
            /** When the maximum was reached (UTC ISO). */
            momento: z.string(),
            /** real (quarter-hour meter) or estimada (hourly average). */
            metodo: z.string(),
            /** Demanded above contracted. */
            excedida: z.boolean(),
          }),
        ),
      }),
    ),
  })
  .openapi('PotenciasMaximas');

const potencias = createRoute({
  method: 'get',
  path: '/medidas/potencias',
  tags: ['Consumidores'],
  summary: 'Potencias máximas demandadas por mes y periodo',
  security: seguridad,
  request: { query: PotenciasQuery },
  responses: { 200: { description: 'Las potencias', content: { 'application/json': { schema: PotenciasSchema } } }, ...errores },
});

/** The tariff of a supply point as the period tables know it (every stored tariff is one). */
function tarifaDe(s: Suministro): CodigoTarifa {
  if (!esCodigoTarifa(s.tarifa)) throw new Error(`Tarifa sin tabla de periodos: ${s.tarifa}`);
  return s.tarifa;
}

/** Parses and checks the query the same way for the JSON and the downloads. */
function consulta(c: Context<AuthEnv>) {
  const q = consultaCurvaSchema.safeParse(c.req.query());
  if (!q.success) throw new ValidationError(q.error.issues.map((i) => i.message));
  return q.data;
}

/** The supply point, its tariff and zone, and the UTC bounds of the asked range. */
async function contexto(c: Context<AuthEnv>) {
  const q = consulta(c);
  const s = await suministroDelLector(c, q.cups);
  const zonaElectrica = zonaElectricaDeIne(s.codigoIne);
  const zona = zonaHorariaDe(zonaElectrica);
  const rango = rangoDias(q.desde, q.hasta, zona);
  return { q, s, tarifa: tarifaDe(s), zonaElectrica, zona, rango };
}

/** The measures sub-app. */
export function medidasRoutes() {
  const app = featureApp();
  app.use('/medidas/*', requireAuth(), requireArea('distribucion'));
  return app
    .openapi(curva, async (c) => {
      const { q, s, tarifa, zonaElectrica, zona, rango } = await contexto(c as unknown as Context<AuthEnv>);
      const cuartos = q.resolucion === 'cuartohora';
      if (cuartos && s.resolucionMinutos !== 15) {
        throw new ValidationError(['El contador de este suministro no registra cuartos de hora: consulte la curva horaria.']);
      }
      const db = c.get('deps').db;
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
          porPeriodo: leyenda.map((p, i) => ({ periodo: p.periodo, nombre: p.nombre, color: p.color, importadaWh: horas.periodos[i]!.importadaWh })),
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
      const { q, s, tarifa, zonaElectrica, rango } = await contexto(c as unknown as Context<AuthEnv>);
      const db = c.get('deps').db;
      const cuartos = q.resolucion === 'cuartohora' && s.resolucionMinutos === 15;
      const filas = recorrerHoras(db, s.id, rango.inicio, rango.fin, cuartos ? 'medidas_cuartohorarias' : 'medidas_horarias');
      const encoder = new TextEncoder();
      let cabecera = false;
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (!cabecera) {
            cabecera = true;
            controller.enqueue(encoder.encode(cabeceraCsvMedidas()));
          }
          // Up to a few hundred rows per chunk: the consumer's pace sets the database's.
          let texto = '';
          for (let n = 0; n < 500; n++) {
            const r = await filas.next();
            if (r.done) {
              if (texto) controller.enqueue(encoder.encode(texto));
              controller.close();
              return;
            }
            const m = r.value;
            texto += filaCsvMedidas(
              { cups: s.cups, inicio: m.inicio, minutos: cuartos ? 15 : 60, importadaWh: m.importadaWh, exportadaWh: m.exportadaWh, metodo: m.real ? 'real' : 'estimada', firme: m.firme },
              { tarifa, zona: zonaElectrica },
            );
          }
          controller.enqueue(encoder.encode(texto));
        },
        async cancel() {
          await filas.return(undefined);
        },
      });
      return c.body(body, 200, {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="${nombreCsvMedidas(s.cups, q.desde, q.hasta)}"`,
        'Cache-Control': 'no-store',
      });
    })
    .openapi(descarga('xlsx'), async (c) => {
      const { q, s, tarifa, zonaElectrica, zona, rango } = await contexto(c as unknown as Context<AuthEnv>);
      const db = c.get('deps').db;
      const cuartos = q.resolucion === 'cuartohora' && s.resolucionMinutos === 15;
      const { default: ExcelJS } = await import('exceljs');
      const salida = new PassThrough();
      const libro = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: salida, useSharedStrings: false, useStyles: true });
      libro.creator = 'Portal de las distribuidoras del Grupo Electra';
      const hoja = libro.addWorksheet('Consumos', { views: [{ state: 'frozen', ySplit: 1 }] });
      hoja.columns = COLUMNAS_CSV_MEDIDAS.map((h) => ({ header: h, key: h, width: h === 'Franja_horaria' ? 34 : h === 'Inicio' || h === 'Fin' ? 27 : 14 }));
      hoja.getRow(1).font = { bold: true };
      // Written in the background; the response streams what the writer produces.
      void (async () => {
        try {
          for await (const m of recorrerHoras(db, s.id, rango.inicio, rango.fin, cuartos ? 'medidas_cuartohorarias' : 'medidas_horarias')) {
            const minutos = cuartos ? 15 : 60;
            const p = posicionIntervalo(m.inicio, minutos, zona);
            hoja
              .addRow([
                s.cups,
                `${p.fecha.slice(8, 10)}/${p.fecha.slice(5, 7)}/${p.fecha.slice(0, 4)}`,
                p.numero,
                m.importadaWh / 1000,
                m.real ? 'R' : 'E',
                m.exportadaWh === null ? null : m.exportadaWh / 1000,
                m.firme === null ? null : m.firme ? 'S' : 'N',
                periodoEnergia(m.inicio, tarifa, zonaElectrica),
                etiquetaIntervalo(m.inicio, minutos, 'larga', zona),
                isoConDesfase(m.inicio, zona),
                isoConDesfase(new Date(m.inicio.getTime() + minutos * 60_000), zona),
              ])
              .commit();
          }
          hoja.commit();
          await libro.commit();
        } catch (err) {
          salida.destroy(err as Error);
        }
      })();
      return c.body(Readable.toWeb(salida) as unknown as ReadableStream<Uint8Array>, 200, {
        'Content-Type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        'Content-Disposition': `attachment; filename="${nombreCsvMedidas(s.cups, q.desde, q.hasta).replace(/\.csv$/, '.xlsx')}"`,
        'Cache-Control': 'no-store',
      });
    })
    .openapi(potencias, async (c) => {
      const q = c.req.valid('query');
      const s = await suministroDelLector(c as unknown as Context<AuthEnv>, q.cups);
      const e = errorRango(`${q.desde}-01`, `${q.hasta}-01`);
      if (e) throw new ValidationError([e.replace('fecha', 'mes')]);
      const [ad, md] = q.desde.split('-').map(Number) as [number, number];
      const [ah, mh] = q.hasta.split('-').map(Number) as [number, number];
      if ((ah - ad) * 12 + (mh - md) + 1 > 24) throw new ValidationError(['Consulte como máximo 24 meses de potencias.']);
      const tarifa = tarifaDe(s);
      const filas = await leerPotenciasMaximas(c.get('deps').db, s.id, `${q.desde}-01`, `${q.hasta}-01`);
      const leyenda = leyendaPeriodosPotencia(tarifa);
      const contratadasKw = s.potenciasW.map((w) => w / 1000);
      const meses = new Map<string, CurvaMes>();
      for (const f of filas) {
        const contratadaKw = contratadasKw[f.periodo - 1] ?? contratadasKw[contratadasKw.length - 1]!;
        const potenciaKw = f.potenciaW / 1000;
        const lista = meses.get(f.mes) ?? [];
        lista.push({ periodo: `P${f.periodo}`, potenciaKw, contratadaKw, momento: f.momento, metodo: f.metodo, excedida: potenciaKw > contratadaKw });
        meses.set(f.mes, lista);
      }
      return c.json(
        {
          cups: s.cups,
          tarifa,
          contratadasKw,
          periodos: leyenda.map((p) => ({ periodo: p.periodo, nombre: p.nombre, color: p.color })),
          meses: [...meses].map(([mes, periodos]) => ({ mes, periodos })),
        },
        200,
      );
    });
}

/** One period of one month in the maximum powers answer. */
type CurvaMes = { periodo: string; potenciaKw: number; contratadaKw: number; momento: string; metodo: string; excedida: boolean }[];
