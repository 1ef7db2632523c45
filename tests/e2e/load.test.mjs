// First load: the static header and introduction are readable before the WebAssembly arrives, and
// nothing on screen moves — not when the app takes over, not while figures fill in as the reader
// scrolls. Layout shifts are read from the browser's own `layout-shift` performance entries (the
// numbers behind Lighthouse's Cumulative Layout Shift) and summed over the whole visit: load, then
// a scroll through the whole book, a screen at a time.
import { test } from "node:test";
import assert from "node:assert/strict";
import { inflateSync } from "node:zlib";
import { bookMounted, shareBrowser, watchPolicy } from "./harness.mjs";

const env = shareBrowser();

/** Largest allowed sum of layout-shift scores over load and scroll (issue 15: CLS ≤ 0.01). */
const BUDGET = 0.01;

/** Records every layout shift the page makes (and what moved) from its first byte on. */
function recordShifts() {
  window.__shifts = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.hadRecentInput) continue;
      const sources = (e.sources ?? []).map((s) => {
        const n = s.node;
        if (!n) return "?";
        if (n.nodeType !== 1) return `${n.nodeName} in ${n.parentElement?.closest("[id]")?.id ?? "?"}`;
        const id = n.id ? `#${n.id}` : "";
        const cls = typeof n.className === "string" && n.className ? `.${n.className.split(/\s+/).join(".")}` : "";
        const where = n.closest("[id]")?.id ?? "";
        return `${n.nodeName.toLowerCase()}${id}${cls} (in #${where}) ${JSON.stringify(s.previousRect)}→${JSON.stringify(s.currentRect)}`;
      });
      window.__shifts.push({ value: e.value, at: Math.round(e.startTime), scrollY: Math.round(scrollY), sources });
    }
  }).observe({ type: "layout-shift", buffered: true });
}

