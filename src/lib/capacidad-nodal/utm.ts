/**
 * UTM ↔ geographic coordinates on the GRS80 ellipsoid (ETRS89, EPSG:258zz), northern hemisphere.
 * Demand capacity files publish "Coordenada UTM X / Y" in ETRS89 (docs/sector.md §7.2); the map
 * needs degrees. Krüger's series in the third flattening n, to n³ (Karney 2011, "Transverse
 * Mercator with an accuracy of a few nanometers", eqs. 35–36): millimetre accuracy far beyond a
 * zone's edge, so the peninsula's files written entirely in zone 30 convert exactly too.
 */

const A_GRS80 = 6_378_137;
const F_GRS80 = 1 / 298.257222101;
const K0 = 0.9996;
const FALSO_ESTE = 500_000;

const n = F_GRS80 / (2 - F_GRS80);
const A = (A_GRS80 / (1 + n)) * (1 + n ** 2 / 4 + n ** 4 / 64);
const ALFA = [n / 2 - (2 * n ** 2) / 3 + (5 * n ** 3) / 16, (13 * n ** 2) / 48 - (3 * n ** 3) / 5, (61 * n ** 3) / 240];
const BETA = [n / 2 - (2 * n ** 2) / 3 + (37 * n ** 3) / 96, n ** 2 / 48 + n ** 3 / 15, (17 * n ** 3) / 480];
const DELTA = [2 * n - (2 * n ** 2) / 3 - 2 * n ** 3, (7 * n ** 2) / 3 - (8 * n ** 3) / 5, (56 * n ** 3) / 15];
const E2N = (2 * Math.sqrt(n)) / (1 + n);
const RAD = Math.PI / 180;

/** Central meridian of a UTM zone, in degrees. */
const meridianoCentral = (huso: number) => huso * 6 - 183;

/** Geographic degrees (ETRS89) → UTM metres in the given zone. */
export function aUtm(latitud: number, longitud: number, huso: number): { x: number; y: number } {
  const phi = latitud * RAD;
  const dLambda = (longitud - meridianoCentral(huso)) * RAD;
  const t = Math.sinh(Math.atanh(Math.sin(phi)) - E2N * Math.atanh(E2N * Math.sin(phi)));
  const xi = Math.atan2(t, Math.cos(dLambda));
  const eta = Math.atanh(Math.sin(dLambda) / Math.sqrt(1 + t * t));
  let x = eta;
  let y = xi;
  ALFA.forEach((a, i) => {
    const j = 2 * (i + 1);
    x += a * Math.cos(j * xi) * Math.sinh(j * eta);
    y += a * Math.sin(j * xi) * Math.cosh(j * eta);
  });
  return { x: FALSO_ESTE + K0 * A * x, y: K0 * A * y };
}

/** UTM metres in the given zone (ETRS89, northern hemisphere) → geographic degrees. */
export function desdeUtm(x: number, y: number, huso: number): { latitud: number; longitud: number } {
  const xi = y / (K0 * A);
  const eta = (x - FALSO_ESTE) / (K0 * A);
  let xiP = xi;
  let etaP = eta;
  BETA.forEach((b, i) => {
    const j = 2 * (i + 1);
    xiP -= b * Math.sin(j * xi) * Math.cosh(j * eta);
    etaP -= b * Math.cos(j * xi) * Math.sinh(j * eta);
  });
  const chi = Math.asin(Math.sin(xiP) / Math.cosh(etaP));
  let phi = chi;
  DELTA.forEach((d, i) => {
    phi += d * Math.sin(2 * (i + 1) * chi);
  });
  return { latitud: phi / RAD, longitud: meridianoCentral(huso) + Math.atan2(Math.sinh(etaP), Math.cos(xiP)) / RAD };
}
