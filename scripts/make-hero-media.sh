#!/usr/bin/env bash
# -----------------------------------------------------------------------------
# make-hero-media.sh — generates the home page hero video and its poster.
#
# What it makes (in public/media/):
#   hero.mp4          H.264 (High, yuv420p, +faststart), 1280x720, 25 fps, 10 s, no audio
#   hero.webm         VP9 (yuv420p), same content, no audio
#   hero-poster.jpg   first frame of the clip, 1280x720
#   hero-poster.webp  same frame as WebP
#
# What the clip shows: a calm, dark-blue night view of a stylised electricity
# distribution network on a ground plane that recedes into a soft horizon haze:
# a mesh of thin glowing blue lines and nodes, brighter feeder lines, a row of
# lattice pylons with sagging wires on the right, soft white (and a few amber)
# pulses of light travelling along the lines, breathing substation lights and
# slowly drifting blue glows. Every moving element has a period that divides
# the clip length, so the last frame flows seamlessly into the first.
# No text, no logos, no audio. Kept dark so a white heading on top stays
# above 4.5:1 contrast over almost the whole frame.
#
# How it works: an embedded Node script (no npm dependencies) renders raw RGB
# frames procedurally (deterministic PRNG, so the output is reproducible) and
# pipes them into ffmpeg, which writes a lossless intermediate in a temp dir;
# the final files are then encoded from that intermediate.
#
# Requirements:
#   - ffmpeg (with libx264, libvpx-vp9 and libwebp) — the Debian package:
#       apt-get install -y ffmpeg
#   - Node.js: the project's node (node_modules/.bin/node) is used if present,
#     otherwise `node` from PATH.
#
# Run from anywhere:
#   bash scripts/make-hero-media.sh
# Takes about two minutes. Re-running overwrites the four files (the output is
# deterministic, so re-running without changes gives the same picture).
# -----------------------------------------------------------------------------
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="$ROOT/public/media"

W=1280
H=720
FPS=25
DURATION=10
FRAMES=$((FPS * DURATION))

# Size budgets (bytes); the script fails if an output exceeds them.
MAX_MP4=716800    # ~700 KB
MAX_WEBM=614400   # ~600 KB
MAX_JPG=81920     # ~80 KB
MAX_WEBP=51200    # ~50 KB

command -v ffmpeg >/dev/null || { echo "ffmpeg not found (apt-get install -y ffmpeg)" >&2; exit 1; }
command -v ffprobe >/dev/null || { echo "ffprobe not found (apt-get install -y ffmpeg)" >&2; exit 1; }
if [[ -x "$ROOT/node_modules/.bin/node" ]]; then
  NODE="$ROOT/node_modules/.bin/node"
elif command -v node >/dev/null; then
  NODE="$(command -v node)"
else
  echo "node not found (run npm install, or install Node.js)" >&2; exit 1
fi

TMP="$(mktemp -d "${TMPDIR:-/tmp}/hero-media.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$OUT"

# ---------------------------------------------------------------------------
# Frame renderer (writes W*H*3 bytes of RGB24 per frame to stdout).
# ---------------------------------------------------------------------------
cat >"$TMP/render.mjs" <<'JS'
const [W, H, FPS, FRAMES] = process.argv.slice(2).map(Number);
const TAU = Math.PI * 2;

// Deterministic PRNG (mulberry32), so every run renders the same clip.
let seed = 0x5eed1e;
const rnd = () => {
  seed |= 0; seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const mix = (a, b, t) => a + (b - a) * t;
const clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, v));

// --- Camera: ground plane y=0, eye at height CAM_H looking along +z. ---
// Resolution-independent: everything is expressed relative to W and H.
const HORIZON = H * 0.3;
const CAM_H = 1;
const F = (H - HORIZON) * 1.12; // z=1.12 sits on the bottom edge
const PX = H / 720; // pixel scale for widths and glows
const Z_FAR = 22;
const project = (x, y, z) => [W / 2 + (F * x) / z, HORIZON + (F * (CAM_H - y)) / z];
// Distance haze: the network dissolves smoothly before reaching the horizon.
const fog = (z) => Math.exp(-(z - 1.2) / 7) * clamp((Z_FAR - z) / 8, 0, 1);
const zScale = (z) => clamp(1.8 / z, 0.45, 1.4);

