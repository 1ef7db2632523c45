// Pictures out: a figure's PNG button downloads `<figure-id>.png`, a valid PNG at twice the CSS size
// of the figure's canvases (the page runs at one device pixel per CSS pixel here), with the picture
// in it; afterwards the figure is back at the screen's density. A figure without a canvas (a table)
// has no PNG button.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { openPage, shareBrowser, showFigure } from "./harness.mjs";

const env = shareBrowser();

/** Width and height from a PNG's IHDR chunk, after checking its signature. */
function pngSize(bytes) {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  assert.deepEqual([...bytes.subarray(0, 8)], signature, "PNG signature");
  assert.equal(bytes.subarray(12, 16).toString("latin1"), "IHDR");
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

// A matrix figure drawn in layers, a figure on two canvases, small multiples, a line plot.
for (const id of ["fig-heatmap", "fig-rope-wheels", "fig-tab-alibi", "fig-ctx-wavelengths"]) {
  test(`${id}: the PNG button downloads the figure at twice its size`, async () => {
    const { page, problems, context } = await openPage(env.browser, env.server.url, { width: 1280, height: 900 }, { acceptDownloads: true });
    try {
      await showFigure(page, id);
      // The expected size: the union of the figure's laid-out canvases, in CSS pixels.
      const css = await page.evaluate((id) => {
        const rects = [...document.querySelectorAll(`#${id} canvas`)]
          .map((c) => (c.parentElement.classList.contains("layer-clip") ? c.parentElement : c).getBoundingClientRect())
          .filter((r) => r.width > 0 && r.height > 0);
        const left = Math.min(...rects.map((r) => r.left));
        const right = Math.max(...rects.map((r) => r.right));
        const top = Math.min(...rects.map((r) => r.top));
        const bottom = Math.max(...rects.map((r) => r.bottom));
        return { width: right - left, height: bottom - top };
      }, id);
      const [download] = await Promise.all([page.waitForEvent("download"), page.click(`#${id} .figure-png`)]);
      assert.equal(download.suggestedFilename(), `${id}.png`);
      const bytes = await readFile(await download.path());
      const size = pngSize(bytes);
      assert.ok(Math.abs(size.width - 2 * css.width) <= 2, `width ${size.width} for ${css.width} CSS px`);
      assert.ok(Math.abs(size.height - 2 * css.height) <= 2, `height ${size.height} for ${css.height} CSS px`);
      // The picture holds the figure: many colours, not a blank.
      const colours = await page.evaluate(async (b64) => {
        const img = new Image();
        img.src = `data:image/png;base64,${b64}`;
        await img.decode();
        const c = document.createElement("canvas");
        c.width = img.width;
        c.height = img.height;
        const ctx = c.getContext("2d");
        ctx.drawImage(img, 0, 0);
        const data = ctx.getImageData(0, 0, c.width, c.height).data;
        const seen = new Set();
        for (let i = 0; i < data.length; i += 4 * 7) seen.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
        return seen.size;
      }, bytes.toString("base64"));
      assert.ok(colours > 20, `only ${colours} colours`);
      // Back at the screen's density: one backing pixel per CSS pixel.
      await page.waitForFunction(
        (id) => [...document.querySelectorAll(`#${id} canvas:not(.layer)`)].every((c) => c.width === Math.round(c.getBoundingClientRect().width)),
        id,
        { timeout: 3000 },
      );
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
}

test("a figure without a canvas has no PNG button", async () => {
  const { page, problems, context } = await openPage(env.browser, env.server.url);
  try {
    await showFigure(page, "fig-tab-compare");
    assert.equal(await page.locator("#fig-tab-compare .figure-png").isVisible(), false);
    assert.equal(await page.locator("#fig-heatmap .figure-png").isVisible(), true);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
