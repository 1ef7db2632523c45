#!/usr/bin/env node
// Browser benchmark of the built app (`make bench`): input → figure repainted, in Debian's headless
// Chromium, beside PE-Lab's heatmap algorithm driven the same way; plus the release bundle size.
//
//   node benches/browser/run.mjs [DIST_DIR] [--only=app|pelab] [--figure=ID[,ID…]] [--events=40] [--warmup=5] [--json=FILE]
//
// --figure=ID[,ID…] times only those figures (e.g. fig-heatmap), for a quick look while optimising.
// What runs inside the page is in page.mjs; percentiles, tables and bundle sizes in report.mjs.
// DIST_DIR defaults to <repo>/dist (from `make build`). It is served at `/` and this folder
// at `/__bench/` (PE-Lab baseline: pelab.html + pelab.js) by a small static server on 127.0.0.1.
// Chromium is /usr/bin/chromium (or $CHROMIUM), driven by playwright-core from tests/e2e/node_modules
// (or benches/browser/node_modules); no browser is ever downloaded.
//
// What is measured. For each target (our app, the PE-Lab baseline), each size (the defaults n=100,
// d=128 and the largest n=1024, d=1024, passed in the URL), each figure `figure[id^="fig-"]` and each
// of its controls (`data-controls`: a space-separated list of element ids or radio-group names; the
// heatmap falls back to its known list without it). The figure is first scrolled to the middle of a
// 1280×900 viewport (the app only redraws figures near the viewport), then the page itself runs this
// loop (nothing crosses the DevTools protocol while timing):
//   wait for a frame (requestAnimationFrame, then a task), as a real slider drag delivers at most
//   one input per frame and the previous frame has been produced;
//   t0 = performance.now(); change the control — range: new value + `input`; number/text box: new
//   value + `input` + `change` (the commit on Enter/blur, which is what the app listens to);
//   radio/checkbox: `.click()` (fires input + change); select: next option + input + change;
//   await the figure's `data-drawn-at` > t0 (a MutationObserver on that attribute, so the wait adds
//   no polling granularity; the number is the app's own timestamp, not when we noticed it);
//   latency = data-drawn-at − t0.
// Both timestamps come from the page's performance.now(), so the latency covers the input handler,
// the signal write, the microtask in which the Leptos effects (or the Svelte-style flush of the
// baseline) run — including other figures the same input redraws before this one — the recompute
// and every canvas call up to the end of the redraw. It does not cover compositing/presenting the
// frame: that is outside any page-visible timestamp (requestAnimationFrame would round to the 60 Hz
// vsync), and it is the same for both targets. "page p95" is input → the last figure on the page
// repainted. Numeric values alternate between the starting value and one step away (×4 wider if
// that does not redraw the figure, probed first), text boxes between their text and that text minus
// its last item/word, so every event really changes the figure while the size stays where it was
// asked; the control is set back afterwards (and the page loaded again if that left any other
// control changed: choosing a model preset sets a dozen parameters). The server sends COOP/COEP so
// the page is cross-origin isolated and performance.now() resolves to ~5 µs instead of 100 µs.
//
// It prints a table (p50, p95, max per control, and per figure over all its controls), the bundle size
// (*.wasm, *.js, *.css in DIST_DIR, raw and gzip -9), the speed ratio against PE-Lab, and which budgets
// hold. A benchmark, not a test: exit 0 whatever the numbers; exit 1 if something could not be
// measured (no dist/, page error, failed request, control missing, no redraw within the timeout).
// 40 events per control keep a full run near 2.5 min on 2 cores with the app's ~40 figure×control
// pairs per size; pass --events=60 (or more) for tighter p95s.

import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

import { CHROMIUM_ARGS, serveStatic } from "../../tests/e2e/serve.mjs";
import { benchControl, discoverFigures, timerResolution } from "./page.mjs";
import { bundleSize, distSnapshot, kb, ms, summarize, table } from "./report.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, "../..");

// ---------------------------------------------------------------- configuration

