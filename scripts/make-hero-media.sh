#!/usr/bin/env bash
# -----------------------------------------------------------------------------
# make-hero-media.sh — generates the home page hero video and its poster.
#
# What it makes (in public/media/):
#   hero.mp4          H.264 (High, yuv420p, +faststart), 1280x720, 25 fps, 8 s, no audio
#   hero.webm         VP9 (yuv420p), same content, no audio
#   hero-poster.jpg   first frame of the clip, 1280x720
#   hero-poster.webp  same frame as WebP
#
# What the clip shows: a calm, dark-blue night view of a stylised electricity
# distribution network laid out on a ground plane that recedes towards a soft
# horizon glow — a mesh of thin blue lines with substation nodes, brighter
# "backbone" lines, small pylons, and soft pulses of light travelling along the
# lines. Every moving element has a period that divides the clip length, so the
# last frame flows seamlessly into the first. No text, no logos, no audio.
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
# Takes about a minute. Re-running overwrites the four files.
# -----------------------------------------------------------------------------
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="$ROOT/public/media"

W=1280
H=720
FPS=25
SECONDS_LONG=8
FRAMES=$((FPS * SECONDS_LONG))

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
const T = FRAMES / FPS; // loop length in seconds
const TAU = Math.PI * 2;

// Deterministic PRNG (mulberry32).
let seed = 0x5eed1e;
const rnd = () => {
  seed |= 0; seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

// --- Camera: ground plane y=0, camera at height CAM_H looking towards +z. ---
const HORIZON = Math.round(H * 0.34);
const CAM_H = 1;
const F = (H - HORIZON + 90) / 1.0; // so that z=1 lands a bit below the frame
const Z_NEAR = 0.9, Z_FAR = 15;
const project = (x, z, y = 0) => [W / 2 + (F * x) / z, HORIZON + (F * (CAM_H - y)) / z];
// Distance fade: lines dissolve into the haze well before the horizon.
const fog = (z) => Math.exp(-(z - 1) / 4.2) * Math.min(1, Math.max(0, (Z_FAR - z) / 4));

// --- Network: jittered grid of nodes on the ground plane. ---
const DX = 1.35, DZ = 1.1;
const COLS = 29, ROWS = 14;
const X0 = -((COLS - 1) / 2) * DX, Z0 = 1.05;
const nodes = [];
const idx = (c, r) => r * COLS + c;
for (let r = 0; r < ROWS; r++) {
  for (let c = 0; c < COLS; c++) {
    nodes.push({
      x: X0 + c * DX + (rnd() - 0.5) * 0.75 * DX,
      z: Z0 + r * DZ + (rnd() - 0.5) * 0.6 * DZ,
      c, r, deg: 0, hub: false,
    });
  }
}
const edges = [];
const edgeSet = new Set();
const addEdge = (a, b, main = false) => {
  const key = a < b ? `${a}-${b}` : `${b}-${a}`;
  if (edgeSet.has(key)) {
    if (main) edges.find((e) => e.key === key).main = true;
    return;
  }
  edgeSet.add(key);
  edges.push({ a, b, key, main });
  nodes[a].deg++; nodes[b].deg++;
};
for (let r = 0; r < ROWS; r++) {
  for (let c = 0; c < COLS; c++) {
    if (c + 1 < COLS && rnd() < 0.72) addEdge(idx(c, r), idx(c + 1, r));
    if (r + 1 < ROWS && rnd() < 0.62) addEdge(idx(c, r), idx(c, r + 1));
    if (c + 1 < COLS && r + 1 < ROWS && rnd() < 0.16) addEdge(idx(c, r), idx(c + 1, r + 1));
    if (c > 0 && r + 1 < ROWS && rnd() < 0.12) addEdge(idx(c, r), idx(c - 1, r + 1));
  }
}

// Backbone paths: random walks that mostly head away from the camera or sideways.
// Pulses travel along these (and along a few shorter feeder walks).
const paths = [];
const walk = (c, r, steps, dirBias) => {
  const pts = [idx(c, r)];
  let dir = dirBias;
  for (let s = 0; s < steps; s++) {
    if (rnd() < 0.35) dir = [[1, 0], [-1, 0], [0, 1], [0, -1]][Math.floor(rnd() * 4)];
    if (rnd() < 0.5) dir = dirBias;
    const nc = c + dir[0], nr = r + dir[1];
    if (nc < 0 || nc >= COLS || nr < 0 || nr >= ROWS) break;
    if (pts.includes(idx(nc, nr))) continue;
    c = nc; r = nr;
    pts.push(idx(c, r));
  }
  return pts;
};
const mkPath = (ids, main) => {
  for (let i = 0; i + 1 < ids.length; i++) addEdge(ids[i], ids[i + 1], main);
  const pts = ids.map((i) => nodes[i]);
  const cum = [0];
  for (let i = 1; i < pts.length; i++) cum.push(cum[i - 1] + Math.hypot(pts[i].x - pts[i - 1].x, pts[i].z - pts[i - 1].z));
  return { pts, cum, len: cum[cum.length - 1], main };
};
const backboneStarts = [[9, 0, [0, 1]], [19, 0, [0, 1]], [14, 0, [0, 1]], [2, 2, [1, 0]], [26, 1, [-1, 0]], [6, 5, [1, 0]], [22, 6, [-1, 0]]];
for (const [c, r, d] of backboneStarts) {
  const ids = walk(c, r, 16, d);
  if (ids.length < 3) continue;
  const p = mkPath(ids, true);
  paths.push(p);
  for (const n of p.pts) if (rnd() < 0.3) n.hub = true;
  p.pts[0].hub = true;
}
for (let k = 0; k < 10; k++) {
  const c = 3 + Math.floor(rnd() * (COLS - 6)), r = Math.floor(rnd() * 6);
  const dirs = [[1, 0], [-1, 0], [0, 1]];
  const ids = walk(c, r, 7, dirs[k % 3]);
  if (ids.length >= 3) paths.push(mkPath(ids, false));
}

// --- Float RGB accumulation buffers. ---
const N = W * H;
const base = new Float32Array(N * 3);
const buf = new Float32Array(N * 3);

// Colours (0..1, roughly sRGB).
const SKY_TOP = [0.008, 0.024, 0.063];
const SKY_HOR = [0.035, 0.105, 0.235];
const GROUND_HOR = [0.03, 0.085, 0.19];
const GROUND_NEAR = [0.008, 0.027, 0.066];
const LINE = [0.16, 0.45, 0.95];
const MAIN = [0.3, 0.68, 1.0];
const PULSE = [0.7, 0.9, 1.0];
const AMBER = [0.95, 0.72, 0.1]; // brand yellow (#f2b705), used sparingly

const smooth = (e0, e1, x) => { const t = Math.min(1, Math.max(0, (x - e0) / (e1 - e0))); return t * t * (3 - 2 * t); };
const mix = (a, b, t) => a + (b - a) * t;

// Background: sky gradient, horizon haze, dark ground; vignette.
for (let y = 0; y < H; y++) {
  for (let x = 0; x < W; x++) {
    const o = (y * W + x) * 3;
    let c;
    if (y < HORIZON) {
      const t = Math.pow(y / HORIZON, 2.2);
      c = [0, 1, 2].map((k) => mix(SKY_TOP[k], SKY_HOR[k], t));
    } else {
      const t = Math.pow((y - HORIZON) / (H - HORIZON), 0.55);
      c = [0, 1, 2].map((k) => mix(GROUND_HOR[k], GROUND_NEAR[k], t));
    }
    // Soft horizon glow band, strongest in the centre.
    const dy = (y - HORIZON) / (H * 0.07);
    const dx = (x - W / 2) / (W * 0.55);
    const glow = Math.exp(-dy * dy) * Math.exp(-dx * dx) * 0.07;
    // Vignette.
    const vx = (x / W - 0.5) * 2, vy = (y / H - 0.5) * 2;
    const vig = 1 - 0.35 * Math.min(1, (vx * vx * 0.6 + vy * vy * 0.5));
    base[o] = (c[0] + glow * 0.35) * vig;
    base[o + 1] = (c[1] + glow * 0.75) * vig;
    base[o + 2] = (c[2] + glow * 1.0) * vig;
  }
}

// Anti-aliased glowing segment between two ground points, drawn into `dst`.
function drawSegment(dst, ax, az, bx, bz, col, amp, width, glowW, glowAmp, ya = 0, yb = 0) {
  const [x0, y0] = project(ax, az, ya), [x1, y1] = project(bx, bz, yb);
  const pad = glowW * 3 + 2;
  const minX = Math.max(0, Math.floor(Math.min(x0, x1) - pad)), maxX = Math.min(W - 1, Math.ceil(Math.max(x0, x1) + pad));
  const minY = Math.max(0, Math.floor(Math.min(y0, y1) - pad)), maxY = Math.min(H - 1, Math.ceil(Math.max(y0, y1) + pad));
  if (minX > maxX || minY > maxY) return;
  const vx = x1 - x0, vy = y1 - y0, L2 = vx * vx + vy * vy || 1e-6;
  const iza = 1 / az, izb = 1 / bz;
  for (let y = minY; y <= maxY; y++) {
    for (let x = minX; x <= maxX; x++) {
      const px = x + 0.5 - x0, py = y + 0.5 - y0;
      const t = Math.min(1, Math.max(0, (px * vx + py * vy) / L2));
      const ex = px - t * vx, ey = py - t * vy;
      const d2 = ex * ex + ey * ey;
      const z = 1 / mix(iza, izb, t); // perspective-correct depth along the segment
      const f = fog(z);
      if (f < 0.003) continue;
      const scale = Math.min(1.6, Math.max(0.55, 1.6 / z));
      const w = width * scale, g = glowW * scale;
      const v = amp * f * (Math.exp(-d2 / (w * w)) + glowAmp * Math.exp(-d2 / (g * g)));
      if (v < 0.0008) continue;
      const o = (y * W + x) * 3;
      dst[o] += col[0] * v; dst[o + 1] += col[1] * v; dst[o + 2] += col[2] * v;
    }
  }
}

// Soft radial blob (screen space).
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
      if (v < 0.0008) continue;
      const o = (y * W + x) * 3;
      dst[o] += col[0] * v; dst[o + 1] += col[1] * v; dst[o + 2] += col[2] * v;
    }
  }
}