// --- Colours (0..1, sRGB-ish, additive). ---
const SKY_TOP = [0.006, 0.02, 0.055];
const HAZE = [0.04, 0.11, 0.24];
const GROUND_NEAR = [0.006, 0.024, 0.06];
const LINE = [0.16, 0.45, 0.95];
const MAIN = [0.28, 0.64, 1.0];
const PULSE = [0.72, 0.9, 1.0];
const AMBER = [0.95, 0.72, 0.1]; // the brand yellow (#f2b705), used sparingly

// --- Float RGB accumulation buffers. ---
const N = W * H;
const base = new Float32Array(N * 3);
const buf = new Float32Array(N * 3);

function drawBlob(dst, cx, cy, sigma, col, amp) {
  const pad = sigma * 3;
  const minX = Math.max(0, Math.floor(cx - pad)), maxX = Math.min(W - 1, Math.ceil(cx + pad));
  const minY = Math.max(0, Math.floor(cy - pad)), maxY = Math.min(H - 1, Math.ceil(cy + pad));
  const inv = 1 / (sigma * sigma);
  for (let y = minY; y <= maxY; y++) {
    const dy = y + 0.5 - cy;
    for (let x = minX; x <= maxX; x++) {
      const dx = x + 0.5 - cx;
      const v = amp * Math.exp(-(dx * dx + dy * dy) * inv);
      if (v < 0.0006) continue;
      const o = (y * W + x) * 3;
      dst[o] += col[0] * v; dst[o + 1] += col[1] * v; dst[o + 2] += col[2] * v;
    }
  }
}

// Anti-aliased glowing 3D segment a->b ({x,y,z}), with perspective-correct depth haze.
function drawSegment(dst, a, b, col, amp, width, glowW, glowAmp) {
  if (a.z > Z_FAR && b.z > Z_FAR) return;
  const [x0, y0] = project(a.x, a.y, a.z), [x1, y1] = project(b.x, b.y, b.z);
  const gmax = glowW * PX * 1.4;
  const pad = gmax * 2.6 + 2;
  const minX = Math.max(0, Math.floor(Math.min(x0, x1) - pad)), maxX = Math.min(W - 1, Math.ceil(Math.max(x0, x1) + pad));
  const minY = Math.max(0, Math.floor(Math.min(y0, y1) - pad)), maxY = Math.min(H - 1, Math.ceil(Math.max(y0, y1) + pad));
  if (minX > maxX || minY > maxY) return;
  const vx = x1 - x0, vy = y1 - y0, L2 = vx * vx + vy * vy || 1e-6;
  const iza = 1 / a.z, izb = 1 / b.z;
  for (let y = minY; y <= maxY; y++) {
    for (let x = minX; x <= maxX; x++) {
      const px = x + 0.5 - x0, py = y + 0.5 - y0;
      const t = clamp((px * vx + py * vy) / L2, 0, 1);
      const ex = px - t * vx, ey = py - t * vy;
      const d2 = ex * ex + ey * ey;
      if (d2 > pad * pad) continue;
      const z = 1 / mix(iza, izb, t);
      const f = fog(z);
      if (f < 0.004) continue;
      const s = zScale(z) * PX;
      const w = Math.max(0.55, width * s), g = glowW * s;
      // Thin cores below one pixel keep their energy (area ~ width) instead of vanishing.
      const core = Math.exp(-d2 / (w * w)) * Math.min(1, (width * s) / 0.55);
      const v = amp * f * (core + glowAmp * Math.exp(-d2 / (g * g)));
      if (v < 0.0006) continue;
      const o = (y * W + x) * 3;
      dst[o] += col[0] * v; dst[o + 1] += col[1] * v; dst[o + 2] += col[2] * v;
    }
  }
}

