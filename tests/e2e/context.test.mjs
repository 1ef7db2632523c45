// Chapter 3 ("Stretching the context") in a real browser: every figure draws, every control it
// declares repaints it (each from the same fixed state, on a fresh page), every preset sets the
// values its model's config.json holds, a broken pasted config changes nothing and says why, a
// good one sets the controls, and the readouts agree with the formulas computed here in JS.
import { test } from "node:test";
import assert from "node:assert/strict";
import { bookMounted, onPage, openPage, shareBrowser, showFigure } from "./harness.mjs";
import { canvasStats, declaredControlsRepaint, drawnAt, hashes, installHelpers } from "./figures.mjs";

const env = shareBrowser();

const FIGURES = ["fig-ctx-turns", "fig-ctx-wavelengths", "fig-ctx-scores", "fig-ctx-attention", "fig-ctx-dynamic"];

/** The fixed state every control test starts from: YaRN with DeepSeek's pair set, Llama 3 overlaid. */
const STATE = "?c.type=yarn&c.ms=0.8&c.msa=0.7&c.cmp=linear,ntk,llama3";

/** The method whose radio is checked, as its rope_type name (the radios show labels). */
const methodHelper = (page) =>
  page.evaluate(() => {
    const names = {
      "plain RoPE": "default",
      "linear (PI)": "linear",
      "NTK-aware": "ntk",
      "dynamic NTK": "dynamic",
      YaRN: "yarn",
      "Llama 3": "llama3",
      LongRoPE: "longrope",
    };
    window.checkedMethod = () => names[document.querySelector("input[name=c-type]:checked")?.nextElementSibling?.textContent] ?? null;
  });

/** The chapter's controls as their number boxes and radio group show them. */
const controls = async (page) => {
  await methodHelper(page);
  return page.evaluate(() => {
    const num = (id) => Number(document.getElementById(`${id}-value`).value);
    return {
      type: window.checkedMethod(),
      s: num("ctl-c-s"),
      L: num("ctl-c-L"),
      T: num("ctl-c-T"),
      d: num("ctl-c-d"),
      base: num("ctl-c-base"),
      bf: num("ctl-c-bf"),
      bs: num("ctl-c-bs"),
      lo: num("ctl-c-lo"),
      hi: num("ctl-c-hi"),
      ms: num("ctl-c-ms"),
      msa: num("ctl-c-msa"),
      model: document.getElementById("ctl-c-model").value,
    };
  });
};

test("every chapter-3 figure draws (> 20 colours per canvas), with no console error", async () => {
  await onPage(env.browser, `${env.server.url}${STATE}#context`, async (page) => {
    await installHelpers(page);
    for (const id of FIGURES) {
      await showFigure(page, id);
      const stats = await canvasStats(page, id);
      assert.ok(stats.length > 0, `#${id} has no canvas`);
      for (const s of stats) assert.ok(s.colours > 20 && s.width > 50, `#${id}: ${JSON.stringify(s)}`);
    }
  });
});

