// Chapter 5 ("RoPE as today's models ship it") in a real browser: every figure draws, every
// control it declares repaints it, the strip's readout for every layer of every preset says what
// `pe layers` prints (transformers 5.24's reading, checked in tests/cli/layers.rs), the KV cache
// in the finding is transformers' DynamicCache size (tests/reference/kv/kv.json), choosing a layer
// on the strip moves the other figures to it and into the link, and the chapter fits a phone.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { bookMounted, onPage, shareBrowser, showFigure } from "./harness.mjs";
import { canvasStats, commit, csvIsPeRender, declaredControlsRepaint, installHelpers } from "./figures.mjs";

const env = shareBrowser();

const FIGURES = [
  "fig-models-layers",
  "fig-models-cache",
  "fig-models-sees",
  "fig-models-partial",
  "fig-models-temperature",
  "fig-models-yarn",
  "fig-models-precision",
  "fig-models-stale",
];
const pe = fileURLToPath(new URL("../../target/debug/pe", import.meta.url));
const presetFile = (id) => fileURLToPath(new URL(`../../src/math/layers/presets/${id}.json`, import.meta.url));
const kv = JSON.parse(readFileSync(fileURLToPath(new URL("../reference/kv/kv.json", import.meta.url)), "utf8"));

/** The page's presets: the model select's options. */
const presets = (page) => page.$$eval("#ctl-m-model option", (o) => o.map((x) => x.value));

/** 1234567 → "1 234 567" (narrow no-break spaces), as the page groups whole numbers. */
const grouped = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, "\u202F");

const UNITS = { B: 1, KiB: 2 ** 10, MiB: 2 ** 20, GiB: 2 ** 30, TiB: 2 ** 40 };

/** Asserts that `text` ("756 MiB") is `bytes` to its three significant digits. */
function assertBytes(text, bytes, what) {
  const m = /^([\d.]+) (B|KiB|MiB|GiB|TiB)$/.exec(text);
  assert.ok(m, `${what}: "${text}" is not an amount of bytes`);
  const [value, unit] = [Number(m[1]), UNITS[m[2]]];
  assert.ok(value >= 1 && value < 1024, `${what}: ${text} is not in the largest unit below it`);
  const digits = m[1].replace(".", "").replace(/^0+/, "").length;
  assert.equal(digits, 3, `${what}: ${text} has not three significant digits`);
  const lastDigit = 10 ** (Math.floor(Math.log10(value)) - 2);
  assert.ok(Math.abs(value - bytes / unit) <= lastDigit / 2 + 1e-9, `${what}: ${text} for ${bytes} bytes`);
}

async function drawn(page, id) {
  await showFigure(page, id);
  await page.waitForFunction((id) => Number(document.getElementById(id)?.dataset.drawnAt) > 0, id);
}


test("every chapter-5 figure draws, with no console error, for every preset", async () => {
  await onPage(env.browser, `${env.server.url}?#models`, async (page) => {
    await installHelpers(page);
    const ids = await presets(page);
    assert.ok(ids.length >= 8, ids.join(", "));
    for (const model of ids) {
      await page.selectOption("#ctl-m-model", model);
      for (const id of FIGURES) {
        await drawn(page, id);
        const stats = await canvasStats(page, id);
        assert.ok(stats.length > 0, `#${id} has no canvas`);
        for (const s of stats) assert.ok(s.colours > 20 && s.width > 50, `${model} #${id}: ${JSON.stringify(s)}`);
      }
      await page.waitForFunction((m) => new URLSearchParams(location.search).get("m.model") === m || m === "gemma-3-4b", model);
    }
  });
});

test("each control a chapter-5 figure declares repaints it", async (t) => {
  await onPage(env.browser, `${env.server.url}?`, async (page) => {
    await declaredControlsRepaint(t, page, { url: `${env.server.url}?`, chapter: "models", figures: FIGURES });
  });
});