// ---------------------------------------------------------------------------
// Scene: a distribution mesh on the ground, plus one overhead transmission line.
// ---------------------------------------------------------------------------
const DX = 0.62, DZ = 0.55;
const Z0 = 1.0, ROWS = Math.ceil((Z_FAR - Z0) / DZ) + 1;
const HALF_W = ((W / 2) * Z_FAR) / F; // visible half-width at Z_FAR
const COLS = 2 * Math.ceil(HALF_W / DX) + 1;
const X0 = -((COLS - 1) / 2) * DX;
const nodes = [];
const idx = (c, r) => r * COLS + c;
for (let r = 0; r < ROWS; r++) for (let c = 0; c < COLS; c++) {
  nodes.push({ x: X0 + c * DX + (rnd() - 0.5) * 0.7 * DX, y: 0, z: Z0 + r * DZ + (rnd() - 0.5) * 0.6 * DZ, deg: 0, hub: false });
}
const visible = (n) => Math.abs(project(n.x, 0, n.z)[0] - W / 2) < W / 2 + 80 && n.z < Z_FAR;

const edges = new Map();
const addEdge = (a, b, main = false) => {
  const key = a < b ? `${a}-${b}` : `${b}-${a}`;
  const e = edges.get(key);
  if (e) { e.main ||= main; return; }
  edges.set(key, { a, b, main });
  nodes[a].deg++; nodes[b].deg++;
};
for (let r = 0; r < ROWS; r++) for (let c = 0; c < COLS; c++) {
  if (c + 1 < COLS && rnd() < 0.62) addEdge(idx(c, r), idx(c + 1, r));
  if (r + 1 < ROWS && rnd() < 0.55) addEdge(idx(c, r), idx(c, r + 1));
  if (c + 1 < COLS && r + 1 < ROWS && rnd() < 0.1) addEdge(idx(c, r), idx(c + 1, r + 1));
  if (c > 0 && r + 1 < ROWS && rnd() < 0.08) addEdge(idx(c, r), idx(c - 1, r + 1));
}

// Paths along which light pulses travel. A path is a list of 3D points.
const paths = [];
const makePath = (pts, kind) => {
  const cum = [0];
  for (let i = 1; i < pts.length; i++) cum.push(cum[i - 1] + Math.hypot(pts[i].x - pts[i - 1].x, pts[i].y - pts[i - 1].y, pts[i].z - pts[i - 1].z));
  const p = { pts, cum, len: cum[cum.length - 1], kind };
  paths.push(p);
  return p;
};
// Random walks over the grid, biased in one direction: the brighter "feeders".
const walk = (c, r, steps, bias) => {
  const ids = [idx(c, r)];
  for (let s = 0; s < steps * 3 && ids.length <= steps; s++) {
    let d = bias;
    if (rnd() < 0.4) d = [[1, 0], [-1, 0], [0, 1], [0, -1]][Math.floor(rnd() * 4)];
    const nc = c + d[0], nr = r + d[1];
    if (nc < 0 || nc >= COLS || nr < 0 || nr >= ROWS || ids.includes(idx(nc, nr))) continue;
    c = nc; r = nr; ids.push(idx(c, r));
  }
  return ids;
};
const mid = (COLS - 1) / 2;
const feeders = [
  [mid - 3, 0, [0, 1], 12], [mid + 1, 0, [0, 1], 12], [mid - 8, 1, [1, 0], 12], [mid + 9, 2, [-1, 0], 12],
  [mid - 1, 6, [-1, 0], 12], [mid + 3, 9, [1, 0], 12], [mid - 14, 3, [0, 1], 12], [mid + 6, 4, [0, 1], 12],
  [mid - 5, 12, [1, 0], 12], [mid + 12, 8, [-1, 0], 12], [mid - 10, 7, [1, 0], 10], [mid + 2, 3, [1, 0], 10],
  [mid - 6, 2, [-1, 0], 10], [mid + 8, 14, [-1, 0], 12], [mid - 18, 10, [1, 0], 12], [mid - 2, 16, [1, 0], 12],
  [mid - 7, 1, [1, 0], 10], [mid + 5, 2, [-1, 0], 10],
];
for (const [c, r, bias, steps] of feeders) {
  const ids = walk(Math.round(c), r, steps, bias);
  if (ids.length < 4) continue;
  for (let i = 0; i + 1 < ids.length; i++) addEdge(ids[i], ids[i + 1], true);
  nodes[ids[0]].hub = true;
  ids.forEach((id, i) => { if (i % 5 === 4) nodes[id].hub = true; });
  makePath(ids.map((i) => nodes[i]), 'feeder');
}