const argv = process.argv.slice(2);
const flag = (name, fallback) => {
  const hit = argv.find((a) => a.startsWith(`--${name}=`));
  return hit ? hit.slice(name.length + 3) : fallback;
};
const DIST = resolve(argv.find((a) => !a.startsWith("--")) ?? join(ROOT, "dist"));
const ONLY = flag("only", "");
const EVENTS = Number(flag("events", "40"));
const WARMUP = Number(flag("warmup", "5"));
const JSON_OUT = flag("json", "");
const FIGURES = flag("figure", "").split(",").filter(Boolean);
if (!["", "app", "pelab"].includes(ONLY) || !(EVENTS > 0) || !(WARMUP >= 0)) {
  console.error("usage: node benches/browser/run.mjs [DIST_DIR] [--only=app|pelab] [--figure=ID[,ID…]] [--events=40] [--warmup=5] [--json=FILE]");
  process.exit(2);
}

// `app` adds the other chapters' largest sizes to the app's URL (chapter 2: head_dim 256 with 4096
// positions, the token cloud at 256 positions; chapter 6: 32 × 32 patches, head_dim 256, random
// q and k); PE-Lab has only chapter 1's n and d.
const SIZES = [
  { key: "defaults", n: 100, d: 128, budget: 8, aim: 4, app: "" },
  { key: "largest", n: 1024, d: 1024, budget: 16, aim: 12, app: "&r.n=4096&r.d=256&r.cn=256&c.d=512&c.T=131072&t.L=2048&t.d=1024&t.n=4096&t.h=64&t.an=512&t.tn=1024&t.sn=128&t.nn=2048&t.nd=1024&m.model=command-a&m.L=1048576&m.p=1048575&v.rows=32&v.cols=32&v.r=16&v.c=16&v.hd=256&v.qk=random&v.tx=12&v.ih=6&v.iw=6&v.vt=4&v.vh=4&v.vw=4&v.ts=16&v.cf=16&v.ch=12&v.cw=12&v.pair=63" },
];
// The reader's clock (every figure in view repainted), p95: one 60 Hz frame at the defaults, two at
// the largest sizes.
const READER_BUDGET = { defaults: 16.7, largest: 33 };
const RATIO_AIM_LARGEST = 5;
// The heatmap's controls when its figure has no data-controls attribute (ids, then radio-group names).
const HEATMAP_FALLBACK = ["ctl-n", "ctl-d", "ctl-base", "ctl-pos", "layout", "spacing"];
const EVENT_TIMEOUT_MS = 5000;
const PROBE_TIMEOUT_MS = 3000; // while finding a value step that redraws (a miss costs this much)
const LOAD_TIMEOUT_MS = 30000;

// ---------------------------------------------------------------- helpers

async function loadChromium() {
  const candidates = [
    join(HERE, "node_modules", "playwright-core", "index.mjs"),
    join(ROOT, "tests", "e2e", "node_modules", "playwright-core", "index.mjs"),
  ];
  for (const path of candidates) {
    if (existsSync(path)) return (await import(pathToFileURL(path).href)).chromium;
  }
  throw new Error("playwright-core not found: run `npm ci --prefix tests/e2e` first");
}

/** Serves `dist` at / and this folder at /__bench/ on 127.0.0.1 at a free port. */
function serve(dist) {
  return serveStatic(
    { "/": dist, "/__bench/": HERE },
    {
      "cache-control": "no-store",
      // Cross-origin isolation: a 5 µs performance.now() instead of 100 µs.
      "cross-origin-opener-policy": "same-origin",
      "cross-origin-embedder-policy": "require-corp",
    },
  );
}


// ---------------------------------------------------------------- driving

