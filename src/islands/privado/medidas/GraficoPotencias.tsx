/**
 * The maximum powers chart: for each month, one bar per power period in its colour (bars
 * grouped side by side through the bars path builder's `disp.x0`/`size`), a dark mark across each
 * bar at the contracted power of its period, and a warning triangle over a bar that exceeds it (the
 * table says the same in words).
 */
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { kw, mesBreve } from '../../../lib/medidas/pantalla/formato.ts';
import type { ModeloPotencias, SeriesPotencias } from '../../../lib/medidas/pantalla/potencias.ts';

/** Name of the performance measure of one draw. */
export const MEDIDA_GRAFICO_POTENCIAS = 'grafico-potencias';

/** Share of a month's slot the group of bars takes. */
const ANCHO_GRUPO = 0.8;

/** The chart. */
export function GraficoPotencias({
  modelo,
  series,
  descripcion,
}: {
  modelo: ModeloPotencias;
  series: SeriesPotencias;
  descripcion: string;
}) {
  const caja = useRef<HTMLDivElement>(null);
  const lectura = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    const el = caja.current;
    if (!el) return;
    performance.mark(`${MEDIDA_GRAFICO_POTENCIAS}-inicio`);
    const escala = window.devicePixelRatio || 1;
    const k = modelo.periodos.length;
    const anchoBarra = ANCHO_GRUPO / k;
    const barras = uPlot.paths.bars!;
    const desplazamiento = (i: number) => -ANCHO_GRUPO / 2 + i * anchoBarra;
    const posiciones = modelo.periodos.map((_, i) => series.x.map((x) => x + desplazamiento(i)));
    let medido = false;

    const opciones: uPlot.Options = {
      width: Math.max(260, el.clientWidth),
      height: el.clientWidth < 600 ? 260 : 320,
      legend: { show: false },
      cursor: { y: false, points: { show: false }, drag: { x: false, y: false, setScale: false } },
      select: { show: false, left: 0, top: 0, width: 0, height: 0 },
      scales: {
        x: { time: false, range: () => [-0.5, series.x.length - 0.5] },
        y: { range: () => [0, series.maximo * 1.12 || 1] },
      },
      axes: [
        {
          stroke: '#44515c',
          grid: { show: false },
          ticks: { stroke: '#d3dbe2' },
          space: 40,
          incrs: [1, 2, 3, 6, 12],
          values: (_u, splits) => splits.map((v) => (Number.isInteger(v) && series.meses[v] ? mesBreve(series.meses[v]!) : '')),
        },
        {
          stroke: '#44515c',
          label: 'kW',
          labelSize: 20,
          labelFont: '600 12px system-ui, sans-serif',
          size: 56,
          grid: { stroke: '#e6ebf0', width: 1 },
          ticks: { show: false },
          values: (_u, splits) => splits.map((v) => kw(v)),
        },
      ],
      series: [
        {},
        ...modelo.periodos.map((p, i) => ({
          label: p.periodo,
          fill: p.color,
          stroke: p.color,
          width: 0,
          points: { show: false },
          paths: barras({
            size: [1, Infinity, 2],
            disp: {
              x0: { unit: 1 as const, values: () => posiciones[i]! },
              size: { unit: 1 as const, values: () => series.x.map(() => anchoBarra * 0.9) },
            },
          }),
        })),
      ],
      hooks: {
        draw: [
          (u) => {
            const ctx = u.ctx;
            ctx.save();
            modelo.periodos.forEach((_, i) => {
              const contratada = modelo.contratadasKw[i] ?? modelo.contratadasKw[modelo.contratadasKw.length - 1];
              if (contratada === undefined) return;
              const y = Math.round(u.valToPos(contratada, 'y', true)) + 0.5;
              series.x.forEach((x, j) => {
                const x0 = u.valToPos(x + desplazamiento(i), 'x', true);
                const x1 = u.valToPos(x + desplazamiento(i) + anchoBarra * 0.9, 'x', true);
                ctx.strokeStyle = '#14202b';
                ctx.lineWidth = 2 * escala;
                ctx.beginPath();
                ctx.moveTo(x0 - escala, y);
                ctx.lineTo(x1 + escala, y);
                ctx.stroke();
                const celda = modelo.filas[j]?.celdas[i];
                if (celda?.excedida) {
                  const cx = (x0 + x1) / 2;
                  const top = u.valToPos(celda.potenciaKw, 'y', true) - 4 * escala;
                  const t = 6 * escala;
                  ctx.fillStyle = '#b3261e';
                  ctx.beginPath();
                  ctx.moveTo(cx, top - 1.7 * t);
                  ctx.lineTo(cx - t, top);
                  ctx.lineTo(cx + t, top);
                  ctx.closePath();
                  ctx.fill();
                }
              });
            });
            ctx.restore();
            if (!medido) {
              medido = true;
              performance.mark(`${MEDIDA_GRAFICO_POTENCIAS}-fin`);
              performance.measure(MEDIDA_GRAFICO_POTENCIAS, `${MEDIDA_GRAFICO_POTENCIAS}-inicio`, `${MEDIDA_GRAFICO_POTENCIAS}-fin`);
            }
          },
        ],
        setCursor: [
          (u) => {
            const p = lectura.current;
            if (!p) return;
            const left = u.cursor.left;
            const j = left === undefined || left < 0 ? -1 : Math.round(u.posToVal(left, 'x'));
            const fila = modelo.filas[j];
            if (!fila) {
              p.textContent = 'Pase el puntero sobre un mes para ver sus potencias máximas.';
              return;
            }
            const partes = modelo.periodos
              .map((per, i) => {
                const c = fila.celdas[i];
                return c ? `${per.periodo}: ${kw(c.potenciaKw)} kW${c.excedida ? ' (supera la contratada)' : ''}` : null;
              })
              .filter(Boolean);
            p.textContent = `${fila.nombre} · ${partes.length ? partes.join(' · ') : 'sin datos'}`;
          },
        ],
      },
    };
    const data: uPlot.AlignedData = [series.x, ...series.porPeriodo];
    const u = new uPlot(opciones, data, el);
    let anchoPrevio = el.clientWidth;
    const observador = new ResizeObserver(() => {
      const w = Math.max(260, el.clientWidth);
      if (Math.abs(w - anchoPrevio) < 2) return;
      anchoPrevio = w;
      u.setSize({ width: w, height: w < 600 ? 260 : 320 });
    });
    observador.observe(el);
    return () => {
      observador.disconnect();
      u.destroy();
    };
  }, [modelo, series]);

  return (
    <div className="med-grafico" data-grafico="potencias">
      <p ref={lectura} className="med-grafico__lectura" aria-hidden="true">
        Pase el puntero sobre un mes para ver sus potencias máximas.
      </p>
      <div ref={caja} className="med-grafico__lienzo" role="img" aria-label={descripcion}></div>
    </div>
  );
}
