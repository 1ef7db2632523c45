// Chapter 4 ("Tables and biases") in a real browser: every figure draws, every control it
// declares repaints it, the ALiBi slopes match transformers' for 8 and 16 heads and follow the
// interleaving rule for 12, the slope slider changes only its head, the learned table's cliff is
// exactly at max_len, re-roll changes the table while a seed reproduces it, T5's buckets match
// transformers' formula (computed here in float32), and the chapter fits a 390 px phone.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { bookMounted, onPage, openPage, shareBrowser, showFigure } from "./harness.mjs";
import { canvasStats, declaredControlsRepaint, hashes, installHelpers, nextFrame, waitRedraw, drawnAt } from "./figures.mjs";

const env = shareBrowser();

const FIGURES = [
  "fig-tab-learned",
  "fig-tab-learned-sim",
  "fig-tab-shaw",
  "fig-tab-txl",
  "fig-tab-t5",
  "fig-tab-slopes",
  "fig-tab-alibi",
  "fig-tab-alibi-attention",
  "fig-tab-nope",
  "fig-tab-drope",
  "fig-tab-compare",
  "fig-tab-same",
  "fig-tab-extrapolate",
];

const reference = JSON.parse(
  readFileSync(fileURLToPath(new URL("../../../shared/reference/alibi.json", import.meta.url)), "utf8"),
);
/** transformers' slopes for `heads` heads, from the reference file. */
const refSlopes = (heads) => {
  const r = reference.records.find((x) => (x.heads ?? x.n_heads ?? x.num_heads) === heads);
  assert.ok(r, `alibi.json has no record for ${heads} heads: ${JSON.stringify(reference.records[0]).slice(0, 200)}`);
  return r.slopes ?? r.values ?? r.output;
};

const slopesOf = (page) => page.$eval("#fig-tab-slopes", (f) => f.dataset.slopes.split(",").map(Number));

const close = (a, b, rel = 1e-6) => Math.abs(a - b) <= rel * Math.max(Math.abs(a), Math.abs(b), 1e-12);

/** transformers' T5Attention._relative_position_bucket, with torch's float32 arithmetic. */
function t5Bucket(rel, bidirectional, numBuckets, maxDistance) {
  let buckets = 0;
  let nb = numBuckets;
  let r = rel;
  if (bidirectional) {
    nb = Math.floor(nb / 2);
    if (r > 0) buckets += nb;
    r = Math.abs(r);
  } else {
    r = -Math.min(r, 0);
  }
  const maxExact = Math.floor(nb / 2);
  if (r < maxExact) return buckets + r;
  const f = Math.fround;
  const scale = f(Math.log(maxDistance / maxExact));
  const large = maxExact + Math.trunc(f(f(f(Math.log(f(f(r) / f(maxExact)))) / scale) * f(nb - maxExact)));
  return buckets + Math.min(large, nb - 1);
}

test("every chapter-4 figure draws, with no console error, and the comparison links resolve", async () => {
  await onPage(env.browser, `${env.server.url}?#tables`, async (page) => {
    await installHelpers(page);
    for (const id of FIGURES) {
      await showFigure(page, id);
      const stats = await canvasStats(page, id);
      if (id === "fig-tab-compare") {
        assert.equal(stats.length, 0);
        continue;
      }
      assert.ok(stats.length > 0, `#${id} has no canvas`);
      for (const s of stats) assert.ok(s.colours > 20 && s.width > 50, `#${id}: ${JSON.stringify(s)}`);
    }
    const links = await page.$$eval("#fig-tab-compare tbody th a", (a) => a.map((x) => x.getAttribute("href")));
    // Every row links to its figure.
    assert.equal(links.length, await page.$$eval("#fig-tab-compare tbody tr", (r) => r.length));
    assert.ok(links.length >= 10, `${links.length} rows`);
    for (const href of links) {
      assert.ok(await page.$(href), `the comparison links to ${href}, which is not on the page`);
    }
  });
});