async function benchTarget(browser, target, size, problems, log) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const where = `${target.name} ${size.key}`;
  page.on("console", (m) => m.type() === "error" && problems.push(`${where}: console: ${m.text()}`));
  page.on("pageerror", (e) => problems.push(`${where}: pageerror: ${e.message}`));
  page.on("requestfailed", (r) => problems.push(`${where}: requestfailed: ${r.url()} ${r.failure()?.errorText}`));
  page.on("response", (r) => r.status() >= 400 && problems.push(`${where}: HTTP ${r.status()}: ${r.url()}`));
  const results = [];
  // Every control's value on the page, to notice a view that setting a control back did not restore.
  const controlState = () =>
    page.evaluate(() =>
      [...document.querySelectorAll("input, select, textarea")]
        .map((e) => (e.type === "radio" || e.type === "checkbox" ? e.checked : e.value))
        .join("\u0001"),
    );
  try {
    await page.goto(target.url(size), { timeout: LOAD_TIMEOUT_MS });
    await mounted(page);
    const env = await page.evaluate(timerResolution);
    const figures = (await page.evaluate(discoverFigures, HEATMAP_FALLBACK)).filter(
      (f) => FIGURES.length === 0 || FIGURES.includes(f.id),
    );
    for (const fig of figures) {
      if (!fig.controls) {
        log(`  note: ${where}: #${fig.id} has no data-controls, not benchmarked`);
        continue;
      }
      if (!fig.timed) {
        problems.push(`${where}: #${fig.id} lists controls but has no data-drawn-at`);
        continue;
      }
      if (!(await drawnInView(page, fig.id))) {
        problems.push(`${where}: #${fig.id} never drew (data-drawn-at stays 0) when scrolled into view`);
        continue;
      }
      for (const token of fig.controls) {
        const before = await controlState();
        const r = await page.evaluate(benchControl, {
          token,
          figIds: [fig.id],
          warmup: WARMUP,
          events: EVENTS,
          timeoutMs: EVENT_TIMEOUT_MS,
          probeMs: PROBE_TIMEOUT_MS,
        });
        // Setting a control back does not always bring the view back: choosing a model preset sets
        // a dozen parameters, and choosing "your own settings" again keeps them. The next control
        // would then be timed in another state (one where it may not even matter): load the size's
        // link again (every earlier control left the view as it found it, or was followed by this).
        if ((await controlState()) !== before) {
          await page.goto("about:blank");
          await page.goto(target.url(size), { timeout: LOAD_TIMEOUT_MS });
          await mounted(page);
          if (!(await drawnInView(page, fig.id))) {
            problems.push(`${where}: #${fig.id} never drew after reloading the page`);
            break;
          }
        }
        if (r.error) {
          problems.push(`${where}: #${fig.id}: ${r.error}`);
          continue;
        }
        for (const e of r.errors) problems.push(`${where}: ${e}`);
        for (const f of r.figures) {
          const s = summarize(f.latency);
          const rd = summarize(r.settled);
          log(`  ${where.padEnd(20)} #${f.id.padEnd(16)} ${token.padEnd(14)} p50 ${ms(s.p50).padStart(7)} ms  p95 ${ms(s.p95).padStart(7)} ms  reader p95 ${ms(rd.p95).padStart(7)} ms`);
          results.push({
            target: target.name, size: size.key, n: size.n, d: size.d, figure: f.id, control: token,
            fallback: fig.fallback, kind: r.kind, values: r.values, latency: f.latency, drawMs: f.drawMs,
            extraDraws: f.extraDraws, page: r.page, others: r.others, settled: r.settled, inView: r.inView,
          });
        }
      }
    }
    return { env, results };
  } catch (e) {
    problems.push(`${where}: ${e.message.split("\n")[0]}`);
    return { env: null, results };
  } finally {
    await context.close();
  }
}

/** Mounted: the loading message is gone, the heatmap figure exists, no part of the book is
 * still being built and blocks far from the view are skipped (`data-skipping`,
 * src/app/offscreen.rs). Figures draw only near the viewport (an IntersectionObserver in the
 * app), so each one is scrolled into view by {@link drawnInView}. */
async function mounted(page) {
  await page
    .waitForFunction(() => !document.getElementById("loading") && document.querySelector("#fig-heatmap") && (document.getElementById("app")?.dataset.pending ?? "0") === "0" && document.getElementById("app")?.hasAttribute("data-skipping"), null, {
      timeout: LOAD_TIMEOUT_MS,
    })
    .catch(async () => {
      const state = await page
        .evaluate(() => {
          const loading = document.getElementById("loading");
          return [
            loading ? `#loading still shown ("${loading.textContent.trim().slice(0, 80)}")` : "#loading gone",
            document.querySelector("#fig-heatmap") ? "#fig-heatmap present" : "no #fig-heatmap",
          ].join(", ");
        })
        .catch(() => "page state unreadable");
      throw new Error(`the app did not mount within ${LOAD_TIMEOUT_MS / 1000} s: ${state}`);
    });
}

