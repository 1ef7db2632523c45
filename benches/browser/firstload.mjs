#!/usr/bin/env node
// First load on a slow phone (`make bench`): how long a reader waits for text and for the first live
// figure, on the throttled profile of issue 15 — 4× CPU slowdown, 1.6 Mbps down, 750 kbps up,
// 150 ms round trip — no cache, with dist/ served two ways (tests/e2e/serve.mjs): gzip-compressed
// on the fly, as GitHub Pages and most hosts do, and from the brotli copies the build writes beside
// each file (tools/precompress.mjs), as hosts that serve pre-compressed files do.
//
//   node benches/browser/firstload.mjs [DIST_DIR] [--runs=5] [--screen=TEXT]
//
// --screen=TEXT measures only the screens whose name contains TEXT (e.g. --screen=embed).
//
// Throttling is applied by Chromium itself (DevTools protocol: Network.emulateNetworkConditions,
// Emulation.setCPUThrottlingRate), so the numbers are measured, not simulated as Lighthouse's are.
// On a phone screen and on a desktop one, for a link to a figure of chapter 4 on the phone, and for
// seven embedded figures: the book's first, one of the rest of chapter 1, one of chapter 4, three of
// chapter 5 and one of chapter 6.
// Per run, from navigation start (performance.now() of the
// page):
//   - first contentful paint (the static header and introduction);
//   - wasm loaded: the end of the .wasm download;
//   - first figure visible: when a picture of exactly the state the page will draw is on screen:
//     the first screen's copy's picture (tools/first-view.mjs; a link at the default settings)
//     has loaded, or else the figure has drawn;
//   - first figure live: the first figure of the book's (document order) first `data-drawn-at`
//     (the app's timestamp at the end of its first draw), recorded by a MutationObserver installed
//     before the page's own scripts. Figures draw only on screen (off screen they are only sized),
//     so on the phone, where the first figure starts below the fold, the reader scrolls to it (or
//     to its copy) as soon as it exists: the time is when a reader who scrolls at once sees it;
//   - the bytes the page transferred by then.
// It prints every run and the median of each column. A measurement, not a test: exit 0 whatever
// the numbers, exit 1 only if the page could not be measured.

import { serveStatic } from "../../tests/e2e/serve.mjs";
import { PROFILE, benchArgs, launchChromium, throttle } from "./phone.mjs";

const { RUNS, DIST, options } = benchArgs("firstload.mjs", 5, ["screen"]);
const TIMEOUT_MS = 60000;

const SERVERS = [
  { name: "gzip", server: await serveStatic({ "/": DIST }, {}, { gzip: true, cache: true }) },
  { name: "brotli (pre-compressed)", server: await serveStatic({ "/": DIST }, {}, { brotli: true, cache: true }) },
];
const browser = await launchChromium();

/** Runs in the page before its scripts: notes when each figure first draws and when the first
 * screen's copy's picture has loaded, and with `scroll` scrolls the book's first figure (or its
 * copy) into view as soon as it exists. */
