// Chapter 1 ("Order and sinusoids") in a real browser: every figure draws, every control it declares
// repaints it, the readouts agree with the formulas computed here in JS, the URL holds the state, and
// the page fits a 390 px phone screen.
import { test } from "node:test";
import assert from "node:assert/strict";
import { bookMounted, onPage, openPage, shareBrowser, showFigure } from "./harness.mjs";
import {
  assertControlRepaints,
  canvasStats,
  commit,
  drawnAt,
  installHelpers,
  nextFrame,
  waitRedraw,
} from "./figures.mjs";

const env = shareBrowser();

const FIGURES = [
  "fig-attention",
  "fig-naive",
  "fig-heatmap",
  "fig-waves",
  "fig-clocks",
  "fig-similarity",
  "fig-shift",
  "fig-token",
];

const EXAMPLE = "The brown dog chased the black dog";

/** Opens the page and waits until every figure has drawn at least once. */
async function open(query = "", viewport, options) {
  const opened = await openPage(env.browser, env.server.url + query, viewport, options);
  await waitAllDrawn(opened.page);
  return opened;
}

async function waitAllDrawn(page) {
  await installHelpers(page);
  for (const id of FIGURES) await showFigure(page, id);
  await page.waitForFunction(
    (ids) => ids.every((id) => document.querySelectorAll(`#${id} canvas`).length > 0 && window.drawnAtOf(id) > 0),
    FIGURES,
    { timeout: 10000 },
  );
  await nextFrame(page);
}

// ---------------------------------------------------------------- 1. every figure draws

test("every figure draws (> 20 colours per canvas) with no console errors, page errors or failed requests", async (t) => {
  const { page, problems, context } = await open();
  try {
    for (const id of FIGURES) {
      await t.test(id, async () => {
        const stats = await canvasStats(page, id);
        assert.ok(stats.length > 0, `#${id} has no canvas`);
        stats.forEach((s, k) => {
          assert.ok(s.width > 50 && s.height > 50, `#${id} canvas ${k} is ${s.width}×${s.height}`);
          assert.ok(s.colours > 20, `#${id} canvas ${k} has only ${s.colours} distinct colours`);
        });
      });
    }
    await t.test("every figure carries data-drawn-at and data-draw-ms", async () => {
      const missing = await page.evaluate((ids) => {
        const out = [];
        for (const id of ids) {
          const f = document.getElementById(id);
          if (!(Number.parseFloat(f.dataset.drawnAt) > 0)) out.push(`#${id}: data-drawn-at = ${JSON.stringify(f.dataset.drawnAt ?? null)}`);
          if (!(Number.parseFloat(f.dataset.drawMs) >= 0)) out.push(`#${id}: data-draw-ms = ${JSON.stringify(f.dataset.drawMs ?? null)}`);
        }
        return out;
      }, FIGURES);
      assert.deepEqual(missing, []);
    });
    await page.waitForTimeout(200);
    await t.test("no console errors, page errors or failed requests", () => assert.deepEqual(problems, []));
  } finally {
    await context.close();
  }
});

// ---------------------------------------------------------------- 2. every declared control repaints its figure

