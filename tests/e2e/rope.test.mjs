// Chapter 2 ("Rotations: RoPE") and the book around it, in a real browser: the page's figures are
// exactly the registry's (src/book.rs), every figure draws, anchors scroll to figures, chapter-1
// links still mean what they meant, and the readouts hold what the chapter claims (constant norm,
// equal angles, equal scores after the permutation).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { bookMounted, onPage, openPage, shareBrowser, showFigure } from "./harness.mjs";

const env = shareBrowser();

/** The registry: chapters and their figure ids, read from src/book.rs. */
async function registry() {
  const text = await readFile(new URL("../../src/book.rs", import.meta.url), "utf8");
  const chapters = [...text.matchAll(/id: "([a-z0-9-]+)",\s*number: (\d+)/g)].map((m) => m[1]);
  // `fig("fig-…"` (a figure of text) or `pic(\n "fig-…"` (a figure with a picture).
  const figures = [...text.matchAll(/\b(?:fig|pic)\(\s*"(fig-[a-z0-9-]+)"/g)].map((m) => m[1]);
  return { chapters, figures };
}

const ROPE = [
  "fig-rope-add",
  "fig-rope-2d",
  "fig-rope-sentences",
  "fig-rope-wheels",
  "fig-rope-efficient",
  "fig-rope-scores",
  "fig-rope-dims",
  "fig-rope-layouts",
  "fig-rope-values",
  "fig-rope-cloud",
];

/** Distinct colours per canvas of a figure (figure canvas and its layers). */
const colours = (page, id) =>
  page.evaluate((id) =>
    [...document.querySelectorAll(`#${id} canvas:not(.layer)`)].map((c) => {
      const set = new Set();
      for (const layer of [c, ...c.parentElement.querySelectorAll("canvas.layer")]) {
        if (!layer.width || !layer.height) continue;
        const data = layer.getContext("2d").getImageData(0, 0, layer.width, layer.height).data;
        for (let i = 0; i < data.length; i += 4) set.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
      }
      return { width: c.width, height: c.height, colours: set.size };
    }),
  id);

test("the page's chapters and figures are the registry's, in order, each in the contents", async () => {
  const { chapters, figures } = await registry();
  assert.ok(chapters.includes("rope") && figures.length >= 15, `registry parsed: ${chapters} / ${figures.length}`);
  await onPage(env.browser, env.server.url, async (page) => {
    const onPage = await page.$$eval("figure[id^=fig-]", (f) => f.map((x) => x.id));
    assert.deepEqual(onPage, figures);
    const sections = await page.$$eval("section.chapter", (s) => s.map((x) => x.id));
    assert.deepEqual(sections, chapters);
    const links = await page.$$eval("nav.toc a", (a) => a.map((x) => x.getAttribute("href")));
    for (const id of [...chapters, ...figures]) assert.ok(links.includes(`#${id}`), `contents has no link to #${id}`);
  });
});

test("every RoPE figure draws (> 20 colours per canvas) with no console errors", async (t) => {
  const { page, problems, context } = await openPage(env.browser, env.server.url);
  try {
    for (const id of ROPE) {
      await t.test(id, async () => {
        await showFigure(page, id);
        const stats = await colours(page, id);
        assert.ok(stats.length > 0, `#${id} has no canvas`);
        stats.forEach((s, k) => {
          assert.ok(s.width > 50 && s.height > 50, `#${id} canvas ${k} is ${s.width}×${s.height}`);
          assert.ok(s.colours > 20, `#${id} canvas ${k} has ${s.colours} colours`);
        });
      });
    }
    await t.test("no console errors, page errors or failed requests", () => assert.deepEqual(problems, []));
  } finally {
    await context.close();
  }
});

test("a link to a figure or chapter scrolls to it, and a contents link scrolls too", async () => {
  for (const id of ["fig-rope-scores", "rope", "fig-similarity"]) {
    await onPage(env.browser, `${env.server.url}?r.d=64#${id}`, async (page) => {
      await page.waitForFunction(
        (id) => {
          const r = document.getElementById(id).getBoundingClientRect();
          return r.top >= -2 && r.top < window.innerHeight / 2;
        },
        id,
        { timeout: 5000 },
      );
    });
  }
  const { page, context } = await openPage(env.browser, env.server.url);
  try {
    await page.click('nav.toc a[href="#fig-rope-layouts"]');
    await page.waitForFunction(() => {
      const r = document.getElementById("fig-rope-layouts").getBoundingClientRect();
      return r.top >= -2 && r.top < window.innerHeight / 2;
    }, null, { timeout: 5000 });
    // The entry being read is marked in the contents: this figure's, though its part of the book
    // was built after the contents started watching (src/app/deferred.rs).
    await page.waitForFunction(
      () => document.querySelector("nav.toc a[aria-current]")?.getAttribute("href") === "#fig-rope-layouts",
      null,
      { timeout: 5000 },
    );
  } finally {
    await context.close();
  }
});

test("chapter-1 links keep their meaning; RoPE keys are prefixed and round-trip through the URL", async () => {
  // Links of the shape chapter 1 shipped (README and earlier sessions).
  const old = "?n=256&d=64&base=500&pos=37&layout=half&spacing=fairseq&k=17";
  await onPage(env.browser, env.server.url + old, async (page) => {
    assert.equal(await page.inputValue("#ctl-n-value"), "256");
    assert.equal(await page.inputValue("#ctl-d-value"), "64");
    assert.equal(await page.inputValue("#ctl-base-value"), "500");
    assert.equal(await page.inputValue("#ctl-pos-value"), "37");
    // The RoPE chapter keeps its own defaults: `d`, `base`, `pos` are chapter 1's.
    assert.equal(await page.inputValue("#ctl-r-d-value"), "128");
    assert.equal(await page.inputValue("#ctl-r-base-value"), "10000");
    assert.equal(await page.inputValue("#ctl-r-pos-value"), "10");
    assert.equal(await page.locator(".notices li").count(), 0);
    // A RoPE change lands in the URL under its prefix, next to the chapter-1 keys.
    await page.fill("#ctl-r-d-value", "64");
    await page.press("#ctl-r-d-value", "Enter");
    await page.waitForFunction(() => new URLSearchParams(location.search).get("r.d") === "64", null, { timeout: 3000 });
    const search = await page.evaluate(() => location.search);
    for (const key of ["n=256", "d=64", "base=500", "pos=37", "r.d=64"]) assert.ok(search.includes(key), `${key} missing from ${search}`);
    await page.reload();
    await page.waitForFunction(() => !document.getElementById("loading"));
    await bookMounted(page);
    assert.equal(await page.inputValue("#ctl-r-d-value"), "64");
    assert.equal(await page.inputValue("#ctl-d-value"), "64");
  });
  const { page: p2, context: c2 } = await openPage(env.browser, `${env.server.url}?r.d=7&r.layout=diagonal`);
  try {
    assert.equal(await p2.inputValue("#ctl-r-d-value"), "6");
    assert.equal(await p2.locator(".notices li").count(), 2);
  } finally {
    await c2.close();
  }
});

test("rotating a 2D vector: the walkthrough table, and a length that never changes while playing", async () => {
  await onPage(env.browser, env.server.url, { width: 1280, height: 900 }, { reducedMotion: "no-preference" }, async (page) => {
    await showFigure(page, "fig-rope-2d");
    await page.click("#fig-rope-2d button:has-text('Walkthrough')");
    const rows = await page.$$eval("#fig-rope-2d table.numbers tbody tr", (r) => r.map((x) => x.lastElementChild.textContent));
    assert.deepEqual(rows.slice(0, 4), ["[1.000, 0.000]", "[0.000, 1.000]", "[-1.000, 0.000]", "[0.000, -1.000]"]);
    await page.click("#fig-rope-2d button:has-text('Play')");
    const norms = new Set();
    const positions = new Set();
    for (let k = 0; k < 30; k++) {
      await page.waitForTimeout(50);
      norms.add(Number(await page.getAttribute("#fig-rope-2d", "data-norm")).toFixed(12));
      positions.add(await page.inputValue("#ctl-r-vpos-value"));
    }
    await page.click("#fig-rope-2d button:has-text('Pause')");
    assert.deepEqual([...norms], ["1.000000000000"], "the length changed while the vector turned");
    assert.ok(positions.size >= 2, `the animation did not move the position: ${[...positions]}`);
    // Dragging sets v: the length follows the new v and stays put while the position moves.
    const box = await page.locator("#fig-rope-2d canvas").boundingBox();
    await page.mouse.move(box.x + box.width * 0.7, box.y + box.height * 0.3);
    await page.mouse.down();
    await page.mouse.up();
    const dragged = Number(await page.getAttribute("#fig-rope-2d", "data-norm"));
    assert.ok(Math.abs(dragged - 1) > 0.01, `drag did not change v (norm ${dragged})`);
    await page.click("#fig-rope-2d button:has-text('m + 1')");
    assert.equal(Number(await page.getAttribute("#fig-rope-2d", "data-norm")).toFixed(9), dragged.toFixed(9));
  });
});

test("same angle in both sentences for random θ and shifted pairs", async () => {
  await onPage(env.browser, env.server.url, async (page) => {
    await showFigure(page, "fig-rope-sentences");
    const angles = async () => (await page.getAttribute("#fig-rope-sentences", "data-angles")).split(",").map(Number);
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    for (let k = 0; k < 5; k++) {
      const theta = (random() * 180).toFixed(1);
      const shift = Array.from({ length: Math.floor(random() * 6) }, (_, i) => `w${i}`).join(" ");
      await page.fill("#ctl-r-stheta-value", theta);
      await page.press("#ctl-r-stheta-value", "Enter");
      await page.fill("#ctl-r-s2", `${shift} the cat ate my cheese`.trim());
      await page.press("#ctl-r-s2", "Enter");
      await page.waitForFunction((t) => Number(document.getElementById("ctl-r-stheta-value").value) === Number(t), theta);
      const [a, b] = await angles();
      assert.ok(Number.isFinite(a) && Math.abs(a - b) < 1e-9, `θ = ${theta}, shift ${shift.split(" ").length}: ${a} vs ${b}`);
    }
    // A different distance gives a different angle.
    await page.fill("#ctl-r-s2", "ate a lot of cheese");
    await page.press("#ctl-r-s2", "Enter");
    await page.waitForFunction(() => {
      const [a, b] = document.getElementById("fig-rope-sentences").dataset.angles.split(",").map(Number);
      return Math.abs(a - b) > 1e-6;
    });
  });
});

test("layouts: the permuted half-split scores equal the interleaved ones; the efficient form equals R·x", async () => {
  await onPage(env.browser, `${env.server.url}?r.pos=37`, async (page) => {
    for (const query of ["", "r.d=96&r.rot=24", "r.d=256&r.rot=64&r.seed=99"]) {
      if (query) {
        await page.goto(`${env.server.url}?r.pos=37&${query}`);
        await page.waitForFunction(() => !document.getElementById("loading"));
        await bookMounted(page);
      }
      const [inter, same, permuted] = (await page.getAttribute("#fig-rope-layouts", "data-scores")).split(",").map(Number);
      assert.ok(Math.abs(inter - permuted) < 1e-9 * (1 + Math.abs(inter)), `${query}: ${inter} vs ${permuted}`);
      assert.ok(Math.abs(inter - same) > 1e-6, `${query}: the unpermuted half-split score should differ (${inter} vs ${same})`);
      const diff = Number(await page.getAttribute("#fig-rope-efficient", "data-max-diff"));
      assert.ok(diff < 1e-12, `${query}: efficient form differs by ${diff}`);
    }
    // A preset sets head_dim, rotary_dim and layout.
    await page.click("#fig-rope-layouts button:has-text('GPT-NeoX-20B')");
    assert.equal(await page.inputValue("#ctl-r-d-value"), "96");
    assert.equal(await page.inputValue("#ctl-r-rot-value"), "24");
    assert.ok(await page.isChecked('input[name="r-layout"] >> nth=1'));
  });
});

test("q·k hover readout equals the rotated dot product computed here; diagonals are constant", async () => {
  await onPage(env.browser, `${env.server.url}?r.d=16&r.n=64&r.base=100`, async (page) => {
    await showFigure(page, "fig-rope-scores");
    const canvas = page.locator("#fig-rope-scores canvas").first();
    await canvas.focus();
    const read = async () => {
      const [m, n] = (await page.getAttribute("#fig-rope-scores", "data-cell")).split(",").map(Number);
      return { m, n, v: Number(await page.getAttribute("#fig-rope-scores", "data-value")) };
    };
    // All-ones q, k, interleaved: q'_m·k'_n = Σ_i 2 cos((m − n) θ_i).
    const expected = (m, n) => {
      let s = 0;
      for (let i = 0; i < 8; i++) s += 2 * Math.cos((m - n) * Math.pow(100, (-2 * i) / 16));
      return s;
    };
    await page.keyboard.press("ArrowDown");
    for (const key of ["ArrowRight", "ArrowRight", "PageDown", "ArrowRight", "PageDown"]) {
      await page.keyboard.press(key);
      const { m, n, v } = await read();
      assert.ok(Math.abs(v - expected(m, n)) < 1e-9, `(${m}, ${n}): ${v} vs ${expected(m, n)}`);
    }
  });
});

test("at 390 px wide every RoPE figure fits and the page does not scroll sideways", async () => {
  await onPage(env.browser, env.server.url, { width: 390, height: 800 }, { deviceScaleFactor: 2 }, async (page) => {
    for (const id of ROPE) {
      await showFigure(page, id);
      const overflow = await page.evaluate((id) => {
        const r = document.getElementById(id).getBoundingClientRect();
        return { left: r.left, right: r.right, page: document.documentElement.scrollWidth };
      }, id);
      assert.ok(overflow.left >= 0 && overflow.right <= 390.5, `#${id} spans ${overflow.left}…${overflow.right}`);
      assert.ok(overflow.page <= 390, `page is ${overflow.page} px wide at #${id}`);
    }
    // The contents is a menu here.
    assert.equal(await page.isVisible("nav.toc"), false);
    assert.equal(await page.isVisible("details.toc-menu summary"), true);
  });
});

test("why not add: moving both tokens changes the added score's position terms, never RoPE's score", async () => {
  await onPage(env.browser, env.server.url, async (page) => {
    await showFigure(page, "fig-rope-add");
    const drift = Number(await page.getAttribute("#fig-rope-add", "data-rope-drift"));
    assert.ok(drift < 1e-9, `RoPE's score moved by ${drift} over the offsets`);
    await page.fill("#ctl-r-shift-value", "37");
    await page.press("#ctl-r-shift-value", "Enter");
    const changes = await page.$$eval("#fig-rope-add table.numbers tbody tr", (rows) =>
      Object.fromEntries(rows.map((r) => [r.cells[0].textContent, Number(r.cells[2].textContent)])),
    );
    assert.equal(changes["content·content"], 0);
    for (const term of ["content·position", "position·content", "position·position"]) {
      assert.ok(Math.abs(changes[term]) > 1e-4, `${term} did not change: ${changes[term]}`);
    }
    assert.ok(Math.abs(changes["RoPE score"]) < 1e-4, `RoPE score changed by ${changes["RoPE score"]}`);
    // Another pair of tokens: still flat.
    await page.selectOption("#ctl-r-qtok", "3");
    await page.waitForFunction(() => document.querySelector("#fig-rope-add .readout").textContent.includes("chased"));
    assert.ok(Number(await page.getAttribute("#fig-rope-add", "data-rope-drift")) < 1e-9);
  });
});

test("why only q and k: moving the sentence moves no output unless the values are rotated too", async () => {
  await onPage(env.browser, env.server.url, async (page) => {
    await showFigure(page, "fig-rope-values");
    for (const offset of ["10", "1", "150"]) {
      await page.fill("#ctl-r-voff-value", offset);
      await page.press("#ctl-r-voff-value", "Enter");
      await page.waitForFunction((o) => document.getElementById("ctl-r-voff").value === o, offset);
      const [qk, all] = (await page.getAttribute("#fig-rope-values", "data-drift")).split(",").map(Number);
      assert.ok(qk < 1e-9, `offset ${offset}: outputs moved by ${qk} with q, k rotated`);
      assert.ok(all > 1e-3, `offset ${offset}: outputs moved by only ${all} with v rotated`);
    }
  });
});

test("token cloud: without positions the copies of a word coincide; with positions every position is its own point", async () => {
  await onPage(env.browser, `${env.server.url}?r.cloud=none&r.cn=64`, async (page) => {
    await showFigure(page, "fig-rope-cloud");
    // "The brown dog chased the black dog": five distinct words.
    assert.equal(await page.getAttribute("#fig-rope-cloud", "data-distinct"), "5");
    await page.click('input[name="r-cloud"] >> nth=2');
    await page.waitForFunction(() => document.getElementById("fig-rope-cloud").dataset.distinct === "64");
    await page.click('input[name="r-cloud"] >> nth=1');
    await page.waitForFunction(() => document.getElementById("fig-rope-cloud").dataset.distinct === "64");
    // Dragging turns the view and lands in the URL.
    const box = await page.locator("#fig-rope-cloud canvas").boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 60, box.y + box.height / 2 + 20, { steps: 4 });
    await page.mouse.up();
    await page.waitForFunction(() => new URLSearchParams(location.search).has("r.yaw"), null, { timeout: 3000 });
    assert.notEqual(await page.inputValue("#ctl-r-yaw-value"), "35");
  });
});

