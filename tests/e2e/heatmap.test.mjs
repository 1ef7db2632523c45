// The skeleton's figure in a real browser: loads cleanly, draws, reacts to the keyboard, and its
// hover readout agrees with the formula.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { serveDist, launch, openPage, showFigure } from "./harness.mjs";

let server;
let browser;

before(async () => {
  server = await serveDist();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** Summary of the heatmap canvas: distinct colours in the plot and a hash of all pixels. */
async function canvasStats(page) {
  return page.evaluate(() => {
    const c = document.querySelector("#fig-heatmap canvas");
    const data = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
    const colours = new Set();
    let hash = 2166136261;
    for (let i = 0; i < data.length; i += 4) {
      const v = (data[i] << 16) | (data[i + 1] << 8) | data[i + 2];
      colours.add(v);
      hash = Math.imul(hash ^ v, 16777619) >>> 0;
    }
    return { colours: colours.size, hash, width: c.width, height: c.height };
  });
}

test("the page loads with no console errors, page errors or failed requests", async () => {
  const { page, problems, context } = await openPage(browser, server.url);
  await page.waitForTimeout(300);
  assert.deepEqual(problems, []);
  assert.equal(await page.title(), "Positional Encoding Explorer");
  await context.close();
});

test("the heatmap draws many colours", async () => {
  const { page, context } = await openPage(browser, server.url);
  await showFigure(page, "fig-heatmap");
  const stats = await canvasStats(page);
  assert.ok(stats.width > 200 && stats.height > 200, JSON.stringify(stats));
  assert.ok(stats.colours > 100, `only ${stats.colours} colours drawn`);
  await context.close();
});

test("a slider moved with the keyboard changes the heatmap and the URL", async () => {
  const { page, problems, context } = await openPage(browser, server.url);
  await showFigure(page, "fig-heatmap");
  const before = await canvasStats(page);
  await page.focus("#ctl-d");
  for (let i = 0; i < 5; i++) await page.keyboard.press("ArrowLeft");
  await page.waitForFunction(() => document.querySelector("#ctl-d-value").value === "123");
  await page.waitForTimeout(100);
  const after = await canvasStats(page);
  assert.notEqual(after.hash, before.hash, "heatmap unchanged after moving d_model");
  await page.waitForFunction(() => location.search.includes("d=123"), null, { timeout: 3000 });
  assert.deepEqual(problems, []);
  await context.close();
});

test("the hover readout shows PE(pos, i) as the formula gives it", async () => {
  const { page, context } = await openPage(browser, server.url + "?n=64&d=32&base=100");
  await showFigure(page, "fig-heatmap");
  const box = await page.locator("#fig-heatmap canvas").boundingBox();
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
  await context.close();
});

test("out-of-range URL values are clamped and the page says so", async () => {
  const { page, problems, context } = await openPage(browser, server.url + "?n=99999&d=abc");
  const notices = await page.locator(".notices li").allTextContents();
  assert.equal(notices.length, 2, notices.join(" | "));
  assert.match(notices[0], /maximum 1024/);
  assert.equal(await page.inputValue("#ctl-n-value"), "1024");
  assert.equal(await page.inputValue("#ctl-d-value"), "128");
  assert.deepEqual(problems, []);
  await context.close();
});

test("a typed value beyond the range is clamped with a notice", async () => {
  const { page, context } = await openPage(browser, server.url);
  await page.fill("#ctl-base-value", "5e9");
  await page.press("#ctl-base-value", "Enter");
  await page.waitForFunction(() => document.querySelectorAll(".notices li").length === 1);
  assert.equal(await page.inputValue("#ctl-base-value"), "1000000");
  await context.close();
});

test("the heatmap canvas is keyboard-readable", async () => {
  const { page, context } = await openPage(browser, server.url);
  await page.focus("#fig-heatmap canvas");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowRight");
  const cell = await page.locator("#fig-heatmap-readout").getAttribute("data-cell");
  assert.equal(cell, "1,1");
  const label = await page.locator("#fig-heatmap canvas").getAttribute("aria-label");
  assert.match(label, /100 positions down, 128 dimensions across/);
  await context.close();
});