test("each control listed in a figure's data-controls changes that figure's pixels", async (t) => {
  const { page, problems, context } = await open();
  try {
    const declared = await page.evaluate(() =>
      // Chapters 1 and 2; chapter 3's controls are tested from a fixed state (context.test.mjs).
      [...document.querySelectorAll('#sinusoids figure[id^="fig-"], #rope figure[id^="fig-"]')].map((f) => ({
        id: f.id,
        controls: (f.dataset.controls ?? "").trim().split(/\s+/).filter(Boolean),
      })),
    );
    const byId = Object.fromEntries(declared.map((f) => [f.id, f.controls]));
    await t.test("every chapter figure declares its controls", () => {
      for (const id of FIGURES) assert.ok(byId[id]?.length > 0, `#${id} has no data-controls`);
    });
    for (const { id, controls } of declared) {
      for (const token of controls) {
        await t.test(`${token} → #${id}`, () => assertControlRepaints(page, token, id));
      }
    }
    // Controls on the page that no figure declares still repaint the figure they belong to.
    const owner = {
      layout: "fig-heatmap",
      spacing: "fig-heatmap",
      "ctl-dims": "fig-waves",
      "ctl-rows-from": "fig-heatmap",
      "ctl-rows-to": "fig-heatmap",
      "ctl-cols-from": "fig-heatmap",
      "ctl-cols-to": "fig-heatmap",
      "ctl-at-0": "fig-token",
    };
    for (const [token, id] of Object.entries(owner)) {
      if (byId[id]?.includes(token)) continue;
      await t.test(`${token} → #${id} (not declared in data-controls)`, () => assertControlRepaints(page, token, id));
    }
    await t.test("every chapter-1 control is declared in some figure's data-controls (or data-text-controls)", async () => {
      const textOnly = await page.evaluate(() =>
        [...document.querySelectorAll("[data-text-controls]")].flatMap((f) => f.dataset.textControls.split(/\s+/)),
      );
      const all = new Set([...declared.flatMap((f) => f.controls), ...textOnly]);
      const undeclared = [
        "ctl-n", "ctl-d", "ctl-base", "ctl-pos", "layout", "spacing", "ctl-dims",
        "ctl-rows-from", "ctl-rows-to", "ctl-cols-from", "ctl-cols-to",
        "ctl-sentence", "ctl-pe", "ctl-npos", "ctl-eps", "ctl-k", "ctl-at-0", "ctl-at-1", "ctl-at-2",
      ].filter((c) => !all.has(c));
      assert.deepEqual(undeclared, [], `controls no figure lists in data-controls: ${undeclared.join(" ")}`);
    });
    await t.test("no console errors, page errors or failed requests", () => assert.deepEqual(problems, []));
  } finally {
    await context.close();
  }
});

// ---------------------------------------------------------------- 3. order blindness

