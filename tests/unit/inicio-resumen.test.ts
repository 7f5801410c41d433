/**
 * The dashboard's logic (src/lib/inicio): the periods in Madrid time, the change against a year
 * earlier and when it cannot be told, and which notices a summary builds, with their links.
 */
import { describe, expect, it } from 'vitest';
import { FECHAS } from '../../src/lib/inicio/fechas.ts';
import { horasDe, mesesUtcDe, periodosResumen } from '../../src/lib/inicio/periodos.ts';
import type { ResumenInicio, SuministroResumen } from '../../src/lib/inicio/respuestas.ts';
import { avisosDe, hayAlgo, tarjetasConsumo, textoComparacion, textoHorario, variacion } from '../../src/lib/inicio/resumen.ts';

const vacio: ResumenInicio = { hoy: '2026-03-15', consumidor: null, contacto: [], accesos: [], comercializadora: null };

function suministro(cambios: Partial<SuministroResumen> = {}): SuministroResumen {
  return {
    cups: 'ES9902000000000001AB',
    distribuidora: 'eod',
    distribuidoraNombre: 'Electra Occidental Distribución, S.L.',
    direccion: 'Calle Sol, 3, 06800 Mérida (Badajoz)',
    municipio: 'Mérida',
    ayer: { fecha: '2026-03-14', kWh: 8.42, horasMedidas: 24, horasPeriodo: 24 },
    mes: { mes: '2026-02', kWh: 330, horasMedidas: 672, horasPeriodo: 672 },
    mesAnterior: { mes: '2025-02', kWh: 300, horasMedidas: 672, horasPeriodo: 672 },
    proximaLectura: { fecha: '2026-04-01', tipo: 'cierre_remoto', autolectura: null },
    interrupciones: [],
    contador: { problemas: [], ultimaComunicacion: null },
    ...cambios,
  };
}

const conSuministros = (...s: SuministroResumen[]): ResumenInicio => ({
  ...vacio,
  consumidor: { totalSuministros: s.length, suministros: s, modificaciones: [] },
});

describe('periodosResumen', () => {
  it('takes yesterday and last month in Madrid time, and the same month a year earlier', () => {
    // 00:30 in Madrid on 1 April 2026 (summer time) is still 31 March in UTC.
    const p = periodosResumen(Date.parse('2026-03-31T22:30:00Z'));
    expect(p).toMatchObject({ hoy: '2026-04-01', ayer: '2026-03-31', mes: '2026-03', mesAnterior: '2025-03' });
    expect(p.rangoMes.inicio.toISOString()).toBe('2026-02-28T23:00:00.000Z');
    expect(p.rangoMes.fin.toISOString()).toBe('2026-03-31T22:00:00.000Z');
    // March loses an hour to the change to summer time.
    expect(horasDe(p.rangoMes)).toBe(743);
    expect(horasDe(p.rangoAyer)).toBe(24);
    expect(mesesUtcDe(p.rangoMes).map((d) => d.toISOString())).toEqual(['2026-02-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z']);
  });

  it('goes back a year across January', () => {
    const p = periodosResumen(Date.parse('2026-01-10T12:00:00Z'));
    expect(p).toMatchObject({ mes: '2025-12', mesAnterior: '2024-12' });
  });
});