// Static network.
for (const e of edges) {
  const a = nodes[e.a], b = nodes[e.b];
  if (Math.max(a.z, b.z) > Z_FAR) continue;
  if (e.main) drawSegment(base, a.x, a.z, b.x, b.z, MAIN, 0.3, 0.9, 4.5, 0.22);
  else drawSegment(base, a.x, a.z, b.x, b.z, LINE, 0.16, 0.7, 3.5, 0.15);
}
// Nodes, and small pylons (a vertical mast with a cross-arm) at hub nodes.
const hubs = [];
for (const n of nodes) {
  if (n.deg === 0 || n.z > Z_FAR) continue;
  const [sx, sy] = project(n.x, n.z);
  const s = Math.min(1.6, 1.6 / n.z);
  const f = fog(n.z);
  drawBlob(base, sx, sy, 1.3 * s + 0.5, MAIN, 0.35 * f);
  if (n.hub) {
    const hgt = 0.22;
    const [tx, ty] = project(n.x, n.z, hgt);
    // mast
    const steps = Math.max(2, Math.ceil(sy - ty));
    for (let i = 0; i <= steps; i++) drawBlob(base, sx, sy + (ty - sy) * (i / steps), 0.55 * s + 0.35, LINE, 0.09 * f);
    // cross-arm
    const arm = (0.07 * F) / n.z;
    const aSteps = Math.max(2, Math.ceil(arm * 2));
    for (let i = 0; i <= aSteps; i++) drawBlob(base, tx - arm + (2 * arm * i) / aSteps, ty + 1.5 * s, 0.5 * s + 0.35, LINE, 0.08 * f);
    hubs.push({ sx, sy, tx, ty, s, f, ph: rnd(), m: 1 + Math.floor(rnd() * 2), amber: rnd() < 0.25 });
  }
}

