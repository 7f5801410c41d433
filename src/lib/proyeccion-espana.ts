/**
 * The forward formula of d3-composite-projections' `geoConicConformalSpain`, in a few lines, so the
 * browser places points on the map the page drew at build time without shipping d3 (about 30 KB).
 * The page fits the d3 projection to its SVG and exports only its scale and translation; this
 * module rebuilds the same two Lambert conformal conic projections from them: the peninsula with
 * the Balearic Islands, Ceuta and Melilla, and the Canary Islands moved into an inset at the lower
 * left. A unit test checks it against d3 itself.
 */

/** The fitted projection as the page exports it, with the size of the SVG's viewBox. */
export interface ParametrosProyeccion {
  /** viewBox width. */
  ancho: number;
  /** viewBox height. */
  alto: number;
  /** d3 `projection.scale()`. */
  escala: number;
  /** d3 `projection.translate()`: where the projection's centre falls in the viewBox. */
  traslacion: readonly [number, number];
}

const RAD = Math.PI / 180;
const HALF_PI = Math.PI / 2;
/** The library's epsilon, used to shrink the inset's clip box (d3-composite-projections src/math.js). */
const EPSILON = 1e-6;

// Both parts are conicConformal().rotate([5, -38.6]).parallels([0, 60]) in the library.
const DELTA_LAMBDA = 5 * RAD;
const COS_DELTA_PHI = Math.cos(-38.6 * RAD);
const SIN_DELTA_PHI = Math.sin(-38.6 * RAD);
const tany = (phi: number) => Math.tan((HALF_PI + phi) / 2);
const PHI0 = 0;
const PHI1 = 60 * RAD;
/** Cone constant and radius factor of d3's conicConformalRaw for those parallels. */
const N = Math.log(Math.cos(PHI0) / Math.cos(PHI1)) / Math.log(tany(PHI1) / tany(PHI0));
const F = (Math.cos(PHI0) * Math.pow(tany(PHI0), N)) / N;

/** Rotates (λ, φ) in radians as d3's rotateRadians(5°, -38.6°, 0) does. */
function rotar(lambda: number, phi: number): [number, number] {
  let l = lambda + DELTA_LAMBDA;
  if (Math.abs(l) > Math.PI) l -= Math.round(l / (2 * Math.PI)) * 2 * Math.PI;
  const cosPhi = Math.cos(phi);
  const x = Math.cos(l) * cosPhi;
  const y = Math.sin(l) * cosPhi;
  const z = Math.sin(phi);
  return [Math.atan2(y, x * COS_DELTA_PHI - z * SIN_DELTA_PHI), Math.asin(z * COS_DELTA_PHI + x * SIN_DELTA_PHI)];
}

/** d3's conicConformalRaw: unit-scale plane coordinates, y up. */
function conica(lambda: number, phi: number): [number, number] {
  const p = F > 0 && phi < -HALF_PI + EPSILON ? -HALF_PI + EPSILON : phi;
  const r = F / Math.pow(tany(p), N);
  return [r * Math.sin(N * lambda), F - r * Math.cos(N * lambda)];
}

/**
 * Projects a point given in degrees to viewBox coordinates, or null when it falls outside both
 * parts of the map (as d3's composite returns null there).
 */
export function proyectarEspana(longitud: number, latitud: number, p: ParametrosProyeccion): [number, number] | null {
  const [rl, rp] = rotar(longitud * RAD, latitud * RAD);
  const [u, v] = conica(rl, rp);
  const k = p.escala;
  const [tx, ty] = p.traslacion;
  // Peninsula, Balearic Islands, Ceuta and Melilla: the library's clip box around the translation.
  const x = tx + k * u;
  const y = ty - k * v;
  if (x >= tx - 0.06857 * k && x <= tx + 0.13249 * k && y >= ty - 0.1288 * k && y <= ty + 0.06 * k) return [x, y];
  // Canary Islands: the same projection translated into the inset, with the inset's clip box.
  const cx = tx + 0.1 * k + k * u;
  const cy = ty - 0.094 * k - k * v;
  if (
    cx >= tx - 0.1331 * k + EPSILON &&
    cx <= tx - 0.0354 * k - EPSILON &&
    cy >= ty + 0.053457 * k + EPSILON &&
    cy <= ty + 0.08969 * k - EPSILON
  ) {
    return [cx, cy];
  }
  return null;
}
