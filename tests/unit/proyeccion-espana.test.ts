import { readFileSync } from 'node:fs';
import type { GeoProjection } from 'd3-geo';
import fc from 'fast-check';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { beforeAll, describe, expect, it } from 'vitest';
import { proyectarEspana, type ParametrosProyeccion } from '../../src/lib/proyeccion-espana.ts';

// The package's root entry is a bundler build with extensionless imports that Node cannot load;
// its source module loads fine (as the page imports it). It has no types of its own at that path.
const CONIC_SPAIN = 'd3-composite-projections/src/conicConformalSpain.js';
let conicConformalSpain: () => GeoProjection;
beforeAll(async () => {
  conicConformalSpain = ((await import(CONIC_SPAIN)) as { default: () => GeoProjection }).default;
});

/** d3's projection with the parameters the page exports. */
function d3With(p: ParametrosProyeccion): GeoProjection {
  return conicConformalSpain().scale(p.escala).translate([p.traslacion[0], p.traslacion[1]]);
}

/** Fits d3's projection to Spain's provinces as the page does, and returns what the page exports. */
function fitted(ancho: number, alto: number): ParametrosProyeccion {
  const topo = JSON.parse(readFileSync('node_modules/es-atlas/es/provinces.json', 'utf8')) as Topology<{ provinces: GeometryCollection }>;
  const provinces = feature(topo, topo.objects.provinces);
  const projection = conicConformalSpain().fitExtent(
    [
      [4, 4],
      [ancho - 4, alto - 4],
    ],
    provinces,
  );
  const [tx, ty] = projection.translate();
  return { ancho, alto, escala: projection.scale(), traslacion: [tx, ty] };
}

const PLACES: [string, number, number][] = [
  ['Madrid', -3.7038, 40.4168],
  ['Barcelona', 2.1734, 41.3851],
  ['A Coruña', -8.4115, 43.3623],
  ['Cádiz', -6.2885, 36.5271],
  ['Palma', 2.6502, 39.5696],
  ['Ceuta', -5.3213, 35.8894],
  ['Melilla', -2.9381, 35.2923],
  ['Mérida', -6.3437, 38.9161],
  ['Huelva', -6.9297, 37.2725],
];
const CANARIAS: [string, number, number][] = [
  ['Las Palmas de Gran Canaria', -15.4134, 28.1236],
  ['Santa Cruz de Tenerife', -16.2546, 28.4636],
  ['La Restinga (El Hierro)', -17.9829, 27.6406],
  ['Arrecife', -13.5503, 28.963],
];

describe('proyectarEspana', () => {
  for (const [ancho, alto] of [
    [800, 580],
    [960, 500],
  ] as const) {
    describe(`fitted to ${ancho}×${alto} as the page does`, () => {
      let p: ParametrosProyeccion;
      let d3: GeoProjection;
      beforeAll(() => {
        p = fitted(ancho, alto);
        d3 = d3With(p);
      });

      it.each([...PLACES, ...CANARIAS])('places %s where d3 does', (_name, lon, lat) => {
        const expected = d3([lon, lat]);
        const actual = proyectarEspana(lon, lat, p);
        expect(expected).not.toBeNull();
        expect(actual![0]).toBeCloseTo(expected![0], 6);
        expect(actual![1]).toBeCloseTo(expected![1], 6);
        expect(actual![0]).toBeGreaterThanOrEqual(0);
        expect(actual![0]).toBeLessThanOrEqual(ancho);
        expect(actual![1]).toBeGreaterThanOrEqual(0);
        expect(actual![1]).toBeLessThanOrEqual(alto);
      });

      it('draws the Canary Islands in the inset at the lower left, not at their true place', () => {
        const [x, y] = proyectarEspana(-15.4134, 28.1236, p)!;
        const [madridX, madridY] = proyectarEspana(-3.7038, 40.4168, p)!;
        expect(x).toBeLessThan(madridX);
        expect(y).toBeGreaterThan(madridY);
        expect(y).toBeLessThan(alto);
      });

      it('returns null, like d3, for places outside both parts of the map', () => {
        for (const [lon, lat] of [
          [2.3522, 48.8566], // Paris
          [-30, 30], // Atlantic
          [-17, 33.5], // north of the Canary Islands, outside the inset
        ] as const) {
          expect(d3([lon, lat])).toBeNull();
          expect(proyectarEspana(lon, lat, p)).toBeNull();
        }
      });

      it('agrees with d3 on any point around Spain', () => {
        fc.assert(
          fc.property(fc.double({ min: -20, max: 6, noNaN: true }), fc.double({ min: 26, max: 45, noNaN: true }), (lon, lat) => {
            const expected = d3([lon, lat]);
            const actual = proyectarEspana(lon, lat, p);
            if (expected === null) {
              expect(actual).toBeNull();
            } else {
              expect(actual![0]).toBeCloseTo(expected[0], 6);
              expect(actual![1]).toBeCloseTo(expected[1], 6);
            }
          }),
          { numRuns: 500 },
        );
      });
    });
  }
});