// Pulses: each travels along a path; u = frac(phase + cycles * t / T).
// The brightness envelope is zero at both ends, so the wrap is invisible.
const pulses = [];
paths.forEach((p, i) => {
  const count = p.main ? 2 : 1;
  for (let k = 0; k < count; k++) {
    pulses.push({ p, ph: (k / count + rnd() * 0.3) % 1, cycles: p.main ? 1 : 1 + (i % 2), amber: !p.main && i % 4 === 0 });
  }
});
function pointAt(p, s) {
  s = Math.min(p.len, Math.max(0, s));
  let i = 1;
  while (i < p.cum.length - 1 && p.cum[i] < s) i++;
  const a = p.pts[i - 1], b = p.pts[i];
  const t = (s - p.cum[i - 1]) / (p.cum[i] - p.cum[i - 1] || 1);
  return [mix(a.x, b.x, t), mix(a.z, b.z, t)];
}

// Large, slowly drifting colour fields (separable Gaussians: cheap per frame).
const fields = [
  { cx: 0.25, cy: 0.35, rx: 0.12, ry: 0.08, sx: 0.42, sy: 0.38, col: [0.02, 0.12, 0.32], amp: 0.55, m: 1, ph: 0.0 },
  { cx: 0.78, cy: 0.55, rx: 0.1, ry: 0.1, sx: 0.36, sy: 0.4, col: [0.03, 0.1, 0.28], amp: 0.5, m: 1, ph: 0.4 },
  { cx: 0.5, cy: 0.3, rx: 0.15, ry: 0.04, sx: 0.5, sy: 0.16, col: [0.02, 0.09, 0.2], amp: 0.5, m: 1, ph: 0.7 },
];
const gx = new Float32Array(W), gy = new Float32Array(H);

