/**
 * The consumption chart: uPlot bars, one per hour (or quarter-hour, day, month), each
 * filled with its tariff period's colour through the bars path builder's per-bar fill; estimated
 * bars hatched in the same colour; surplus as bars below zero in teal; the 23- and 25-hour days
 * shaded and labelled; the time axis in the supply's civil time. The arrays come ready from
 * src/lib/medidas/pantalla/serie.ts.
 *
 * Speed (docs/diseno.md: 8,784 bars in under 100 ms): every draw from `new uPlot` to the end of the
 * first paint is measured as `performance.measure('grafico-curva')`, which the bench and the
 * browser tests read; the figure also carries it in `data-dibujo-ms`.
 */
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { decimalesDe, numero } from '../../../lib/medidas/pantalla/formato.ts';
import {
  colorDeClave,
  COLOR_VERTIDA,
  etiquetaEje,
  indiceEn,
  leerClave,
  textoPunto,
  tituloEjeY,
  type BandaDia,
  type CurvaPreparada,
} from '../../../lib/medidas/pantalla/serie.ts';

/** Name of the performance measure of one chart draw. */
export const MEDIDA_GRAFICO = 'grafico-curva';

const PISTA = 'Pase el puntero o el dedo sobre una barra para ver su valor.';

/** A diagonal hatch in `color` over a pale tint of it: how an estimated bar looks. */
function rayado(color: string, escala: number): CanvasPattern | string {
  const lado = Math.max(6, Math.round(6 * escala));
  const lienzo = document.createElement('canvas');
  lienzo.width = lado;
  lienzo.height = lado;
  const ctx = lienzo.getContext('2d');
  if (!ctx) return color;
  ctx.fillStyle = color;
  ctx.globalAlpha = 0.28;
  ctx.fillRect(0, 0, lado, lado);
  ctx.globalAlpha = 1;
  ctx.strokeStyle = color;
  ctx.lineWidth = Math.max(1.5, 1.5 * escala);
  ctx.beginPath();
  // Two segments so the stripes join across tiles.
  ctx.moveTo(0, lado);
  ctx.lineTo(lado, 0);
  ctx.moveTo(-lado / 2, lado / 2);
  ctx.lineTo(lado / 2, -lado / 2);
  ctx.moveTo(lado / 2, lado * 1.5);
  ctx.lineTo(lado * 1.5, lado / 2);
  ctx.stroke();
  return ctx.createPattern(lienzo, 'repeat') ?? color;
}

/** The fill of every bar: one style object per key, so uPlot builds one path per colour. */
function rellenos(p: CurvaPreparada, escala: number): (string | CanvasPattern)[] {
  const estilos = new Map<string, string | CanvasPattern>();
  for (const clave of new Set(p.claves)) {
    const color = colorDeClave(clave, p.leyenda);
    estilos.set(clave, leerClave(clave).estimada ? rayado(color, escala) : color);
  }
  return p.claves.map((k) => estilos.get(k)!);
}

/** The y range: zero always in view, the surplus below it, a little headroom above. */
function rangoY(p: CurvaPreparada): [number, number] {
  let max = 0;
  let min = 0;
  for (const v of p.importadaKwh) if (v > max) max = v;
  if (p.vertidaKwh) for (const v of p.vertidaKwh) if (v !== null && v < min) min = v;
  if (max === 0 && min === 0) return [0, 1];
  return [min * 1.08, max * 1.08];
}

/** The chart's height for a width: lower on a phone so the totals stay near. */
function alto(ancho: number): number {
  return ancho < 600 ? 240 : 320;
}

/** Props of `GraficoCurva`. */
export interface GraficoCurvaProps {
  prep: CurvaPreparada;
  bandas: BandaDia[];
  /** What the chart shows, for its accessible name. */
  descripcion: string;
}

