// Chapter 6 ("Beyond a line") in a real browser: the patch grid draws both grids, every control it
// declares repaints it, its readout and finding carry the scores of Qwen2.5-VL's axial vision
// RoPE as written here in JavaScript from transformers 5.24's Python, its CSV is `pe render`'s,
// the chosen patch goes into the link, and the chapter fits a phone.
import { test } from "node:test";
import assert from "node:assert/strict";
import { onPage, shareBrowser, showFigure } from "./harness.mjs";
import { canvasStats, csvIsPeRender, declaredControlsRepaint, installHelpers } from "./figures.mjs";

const env = shareBrowser();
const FIGURES = ["fig-vision-grid", "fig-vision-ids", "fig-vision-sections", "fig-vision-video"];

/** q·k for q = k = all ones under Qwen2.5-VL's vision RoPE (head_dim/4 frequencies
 * 1 / 10000^(2i / (head_dim/2)), rows on the first half of the pairs, columns on the second):
 * each pair adds 2·cos of its angle difference. */
function axialOnes(headDim, [r0, c0], [r, c]) {
  let s = 0;
  for (let i = 0; i < headDim / 4; i++) {
    const w = 1 / 10000 ** ((2 * i) / (headDim / 2));
    s += 2 * Math.cos((r - r0) * w) + 2 * Math.cos((c - c0) * w);
  }
  return s;
}

/** The same for 1D RoPE over the whole head, the grid read row by row (`cols` per row). */
function lineOnes(headDim, cols, [r0, c0], [r, c]) {
  const d = r * cols + c - (r0 * cols + c0);
  let s = 0;
  for (let i = 0; i < headDim / 2; i++) s += 2 * Math.cos(d / 10000 ** ((2 * i) / headDim));
  return s;
}

async function drawn(page) {
  await showFigure(page, "fig-vision-grid");
  await page.waitForFunction(() => Number(document.getElementById("fig-vision-grid")?.dataset.drawnAt) > 0);
}

test("the patch grid draws both grids, with no console error", async () => {
  await onPage(env.browser, `${env.server.url}?#vision`, async (page) => {
    await installHelpers(page);
    await drawn(page);
    const stats = await canvasStats(page, "fig-vision-grid");
    assert.equal(stats.length, 2);
    for (const s of stats) assert.ok(s.colours > 20 && s.width > 50, JSON.stringify(s));
  });
});

test("each control the patch grid declares repaints it", async (t) => {
  await onPage(env.browser, `${env.server.url}?`, async (page) => {
    await declaredControlsRepaint(t, page, { url: `${env.server.url}?`, chapter: "vision", figures: FIGURES });
  });
});

test("the finding and the keyboard readout give the scores of the vision encoder's RoPE", async () => {
  const query = "v.rows=6&v.cols=9&v.r=5&v.c=8&v.hd=80";
  await onPage(env.browser, `${env.server.url}?${query}#fig-vision-grid`, async (page) => {
    await drawn(page);
    const at = [5, 8];
    const finding = await page.textContent("#fig-vision-grid .finding");
    // The last row and column: the neighbours are one row up and one column left.
    const up = axialOnes(80, at, [4, 8]).toFixed(3);
    const left = axialOnes(80, at, [5, 7]).toFixed(3);
    assert.equal(up, left);
    assert.ok(finding.includes(`the patch above (5, 8) scores ${up}, the patch to the left of it ${left}, the same`), finding);
    assert.ok(finding.includes(`the patch above (5, 8) is 9 places away and scores ${lineOnes(80, 9, at, [4, 8]).toFixed(3)}`), finding);
    assert.ok(finding.includes(`the patch to the left of it is 1 place away and scores ${lineOnes(80, 9, at, [5, 7]).toFixed(3)}`), finding);
    const canvas = "#fig-vision-grid canvas:not(.layer) >> nth=0";
    await page.focus(canvas);
    await page.keyboard.press("Home");
    let text = await page.textContent("#fig-vision-grid-readout");
    assert.ok(text.startsWith("Patch (0, 0): 5 rows and 8 columns from (5, 8)"), text);
    assert.ok(text.includes(`axial score ${axialOnes(80, at, [0, 0]).toFixed(3)}`), text);
    assert.ok(text.includes(`53 places away in the line, score ${lineOnes(80, 9, at, [0, 0]).toFixed(3)}`), text);
    await page.keyboard.press("ArrowRight");
    text = await page.textContent("#fig-vision-grid-readout");
    assert.ok(text.startsWith("Patch (0, 1): 5 rows and 7 columns"), text);
  });
});

