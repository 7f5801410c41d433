/**
 * The certificate section of `npm run bench` (decision 009): how long drawing a consumption
 * certificate's PDF takes in this process, with its embedded fonts. The figures are computed by
 * `cifrasCertificado` (the path every certificate takes) from a year and two years of hourly
 * measures with a daily shape, for a 2.0TD household (3 periods) and a 6.1TD business (6 periods).
 * The first PDF of the process also parses the two font files; the rest reuse them.
 */
import { cifrasCertificado } from '../src/lib/certificados/cifras.ts';
import { diasDelPeriodo } from '../src/lib/certificados/periodo.ts';
import { identidadDistribuidora } from '../src/lib/certificados/identidad.ts';
import { urlVerificacion, VERSION_CONTENIDO, type ContenidoCertificado } from '../src/lib/certificados/contenido.ts';
import { rangoMes, ZONA_MADRID } from '../src/lib/calendario/hora-civil.ts';
import type { CodigoTarifa } from '../src/lib/medidas/periodos.ts';
import type { MedidaSumable } from '../src/lib/medidas/totales.ts';
import { generarPdfCertificado } from '../src/server/certificados/pdf.ts';

const percentil = (ordenados: number[], p: number) =>
  ordenados[Math.min(ordenados.length - 1, Math.ceil((p / 100) * ordenados.length) - 1)]!;

/** Hourly measures of the months: a daily shape, every 50th hour estimated, every 97th missing. */
function medidas(desdeMes: string, hastaMes: string): MedidaSumable[] {
  const inicio = rangoMes(Number(desdeMes.slice(0, 4)), Number(desdeMes.slice(5, 7)), ZONA_MADRID).inicio.getTime();
  const fin = rangoMes(Number(hastaMes.slice(0, 4)), Number(hastaMes.slice(5, 7)), ZONA_MADRID).fin.getTime();
  const lista: MedidaSumable[] = [];
  for (let t = inicio, i = 0; t < fin; t += 3_600_000, i++) {
    if (i % 97 === 0) continue;
    const hora = new Date(t).getUTCHours();
    lista.push({
      inicio: t,
      minutos: 60,
      importadaWh: Math.round(180 + 420 * Math.max(0, Math.sin(((hora - 6) / 24) * 2 * Math.PI)) + (i % 7) * 11),
      exportadaWh: null,
      metodo: i % 50 === 0 ? 'estimada' : 'real',
    });
  }
  return lista;
}

function contenido(tarifa: CodigoTarifa, desdeMes: string, hastaMes: string): ContenidoCertificado {
  const cifras = cifrasCertificado(medidas(desdeMes, hastaMes), { tarifa, zona: 'peninsula', desdeMes, hastaMes });
  const codigo = 'BNCH-0000-0000-0001';
  return {
    version: VERSION_CONTENIDO,
    codigo,
    emitidoEn: '2026-11-02T09:00:00.000Z',
    zonaHoraria: ZONA_MADRID,
    distribuidora: identidadDistribuidora('epd'),
    titular: { nombre: 'Łukasz Dvořák Núñez', nif: 'X1234567L' },
    suministro: {
      cups: 'ES0099010000000001JN',
      direccion: 'Calle Mayor, 1',
      codigoPostal: '28801',
      municipio: 'Alcalá de Henares',
      provincia: 'Madrid',
      tarifa,
      potenciasKw: tarifa === '2.0TD' ? [4.6, 4.6] : [450, 450, 450, 450, 450, 500],
    },
    periodo: { desdeMes, hastaMes, ...diasDelPeriodo(desdeMes, hastaMes) },
    periodos: cifras.periodos,
    meses: cifras.meses,
    total: cifras.total,
    urlVerificacion: urlVerificacion('https://portal.example', codigo),
  };
}

/** Draws each kind of certificate 30 times after the process's first one. */
export async function certificadoSection(): Promise<string> {
  const casos = [
    { nombre: '2.0TD, 12 months', c: contenido('2.0TD', '2025-10', '2026-09') },
    { nombre: '2.0TD, 24 months', c: contenido('2.0TD', '2024-10', '2026-09') },
    { nombre: '6.1TD, 24 months', c: contenido('6.1TD', '2024-10', '2026-09') },
  ];
  const t0 = performance.now();
  await generarPdfCertificado(casos[0]!.c);
  const primero = performance.now() - t0;
  const filas: string[] = [];
  for (const { nombre, c } of casos) {
    for (let i = 0; i < 3; i++) await generarPdfCertificado(c);
    const ms: number[] = [];
    let bytes = 0;
    for (let i = 0; i < 30; i++) {
      const t = performance.now();
      bytes = (await generarPdfCertificado(c)).length;
      ms.push(performance.now() - t);
    }
    ms.sort((a, b) => a - b);
    filas.push(`| ${nombre} | ${percentil(ms, 50).toFixed(1)} ms | ${percentil(ms, 95).toFixed(1)} ms | ${(bytes / 1024).toFixed(0)} KB |`);
  }
  return [
    '## Certificate PDF',
    '',
    `Drawing one consumption certificate's PDF (\`generarPdfCertificado\`, \`npm run bench -- --only certificado\`) in this process, with its two embedded, subset fonts (DejaVu Sans Condensed; decision 009). Figures from \`cifrasCertificado\` over generated hourly measures. 30 runs per row after 3 warm-up runs. The first PDF of the process, which also parses the font files: **${primero.toFixed(0)} ms**.`,
    '',
    '| certificate | p50 | p95 | size |',
    '|---|---:|---:|---:|',
    ...filas,
  ].join('\n');
}
