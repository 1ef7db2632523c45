// The skeleton's figure in a real browser: loads cleanly, draws, reacts to the keyboard, and its
// hover readout agrees with the formula.
import { test } from "node:test";
import assert from "node:assert/strict";
import { onPage, openPage, showFigure, shareBrowser } from "./harness.mjs";

const env = shareBrowser();

/**
 * Summary of the heatmap: distinct colours in its cells layer (one pixel per shown cell), a hash of
 * every pixel of the figure's canvas and its layers, and the figure canvas's size.
 */
async function canvasStats(page) {
  return page.evaluate(() => {
    const c = document.querySelector("#fig-heatmap canvas:not(.layer)");
    const cells = document.querySelector("#fig-heatmap canvas.cells");
    const colours = new Set();
    let hash = 2166136261;
    for (const layer of [c, ...document.querySelectorAll("#fig-heatmap canvas.layer")]) {
      const data = layer.getContext("2d").getImageData(0, 0, layer.width, layer.height).data;
      for (let i = 0; i < data.length; i += 4) {
        const v = (data[i] << 16) | (data[i + 1] << 8) | data[i + 2];
        if (layer === cells) colours.add(v);
        hash = Math.imul(hash ^ v, 16777619) >>> 0;
      }
    }
    return { colours: colours.size, hash, width: c.width, height: c.height };
  });
}

test("the page loads with no console errors, page errors or failed requests", async () => {
  const { page, problems, context } = await openPage(env.browser, env.server.url);
  await page.waitForTimeout(300);
  assert.deepEqual(problems, []);
  assert.equal(await page.title(), "Positional Encoding Explorer");
  await context.close();
});

test("the heatmap draws many colours", async () => {
  await onPage(env.browser, env.server.url, async (page) => {
    await showFigure(page, "fig-heatmap");
    const stats = await canvasStats(page);
    assert.ok(stats.width > 200 && stats.height > 200, JSON.stringify(stats));
    assert.ok(stats.colours > 100, `only ${stats.colours} colours drawn`);
  });
});

test("a slider moved with the keyboard changes the heatmap and the URL", async () => {
  await onPage(env.browser, env.server.url, async (page) => {
    await showFigure(page, "fig-heatmap");
    const before = await canvasStats(page);
    await page.focus("#ctl-d");
    for (let i = 0; i < 5; i++) await page.keyboard.press("ArrowLeft");
    await page.waitForFunction(() => document.querySelector("#ctl-d-value").value === "123");
    await page.waitForTimeout(100);
    const after = await canvasStats(page);
    assert.notEqual(after.hash, before.hash, "heatmap unchanged after moving d_model");
    await page.waitForFunction(() => location.search.includes("d=123"), null, { timeout: 3000 });
  });
});

test("the hover readout shows PE(pos, i) as the formula gives it", async () => {
  await onPage(env.browser, env.server.url + "?n=64&d=32&base=100", async (page) => {
    await showFigure(page, "fig-heatmap");
    const box = await page.locator("#fig-heatmap canvas:not(.layer)").boundingBox();
    // Somewhere inside the plot area (left of the colour bar, below the title).
    await page.mouse.move(box.x + box.width * 0.45, box.y + box.height * 0.5);
    const readout = page.locator("#fig-heatmap-readout");
    await page.waitForFunction(() => document.querySelector("#fig-heatmap-readout").dataset.cell !== "");
    const [pos, i] = (await readout.getAttribute("data-cell")).split(",").map(Number);
    const shown = Number(await readout.getAttribute("data-value"));
    const angle = pos / Math.pow(100, (2 * Math.floor(i / 2)) / 32);
    const expected = i % 2 === 0 ? Math.sin(angle) : Math.cos(angle);
    assert.ok(Math.abs(shown - expected) < 1e-9, `PE(${pos}, ${i}) = ${shown}, formula ${expected}`);
    assert.match(await readout.textContent(), new RegExp(`^PE\\(${pos}, ${i}\\) = -?\\d\\.\\d{6}`));
  });
});

test("out-of-range URL values are clamped and the page says so", async () => {
  await onPage(env.browser, env.server.url + "?n=99999&d=abc", async (page) => {
    const notices = await page.locator(".notices li").allTextContents();
    assert.equal(notices.length, 2, notices.join(" | "));
    assert.match(notices[0], /maximum 1024/);
    assert.equal(await page.inputValue("#ctl-n-value"), "1024");
    assert.equal(await page.inputValue("#ctl-d-value"), "128");
  });
});