test("the strip's readout for every layer of every preset is what pe layers prints", async () => {
  await onPage(env.browser, `${env.server.url}?#fig-models-layers`, async (page) => {
    for (const model of await presets(page)) {
      const cli = JSON.parse(execFileSync(pe, ["layers", "--config", presetFile(model)], { encoding: "utf8" }));
      await page.selectOption("#ctl-m-model", model);
      await drawn(page, "fig-models-layers");
      const canvas = "#fig-models-layers canvas:not(.layer) >> nth=0";
      await page.focus(canvas);
      await page.keyboard.press("Home");
      for (const layer of cli.layers) {
        const text = await page.textContent("#fig-models-layers-readout");
        assert.ok(text.startsWith(`Layer ${layer.layer}: `), `${model}: ${text}`);
        const attention = {
          full: "full attention: a query at p sees every key 0 … p",
          sliding: `sliding window: a query at p sees the last ${grouped(layer.window)} keys, p − ${grouped(layer.window - 1)} … p`,
          chunked: `chunked: a query at p sees the keys of its own chunk of ${grouped(layer.window)} up to p`,
        }[layer.attention];
        assert.ok(text.includes(attention), `${model} layer ${layer.layer}: ${text} (want ${attention})`);
        const rope = layer.rope
          ? `RoPE "${layer.rope_type}" with θ = ${grouped(layer.rope_theta)}`
          : "no RoPE (q and k are not rotated)";
        assert.ok(text.includes(rope), `${model} layer ${layer.layer}: ${text} (want ${rope})`);
        await page.keyboard.press("ArrowRight");
      }
      // The bar count is the layer count: End reads the last layer.
      await page.keyboard.press("End");
      assert.ok((await page.textContent("#fig-models-layers-readout")).startsWith(`Layer ${cli.num_layers - 1}: `));
    }
  });
});

test("the finding's KV cache is transformers' DynamicCache size at 8k, 32k and 128k tokens", async () => {
  // One page, the model and the length set through their controls (a page load per case cost
  // 45 of this test's 60 s); the finding follows the state, so it names the length once both are
  // taken.
  await onPage(env.browser, `${env.server.url}?#fig-models-layers`, async (page) => {
    for (const model of await presets(page)) {
      const want = kv.configs[`${model}.json`];
      assert.ok(want, `kv.json has no ${model}`);
      await page.selectOption("#ctl-m-model", model);
      for (const [k, tokens] of kv.lengths.entries()) {
        await commit(page, "#ctl-m-L-value", String(tokens));
        const at = `After ${grouped(tokens)} tokens of one sequence`;
        await page.waitForFunction((at) => document.querySelector("#fig-models-layers .finding")?.textContent.includes(at), at);
        const finding = await page.textContent("#fig-models-layers .finding");
        const m = new RegExp(
          `${at} its KV cache holds (.+?) in bfloat16 \\(the next token adds .+?\\), against (.+?) with every layer full`,
        ).exec(finding);
        assert.ok(m, `${model} at ${tokens}: ${finding}`);
        assertBytes(m[1], want.pattern[k], `${model} at ${tokens}, the pattern`);
        assertBytes(m[2], want.all_full[k], `${model} at ${tokens}, every layer full`);
      }
    }
  });
});

test("choosing a layer on the strip (click or Enter) moves the other figures to it and into the link", async () => {
  await onPage(env.browser, `${env.server.url}?m.model=gpt-oss-20b#fig-models-layers`, async (page) => {
    await drawn(page, "fig-models-layers");
    const canvas = page.locator("#fig-models-layers canvas:not(.layer)").first();
    await canvas.focus();
    await page.keyboard.press("Home");
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => new URLSearchParams(location.search).get("m.layer") === "2");
    assert.equal(await page.inputValue("#ctl-m-layer-value"), "2");
    await drawn(page, "fig-models-sees");
    assert.match(await page.textContent("#fig-models-sees .finding"), /^In layer 2, the query at position 32\u202F767 attends to 128 keys/);
    // A click on the last bar chooses layer 23.
    await showFigure(page, "fig-models-layers");
    const box = await canvas.boundingBox();
    await page.mouse.move(box.x + box.width - 30, box.y + box.height / 2);
    await page.mouse.click(box.x + box.width - 30, box.y + box.height / 2);
    await page.waitForFunction(() => new URLSearchParams(location.search).get("m.layer") === "23");
    assert.match(await page.textContent("#fig-models-sees .finding"), /^In layer 23, the query at position 32\u202F767 attends to 32\u202F768 keys/);
  });
});

