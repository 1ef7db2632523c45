// What the browser tests of the chapters share about figures: page-side helpers (a figure's last
// redraw time, its canvases' colours and pixel hash), waiting for a redraw, and changing any
// control the way a reader would and checking that its figure repaints.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { bookMounted, showFigure } from "./harness.mjs";

/** The native CLI, built by `make test` before the browser tests. */
const pe = fileURLToPath(new URL("../../target/debug/pe", import.meta.url));

/**
 * Page-side helpers on `window`: the figure's last redraw time (its own data-drawn-at, or — for a
 * figure without one — the newest data-drawn-at inside it), and per-canvas pixel statistics.
 */
export async function installHelpers(page) {
  await page.evaluate(() => {
    window.drawnAtOf = (id) => {
      const fig = document.getElementById(id);
      if (!fig) return NaN;
      const own = Number.parseFloat(fig.dataset.drawnAt ?? "");
      if (Number.isFinite(own)) return own;
      const inner = [...fig.querySelectorAll("[data-drawn-at]")].map((e) => Number.parseFloat(e.dataset.drawnAt));
      return inner.length ? Math.max(...inner) : NaN;
    };
    // A figure's canvas and the layers painted over it (cells, marks) are one picture: each
    // figure canvas is summarised together with the `canvas.layer` siblings in its wrapper.
    window.canvasStatsOf = (id) =>
      [...document.querySelectorAll(`#${id} canvas:not(.layer)`)].map((c) => {
        const out = { width: c.width, height: c.height, cssWidth: c.getBoundingClientRect().width, colours: 0, hash: 0 };
        if (c.width === 0 || c.height === 0) return out;
        const colours = new Set();
        let hash = 2166136261;
        for (const layer of [c, ...c.parentElement.querySelectorAll("canvas.layer")]) {
          if (layer.width === 0 || layer.height === 0) continue;
          const data = layer.getContext("2d").getImageData(0, 0, layer.width, layer.height).data;
          for (let i = 0; i < data.length; i += 4) {
            const v = ((data[i] << 24) | (data[i + 1] << 16) | (data[i + 2] << 8) | data[i + 3]) >>> 0;
            colours.add(v);
            hash = Math.imul(hash ^ v, 16777619) >>> 0;
          }
        }
        out.colours = colours.size;
        out.hash = hash;
        return out;
      });
  });
}

export const drawnAt = (page, id) => page.evaluate((id) => window.drawnAtOf(id), id);
export const canvasStats = (page, id) => page.evaluate((id) => window.canvasStatsOf(id), id);
export const hashes = async (page, id) => (await canvasStats(page, id)).map((s) => s.hash).join(":");

/** Waits for the next frame (so every effect of the last input has run and painted). */
export const nextFrame = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));

/** Waits until figure `id` redraws after `since`; false on timeout. */
export async function waitRedraw(page, id, since, timeout = 3000) {
  try {
    await page.waitForFunction(([id, since]) => window.drawnAtOf(id) > since, [id, since], { timeout });
    await nextFrame(page);
    return true;
  } catch {
    return false;
  }
}

/** Fills a text or number box and commits it with Enter (fires `change`). */
export async function commit(page, selector, text) {
  await page.fill(selector, text);
  await page.press(selector, "Enter");
}

/**
 * Changes one control (an element id or a radio-group name) the way a reader would and returns a
 * description of what was done. Throws (fails the test) when the control does not exist.
 */
