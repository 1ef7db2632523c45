// Animation benchmark (`make bench`): plays each animated figure for 600 frames in Debian's
// headless Chromium and reports whether it redraws at the display rate, how long a redraw takes,
// and whether memory stays flat — wasm linear memory (`WebAssembly.Memory.buffer.byteLength`)
// and the JS heap after a forced garbage collection (DevTools protocol), both before and after
// the 600 frames, following 300 warm-up frames (a one-time growth of ~100 KiB — compiled code and caches — happens in the first few hundred frames and does not grow with more frames: measured at 600 and 2400).
//
//   node benches/browser/animation.mjs [DIST_DIR] [--frames=600]
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { launchChromium, serveStatic } from "../../tests/e2e/serve.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, "..", "..");
const argv = process.argv.slice(2);
const DIST = resolve(argv.find((a) => !a.startsWith("--")) ?? join(ROOT, "dist"));
const FRAMES = Number((argv.find((a) => a.startsWith("--frames=")) ?? "--frames=600").slice(9));
const WARMUP = 300;
// Growth allowed over the measured frames (the issue's bound for long sessions is 5 %).
const FLAT = 0.05;

const FIGURES = [
  { id: "fig-rope-2d", play: "#fig-rope-2d button:has-text('Play')", query: "" },
  { id: "fig-rope-cloud", play: "#fig-rope-cloud button:has-text('Play')", query: "?r.cn=256" },
];

if (!existsSync(join(DIST, "index.html"))) {
  console.error(`${DIST}/index.html not found: run \`make build\` first`);
  process.exit(2);
}
const server = await serveStatic({ "/": DIST }, { "cache-control": "no-store" });
const browser = await launchChromium();
let failed = false;
try {
  console.log(`Animation benchmark — ${FRAMES} frames after ${WARMUP} warm-up, Chromium ${browser.version()}`);
  for (const fig of FIGURES) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: "no-preference" });
    const page = await context.newPage();
    const problems = [];
    page.on("pageerror", (e) => problems.push(e.message));
    page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
    await page.addInitScript(() => {
      addEventListener("TrunkApplicationStarted", (e) => {
        window.__wasmMemory = e.detail.wasm.memory;
      });
    });
    await page.goto(`${server.url}/${fig.query}`);
    await page.waitForFunction(() => window.__wasmMemory && !document.getElementById("loading") && (document.getElementById("app")?.dataset.pending ?? "0") === "0");
    await page.locator(`#${fig.id}`).scrollIntoViewIfNeeded();
    await page.waitForFunction((id) => Number(document.getElementById(id).dataset.drawnAt) > 0, fig.id);
    const cdp = await context.newCDPSession(page);
    const memory = async () => {
      await cdp.send("HeapProfiler.collectGarbage");
      const heap = await cdp.send("Runtime.getHeapUsage");
      const wasm = await page.evaluate(() => window.__wasmMemory.buffer.byteLength);
      return { heap: heap.usedSize, wasm };
    };
    // Counts frames and redraws (data-drawn-at changes) and collects redraw times over `frames`.
    const run = (frames) =>
      page.evaluate(
        ({ id, frames }) =>
          new Promise((done) => {
            const fig = document.getElementById(id);
            let last = fig.dataset.drawnAt;
            let redraws = 0;
            const draw = [];
            const stamps = [];
            const frame = (t) => {
              stamps.push(t);
              if (fig.dataset.drawnAt !== last) {
                last = fig.dataset.drawnAt;
                redraws += 1;
                draw.push(Number(fig.dataset.drawMs));
              }
              if (stamps.length < frames) requestAnimationFrame(frame);
              else done({ redraws, draw, stamps });
            };
            requestAnimationFrame(frame);
          }),
        { id: fig.id, frames },
      );
    await page.click(fig.play);
    await run(WARMUP);
    const before = await memory();
    const r = await run(FRAMES);
    const after = await memory();
    const playing = await page.locator(`#${fig.id} button[aria-pressed=true]`).count();
    // Off screen, the animation stops by itself.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(300);
    const stillPlaying = await page.locator(`#${fig.id} button[aria-pressed=true]`).count();
    await context.close();

    const gaps = r.stamps.slice(1).map((t, k) => t - r.stamps[k]).sort((a, b) => a - b);
    const draws = r.draw.sort((a, b) => a - b);
    const q = (xs, f) => xs[Math.min(xs.length - 1, Math.floor(f * xs.length))] ?? NaN;
    const growth = (a, b) => (b - a) / a;
    const heapGrowth = growth(before.heap, after.heap);
    const wasmGrowth = growth(before.wasm, after.wasm);
    const ok =
      playing === 1 && stillPlaying === 0 && r.redraws >= FRAMES * 0.9 && heapGrowth <= FLAT && wasmGrowth <= FLAT && !problems.length;
    failed ||= !ok;
    console.log(
      [
        `#${fig.id}: ${r.redraws} redraws in ${FRAMES} frames (frame interval p50 ${q(gaps, 0.5).toFixed(1)} ms)`,
        `  redraw (recompute + draw) p50 ${q(draws, 0.5).toFixed(2)} ms, p95 ${q(draws, 0.95).toFixed(2)} ms`,
        `  wasm memory ${(before.wasm / 1024).toFixed(0)} KiB → ${(after.wasm / 1024).toFixed(0)} KiB (${(wasmGrowth * 100).toFixed(1)} %)`,
        `  JS heap after GC ${(before.heap / 1024).toFixed(0)} KiB → ${(after.heap / 1024).toFixed(0)} KiB (${(heapGrowth * 100).toFixed(1)} %)`,
        `  stops off screen: ${stillPlaying === 0 ? "yes" : "NO"}${problems.length ? `; problems: ${problems.join("; ")}` : ""}`,
        `  ${ok ? "ok" : "FAILED"}: ≥ 90 % of frames redrawn, memory within ${FLAT * 100} %, stopped off screen`,
      ].join("\n"),
    );
  }
} finally {
  await browser.close();
  await server.close();
}
process.exit(failed ? 1 : 0);
