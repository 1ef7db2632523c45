// Baseline for `make bench`: the sinusoidal heatmap of PE-Lab, rebuilt around the same algorithm so
// that the benchmark can drive it exactly like our app (a slider whose input handler recomputes and
// repaints) in the same browser, at the same sizes.
//
// Source of the algorithm (read, not copied; none of their files are in this repository):
//   github.com/AI-Experiri/positional-encoding-lab.github.io @ 0b1079df9fc46d418200dbb2dae35b28227ecf9b
//   - src/lib/utils/positionalEncoding.js: getPositionalEncodingValue + generatePositionalEncodingMatrix
//   - src/lib/components/Sinusoidal.svelte: `matrix = $derived(generate…Matrix(maxPosition, dModel))`,
//     the `$effect` that fills `createImageData(dModel, maxPosition)` cell by cell through
//     `valueToRGB`, then `putImageData(imageData, 0, 0)`; and the `<canvas width={dModel}
//     height={maxPosition} class="w-full" style="aspect-ratio: …; image-rendering: pixelated">`.
//
// What PE-Lab does per redraw, and what this file therefore does too:
//   1. builds the whole table as nested JS arrays: one array per position, filled with `push`, each
//      cell computed on its own as sin/cos(pos / 10000^(2·⌊i/2⌋/d)) (a `Math.pow` per cell, nothing
//      hoisted out of the loops);
//   2. allocates a fresh ImageData of d × n pixels (one pixel per cell), maps every cell through a
//      colour function that returns a new {r, g, b} object (blue → white → red, linear in
//      (v + 1) / 2, channels rounded with Math.round), writes RGBA 255 alpha;
//   3. one putImageData at (0, 0) into a canvas whose backing store is exactly d × n pixels; CSS
//      stretches it to the container width (aspect-ratio d/n, pixelated), so the browser scales it
//      while compositing.
// In PE-Lab itself n = 128 and d = 256 are fixed `$state` (no slider drives the heatmap) and the base
// is the constant 10000. The sliders here are the benchmark's addition, as the issue asks: `#ctl-n`,
// `#ctl-d`, and `#ctl-base` over log10(base) (changing the base only changes the constant in the same
// per-cell formula).
//
// Scheduling mirrors Svelte 5: `bind:value` on a range input writes the state in the `input`
// listener; dependent template updates and effects run together in one flush queued as a microtask,
// template updates (canvas size attributes, axis labels) before the user effect that paints.
//
// Instrumentation, the same contract as our app: on `<figure id="fig-heatmap">`, `data-draw-ms` is
// the time the recompute + redraw took and `data-drawn-at` is performance.now() when it finished.

const query = new URLSearchParams(location.search);

function intParam(name, fallback, lo, hi) {
  const v = Number.parseInt(query.get(name) ?? "", 10);
  return Number.isFinite(v) ? Math.min(hi, Math.max(lo, v)) : fallback;
}

function floatParam(name, fallback, lo, hi) {
  const v = Number.parseFloat(query.get(name) ?? "");
  return Number.isFinite(v) ? Math.min(hi, Math.max(lo, v)) : fallback;
}

// PE-Lab's defaults are n = 128, d = 256; the benchmark always passes the size in the URL.
const state = {
  n: intParam("n", 128, 1, 1024),
  d: intParam("d", 256, 2, 1024),
  base: floatParam("base", 10000, 2, 1e6),
};

// ---------------------------------------------------------------- the algorithm (PE-Lab's, restated)

/** One cell: even columns take the sine, odd columns the cosine, of pos over base^(2·pair/d). */
function cell(pos, col, d, base) {
  const pair = Math.floor(col / 2);
  const theta = pos / Math.pow(base, (2 * pair) / d);
  return col % 2 === 0 ? Math.sin(theta) : Math.cos(theta);
}

/** The table, position-major, as an array of row arrays grown with push. */
function table(n, d, base) {
  const rows = [];
  for (let pos = 0; pos < n; pos++) {
    const row = [];
    for (let col = 0; col < d; col++) row.push(cell(pos, col, d, base));
    rows.push(row);
  }
  return rows;
}

/** Diverging colour for v in [−1, 1]: blue (−1) → white (0) → red (+1), as a fresh object. */
function colour(v) {
  const t = (v + 1) / 2;
  if (t < 0.5) {
    const k = Math.round(t * 2 * 255);
    return { r: k, g: k, b: 255 };
  }
  const k = Math.round((1 - (t - 0.5) * 2) * 255);
  return { r: 255, g: k, b: k };
}

// ---------------------------------------------------------------- the page

const figure = document.getElementById("fig-heatmap");
const canvas = document.getElementById("heatmap");
const labels = {
  n: document.getElementById("ctl-n-out"),
  d: document.getElementById("ctl-d-out"),
  base: document.getElementById("ctl-base-out"),
  lastRow: document.getElementById("last-row"),
  lastCol: document.getElementById("last-col"),
};

/** Template updates: Svelte only writes an attribute or a text node when its value changed. */
function updateTemplate() {
  if (canvas.width !== state.d) canvas.width = state.d;
  if (canvas.height !== state.n) canvas.height = state.n;
  const aspect = `${state.d} / ${state.n}`;
  if (canvas.style.aspectRatio !== aspect) canvas.style.aspectRatio = aspect;
  setText(labels.n, String(state.n));
  setText(labels.d, String(state.d));
  setText(labels.base, String(Math.round(state.base)));
  setText(labels.lastRow, String(state.n - 1));
  setText(labels.lastCol, `dim ${state.d - 1} (slow)`);
}

function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

/** The effect: derive the table, colour every cell into a new ImageData, one putImageData. */
function paint() {
  const { n, d, base } = state;
  const values = table(n, d, base);
  const ctx = canvas.getContext("2d");
  const image = ctx.createImageData(d, n);
  const px = image.data;
  for (let pos = 0; pos < n; pos++) {
    for (let col = 0; col < d; col++) {
      const at = (pos * d + col) * 4;
      const c = colour(values[pos][col]);
      px[at] = c.r;
      px[at + 1] = c.g;
      px[at + 2] = c.b;
      px[at + 3] = 255;
    }
  }
  ctx.putImageData(image, 0, 0);
}

let queued = false;

function flush() {
  queued = false;
  const start = performance.now();
  updateTemplate();
  paint();
  const end = performance.now();
  figure.dataset.drawMs = (end - start).toFixed(3);
  figure.dataset.drawnAt = end.toFixed(3);
}

function schedule() {
  if (!queued) {
    queued = true;
    queueMicrotask(flush);
  }
}

function bindRange(id, read, write) {
  const input = document.getElementById(id);
  input.value = String(read());
  input.addEventListener("input", () => {
    const v = Number(input.value);
    if (Number.isFinite(v) && v !== read()) {
      write(v);
      schedule();
    }
  });
}

bindRange("ctl-n", () => state.n, (v) => (state.n = v));
bindRange("ctl-d", () => state.d, (v) => (state.d = v));
bindRange("ctl-base", () => Math.log10(state.base), (v) => (state.base = Math.pow(10, v)));

schedule();
