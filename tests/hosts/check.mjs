#!/usr/bin/env node
// The embed snippet where bloggers write (`make hosts`): the snippet a figure's "</>" button
// copies, pasted as it is into a post of a real Hugo site (through a shortcode, since Hugo drops
// raw HTML from Markdown by default) and a real Jekyll site (raw HTML in Markdown), each built by
// the generator from Debian's packages and served from its own origin with a strict policy that
// refuses inline styles. In Debian's Chromium, each post must show the live figure: the frame
// loads the app from another origin, the figure draws, the frame has no border, and the host's
// policy refuses nothing.
//
//   node tests/hosts/check.mjs [DIST_DIR]      (DIST_DIR defaults to dist/, from `make build`)
//
// Exit 0 when every generator passes, 1 otherwise; a generator that is not installed fails.

import { spawnSync } from "node:child_process";
import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

import { CHROMIUM_ARGS, serveStatic } from "../e2e/serve.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, "../..");
const DIST = resolve(process.argv[2] ?? join(ROOT, "dist"));
const FIGURE = "fig-ctx-turns";
/** What a strict blog sends: no inline style, frames and images from anywhere. */
const HOST_POLICY = "default-src 'self'; frame-src *; img-src * data:; style-src 'self'";

const { chromium } = await import(pathToFileURL(join(ROOT, "tests/e2e/node_modules/playwright-core/index.mjs")).href);

/** Runs a generator; throws with its output when it fails. */
function run(command, args) {
  const r = spawnSync(command, args, { encoding: "utf8" });
  if (r.error || r.status !== 0) {
    throw new Error(`${command} ${args.join(" ")}: ${r.error?.message ?? r.stderr ?? ""}`.trim());
  }
}

/** The post's Markdown around the pasted embed. */
const post = (embed) => `---
title: "How RoPE models read past their training length"
---

A post with a live figure in it.

${embed}

The post goes on after the figure.
`;

/** Each generator: builds a site whose one post holds `snippet`, into `out`. */
const GENERATORS = {
  async hugo(snippet, work, out) {
    await cp(join(HERE, "hugo"), work, { recursive: true });
    await mkdir(join(work, "content"), { recursive: true });
    await writeFile(join(work, "content", "_index.md"), post(`{{< pe-figure >}}\n${snippet}\n{{< /pe-figure >}}`));
    run("hugo", ["--quiet", "--source", work, "--destination", out]);
  },
  async jekyll(snippet, work, out) {
    await mkdir(work, { recursive: true });
    await writeFile(join(work, "_config.yml"), "title: A Jekyll blog\n");
    await writeFile(join(work, "index.md"), post(snippet));
    run("jekyll", ["build", "--quiet", "--source", work, "--destination", out]);
  },
};

/** The snippet as the figure's "</>" button gives it, read off the page. */
async function copySnippet(browser, app) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${app}/#${FIGURE}`);
  await page.waitForFunction(() => !document.getElementById("loading") && (document.getElementById("app")?.dataset.pending ?? "0") === "0", null, { timeout: 60000 });
  await page.click(`#${FIGURE} .figure-embed`);
  const text = await page.inputValue(`#${FIGURE}-embed-text`);
  await page.close();
  return text;
}

/** Opens the built post on its own origin and checks the live figure in it; resolves to failures. */
async function checkPost(browser, site) {
  const server = await serveStatic({ "/": site }, { "content-security-policy": HOST_POLICY });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const refused = [];
  // Chromium reports what a policy refuses on the console, from the first byte parsed on.
  page.on("console", (m) => {
    if (/Content Security Policy/i.test(m.text())) refused.push(m.text());
  });
  const failures = [];
  try {
    await page.goto(`${server.url}/`);
    const frame = await page.waitForSelector("iframe", { timeout: 5000 });
    const border = await frame.evaluate((f) => getComputedStyle(f).borderTopWidth);
    if (border !== "0px") failures.push(`the frame has a ${border} border`);
    await frame.scrollIntoViewIfNeeded();
    const guest = await frame.contentFrame();
    await guest.waitForFunction((id) => Number(document.getElementById(id)?.dataset.drawnAt) > 0, FIGURE, { timeout: 30000 });
  } catch (e) {
    failures.push(e.message.split("\n")[0]);
  } finally {
    await page.close();
    await server.close();
  }
  return [...failures, ...refused.map((r) => `refused: ${r}`)];
}

const app = await serveStatic({ "/": DIST });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: CHROMIUM_ARGS });
let failed = false;
try {
  const snippet = await copySnippet(browser, app.url);
  for (const [name, build] of Object.entries(GENERATORS)) {
    const work = await mkdtemp(join(tmpdir(), `pe-${name}-`));
    const out = join(work, "_site");
    let failures;
    try {
      await build(snippet, join(work, "src"), out);
      failures = await checkPost(browser, out);
    } catch (e) {
      failures = [e.message];
    } finally {
      await rm(work, { recursive: true, force: true });
    }
    failed ||= failures.length > 0;
    console.log(failures.length ? `FAIL ${name}: ${failures.join("; ")}` : `ok   ${name}: the pasted snippet shows the live figure under "${HOST_POLICY}"`);
  }
} finally {
  await browser.close();
  await app.close();
}
process.exit(failed ? 1 : 0);
