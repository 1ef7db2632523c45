// Shared pieces of the browser tests: a static server for dist/ on 127.0.0.1 and Debian's Chromium
// driven by playwright-core (never a downloaded browser).
import assert from "node:assert/strict";
import { resolve } from "node:path";
import { before, after } from "node:test";
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS, serveStatic } from "./serve.mjs";

const DIST = resolve(new URL("../../dist", import.meta.url).pathname);

/** Serves dist/ on 127.0.0.1 at a free port (`options`: serveStatic's, e.g. `{ cache: true }`);
 * resolves to { url (ending in "/"), close }. */
export async function serveDist(options = {}) {
  const server = await serveStatic({ "/": DIST }, {}, options);
  return { url: `${server.url}/`, close: server.close };
}

/**
 * For a test file: serves dist/ (with serveStatic's `options`) and launches Chromium before its
 * tests, closes both after them. Returns `{ server, browser }`, filled in once the tests start.
 */
export function shareBrowser(options = {}) {
  const env = {};
  before(async () => {
    env.server = await serveDist(options);
    env.browser = await launch();
  });
  after(async () => {
    await env.browser?.close();
    await env.server?.close();
  });
  return env;
}

/** Launches Debian's Chromium. */
export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: CHROMIUM_ARGS,
  });
}

/**
 * Opens `url` in a new page and records every console error, page error, failed request
 * (network failure or HTTP status ≥ 400), Content-Security-Policy violation and request to
 * another origin in `problems`.
 */
export async function openPage(browser, url, viewport = { width: 1280, height: 900 }, options = {}) {
  const context = await browser.newContext({ viewport, ...options });
  const page = await context.newPage();
  const problems = [];
  await watchPolicy(page, url, problems);
  page.on("console", (msg) => {
    if (msg.type() === "error") problems.push(`console: ${msg.text()}`);
  });
  page.on("pageerror", (err) => problems.push(`pageerror: ${err.message}`));
  page.on("requestfailed", (req) => problems.push(`requestfailed: ${req.url()} ${req.failure()?.errorText}`));
  page.on("response", (res) => {
    if (res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.url()}`);
  });
  await page.goto(url);
  await page.waitForSelector("#fig-heatmap canvas, .embed figure");
  await page.waitForFunction(() => !document.getElementById("loading"));
  await bookMounted(page);
  return { page, problems, context };
}

/**
 * Opens `url` as `openPage` does (`onPage(browser, url, [viewport, [options]], body)`), runs
 * `body(page, problems)`, then checks that the page logged no problem; the page is closed even
 * when `body` throws.
 */
export async function onPage(browser, url, ...rest) {
  const body = rest.pop();
  const { page, problems, context } = await openPage(browser, url, ...rest);
  try {
    await body(page, problems);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
}

/**
 * Waits until every part of the book is built: the app builds the parts below the first screen a
 * slice per task after it mounts (src/app/deferred.rs), counting them down in `data-pending`.
 */
export async function bookMounted(page) {
  await page.waitForFunction(() => (document.getElementById("app")?.dataset.pending ?? "0") === "0", null, { timeout: 10000 });
}

/**
 * Scrolls figure `id` (its first canvas) into view and waits until it has repainted since its canvases came into
 * view (figures off screen skip their redraws; each observed canvas records `data-near` and
 * `data-near-at`, the moment it last came into view).
 */
export async function showFigure(page, id) {
  // Its first canvas, where it has one: a figure taller than the window (long findings on a
  // phone) would otherwise be centred with its canvas out of view.
  const canvas = page.locator(`#${id} canvas`).first();
  await ((await canvas.count()) > 0 ? canvas : page.locator(`#${id}`)).scrollIntoViewIfNeeded();
  await page.waitForFunction(
    (id) => {
      const fig = document.getElementById(id);
      if (!fig) return false;
      const own = Number.parseFloat(fig.dataset.drawnAt ?? "");
      const inner = [...fig.querySelectorAll("[data-drawn-at]")].map((e) => Number.parseFloat(e.dataset.drawnAt));
      const drawnAt = Math.max(own || 0, ...inner.filter(Number.isFinite), 0);
      const near = [...fig.querySelectorAll("canvas[data-near=true]")];
      // A figure without a canvas (a table) is drawn once it is in the page.
      if (!fig.querySelector("canvas")) return drawnAt > 0;
      if (near.length === 0) return false;
      const nearAt = Math.max(...near.map((c) => Number.parseFloat(c.dataset.nearAt)));
      return drawnAt > 0 && drawnAt >= nearAt;
    },
    id,
    { timeout: 10000 },
  );
  // A tall figure's canvases come into view in separate observer callbacks: wait until its
  // repaints have settled (data-drawn-at unchanged over three animation frames).
  await page.evaluate(async (id) => {
    const fig = document.getElementById(id);
    const drawnAt = () =>
      Math.max(
        Number.parseFloat(fig.dataset.drawnAt ?? "") || 0,
        ...[...fig.querySelectorAll("[data-drawn-at]")].map((e) => Number.parseFloat(e.dataset.drawnAt) || 0),
      );
    const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    let last = drawnAt();
    for (let quiet = 0, guard = 0; quiet < 3 && guard < 120; guard++) {
      await frame();
      const now = drawnAt();
      quiet = now === last ? quiet + 1 : 0;
      last = now;
    }
  }, id);
}

/**
 * Records in `problems` every `securitypolicyviolation` event (each frame of the page) and every
 * request to an origin other than `url`'s (the page loads nothing from elsewhere, ever).
 */
export async function watchPolicy(page, url, problems) {
  const origin = new URL(url).origin;
  await page.exposeBinding("__reportViolation", (_source, text) => problems.push(`CSP violation: ${text}`));
  await page.addInitScript(() => {
    addEventListener("securitypolicyviolation", (e) =>
      window.__reportViolation(`${e.violatedDirective} blocked ${e.blockedURI || "inline"} (${e.sourceFile}:${e.lineNumber})`),
    );
  });
  page.on("request", (req) => {
    const u = new URL(req.url());
    if ((u.protocol === "http:" || u.protocol === "https:") && u.origin !== origin) {
      problems.push(`request to another origin: ${req.url()}`);
    }
  });
}