/** Brings the figure to the middle of the viewport and waits until it has drawn there. */
function drawnInView(page, id) {
  return page.evaluate(async ({ id, limit }) => {
    const f = document.getElementById(id);
    f.scrollIntoView({ block: "center", behavior: "instant" });
    const end = performance.now() + limit;
    while (!(Number.parseFloat(f.dataset.drawnAt) > 0) && performance.now() < end) {
      await new Promise((r) => setTimeout(r, 20));
    }
    for (let i = 0; i < 3; i++) await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    await new Promise((r) => setTimeout(r, 150)); // the scroll's own redraws settle
    return Number.parseFloat(f.dataset.drawnAt) > 0;
  }, { id, limit: LOAD_TIMEOUT_MS });
}

async function main() {
  const started = Date.now();
  const problems = [];
  const log = (s) => console.log(s);
  const haveDist = existsSync(join(DIST, "index.html"));

  const targets = [];
  if (ONLY !== "pelab") {
    if (haveDist) targets.push({ name: "pe-explorer", url: (s) => `${server.url}/?n=${s.n}&d=${s.d}${s.app}` });
    else problems.push(`app: ${join(DIST, "index.html")} not found (run \`make build\`); the app was not measured`);
  }
  if (ONLY !== "app") targets.push({ name: "PE-Lab", url: (s) => `${server.url}/__bench/pelab.html?n=${s.n}&d=${s.d}` });

  const before = await distSnapshot(DIST);
  const server = await serve(DIST);
  const chromium = await loadChromium();
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: CHROMIUM_ARGS });
  const results = [];
  let env = null;
  try {
    console.log(`Browser benchmark — Chromium ${browser.version()}, ${EVENTS} events per control after ${WARMUP} warm-up`);
    console.log(`DIST_DIR ${DIST}${haveDist ? "" : " (missing)"}\n`);
    for (const target of targets) {
      for (const size of SIZES) {
        const r = await benchTarget(browser, target, size, problems, log);
        env ??= r.env;
        results.push(...r.results);
      }
    }
  } finally {
    await browser.close();
    await server.close();
  }
  if (env) {
    console.log(
      `\nperformance.now() step ${(env.resolution * 1000).toFixed(0)} µs (cross-origin isolated: ${env.isolated ? "yes" : "no"})`,
    );
  }

  if (haveDist && (await distSnapshot(DIST)) !== before) {
    problems.push(`${DIST} changed during the run (a build landed): the numbers may mix two builds; run again`);
  }

  // ---- latency table: per control, then per figure over all its controls
  const rows = [];
  const groups = new Map();
  for (const r of results) {
    const key = `${r.target}|${r.size}|${r.figure}`;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(r);
  }
  for (const list of groups.values()) {
    const { target, size, n, d, figure } = list[0];
    for (const r of list) {
      const s = summarize(r.latency);
      const dm = summarize(r.drawMs);
      const pg = summarize(r.page);
      const notes = [];
      if (r.extraDraws) notes.push(`${r.extraDraws}/${s.count} events redrew it twice`);
      if (r.others.length) notes.push(`also redrawn: ${r.others.map((id) => id.replace(/^fig-/, "")).join(" ")}`);
      const rd = summarize(r.settled);
      rows.push([target, `${size} ${n}×${d}`, figure, r.control, s.count, ms(s.p50), ms(s.p95), ms(s.max), ms(dm.p50), ms(pg.p95), ms(rd.p50), ms(rd.p95), notes.join("; ")]);
    }
    const all = summarize(list.flatMap((r) => r.latency));
    const allDraw = summarize(list.flatMap((r) => r.drawMs));
    const allPage = summarize(list.flatMap((r) => r.page));
    const allReader = summarize(list.flatMap((r) => r.settled));
    rows.push([target, `${size} ${n}×${d}`, figure, "(all)", all.count, ms(all.p50), ms(all.p95), ms(all.max), ms(allDraw.p50), ms(allPage.p95), ms(allReader.p50), ms(allReader.p95), ""]);
  }
  console.log(
    "\nInput → figure repainted (its data-drawn-at − t0), ms, with the figure centred in a 1280×900 viewport.\n" +
      "draw p50 = the figure's own data-draw-ms; page p95 = input → the last figure on the page repainted\n" +
      "(figures near the viewport that the same input redraws, listed in the note).\n" +
      "reader p50/p95 = the reader's clock: input (at a frame's start, as a slider drag's events come) → the\n" +
      "first task after a rendered frame by which every figure in view that the control redraws has\n" +
      "repainted (main thread free, its pixels in a frame). Within the input's own frame is under 16.7 ms.\n",
  );
  console.log(
    table(
      ["target", "size", "figure", "control", "events", "p50", "p95", "max", "draw p50", "page p95", "reader p50", "reader p95", "note"],
      rows,
      new Set([4, 5, 6, 7, 8, 9, 10, 11]),
    ),
  );

  // ---- ratio against PE-Lab on the controls both have (same figure id and control id)
  const ratios = [];
  for (const size of SIZES) {
    const ours = results.filter((r) => r.target === "pe-explorer" && r.size === size.key);
    const theirs = results.filter((r) => r.target === "PE-Lab" && r.size === size.key);
    const shared = ours.filter((o) => theirs.some((t) => t.figure === o.figure && t.control === o.control));
    const per = shared.map((o) => {
      const t = theirs.find((x) => x.figure === o.figure && x.control === o.control);
      const a = summarize(o.latency);
      const b = summarize(t.latency);
      return { size: size.key, figure: o.figure, control: o.control, ours: a, theirs: b, r50: b.p50 / a.p50, r95: b.p95 / a.p95 };
    });
    if (per.length === 0) continue;
    const pooledOurs = summarize(shared.flatMap((o) => o.latency));
    const pooledTheirs = summarize(theirs.filter((t) => shared.some((o) => o.figure === t.figure && o.control === t.control)).flatMap((t) => t.latency));
    ratios.push({
      size,
      per,
      pooled: { ours: pooledOurs, theirs: pooledTheirs, r50: pooledTheirs.p50 / pooledOurs.p50, r95: pooledTheirs.p95 / pooledOurs.p95 },
      min: Math.min(...per.flatMap((p) => [p.r50, p.r95])),
    });
  }
  if (ratios.length > 0) {
    console.log("\nPE-Lab ÷ pe-explorer (how many times faster we are), controls both pages have\n");
    const rrows = [];
    for (const r of ratios) {
      const label = `${r.size.key} ${r.size.n}×${r.size.d}`;
      for (const p of r.per) {
        rrows.push([label, p.figure, p.control, ms(p.theirs.p50), ms(p.ours.p50), `${p.r50.toFixed(1)}×`, ms(p.theirs.p95), ms(p.ours.p95), `${p.r95.toFixed(1)}×`]);
      }
      const q = r.pooled;
      rrows.push([label, "(pooled)", "", ms(q.theirs.p50), ms(q.ours.p50), `${q.r50.toFixed(1)}×`, ms(q.theirs.p95), ms(q.ours.p95), `${q.r95.toFixed(1)}×`]);
    }
    console.log(
      table(
        ["size", "figure", "control", "PE-Lab p50", "ours p50", "ratio", "PE-Lab p95", "ours p95", "ratio"],
        rrows,
        new Set([3, 4, 5, 6, 7, 8]),
      ),
    );
  }

  // ---- bundle
  let bundle = null;
  if (haveDist) {
    bundle = await bundleSize(DIST);
    console.log(`\nRelease bundle (${DIST}), KB = 1000 bytes, gzip -9 and brotli -11 (what a host sends)\n`);
    console.log(
      table(
        ["file", "raw KB", "gzip KB", "brotli KB"],
        [
          ...bundle.files.map((f) => [f.file, kb(f.raw), kb(f.gzip), kb(f.brotli)]),
          ["total", kb(bundle.raw), kb(bundle.gzip), kb(bundle.brotli)],
        ],
        new Set([1, 2, 3]),
      ),
    );
  }

  // ---- budgets
  console.log("\nBudgets");
  const verdict = (ok) => (ok ? "HOLDS" : "FAILS");
  const aim = (ok) => (ok ? "aim met" : "aim not met");
  for (const size of SIZES) {
    const ours = results.filter((r) => r.target === "pe-explorer" && r.size === size.key);
    const label = `p95 ≤ ${size.budget} ms at ${size.key} (n=${size.n}, d=${size.d})`;
    if (ours.length === 0) {
      console.log(`  ${label}: NOT MEASURED`);
      continue;
    }
    const worst = ours
      .map((r) => ({ r, p95: summarize(r.latency).p95 }))
      .reduce((a, b) => (b.p95 > a.p95 ? b : a));
    console.log(
      `  ${label}: ${verdict(worst.p95 <= size.budget)} — worst p95 ${ms(worst.p95)} ms (#${worst.r.figure} ${worst.r.control}); ` +
        `${aim(worst.p95 <= size.aim)} (${size.aim} ms)`,
    );
  }
  // The reader's clock, per control (every figure in view repainted): one frame at the defaults,
  // two at the largest sizes; the worst three per size.
  for (const size of SIZES) {
    const ours = results.filter((r) => r.target === "pe-explorer" && r.size === size.key);
    if (ours.length === 0) continue;
    // Each figure times its controls with itself centred, so one control has a reading per
    // figure that lists it (a different view each): judge every one.
    const perView = new Map();
    for (const r of ours) perView.set(`${r.figure} ${r.control}`, r);
    // An event whose figures in view had not all repainted by the probe's limit has no reading
    // (NaN): such a control is named first, with how many of its events did not settle.
    const worst = [...perView.values()]
      .map((r) => ({ r, p95: summarize(r.settled.filter(Number.isFinite)).p95, unsettled: r.settled.filter((v) => !Number.isFinite(v)).length }))
      .sort((a, b) => b.unsettled - a.unsettled || b.p95 - a.p95);
    const limit = READER_BUDGET[size.key];
    const bad = worst.filter((w) => w.unsettled > 0 || !(w.p95 <= limit));
    const reading = (w) =>
      w.unsettled > 0 ? `${w.unsettled} of ${w.r.settled.length} events never settled (the rest p95 ${ms(w.p95)} ms)` : `${ms(w.p95)} ms`;
    console.log(
      `  reader's clock p95 ≤ ${limit} ms at ${size.key}: ${verdict(bad.length === 0)} — worst three: ` +
        worst
          .slice(0, 3)
          .map((w) => `${w.r.control} at #${w.r.figure} ${reading(w)} (in view: ${w.r.inView.map((id) => id.replace(/^fig-/, "")).join(" ") || "none"})`)
          .join("; "),
    );
  }
  if (bundle) {
    // No whole-book budget: the book grows by chapters; the first-load bench judges what a reader
    // waits for (firstload.mjs).
    console.log(`  bundle (whole book, for the record): ${(bundle.gzip / 1000).toFixed(1)} KB gzip (${kb(bundle.raw)} KB raw)`);
  } else console.log("  bundle: NOT MEASURED");
  for (const size of SIZES) {
    const r = ratios.find((x) => x.size.key === size.key);
    const label = `faster than PE-Lab at ${size.key} (n=${size.n}, d=${size.d})`;
    if (!r) {
      console.log(`  ${label}: NOT MEASURED`);
      continue;
    }
    let line =
      `  ${label}: ${verdict(r.min > 1)} — smallest ratio ${r.min.toFixed(1)}× over every shared control's p50 and p95; ` +
      `pooled p50 ${r.pooled.r50.toFixed(1)}×, p95 ${r.pooled.r95.toFixed(1)}×`;
    if (size.key === "largest") line += `; ${aim(r.min >= RATIO_AIM_LARGEST)} (${RATIO_AIM_LARGEST}×)`;
    console.log(line);
  }

  if (JSON_OUT) {
    await writeFile(JSON_OUT, JSON.stringify({ chromium: env, results, ratios, bundle, problems }, null, 2));
  }
  console.log(`\n(${((Date.now() - started) / 1000).toFixed(0)} s)`);
  if (problems.length > 0) {
    console.log("\nCould not measure everything:");
    for (const p of problems) console.log(`  - ${p}`);
    process.exitCode = 1;
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