test("every chapter-2 control is declared in some figure's data-controls", async () => {
  const { page, context } = await openPage(env.browser, env.server.url);
  try {
    const { controls, declared } = await page.evaluate(() => {
      const root = document.getElementById("rope");
      const ids = [...root.querySelectorAll("input[id], select[id]")]
        .filter((e) => e.type !== "radio" && !e.id.endsWith("-value"))
        .map((e) => e.id);
      const radios = [...new Set([...root.querySelectorAll("input[type=radio]")].map((e) => e.name))];
      const declared = [...root.querySelectorAll("figure[data-controls]")].flatMap((f) => f.dataset.controls.split(/\s+/));
      return { controls: [...ids, ...radios], declared };
    });
    assert.ok(controls.length >= 20, `found only ${controls.length} controls`);
    const missing = controls.filter((c) => !declared.includes(c));
    assert.deepEqual(missing, [], `chapter-2 controls no figure declares: ${missing.join(" ")}`);
  } finally {
    await context.close();
  }
});

test("under prefers-reduced-motion nothing offers to animate; the step buttons remain", async () => {
  await onPage(env.browser, env.server.url, { width: 1280, height: 900 }, { reducedMotion: "reduce" }, async (page) => {
    assert.equal(await page.locator("#rope button:has-text('Play')").count(), 0);
    assert.equal(await page.locator("#fig-rope-2d button:has-text('m + 1')").count(), 1);
    assert.equal(await page.locator("#fig-rope-cloud button:has-text('more')").count(), 1);
  });
});

test("clock faces and wheels: arrow keys select a face and the readout names its pair", async () => {
  await onPage(env.browser, `${env.server.url}?pos=37&r.pos=12`, async (page) => {
    for (const [id, first] of [
      ["fig-clocks", /^pair 0: angle = 37 × 1\.000 = 37\.000 rad \(319\.9° into turn 6\)/],
      ["fig-rope-wheels", /^pair 0 \(coordinates 0, 1\): θ_0 = 1\.000 rad per position/],
    ]) {
      await showFigure(page, id);
      await page.locator(`#${id} canvas`).first().focus();
      await page.keyboard.press("ArrowRight");
      assert.match(await page.locator(`#${id} .readout`).first().textContent(), first);
      await page.keyboard.press("ArrowRight");
      // The next face: pair 1 of the wheels, the next shown pair of the clocks (12 of 64 shown).
      const second = await page.locator(`#${id} .readout`).first().textContent();
      assert.match(second, /^pair [1-9]\d*\b/);
      await page.keyboard.press("End");
      const last = await page.locator(`#${id} .readout`).first().textContent();
      await page.keyboard.press("ArrowRight");
      assert.equal(await page.locator(`#${id} .readout`).first().textContent(), last, "End is the last face");
    }
  });
});