test("a typed value beyond the range is clamped with a notice", async () => {
  await onPage(env.browser, env.server.url, async (page) => {
    await page.fill("#ctl-base-value", "5e9");
    await page.press("#ctl-base-value", "Enter");
    await page.waitForFunction(() => document.querySelectorAll(".notices li").length === 1);
    assert.equal(await page.inputValue("#ctl-base-value"), "10000000");
  });
});

test("the heatmap canvas is keyboard-readable", async () => {
  await onPage(env.browser, env.server.url, async (page) => {
    await page.focus("#fig-heatmap canvas:not(.layer)");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowRight");
    const cell = await page.locator("#fig-heatmap-readout").getAttribute("data-cell");
    assert.equal(cell, "1,1");
    const label = await page.locator("#fig-heatmap canvas:not(.layer)").getAttribute("aria-label");
    assert.match(label, /100 positions down, 128 columns across/);
  });
});

test("the cells and marks layers lie on the plot of the heatmap canvas, the marks outlining the current position", async () => {
  await onPage(env.browser, env.server.url + "?pos=50", { width: 390, height: 800 }, { deviceScaleFactor: 2 }, async (page) => {
    await showFigure(page, "fig-heatmap");
    const r = await page.evaluate(() => {
      const rect = (sel) => document.querySelector(sel).getBoundingClientRect().toJSON();
      const cells = document.querySelector("#fig-heatmap canvas.cells");
      const marks = document.querySelector("#fig-heatmap canvas.marks");
      // The outline's rows in the marks canvas: rows with any opaque pixel.
      const m = marks.getContext("2d").getImageData(0, 0, marks.width, marks.height).data;
      const rows = [];
      for (let y = 0; y < marks.height; y++) {
        for (let x = 0; x < marks.width; x++) if (m[(y * marks.width + x) * 4 + 3] > 0) { rows.push(y); break; }
      }
      return {
        canvas: rect("#fig-heatmap canvas:not(.layer)"),
        cells: rect("#fig-heatmap .layer-clip"),
        marks: rect("#fig-heatmap canvas.marks"),
        cellSize: [Number(cells.dataset.cols), Number(cells.dataset.rows)],
        marksScale: marks.width / marks.getBoundingClientRect().width,
        outline: [Math.min(...rows), Math.max(...rows)],
      };
    });
    const inside = (a, b) => a.left >= b.left - 0.01 && a.right <= b.right + 0.01 && a.top >= b.top - 0.01 && a.bottom <= b.bottom + 0.01;
    assert.ok(inside(r.cells, r.canvas), `cells ${JSON.stringify(r.cells)} outside the canvas ${JSON.stringify(r.canvas)}`);
    assert.ok(inside(r.cells, r.marks), `cells ${JSON.stringify(r.cells)} not under the marks ${JSON.stringify(r.marks)}`);
    assert.ok(r.cells.width > 150 && r.cells.height > 150, JSON.stringify(r.cells));
    // 100 positions × 128 dimensions in the cells layer (the top-left corner of its canvas, which
    // the box clips); row 50 is the outlined one: its band is at 50/100 of the plot.
    assert.deepEqual(r.cellSize, [128, 100]);
    const rowTop = r.cells.top + (r.cells.height * 50) / 100;
    const rowBottom = r.cells.top + (r.cells.height * 51) / 100;
    const outlineTop = r.marks.top + r.outline[0] / r.marksScale;
    const outlineBottom = r.marks.top + r.outline[1] / r.marksScale;
    assert.ok(Math.abs(outlineTop - rowTop) < 3 && Math.abs(outlineBottom - rowBottom) < 3,
      `outline ${outlineTop}–${outlineBottom} px, row 50 at ${rowTop}–${rowBottom} px`);
  });
});

test("copy link puts the current view on the clipboard, even right after a change", async () => {
  const { page, problems, context } = await openPage(env.browser, env.server.url, undefined, {
    permissions: ["clipboard-read", "clipboard-write"],
  });
  await page.fill("#ctl-d-value", "64");
  await page.press("#ctl-d-value", "Enter");
  // At once: the address bar is written only after a quiet moment, the copied link must not lag.
  const button = page.getByRole("button", { name: "Copy link" });
  await button.click();
  await page.waitForFunction(() => [...document.querySelectorAll(".masthead button")].some((b) => b.textContent === "Link copied"));
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.match(copied, /[?&]d=64(&|$)/, `copied ${copied}`);
  assert.equal(copied, await page.evaluate(() => location.href), "the address bar shows the copied link");
  // A fresh page opened at the copied link shows the same view.
  const again = await context.newPage();
  await again.goto(copied);
  await again.waitForSelector("#ctl-d-value");
  await again.waitForFunction(() => document.querySelector("#ctl-d-value").value === "64");
  assert.deepEqual(problems, []);
  await context.close();
});
