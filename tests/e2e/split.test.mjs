// The book split by chapter (tools/build.mjs, src/app/chapters): the shell and chapter 1's opening
// (up to its first figure) are the main wasm module; the rest of chapter 1 and each later chapter
// are modules of their own, fetched when the page first needs them. A reader of one embedded
// figure downloads its part only; a chapter that cannot be fetched says so and can be tried again.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdir } from "node:fs/promises";
import { resolve } from "node:path";
import { bookMounted, onPage, shareBrowser } from "./harness.mjs";

const env = shareBrowser();
const DIST = resolve(new URL("../../dist", import.meta.url).pathname);
const LATER = ["sinusoids_rest", "rope", "context", "tables", "models", "vision"];

/** The chapter modules the page fetched (`split_rope-<hash>.wasm` → "rope"). */
function chapterModules(page) {
  return page.evaluate(() =>
    performance
      .getEntriesByType("resource")
      .map((e) => e.name.match(/\/split_(\w+?)-[0-9a-f]+\.wasm$/)?.[1])
      .filter(Boolean),
  );
}

test("dist has a module of its own for the rest of chapter 1 and for each later chapter", async () => {
  const names = await readdir(DIST);
  for (const chapter of LATER) {
    assert.ok(
      names.some((n) => new RegExp(`^split_${chapter}-[0-9a-f]{12,16}\\.wasm$`).test(n)),
      `no module of chapter ${chapter} in ${DIST}: ${names.filter((n) => n.endsWith(".wasm")).join(", ")}`,
    );
  }
});

test("an embedded figure fetches its own part's module and no other", async () => {
  await onPage(env.browser, `${env.server.url}?embed=fig-attention`, async (page) => {
    await page.waitForFunction(() => Number(document.querySelector("#fig-attention")?.dataset.drawnAt) > 0);
    assert.deepEqual(await chapterModules(page), []);
  });
  await onPage(env.browser, `${env.server.url}?embed=fig-heatmap`, async (page) => {
    assert.deepEqual(await chapterModules(page), ["sinusoids_rest"]);
  });
  await onPage(env.browser, `${env.server.url}?embed=fig-ctx-turns`, async (page) => {
    await page.waitForFunction(() => Number(document.querySelector("#fig-ctx-turns")?.dataset.drawnAt) > 0);
    assert.deepEqual(await chapterModules(page), ["context"]);
  });
});

test("an embed starts its chapter's modules while the main module is still on its way, and fetches each once", async () => {
  const context = await env.browser.newContext({ viewport: { width: 720, height: 900 } });
  const page = await context.newPage();
  const wasm = [];
  page.on("request", (r) => {
    if (r.url().endsWith(".wasm")) wasm.push(r.url().split("/").pop());
  });
  let seen;
  const chapter = new Promise((ok) => (seen = ok));
  page.on("request", (r) => {
    if (/\/split_models-[0-9a-f]+\.wasm$/.test(r.url())) seen();
  });
  try {
    // The main module is held back until chapter 5's module has been requested: without the
    // build's preload list the app asks for it only once the main module has loaded, so this
    // waits until its limit and fails.
    let early = false;
    await page.route(/\/pe-explorer-[0-9a-f]+_bg\.wasm$/, async (route) => {
      early = await Promise.race([chapter.then(() => true), new Promise((ok) => setTimeout(() => ok(false), 5000))]);
      await route.continue();
    });
    await page.goto(`${env.server.url}?embed=fig-models-layers`);
    await page.waitForFunction(() => Number(document.querySelector(".embed #fig-models-layers")?.dataset.drawnAt) > 0, null, { timeout: 10000 });
    assert.ok(early, "chapter 5's module was not requested while the main module was held");
    assert.deepEqual(wasm, [...new Set(wasm)], "a module was requested twice (the preload was not used)");
    assert.deepEqual(await chapterModules(page), ["models"]);
  } finally {
    await context.close();
  }
});

test("the whole book fetches every chapter, and a link into chapter 4 lands on its figure", async () => {
  await onPage(env.browser, `${env.server.url}#fig-tab-alibi`, async (page) => {
    assert.deepEqual((await chapterModules(page)).sort(), [...LATER].sort());
    await page.waitForFunction(() => {
      const r = document.getElementById("fig-tab-alibi")?.getBoundingClientRect();
      return r && r.top >= -1 && r.top < innerHeight / 2;
    });
  });
});

test("a link into chapter 1 lands on its figure, drawn, before the later chapters arrive", async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  let release;
  const held = new Promise((ok) => (release = ok));
  try {
    // Chapter 2's module is held back until the figure of chapter 1 is checked.
    await page.route(/\/split_rope-[0-9a-f]+\.wasm$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${env.server.url}#fig-similarity`);
    await page.waitForFunction(() => {
      const fig = document.getElementById("fig-similarity");
      const r = fig?.getBoundingClientRect();
      const drawn = fig && Math.max(...[fig, ...fig.querySelectorAll("[data-drawn-at]")].map((e) => Number(e.dataset.drawnAt) || 0)) > 0;
      return r && r.top >= -1 && r.top < innerHeight / 2 && drawn;
    }, null, { timeout: 10000 });
    assert.equal(await page.$("#rope"), null, "chapter 2 was built before its module was let through");
    release();
    await page.waitForSelector("#fig-rope-wheels");
    await bookMounted(page);
    // What was built below the figure did not move it.
    const top = await page.evaluate(() => document.getElementById("fig-similarity").getBoundingClientRect().top);
    assert.ok(top >= -1 && top < 450, `fig-similarity's top moved to ${top}`);
  } finally {
    release();
    await context.close();
  }
});