async function visit(viewport, query = "") {
  const context = await env.browser.newContext({ viewport, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const problems = [];
  await watchPolicy(page, env.server.url, problems);
  page.on("pageerror", (err) => problems.push(`pageerror: ${err.message}`));
  await page.addInitScript(recordShifts);
  return { context, page, problems, go: () => page.goto(env.server.url + query) };
}

/** Scrolls from the top to the bottom a screen at a time, letting each screen's figures draw. */
async function scrollThrough(page) {
  await page.evaluate(async () => {
    const pause = (ms) => new Promise((r) => setTimeout(r, ms));
    const frames = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    scrollTo(0, 0);
    for (let guard = 0; guard < 400; guard++) {
      await frames();
      await pause(60);
      const before = scrollY;
      scrollBy(0, innerHeight * 0.9);
      if (scrollY === before) break;
    }
    await frames();
    await pause(200);
  });
}

function report(shifts) {
  return shifts
    .filter((s) => s.value > 0.0001)
    .map((s) => `${s.value.toFixed(4)} at ${s.at} ms, scrollY ${s.scrollY}: ${s.sources.join(" | ")}`)
    .join("\n");
}

for (const [name, viewport] of [
  ["phone (412 × 823)", { width: 412, height: 823 }],
  ["desktop (1280 × 900)", { width: 1280, height: 900 }],
  // Tall enough that chapter 1's first figure is on the first screen when it is built.
  ["tall window (800 × 1600)", { width: 800, height: 1600 }],
]) {
  test(`${name}: nothing moves during load and a scroll through the book (layout shift ≤ ${BUDGET})`, async () => {
    const { context, page, problems, go } = await visit(viewport);
    try {
      await go();
      await page.waitForSelector("#fig-heatmap canvas");
      await page.waitForFunction(() => !document.getElementById("loading"));
      await bookMounted(page);
      await scrollThrough(page);
      const shifts = await page.evaluate(() => window.__shifts);
      const total = shifts.reduce((sum, s) => sum + s.value, 0);
      assert.ok(total <= BUDGET, `layout shift ${total.toFixed(4)} > ${BUDGET}:\n${report(shifts)}`);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
}

test("the header and introduction are in the HTML: readable before the WebAssembly runs", async () => {
  const { context, page, go } = await visit({ width: 412, height: 823 });
  try {
    // Block the app's code: what shows is what the HTML alone gives.
    await page.route(/\.wasm$/, (route) => route.abort());
    await go();
    await page.waitForSelector("#loading.failed", { timeout: 5000 });
    const h1 = await page.textContent("#masthead h1");
    assert.equal(h1.trim(), "Positional Encoding Explorer");
    const lede = await page.locator("#lede");
    assert.ok(await lede.isVisible());
    assert.ok((await lede.textContent()).includes("order of its words"));
    // The loading notice floats over the page: it takes no room in the flow.
    const position = await page.$eval("#loading", (el) => getComputedStyle(el).position);
    assert.equal(position, "fixed");
  } finally {
    await context.close();
  }
});

test("embed mode hides the static header from the first paint; an unknown figure id shows it", async () => {
  const { context, page, go } = await visit({ width: 412, height: 823 }, "?embed=fig-heatmap");
  try {
    await page.route(/\.wasm$/, (route) => route.abort());
    await go();
    await page.waitForSelector("#loading.failed", { timeout: 5000 });
    assert.equal(await page.isVisible("#masthead"), false);
  } finally {
    await context.close();
  }
  const unknown = await visit({ width: 412, height: 823 }, "?embed=fig-nothing");
  try {
    await unknown.go();
    await unknown.page.waitForSelector("#fig-heatmap canvas");
    assert.equal(await unknown.page.isVisible("#masthead"), true);
    assert.equal(await unknown.page.isVisible("#masthead-actions button"), true);
  } finally {
    await unknown.context.close();
  }
});

/** The channels of a screenshot (an 8-bit, non-interlaced PNG, as Chromium writes them), row by row. */
function pixels(png) {
  const chunks = [];
  let header;
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    const type = png.toString("latin1", at + 4, at + 8);
    if (type === "IHDR") header = { width: png.readUInt32BE(at + 8), height: png.readUInt32BE(at + 12), colour: png[at + 17] };
    if (type === "IDAT") chunks.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  const step = { 2: 3, 6: 4 }[header.colour];
  const data = inflateSync(Buffer.concat(chunks));
  const row = header.width * step;
  const out = new Uint8Array(row * header.height);
  for (let y = 0; y < header.height; y++) {
    const filter = data[y * (row + 1)];
    for (let x = 0; x < row; x++) {
      const raw = data[y * (row + 1) + 1 + x];
      const a = x >= step ? out[y * row + x - step] : 0;
      const b = y > 0 ? out[(y - 1) * row + x] : 0;
      const c = x >= step && y > 0 ? out[(y - 1) * row + x - step] : 0;
      const p = a + b - c;
      const paeth = Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c) ? a : Math.abs(p - b) <= Math.abs(p - c) ? b : c;
      out[y * row + x] = (raw + [0, a, b, (a + b) >> 1, paeth][filter]) & 255;
    }
  }
  return out;
}

// Issue 25: once the book is built, blocks far from the view are not rendered (src/app/offscreen.rs).
test("once the book is built, blocks far from the view are skipped at their own size, and nothing over a figure's edge is cut", async () => {
  const { context, page, problems, go } = await visit({ width: 1280, height: 900 });
  try {
    await go();
    await bookMounted(page);
    await page.waitForSelector("#app[data-skipping] [data-far]", { state: "attached", timeout: 10000 });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const blocks = ".chapter, .chapter > *, .figure-stack > *";
    // Every block's place and the book's height, with the far blocks skipped and then rendered: a
    // skipped block stands in at the size it last had, so they are the same.
    const places = () =>
      page.evaluate((blocks) => {
        const rows = [...document.querySelectorAll(blocks)].map((el) => {
          const r = el.getBoundingClientRect();
          return `${el.id || el.className || el.tagName} ${Math.round(r.top + scrollY)} ${Math.round(r.height)}`;
        });
        return [document.documentElement.scrollHeight, ...rows];
      }, blocks);
    const state = await page.evaluate((blocks) => {
      const all = [...document.querySelectorAll(blocks)];
      const far = all.filter((el) => el.hasAttribute("data-far"));
      const screen = (el) => { const r = el.getBoundingClientRect(); return r.bottom > -innerHeight && r.top < 2 * innerHeight; };
      return {
        far: far.length,
        // (What a block of text alone holds cannot be asked.)
        withElements: far.filter((el) => el.querySelector("*")).length,
        skipped: far.filter((el) => [...el.querySelectorAll("*")].some((c) => !c.checkVisibility({ contentVisibilityAuto: true }))).length,
        farButNear: far.filter(screen).map((el) => el.id || el.className || el.tagName),
        nearButFar: all.filter((el) => !el.hasAttribute("data-far") && !screen(el)).map((el) => el.id || el.className || el.tagName),
      };
    }, blocks);
    assert.ok(state.withElements > 20 && state.skipped === state.withElements, `far ${state.far}, with elements ${state.withElements}, skipped ${state.skipped}`);
    assert.deepEqual(state.farButNear, [], "blocks within a screen of the view are skipped");
    assert.deepEqual(state.nearButFar, [], "blocks far from the view are rendered");
    // Read a screen at a time (as Page Down does: blocks lose data-far a screen ahead) or by jumps
    // of 5.3 screens (the scroll bar, End: the scroll event renders them), no block in view is
    // skipped in the first frame after the move.
    const seenSkipped = await page.evaluate(async () => {
      const frame = () => new Promise((r) => requestAnimationFrame(r));
      const frames = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      const seen = [];
      for (const step of [0.9, 5.3, -5.3]) {
        scrollTo(0, step > 0 ? 0 : document.documentElement.scrollHeight);
        for (let guard = 0; guard < 400; guard++) {
          await frames();
          const before = scrollY;
          scrollBy(0, innerHeight * step);
          if (scrollY === before) break;
          await frame();
          for (const el of document.querySelectorAll("[data-far]")) {
            const r = el.getBoundingClientRect();
            if (r.bottom > 0 && r.top < innerHeight) seen.push(`${el.id || el.className || el.tagName} at scrollY ${Math.round(scrollY)} (step ${step})`);
          }
        }
      }
      scrollTo(0, 0);
      await frames();
      return seen;
    });
    assert.deepEqual(seenSkipped, [], "blocks in view still skipped");
    const skipping = await places();
    await page.evaluate(() => document.querySelectorAll("[data-far]").forEach((el) => el.removeAttribute("data-far")));
    const rendered = await places();
    assert.equal(skipping.length, rendered.length);
    const moved = skipping.flatMap((row, i) => (row === rendered[i] ? [] : [`${row} → ${rendered[i]}`]));
    assert.deepEqual(moved, [], "skipped blocks stood in at another size");
    // A figure's buttons sit 12 px over its top edge: the paint containment of a skipped block must
    // not cut them. The buttons of a figure in view, drawn with and without the attribute, are the same.
    await page.evaluate(() => {
      document.getElementById("fig-ctx-wavelengths").scrollIntoView({ block: "start" });
      scrollBy(0, -100);
    });
    const frames = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await frames();
    const box = await page.$eval("#fig-ctx-wavelengths .figure-link", (link) => {
      const r = link.getBoundingClientRect();
      return { x: Math.floor(r.left) - 2, y: Math.floor(r.top) - 2, width: Math.ceil(r.width) + 4, height: 16 };
    });
    const drawn = pixels(await page.screenshot({ clip: box }));
    await page.evaluate(() => document.getElementById("fig-ctx-wavelengths").setAttribute("data-far", ""));
    await frames();
    const skipped = pixels(await page.screenshot({ clip: box }));
    // Text may be antialiased a shade differently in a layer of its own; a cut is the background.
    const differ = drawn.filter((v, i) => Math.abs(v - skipped[i]) > 64).length;
    assert.equal(differ, 0, "the top of a figure's link is cut off");
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
