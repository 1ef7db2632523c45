// What the browser benchmark (run.mjs) runs inside the page, through page.evaluate: each function
// is self-contained (playwright sends its source), so it may use nothing from this module.

/** Figures to bench: their ids, control tokens, and whether they carry the timing attribute. */
export function discoverFigures(fallback) {
  return [...document.querySelectorAll('figure[id^="fig-"]')].map((f) => {
    const listed = f.dataset.controls?.trim();
    return {
      id: f.id,
      controls: listed ? listed.split(/\s+/) : f.id === "fig-heatmap" ? fallback : null,
      fallback: !listed,
      timed: f.hasAttribute("data-drawn-at"),
    };
  });
}

/**
 * Runs in the page: steps one control `warmup + events` times and, for every figure in `figIds`
 * (the figures whose data-controls list it), returns the latencies data-drawn-at − t0 (ms). One
 * input redraws every figure that depends on the changed state, so all of them are timed from the
 * same events. `page` is, per event, the time until the last timed figure on the page (listed or
 * not) finished redrawing. Self-contained (serialized by playwright).
 */
export async function benchControl({ token, figIds, warmup, events, timeoutMs, probeMs }) {
  const figs = figIds.map((id) => document.getElementById(id));
  const allTimed = [...document.querySelectorAll("figure[data-drawn-at]")];
  const drawnAt = (f) => Number.parseFloat(f.dataset.drawnAt ?? "");
  const drawMs = (f) => Number.parseFloat(f.dataset.drawMs ?? "");
  const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  const errors = [];

  // Resolve the token: an element id, or the name of a radio group.
  const el = document.getElementById(token);
  let kind;
  let options = [];
  if (el && el.type === "radio") {
    kind = "radio";
    options = [...document.querySelectorAll(`input[type=radio][name="${CSS.escape(el.name)}"]`)];
  } else if (!el) {
    options = [...document.querySelectorAll(`input[type=radio][name="${CSS.escape(token)}"]`)];
    if (options.length === 0) return { error: `control "${token}" not found (no element id, no radio group)` };
    kind = "radio";
  } else if (el.type === "range") kind = "range";
  else if (el.type === "number") kind = "number";
  else if (el.tagName === "SELECT") kind = "select";
  else if (el.type === "checkbox") kind = "checkbox";
  else if (el.tagName === "TEXTAREA" || ["text", "search", ""].includes(el.type)) kind = "text";
  else return { error: `control "${token}" is a ${el.tagName.toLowerCase()}[type=${el.type}], not a supported input` };
  if (kind === "radio" && options.length < 2) return { error: `radio group "${token}" has fewer than 2 options` };

  // Two states to alternate between: event j goes to state (j+1) mod 2 (radios: the next option).
  const initial = el && kind !== "checkbox" ? el.value : null;
  const initialRadio = kind === "radio" ? Math.max(0, options.findIndex((o) => o.checked)) : 0;
  const initialChecked = kind === "checkbox" ? el.checked : null;
  const numeric = kind === "range" || kind === "number";
  let k = 1; // steps between the two values of a range/number control
  const valuesFor = (steps) => {
    if (numeric) {
      const step = Number(el.step) > 0 ? Number(el.step) : 1;
      const min = el.min === "" ? -Infinity : Number(el.min);
      const max = el.max === "" ? Infinity : Number(el.max);
      const v0 = Number(initial);
      if (steps * step > max - min) return null;
      let alt = v0 + steps * step;
      if (alt > max + 1e-9) alt = v0 - steps * step;
      if (alt < min - 1e-9) return null;
      return [initial, String(Number(alt.toFixed(9)))];
    }
    if (kind === "text") {
      // A list ("0, 1, 4, 10") loses its last item; words lose the last word; a single word (a
      // box that takes one word) gains a letter; an empty box gets a word.
      // A whole number (a seed) alternates with the next one.
      if (/^\d+$/.test(initial.trim())) return [initial, String(Number(initial.trim()) + 1)];
      const list = initial.split(/\s*,\s*/).filter(Boolean);
      if (list.length >= 2) return [initial, list.slice(0, -1).join(", ")];
      const words = initial.trim().split(/\s+/).filter(Boolean);
      if (words.length >= 2) return [initial, words.slice(0, -1).join(" ")];
      if (words.length === 1) return [initial, `${words[0]}s`];
      return [initial, "word"];
    }
    return null;
  };
  let values = valuesFor(k);
  const setValue = (v) => {
    el.value = v;
    el.dispatchEvent(new Event("input", { bubbles: true }));
    // Number and text boxes commit on `change` (Enter or blur); a slider fires `input` as it moves.
    if (kind !== "range") el.dispatchEvent(new Event("change", { bubbles: true }));
  };
  const apply = (j) => {
    if (kind === "radio") options[(initialRadio + j + 1) % options.length].click();
    else if (kind === "checkbox") el.click();
    else if (kind === "select") {
      el.selectedIndex = (el.selectedIndex + 1) % el.options.length;
      el.dispatchEvent(new Event("input", { bubbles: true }));
      el.dispatchEvent(new Event("change", { bubbles: true }));
    } else setValue(values[(j + 1) % 2]);
  };
  const atInitial = () =>
    kind === "radio" ? options[initialRadio].checked : kind === "checkbox" ? el.checked === initialChecked : el.value === initial;
  const restore = () => {
    if (kind === "radio") options[initialRadio].click();
    else if (kind === "checkbox") el.click();
    else if (kind === "select") {
      el.value = initial;
      el.dispatchEvent(new Event("input", { bubbles: true }));
      el.dispatchEvent(new Event("change", { bubbles: true }));
    } else setValue(initial);
  };

  // Redraw notifications: a MutationObserver on data-drawn-at of every timed figure.
  const draws = new Map();
  let wake = null;
  const observer = new MutationObserver((records) => {
    for (const r of records) draws.set(r.target, (draws.get(r.target) ?? 0) + 1);
    wake?.();
  });
  for (const f of allTimed) observer.observe(f, { attributes: true, attributeFilter: ["data-drawn-at"] });

  /** Resolves when every figure of `set` has drawn after t0, or at `limit`: Map figure → drawn-at. */
  const waitDrawn = (t0, set, limit) =>
    new Promise((resolve) => {
      const done = () => {
        wake = null;
        clearTimeout(timer);
        resolve(new Map(set.filter((f) => drawnAt(f) > t0).map((f) => [f, drawnAt(f)])));
      };
      const timer = setTimeout(done, limit);
      const check = () => set.every((f) => drawnAt(f) > t0) && (done(), true);
      if (!check()) wake = check;
    });

  /** In view now: any part of the figure's picture (its first canvas that is not a paint layer;
   * the figure itself when it has none) inside the viewport. A figure whose title or controls alone
   * show has nothing on screen to repaint: the page draws a canvas only when it is near. */
  const inView = (f) => {
    const r = (f.querySelector("canvas:not(.layer)") ?? f).getBoundingClientRect();
    return r.width > 0 && r.bottom > 0 && r.top < innerHeight && r.right > 0 && r.left < innerWidth;
  };
  // The figures in view that this control redraws (learnt in the probe and warm-up): the reader's
  // clock stops only when all of them have repainted.
  const visible = new Set();
  /** The reader's clock: from the input (given at the start of a frame, as Chromium delivers a
   * slider drag's pointer events) to the first task after a rendered frame by which every figure of
   * `set` has drawn — a task posted during a frame's update runs after its style, layout and paint
   * — so the main thread is free and every visible figure's new pixels are in a frame. Work that
   * fits the input's own frame ends well under 16.7 ms; work that spills over ends a frame later. */
  const settled = async (t0, set, limit) => {
    const end = t0 + limit;
    const task = () => new Promise((r) => setTimeout(() => r(performance.now()), 0));
    let after = await task();
    for (;;) {
      if (set.every((f) => drawnAt(f) > t0)) return after - t0;
      if (after > end) return NaN;
      after = await new Promise((r) => requestAnimationFrame(() => setTimeout(() => r(performance.now()), 0)));
    }
  };

  const others = new Set(); // figures outside `figIds` that the measured events redrew too
  /** One event: per figure of `set` its latency or undefined, its data-draw-ms, its redraw count. */
  const one = async (j, set, limit) => {
    draws.clear();
    // The input arrives at the start of a frame (in a requestAnimationFrame callback).
    const t0 = await new Promise((r) =>
      requestAnimationFrame(() => {
        const t = performance.now();
        apply(j);
        r(t);
      }),
    );
    const hit = await waitDrawn(t0, set, limit);
    const reported = new Map([...hit.keys()].map((f) => [f, drawMs(f)]));
    // The frame is produced before the next input; late extra redraws are counted. The reader's
    // clock waits for every figure in view that the control redraws.
    // In view after this input's layout: a figure the control once redrew in view may have moved
    // out of it (a text above it changed length), and then has nothing on screen to repaint.
    const reader = await settled(t0, [...new Set([...set, ...visible])].filter(inView), limit);
    const redrawn = allTimed.filter((f) => drawnAt(f) > t0);
    if (learning) for (const f of redrawn) if (inView(f)) visible.add(f);
    const ends = redrawn.map(drawnAt);
    for (const f of redrawn) if (!set.includes(f)) others.add(f.id);
    return {
      latency: new Map([...hit].map(([f, t]) => [f, t - t0])),
      drawMs: reported,
      draws: new Map(set.map((f) => [f, draws.get(f) ?? 0])),
      page: ends.length ? Math.max(...ends) - t0 : NaN,
      settled: reader,
    };
  };
  let learning = true;

  try {
    await frame();
    // Probe (not counted): a numeric step that does not redraw every listed figure is widened ×4.
    let live = figs;
    if (numeric) {
      if (!values) return { error: `"${token}": no other value to step to` };
      let best = null;
      for (;;) {
        const a = await one(0, figs, probeMs);
        const b = await one(1, figs, probeMs);
        const ok = figs.filter((f) => a.latency.has(f) && b.latency.has(f));
        if (!best || ok.length > best.ok.length) best = { k, ok };
        if (ok.length === figs.length) break;
        const wider = valuesFor(k * 4);
        if (!wider) break;
        k *= 4;
        values = wider;
      }
      k = best.k;
      values = valuesFor(k);
      live = best.ok;
    } else if (values === null && kind === "text") return { error: `"${token}": no other text to try` };
    // Warm-up (not counted).
    for (let j = 0; j < warmup; j++) {
      const r = await one(j, live, probeMs);
      live = live.filter((f) => r.latency.has(f));
    }
    for (const f of figs) {
      if (!live.includes(f)) errors.push(`"${token}" of ${f.id}: the figure does not redraw when it changes`);
    }
    others.clear();
    learning = false;
    const samples = [];
    for (let j = warmup; j < warmup + events && live.length > 0; j++) {
      const r = await one(j, live, timeoutMs);
      for (const f of live) {
        if (!r.latency.has(f)) errors.push(`"${token}" of ${f.id}: no redraw within ${timeoutMs} ms (event ${j - warmup + 1})`);
      }
      live = live.filter((f) => r.latency.has(f));
      samples.push(r);
    }
    if (!atInitial()) {
      const t0 = performance.now();
      restore();
      await waitDrawn(t0, figs, timeoutMs);
      await frame();
    }
    return {
      kind,
      values: values ?? options.map((o) => o.value || o.id || "?"),
      errors,
      page: samples.map((s) => s.page).filter(Number.isFinite),
      settled: samples.map((s) => s.settled),
      inView: [...visible].map((f) => f.id),
      others: [...others],
      figures: live.map((f) => ({
        id: f.id,
        latency: samples.map((s) => s.latency.get(f)),
        drawMs: samples.map((s) => s.drawMs.get(f)),
        extraDraws: samples.filter((s) => s.draws.get(f) > 1).length,
      })),
    };
  } finally {
    observer.disconnect();
  }
}

/** Smallest non-zero step of performance.now() seen in a short busy loop (ms). */
export function timerResolution() {
  let best = Infinity;
  let last = performance.now();
  const end = last + 20;
  while (last < end) {
    const t = performance.now();
    if (t > last) {
      best = Math.min(best, t - last);
      last = t;
    }
  }
  return { resolution: best, isolated: globalThis.crossOriginIsolated === true };
}