export async function changeControl(page, token) {
  const info = await readControl(page, token);
  assert.ok(info, `control "${token}" does not exist (no element with that id, no radio group of that name)`);
  const sel = `#${token}`;
  switch (info.kind) {
    case "range": {
      // PageUp/PageDown move a range by a tenth of its span: a change every figure must show
      // (one arrow step of d_model can move a curve by less than a pixel).
      const atMax = Number(info.value) >= Number(info.max) - 1e-9;
      const key = atMax ? "PageDown" : "PageUp";
      await page.focus(sel);
      await page.keyboard.press(key);
      await page.waitForFunction(([s, v]) => document.querySelector(s).value !== v, [sel, info.value], { timeout: 2000 });
      return `${key} on ${sel} (was ${info.value})`;
    }
    case "number": {
      const v = Number(info.value);
      const next = info.max !== "" && v + 7 > Number(info.max) ? v - 7 : v + 7;
      await commit(page, sel, String(next));
      await page.waitForFunction(([s, v]) => document.querySelector(s).value === v, [sel, String(next)], { timeout: 2000 });
      return `typed ${next} into ${sel} (was ${v})`;
    }
    case "text": {
      const choices = {
        "ctl-sentence": ["dog bites man", "man bites dog"],
        "ctl-dims": ["0,2,8", "3,5"],
        "ctl-r-s1": ["a mouse ate the cheese today", "The mouse ate some cheese"],
        "ctl-r-s2": ["we ate cheese", "In the house a cat ate some cheese"],
        "ctl-r-w1": ["cheese", "ate"],
        "ctl-r-w2": ["ate", "cheese"],
        "ctl-t-seed": ["7", "1"],
        "ctl-t-nseed": ["7", "1"],
        "ctl-t-xs": ["dog bites man", "the dog saw the dog"],
        "ctl-t-xseed": ["7", "1"],
        "ctl-t-dseed": ["7", "1"],
      }[token];
      assert.ok(choices, `no test value for text box ${sel}`);
      const next = info.value === choices[0] ? choices[1] : choices[0];
      await commit(page, sel, next);
      return `typed "${next}" into ${sel} (was "${info.value}")`;
    }
    case "select-one": {
      const options = await page.$$eval(`${sel} option`, (o) => o.map((x) => x.value));
      const next = options.find((v) => v !== info.value);
      assert.ok(next !== undefined, `${sel} has no other option`);
      await page.selectOption(sel, next);
      return `chose option ${next} of ${sel} (was ${info.value})`;
    }
    case "checkbox": {
      await page.click(sel);
      await page.waitForFunction(([s, c]) => document.querySelector(s).checked !== c, [sel, info.checked], { timeout: 2000 });
      return `clicked ${sel} (was ${info.checked ? "on" : "off"})`;
    }
    case "radio": {
      const option = page.locator(`input[type=radio][name="${info.name}"]:not(:checked)`).first();
      await option.click();
      return `clicked an unchecked radio of group "${info.name}"`;
    }
    default:
      throw new Error(`control "${token}" is an input of type ${info.kind}, which this test does not know how to change`);
  }
}

/** Asserts that changing `token` redraws figure `figId` with different pixels. */
export async function assertControlRepaints(page, token, figId) {
  await showFigure(page, figId);
  await nextFrame(page);
  const beforeAt = await drawnAt(page, figId);
  const beforeHash = await hashes(page, figId);
  const did = await changeControl(page, token);
  // Focusing a control can scroll its figure out of view (the sticky panel is far from the naive
  // figure, say); off-screen figures repaint when they come back. Look at the figure again.
  await page.locator(`#${figId}`).scrollIntoViewIfNeeded();
  // The first redraw after the input may still be of the state before it (a draw the last
  // restore left pending, once the figure is back in view): wait for the next ones too, within
  // the same 3 s, until the pixels change.
  const deadline = Date.now() + 3000;
  let redrew = await waitRedraw(page, figId, beforeAt);
  let afterHash = await hashes(page, figId);
  while (redrew && afterHash === beforeHash && Date.now() < deadline) {
    if (!(await waitRedraw(page, figId, await drawnAt(page, figId), deadline - Date.now()))) break;
    afterHash = await hashes(page, figId);
  }
  if (redrew && afterHash !== beforeHash) return;
  // What the page says of the figure and the control, for a failure that does not repeat.
  const seen = await page.evaluate(
    ([figId, token]) => ({
      search: location.search,
      control: document.getElementById(token)?.value,
      canvases: [...document.querySelectorAll(`#${figId} canvas:not(.layer)`)].map(
        (c) => `near=${c.dataset.near} near-at=${c.dataset.nearAt} top=${Math.round(c.getBoundingClientRect().top)}`,
      ),
      drawnAt: window.drawnAtOf(figId),
      now: performance.now(),
      viewport: innerHeight,
    }),
    [figId, token],
  );
  const state = `; the page then: ${JSON.stringify(seen)}`;
  assert.ok(
    redrew,
    `#${figId} did not redraw (data-drawn-at stayed ${beforeAt}) within 3 s after: ${did}; ` +
      `canvas pixels ${afterHash === beforeHash ? "unchanged" : "changed"}${state}`,
  );
  assert.notEqual(afterHash, beforeHash, `#${figId} redrew (${beforeAt} → ${seen.drawnAt}) but its canvas pixels are unchanged after: ${did}${state}`);
}

