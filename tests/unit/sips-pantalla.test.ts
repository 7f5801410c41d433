/** The SIPS screen's rules (src/lib/sips/pantalla.ts): who sees which distributor, months in order, the pasted list, the CSV. */
import { describe, expect, it } from 'vitest';
import { csvDeTabla, cupsDelTexto, distribuidorasSips, errorListaCups, ficherosPorMes } from '../../src/lib/sips/pantalla.ts';
import type { FicheroSipsRespuesta } from '../../src/lib/sips/respuestas.ts';

const fichero = (mes: string, tipo: FicheroSipsRespuesta['tipo'], version: FicheroSipsRespuesta['version']): FicheroSipsRespuesta => ({
  nombre: `${mes}-${tipo}-${version}`,
  mes,
  tipo,
  version,
  filas: 1,
  bytes: 1,
  bytesGzip: 1,
  sha256: 'x',
  generadoEn: '2026-11-01T00:00:00Z',
});

describe('pantalla SIPS', () => {
  it('una comercializadora de EPD ve EPD y no EOD', () => {
    expect(distribuidorasSips(['epd-comercializadora', 'eod-distribucion'], 'comercializadora')).toEqual(['epd']);
  });

  it('agrupa por mes, el más reciente primero, y dentro PS antes que consumos y SIPS2026 antes que v2', () => {
    const meses = ficherosPorMes([
      fichero('2026-10', 'PS_ELECTRICIDAD', 'v2'),
      fichero('2026-11', 'CONSUMOS_ELECTRICIDAD', 'v2'),
      fichero('2026-11', 'PS_ELECTRICIDAD', 'v2'),
      fichero('2026-11', 'PS_ELECTRICIDAD', 'sips2026'),
    ]);
    expect(meses.map((m) => m.mes)).toEqual(['2026-11', '2026-10']);
    expect(meses[0]!.ficheros.map((f) => `${f.tipo} ${f.version}`)).toEqual([
      'PS_ELECTRICIDAD sips2026',
      'PS_ELECTRICIDAD v2',
      'CONSUMOS_ELECTRICIDAD v2',
    ]);
    expect(meses[0]!.titulo).toBe('Noviembre de 2026');
    expect(meses[0]!.enFrase).toBe('noviembre de 2026');
  });

  it('lee un CUPS por línea, y también separados por comas, puntos y coma o tabuladores', () => {
    expect(cupsDelTexto('A\r\nB;C\tD,E')).toEqual(['A', 'B', 'C', 'D', 'E']);
  });

  it('no envía una lista vacía ni una de más de 1.000 CUPS', () => {
    expect(errorListaCups(['', ' '])).toBe('Escriba o pegue al menos un CUPS, uno por línea.');
    expect(errorListaCups(Array.from({ length: 1001 }, () => 'ES'))).toMatch(/como mucho 1000/);
    expect(errorListaCups(['ES0021'])).toBeNull();
  });

  it('el CSV de una consulta lleva la cabecera y las filas como los ficheros', () => {
    expect(csvDeTabla({ columnas: ['cups', 'viaPS'], filas: [['ES1', 'Mayor, 3']] })).toBe('cups,viaPS\r\nES1,"Mayor, 3"\r\n');
  });
});