test("the CSV is pe render's, and the chosen patch goes into the link", async () => {
  const query = "v.rows=5&v.cols=7&v.r=2&v.c=3&v.hd=16&v.qk=random&v.seed=9";
  await onPage(env.browser, `${env.server.url}?${query}#fig-vision-grid`, async (page) => {
    await drawn(page);
    // Scores cross zero: compared to 12 digits of their scale (at least 1).
    const rows = await csvIsPeRender(page, "fig-vision-grid", query, { floor: 1 });
    assert.equal(rows, 2 * (1 + 5), "per grid a header, then a row per grid row");
    const slider = page.locator("#ctl-v-r");
    await slider.focus();
    await page.keyboard.press("End");
    await page.waitForFunction(() => new URLSearchParams(location.search).get("v.r") === "4");
  });
});

test("the frequency owners: the readout names each pair's axis in both models, and the model goes into the link", async () => {
  await onPage(env.browser, `${env.server.url}?#fig-vision-sections`, async (page) => {
    await showFigure(page, "fig-vision-sections");
    await page.waitForFunction(() => Number(document.getElementById("fig-vision-sections")?.dataset.drawnAt) > 0);
    const canvas = "#fig-vision-sections canvas:not(.layer) >> nth=0";
    const wavelength = (theta, j) => (2 * Math.PI * theta ** (j / 64)).toPrecision(3);
    await page.focus(canvas);
    await page.keyboard.press("Home");
    let text = await page.textContent("#fig-vision-sections-readout");
    assert.ok(text.startsWith(`Pair 0: wavelength ${wavelength(1e6, 0)} positions; its angle follows the t (time) id in Qwen2.5-VL-7B's chunked layout.`), text);
    await page.keyboard.press("End");
    text = await page.textContent("#fig-vision-sections-readout");
    // Pair 63: width in Qwen2.5-VL (the last of 16 + 24 + 24), time in Qwen3-VL (60 … 63 all t).
    assert.ok(text.includes("its angle follows the w (width) id in Qwen2.5-VL-7B's chunked layout"), text);
    assert.ok(text.includes("In Qwen3-VL-8B's interleaved layout pair 63 follows the t (time) id"), text);
    await page.check('input[name="v-lm"] >> nth=1');
    await page.waitForFunction(() => new URLSearchParams(location.search).get("v.lm") === "qwen3-vl-8b");
    const finding = await page.textContent("#fig-vision-sections .finding");
    assert.ok(finding.startsWith("Qwen3-VL-8B (interleaved, θ = 5\u202F000\u202F000): t (time) drives 24 pairs"), finding);
  });
});

test("choosing the model redraws the frequency figure and leaves the patch grid alone", async () => {
  await onPage(env.browser, `${env.server.url}?v.rows=32&v.cols=32&v.hd=256#fig-vision-grid`, { width: 1280, height: 2400 }, async (page) => {
    for (const id of FIGURES) {
      await showFigure(page, id);
      await page.waitForFunction((id) => Number(document.getElementById(id)?.dataset.drawnAt) > 0, id);
    }
    const at = (id) => page.evaluate((id) => Number(document.getElementById(id).dataset.drawnAt), id);
    const [grid, sections] = [await at("fig-vision-grid"), await at("fig-vision-sections")];
    await page.check('input[name="v-lm"] >> nth=1');
    await page.waitForFunction((t) => Number(document.getElementById("fig-vision-sections").dataset.drawnAt) > t, sections);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 50))));
    assert.equal(await at("fig-vision-grid"), grid, "the patch grid redrew for the other figure's model");
  });
});

