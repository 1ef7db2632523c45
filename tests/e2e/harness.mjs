// Shared pieces of the browser tests: a static server for dist/ on 127.0.0.1 and Debian's Chromium
// driven by playwright-core (never a downloaded browser).
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, join, normalize, resolve } from "node:path";
import { chromium } from "playwright-core";

const DIST = resolve(new URL("../../dist", import.meta.url).pathname);

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".wasm": "application/wasm",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
};

/** Serves dist/ on 127.0.0.1 at a free port; resolves to { url, close }. */
export async function serveDist() {
  const server = createServer(async (req, res) => {
    try {
      const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
      let file = normalize(join(DIST, path));
      if (!file.startsWith(DIST)) throw new Error("outside dist");
      if (path.endsWith("/")) file = join(file, "index.html");
      const body = await readFile(file);
      res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
      res.end(body);
    } catch {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("not found");
    }
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((ok) => server.close(ok)) };
}

export const CHROMIUM_ARGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Launches Debian's Chromium. */
export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: CHROMIUM_ARGS,
  });
}

/**
 * Opens `url` in a new page and records every console error, page error and failed request
 * (network failure or HTTP status ≥ 400) in `problems`.
 */
export async function openPage(browser, url, viewport = { width: 1280, height: 900 }, options = {}) {
  const context = await browser.newContext({ viewport, ...options });
  const page = await context.newPage();
  const problems = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") problems.push(`console: ${msg.text()}`);
  });
  page.on("pageerror", (err) => problems.push(`pageerror: ${err.message}`));
  page.on("requestfailed", (req) => problems.push(`requestfailed: ${req.url()} ${req.failure()?.errorText}`));
  page.on("response", (res) => {
    if (res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.url()}`);
  });
  await page.goto(url);
  await page.waitForSelector("#fig-heatmap canvas");
  await page.waitForFunction(() => !document.getElementById("loading"));
  return { page, problems, context };
}

/**
 * Scrolls figure `id` into view and waits until it has repainted since its canvases came into
 * view (figures off screen skip their redraws; each observed canvas records `data-near` and
 * `data-near-at`, the moment it last came into view).
 */
export async function showFigure(page, id) {
  await page.locator(`#${id}`).scrollIntoViewIfNeeded();
  await page.waitForFunction(
    (id) => {
      const fig = document.getElementById(id);
      if (!fig) return false;
      const own = Number.parseFloat(fig.dataset.drawnAt ?? "");
      const inner = [...fig.querySelectorAll("[data-drawn-at]")].map((e) => Number.parseFloat(e.dataset.drawnAt));
      const drawnAt = Math.max(own || 0, ...inner.filter(Number.isFinite), 0);
      const near = [...fig.querySelectorAll("canvas[data-near=true]")];
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