// Static ordered dither (same every frame, so it costs nothing in inter frames).
const dither = new Float32Array(N);
for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
  let h = Math.imul(x * 73856093 ^ y * 19349663, 0x27d4eb2d); h ^= h >>> 15;
  dither[y * W + x] = ((h >>> 0) / 4294967296 - 0.5) * 0.9;
}

const out = Buffer.alloc(N * 3);
const tone = (v) => (v < 0.6 ? v : 0.6 + 0.4 * (1 - Math.exp(-(v - 0.6) / 0.4))); // soft shoulder

async function writeFrame() {
  if (!process.stdout.write(out)) await new Promise((r) => process.stdout.once('drain', r));
}

for (let fi = 0; fi < FRAMES; fi++) {
  const ph = fi / FRAMES; // 0..1 loop phase
  buf.set(base);

  for (const fl of fields) {
    const a = TAU * (fl.m * ph + fl.ph);
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

  // Breathing substation lights.
  for (const h of hubs) {
    const b = 0.5 + 0.5 * Math.sin(TAU * (h.m * ph + h.ph));
    const col = h.amber ? AMBER : PULSE;
    drawBlob(buf, h.tx, h.ty, 1.2 * h.s + 0.6, col, (0.25 + 0.35 * b) * h.f);
    drawBlob(buf, h.tx, h.ty, 7 * h.s + 2, col, 0.05 * b * h.f);
  }

  // Travelling pulses with a short fading trail.
  for (const pu of pulses) {
    const u = (pu.ph + pu.cycles * ph) % 1;
    const env = Math.pow(Math.sin(Math.PI * u), 1.5);
    if (env < 0.01) continue;
    const s = u * pu.p.len;
    const col = pu.amber ? AMBER : PULSE;
    const TRAIL = 16, ds = 0.05;
    for (let k = TRAIL; k >= 0; k--) {
      const sk = s - k * ds;
      if (sk < 0) continue;
      const [wx, wz] = pointAt(pu.p, sk);
      if (wz > Z_FAR) continue;
      const [sx, sy] = project(wx, wz);
      const sc = Math.min(1.6, 1.6 / wz);
      const f = fog(wz);
      const w = Math.pow(1 - k / (TRAIL + 1), 2);
      drawBlob(buf, sx, sy, 1.5 * sc + 0.6, col, 0.5 * env * w * f);
      if (k === 0) drawBlob(buf, sx, sy, 9 * sc + 2, col, 0.07 * env * f);
    }
  }

  for (let i = 0, o = 0; i < N; i++, o += 3) {
    const d = dither[i];
    out[o] = Math.max(0, Math.min(255, Math.round(tone(buf[o]) * 255 + d)));
    out[o + 1] = Math.max(0, Math.min(255, Math.round(tone(buf[o + 1]) * 255 + d)));
    out[o + 2] = Math.max(0, Math.min(255, Math.round(tone(buf[o + 2]) * 255 + d)));
  }
  await writeFrame();
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

echo "Encoding hero.mp4 (H.264)..." >&2
ffmpeg -hide_banner -loglevel error -y -i "$TMP/master.mkv" -vf "$YUV" \
  -c:v libx264 -preset veryslow -profile:v high -level 4.0 -crf 27 \
  -maxrate 700k -bufsize 1400k -x264-params aq-mode=3:aq-strength=0.9 \
  -g 50 "${TAGS[@]}" -an -sn -dn -map_metadata -1 -movflags +faststart \
  "$OUT/hero.mp4"

echo "Encoding hero.webm (VP9, 2-pass)..." >&2
VP9=(-c:v libvpx-vp9 -crf 36 -b:v 500k -row-mt 1 -tile-columns 1
     -g 100 -auto-alt-ref 1 -lag-in-frames 25 "${TAGS[@]}")
ffmpeg -hide_banner -loglevel error -y -i "$TMP/master.mkv" -vf "$YUV" "${VP9[@]}" \
  -pass 1 -passlogfile "$TMP/vp9" -speed 4 -an -f null /dev/null
ffmpeg -hide_banner -loglevel error -y -i "$TMP/master.mkv" -vf "$YUV" "${VP9[@]}" \
  -pass 2 -passlogfile "$TMP/vp9" -speed 1 -an -sn -dn -map_metadata -1 \
  "$OUT/hero.webm"

echo "Writing posters (first frame)..." >&2
ffmpeg -hide_banner -loglevel error -y -i "$TMP/master.mkv" -frames:v 1 \
  -vf "scale=out_color_matrix=bt709:out_range=pc,format=yuvj420p" -q:v 5 "$OUT/hero-poster.jpg"
ffmpeg -hide_banner -loglevel error -y -i "$TMP/master.mkv" -frames:v 1 \
  -c:v libwebp -quality 72 -compression_level 6 -preset picture "$OUT/hero-poster.webp"

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