test("chapter 6 fits a 390 px phone", async () => {
  await onPage(env.browser, `${env.server.url}?#vision`, { width: 390, height: 844 }, async (page) => {
    for (const id of FIGURES) {
      await showFigure(page, id);
      const wide = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(wide <= 390, `#${id}: the page is ${wide} px wide`);
    }
  });
});

/** transformers 5.24's `get_rope_index` written here in JavaScript for the figure's input (text,
 * image, text, video, text; Qwen3-VL's video as a timestamp and a `T = 1` block per temporal
 * patch), with the original Qwen code's resumption (`max + 1`) when `original`. */
function ropeIndex({ qwen3 = false, text = 3, ih = 2, iw = 3, vt = 3, vh = 2, vw = 2, ts = 8 }, original = false) {
  const groups = [["text", text], ["vision", [1, ih, iw, 1]], ["text", text]];
  if (qwen3) for (let k = 0; k < vt; k++) groups.push(["text", ts], ["vision", [1, vh, vw, 0]]);
  else groups.push(["vision", [vt, vh, vw, 2]]);
  groups.push(["text", text]);
  const ids = [];
  let pos = 0;
  for (const [kind, n] of groups) {
    if (original && ids.length) pos = Math.max(...ids.flat()) + 1;
    if (kind === "text") {
      for (let i = 0; i < n; i++) ids.push([pos + i, pos + i, pos + i]);
      pos += n;
    } else {
      const [t, h, w, dt] = n;
      for (let k = 0; k < t; k++) for (let i = 0; i < h; i++) for (let j = 0; j < w; j++) ids.push([k * dt + pos, i + pos, j + pos]);
      pos += Math.max(h, w);
    }
  }
  return ids;
}

async function idsDrawn(page) {
  await showFigure(page, "fig-vision-ids");
  await page.waitForFunction(() => Number(document.getElementById("fig-vision-ids")?.dataset.drawnAt) > 0);
}

test("the position ids: both panels draw, and the keys read each token's ids by both rules", async () => {
  const input = { text: 2, ih: 3, iw: 1, vt: 4, vh: 1, vw: 3 };
  const query = "v.tx=2&v.ih=3&v.iw=1&v.vt=4&v.vh=1&v.vw=3";
  await onPage(env.browser, `${env.server.url}?${query}#fig-vision-ids`, async (page) => {
    await installHelpers(page);
    await idsDrawn(page);
    const stats = await canvasStats(page, "fig-vision-ids");
    assert.equal(stats.length, 2);
    for (const s of stats) assert.ok(s.colours > 8 && s.width > 50, JSON.stringify(s));
    const [now, orig] = [ropeIndex(input), ropeIndex(input, true)];
    const strip = "#fig-vision-ids canvas:not(.layer) >> nth=0";
    await page.focus(strip);
    await page.keyboard.press("Home");
    for (let k = 0; k < now.length; k++) {
      const text = await page.textContent("#fig-vision-ids-readout");
      assert.ok(text.startsWith(`token ${k} · `), text);
      assert.ok(text.includes(`(t, h, w) = (${now[k].join(", ")})`), `${k}: ${text}`);
      const other = orig[k].join() === now[k].join() ? "the same" : `(${orig[k].join(", ")})`;
      assert.ok(text.includes(`the original Qwen code: ${other}`), `${k}: ${text}`);
      await page.keyboard.press("ArrowRight");
    }
    // The video (4 temporal patches, 2 apart) outruns its width 3: the rules part after it.
    const first = now.length - input.text;
    const finding = await page.textContent("#fig-vision-ids .finding");
    assert.ok(finding.includes(`starts at ${now[first - 1][0] - 6} + max(1, 3) = ${now[first][0]}, below the video's largest time id ${now[first - 1][0]}`), finding);
    assert.ok(finding.includes(`= ${orig[first][0]}.`), finding);
  });
});