/**
 * Control `token` (an element id or a radio-group name) as it is now: its kind (an input's type,
 * "radio" for a group), name, value (and its number box's, if it has one), bounds, whether it is
 * checked and, for a group, the place of its checked radio in the group (null when none is: the
 * radios carry no value attribute, so each one's value reads "on"); null when there is no such
 * control. What `changeControl` changes from, and what `restoreControl` sets it back to.
 */
const readControl = (page, token) =>
  page.evaluate((token) => {
    const el = document.getElementById(token);
    if (el) {
      const box = document.getElementById(`${token}-value`)?.value ?? null;
      return { kind: el.type === "radio" ? "radio" : el.type, name: el.name, value: el.value, box, min: el.min, max: el.max, checked: el.checked, radio: null };
    }
    const radios = [...document.querySelectorAll(`input[type=radio][name="${CSS.escape(token)}"]`)];
    const on = radios.findIndex((r) => r.checked);
    return radios.length ? { kind: "radio", name: token, radio: on < 0 ? null : on } : null;
  }, token);

/**
 * Sets control `token` back to `snap` (from `readControl`) as the bench does: the new value,
 * then `input` and `change`; a radio or checkbox by a click. Resolves to whether the page's URL
 * is then `search` again (all state is in the URL: the page is where it started), once the page
 * has written it: the app writes the URL a quarter second after the last change, and until then
 * the address bar may still show the start although the state is elsewhere.
 */
async function restoreControl(page, token, snap, search) {
  await page.evaluate(
    ([token, snap]) => {
      const el = document.getElementById(token);
      if (el && (el.type === "checkbox" || el.type === "radio")) {
        if (el.checked !== snap.checked) el.click();
      } else if (el) {
        // A slider with a number box is set back through the box: a log slider's position is
        // rounded to its step (32 reads 1.51, and 1.51 sets 32.4).
        const target = (snap.box !== null && document.getElementById(`${token}-value`)) || el;
        target.value = target === el ? snap.value : snap.box;
        target.dispatchEvent(new Event("input", { bubbles: true }));
        target.dispatchEvent(new Event("change", { bubbles: true }));
      } else if (snap.radio !== null) {
        const radio = document.querySelectorAll(`input[type=radio][name="${CSS.escape(token)}"]`)[snap.radio];
        if (radio && !radio.checked) radio.click();
      }
    },
    [token, snap],
  );
  try {
    await page.waitForFunction(() => !document.getElementById("app").hasAttribute("data-url-pending"), null, { timeout: 2000 });
  } catch {
    return false;
  }
  return page.evaluate((search) => location.search === search, search);
}

/**
 * Subtests of `t` for one chapter (the section `#<chapter>`): each control a figure declares in
 * `data-controls` repaints that figure, each from the state of `url`; and every control of the
 * chapter (inputs and selects by id, radio groups by name; not `…-value` boxes, disabled inputs
 * or what `ignored` names) is declared by some figure. After each pair the control is set back;
 * when that brings the link back to `url`'s (all state is in the link: choosing a model preset
 * sets a dozen controls, and setting the preset back does not), the next pair starts there, else
 * from `url` loaded afresh (a load costs about 3 s on 2 cores, most of these tests' time).
 */