// Overhead line: stylised lattice pylons marching towards the horizon on the right.
const PYLON_X = 1.55, PYLON_Z0 = 1.9, SPAN = 1.9, PYLONS = 11;
const ARMS = [{ h: 0.6, w: 0.2 }, { h: 0.75, w: 0.14 }];
const pylonSegs = [];
const wires = []; // one wire per arm tip side: list of 3D points
ARMS.forEach(() => { wires.push([], []); });
for (let k = 0; k < PYLONS; k++) {
  const z = PYLON_Z0 + k * SPAN, x = PYLON_X + k * 0.06; // slight drift reads as a gentle curve
  const P = (dx, h) => ({ x: x + dx, y: h, z });
  const legs = [[-0.1, 0], [-0.025, 0.86]], legs2 = [[0.1, 0], [0.025, 0.86]];
  pylonSegs.push([P(legs[0][0], 0), P(legs[1][0], 0.86)], [P(legs2[0][0], 0), P(legs2[1][0], 0.86)]);
  // lattice cross-bracing
  const lv = [0, 0.2, 0.38, 0.52, 0.6];
  for (let i = 0; i + 1 < lv.length; i++) {
    const wAt = (h) => mix(0.1, 0.025, h / 0.86);
    pylonSegs.push([P(-wAt(lv[i]), lv[i]), P(wAt(lv[i + 1]), lv[i + 1])], [P(wAt(lv[i]), lv[i]), P(-wAt(lv[i + 1]), lv[i + 1])]);
  }
  pylonSegs.push([P(-0.025, 0.86), P(0, 0.93)], [P(0.025, 0.86), P(0, 0.93)]);
  ARMS.forEach((a, i) => {
    pylonSegs.push([P(-a.w, a.h), P(a.w, a.h)], [P(-a.w, a.h), P(-0.03, a.h + 0.06)], [P(a.w, a.h), P(0.03, a.h + 0.06)]);
    wires[2 * i].push(P(-a.w, a.h - 0.04));
    wires[2 * i + 1].push(P(a.w, a.h - 0.04));
  });
}
// Sagging wires (parabolic catenary approximation), as dense 3D polylines.
const wirePolys = wires.map((tips) => {
  const pts = [];
  for (let k = 0; k + 1 < tips.length; k++) {
    const a = tips[k], b = tips[k + 1];
    const n = 14;
    for (let i = 0; i < n; i++) {
      const t = i / n;
      pts.push({ x: mix(a.x, b.x, t), y: mix(a.y, b.y, t) - 0.12 * 4 * t * (1 - t), z: mix(a.z, b.z, t) });
    }
  }
  pts.push(tips[tips.length - 1]);
  return pts;
});
wirePolys.forEach((pts, i) => { if (i % 2 === 0 || i === 3) makePath(pts, 'wire'); });