test("each control a chapter-4 figure declares repaints it", async (t) => {
  await onPage(env.browser, `${env.server.url}?`, async (page) => {
    await declaredControlsRepaint(t, page, {
      url: `${env.server.url}?`,
      chapter: "tables",
      figures: FIGURES.filter((f) => f !== "fig-tab-compare"),
      // The preset picker sets other controls, and the quiz is not a figure's.
      ignored: (c) => c === "ctl-t-preset" || c.startsWith("quiz-"),
    });
  });
});

test("ALiBi slopes: 8 and 16 heads equal transformers', 12 heads interleave them", async () => {
  await onPage(env.browser, `${env.server.url}?t.h=8#fig-tab-slopes`, async (page) => {
    for (const heads of [8, 16]) {
      await page.goto(`${env.server.url}?t.h=${heads}#fig-tab-slopes`);
      await page.waitForFunction(() => !document.getElementById("loading"));
      await bookMounted(page);
      const got = await slopesOf(page);
      const want = refSlopes(heads);
      assert.equal(got.length, heads);
      got.forEach((m, k) => assert.ok(close(m, want[k]), `${heads} heads, head ${k + 1}: ${m} vs ${want[k]}`));
    }
    await page.goto(`${env.server.url}?t.h=12#fig-tab-slopes`);
    await page.waitForFunction(() => !document.getElementById("loading"));
    await bookMounted(page);
    const got = await slopesOf(page);
    const want = [...refSlopes(8), ...refSlopes(16).filter((_, k) => k % 2 === 0).slice(0, 4)];
    assert.equal(got.length, 12);
    got.forEach((m, k) => assert.ok(close(m, want[k]), `12 heads, head ${k + 1}: ${m} vs ${want[k]}`));
    const finding = await page.textContent("#fig-tab-slopes .finding");
    assert.match(finding, /In the authors' code \(get_slopes\), as in BLOOM and MPT, heads 1 … 8 take the 8-head slopes and heads 9 … 12 take slopes 1, 3, …, 7 of the 16-head sequence/);
    assert.match(finding, /head 9 would get 2\^−6\.000 ≈ 0\.01562 rather than 2\^−0\.5000 ≈ 0\.7071/);
  });
});

test("the slope slider changes only its head's slope, and the reset restores the default (the authors' code's)", async () => {
  await onPage(env.browser, `${env.server.url}?t.h=12&t.head=5#fig-tab-slopes`, async (page) => {
    const before = await slopesOf(page);
    await page.focus("#ctl-t-m");
    await page.keyboard.press("PageUp");
    await page.waitForFunction((b) => document.getElementById("fig-tab-slopes").dataset.slopes !== b, before.join(","));
    const after = await slopesOf(page);
    after.forEach((m, k) => {
      if (k === 4) assert.ok(m > before[k] * 1.5, `head 5: ${before[k]} → ${m}`);
      else assert.equal(m, before[k], `head ${k + 1} changed`);
    });
    await page.waitForFunction(() => /t\.m=/.test(location.search));
    assert.match(
      await page.textContent("#fig-tab-slopes-readout"),
      /^Head 5 of 12: slope m = 2\^\S+ [=≈] \S+ \(yours; the default, from the authors' code, is 2\^−5\.000 = 0\.03125\)/,
    );
    assert.equal((await page.textContent("#ctl-t-m-reset")).trim(), "Default slope");
    await page.click("#ctl-t-m-reset");
    await page.waitForFunction((b) => document.getElementById("fig-tab-slopes").dataset.slopes === b, before.join(","));
  });
});

test("the learned table's cliff is exactly at max_len", async () => {
  await onPage(env.browser, `${env.server.url}?t.L=100&t.n=200#fig-tab-learned`, async (page) => {
    await showFigure(page, "fig-tab-learned");
    const canvas = "#fig-tab-learned canvas:not(.layer) >> nth=0";
    await page.focus(canvas);
    await page.keyboard.press("Home");
    for (let k = 0; k < 10; k++) await page.keyboard.press("PageDown");
    const readout = () => page.textContent("#fig-tab-learned-readout");
    assert.equal(await page.$eval("#fig-tab-learned", (f) => f.dataset.cell), "100,0");
    assert.match(await readout(), /^Position 100, column 0: the learned table has no vector here \(its rows are 0 … 99\)/);
    await page.keyboard.press("ArrowUp");
    assert.match(await readout(), /^Position 99, column 0: learned -?\d/);
    assert.match(await page.textContent("#fig-tab-learned .finding"), /^100 of the 200 positions \(100 … 199\) have no learned vector/);
  });
});

test("re-roll changes the learned table and its seed in the URL; the same seed reproduces it", async () => {
  await onPage(env.browser, `${env.server.url}?t.seed=42#fig-tab-learned`, async (page) => {
    await installHelpers(page);
    await showFigure(page, "fig-tab-learned");
    const first = await hashes(page, "fig-tab-learned");
    const since = await drawnAt(page, "fig-tab-learned");
    await page.click("#ctl-t-seed-reroll");
    assert.ok(await waitRedraw(page, "fig-tab-learned", since));
    await page.waitForFunction(() => !/t\.seed=42(&|$)/.test(location.search));
    assert.notEqual(await hashes(page, "fig-tab-learned"), first);
    await page.goto(`${env.server.url}?t.seed=42#fig-tab-learned`);
    await page.waitForFunction(() => !document.getElementById("loading"));
    await bookMounted(page);
    await installHelpers(page);
    await showFigure(page, "fig-tab-learned");
    await nextFrame(page);
    assert.equal(await hashes(page, "fig-tab-learned"), first);
  });
});

/**
 * The T5 curve's readout after Home and after each of `count − 1` ArrowRight presses on the curve
 * (the second canvas of #fig-tab-t5), the keys dispatched in the page: one round trip, not one
 * per key (about 2,400 keys in these tests, 75 s through the DevTools protocol on 2 cores).
 */
const curveReadouts = (page, count) =>
  page.evaluate(async (count) => {
    const curve = document.querySelectorAll("#fig-tab-t5 canvas:not(.layer)")[1];
    const readout = document.getElementById("fig-tab-t5-curve-readout");
    // The app's handlers run, then its effects (microtasks), before the next task.
    const press = async (key) => {
      curve.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true }));
      await new Promise((r) => setTimeout(r, 0));
      return readout.textContent;
    };
    curve.focus();
    const texts = [await press("Home")];
    while (texts.length < count) texts.push(await press("ArrowRight"));
    return texts;
  }, count);

