// The book's first screen before its code (tools/first-view.mjs, assets/boot.js): a link at the
// default settings shows the built page's copy of the first screen, with a picture of the first
// figure in exactly the state the app will draw, while the WebAssembly is still on its way; the
// app's own first screen then lands exactly where the copy was (nothing moves), and the picture
// stays over the live canvas only until the live figure draws. A link that changes any setting
// never shows it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { shareBrowser, watchPolicy } from "./harness.mjs";

const env = shareBrowser();

/** Layout shifts from the first byte on (as load.test.mjs records them). */
function recordShifts() {
  window.__shift = 0;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (!e.hadRecentInput) window.__shift += e.value;
  }).observe({ type: "layout-shift", buffered: true });
}

/** Opens `query` with every .wasm request held until `release()`; `pictures` lists the first
 * screen's picture requests. */
async function held(viewport, query = "", options = {}) {
  const context = await env.browser.newContext({ viewport, deviceScaleFactor: 1, ...options });
  const page = await context.newPage();
  const problems = [];
  await watchPolicy(page, env.server.url, problems);
  page.on("pageerror", (err) => problems.push(`pageerror: ${err.message}`));
  page.on("console", (msg) => msg.type() === "error" && problems.push(`console: ${msg.text()}`));
  await page.addInitScript(recordShifts);
  let release;
  const gate = new Promise((ok) => (release = ok));
  await page.route(/\.wasm$/, async (route) => {
    await gate;
    await route.continue();
  });
  const pictures = [];
  page.on("request", (r) => r.url().includes("/first-view/") && pictures.push(r.url()));
  await page.goto(env.server.url + query);
  return { context, page, problems, release, pictures };
}

/**
 * In the page: what the first screen shows, in the copy (`copy`) or the live page, and where its
 * figure's picture or canvas is (page coordinates); null until the copy's picture has loaded, or
 * the live figure exists.
 */
function readScreen(copy) {
  const root = copy ? document.querySelector("#app > .first-screen") : document.getElementById("app");
  const figure = copy ? root?.querySelector("figure") : document.getElementById("fig-attention");
  const picture = figure?.querySelector(copy ? "img.first-picture" : "canvas:not(.layer)");
  if (!picture) return null;
  if (copy && (getComputedStyle(root).display === "none" || !picture.complete || !picture.naturalWidth)) return null;
  const box = picture.getBoundingClientRect();
  const section = figure.closest("section");
  const theme = document.documentElement.dataset.theme;
  return {
    heading: section.querySelector("h2").textContent,
    paragraph: section.querySelector("p").textContent,
    sentence: figure.querySelector("input[type=text]").value,
    finding: figure.querySelector(".finding").textContent,
    box: { x: box.x, y: box.y + scrollY, width: box.width, height: box.height },
    ids: root.querySelectorAll("[id]").length,
    styles: root.querySelectorAll("[style]").length,
    src: picture.getAttribute("src"),
    widths: picture.getAttribute(`data-${theme}`),
    copy: !!document.querySelector(".first-screen"),
    marked: document.documentElement.classList.contains("first-view"),
    overlay: !!figure.querySelector(".canvas-wrap > img.first-overlay"),
  };
}

for (const [name, viewport, theme] of [
  ["phone (412 × 823), light", { width: 412, height: 823 }, "light"],
  ["desktop (1280 × 900), dark", { width: 1280, height: 900 }, "dark"],
]) {
  test(`${name}: the first screen's copy shows at once and the live one lands on it`, async () => {
    const { context, page, problems, release } = await held(viewport, "", { colorScheme: theme });
    try {
      const copy = await (await page.waitForFunction(readScreen, true, { timeout: 10000 })).jsonValue();
      assert.equal(copy.ids, 0, "the copy repeats no id of the live page");
      assert.equal(copy.styles, 0, "the copy has no inline style (the policy refuses it)");
      // The picture is the one drawn for the width nearest the figure's, in the page's theme.
      const choices = copy.widths.split(" ").map((e) => [Number(e.split(":")[0]), e.split(":")[1]]);
      const nearest = choices.reduce((a, b) => (Math.abs(b[0] - copy.box.width) < Math.abs(a[0] - copy.box.width) ? b : a));
      assert.equal(copy.src, nearest[1]);
      assert.match(copy.src, new RegExp(`^first-view/fig-attention-${theme}-\\d+-[0-9a-f]{16}\\.svg$`));
      assert.ok(!(await page.$("#fig-attention")), "the app has not started");

      release();
      await page.waitForSelector("#fig-attention");
      const live = await page.evaluate(readScreen, false);
      assert.equal(live.copy, false, "the copy is gone once the app has built its own");
      assert.equal(live.marked, false);
      for (const key of ["heading", "paragraph", "sentence", "finding"]) assert.equal(copy[key], live[key], key);
      for (const key of ["x", "y", "width", "height"]) {
        assert.ok(Math.abs(copy.box[key] - live.box[key]) <= 0.5, `${key}: copy ${copy.box[key]}, live ${live.box[key]}`);
      }
      // Until the live figure draws, its picture lies over the canvas; once drawn, it is gone.
      await page.locator("#fig-attention").scrollIntoViewIfNeeded();
      await page.waitForFunction(() => Number(document.getElementById("fig-attention").dataset.drawnAt) > 0);
      await page.waitForFunction(() => !document.querySelector(".first-overlay"));
      const shift = await page.evaluate(() => window.__shift);
      assert.ok(shift <= 0.01, `layout shift ${shift}`);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
}

test("phone: off screen, the live figure keeps the picture over its canvas until it draws", async () => {
  const { context, page, problems, release } = await held({ width: 412, height: 823 });
  try {
    await page.waitForFunction(readScreen, true, { timeout: 10000 });
    release();
    await page.waitForSelector("#fig-attention");
    await page.waitForTimeout(500);
    const before = await page.evaluate(readScreen, false);
    assert.equal(before.overlay, true, "the figure below the fold has not drawn: its picture stays");
    // `data-drawn-at` is 0 until the figure's first draw.
    assert.equal(Number(await page.getAttribute("#fig-attention", "data-drawn-at")), 0);
    await page.locator("#fig-attention").scrollIntoViewIfNeeded();
    await page.waitForFunction(() => Number(document.getElementById("fig-attention").dataset.drawnAt) > 0);
    await page.waitForFunction(() => !document.querySelector(".first-overlay"));
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

for (const query of ["?s=dog+bites+man", "?pos=3", "#fig-heatmap", "?embed=fig-attention"]) {
  test(`a link that is not at the defaults (${query}) never shows the copy`, async () => {
    const { context, page, problems, release, pictures } = await held({ width: 1280, height: 900 }, query);
    try {
      await page.waitForLoadState("domcontentloaded");
      const state = await page.evaluate(() => ({
        marked: document.documentElement.classList.contains("first-view"),
        copy: !!document.querySelector(".first-screen"),
      }));
      assert.equal(state.marked, false);
      assert.equal(state.copy, false);
      release();
      await page.waitForSelector("#fig-attention, .embed figure");
      assert.deepEqual(pictures, [], "no picture of the default state is fetched");
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
}

test("when the WebAssembly cannot load, the copy stays readable under the failure message", async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  try {
    await page.route(/\.wasm$/, (route) => route.abort());
    await page.goto(env.server.url);
    await page.waitForSelector("#loading.failed", { timeout: 5000 });
    assert.ok(await page.isVisible("#app > .first-screen h2"));
  } finally {
    await context.close();
  }
});