// --- Static layer: background, mesh, nodes, pylons, wires. ---
for (let y = 0; y < H; y++) {
  for (let x = 0; x < W; x++) {
    const o = (y * W + x) * 3;
    let c;
    if (y < HORIZON) {
      const t = Math.pow(y / HORIZON, 2.4);
      c = [0, 1, 2].map((k) => mix(SKY_TOP[k], HAZE[k], t));
    } else {
      const t = Math.pow((y - HORIZON) / (H - HORIZON), 0.5);
      c = [0, 1, 2].map((k) => mix(HAZE[k], GROUND_NEAR[k], t));
    }
    const dy = (y - HORIZON) / (H * 0.06), dx = (x - W / 2) / (W * 0.5);
    const glow = Math.exp(-dy * dy) * Math.exp(-dx * dx) * 0.05;
    const vx = (x / W - 0.5) * 2, vy = (y / H - 0.5) * 2;
    const vig = 1 - 0.4 * Math.min(1, vx * vx * 0.55 + vy * vy * 0.45);
    base[o] = (c[0] + glow * 0.3) * vig;
    base[o + 1] = (c[1] + glow * 0.7) * vig;
    base[o + 2] = (c[2] + glow) * vig;
  }
}
for (const e of edges.values()) {
  const a = nodes[e.a], b = nodes[e.b];
  if (!visible(a) && !visible(b)) continue;
  if (e.main) drawSegment(base, a, b, MAIN, 0.3, 0.8, 4, 0.2);
  else drawSegment(base, a, b, LINE, 0.17, 0.6, 3, 0.12);
}
const hubs = [];
for (const n of nodes) {
  if (n.deg === 0 || !visible(n)) continue;
  const [sx, sy] = project(n.x, 0, n.z);
  const s = zScale(n.z) * PX, f = fog(n.z);
  drawBlob(base, sx, sy, 1.1 * s + 0.4, MAIN, (n.hub ? 0.5 : 0.25) * f);
  if (n.hub) hubs.push({ sx, sy, s, f, ph: rnd(), m: 1 + Math.floor(rnd() * 2), amber: rnd() < 0.2 });
}
for (const [a, b] of pylonSegs) drawSegment(base, a, b, LINE, 0.22, 0.55, 2.5, 0.15);
for (const pts of wirePolys) for (let i = 0; i + 1 < pts.length; i++) drawSegment(base, pts[i], pts[i + 1], MAIN, 0.2, 0.5, 2.5, 0.15);
// Warning lights on pylon tops (breathing, see frame loop).
const beacons = [];
for (let k = 0; k < PYLONS; k++) {
  const z = PYLON_Z0 + k * SPAN;
  const [sx, sy] = project(PYLON_X + k * 0.06, 0.95, z);
  beacons.push({ sx, sy, s: zScale(z) * PX, f: fog(z), ph: k / PYLONS });
}

// --- Pulses: u = frac(phase + cycles * t/T); the envelope is 0 at u=0 and u=1,
// so every pulse re-enters invisibly and frame FRAMES would equal frame 0. ---
const pulses = [];
paths.forEach((p, i) => {
  const count = p.kind === 'wire' ? 2 : 2;
  for (let k = 0; k < count; k++) {
    pulses.push({ p, ph: (k / count + 0.23 * i) % 1, cycles: 1, amber: p.kind === 'feeder' && i % 5 === 2 && k === 0 });
  }
});
function pointAt(p, s) {
  s = clamp(s, 0, p.len);
  let i = 1;
  while (i < p.cum.length - 1 && p.cum[i] < s) i++;
  const a = p.pts[i - 1], b = p.pts[i];
  const t = (s - p.cum[i - 1]) / (p.cum[i] - p.cum[i - 1] || 1);
  return { x: mix(a.x, b.x, t), y: mix(a.y, b.y, t), z: mix(a.z, b.z, t) };
}

// Large, slowly drifting colour fields (separable Gaussians: cheap per frame).
const fields = [
  { cx: 0.28, cy: 0.32, rx: 0.1, ry: 0.06, sx: 0.4, sy: 0.3, col: [0.015, 0.09, 0.26], amp: 0.5, ph: 0.0 },
  { cx: 0.75, cy: 0.5, rx: 0.08, ry: 0.08, sx: 0.34, sy: 0.36, col: [0.02, 0.08, 0.22], amp: 0.45, ph: 0.45 },
];
const gx = new Float32Array(W), gy = new Float32Array(H);

// Static dither (identical every frame, so it costs ~nothing in inter frames).
const dither = new Float32Array(N);
for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
  let h = Math.imul((x * 73856093) ^ (y * 19349663), 0x27d4eb2d); h ^= h >>> 15;
  dither[y * W + x] = ((h >>> 0) / 4294967296 - 0.5) * 0.9;
}