test("the position ids: Qwen3-VL's blocks, the text before each temporal patch, the CSV and the link", async () => {
  const query = "v.lm=qwen3-vl-8b&v.ts=3&v.vt=2";
  await onPage(env.browser, `${env.server.url}?${query}#fig-vision-ids`, async (page) => {
    await idsDrawn(page);
    const now = ropeIndex({ qwen3: true, ts: 3, vt: 2 });
    const finding = await page.textContent("#fig-vision-ids .finding");
    const blocks = [now[3 + 6 + 3 + 3][0], now[3 + 6 + 3 + 3 + 4 + 3][0]];
    assert.ok(finding.includes(`with a single t (${blocks[0]} and ${blocks[1]}) after 3 tokens of text`), finding);
    const rows = await csvIsPeRender(page, "fig-vision-ids", query);
    assert.equal(rows, 2 * (1 + now.length), "the rows of ids, then the cloud's points: a header and a line per token each");
    const at = () => page.evaluate(() => Number(document.getElementById("fig-vision-ids").dataset.drawnAt));
    const before = await at();
    const slider = page.locator("#ctl-v-ts");
    await slider.focus();
    await page.keyboard.press("End");
    await page.waitForFunction(() => new URLSearchParams(location.search).get("v.ts") === "16");
    await page.waitForFunction((t) => Number(document.getElementById("fig-vision-ids").dataset.drawnAt) > t, before);
    await page.check('input[name="v-lm-ids"] >> nth=0');
    await page.waitForFunction(() => !new URLSearchParams(location.search).has("v.lm"));
    assert.equal(await page.locator("#ctl-v-ts").count(), 0, "Qwen2.5-VL has no text before its frames");
  });
});

test("the video cloud: the finding gives each step's turn of the chosen pair, play shows fewer temporal patches, and the CSV is pe render's", async () => {
  // Qwen2.5-VL-7B: pair 20 follows h (pairs 16–39), ω = 10⁶^(−40/128); 3 temporal patches of 2 × 5.
  const query = "v.pair=20&v.cf=3&v.ch=2&v.cw=5";
  await onPage(env.browser, `${env.server.url}?${query}#fig-vision-video`, async (page) => {
    await installHelpers(page);
    await showFigure(page, "fig-vision-video");
    await page.waitForFunction(() => Number(document.getElementById("fig-vision-video")?.dataset.drawnAt) > 0);
    const stats = await canvasStats(page, "fig-vision-video");
    assert.ok(stats[0].colours > 8, JSON.stringify(stats));
    const omega = 1e6 ** (-40 / 128);
    const finding = await page.textContent("#fig-vision-video .finding");
    assert.ok(finding.includes("follows the h (height) id"), finding);
    assert.ok(finding.includes(`does not turn from one temporal patch to the next, turns by ${omega.toFixed(3)} rad (${((omega * 180) / Math.PI).toFixed(1)}°) from one row to the next, does not turn from one column to the next`), finding);
    const readout = await page.textContent("#fig-vision-video-readout");
    assert.ok(readout.startsWith("Showing temporal patches 0 … 2."), readout);
    await page.click('#fig-vision-video button[aria-label="Show one temporal patch fewer"]');
    await page.waitForFunction(() => document.getElementById("fig-vision-video-readout").textContent.startsWith("Showing temporal patches 0 … 1."));
    const rows = await csvIsPeRender(page, "fig-vision-video", query);
    assert.equal(rows, 1 + 3 * 2 * 5);
    await page.check('input[name="v-lm-video"] >> nth=1');
    await page.waitForFunction(() => new URLSearchParams(location.search).get("v.lm") === "qwen3-vl-8b");
    // Qwen3-VL-8B: pair 20 (20 mod 3 = 2, 20 < 60) follows w.
    await page.waitForFunction(() => document.querySelector("#fig-vision-video .finding").textContent.includes("follows the w (width) id"));
  });
});