test("the precision figure's CSV is what pe render computes for its link, and its finding says which layer it draws", async () => {
  // Llama 4 Scout's layer 3 has no RoPE: layer 2 is drawn. float16 past its overflow, a pair
  // past the first few.
  const query = "m.model=llama-4-scout&m.layer=3&m.L=70000&m.dt=f16&m.pair=3";
  await onPage(env.browser, `${env.server.url}?${query}`, { width: 1280, height: 900 }, { acceptDownloads: true }, async (page) => {
    const id = "fig-models-precision";
    await drawn(page, id);
    const finding = await page.textContent(`#${id} .finding`);
    assert.match(finding, /Layer 3 does not rotate q and k, so nothing in it is rounded this way; drawn: layer 2, a chunked layer/);
    assert.match(finding, /From position 65\u202F520 on, float16 holds no position at all/);
    assert.match(finding, /^float16 keeps 11 significant bits/);
    const rows = await csvIsPeRender(page, id, query);
    assert.ok(rows > 400, `${rows} rows`);
  });
});

test("the partial-rotation figure: Gemma 4's full layer the proportional way, its readout, and its CSV as pe render computes it", async () => {
  const query = "m.model=gemma-4-31b&m.layer=5&m.prf=layer";
  await onPage(env.browser, `${env.server.url}?${query}`, { width: 1280, height: 900 }, { acceptDownloads: true }, async (page) => {
    const id = "fig-models-partial";
    await drawn(page, id);
    const finding = await page.textContent(`#${id} .finding`);
    assert.match(finding, /^Layer 5 is a full layer with rope_type proportional, so transformers lays its rotation out as proportional; head_dim 512/);
    assert.match(finding, /proportional: 64 of 256 pairs turn, pair i joining coordinates i and i \+ 256/);
    assert.match(finding, /wavelengths from 6\.28 to 188 tokens/);
    assert.match(finding, /rotary_dim: coordinates 0–127 rotate/);
    // The keyboard reads coordinates: Home is coordinate 0, then one step right.
    await page.focus(`#${id} canvas`);
    await page.keyboard.press("Home");
    await page.keyboard.press("ArrowRight");
    const readout = await page.textContent(`#${id}-readout`);
    assert.match(readout, /^Coordinate 1: proportional turns it with coordinate 257 as pair 1, .*; rotary_dim turns it with coordinate 65 as pair 1/);
    // Choosing a fraction is in the link.
    await page.check(`#${id} input[name="m-prf"] >> nth=1`);
    await page.waitForFunction(() => new URLSearchParams(location.search).get("m.prf") === "0.125");
    assert.match(await page.textContent(`#${id} .finding`), /Drawn with partial_rotary_factor 0\.125 instead \(chosen above\): r = int\(512 × 0\.125\) = 64/);
    await page.check(`#${id} input[name="m-prf"] >> nth=0`);
    await page.waitForFunction(() => new URLSearchParams(location.search).get("m.prf") === "layer");
    assert.equal(await csvIsPeRender(page, id, query), 257, "a header, then a row per turning coordinate: 128 per convention");
  });
});

test("the query-temperature figure: Llama 4 Scout's layer without RoPE, its factors as transformers' formulas give them, its readout, and its CSV as pe render computes it", async () => {
  const query = "m.model=llama-4-scout&m.layer=3&m.L=65536&m.p=40000";
  // transformers 5.24: Llama4TextAttention (positions + 1, floor_scale 8192, attn_scale 0.1),
  // Ministral 3's get_llama_4_attn_scale (original_max_position_embeddings 16 384, beta 0.1) and
  // Beam's compute_attention_scaling.
  const llama = (p) => Math.log1p(Math.floor((p + 1) / 8192)) * 0.1 + 1;
  const ministral = (p) => 1 + 0.1 * Math.log(1 + Math.floor(p / 16384));
  const beam = (p) => Math.exp(0.1 * Math.log1p((p + 1) / 2048));
  const six = (x) => (x === 1 ? "1" : x.toFixed(5));
  await onPage(env.browser, `${env.server.url}?${query}`, { width: 1280, height: 900 }, { acceptDownloads: true }, async (page) => {
    const id = "fig-models-temperature";
    await drawn(page, id);
    let finding = await page.textContent(`#${id} .finding`);
    assert.match(finding, /^Layer 3 of Llama 4 Scout has no RoPE: its queries are scaled by the Llama 4 steps\./);
    assert.ok(finding.includes(`at the query's position 40\u202F000, ${six(llama(40000))}.`), finding);
    assert.ok(finding.includes(`at the query's position 40\u202F000, ${six(ministral(40000))} (`), finding);
    assert.ok(finding.includes(`at the query's position 40\u202F000, ${six(beam(40000))}.`), finding);
    assert.ok(finding.includes(`1 up to position ${grouped(8190)}, then a step every ${grouped(8192)} positions`), finding);
    // The keyboard reads positions: Home is position 0, End the context's last.
    await page.focus(`#${id} canvas`);
    await page.keyboard.press("Home");
    assert.equal(await page.textContent(`#${id}-readout`), `Position 0: Llama 4's factor 1, Ministral 3's 1, Beam's ${six(beam(0))}.`);
    await page.keyboard.press("End");
    const last = 65535;
    assert.equal(await page.textContent(`#${id}-readout`), `Position 65\u202F535: Llama 4's factor ${six(llama(last))}, Ministral 3's ${six(ministral(last))}, Beam's ${six(beam(last))}.`);
    // A layer with RoPE is not scaled by Llama 4.
    await commit(page, "#ctl-m-layer-value", "2");
    await page.waitForFunction(() => new URLSearchParams(location.search).get("m.layer") === "2");
    finding = await page.textContent(`#${id} .finding`);
    assert.match(finding, /^Layer 2 of Llama 4 Scout rotates q and k, so its queries are not scaled: only the layers without RoPE are\./);
    await commit(page, "#ctl-m-layer-value", "3");
    await page.waitForFunction(() => new URLSearchParams(location.search).get("m.layer") === "3");
    const rows = await csvIsPeRender(page, id, query);
    assert.ok(rows > 10, `${rows} rows`);
  });
});