const out = Buffer.alloc(N * 3);
const tone = (v) => (v < 0.6 ? v : 0.6 + 0.4 * (1 - Math.exp(-(v - 0.6) / 0.4))); // soft shoulder

for (let fi = 0; fi < FRAMES; fi++) {
  const ph = fi / FRAMES; // loop phase 0..1
  buf.set(base);

  for (const fl of fields) {
    const a = TAU * (ph + fl.ph);
    const cx = (fl.cx + fl.rx * Math.cos(a)) * W, cy = (fl.cy + fl.ry * Math.sin(a)) * H;
    const sx = fl.sx * W, sy = fl.sy * H;
    for (let x = 0; x < W; x++) { const d = (x - cx) / sx; gx[x] = Math.exp(-d * d); }
    for (let y = 0; y < H; y++) { const d = (y - cy) / sy; gy[y] = fl.amp * Math.exp(-d * d); }
    for (let y = 0; y < H; y++) {
      const vy = gy[y];
      if (vy < 0.002) continue;
      let o = y * W * 3;
      for (let x = 0; x < W; x++, o += 3) {
        const v = vy * gx[x];
        buf[o] += fl.col[0] * v; buf[o + 1] += fl.col[1] * v; buf[o + 2] += fl.col[2] * v;
      }
    }
  }

  for (const h of hubs) {
    const b = 0.5 + 0.5 * Math.sin(TAU * (h.m * ph + h.ph));
    const col = h.amber ? AMBER : PULSE;
    drawBlob(buf, h.sx, h.sy, 1.3 * h.s + 0.5, col, (0.15 + 0.35 * b) * h.f);
    drawBlob(buf, h.sx, h.sy, 8 * h.s + 2, col, 0.04 * b * h.f);
  }
  for (const bc of beacons) {
    const b = Math.pow(0.5 + 0.5 * Math.sin(TAU * (2 * ph - bc.ph)), 3);
    drawBlob(buf, bc.sx, bc.sy, 1.2 * bc.s + 0.5, AMBER, (0.1 + 0.45 * b) * bc.f);
    drawBlob(buf, bc.sx, bc.sy, 7 * bc.s + 2, AMBER, 0.05 * b * bc.f);
  }

  for (const pu of pulses) {
    const u = (pu.ph + pu.cycles * ph) % 1;
    const env = Math.pow(Math.sin(Math.PI * u), 1.5);
    if (env < 0.01) continue;
    const s = u * pu.p.len;
    const col = pu.amber ? AMBER : PULSE;
    const trail = pu.p.kind === 'wire' ? 0.9 : 0.7;
    const head = pointAt(pu.p, s);
    if (head.z > Z_FAR) continue;
    const [hx, hy] = project(head.x, head.y, head.z);
    // Trail sampled densely enough in screen space to read as a smooth streak.
    const tail = pointAt(pu.p, s - trail);
    const [tx, ty] = project(tail.x, tail.y, tail.z);
    const n = clamp(Math.ceil(Math.hypot(hx - tx, hy - ty) / (0.8 * PX)), 6, 400);
    for (let k = n; k >= 0; k--) {
      const sk = s - (trail * k) / n;
      if (sk < 0) continue;
      const p = pointAt(pu.p, sk);
      const [sx, sy] = project(p.x, p.y, p.z);
      const sc = zScale(p.z) * PX, f = fog(p.z);
      const w = Math.pow(1 - k / (n + 1), 2.2);
      drawBlob(buf, sx, sy, 1.1 * sc + 0.5, col, 0.14 * env * w * f);
    }
    const sc = zScale(head.z) * PX, f = fog(head.z);
    drawBlob(buf, hx, hy, 1.8 * sc + 0.7, col, 0.7 * env * f);
    drawBlob(buf, hx, hy, 5 * sc + 1.5, col, 0.18 * env * f);
    drawBlob(buf, hx, hy, 16 * sc + 4, col, 0.1 * env * f);
  }

  for (let i = 0, o = 0; i < N; i++, o += 3) {
    const d = dither[i];
    out[o] = clamp(Math.round(tone(buf[o]) * 255 + d), 0, 255);
    out[o + 1] = clamp(Math.round(tone(buf[o + 1]) * 255 + d), 0, 255);
    out[o + 2] = clamp(Math.round(tone(buf[o + 2]) * 255 + d), 0, 255);
  }
  if (!process.stdout.write(out)) await new Promise((r) => process.stdout.once('drain', r));
}
JS