export async function declaredControlsRepaint(t, page, { url, chapter, figures, ignored = () => false }) {
  let start = null; // the link's query once `url` has loaded
  const load = async () => {
    await page.goto(url);
    await page.waitForFunction(() => !document.getElementById("loading"));
    await bookMounted(page);
    await installHelpers(page);
    start = await page.evaluate(() => location.search);
  };
  const declared = await page.$$eval(`#${chapter} figure[data-controls]`, (f) =>
    f.map((x) => ({ id: x.id, controls: x.dataset.controls.split(/\s+/).filter(Boolean) })),
  );
  assert.deepEqual(declared.map((d) => d.id), figures);
  // Each pair from the same state: a control moved twice (once per figure that reads it) can land
  // where the second figure does not change (tried: head_dim 434 leaves the dynamic-NTK figure as
  // it was, and a second method can draw the same wavelengths).
  let atStart = false;
  for (const { id, controls: tokens } of declared) {
    for (const token of tokens) {
      await t.test(`${token} → #${id}`, async () => {
        if (!atStart) await load();
        atStart = false;
        const before = await readControl(page, token);
        await assertControlRepaints(page, token, id);
        atStart = await restoreControl(page, token, before, start);
      });
    }
  }
  await t.test(`every control of #${chapter} is declared by some figure`, async () => {
    await load();
    const used = new Set(declared.flatMap((d) => d.controls));
    const all = await page.evaluate((chapter) => {
      const root = document.getElementById(chapter);
      const ids = [...root.querySelectorAll("input[id], select[id]")]
        .filter((e) => e.type !== "radio" && !e.id.endsWith("-value") && !e.disabled)
        .map((e) => e.id);
      const radios = [...new Set([...root.querySelectorAll("input[type=radio]")].map((e) => e.name))];
      return [...ids, ...radios];
    }, chapter);
    assert.deepEqual(all.filter((c) => !used.has(c) && !ignored(c)), []);
  });
}

/** Downloads figure `id`'s CSV from the page and asserts it is `pe render --format csv` for the
 * same link `query`; returns its number of data rows. Values whose computation differs in its
 * last bits between wasm's and the host's maths (through log₁₀ and back, sines and cosines) are
 * equal to 12 significant digits of the larger of |value| and `floor` (0: relative; a figure
 * whose values cross zero gives the scale of its values). */
export async function csvIsPeRender(page, id, query, { floor = 0 } = {}) {
  await page.click(`#${id} .figure-download`);
  const [file] = await Promise.all([page.waitForEvent("download"), page.click(`#${id} .figure-csv`)]);
  const onPageCsv = readFileSync(await file.path(), "utf8");
  const out = join(mkdtempSync(join(tmpdir(), `pe-${id}-`)), "fig.csv");
  execFileSync(pe, ["render", id, "--format", "csv", "--query", query, "--out", out]);
  const rows = (text) => text.split("\n").filter((l) => l && !l.startsWith("#"));
  const [a, b] = [rows(onPageCsv), rows(readFileSync(out, "utf8"))];
  assert.equal(a.length, b.length);
  // A line with quotes (a header: its labels may hold commas) is equal as text; any other cell by
  // cell, numbers to 12 significant digits and labels exactly.
  a.forEach((line, k) => {
    if (line.includes('"') || b[k].includes('"')) return assert.equal(line, b[k], `row ${k}`);
    const [x, y] = [line.split(","), b[k].split(",")];
    assert.equal(x.length, y.length, `row ${k}`);
    x.forEach((c, j) => {
      const [u, v] = [Number(c), Number(y[j])];
      const close = c !== "" && Number.isFinite(u) && Number.isFinite(v) && Math.abs(u - v) <= 1e-12 * Math.max(floor, Math.abs(v));
      assert.ok(c === y[j] || close, `row ${k}, column ${j}: ${c} vs ${y[j]}`);
    });
  });
  return a.length;
}