function watchFigures(scroll) {
  document.addEventListener(
    "load",
    (e) => {
      if (e.target.classList?.contains("first-picture")) globalThis.__pictureAt ??= performance.now();
    },
    true,
  );
  const first = (globalThis.__firstDraws = new Map());
  new MutationObserver((records) => {
    for (const r of records) {
      const at = Number.parseFloat(r.target.getAttribute("data-drawn-at"));
      if (at > 0 && !first.has(r.target.id)) first.set(r.target.id, at);
    }
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-drawn-at"] });
  if (!scroll) return;
  // The copy of the first screen is in the HTML: scroll to it once the HTML is parsed (a scroll
  // while it streams in stops short, where the page then ends), and again to the live figure.
  let copied = false;
  const find = () => {
    const fig = document.querySelector('figure[id^="fig-"]');
    if (fig) {
      seek.disconnect();
      fig.scrollIntoView({ block: "start" });
      return;
    }
    const copy = document.readyState !== "loading" && !copied && document.querySelector(".first-screen figure");
    if (copy && getComputedStyle(copy).display !== "none") {
      copied = true;
      copy.scrollIntoView({ block: "start" });
    }
  };
  const seek = new MutationObserver(find);
  seek.observe(document, { subtree: true, childList: true });
  document.addEventListener("DOMContentLoaded", find);
}

/** In the page: figure `target`, or else the book's first figure (document order), and when it
 * first drew, once it has. */
function firstFigure(target) {
  const fig = target ? document.getElementById(target) : document.querySelector('figure[id^="fig-"]');
  const at = fig && globalThis.__firstDraws?.get(fig.id);
  return at ? { id: fig.id, at, picture: globalThis.__pictureAt ?? Infinity } : null;
}

/** The screens: a phone (Lighthouse's mobile screen), where the first figure starts below the fold
 * and the reader scrolls to it, and a desktop, where it is on the first screen; a link to a figure
 * of chapter 4 opened on the phone (`target`: the figure timed); then one embedded figure in a
 * blog's 720 px frame: the book's first (in the main module, in a build split by chapter), one of
 * the rest of chapter 1 and one of chapter 4 (each with its part's own module). */
const SCREENS = [
  {
    name: "phone 412×823, scrolled to the first figure at once",
    options: { viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true },
    scroll: true,
    query: "",
  },
  { name: "desktop 1280×900", options: { viewport: { width: 1280, height: 900 } }, scroll: false, query: "" },
  {
    name: "phone 412×823, a link to #fig-tab-alibi",
    options: { viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true },
    scroll: false,
    query: "#fig-tab-alibi",
    target: "fig-tab-alibi",
  },
  { name: "embed ?embed=fig-attention, 720×900", options: { viewport: { width: 720, height: 900 } }, scroll: false, query: "?embed=fig-attention" },
  { name: "embed ?embed=fig-heatmap, 720×900", options: { viewport: { width: 720, height: 900 } }, scroll: false, query: "?embed=fig-heatmap" },
  { name: "embed ?embed=fig-tab-alibi, 720×900", options: { viewport: { width: 720, height: 900 } }, scroll: false, query: "?embed=fig-tab-alibi" },
  { name: "embed ?embed=fig-models-layers, 720×900", options: { viewport: { width: 720, height: 900 } }, scroll: false, query: "?embed=fig-models-layers" },
  { name: "embed ?embed=fig-models-precision, 720×900", options: { viewport: { width: 720, height: 900 } }, scroll: false, query: "?embed=fig-models-precision" },
  { name: "embed ?embed=fig-models-temperature, 720×900", options: { viewport: { width: 720, height: 900 } }, scroll: false, query: "?embed=fig-models-temperature" },
  { name: "embed ?embed=fig-vision-grid, 720×900", options: { viewport: { width: 720, height: 900 } }, scroll: false, query: "?embed=fig-vision-grid" },
];

async function oneRun(screen, server) {
  const context = await browser.newContext(screen.options);
  const page = await context.newPage();
  await page.addInitScript(watchFigures, screen.scroll);
  await throttle(context, page);
  try {
    await page.goto(server.url + "/" + screen.query, { timeout: TIMEOUT_MS });
    const figure = (await page.waitForFunction(firstFigure, screen.target, { timeout: TIMEOUT_MS })).jsonValue();
    const { id, at, picture } = await figure;
    const rest = await page.evaluate(() => {
      const fcp = performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN;
      const resources = performance.getEntriesByType("resource");
      const wasm = resources.find((r) => r.name.endsWith(".wasm"));
      const bytes = resources.reduce((a, r) => a + r.transferSize, 0) + (performance.getEntriesByType("navigation")[0]?.transferSize ?? 0);
      return { fcp, wasmEnd: wasm?.responseEnd ?? NaN, bytes };
    });
    return { ...rest, figure: at, visible: Math.min(picture ?? Infinity, at), id };
  } finally {
    await context.close();
  }
}

const s = (ms) => (Number.isFinite(ms) ? (ms / 1000).toFixed(2).padStart(6) : "     —");
const median = (xs) => {
  const v = xs.filter(Number.isFinite).sort((a, b) => a - b);
  return v.length ? (v[(v.length - 1) >> 1] + v[v.length >> 1]) / 2 : NaN;
};
console.log(`First load, throttled: ${PROFILE.cpu}× CPU, ${PROFILE.downKbps / 1000} Mbps down, ${PROFILE.upKbps} kbps up, ${PROFILE.rttMs} ms RTT; no cache`);
try {
  const screens = SCREENS.filter((s) => s.name.includes(options.screen ?? ""));
  for (const screen of screens) for (const { name, server } of SERVERS) {
    console.log(`\n${screen.name}; ${name}`);
    console.log("run   text (FCP) s   wasm loaded s   figure visible s   figure live s   KB transferred   figure");
    const rows = [];
    for (let i = 1; i <= RUNS; i++) {
      const r = await oneRun(screen, server);
      rows.push(r);
      console.log(`${String(i).padEnd(4)}  ${s(r.fcp)}         ${s(r.wasmEnd)}            ${s(r.visible)}         ${s(r.figure)}           ${(r.bytes / 1000).toFixed(1).padStart(6)}   ${r.id}`);
    }
    const m = (k) => median(rows.map((r) => r[k]));
    console.log(`median${s(m("fcp"))}         ${s(m("wasmEnd"))}            ${s(m("visible"))}         ${s(m("figure"))}           ${(m("bytes") / 1000).toFixed(1).padStart(6)}`);
  }
} catch (e) {
  console.error(`could not measure: ${e.message.split("\n")[0]}`);
  process.exitCode = 1;
} finally {
  await browser.close();
  for (const { server } of SERVERS) await server.close();
}