echo "Rendering $FRAMES frames (${W}x${H} @ ${FPS} fps)..." >&2
"$NODE" "$TMP/render.mjs" "$W" "$H" "$FPS" "$FRAMES" |
  ffmpeg -hide_banner -loglevel error -y \
    -f rawvideo -pix_fmt rgb24 -s "${W}x${H}" -r "$FPS" -i - \
    -c:v ffv1 -pix_fmt bgr0 "$TMP/master.mkv"

# RGB -> BT.709 limited-range YUV, tagged, so browsers show the intended colours.
YUV="scale=out_color_matrix=bt709:out_range=tv,format=yuv420p"
TAGS=(-colorspace bt709 -color_primaries bt709 -color_trc bt709 -color_range tv)

# One keyframe per loop (-g = clip length): the only I-frame is the loop point, so
# there is no periodic "keyframe pop" mid-clip; the clip is never seeked anyway.
echo "Encoding hero.mp4 (H.264)..." >&2
ffmpeg -hide_banner -loglevel error -y -i "$TMP/master.mkv" -vf "$YUV" \
  -c:v libx264 -preset veryslow -profile:v high -level 4.0 -crf 21 \
  -maxrate 800k -bufsize 1600k -x264-params aq-mode=3:aq-strength=0.9 \
  -g "$FRAMES" "${TAGS[@]}" -an -sn -dn -map_metadata -1 -movflags +faststart \
  "$OUT/hero.mp4"

echo "Encoding hero.webm (VP9, 2-pass)..." >&2
VP9=(-c:v libvpx-vp9 -b:v 0 -crf 24 -row-mt 1 -tile-columns 1
     -g "$FRAMES" -auto-alt-ref 1 -lag-in-frames 25 "${TAGS[@]}")
ffmpeg -hide_banner -loglevel error -y -i "$TMP/master.mkv" -vf "$YUV" "${VP9[@]}" \
  -pass 1 -passlogfile "$TMP/vp9" -speed 4 -an -f null /dev/null
ffmpeg -hide_banner -loglevel error -y -i "$TMP/master.mkv" -vf "$YUV" "${VP9[@]}" \
  -pass 2 -passlogfile "$TMP/vp9" -speed 1 -an -sn -dn -map_metadata -1 \
  "$OUT/hero.webm"

echo "Writing posters (first frame)..." >&2
ffmpeg -hide_banner -loglevel error -y -i "$TMP/master.mkv" -frames:v 1 \
  -vf "scale=out_color_matrix=bt601:out_range=pc,format=yuvj420p" -q:v 3 "$OUT/hero-poster.jpg"
ffmpeg -hide_banner -loglevel error -y -i "$TMP/master.mkv" -frames:v 1 \
  -c:v libwebp -quality 80 -compression_level 6 -preset picture "$OUT/hero-poster.webp"

# Sanity checks: sizes within budget, no audio stream.
fail=0
check_size() {
  local f="$1" max="$2" size
  size=$(stat -c %s "$f")
  printf '  %-18s %8d bytes (max %d)\n' "$(basename "$f")" "$size" "$max" >&2
  if ((size > max)); then echo "  ^ over budget" >&2; fail=1; fi
}
check_size "$OUT/hero.mp4" "$MAX_MP4"
check_size "$OUT/hero.webm" "$MAX_WEBM"
check_size "$OUT/hero-poster.jpg" "$MAX_JPG"
check_size "$OUT/hero-poster.webp" "$MAX_WEBP"
for f in "$OUT/hero.mp4" "$OUT/hero.webm"; do
  if [[ -n "$(ffprobe -v error -select_streams a -show_entries stream=index -of csv=p=0 "$f")" ]]; then
    echo "  $(basename "$f") has an audio stream" >&2; fail=1
  fi
done
exit "$fail"
