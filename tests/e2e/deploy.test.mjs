// The built site works from any path prefix (a GitHub Pages project site, a blog's sub-folder):
// dist/ served under /some/prefix/ loads with no failed request, and every figure draws. The
// pre-compressed copies beside each file are what they compress, and the page loads from them.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { extname, join, resolve } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { launch, onPage, showFigure } from "./harness.mjs";
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
  await onPage(browser, `${server.url}/some/prefix/?r.d=64#fig-rope-2d`, async (page) => {
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
  });
});

test("every text asset has brotli and gzip copies that decompress to it, and the page loads from them", async () => {
  // The copies a host may send instead of the file (tools/precompress.mjs, Trunk's post-build hook):
  // a stale or truncated one would break the page only on hosts that serve them.
  const names = await readdir(DIST);
  const assets = names.filter((n) => [".html", ".js", ".css", ".wasm", ".svg"].includes(extname(n)));
  assert.ok(assets.some((n) => n.endsWith(".wasm")), `no wasm in ${DIST}`);
  for (const name of assets) {
    const body = await readFile(join(DIST, name));
    for (const [suffix, unpack] of [["br", brotliDecompressSync], ["gz", gunzipSync]]) {
      assert.ok(names.includes(`${name}.${suffix}`), `${name}.${suffix} is missing`);
      const packed = await readFile(join(DIST, `${name}.${suffix}`));
      assert.ok(packed.length < body.length, `${name}.${suffix} is not smaller`);
      assert.ok(unpack(packed).equals(body), `${name}.${suffix} does not decompress to ${name}`);
    }
  }
  const brotli = await serveStatic({ "/": DIST }, {}, { brotli: true });
  const encodings = [];
  try {
    await onPage(browser, `${brotli.url}/`, async (page) => {
      page.on("response", (res) => encodings.push([res.url(), res.headers()["content-encoding"]]));
      await page.reload();
      await page.waitForFunction(
        () => {
          const fig = document.getElementById("fig-attention");
          return !!fig && [fig, ...fig.querySelectorAll("[data-drawn-at]")].some((e) => Number(e.dataset.drawnAt) > 0);
        },
        null,
        { timeout: 10000 },
      );
      const wasm = encodings.find(([url]) => url.endsWith(".wasm"));
      assert.equal(wasm?.[1], "br", `the wasm came ${wasm?.[1] ?? "uncompressed"}`);
    });
  } finally {
    await brotli.close();
  }
});