describe('variacion and textoComparacion', () => {
  it('computes the change in percent, none against zero', () => {
    expect(variacion(330, 300)).toBeCloseTo(10, 10);
    expect(variacion(270, 300)).toBeCloseTo(-10, 10);
    expect(variacion(10, 0)).toBeNull();
  });

  it('says more or less in words, never by colour only', () => {
    expect(textoComparacion(suministro(), FECHAS)).toBe('Un 10,0 % más que en febrero de 2025 (300 kWh).');
    const menos = suministro({ mes: { mes: '2026-02', kWh: 250.5, horasMedidas: 672, horasPeriodo: 672 } });
    expect(textoComparacion(menos, FECHAS)).toBe('Un 16,5 % menos que en febrero de 2025 (300 kWh).');
  });

  it('says when the month a year earlier has no data, or some hour lacks a measure', () => {
    const sinDatos = suministro({ mesAnterior: { mes: '2025-02', kWh: null, horasMedidas: 0, horasPeriodo: 672 } });
    expect(textoComparacion(sinDatos, FECHAS)).toBe('No hay datos de febrero de 2025 para comparar.');
    const incompleto = suministro({ mesAnterior: { mes: '2025-02', kWh: 200, horasMedidas: 600, horasPeriodo: 672 } });
    expect(textoComparacion(incompleto, FECHAS)).toBe('No se compara con febrero de 2025: faltan demasiadas horas por medir.');
    // A few hours missing (97 % measured or more) still compare, and the text says so.
    const casi = suministro({ mesAnterior: { mes: '2025-02', kWh: 300, horasMedidas: 668, horasPeriodo: 672 } });
    expect(textoComparacion(casi, FECHAS)).toBe(
      'Un 10,0 % más que en febrero de 2025 (300 kWh). En febrero de 2025 faltan horas por medir.',
    );
  });
});

describe('textoHorario', () => {
  it('writes scheduled works of tomorrow with their hours in Madrid time', () => {
    const i = { estadoIncidenciaRed: 'Programada', inicio: '2026-03-16T07:00:00Z', finPrevisto: '2026-03-16T10:00:00Z' };
    expect(textoHorario(i, '2026-03-15', FECHAS)).toBe('Mañana, lunes 16 de marzo, de 8:00 a 11:00');
  });

  it('writes an interruption under way, with an unknown end', () => {
    const i = { estadoIncidenciaRed: 'Activa', inicio: '2026-03-15T09:15:00Z', finPrevisto: null };
    expect(textoHorario(i, '2026-03-15', FECHAS)).toBe('Desde hoy a las 10:15; aún no sabemos cuándo terminará');
  });
});

