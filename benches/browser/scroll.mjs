#!/usr/bin/env node
// Scrolling through the book on a slow phone (`make bench`, issue 27): a reader opens the page and
// scrolls down one screen every 2 s, from the top to the end, on the throttled profile of the
// first-load bench (4× CPU, 1.6 Mbps down, 750 kbps up, 150 ms round trip, no cache; dist/ served
// gzip-compressed on the fly). How long does a figure stay blank in view?
//
//   node benches/browser/scroll.mjs [DIST_DIR] [--runs=1]
//
// In the page, every animation frame: each `figure[id^="fig-"]` with a canvas at least partly in
// view (a figure of text: itself) and not yet drawn (no `data-drawn-at` > 0 on it or inside it) is
// blank; a stretch of blank time runs
// from the first such frame until it is drawn or leaves the view. Printed per run: the longest
// stretch and its figure, how many figures were ever seen blank, the sum of their longest
// stretches, the next two longest, and any figure still blank in view at the end.
// Not seen: a part of the page not built yet (a chapter whose module is on its way) has no figure
// to look at; the first-load bench times the first figure. A measurement: exit 0 whatever the
// numbers, exit 1 only if the page could not be measured.

import { serveStatic } from "../../tests/e2e/serve.mjs";
import { PROFILE, benchArgs, launchChromium, throttle } from "./phone.mjs";

const { RUNS, DIST } = benchArgs("scroll.mjs", 1);
/** One screen every this many milliseconds. */
const STEP_MS = 2000;

const server = await serveStatic({ "/": DIST }, {}, { gzip: true, cache: true });
const browser = await launchChromium();

/** Runs in the page before its scripts: every frame, notes which figures in view are blank, and
 * for each figure the longest stretch it stayed in view and blank. */
function watchBlanks() {
  const blank = (globalThis.__blank = new Map()); // id → { since (open stretch) | null, longest }
  const drawn = (fig) =>
    [fig, ...fig.querySelectorAll("[data-drawn-at]")].some((e) => Number(e.getAttribute("data-drawn-at")) > 0);
  const frame = (now) => {
    for (const fig of document.querySelectorAll('figure[id^="fig-"]')) {
      // What would show blank: its canvases (a figure of text, the figure itself).
      const canvases = fig.querySelectorAll("canvas");
      const inView = [...(canvases.length ? canvases : [fig])].some((el) => {
        const r = el.getBoundingClientRect();
        return r.bottom > 0 && r.top < innerHeight && r.height > 0;
      });
      const isBlank = inView && !drawn(fig);
      const b = blank.get(fig.id);
      if (isBlank && !b) blank.set(fig.id, { since: now, longest: 0 });
      else if (isBlank && b.since === null) b.since = now;
      else if (!isBlank && b && b.since !== null) {
        b.longest = Math.max(b.longest, now - b.since);
        b.since = null;
      }
    }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

async function oneRun() {
  const context = await browser.newContext({
    viewport: { width: 412, height: 823 },
    deviceScaleFactor: 1.75,
    isMobile: true,
    hasTouch: true,
  });
  const page = await context.newPage();
  await page.addInitScript(watchBlanks);
  await throttle(context, page);
  try {
    await page.goto(server.url + "/", { timeout: 60000 });
    // From the first paint: a screen every STEP_MS until the end of the page.
    await page.waitForFunction(() => performance.getEntriesByName("first-contentful-paint").length > 0, null, { timeout: 60000 });
    let screens = 0;
    for (;;) {
      await page.waitForTimeout(STEP_MS);
      const moved = await page.evaluate(() => {
        const before = scrollY;
        scrollBy(0, innerHeight);
        return scrollY !== before;
      });
      if (!moved) break;
      screens++;
      if (screens > 400) throw new Error("the page did not end after 400 screens");
    }
    await page.waitForTimeout(STEP_MS);
    const blanks = await page.evaluate(() =>
      [...globalThis.__blank].map(([id, b]) => ({
        id,
        ms: Math.max(b.longest, b.since === null ? 0 : performance.now() - b.since),
        never: b.since !== null,
      })),
    );
    return { screens, blanks };
  } finally {
    await context.close();
  }
}

console.log(
  `Scrolling one screen every ${STEP_MS / 1000} s from the top, phone 412×823, throttled: ${PROFILE.cpu}× CPU, ` +
    `${PROFILE.downKbps / 1000} Mbps down, ${PROFILE.rttMs} ms RTT; no cache; gzip`,
);
console.log("run   screens   longest blank s   figure                      figures seen blank   sum s");
try {
  for (let i = 1; i <= RUNS; i++) {
    const { screens, blanks } = await oneRun();
    const worst = blanks.reduce((a, b) => (b.ms > (a?.ms ?? -1) ? b : a), null);
    const sum = blanks.reduce((a, b) => a + b.ms, 0);
    const never = blanks.filter((b) => b.never).map((b) => b.id);
    const next = blanks
      .filter((b) => b !== worst)
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 2)
      .map((b) => `${b.id} ${(b.ms / 1000).toFixed(2)}`);
    console.log(
      `${String(i).padEnd(4)}  ${String(screens).padStart(7)}   ${((worst?.ms ?? 0) / 1000).toFixed(2).padStart(15)}   ` +
        `${(worst?.id ?? "—").padEnd(26)}  ${String(blanks.length).padStart(19)}   ${(sum / 1000).toFixed(2).padStart(5)}` +
        `   next: ${next.join(", ")}` +
        (never.length ? `   still blank at the end: ${never.join(", ")}` : ""),
    );
  }
} catch (e) {
  console.error(`could not measure: ${e.message.split("\n")[0]}`);
  process.exitCode = 1;
} finally {
  await browser.close();
  await server.close();
}