test("each control a chapter-3 figure declares repaints it (from the same state each time)", async (t) => {
  const { page, problems, context } = await openPage(env.browser, `${env.server.url}${STATE}`);
  try {
    await declaredControlsRepaint(t, page, { url: `${env.server.url}${STATE}`, chapter: "context", figures: FIGURES });
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

// The values each preset must set, from the models' config.json as the issue lists them
// (rotary dimension: GPT-NeoX-20B rotary_pct 0.25 × head 96 = 24; GPT-J rotary_dim 64;
// DeepSeek-V2 qk_rope_head_dim 64; Qwen2.5-7B 3584/28 = 128).
const PRESETS = {
  "llama2-7b": { type: "default", base: 10000, d: 128, L: 4096 },
  "llama3.1-8b": { type: "llama3", base: 500000, d: 128, s: 8, lo: 1, hi: 4, L: 8192, T: 131072 },
  "mistral-7b-v0.1": { type: "default", base: 10000, d: 128 },
  "mistral-7b-v0.3": { type: "default", base: 1000000, d: 128 },
  "codellama-7b": { type: "default", base: 1000000, d: 128, L: 16384 },
  "qwen2.5-7b-yarn": { type: "yarn", base: 1000000, d: 128, s: 4, L: 32768, T: 131072 },
  "gpt-neox-20b": { type: "default", base: 10000, d: 24, L: 2048 },
  "gpt-j-6b": { type: "default", base: 10000, d: 64, L: 2048 },
  "gemma-7b": { type: "default", base: 10000, d: 256, L: 8192 },
  "deepseek-v2": { type: "yarn", base: 10000, d: 64, s: 40, ms: 0.707, msa: 0.707, L: 4096, T: 163840 },
  "longrope-synthetic": { type: "longrope", d: 96, L: 4096, T: 131072 },
};

test("every preset sets the values of its model's config", async () => {
  await onPage(env.browser, `${env.server.url}#context`, async (page) => {
    const ids = await page.$$eval("#ctl-c-model option", (o) => o.map((x) => x.value).filter(Boolean));
    assert.deepEqual(ids, Object.keys(PRESETS));
    for (const [id, want] of Object.entries(PRESETS)) {
      await page.selectOption("#ctl-c-model", id);
      await page.waitForFunction((id) => new URLSearchParams(location.search).get("c.model") === id, id, { timeout: 3000 });
      const got = await controls(page);
      for (const [k, v] of Object.entries(want)) assert.equal(got[k], v, `${id}: ${k}`);
      if (id.includes("synthetic")) assert.match(await page.textContent(".preset-note"), /[Ss]ynthetic/);
      else assert.ok(await page.locator(".preset-note a[href^='https://']").count(), `${id}: its source is linked`);
    }
    // A link naming a preset comes back with the preset's values.
    await page.reload();
    await page.waitForFunction(() => !document.getElementById("loading"));
    await bookMounted(page);
    const back = await controls(page);
    assert.equal(back.model, "longrope-synthetic");
    assert.equal(back.type, "longrope");
  });
});

test("pasting: a broken config changes nothing and says why; a good one sets every control", async () => {
  const { page, problems, context } = await openPage(env.browser, `${env.server.url}#context`);
  try {
    await page.click("#context details.paste summary");
    const before = await controls(page);
    for (const [text, why] of [
      ['{"rope_scaling": {"rope_type": "llama3", "factor": 8.0', /line \d+, column \d+/],
      ['{"rope_scaling": {"rope_type": "llama3", "factor": 8.0}}', /original_max_position_embeddings/],
      ['{"rope_scaling": {"rope_type": "warp", "factor": 2}}', /warp/],
    ]) {
      await page.fill("#ctl-c-config", text);
      await page.click("#ctl-c-read");
      await page.waitForFunction(() => document.querySelector(".paste-error").textContent.length > 0);
      const message = await page.textContent(".paste-error");
      assert.match(message, why);
      assert.ok(!message.includes("\n") && message.length <= 241, `one short line: ${message}`);
      assert.deepEqual(await controls(page), before, "nothing changed");
    }
    const llama = JSON.stringify({
      model_type: "llama",
      hidden_size: 4096,
      num_attention_heads: 32,
      max_position_embeddings: 131072,
      rope_theta: 500000.0,
      rope_scaling: { factor: 8.0, high_freq_factor: 4.0, low_freq_factor: 1.0, original_max_position_embeddings: 8192, rope_type: "llama3" },
    });
    await page.fill("#ctl-c-config", llama);
    await page.click("#ctl-c-read");
    await methodHelper(page);
    await page.waitForFunction(() => window.checkedMethod() === "llama3");
    const got = await controls(page);
    assert.deepEqual(
      [got.type, got.base, got.d, got.s, got.L, got.T, got.lo, got.hi],
      ["llama3", 500000, 128, 8, 8192, 131072, 1, 4],
    );
    assert.equal(await page.textContent(".paste-error"), "");
    assert.ok((await page.locator(".paste-read li").count()) >= 3, "it says what it read");
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test("readouts agree with the formulas: a pair's turns, a score at a distance, the attention factor", async () => {
  await onPage(env.browser, `${env.server.url}?c.type=yarn#fig-ctx-turns`, async (page) => {
    const num = (text, re) => Number(text.match(re)?.[1]);
    // Pair 63 of head_dim 128, base 10000: θ = 10000^(−126/128), 4096·θ/2π turns within L₀.
    await showFigure(page, "fig-ctx-turns");
    await page.focus("#fig-ctx-turns canvas");
    await page.keyboard.press("End");
    const turns = await page.textContent("#fig-ctx-turns-readout");
    const theta = 10000 ** (-126 / 128);
    assert.match(turns, /^pair 63:/);
    const shownTurns = num(turns, /([\d.e+-]+) turns within/);
    assert.ok(Math.abs(shownTurns - (4096 * theta) / (2 * Math.PI)) < 1e-3 * shownTurns, turns);

    // The score at distance 5 (a column of one distance): (1/64)·Σ cos(5·θ_i), and after YaRN
    // the same sum over YaRN's frequencies times (0.1·ln 4 + 1)².
    await showFigure(page, "fig-ctx-scores");
    await page.focus("#fig-ctx-scores canvas");
    await page.keyboard.press("Home");
    for (let k = 0; k < 5; k++) await page.keyboard.press("ArrowRight");
    const score = await page.textContent("#fig-ctx-scores-readout");
    assert.match(score, /^distance 5:/);
    let plain = 0;
    for (let i = 0; i < 64; i++) plain += Math.cos(5 * 10000 ** (-i / 64));
    plain /= 64;
    assert.ok(Math.abs(num(score, /plain RoPE ([\d.e+-]+)/) - plain) < 1e-3, `${score} vs ${plain}`);

    // YaRN's attention factor at s = 4.
    const factor = await page.textContent("#fig-ctx-attention .readout:not([id])");
    assert.ok(Math.abs(num(factor, /attention factor ([\d.]+)/) - (0.1 * Math.log(4) + 1)) < 1e-5, factor);
  });
});

test("the YaRN and turns texts hold in corner settings: an inverted ramp, a target inside L₀", async () => {
  // β_fast < β_slow: transformers' ramp runs the other way (divides the fast end).
  await onPage(env.browser, `${env.server.url}?c.type=yarn&c.bf=1&c.bs=32#fig-ctx-wavelengths`, async (page) => {
    await showFigure(page, "fig-ctx-wavelengths");
    const bands = await page.textContent("#fig-ctx-wavelengths .readout:not([id])");
    assert.match(bands, /The ends are inverted \(45 > 21: β_fast is below β_slow\)/, bands);
    assert.match(bands, /divides 22 pairs by exactly s = 4 \(0 … 21\)/, bands);
    assert.match(bands, /stretches the fast end and leaves the slow end alone/, bands);
    // T < L₀: no pair reaches a new angle, with or without scaling.
    await page.goto(`${env.server.url}?c.type=yarn&c.T=1024#fig-ctx-turns`);
    await showFigure(page, "fig-ctx-turns");
    const summary = await page.textContent("#fig-ctx-turns .readout:not([id])");
    assert.match(summary, /plain RoPE takes 0 pairs/, summary);
  });
});

test("a figure on two canvases repaints while only its upper one is in view", async () => {
  // The wavelengths and the slow-downs are drawn by two effects that share the figure's stats.
  // Each canvas used to set the figure's `near` by itself: when the lower one left the view, the
  // figure counted as off screen, and the upper one, still in view, kept its old picture.
  await onPage(env.browser, `${env.server.url}${STATE}`, async (page) => {
    await installHelpers(page);
    await showFigure(page, "fig-ctx-wavelengths");
    // Let the page settle first: a text that changes the book's height (texts out of view are set
    // 120 ms after their last change) marks the upper canvas near again through `shifted`, which
    // would hide the fault.
    await page.waitForTimeout(1000);
    // Scrolled so that the lower canvas starts just below the fold.
    const place = await page.evaluate(async () => {
      const [upper, lower] = document.querySelectorAll("#fig-ctx-wavelengths canvas:not(.layer)");
      scrollBy(0, lower.getBoundingClientRect().top - innerHeight - 1);
      return { upper: upper.getBoundingClientRect().bottom, lower: lower.getBoundingClientRect().top, fold: innerHeight };
    });
    assert.ok(place.upper > 100 && place.lower > place.fold, JSON.stringify(place));
    await page.waitForFunction(() => document.querySelectorAll("#fig-ctx-wavelengths canvas:not(.layer)")[1].dataset.near === "false", null, {
      timeout: 3000,
    });
    // Until the figure is quiet (no redraw for three checks in a row).
    let at = await drawnAt(page, "fig-ctx-wavelengths");
    for (let quiet = 0; quiet < 3; ) {
      await page.waitForTimeout(250);
      const now = await drawnAt(page, "fig-ctx-wavelengths");
      quiet = now === at ? quiet + 1 : 0;
      at = now;
    }
    const before = await hashes(page, "fig-ctx-wavelengths");
    // A change of theme repaints every figure in view and moves no text (a control would: its
    // readout's new length moves the figure, and `shifted` then draws it anyway).
    await page.emulateMedia({ colorScheme: "dark" });
    await page.waitForFunction(([id, at]) => window.drawnAtOf(id) > at, ["fig-ctx-wavelengths", at], { timeout: 3000 });
    assert.notEqual(await hashes(page, "fig-ctx-wavelengths"), before);
  });
});

test("at 390 px wide the chapter fits and the page does not scroll sideways", async () => {
  await onPage(env.browser, `${env.server.url}#context`, { width: 390, height: 800 }, async (page) => {
    for (const id of FIGURES) await showFigure(page, id);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px`);
  });
});
