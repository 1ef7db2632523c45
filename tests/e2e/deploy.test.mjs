// The built site works from any path prefix (a GitHub Pages project site, a blog's sub-folder):
// dist/ served under /some/prefix/ loads with no failed request, and every figure draws.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { resolve } from "node:path";
import { launch, openPage, showFigure } from "./harness.mjs";
import { serveStatic } from "./serve.mjs";

const DIST = resolve(new URL("../../dist", import.meta.url).pathname);
let server;
let browser;

before(async () => {
  // Only the prefix is served: a request that escapes it (an absolute /asset path) is a 404.
  server = await serveStatic({ "/some/prefix/": DIST });
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

test("served under /some/prefix/, the page loads with no failed request and every figure draws", async () => {
  const { page, problems, context } = await openPage(browser, `${server.url}/some/prefix/?r.d=64#fig-rope-2d`);
  try {
    const ids = await page.$$eval("figure[id^=fig-]", (f) => f.map((x) => x.id));
    assert.ok(ids.length >= 18, `only ${ids.length} figures`);
    for (const id of ids) await showFigure(page, id);
    const undrawn = await page.evaluate((ids) => ids.filter((id) => !(Number(document.getElementById(id).dataset.drawnAt) > 0)), ids);
    assert.deepEqual(undrawn, []);
    // The address keeps its prefix when the state is written back.
    await page.fill("#ctl-r-d-value", "32");
    await page.press("#ctl-r-d-value", "Enter");
    await page.waitForFunction(() => location.search.includes("r.d=32"), null, { timeout: 3000 });
    assert.equal(await page.evaluate(() => location.pathname), "/some/prefix/");
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