describe('avisosDe', () => {
  it('builds nothing from a summary with nothing to say', () => {
    expect(avisosDe(vacio, FECHAS)).toEqual([]);
    expect(hayAlgo(vacio, [])).toBe(false);
  });

  it('tells an interruption once for several supply points, linking to the interruptions screen', () => {
    const corte = {
      id: '00000000-0000-4000-8000-000000000001',
      estadoIncidenciaRed: 'Programada' as const,
      descripcion: 'Trabajos en el centro de transformación.',
      municipio: 'Mérida',
      inicio: '2026-03-16T07:00:00Z',
      finPrevisto: '2026-03-16T10:00:00Z',
      afecta: 'suministro' as const,
    };
    const a = suministro({ interrupciones: [corte] });
    const b = suministro({ cups: 'ES9902000000000002CD', direccion: 'Calle Luna, 5, 06800 Mérida (Badajoz)', interrupciones: [corte] });
    const avisos = avisosDe(conSuministros(a, b), FECHAS);
    expect(avisos).toHaveLength(1);
    expect(avisos[0]).toMatchObject({
      nivel: 'importante',
      titulo: 'Corte de luz programado en Mérida',
      enlace: { href: '/medidas/interrupciones' },
    });
    expect(avisos[0]!.detalle).toContain('Mañana, lunes 16 de marzo, de 8:00 a 11:00.');
    expect(avisos[0]!.detalle).toContain('Afecta a sus suministros de Calle Sol, 3, 06800 Mérida (Badajoz); Calle Luna, 5');
  });

  it('tells meter problems with the meter state screen, and pending procedures with their own screens', () => {
    const r: ResumenInicio = {
      ...conSuministros(suministro({ contador: { problemas: ['icp'], ultimaComunicacion: null } })),
      contacto: [
        {
          id: '00000000-0000-4000-8000-000000000002',
          referencia: 'RE-2026-000004',
          procedimiento: 'reclamacion',
          asunto: 'Interrupción del suministro',
          motivo: 'pide_informacion',
          vence: '2026-03-20',
          fecha: '2026-03-01T10:00:00Z',
        },
      ],
      accesos: [
        {
          id: '00000000-0000-4000-8000-000000000003',
          referencia: 'AC-2026-000007',
          paso: 'subsanacion',
          emplazamiento: 'Toledo, Polígono 3',
          vence: '2026-03-10',
          vencido: true,
        },
      ],
    };
    const avisos = avisosDe(r, FECHAS);
    expect(avisos.map((a) => [a.titulo, a.enlace.href])).toEqual([
      ['Ha saltado el interruptor de control de potencia', '/medidas/estado-contador'],
      [
        'La distribuidora le pide información sobre su reclamación RE-2026-000004',
        '/contacto/detalleReclamacion/00000000-0000-4000-8000-000000000002',
      ],
      [
        'La distribuidora pide subsanar su solicitud de acceso AC-2026-000007',
        '/accesoyconexion/solicitud/00000000-0000-4000-8000-000000000003',
      ],
    ]);
    expect(avisos[1]!.detalle).toContain('Responda hasta el viernes 20 de marzo.');
    expect(avisos[2]!.detalle).toContain('El plazo terminó el martes 10 de marzo.');
  });

  it("tells a supply company its ATR requests and whether this month's SIPS files are there", () => {
    const r: ResumenInicio = {
      ...vacio,
      comercializadora: {
        atr: [
          {
            id: '00000000-0000-4000-8000-000000000004',
            referencia: 'ATR-2026-000012',
            distribuidora: 'epd',
            distribuidoraNombre: 'Electra Peninsular Distribución, S.L.',
            proceso: 'C2',
            cups: 'ES9901000000000009XY',
            estado: 'incidencia',
            actualizada: '2026-03-14T09:00:00Z',
          },
        ],
        intercambio: [],
        sips: [
          {
            distribuidora: 'epd',
            distribuidoraNombre: 'Electra Peninsular Distribución, S.L.',
            mes: '2026-03',
            disponible: false,
            ultimoMes: '2026-02',
          },
        ],
      },
    };
    const avisos = avisosDe(r, FECHAS);
    expect(avisos.map((a) => a.titulo)).toEqual([
      'Incidencia en la solicitud ATR ATR-2026-000012 (C2)',
      'Los ficheros SIPS de marzo de 2026 de Electra Peninsular Distribución, S.L. aún no están disponibles',
    ]);
    expect(avisos[0]!.enlace.href).toBe('/comercializadora/solicitud-atr/00000000-0000-4000-8000-000000000004');
    expect(avisos[1]!.detalle).toBe('Los más recientes son de febrero de 2026.');
  });
});

describe('tarjetasConsumo', () => {
  it("writes yesterday's and last month's kWh, the next reading and a link to the supply point's curve", () => {
    const [t] = tarjetasConsumo(conSuministros(suministro()), FECHAS);
    expect(t).toMatchObject({
      etiquetaAyer: 'Ayer, 14 de marzo',
      ayer: '8,4 kWh',
      etiquetaMes: 'Febrero de 2026',
      mes: '330 kWh',
      lectura: 'El miércoles 1 de abril, a distancia.',
      enlace: { href: '/medidas/curvas?cups=ES9902000000000001AB' },
    });
    expect(t!.enlace.texto).toContain('Calle Sol, 3');
  });

  it("says when yesterday's measure has not arrived, and how many hours are missing", () => {
    const [t] = tarjetasConsumo(
      conSuministros(
        suministro({
          ayer: { fecha: '2026-03-14', kWh: null, horasMedidas: 0, horasPeriodo: 24 },
          mes: { mes: '2026-02', kWh: 310.25, horasMedidas: 670, horasPeriodo: 672 },
        }),
      ),
      FECHAS,
    );
    expect(t!.ayer).toBe('Aún no tenemos la medida de ayer.');
    expect(t!.mes).toBe('310 kWh (faltan 2 horas por medir)');
  });
});
