/**
 * What the measure calls answer (GET /api/medidas/curva, GET /api/medidas/potencias): the zod schemas
 * the routes document and the screens read, shared so the screens never import the server.
 */
import { z } from '../validacion/z.ts';

export const CurvaSchema = z
  .object({
    cups: z.string().meta({ description: 'CUPS del suministro.' }),
    tarifa: z.string().meta({ description: 'Tarifa de acceso del suministro (2.0TD, 3.0TD, 6.1TD…), que fija los periodos.' }),
    zona: z.string().meta({
      description:
        'Zona eléctrica del suministro: peninsula, baleares, canarias, ceuta o melilla. Fija los periodos tarifarios y la hora local (la de Canarias en canarias, la de Madrid en las demás).',
    }),
    resolucion: z.enum(['cuartohora', 'hora', 'dia', 'mes']).meta({ description: 'Resolución pedida: cuartohora, hora, dia o mes.' }),
    desde: z.string().meta({ description: 'Primer día del rango pedido, AAAA-MM-DD en la hora local del suministro.' }),
    hasta: z.string().meta({ description: 'Último día del rango pedido, incluido, AAAA-MM-DD en la hora local del suministro.' }),
    inicioUtc: z.string().meta({ description: 'Inicio del rango (medianoche local del día desde), instante UTC ISO 8601.' }),
    finUtc: z
      .string()
      .meta({ description: 'Fin del rango, excluido (medianoche local del día siguiente a hasta), instante UTC ISO 8601.' }),
    curva: z
      .object({
        minutos: z
          .number()
          .nullable()
          .meta({ description: 'Duración de cada ranura: 60 (hora) o 15 (cuarto de hora); null en las sumas por día o mes.' }),
        desde: z.number().meta({
          description:
            'Inicio de la ranura 0, en milisegundos desde 1970 (UTC). Es inicioUtc, salvo por meses: la medianoche local del día 1 del primer mes, que puede ser anterior (la suma solo cuenta las horas del rango).',
        }),
        inicio: z.array(z.number()).nullable().meta({
          description:
            'En las sumas por día o mes, el inicio de cada ranura en milisegundos desde 1970 (UTC): medianoche local de cada día o del día 1 de cada mes. null en horas y cuartos de hora, cuyas ranuras son regulares.',
        }),
        importadaWh: z.array(z.number().nullable()).meta({
          description:
            'Energía tomada de la red en cada ranura, en Wh; null en las ranuras sin ninguna medida (también las aún no transcurridas).',
        }),
        exportadaWh: z.array(z.number().nullable()).nullable().meta({
          description:
            'Energía excedentaria vertida a la red en cada ranura, en Wh (null donde no hay dato); null en vez de la lista cuando ninguna ranura del rango tiene vertido.',
        }),
        calidad: z.string().meta({
          description:
            "Una letra por ranura: F real firme, N real no firme, R real sin firmeza indicada; f, n, e las mismas estimadas; '-' sin medida. En días y meses, real solo si todas sus medidas lo son, y firme solo si todas lo son.",
        }),
      })
      .meta({
        description:
          'La curva en columnas densas: una ranura por intervalo del rango (hora, cuarto de hora, día o mes según resolucion), en orden. La ranura i de horas y cuartos empieza en desde + i × minutos; la de días y meses, en inicio[i].',
      }),
    totales: z
      .object({
        importadaWh: z.number().meta({ description: 'Energía tomada de la red en todo el rango, en Wh.' }),
        exportadaWh: z
          .number()
          .nullable()
          .meta({ description: 'Energía vertida a la red en todo el rango, en Wh; null cuando ninguna hora del rango tiene vertido.' }),
        porPeriodo: z
          .array(
            z.object({
              periodo: z.string().meta({ description: 'Periodo de energía: P1 a P6.' }),
              nombre: z.string().meta({ description: 'Nombre del periodo: Punta, Llano o Valle en la 2.0TD; «Periodo n» en las demás.' }),
              color: z.string().meta({ description: 'Color del periodo para gráficos y leyendas, hexadecimal #rrggbb.' }),
              importadaWh: z.number().meta({ description: 'Energía tomada de la red en las horas de ese periodo, en Wh.' }),
              reactivaInductivaVarh: z.number().nullable().meta({
                description: 'Energía reactiva inductiva (cuadrante R1) de ese periodo, en VArh; null si el contador no la mide.',
              }),
              reactivaCapacitivaVarh: z.number().nullable().meta({
                description: 'Energía reactiva capacitiva (cuadrante R4) de ese periodo, en VArh; null si el contador no la mide.',
              }),
            }),
          )
          .meta({
            description: 'Energía tomada de la red por periodo de energía de la tarifa, P1 primero (3 en la 2.0TD, 6 en las demás).',
          }),
        reactivaInductivaVarh: z.number().nullable().meta({
          description:
            'Energía reactiva inductiva (cuadrante R1) de todo el rango, en VArh, tal como la dan los ficheros F5D de un contador que la mide (tarifas 3.0TD y 6.xTD); null cuando ninguna hora del rango la tiene.',
        }),
        reactivaCapacitivaVarh: z.number().nullable().meta({
          description: 'Energía reactiva capacitiva (cuadrante R4) de todo el rango, en VArh; null cuando ninguna hora del rango la tiene.',
        }),
        horasConDatos: z.number().meta({ description: 'Horas del rango con medida, reales o estimadas.' }),
        horasEstimadas: z.number().meta({ description: 'De las horas con medida, las estimadas.' }),
        horasDelRango: z
          .number()
          .meta({ description: 'Horas que tiene el rango de inicioUtc a finUtc, contando los días de 23 y 25 horas.' }),
      })
      .meta({ description: 'Totales del rango, calculados siempre sobre la curva horaria, sea cual sea la resolución pedida.' }),
    diasEspeciales: z
      .array(
        z.object({
          fecha: z.string().meta({ description: 'Día del cambio de hora, AAAA-MM-DD en la hora local del suministro.' }),
          horas: z.number().meta({ description: 'Horas del día: 23 (paso al horario de verano) o 25 (al de invierno).' }),
          etiqueta: z.string().meta({ description: 'Explicación en español para mostrar al usuario.' }),
        }),
      )
      .meta({ description: 'Días del rango con cambio de hora; lista vacía si no hay ninguno.' }),
  })
  .meta({ id: 'Curva' });

/** The body of GET /api/medidas/curva. */
export type CurvaRespuesta = z.infer<typeof CurvaSchema>;
