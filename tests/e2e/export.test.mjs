// Pictures and numbers out: a figure's download button opens PNG, SVG and CSV buttons.
// - PNG downloads `<figure-id>.png`, a valid PNG at twice the CSS size of the figure's canvases (the
//   page runs at one device pixel per CSS pixel here), with the picture in it; afterwards the figure
//   is back at the screen's density. A figure of text (the comparison table) has no download button.
// - SVG downloads `<figure-id>.svg`: a document that parses, as wide as the figure, one nested <svg>
//   per panel with its title, heatmap cells as one embedded PNG; drawn with no CSP violation.
// - CSV downloads `<figure-id>.csv`: the state in a comment, one table per panel, as many rows as
//   the figure shows (positions, pairs…).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { onPage, shareBrowser, showFigure } from "./harness.mjs";

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
    await onPage(env.browser, env.server.url, { width: 1280, height: 900 }, { acceptDownloads: true }, async (page) => {
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
      await page.click(`#${id} .figure-download`);
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
    });
  });
}

test("a figure of text has no download button", async () => {
  await onPage(env.browser, env.server.url, async (page) => {
    await showFigure(page, "fig-tab-compare");
    assert.equal(await page.locator("#fig-tab-compare .figure-download").isVisible(), false);
    await page.click("#fig-heatmap .figure-download");
    assert.equal(await page.locator("#fig-heatmap .figure-png").isVisible(), true);
  });
});

/** The text of the file figure `id`'s `kind` (svg, csv) button downloads. */
async function download(page, id, kind) {
  if (!(await page.locator(`#${id} .figure-${kind}`).isVisible())) await page.click(`#${id} .figure-download`);
  const [file] = await Promise.all([page.waitForEvent("download"), page.click(`#${id} .figure-${kind}`)]);
  assert.equal(file.suggestedFilename(), `${id}.${kind}`);
  return readFile(await file.path(), "utf8");
}

/** The data rows of panel `k` (from 1) of a CSV. */
function csvRows(text, k) {
  const lines = text.split("\n");
  const start = lines.findIndex((l) => l.startsWith(`# panel ${k}: `));
  assert.ok(start >= 0, `panel ${k}`);
  const rows = [];
  for (const line of lines.slice(start + 1)) {
    if (line === "" || line.startsWith("# panel")) break;
    if (!line.startsWith("#")) rows.push(line.split(","));
  }
  return rows.slice(1); // without the header
}

// A heatmap (cells as a PNG), two panels, clock faces, log axes; in the dark theme.
// The clocks show at most 12 of the 16 pairs of d = 32; c.d = 48 has 24 pairs.
const cases = [
  { id: "fig-heatmap", query: "n=64&d=32", panels: 1, images: 1, rows: [64] },
  { id: "fig-similarity", query: "n=64&d=32", panels: 2, images: 1, rows: [64, 64] },
  { id: "fig-clocks", query: "n=64&d=32", panels: 1, images: 0, rows: [12] },
  { id: "fig-ctx-wavelengths", query: "c.d=48", panels: 2, images: 0, rows: [24, 24] },
];
for (const { id, query, panels, images, rows } of cases) {
  test(`${id}: SVG and CSV downloads hold the figure in the link's state`, async () => {
    const url = `${env.server.url}?${query}&theme=dark`;
    await onPage(env.browser, url, { width: 1280, height: 900 }, { acceptDownloads: true }, async (page) => {
      await showFigure(page, id);
      const svg = await download(page, id, "svg");
      const shape = await page.evaluate(([text, id]) => {
        const doc = new DOMParser().parseFromString(text, "image/svg+xml");
        const root = doc.documentElement;
        const canvas = [...document.querySelectorAll(`#${id} canvas:not(.layer)`)];
        return {
          error: doc.querySelector("parsererror")?.textContent ?? null,
          tag: root.tagName,
          width: Number(root.getAttribute("width")),
          canvasWidth: Math.round(Math.max(...canvas.map((c) => c.getBoundingClientRect().width))),
          panels: [...root.children].filter((c) => c.tagName === "svg").length,
          images: root.querySelectorAll("image").length,
          pngs: [...root.querySelectorAll("image")].every((i) => i.getAttribute("href").startsWith("data:image/png;base64,iVBOR")),
          texts: [...root.querySelectorAll("text")].map((t) => t.textContent.trim()),
          background: root.querySelector("svg > rect")?.getAttribute("fill"),
        };
      }, [svg, id]);
      assert.equal(shape.error, null);
      assert.equal(shape.tag, "svg");
      assert.equal(shape.width, shape.canvasWidth, "as wide as the figure on the page");
      assert.equal(shape.panels, panels);
      assert.equal(shape.images, images);
      assert.ok(shape.pngs);
      assert.equal(shape.background, "#161B22", "the dark theme");
      assert.ok(shape.texts.length > 10, "titles, ticks and labels");
      const csv = await download(page, id, "csv");
      assert.ok(csv.startsWith(`# Positional Encoding Explorer · ${id}`));
      assert.ok(csv.includes(`# state: ?${query}`), csv.slice(0, 200));
      rows.forEach((count, k) => assert.equal(csvRows(csv, k + 1).length, count, `panel ${k + 1}`));
    });
  });
}

test("a control change is in the next CSV", async () => {
  await onPage(env.browser, `${env.server.url}?n=20`, { width: 1280, height: 900 }, { acceptDownloads: true }, async (page) => {
    await showFigure(page, "fig-waves");
    assert.equal(csvRows(await download(page, "fig-waves", "csv"), 1).length, 20);
    await page.fill("#ctl-n-value", "30");
    await page.locator("#ctl-n-value").dispatchEvent("change");
    assert.equal(csvRows(await download(page, "fig-waves", "csv"), 1).length, 30);
  });
});
