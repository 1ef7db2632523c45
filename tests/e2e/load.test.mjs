// First load: the static header and introduction are readable before the WebAssembly arrives, and
// nothing on screen moves — not when the app takes over, not while figures fill in as the reader
// scrolls. Layout shifts are read from the browser's own `layout-shift` performance entries (the
// numbers behind Lighthouse's Cumulative Layout Shift) and summed over the whole visit: load, then
// a scroll through the whole book, a screen at a time.
import { test } from "node:test";
import assert from "node:assert/strict";
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
