import { readFileSync } from 'node:fs';
import { geoContains } from 'd3-geo';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { describe, expect, it } from 'vitest';
import { validarNudo } from '../../src/server/capacidad-nodal/csv.ts';
import { mesEnEspana, nudosDemo, SUBESTACIONES_DEMO } from '../../src/server/capacidad-nodal/demo.ts';
import { createRandom } from '../../src/server/demo/random.ts';

describe('demo nodal capacity', () => {
  it.each([
    ['epd', 40, 60],
    ['eod', 30, 50],
  ] as const)('gives %s between %d and %d valid nodes with unique identifiers', (codigo, min, max) => {
    const nudos = nudosDemo(codigo, createRandom(7));
    expect(nudos.length).toBeGreaterThanOrEqual(min);
    expect(nudos.length).toBeLessThanOrEqual(max);
    expect(new Set(nudos.map((n) => n.nudo)).size).toBe(nudos.length);
    for (const n of nudos) expect(validarNudo(n), n.nudo).toEqual([]);
  });

  it('saturates most nodes and leaves tens of MW at a few', () => {
    const nudos = [...nudosDemo('epd', createRandom(20_250_428)), ...nudosDemo('eod', createRandom(20_250_428))];
    const saturados = nudos.filter((n) => n.disponibleMw === 0).length;
    expect(saturados / nudos.length).toBeGreaterThan(0.5);
    expect(nudos.some((n) => n.disponibleMw >= 10)).toBe(true);
  });

  it('is the same for the same seed', () => {
    expect(nudosDemo('epd', createRandom(1))).toEqual(nudosDemo('epd', createRandom(1)));
  });

  it('places every substation inside its real municipality (IGN boundaries of es-atlas)', () => {
    const topo = JSON.parse(readFileSync('node_modules/es-atlas/es/municipalities.json', 'utf8')) as Topology<{
      municipalities: GeometryCollection<{ name: string }>;
    }>;
    const municipios = new Map(feature(topo, topo.objects.municipalities).features.map((f) => [String(f.id), f]));
    for (const codigo of ['epd', 'eod'] as const) {
      const nudos = nudosDemo(codigo, createRandom(3));
      for (const s of SUBESTACIONES_DEMO[codigo]) {
        const municipio = municipios.get(s.codigoIne);
        expect(municipio?.properties.name, s.codigoIne).toBe(s.municipio);
        for (const n of nudos.filter((x) => x.subestacion === s.nombre && x.municipio === s.municipio)) {
          expect(geoContains(municipio!, [n.longitud, n.latitud]), `${n.nudo} en ${s.municipio}`).toBe(true);
        }
      }
    }
  });

  it('dates the publication by the month in Spain, not in UTC', () => {
    expect(mesEnEspana(new Date('2026-11-30T23:30:00Z'))).toBe('2026-12');
    expect(mesEnEspana(new Date('2026-11-02T09:00:00Z'))).toBe('2026-11');
  });
});