test("T5 buckets in the readout match transformers' formula in float32", async () => {
  for (const [bi, nb, md] of [
    [true, 32, 128],
    [false, 32, 128],
    [true, 9, 128],
    [false, 17, 27],
  ]) {
    const { page, problems, context } = await openPage(
      env.browser,
      `${env.server.url}?t.tn=300&t.nb=${nb}&t.md=${md}&t.bi=${bi ? 1 : 0}#fig-tab-t5`,
    );
    try {
      await showFigure(page, "fig-tab-t5");
      const reach = Math.max(299, md + Math.floor(md / 2), 8);
      // Step along the curve: Home is −reach; every step adds one.
      const texts = await curveReadouts(page, 2 * reach + 1);
      for (let r = -reach, k = 0; r <= reach; r += 1, k += 1) {
        if (Math.abs(r) <= 40 || r % 17 === 0 || Math.abs(r) === md || Math.abs(r) === md - 1) {
          const got = Number(/→ bucket (\d+)/.exec(texts[k])?.[1]);
          assert.equal(got, t5Bucket(r, bi, nb, md), `nb ${nb}, md ${md}, ${bi ? "bidirectional" : "causal"}: ${texts[k]}`);
        }
      }
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  }
});

test("Transformer-XL: the readout's four terms and score are pe txl-terms' numbers; keys after the query are masked", async () => {
  const sentence = "The dog saw the dog";
  const seed = 3;
  // The CLI (built by make figures before the browser tests) computes the same terms natively.
  const pe = fileURLToPath(new URL("../../target/debug/pe", import.meta.url));
  const cli = JSON.parse(execFileSync(pe, ["txl-terms", "--sentence", sentence, "--seed", String(seed)], { encoding: "utf8" }));
  const query = `t.xs=${encodeURIComponent(sentence)}&t.xseed=${seed}`;
  await onPage(env.browser, `${env.server.url}?${query}#fig-tab-txl`, async (page) => {
    await showFigure(page, "fig-tab-txl");
    await installHelpers(page);
    const canvas = "#fig-tab-txl canvas:not(.layer) >> nth=0";
    // The readout of cell (i, j), reached with the keys from the top-left cell.
    const readCell = async (i, j) => {
      await page.focus(canvas);
      await page.keyboard.press("Home");
      await page.keyboard.press("PageUp");
      for (let k = 0; k < i; k++) await page.keyboard.press("ArrowDown");
      for (let k = 0; k < j; k++) await page.keyboard.press("ArrowRight");
      return page.textContent("#fig-tab-txl-readout");
    };
    for (const [i, j] of [[0, 0], [4, 1], [3, 0], [4, 4], [1, 3]]) {
      const text = await readCell(i, j);
      assert.ok(text.startsWith(`Query ${cli.tokens[i]} ·${i}, key ${cli.tokens[j]} ·${j}`), `(${i}, ${j}): ${text}`);
      if (j > i) {
        assert.match(text, /the causal mask hides it/, text);
        assert.equal(cli.score[i][j], null);
        continue;
      }
      assert.ok(text.includes(`distance i − j = ${i - j}`), text);
      // Four decimals each, with a real minus sign.
      const read = (label) =>
        Number(new RegExp(`${label.replace(/[()]/g, "\\$&")},? (−?\\d+\\.\\d{4})`).exec(text)?.[1].replace("−", "-"));
      for (const [label, key] of [["(a)", "a"], ["(b)", "b"], ["(c)", "c"], ["(d)", "d"], ["the score", "score"]]) {
        const want = cli[key][i][j];
        assert.ok(Math.abs(read(label) - want) <= 5e-5, `(${i}, ${j}) ${label}: ${text} vs ${want}`);
      }
    }
    // After the shift: above the diagonal, the next row's leftovers and the padded zeros.
    await page.check('input[name="t-xterm"] >> nth=6');
    for (const [i, j] of [[1, 3], [1, 2], [3, 1]]) {
      const text = await readCell(i, j);
      const shown = Number(/(?:: |= )(−?\d+\.\d{4})/.exec(text)?.[1].replace("−", "-"));
      if (j === i + 1) assert.match(text, /: 0, the zero padded in front of query \d+.s row of the code.s rows/, text);
      else assert.ok(Math.abs(shown - cli.bd_shifted[i][j]) <= 5e-5, `shifted (${i}, ${j}): ${text} vs ${cli.bd_shifted[i][j]}`);
      if (j > i) assert.match(text, /the causal mask hides it/, text);
    }
    // The matrix shows the chosen term: switching to (d) repaints it.
    const before = await drawnAt(page, "fig-tab-txl");
    await page.check('input[name="t-xterm"] >> nth=4');
    await waitRedraw(page, "fig-tab-txl", before);
    await page.waitForFunction(() => /(^|[?&])t\.xterm=d(&|$)/.test(location.search), null, { timeout: 3000 });
  });
});

test("DroPE: the readout's three weights are pe drope's at the first, a middle and the last sampled distance", async () => {
  const [dim, trained, factor, n, seed] = [16, 1024, 4, 8, 5];
  const pe = fileURLToPath(new URL("../../target/debug/pe", import.meta.url));
  const args = ["drope", "--dim", dim, "--trained", trained, "--target", trained * factor, "--distractors", n, "--seed", seed];
  const cli = JSON.parse(execFileSync(pe, args.map(String), { encoding: "utf8" }));
  const query = `t.dd=${dim}&t.dL=${trained}&t.ds=${factor}&t.dn=${n}&t.dseed=${seed}`;
  await onPage(env.browser, `${env.server.url}?${query}#fig-tab-drope`, async (page) => {
    await showFigure(page, "fig-tab-drope");
    const canvas = "#fig-tab-drope canvas:not(.layer) >> nth=0";
    await page.focus(canvas);
    await page.keyboard.press("Home");
    const steps = Math.floor(cli.distance.length / 10);
    for (const [key, k] of [["Home", 0], ["PageDown", steps], ["End", cli.distance.length - 1]]) {
      await page.keyboard.press(key);
      const text = await page.textContent("#fig-tab-drope-readout");
      const t = cli.distance[k];
      assert.ok(text.startsWith(`Matching key at distance ${t} (${t >= trained ? "at or past" : "below"} L₀ = ${trained})`), `${key}: ${text}`);
      const numbers = /weight ([\d.e−-]+) under RoPE, ([\d.e−-]+) under YaRN, ([\d.e−-]+) with no rotation/.exec(text);
      assert.ok(numbers, text);
      const shown = numbers.slice(1).map((x) => Number(x.replace("−", "-")));
      [cli.rope[k], cli.yarn[k], cli.none[k]].forEach((want, i) =>
        assert.ok(close(shown[i], want, 5e-3), `${key}: ${text} vs ${want}`),
      );
    }
    // The finding states the weight without rotation, the same at every distance.
    const finding = await page.textContent("#fig-tab-drope .finding");
    assert.match(finding, /Without rotation \(DroPE\) it takes [\d.]+ at every distance/, finding);
    assert.ok(cli.none.every((w) => w === cli.none[0]));
  });
});

test("T5: the last bucket is said to start at its first distance and to run on without end", async () => {
  for (const [bi, first, finding] of [
    [true, 91, "every distance from 91 on, max_distance = 128 included, shares the last bucket (15, or 31 for keys after the query)"],
    [false, 113, "every distance from 113 on, max_distance = 128 included, shares the last bucket (31)"],
  ]) {
    await onPage(env.browser, `${env.server.url}?t.tn=300&t.bi=${bi ? 1 : 0}#fig-tab-t5`, async (page) => {
      await showFigure(page, "fig-tab-t5");
      assert.ok((await page.textContent("#fig-tab-t5 .finding")).includes(finding));
      // Home is j − i = −299; step to −200, −first and −(first − 1).
      const texts = await curveReadouts(page, 300);
      const at = (r) => texts[r + 299];
      const last = bi ? "the last bucket for keys before the query" : "the last bucket";
      const bucket = bi ? 15 : 31;
      for (const r of [-200, -first]) {
        assert.equal(
          at(r),
          `j − i = −${-r} → bucket ${bucket} (${last}: every distance from ${first} on, however far, shares it)`,
        );
      }
      assert.match(at(-(first - 1)), new RegExp(`^j − i = −${first - 1} → bucket ${bucket - 1} \\(logarithmic: shared by distances \\d+ … ${first - 1}`));
    });
  }
});

test("chapter 4 fits a 390 px phone", async () => {
  await onPage(env.browser, `${env.server.url}?#tables`, { width: 390, height: 844 }, async (page) => {
    for (const id of FIGURES) {
      await showFigure(page, id);
      const wide = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(wide <= 390, `#${id}: the page is ${wide} px wide`);
    }
  });
});

test("every quiz link opens a state whose figure shows the answer; answers stay out of the URL", async () => {
  await onPage(env.browser, `${env.server.url}?#quiz`, async (page) => {
    const questions = await page.$$("#tables fieldset.question");
    assert.ok(questions.length >= 6, `${questions.length} questions`);
    for (const q of questions) await (await q.$("input[type=radio]")).check();
    const links = await page.$$eval("#tables fieldset.question .answer a", (a) =>
      a.map((x) => ({ href: x.getAttribute("href"), shows: x.dataset.shows })),
    );
    assert.equal(links.length, questions.length);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(new URL(page.url()).search, "", `the answers reached the URL: ${page.url()}`);
    for (const { href, shows } of links) {
      const url = new URL(href, env.server.url).href;
      const id = new URL(url).hash.slice(1);
      await page.goto(url);
      await page.waitForFunction(() => !document.getElementById("loading"));
      await bookMounted(page);
      await showFigure(page, id);
      const text = await page.textContent(`#${id}`);
      assert.ok(text.includes(shows), `${href}: #${id} does not show “${shows}”`);
    }
  });
});