test("the YaRN figure: DeepSeek-V3's two factors as transformers computes them, its readout, and its CSV as pe render computes it", async () => {
  const query = "m.model=deepseek-v3&m.layer=0";
  // transformers 5.24: _compute_yarn_parameters' get_mscale and DeepSeek-V3's yarn_apply_mscale.
  const getMscale = (s, m) => (s <= 1 ? 1 : 0.1 * m * Math.log(s) + 1);
  const four = (x) => (x === 1 ? "1" : x.toPrecision(4));
  await onPage(env.browser, `${env.server.url}?${query}`, { width: 1280, height: 900 }, { acceptDownloads: true }, async (page) => {
    const id = "fig-models-yarn";
    await drawn(page, id);
    const finding = await page.textContent(`#${id} .finding`);
    assert.match(finding, /^Layer 0 of DeepSeek-V3 is YaRN with factor 40, mscale 1, mscale_all_dim 1\. DeepSeek-V3's query-key head is 192 wide: 128 coordinates without RoPE/);
    const softmax = getMscale(40, 1) ** 2;
    assert.ok(finding.includes(`get_mscale(40, 1)² = ${four(getMscale(40, 1))}² = ${four(softmax)}: every coordinate`), finding);
    assert.ok(finding.includes(`one that leaves out the softmax factor gets every q·k logit ${four(softmax)} times too small`), finding);
    // The keyboard reads factors: Home is s = 1, End the largest drawn (128).
    await page.focus(`#${id} canvas`);
    await page.keyboard.press("Home");
    assert.equal(await page.textContent(`#${id}-readout`), "s = 1: cos and sin × 1, softmax scale × 1, a rotated coordinate's share × 1, the others' × 1.");
    await page.keyboard.press("End");
    const top = getMscale(128, 1) ** 2;
    assert.equal(await page.textContent(`#${id}-readout`), `s = 128: cos and sin × 1, softmax scale × ${four(top)}, a rotated coordinate's share × ${four(top)}, the others' × ${four(top)}.`);
    assert.equal(await csvIsPeRender(page, id, query), 163, "a header, then a row per factor drawn: 161 on the axis and the layer's 40");
  });
});

test("the cached-keys figure: LongRoPE's switch as transformers computes it, dynamic NTK's example, its readout, and its CSV as pe render computes it", async () => {
  const query = "m.model=gemma-3-4b&m.layer=0&m.cm=longrope&m.key=1000&m.p=5000";
  // transformers 5.24's _compute_longrope_parameters for the synthetic example (head 96, θ 10 000,
  // L₀ 4096; short factors 1, long ones 32^(i/47) to 4 decimals): the key at 1 000 was rotated
  // with the short factors, the query at 5 000 with the long ones.
  const long = Array.from({ length: 48 }, (_, i) => Number((32 ** (i / 47)).toFixed(4)));
  const theta = (i) => 1 / 10000 ** ((2 * i) / 96);
  const errors = long.map((l, i) => 1000 * theta(i) * (1 / l - 1));
  const off = errors.filter((e) => Math.abs(e) >= 0.1).length;
  const worst = errors.reduce((w, e, i) => (Math.abs(e) > Math.abs(errors[w]) ? i : w), 0);
  await onPage(env.browser, `${env.server.url}?${query}`, { width: 1280, height: 900 }, { acceptDownloads: true }, async (page) => {
    const id = "fig-models-stale";
    await drawn(page, id);
    let finding = await page.textContent(`#${id} .finding`);
    assert.match(finding, /^Layer 0's RoPE \(default\) computes its frequencies once, whatever the length, so the figure draws an example: LongRoPE/);
    assert.ok(finding.includes("The key at 1\u202F000 was rotated with the short factors, those of 1\u202F001 tokens (the sequence's length when it was generated;"), finding);
    assert.ok(finding.includes("; the query at 5\u202F000 with those of 5\u202F001 tokens, the long factors."), finding);
    assert.ok(finding.includes(`Pairs off by 0.1 rad or more: ${off} of 48`), finding);
    assert.ok(finding.includes(`the largest error is pair ${worst}'s, ${Math.abs(errors[worst]).toPrecision(4)} rad`), finding);
    assert.ok(finding.includes("1 pair keeps its frequency and is exact."), finding);
    assert.match(finding, /In transformers 5\.24 only Phi-3 rebuilds: its prepare_inputs_for_generation drops the cache the first time the input is longer than its L₀ while/);
    // The keyboard reads pairs: Home is pair 0 (factor 1 in both lists), End the slowest.
    await page.focus(`#${id} canvas`);
    await page.keyboard.press("Home");
    assert.match(await page.textContent(`#${id}-readout`), /^Pair 0: ω = 1\.000 for the key at 1\u202F000 \(wavelength 6\.283 tokens\), 1\.000 for the query \(wavelength 6\.283 tokens\); the key is off by 0 rad\.$/);
    await page.keyboard.press("End");
    const slowest = await page.textContent(`#${id}-readout`);
    assert.ok(slowest.startsWith(`Pair 47: ω = ${theta(47).toPrecision(4)} for the key at 1\u202F000`), slowest);
    assert.equal(await csvIsPeRender(page, id, query), 49, "a header, then a row per pair");
    // Dynamic NTK's example, and the key in the link.
    await page.check(`#${id} input[name="m-cm"] >> nth=0`);
    await page.waitForFunction(() => new URLSearchParams(location.search).get("m.cm") === null);
    finding = await page.textContent(`#${id} .finding`);
    assert.match(finding, /dynamic NTK as transformers computes it for Llama 2 7B's head/);
    assert.match(finding, /transformers 5\.24 keeps every cached key when dynamic NTK changes the frequencies/);
    await commit(page, "#ctl-m-key-value", "4095");
    await page.waitForFunction(() => new URLSearchParams(location.search).get("m.key") === "4095");
    // Cached at 4 096 tokens (= L₀): the trained frequencies; the query's length 5 001 has base
    // 10 000·(2·5001/4096 − 1)^(128/126), over 10 000: printed whole.
    const base = 10000 * (2 * 5001 / 4096 - 1) ** (128 / 126);
    finding = await page.textContent(`#${id} .finding`);
    assert.ok(finding.includes("The key at 4\u202F095 was rotated with the trained frequencies, those of 4\u202F096 tokens"), finding);
    assert.ok(finding.includes(`; the query at 5\u202F000 with those of 5\u202F001 tokens, base ${Math.round(base)}.`), finding);
  });
});

test("chapter 5 fits a 390 px phone", async () => {
  await onPage(env.browser, `${env.server.url}?#models`, { width: 390, height: 844 }, async (page) => {
    for (const id of FIGURES) {
      await showFigure(page, id);
      const wide = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(wide <= 390, `#${id}: the page is ${wide} px wide`);
    }
  });
});

test("the paste box reads every preset's published config, and its v5 form, as the preset", async () => {
  await onPage(env.browser, `${env.server.url}?#fig-models-layers`, async (page) => {
    await page.click("#models details.paste summary");
    const paste = async (text) => {
      await page.fill("#ctl-m-config", text);
      await page.click("#ctl-m-read");
    };
    for (const model of await presets(page)) {
      const published = readFileSync(presetFile(model), "utf8");
      await page.selectOption("#ctl-m-model", model);
      await drawn(page, "fig-models-layers");
      const want = await page.textContent("#fig-models-layers .finding");
      const v5 = await page.textContent("#fig-models-v5");
      // The published (mostly legacy) form.
      await paste(published);
      await page.waitForFunction(() => new URLSearchParams(location.search).has("m.cfg"));
      assert.equal(await page.inputValue("#ctl-m-model"), "pasted");
      assert.match(await page.textContent("#models .paste-read"), /^Read/);
      assert.equal(await page.textContent("#fig-models-layers .finding"), want, `${model}, as published`);
      // The v5 form the page shows, in place of the legacy fields.
      const config = JSON.parse(published);
      const fields = config.text_config ?? config;
      for (const k of ["rope_theta", "rope_scaling", "rope_parameters", "rope_local_base_freq"]) delete fields[k];
      Object.assign(fields, JSON.parse(`{${v5}}`));
      await paste(JSON.stringify(config));
      await page.waitForFunction((t) => document.querySelector("#fig-models-layers .finding")?.textContent === t, want);
      // (Compared as JSON: the test's own JSON.stringify writes 8.0 as 8.)
      const again = await page.textContent("#fig-models-v5");
      assert.deepEqual(JSON.parse(`{${again}}`), JSON.parse(`{${v5}}`), `${model}: the v5 form reads back as itself`);
    }
    // Scout's fields that are not about layers are named, in one line.
    await paste(readFileSync(presetFile("llama-4-scout"), "utf8"));
    // The link follows a moment later (its writes are coalesced): the link compared below is
    // Scout's.
    await page.waitForFunction(() => new URLSearchParams(location.search).get("m.cfg")?.includes('"llama4"'));
    const note = await page.textContent("#models .paste-read");
    assert.match(note, /^Read\. Not used by this chapter.s figures \(\d+\): /);
    assert.ok(note.includes("text_config.use_qk_norm") || note.endsWith("…"), note);
    // Its query temperature fields are kept (the temperature figure reads them).
    assert.ok(!note.includes("floor_scale") && !note.includes("attn_scale"), note);
    // A config that does not parse changes nothing and says why in one line.
    const before = await page.textContent("#fig-models-layers .finding");
    const link = await page.evaluate(() => location.search);
    await paste('{"model_type": "llama4", "text_config": {');
    const error = await page.textContent("#models .paste-error");
    assert.match(error, /^line \d+, column \d+: /);
    assert.ok(!error.includes("\n"));
    assert.equal(await page.textContent("#fig-models-layers .finding"), before);
    assert.equal(await page.evaluate(() => location.search), link);
    // A pasted config survives a reload through the link; choosing a preset drops it.
    await page.goto(`${env.server.url}${link}#fig-models-layers`);
    await page.waitForFunction(() => !document.getElementById("loading"));
    await drawn(page, "fig-models-layers");
    assert.equal(await page.inputValue("#ctl-m-model"), "pasted");
    await page.selectOption("#ctl-m-model", "gemma-3-4b");
    await page.waitForFunction(() => !new URLSearchParams(location.search).has("m.cfg"));
  });
});

test("a link whose pasted config cannot be read shows the preset and says why", async () => {
  await onPage(env.browser, `${env.server.url}?m.model=gpt-oss-20b&m.cfg=%7B%22model_type%22%3A%22bert%22%7D#fig-models-layers`, async (page) => {
    await drawn(page, "fig-models-layers");
    assert.match(await page.textContent("#models .paste-error"), /could not be read \(model_type "bert".*\); the preset is shown/);
    assert.match(await page.textContent("#fig-models-layers .finding"), /^24 layers: /);
  });
});

test("Gemma 4 as transformers 5.24 saves it (per_layer_config) pastes as the published preset", async () => {
  const saved = readFileSync(fileURLToPath(new URL("../reference/configs/gemma-4-31b-v5-saved.json", import.meta.url)), "utf8");
  await onPage(env.browser, `${env.server.url}?m.model=gemma-4-31b#fig-models-layers`, async (page) => {
    await drawn(page, "fig-models-layers");
    const want = await page.textContent("#fig-models-layers .finding");
    await page.click("#models details.paste summary");
    await page.fill("#ctl-m-config", saved);
    await page.click("#ctl-m-read");
    await page.waitForFunction(() => new URLSearchParams(location.search).has("m.cfg"));
    assert.equal(await page.textContent("#fig-models-layers .finding"), want);
  });
});