test("with the first figure in view, the later chapters' modules are fetched only after it has drawn", async () => {
  await onPage(env.browser, env.server.url, { width: 1280, height: 900 }, async (page) => {
    await bookMounted(page);
    const { drawn, fetched } = await page.evaluate(() => ({
      // The first figure's first draw: the one draw it has had, as nothing changed it since.
      drawn: Number(document.getElementById("fig-attention").dataset.drawnAt),
      fetched: performance
        .getEntriesByType("resource")
        .filter((e) => /\/(split_|chunk_)\w+-[0-9a-f]+\.wasm$/.test(e.name))
        .map((e) => [e.name.split("/").pop(), e.startTime]),
    }));
    assert.ok(fetched.length > 0 && drawn > 0);
    for (const [name, start] of fetched) assert.ok(start >= drawn, `${name} fetched at ${start} ms, the first figure drew at ${drawn} ms`);
  });
});

test("a chapter whose module cannot be fetched says so, and Try again brings it", async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (err) => errors.push(err.message));
  try {
    const refuse = (route) => route.abort();
    await page.route(/\/split_rope-[0-9a-f]+\.wasm$/, refuse);
    // A link to one of its figures lands on the message, which names the chapter.
    await page.goto(`${env.server.url}#fig-rope-wheels`);
    const message = page.locator("#app .chapter-failed");
    await message.waitFor({ timeout: 10000 });
    assert.match(await message.textContent(), /^Chapter 2, “Rotations: RoPE”, could not be loaded/);
    await page.waitForFunction(() => {
      const r = document.querySelector("#app .chapter-failed")?.getBoundingClientRect();
      return r && r.top >= -1 && r.bottom <= innerHeight;
    });
    assert.equal(await page.$("#fig-rope-2d"), null);
    // The other chapters are there, and the book counts as built.
    await page.waitForSelector("#fig-ctx-turns");
    await bookMounted(page);

    await page.unroute(/\/split_rope-[0-9a-f]+\.wasm$/, refuse);
    await message.getByRole("button", { name: "Try again" }).click();
    await page.waitForSelector("#fig-rope-2d");
    assert.equal(await page.$("#app .chapter-failed"), null);
    await page.locator("#fig-rope-2d").scrollIntoViewIfNeeded();
    await page.waitForFunction(() => Number(document.querySelector("#fig-rope-2d")?.dataset.drawnAt) > 0);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test("a link to a figure of chapter 1's rest, whose module cannot be fetched, lands on the message that says so", async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  try {
    await page.route(/\/split_sinusoids_rest-[0-9a-f]+\.wasm$/, (route) => route.abort());
    await page.goto(`${env.server.url}#fig-heatmap`);
    const message = page.locator("#sinusoids .chapter-failed");
    await message.waitFor({ timeout: 10000 });
    assert.match(await message.textContent(), /^The rest of chapter 1, “Order and sinusoids”, could not be loaded/);
    await page.waitForFunction(() => {
      const r = document.querySelector("#sinusoids .chapter-failed")?.getBoundingClientRect();
      return r && r.top >= -1 && r.bottom <= innerHeight;
    });
    // The opening is there, above it.
    assert.ok(await page.$("#fig-attention"));
  } finally {
    await context.close();
  }
});

test("the SVG renderer is a module of its own: fetched at the first SVG download, and a refused fetch says failed", async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (err) => errors.push(err.message));
  try {
    await page.goto(`${env.server.url}?embed=fig-heatmap`);
    await page.waitForSelector("#fig-heatmap canvas");
    await bookMounted(page);
    const svgFetched = () =>
      page.evaluate(() => performance.getEntriesByType("resource").some((e) => /\/split_svg-[0-9a-f]+\.wasm$/.test(e.name)));
    assert.equal(await svgFetched(), false, "the SVG module was fetched before any SVG download");

    const refuse = (route) => route.abort();
    await page.route(/\/split_svg-[0-9a-f]+\.wasm$/, refuse);
    await page.click("#fig-heatmap .figure-download");
    await page.click("#fig-heatmap .figure-svg");
    await page.waitForFunction(() => document.querySelector("#fig-heatmap .figure-svg .figure-link-status")?.textContent === "failed");

    await page.unroute(/\/split_svg-[0-9a-f]+\.wasm$/, refuse);
    const [file] = await Promise.all([page.waitForEvent("download"), page.click("#fig-heatmap .figure-svg")]);
    assert.equal(file.suggestedFilename(), "fig-heatmap.svg");
    assert.equal(await svgFetched(), true);
    assert.equal(await page.textContent("#fig-heatmap .figure-svg .figure-link-status"), "");
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
