// A long session of slider moves across every chapter's controls, with the wasm linear memory and
// the JS heap (after a forced garbage collection, through the DevTools protocol) measured after
// two rounds over every slider (at least 100 moves) and at the end. Shared by the browser test (1,000 moves, fails on growth)
// and `make bench` (benches/browser/memory.mjs, 10,000 moves, prints the numbers).
import { watchPolicy } from "./harness.mjs";

/** Allowed growth of either measure between the warm-up (two rounds) and the last move. */
export const FLAT = 0.05;

/**
 * Opens `url`, makes `moves` moves (arrow keys on every range slider of the page in turn, each
 * slider scrolled into view so its figures redraw), and resolves to
 * `{ moves, sliders, before, after, problems }` with `{ wasm, heap }` in bytes (and `objects`, the
 * page's JS objects without compiled code, when `snapshot` is set).
 */
export async function longSession(browser, url, moves, { snapshot = false } = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems = [];
  await watchPolicy(page, url, problems);
  page.on("console", (m) => m.type() === "error" && problems.push(`console: ${m.text()}`));
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  await page.addInitScript(() => {
    addEventListener("TrunkApplicationStarted", (e) => {
      window.__wasmMemory = e.detail.wasm.memory;
    });
  });
  try {
    await page.goto(url);
    await page.waitForFunction(() => window.__wasmMemory && !document.getElementById("loading") && (document.getElementById("app")?.dataset.pending ?? "0") === "0");
    const cdp = await context.newCDPSession(page);
    // With `snapshot`, also the page's JS objects: a heap snapshot's nodes without V8's compiled
    // code (functions compiled as they warm up are a cache, not data the page keeps) and without
    // native and synthetic nodes (the DOM, the wasm memory's backing store: measured above).
    const SKIPPED = new Set(["code", "native", "synthetic"]);
    const objects = async () => {
      const chunks = [];
      const onChunk = (e) => chunks.push(e.chunk);
      cdp.on("HeapProfiler.addHeapSnapshotChunk", onChunk);
      await cdp.send("HeapProfiler.takeHeapSnapshot", { reportProgress: false });
      cdp.off("HeapProfiler.addHeapSnapshotChunk", onChunk);
      const snap = JSON.parse(chunks.join(""));
      const fields = snap.snapshot.meta.node_fields;
      const types = snap.snapshot.meta.node_types[0];
      const [type, size] = [fields.indexOf("type"), fields.indexOf("self_size")];
      let bytes = 0;
      for (let i = 0; i < snap.nodes.length; i += fields.length) {
        if (!SKIPPED.has(types[snap.nodes[i + type]])) bytes += snap.nodes[i + size];
      }
      return bytes;
    };
    const measure = async () => {
      await cdp.send("HeapProfiler.collectGarbage");
      const heap = await cdp.send("Runtime.getHeapUsage");
      const wasm = await page.evaluate(() => window.__wasmMemory.buffer.byteLength);
      return snapshot ? { heap: heap.usedSize, wasm, objects: await objects() } : { heap: heap.usedSize, wasm };
    };
    const sliders = await page.$$eval("input[type=range][id]", (els) => els.map((e) => e.id));
    // Round robin, a step up and a step back on each slider: the warm-up, two rounds over every
    // slider (at least 100 moves), sizes every figure's buffers and compiles every path once;
    // later growth would be a leak.
    const move = async (k) => {
      const id = sliders[Math.floor(k / 2) % sliders.length];
      if (k % 2 === 0) await page.locator(`#${id}`).focus();
      await page.keyboard.press(k % 2 === 0 ? "ArrowRight" : "ArrowLeft");
      // Then a frame, as between the input events of a real drag.
      if (k % 2 === 1) await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 0))));
    };
    let k = 0;
    const warm = Math.max(100, 4 * sliders.length);
    for (; k < Math.min(warm, moves); k++) await move(k);
    const before = await measure();
    for (; k < moves; k++) await move(k);
    await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 50))));
    const after = await measure();
    return { moves, warm, sliders: sliders.length, before, after, problems: [...problems] };
  } finally {
    await context.close();
  }
}