test("order blindness: identical rows without positions, none with; long sentences refused; dog/man weights", async () => {
  const { page, problems, context } = await open();
  try {
    const fig = page.locator("#fig-attention");
    const twins = page.locator("#fig-attention-twins");
    assert.equal(await fig.getAttribute("data-identical"), "0,4;2,6");
    assert.equal(await page.inputValue("#ctl-sentence"), EXAMPLE);
    assert.equal(await page.isChecked("#ctl-pe"), false);
    assert.match(await twins.textContent(), /Identical rows.*“the” at 0 and 4.*“dog” at 2 and 6/);

    await page.click("#ctl-pe");
    await page.waitForFunction(() => document.querySelector("#fig-attention").dataset.identical === "", null, { timeout: 3000 });
    // The sentence may follow the figure's attribute by a frame (texts update as they come near).
    await page.waitForFunction(() => /^With positions, every row differs/.test(document.getElementById("fig-attention-twins").textContent), null, { timeout: 3000 });
    assert.doesNotMatch(await twins.textContent(), /Identical rows/);

    // 17 words: refused with a notice, and the box shows the previous sentence again.
    const words = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen";
    assert.equal(words.split(" ").length, 17);
    const noticesBefore = await page.locator(".notices li").count();
    await commit(page, "#ctl-sentence", words);
    await page.waitForFunction((n) => document.querySelectorAll(".notices li").length > n, noticesBefore, { timeout: 3000 });
    const notice = (await page.locator(".notices li").allTextContents()).at(-1);
    assert.match(notice, /\b16\b/, notice);
    assert.match(notice, /\b17\b/, notice);
    assert.equal(await page.inputValue("#ctl-sentence"), EXAMPLE);
    assert.equal(await fig.getAttribute("data-identical"), "");

    // "dog bites man" vs "man bites dog": the same dog → man weight without positions, different with.
    const finding = await page.locator("#fig-attention .finding", { hasText: "“dog” to “man”" }).textContent();
    const m = finding.match(
      /without positions (-?\d+\.\d+) in “dog bites man” and (-?\d+\.\d+) in “man bites dog”.*with positions (-?\d+\.\d+) and (-?\d+\.\d+)/,
    );
    assert.ok(m, `finding not in the expected form: ${finding}`);
    const [offA, offB, onA, onB] = m.slice(1).map(Number);
    assert.equal(offA, offB, `without positions: ${offA} vs ${offB}`);
    assert.notEqual(onA, onB, `with positions: ${onA} vs ${onB}`);
    assert.ok([offA, offB, onA, onB].every((w) => w > 0 && w < 1), finding);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

// ---------------------------------------------------------------- 4. similarity hover

/** cos(PE(a), PE(b)) for the interleaved paper encoding: (1/P) Σ_k cos((a − b)·base^(−2k/d)). */
function sinusoidalSimilarity(a, b, d = 128, base = 10000) {
  const pairs = d / 2;
  let sum = 0;
  for (let k = 0; k < pairs; k++) sum += Math.cos((a - b) * Math.pow(base, (-2 * k) / d));
  return sum / pairs;
}

test("the similarity matrix hover readout equals the cosine-similarity formula", async () => {
  const { page, problems, context } = await open();
  try {
    const canvas = page.locator("#fig-similarity canvas").first();
    await canvas.scrollIntoViewIfNeeded();
    const box = await canvas.boundingBox();
    let prev = "";
    const seen = [];
    for (const [fx, fy] of [
      [0.3, 0.3],
      [0.45, 0.55],
      [0.6, 0.4],
      [0.35, 0.75],
    ]) {
      await page.mouse.move(box.x + box.width * fx, box.y + box.height * fy);
      await page.waitForFunction(
        (prev) => {
          const c = document.querySelector("#fig-similarity").dataset.cell;
          return c !== "" && c !== prev;
        },
        prev,
        { timeout: 3000 },
      );
      const cell = await page.locator("#fig-similarity").getAttribute("data-cell");
      const value = Number(await page.locator("#fig-similarity").getAttribute("data-value"));
      prev = cell;
      const [a, b] = cell.split(",").map(Number);
      assert.ok(Number.isInteger(a) && Number.isInteger(b) && a >= 0 && a < 100 && b >= 0 && b < 100, cell);
      const expected = sinusoidalSimilarity(a, b);
      assert.ok(Math.abs(value - expected) < 1e-9, `similarity(${a}, ${b}) = ${value}, formula ${expected}`);
      assert.match(
        await page.locator("#fig-similarity-readout").textContent(),
        new RegExp(`^similarity\\(PE\\(${a}\\), PE\\(${b}\\)\\) = -?\\d\\.\\d{6} · distance ${Math.abs(a - b)}$`),
      );
      seen.push(cell);
    }
    assert.ok(seen.some((c) => c.split(",")[0] !== c.split(",")[1]), `only diagonal cells hovered: ${seen}`);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

/** Row `pos` of the interleaved, paper-spaced encoding written out column by column (odd d: the
 * last column is a lone sine). */
function sinusoidalRow(pos, d, base) {
  return Array.from({ length: d }, (_, c) => {
    const angle = pos / Math.pow(base, (2 * Math.floor(c / 2)) / d);
    return c % 2 === 0 ? Math.sin(angle) : Math.cos(angle);
  });
}

test("with an odd d the similarity caption's distance-1 range is the min and max of cos(PE(a), PE(a+1))", async () => {
  const [n, d, base] = [300, 7, 100];
  const { page, problems, context } = await open(`?n=${n}&d=${d}&base=${base}`);
  try {
    const caption = await page.locator("#fig-similarity figcaption").textContent();
    const m = caption.match(/the distance-1 diagonal runs (-?\d\.(\d{4,15})) to (-?\d\.\d{4,15})/);
    assert.ok(m, caption);
    let [lo, hi] = [Infinity, -Infinity];
    for (let a = 0; a + 1 < n; a++) {
      const [x, y] = [sinusoidalRow(a, d, base), sinusoidalRow(a + 1, d, base)];
      const dot = x.reduce((s, v, i) => s + v * y[i], 0);
      const norm = (v) => Math.sqrt(v.reduce((s, u) => s + u * u, 0));
      const cos = dot / (norm(x) * norm(y));
      [lo, hi] = [Math.min(lo, cos), Math.max(hi, cos)];
    }
    // As many decimals as it takes for the two ends to differ (at least 4).
    const decimals = m[2].length;
    assert.equal(m[1], lo.toFixed(decimals), `low end: ${caption}`);
    assert.equal(m[3], hi.toFixed(decimals), `high end: ${caption}`);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

// ---------------------------------------------------------------- 5. relative shift

test("the relative shift is exact (data-max-error < 1e-9) by default and for other offsets", async () => {
  const { page, problems, context } = await open();
  try {
    await showFigure(page, "fig-shift");
    // The whole-table check runs just after the repaint: wait until it has run for the current k.
    const maxError = async () => {
      await page.waitForFunction(
        () => document.getElementById("fig-shift").dataset.maxErrorK === document.getElementById("ctl-k-value").value,
        null,
        { timeout: 5000 },
      );
      const text = await page.locator("#fig-shift").getAttribute("data-max-error");
      const x = Number.parseFloat(text);
      assert.ok(Number.isFinite(x) && x >= 0, `data-max-error = ${JSON.stringify(text)}`);
      return x;
    };
    assert.ok((await maxError()) < 1e-9, `default k = 5: max error ${await maxError()}`);
    assert.equal(await page.inputValue("#ctl-k-value"), "5");

    // Keyboard: three steps right.
    let since = await drawnAt(page, "fig-shift");
    await page.focus("#ctl-k");
    for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowRight");
    await page.waitForFunction(() => document.querySelector("#ctl-k-value").value === "8", null, { timeout: 2000 });
    assert.ok(await waitRedraw(page, "fig-shift", since), "#fig-shift did not redraw after moving k");
    assert.ok((await maxError()) < 1e-9, `k = 8: max error ${await maxError()}`);

    // The largest offset, typed.
    since = await drawnAt(page, "fig-shift");
    await commit(page, "#ctl-k-value", "512");
    assert.ok(await waitRedraw(page, "fig-shift", since), "#fig-shift did not redraw after typing k = 512");
    assert.equal(await page.inputValue("#ctl-k"), "512");
    assert.ok((await maxError()) < 1e-9, `k = 512: max error ${await maxError()}`);
    assert.match(await page.locator("#fig-shift .finding").textContent(), /the largest entry of \|M_512 · PE\(p\) − PE\(p \+ 512\)\| is/);

    // Off screen the check (O(positions · d)) does not run: a change of d elsewhere leaves the
    // sentence waiting, never stale; it runs once the figure is back in view.
    await showFigure(page, "fig-heatmap");
    await page.waitForFunction(() => document.querySelector("#fig-shift canvas").dataset.near === "false", null, { timeout: 2000 });
    await commit(page, "#ctl-d-value", "64");
    await page.waitForTimeout(300);
    assert.equal(await page.locator("#fig-shift").getAttribute("data-max-error"), "");
    assert.match(await page.locator("#fig-shift .finding").textContent(), /^Checking M_512 against every position…$/);
    await showFigure(page, "fig-shift");
    assert.ok((await maxError()) < 1e-9, `d = 64, k = 512: max error ${await maxError()}`);
    assert.match(await page.locator("#fig-shift .finding").textContent(), /Across all \d+ positions and 64 columns/);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

// ---------------------------------------------------------------- 6. naive sine collision

test("the single-sine collision of position 2 is 353, the first q > 2 with |sin q − sin 2| < 1e-3", async () => {
  const { page, problems, context } = await open();
  try {
    assert.equal(await page.locator("#fig-naive-sine").getAttribute("data-collision"), "353");
    assert.equal(await page.inputValue("#ctl-npos-value"), "2");
    assert.equal(await page.inputValue("#ctl-eps-value"), "0.001");
    const close = (q) => Math.abs(Math.sin(q) - Math.sin(2)) < 1e-3;
    assert.ok(close(353), `|sin 353 − sin 2| = ${Math.abs(Math.sin(353) - Math.sin(2))}`);
    const earlier = [];
    for (let q = 3; q <= 352; q++) if (close(q)) earlier.push(q);
    assert.deepEqual(earlier, []);
    assert.match(await page.locator("#fig-naive-sine .finding").textContent(), /is q = 353/);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

// ---------------------------------------------------------------- 7. URL round trip

test("the URL sets every control, follows a change within 3 s, and a reload restores it", async () => {
  const query = "?n=64&d=32&base=500&pos=7&k=3&s=dog%20bites%20man&pe=on&dims=0,2,5&at=0,10,20";
  const { page, problems, context } = await open(query);
  try {
    const shows = async () => ({
      n: await page.inputValue("#ctl-n-value"),
      d: await page.inputValue("#ctl-d-value"),
      base: await page.inputValue("#ctl-base-value"),
      pos: await page.inputValue("#ctl-pos-value"),
      k: await page.inputValue("#ctl-k-value"),
      nRange: await page.inputValue("#ctl-n"),
      dRange: await page.inputValue("#ctl-d"),
      posRange: await page.inputValue("#ctl-pos"),
      kRange: await page.inputValue("#ctl-k"),
      sentence: await page.inputValue("#ctl-sentence"),
      pe: await page.isChecked("#ctl-pe"),
      dims: await page.inputValue("#ctl-dims"),
      at: [await page.inputValue("#ctl-at-0"), await page.inputValue("#ctl-at-1"), await page.inputValue("#ctl-at-2")],
    });
    const expected = {
      n: "64",
      d: "32",
      base: "500",
      pos: "7",
      k: "3",
      nRange: "64",
      dRange: "32",
      posRange: "7",
      kRange: "3",
      sentence: "dog bites man",
      pe: true,
      dims: "0,2,5",
      at: ["0", "10", "20"],
    };
    assert.deepEqual(await shows(), expected);
    assert.equal(await page.locator(".notices li").count(), 0, "a valid URL must not raise notices");

    await commit(page, "#ctl-d-value", "48");
    await page.waitForFunction(() => new URLSearchParams(location.search).get("d") === "48", null, { timeout: 3000 });
    const search = await page.evaluate(() => Object.fromEntries(new URLSearchParams(location.search)));
    assert.deepEqual(search, {
      s: "dog bites man",
      pe: "on",
      n: "64",
      d: "48",
      base: "500",
      pos: "7",
      dims: "0,2,5",
      k: "3",
      at: "0,10,20",
    });

    await page.reload();
    await page.waitForSelector("#fig-heatmap canvas");
    await page.waitForFunction(() => !document.getElementById("loading"));
    await bookMounted(page);
    await waitAllDrawn(page);
    assert.deepEqual(await shows(), { ...expected, d: "48", dRange: "48" });
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

// ---------------------------------------------------------------- 8. phone width

test("at 390 px wide every figure fits and the page does not scroll sideways", async () => {
  // A phone: 390 CSS px at two device pixels per CSS pixel.
  const { page, problems, context } = await open("", { width: 390, height: 844 }, { deviceScaleFactor: 2 });
  try {
    const widths = await page.evaluate((ids) =>
      ids.flatMap((id) =>
        // Layers included, but the cells canvas through its clipping box (the canvas only grows
        // and may extend beyond the box, which clips it).
        [...document.querySelectorAll(`#${id} canvas:not(.cells), #${id} .layer-clip`)].map((c, k) => {
          const r = c.getBoundingClientRect();
          return { id, k, width: r.width, left: r.left, right: r.right };
        }),
      ),
    FIGURES);
    const tooWide = widths.filter((w) => w.width > 390 || w.left < -0.5 || w.right > 390.5);
    assert.deepEqual(tooWide, [], "canvases wider than the screen or outside it");
    for (const id of FIGURES) {
      for (const [k, s] of (await canvasStats(page, id)).entries()) {
        assert.ok(s.colours > 20, `#${id} canvas ${k} at 390 px: only ${s.colours} colours`);
      }
    }
    const scroll = await page.evaluate(() => {
      const wide = [...document.querySelectorAll("body *")]
        .filter((e) => e.getBoundingClientRect().right > 391 && getComputedStyle(e).position !== "fixed")
        .slice(0, 8)
        .map((e) => `${e.tagName.toLowerCase()}${e.id ? "#" + e.id : ""}${e.className && typeof e.className === "string" ? "." + e.className.split(" ").join(".") : ""} right=${Math.round(e.getBoundingClientRect().right)}`);
      return { scrollWidth: document.documentElement.scrollWidth, wide };
    });
    assert.ok(scroll.scrollWidth <= 391, `scrollWidth ${scroll.scrollWidth} > 391; widest elements: ${scroll.wide.join(", ")}`);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

// ---------------------------------------------------------------- heatmap ⇄ waves

test("the table shows as heatmap, waves or both; the choice is in the URL and survives a reload", async () => {
  const { page, problems, context } = await open();
  try {
    const visible = () =>
      page.evaluate(() => ["fig-heatmap", "fig-waves"].map((id) => document.getElementById(id).getClientRects().length > 0));
    assert.deepEqual(await visible(), [true, true]);
    await page.check('input[name="show"] >> nth=1');
    assert.deepEqual(await visible(), [true, false]);
    await page.waitForFunction(() => location.search.includes("show=heatmap"), null, { timeout: 3000 });
    await page.check('input[name="show"] >> nth=2');
    assert.deepEqual(await visible(), [false, true]);
    await page.waitForFunction(() => location.search.includes("show=waves"), null, { timeout: 3000 });
    // The waves alone still draw, and a heatmap control still reaches them.
    await showFigure(page, "fig-waves");
    const before = await drawnAt(page, "fig-waves");
    await page.fill("#ctl-base-value", "500");
    await page.press("#ctl-base-value", "Enter");
    assert.ok(await waitRedraw(page, "fig-waves", before), "the waves did not redraw after a base change");
    await page.reload();
    await page.waitForSelector("#fig-waves canvas");
    assert.deepEqual(await visible(), [false, true]);
    assert.equal(await page.isChecked('input[name="show"] >> nth=2'), true);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test("a figure's lower canvas on screen alone still repaints when a control changes", async () => {
  await onPage(env.browser, `${env.server.url}?`, async (page) => {
    await installHelpers(page);
    await showFigure(page, "fig-similarity");
    // Scroll so that the similarity curve is at the top of the window and the matrix above it.
    await page.evaluate(() => {
      const curve = document.querySelectorAll("#fig-similarity canvas:not(.layer)")[1];
      window.scrollBy(0, curve.getBoundingClientRect().top - 4);
    });
    await page.waitForFunction(() => document.querySelector("#fig-similarity canvas:not(.layer)").dataset.near === "false");
    const curveHash = () =>
      page.evaluate(() => {
        const c = document.querySelectorAll("#fig-similarity canvas:not(.layer)")[1];
        const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
        let h = 2166136261;
        for (let i = 0; i < d.length; i += 4) h = Math.imul(h ^ ((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]), 16777619) >>> 0;
        return h;
      });
    const before = await curveHash();
    const since = await drawnAt(page, "fig-similarity");
    // The sticky control panel stays on screen beside the figure.
    await page.focus("#ctl-base");
    await page.keyboard.press("PageUp");
    assert.ok(await waitRedraw(page, "fig-similarity", since), "the figure did not redraw");
    assert.notEqual(await curveHash(), before, "the curve on screen kept its old picture");
  });
});