/** The chart. */
export function GraficoCurva({ prep, bandas, descripcion }: GraficoCurvaProps) {
  const figura = useRef<HTMLDivElement>(null);
  const caja = useRef<HTMLDivElement>(null);
  const lectura = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    const el = caja.current;
    if (!el) return;
    const escala = window.devicePixelRatio || 1;
    const inicio = `${MEDIDA_GRAFICO}-inicio`;
    performance.mark(inicio);

    const fills = rellenos(prep, escala);
    const [yMin, yMax] = rangoY(prep);
    const conVertida = prep.vertidaKwh !== null && prep.vertidaKwh.some((v) => v !== null);
    const barras = uPlot.paths.bars!;
    const zonaIana = prep.zona;
    let medido = false;

    const data: uPlot.AlignedData = conVertida ? [prep.x, prep.importadaKwh, prep.vertidaKwh!] : [prep.x, prep.importadaKwh];
    const series: uPlot.Series[] = [
      {},
      {
        label: 'Consumo',
        fill: '#0b4f8a',
        stroke: '#0b4f8a',
        width: 0,
        points: { show: false },
        // uPlot types facet values as primitives, but the bars builder uses them as fill styles as they are (a CanvasPattern works).
        paths: barras({
          align: 1,
          size: [0.86, Infinity, 1],
          disp: { fill: { unit: 3, values: () => fills as unknown as uPlot.Series.BarsPathBuilderFacetValue[] } },
        }),
      },
    ];
    if (conVertida) {
      series.push({
        label: 'Energía vertida',
        fill: COLOR_VERTIDA,
        stroke: COLOR_VERTIDA,
        width: 0,
        points: { show: false },
        paths: barras({ align: 1, size: [0.86, Infinity, 1] }),
      });
    }

    const ancho = Math.max(260, el.clientWidth);
    const opciones: uPlot.Options = {
      width: ancho,
      height: alto(ancho),
      ms: 1,
      tzDate: (ms) => uPlot.tzDate(new Date(ms), zonaIana),
      legend: { show: false },
      cursor: { y: false, points: { show: false }, drag: { x: false, y: false, setScale: false } },
      select: { show: false, left: 0, top: 0, width: 0, height: 0 },
      scales: {
        x: { time: true, range: () => [prep.xMin, prep.xMax] },
        y: { range: () => [yMin, yMax] },
      },
      axes: [
        {
          stroke: '#44515c',
          grid: { show: false },
          ticks: { stroke: '#d3dbe2' },
          space: 64,
          values: (_u, splits, _i, _espacio, incremento) => splits.map((v) => etiquetaEje(v, incremento, zonaIana)),
        },
        {
          stroke: '#44515c',
          label: tituloEjeY(prep.resolucion),
          labelSize: 24,
          labelFont: '600 12px system-ui, sans-serif',
          size: 56,
          grid: { stroke: '#e6ebf0', width: 1 },
          ticks: { show: false },
          values: (_u, splits, _i, _espacio, incremento) => splits.map((v) => numero(v, decimalesDe(incremento))),
        },
      ],
      series,
      hooks: {
        drawClear: [
          (u) => {
            if (bandas.length === 0) return;
            const { ctx, bbox } = u;
            ctx.save();
            for (const b of bandas) {
              const x0 = Math.max(bbox.left, u.valToPos(b.inicio, 'x', true));
              const x1 = Math.min(bbox.left + bbox.width, u.valToPos(b.fin, 'x', true));
              if (x1 <= x0) continue;
              ctx.fillStyle = 'rgba(168, 111, 0, 0.10)';
              ctx.fillRect(x0, bbox.top, x1 - x0, bbox.height);
              ctx.fillStyle = '#4d3300';
              ctx.font = `700 ${Math.round(11 * escala)}px system-ui, sans-serif`;
              ctx.textBaseline = 'top';
              const texto = `${b.horas} h`;
              const w = ctx.measureText(texto).width;
              // Inside the band when it fits; a narrow band (a day in a month) gets its label to the left.
              ctx.fillText(texto, Math.min(x0 + 4 * escala, x1 - w - 2 * escala), bbox.top + 4 * escala);
            }
            ctx.restore();
          },
        ],
        draw: [
          (u) => {
            if (conVertida) {
              const y0 = Math.round(u.valToPos(0, 'y', true)) + 0.5;
              u.ctx.save();
              u.ctx.strokeStyle = '#14202b';
              u.ctx.lineWidth = escala;
              u.ctx.beginPath();
              u.ctx.moveTo(u.bbox.left, y0);
              u.ctx.lineTo(u.bbox.left + u.bbox.width, y0);
              u.ctx.stroke();
              u.ctx.restore();
            }
            if (!medido) {
              medido = true;
              const fin = `${MEDIDA_GRAFICO}-fin`;
              performance.mark(fin);
              const m = performance.measure(MEDIDA_GRAFICO, inicio, fin);
              figura.current?.setAttribute('data-dibujo-ms', m.duration.toFixed(1));
              figura.current?.setAttribute('data-puntos', String(prep.x.length));
            }
          },
        ],
        setCursor: [
          (u) => {
            const p = lectura.current;
            if (!p) return;
            const left = u.cursor.left;
            const i = left === undefined || left < 0 ? null : indiceEn(prep, u.posToVal(left, 'x'));
            p.textContent = i === null ? PISTA : textoPunto(prep, i);
          },
        ],
      },
    };

    const u = new uPlot(opciones, data, el);
    let anchoPrevio = ancho;
    const observador = new ResizeObserver(() => {
      const w = Math.max(260, el.clientWidth);
      if (Math.abs(w - anchoPrevio) < 2) return;
      anchoPrevio = w;
      u.setSize({ width: w, height: alto(w) });
    });
    observador.observe(el);
    return () => {
      observador.disconnect();
      u.destroy();
    };
  }, [prep, bandas]);

  return (
    <div ref={figura} className="med-grafico" data-grafico="curva">
      <p ref={lectura} className="med-grafico__lectura" aria-hidden="true">
        {PISTA}
      </p>
      <div ref={caja} className="med-grafico__lienzo" role="img" aria-label={descripcion}></div>
    </div>
  );
}
